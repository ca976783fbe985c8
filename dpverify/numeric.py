"""Evaluate a claim's SymPy expressions at a point, at high precision (mpmath).

Finite sums over a sequence parameter (``Sum(q[t]*sigma[t]**2, (t, 1, T))``) are expanded once
the integer parameters are known; the expanded expression is lambdified for mpmath and cached.
"""
from __future__ import annotations

from typing import Any, Mapping

import mpmath
import sympy as sp

DPS = 50


def _int_params(domain) -> list[str]:
    from .spec import Int

    return [n for n, p in domain.params.items() if isinstance(p, Int)]


def _seq_params(domain) -> list[str]:
    from .spec import Seq

    return [n for n, p in domain.params.items() if isinstance(p, Seq)]


class Compiled:
    """A SymPy expression ready to evaluate at points of a domain."""

    def __init__(self, expr: sp.Basic, claim, extra_ints: tuple[str, ...] = ()):
        self.expr = claim.expand(sp.sympify(expr))
        self.domain = claim.domain
        names = _symbols_by_name(self.expr)
        self.ints = [n for n in list(_int_params(claim.domain)) + list(extra_ints)
                     if n in names or n in {p.length for p in _seqs(claim.domain)}]
        self.seqs = _seq_params(claim.domain)
        self._cache: dict[tuple, Any] = {}

    def _function(self, ints: tuple):
        fn = self._cache.get(ints)
        if fn is not None:
            return fn
        e = self.expr
        names = _symbols_by_name(e)
        subs = {names[n]: sp.Integer(v) for n, v in zip(self.ints, ints) if n in names}
        e = e.subs(subs)
        if e.has(sp.Integral):
            e = _doit_positive(e, self.domain)
        if e.has(sp.Sum) or e.has(sp.Product):
            e = e.doit()
        # Replace indexed entries q[i] by plain symbols.
        idx = sorted(e.atoms(sp.Indexed), key=sp.default_sort_key)
        repl = {}
        keys = []
        for ind in idx:
            d = sp.Dummy(f"{ind.base}_{ind.indices[0]}")
            repl[ind] = d
            keys.append((str(ind.base), int(ind.indices[0])))
        e = e.xreplace(repl)
        scalars = sorted((s for s in e.free_symbols if not isinstance(s, sp.Dummy)), key=str)
        args = list(scalars) + [repl[i] for i in idx]
        f = sp.lambdify(args, e, modules="mpmath")
        fn = (f, [str(s) for s in scalars], keys)
        self._cache[ints] = fn
        return fn

    def __call__(self, point: Mapping[str, Any], dps: int = DPS):
        ints = tuple(int(point[n]) for n in self.ints)
        f, scalars, keys = self._function(ints)
        with mpmath.workdps(dps):
            args = [_mp(point[s]) for s in scalars]
            for base, i in keys:
                args.append(_mp(point[base][i - 1]))
            return f(*args)


def _doit_positive(e: sp.Basic, domain) -> sp.Basic:
    """Evaluate integrals with the domain's positive parameters declared positive to SymPy."""
    from .spec import Real

    pos = {}
    for sym in e.free_symbols:
        p = domain.params.get(str(sym))
        if isinstance(p, Real) and ((p.gt is not None and p.gt >= 0) or (p.ge is not None and p.ge > 0)):
            pos[sym] = sp.Symbol(str(sym), positive=True)
    back = {v: k for k, v in pos.items()}
    return e.xreplace(pos).doit().xreplace(back)


def _seqs(domain):
    from .spec import Seq

    return [p for p in domain.params.values() if isinstance(p, Seq)]


def _symbols_by_name(expr: sp.Basic) -> dict[str, sp.Symbol]:
    return {str(s): s for s in expr.free_symbols if isinstance(s, sp.Symbol)}


def _mp(v):
    if isinstance(v, str):
        raise TypeError(f"cannot evaluate with a string value {v!r}")
    return mpmath.mpf(v) if not isinstance(v, mpmath.mpf) else v


def evaluate(expr: sp.Basic, claim, point: Mapping[str, Any], dps: int = DPS):
    """Evaluate ``expr`` (with the claim's definitions) at ``point`` in mpmath."""
    return Compiled(expr, claim)(point, dps)


def relative_margin(lhs, rhs):
    """(rhs - lhs) / max(|lhs|, |rhs|, tiny): >= 0 where ``lhs <= rhs`` holds."""
    scale = max(abs(lhs), abs(rhs), mpmath.mpf(10) ** (-DPS // 2))
    return (rhs - lhs) / scale


def is_finite_real(x) -> bool:
    try:
        if isinstance(x, mpmath.mpc):
            if abs(x.imag) > mpmath.mpf(10) ** (-DPS // 2) * max(1, abs(x.real)):
                return False
            x = x.real
        return bool(mpmath.isfinite(x))
    except (TypeError, ValueError):
        return False


def real(x):
    return x.real if isinstance(x, mpmath.mpc) else x


def jsonable(point: Mapping[str, Any]) -> dict:
    """A point as plain JSON values (floats rounded to 17 significant digits, lists kept)."""
    return {k: _json_value(v) for k, v in point.items()}


def _json_value(v):
    if isinstance(v, dict):
        return {k: _json_value(x) for k, x in v.items()}
    if isinstance(v, (list, tuple)):
        return [_json_value(x) for x in v]
    if hasattr(v, "tolist") and not isinstance(v, (str, bytes)):
        return _json_value(v.tolist())
    return _num(v)


def _num(v):
    if isinstance(v, bool) or isinstance(v, str):
        return v
    if isinstance(v, int):
        return v
    try:
        f = float(v)
    except (TypeError, ValueError):
        return str(v)
    if f == int(f) and abs(f) < 2**53 and isinstance(v, int):
        return int(f)
    return float(f"{f:.17g}")
