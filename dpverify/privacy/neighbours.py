"""Inputs of a released computation, each declared public or derived from the data, and neighbouring data sets.

A privacy statement treats its parameters as given. Some are constants of the problem class, fixed before the
data are seen (a Lipschitz bound, the budget, n); others are computed from the private data set (an optimal value
``F*``, an initial gap ``F(w0) - F*``, a smoothness measured on the data, a number of iterations chosen from it).
On neighbouring data sets the second kind changes, and with it what is released. :class:`ReleaseInputs` declares
every input one way or the other and says what is released (:class:`GaussianRelease`) and what is promised
(:func:`dp`, :func:`zcdp`); the check kind ``neighbouring-data`` (:mod:`dpverify.checks.neighbours`) recomputes the
derived inputs on neighbouring data sets (:func:`neighbours`: replace one, remove one, and the replacement that
moves the derived inputs most) and compares the two releases.

Example (a user's claims file; ``F*`` is the empirical optimum of ``f_i(w) = (w - x_i)^2/2``, so the initial gap
at ``w0 = 0`` is ``mean(x)^2/2`` and the number of iterations is chosen from the data)::

    import sympy as sp
    from dpverify import SupBound
    from dpverify.privacy.neighbours import Derived, Examples, GaussianRelease, ReleaseInputs, zcdp

    L, n, rho, tol, T, x, xbar = sp.symbols("L n rho tol T x xbar")
    inputs = ReleaseInputs(
        public=("L", "n", "rho", "tol"),
        derived={"T": Derived(sp.Max(1, sp.ceiling(sp.log(xbar**2 / 2 / tol) / sp.log(2))),
                              aggregates={xbar: ("mean", x)}, note="T from the initial gap F(0) - F*")},
        examples=Examples({"x": (-1.0, 1.0)}, rows="n"),
        release=GaussianRelease(count=T, noise_std=2 * L * sp.sqrt(T / (2 * rho)) / n, sensitivity=2 * L / n),
        guarantee=zcdp(rho), adjacency="replace")
    SupBound("rho-zCDP", bound=rho, kind="privacy", scenario=..., inputs=inputs)
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any, Callable, Mapping

import numpy as np
import sympy as sp

from ..numeric import as_expr

__all__ = ["ADJACENCIES", "Derived", "Examples", "GaussianRelease", "Guarantee", "Neighbour", "REDUCTIONS", "Release",
           "ReleaseInputs", "SHAPES", "dp", "neighbours", "zcdp"]

#: the neighbouring relations: same size with one example replaced, or one example removed
ADJACENCIES = ("replace", "remove")
#: the data sets drawn at each point (:meth:`Examples.draw`)
SHAPES = ("uniform", "sparse")
#: how a per-example quantity is reduced over the data set
REDUCTIONS: dict[str, Callable] = {"mean": np.mean, "sum": np.sum, "max": np.max, "min": np.min}


def _expr(owner: str, value, allow_none=False):
    if value is None and allow_none:
        return None
    return as_expr(value, f"{owner} = {value!r}")


@dataclass(frozen=True)
class Examples:
    """The examples of a data set: ``columns`` maps each per-example quantity to its range ``(lo, hi)`` in the
    problem class (a feature bounded by 1, a label in [-1, 1]); ``rows`` names the claim's parameter that is the
    data set's size ``n``. Data sets are drawn uniformly on the ranges; replacements range over them."""

    columns: Mapping[str, tuple]
    rows: str

    def __post_init__(self):
        if not isinstance(self.columns, Mapping) or not self.columns:
            raise TypeError(f"Examples.columns must be a non-empty mapping name -> (lo, hi), got {self.columns!r}")
        cols = {}
        for name, rng in self.columns.items():
            if not isinstance(name, str) or not isinstance(rng, (tuple, list)) or len(rng) != 2:
                raise TypeError(f"Examples.columns[{name!r}] must be a pair (lo, hi), got {rng!r}")
            lo, hi = float(rng[0]), float(rng[1])
            if not (math.isfinite(lo) and math.isfinite(hi) and lo <= hi):
                raise ValueError(f"Examples.columns[{name!r}] must be finite with lo <= hi, got {rng!r}")
            cols[name] = (lo, hi)
        object.__setattr__(self, "columns", tuple(cols.items()))
        if not isinstance(self.rows, str) or not self.rows:
            raise TypeError(f"Examples.rows must name the claim's parameter n, got {self.rows!r}")

    @property
    def names(self) -> tuple[str, ...]:
        return tuple(c for c, _ in self.columns)

    def draw(self, n: int, rng, shape: str = "uniform") -> dict:
        """A data set of ``n`` rows: drawn uniformly on the ranges (``shape="uniform"``), or every row at the
        ranges' centre but the first, drawn uniformly (``"sparse"``: one example carries the data set)."""
        if shape not in SHAPES:
            raise ValueError(f"shape must be one of {SHAPES}, got {shape!r}")
        out = {c: rng.uniform(lo, hi, size=n) for c, (lo, hi) in self.columns}
        if shape == "sparse":
            for c, (lo, hi) in self.columns:
                out[c][1:] = (lo + hi) / 2
        return out

    def candidates(self, rng, extra: int = 8) -> list[dict]:
        """Replacement rows: every corner of the ranges (at most 16), the centre, and ``extra`` uniform draws."""
        cols = self.columns[:4]
        out = []
        for k in range(2 ** len(cols)):
            out.append({c: (hi if (k >> i) & 1 else lo) for i, (c, (lo, hi)) in enumerate(cols)})
        for row in out:
            row.update({c: (lo + hi) / 2 for c, (lo, hi) in self.columns[4:]})
        out.append({c: (lo + hi) / 2 for c, (lo, hi) in self.columns})
        out += [{c: float(rng.uniform(lo, hi)) for c, (lo, hi) in self.columns} for _ in range(extra)]
        return out


@lru_cache(maxsize=256)
def _per_example(expr, columns: tuple, names: tuple):
    return sp.lambdify([sp.Symbol(c) for c in columns] + [sp.Symbol(v) for v in names], expr, "numpy")


@dataclass(frozen=True)
class Derived:
    """An input computed from the data set.

    Either ``expr``, a SymPy expression in the claim's public symbols and the ``aggregates``' symbols, each
    aggregate ``symbol: (reduction, per-example expression in the columns' symbols)`` with ``reduction`` one of
    :data:`REDUCTIONS` -- e.g. ``Derived(G / n, aggregates={G: ("max", sp.Abs(x))})`` -- or ``code``, a function
    ``code(data, values) -> float`` of the data set (a dict column -> array) and the public values (e.g. an
    empirical optimum found by a solver). ``note`` says where the paper computes it."""

    expr: Any = None
    aggregates: Mapping = field(default_factory=dict)
    code: Callable | None = None
    note: str = ""

    def __post_init__(self):
        if (self.expr is None) == (self.code is None):
            raise TypeError("Derived needs exactly one of expr (a SymPy expression) and code (a function)")
        if self.code is not None and not callable(self.code):
            raise TypeError(f"Derived.code must be a function code(data, values) -> float, got {self.code!r}")
        if self.expr is not None:
            object.__setattr__(self, "expr", _expr("Derived.expr", self.expr))
        aggs = []
        for sym, spec in dict(self.aggregates).items():
            if not isinstance(sym, sp.Symbol) or not isinstance(spec, (tuple, list)) or len(spec) != 2 \
                    or spec[0] not in REDUCTIONS:
                raise TypeError(f"Derived.aggregates[{sym!r}] must be (one of {sorted(REDUCTIONS)}, an expression), "
                                f"got {spec!r}")
            aggs.append((sym, (spec[0], _expr(f"Derived.aggregates[{sym}]", spec[1]))))
        object.__setattr__(self, "aggregates", tuple(aggs))

    def reads(self) -> set[str]:
        """The names of the claim's symbols ``expr`` reads (the aggregates' symbols aside)."""
        if self.expr is None:
            return set()
        own = {s for s, _ in self.aggregates}
        return {s.name for s in self.expr.free_symbols if s not in own}

    def value(self, data: Mapping, values: Mapping[str, float]) -> float:
        """The input on the data set ``data`` with the public ``values``."""
        if self.code is not None:
            return float(self.code(data, dict(values)))
        subs = {}
        for sym, (red, per) in self.aggregates:
            f = _per_example(per, tuple(data), tuple(values))
            col = np.broadcast_to(np.asarray(f(*data.values(), *values.values()), float), len(next(iter(data.values()))))
            subs[sym] = sp.Float(float(REDUCTIONS[red](col)), 30)
        subs.update({sp.Symbol(k): sp.Float(v, 30) if isinstance(v, float) else v for k, v in values.items()})
        return float(sp.N(self.expr.subs(subs), 30))


@dataclass(frozen=True)
class GaussianRelease:
    """What is released: ``count`` noisy vectors (the number of released iterates or gradients), the first one
    with Gaussian noise of standard deviation ``noise_std`` (``step``: the symbol of the step index in it, set to
    1), around a mean that moves by at most ``sensitivity`` between neighbouring data sets. Each an expression in
    the claim's symbols. The first release is taken because it is Gaussian whatever the algorithm: its mean is a
    function of the data and the public start, not of earlier noise."""

    count: Any
    noise_std: Any
    sensitivity: Any
    step: Any = None

    def __post_init__(self):
        for name in ("count", "noise_std", "sensitivity"):
            object.__setattr__(self, name, _expr(f"GaussianRelease.{name}", getattr(self, name)))
        if self.step is not None and not isinstance(self.step, sp.Symbol):
            raise TypeError(f"GaussianRelease.step must be a SymPy symbol, got {self.step!r}")

    def reads(self) -> set[str]:
        syms = set().union(*(e.free_symbols for e in (self.count, self.noise_std, self.sensitivity)))
        return {s.name for s in syms if s != self.step}


@dataclass(frozen=True)
class Guarantee:
    """What the statement promises: ``kind`` "dp" with ``eps``, ``delta`` or "zcdp" with ``rho`` (expressions)."""

    kind: str
    eps: Any = None
    delta: Any = None
    rho: Any = None

    def __post_init__(self):
        if self.kind not in ("dp", "zcdp"):
            raise TypeError(f"Guarantee.kind must be 'dp' or 'zcdp', got {self.kind!r}")
        for name in ("eps", "delta", "rho"):
            object.__setattr__(self, name, _expr(f"Guarantee.{name}", getattr(self, name), allow_none=True))
        need = ("eps", "delta") if self.kind == "dp" else ("rho",)
        if any(getattr(self, k) is None for k in need):
            raise TypeError(f"a {self.kind} guarantee needs {', '.join(need)}")

    def reads(self) -> set[str]:
        return {s.name for e in (self.eps, self.delta, self.rho) if e is not None for s in e.free_symbols}

    def pairs(self, values) -> list[tuple[float, float]]:
        """The ``(eps, delta)`` it promises at ``values``: one pair for "dp"; for "zcdp" the pairs
        ``(rho + 2 sqrt(rho ln 1/delta), delta)`` at ``delta = 10^-1 .. 10^-12`` [Bun & Steinke 2016, Prop. 1.3]."""
        subs = {sp.Symbol(k): v for k, v in values.items()}
        if self.kind == "dp":
            return [(float(sp.N(self.eps.subs(subs), 30)), float(sp.N(self.delta.subs(subs), 30)))]
        rho = float(sp.N(self.rho.subs(subs), 30))
        return [(rho + 2 * math.sqrt(rho * math.log(10.0 ** k)), 10.0 ** -k) for k in range(1, 13)]


def dp(eps, delta) -> Guarantee:
    """An ``(eps, delta)``-DP promise (expressions in the claim's symbols)."""
    return Guarantee("dp", eps=eps, delta=delta)


def zcdp(rho) -> Guarantee:
    """A ``rho``-zCDP promise (an expression in the claim's symbols)."""
    return Guarantee("zcdp", rho=rho)


@dataclass(frozen=True)
class ReleaseInputs:
    """Every input of a released computation declared: ``public`` (names of the claim's parameters that are
    constants of the problem class, chosen before the data are seen) or ``derived`` (name -> :class:`Derived`,
    computed from the data set); ``examples`` (:class:`Examples`, needed when anything is derived), ``release``
    (:class:`GaussianRelease`) and ``guarantee`` (:func:`dp` or :func:`zcdp`), both needed when anything is derived;
    ``constants``: name -> expression of the claim's parameters, public values fixed at the point before the data
    are seen (e.g. ``{"rho": <the budget the claim's T spends>}`` when the claim is parametrised by ``T`` but the
    algorithm by its budget); ``adjacency``: "replace" or "remove", the statement's neighbouring relation (needed
    when anything is derived: only neighbours under it are tried); ``data``: names of the claim's parameters that are the data themselves (the
    examples of a neighbouring pair the statement's scenario measures on), not inputs of the computation. Given to
    a privacy statement as
    ``SupBound(..., kind="privacy", inputs=ReleaseInputs(...))``; see the module docstring for an example.
    An input that is neither is *undeclared*, never assumed public."""

    public: tuple = ()
    derived: Mapping = field(default_factory=dict)
    release: GaussianRelease | None = None
    guarantee: Guarantee | None = None
    examples: Examples | None = None
    constants: Mapping = field(default_factory=dict)
    data: tuple = ()
    adjacency: str | None = None

    def __post_init__(self):
        if isinstance(self.public, str) or not all(isinstance(p, str) for p in self.public):
            raise TypeError(f"ReleaseInputs.public must be a tuple of parameter names, got {self.public!r}")
        object.__setattr__(self, "public", tuple(self.public))
        if isinstance(self.data, str) or not all(isinstance(p, str) for p in self.data):
            raise TypeError(f"ReleaseInputs.data must be a tuple of parameter names, got {self.data!r}")
        object.__setattr__(self, "data", tuple(self.data))
        der = dict(self.derived)
        bad = {k: v for k, v in der.items() if not isinstance(k, str) or not isinstance(v, Derived)}
        if bad:
            raise TypeError(f"ReleaseInputs.derived must map names to Derived(...), got {bad!r}")
        object.__setattr__(self, "derived", tuple(der.items()))
        both = set(self.public) & set(der)
        if both:
            raise TypeError(f"ReleaseInputs: {sorted(both)} declared both public and derived")
        if (der or self.release is not None) and not isinstance(self.release, GaussianRelease):
            raise TypeError(f"ReleaseInputs.release must be a GaussianRelease(...), got {self.release!r}")
        if (der or self.guarantee is not None) and not isinstance(self.guarantee, Guarantee):
            raise TypeError(f"ReleaseInputs.guarantee must be dp(eps, delta) or zcdp(rho), got {self.guarantee!r}")
        cons = dict(self.constants)
        object.__setattr__(self, "constants", tuple((k, _expr(f"ReleaseInputs.constants[{k!r}]", v))
                                                    for k, v in cons.items()))
        clash = (set(self.public) | set(der)) & set(cons)
        if clash:
            raise TypeError(f"ReleaseInputs: {sorted(clash)} declared both a constant and public or derived")
        if (der or self.adjacency is not None) and self.adjacency not in ADJACENCIES:
            raise TypeError(f"ReleaseInputs.adjacency must be one of {ADJACENCIES} (the statement's neighbouring "
                            f"relation), got {self.adjacency!r}")
        if der and not isinstance(self.examples, Examples):
            raise TypeError("ReleaseInputs: derived inputs need examples=Examples(...) to draw data sets from")
        if self.examples is not None and self.examples.rows not in self.public:
            raise TypeError(f"ReleaseInputs: the data set's size {self.examples.rows!r} must be declared public")

    @property
    def declared(self) -> set[str]:
        return set(self.public) | {k for k, _ in self.derived} | {k for k, _ in self.constants} | set(self.data)

    def reads(self) -> set[str]:
        """Every name the declaration's expressions read (the data's columns aside)."""
        out = set()
        for part in (self.release, self.guarantee):
            if part is not None:
                out |= part.reads()
        for _, d in self.derived:
            out |= d.reads()
        for _, e in self.constants:
            out |= {s.name for s in e.free_symbols}
        return out - set(self.examples.names if self.examples else ())

    def fixed(self, point: Mapping[str, float]) -> dict[str, float]:
        """The ``constants`` at ``point``: public values fixed before the data are seen, given as expressions of the
        claim's parameters (the budget a printed number of iterations spends, say)."""
        subs = {sp.Symbol(k): v for k, v in point.items()}
        return {k: float(sp.N(e.subs(subs), 30)) for k, e in self.constants}

    def undeclared(self, needed) -> list[str]:
        """The names among ``needed`` (and those the declaration reads) declared neither public nor derived."""
        return sorted((set(needed) | self.reads()) - self.declared)

    def derive(self, data, values) -> dict[str, float]:
        """The derived inputs on the data set ``data`` (``values``: the public ones)."""
        names = set(self.public) | {k for k, _ in self.constants}
        public = {k: float(v) for k, v in values.items() if k in names and isinstance(v, (int, float))}
        return {k: d.value(data, public) for k, d in self.derived}

    def released(self, values) -> "Release":
        """What is released at ``values`` (every input's value)."""
        subs = {sp.Symbol(k): v for k, v in values.items()}
        rel = self.release
        if rel.step is not None:
            subs[rel.step] = 1

        def num(e):
            return float(sp.N(e.subs(subs), 30))

        c = num(rel.count)
        return Release(count=int(math.floor(c)) if math.isfinite(c) else c, noise_std=num(rel.noise_std),
                       sensitivity=num(rel.sensitivity))


@dataclass(frozen=True)
class Release:
    """A release evaluated on one data set: how many noisy vectors, the first's noise, its sensitivity."""

    count: Any
    noise_std: float
    sensitivity: float

    def as_dict(self) -> dict:
        return {"count": self.count, "noise_std": self.noise_std, "sensitivity": self.sensitivity}


@dataclass(frozen=True)
class Neighbour:
    """A neighbouring data set: ``op`` ("replace", "remove" or "extreme replace"), the row ``index`` changed and
    the replacement ``row`` (None for a removal)."""

    op: str
    index: int
    row: Any
    data: Any = field(repr=False, compare=False, default=None)

    def describe(self) -> str:
        if self.row is None:
            return f"{self.op} row {self.index}"
        return f"{self.op} row {self.index} by " + ", ".join(f"{k}={v:.6g}" for k, v in self.row.items())


def _replace(data, i, row):
    out = {c: v.copy() for c, v in data.items()}
    for c, v in row.items():
        out[c][i] = v
    return out


def _remove(data, i):
    return {c: np.delete(v, i) for c, v in data.items()}


def indices(data, rng, extra: int = 2) -> list[int]:
    """The rows worth changing: each column's smallest and largest, the first, and ``extra`` at random."""
    n = len(next(iter(data.values())))
    picks = [0]
    for v in data.values():
        picks += [int(np.argmin(v)), int(np.argmax(v))]
    picks += [int(i) for i in rng.integers(0, n, size=extra)]
    return list(dict.fromkeys(picks))


def neighbours(data, examples: Examples, rng, score: Callable[[dict], float] | None = None,
               adjacency: str = "replace"):
    """The neighbouring data sets of ``data`` at :func:`indices` under ``adjacency``: each row removed
    (``"remove"``), or (``"replace"``) replaced by a uniform draw and by the candidate row
    (:meth:`Examples.candidates`) with the largest ``score(data')`` (the extreme replacement; the check's score is
    how far the release moves)."""
    if adjacency not in ADJACENCIES:
        raise ValueError(f"adjacency must be one of {ADJACENCIES}, got {adjacency!r}")
    n = len(next(iter(data.values())))
    cands = examples.candidates(rng)
    for i in indices(data, rng):
        if adjacency == "remove":
            if n > 1:
                yield Neighbour("remove", i, None, _remove(data, i))
            continue
        row = {c: float(rng.uniform(lo, hi)) for c, (lo, hi) in examples.columns}
        yield Neighbour("replace", i, row, _replace(data, i, row))
        if score is not None:
            scored = [(score(_replace(data, i, r)), k) for k, r in enumerate(cands)]
            scored = [s for s in scored if s[0] is not None and math.isfinite(s[0])]
            if scored:
                best = cands[max(scored)[1]]
                yield Neighbour("extreme replace", i, best, _replace(data, i, best))
