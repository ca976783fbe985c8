"""An :class:`~dpverify.claims.Identity` refuted by a point: ``lhs - rhs`` (the claim's definitions
substituted) reduced by SymPy to an expression that is not 0, and a point of the claim's domain at which
ball arithmetic proves it is not 0.

The sampled check compares the two sides within a relative tolerance, so ``x = x (1 + 1e-40)`` passes it;
an identity is a statement of equality on the whole domain, and one point where the sides differ refutes
it. The points tried are deterministic (a few fixed fractions of each parameter's search box, as short
binary numbers so that they are exact), each checked against every hypothesis; the difference is
enclosed at the point in ball arithmetic (:mod:`dpverify.xinterval`) at 128 to 2048 bits, both as
printed and as SymPy's reduced form (equal wherever defined), and a point is a witness only when an
enclosure excludes 0. The evidence carries the reduced expression (``data["difference"]``) and the
point; ``dpverify certify`` re-checks the point standalone (the ``analytic`` route: both sides in ball
arithmetic until their enclosures are disjoint).
"""
from __future__ import annotations

import math
from fractions import Fraction

import sympy as sp

from ..numeric import jsonable
from ..claims import Choice, Int, Real, Seq, symbol_names
from ..verdict import Basis, Evidence
from .bnb import Prover, Var, dyadic

FRACTIONS = (Fraction(1, 2), Fraction(3, 10), Fraction(7, 10), Fraction(1, 10), Fraction(9, 10))
MAX_POINTS = 12
PRECISIONS = (128, 512, 2048)


def reduced(d):
    """SymPy's cheap reductions of ``d`` (``cancel``, ``expand``): the first that is 0, else the smallest."""
    best = d
    for f in (sp.cancel, sp.expand):
        try:
            e = f(d)
        except (TypeError, ValueError, NotImplementedError, RecursionError, sp.PolynomialError):
            continue
        if e == 0:
            return e
        if sp.count_ops(e) < sp.count_ops(best):
            best = e
    return best


def _values(p, k: int):
    if isinstance(p, Choice):
        return p.values[k % len(p.values)]
    lo, hi = p.box()
    t = FRACTIONS[k % len(FRACTIONS)]
    if isinstance(p, Int):
        return int(math.floor(lo + float(t) * (hi - lo)))
    if getattr(p, "log", False) and lo > 0:
        x = lo * (hi / lo) ** float(t)
    else:
        x = lo + float(t) * (hi - lo)
    return float(dyadic(x)) if x != 0 else 0.0


def points(claim, names):
    """Deterministic points of the claim's domain (the parameters ``names`` varied together)."""
    params = claim.domain.params
    out = []
    for k in range(len(FRACTIONS) * 2):
        pt = {}
        for j, (n, p) in enumerate(sorted(params.items())):
            if isinstance(p, Seq):
                return []
            pt[n] = _values(p, k + j if n in names else 0)
        if claim.domain.contains(pt) and pt not in out:
            out.append(pt)
        if len(out) >= MAX_POINTS:
            break
    return out


def _enclosure(expr, names, pt, prec):
    from flint import ctx

    variables = []
    box = []
    for n in sorted(names):
        v = pt[n]
        q = Fraction(v)
        variables.append(Var(n, "int" if isinstance(v, int) else "real", q, q))
        box.append((q, q))
    old = ctx.prec
    ctx.prec = prec
    try:
        pv = Prover(expr, variables)
        return pv.enclose(pv.forms, pv.point(tuple(box)))
    finally:
        ctx.prec = old


def witness(stmt, claim):
    """``(difference, point, enclosure)`` where the claim's identity provably fails, or None."""
    d = claim.expand(stmt.lhs) - claim.expand(stmt.rhs)
    if d.has(sp.Sum, sp.Product, sp.Integral, sp.Indexed, sp.IndexedBase):
        return None
    names = symbol_names(d)
    params = claim.domain.params
    if any(n not in params or not isinstance(params[n], (Real, Int, Choice)) for n in names):
        return None
    r = reduced(d)
    if r == 0:
        return None
    for pt in points(claim, names):
        for prec in PRECISIONS:
            for form in (r, d):
                e = _enclosure(form, names, pt, prec)
                if e is not None and (e > 0 or e < 0):
                    return r, pt, e
    return None


def check(stmt, claim, cfg, clock) -> Evidence:
    found = witness(stmt, claim)
    if found is None:
        return Evidence("domainproof", stmt.name, "inconclusive", seconds=clock.seconds,
                        basis=Basis("proof", "a point of the domain"),
                        detail="lhs - rhs reduces to 0, or no point of the domain where it provably is not")
    r, pt, e = found
    text = sp.sstr(r)
    lo, hi = (float(e.lo), float(e.hi))
    return Evidence("domainproof", stmt.name, "violated", samples=1, seconds=clock.seconds, value=lo, bound=0.0,
                    point=jsonable(pt), counterexample={"params": jsonable(pt), "seed": cfg.seed},
                    basis=Basis("proof", "a point of the domain"),
                    data={"difference": text[:400], "enclosure": [lo, hi]},
                    detail=f"lhs - rhs reduces to {text[:120]}, which ball arithmetic encloses in [{lo:.3g}, {hi:.3g}] "
                           f"(not 0) at {jsonable(pt)}; replay with --at")


__all__ = ["check", "points", "reduced", "witness"]
