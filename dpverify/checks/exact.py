"""Exact check: expectations computed exactly (moment propagation on quadratics).

The scenario draws problems from the class the statement assumes (its claim's domain for the
parameters, Hypothesis for the spectrum and the starting point); at each, the exact
``E[statistic]`` is compared with the bound evaluated at the problem's parameters (and the
scenario's observables). Double precision screens: a problem whose float margin is below
``SCREEN_TOL`` is evaluated again in mpmath at ``Config.dps`` and at twice the digits, and is a
counterexample only when the mpmath expectation exceeds the mpmath bound at both precisions
(relative ``1e-30``). Rounding is never a violation, a bound equal to zero included.
"""
from __future__ import annotations

import math

import mpmath
import numpy as np

from ..numeric import Compiled, jsonable
from ..scenarios import bind
from ..search import SCREEN_TOL, EvaluationError, Margin, search
from ..spec import ExpectationBound
from ..verdict import Basis, Evidence
from .base import Clock, Config, Triviality, confirmed_margin, inside_points, scenario_on

def applies(stmt) -> bool:
    return isinstance(stmt, ExpectationBound) and stmt.scenario.supports_exact


def margin_function(stmt, claim, cfg: Config, sc):
    """``inst -> Margin`` (trusted: mpmath where close) and its double-precision ``screen``."""
    bound = Compiled(stmt.bound, claim)

    def at(inst, dps):
        full = {**sc.point(inst), **sc.observe(inst, dps)}
        with mpmath.workdps(dps):
            return sc.exact(inst, dps), mpmath.re(bound(full, dps))

    def fast(inst):
        """(value, bound) in double precision (the bound in NumPy, or mpmath where NumPy cannot)."""
        full = {**sc.point(inst), **sc.observe(inst, None)}
        b = float(bound.batch([full])[0])
        if not math.isfinite(b):
            b = float(mpmath.re(bound(full, 30)))
        return float(sc.exact(inst)), b

    def float_margin(inst) -> Margin:
        pt = sc.point(inst)
        if not claim.domain.contains(pt):
            raise EvaluationError("instance maps outside the claim's domain")
        try:
            v, b = fast(inst)
        except (ZeroDivisionError, OverflowError, ValueError, FloatingPointError) as exc:
            raise EvaluationError(str(exc)) from exc
        if not (math.isfinite(v) and math.isfinite(b)):
            return Margin(float("nan"), v, b)
        return Margin((b - v) / max(abs(b), abs(v), 1e-300), v, b)

    def margin(inst) -> Margin:
        mg = float_margin(inst)
        if mg.m >= SCREEN_TOL:
            return mg
        # close, failing or not finite in double precision: decide in mpmath, twice
        try:
            m, vm, bm = confirmed_margin(lambda dps: at(inst, dps), cfg.dps, point=sc.point(inst))
        except (ZeroDivisionError, OverflowError, ValueError) as exc:
            raise EvaluationError(str(exc)) from exc
        return Margin(float(m), float(vm), float(bm))

    def screen(insts):
        out = []
        for i in insts:
            try:
                out.append(float_margin(i).m)
            except EvaluationError:
                out.append(float("nan"))
        return np.asarray(out, dtype=float)

    margin.screen = screen
    return margin


def check(stmt: ExpectationBound, claim, cfg: Config) -> Evidence:
    clock = Clock()
    sc = bind(stmt.scenario, claim)
    margin = margin_function(stmt, claim, cfg, sc)
    basis, triv = Basis("exact-expectation", scenario_on(sc)), Triviality(stmt, claim)
    if cfg.at is not None:
        cov = triv.coverage([cfg.at])
        inst = sc.instance_at(cfg.at)
        if inst is None:
            return Evidence("exact", stmt.name, "inconclusive", seconds=clock.seconds, basis=basis, coverage=cov,
                            detail="the scenario cannot build a problem at the pinned point")
        mg = margin(inst)
        ok = mg.m >= 0
        return Evidence("exact", stmt.name, "holds" if ok else "violated", samples=1, min_margin=mg.m,
                        value=mg.value, bound=mg.bound, point=jsonable(cfg.at), seconds=clock.seconds,
                        basis=basis, coverage=cov,
                        counterexample=None if ok else {"params": jsonable(cfg.at), "seed": cfg.seed,
                                                        "instance": jsonable(inst)},
                        detail=f"exact expectation on {sc.describe(inst)}")
    seed = cfg.seed_for(claim.id, stmt.name, "exact")
    res = search(sc.strategy(), margin, cfg.samples, seed, domain=claim.domain, screen=margin.screen,
                 embed=(sc.point, sc.with_point))
    cov = triv.coverage(inside_points(sc, claim, res.drawn))
    best = res.best
    if res.counterexample is not None:
        inst = res.counterexample
        return Evidence("exact", stmt.name, "violated", samples=res.samples, min_margin=res.min_margin,
                        value=best.value, bound=best.bound, point=jsonable(sc.point(inst)),
                        counterexample={"params": jsonable(sc.point(inst)), "seed": cfg.seed,
                                        "instance": jsonable(inst)},
                        seconds=clock.seconds, basis=basis, coverage=cov,
                        detail=f"exact expectation exceeds the bound on {sc.describe(inst)} (confirmed in mpmath)")
    if res.samples == 0 or res.confirmed == 0:
        return Evidence("exact", stmt.name, "inconclusive", seconds=clock.seconds, basis=basis, coverage=cov,
                        detail=f"no problem could be evaluated ({res.errors} errors)")
    return Evidence("exact", stmt.name, "holds", samples=res.samples, min_margin=res.min_margin,
                    tightness=res.tightness, value=None if best is None else best.value,
                    bound=None if best is None else best.bound,
                    point=None if res.best_point is None else jsonable(sc.point(res.best_point)),
                    seconds=clock.seconds, basis=basis, coverage=cov,
                    detail=f"exact expectations on {res.samples} {sc.name} problems drawn by Hypothesis")
