"""Minimiser check: the claimed optimum is feasible, has the claimed value, and cannot be beaten.

For a :class:`~dpverify.claims.Minimiser` (minimise ``objective`` over a positive sequence subject
to ``constraint == 0``): at points drawn from the domain, (1) the claimed argmin satisfies the
constraint and attains the claimed value, evaluated in mpmath, and (2) SLSQP started from several
feasible points (log-coordinates) must not find a feasible sequence with a smaller objective.
Symbolically, the Lagrange (KKT) condition at the claimed argmin is checked exactly for every
length ``T = 1..SMALL_T``: the multiplier implied by each coordinate must be the same.
"""
from __future__ import annotations

import math

import mpmath
import numpy as np
import scipy  # its submodules load on first use (scipy's lazy loading), not at start-up
import sympy as sp

from ..numeric import Compiled, is_finite_real, jsonable, real
from ..search import EvaluationError, Margin, search
from ..claims import Minimiser, Seq
from ..verdict import Basis, Evidence
from .base import Clock, Config, SymbolicTimeout, based, time_limit
from .kind import CheckKind

SMALL_T = 5
REL_TOL = 1e-9


def applies(stmt) -> bool:
    return isinstance(stmt, Minimiser)


def _length_name(claim) -> str:
    for p in claim.domain.params.values():
        if isinstance(p, Seq):
            return p.length
    raise ValueError("a Minimiser needs a sequence parameter in the domain")


@based(Basis("exact-cases", f"KKT stationarity, feasibility and value for every T = 1..{SMALL_T}"))
def check_symbolic(stmt: Minimiser, claim, cfg: Config) -> Evidence:
    clock = Clock()
    Tn = _length_name(claim)
    var = sp.IndexedBase(stmt.var)
    try:
        with time_limit(cfg.symbolic_timeout):
            for T in range(1, SMALL_T + 1):
                xs = [sp.Symbol(f"{stmt.var}_{i}", positive=True) for i in range(1, T + 1)]
                lam = sp.Symbol("lambda_")
                sub_T = {sp.Symbol(Tn): T}
                obj = claim.expand(stmt.objective).subs(sub_T).doit()
                con = claim.expand(stmt.constraint).subs(sub_T).doit()
                rep = {var[i]: xs[i - 1] for i in range(1, T + 1)}
                obj, con = obj.xreplace(rep), con.xreplace(rep)
                seqs = [n for n, p in claim.domain.params.items() if isinstance(p, Seq)]
                pos = {}
                for e in list(obj.atoms(sp.Indexed)) + list(con.atoms(sp.Indexed)):
                    if str(e.base) in seqs:
                        pos[e] = sp.Symbol(f"{e.base}_{e.indices[0]}", positive=True)
                obj, con = obj.xreplace(pos), con.xreplace(pos)
                claimed = [claim.expand(stmt.argmin).subs({stmt.index: i, **sub_T}).doit()
                           for i in range(1, T + 1)]
                claimed = [c.xreplace(pos) for c in claimed]
                at = dict(zip(xs, claimed))
                lagr = obj + lam * con
                mults = [sp.solve(sp.diff(lagr, x).subs(at), lam) for x in xs]
                if any(len(m) != 1 for m in mults):
                    return Evidence("symbolic", stmt.name, "inconclusive", seconds=clock.seconds,
                                    detail=f"could not solve the stationarity condition at T = {T}")
                first = mults[0][0]
                if any(sp.simplify(m[0] - first) != 0 for m in mults[1:]):
                    return Evidence("symbolic", stmt.name, "violated", seconds=clock.seconds,
                                    detail=f"KKT fails at T = {T}: coordinates imply different multipliers")
                if sp.simplify(con.subs(at)) != 0:
                    return Evidence("symbolic", stmt.name, "violated", seconds=clock.seconds,
                                    detail=f"claimed argmin is infeasible at T = {T}")
                val = claim.expand(stmt.value).subs(sub_T).doit().xreplace(pos)
                if sp.simplify(obj.subs(at) - val) != 0:
                    return Evidence("symbolic", stmt.name, "violated", seconds=clock.seconds,
                                    detail=f"objective at the claimed argmin differs from the value at T = {T}")
    except SymbolicTimeout:
        return Evidence("symbolic", stmt.name, "inconclusive", seconds=clock.seconds,
                        detail=f"SymPy timed out after {cfg.symbolic_timeout:g} s")
    return Evidence("symbolic", stmt.name, "holds", seconds=clock.seconds,
                    detail=f"KKT stationarity, feasibility and value exact for T = 1..{SMALL_T} "
                           "(a linear objective over a convex feasible set: KKT points are minima)")


@based(Basis("algebra", "the claimed argmin and value, and SLSQP from feasible points, at points of the domain"))
def check_numeric(stmt: Minimiser, claim, cfg: Config) -> Evidence:
    clock = Clock()
    Tn = _length_name(claim)
    obj = Compiled(stmt.objective, claim)
    con = Compiled(stmt.constraint, claim)
    val = Compiled(stmt.value, claim)
    arg = Compiled(stmt.argmin.subs(stmt.index, sp.Symbol("__t")), claim, extra_ints=("__t",))

    def claimed_argmin(pt):
        T = int(pt[Tn])
        out = []
        for i in range(1, T + 1):
            q = dict(pt)
            q["__t"] = i
            out.append(real(arg(q, cfg.dps)))
        return out

    def margin(pt):
        try:
            xs = claimed_argmin(pt)
            p2 = dict(pt, **{stmt.var: xs})
            c = real(con(p2, cfg.dps))
            o = real(obj(p2, cfg.dps))
            v = real(val(pt, cfg.dps))
        except (ZeroDivisionError, ValueError, OverflowError) as exc:
            raise EvaluationError(str(exc)) from exc
        if not all(is_finite_real(x) for x in (c, o, v)):
            raise EvaluationError("non-finite")
        scale = max(abs(o), abs(v), mpmath.mpf(1))
        if abs(c) > mpmath.mpf(10) ** -30 * scale or abs(o - v) > mpmath.mpf(10) ** -30 * scale:
            return Margin(-1.0, float(o), float(v))
        best = _optimise(pt, int(pt[Tn]), obj, con, stmt.var, [float(x) for x in xs])
        if best is None:
            return Margin(1.0, float(v), None)
        # value = the claimed minimum, bound = the best objective an optimiser found
        return Margin((best - float(v)) / float(scale) + REL_TOL, float(v), best)

    if cfg.at is not None:
        mg = margin(cfg.at)
        ok = mg.m >= 0
        return Evidence("sampled", stmt.name, "holds" if ok else "violated", samples=1, min_margin=mg.m,
                        value=mg.value, bound=mg.bound,
                        counterexample=None if ok else {"params": jsonable(cfg.at), "seed": cfg.seed},
                        seconds=clock.seconds, detail="claimed optimum against SLSQP at the pinned point")
    res = search(claim.domain.strategy(), margin, max(10, cfg.samples // 5),
                 cfg.seed_for(claim.id, stmt.name, "minimiser"))
    if res.counterexample is not None:
        return Evidence("sampled", stmt.name, "violated", samples=res.samples, min_margin=res.min_margin,
                        counterexample={"params": jsonable(res.counterexample), "seed": cfg.seed},
                        seconds=clock.seconds,
                        detail="the claimed optimum is infeasible, has another value, or was beaten")
    best = res.best
    return Evidence("sampled", stmt.name, "holds" if res.samples else "inconclusive", samples=res.samples,
                    min_margin=res.min_margin, seconds=clock.seconds, tightness=None,
                    value=None if best is None else best.value, bound=None if best is None else best.bound,
                    detail=(f"claimed argmin feasible with the claimed value ({cfg.dps} digits) and "
                            f"unbeaten by SLSQP from 4 starts, at {res.samples} points"))


def _optimise(pt, T, obj, con, var, claimed):
    def f(z):
        with np.errstate(over="ignore"):
            return float(real(obj(dict(pt, **{var: list(np.exp(z))}), 20)))

    def g(z):
        with np.errstate(over="ignore"):
            return float(real(con(dict(pt, **{var: list(np.exp(z))}), 20)))

    rng = np.random.default_rng(T)
    z0s = [np.log(claimed) + rng.normal(0, 1.0, T) for _ in range(3)] + [np.zeros(T)]
    best = None
    for z0 in z0s:
        try:
            r = scipy.optimize.minimize(f, z0, method="SLSQP", constraints=[{"type": "eq", "fun": g}],
                         options={"maxiter": 200, "ftol": 1e-12})
        except (ValueError, ArithmeticError):
            continue
        if r.success and abs(g(r.x)) < 1e-8 * max(1.0, abs(f(r.x))):
            v = f(r.x)
            if math.isfinite(v) and (best is None or v < best):
                best = v
    return best


KINDS = (
    CheckKind(name="minimiser-symbolic", label="symbolic", applies=applies, check=check_symbolic,
              basis_kinds=("exact-cases",), can_refute=True,
              no_certificate="the KKT conditions checked exactly for small T have no standalone checker",
              summary=f"the Lagrange (KKT) condition at the claimed argmin, exactly, for every T = 1..{SMALL_T}"),
    CheckKind(name="minimiser-sampled", label="sampled", applies=applies, check=check_numeric,
              basis_kinds=("algebra",), can_refute=True,
              no_certificate="a minimiser beaten or infeasible at a point (SLSQP, mpmath) has no standalone checker",
              summary="the claimed argmin's feasibility and value, and SLSQP from feasible points, at points of "
                      "the domain"),
)
