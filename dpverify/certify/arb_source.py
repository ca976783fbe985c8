"""Print a SymPy expression as Python source that evaluates it in ball arithmetic (python-flint ``arb``).

The source is a single Python expression over ``P`` (the point: a real parameter is an ``arb``, an
integer parameter a Python ``int``, a sequence a list ``[None, x_1, ..., x_n]``) and the helper
functions of the standalone checker (:data:`dpverify.certify.runtime.RUNTIME`). Every number is
printed exactly: integers as integers, rationals and floats (their exact binary value) as ``q(p, r)``.

Two modes: ``arb`` (a real value: a ball) and ``int`` (an index or a sum's limit: exact Python
integers). What cannot be printed exactly -- a quantifier (``Infimum``/``Supremum``), an integral, a
derivative, a function the checker does not know, a sum with a limit that is not an integer
expression -- raises :class:`Unprintable` naming it.
"""
from __future__ import annotations

from fractions import Fraction

import sympy as sp


class Unprintable(ValueError):
    """The expression has a part the ball-arithmetic printer cannot write exactly."""


# SymPy function -> arb method name (called on the argument's ball).
_METHODS = {
    sp.exp: "exp", sp.log: "log", sp.sin: "sin", sp.cos: "cos", sp.tan: "tan", sp.asin: "asin",
    sp.acos: "acos", sp.atan: "atan", sp.sinh: "sinh", sp.cosh: "cosh", sp.tanh: "tanh",
    sp.asinh: "asinh", sp.acosh: "acosh", sp.atanh: "atanh", sp.erf: "erf", sp.erfc: "erfc",
    sp.gamma: "gamma", sp.loggamma: "lgamma", sp.sign: "sgn", sp.floor: "floor", sp.ceiling: "ceil",
}
_RELOPS = {"<": "<", "<=": "<=", ">": ">", ">=": ">=", "==": "==", "!=": "!="}


def rational_text(value) -> str:
    """An exact ``"p/q"`` for a number (a float's exact binary value, not its decimal rounding)."""
    if isinstance(value, bool):
        raise TypeError(f"{value!r} is not a number")
    if isinstance(value, sp.Basic):
        value = sp.Rational(value)
        f = Fraction(int(value.p), int(value.q))
    else:
        f = Fraction(value)
    return f"{f.numerator}/{f.denominator}"


class ArbSource:
    """Prints expressions of one claim: ``real``, ``ints`` and ``seqs`` name its parameters by kind."""

    def __init__(self, real=(), ints=(), seqs=()):
        self.real, self.ints, self.seqs = set(real), set(ints), set(seqs)

    def __call__(self, expr) -> str:
        return self.arb(sp.sympify(expr), {})

    # ----------------------------------------------------------------- real values (balls)
    def arb(self, e, bound: dict) -> str:  # noqa: C901 - one case per kind of node
        if isinstance(e, sp.Symbol):
            name = str(e)
            if name in bound:
                return f"arb({bound[name]})"
            if name in self.real:
                return f"P[{name!r}]"
            if name in self.ints:
                return f"arb(P[{name!r}])"
            raise Unprintable(f"symbol {name} is not a real or integer parameter of the claim")
        if isinstance(e, sp.Indexed):
            return self._indexed(e, bound)
        if e is sp.pi:
            return "arb.pi()"
        if e is sp.E:
            return "arb.const_e()"
        if e is sp.EulerGamma:
            return "arb.const_euler()"
        if isinstance(e, sp.Integer):
            return f"arb({int(e)})"
        if isinstance(e, (sp.Rational, sp.Float)):
            if isinstance(e, sp.Float) and not e.is_finite:
                raise Unprintable(f"the number {e} is not finite")
            p, q = rational_text(e).split("/")
            return f"q({p}, {q})"
        if e.is_Number:
            raise Unprintable(f"the number {e} is not a finite real")
        if isinstance(e, sp.Add):
            return "(" + " + ".join(self.arb(a, bound) for a in e.args) + ")"
        if isinstance(e, sp.Mul):
            return "(" + " * ".join(self.arb(a, bound) for a in e.args) + ")"
        if isinstance(e, sp.Pow):
            return self._pow(e, bound)
        if isinstance(e, sp.Abs):
            return f"abs({self.arb(e.args[0], bound)})"
        if isinstance(e, (sp.Min, sp.Max)):
            fn = "_min" if isinstance(e, sp.Min) else "_max"
            return f"{fn}(" + ", ".join(self.arb(a, bound) for a in e.args) + ")"
        if isinstance(e, sp.LambertW):
            if len(e.args) > 1 and e.args[1] != 0:
                raise Unprintable(f"{e}: only the principal branch of LambertW is printed")
            return f"{self.arb(e.args[0], bound)}.lambertw()"
        if isinstance(e, sp.factorial):
            return f"({self.arb(e.args[0], bound)} + 1).gamma()"
        if isinstance(e, sp.Function) and type(e) in _METHODS and len(e.args) == 1:
            return f"{self.arb(e.args[0], bound)}.{_METHODS[type(e)]}()"
        if isinstance(e, sp.Piecewise):
            parts = ", ".join(f"(lambda: {self.cond(c, bound)}, lambda: {self.arb(v, bound)})" for v, c in e.args)
            return f"_piecewise({parts})"
        if isinstance(e, (sp.Sum, sp.Product)):
            return self._loop(e, bound)
        if isinstance(e, sp.Function) and hasattr(type(e), "_imp_"):
            raise Unprintable(f"it calls {type(e).__name__}, a function computed numerically in Python "
                              "(a simulation or a data experiment), which has no ball-arithmetic form")
        raise Unprintable(f"{type(e).__name__} ({sp.sstr(e)[:80]}) has no ball-arithmetic printer")

    def _pow(self, e, bound) -> str:
        b, x = e.args
        if b is sp.E:
            return f"{self.arb(x, bound)}.exp()"
        base = self.arb(b, bound)
        if isinstance(x, sp.Integer):
            return f"({base} ** {int(x)})"
        if isinstance(x, sp.Rational):
            return f"_rpow({base}, {int(x.p)}, {int(x.q)})"
        return f"_pow({base}, {self.arb(x, bound)})"

    def _indexed(self, e, bound) -> str:
        name = str(e.base)
        if name not in self.seqs or len(e.indices) != 1:
            raise Unprintable(f"{e}: {name} is not a sequence parameter of the claim")
        return f"P[{name!r}][_index({self.int(e.indices[0], bound)}, len(P[{name!r}]))]"

    def _loop(self, e, bound) -> str:
        fn = "_sum" if isinstance(e, sp.Sum) else "_prod"
        if len(e.limits) != 1:
            return self.arb(type(e)(type(e)(e.function, *e.limits[1:]), e.limits[0]), bound)
        var, lo, hi = e.limits[0]
        if not (lo.is_finite is not False and hi.is_finite is not False) or lo.has(sp.oo, -sp.oo) \
                or hi.has(sp.oo, -sp.oo):
            raise Unprintable(f"{type(e).__name__} over {var} from {lo} to {hi}: an infinite range")
        name = f"_{var}"
        inner = dict(bound)
        inner[str(var)] = name
        return (f"{fn}(lambda {name}: {self.arb(e.function, inner)}, "
                f"{self.int(lo, bound)}, {self.int(hi, bound)})")

    # ----------------------------------------------------------------- integers (indices, limits)
    def int(self, e, bound) -> str:
        e = sp.sympify(e)
        if isinstance(e, sp.Symbol):
            name = str(e)
            if name in bound:
                return bound[name]
            if name in self.ints:
                return f"P[{name!r}]"
            raise Unprintable(f"{name} in an index or a sum's limit is not an integer parameter")
        if isinstance(e, sp.Integer):
            return str(int(e))
        if isinstance(e, sp.Add):
            return "(" + " + ".join(self.int(a, bound) for a in e.args) + ")"
        if isinstance(e, sp.Mul):
            return "(" + " * ".join(self.int(a, bound) for a in e.args) + ")"
        if isinstance(e, sp.Pow) and isinstance(e.args[1], sp.Integer) and e.args[1] >= 0:
            return f"({self.int(e.args[0], bound)} ** {int(e.args[1])})"
        if isinstance(e, (sp.floor, sp.ceiling)):
            return f"{'_floor' if isinstance(e, sp.floor) else '_ceil'}({self.arb(e.args[0], bound)})"
        if isinstance(e, (sp.Min, sp.Max)):
            return f"{'min' if isinstance(e, sp.Min) else 'max'}(" + ", ".join(self.int(a, bound) for a in e.args) + ")"
        raise Unprintable(f"{sp.sstr(e)[:80]} in an index or a sum's limit is not an integer expression")

    # ----------------------------------------------------------------- conditions
    def cond(self, c, bound) -> str:
        if c is sp.true:
            return "True"
        if c is sp.false:
            return "False"
        if isinstance(c, sp.core.relational.Relational) and c.rel_op in _RELOPS:
            return f"_cmp({self.arb(c.lhs, bound)}, {c.rel_op!r}, {self.arb(c.rhs, bound)})"
        if isinstance(c, sp.And):
            return "(" + " and ".join(self.cond(a, bound) for a in c.args) + ")"
        if isinstance(c, sp.Or):
            return "(" + " or ".join(self.cond(a, bound) for a in c.args) + ")"
        if isinstance(c, sp.Not):
            return f"(not {self.cond(c.args[0], bound)})"
        raise Unprintable(f"condition {sp.sstr(c)[:80]} has no ball-arithmetic printer")


__all__ = ["ArbSource", "Unprintable", "rational_text"]
