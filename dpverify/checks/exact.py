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
from ..claims import ExpectationBound
from ..verdict import Basis, Evidence
from .base import (VACUOUS_NOTE, Clock, Config, Triviality, confirmed_margin, inside_points, recording, scenario_on,
                   vacuous_statistic)
from .exists import existential
from .kind import CheckKind

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


def exists_margin(inner, sc, ex, pool=()):
    """``inner`` (:func:`margin_function`) maximised over the values ``ex`` tries at each instance
    (:mod:`.exists`), each value judged on its group of problems by the worst of them: the first value
    that holds on every problem (trusted), else the best failure -- a counterexample only when the
    values are exhaustive (each refuted in mpmath), unresolved otherwise."""

    def worst_screen(group) -> float:
        fm = inner.screen(group)
        return float(np.min(np.where(np.isnan(fm), -np.inf, fm))) if len(fm) else -math.inf

    def judge(group):
        """The trusted margin of the group's worst problem (the first failure met), or ``None``."""
        fm = inner.screen(group)
        worst = None
        for i in np.argsort(np.where(np.isnan(fm), -np.inf, fm)):
            try:
                mg = inner(group[int(i)])
            except EvaluationError:
                return None
            if mg.m < 0 or mg.unresolved:
                return mg
            worst = mg if worst is None or mg.m < worst.m else worst
        return worst

    def margin(inst) -> Margin:
        groups, screens = [], []
        for g in ex.groups(sc, inst, pool):   # a value clear in double precision is judged at once
            ws = worst_screen(g)
            if ws >= SCREEN_TOL:
                mg = judge(g)
                if mg is not None and mg.m >= 0 and not mg.unresolved:
                    return mg
            groups.append(g)
            screens.append(ws)
        if not groups:
            raise EvaluationError(f"no value of {ex.name} satisfies the hypotheses at this point")
        order = sorted(range(len(groups)), key=lambda j: -screens[j])
        best = None
        for j in order if ex.exhaustive else order[:3]:
            mg = judge(groups[j])
            if mg is None:
                continue
            if mg.m >= 0 and not mg.unresolved:
                return mg
            if best is None or mg.m > best.m:
                best = mg
        if best is None:
            raise EvaluationError(f"no value of {ex.name} could be evaluated")
        if not ex.exhaustive or best.unresolved:
            return Margin(0.0, best.value, best.bound, unresolved=best.unresolved or ex.unresolved())
        return best

    def best_screen(inst) -> float:
        best = float("nan")
        for g in ex.groups(sc, inst, pool):
            ws = worst_screen(g)
            best = ws if not best >= ws else best
            if ws >= SCREEN_TOL:     # cleared: no need to look further
                break
        return best

    def screen(insts):
        return np.asarray([best_screen(i) for i in insts], dtype=float)

    margin.screen = screen
    return margin


def check(stmt: ExpectationBound, claim, cfg: Config) -> Evidence:
    clock = Clock()
    sc = bind(stmt.scenario, claim)
    margin = margin_function(stmt, claim, cfg, sc)
    ex = existential(claim, stmt)
    quant = ""
    if ex is not None:
        pool = ex.pool(sc, cfg.seed_for(claim.id, stmt.name, "exists-pool"))
        margin, quant = exists_margin(margin, sc, ex, pool), f"; {ex.describe()}, each on {2 + len(pool)} problems"
    basis, triv = Basis("exact-expectation", scenario_on(sc)), Triviality(stmt, claim)
    if cfg.at is not None:
        at = cfg.at if ex is None else ex.complete(cfg.at)
        cov = triv.coverage([at])
        inst = sc.instance_at(at)
        if inst is None:
            return Evidence("exact", stmt.name, "inconclusive", seconds=clock.seconds, basis=basis, coverage=cov,
                            detail="the scenario cannot build a problem at the pinned point")
        try:
            mg = margin(inst)
        except EvaluationError as exc:
            return Evidence("exact", stmt.name, "inconclusive", seconds=clock.seconds, basis=basis, coverage=cov,
                            detail=f"cannot evaluate at the pinned point: {exc}")
        verdict = "inconclusive" if mg.unresolved else "holds" if mg.m >= 0 else "violated"
        return Evidence("exact", stmt.name, verdict, samples=1, min_margin=mg.m,
                        value=mg.value, bound=mg.bound, point=jsonable(cfg.at), seconds=clock.seconds,
                        basis=basis, coverage=cov,
                        counterexample=None if verdict != "violated" else {"params": jsonable(cfg.at), "seed": cfg.seed,
                                                                          "instance": jsonable(inst)},
                        detail=(f"exact expectation on {sc.describe(inst)}{quant}"
                                + (f"; unresolved: {mg.unresolved}" if mg.unresolved else "")))
    seed = cfg.seed_for(claim.id, stmt.name, "exact")
    seen: list = []
    margin = recording(margin, seen)
    res = search(sc.strategy(), margin, cfg.samples, seed, domain=claim.domain, screen=margin.screen,
                 embed=(sc.point, sc.with_point))
    cov = triv.coverage(inside_points(sc, claim, res.drawn))
    vacuous = vacuous_statistic(seen)
    if vacuous:
        cov, quant = 0.0, f"{quant}; {VACUOUS_NOTE}"
    best = res.best
    if res.counterexample is not None:
        inst = res.counterexample
        return Evidence("exact", stmt.name, "violated", samples=res.samples, min_margin=res.min_margin,
                        value=best.value, bound=best.bound, point=jsonable(sc.point(inst)),
                        counterexample={"params": jsonable(sc.point(inst)), "seed": cfg.seed,
                                        "instance": jsonable(inst)},
                        seconds=clock.seconds, basis=basis, coverage=cov,
                        detail=f"exact expectation exceeds the bound on {sc.describe(inst)} (confirmed in mpmath){quant}")
    if res.samples == 0 or res.confirmed == 0:
        return Evidence("exact", stmt.name, "inconclusive", seconds=clock.seconds, basis=basis, coverage=cov,
                        detail=f"no problem could be evaluated ({res.errors} errors)")
    if res.unresolved:
        return Evidence("exact", stmt.name, "inconclusive", samples=res.samples, seconds=clock.seconds, basis=basis,
                        coverage=cov, point=jsonable(sc.point(res.unresolved_point)),
                        detail=f"no counterexample, but {res.unresolved} problem(s) undecided, e.g. at "
                               f"{jsonable(sc.point(res.unresolved_point))}: {res.unresolved_reason}{quant}")
    return Evidence("exact", stmt.name, "holds", samples=res.samples, min_margin=res.min_margin,
                    tightness=res.tightness, value=None if best is None else best.value,
                    bound=None if best is None else best.bound,
                    point=None if res.best_point is None else jsonable(sc.point(res.best_point)),
                    seconds=clock.seconds, basis=basis, coverage=cov,
                    detail=f"exact expectations on {res.samples} {sc.name} problems drawn by Hypothesis{quant}")


KIND = CheckKind(
    name="exact", applies=applies, check=check, basis_kinds=("exact-expectation",), can_refute=True,
    certificate="expectation",
    summary="the algorithm's expectation computed exactly (moment propagation on quadratics), confirmed in mpmath")
