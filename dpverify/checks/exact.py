"""Exact check: expectations computed exactly (moment propagation on quadratics).

The scenario draws problems from the class the theorem assumes (spectra in [mu, M], initial
points, schedules) through Hypothesis; at each the exact ``E[statistic]`` is compared with the
claimed bound evaluated at the problem's parameters. A counterexample is a problem where the exact
expectation exceeds the bound by more than a relative 1e-9 (float64 moment propagation).
"""
from __future__ import annotations

from ..numeric import Compiled, jsonable
from ..search import EvaluationError, search
from ..spec import ExpectationBound
from ..verdict import Evidence
from .base import Clock, Config

REL_TOL = 1e-9


def applies(stmt) -> bool:
    return isinstance(stmt, ExpectationBound) and getattr(stmt.scenario, "supports_exact", False)


def check(stmt: ExpectationBound, claim, cfg: Config) -> Evidence:
    clock = Clock()
    sc = stmt.scenario
    bound = Compiled(stmt.bound, claim)

    def margin(inst):
        pt = sc.point(inst)
        if not claim.domain.contains(pt):
            raise EvaluationError("instance maps outside the claim's domain")
        b = float(bound(pt, cfg.dps))
        v = float(sc.exact(inst))
        scale = max(abs(b), abs(v), 1e-300)
        return (b - v) / scale + REL_TOL, (b / v if v > 0 else None)

    if cfg.at is not None:
        inst = sc.instance_at(cfg.at)
        if inst is None:
            return Evidence("exact", stmt.name, "inconclusive", seconds=clock.seconds,
                            detail="the scenario cannot build a problem at the pinned point")
        m, t = margin(inst)
        ok = m >= 0
        return Evidence("exact", stmt.name, "holds" if ok else "violated", samples=1, min_margin=m,
                        tightness=t, seconds=clock.seconds,
                        counterexample=None if ok else {"params": jsonable(cfg.at), "seed": cfg.seed,
                                                        "instance": jsonable(inst)},
                        detail=f"exact expectation on {sc.describe(inst)}")
    seed = cfg.seed_for(claim.id, stmt.name, "exact")
    res = search(sc.strategy(), margin, cfg.samples, seed)
    if res.counterexample is not None:
        inst = res.counterexample
        return Evidence("exact", stmt.name, "violated", samples=res.samples, min_margin=res.min_margin,
                        counterexample={"params": jsonable(sc.point(inst)), "seed": cfg.seed,
                                        "instance": jsonable(inst)},
                        seconds=clock.seconds,
                        detail=f"exact expectation exceeds the bound on {sc.describe(inst)}")
    if res.samples == 0:
        return Evidence("exact", stmt.name, "inconclusive", seconds=clock.seconds,
                        detail=f"no problem could be evaluated ({res.errors} errors)")
    return Evidence("exact", stmt.name, "holds", samples=res.samples, min_margin=res.min_margin,
                    tightness=res.tightness, seconds=clock.seconds,
                    detail=f"exact expectations on {res.samples} {sc.name} problems drawn by Hypothesis")
