"""What a claim states: identities, inequalities, minimisers, rates, limits, bounds on expectations
and suprema, printed constants; and the expression helpers they share."""
from __future__ import annotations

import functools
from dataclasses import KW_ONLY, dataclass, field
from typing import Any, ClassVar, Mapping

import sympy as sp
from .domain import ClaimError
from .latex import Latex, LatexError, relation_sides


# --------------------------------------------------------------------------- expressions
def expand_definitions(expr, definitions: Mapping) -> sp.Basic:
    """Substitute ``definitions`` (symbol -> expression) into ``expr`` until none is left."""
    expr = sp.sympify(expr)
    for _ in range(10):
        new = expr.subs(definitions) if definitions else expr
        if new == expr:
            return new
        expr = new
    return expr


def symbol_names(expr: sp.Basic) -> set[str]:
    """Free symbol names of ``expr``, with an IndexedBase counted by its base name."""
    out = set()
    for s in expr.free_symbols:
        if isinstance(s, sp.Indexed):
            out.add(str(s.base))
        elif isinstance(s, sp.IndexedBase):
            out.add(str(s))
        else:
            out.add(str(s))
    return out



# --------------------------------------------------------------------------- statements
def _is_expr(x) -> bool:
    return isinstance(x, sp.Expr) and not isinstance(x, sp.core.relational.Relational)


def _expr_field(owner: str, fieldname: str, value):
    """Sympify ``value`` and require an expression (not a relation, not a boolean)."""
    if value is None:
        raise ClaimError(f"{owner}: {fieldname} is missing (give {fieldname}=<SymPy expression>)")
    if isinstance(value, Latex):
        try:
            value = value.parse()
        except LatexError as exc:
            raise LatexError(f"{owner}: {fieldname}: {exc}") from None
    if isinstance(value, sp.core.relational.Relational) or (
            isinstance(value, sp.logic.boolalg.Boolean) and not isinstance(value, sp.Expr)):
        raise ClaimError(f"{owner}: {fieldname} is a relation ({value}); give the two sides as lhs= and rhs= "
                         "expressions")
    if isinstance(value, bool):
        raise ClaimError(f"{owner}: {fieldname} must be a SymPy expression, got {value!r}")
    try:
        expr = sp.sympify(value)
    except (sp.SympifyError, TypeError) as exc:
        raise ClaimError(f"{owner}: {fieldname} = {value!r} is not a SymPy expression ({exc})") from None
    if not _is_expr(expr):
        raise ClaimError(f"{owner}: {fieldname} must be a SymPy expression, got {value!r}")
    return expr


_TRIVIAL_OPS = ("<", "<=", ">", ">=")


def _trivial_field(owner: str, value):
    """Check ``trivial=`` (when the statement is trivially true): ``None``, or a SymPy relation
    (``sp.Ge(bound, 2)``) or ``And`` / ``Or`` / ``Not`` of relations; its symbols are checked by the claim."""
    if value is None:
        return None

    def ok(v) -> bool:
        if isinstance(v, sp.core.relational.Relational):
            return v.rel_op in _TRIVIAL_OPS
        if isinstance(v, (sp.And, sp.Or, sp.Not)):
            return all(ok(a) for a in v.args)
        return False

    if not ok(value):
        raise ClaimError(f"{owner}: trivial must be a SymPy relation ({', '.join(_TRIVIAL_OPS)}, e.g. "
                         f"sp.Ge(bound, 2)) or And/Or/Not of relations, saying where the statement is trivially "
                         f"true, got {value!r}")
    return value


@dataclass(frozen=True)
class Statement:
    """Base class: every statement has a short name shown in evidence (the only positional field).

    ``skip`` names checks not to run on it (e.g. ``("symbolic",)`` for nested sums SymPy cannot
    simplify within its time limit); at least one check must remain. ``reading`` puts it under one of
    the claim's alternative :class:`~dpverify.claims.Reading` s (empty: the claim as read by default).

    ``exists`` names a domain parameter quantified existentially: the statement reads "for every
    value of the other parameters there is a value of this one (in its domain and search box) at
    which it holds". :class:`Inequality`, :class:`ExpectationBound` and :class:`SupBound` accept it
    (one parameter, a ``Real`` or an ``Int`` of the domain); the other kinds refuse it where the
    statement is built, naming the statement and the parameter. Example::

        ExpectationBound("a tuned step reaches Delta/4", bound=Delta / 4, exists=("eta",),
                         scenario=noisy_gd(problem="pl", smooth=M, curvature=mu, step=eta, ...))
    """

    name: str
    _: KW_ONLY
    skip: tuple = ()
    reading: str = ""
    exists: tuple = ()
    #: whether this kind of statement can quantify a parameter existentially (``exists=``)
    EXISTS_SUPPORTED: ClassVar[bool] = False

    def _owner(self) -> str:
        return f"{type(self).__name__} {self.name!r}"

    def __post_init__(self):
        if not isinstance(self.name, str) or not self.name.strip():
            raise ClaimError(f"{type(self).__name__}: the first argument is the statement's name (a string), "
                             f"got {self.name!r}")
        if any(ord(ch) < 32 or ord(ch) == 127 for ch in self.name):   # one line wherever it is printed
            raise ClaimError(f"{type(self).__name__}: a statement's name is one line of text, without control "
                             f"characters (a newline, a tab), got {self.name!r}")
        if isinstance(self.skip, str) or not isinstance(self.skip, tuple):
            raise ClaimError(f"{self._owner()}: skip must be a tuple of check names, got {self.skip!r}")
        if not isinstance(self.reading, str):
            raise ClaimError(f"{self._owner()}: reading must be the name of one of the claim's readings (a "
                             f"string), got {self.reading!r}")
        self._check_exists()

    def _check_exists(self) -> None:
        """Normalise ``exists`` to a tuple of names; refuse it on a kind that cannot quantify
        existentially, or with more than one parameter (one line naming the statement)."""
        ex = self.exists
        if isinstance(ex, str):
            ex = (ex,)
        if isinstance(ex, list):
            ex = tuple(ex)
        if not isinstance(ex, tuple) or not all(isinstance(q, str) and q for q in ex):
            raise ClaimError(f"{self._owner()}: exists must name domain parameters (a tuple of strings), got "
                             f"{self.exists!r}")
        set_field(self, "exists", ex)
        if ex and not self.EXISTS_SUPPORTED:
            raise ClaimError(f"{self._owner()}: exists={ex!r}: the statement kind {type(self).__name__} cannot quantify "
                             f"{', '.join(ex)} existentially (exists= is for Inequality, ExpectationBound and "
                             f"SupBound)")
        if len(ex) > 1:
            raise ClaimError(f"{self._owner()}: exists={ex!r}: one existentially quantified parameter is "
                             f"supported, got {len(ex)}")

    def expressions(self) -> dict[str, sp.Basic]:
        """The statement's SymPy expressions by field name (for validation and scaling)."""
        return {}


def set_field(obj, name, value):
    """Set ``name`` of a frozen dataclass ``obj`` while it is being built (its ``__post_init__``)."""
    object.__setattr__(obj, name, value)


@dataclass(frozen=True)
class Identity(Statement):
    """``lhs == rhs`` on the whole domain.

    ``reparam`` maps symbols to expressions in fresh positive symbols that encode the hypotheses
    (e.g. ``kappa -> 1 + k``) so that SymPy can simplify.
    """

    lhs: sp.Basic = None
    rhs: sp.Basic = None
    reparam: Mapping = field(default_factory=dict)

    def __post_init__(self):
        super().__post_init__()
        set_field(self, "lhs", _expr_field(self._owner(), "lhs", self.lhs))
        set_field(self, "rhs", _expr_field(self._owner(), "rhs", self.rhs))

    def expressions(self):
        return {"lhs": self.lhs, "rhs": self.rhs}

    @classmethod
    def from_latex(cls, name: str, relation: str, *, symbols=None, **fields) -> "Identity":
        """The identity from the paper's LaTeX ``lhs = rhs`` (see :meth:`Inequality.from_latex`)."""
        try:
            lhs, rhs, _ = relation_sides(relation, symbols=symbols, allowed=("==",))
        except LatexError as exc:
            raise LatexError(f"statement {name!r}: {exc}") from None
        return cls(name, lhs=lhs, rhs=rhs, **fields)


@dataclass(frozen=True)
class Inequality(Statement):
    """``lhs <= rhs`` (``lhs < rhs`` when strict) on the whole domain.

    ``reparam`` maps symbols to expressions in fresh positive symbols that encode the hypotheses
    (e.g. ``kappa -> 1 + k``) so that SymPy's sign reasoning can attempt a proof.

    ``exists`` names a domain parameter that is quantified existentially: the statement is "for
    every value of the other parameters there EXISTS a value of this one (in its domain and search
    box) with lhs <= rhs" -- e.g. the Renyi order of an RDP-to-DP conversion, or the step size
    of a tuned rate. The check optimises the margin over it before the outer search.

    ``trivial``: where the statement is trivially true, a SymPy relation in the claim's symbols
    (e.g. ``sp.Ge(rhs, 1)`` for a probability bound); the checks then report the share of their
    points where it is not (``Evidence.coverage``). Also on :class:`ExpectationBound` and
    :class:`SupBound`.
    """

    lhs: sp.Basic = None
    rhs: sp.Basic = None
    strict: bool = False
    reparam: Mapping = field(default_factory=dict)
    trivial: Any = None
    EXISTS_SUPPORTED: ClassVar[bool] = True

    def __post_init__(self):
        super().__post_init__()
        set_field(self, "lhs", _expr_field(self._owner(), "lhs", self.lhs))
        set_field(self, "rhs", _expr_field(self._owner(), "rhs", self.rhs))
        _trivial_field(self._owner(), self.trivial)
        if not isinstance(self.strict, bool):
            raise ClaimError(f"{self._owner()}: strict must be True or False, got {self.strict!r}")

    def expressions(self):
        return {"lhs": self.lhs, "rhs": self.rhs}

    @classmethod
    def from_latex(cls, name: str, relation: str, *, symbols=None, **fields) -> "Inequality":
        """The statement from the paper's LaTeX relation, e.g. ``Inequality.from_latex("(7)",
        r"\\mathcal{E} \\le \\frac{L R^2}{4T}")``: ``\\le``/``<`` read as ``lhs <= rhs`` (``<`` strict),
        ``\\ge``/``>`` turned round. ``symbols`` binds names (see :func:`dpverify.claims.latex.latex`)."""
        try:
            lhs, rhs, strict = relation_sides(relation, symbols=symbols)
        except LatexError as exc:
            raise LatexError(f"statement {name!r}: {exc}") from None
        return cls(name, lhs=lhs, rhs=rhs, strict=strict, **fields)


@dataclass(frozen=True)
class Minimiser(Statement):
    """``min objective(x) s.t. constraint(x) == 0`` equals ``value``, attained at ``argmin``.

    ``var`` names the sequence optimised over (an ``IndexedBase`` of that name, length of the
    domain's sequence length parameter); ``argmin`` gives its claimed value as an expression in
    the index symbol ``index``.
    """

    objective: sp.Basic = None
    constraint: sp.Basic = None
    value: sp.Basic = None
    var: str = ""
    index: sp.Symbol = None
    argmin: sp.Basic = None

    def __post_init__(self):
        super().__post_init__()
        for f in ("objective", "constraint", "value", "argmin"):
            set_field(self, f, _expr_field(self._owner(), f, getattr(self, f)))
        if not isinstance(self.index, sp.Symbol):
            raise ClaimError(f"{self._owner()}: index must be a SymPy Symbol, got {self.index!r}")
        if not isinstance(self.var, str) or not self.var:
            raise ClaimError(f"{self._owner()}: var must name the sequence optimised over, got {self.var!r}")

    def expressions(self):
        return {"objective": self.objective, "constraint": self.constraint, "value": self.value,
                "argmin": self.argmin}


@dataclass(frozen=True)
class LimitPath:
    """A sweep towards a limit: ``param`` goes to ``to`` ("0+" or "inf"); ``tied`` expresses other
    parameters along the path in terms of it (e.g. keep kappa*alpha fixed).

    A tied parameter is given either as a SymPy expression (preferred: the symbolic limit checks read
    it) or as a Python function ``(x, base) -> value`` (numeric sweeps only). In an expression the
    path's parameter stands for its moving value, every other parameter for its value at the base
    point, and :meth:`LimitPath.start` ``(param)`` for the path parameter's own value at the base
    point. "d/n kept at its base value" along ``n -> inf``::

        LimitPath("n", "inf", tied={"d": d * n / LimitPath.start("n")}, label="n = Theta(d)")

    is the same path as ``tied={"d": lambda x, base: base["d"] * x / base["n"]}``.

    ``worst_over`` names parameters chosen adversarially at every point of the path (a rate's
    hidden constant may not depend on them): the rate check takes, at each point, the largest ratio
    (and, for Theta, also the smallest) over their search boxes, instead of keeping them at the base
    point. Which parameters an O(.) lets vary is a reading of the claim: say it in ``label``."""

    param: str
    to: str
    tied: Mapping[str, Any] = field(default_factory=dict)
    label: str = ""
    worst_over: tuple[str, ...] = ()

    @staticmethod
    def start(param: str) -> sp.Symbol:
        """The symbol of ``param``'s value at the base point, for a symbolic ``tied`` expression (its
        name, ``param@start``, is no parameter's: a parameter's name is an identifier)."""
        if isinstance(param, sp.Symbol):
            param = param.name
        if not isinstance(param, str) or not param.isidentifier():
            raise ClaimError(f"LimitPath.start: give a parameter's name, got {param!r}")
        return sp.Symbol(f"{param}{START_SUFFIX}")

    def __post_init__(self):
        if self.to not in ("0+", "inf"):
            raise ClaimError(f"LimitPath({self.param!r}): to must be '0+' or 'inf', got {self.to!r}")
        if isinstance(self.worst_over, str) or not all(isinstance(n, str) for n in self.worst_over):
            raise ClaimError(f"LimitPath({self.param!r}): worst_over must be a tuple of parameter names, "
                             f"got {self.worst_over!r}")
        if not isinstance(self.tied, Mapping):
            raise ClaimError(f"LimitPath({self.param!r}): tied must map parameter names to SymPy expressions (or "
                             f"functions (x, base) -> value), got {self.tied!r}")
        tied = {}
        for name, v in self.tied.items():
            if not isinstance(name, str):
                raise ClaimError(f"LimitPath({self.param!r}): tied is keyed by parameter names, got {name!r}")
            if isinstance(v, sp.Basic) or isinstance(v, (int, float, Latex)) or not callable(v):
                v = _expr_field(f"LimitPath({self.param!r})", f"tied[{name!r}]", v)
                foreign = sorted(str(s) for s in v.free_symbols
                                 if str(s).endswith(START_SUFFIX) and str(s) != self.param + START_SUFFIX)
                if foreign:
                    raise ClaimError(f"LimitPath({self.param!r}): tied[{name!r}] = {v} uses {foreign[0]}; only "
                                     f"LimitPath.start({self.param!r}) is a base value of its own (any other "
                                     "parameter's symbol already stands for its base value)")
            tied[name] = v
        set_field(self, "tied", tied)
        clash = set(self.worst_over) & ({self.param} | set(self.tied))
        if clash:
            raise ClaimError(f"LimitPath({self.param!r}): worst_over names {sorted(clash)}, which the path "
                             "itself sets")

    @property
    def symbolic(self) -> bool:
        """Whether every tied parameter is a SymPy expression (no Python function)."""
        return all(isinstance(v, sp.Basic) for v in self.tied.values())

    def tied_symbols(self) -> set[str]:
        """The names a symbolic tied expression reads (the path's start symbol as its parameter's name)."""
        out = set()
        for v in self.tied.values():
            if isinstance(v, sp.Basic):
                out |= {str(s)[:-len(START_SUFFIX)] if str(s).endswith(START_SUFFIX) else str(s)
                        for s in v.free_symbols}
        return out

    def tied_value(self, name: str, x, base: Mapping[str, Any]) -> float:
        """The value of the tied parameter ``name`` where the path's parameter is ``x``, from ``base``."""
        v = self.tied[name]
        if not isinstance(v, sp.Basic):
            return v(x, base)
        f, args = _tied_function(v, self.param)
        return float(f(*(x if a == self.param else base[a[:-len(START_SUFFIX)]] if a.endswith(START_SUFFIX)
                         else base[a] for a in args)))


#: the suffix of :meth:`LimitPath.start`'s symbols
START_SUFFIX = "@start"


@functools.lru_cache(maxsize=256)
def _tied_function(expr: sp.Basic, param: str):
    """A tied expression as a double-precision function of its symbols (their names in order)."""
    syms = sorted(expr.free_symbols, key=str)
    dummies = [sp.Symbol(f"_a{k}") for k in range(len(syms))]
    return sp.lambdify(dummies, expr.xreplace(dict(zip(syms, dummies))), modules="math"), tuple(str(s) for s in syms)


@dataclass(frozen=True)
class Rate(Statement):
    """``expr = Theta(rate)`` (or ``O(rate)``) along every declared path to its limit."""

    expr: sp.Basic = None
    rate: sp.Basic = None
    kind: str = "Theta"
    paths: tuple[LimitPath, ...] = ()

    def __post_init__(self):
        super().__post_init__()
        set_field(self, "expr", _expr_field(self._owner(), "expr", self.expr))
        set_field(self, "rate", _expr_field(self._owner(), "rate", self.rate))
        if self.kind not in ("Theta", "O"):
            raise ClaimError(f"{self._owner()}: kind must be 'Theta' or 'O', got {self.kind!r}")
        if not self.paths or not all(isinstance(p, LimitPath) for p in self.paths):
            raise ClaimError(f"{self._owner()}: paths must be a non-empty tuple of LimitPath, got {self.paths!r}")

    def expressions(self):
        return {"expr": self.expr, "rate": self.rate}


@dataclass(frozen=True)
class AlgorithmRate(Statement):
    """``E[statistic] = O(rate)`` (or ``Theta``) along every declared path, the expectation being what the
    algorithm attains: ``scenario`` (as in :class:`ExpectationBound`) realises each point of a path as an
    instance and computes its statistic exactly where it has exact moments, by Monte Carlo (``runs`` runs,
    one-sided confidence bounds) otherwise. The rate is the printed one, in the claim's symbols; the
    sweep covers ``decades`` decades of the path's parameter (an algorithm's cost grows along its path) at
    ``per_decade`` points a decade (more where a rounded horizon or number of stages makes the ratio a sawtooth
    whose envelope a coarse grid samples at a phase that moves from base to base).
    Where :class:`Rate` checks a printed formula's order, this checks the algorithm's, so a claim
    ``about="algorithm"`` checked this way is not flagged "algebra-only". Example::

        AlgorithmRate("E f(theta_T) - f* = Theta(s^2/(mu T))", rate=s**2 / (mu * T), paths=(LimitPath("T", "inf"),),
                      scenario=noisy_gd(problem="strongly_convex", smooth=mu, curvature=mu, step=1 / (mu * t),
                                        noise_std=s, dim=1, horizon=T, init_dist=1))
    """

    rate: sp.Basic = None
    scenario: Any = None
    kind: str = "O"
    paths: tuple[LimitPath, ...] = ()
    decades: int = 6
    per_decade: int = 2
    runs: int = 4000

    def __post_init__(self):
        super().__post_init__()
        set_field(self, "rate", _expr_field(self._owner(), "rate", self.rate))
        if self.kind not in ("Theta", "O"):
            raise ClaimError(f"{self._owner()}: kind must be 'Theta' or 'O', got {self.kind!r}")
        if not self.paths or not all(isinstance(p, LimitPath) for p in self.paths):
            raise ClaimError(f"{self._owner()}: paths must be a non-empty tuple of LimitPath, got {self.paths!r}")
        if self.scenario is None:
            raise ClaimError(f"{self._owner()}: scenario is missing (e.g. dpverify.scenarios.noisy_gd(...))")
        _check_scenario(self._owner(), "scenario", self.scenario)
        for fname, lo in (("decades", 3), ("per_decade", 2), ("runs", 100)):
            v = getattr(self, fname)
            if isinstance(v, bool) or not isinstance(v, int) or v < lo:
                raise ClaimError(f"{self._owner()}: {fname} must be an integer >= {lo}, got {v!r}")

    def expressions(self):
        return {"rate": self.rate}


@dataclass(frozen=True)
class Limit(Statement):
    """``expr -> value`` as ``path.param`` goes to its limit ("0+" or "inf"), the other parameters
    fixed at points of the domain or tied along the path (e.g. "T converges to 0 as kappa -> inf")."""

    expr: sp.Basic = None
    value: sp.Basic = None
    path: LimitPath = None

    def __post_init__(self):
        super().__post_init__()
        set_field(self, "expr", _expr_field(self._owner(), "expr", self.expr))
        set_field(self, "value", _expr_field(self._owner(), "value", self.value))
        if not isinstance(self.path, LimitPath):
            raise ClaimError(f"{self._owner()}: path must be a LimitPath, got {self.path!r}")

    def expressions(self):
        return {"expr": self.expr, "value": self.value}


@dataclass(frozen=True)
class ExpectationBound(Statement):
    """``E[statistic] <= bound`` over runs of an algorithm on problems of ``scenario``.

    ``scenario`` (see :mod:`dpverify.scenarios`) maps the claim's parameters onto an algorithm and
    a problem class, draws problems from that class, and computes the statistic exactly
    (quadratics) or by Monte Carlo. The bound may use the scenario's observables (quantities
    measured along the run, e.g. ``E||v_{t+1}||^2``).

    ``exists=("eta",)``: "for every value of the other parameters there is a step eta with
    E[statistic] <= bound" (see :class:`Statement`). The exact check tries every value of a grid
    over the parameter's search box (every value, when it is an ``Int`` with a finite domain of at
    most ``dpverify.checks.exists.EXHAUSTIVE`` values) on each drawn problem; ``holds`` needs one value
    whose expectation meets the bound, ``violated`` needs every value to fail, which only the
    exhaustive case shows (a grid that finds no value is ``inconclusive``). Monte Carlo can only
    confirm: it runs the value the exact expectation (or a pilot run) chooses.
    """

    bound: sp.Basic = None
    scenario: Any = None
    trivial: Any = None
    EXISTS_SUPPORTED: ClassVar[bool] = True

    def __post_init__(self):
        super().__post_init__()
        _bound_and_scenario(self, " (e.g. dpverify.scenarios.noisy_gd(...))")

    def expressions(self):
        return {"bound": self.bound}


def _bound_and_scenario(stmt, hint: str = "") -> None:
    """The fields a statement measured by a scenario shares: its ``bound`` read as an expression, its
    ``trivial`` checked, its ``scenario`` present (``hint``: an example for the message) and a scenario."""
    set_field(stmt, "bound", _expr_field(stmt._owner(), "bound", stmt.bound))
    _trivial_field(stmt._owner(), stmt.trivial)
    if stmt.scenario is None:
        raise ClaimError(f"{stmt._owner()}: scenario is missing{hint}")
    _check_scenario(stmt._owner(), "scenario", stmt.scenario)


def _check_scenario(owner: str, field_name: str, value) -> None:
    """Refuse, where the claim is written, a value that is not a scenario (a dpverify.scenarios.Scenario:
    checked by its interface, since the scenarios live in a higher layer)."""
    if not all(callable(getattr(value, m, None)) for m in ("bind", "point", "instance_at", "describe")):
        raise ClaimError(f"{owner}: {field_name} must be a scenario (dpverify.scenarios.Scenario, e.g. "
                         f"dpverify.scenarios.noisy_gd(...)), got {value!r}")


@dataclass(frozen=True)
class SupBound(Statement):
    """``sup_instance measured(instance) <= bound``: sensitivity, stability, privacy loss, or any
    quantity a scenario measures (``kind`` names it in the evidence).

    ``audit``: for a privacy statement, an empirical audit of the algorithm
    (:func:`dpverify.scenarios.dp_audit`) run beside the accounting; it can refute the statement
    (a lower confidence bound on delta above the claimed delta) but never supports it alone.
    ``trivial``: where the bound is trivially true (e.g. ``sp.Ge(bound, 2)`` for a gap of losses
    bounded by 1), as on :class:`Inequality`.
    ``exists=("sigma",)``: "for every value of the other parameters there is a value of sigma with
    measured <= bound" (see :class:`Statement`), decided as on :class:`ExpectationBound`: ``holds``
    from one value whose measurement's upper bound meets the bound, ``violated`` only when every
    value of a finite ``Int`` parameter is refuted by a lower bound, else ``inconclusive``.
    ``inputs``: for a privacy statement, every input of the released computation declared public or derived from
    the data (:class:`dpverify.privacy.neighbours.ReleaseInputs`); the check kind ``neighbouring-data`` recomputes
    the derived ones on neighbouring data sets and compares the two releases.
    ``tight=True``: "attained": the supremum *equals* the bound. Only a scenario that proves both sides
    can verify it (``worst_case``: a certificate of the bound and a worst function attaining it); a
    certified worst case strictly below the bound refutes it.
    """

    bound: sp.Basic = None
    scenario: Any = None
    kind: str = "sensitivity"
    audit: Any = None
    trivial: Any = None
    tight: bool = False
    inputs: Any = None
    EXISTS_SUPPORTED: ClassVar[bool] = True

    def __post_init__(self):
        super().__post_init__()
        _bound_and_scenario(self)
        if self.inputs is not None and not all(callable(getattr(self.inputs, m, None)) for m in ("undeclared", "derive")):
            raise ClaimError(f"{self._owner()}: inputs must declare every input public or derived "
                             f"(dpverify.privacy.neighbours.ReleaseInputs(...)), got {self.inputs!r}")
        if self.audit is not None:
            _check_scenario(self._owner(), "audit", self.audit)
        if not isinstance(self.kind, str) or not self.kind:
            raise ClaimError(f"{self._owner()}: kind must be a short name such as 'privacy', got {self.kind!r}")
        if self.inputs is not None and self.kind != "privacy":
            raise ClaimError(f"{self._owner()}: inputs are declared for a privacy statement (kind='privacy'), "
                             f"got kind={self.kind!r}")
        if not isinstance(self.tight, bool):
            raise ClaimError(f"{self._owner()}: tight must be True or False, got {self.tight!r}")

    def expressions(self):
        return {"bound": self.bound}


@dataclass(frozen=True)
class Constant:
    """A constant printed inside a claim, recomputed from its derivation.

    ``derive`` is a SymPy expression (evaluated at high precision) or a zero-argument callable.
    ``match``: "round" (printed equals derived rounded to the printed digits), "truncate", or
    "bound-le" / "bound-ge" (printed is a valid lower/upper constant, derived is the tight one).
    """

    name: str
    printed: str
    derive: Any
    match: str = "round"
    note: str = ""

    def __post_init__(self):
        if self.match not in ("round", "truncate", "bound-le", "bound-ge"):
            raise ClaimError(f"Constant {self.name!r}: match must be round, truncate, bound-le or bound-ge, "
                             f"got {self.match!r}")
