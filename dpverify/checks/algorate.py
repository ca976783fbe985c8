"""Algorithm-rate check: the order of what an algorithm attains, swept along paths to a limit.

An :class:`~dpverify.claims.AlgorithmRate` states ``E[statistic] = O(rate)`` (or ``Theta``) where the
expectation is the algorithm's, not a printed formula's. Base instances are drawn from the scenario's
class (its strategy, or the claim's domain realised by ``instance_at``); along each declared path the
instance keeps its problem and moves to the path's points (``with_point``), decade by decade for the
statement's ``decades``, while every point is inside the claim's hypotheses and the scenario can realise
it. At each point the statistic is measured:

* **exact** where the scenario has exact moments at the instance: in mpmath at ``Config.dps`` digits (the
  value used) and in double precision, two independent evaluations that must agree to ``AGREE`` (relative:
  a rate is decided on slopes of whole decades, so a tenth of a percent is far below what moves a verdict).
  Where they do not -- a double-precision recursion that has lost its digits, e.g. ``(1 - eta lam)^(2^40)``
  over a long run's phases -- the point counts only where mpmath at twice the digits gives the value again
  (to ``CONFIRM``); the value's lower and upper bounds are then the mpmath value;
* otherwise by **Monte Carlo**: ``runs`` runs, one-sided normal bounds (Bonferroni over the points of
  the sweep at ``Config.confidence``); the lower bound counts only where it is positive.

The decision is the rate check's (:mod:`.rate`, its ``FLAT``/``DRIFT`` thresholds, over the last third
of the sweep), on the side each verdict needs: ``violated`` when the *lower* bound's ratio to the rate
drifts to infinity (for Theta also: the *upper* bound's ratio drifts to 0) -- a slope above ``DRIFT``
per decade, monotone, by more than a decade in total; ``holds`` when on every path the *upper* bound's
ratio settles -- the maximum over the sweep's last third exceeds the maximum over its middle third by at most
``FLAT`` per decade (:func:`envelope_rise`: a rounded horizon makes the ratio a bounded sawtooth, and a slope over
the last points would follow its phase) -- and for Theta the lower bound's minimum does not fall by more; anything
else is ``inconclusive``. A base whose ratio drifts or is unsettled over the declared ``decades`` is followed as
far again (where the path and the step budget allow) and judged on the whole sweep: a horizon that bottoms out at
one step makes the ratio climb for a decade or two and then fall, and a constant approached slowly from below
climbs at a shrinking pace; neither is a drift, and a verdict on the first decades alone would follow the base
the seed drew. So is a base whose envelope settles while its last points still climb (a sawtooth's phase, or a
growth that a hump in the middle third hides); where, after that, a transient in the middle third stands above
the last third by more than the last third's own spread while the last third climbs, the base is not settled
(:func:`masked`). A path's ``worst_over`` is not searched here (the check says so, inconclusive):
an algorithm's cost per point does not allow a grid at every point.
"""
from __future__ import annotations

import math

import mpmath

from ..numeric import Compiled, jsonable
from ..scenarios import bind
from ..search import EvaluationError, sample_points
from ..claims import AlgorithmRate
from ..stats import bonferroni, mean_bounds
from ..verdict import Basis, Evidence
from .base import Clock, Config, based, scenario_on
from .kind import CheckKind
from .rate import DRIFT, FLAT, path_point

#: base instances swept per path (of ``DRAWS`` drawn: a draw the path cannot leave from is skipped)
BASE_POINTS = 2
DRAWS = 12
#: relative agreement of the double-precision and the mpmath value of an exact point
AGREE = 1e-3
#: where they differ more: relative agreement of the mpmath values at ``Config.dps`` and twice as many digits
CONFIRM = 1e-9
#: the most iterations one measurement may run (``Scenario.steps``): an exact per-step recursion in mpmath costs
#: ~15 us a step for noisy GD and ~2.3 ms for adaptive GD (14,934 steps: 35 s), growing linearly (a sweep from
#: T = 1e4 over four decades would need ~15 min and ~20 GB at its last point); a path is swept up to it and no
#: further. The registry's sweeps reach 52,095 at seed 0; at seed 1 adaptive GD drew 168,071 (~6 min a point).
STEP_BUDGET = 60_000
#: a sweep followed beyond its declared decades stops before a point costing more than this many times the
#: costliest point of the declared sweep (iterations times dimensions: an exact moment recursion runs over every
#: eigenvalue, so a path in the dimension grows its cost by the dimension: an adaptive method's exact moments
#: from d = 1e3 to 1e6 would take hours)
EXTEND_COST = 10
#: a drift that goes on over the sweep followed as far again is probed this many decades further still, one point
#: each (the formula-rate check looks 24 decades out): a ramp to a constant -- a horizon held at one step until
#: eps N^2 is large, for seven decades -- levels off there, a growth goes on
FAR = (1, 2, 4, 8, 16)
#: the most a far point may cost (:func:`work`) where ``EXTEND_COST`` times the sweep's costliest point is less (a
#: sweep whose points ran one step in 1e3 dimensions: 2e5 is under a second of adaptive GD's exact recursion)
FAR_WORK = 200_000
#: the label of the seeds of this check's draws and runs
LABEL = "algorithm-rate"


def applies(stmt) -> bool:
    return isinstance(stmt, AlgorithmRate)


def _bases(sc, claim, cfg, stmt) -> list:
    """Base instances: the scenario's own draws where it has a strategy, else the claim's points realised."""
    seed = cfg.seed_for(claim.id, stmt.name, LABEL)
    if cfg.at is not None:
        inst = sc.instance_at(dict(cfg.at))
        return [] if inst is None else [inst]
    strategy = sc.strategy()
    if strategy is not None:
        return [i for i in sample_points(strategy, DRAWS, seed) if i is not None]
    out = []
    for pt in sample_points(claim.domain.strategy(), DRAWS, seed):
        inst = sc.instance_at(pt)
        if inst is not None:
            out.append(inst)
    return out


def measure(sc, inst, stmt, cfg, level, seed):
    """``(lower, upper, route)`` of ``E[statistic]`` at ``inst``, or None where it cannot be measured
    (outside the hypotheses the scenario checks, undefined, or an exact value that moves with the precision)."""
    try:
        if sc.supports_exact and sc.exact_available(inst):
            fast = float(sc.exact(inst))
            with mpmath.workdps(cfg.dps):
                slow = float(sc.exact(inst, cfg.dps))
            if not math.isfinite(slow):
                return None
            if not (math.isfinite(fast) and abs(fast - slow) <= AGREE * max(abs(fast), abs(slow))):
                # the double-precision recursion may have lost its digits (a long run's matrix powers): the
                # mpmath value stands where twice the digits give it again
                with mpmath.workdps(2 * cfg.dps):
                    again = float(sc.exact(inst, 2 * cfg.dps))
                if not (math.isfinite(again) and abs(again - slow) <= CONFIRM * max(abs(again), abs(slow))):
                    return None
            return slow, slow, "exact"
        if not sc.supports_monte_carlo:
            return None
        mean, var = sc.monte_carlo(inst, stmt.runs, seed, cfg.chunk_runs)
        if sc.deterministic(inst):
            return mean, mean, "deterministic"
        b = mean_bounds(float(mean), float(var), stmt.runs, level)
        return b.lower, b.upper, "monte-carlo"
    except (EvaluationError, ValueError, ArithmeticError, ZeroDivisionError, OverflowError):
        return None


def work(sc, inst):
    """What one measurement of ``inst`` costs: iterations (``Scenario.steps``) times the dimension where the
    scenario maps one (``dim``), or None where it runs no iteration."""
    steps = sc.steps(inst)
    if steps is None:
        return None
    dim = 1
    m = getattr(sc, "map", None)
    if m is not None and m.has("dim"):
        try:
            dim = max(1, int(round(float(m.scalar("dim", sc.point(inst))))))
        except (TypeError, ValueError, OverflowError):
            dim = 1
    return steps * dim


def sweep(sc, claim, stmt, path, inst0, cfg, rate, tag, first=0, last=None, prior=None, cap=None):
    """The sweep of ``path`` from the instance ``inst0`` over its grid points ``first`` to ``last`` (default: the
    statement's ``decades``; ``prior``, the point before ``first`` where a sweep is extended): points,
    log10(lower/rate), log10(upper/rate), routes, whether it stopped at the step budget (a point whose
    measurement would run more than ``STEP_BUDGET`` iterations), whether it reached ``last`` (a point costing more
    than ``cap`` (:func:`work`) ends it short), and the largest cost it measured."""
    last = stmt.decades * stmt.per_decade if last is None else last
    # Monte Carlo bounds hold together over every point a sweep, its extension (twice the decades) and its far
    # points may measure
    level = bonferroni(cfg.confidence, 2 * stmt.decades * stmt.per_decade + 1 + len(FAR))
    base = sc.point(inst0)
    x0 = float(base[path.param])
    pts, lows, highs, routes, cut, most = [], [], [], set(), False, 0
    prev = prior
    for k in range(first, last + 1):
        _, pt = path_point(path, base, x0, k / stmt.per_decade)
        for name in (path.param, *path.tied):   # an integer parameter (a horizon, a sample size) is rounded
            if not hasattr(claim.domain.params[name], "log"):
                pt[name] = int(round(pt[name]))
        if prev is not None and all(pt[name] == prev[name] for name in (path.param, *path.tied)):
            continue
        if not claim.domain.contains(pt):
            break
        inst = sc.with_point(inst0, pt)
        if inst is None:
            break
        steps = sc.steps(inst)
        if steps is not None and steps > STEP_BUDGET:
            cut = True
            break
        cost = work(sc, inst)
        if cap is not None and cost is not None and cost > cap:
            break
        most = max(most, cost or 0)
        got = measure(sc, inst, stmt, cfg, level, cfg.seed_for(claim.id, stmt.name, LABEL, tag, k))
        if got is None:
            break
        try:
            r = float(rate(sc.point(inst), cfg.dps).real)
        except (ZeroDivisionError, OverflowError, ValueError):
            break
        lo, hi, route = got
        if not (r > 0 and math.isfinite(r) and hi > 0):
            break
        prev = sc.point(inst)
        pts.append(prev)
        lows.append(math.log10(lo / r) if lo > 0 else -math.inf)
        highs.append(math.log10(hi / r))
        routes.add(route)
    else:
        return pts, lows, highs, routes, cut, True, most
    return pts, lows, highs, routes, cut, False, most


def far_points(sc, claim, stmt, path, inst0, cfg, rate, tag, start, most):
    """The points ``FAR`` decades beyond grid point ``start`` of a sweep (one each, while they can be measured and
    cost at most ``max(EXTEND_COST * most, FAR_WORK)``): decades beyond ``start``, log10(lower/rate),
    log10(upper/rate), the points, routes."""
    cap = max(EXTEND_COST * (most or 0), FAR_WORK)
    dec, lows, highs, pts, routes = [], [], [], [], set()
    for j in FAR:
        k = start + j * stmt.per_decade
        got = sweep(sc, claim, stmt, path, inst0, cfg, rate, tag, k, k, cap=cap)
        if not got[0]:
            break
        dec.append(j)
        pts += got[0]
        lows += got[1]
        highs += got[2]
        routes |= got[3]
    return dec, lows, highs, pts, routes


def levels_off(stmt, drift, far):
    """``(levelled, why)`` of a drift (``drift``; None: a ratio not settled) probed ``FAR`` decades further
    (:func:`far_points`): ``levelled`` where the drifting bound moves less than ``DRIFT`` a decade between the last
    two far points (at least 4 decades apart: the first far points may still be on the ramp), ``why`` (None where
    settled) where the upper bound still rises there (or, for Theta, the lower bound falls) by more than ``FLAT``
    a decade. Not levelled where fewer far points were measured."""
    dec, lows, highs = far[:3]
    if len(dec) < 2 or dec[-1] - dec[-2] < 4 or not all(math.isfinite(v) for v in (*lows[-2:], *highs[-2:])):
        return False, None
    span = dec[-1] - dec[-2]
    if drift is not None:
        move = (lows[-1] - lows[-2]) / span if drift[0] == "lower" else (highs[-2] - highs[-1]) / span
        if move > DRIFT:
            return False, None
    rise = (highs[-1] - highs[-2]) / span
    if rise > FLAT:
        return True, f"its far points' upper bound still rises {rise:.3g} per decade"
    if _creeps(highs):
        return True, (f"its farthest point's upper bound is the far points' highest, {highs[-1] - highs[0]:.3g} above "
                      "the first")
    fall = (lows[-2] - lows[-1]) / span
    if stmt.kind == "Theta" and fall > FLAT:
        return True, f"its far points' lower bound still falls {fall:.3g} per decade"
    if stmt.kind == "Theta" and _creeps([-v for v in lows]):
        return True, (f"its farthest point's lower bound is the far points' lowest, {lows[0] - lows[-1]:.3g} below "
                      "the first")
    return True, None


def _creeps(logs) -> bool:
    """Whether the farthest of a log10 series of far points (three or more) is above every other, by more than
    ``FLAT`` above the first: a missing log factor far out climbs less than ``FLAT`` a decade between two far points,
    but its farthest point is their record; a ramp that reached its constant wanders (a rounded horizon's sawtooth)
    or stays put. (Not "climbs at each far point": a referee's attack put a sawtooth on a log factor, and one drop
    between two single far points settled it in 23 of 60 phases.)"""
    return len(logs) >= 3 and logs[-1] > max(logs[:-1]) and logs[-1] - logs[0] > FLAT


def judge(stmt, lows, highs):
    """``(drift, undecided, suspect)`` of one swept base: ``drift`` = (side, where, slope) where the ratio drifts
    (the statement is refuted there), ``undecided`` = why it is not settled (None where it is), ``suspect``
    where the envelope settles but the last points still climb (a sawtooth's phase, or a growth that an earlier
    hump in the middle third hides: a longer sweep tells them apart)."""
    pd = stmt.per_decade
    up, down = tail_slope(highs, pd), tail_slope(lows, pd)
    if down[0] is not None and down[0] > DRIFT and down[1] and down[2] > 1:
        return ("lower", "infinity", down[0]), "drifts", True
    if stmt.kind == "Theta" and up[0] is not None and up[0] < -DRIFT and up[1] and up[2] > 1:
        return ("upper", "0", up[0]), "drifts", True
    suspect = up[0] is None or up[0] > FLAT or (stmt.kind == "Theta" and (down[0] is None or down[0] < -FLAT))
    rise = envelope_rise(highs, "upper", pd)
    if rise is None or rise > FLAT:
        text = "not measured" if rise is None else f"rises {rise:.3g} per decade"
        return None, "upper bound's envelope " + text, True
    if masked(highs, up[0], "upper"):
        return None, f"upper bound climbs {up[0]:.3g} per decade over the last third, under a transient before it", True
    if stmt.kind == "Theta":
        fall = envelope_rise(lows, "lower", pd)
        if fall is None or fall > FLAT:
            return None, "lower bound's envelope " + ("not measured" if fall is None else f"falls {fall:.3g} per "
                                                                                            "decade"), True
        if masked(lows, down[0], "lower"):
            return None, (f"lower bound falls {-down[0]:.3g} per decade over the last third, above a transient "
                          "before it"), True
    return None, None, suspect


def masked(logs, slope, side="upper"):
    """Whether the envelope settles only because a transient in the middle third stands above (``upper``; below
    for ``lower``) the last third by more than the last third's own spread -- not the same oscillation, so no
    reference -- while the last third's points climb (fall) by more than ``FLAT`` a decade: a growth after a
    hump, which the envelope alone would call settled (a referee's attack: a horizon bottoming out at one step
    on a rate missing a log factor)."""
    tail = max(3, len(logs) // 3)
    last, middle = logs[-tail:], logs[-2 * tail:-tail]
    if slope is None or not all(math.isfinite(v) for v in (*last, *middle)):
        return False
    spread = max(last) - min(last)
    if side == "upper":
        return slope > FLAT and max(middle) - max(last) > spread
    return slope < -FLAT and min(last) - min(middle) > spread


def tail_slope(logs, per_decade=2):
    """(slope per decade over the last third, monotone there, total movement) of a log10 series of
    ``per_decade`` points a decade."""
    tail = max(3, len(logs) // 3)
    if any(not math.isfinite(v) for v in logs[-tail:]):
        return None, False, 0.0
    slope = (logs[-1] - logs[-tail]) / ((tail - 1) / per_decade)
    steps = [logs[i + 1] - logs[i] for i in range(len(logs) - tail, len(logs) - 1)]
    monotone = all(s > 0 for s in steps) or all(s < 0 for s in steps)
    finite = [v for v in logs if math.isfinite(v)]
    return slope, monotone, (max(finite) - min(finite)) if finite else 0.0


def envelope_rise(logs, side="upper", per_decade=2):
    """How far the sweep's envelope moves per decade from the middle third to the last third of a log10 series:
    the rise of the maximum (``side="upper"``) or the fall of the minimum (``"lower"``); None where a bound in
    those thirds is not finite. A point's own slope would not do: an algorithm's integer parameters (a horizon
    or a number of stages rounded along the path) make the ratio a bounded sawtooth whose last few points may
    climb or fall by a tenth of a decade whatever the trend, and a verdict would follow the seed's phase of it.
    The envelope over a window of points is that of the sawtooth; for a monotone series it is its slope."""
    tail = max(3, len(logs) // 3)
    last, middle = logs[-tail:], logs[-2 * tail:-tail]
    if len(middle) < tail or not all(math.isfinite(v) for v in (*last, *middle)):
        return None
    move = max(last) - max(middle) if side == "upper" else min(middle) - min(last)
    return move / (tail / per_decade)


def _path_text(path) -> str:
    return f"{path.param} -> {path.to}" + (f" ({path.label})" if path.label else "")


def _basis(stmt, claim, ev) -> Basis:
    return Basis("algorithm-rate", scenario_on(stmt.scenario.bind(claim)))


@based(_basis)
def check(stmt: AlgorithmRate, claim, cfg: Config) -> Evidence:
    clock = Clock()
    sc = bind(stmt.scenario, claim)
    rate = Compiled(stmt.rate, claim)
    bases = _bases(sc, claim, cfg, stmt)
    undecided, evaluated, band, used_routes, used, followed = [], 0, [math.inf, -math.inf], set(), 0, 0
    furthest = 0   # decades from its base to the farthest point of a sweep whose drift levelled off
    for pi, path in enumerate(stmt.paths):
        if path.worst_over:
            undecided.append(f"{_path_text(path)}: worst_over is not searched on an algorithm")
            continue
        swept, budget_cut = 0, False
        for bi, inst0 in enumerate(bases):
            if swept >= BASE_POINTS:
                break
            pts, lows, highs, routes, cut, complete, most = sweep(sc, claim, stmt, path, inst0, cfg, rate, (pi, bi))
            budget_cut |= cut
            if len(pts) < 3 * stmt.per_decade:
                evaluated += len(pts)
                continue
            drift, why, suspect = judge(stmt, lows, highs)
            extended = 0
            if suspect and complete:
                # a drift, an unsettled ratio or a climb at the end over the declared decades is followed as far
                # again before it counts: a horizon that bottoms out at one step, or a constant approached slowly
                # from below, moves the ratio for a decade or two and then stops; a growth after a hump goes on
                n1 = stmt.decades * stmt.per_decade
                more = sweep(sc, claim, stmt, path, inst0, cfg, rate, (pi, bi), n1 + 1, 2 * n1, prior=pts[-1],
                             cap=EXTEND_COST * most if most else None)
                budget_cut |= more[4]
                if more[0]:
                    extended = len(more[0])
                    followed += 1
                    pts, lows, highs = pts + more[0], lows + more[1], highs + more[2]
                    routes |= more[3]
                    drift, why, _ = judge(stmt, lows, highs)
            levelled = None
            if (drift is not None or why is not None) and all(math.isfinite(v) for v in highs):
                # a drift, or a ratio not settled, over twice the declared decades is looked at FAR decades further
                # before it counts: where it levels off there (at least two far points, four decades apart), it
                # was a ramp to a constant; the far points can settle a base or clear a drift, never make one (nor
                # settle a sweep with a point whose upper bound is infinite)
                n1 = stmt.decades * stmt.per_decade
                far = far_points(sc, claim, stmt, path, inst0, cfg, rate, (pi, bi), 2 * n1 if extended else n1,
                                 most)
                done, far_why = levels_off(stmt, drift, far)
                evaluated += 0 if done else len(far[0])
                if done:
                    levelled = far[0][-1] + (2 if extended else 1) * stmt.decades
                    # a drift that levelled off is judged on its far points; a ratio not settled stays so for the
                    # reason it had, with what its far points add
                    why = far_why if drift is not None or far_why is None else f"{why} ({far_why})"
                    drift = None
                    pts, lows, highs = pts + far[3], lows + far[1], highs + far[2]
                    routes |= far[4]
            evaluated += len(pts)
            swept += 1
            used = max(used, swept)
            used_routes |= routes
            if levelled is not None:
                furthest = max(furthest, levelled)
            if drift is not None:
                side, where, slope = drift
                logs = lows if side == "lower" else highs
                return Evidence(
                    "algorithm-rate", stmt.name, "violated", samples=evaluated, seconds=clock.seconds,
                    # the base: replayed with --at, the same sweep from it drifts again (its last point, perhaps
                    # past the declared decades, may leave too little of the path for a sweep of its own)
                    counterexample={"params": jsonable(pts[0]), "seed": cfg.seed, "path": _path_text(path),
                                    "base": jsonable(pts[0]), "far": jsonable(pts[-1])},
                    min_margin=None,
                    detail=(f"{stmt.kind}: E[statistic]/rate ({side} bound, {'/'.join(sorted(routes))}) drifts to "
                            f"{where} as {_path_text(path)}: log10 ratio {logs[0]:.3g} -> {logs[-1]:.3g}, slope "
                            f"{slope:.3g} per decade" + (f" (over {len(pts)} points, the sweep followed "
                                                          f"{extended} beyond its {stmt.decades} decades)"
                                                          if extended else "")),
                    data={"log10_ratio_lower": [round(v, 6) if math.isfinite(v) else None for v in lows],
                          "log10_ratio_upper": [round(v, 6) for v in highs]})
            if why is not None:
                undecided.append(f"{_path_text(path)}: {why}, not settled")
            band = [min(band[0], min(v for v in lows if math.isfinite(v)) if any(map(math.isfinite, lows))
                        else band[0]), max(band[1], max(highs))]
        if swept == 0:
            undecided.append(f"{_path_text(path)}: no base instance with {3 * stmt.per_decade} measurable points "
                             "along the path" + (f" within the step budget ({STEP_BUDGET:.0e} iterations a "
                                                 "measurement)" if budget_cut else ""))
    if undecided or evaluated == 0:
        return Evidence("algorithm-rate", stmt.name, "inconclusive", samples=evaluated, seconds=clock.seconds,
                        detail="; ".join(undecided) or "no path could be evaluated")
    lo = f"{10 ** band[0]:.3g}" if math.isfinite(band[0]) else "0"
    return Evidence("algorithm-rate", stmt.name, "holds", samples=evaluated, seconds=clock.seconds, tightness=None,
                    detail=(f"{stmt.kind}: E[statistic]/rate ({'/'.join(sorted(used_routes))}) stays in "
                            f"[{lo}, {10 ** band[1]:.3g}] along {len(stmt.paths)} path(s) x {used} base instance(s), "
                            f"{stmt.decades} decades each" + (f" ({followed} followed further, up to twice as far)" if followed
                                                       else "")
                            + (f"; a ratio that moved settled within {furthest} decades of its base" if furthest
                               else "")),
                    data={"band": [10 ** band[0] if math.isfinite(band[0]) else 0.0, 10 ** band[1]]})


KIND = CheckKind(
    name="algorithm-rate", applies=applies, check=check, basis_kinds=("algorithm-rate",), can_refute=True,
    no_certificate="an asymptotic rate of an algorithm is not decided by a finite computation",
    summary="what the algorithm attains (exact moments, else Monte Carlo bounds) over its rate, swept along paths")
