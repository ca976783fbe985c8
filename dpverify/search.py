"""Counterexample search: Hypothesis generation and shrinking, a double-precision screen, then a
local optimiser.

``search(strategy, margin, samples, seed, ...)`` looks for a point where ``margin(point).m < 0``
(the statement fails there). ``margin`` is the expensive, trusted evaluation (mpmath, confirmed
at twice the digits); an optional ``screen(points) -> array`` is a cheap double-precision margin
for many points at once. The search:

1. draws ``samples`` points from ``strategy`` (seeded, no database, so a seed replays exactly):
   Hypothesis's first ``HYPOTHESIS_POINTS`` (its minimal example, then its own draws), the rest by NumPy
   for a domain's strategy (:func:`dpverify.sampling.sample_points`);
2. screens them in NumPy and evaluates with ``margin`` every point the screen cannot clear (its
   float margin is below ``SCREEN_TOL``, or not a number) plus the ``KEEP`` smallest, so that
   rounding in double precision never decides a failure and the reported worst point is exact;
3. when a point fails, lets Hypothesis shrink it to a minimal counterexample (kept when ``margin``
   confirms it; otherwise the worst confirmed failure is the counterexample); the worst failure
   met (smallest margin) is reported beside it (``worst_point``, ``worst``);
4. otherwise starts a Nelder-Mead search on the margin from the ``optimise`` closest points, in
   the domain's (log-)coordinates, never leaving the domain (every hypothesis, relations included)
   nor its search box; the double-precision margin steers it, every clear failure on its path and
   its best point are decided by ``margin``.

A point whose ``Margin`` is ``unresolved`` counts neither way; the result counts such points
(``unresolved``, with the first one and its reason). ``margin`` is evaluated once per distinct point
of a search (a margin is a function of its point): a point met again, while shrinking or at the end,
reuses its ``Margin`` and is recorded as before.
"""
from __future__ import annotations

import dataclasses
import math
import random
import warnings
from dataclasses import dataclass, field
from typing import Any, Callable, Mapping, NamedTuple

import numpy as np
from hypothesis import Phase, find
from hypothesis.errors import HypothesisDeprecationWarning, NoSuchExample, Unsatisfiable

# the seeded draws live in .sampling; sample_points, derive_seed and HYPOTHESIS_POINTS are read from
# here too (the checks' and scenarios' import of them predates the split)
from .sampling import derive_seed, sample_points  # noqa: F401  (re-exported)
from .sampling import HYPOTHESIS_POINTS, hypothesis_settings, sample_with_origin, seed_only

SCREEN_TOL = 1e-6
KEEP = 4


class EvaluationError(Exception):
    """A point at which a statement cannot be evaluated (recorded, not a counterexample)."""


class Margin(NamedTuple):
    """``m >= 0`` where the statement holds (relative margin); ``value`` and ``bound`` are the two
    sides at the point (``value <= bound`` claimed). ``unresolved``: why the evaluation could not
    decide the point (then ``m`` is 0 and the point is neither a counterexample nor support)."""

    m: float
    value: float | None = None
    bound: float | None = None
    unresolved: str = ""


def tightness(value, bound) -> float | None:
    """``bound / value`` when both are positive (>= 1 where the bound holds), else None."""
    try:
        v, b = float(value), float(bound)
    except (TypeError, ValueError):
        return None
    if v > 0 and b > 0 and math.isfinite(v) and math.isfinite(b):
        return b / v
    return None


def _excess(mg: Margin | None) -> float:
    """``log(value / bound)`` of a failure (``inf`` above a bound that is 0 or negative): orders
    failures whose relative margins are equal (a margin is -1 for every value far above its bound)."""
    if mg is None or mg.value is None or mg.bound is None:
        return -math.inf
    v, b = float(mg.value), float(mg.bound)
    if v > 0 and b > 0:
        return math.log(v) - math.log(b)
    return math.inf if v > 0 or v > b else -math.inf


@dataclass
class SearchResult:
    counterexample: dict | None
    min_margin: float | None
    tightness: float | None
    samples: int
    errors: int = 0
    best_point: dict | None = None
    best: Margin | None = None
    found_by: str = ""
    confirmed: int = 0
    notes: list[str] = field(default_factory=list)
    worst_point: Any = None
    worst: Margin | None = None
    unresolved: int = 0
    unresolved_point: Any = None
    unresolved_reason: str = ""
    drawn: list = field(default_factory=list)   # the points drawn from the strategy


class _State:
    def __init__(self):
        self.n = 0
        self.errors = 0
        self.confirmed = 0
        self.min = math.inf
        self.best: Margin | None = None
        self.best_pt = None
        self.tight = math.inf
        self.pool: list[tuple[float, Any]] = []
        self.unresolved: list[tuple[Any, str]] = []

    def record(self, pt, mg: Margin, exact: bool):
        if exact and mg.unresolved:
            self.confirmed += 1
            self.unresolved.append((pt, mg.unresolved))
        elif exact:
            self.confirmed += 1
            if mg.m < self.min or (mg.m == self.min and mg.m < 0 and _excess(mg) > _excess(self.best)):
                self.min, self.best, self.best_pt = mg.m, mg, pt
            t = tightness(mg.value, mg.bound)
            if t is not None and mg.m >= 0 and t < self.tight:
                self.tight = t
        self.pool.append((mg.m, pt))
        if len(self.pool) > 64:
            self.pool.sort(key=lambda x: x[0])
            del self.pool[16:]


def search(strategy, margin: Callable[[Any], Margin], samples: int, seed: int, domain=None, optimise: int = 3,
           screen: Callable[[list], np.ndarray] | None = None, shrink: bool = True,
           embed: tuple[Callable, Callable] | None = None) -> SearchResult:
    """Search ``strategy`` for a point with ``margin(point).m < 0`` (see the module docstring).

    ``embed = (get, put)``: the searched objects are instances that carry a point of ``domain``
    (``get(inst) -> point``, ``put(inst, point) -> inst``); the local optimiser then moves the
    point and keeps the rest of the instance.
    """
    st = _State()
    margin = _Memo(margin)

    def exact(pt) -> Margin | None:
        try:
            mg = margin(pt)
        except EvaluationError:
            st.errors += 1
            return None
        st.record(pt, mg, True)
        return mg

    pts, numpy_drawn = sample_with_origin(strategy, samples, seed)
    st.n = len(pts)
    result = SearchResult(None, None, None, 0)
    failing = None
    if screen is not None and pts:
        fm = np.asarray(screen(pts), dtype=float)
        order = np.argsort(np.where(np.isnan(fm), -np.inf, fm))
        todo = [int(i) for i in order if not (fm[i] >= SCREEN_TOL)]
        # the KEEP closest screened passes are confirmed too (not the points whose screen failed to
        # evaluate: they are in todo already, and taking them again could leave no pass confirmed)
        todo += [int(i) for i in [j for j in order if not np.isnan(fm[j])][:KEEP] if int(i) not in todo]
        for i in order:
            if fm[i] >= SCREEN_TOL and int(i) not in todo:
                st.pool.append((float(fm[i]), pts[int(i)]))
        for i in todo:
            mg = exact(pts[i])
            if mg is not None and mg.m < 0:
                failing, where = pts[i], i
                break
    else:
        for i, pt in enumerate(pts):
            mg = exact(pt)
            if mg is not None and mg.m < 0:
                failing, where = pt, i
                break

    if failing is not None:
        result.counterexample, result.found_by = failing, "numpy draw" if where in numpy_drawn else "hypothesis"
        if shrink:
            def fails(pt) -> bool:
                # while shrinking, a clear failure in double precision is taken as it is; only the
                # shrunk point is confirmed (below), and the confirmed unshrunk one kept otherwise
                if screen is not None:
                    f = screen([pt])
                    if f.size and f[0] >= SCREEN_TOL:
                        return False
                    if f.size and f[0] < -SCREEN_TOL:
                        return True
                mg = exact(pt)
                return mg is not None and mg.m < 0
            try:
                with warnings.catch_warnings():
                    warnings.simplefilter("ignore", HypothesisDeprecationWarning)
                    with seed_only():
                        # Hypothesis shrinks what it finds itself: a failure it drew is met again within
                        # its first draws; one NumPy drew gets as many Hypothesis draws as a sample's prefix
                        budget = HYPOTHESIS_POINTS if where in numpy_drawn else samples
                        ce = find(strategy, fails, settings=hypothesis_settings(budget, [Phase.generate, Phase.shrink]),
                                  random=random.Random(seed))
                mg = exact(ce)
                if mg is not None and mg.m < 0:
                    result.counterexample, result.found_by = ce, "hypothesis (shrunk)"
                elif st.best_pt is not None and st.min < 0:
                    # the shrunk point did not confirm: fall back to the worst confirmed failure
                    result.counterexample = st.best_pt
                    result.found_by = "hypothesis (the worst point found; the shrunk one did not confirm)"
            except (NoSuchExample, Unsatisfiable):
                pass

    if result.counterexample is None and domain is not None and optimise > 0 and st.pool:
        st.pool.sort(key=lambda x: x[0])
        starts: list = []
        for _, pt in st.pool:
            if all(not _same(pt, s) for s in starts):
                starts.append(pt)
            if len(starts) >= optimise:
                break
        for start in starts:
            ce = _local_search(domain, start, exact, screen, st, embed)
            if ce is not None:
                result.counterexample, result.found_by = ce, "local optimiser of the margin"
                break

    if result.counterexample is not None:
        mg = margin(result.counterexample)
        result.best, result.min_margin = mg, float(mg.m)
        result.best_point = result.counterexample
    else:
        result.best, result.best_point = st.best, st.best_pt
        result.min_margin = None if st.min == math.inf else float(st.min)
    if st.best_pt is not None and st.min < 0:  # the largest violation met, beside the simplest one
        result.worst_point, result.worst = st.best_pt, st.best
    if st.unresolved:
        result.unresolved = len(st.unresolved)
        result.unresolved_point, result.unresolved_reason = st.unresolved[0]
    result.samples = st.n
    result.drawn = pts
    result.errors = st.errors
    result.confirmed = st.confirmed
    result.tightness = None if st.tight == math.inf else st.tight
    return result


class _Memo:
    """``margin`` evaluated once per distinct point of one search (Hypothesis's shrinking meets the same
    point again through other choices, the optimiser starts at points already evaluated, and the
    counterexample is evaluated again at the end). A margin is a function of its point (its seeds
    derive from names, never from a call count), so a repeated point gets the same ``Margin``, or the
    same ``EvaluationError``, without the work; every evaluation is still recorded as before. A point
    that :func:`_key` cannot describe exactly is evaluated every time."""

    def __init__(self, margin):
        self.margin = margin
        self.seen: dict = {}

    def __call__(self, pt) -> Margin:
        key = _key(pt)
        if key is None:
            return self.margin(pt)
        hit = self.seen.get(key)
        if hit is None:
            try:
                hit = (True, self.margin(pt))
            except EvaluationError as exc:
                hit = (False, exc)
            self.seen[key] = hit
        if not hit[0]:
            raise hit[1]
        return hit[1]


_NO_KEY = object()


def _key(x, depth: int = 0):
    """An exact, hashable description of a point or an instance (numbers by type and ``repr``, so that
    ``-0.0``, ``0.0`` and ``0`` differ; containers in order; frozen dataclasses field by field; arrays by
    dtype, shape and bytes), or ``None`` when part of it cannot be described so."""
    out = _describe(x, depth)
    return None if out is _NO_KEY else out


_SCALARS = (bool, int, float, str, complex, np.generic)


def _describe(x, depth):
    """:func:`_key`'s description (``_NO_KEY`` where there is none). Loops rather than generators, and
    the common types tested first; every item is described before any is judged, as before, so that the
    same inputs give the same keys (and raise the same errors)."""
    if depth > 8:
        return _NO_KEY
    t = type(x)
    if t is float or t is int or t is str or x is None or isinstance(x, _SCALARS):
        return (t.__name__, repr(x))
    if isinstance(x, (list, tuple)):
        items = tuple([_describe(v, depth + 1) for v in x])
        return _NO_KEY if _NO_KEY in items else (t.__name__, items)
    if isinstance(x, dict):
        items = tuple([(k, _describe(v, depth + 1)) for k, v in x.items()])
        for k, v in items:
            if v is _NO_KEY or not isinstance(k, str):
                return _NO_KEY
        return ("dict", items)
    if isinstance(x, np.ndarray):
        if x.dtype.hasobject:
            return _NO_KEY
        return ("ndarray", x.dtype.str, x.shape, x.tobytes())
    if dataclasses.is_dataclass(x) and not isinstance(x, type) and t.__dataclass_params__.frozen:
        items = tuple((f.name, _describe(getattr(x, f.name), depth + 1)) for f in dataclasses.fields(x))
        return _NO_KEY if any(v is _NO_KEY for _, v in items) else (t, items)
    return _NO_KEY


def _same(a: Mapping, b: Mapping) -> bool:
    return all(a.get(k) == b.get(k) for k in a)


def _coords(domain, point):
    """Real parameters (and sequence entries) of ``point`` as an unconstrained vector."""
    from .claims import Real, Seq

    keys, xs = [], []
    for name, p in domain.params.items():
        if name not in point:
            continue
        if isinstance(p, Real):
            keys.append((name, None, p.log))
            xs.append(math.log(point[name]) if p.log else float(point[name]))
        elif isinstance(p, Seq) and len(point[name]) <= 12:
            for i, v in enumerate(point[name]):
                keys.append((name, i, p.elem.log))
                xs.append(math.log(v) if p.elem.log else float(v))
    return keys, np.array(xs, dtype=float)


def _point(keys, x, template):
    pt = {k: (list(v) if isinstance(v, list) else v) for k, v in template.items()}
    for (name, i, lg), xi in zip(keys, x):
        v = math.exp(xi) if lg else float(xi)
        if i is None:
            pt[name] = v
        else:
            pt[name][i] = v
    return pt


def _local_search(domain, start, exact, screen, st, embed=None):
    """Nelder-Mead on the margin inside the domain and its search box; returns a confirmed failure."""
    from scipy.optimize import minimize

    get, put = embed if embed is not None else (lambda i: i, lambda i, p: p)
    base = start
    start = get(base)
    keys, x0 = _coords(domain, start)
    if len(x0) == 0:
        return None
    found: dict = {}
    best = {"m": math.inf, "pt": None}

    def obj(x):
        if not np.all(np.isfinite(x)) or np.any(np.abs(x) > 700):
            return 1e6
        pt = _point(keys, x, start)
        if not domain.in_box(pt) or not domain.contains(pt):
            return 1e6
        pt = put(base, pt)
        if screen is not None:
            # along the optimiser's path the double-precision margin steers; a clear failure is
            # confirmed at once, and the best point (the closest to failing) at the end
            f = float(screen([pt])[0])
            if f == f and f >= -SCREEN_TOL:
                st.n += 1
                if f < best["m"]:
                    best.update(m=f, pt=pt)
                return f
        mg = exact(pt)
        st.n += 1
        if mg is None:
            return 1e6
        if mg.m < 0:
            found["pt"] = pt
            raise _Found
        if mg.m < best["m"]:
            best.update(m=mg.m, pt=pt)
        return float(mg.m)

    try:
        minimize(obj, x0, method="Nelder-Mead", options={"maxfev": 60 * (len(x0) + 1), "xatol": 1e-10,
                                                         "fatol": 1e-14})
    except _Found:
        pass
    except (ValueError, ArithmeticError):  # a best effort on top of the Hypothesis search
        pass
    if "pt" not in found and best["pt"] is not None:
        mg = exact(best["pt"])  # the screened optimum, in mpmath
        if mg is not None and mg.m < 0:
            found["pt"] = best["pt"]
    return found.get("pt")


class _Found(Exception):
    """Stops the optimiser at the first counterexample."""


@dataclass
class ClimbResult:
    """What :func:`climb` found: the instance with the smallest score, its score, the score of the
    best start, the number of evaluations, the moves that improved (for the evidence) and the index
    in ``starts`` of the start it was reached from."""

    best: Any
    score: float
    start_score: float
    evaluations: int
    improvements: int
    origin: int


def climb(starts, move: Callable[[Any, np.random.Generator, float], Any], score: Callable[[Any], float],
          budget: int, seed: int, restarts: int = 2) -> ClimbResult | None:
    """An adversarial search over an instance's parameters: random-restart hill climbing that
    minimises ``score`` (a margin: below 0 the statement fails).

    Parameters
    ----------
    starts : list
        Instances to start from (the best ``restarts`` of them by score are climbed from).
    move : callable
        ``move(inst, rng, scale) -> inst`` (or ``None``: no move): a neighbour of ``inst`` inside the
        problem class; ``scale`` in (0, 1] is the size of the step (halved after a run of failures).
    score : callable
        ``score(inst) -> float``, smaller is worse for the statement; the caller makes it
        deterministic (common random numbers: the same seed for every instance), so that two
        instances are compared without noise. ``nan`` or an exception counts as no improvement.
    budget : int
        The number of ``score`` evaluations (the starts included): the same on every machine.
    seed : int
        Seeds the moves (NumPy): the same seed, the same climb.

    Returns ``None`` when no start could be scored. The search decides nothing: its best instance is
    meant to be measured again by a check, with a fresh seed (no selection bias).

    Example
    -------
    >>> r = climb([0.0], lambda x, rng, s: x + s * rng.normal(), lambda x: (x - 3.0) ** 2, 60, 0)
    >>> round(r.best, 1)
    3.0
    """
    rng = np.random.default_rng(seed % (2**63))
    used = 0

    def scored(inst):
        nonlocal used
        used += 1
        try:
            s = float(score(inst))
        except (ArithmeticError, ValueError, EvaluationError, RuntimeError, np.linalg.LinAlgError):
            return math.nan
        return s

    pool = []
    for i, inst in enumerate(starts):
        if used >= budget:
            break
        s = scored(inst)
        if math.isfinite(s):
            pool.append((s, i, inst))
    if not pool:
        return None
    pool.sort(key=lambda x: x[0])
    start_score = pool[0][0]
    best_s, origin, best = pool[0]
    improvements = 0
    heads = pool[:max(1, int(restarts))]
    share = max(1, (budget - used) // len(heads))
    for s0, i0, inst0 in heads:
        cur_s, cur, scale, fails, stop = s0, inst0, 1.0, 0, min(budget, used + share)
        while used < stop:
            cand = move(cur, rng, scale)
            if cand is None:
                break
            s = scored(cand)
            if math.isfinite(s) and s < cur_s:
                cur_s, cur, fails = s, cand, 0
                improvements += 1
            else:
                fails += 1
                if fails >= 3:
                    scale, fails = max(scale / 2, 1 / 64), 0
        if cur_s < best_s:
            best_s, best, origin = cur_s, cur, i0
    return ClimbResult(best, best_s, start_score, used, improvements, origin)
