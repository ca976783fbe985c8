"""Symbolic check: SymPy proves an identity or an inequality, or says nothing.

* identity: a rewriting of ``lhs - rhs`` (expand, cancel, ..., simplify) is 0 (after the claim's
  definitions and finite sums);
* inequality: the sign of ``rhs - lhs`` under the statement's reparametrisation of hypotheses
  (e.g. ``kappa = 1 + k`` with ``k > 0``);
* first, a witness (:func:`_witness`): a point SymPy's assumptions on the symbols admit where the
  difference is clearly nonzero (negative) makes every such proof impossible, and the rewritings are
  skipped; ``Config(deep_proofs=True)`` (``--deep-proofs``) adds the slow rewritings
  (``simplify(expand(.))``, ``Expr.equals``);
* when a statement involves sequences of symbolic length, the identity is proved exactly for each
  small length ``T = 1..T_max`` (reported ``holds``: exact, but not a proof for every ``T``).

A failed proof is ``inconclusive``, never ``violated``: only a numeric counterexample violates.
"""
from __future__ import annotations

import sympy as sp

from ..claims import Choice, Identity, Inequality, Int, Real, Seq
from ..verdict import Basis, Evidence
from .base import Clock, Config, SymbolicTimeout, based, time_limit
from .kind import CheckKind

SMALL_T = 6


def applies(stmt) -> bool:
    return isinstance(stmt, (Identity, Inequality))


# the rewritings tried, cheapest first; the last ones (``deep``) are slow and proved no identity of the
# registered papers that the others did not: they run with Config(deep_proofs=True) / --deep-proofs
def _simplify_expanded(e):
    return sp.simplify(sp.expand(e))


_ZERO_REWRITINGS = (sp.expand, sp.cancel, lambda e: sp.cancel(sp.powsimp(sp.expand(e), force=False)), sp.together,
                    sp.simplify, sp.powsimp, sp.radsimp)
_SIGN_REWRITINGS = (lambda e: e, sp.together, sp.factor, sp.simplify)


def _rewritten(expr: sp.Basic, rewritings, deep: bool):
    """``expr`` under each of the ``rewritings`` in turn, cheapest first (``deep``: then ``simplify(expand(.))``);
    a rewriting SymPy cannot complete is passed over."""
    for f in rewritings + ((_simplify_expanded,) if deep else ()):
        try:
            e = f(expr)
        except (TypeError, ValueError, NotImplementedError, RecursionError, sp.PolynomialError):
            continue
        yield e


def is_zero(expr: sp.Basic, deep: bool = False, extra: tuple = ()) -> bool | None:
    """Whether a rewriting of ``expr`` is 0 (None: none was). ``deep`` also tries ``simplify(expand(.))``
    and, on an expression with symbols, ``Expr.equals(0)`` (a constant expression always gets it); ``extra``:
    rewritings tried after the usual ones."""
    if expr == 0:
        return True
    if any(e == 0 for e in _rewritten(expr, _ZERO_REWRITINGS + tuple(extra), deep)):
        return True
    if not deep and expr.free_symbols:
        return None
    try:
        eq = expr.equals(0)
    except (TypeError, ValueError, NotImplementedError, RecursionError):
        eq = None
    return True if eq is True else None


# values tried for the symbols of a difference (those consistent with what SymPy assumes of each
# symbol; a proof from those assumptions covers every such value): irregular, so that no factor
# vanishes by accident
_TRY = (sp.Rational(7, 5), sp.Integer(2), sp.Rational(13, 3), sp.Integer(3), sp.Rational(5, 17),
        sp.Integer(7), sp.Rational(-13, 3), sp.Integer(-3), sp.Rational(-5, 17))


def _admitted(x: sp.Symbol) -> list:
    """The values of ``_TRY`` that have every property SymPy assumes of ``x`` (and none it denies)."""
    facts = x.assumptions0
    return [v for v in _TRY if all(getattr(v, "is_" + f, None) is val for f, val in facts.items())]


def _witness(expr: sp.Basic, sign: str):
    """A point, consistent with what SymPy assumes of ``expr``'s symbols, at which ``expr`` is clearly
    nonzero (``sign="zero"``) or clearly negative (``sign="nonneg"``); None when there is none among a
    few tried or the expression is not plainly numeric there.

    A proof that ``expr`` is 0 (or >= 0) from SymPy's assumptions holds at every point consistent with
    them, so such a point means SymPy's rewritings cannot succeed, and trying them is skipped. "Clearly":
    the value agrees to 1e-3 (relative) between 30 and 60 digits and is not below 1e-20, so rounding
    cannot make it; expressions with floating-point constants (which SymPy compares at their own
    precision) or anything but plain symbols are not tried."""
    import mpmath

    syms = expr.free_symbols
    if not syms or expr.has(sp.Float) or not all(type(x) is sp.Symbol for x in syms) or expr.atoms(
            sp.Indexed, sp.Sum, sp.Product, sp.Integral, sp.Derivative, sp.core.function.AppliedUndef):
        return None
    syms = sorted(syms, key=str)
    admitted = [_admitted(x) for x in syms]
    try:
        f = sp.lambdify(syms, expr, modules="mpmath")
    except Exception:  # noqa: BLE001 - anything SymPy cannot print for mpmath: no witness
        return None
    for k in range(3):
        vals = []
        for j, x in enumerate(syms):
            choice = admitted[j]
            if not choice:
                return None
            vals.append(choice[(k + j) % len(choice)])
        try:
            got = []
            for dps in (30, 60):
                with mpmath.workdps(dps):
                    v = f(*(mpmath.mpf(v.p) / v.q for v in vals))
                    if not isinstance(v, mpmath.mpf) and not isinstance(v, (int, float)):
                        raise TypeError
                    got.append(mpmath.mpf(v))
        except Exception:  # noqa: BLE001 - undefined or complex there: try another point
            continue
        lo, hi = got
        if not (mpmath.isfinite(hi) and abs(hi) > mpmath.mpf(10) ** -20 and abs(lo - hi) <= abs(hi) / 1000):
            continue
        if sign == "zero" or hi < 0:
            return {str(x): v for x, v in zip(syms, vals)}, hi
    return None


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


def _nonneg(expr: sp.Basic, strict: bool, deep: bool = False) -> bool | None:
    """SymPy's sign reasoning on the difference and a few rewritings of it, cheapest first (``deep``:
    also ``simplify(expand(.))``)."""
    if _positive_coefficients(expr, strict):
        return True
    if any((e.is_positive if strict else e.is_nonnegative) is True for e in _rewritten(expr, _SIGN_REWRITINGS, deep)):
        return True
    return None


def _shallow(cfg) -> str:
    return "" if cfg.deep_proofs else " (--deep-proofs also tries its slower rewritings)"


def _at(wit, what: str) -> str:
    """The detail of a proof skipped for a witness: what SymPy's assumptions admit, which is not a
    counterexample to the claim (the point need not satisfy the claim's other hypotheses)."""
    import mpmath

    point, value = wit
    where = ", ".join(f"{k} = {v}" for k, v in point.items())
    return (f"no proof from SymPy's sign and integer assumptions alone: they admit {where}, where {what} = "
            f"{mpmath.nstr(value, 6)} (not a counterexample: the point need not meet the claim's other "
            "hypotheses)")


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


def difference(a, b, stmt, claim, cfg: Config) -> sp.Basic:
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
                diff = difference(stmt.lhs, stmt.rhs, stmt, claim, cfg)
                diff_d = diff.doit() if (diff.has(sp.Sum) or diff.has(sp.Integral)) else diff
                wit = _witness(diff_d, "zero")
                if wit is not None:
                    return Evidence("symbolic", name, "inconclusive", seconds=clock.seconds,
                                    detail=_at(wit, "lhs - rhs"))
                if is_zero(diff_d, cfg.deep_proofs):
                    return Evidence("symbolic", name, "verified", seconds=clock.seconds,
                                    detail="simplify(lhs - rhs) == 0" + _with(stmt.reparam))
                if _seq_names(claim) and cfg.at is None:
                    for T, e in _small_T(claim, diff):
                        if not is_zero(e, cfg.deep_proofs):
                            return Evidence("symbolic", name, "inconclusive", seconds=clock.seconds,
                                            detail=f"no proof; could not simplify to 0 at T = {T}")
                    return Evidence("symbolic", name, "holds", seconds=clock.seconds,
                                    detail=f"exact identity for every T = 1..{SMALL_T} "
                                           "(no proof for general T)")
                return Evidence("symbolic", name, "inconclusive", seconds=clock.seconds,
                                detail="SymPy could not simplify lhs - rhs to 0" + _shallow(cfg))
            # inequality
            diff = difference(stmt.rhs, stmt.lhs, stmt, claim, cfg)
            if diff.has(sp.Sum):
                diff = diff.doit()
            wit = _witness(diff, "nonneg")
            if wit is not None:
                return Evidence("symbolic", name, "inconclusive", seconds=clock.seconds,
                                detail=_at(wit, "rhs - lhs"))
            if _nonneg(diff, stmt.strict, cfg.deep_proofs):
                return Evidence("symbolic", name, "verified", seconds=clock.seconds,
                                detail="SymPy proved rhs - lhs " + (">" if stmt.strict else ">=") + " 0"
                                       + _with(stmt.reparam))
            return Evidence("symbolic", name, "inconclusive", seconds=clock.seconds,
                            detail="SymPy could not decide the sign of rhs - lhs" + _shallow(cfg))
    except SymbolicTimeout:
        return Evidence("symbolic", name, "inconclusive", seconds=clock.seconds,
                        detail=f"SymPy timed out after {cfg.symbolic_timeout:g} s")


KIND = CheckKind(
    name="symbolic", applies=applies, check=check, basis_kinds=("proof", "exact-cases"), can_refute=False,
    proof_certificate="symbolic-proof",
    summary="SymPy proves an identity or an inequality on the whole domain (a witness point shows none can exist)")
