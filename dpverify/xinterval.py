"""Interval arithmetic on the extended real line, with python-flint ``arb`` endpoints.

An :class:`Iv` is a closed interval ``[lo, hi]`` of real numbers whose ends are exact ``arb`` points or
the floats ``-inf`` / ``inf`` (an unbounded side: ``[1, inf]`` stands for every real ``x >= 1``; no value
is ever infinite). Every operation returns an interval that contains the operation's value at every
point of its arguments' intervals where the operation is defined over the reals, rounded outwards: each
end is computed as an ``arb`` ball at the current precision (``flint.ctx.prec``) and its lower (upper)
end taken. An operation whose argument reaches outside the operation's real domain (``log`` of an
interval with a negative part, ``1/x`` across 0, ``sqrt`` below 0) raises :class:`Undefined` instead of
guessing: a proof never rests on a value that is not real. Ends where a function tends to infinity are
limits: ``log([0, 1]) = [-inf, 0]``, ``1/[0, 2] = [1/2, inf]``, ``exp([-inf, 0]) = [0, 1]``; a product
``0 * inf`` at an end is 0 (the end of a set of finite products).

Why not ``arb`` balls alone: a ball cannot hold ``[1, inf)``, and its midpoint-radius form loses the sign
of even powers (``[-1/5, 3/5]**2`` is ``[-0.28, 0.36]`` as a ball, ``[0, 0.36]`` here), which is where a
branch-and-bound over a whole domain spends its boxes.

Expressions printed by :mod:`dpverify.arb_source` evaluate on intervals unchanged: :func:`namespace`
gives the helpers of ``arb_source.HELPERS`` with ``arb`` bound to :func:`to_iv` (numbers and balls to
intervals, ``arb.pi()`` and the other constants as tight intervals). This module imports only
python-flint and the standard library: a standalone proof's ``check.py`` embeds its source verbatim.
"""
from flint import arb, fmpq, fmpz

INF = float("inf")
#: how many times an operation met a singularity (an infinite end from a finite argument: ``1/0``,
#: ``log(0)``, ``atanh(1)``); a limit read off a form at a point is valid only where it stays unchanged
SINGULAR = [0]


class Undefined(ArithmeticError):
    """An operation's argument leaves the operation's real domain on part of the interval."""


def _fl(x):
    return type(x) is float


def _dn(b):
    """The lower end of a ball (``-inf`` for a ball with no finite lower end)."""
    if b.is_finite():
        return b.lower()
    if b.is_nan():
        raise Undefined("not a number")
    return -INF


def _up(b):
    if b.is_finite():
        return b.upper()
    if b.is_nan():
        raise Undefined("not a number")
    return INF


def _sign(e) -> int:
    if _fl(e):
        return 1 if e > 0 else -1
    return 1 if e > 0 else -1 if e < 0 else 0


def _le(a, b) -> bool:
    """``a <= b`` for two ends (exact)."""
    if _fl(a):
        return a < 0 or (_fl(b) and b > 0)
    if _fl(b):
        return b > 0
    return bool(a <= b)


def _lt(a, b) -> bool:
    if _fl(a):
        return a < 0 and not (_fl(b) and b < 0)
    if _fl(b):
        return b > 0
    return bool(a < b)


def _emin(a, b):
    return a if _le(a, b) else b


def _emax(a, b):
    return b if _le(a, b) else a


ZERO, ONE = arb(0), arb(1)


def _mul_end(x, y, up: bool):
    if _fl(x) or _fl(y):
        if (not _fl(x) and x.is_zero()) or (not _fl(y) and y.is_zero()):
            return ZERO
        return INF if _sign(x) * _sign(y) > 0 else -INF
    b = x * y
    return _up(b) if up else _dn(b)


def _mul_ends(x, y):
    """``(_mul_end(x, y, False), _mul_end(x, y, True))`` from one product."""
    if _fl(x) or _fl(y):
        if (not _fl(x) and x.is_zero()) or (not _fl(y) and y.is_zero()):
            return ZERO, ZERO
        e = INF if _sign(x) * _sign(y) > 0 else -INF
        return e, e
    b = x * y
    if b.is_finite():
        return b.lower(), b.upper()
    return _dn(b), _up(b)


def _add_end(x, y, up: bool):
    if _fl(x) or _fl(y):
        s = (x if _fl(x) else 0.0) + (y if _fl(y) else 0.0)
        if s != s:
            raise Undefined("inf - inf")
        return s
    b = x + y
    return _up(b) if up else _dn(b)


def _recip_end(x, up: bool):
    if _fl(x):
        return ZERO
    b = ONE / x
    return _up(b) if up else _dn(b)


def _fun_end(x, f, at_minus, at_plus, up: bool):
    """``f`` at one end: ``at_minus``/``at_plus`` at -inf/inf (an ``arb`` or an infinite float)."""
    if _fl(x):
        v = at_plus if x > 0 else at_minus
        if _fl(v):
            return v
        return _up(v) if up else _dn(v)
    b = f(x)
    return _up(b) if up else _dn(b)


class Iv:
    """A closed interval ``[lo, hi]``: ends exact ``arb`` points or +-inf floats (see the module)."""

    __slots__ = ("lo", "hi")

    def __init__(self, lo, hi):
        self.lo, self.hi = lo, hi

    def __repr__(self):
        def s(e):
            return repr(e) if _fl(e) else e.str(20, radius=False)

        return f"Iv({s(self.lo)}, {s(self.hi)})"

    # ---------------------------------------------------------------- tests
    def is_finite(self) -> bool:
        return not (_fl(self.lo) or _fl(self.hi))

    def is_point(self) -> bool:
        return self.is_finite() and bool(self.lo == self.hi)

    def unique_fmpz(self):
        if self.is_point() and self.lo.is_integer():
            return self.lo.unique_fmpz()
        return None

    def contains_zero(self) -> bool:
        return _le(self.lo, ZERO) and _le(ZERO, self.hi)

    def ball(self):
        """The interval as an ``arb`` ball (finite intervals only)."""
        if not self.is_finite():
            raise Undefined("an unbounded interval has no ball")
        return self.lo.union(self.hi)

    # ---------------------------------------------------------------- comparisons: True only when certain
    def __lt__(self, o):
        return _lt(self.hi, to_iv(o).lo)

    def __le__(self, o):
        return _le(self.hi, to_iv(o).lo)

    def __gt__(self, o):
        return _lt(to_iv(o).hi, self.lo)

    def __ge__(self, o):
        return _le(to_iv(o).hi, self.lo)

    def __eq__(self, o):
        o = to_iv(o)
        return self.is_point() and o.is_point() and bool(self.lo == o.lo)

    def __ne__(self, o):
        o = to_iv(o)
        return _lt(self.hi, o.lo) or _lt(o.hi, self.lo)

    __hash__ = None

    # ---------------------------------------------------------------- arithmetic
    def __neg__(self):
        return Iv(-self.hi, -self.lo)

    def __pos__(self):
        return self

    def __add__(self, o):
        o = o if type(o) is Iv else to_iv(o)
        return Iv(_add_end(self.lo, o.lo, False), _add_end(self.hi, o.hi, True))

    __radd__ = __add__

    def __sub__(self, o):
        o = o if type(o) is Iv else to_iv(o)
        return self + (-o)

    def __rsub__(self, o):
        return to_iv(o) + (-self)

    def __mul__(self, o):
        o = o if type(o) is Iv else to_iv(o)
        al, ah, bl, bh = self.lo, self.hi, o.lo, o.hi
        if _le(ZERO, al) and _le(ZERO, bl):
            return Iv(_mul_end(al, bl, False), _mul_end(ah, bh, True))
        lo = hi = None
        for x, y in ((al, bl), (al, bh), (ah, bl), (ah, bh)):
            d, u = _mul_ends(x, y)
            lo = d if lo is None else _emin(lo, d)
            hi = u if hi is None else _emax(hi, u)
        return Iv(lo, hi)

    __rmul__ = __mul__

    def recip(self):
        lo, hi = self.lo, self.hi
        if _lt(ZERO, lo) or _lt(hi, ZERO):
            return Iv(_recip_end(hi, False), _recip_end(lo, True))
        if not _fl(lo) and lo.is_zero() and _lt(ZERO, hi):
            SINGULAR[0] += 1
            return Iv(_recip_end(hi, False), INF)
        if not _fl(hi) and hi.is_zero() and _lt(lo, ZERO):
            SINGULAR[0] += 1
            return Iv(-INF, _recip_end(lo, True))
        raise Undefined("division by an interval holding 0")

    def __truediv__(self, o):
        o = o if type(o) is Iv else to_iv(o)
        return self * o.recip()

    def __rtruediv__(self, o):
        return to_iv(o) * self.recip()

    def __abs__(self):
        if _le(ZERO, self.lo):
            return self
        if _le(self.hi, ZERO):
            return -self
        return Iv(ZERO, _emax(-self.lo if _fl(self.lo) else -self.lo, self.hi))

    def __pow__(self, e):
        if isinstance(e, (int, fmpz)) and not isinstance(e, bool):
            return self._powi(int(e))
        e = to_iv(e)
        n = e.unique_fmpz()
        if n is not None:
            return self._powi(int(n))
        if _lt(self.lo, ZERO):
            raise Undefined("a real power of an interval with a negative part")
        if not _fl(self.lo) and self.lo.is_zero():
            if e.contains_zero():
                raise Undefined("0 ** 0")
            if _lt(e.hi, ZERO):
                return (self ** (-e)).recip()
            if not _fl(self.hi) and self.hi.is_zero():  # 0 ** e = 0 for every e > 0
                return Iv(ZERO, ZERO)
            if _fl(self.hi):  # [0, inf] ** [a, b] with 0 < a: every positive value, and 0
                return Iv(ZERO, INF)
            lo = ZERO  # 0 ** e = 0 for e > 0; the largest value at the largest base, for one of the exponents
            hi = _emax((Iv(self.hi, self.hi) ** Iv(e.lo, e.lo)).hi if not _fl(e.lo) else ZERO,
                       (Iv(self.hi, self.hi) ** Iv(e.hi, e.hi)).hi if not _fl(e.hi) else
                       (INF if _lt(ONE, self.hi) else ONE))
            return Iv(lo, hi)
        return (e * self.log()).exp()

    def __rpow__(self, b):
        return to_iv(b) ** self

    def _powi(self, n: int):
        if n == 0:
            return Iv(ONE, ONE)
        if n < 0:
            return self._powi(-n).recip()
        if n == 1:
            return self

        def p(x, up):
            if _fl(x):
                return INF if (x > 0 or n % 2 == 0) else -INF
            b = x ** n
            return _up(b) if up else _dn(b)

        lo, hi = self.lo, self.hi
        if n % 2 or _le(ZERO, lo):
            return Iv(p(lo, False), p(hi, True))
        if _le(hi, ZERO):
            return Iv(p(hi, False), p(lo, True))
        return Iv(ZERO, _emax(p(lo, True), p(hi, True)))

    # ---------------------------------------------------------------- monotone functions
    def _inc(self, f, at_minus, at_plus):
        return Iv(_fun_end(self.lo, f, at_minus, at_plus, False), _fun_end(self.hi, f, at_minus, at_plus, True))

    def _dec(self, f, at_minus, at_plus):
        return Iv(_fun_end(self.hi, f, at_minus, at_plus, False), _fun_end(self.lo, f, at_minus, at_plus, True))

    def _need(self, lo=None, hi=None, what=""):
        if (lo is not None and _lt(self.lo, lo)) or (hi is not None and _lt(hi, self.hi)):
            raise Undefined(f"{what} outside its real domain")

    def exp(self):
        return self._inc(arb.exp, ZERO, INF)

    def expm1(self):
        return self._inc(arb.expm1, -ONE, INF)

    def log(self):
        self._need(ZERO, what="log")
        if not _fl(self.lo) and self.lo.is_zero():
            if not _fl(self.hi) and self.hi.is_zero():
                raise Undefined("log(0)")
            SINGULAR[0] += 1
            return Iv(-INF, _fun_end(self.hi, arb.log, -INF, INF, True))
        return self._inc(arb.log, -INF, INF)

    def log1p(self):
        return (self + 1).log()

    def sqrt(self):
        self._need(ZERO, what="sqrt")
        return self._inc(arb.sqrt, ZERO, INF)

    def root(self, r):
        self._need(ZERO, what="root")
        return self._inc(lambda x: ZERO if x.is_zero() else x.root(r), ZERO, INF)

    def atan(self):
        return self._inc(arb.atan, -arb.pi() / 2, arb.pi() / 2)

    def tanh(self):
        return self._inc(arb.tanh, -ONE, ONE)

    def sinh(self):
        return self._inc(arb.sinh, -INF, INF)

    def asinh(self):
        return self._inc(arb.asinh, -INF, INF)

    def erf(self):
        return self._inc(arb.erf, -ONE, ONE)

    def erfc(self):
        return self._dec(arb.erfc, arb(2), ZERO)

    def asin(self):
        self._need(-ONE, ONE, "asin")
        return self._inc(arb.asin, ZERO, ZERO)

    def acos(self):
        self._need(-ONE, ONE, "acos")
        return self._dec(arb.acos, ZERO, ZERO)

    def acosh(self):
        self._need(ONE, what="acosh")
        return self._inc(arb.acosh, ZERO, INF)

    def atanh(self):
        self._need(-ONE, ONE, "atanh")

        def f(x):
            if x == 1:
                return arb.pos_inf()
            if x == -1:
                return arb.neg_inf()
            return x.atanh()

        lo = -INF if (not _fl(self.lo) and self.lo == -1) else _fun_end(self.lo, f, -INF, INF, False)
        hi = INF if (not _fl(self.hi) and self.hi == 1) else _fun_end(self.hi, f, -INF, INF, True)
        SINGULAR[0] += _fl(lo) + _fl(hi)
        return Iv(lo, hi)

    def cosh(self):
        a = abs(self)
        return a._inc(arb.cosh, INF, INF)

    def lambertw(self):
        if _fl(self.lo) or not bool(self.lo >= -(-ONE).exp()):
            raise Undefined("lambertw below -1/e")
        return self._inc(arb.lambertw, ZERO, INF)

    def floor(self):
        return self._inc(arb.floor, -INF, INF)

    def ceil(self):
        return self._inc(arb.ceil, -INF, INF)

    def sgn(self):
        return Iv(arb(_sign(self.lo)), arb(_sign(self.hi)))

    # ---------------------------------------------------------------- other functions
    def _ball_fun(self, f, bound=None):
        if not self.is_finite():
            if bound is None:
                raise Undefined("an unbounded argument")
            return bound
        b = f(self.ball())
        return Iv(_dn(b), _up(b))

    def sin(self):
        return self._ball_fun(arb.sin, Iv(-ONE, ONE))

    def cos(self):
        return self._ball_fun(arb.cos, Iv(-ONE, ONE))

    def tan(self):
        return self._ball_fun(arb.tan)

    def gamma(self):
        self._need(ZERO, what="gamma")
        if not _fl(self.lo) and self.lo.is_zero():
            raise Undefined("gamma(0)")
        if _fl(self.hi):  # Gamma is increasing from its minimum 0.8856... at 1.4616...
            if _le(arb(fmpq(3, 2)), self.lo):
                return Iv(_dn(self.lo.gamma()), INF)
            return Iv(arb(fmpq(885, 1000)), INF)
        return self._ball_fun(arb.gamma)

    def lgamma(self):
        g = self.gamma()
        return g.log()

    # ---------------------------------------------------------------- lattice operations
    def min(self, o):
        o = to_iv(o)
        return Iv(_emin(self.lo, o.lo), _emin(self.hi, o.hi))

    def max(self, o):
        o = to_iv(o)
        return Iv(_emax(self.lo, o.lo), _emax(self.hi, o.hi))

    def union(self, o):
        o = to_iv(o)
        return Iv(_emin(self.lo, o.lo), _emax(self.hi, o.hi))

    def intersection(self, o):
        o = to_iv(o)
        lo, hi = _emax(self.lo, o.lo), _emin(self.hi, o.hi)
        if _lt(hi, lo):
            raise Undefined("disjoint enclosures")
        return Iv(lo, hi)


def point(x) -> Iv:
    """An exact number (int, Fraction-like with numerator/denominator, fmpq, float) as a point interval
    (or the tightest interval around it where binary ``arb`` cannot hold it exactly)."""
    return to_iv(x)


def to_iv(x) -> Iv:
    """Numbers, ``arb`` balls and intervals as intervals; ``-inf``/``inf`` floats as unbounded ends."""
    if type(x) is Iv:
        return x
    if isinstance(x, bool):
        raise TypeError("a boolean is not a number")
    if isinstance(x, (int, fmpz)):
        a = arb(x)
        return Iv(a, a)
    if isinstance(x, float):
        if x != x:
            raise Undefined("nan")
        if x in (INF, -INF):
            raise TypeError("an infinite number is not a value (use an interval end)")
        a = arb(x)
        return Iv(a, a)
    if isinstance(x, fmpq):
        b = arb(x)
    elif hasattr(x, "numerator") and hasattr(x, "denominator"):
        b = arb(fmpq(int(x.numerator), int(x.denominator)))
    elif isinstance(x, arb):
        b = x
    else:
        raise TypeError(f"{type(x).__name__} is not a number")
    if b.is_exact():
        return Iv(b, b)
    return Iv(_dn(b), _up(b))


def interval(lo, hi) -> Iv:
    """The interval ``[lo, hi]`` from two numbers (ints, Fractions, fmpq, floats; ``-inf``/``inf`` for an
    unbounded side), rounded outwards where binary ends cannot hold them."""
    a = -INF if lo == -INF else to_iv(lo).lo
    b = INF if hi == INF else to_iv(hi).hi
    if _lt(b, a):
        raise ValueError("an empty interval")
    return Iv(a, b)


class _Arb:
    """``arb`` as the printed expressions call it, returning intervals."""

    def __call__(self, x):
        return to_iv(x)

    @staticmethod
    def pi():
        return to_iv(arb.pi())

    @staticmethod
    def const_e():
        return to_iv(arb.const_e())

    @staticmethod
    def const_euler():
        return to_iv(arb.const_euler())


def namespace(helpers: str) -> dict:
    """A namespace in which ``helpers`` (the source of :data:`dpverify.arb_source.HELPERS`) and printed
    expressions evaluate on intervals."""
    ns = {"__name__": "dpverify_interval_helpers", "arb": _Arb(), "fmpq": fmpq, "Iv": Iv}
    exec(helpers, ns)  # noqa: S102 - the helpers' own source
    ns["arb"] = _Arb()
    return ns


__all__ = ["INF", "SINGULAR", "Iv", "Undefined", "interval", "namespace", "point", "to_iv"]
