"""Monte Carlo check: simulate the algorithm and bound the mean with confidence.

At each of the scenario's K parameter points (every one inside the claim's hypotheses), ``runs``
independent runs give a mean, measured (:class:`~dpverify.measured.Measured`) one of three ways:

* the run is **deterministic** (:meth:`Scenario.deterministic`: the scenario's noise is 0 at the
  point and nothing else is random): every run gives the same number, known up to its rounding
  (the scenario's ``rounding_tolerance``): exact with that error; where the float comparison is
  not settled by it (or fails) and the scenario computes the expectation exactly, it is made again
  in mpmath at ``dps`` and twice the digits, the difference between them its error. A sample
  variance of 0 never makes a run deterministic;
* the statistic is an **indicator** (``Scenario.indicator``: ``exceeds=`` statistics, a probability):
  exact one-sided binomial (Clopper-Pearson) bounds; an event never seen in ``n`` runs has the
  upper bound ``1 - level^(1/n)``, never 0;
* otherwise a one-sided normal interval (the calibration benchmark measures the approximation),
  widened by the rounding tolerance.

Each bound has error probability ``level = (1 - confidence) / K`` (Bonferroni over the points).
A point is ``violated`` when its lower bound exceeds the claimed bound, ``holds`` when its upper
bound is at or below it; the statement is ``violated`` if a point is (after the re-test below),
``holds`` if every point holds, else ``inconclusive``.

**Re-test.** A random point found ``violated`` is run again, ``RETEST_FACTOR`` times as many runs,
at a fresh seed (``derive_seed(seed, claim id, statement, RETEST_LABEL, k)``), at the same level; it
stays ``violated`` only if the re-test's lower bound also exceeds the claimed bound, otherwise it is
``inconclusive`` (both results are in the evidence). The two tests are independent. Violating points
are re-tested clearest first until one is confirmed (re-tests cost time only on violations).

**Error rates** (confidence ``C``, error ``a = 1 - C``; defaults ``C = 0.99``, ``runs = 20000``):

* a false ``violated`` needs the first test and its independent re-test to reject a true bound at
  the same point k, each with probability at most ``a / K``: per statement at most
  ``sum_k (a/K)^2 = a^2 / K <= a^2 = 1e-4``; per run of ``dpverify check --all`` (35 Monte Carlo
  statements) at most ``35 a^2 = 3.5e-3`` (union bound), whatever the statements' dependence;
  exact for indicator statistics and deterministic runs, up to the normal approximation otherwise
  (``benchmarks/statistics.py`` measures it: it prints the per-statement and per-run rates);
* a false ``holds`` needs the upper bound of a point where the claim fails to fall below the bound:
  at most ``a / K <= a`` per false statement (one test, no re-test).
"""
from __future__ import annotations

import math

import mpmath

from ..measured import Measured
from ..numeric import Compiled, jsonable
from ..scenarios import bind
from ..claims import ExpectationBound
from ..stats import binomial_bounds, bonferroni, mean_bounds
from ..verdict import Basis, Evidence
from .base import VACUOUS_NOTE, Clock, Config, Triviality, adversarial_search, scenario_on, vacuous_statistic
from .exists import existential
from .kind import CheckKind

#: a Monte Carlo point whose existential value no exact expectation chooses runs this share of the
#: check's runs at each value tried (a pilot on its own seeds), then the full test at the best one
PILOT_FRACTION = 0.05

#: a violated random point is re-run with this many times the runs before it is reported
RETEST_FACTOR = 4
#: the label of a re-test's seed: ``derive_seed(seed, claim id, statement, RETEST_LABEL, k)``
RETEST_LABEL = "monte_carlo-retest"


def applies(stmt) -> bool:
    return isinstance(stmt, ExpectationBound) and stmt.scenario.supports_monte_carlo


def measure(mean: float, var: float, runs: int, level: float, *, deterministic: bool = False,
            indicator: bool = False, tol: float = 0.0) -> Measured:
    """The mean of ``runs`` runs as a :class:`Measured`: exact up to ``tol`` for a deterministic run;
    Clopper-Pearson bounds for an indicator; otherwise a normal interval widened by ``tol``; each
    bound with error probability ``level``."""
    if deterministic:
        return Measured.exact(mean, tol)
    if indicator:
        k = int(round(mean * runs))
        if not (0 <= k <= runs and abs(k - mean * runs) <= 1e-6 * runs):
            raise ValueError(f"an indicator's mean must be a fraction of {runs} runs, got {mean!r}")
        b = binomial_bounds(k, runs, level)
        return Measured.estimate(mean, min(b.lower, mean), max(b.upper, mean), 1 - level)
    b = mean_bounds(mean, var, runs, level)
    return Measured.estimate(mean, b.lower - tol, b.upper + tol, 1 - level)


def _row(m: Measured, mean: float, var: float, runs: int, bound: float, level: float, how: str) -> dict:
    se = 0.0 if how == "deterministic" else math.sqrt(max(var, 0.0) / runs)
    return {"mean": mean, "stderr": se, "lower": m.lower, "upper": m.upper, "bound": bound, "level": level,
            "runs": runs, "how": how, "verdict": m.decide(bound)}


def _combine(verdicts) -> str:
    verdicts = list(verdicts)
    if "violated" in verdicts:
        return "violated"
    return "holds" if all(v == "holds" for v in verdicts) else "inconclusive"


def decide(means_vars_bounds, runs: int, confidence: float, tolerances=None, deterministic=None,
           indicator: bool = False):
    """Return (verdict, per-point rows) for [(mean, var, bound), ...], before any re-test.

    ``deterministic[k]``: whether point k's run is the deterministic algorithm (default: no point
    is; a variance of 0 alone never makes it so); ``tolerances[k]``: its absolute rounding tolerance;
    ``indicator``: the statistic is 0 or 1 per run (exact binomial bounds).
    """
    level = bonferroni(confidence, len(means_vars_bounds))
    rows = []
    for k, (mean, var, bound) in enumerate(means_vars_bounds):
        det = bool(deterministic[k]) if deterministic is not None else False
        tol = 0.0 if tolerances is None else float(tolerances[k])
        how = "deterministic" if det else ("binomial" if indicator else "normal")
        m = measure(mean, var, runs, level, deterministic=det, indicator=indicator, tol=tol)
        rows.append(_row(m, mean, var, runs, bound, level, how))
    return _combine(r["verdict"] for r in rows), rows


def _exact_row(sc, inst, bound: Compiled, pt, dps: int, row: dict) -> dict:
    """A deterministic point decided in mpmath: ``value - bound`` at ``dps`` and ``2 dps`` digits,
    its error the change between them."""
    diffs = []
    for d in (dps, 2 * dps):
        with mpmath.workdps(d):
            v, b = sc.exact(inst, d), mpmath.re(bound(pt, d))
            diffs.append((v - b, v, b))
    (d1, _, _), (d2, v2, b2) = diffs
    with mpmath.workdps(2 * dps):
        err = abs(d2 - d1)
    m = Measured.exact(float(d2), float(err))
    verdict = m.decide(0.0)
    return {**row, "mean": float(v2), "bound": float(b2), "lower": float(b2) + m.lower, "upper": float(b2) + m.upper,
            "how": f"exact in mpmath ({dps} and {2 * dps} digits)", "verdict": verdict}


def _same_point(a: dict, b: dict) -> bool:
    if set(a) != set(b):
        return False
    for k, x in a.items():
        y = b[k]
        xs, ys = (x, y) if isinstance(x, (list, tuple)) else ([x], [y])
        if not isinstance(ys, (list, tuple)) or len(xs) != len(ys):
            return False
        for u, w in zip(xs, ys):
            try:
                if float(u) != float(w):
                    return False
            except (TypeError, ValueError):
                if u != w:
                    return False
    return True


def _instances(sc, claim, cfg: Config, ex=None):
    """(instances inside the hypotheses with their index k, number outside). At a pinned point that
    is one of the seed's Monte Carlo points, that point with its index (so that a replay reruns the
    same problem with the same runs); else the scenario's instance at the pinned point (an
    existential parameter left out of it completed, :meth:`.exists.Existential.complete`)."""
    drawn = sc.mc_instances(cfg.seed)
    inside = [i for i in drawn if claim.domain.contains(sc.point(i))]
    if cfg.at is None:
        return list(enumerate(inside)), len(drawn) - len(inside)
    at = cfg.at if ex is None else ex.complete(cfg.at)
    for k, inst in enumerate(inside):
        if _same_point(jsonable(sc.point(inst)), jsonable(at)):
            return [(k, inst)], 0
    inst = sc.instance_at(at)
    if inst is None:
        return [], 0
    return ([(0, inst)], 0) if claim.domain.contains(sc.point(inst)) else ([], 1)


def _choose(sc, inst, ex, bound: Compiled, cfg: Config, seed: int):
    """The instance moved to the existential value with the largest relative margin: by the exact
    expectation where the scenario has one, else by a pilot of ``PILOT_FRACTION`` of the runs at each
    value (its own seed, so the test that follows is independent of the choice)."""
    best, best_m = None, -math.inf
    pilot = max(100, int(PILOT_FRACTION * cfg.runs))
    for j, group in enumerate(ex.groups(sc, inst)):
        cand = group[0]      # the Monte Carlo problem itself, at this value
        try:
            b = float(mpmath.re(bound(sc.point(cand), cfg.dps)))
            v = float(sc.exact(cand)) if sc.exact_available(cand) else \
                sc.monte_carlo(cand, pilot, cfg.seed_for(seed, "exists-pilot", j), cfg.chunk_runs)[0]
        except (ZeroDivisionError, OverflowError, ValueError, NotImplementedError):
            continue
        m = (b - v) / max(abs(b), abs(v), 1e-300)
        if math.isfinite(m) and m > best_m:
            best, best_m = cand, m
    return inst if best is None else best


def check(stmt: ExpectationBound, claim, cfg: Config) -> Evidence:
    clock = Clock()
    sc = bind(stmt.scenario, claim)
    bound = Compiled(stmt.bound, claim)
    ex = existential(claim, stmt)
    indexed, outside = _instances(sc, claim, cfg, ex)
    if ex is not None:
        indexed = [(k, _choose(sc, inst, ex, bound, cfg, cfg.seed_for(claim.id, stmt.name, "monte_carlo", k)))
                   for k, inst in indexed]
    basis = Basis("monte-carlo", scenario_on(sc, monte_carlo=True))
    cov = Triviality(stmt, claim).coverage([sc.point(inst) for _, inst in indexed])
    if not indexed:
        return Evidence("monte_carlo", stmt.name, "inconclusive", seconds=clock.seconds, basis=basis,
                        detail="no problem instance inside the claim's hypotheses for Monte Carlo"
                               + (f" ({outside} outside)" if outside else ""))
    adversary = None
    if cfg.at is None and indexed and sc.adversary_budget and cfg.adversary > 0:
        adversary = _adversary(sc, claim, stmt, cfg, bound, [inst for _, inst in indexed])
        if adversary is not None and adversary["instance"] is not None:
            # the instance found takes the place of the drawn one it was reached from (its margin by common
            # random numbers is smaller) and is measured like every other point, with that point's seed, not
            # the search's: the search's numbers decide nothing (no selection bias)
            j = adversary["origin"]
            indexed = indexed[:j] + [(indexed[j][0], adversary["instance"])] + indexed[j + 1:]
    triples, pts, tols, dets = [], [], [], []
    for k, inst in indexed:
        seed = cfg.seed_for(claim.id, stmt.name, "monte_carlo", k)
        mean, var = sc.monte_carlo(inst, cfg.runs, seed, cfg.chunk_runs)
        pt = sc.point(inst)
        pts.append((pt, inst, seed, k))
        triples.append((mean, var, float(mpmath.re(bound(pt, cfg.dps)))))
        tols.append(sc.rounding_tolerance(inst, mean))
        dets.append(sc.deterministic(inst))
    _, rows = decide(triples, cfg.runs, cfg.confidence, tols, dets, sc.indicator)
    level = rows[0]["level"]
    for j, r in enumerate(rows):
        pt, inst, _, _ = pts[j]
        if dets[j] and r["verdict"] != "holds" and sc.exact_available(inst):
            rows[j] = _exact_row(sc, inst, bound, pt, cfg.dps, r)
    # a random violation is reported only if an independent re-test with more runs confirms it at the
    # same point: the clearest violations first, until one is confirmed
    retests = []
    suspects = [j for j, r in enumerate(rows) if not dets[j] and r["verdict"] == "violated"]
    suspects.sort(key=lambda j: -(rows[j]["lower"] - rows[j]["bound"]) / max(abs(rows[j]["bound"]), 1e-300))
    confirmed = any(r["verdict"] == "violated" for j, r in enumerate(rows) if dets[j])
    for j in suspects:
        r, (pt, inst, _, k) = rows[j], pts[j]
        if confirmed:
            rows[j] = {**r, "retest": "not run (another point is confirmed)"}
            continue
        runs2 = RETEST_FACTOR * cfg.runs
        seed2 = cfg.seed_for(claim.id, stmt.name, RETEST_LABEL, k)
        mean2, var2 = sc.monte_carlo(inst, runs2, seed2, cfg.chunk_runs)
        m2 = measure(mean2, var2, runs2, level, indicator=sc.indicator, tol=sc.rounding_tolerance(inst, mean2))
        again = _row(m2, mean2, var2, runs2, r["bound"], level, r["how"])
        retests.append({"point": j, "seed": seed2, **again})
        confirmed = again["verdict"] == "violated"
        rows[j] = {**r, "verdict": "violated" if confirmed else "inconclusive",
                   "retest": {key: again[key] for key in ("mean", "lower", "upper", "runs", "verdict")}}
    verdict = _combine(r["verdict"] for r in rows)
    if ex is not None and verdict == "violated":
        # a failure at the value chosen does not show that no value works: Monte Carlo only confirms
        verdict = "inconclusive"
        notes_exists = (f"a violation at the value of {ex.name} chosen does not refute 'there is a value' "
                        "(Monte Carlo can only confirm an existential statement)")
    else:
        notes_exists = ""
    worst = min(range(len(rows)), key=lambda i: rows[i]["bound"] - rows[i]["upper"])
    ce = None
    if verdict == "violated":
        bad = [i for i, r in enumerate(rows)
               if r["verdict"] == "violated" and (dets[i] or isinstance(r.get("retest"), dict))]
        worst = max(bad, key=lambda i: rows[i]["lower"] - rows[i]["bound"])
        pt, inst, seed, _ = pts[worst]
        ce = {"params": jsonable(pt), "seed": cfg.seed, "instance": jsonable(inst), "run_seed": seed}
        again = [t for t in retests if t["point"] == worst]
        if again:
            ce["retest_seed"] = again[0]["seed"]
    w = rows[worst]
    tight = [r["bound"] / r["mean"] for r in rows if r["mean"] > 0 and r["bound"] > 0]
    scale = max(abs(w["bound"]), abs(w["upper"]), 1e-300)
    hows = sorted({r["how"] for r in rows})
    notes = []
    if retests:
        kept = sum(t["verdict"] == "violated" for t in retests)
        notes.append(f"{len(retests)} violating point(s) re-tested with {RETEST_FACTOR * cfg.runs} runs at a fresh "
                     f"seed: {kept} confirmed" + ("" if kept == len(retests) else
                                                  f", {len(retests) - kept} not (inconclusive there)"))
    if outside:
        notes.append(f"{outside} point(s) outside the hypotheses skipped")
    if all(dets) and vacuous_statistic((r["mean"], r["bound"]) for r in rows):   # noise-free runs only
        cov = 0.0
        notes.append(VACUOUS_NOTE)
    data_adv = {}
    if adversary is not None:
        notes.append(adversary["text"])
        data_adv = {"adversary": {k: v for k, v in adversary.items() if k not in ("instance", "text")}}
        basis = Basis(basis.kind, f"{basis.on}; {ADVERSARY_ON}" if basis.on else ADVERSARY_ON)
    if ex is not None:
        notes.append(f"{ex.describe()}; at each point the value chosen by "
                     + ("the exact expectation" if any(sc.exact_available(i) for _, i in indexed) else
                        f"a pilot of {max(100, int(PILOT_FRACTION * cfg.runs))} runs per value"))
        if notes_exists:
            notes.append(notes_exists)
    return Evidence(
        "monte_carlo", stmt.name, verdict, samples=cfg.runs * len(rows),
        confidence=cfg.confidence, min_margin=(w["bound"] - w["upper"]) / scale,
        tightness=min(tight) if tight and verdict != "violated" else None, counterexample=ce,
        value=w["mean"], bound=w["bound"], point=jsonable(pts[worst][0]), seconds=clock.seconds, basis=basis,
        coverage=cov,
        detail=(f"{len(rows)} point(s) x {cfg.runs} runs of {sc.algorithm} on {sc.mc_name}; "
                f"one-sided bounds ({', '.join(hows)}) at level {level:.2g} each (Bonferroni)"
                + "".join(f"; {n}" for n in notes)),
        data={"points": [{**_rounded(r), "instance": sc.describe(i)} for r, (_, i, _, _) in zip(rows, pts)],
              **data_adv})


#: what the evidence's basis adds when an adversarial search chose a point
ADVERSARY_ON = "plus the instance an adversarial search over start and data chose (measured afresh)"


def _adversary(sc, claim, stmt, cfg: Config, bound: Compiled, starts: list) -> dict | None:
    """The adversarial search over the data instances' parameters (:func:`.base.adversarial_search`):
    each candidate is run ``sc.adversary_runs`` times with one seed for all (common random numbers),
    scored by its relative margin; returns the instance it moved to (``None`` when no move improved on
    the drawn points) and a line for the evidence."""
    crn = cfg.seed_for(claim.id, stmt.name, "adversary")
    runs = max(2, int(sc.adversary_runs))

    def score(inst):
        pt = sc.point(inst)
        if not claim.domain.contains(pt):
            raise ValueError("outside the hypotheses")
        b = float(mpmath.re(bound(pt, 15)))
        mean, _ = sc.monte_carlo(inst, runs, crn, cfg.chunk_runs)
        return (b - float(mean)) / max(abs(b), abs(float(mean)), 1e-300)

    out = adversarial_search(sc, claim, stmt, cfg, starts, score, runs=runs,
                             over="the data problems' start and data", at="the drawn points")
    if out is not None:
        out["text"] += (f"; its instance replaces point {out['origin'] + 1}, measured afresh"
                        if out["instance"] is not None else "; no move improved on the drawn points")
    return out


def _rounded(row: dict) -> dict:
    out = {}
    for k, v in row.items():
        if isinstance(v, dict):
            out[k] = _rounded(v)
        elif isinstance(v, float):
            out[k] = float(f"{v:.8g}")
        else:
            out[k] = v
    return out


KIND = CheckKind(
    name="monte_carlo", applies=applies, check=check, basis_kinds=("monte-carlo",), can_refute=True,
    certificate="monte-carlo",
    summary="runs of the algorithm, means with one-sided confidence bounds (exact binomial for indicators)")
