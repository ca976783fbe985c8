"""Sampled check: search the claim's domain for a counterexample, evaluated in mpmath.

Hypothesis draws points from the domain (seeded), shrinks any failing point to a minimal one,
and otherwise a Nelder-Mead search minimises the margin from the closest calls. Every value is
computed at ``Config.dps`` significant digits, so a counterexample is not a rounding artefact:
an inequality fails only if ``rhs - lhs < -1e-30 * scale``; an identity only if
``|lhs - rhs| > 1e-30 * scale``.
"""
from __future__ import annotations

import mpmath

from ..numeric import Compiled, is_finite_real, jsonable, real
from ..search import EvaluationError, search
from ..spec import Identity, Inequality
from ..verdict import Evidence
from .base import Clock, Config

TOL = mpmath.mpf(10) ** -30


def applies(stmt) -> bool:
    return isinstance(stmt, (Identity, Inequality))


def margin_function(stmt, claim, cfg: Config):
    """``point -> (margin, tightness)``; a failure must survive re-evaluation at twice the digits."""
    lhs = Compiled(stmt.lhs, claim)
    rhs = Compiled(stmt.rhs, claim)
    identity = isinstance(stmt, Identity)
    strict = getattr(stmt, "strict", False)

    def values(point, dps):
        try:
            a = lhs(point, dps)
            b = rhs(point, dps)
        except (ZeroDivisionError, OverflowError, ValueError, TypeError) as exc:
            raise EvaluationError(str(exc)) from exc
        if not (is_finite_real(a) and is_finite_real(b)):
            raise EvaluationError(f"non-finite value lhs={a}, rhs={b}")
        return real(a), real(b)

    def raw(a, b):
        with mpmath.workdps(2 * cfg.dps):
            scale = max(abs(a), abs(b), mpmath.mpf(10) ** -40)
            if identity:
                return TOL - abs(a - b) / scale
            m = (b - a) / scale
            return m - TOL if strict else m + TOL

    def margin(point):
        a, b = values(point, cfg.dps)
        m = raw(a, b)
        if m < 0:  # confirm at twice the precision: rounding artefacts do not survive it
            a2, b2 = values(point, 2 * cfg.dps)
            m2 = raw(a2, b2)
            stable = abs((a2 - b2) - (a - b)) <= mpmath.mpf("0.01") * abs(a2 - b2)
            if m2 >= 0:
                a, b, m = a2, b2, m2
            elif stable:
                a, b, m = a2, b2, m2
            else:  # unresolved even at twice the digits: neither a counterexample nor evidence
                return float(TOL), None
        tight = float(b / a) if (not identity and a > 0 and b > 0) else None
        return float(m), tight

    return margin


def check(stmt, claim, cfg: Config) -> Evidence:
    clock = Clock()
    margin = margin_function(stmt, claim, cfg)
    if cfg.at is not None:
        try:
            m, t = margin(cfg.at)
        except EvaluationError as exc:
            return Evidence("sampled", stmt.name, "inconclusive", samples=1, seconds=clock.seconds,
                            detail=f"cannot evaluate at the pinned point: {exc}")
        verdict = "violated" if m < 0 else "holds"
        return Evidence("sampled", stmt.name, verdict, samples=1, min_margin=m, tightness=t,
                        counterexample={"params": jsonable(cfg.at), "seed": cfg.seed} if m < 0 else None,
                        seconds=clock.seconds, detail=f"evaluated at the pinned point ({cfg.dps} digits)")
    seed = cfg.seed_for(claim.id, stmt.name, "sampled")
    res = search(claim.domain.strategy(), margin, cfg.samples, seed, domain=claim.domain)
    if res.counterexample is not None:
        return Evidence("sampled", stmt.name, "violated", samples=res.samples,
                        min_margin=res.min_margin,
                        counterexample={"params": jsonable(res.counterexample), "seed": cfg.seed},
                        seconds=clock.seconds,
                        detail=f"counterexample found by {res.found_by}; replay with --at")
    if res.samples == 0:
        return Evidence("sampled", stmt.name, "inconclusive", samples=0, seconds=clock.seconds,
                        detail=f"no point could be evaluated ({res.errors} evaluation errors)")
    detail = f"no counterexample in {res.samples} points at {cfg.dps} digits"
    if res.errors:
        detail += f" ({res.errors} points could not be evaluated)"
    return Evidence("sampled", stmt.name, "holds", samples=res.samples, min_margin=res.min_margin,
                    tightness=res.tightness, seconds=clock.seconds, detail=detail,
                    data={"closest_point": jsonable(res.best_point)} if res.best_point else {})
