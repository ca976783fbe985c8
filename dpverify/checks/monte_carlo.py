"""Monte Carlo check: simulate the algorithm and bound the mean with confidence.

At each of the scenario's K parameter points (every one inside the claim's hypotheses), ``runs``
independent runs give a mean and a one-sided interval at level ``(1 - confidence) / K``
(Bonferroni). The bound is ``violated`` when some point's lower confidence bound exceeds it,
``holds`` when every upper confidence bound is below it, and ``inconclusive`` otherwise.

A statistic with zero variance (a deterministic run: no noise) has no sampling error, only
rounding: it is compared with the bound up to a tolerance derived from the computation (the
scenario's ``rounding_tolerance``), and where the scenario computes the expectation exactly the
comparison is made again in mpmath, so rounding is never a violation.
"""
from __future__ import annotations

import mpmath

from ..numeric import Compiled, jsonable
from ..scenarios import bind
from ..spec import ExpectationBound
from ..stats import bonferroni, mean_bounds
from ..verdict import Evidence
from .base import Clock, Config, confirmed_margin


def applies(stmt) -> bool:
    return isinstance(stmt, ExpectationBound) and stmt.scenario.supports_monte_carlo


def decide(means_vars_bounds, runs: int, confidence: float, tolerances=None):
    """Return (verdict, per-point rows) for [(mean, var, bound), ...].

    ``tolerances[k]``: the absolute rounding tolerance of point k, used when its variance is 0.
    """
    level = bonferroni(confidence, len(means_vars_bounds))
    rows, verdict = [], "holds"
    for k, (mean, var, bound) in enumerate(means_vars_bounds):
        if var == 0:  # deterministic: no sampling error; within the rounding tolerance is "equal"
            tol = 0.0 if tolerances is None else float(tolerances[k])
            lower = upper = mean - tol
            se = 0.0
        else:
            mb = mean_bounds(mean, var, runs, level)
            lower, upper, se = mb.lower, mb.upper, mb.stderr
        rows.append({"mean": mean, "stderr": se, "lower": lower, "upper": upper, "bound": bound, "level": level})
        if lower > bound:
            verdict = "violated"
        elif upper > bound and verdict != "violated":
            verdict = "inconclusive"
    return verdict, rows


def check(stmt: ExpectationBound, claim, cfg: Config) -> Evidence:
    clock = Clock()
    sc = bind(stmt.scenario, claim)
    bound = Compiled(stmt.bound, claim)
    if cfg.at is not None:
        inst = sc.instance_at(cfg.at)
        instances = [] if inst is None else [inst]
    else:
        instances = sc.mc_instances(cfg.seed)
    outside = [i for i in instances if not claim.domain.contains(sc.point(i))]
    instances = [i for i in instances if claim.domain.contains(sc.point(i))]
    if not instances:
        return Evidence("monte_carlo", stmt.name, "inconclusive", seconds=clock.seconds,
                        detail="no problem instance inside the claim's hypotheses for Monte Carlo"
                               + (f" ({len(outside)} outside)" if outside else ""))
    triples, pts, tols = [], [], []
    for k, inst in enumerate(instances):
        seed = cfg.seed_for(claim.id, stmt.name, "monte_carlo", k)
        mean, var = sc.monte_carlo(inst, cfg.runs, seed, cfg.chunk_runs)
        pt = sc.point(inst)
        pts.append((pt, inst, seed))
        b = float(mpmath.re(bound(pt, cfg.dps)))
        triples.append((mean, var, b))
        tol = sc.rounding_tolerance(inst, mean)
        tols.append(tol)
    verdict, rows = decide(triples, cfg.runs, cfg.confidence, tols)
    if verdict == "violated":  # a deterministic violation must survive an exact evaluation in mpmath
        changed = False
        for k, (mean, var, b) in enumerate(triples):
            inst = pts[k][1]
            if var == 0 and mean - tols[k] > b and sc.exact_available(inst):
                m, vm, _ = confirmed_margin(lambda d: (sc.exact(inst, d), mpmath.re(bound(pts[k][0], d))), cfg.dps)
                if m >= 0:
                    triples[k] = (float(vm), 0.0, b)
                    tols[k] = max(tols[k], abs(float(vm) - b))
                    changed = True
        if changed:
            verdict, rows = decide(triples, cfg.runs, cfg.confidence, tols)
    worst = min(range(len(rows)), key=lambda i: rows[i]["bound"] - rows[i]["upper"])
    ce = None
    if verdict == "violated":
        worst = max(range(len(rows)), key=lambda i: rows[i]["lower"] - rows[i]["bound"])
        pt, inst, seed = pts[worst]
        ce = {"params": jsonable(pt), "seed": cfg.seed, "instance": jsonable(inst), "run_seed": seed}
    w = rows[worst]
    tight = [r["bound"] / r["mean"] for r in rows if r["mean"] > 0 and r["bound"] > 0]
    scale = max(abs(w["bound"]), abs(w["upper"]), 1e-300)
    return Evidence(
        "monte_carlo", stmt.name, verdict, samples=cfg.runs * len(instances),
        confidence=cfg.confidence, min_margin=(w["bound"] - w["upper"]) / scale,
        tightness=min(tight) if tight and verdict != "violated" else None, counterexample=ce,
        value=w["mean"], bound=w["bound"], point=jsonable(pts[worst][0]), seconds=clock.seconds,
        detail=(f"{len(instances)} point(s) x {cfg.runs} runs of {sc.algorithm} on {sc.mc_name}; "
                f"one-sided normal bounds at level {rows[0]['level']:.2g} each (Bonferroni)"
                + (f"; {len(outside)} point(s) outside the hypotheses skipped" if outside else "")),
        data={"points": [{**{k: float(f"{v:.8g}") for k, v in r.items()}, "instance": sc.describe(i)}
                         for r, (_, i, _) in zip(rows, pts)]})
