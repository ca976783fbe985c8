"""Supremum checks: sensitivity, stability (coupled runs) and privacy (accounting).

The scenario draws instances (neighbouring datasets, schedules, mechanisms) and measures the
quantity the claim bounds: a sensitivity, a stability gap from coupled runs on neighbouring
datasets with shared noise, or the zCDP / (eps, delta) of a mechanism from exact accounting. A
Hypothesis search (then a local optimiser where the scenario exposes real coordinates) looks for
the instance with the largest measured value relative to the bound.

Deterministic measurements decide at once. Noisy ones (Monte Carlo gaps) are searched with a
small run count, and the worst instance is then re-measured with fresh seeds and ``runs`` runs:
it is ``violated`` when its lower confidence bound exceeds the bound.
"""
from __future__ import annotations

from ..numeric import Compiled, jsonable
from ..scenarios import bind
from ..search import EvaluationError, Margin, search
from ..spec import SupBound
from ..stats import mean_bounds
from ..verdict import Evidence
from .base import Clock, Config

REL_TOL = 1e-9


def applies(stmt) -> bool:
    return isinstance(stmt, SupBound)


def check(stmt: SupBound, claim, cfg: Config) -> Evidence:
    clock = Clock()
    sc = bind(stmt.scenario, claim)
    bound = Compiled(stmt.bound, claim)
    search_runs = max(2, min(cfg.runs, sc.search_runs))

    def bound_at(inst) -> float:
        pt = sc.point(inst)
        if not claim.domain.contains(pt):
            raise EvaluationError("instance maps outside the claim's domain")
        return float(bound(pt, cfg.dps))

    def margin(inst):
        b = bound_at(inst)
        value, _ = sc.measure(inst, search_runs, cfg.seed_for(claim.id, stmt.name, "search"))
        scale = max(abs(b), abs(value), 1e-300)
        return Margin((b - value) / scale + REL_TOL, value, b)

    if cfg.at is not None:
        inst = sc.instance_at(cfg.at)
        if inst is None:
            return Evidence(stmt.kind, stmt.name, "inconclusive", seconds=clock.seconds,
                            detail="the scenario cannot build an instance at the pinned point")
        candidates, samples, found_by = [inst], 1, "pinned point"
        res = None
    else:
        seed = cfg.seed_for(claim.id, stmt.name, stmt.kind)
        strategy, domain = sc.strategy(), sc.search_domain
        if strategy is None:  # the instance is the claim's point
            strategy, domain = claim.domain.strategy(), claim.domain
        res = search(strategy, margin, cfg.samples, seed, domain=domain,
                     optimise=sc.optimise)
        samples = res.samples
        if res.samples == 0:
            return Evidence(stmt.kind, stmt.name, "inconclusive", seconds=clock.seconds,
                            detail=f"no instance could be measured ({res.errors} errors)")
        cand = res.counterexample if res.counterexample is not None else res.best_point
        if cand is None:
            return Evidence(stmt.kind, stmt.name, "inconclusive", samples=res.samples, seconds=clock.seconds,
                            detail=f"no instance could be measured ({res.errors} errors)")
        candidates, found_by = [cand], res.found_by or "closest instance"

    inst = candidates[0]
    b = bound_at(inst)
    confirm_seed = cfg.seed_for(claim.id, stmt.name, "confirm")
    value, var = sc.measure(inst, cfg.runs, confirm_seed)
    if var and var > 0:
        mb = mean_bounds(value, var, cfg.runs, 1 - cfg.confidence)
        lower, upper, conf = mb.lower, mb.upper, cfg.confidence
    else:
        lower = upper = value
        conf = None
    scale = max(abs(b), 1e-300)
    m = (b - upper) / scale
    if lower > b * (1 + REL_TOL):
        verdict = "violated"
    elif upper <= b * (1 + REL_TOL):
        verdict = "holds"
    else:
        verdict = "inconclusive"
    ce = None
    if verdict == "violated":
        ce = {"params": jsonable(sc.point(inst)), "seed": cfg.seed, "instance": jsonable(inst)}
    what = {"sensitivity": "sensitivity", "stability": "stability gap",
            "privacy": "privacy loss"}.get(stmt.kind, stmt.kind)
    detail = (f"worst {what} found ({found_by}): measured {value:.6g}"
              + (f" [{lower:.6g}, {upper:.6g}]" if conf else "")
              + f" vs bound {b:.6g} on {sc.describe(inst)}")
    return Evidence(stmt.kind, stmt.name, verdict, samples=samples, confidence=conf, min_margin=m,
                    value=value, bound=b, point=jsonable(sc.point(inst)), counterexample=ce,
                    seconds=clock.seconds, detail=detail,
                    data={"measured": value, "bound": b, "ratio": value / b if b else None})
