"""Limit check: ``expr -> value`` as one parameter goes to 0+ or infinity.

Symbolically, SymPy's ``limit`` with the other parameters symbols carrying their domain's bounds, cross-checked
in mpmath along the path (:func:`.rateproof.check_limit`): ``verified`` when it equals the claimed value;
anything else is ``inconclusive`` (only a numeric sweep refutes). Numerically, from ``BASE_POINTS`` points of the domain the parameter is swept over
``DECADES`` decades towards its limit in mpmath (the claim's hypotheses holding at every point):
the claim ``holds`` on a sweep when the distance to the claimed value keeps shrinking and ends
below ``CLOSE`` (relative to the scale of the values), and is ``violated`` when the expression
settles (its last third moves by less than ``FLAT``, relative) at a value farther than ``FAR`` from
the claimed one; the evidence then reports where it settles.
"""
from __future__ import annotations

import mpmath

from ..numeric import Compiled, jsonable
from ..search import sample_points
from ..claims import Limit
from ..verdict import Basis, Evidence
from .base import Clock, Config, based
from .rate import DECADES, STEPS_PER_DECADE, sweep
from .rateproof import check_limit
from .kind import CheckKind

BASE_POINTS = 4
CLOSE = 1e-6
FLAT = 1e-6
FAR = 1e-3


def applies(stmt) -> bool:
    return isinstance(stmt, Limit)


def _where(stmt) -> str:
    p = stmt.path
    return f"{p.param} -> {p.to}" + (f" ({p.label})" if p.label else "")


def _sweep(claim, path, base, cfg, f, g):
    pts, values = sweep(claim, path, base, cfg, (f, g))
    return pts, [v[0] for v in values], [v[1] for v in values]


@based(lambda stmt, claim, ev: Basis("limit", f"the printed expression swept as {_where(stmt)}"))
def check_numeric(stmt: Limit, claim, cfg: Config) -> Evidence:
    clock = Clock()
    f, g = Compiled(stmt.expr, claim), Compiled(stmt.value, claim)
    bases = [cfg.at] if cfg.at is not None else sample_points(
        claim.domain.strategy(), 6 * BASE_POINTS, cfg.seed_for(claim.id, stmt.name, "limit"))
    path = stmt.path
    where = f"{path.param} -> {path.to}" + (f" ({path.label})" if path.label else "")
    swept, evaluated, worst = 0, 0, None
    for base in bases:
        if swept >= BASE_POINTS:
            break
        pts, vals, lims = _sweep(claim, path, base, cfg, f, g)
        evaluated += len(vals)
        if len(vals) < 3 * STEPS_PER_DECADE:
            continue
        swept += 1
        with mpmath.workdps(cfg.dps):
            scale = max(max(abs(v) for v in vals), max(abs(v) for v in lims), mpmath.mpf(10) ** -300)
            dist = [abs(v - L) / scale for v, L in zip(vals, lims)]
            tail = max(3, len(vals) // 3)
            moved = max(abs(vals[-1] - v) for v in vals[-tail:]) / scale
            if moved <= FLAT and dist[-1] > FAR:
                return Evidence(
                    "limit", stmt.name, "violated", samples=evaluated, seconds=clock.seconds,
                    value=float(vals[-1]), bound=float(lims[-1]), point=jsonable(pts[-1]),
                    counterexample={"params": jsonable(pts[-1]), "seed": cfg.seed, "path": where,
                                    "base": jsonable(base)},
                    detail=(f"as {where} the expression settles at {mpmath.nstr(vals[-1], 8)} "
                            f"(last third moves by {float(moved):.2g} relative), not at the claimed "
                            f"{mpmath.nstr(lims[-1], 8)}"))
            shrinking = all(dist[i + 1] <= dist[i] * (1 + 1e-9) + mpmath.mpf(10) ** -40
                            for i in range(len(dist) - tail, len(dist) - 1))
            if not (shrinking and dist[-1] <= CLOSE):
                worst = f"{where}: distance to the claimed value {float(dist[-1]):.3g} (relative), not settled"
    if swept == 0:
        return Evidence("limit", stmt.name, "inconclusive", samples=evaluated, seconds=clock.seconds,
                        detail=f"no base point with {3 * STEPS_PER_DECADE} evaluable points along {where}")
    if worst:
        return Evidence("limit", stmt.name, "inconclusive", samples=evaluated, seconds=clock.seconds, detail=worst)
    return Evidence("limit", stmt.name, "holds", samples=evaluated, seconds=clock.seconds,
                    detail=f"the distance to the claimed value shrinks below {CLOSE:g} (relative) along {where} "
                           f"from {swept} base point(s), {DECADES} decades each")


KINDS = (
    CheckKind(name="limit-symbolic", label="symbolic", applies=applies, check=check_limit,
              basis_kinds=("asymptotics",), can_refute=False, proof_certificate="asymptotics",
              summary="SymPy's limit (Gruntz) along the path, the other parameters symbols on their domain, equals the "
                      "claimed value, cross-checked in mpmath"),
    CheckKind(name="limit", applies=applies, check=check_numeric, basis_kinds=("limit",), can_refute=True,
              no_certificate="a limit is not decided by a finite computation",
              summary="the expression swept towards its limit in mpmath: it approaches the value, or settles away"),
)
