"""Print a SymPy expression as Python source that evaluates it in ball arithmetic (python-flint ``arb``).

The source is a single Python expression over ``P`` (the point: a real parameter is an ``arb``, an
integer parameter a Python ``int``, a sequence a list ``[None, x_1, ..., x_n]``) and the helper
functions of :data:`HELPERS` (part of the standalone checker's source,
:data:`dpverify.certify.runtime.RUNTIME`; :func:`evaluator` runs them in-process). Every number is
printed exactly: integers as integers, rationals and floats (their exact binary value) as ``q(p, r)``.

Two modes: ``arb`` (a real value: a ball) and ``int`` (an index or a sum's limit: exact Python
integers). What cannot be printed exactly -- a quantifier (``Infimum``/``Supremum``), an integral, a
derivative, a function the checker does not know, a sum with a limit that is not an integer
expression -- raises :class:`Unprintable` naming it.
"""
from __future__ import annotations

import re
from fractions import Fraction

import sympy as sp

from .claims import Choice, Int, Real, Seq

#: The functions printed expressions call, as source: the standalone checker starts with them, and
#: :func:`evaluator` executes them once in dpverify's own process.
HELPERS = r'''class Undecided(Exception):
    """Ball arithmetic does not decide a comparison at this precision."""


def q(p, r=1):
    return arb(fmpq(p, r))


def ball(x):
    """A Fraction as a ball (exact for the binary value of a float at 64 bits and more)."""
    return arb(fmpq(x.numerator, x.denominator))


def _rpow(b, p, r):
    root = b.sqrt() if r == 2 else b.root(r)
    return root ** p


def _pow(b, x):
    return b ** x


def _min(*xs):
    out = xs[0]
    for x in xs[1:]:
        out = out.min(x)
    return out


def _max(*xs):
    out = xs[0]
    for x in xs[1:]:
        out = out.max(x)
    return out


def _index(i, n):
    if not 1 <= i < n:
        raise IndexError(f"index {i} outside 1..{n - 1}")
    return i


def _integer(x):
    u = x.unique_fmpz()
    if u is None:
        raise Undecided(f"{x} is not a unique integer")
    return int(u)


def _floor(x):
    return _integer(x.floor())


def _ceil(x):
    return _integer(x.ceil())


def _sum(f, lo, hi):
    out = arb(0)
    for t in range(lo, hi + 1):
        out = out + f(t)
    return out


def _prod(f, lo, hi):
    out = arb(1)
    for t in range(lo, hi + 1):
        out = out * f(t)
    return out


def _cmp(a, op, b):
    """A comparison decided in ball arithmetic: True, False, or Undecided when the balls overlap."""
    if isinstance(a, int) and isinstance(b, int):
        return {"<": a < b, "<=": a <= b, ">": a > b, ">=": a >= b, "==": a == b, "!=": a != b}[op]
    a, b = arb(a), arb(b)
    yes = {"<": a < b, "<=": a <= b, ">": a > b, ">=": a >= b, "==": a == b, "!=": a != b}[op]
    no = {"<": a >= b, "<=": a > b, ">": a <= b, ">=": a < b, "==": a != b, "!=": a == b}[op]
    if yes:
        return True
    if no:
        return False
    raise Undecided(f"{a} {op} {b} is undecided")


def _piecewise(*pairs):
    for cond, value in pairs:
        if cond():
            return value()
    raise Undecided("no branch of a piecewise expression applies")

'''

#: names the helpers define (a sum's variable must not shadow one)
_HELPER_NAMES = frozenset(re.findall(r"^(?:def|class) (\w+)", HELPERS, re.M))


def _loop_name(symbol: str, depth: int) -> str:
    """The Python name of a sum's variable: ``_t`` for a plain name ``t`` (ASCII letters and digits, not
    a helper's), else a generated ``_i<depth>_`` -- never the symbol's text itself, which may be any
    string (even Python code)."""
    name = f"_{symbol}"
    if re.fullmatch(r"[A-Za-z][A-Za-z0-9]*", symbol) and name not in _HELPER_NAMES:
        return name
    return f"_i{depth}_"


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


def ball_function(fn, source: str):
    r"""Give a function computed in Python (a SymPy ``implemented_function``) a definition in ball
    arithmetic, so that a certificate's ``check.py`` can evaluate expressions that call it.

    Parameters
    ----------
    fn : the implemented function (its name is the function's name in ``source``).
    source : str
        Python source defining ``def <name>(...)``: it receives the arguments as ``arb`` balls and
        returns an ``arb``; it may call python-flint (``arb``), the standard library and the helpers of
        :data:`HELPERS` (``_cmp`` decides a comparison or raises ``Undecided``). It is copied verbatim
        into every ``check.py`` that uses it, so it states the function's definition for the reader.

    Returns ``fn`` (with the definition attached).

    Example
    -------
    >>> import sympy as sp
    >>> from sympy.utilities.lambdify import implemented_function
    >>> half = implemented_function("half", lambda x: x / 2)
    >>> half = ball_function(half, "def half(x):\n    return x / 2\n")
    >>> ArbSource(real=["x"], defined=True)(half(sp.Symbol("x")))
    "half(P['x'])"
    """
    from .escape import py_identifier

    name = getattr(fn, "__name__", None)
    try:
        py_identifier(name)
    except ValueError:
        name = None
    if not callable(getattr(fn, "_imp_", None)) or name is None or name.startswith("_"):
        raise TypeError(f"ball_function: {fn!r} is not an implemented function with an identifier for a name "
                        "(ASCII, not a keyword, not starting with '_')")
    try:
        compile(source, f"<ball definition of {name}>", "exec")
    except SyntaxError as exc:
        raise ValueError(f"ball_function: the source of {name} is not Python ({exc})") from None
    if f"def {name}(" not in source:
        raise ValueError(f"ball_function: the source must define def {name}(...)")
    fn._arb_source_ = source
    return fn


class ArbSource:
    """Prints expressions of one claim: ``real``, ``ints`` and ``seqs`` name its parameters by kind;
    with ``defined=True`` a function given a ball definition (:func:`ball_function`) is printed as a call
    and its source collected in ``definitions`` (name -> source)."""

    def __init__(self, real=(), ints=(), seqs=(), defined: bool = False):
        self.real, self.ints, self.seqs = set(real), set(ints), set(seqs)
        self.defined, self.definitions = defined, {}

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
        if isinstance(e, sp.Function) and self.defined and getattr(type(e), "_arb_source_", None):
            from .escape import py_identifier

            try:
                name = py_identifier(type(e).__name__, "the ball-defined function")
            except ValueError as exc:
                raise Unprintable(str(exc)) from None
            self.definitions[name] = type(e)._arb_source_
            return f"{name}(" + ", ".join(self.arb(a, bound) for a in e.args) + ")"
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
        """A sum or product; with several limits ``(i, a, b), (j, c, d)`` the last is the outermost loop
        (SymPy's order), and an inner range may use an outer variable."""
        return self._limits("_sum" if isinstance(e, sp.Sum) else "_prod", e, e.function, list(e.limits), bound)

    def _limits(self, fn, e, body, limits, bound) -> str:
        var, lo, hi = limits[-1]
        if not (lo.is_finite is not False and hi.is_finite is not False) or lo.has(sp.oo, -sp.oo) \
                or hi.has(sp.oo, -sp.oo):
            raise Unprintable(f"{type(e).__name__} over {var} from {lo} to {hi}: an infinite range")
        name = _loop_name(str(var), len(bound))
        inner = dict(bound)
        inner[str(var)] = name
        inside = self._limits(fn, e, body, limits[:-1], inner) if len(limits) > 1 else self.arb(body, inner)
        return f"{fn}(lambda {name}: {inside}, {self.int(lo, bound)}, {self.int(hi, bound)})"

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


def printer_for(domain, extra_ints=(), defined: bool = False) -> ArbSource:
    """The printer of a domain's parameters: reals (and numeric choices) as balls, integers, sequences;
    ``extra_ints``: more names printed as integers (e.g. a scenario's step index); ``defined``: print
    calls of functions with a ball definition (:func:`ball_function`)."""
    kinds = {n: type(p) for n, p in domain.params.items()}
    numeric = [n for n, p in domain.params.items() if isinstance(p, Choice) and all(_is_number(v) for v in p.values)]
    return ArbSource(real=[n for n, k in kinds.items() if k is Real] + numeric,
                     ints=[n for n, k in kinds.items() if k is Int] + list(extra_ints),
                     seqs=[n for n, k in kinds.items() if k is Seq], defined=defined)


def _is_number(v) -> bool:
    return isinstance(v, (int, float)) and not isinstance(v, bool)


_NAMESPACE: dict = {}


def evaluator(source: str):
    """The printed expression ``source`` as a function ``P -> arb`` (``P``: the point, as the printer
    expects it), evaluated at python-flint's current precision (``flint.ctx.prec``). It raises
    ``HELPERS``' ``Undecided`` (:func:`undecided`) when a comparison inside it (a piecewise condition, a
    floor) is not decided by the balls."""
    if not _NAMESPACE:
        ns = {"__name__": "dpverify_arb_helpers"}
        exec("from flint import arb, fmpq\n" + HELPERS, ns)  # noqa: S102 - our own helpers' source
        _NAMESPACE.update(ns)
    return eval(f"lambda P: {source}", _NAMESPACE)  # noqa: S307 - source printed by ArbSource


def undecided() -> type:
    """The exception :data:`HELPERS` raise when balls do not decide a comparison."""
    evaluator("0")
    return _NAMESPACE["Undecided"]


__all__ = ["HELPERS", "ArbSource", "Unprintable", "ball_function", "evaluator", "printer_for", "rational_text",
           "undecided"]
