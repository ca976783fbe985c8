"""Quantified expressions: ``Infimum`` and ``Supremum`` over one parameter.

A bound such as "the (eps, delta)-DP of rho-zCDP is ``inf_{a > 1} rho a + ln(1/delta)/(a - 1)``" or
"the tuned rate ``min_eta ...``" is written with these SymPy functions, so that it is not silently
encoded as "for all eta"::

    a = sp.Symbol("a")
    eps_of_rho = Infimum(rho * a + sp.log(1 / delta) / (a - 1), a, 1, sp.oo)

Numerically (:mod:`dpverify.numeric`), the infimum is found by a dense grid in the parameter's
natural coordinate (log for a half-line) followed by a bounded local refinement, all in mpmath.
What is reported is therefore an *attained* value: an upper estimate of an infimum (a lower
estimate of a supremum), never certified to be the extremum. A verdict the estimate's error works
against is sound: a counterexample with an ``Infimum`` in the claimed bound (``rhs`` of ``lhs <= rhs``)
or a ``Supremum`` in ``lhs``, a ``holds`` at a point with them the other way round; the opposite
verdicts rest on the grid having found the extremum's basin (docs/reference/claims.md). The verdict
does not say which case applies.
"""
from __future__ import annotations

import sympy as sp


class Extremum(sp.Function):
    """``Extremum(expr, var, lo, hi)``: extremum of ``expr`` over ``var`` in the open interval (lo, hi)."""

    nargs = 4
    kind = ""

    @classmethod
    def eval(cls, expr, var, lo, hi):
        if not isinstance(var, sp.Symbol):
            raise TypeError(f"{cls.__name__}: the variable must be a SymPy Symbol, got {var!r}")
        if not expr.has(var):
            return expr
        return None

    @property
    def expr(self):
        return self.args[0]

    @property
    def var(self):
        return self.args[1]

    @property
    def bounds(self):
        return self.args[2], self.args[3]

    @property
    def free_symbols(self):
        expr, var, lo, hi = self.args
        return (expr.free_symbols - {var}) | lo.free_symbols | hi.free_symbols

    def _sympystr(self, printer):
        expr, var, lo, hi = self.args
        return f"{self.kind}_{{{printer._print(var)} in ({printer._print(lo)}, {printer._print(hi)})}} {printer._print(expr)}"


class Infimum(Extremum):
    """``inf_{var in (lo, hi)} expr`` (see the module docstring)."""

    kind = "inf"


class Supremum(Extremum):
    """``sup_{var in (lo, hi)} expr`` (see the module docstring)."""

    kind = "sup"


def extrema(expr: sp.Basic) -> list[Extremum]:
    """The ``Infimum`` / ``Supremum`` nodes of ``expr``, innermost first."""
    nodes = [a for a in sp.preorder_traversal(expr) if isinstance(a, Extremum)]
    return list(reversed(nodes))
