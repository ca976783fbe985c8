"""Evaluate a claim's SymPy expressions at points of its domain: in mpmath (high precision, one
point) or in NumPy (double precision, many points at once).

Finite sums over a sequence parameter (``Sum(q[t]*sigma[t]**2, (t, 1, T))``) are expanded once the
integer parameters are known; each expanded expression is lambdified once and cached. ``Infimum``
and ``Supremum`` nodes (:mod:`dpverify.quantifiers`) are evaluated by a grid plus a bounded local
refinement over their variable, in mpmath; the value returned is attained (an upper estimate of
an infimum, a lower estimate of a supremum).

The double-precision route is a screen: the checks decide every point that is close to the
boundary, or that fails, again in mpmath (see :mod:`dpverify.checks.sampled`).
"""
from __future__ import annotations

import math
from typing import Any, Mapping

import mpmath
import numpy as np
import sympy as sp

from .quantifiers import Infimum, Extremum, extrema

DPS = 50


def _int_params(domain) -> list[str]:
    from .claims import Int

    return [n for n, p in domain.params.items() if isinstance(p, Int)]


def _seq_params(domain) -> list[str]:
    from .claims import Seq

    return [n for n, p in domain.params.items() if isinstance(p, Seq)]


def _seqs(domain):
    from .claims import Seq

    return [p for p in domain.params.values() if isinstance(p, Seq)]


def _symbols_by_name(expr: sp.Basic) -> dict[str, sp.Symbol]:
    return {str(s): s for s in expr.free_symbols if isinstance(s, sp.Symbol)}


class _ClaimView:
    """The parts of a claim that evaluation needs (so expressions can be compiled for a bare domain)."""

    def __init__(self, domain, definitions=None):
        self.domain = domain
        self.definitions = dict(definitions or {})

    def expand(self, expr):
        from .claims import expand_definitions

        return expand_definitions(expr, self.definitions)


class Compiled:
    """A SymPy expression ready to evaluate at points of a claim's domain.

    ``Compiled(expr, claim)(point, dps)`` evaluates one point in mpmath at ``dps`` digits;
    ``Compiled(expr, claim).batch(points)`` evaluates many points in double precision (NaN where
    the expression cannot be evaluated in NumPy; those points are for mpmath).
    """

    def __init__(self, expr: sp.Basic, claim, extra_ints: tuple[str, ...] = ()):
        self.expr = claim.expand(sp.sympify(expr))
        self.claim = claim
        self.domain = claim.domain
        names = _symbols_by_name(self.expr)
        lengths = {p.length for p in _seqs(claim.domain)}
        self.ints = [n for n in list(_int_params(claim.domain)) + list(extra_ints) if n in names or n in lengths]
        self.seqs = _seq_params(claim.domain)
        self._mp: dict[tuple, Any] = {}
        self._np: dict[tuple, Any] = {}
        self._ext = extrema(self.expr)
        self._loops: dict[str, Any] = {}
        self._np_failed = False
        self._int_names = set(_int_params(claim.domain)) | set(extra_ints)

    # ------------------------------------------------------------------ one compilation, sums as loops
    def _looped(self, module: str):
        """``(f, scalars, bases, inner)`` with sums and products printed as loops over their
        (integer) limits, compiled once for every value of the integer parameters; None where the
        expression needs SymPy first (integrals) or cannot be printed."""
        if module in self._loops:
            return self._loops[module]
        fn = None
        e = self.expr
        if not e.has(sp.Integral):
            try:
                placeholders = []
                for k, node in enumerate(extrema(e)):
                    d = sp.Symbol(f"_ext_{k}_")
                    placeholders.append((d, node))
                    e = e.xreplace({node: d})
                bases = sorted({ind.base for ind in e.atoms(sp.Indexed)}, key=str)
                base_names = {str(b) for b in bases}
                internal = {d for d, _ in placeholders}
                scalars = sorted((x for x in e.free_symbols if isinstance(x, sp.Symbol) and not isinstance(x, sp.Dummy)
                                  and str(x) not in base_names and x not in internal), key=str)
                f = _lambdify(list(scalars) + list(bases) + [d for d, _ in placeholders], e, module)
                inner = [_ExtremumEval(node, self.claim) for _, node in placeholders]
                fn = (f, [str(x) for x in scalars], [str(b) for b in bases], inner)
            except Exception:  # noqa: BLE001 - fall back to expanding the sums per integer values
                fn = None
        self._loops[module] = fn
        return fn

    # ------------------------------------------------------------------ preparation
    def _prepare(self, ints: tuple):
        e = self.expr
        names = _symbols_by_name(e)
        subs = {names[n]: sp.Integer(v) for n, v in zip(self.ints, ints) if n in names}
        e = e.subs(subs)
        placeholders = []
        for k, node in enumerate(extrema(e)):
            d = sp.Symbol(f"_ext_{k}_")
            placeholders.append((d, node))
            e = e.xreplace({node: d})
        if e.has(sp.Integral):
            e = _doit_positive(e, self.domain)
        if e.has(sp.Sum) or e.has(sp.Product):
            e = expand_finite(e)
        idx = sorted(e.atoms(sp.Indexed), key=sp.default_sort_key)
        repl, keys = {}, []
        for ind in idx:
            d = sp.Symbol(f"_ix_{ind.base}_{ind.indices[0]}_")
            repl[ind] = d
            keys.append((str(ind.base), int(ind.indices[0])))
        e = e.xreplace(repl)
        internal = set(repl.values()) | {d for d, _ in placeholders}
        scalars = sorted((s for s in e.free_symbols if s not in internal and not isinstance(s, sp.Dummy)), key=str)
        args = list(scalars) + [repl[i] for i in idx] + [d for d, _ in placeholders]
        return e, args, [str(s) for s in scalars], keys, placeholders, subs

    def _function(self, ints: tuple):
        fn = self._mp.get(ints)
        if fn is None:
            e, args, scalars, keys, placeholders, subs = self._prepare(ints)
            f = _lambdify(args, e, "mpmath")
            inner = [_ExtremumEval(node, self.claim) for _, node in placeholders]
            fn = (f, scalars, keys, inner)
            self._mp[ints] = fn
        return fn

    # ------------------------------------------------------------------ mpmath, one point
    def __call__(self, point: Mapping[str, Any], dps: int = DPS):
        looped = self._looped("mpmath")
        if looped is not None:
            f, scalars, bases, inner = looped
            with mpmath.workdps(dps):
                args = [int(point[s]) if s in self._int_names else _mp(point[s]) for s in scalars]
                args += [[None] + [_mp(v) for v in point[b]] for b in bases]
                args += [ev(point, dps) for ev in inner]
                return f(*args)
        ints = tuple(int(point[n]) for n in self.ints)
        f, scalars, keys, inner = self._function(ints)
        with mpmath.workdps(dps):
            args = [_mp(point[s]) for s in scalars]
            for base, i in keys:
                args.append(_mp(point[base][i - 1]))
            for ev in inner:
                args.append(ev(point, dps))
            return f(*args)

    # ------------------------------------------------------------------ NumPy, many points
    def batch(self, points: list[Mapping[str, Any]]) -> np.ndarray:
        """Double-precision values at ``points`` (NaN where NumPy cannot evaluate)."""
        out = np.full(len(points), np.nan)
        if self._ext:
            return out
        groups: dict[tuple, list[int]] = {}
        for k, pt in enumerate(points):
            try:
                groups.setdefault(tuple(int(pt[n]) for n in self.ints), []).append(k)
            except (KeyError, TypeError, ValueError):
                continue
        looped = None if self._np_failed else self._looped("numpy")
        scalar = self._looped("math")
        for ints, rows in groups.items():
            if looped is not None:
                f, scalars, bases, _ = looped
                try:
                    cols = [int(points[rows[0]][s]) if s in self._int_names else
                            np.array([float(points[r][s]) for r in rows]) for s in scalars]
                    cols += [[None] + [np.array([float(points[r][b][i]) for r in rows])
                                       for i in range(len(points[rows[0]][b]))] for b in bases]
                    with np.errstate(all="ignore"):
                        vals = f(*cols)
                    out[rows] = _real_or_nan(vals, len(rows))
                    continue
                except Exception:  # noqa: BLE001 - e.g. a function of the caller's that takes scalars
                    self._np_failed, looped = True, None
            if scalar is not None:  # point by point in double precision (math), sums as loops
                f, scalars, bases, _ = scalar
                for r in rows:
                    pt = points[r]
                    try:
                        args = [int(pt[s]) if s in self._int_names else float(pt[s]) for s in scalars]
                        args += [[None] + [float(v) for v in pt[b]] for b in bases]
                        v = f(*args)
                        out[r] = float(v) if not isinstance(v, complex) else (v.real if abs(v.imag) <= 1e-12 * max(1.0, abs(v.real)) else np.nan)
                    except (ValueError, ZeroDivisionError, OverflowError, TypeError):
                        out[r] = np.nan
                continue
            fn = self._np.get(ints)
            if fn is None:
                try:
                    e, args, scalars, keys, placeholders, _ = self._prepare(ints)
                    f = _lambdify(args, e, "numpy")
                    fn = (f, scalars, keys)
                except Exception:  # noqa: BLE001 - any SymPy/NumPy printing failure means "use mpmath"
                    fn = False
                self._np[ints] = fn
            if fn is False:
                continue
            f, scalars, keys = fn
            try:
                cols = [np.array([float(points[r][s]) for r in rows]) for s in scalars]
                cols += [np.array([float(points[r][b][i - 1]) for r in rows]) for b, i in keys]
                with np.errstate(all="ignore"):
                    vals = f(*cols)
                out[rows] = _real_or_nan(vals, len(rows))
            except Exception:  # noqa: BLE001 - NumPy could not evaluate (an implemented function, ...)
                self._np[ints] = False
        return out


_LAMBDIFIED: dict = {}


def as_expr(value, what: str) -> sp.Expr:
    """``value`` as a SymPy expression, or ``TypeError("<what> is not a SymPy expression")`` (``what`` names
    the field and shows the value, e.g. ``"noisy_gd: step = 'x +'"``)."""
    try:
        out = sp.sympify(value)
    except (sp.SympifyError, TypeError):
        raise TypeError(f"{what} is not a SymPy expression") from None
    if not isinstance(out, sp.Expr):
        raise TypeError(f"{what} is not a SymPy expression")
    return out


def _lambdify(args: list, expr: sp.Basic, module: str):
    """``sp.lambdify(args, expr, modules=module, dummify=False)``, once per process for equal arguments:
    the checks of a claim (and claims sharing a side) compile the same expressions, and printing one
    costs milliseconds. The function is pure, so sharing it changes no value."""
    key = (tuple(args), expr, module)
    try:
        f = _LAMBDIFIED.get(key)
    except TypeError:     # an unhashable piece: compiled every time
        return sp.lambdify(args, expr, modules=module, dummify=False)
    if f is None:
        f = _LAMBDIFIED[key] = sp.lambdify(args, expr, modules=module, dummify=False)
    return f


def golden_section(f, a, b, iterations: int, sqrt=math.sqrt):
    """Minimise a unimodal ``f`` on ``[a, b]`` by golden-section search: ``(argmin, min)`` of the
    points evaluated (works in floats, or mpmath numbers with ``sqrt=mpmath.sqrt``)."""
    phi = (sqrt(5) - 1) / 2
    c, d = b - phi * (b - a), a + phi * (b - a)
    fc, fd = f(c), f(d)
    for _ in range(iterations):
        if fc < fd:
            b, d, fd = d, c, fc
            c = b - phi * (b - a)
            fc = f(c)
        else:
            a, c, fc = c, d, fd
            d = a + phi * (b - a)
            fd = f(d)
    return (c, fc) if fc < fd else (d, fd)


def _real_or_nan(vals, n: int) -> np.ndarray:
    vals = np.broadcast_to(np.asarray(vals, dtype=complex if np.iscomplexobj(vals) else float), (n,))
    if np.iscomplexobj(vals):
        bad = np.abs(vals.imag) > 1e-12 * np.maximum(1.0, np.abs(vals.real))
        vals = np.where(bad, np.nan, vals.real)
    return vals


class _ExtremumEval:
    """Evaluate ``Infimum``/``Supremum(expr, var, lo, hi)`` at a point (grid + bounded refinement)."""

    GRID = 97

    def __init__(self, node: Extremum, claim):
        self.node = node
        self.sign = 1 if isinstance(node, Infimum) else -1
        self.var = str(node.var)
        view = _ClaimView(claim.domain, getattr(claim, "definitions", {}))
        self.inner = Compiled(node.expr, view)
        self.dinner = Compiled(sp.diff(view.expand(node.expr), node.var), view)
        lo, hi = node.bounds
        self.lo = None if lo in (-sp.oo,) else Compiled(lo, view)
        self.hi = None if hi in (sp.oo,) else Compiled(hi, view)

    def _x(self, u, lo, hi):
        if lo is not None and hi is not None:
            return lo + (hi - lo) / (1 + mpmath.exp(-u))
        if lo is not None:
            return lo + mpmath.exp(u)
        if hi is not None:
            return hi - mpmath.exp(u)
        return u

    def __call__(self, point, dps):
        with mpmath.workdps(dps):
            lo = None if self.lo is None else self.lo(point, dps)
            hi = None if self.hi is None else self.hi(point, dps)
            span = 30.0 if (lo is None or hi is None) else 40.0

            def g(u):
                x = self._x(mpmath.mpf(u), lo, hi)
                try:
                    v = self.inner({**point, self.var: x}, dps)
                except (ZeroDivisionError, ValueError, OverflowError):
                    return mpmath.inf
                if isinstance(v, mpmath.mpc):
                    if abs(v.imag) > mpmath.mpf(10) ** (-dps // 2) * max(1, abs(v.real)):
                        return mpmath.inf
                    v = v.real
                return self.sign * v if mpmath.isfinite(v) else mpmath.inf

            us = [-span + 2 * span * k / (self.GRID - 1) for k in range(self.GRID)]
            vals = [g(u) for u in us]
            k = min(range(len(vals)), key=lambda i: vals[i])
            best_u, best = us[k], vals[k]
            if best == mpmath.inf:
                raise ValueError(f"{type(self.node).__name__}: no finite value over {self.var}")
            # golden-section refinement in mpmath on the bracket around the best grid point
            u, v = golden_section(g, mpmath.mpf(us[max(0, k - 1)]), mpmath.mpf(us[min(len(us) - 1, k + 1)]), 60,
                                  sqrt=mpmath.sqrt)
            if v < best:
                best_u, best = u, v
            # Newton on the exact derivative (SymPy's), so that the attained value is accurate to the
            # working precision, not only to the golden section's bracket
            try:
                with mpmath.workdps(dps + 10):
                    x0 = self._x(mpmath.mpf(best_u), lo, hi)
                    xstar = mpmath.findroot(lambda x: mpmath.re(self.dinner({**point, self.var: x}, dps + 10)), x0,
                                            tol=mpmath.mpf(10) ** (-2 * dps))
                inside = (lo is None or xstar > lo) and (hi is None or xstar < hi)
                if inside:
                    v = self.inner({**point, self.var: xstar}, dps)
                    v = self.sign * mpmath.re(v)
                    if mpmath.isfinite(v) and v < best:
                        best = v
            except (ValueError, ZeroDivisionError, OverflowError, TypeError):
                pass
            return self.sign * best


def expand_finite(e: sp.Basic) -> sp.Basic:
    """Expand sums and products whose limits are integers into explicit terms (outermost first),
    without SymPy's search for closed forms; others are left to ``doit``."""
    if isinstance(e, (sp.Sum, sp.Product)):
        f, limits = e.function, list(e.limits)
        v, a, b = limits[-1]
        if len(limits) > 1:
            f = type(e)(f, *limits[:-1])
        if not (a.is_Integer and b.is_Integer):
            return e.doit()
        terms = [expand_finite(f.xreplace({v: sp.Integer(k)})) for k in range(int(a), int(b) + 1)]
        if isinstance(e, sp.Sum):
            return sp.Add(*terms) if terms else sp.Integer(0)
        return sp.Mul(*terms) if terms else sp.Integer(1)
    if e.args and (e.has(sp.Sum) or e.has(sp.Product)):
        return e.func(*[expand_finite(x) for x in e.args])
    return e


def _doit_positive(e: sp.Basic, domain) -> sp.Basic:
    """Evaluate integrals with the domain's positive parameters declared positive to SymPy."""
    from .claims import Real

    pos = {}
    for sym in e.free_symbols:
        p = domain.params.get(str(sym))
        if isinstance(p, Real) and ((p.gt is not None and p.gt >= 0) or (p.ge is not None and p.ge > 0)):
            pos[sym] = sp.Symbol(str(sym), positive=True)
    back = {v: k for k, v in pos.items()}
    return e.xreplace(pos).doit().xreplace(back)


def _mp(v):
    if isinstance(v, str):
        raise TypeError(f"cannot evaluate with a string value {v!r}")
    if isinstance(v, (list, tuple)):
        raise TypeError(f"cannot evaluate with a sequence value {v!r} where a number is expected")
    return mpmath.mpf(v) if not isinstance(v, mpmath.mpf) else v


def evaluate(expr: sp.Basic, claim, point: Mapping[str, Any], dps: int = DPS):
    """Evaluate ``expr`` (with the claim's definitions) at ``point`` in mpmath."""
    return Compiled(expr, claim)(point, dps)


def is_finite_real(x) -> bool:
    try:
        if isinstance(x, mpmath.mpc):
            if abs(x.imag) > mpmath.mpf(10) ** (-DPS // 2) * max(1, abs(x.real)):
                return False
            x = x.real
        if isinstance(x, (int, float)):
            return math.isfinite(x)
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
    if isinstance(v, (bool, str)):
        return v
    if isinstance(v, (int, np.integer)):
        return int(v)
    try:
        f = float(v)
    except (TypeError, ValueError):
        return str(v)
    return float(f"{f:.17g}")
