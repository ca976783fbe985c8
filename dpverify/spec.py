"""Claims as data: where a claim was printed, its hypotheses, and what it states.

A :class:`Claim` is an immutable value, validated when it is built: every field is keyword-only,
every free symbol of a statement must be a parameter of the domain, a definition, a scenario
observable or a bound variable, and every mistake raises :class:`ClaimError` naming the claim, the
field and the value, at the line where the claim is written. A claim never runs anything itself:
the checks in :mod:`dpverify.checks` read its statements and decide what applies.

Example (a textbook result, in a user's own symbols)::

    import sympy as sp
    from dpverify import Claim, Domain, Inequality, Real, Source

    x, y = sp.symbols("x y")
    AM_GM = Claim(
        id="mine/claim-am-gm",
        source=Source("any algebra text", "AM-GM inequality"),
        domain=Domain(x=Real(gt=0), y=Real(gt=0)),
        statements=(Inequality("sqrt(xy) <= (x + y)/2", lhs=sp.sqrt(x * y), rhs=(x + y) / 2),),
    )
"""
from __future__ import annotations

import math
import re
from dataclasses import KW_ONLY, dataclass, field, fields, replace
from typing import Any, Callable, Mapping

import mpmath
import sympy as sp
from hypothesis import strategies as st

VERDICTS = ("verified", "holds", "violated", "inconclusive")
ID_RE = re.compile(r"^[a-z0-9_]+/[a-z0-9][a-z0-9.\-_]*$")


class DomainError(ValueError):
    """A point lies outside a claim's hypotheses (message: ``kappa = 0.5 violates kappa >= 1``)."""


class ClaimError(ValueError):
    """A claim (or one of its statements) is malformed; the message names claim, field and value."""


# --------------------------------------------------------------------------- source
@dataclass(frozen=True)
class Source:
    """Where a claim is printed: any document (a seed file, a paper, a book), the label as printed,
    the equation number and the text it was read from.

    >>> Source("Boyd & Vandenberghe, Convex Optimization (2004)", "Section 9.3", eq="(9.18)").cite()
    '[Boyd & Vandenberghe, Convex Optimization (2004), Section 9.3, eq. (9.18)]'
    """

    document: str
    label: str
    eq: str | None = None
    text: str = ""
    url: str | None = None

    def __post_init__(self):
        if not isinstance(self.document, str) or not self.document.strip():
            raise ClaimError(f"Source.document must name the document the claim is printed in, got {self.document!r}")
        if not isinstance(self.label, str) or not self.label.strip():
            raise ClaimError(f"Source.label must be the label as printed (e.g. 'Theorem 4.1'), got {self.label!r}")

    @classmethod
    def for_document(cls, document: str) -> Callable[..., "Source"]:
        """A function building the Sources of one document, so a paper names its file once.

        The function takes the other fields as :class:`Source` does (``label``, then ``eq`` and
        ``text`` positionally or by keyword, ``url`` by keyword):

        >>> src = Source.for_document("Boyd & Vandenberghe, Convex Optimization (2004)")
        >>> src("Section 9.3", "(9.18)").cite()
        '[Boyd & Vandenberghe, Convex Optimization (2004), Section 9.3, eq. (9.18)]'
        """
        cls(document, "any label")          # a bad document is refused here, where it is named

        def source(label: str, eq: str | None = None, text: str = "", *, url: str | None = None) -> "Source":
            return cls(document, label, eq, text, url)

        source.__doc__ = f"A Source printed in {document!r}: (label, eq=None, text='', *, url=None)."
        return source

    def cite(self) -> str:
        eq = f", eq. {self.eq}" if self.eq else ""
        return f"[{self.document}, {self.label}{eq}]"

    def to_json(self) -> dict:
        return {"document": self.document, "label": self.label, "eq": self.eq, "text": self.text,
                "url": self.url}


# --------------------------------------------------------------------------- parameters
def _fmt(v: float) -> str:
    return f"{v:g}"


@dataclass(frozen=True)
class Real:
    """A real parameter with hypotheses (``gt``, ``ge``, ``lt``, ``le``) and a search range.

    ``search`` is the finite box that sampled checks explore (defaults derived from the bounds);
    ``log`` samples it log-uniformly. ``units`` = (a, b): the parameter scales as c**a * s**b when
    the loss is multiplied by c and the parameter vector by s (used by the scaling check).
    """

    gt: float | None = None
    ge: float | None = None
    lt: float | None = None
    le: float | None = None
    search: tuple[float, float] | None = None
    log: bool = False
    units: tuple[int, int] | None = (0, 0)

    def __post_init__(self):
        for name in ("gt", "ge", "lt", "le"):
            v = getattr(self, name)
            if v is not None and (isinstance(v, bool) or not isinstance(v, (int, float)) or math.isnan(v)):
                raise ClaimError(f"Real({name}=...) must be a number, got {v!r}")
        if self.search is not None:
            if len(self.search) != 2 or not self.search[0] < self.search[1]:
                raise ClaimError(f"Real(search=...) must be (low, high) with low < high, got {self.search!r}")
        if self.log:
            lo, _ = self.box()
            if lo <= 0:
                raise ClaimError(f"Real(log=True) needs a positive search range, got {self.box()!r}")

    def hypotheses(self, name: str) -> list[str]:
        out = []
        for bound, op in ((self.gt, ">"), (self.ge, ">="), (self.lt, "<"), (self.le, "<=")):
            if bound is not None:
                out.append(f"{name} {op} {_fmt(bound)}")
        return out

    def violation(self, name: str, value: Any) -> str | None:
        try:
            v = float(value)
        except (TypeError, ValueError):
            return f"{name} = {value!r} is not a real number"
        if isinstance(value, (list, tuple, str)):
            return f"{name} = {value!r} is not a real number"
        if not math.isfinite(v):
            return f"{name} = {value!r} is not finite"
        for bound, ok, op in ((self.gt, v > (self.gt or 0), ">"), (self.ge, v >= (self.ge or 0), ">="),
                              (self.lt, v < (self.lt or 0), "<"), (self.le, v <= (self.le or 0), "<=")):
            if bound is not None and not ok:
                return f"{name} = {v:g} violates {name} {op} {_fmt(bound)}"
        return None

    def box(self) -> tuple[float, float]:
        if self.search is not None:
            return self.search
        lo = self.gt if self.gt is not None else self.ge
        hi = self.lt if self.lt is not None else self.le
        lo = -10.0 if lo is None else lo
        hi = (lo + 100.0 if lo > 0 else 100.0) if hi is None else hi
        return (lo, hi)

    def in_box(self, value: float) -> bool:
        lo, hi = self.box()
        return lo <= value <= hi

    def strategy(self) -> st.SearchStrategy:
        lo, hi = self.box()
        if self.log:
            base = st.floats(math.log(lo), math.log(hi), allow_nan=False)
            return base.map(lambda u: min(max(math.exp(u), lo), hi)).filter(
                lambda v: self.violation("x", v) is None)
        base = st.floats(lo, hi, allow_nan=False, allow_infinity=False,
                         exclude_min=self.gt is not None and lo == self.gt,
                         exclude_max=self.lt is not None and hi == self.lt)
        return base.filter(lambda v: self.violation("x", v) is None)


@dataclass(frozen=True)
class Int:
    """An integer parameter ``ge <= n <= le``; ``search`` bounds the sampled range."""

    ge: int | None = None
    le: int | None = None
    search: tuple[int, int] | None = None
    units: tuple[int, int] | None = (0, 0)

    def hypotheses(self, name: str) -> list[str]:
        out = [f"{name} is an integer"]
        if self.ge is not None:
            out.append(f"{name} >= {self.ge}")
        if self.le is not None:
            out.append(f"{name} <= {self.le}")
        return out

    def violation(self, name: str, value: Any) -> str | None:
        if isinstance(value, (list, tuple, str, bool)):
            return f"{name} = {value!r} is not an integer"
        try:
            f = float(value)
        except (TypeError, ValueError):
            return f"{name} = {value!r} is not an integer"
        if not math.isfinite(f) or f != int(f):
            return f"{name} = {value!r} violates {name} is an integer"
        v = int(f)
        if self.ge is not None and v < self.ge:
            return f"{name} = {v} violates {name} >= {self.ge}"
        if self.le is not None and v > self.le:
            return f"{name} = {v} violates {name} <= {self.le}"
        return None

    def box(self) -> tuple[int, int]:
        if self.search is not None:
            return self.search
        lo = self.ge if self.ge is not None else 0
        hi = self.le if self.le is not None else lo + 30
        return (lo, hi)

    def in_box(self, value) -> bool:
        lo, hi = self.box()
        return lo <= value <= hi

    def strategy(self) -> st.SearchStrategy:
        lo, hi = self.box()
        return st.integers(lo, hi)


@dataclass(frozen=True)
class Seq:
    """A sequence parameter x_1..x_n whose length is the integer parameter ``length``.

    In SymPy the sequence is an ``IndexedBase`` of the same name, indexed from 1.
    """

    length: str
    elem: Real = field(default_factory=lambda: Real(gt=0, search=(1e-3, 10.0), log=True))
    units: tuple[int, int] | None = (0, 0)

    def hypotheses(self, name: str) -> list[str]:
        return [f"{name}_t: " + ", ".join(self.elem.hypotheses(f"{name}_t")) + f" for t = 1..{self.length}"]

    def violation(self, name: str, value: Any, n: int | None = None) -> str | None:
        if not isinstance(value, (list, tuple)):
            return f"{name} = {value!r} is not a sequence"
        if n is not None and len(value) != n:
            return f"{name} has length {len(value)} but {self.length} = {n}"
        for i, v in enumerate(value, start=1):
            msg = self.elem.violation(f"{name}_{i}", v)
            if msg:
                return msg
        return None


@dataclass(frozen=True)
class Choice:
    """A parameter taking one of a few values (e.g. an adjacency relation)."""

    values: tuple
    units: tuple[int, int] | None = None

    def hypotheses(self, name: str) -> list[str]:
        return [f"{name} in {list(self.values)}"]

    def violation(self, name: str, value: Any) -> str | None:
        if value not in self.values:
            return f"{name} = {value!r} violates {name} in {list(self.values)}"
        return None

    def in_box(self, value) -> bool:
        return value in self.values

    def strategy(self) -> st.SearchStrategy:
        return st.sampled_from(self.values)


Param = Real | Int | Seq | Choice
_OPS = {"<": "__lt__", "<=": "__le__", ">": "__gt__", ">=": "__ge__", "==": "__eq__", "!=": "__ne__"}


class Relation:
    """A hypothesis relating several parameters, e.g. ``beta < gamma``, as a SymPy relational.

    Compiled once: points are decided in double precision, and those within 1e-9 (relative) of
    the boundary are decided again in mpmath at 40 digits, so rounding never moves a point across
    a hypothesis.
    """

    __slots__ = ("rel", "text", "_f", "_names")

    def __init__(self, rel: sp.Basic, text: str = ""):
        if not isinstance(rel, sp.core.relational.Relational) or rel.rel_op not in _OPS:
            raise ClaimError(f"Relation needs a SymPy relation such as sp.Lt(beta, gamma), got {rel!r}")
        self.rel, self.text = rel, text
        syms = sorted(rel.free_symbols, key=str)
        self._names = [str(s) for s in syms]
        diff = rel.lhs - rel.rhs
        self._f = (sp.lambdify(syms, [rel.lhs, rel.rhs], modules="math"),
                   sp.lambdify(syms, [rel.lhs, rel.rhs], modules="mpmath"))
        del diff

    def __repr__(self) -> str:
        return f"Relation({self.describe()!r})"

    def __eq__(self, other) -> bool:
        return isinstance(other, Relation) and self.rel == other.rel

    def __hash__(self) -> int:
        return hash(self.rel)

    @property
    def names(self) -> list[str]:
        return list(self._names)

    def describe(self) -> str:
        return self.text or sp.sstr(self.rel)

    def holds(self, point: Mapping[str, Any]) -> bool:
        missing = [n for n in self._names if n not in point]
        if missing:
            raise ClaimError(f"relation {self.describe()!r} uses {', '.join(missing)}, which is not a parameter "
                             "of the domain (write relations in the domain's own parameters)")
        op = _OPS[self.rel.rel_op]
        args = [point[n] for n in self._names]
        try:
            a, b = self._f[0](*(float(v) for v in args))
            a, b = float(a), float(b)
            close = not (math.isfinite(a) and math.isfinite(b)) or abs(a - b) <= 1e-9 * max(abs(a), abs(b), 1e-300)
        except (ValueError, ZeroDivisionError, OverflowError, TypeError):
            close = True
        if not close:
            return bool(getattr(a, op)(b))
        with mpmath.workdps(40):
            try:
                a, b = self._f[1](*(mpmath.mpf(v) for v in args))
            except (ValueError, ZeroDivisionError, OverflowError, TypeError):
                return False
            if isinstance(a, mpmath.mpc) or isinstance(b, mpmath.mpc):
                return False
            return bool(getattr(a, op)(b))


class Domain:
    """The hypotheses of a claim: typed parameters plus relations between them.

    Validates points (raising :class:`DomainError` naming the hypothesis and the value) and yields
    Hypothesis strategies over the points that satisfy every hypothesis (see
    :mod:`dpverify.strategies`).
    """

    def __init__(self, *relations: Relation, **params: Param):
        for name, p in params.items():
            if not isinstance(p, (Real, Int, Seq, Choice)):
                raise ClaimError(f"Domain parameter {name!r} must be Real, Int, Seq or Choice, got {p!r}")
        for r in relations:
            if not isinstance(r, Relation):
                raise ClaimError(f"Domain relations must be Relation(...) values, got {r!r}")
        self.params: dict[str, Param] = dict(params)
        self.relations: tuple[Relation, ...] = tuple(relations)
        for name, p in self.params.items():
            if isinstance(p, Seq) and not isinstance(self.params.get(p.length), Int):
                raise ClaimError(f"sequence {name} needs an Int parameter {p.length!r} for its length")
        for r in self.relations:
            unknown = [n for n in r.names if n not in self.params]
            if unknown:
                raise ClaimError(f"relation {r.describe()!r} uses {', '.join(unknown)}, which is not a parameter "
                                 f"of the domain ({', '.join(self.params)})")

    def __repr__(self) -> str:
        return f"Domain({', '.join(self.hypotheses())})"

    def names(self) -> list[str]:
        return list(self.params)

    def hypotheses(self) -> list[str]:
        out: list[str] = []
        for name, p in self.params.items():
            out.extend(p.hypotheses(name))
        out.extend(r.describe() for r in self.relations)
        return out

    def validate(self, point: Mapping[str, Any]) -> None:
        unknown = sorted(set(point) - set(self.params))
        if unknown:
            raise DomainError(f"unknown parameter {unknown[0]!r}; this claim's parameters are "
                              f"{', '.join(self.params)}")
        missing = [n for n in self.params if n not in point]
        if missing:
            raise DomainError(f"missing parameter {missing[0]!r}")
        self.validate_partial(point)

    def validate_partial(self, point: Mapping[str, Any]) -> None:
        """Check the hypotheses that involve only parameters present in ``point``."""
        for name, p in self.params.items():
            if name not in point:
                continue
            if isinstance(p, Seq):
                n = point.get(p.length)
                msg = p.violation(name, point[name], None if n is None else int(n))
            else:
                msg = p.violation(name, point[name])
            if msg:
                raise DomainError(msg)
        for r in self.relations:
            if all(n in point for n in r.names) and not r.holds(point):
                vals = ", ".join(f"{n} = {_show(point[n])}" for n in r.names)
                raise DomainError(f"{vals} violates {r.describe()}")

    def contains(self, point: Mapping[str, Any]) -> bool:
        try:
            self.validate(point)
            return True
        except DomainError:
            return False

    def in_box(self, point: Mapping[str, Any]) -> bool:
        """Whether every scalar parameter of ``point`` lies in its search box (sequences: entries)."""
        for name, p in self.params.items():
            v = point.get(name)
            if v is None:
                continue
            if isinstance(p, Seq):
                if not all(p.elem.in_box(x) for x in v):
                    return False
            elif not p.in_box(v):
                return False
        return True

    def strategy(self, fixed: Mapping[str, Any] | None = None, tries: int = 8) -> st.SearchStrategy:
        """Points satisfying every hypothesis; parameters in ``fixed`` are pinned.

        The scalar parameters are drawn first and the relations that involve only scalars are
        decided at once (up to ``tries`` fresh draws within one example), so sequences are drawn
        only for scalars that satisfy them; the remaining relations filter the whole point.
        """
        fixed = dict(fixed or {})
        scalars = {n: p for n, p in self.params.items() if not isinstance(p, Seq)}
        seqs = {n: p for n, p in self.params.items() if isinstance(p, Seq)}
        early = [r for r in self.relations if all(n in scalars for n in r.names)]
        late = [r for r in self.relations if r not in early]
        strategies = {n: p.strategy() for n, p in scalars.items() if n not in fixed}  # built once, not per draw

        strategies = {n: p.strategy() for n, p in scalars.items() if n not in fixed}  # built once, drawn often

        @st.composite
        def points(draw):
            pt: dict[str, Any] = {}
            for _ in range(max(1, tries)):
                pt = {n: (fixed[n] if n in fixed else draw(strategies[n])) for n in scalars}
                if all(r.holds(pt) for r in early):
                    break
            else:
                from hypothesis import reject

                reject()
            for n, p in seqs.items():
                if n in fixed:
                    pt[n] = list(fixed[n])
                else:
                    k = int(pt[p.length])
                    pt[n] = draw(st.lists(p.elem.strategy(), min_size=k, max_size=k))
            return pt

        strategy = points()
        return strategy.filter(lambda pt: all(r.holds(pt) for r in late)) if late else strategy


def _show(v: Any) -> str:
    return f"{v:g}" if isinstance(v, float) else str(v)


def relation_holds(r: Relation, point: Mapping[str, Any]) -> bool:
    """Whether ``point`` satisfies the relation ``r`` (compiled; see :class:`Relation`)."""
    return r.holds(point)


# --------------------------------------------------------------------------- statements
def _is_expr(x) -> bool:
    return isinstance(x, sp.Expr) and not isinstance(x, sp.core.relational.Relational)


def _expr_field(owner: str, fieldname: str, value):
    """Sympify ``value`` and require an expression (not a relation, not a boolean)."""
    if value is None:
        raise ClaimError(f"{owner}: {fieldname} is missing (give {fieldname}=<SymPy expression>)")
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


@dataclass(frozen=True)
class Statement:
    """Base class: every statement has a short name shown in evidence (the only positional field).

    ``skip`` names checks not to run on it (e.g. ``("symbolic",)`` for nested sums SymPy cannot
    simplify within its time limit); at least one check must remain.
    """

    name: str
    _: KW_ONLY
    skip: tuple = ()

    def _owner(self) -> str:
        return f"{type(self).__name__} {self.name!r}"

    def __post_init__(self):
        if not isinstance(self.name, str) or not self.name.strip():
            raise ClaimError(f"{type(self).__name__}: the first argument is the statement's name (a string), "
                             f"got {self.name!r}")
        if isinstance(self.skip, str) or not isinstance(self.skip, tuple):
            raise ClaimError(f"{self._owner()}: skip must be a tuple of check names, got {self.skip!r}")

    def expressions(self) -> dict[str, sp.Basic]:
        """The statement's SymPy expressions by field name (for validation and scaling)."""
        return {}


def _set(obj, name, value):
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
        _set(self, "lhs", _expr_field(self._owner(), "lhs", self.lhs))
        _set(self, "rhs", _expr_field(self._owner(), "rhs", self.rhs))

    def expressions(self):
        return {"lhs": self.lhs, "rhs": self.rhs}


@dataclass(frozen=True)
class Inequality(Statement):
    """``lhs <= rhs`` (``lhs < rhs`` when strict) on the whole domain.

    ``reparam`` maps symbols to expressions in fresh positive symbols that encode the hypotheses
    (e.g. ``kappa -> 1 + k``) so that SymPy's sign reasoning can attempt a proof.

    ``exists`` names domain parameters that are quantified existentially: the statement is "for
    every value of the other parameters there EXISTS a value of these (in their domain and search
    box) with lhs <= rhs" -- e.g. the Renyi order of an RDP-to-DP conversion, or the step size
    of a tuned rate. The check optimises the margin over them before the outer search.
    """

    lhs: sp.Basic = None
    rhs: sp.Basic = None
    strict: bool = False
    reparam: Mapping = field(default_factory=dict)
    exists: tuple = ()

    def __post_init__(self):
        super().__post_init__()
        _set(self, "lhs", _expr_field(self._owner(), "lhs", self.lhs))
        _set(self, "rhs", _expr_field(self._owner(), "rhs", self.rhs))
        if isinstance(self.exists, str):
            _set(self, "exists", (self.exists,))
        if not isinstance(self.strict, bool):
            raise ClaimError(f"{self._owner()}: strict must be True or False, got {self.strict!r}")

    def expressions(self):
        return {"lhs": self.lhs, "rhs": self.rhs}


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
            _set(self, f, _expr_field(self._owner(), f, getattr(self, f)))
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
    parameters along the path as functions of it (e.g. keep kappa*alpha fixed)."""

    param: str
    to: str
    tied: Mapping[str, Callable[[float, Mapping[str, Any]], float]] = field(default_factory=dict)
    label: str = ""

    def __post_init__(self):
        if self.to not in ("0+", "inf"):
            raise ClaimError(f"LimitPath({self.param!r}): to must be '0+' or 'inf', got {self.to!r}")


@dataclass(frozen=True)
class Rate(Statement):
    """``expr = Theta(rate)`` (or ``O(rate)``) along every declared path to its limit."""

    expr: sp.Basic = None
    rate: sp.Basic = None
    kind: str = "Theta"
    paths: tuple[LimitPath, ...] = ()

    def __post_init__(self):
        super().__post_init__()
        _set(self, "expr", _expr_field(self._owner(), "expr", self.expr))
        _set(self, "rate", _expr_field(self._owner(), "rate", self.rate))
        if self.kind not in ("Theta", "O"):
            raise ClaimError(f"{self._owner()}: kind must be 'Theta' or 'O', got {self.kind!r}")
        if not self.paths or not all(isinstance(p, LimitPath) for p in self.paths):
            raise ClaimError(f"{self._owner()}: paths must be a non-empty tuple of LimitPath, got {self.paths!r}")

    def expressions(self):
        return {"expr": self.expr, "rate": self.rate}


@dataclass(frozen=True)
class Limit(Statement):
    """``expr -> value`` as ``path.param`` goes to its limit ("0+" or "inf"), the other parameters
    fixed at points of the domain or tied along the path (e.g. "T converges to 0 as kappa -> inf")."""

    expr: sp.Basic = None
    value: sp.Basic = None
    path: LimitPath = None

    def __post_init__(self):
        super().__post_init__()
        _set(self, "expr", _expr_field(self._owner(), "expr", self.expr))
        _set(self, "value", _expr_field(self._owner(), "value", self.value))
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
    """

    bound: sp.Basic = None
    scenario: Any = None

    def __post_init__(self):
        super().__post_init__()
        _set(self, "bound", _expr_field(self._owner(), "bound", self.bound))
        if self.scenario is None:
            raise ClaimError(f"{self._owner()}: scenario is missing (e.g. dpverify.scenarios.noisy_gd(...))")

    def expressions(self):
        return {"bound": self.bound}


@dataclass(frozen=True)
class SupBound(Statement):
    """``sup_instance measured(instance) <= bound``: sensitivity, stability, privacy loss, or any
    quantity a scenario measures (``kind`` names it in the evidence).

    ``audit``: for a privacy statement, an empirical audit of the algorithm
    (:func:`dpverify.scenarios.dp_audit`) run beside the accounting; it can refute the statement
    (a lower confidence bound on delta above the claimed delta) but never supports it alone.
    """

    bound: sp.Basic = None
    scenario: Any = None
    kind: str = "sensitivity"
    audit: Any = None

    def __post_init__(self):
        super().__post_init__()
        _set(self, "bound", _expr_field(self._owner(), "bound", self.bound))
        if self.scenario is None:
            raise ClaimError(f"{self._owner()}: scenario is missing")
        if not isinstance(self.kind, str) or not self.kind:
            raise ClaimError(f"{self._owner()}: kind must be a short name such as 'privacy', got {self.kind!r}")

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


# --------------------------------------------------------------------------- the claim
def expand_definitions(expr, definitions: Mapping) -> sp.Basic:
    """Substitute ``definitions`` (symbol -> expression) into ``expr`` until none is left."""
    expr = sp.sympify(expr)
    for _ in range(10):
        new = expr.subs(definitions) if definitions else expr
        if new == expr:
            return new
        expr = new
    return expr


def _symbol_names(expr: sp.Basic) -> set[str]:
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


@dataclass(frozen=True)
class Claim:
    """One checkable claim, encoded as printed (every field keyword-only).

    ``witness``: for a claim expected ``violated``, a point of the domain where it fails; it is
    the replay command of the errata (``dpverify check ID --at witness``) and the contract tests
    replay it.
    """

    _: KW_ONLY
    id: str
    source: Source
    domain: Domain
    statements: tuple[Statement, ...]
    kind: str = "inequality"
    definitions: Mapping = field(default_factory=dict)
    expected: str = "holds"
    reason: str = ""
    constants: tuple[Constant, ...] = ()
    summary: str = ""
    witness: Mapping[str, Any] | None = None

    def _fail(self, fieldname: str, problem: str) -> None:
        raise ClaimError(f"claim {self.id!r}: {fieldname}: {problem}")

    def __post_init__(self):
        if not isinstance(self.id, str) or not ID_RE.match(self.id):
            raise ClaimError(f"claim id must look like 'paper/thm-4.1' (lower case, one '/'), got {self.id!r}")
        if not isinstance(self.source, Source):
            self._fail("source", f"must be a Source(document, label, ...), got {self.source!r}")
        if not isinstance(self.domain, Domain):
            self._fail("domain", f"must be a Domain(...), got {self.domain!r}")
        if isinstance(self.statements, Statement):
            _set(self, "statements", (self.statements,))
        if isinstance(self.statements, list):
            _set(self, "statements", tuple(self.statements))
        if not isinstance(self.statements, tuple) or not self.statements:
            self._fail("statements", f"must be a non-empty tuple of statements, got {self.statements!r}")
        names = set()
        for s in self.statements:
            if not isinstance(s, Statement):
                self._fail("statements", f"{s!r} is not a statement (Identity, Inequality, Rate, ...)")
            if s.name in names:
                self._fail("statements", f"two statements are named {s.name!r}")
            names.add(s.name)
        if self.expected not in VERDICTS:
            self._fail("expected", f"must be one of {VERDICTS}, got {self.expected!r}")
        if self.expected == "violated":
            if not self.reason:
                self._fail("reason", "a claim expected 'violated' gives no reason (say in one line what is wrong)")
        if not isinstance(self.definitions, Mapping):
            self._fail("definitions", f"must be a mapping symbol -> expression, got {self.definitions!r}")
        for k, v in self.definitions.items():
            if not isinstance(k, sp.Symbol):
                self._fail("definitions", f"key {k!r} is not a SymPy Symbol")
            if str(k) in self.domain.params:
                self._fail("definitions", f"{k} is both a domain parameter and a definition")
        if self.witness is not None:
            try:
                self.domain.validate(self.witness)
            except DomainError as exc:
                self._fail("witness", f"{exc} (the witness must be a point of the domain)")
        if not isinstance(self.constants, tuple) or not all(isinstance(c, Constant) for c in self.constants):
            self._fail("constants", f"must be a tuple of Constant, got {self.constants!r}")
        self._validate_symbols()

    def _validate_symbols(self) -> None:
        allowed = set(self.domain.params) | {str(k) for k in self.definitions}
        def_syms = set()
        for v in self.definitions.values():
            def_syms |= _symbol_names(sp.sympify(v))
        for s in self.statements:
            extra = set()
            for sc in (getattr(s, "scenario", None), getattr(s, "audit", None)):
                if sc is None:
                    continue
                extra |= set(getattr(sc, "observables", lambda: ())())
                validate = getattr(sc, "validate_for", None)
                if validate is not None:
                    msg = validate(self)
                    if msg:
                        self._fail(f"statement {s.name!r}: scenario", msg)
            if isinstance(s, Minimiser):
                extra |= {s.var, str(s.index)}
            if isinstance(s, Inequality):
                for q in s.exists:
                    if q not in self.domain.params:
                        self._fail(f"statement {s.name!r}: exists", f"{q!r} is not a parameter of the domain")
            for fname, expr in s.expressions().items():
                used = _symbol_names(self.expand(expr))
                unknown = sorted(used - allowed - extra)
                if unknown:
                    self._fail(f"statement {s.name!r}: {fname}",
                               f"symbol(s) {', '.join(unknown)} are neither domain parameters "
                               f"({', '.join(self.domain.params)}) nor definitions"
                               + (f" nor scenario observables ({', '.join(sorted(extra))})" if extra else ""))
        del def_syms

    def corrected(self, **changes: Any) -> "Claim":
        """The ``-corrected`` claim of this (printed) claim: the same claim with ``changes`` applied.

        The new claim has id ``<this id>-corrected`` and this claim's source; every other field
        (domain, statements, kind, definitions, constants, summary) is kept unless given in
        ``changes``. ``expected`` is reset to ``"holds"``, and ``reason`` and ``witness`` (which
        say why and where the printed claim fails) are cleared, unless given. The result is
        validated as any claim is; a name that is not a field of :class:`Claim`, or ``id`` /
        ``source``, raises :class:`ClaimError` naming it.

        Example (the printed bound is wrong; the corrected one differs in its statement)::

            BOUND = Claim(id="mine/thm-1", source=Source("my notes", "Theorem 1"),
                          domain=Domain(x=Real(gt=0)),
                          statements=(Inequality("x <= x^2", lhs=x, rhs=x**2),),
                          expected="violated", reason="fails for x < 1", witness={"x": 0.5})
            BOUND_CORRECTED = BOUND.corrected(
                summary="x <= x^2 + 1/4 for every x > 0.",
                statements=(Inequality("x <= x^2 + 1/4", lhs=x, rhs=x**2 + sp.Rational(1, 4)),))
        """
        names = {f.name for f in fields(self)}
        for name in changes:
            if name in ("id", "source"):
                self._fail(f"corrected({name}=...)", f"a corrected claim keeps the printed claim's {name} "
                           f"(its id is {self.id + '-corrected'!r}); build a Claim(...) to change it")
            if name not in names:
                self._fail(f"corrected({name}=...)", f"{name!r} is not a field of Claim "
                           f"(fields: {', '.join(sorted(names - {'id', 'source'}))})")
        reset = {"expected": "holds", "reason": "", "witness": None}
        return replace(self, id=self.id + "-corrected", **{**reset, **changes})

    @property
    def label(self) -> str:
        return self.source.label

    @property
    def paper(self) -> str:
        return self.id.split("/")[0]

    def expand(self, expr: sp.Basic) -> sp.Basic:
        """Substitute the claim's definitions (e.g. gamma = 1 - 1/kappa) until none is left."""
        return expand_definitions(expr, self.definitions)

    def to_json(self) -> dict:
        return {
            "id": self.id,
            "label": self.label,
            "source": self.source.to_json(),
            "kind": self.kind,
            "statements": [f"{type(s).__name__}: {s.name}" for s in self.statements],
            "hypotheses": self.domain.hypotheses(),
            "expected": self.expected,
            "reason": self.reason,
            "summary": self.summary,
            "witness": None if self.witness is None else dict(self.witness),
        }
