"""A rate's ratio bounded term by term where a term is a power of the path's variable with a symbolic exponent.

SymPy's limit (Gruntz) compares ``x**c`` with ``x**0`` by the sign of ``c``; where ``c`` depends on the other
parameters it may not know that sign, and it has returned ``oo`` for a bounded ratio: at the printed ``T``
of a strongly convex method, ``exp(-2 mu beta T/(mu + beta)**2)`` is ``n**c`` with ``c = 2 - 4 (beta**2 +
mu**2)/(beta + mu)**2``, which is ``<= 0`` (0 at ``beta = mu``) for every ``beta, mu > 0``. Such a claim ended
``inconclusive`` ("expr/rate -> oo, but the sweep in mpmath did not confirm it").

:func:`bounded` splits ``expr/rate`` into its terms (``expand_mul``) and decides an ``O`` along ``x -> oo``
(``x -> 0+``) by each term:

* a term without ``x`` is a constant along the path;
* a **power law**: ``c = x t'(x)/t(x)`` (summed over ``t``'s factors) cancels to an expression without ``x``, so ``t = C x**c`` exactly
  (``d log|t|/d log x`` is constant); it is bounded along the path where ``-c >= 0`` (``c >= 0`` towards 0) is
  proved on the domain, a goal of the domain proof over the parameters of ``c`` (the ``signed`` callable);
* every other term goes to SymPy's limit, summed: the **rest**, whose limit must be finite. That limit is
  the only step SymPy's limit takes; the caller cross-checks it in mpmath along the path.

The route is taken only where some term is a power law whose exponent has parameters (where SymPy's limit is
known to guess); it proves or says nothing (``None``), never refutes: a term whose exponent has the wrong sign
somewhere is left to the usual route and its confirmation.
"""
from __future__ import annotations

import sympy as sp

from .asymptotics import Unsupported, is_finite, is_infinite, limit

#: terms at most (an expansion into more is left to the usual route)
MAX_TERMS = 24


def exponent(t, x):
    """``c`` with ``t = C x**c`` exactly (``x t'/t``, summed over ``t``'s factors, free of ``x``), or None."""
    total = sp.Integer(0)
    try:
        for f in sp.Mul.make_args(t):
            if not f.has(x):
                continue
            base, e = f.as_base_exp()
            if e.has(x) and not isinstance(f, sp.exp):
                return None
            if isinstance(f, sp.exp):
                total += x * sp.diff(f.args[0], x)
            else:
                total += e * x * sp.diff(base, x) / base
        c = sp.cancel(sp.together(sp.expand_log(total, force=False)))
    except (TypeError, ValueError, NotImplementedError, RecursionError, ZeroDivisionError, sp.PolynomialError):
        return None
    if c.has(x) or c.has(sp.nan, sp.zoo, sp.oo, -sp.oo, sp.I):
        return None
    return c


def bounded(ratio, st, signed):
    """``(text, rest, rest_limit, exponents)`` when every term of ``ratio`` is bounded along ``st``'s path (see
    the module), else None. ``signed(g)``: a proof that ``g`` (in the claim's symbols) is ``>= 0`` on the
    domain, or None. ``rest`` is the sum of the terms left to SymPy's limit (0 when none), ``rest_limit`` its
    limit, both in the setting's symbols."""
    x = st.x
    terms = sp.Add.make_args(sp.expand_mul(ratio))
    if len(terms) > MAX_TERMS:
        return None
    laws, rest = [], []
    for t in terms:
        if not t.has(x):
            continue
        c = exponent(t, x)
        if c is None or c.is_number:
            rest.append(t)
            continue
        laws.append((t, c))
    if not laws:
        return None
    shown = []
    for t, c in laws:
        need = -c if st.to == sp.oo else c
        if signed(st.show(need)) is None:
            return None
        shown.append(f"{sp.sstr(st.show(c))[:80]} {'<=' if st.to == sp.oo else '>='} 0")
    rest_sum = sp.Add(*rest)
    lim = sp.Integer(0)
    if rest:
        try:
            lim = limit(rest_sum, st)
        except Unsupported:
            return None
        if is_infinite(lim) or not is_finite(lim, st):
            return None
    text = (f"every term of expr/rate is bounded: {len(laws)} power(s) of {st.x} with exponent "
            + "; ".join(shown) + " (proved on the domain)"
            + (f", the other terms -> {sp.sstr(st.show(lim))[:120]}" if rest else ""))
    return text, rest_sum, lim, [c for _, c in laws]


__all__ = ["MAX_TERMS", "bounded", "exponent"]
