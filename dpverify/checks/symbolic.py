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

from ..spec import Identity, Inequality, Seq
from ..verdict import Evidence
from .base import Clock, Config, SymbolicTimeout, time_limit

SMALL_T = 6


def applies(stmt) -> bool:
    return isinstance(stmt, (Identity, Inequality))


def _is_zero(expr: sp.Basic) -> bool | None:
    if expr == 0:
        return True
    for f in (sp.simplify, lambda e: sp.simplify(sp.expand(e)), sp.powsimp, sp.radsimp):
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


def _nonneg(expr: sp.Basic, strict: bool) -> bool | None:
    cands = [expr]
    for f in (sp.simplify, sp.factor, sp.together, lambda e: sp.simplify(sp.expand(e))):
        try:
            cands.append(f(expr))
        except (TypeError, ValueError, NotImplementedError, RecursionError):
            pass
    for e in cands:
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
    if stmt.reparam:
        diff = diff.subs(stmt.reparam)
    if cfg.at is not None:
        diff = diff.subs({sp.Symbol(k): v for k, v in cfg.at.items() if not isinstance(v, (list, tuple))})
    return diff


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
