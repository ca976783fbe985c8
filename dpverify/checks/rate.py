"""Rate check: estimate the hidden constants of ``expr = Theta(rate)`` or ``O(rate)``.

Along each declared path (a parameter sent to 0+ or infinity, others fixed at a drawn base point
or tied to it) the ratio ``expr / rate`` is evaluated over ``DECADES`` decades in mpmath, each point
at two precisions (the sweep ends where they stop agreeing: a value that moves with the precision
is rounding, not a drift). The
claim holds on a path when the ratio settles: its log-slope per decade over the last third of the
sweep is below ``FLAT``. It is violated when the ratio keeps drifting (to infinity, or to 0 for
Theta) at a slope above ``DRIFT`` per decade over the last third and has moved by more than a
decade in total; anything in between is inconclusive.
"""
from __future__ import annotations

import math

import mpmath
import numpy as np

from ..numeric import Compiled, is_finite_real, jsonable, real
from ..search import sample_points
from ..claims import Rate
from ..verdict import Basis, Evidence
from .base import Clock, Config, based
from .kind import CheckKind

DECADES = 24
STEPS_PER_DECADE = 2
FLAT = 0.02
DRIFT = 0.08
BASE_POINTS = 4
#: relative agreement between two precisions for a point of a sweep to count
AGREE = 1e-12
#: values per parameter of a path's worst_over search (per coordinate sweep), then ZOOMS refinements
#: of ZOOM_POINTS values between the best value's neighbours
WORST_GRID = 25
ZOOMS = 3
ZOOM_POINTS = 17


def applies(stmt) -> bool:
    return isinstance(stmt, Rate)


def path_point(path, base, x0: float, decades: float):
    """``(factor, point)``: the point of ``path`` ``decades`` decades from ``x0`` towards its limit (``factor`` =
    10^decades), the path's parameter moved from ``base`` and its tied parameters following it."""
    fac = 10.0 ** decades
    x = x0 * fac if path.to == "inf" else x0 / fac
    pt = dict(base)
    pt[path.param] = x
    for name in path.tied:
        pt[name] = path.tied_value(name, x, base)
    return fac, pt


def sweep(claim, path, base, cfg, fns, worst=None):
    """Evaluate ``fns`` (compiled expressions) along ``path`` from ``base``, decade by decade, in
    mpmath, while every point satisfies the claim's hypotheses and every value is finite.
    Returns the points and, per point, the list of values. ``worst`` (+1 or -1), with
    ``path.worst_over``: at each point those parameters maximise ``worst * log(fns[0]/fns[1])``
    (:func:`worst_point`)."""
    pts, values = [], []
    x0 = float(base[path.param])
    for k in range(DECADES * STEPS_PER_DECADE + 1):
        fac, pt = path_point(path, base, x0, k / STEPS_PER_DECADE)
        if worst is not None and path.worst_over:
            pt = worst_point(claim, path.worst_over, pt, fns, worst, widen=fac)
        if not claim.domain.contains(pt):
            break
        vals = settled_values(fns, pt, cfg.dps)
        if vals is None:
            break
        pts.append(pt)
        values.append(vals)
    return pts, values


def _grid(spec, n: int, widen: float = 1.0) -> list:
    """``n`` values spread over a parameter's search box (log-spaced where the box is positive, and
    then widened by the factor ``widen`` on both sides)."""
    lo, hi = (float(v) for v in spec.box())
    if lo > 0:
        lo, hi = lo / widen, hi * widen
    if lo > 0 and hi / lo > 10:
        vals = [lo * (hi / lo) ** (i / (n - 1)) for i in range(n)]
    else:
        vals = [lo + (hi - lo) * i / (n - 1) for i in range(n)]
    if not hasattr(spec, "log"):     # an integer parameter
        vals = sorted({int(round(v)) for v in vals})
    return vals


def worst_point(claim, names, pt, fns, sign, widen: float = 1.0, rounds: int = 2):
    """``pt`` with the parameters ``names`` set, one after the other (``rounds`` sweeps), to the grid
    value of their search box that maximises ``sign * log(fns[0] / fns[1])`` in double precision
    (points outside the claim's hypotheses excluded); ``pt`` itself where no grid value is usable.
    A positive box is widened by ``widen`` on both sides (the distance the path has travelled, so
    that a parameter whose worst value moves with the path's, e.g. D = 1/n, is followed)."""
    def pick(values):
        """The index in ``values`` of the best usable value of the current parameter (None if none)."""
        cands = [{**best, name: v} for v in values]
        usable = np.array([claim.domain.contains(c) for c in cands])
        if not usable.any():
            return None
        with np.errstate(all="ignore"):
            score = sign * (np.log(np.abs(fns[0].batch(cands))) - np.log(np.abs(fns[1].batch(cands))))
        score = np.where(np.isfinite(score) & usable, score, -np.inf)
        return int(np.argmax(score)) if np.isfinite(score.max()) else None

    best = dict(pt)
    for _ in range(rounds):
        for name in names:
            vals = _grid(claim.domain.params[name], WORST_GRID, widen)
            i = pick(vals)
            if i is None:
                continue
            best = {**best, name: vals[i]}
            # zoom between the neighbours of the best value (usable or not: a worst case on a
            # hypothesis' boundary is approached from inside), so that the worst value is followed
            # smoothly along the path (a coarse grid's jumps would read as a drift)
            integer = not hasattr(claim.domain.params[name], "log")
            for _zoom in range(0 if integer else ZOOMS):
                lo, hi = vals[max(i - 1, 0)], vals[min(i + 1, len(vals) - 1)]
                if not hi > lo:
                    break
                log = lo > 0
                a, b = (math.log(lo), math.log(hi)) if log else (lo, hi)
                vals = [a + (b - a) * k / (ZOOM_POINTS - 1) for k in range(ZOOM_POINTS)]
                vals = [math.exp(u) for u in vals] if log else vals
                i = pick(vals)
                if i is None:
                    break
                best = {**best, name: vals[i]}
    return best


def settled_values(fns, pt, dps):
    """The values of ``fns`` at ``pt``, each agreeing to ``AGREE`` (relative) between ``d`` and ``2d``
    digits for ``d = dps`` or ``2 dps``; ``None`` where they are undefined, not finite or never agree
    (far along a path the parameters cancel, e.g. ``1 - 1/kappa`` at kappa = 1e27, and a fixed precision
    returns noise that would read as a drift)."""
    def at(d):
        try:
            vals = [f(pt, d) for f in fns]
        except (ZeroDivisionError, OverflowError, ValueError):
            return None
        return [real(v) for v in vals] if all(is_finite_real(v) for v in vals) else None

    low = at(dps)
    for d in (2 * dps, 4 * dps):
        if low is None:
            return None
        high = at(d)
        if high is not None and all(abs(h - lo_) <= AGREE * max(abs(h), abs(lo_)) for h, lo_ in zip(high, low)):
            return high
        low = high
    return None


def _sweep(stmt, claim, path, base, cfg, num, den, worst=None):
    xs, ratios = [], []
    for pt, (a, b) in zip(*sweep(claim, path, base, cfg, (num, den), worst)):
        if b == 0:
            break
        r = a / b
        if r <= 0:
            break
        xs.append(pt)
        ratios.append(float(mpmath.log10(r)))
    return xs, ratios


def _basis(stmt, claim, ev) -> Basis:
    paths = ", ".join(f"{p.param} -> {p.to}" for p in stmt.paths)
    return Basis("rate", f"the printed expr / rate along {paths}")


def _sides(stmt, path) -> list:
    """The sweeps of a path: one with its other parameters as drawn; with ``worst_over``, the
    largest ratio (and for Theta also the smallest) over those parameters at each point."""
    if not path.worst_over:
        return [None]
    return [1] if stmt.kind == "O" else [1, -1]


def _worst_text(path, worst) -> str:
    if worst is None:
        return ""
    return f", {', '.join(path.worst_over)} chosen for the {'largest' if worst > 0 else 'smallest'} ratio at each point"


@based(_basis)
def check(stmt: Rate, claim, cfg: Config) -> Evidence:
    clock = Clock()
    num = Compiled(stmt.expr, claim)
    den = Compiled(stmt.rate, claim)
    bases = [cfg.at] if cfg.at is not None else sample_points(
        claim.domain.strategy(), 6 * BASE_POINTS, cfg.seed_for(claim.id, stmt.name, "rate"))
    lo, hi = math.inf, -math.inf
    evaluated = 0
    undecided = []
    used = 0
    for path, worst in [(p, w) for p in stmt.paths for w in _sides(stmt, p)]:
        swept = 0
        for base in bases:
            if swept >= BASE_POINTS:
                break
            pts, logs = _sweep(stmt, claim, path, base, cfg, num, den, worst)
            evaluated += len(logs)
            if len(logs) < 3 * STEPS_PER_DECADE:
                continue  # the base point sits where the expressions are undefined or leave the domain
            swept += 1
            used = max(used, swept)
            lo, hi = min(lo, min(logs)), max(hi, max(logs))
            tail = max(3, len(logs) // 3)
            slope = (logs[-1] - logs[-tail]) / ((tail - 1) / STEPS_PER_DECADE)
            steps = [logs[i + 1] - logs[i] for i in range(len(logs) - tail, len(logs) - 1)]
            monotone = all(s > 0 for s in steps) or all(s < 0 for s in steps)
            moved = max(logs) - min(logs)
            bad = slope > DRIFT or (stmt.kind == "Theta" and slope < -DRIFT)
            if bad and monotone and moved > 1:
                where = "infinity" if slope > 0 else "0"
                return Evidence(
                    "rate", stmt.name, "violated", samples=evaluated, seconds=clock.seconds,
                    counterexample={"params": jsonable(pts[-1]), "seed": cfg.seed,
                                    "path": f"{path.param} -> {path.to}" + (f" ({path.label})" if path.label else ""),
                                    "base": jsonable(base),
                                    **({"worst_over": list(path.worst_over),
                                        "points": [jsonable(p) for p in pts[::STEPS_PER_DECADE]]}
                                       if worst is not None else {})},
                    min_margin=None,
                    detail=(f"{stmt.kind}: expr/rate drifts to {where} as {path.param} -> {path.to}"
                            f"{' (' + path.label + ')' if path.label else ''}"
                            f"{_worst_text(path, worst)}: log10 ratio "
                            f"{logs[0]:.3g} -> {logs[-1]:.3g}, slope {slope:.3g} per decade"),
                    data={"log10_ratio": [round(v, 6) for v in logs]})
            if abs(slope) > FLAT and not (stmt.kind == "O" and slope < 0):
                undecided.append(f"{path.param} -> {path.to}: slope {slope:.3g} per decade, not settled")
        if swept == 0:
            undecided.append(f"{path.param} -> {path.to}: no base point with {3 * STEPS_PER_DECADE} "
                             "evaluable points along the path")
    if undecided or evaluated == 0:
        return Evidence("rate", stmt.name, "inconclusive", samples=evaluated, seconds=clock.seconds,
                        detail="; ".join(undecided) or "no path could be evaluated")
    band = f"[{10 ** lo:.3g}, {10 ** hi:.3g}]"
    return Evidence("rate", stmt.name, "holds", samples=evaluated, seconds=clock.seconds,
                    tightness=None,  # a rate has no single bound to compare with: see the band
                    detail=f"{stmt.kind}: expr/rate stays in {band} along {len(stmt.paths)} path(s) "
                           f"x {used} base point(s), {DECADES} decades each",
                    data={"band": [10 ** lo, 10 ** hi]})


KIND = CheckKind(
    name="rate", applies=applies, check=check, basis_kinds=("rate",), can_refute=True,
    no_certificate="an asymptotic rate (O/Theta) is not decided by a finite computation",
    summary="the ratio of the expression to its rate swept along paths to a limit, at two precisions")
