"""Scaling consistency: both sides of a claim must scale alike.

Multiply the loss by ``c`` and the parameter vector by ``s``: every parameter declares how it
scales (``units=(a, b)``: it becomes ``c**a * s**b`` times itself; e.g. M is (1, -2), G is
(1, -1), eta is (-1, 2), kappa and alpha are (0, 0)). Each side's scaling exponents in ``c`` and
``s`` are measured numerically at a drawn point; sides whose exponents differ cannot both be right.
Only points whose scaled copies also satisfy every hypothesis of the claim are used.
"""
from __future__ import annotations

import mpmath

from ..numeric import Compiled, is_finite_real, jsonable, real
from ..claims import Identity, Inequality, Limit, Rate, Seq
from ..verdict import Basis, Evidence
from .base import Clock, Config, based
from .kind import CheckKind
from ..search import sample_points

C, S = mpmath.mpf(3) / 2, mpmath.mpf(5) / 7
TOL = 1e-12


def applies(stmt) -> bool:
    return isinstance(stmt, (Identity, Inequality, Rate, Limit))


def _sides(stmt):
    if isinstance(stmt, Rate):
        return stmt.expr, stmt.rate
    if isinstance(stmt, Limit):
        return stmt.expr, stmt.value
    return stmt.lhs, stmt.rhs


def _scaled(claim, point, c, s):
    out = dict(point)
    for name, p in claim.domain.params.items():
        if p.units is None:     # no units declared: a parameter the sides do not use (check() ensures it)
            continue
        a, b = p.units
        f = c ** a * s ** b
        if isinstance(p, Seq):
            out[name] = [v * f for v in point[name]]
        elif a or b:
            out[name] = point[name] * f
    return out


def exponents(fn, claim, point, dps):
    """Scaling exponents (in c and in s) of ``fn`` at ``point``, or None where undefined."""
    with mpmath.workdps(dps):
        base = real(fn(point, dps))
        if not is_finite_real(base) or base == 0:
            return None
        out = []
        for c, s, unit in ((C, 1, C), (1, S, S)):
            scaled = _scaled(claim, point, c, s)
            if not claim.domain.contains(scaled):  # every hypothesis holds at every point evaluated
                return None
            v = real(fn(scaled, dps))
            if not is_finite_real(v) or v == 0 or (v > 0) != (base > 0):
                return None
            out.append(float(mpmath.log(v / base) / mpmath.log(unit)))
        return tuple(out)


@based(Basis("scaling", "both printed sides with the loss scaled by c and the parameters by s"))
def check(stmt, claim, cfg: Config) -> Evidence:
    clock = Clock()
    missing = [n for n, p in claim.domain.params.items() if p.units is None]
    lhs, rhs = _sides(stmt)
    used = {str(s) for s in claim.expand(lhs - rhs).free_symbols}
    missing = [n for n in missing if n in used or any(n == str(getattr(i, "base", "")) for i in used)]
    if missing:
        return Evidence("scaling", stmt.name, "inconclusive", seconds=clock.seconds,
                        detail=f"units not declared for {', '.join(missing)}")
    fl, fr = Compiled(lhs, claim), Compiled(rhs, claim)
    if cfg.at is not None and set(claim.domain.params) <= set(cfg.at):
        pts = [cfg.at]
    else:   # no pinned point, or one that leaves out an existentially quantified parameter
        pts = sample_points(claim.domain.strategy(fixed=cfg.at), 5, cfg.seed_for(claim.id, stmt.name, "scaling"))
    n = 0
    for pt in pts:
        try:
            el, er = exponents(fl, claim, pt, cfg.dps), exponents(fr, claim, pt, cfg.dps)
        except (ZeroDivisionError, ValueError, OverflowError):
            continue
        if el is None or er is None:
            continue
        n += 1
        if any(abs(a - b) > TOL for a, b in zip(el, er)):
            return Evidence("scaling", stmt.name, "violated", samples=n, seconds=clock.seconds,
                            counterexample={"params": jsonable(pt), "seed": cfg.seed},
                            detail=(f"sides scale differently: lhs ~ c^{el[0]:.4g} s^{el[1]:.4g}, "
                                    f"rhs ~ c^{er[0]:.4g} s^{er[1]:.4g}"))
    if n == 0:
        return Evidence("scaling", stmt.name, "inconclusive", seconds=clock.seconds,
                        detail="no point with both sides non-zero")
    return Evidence("scaling", stmt.name, "holds", samples=n, seconds=clock.seconds,
                    detail=f"both sides scale alike at {n} point(s) (exponents in c and s agree)")


KIND = CheckKind(
    name="scaling", applies=applies, check=check, basis_kinds=("scaling",), can_refute=True,
    no_certificate="the scaling check (a change of units) has no standalone checker",
    summary="both sides' exponents in a scaled loss and scaled parameters must agree (refutes only)")
