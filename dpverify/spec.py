"""Claims as data: where a claim was printed, its hypotheses, and what it states.

A :class:`Claim` is an immutable value. It never runs anything itself: the checks in
:mod:`dpverify.checks` read its statements and decide what applies (see DESIGN.md).

Sketch::

    ERUB = Claim(
        id="dni/thm-4.1",
        source=Source("000_155fea93f75f24eb.txt", "Theorem 4.1", eq="(3)"),
        domain=Domain(kappa=Real(ge=1), alpha=Real(gt=0), T=Int(ge=1)),
        statements=(Inequality(lhs, rhs),),
    )
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any, Callable, Mapping

import sympy as sp
from hypothesis import strategies as st

VERDICTS = ("verified", "holds", "violated", "inconclusive")


class DomainError(ValueError):
    """A point lies outside a claim's hypotheses (message: ``kappa = 0.5 violates kappa >= 1``)."""


# --------------------------------------------------------------------------- source
@dataclass(frozen=True)
class Source:
    """Where a claim is printed: seed file, label as printed, equation number, quoted text."""

    seed: str
    label: str
    eq: str | None = None
    text: str = ""

    def cite(self) -> str:
        eq = f", eq. {self.eq}" if self.eq else ""
        return f"[{self.seed}, {self.label}{eq}]"

    def to_json(self) -> dict:
        return {"seed": self.seed, "label": self.label, "eq": self.eq, "text": self.text}


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

    def hypotheses(self, name: str) -> list[str]:
        out = []
        if self.gt is not None:
            out.append(f"{name} > {_fmt(self.gt)}")
        if self.ge is not None:
            out.append(f"{name} >= {_fmt(self.ge)}")
        if self.lt is not None:
            out.append(f"{name} < {_fmt(self.lt)}")
        if self.le is not None:
            out.append(f"{name} <= {_fmt(self.le)}")
        return out

    def violation(self, name: str, value: Any) -> str | None:
        try:
            v = float(value)
        except (TypeError, ValueError):
            return f"{name} = {value!r} is not a real number"
        if not math.isfinite(v):
            return f"{name} = {value!r} is not finite"
        checks = [
            (self.gt, lambda b: v > b, ">"),
            (self.ge, lambda b: v >= b, ">="),
            (self.lt, lambda b: v < b, "<"),
            (self.le, lambda b: v <= b, "<="),
        ]
        for bound, ok, op in checks:
            if bound is not None and not ok(bound):
                return f"{name} = {value:g} violates {name} {op} {_fmt(bound)}"
        return None

    def box(self) -> tuple[float, float]:
        if self.search is not None:
            return self.search
        lo = self.gt if self.gt is not None else self.ge
        hi = self.lt if self.lt is not None else self.le
        lo = -10.0 if lo is None else lo
        hi = (lo + 100.0 if lo > 0 else 100.0) if hi is None else hi
        return (lo, hi)

    def strategy(self) -> st.SearchStrategy:
        lo, hi = self.box()
        if self.log:
            if lo <= 0:
                raise ValueError(f"log search range must be positive, got {(lo, hi)}")
            base = st.floats(math.log(lo), math.log(hi), allow_nan=False)
            return base.map(math.exp).filter(lambda v: self.violation("x", v) is None)
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

    def strategy(self) -> st.SearchStrategy:
        return st.sampled_from(self.values)


Param = Real | Int | Seq | Choice


@dataclass(frozen=True)
class Relation:
    """A hypothesis relating several parameters, e.g. ``beta < gamma``, as a SymPy relational."""

    rel: sp.Basic
    text: str = ""

    def describe(self) -> str:
        return self.text or sp.sstr(self.rel)


class Domain:
    """The hypotheses of a claim: typed parameters plus relations between them.

    Validates points (raising :class:`DomainError` naming the hypothesis and the value) and yields
    Hypothesis strategies over the points that satisfy every hypothesis.
    """

    def __init__(self, *relations: Relation, **params: Param):
        self.params: dict[str, Param] = dict(params)
        self.relations: tuple[Relation, ...] = tuple(relations)
        for name, p in self.params.items():
            if isinstance(p, Seq) and not isinstance(self.params.get(p.length), Int):
                raise ValueError(f"sequence {name} needs an Int parameter {p.length!r} for its length")

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
        for name, p in self.params.items():
            if isinstance(p, Seq):
                msg = p.violation(name, point[name], int(point[p.length]))
            else:
                msg = p.violation(name, point[name])
            if msg:
                raise DomainError(msg)
        for r in self.relations:
            if not relation_holds(r, point):
                vals = ", ".join(f"{s} = {_show(point[str(s)])}" for s in
                                 sorted(r.rel.free_symbols, key=str) if str(s) in point)
                raise DomainError(f"{vals} violates {r.describe()}")

    def contains(self, point: Mapping[str, Any]) -> bool:
        try:
            self.validate(point)
            return True
        except DomainError:
            return False

    def strategy(self, fixed: Mapping[str, Any] | None = None) -> st.SearchStrategy:
        """Points satisfying every hypothesis; parameters in ``fixed`` are pinned."""
        fixed = dict(fixed or {})
        scalars = {n: p for n, p in self.params.items() if not isinstance(p, Seq)}
        seqs = {n: p for n, p in self.params.items() if isinstance(p, Seq)}

        @st.composite
        def points(draw):
            pt: dict[str, Any] = {}
            for n, p in scalars.items():
                pt[n] = fixed[n] if n in fixed else draw(p.strategy())
            for n, p in seqs.items():
                if n in fixed:
                    pt[n] = list(fixed[n])
                else:
                    k = int(pt[p.length])
                    pt[n] = draw(st.lists(p.elem.strategy(), min_size=k, max_size=k))
            return pt

        return points().filter(lambda pt: all(relation_holds(r, pt) for r in self.relations))


def _show(v: Any) -> str:
    return f"{v:g}" if isinstance(v, float) else str(v)


def relation_holds(r: Relation, point: Mapping[str, Any]) -> bool:
    subs = {s: sp.Float(point[str(s)], 30) for s in r.rel.free_symbols if str(s) in point}
    val = r.rel.subs(subs)
    if val not in (sp.true, sp.false):
        missing = sorted(str(s) for s in val.free_symbols)
        raise ValueError(f"relation {r.describe()!r} uses {', '.join(missing)}, which is not a parameter "
                         "of the domain (write relations in the domain's own parameters)")
    return bool(val)


# --------------------------------------------------------------------------- statements
@dataclass(frozen=True)
class Statement:
    """Base class: every statement has a short name shown in evidence.

    ``skip`` names checks not to run on it (e.g. ``("symbolic",)`` for nested sums SymPy cannot
    simplify within its time limit); the contract test still requires one check to remain.
    """

    name: str
    skip: tuple = ()


@dataclass(frozen=True)
class Identity(Statement):
    """``lhs == rhs`` on the whole domain.

    ``reparam`` (as for :class:`Inequality`) rewrites hypotheses into positive symbols for SymPy.
    """

    lhs: sp.Basic = None
    rhs: sp.Basic = None
    reparam: Mapping = field(default_factory=dict)


@dataclass(frozen=True)
class Inequality(Statement):
    """``lhs <= rhs`` (``lhs < rhs`` when strict) on the whole domain.

    ``reparam`` maps symbols to expressions in fresh positive symbols that encode the hypotheses
    (e.g. ``kappa -> 1 + k``) so that SymPy's sign reasoning can attempt a proof.
    ``condition`` restricts the statement to the points where it is printed to apply.
    """

    lhs: sp.Basic = None
    rhs: sp.Basic = None
    strict: bool = False
    reparam: Mapping = field(default_factory=dict)


@dataclass(frozen=True)
class Minimiser(Statement):
    """``min objective(x) s.t. constraint(x) == 0`` equals ``value``, attained at ``argmin``.

    ``var`` names the sequence parameter optimised over; ``argmin`` gives its claimed value as an
    expression in the index symbol ``index``.
    """

    objective: sp.Basic = None
    constraint: sp.Basic = None
    value: sp.Basic = None
    var: str = ""
    index: sp.Symbol = None
    argmin: sp.Basic = None


@dataclass(frozen=True)
class LimitPath:
    """A sweep towards a limit: ``param`` goes to ``to`` ("0+" or "inf"); ``tied`` expresses other
    parameters along the path as functions of it (e.g. keep kappa*alpha fixed)."""

    param: str
    to: str
    tied: Mapping[str, Callable[[float, Mapping[str, Any]], float]] = field(default_factory=dict)
    label: str = ""


@dataclass(frozen=True)
class Rate(Statement):
    """``expr = Theta(rate)`` (or ``O(rate)``) along every declared path to its limit."""

    expr: sp.Basic = None
    rate: sp.Basic = None
    kind: str = "Theta"
    paths: tuple[LimitPath, ...] = ()


@dataclass(frozen=True)
class ExpectationBound(Statement):
    """``E[statistic] <= bound`` over runs of an algorithm on problems of ``scenario``.

    ``scenario`` (see :mod:`dpverify.scenarios`) draws problems from the class the theorem
    assumes, maps each to a point of the claim's parameters, and computes the statistic exactly
    (quadratics) or by Monte Carlo.
    """

    bound: sp.Basic = None
    scenario: Any = None


@dataclass(frozen=True)
class SupBound(Statement):
    """``sup_instance measured(instance) <= bound``: sensitivity, stability or privacy loss.

    ``scenario`` draws instances (e.g. neighbouring datasets, schedules) and measures the
    quantity by coupled runs or accounting; ``kind`` is ``"sensitivity"``, ``"stability"`` or
    ``"privacy"``.
    """

    bound: sp.Basic = None
    scenario: Any = None
    kind: str = "sensitivity"


@dataclass(frozen=True)
class Constant:
    """A constant printed inside a claim, recomputed from its derivation.

    ``derive`` is a SymPy expression (evaluated at high precision) or a zero-argument callable.
    ``match``: "round" (printed equals derived rounded to the printed digits) or "bound-le" /
    "bound-ge" (printed is a valid lower/upper constant, derived is the tight one).
    """

    name: str
    printed: str
    derive: Any
    match: str = "round"
    note: str = ""


# --------------------------------------------------------------------------- the claim
@dataclass(frozen=True)
class Claim:
    """One checkable claim of a paper, encoded as printed."""

    id: str
    source: Source
    domain: Domain
    statements: tuple[Statement, ...]
    kind: str = "inequality"
    definitions: Mapping = field(default_factory=dict)
    expected: str = "holds"
    reason: str = ""
    constants: tuple[Constant, ...] = ()
    defaults: Mapping[str, Any] = field(default_factory=dict)
    summary: str = ""

    def __post_init__(self):
        if self.expected not in VERDICTS:
            raise ValueError(f"expected must be one of {VERDICTS}, got {self.expected!r} ({self.id})")
        if self.expected == "violated" and not self.reason:
            raise ValueError(f"claim {self.id} expects 'violated' but gives no reason")
        if not self.statements:
            raise ValueError(f"claim {self.id} has no statement")

    @property
    def label(self) -> str:
        return self.source.label

    @property
    def paper(self) -> str:
        return self.id.split("/")[0]

    def expand(self, expr: sp.Basic) -> sp.Basic:
        """Substitute the claim's definitions (e.g. gamma = 1 - 1/kappa) until none is left."""
        for _ in range(10):
            new = expr.subs(self.definitions) if self.definitions else expr
            if new == expr:
                return new
            expr = new
        return expr

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
        }
