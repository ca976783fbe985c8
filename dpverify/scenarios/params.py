"""Parameter maps: each of a scenario's parameters as an expression in a claim's symbols
(``step=1/M``, ``noise_std=G*sigma[t]/N``), compiled for one claim; per-step parameters may use the
index symbol ``t`` (1 to the horizon)."""
from __future__ import annotations

import functools
from typing import Any, Mapping

import mpmath
import numpy as np
import sympy as sp

from ..numeric import Compiled, as_expr

T_INDEX = sp.Symbol("t")


def _refuse_unevaluable(owner: str, key: str, e: sp.Expr) -> None:
    """A scenario parameter must evaluate to a number at every point: refuse, where the scenario is
    built, a quantifier (``Infimum`` / ``Supremum``) or an undefined function in it."""
    from ..quantifiers import extrema

    if extrema(e):
        raise TypeError(f"{owner}: {key} = {e} contains a quantifier ({type(extrema(e)[0]).__name__}); a scenario "
                        f"parameter needs a number at each point: give {key} a closed form, or state the "
                        "quantified bound in the statement (e.g. bound=...) instead")
    undefined = sorted({str(f.func) for f in e.atoms(sp.core.function.AppliedUndef)
                        if not hasattr(f, "_imp_")})
    if undefined:
        raise TypeError(f"{owner}: {key} = {e} uses the undefined function(s) {', '.join(undefined)}; a scenario "
                        "parameter needs an expression that evaluates to a number")


class ParamMap:
    """Scenario parameter -> expression in the claim's symbols.

    ``required`` and ``optional`` name the scenario's parameters; ``stepwise`` those that may use
    the index symbol (evaluated for t = 1..horizon). Values may be SymPy expressions, numbers, or
    strings (parsed by SymPy).
    """

    def __init__(self, owner: str, mapping: Mapping[str, Any], required=(), optional=(), stepwise=(),
                 index: sp.Symbol = T_INDEX):
        self.owner = owner
        self.required, self.optional, self.stepwise = tuple(required), tuple(optional), tuple(stepwise)
        self.index = index
        known = set(self.required) | set(self.optional)
        unknown = sorted(set(mapping) - known)
        if unknown:
            raise TypeError(f"{owner}: unknown parameter(s) {', '.join(unknown)}; it takes "
                            f"{', '.join(sorted(known))}")
        missing = [k for k in self.required if k not in mapping]
        if missing:
            raise TypeError(f"{owner}: missing parameter(s) {', '.join(missing)} (map each to an expression "
                            "in your claim's symbols)")
        self.exprs: dict[str, sp.Basic] = {}
        for k, v in mapping.items():
            e = as_expr(v, f"{owner}: {k} = {v!r}")
            _refuse_unevaluable(owner, k, e)
            self.exprs[k] = e

    def __contains__(self, key) -> bool:
        return key in self.exprs

    def validate_for(self, claim) -> str | None:
        allowed = set(claim.domain.params) | {str(k) for k in claim.definitions}
        for k, e in self.exprs.items():
            names = claim.expanded_names(e)
            if k in self.stepwise:
                names.discard(str(self.index))
            elif str(self.index) in names and str(self.index) not in allowed:
                return f"{self.owner}: {k} = {e} uses the step index {self.index}, but {k} is not per-step"
            unknown = sorted(names - allowed)
            if unknown:
                return (f"{self.owner}: {k} = {e} uses {', '.join(unknown)}, which are not parameters of the "
                        f"claim's domain ({', '.join(claim.domain.params)}) nor definitions")
        return None

    def bind(self, claim) -> "BoundMap":
        return BoundMap(self, claim)


class BoundMap:
    """A :class:`ParamMap` compiled for one claim."""

    def __init__(self, pmap: ParamMap, claim):
        self.pmap, self.claim = pmap, claim
        self._scalar = {k: Compiled(e, claim) for k, e in pmap.exprs.items() if k not in pmap.stepwise}
        self._float = {k: _float_function(claim.expand(e)) for k, e in pmap.exprs.items() if k not in pmap.stepwise}
        self._step = {k: _Stepwise(e, claim, pmap.index) for k, e in pmap.exprs.items() if k in pmap.stepwise}

    def has(self, key) -> bool:
        return key in self.pmap.exprs

    def scalar(self, key, point, dps=None):
        if key in self._step:
            vals = self._step[key](point, 1, dps)
            return vals[0]
        if dps is None:
            ff = self._float[key]
            if ff is not None:
                fn, names = ff
                try:
                    v = float(fn(*[float(point[n]) for n in names]))
                    if v == v and abs(v) != float("inf"):
                        return v
                except (ValueError, TypeError, ZeroDivisionError, OverflowError, KeyError):
                    pass
            return float(mpmath.re(self._scalar[key](point, 30)))
        return mpmath.re(self._scalar[key](point, dps))

    def steps(self, key, point, T: int, dps=None):
        """Values at t = 1..T (a constant expression is repeated)."""
        if key in self._step:
            return self._step[key](point, T, dps)
        v = self.scalar(key, point, dps)
        return [v] * T

    def solve(self, measured: Mapping[str, float], point: dict, order) -> dict:
        """Assign claim parameters so that each scenario parameter in ``measured`` takes its value.

        A map that is a bare symbol assigns it; otherwise the one claim symbol of the map not yet
        known is solved for (SymPy, positive real root). Returns the updated point.
        """
        pt = dict(point)
        for key in order:
            if key not in measured or key not in self.pmap.exprs:
                continue
            e = self.claim.expand(self.pmap.exprs[key])
            unknown = [s for s in e.free_symbols if str(s) not in pt]
            if not unknown:
                continue
            if len(unknown) > 1:
                raise ValueError(f"{self.pmap.owner}: {key} = {e} has several unknowns "
                                 f"({', '.join(map(str, unknown))}); fix all but one")
            s = unknown[0]
            rhs = sp.nsimplify(measured[key]) if isinstance(measured[key], int) else sp.Float(measured[key], 30)
            eq = e.subs({sym: pt[str(sym)] for sym in e.free_symbols if str(sym) in pt}) - rhs
            if eq.free_symbols == {s} and e == s:
                pt[str(s)] = measured[key]
                continue
            val = _positive_root(eq, s)
            if val is None:
                raise ValueError(f"{self.pmap.owner}: cannot solve {key} = {e} = {measured[key]} for {s}")
            pt[str(s)] = int(round(val)) if abs(val - round(val)) < 1e-12 and _is_int_param(self.claim, str(s)) else val
        return pt


@functools.lru_cache(maxsize=1024)
def _positive_root(eq: sp.Basic, s: sp.Symbol) -> float | None:
    """The first positive real root of ``eq = 0`` in ``s`` that SymPy's ``solve`` returns, as a float
    (None when there is none), memoised: a Monte Carlo search completes the same point several times
    (a third of the solves of the main job repeat one, at ~14 ms each)."""
    sols = [v for v in sp.solve(eq, s) if v.is_real and v > 0]
    return float(sols[0]) if sols else None


def _float_function(expr):
    """``(f, names)`` evaluating ``expr`` in double precision (``math``), or None where it cannot."""
    if expr.atoms(sp.Indexed) or expr.has(sp.Sum) or expr.has(sp.Product) or expr.has(sp.Integral):
        return None
    syms = sorted(expr.free_symbols, key=str)
    try:
        return sp.lambdify(syms, expr, modules="math"), [str(s) for s in syms]
    except Exception:  # noqa: BLE001 - an expression math cannot print is evaluated in mpmath
        return None


def _is_int_param(claim, name) -> bool:
    from ..claims import Int

    return isinstance(claim.domain.params.get(name), Int)


class _Stepwise:
    """A per-step expression (may use the index symbol and sequence entries x[t], x[T + 1 - t], ...)."""

    def __init__(self, expr, claim, index: sp.Symbol):
        e = claim.expand(sp.sympify(expr))
        self.index = index
        tt = sp.Dummy("t")
        idx = sorted(e.atoms(sp.Indexed), key=sp.default_sort_key)
        self.gathers = []
        repl = {}
        for k, ind in enumerate(idx):
            d = sp.Dummy(f"x{k}")
            repl[ind] = d
            ie = ind.indices[0].xreplace({index: tt})
            syms = sorted(ie.free_symbols - {tt}, key=str)
            self.gathers.append((str(ind.base), sp.lambdify([tt] + syms, ie, modules="math"), [str(s) for s in syms]))
        e = e.xreplace(repl).xreplace({index: tt})
        self.scalars = sorted((s for s in e.free_symbols if not isinstance(s, sp.Dummy)), key=str)
        args = [tt] + self.scalars + [repl[i] for i in idx]
        self.f_np = sp.lambdify(args, e, modules="numpy")
        self.f_mp = sp.lambdify(args, e, modules="mpmath")
        self.names = [str(s) for s in self.scalars]

    def __call__(self, point, T: int, dps=None):
        ts = list(range(1, int(T) + 1))
        gathered = []
        for base, fidx, syms in self.gathers:
            vals = point[base]
            extra = [point[s] for s in syms]
            gathered.append([vals[int(fidx(t, *extra)) - 1] for t in ts])
        if dps is None:
            with np.errstate(all="ignore"):
                out = self.f_np(np.asarray(ts, dtype=float), *[float(point[n]) for n in self.names],
                                *[np.asarray(g, dtype=float) for g in gathered])
            return [float(v) for v in np.broadcast_to(np.asarray(out, dtype=float), (len(ts),))]
        with mpmath.workdps(dps):
            sc = [mpmath.mpf(point[n]) for n in self.names]
            return [mpmath.re(self.f_mp(mpmath.mpf(t), *sc, *[mpmath.mpf(g[k]) for g in gathered]))
                    for k, t in enumerate(ts)]


__all__ = ["BoundMap", "ParamMap", "T_INDEX"]
