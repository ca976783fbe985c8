"""Hypotheses as data: parameters (Real, Int, Seq, Choice), relations between them, and the Domain
that validates a point and draws points satisfying every hypothesis."""
from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any, Mapping

import mpmath
import sympy as sp
from hypothesis import strategies as st


from ..errors import ClaimError, DomainError  # noqa: F401 - defined there, part of this module's names


# --------------------------------------------------------------------------- parameters
def _fmt(v: float) -> str:
    return f"{v:g}"


def _param_problem(p) -> str:
    """Why parameter ``p`` (or a sequence's entry) is not valid, or ""."""
    return getattr(p, "problem", "") or getattr(getattr(p, "elem", None), "problem", "")


#: How far inside an open bound (``gt``, ``lt``) a default search box starts, relative to the bound
#: (absolute below 1): see :meth:`Real.box`.
DEFAULT_FLOOR = 1e-6


def _number(v):
    """``v`` as a bound: an int stays an int, any other real number -- a float, a SymPy number such as
    ``sp.Rational(1, 1000)``, a ``Fraction``, a NumPy scalar -- becomes a float; None for anything else
    (a bool, a string, a symbol, NaN)."""
    import numbers

    if isinstance(v, bool):
        return None
    if isinstance(v, int):
        return v
    if isinstance(v, sp.Basic):
        if not (v.is_number and v.is_real):
            return None
        v = float(v)
    elif isinstance(v, numbers.Real):
        v = float(v)
    else:
        return None
    return None if math.isnan(v) else v


@dataclass(frozen=True)
class Real:
    """A real parameter with hypotheses (``gt``, ``ge``, ``lt``, ``le``) and a search range.

    The bounds and ``search`` are numbers: ints, floats, or any real number such as ``sp.Rational(1, 1000)``
    (read as a float); anything else is refused naming the claim and the parameter (:attr:`Domain.problems`).
    ``search`` is the finite box that sampled checks explore (defaults derived from the bounds, never
    nearer than :data:`DEFAULT_FLOOR` to an open one: :meth:`box`);
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
    #: why the parameter is not valid ("" if it is), said by its Domain and Claim with their names
    problem: str = field(default="", init=False, repr=False, compare=False)

    def __post_init__(self):
        for name in ("gt", "ge", "lt", "le"):
            if getattr(self, name) is None:
                continue
            v = _number(getattr(self, name))
            if v is None:   # named with its parameter and claim by the Domain and the Claim (Domain.problems)
                object.__setattr__(self, "problem", f"Real({name}=...) must be a number, got {getattr(self, name)!r}")
                return
            object.__setattr__(self, name, v)
        if self.search is not None and isinstance(self.search, (tuple, list)) and len(self.search) == 2:
            ends = tuple(_number(e) for e in self.search)
            if None in ends:
                object.__setattr__(self, "problem", f"Real(search=...) must be two numbers, got {self.search!r}")
                return
            object.__setattr__(self, "search", ends)
        lo = max((v for v in (self.gt, self.ge) if v is not None), default=-math.inf)
        hi = min((v for v in (self.lt, self.le) if v is not None), default=math.inf)
        if lo > hi or (lo == hi and (self.gt is not None and self.gt == lo or self.lt is not None and self.lt == hi)):
            given = ", ".join(f"{n}={getattr(self, n)!r}" for n in ("gt", "ge", "lt", "le") if getattr(self, n) is not None)
            raise ClaimError(f"Real({given}) is empty: no real number satisfies every bound")
        if self.search is not None:
            if len(self.search) != 2 or not self.search[0] < self.search[1]:
                raise ClaimError(f"Real(search=...) must be (low, high) with low < high, got {self.search!r}")
            if self.search[1] < lo or self.search[0] > hi:
                raise ClaimError(f"Real(search={self.search!r}) lies outside the hypotheses "
                                 f"({', '.join(self.hypotheses('x'))}): no point to search")
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
        if type(value) is float and math.isfinite(value) and (self.gt is None or value > self.gt) and \
                (self.ge is None or value >= self.ge) and (self.lt is None or value < self.lt) and \
                (self.le is None or value <= self.le):
            return None     # the common case, decided as below without building the messages
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
        """The search box: ``search`` if given, else the default box made from the bounds -- ``-10`` and
        ``100`` (``lo + 100`` above a positive lower bound) where a side is unbounded, a closed bound as it
        is, and an open bound (``gt``, ``lt``) moved inside by :data:`DEFAULT_FLOOR` (relative to the bound,
        at most a thousandth of the box). A default box therefore never draws a subnormal number or a point
        a rounding away from its bound (``Real(gt=0)`` searches ``[1e-6, 100]``, where the nearest float
        above 0 is 5e-324, at which a bound such as ``Delta**2`` rounds to 0): give ``search=`` to search
        nearer."""
        if self.search is not None:
            return self.search
        lo = self.gt if self.gt is not None else self.ge
        hi = self.lt if self.lt is not None else self.le
        lo = -10.0 if lo is None else lo
        hi = (lo + 100.0 if lo > 0 else 100.0) if hi is None else hi
        gap = hi - lo
        if self.gt is not None:
            lo = lo + min(DEFAULT_FLOOR * max(1.0, abs(lo)), gap / 1000)
        if self.lt is not None:
            hi = hi - min(DEFAULT_FLOOR * max(1.0, abs(hi)), gap / 1000)
        return (lo, hi)

    def in_box(self, value: float) -> bool:
        lo, hi = self.box()
        return lo <= value <= hi

    def draw(self, rng, name: str = "x", hostile: bool = False) -> float:
        """One value drawn by NumPy's ``rng``: uniform (log-uniform where declared) on the search box,
        a box end with probability 1/8. An open end is replaced by the box's middle, or, when
        ``hostile``, by the nearest float inside (e.g. the smallest subnormal above ``gt=0``)."""
        lo, hi = self.box()
        edge = rng.random() < 0.125
        if edge:
            x = lo if rng.random() < 0.5 else hi
        elif self.log:
            x = math.exp(rng.uniform(math.log(lo), math.log(hi)))
        else:
            x = rng.uniform(lo, hi)
        x = min(max(x, lo), hi)
        if self.violation(name, x) is not None:  # an open end of the box
            if hostile:
                x = math.nextafter(x, hi if x == lo else lo)
            if not hostile or self.violation(name, x) is not None:
                x = (lo + hi) / 2 if not self.log else math.sqrt(lo * hi)
        return float(x)

    def strategy(self) -> st.SearchStrategy:
        lo, hi = self.box()
        if self.log:
            base = st.floats(math.log(lo), math.log(hi), allow_nan=False)
            return base.map(lambda u: min(max(math.exp(u), lo), hi)).filter(
                lambda v: self.violation("x", v) is None)
        base = st.floats(lo, hi, allow_nan=False, allow_infinity=False,
                         exclude_min=self.gt is not None and lo == self.gt,
                         exclude_max=self.lt is not None and hi == self.lt,
                         **({"allow_subnormal": False} if self.search is None else {}))
        return base.filter(lambda v: self.violation("x", v) is None)


@dataclass(frozen=True)
class Int:
    """An integer parameter ``ge <= n <= le``; ``search`` bounds the sampled range."""

    ge: int | None = None
    le: int | None = None
    search: tuple[int, int] | None = None
    units: tuple[int, int] | None = (0, 0)

    def __post_init__(self):
        for name in ("ge", "le"):
            v = getattr(self, name)
            if v is not None and (isinstance(v, bool) or not isinstance(v, int)):
                raise ClaimError(f"Int({name}=...) must be an integer, got {v!r}")
        if self.ge is not None and self.le is not None and self.ge > self.le:
            raise ClaimError(f"Int(ge={self.ge!r}, le={self.le!r}) is empty: no integer satisfies both bounds")
        if self.search is not None and (len(self.search) != 2 or self.search[0] > self.search[1]
                                        or (self.ge is not None and self.search[1] < self.ge)
                                        or (self.le is not None and self.search[0] > self.le)):
            raise ClaimError(f"Int(search={self.search!r}) must be (low, high), low <= high, meeting the "
                             f"hypotheses ({', '.join(self.hypotheses('n')[1:]) or 'none'})")

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

    def draw(self, rng, hostile: bool = False) -> int:
        """One value drawn by NumPy's ``rng``: uniform on the search box; when ``hostile``, a box end
        with probability 1/8 and log-uniform on a positive box spanning a factor 16 or more (small
        values as often as large ones, as a Hypothesis draw favours them)."""
        lo, hi = self.box()
        if not hostile:
            return int(rng.integers(lo, hi + 1))
        if rng.random() < 0.125:
            return lo if rng.random() < 0.5 else hi
        if lo >= 1 and hi >= 16 * lo:
            return min(max(int(math.exp(rng.uniform(math.log(lo), math.log(hi + 1)))), lo), hi)
        return int(rng.integers(lo, hi + 1))


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

    def draw(self, rng, hostile: bool = False):
        """One of the values, uniformly, drawn by NumPy's ``rng``."""
        return self.values[int(rng.integers(len(self.values)))]


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
        self._f = None   # (float, mpmath) functions of both sides, compiled on first use (start-up)

    def _fingerprint_state(self):
        """What the verdict cache's key reads of a relation (not its compiled functions)."""
        return {"rel": self.rel, "text": self.text}

    def _functions(self):
        if self._f is None:
            syms = sorted(self.rel.free_symbols, key=str)
            sides = [self.rel.lhs, self.rel.rhs]
            self._f = (sp.lambdify(syms, sides, modules="math"), sp.lambdify(syms, sides, modules="mpmath"))
        return self._f

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
        try:
            args = [point[n] for n in self._names]
        except KeyError:
            missing = [n for n in self._names if n not in point]
            raise ClaimError(f"relation {self.describe()!r} uses {', '.join(missing)}, which is not a parameter "
                             "of the domain (write relations in the domain's own parameters)") from None
        fast, exact = self._f or self._functions()
        op = _OPS[self.rel.rel_op]
        try:
            a, b = fast(*[float(v) for v in args])
            a, b = float(a), float(b)
            close = not (math.isfinite(a) and math.isfinite(b)) or abs(a - b) <= 1e-9 * max(abs(a), abs(b), 1e-300)
        except (ValueError, ZeroDivisionError, OverflowError, TypeError):
            close = True
        if not close:
            return bool(getattr(a, op)(b))
        with mpmath.workdps(40):
            try:
                a, b = exact(*(mpmath.mpf(v) for v in args))
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
        #: the parameters that are not valid, each named (``Real(lt="x")``): a Claim refuses the domain
        #: naming itself too; used alone, the domain refuses every point
        self.problems: tuple[str, ...] = tuple(f"parameter {name!r}: {why}" for name, why in
                                               ((n, _param_problem(p)) for n, p in self.params.items()) if why)
        if self.problems:
            return
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

    def usable(self) -> None:
        """Raise :class:`ClaimError` naming every parameter that is not valid (:attr:`problems`)."""
        if self.problems:
            raise ClaimError("; ".join(self.problems))

    def validate(self, point: Mapping[str, Any], optional=()) -> None:
        """Refuse (``DomainError`` naming it) a point that lacks a parameter (those in ``optional``
        may be left out), names an unknown one, or breaks a hypothesis."""
        self.usable()
        unknown = sorted(set(point) - set(self.params))
        if unknown:
            raise DomainError(f"unknown parameter {unknown[0]!r}; this claim's parameters are "
                              f"{', '.join(self.params)}")
        missing = [n for n in self.params if n not in point and n not in optional]
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
        """Whether :meth:`validate` accepts ``point`` (decided as it decides, without its messages)."""
        params = self.params
        if len(point) != len(params) or any(n not in point for n in params):
            return False    # a parameter missing, or one the domain does not have
        for name, p in params.items():
            v = point[name]
            if isinstance(p, Seq):
                n = point.get(p.length)
                if p.violation(name, v, None if n is None else int(n)) is not None:
                    return False
            elif p.violation(name, v) is not None:
                return False
        for r in self.relations:
            if not r.holds(point):
                return False
        return True

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
        self.usable()
        fixed = dict(fixed or {})
        scalars = {n: p for n, p in self.params.items() if not isinstance(p, Seq)}
        seqs = {n: p for n, p in self.params.items() if isinstance(p, Seq)}
        early = [r for r in self.relations if all(n in scalars for n in r.names)]
        late = [r for r in self.relations if r not in early]
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
        strategy = strategy.filter(lambda pt: all(r.holds(pt) for r in late)) if late else strategy
        # the same points, drawn by NumPy: dpverify.search.sample_points draws most of a large sample so
        strategy._dpverify_domain = (self, fixed)
        return strategy

    def draw_point(self, rng, fixed: Mapping[str, Any] | None = None, tries: int = 64,
                   hostile: bool = False) -> dict | None:
        """A point drawn by NumPy's ``rng`` (see :meth:`Real.draw`, :meth:`Int.draw`): the scalar
        parameters, then the sequences' entries, again until every hypothesis holds (``None`` after
        ``tries`` draws); the parameters in ``fixed`` are pinned (sequences copied)."""
        self.usable()
        fixed = dict(fixed or {})
        for _ in range(tries):
            pt = {n: (list(v) if isinstance(v, (list, tuple)) else v) for n, v in fixed.items()}
            for name, p in self.params.items():
                if name in pt or isinstance(p, Seq):
                    continue
                if isinstance(p, Real):
                    pt[name] = p.draw(rng, name, hostile)
                else:
                    pt[name] = p.draw(rng, hostile)
            for name, p in self.params.items():
                if name not in pt and isinstance(p, Seq):
                    pt[name] = [p.elem.draw(rng, f"{name}_{i}", hostile) for i in range(1, int(pt[p.length]) + 1)]
            if self.contains(pt):
                return pt
        return None


def _show(v: Any) -> str:
    return f"{v:g}" if isinstance(v, float) else str(v)


def relation_holds(r: Relation, point: Mapping[str, Any]) -> bool:
    """Whether ``point`` satisfies the relation ``r`` (compiled; see :class:`Relation`)."""
    return r.holds(point)
