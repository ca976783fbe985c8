"""Monte Carlo check: simulate the paper's algorithm and bound the mean with confidence.

At each of the scenario's K parameter points, ``runs`` independent runs give a mean and a
one-sided interval at level ``(1 - confidence) / K`` (Bonferroni). The bound is ``violated`` when
some point's lower confidence bound exceeds it, ``holds`` when every upper confidence bound is
below it, and ``inconclusive`` otherwise.
"""
from __future__ import annotations

from ..numeric import Compiled, jsonable
from ..spec import ExpectationBound
from ..stats import bonferroni, mean_bounds
from ..verdict import Evidence
from .base import Clock, Config


def applies(stmt) -> bool:
    return isinstance(stmt, ExpectationBound) and getattr(stmt.scenario, "supports_monte_carlo", False)


def decide(means_vars_bounds, runs: int, confidence: float):
    """Return (verdict, per-point rows) for [(mean, var, bound), ...]."""
    level = bonferroni(confidence, len(means_vars_bounds))
    rows, verdict = [], "holds"
    for mean, var, bound in means_vars_bounds:
        mb = mean_bounds(mean, var, runs, level)
        rows.append({"mean": mean, "stderr": mb.stderr, "lower": mb.lower, "upper": mb.upper,
                     "bound": bound, "level": level})
        if mb.lower > bound:
            verdict = "violated"
        elif mb.upper > bound and verdict != "violated":
            verdict = "inconclusive"
    return verdict, rows


def check(stmt: ExpectationBound, claim, cfg: Config) -> Evidence:
    clock = Clock()
    sc = stmt.scenario
    bound = Compiled(stmt.bound, claim)
    if cfg.at is not None:
        inst = sc.instance_at(cfg.at)
        instances = [] if inst is None else [inst]
    else:
        instances = sc.mc_instances(cfg)
    if not instances:
        return Evidence("monte_carlo", stmt.name, "inconclusive", seconds=clock.seconds,
                        detail="no problem instance for Monte Carlo at this point")
    triples, pts = [], []
    for k, inst in enumerate(instances):
        seed = cfg.seed_for(claim.id, stmt.name, "monte_carlo", k)
        mean, var = sc.monte_carlo(inst, cfg.runs, seed, cfg.chunk_runs)
        pt = sc.point(inst)
        pts.append((pt, inst, seed))
        triples.append((mean, var, float(bound(pt, cfg.dps))))
    verdict, rows = decide(triples, cfg.runs, cfg.confidence)
    worst = min(range(len(rows)), key=lambda i: rows[i]["bound"] - rows[i]["lower"])
    tight = min(r["bound"] / r["mean"] for r in rows if r["mean"] > 0) if any(r["mean"] > 0 for r in rows) else None
    ce = None
    if verdict == "violated":
        pt, inst, seed = pts[worst]
        ce = {"params": jsonable(pt), "seed": cfg.seed, "instance": jsonable(inst), "run_seed": seed}
    margins = [(r["bound"] - r["upper"]) / abs(r["bound"]) for r in rows if r["bound"] != 0]
    return Evidence(
        "monte_carlo", stmt.name, verdict, samples=cfg.runs * len(instances),
        confidence=cfg.confidence, min_margin=min(margins) if margins else None,
        tightness=tight if verdict != "violated" else None, counterexample=ce, seconds=clock.seconds,
        detail=(f"{len(instances)} point(s) x {cfg.runs} runs of {sc.algorithm} on {sc.mc_name}; "
                f"one-sided normal bounds at level {rows[0]['level']:.2g} each (Bonferroni)"),
        data={"points": [{**{k: float(f"{v:.8g}") for k, v in r.items()},
                          "instance": sc.describe(i)} for r, (_, i, _) in zip(rows, pts)]})
