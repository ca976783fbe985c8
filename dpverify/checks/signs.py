"""Signs and finiteness of closed forms under their symbols' assumptions (SymPy's, then a proof by the
structure of the expression), for the asymptotic proofs (:mod:`.asymptotics`): ``is_positive`` and
``is_finite`` at every value of the symbols, or after each piece of the domain's bounds a setting carries."""
from __future__ import annotations

import sympy as sp

_REWRITES = (lambda e: e, sp.together, sp.factor)
_DEPTH = 6


def is_positive(e: sp.Basic, st=None) -> bool:
    """Whether ``e > 0`` (and finite) at every value of its symbols: SymPy's assumptions, then a proof by
    the structure of ``e`` (:func:`_positive`), after each of ``st.pieces`` (the domain's bounds) when
    the symbols alone do not show it."""
    return _on(e, st, _positive)


def is_finite(e: sp.Basic, st=None) -> bool:
    """Whether ``e`` is finite at every value of its symbols (see :func:`is_positive`)."""
    return _on(e, st, _finite)


def _on(e, st, prove) -> bool:
    e = sp.sympify(e)
    if prove(e, _DEPTH):
        return True
    if st is None or st.pieces == [{}]:
        return False
    return all(prove(e.xreplace(piece), _DEPTH) for piece in st.pieces)


def _sympy(e, attr) -> bool:
    """SymPy's own answer for ``e``, then for ``together(e)`` and ``factor(e)`` when ``e`` is small."""
    small = sp.count_ops(e) <= _SMALL
    for f in _REWRITES if small else _REWRITES[:1]:
        try:
            v = getattr(f(e), attr)
        except (TypeError, ValueError, NotImplementedError, RecursionError, AttributeError):
            continue
        if v is not None:
            return bool(v)
    return False


_SMALL = 60
POS, NONNEG = 2, 1


def _sign(e, depth) -> int:  # noqa: C901 - one case per kind of node
    """``POS`` when a proof shows ``e > 0`` (finite), ``NONNEG`` when it shows ``e >= 0``, 0 otherwise: SymPy's
    assumptions, then the structure of ``e``: products and powers of positive factors (an even power of a
    nonzero base), ``log(y)`` with ``y - 1 > 0``, ``exp`` of a real, sums of non-negative terms, and
    ``P - N`` (``P``, ``N`` sums of non-negative terms) by the sign of ``P^2 - N^2``."""
    if e.is_positive:
        return POS
    if e.is_nonnegative:
        return NONNEG
    if e.is_nonnegative is False or depth <= 0:
        return 0
    if isinstance(e, sp.Mul):
        out = POS
        for a in e.args:
            out = min(out, _sign(a, depth - 1))
            if not out:
                return 0
        return out
    if isinstance(e, sp.Pow):
        b, k = e.args
        if k.is_integer and k.is_even:
            if _nonzero(b, depth - 1):
                return POS
            return NONNEG if k.is_positive and b.is_extended_real else 0
        sb = _sign(b, depth - 1)
        if sb == POS and k.is_real:
            return POS
        if sb and k.is_positive:
            return NONNEG
        return 0
    if isinstance(e, sp.log):
        return _sign(sp.together(e.args[0] - 1), depth - 1)
    if isinstance(e, sp.exp):
        return POS if e.args[0].is_extended_real else 0
    if isinstance(e, sp.Add):
        if e.has(sp.log):
            c = sp.logcombine(e, force=False)
            if c != e:
                sc = _sign(c, depth - 1)
                if sc:
                    return sc
        signs = [_sign(a, depth - 1) for a in e.args]
        if all(signs):
            return POS if POS in signs else NONNEG
        neg = [-a for a, sg in zip(e.args, signs) if not sg]
        if not all(_sign(a, depth - 1) for a in neg):
            return _sympy_sign(e)
        P = sp.Add(*[a for a, sg in zip(e.args, signs) if sg])
        N = sp.Add(*neg)
        if P == 0 or sp.count_ops(P) + sp.count_ops(N) > 4 * _SMALL:
            return 0
        diff = sp.together(sp.expand(P**2 - N**2))
        sd = _sign(diff, depth - 2) if diff != e else 0
        return sd or _sympy_sign(diff)
    if isinstance(e, (sp.Min, sp.Max)):
        signs = [_sign(a, depth - 1) for a in e.args]
        return min(signs) if isinstance(e, sp.Min) else max(signs)
    return _sympy_sign(e)


def _sympy_sign(e) -> int:
    return POS if _sympy(e, "is_positive") else NONNEG if _sympy(e, "is_nonnegative") else 0


def _nonzero(e, depth) -> bool:
    return _sign(e, depth) == POS or _sign(-e, depth) == POS


def _positive(e, depth) -> bool:
    return _sign(e, depth) == POS


def _finite(e, depth) -> bool:  # noqa: C901 - one case per kind of node
    """A proof that ``e`` is finite: finite symbols and numbers, sums and products of finite terms, a
    finite power (a negative one of a nonzero base) and ``log`` of a positive finite argument."""
    if e.is_finite or e.is_zero:
        return True
    if e.is_finite is False or depth <= 0:
        return False
    if _nonzero(e, depth):
        return True
    if isinstance(e, (sp.Add, sp.Mul)):
        return all(_finite(a, depth - 1) for a in e.args)
    if isinstance(e, sp.Pow):
        b, k = e.args
        if not _finite(b, depth - 1):
            return False
        if k.is_nonnegative:
            return True
        return _nonzero(b, depth - 1)
    if isinstance(e, sp.log):
        return _positive(e.args[0], depth - 1) and _finite(e.args[0], depth - 1)
    if isinstance(e, (sp.exp, sp.sin, sp.cos, sp.atan, sp.Min, sp.Max)):
        return all(_finite(a, depth - 1) for a in e.args)
    return False


def is_infinite(v) -> bool:
    return v in (sp.oo, -sp.oo)


__all__ = ["is_finite", "is_infinite", "is_positive"]
