"""Symbolic check: SymPy proves an identity or an inequality, or says nothing.

* identity: ``simplify(lhs - rhs) == 0`` (after the claim's definitions and finite sums);
* inequality: the sign of ``rhs - lhs`` under the statement's reparametrisation of hypotheses
  (e.g. ``kappa = 1 + k`` with ``k > 0``);
* when a statement involves sequences of symbolic length, the identity is proved exactly for each
  small length ``T = 1..T_max`` (reported ``holds``: exact, but not a proof for every ``T``).

A failed proof is ``inconclusive``, never ``violated``: only a numeric counterexample violates.
"""
from __future__ import annotations

import sympy as sp

from ..spec import Choice, Identity, Inequality, Int, Real, Seq
from ..verdict import Basis, Evidence
from .base import Clock, Config, SymbolicTimeout, based, time_limit

SMALL_T = 6


def applies(stmt) -> bool:
    return isinstance(stmt, (Identity, Inequality))


def _is_zero(expr: sp.Basic) -> bool | None:
    if expr == 0:
        return True
    cheap = (sp.expand, sp.cancel, lambda e: sp.cancel(sp.powsimp(sp.expand(e), force=False)), sp.together)
    for f in cheap + (sp.simplify, lambda e: sp.simplify(sp.expand(e)), sp.powsimp, sp.radsimp):
        try:
            e = f(expr)
        except (TypeError, ValueError, NotImplementedError, RecursionError):
            continue
        if e == 0:
            return True
    try:
        eq = expr.equals(0)
    except (TypeError, ValueError, NotImplementedError, RecursionError):
        eq = None
    return True if eq is True else None


def _positive_coefficients(expr: sp.Basic, strict: bool) -> bool:
    """A rational function of positive symbols whose numerator and denominator have only
    coefficients of one sign (after expansion) is positive: a cheap, sufficient test."""
    syms = sorted(expr.free_symbols, key=str)
    if not syms or not all(x.is_positive for x in syms):
        return False
    try:
        num, den = sp.fraction(sp.cancel(sp.together(expr)))
        num, den = sp.expand(num), sp.expand(den)
        pn, pd = sp.Poly(num, *syms), sp.Poly(den, *syms)
    except (sp.PolynomialError, sp.GeneratorsNeeded, TypeError, ValueError):
        return False
    cn, cd = pn.coeffs(), pd.coeffs()
    if not cn or not cd or not all(c.is_number for c in cn + cd):
        return False
    sn = all(c > 0 for c in cn) or (not strict and all(c >= 0 for c in cn))
    sd = all(c > 0 for c in cd)
    sn_neg = all(c < 0 for c in cn) or (not strict and all(c <= 0 for c in cn))
    sd_neg = all(c < 0 for c in cd)
    return bool((sn and sd) or (sn_neg and sd_neg))


def _nonneg(expr: sp.Basic, strict: bool) -> bool | None:
    """SymPy's sign reasoning on the difference and a few rewritings of it, cheapest first."""
    if _positive_coefficients(expr, strict):
        return True
    for f in (lambda e: e, sp.together, sp.factor, sp.simplify, lambda e: sp.simplify(sp.expand(e))):
        try:
            e = f(expr)
        except (TypeError, ValueError, NotImplementedError, RecursionError):
            continue
        v = e.is_positive if strict else e.is_nonnegative
        if v is True:
            return True
    return None


def _seq_names(claim) -> list[str]:
    return [n for n, p in claim.domain.params.items() if isinstance(p, Seq)]


def _small_T(claim, expr: sp.Basic):
    """Yield (T, expression with T and the sequences made concrete) for T = 1..SMALL_T."""
    seqs = {n: p for n, p in claim.domain.params.items() if isinstance(p, Seq)}
    lengths = {p.length for p in seqs.values()}
    names = {str(s): s for s in expr.free_symbols}
    for T in range(1, SMALL_T + 1):
        e = expr.subs({names[n]: T for n in lengths if n in names})
        e = e.doit()
        idx = e.atoms(sp.Indexed)
        repl = {}
        for ind in idx:
            elem = seqs[str(ind.base)].elem
            repl[ind] = sp.Symbol(f"{ind.base}_{ind.indices[0]}", positive=bool(
                (elem.gt is not None and elem.gt >= 0) or (elem.ge is not None and elem.ge > 0)))
        yield T, e.xreplace(repl)


def _with(reparam) -> str:
    if not reparam:
        return ""
    return " with " + ", ".join(f"{k} = {v}" for k, v in reparam.items()) + " (positive new symbols)"


def _difference(a, b, stmt, claim, cfg: Config) -> sp.Basic:
    """``a - b`` with the claim's definitions, the statement's reparametrisation and any pinned scalars."""
    diff = claim.expand(a - b)
    fixed = {sp.Symbol(n): sp.nsimplify(p.values[0]) for n, p in claim.domain.params.items()
             if isinstance(p, Choice) and len(p.values) == 1 and isinstance(p.values[0], (int, float))}
    if fixed:  # a parameter with one admissible value is that value
        diff = diff.subs(fixed)
    if stmt.reparam:
        diff = diff.subs(stmt.reparam)
    if cfg.at is not None:
        # exactly (a float substituted as a SymPy Float is rounded to 15 digits, and then "proves" what
        # rounding decides); a number far from a simple fraction stays a symbol: a proof on the whole
        # domain covers the point
        pinned = {sp.Symbol(k): simple_fraction(v) for k, v in cfg.at.items() if not isinstance(v, (list, tuple))}
        diff = diff.subs({k: v for k, v in pinned.items() if v is not None})
    return diff.xreplace(_assumed(claim, diff))


def simple_fraction(v, limit: int = 10**6):
    """A pinned number as an exact SymPy number when it is a fraction with numerator and
    denominator below ``limit`` (the float ``0.1`` is not: it stores a fraction of 2^55), else None."""
    if isinstance(v, bool) or not isinstance(v, (int, float)):
        return None
    r = sp.Integer(v) if isinstance(v, int) else sp.Rational(v)
    return r if abs(r.p) < limit and r.q < limit else None


def _assumed(claim, expr) -> dict:
    """Symbols of ``expr`` replaced by copies that carry the domain's sign and integrality (a
    parameter with ``gt >= 0`` is positive, an ``Int`` with ``ge >= 1`` a positive integer), so that
    SymPy reasons under the claim's hypotheses."""
    out = {}
    for sym in expr.free_symbols:
        if not isinstance(sym, sp.Symbol) or sym.assumptions0.get("positive"):
            continue
        p = claim.domain.params.get(str(sym))
        if isinstance(p, Real) and ((p.gt is not None and p.gt >= 0) or (p.ge is not None and p.ge > 0)):
            out[sym] = sp.Symbol(str(sym), positive=True)
        elif isinstance(p, Int) and p.ge is not None and p.ge >= 1:
            out[sym] = sp.Symbol(str(sym), integer=True, positive=True)
        elif isinstance(p, Int):
            out[sym] = sp.Symbol(str(sym), integer=True)
    return out


def _basis(stmt, claim, ev) -> Basis:
    """A proof on the whole domain; exact computation for small T only when that is what was done."""
    if ev.verdict == "holds":
        return Basis("exact-cases", f"the identity for every T = 1..{SMALL_T}")
    what = "lhs - rhs = 0" if isinstance(stmt, Identity) else "the sign of rhs - lhs"
    return Basis("proof", f"{what} under the claim's hypotheses" + _with(getattr(stmt, "reparam", {})))


@based(_basis)
def check(stmt, claim, cfg: Config) -> Evidence:
    clock = Clock()
    name = stmt.name
    try:
        with time_limit(cfg.symbolic_timeout):
            if isinstance(stmt, Identity):
                diff = _difference(stmt.lhs, stmt.rhs, stmt, claim, cfg)
                diff_d = diff.doit() if (diff.has(sp.Sum) or diff.has(sp.Integral)) else diff
                if _is_zero(diff_d):
                    return Evidence("symbolic", name, "verified", seconds=clock.seconds,
                                    detail="simplify(lhs - rhs) == 0" + _with(stmt.reparam))
                if _seq_names(claim) and cfg.at is None:
                    for T, e in _small_T(claim, diff):
                        if not _is_zero(e):
                            return Evidence("symbolic", name, "inconclusive", seconds=clock.seconds,
                                            detail=f"no proof; could not simplify to 0 at T = {T}")
                    return Evidence("symbolic", name, "holds", seconds=clock.seconds,
                                    detail=f"exact identity for every T = 1..{SMALL_T} "
                                           "(no proof for general T)")
                return Evidence("symbolic", name, "inconclusive", seconds=clock.seconds,
                                detail="SymPy could not simplify lhs - rhs to 0")
            # inequality
            diff = _difference(stmt.rhs, stmt.lhs, stmt, claim, cfg)
            if diff.has(sp.Sum):
                diff = diff.doit()
            if _nonneg(diff, stmt.strict):
                return Evidence("symbolic", name, "verified", seconds=clock.seconds,
                                detail="SymPy proved rhs - lhs " + (">" if stmt.strict else ">=") + " 0"
                                       + _with(stmt.reparam))
            return Evidence("symbolic", name, "inconclusive", seconds=clock.seconds,
                            detail="SymPy could not decide the sign of rhs - lhs")
    except SymbolicTimeout:
        return Evidence("symbolic", name, "inconclusive", seconds=clock.seconds,
                        detail=f"SymPy timed out after {cfg.symbolic_timeout:g} s")
