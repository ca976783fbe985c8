"""A limit SymPy found, cross-checked in mpmath along its path before a proof uses it.

Gruntz's algorithm decides the signs of expressions in the parameters, and SymPy sometimes decides them
wrongly; a proof (:mod:`.rateproof`) counts only when the printed expressions, evaluated in mpmath (each
point at two precisions, :func:`~dpverify.checks.rate.settled_values`) at ``x0 * 10^(+-2^j)``, j = 0 ..
:data:`EXPONENTS`, from :data:`BASES` points of the domain, approach what SymPy's limits say there: the
interval between the smallest and the largest limit of the branches (one value when there is no Min/Max or
rounding). A value that ends farther than :data:`CLOSE` (relative to the scale of the values) from it, and
is not still approaching it within :data:`LOOSE`, is a disagreement: the proof is not trusted.
"""
from __future__ import annotations

import math

import mpmath
import sympy as sp

from ..search import sample_points
from ..claims.statements import START_SUFFIX
from .rate import settled_values

#: the exponents j of the points x0 * 10^(+-2^j): every one up to 10^256 (the double range, where the domain is
#: checked at every point), then beyond it in mpmath (to 10^4096: farther, an integer power of a huge integer-valued x is
#: computed by squaring, without end)
EXPONENTS = (*range(9), 10)
#: the last exponent whose point is a double (the domain decides it); beyond it the point is in the domain when
#: this one is: the path has crossed every bound of its parameter by then
IN_DOUBLES = 8
#: points of the domain the path starts from
BASES = 2
#: agreement at the farthest point, relative to the scale of the values
CLOSE = 1e-2
#: ... or still approaching (the distance shrinking over the last points) and within this share
LOOSE = 0.25
#: a path needs this many evaluable points
MIN_POINTS = 4


def path_points(claim, path, base) -> list[tuple[int, dict]]:
    """``(j, point)`` along the path from ``base`` (see :data:`EXPONENTS`), the path's tied parameters set; in
    doubles while the domain holds at every point, then in mpmath."""
    pts = []
    x0 = float(base[path.param])
    for j in EXPONENTS:
        try:
            if j <= IN_DOUBLES:
                x = x0 * 10.0 ** (2 ** j) if path.to == "inf" else x0 / 10.0 ** (2 ** j)
                if x == 0 or math.isinf(x):
                    break
                pt = {**base, path.param: x, **{n: path.tied_value(n, x, base) for n in path.tied}}
                if not claim.domain.contains(pt):
                    break
            else:
                if len(pts) <= IN_DOUBLES or not path.symbolic:
                    break
                x = mpmath.mpf(x0) * mpmath.mpf(10) ** (2 ** j) if path.to == "inf" else \
                    mpmath.mpf(x0) / mpmath.mpf(10) ** (2 ** j)
                pt = {**base, path.param: x, **{n: _tied_mp(path.tied[n], path.param, x, base) for n in path.tied}}
        except (OverflowError, ZeroDivisionError, ValueError, TypeError):
            break
        pts.append((j, pt))
    return pts


def _tied_mp(expr, param, x, base):
    """A symbolic tied parameter at ``x`` in mpmath (the point is beyond the doubles)."""
    vals = {}
    for s in expr.free_symbols:
        name = str(s)
        vals[s] = x if name == param else base[name[:-len(START_SUFFIX)] if name.endswith(START_SUFFIX) else name]
    syms = sorted(vals, key=str)
    return sp.lambdify(syms, expr, modules="mpmath")(*(vals[s] for s in syms))


def values_at(fns, pt, j: int, dps: int):
    """:func:`~dpverify.checks.rate.settled_values` at the point ``10^(2^j)`` from the path's start, with two
    digits more per decade moved (up to 10^512): at ``kappa = 10^256``, ``1 - 1/kappa`` needs 256 digits,
    and at every fixed precision below that the two precisions agree on the wrong value 1. Beyond, a value
    that needs more digits than that is one the cross-check cannot trust either way (it never counts a
    disagreement as a proof)."""
    return settled_values(fns, pt, dps + 2 * 2 ** j)


def value_at(expr: sp.Basic, base: dict, dps: int):
    """``expr`` (in the claim's symbols, ``p@start`` for the path parameter's base value) at ``base``, an mpmath
    number (``mpmath.inf`` for oo), or None where it is not a real number."""
    if expr in (sp.oo, -sp.oo):
        return mpmath.inf if expr == sp.oo else -mpmath.inf
    subs = {}
    for s in expr.free_symbols:
        name = str(s)
        key = name[:-len(START_SUFFIX)] if name.endswith(START_SUFFIX) else name
        if key not in base or isinstance(base[key], bool) or not isinstance(base[key], (int, float)):
            return None
        subs[s] = sp.Float(base[key], dps)
    try:
        v = sp.N(expr.xreplace(subs), dps)
    except (TypeError, ValueError, ZeroDivisionError, OverflowError):
        return None
    if not v.is_real or not v.is_finite:
        return None
    with mpmath.workdps(dps):
        return mpmath.mpf(str(v))


def _agrees(vals, lo, hi) -> bool:
    dist = [max(lo - v, v - hi, 0) for v in vals]
    scale = max([abs(lo), abs(hi)] + [abs(v) for v in vals] + [mpmath.mpf(10) ** -300])
    if dist[-1] <= CLOSE * scale:
        return True
    tail = dist[-3:]
    return all(b < a for a, b in zip(tail, tail[1:])) and dist[-1] <= LOOSE * scale


def cross_check(claim, path, fns, bounds, cfg, stmt_name: str, fixed=None) -> str | None:
    """None when the values of ``fns[0]`` (divided by ``fns[1]``, when given) along ``path`` from points of the
    domain approach the interval ``[min, max]`` of ``bounds`` (SymPy's limits, in the claim's symbols, evaluated
    at each start point); else the disagreement (or why nothing could be evaluated) in one phrase. ``fixed``:
    parameter values the start points take (a case of the proof: a choice, a closed end)."""
    strategy = claim.domain.strategy(fixed=fixed) if fixed else claim.domain.strategy()
    bases = [cfg.at] if cfg.at is not None else sample_points(strategy, 4 * BASES,
                                                             cfg.seed_for(claim.id, stmt_name, "limit-cross-check"))
    checked = 0
    with mpmath.workdps(cfg.dps):
        for base in bases:
            if checked >= BASES:
                break
            if base is None or not claim.domain.contains(base):
                continue
            lims = [value_at(b, base, cfg.dps) for b in bounds]
            if any(v is None or mpmath.isinf(v) for v in lims):
                continue
            vals = []
            for j, pt in path_points(claim, path, base):
                got = values_at(fns, pt, j, cfg.dps)
                if got is None or (len(fns) > 1 and got[1] == 0):
                    break
                vals.append(got[0] / got[1] if len(fns) > 1 else got[0])
                last = pt
            if len(vals) < MIN_POINTS:
                continue
            checked += 1
            lo, hi = min(lims), max(lims)
            if not _agrees(vals, lo, hi):
                want = mpmath.nstr(lo, 6) if lo == hi else f"[{mpmath.nstr(lo, 6)}, {mpmath.nstr(hi, 6)}]"
                return (f"SymPy's limit is {want} from {_brief(base)}, but in mpmath the value is "
                        f"{mpmath.nstr(vals[-1], 6)} at {path.param} = {mpmath.nstr(last[path.param], 3)}")
    if checked == 0:
        return "no point of the domain from which the path could be evaluated in mpmath to cross-check SymPy's limit"
    return None


def _brief(pt) -> str:
    return "{" + ", ".join(f"{k}: {v:.4g}" if isinstance(v, float) else f"{k}: {v}" for k, v in pt.items()) + "}"


__all__ = ["BASES", "CLOSE", "EXPONENTS", "LOOSE", "cross_check", "path_points", "value_at", "values_at"]
