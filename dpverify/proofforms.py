"""The forms of an expression that a proof over a domain evaluates, computed by SymPy alone.

A branch-and-bound encloses ``f`` on a box by evaluating, in interval arithmetic, several expressions
equal to ``f`` (:func:`forms`), the derivatives of ``f`` (:func:`derivative_forms`) and, for a face at an
infinite end of a parameter, ``f`` with that parameter written as ``1/u`` (:func:`at_infinity`), whose
value at ``u = 0`` is the limit. The rewritings are exact (SymPy's ``together``/``cancel``) and
deterministic, and they are bounded by the size of the expression, not by a clock (:data:`MAX_OPS`), so
that the same claim gives the same forms on every machine. A standalone proof's ``check.py`` embeds this
module's source and recomputes the forms it evaluates from the expression itself: it never takes a
form's equality to ``f`` on trust.
"""
import sympy as sp

MAX_OPS = 200  # expressions with more nodes than this are not rewritten
MAX_GENERATORS = 3  # nor those with more function atoms (exp, log, ...) than this: cancel's cost grows with them
_ERRORS = (sp.PolynomialError, sp.GeneratorsNeeded, TypeError, ValueError, NotImplementedError, RecursionError,
           AttributeError, ZeroDivisionError)


def size(e, limit: int = 10 ** 6) -> int:
    """The number of nodes of ``e`` (counting stops past ``limit``)."""
    n = 0
    for _ in sp.preorder_traversal(e):
        n += 1
        if n > limit:
            break
    return n


MAX_COEFFICIENT = 1000  # a rational in an exponent with a larger numerator or denominator stops SymPy's rewritings


def tame(e) -> bool:
    """Whether SymPy's polynomial machinery can take ``e`` in bounded time: every rational inside an
    exponent (``exp``'s argument, a power's exponent) has numerator and denominator at most
    :data:`MAX_COEFFICIENT` (``exp(-10**40 x**2)`` would be read as ``exp(x**2)`` to the power ``-10**40``)."""
    for a in sp.preorder_traversal(e):
        if isinstance(a, sp.exp):
            inner = a.args[0]
        elif isinstance(a, sp.Pow) and not a.exp.is_Integer:
            inner = a.exp
        else:
            continue
        for q in inner.atoms(sp.Rational):
            if abs(q.p) > MAX_COEFFICIENT or q.q > MAX_COEFFICIENT:
                return False
    return True


def _small(e) -> bool:
    if size(e, MAX_OPS) > MAX_OPS or not tame(e):
        return False
    return len([a for a in e.atoms(sp.Function, sp.Pow) if not (isinstance(a, sp.Pow) and a.exp.is_Integer)]) \
        <= MAX_GENERATORS + 2


def one_fraction(e):
    """``cancel(together(e))`` (one fraction, common factors cancelled), or ``e`` itself where SymPy
    cannot or the expression is large."""
    if not _small(e):
        return e
    try:
        t = sp.cancel(sp.together(e))
    except _ERRORS:
        return e
    return t if _small(t) else e


def deep_fraction(e):
    """Every argument of a function and every base rewritten as one fraction, bottom-up, and the whole
    as one fraction: the form in which ``f(1/u)`` keeps its finite value at ``u = 0``."""
    if e.is_Atom or not _small(e):
        return e
    args = [deep_fraction(a) for a in e.args]
    try:
        e = e.func(*args)
    except _ERRORS:
        return e
    return one_fraction(e) if isinstance(e, (sp.Add, sp.Mul, sp.Pow)) else e


def _unique(items) -> list:
    out = []
    for x in items:
        if x is not None and not any(x == y for y in out):
            out.append(x)
    return out


def forms(f) -> list:
    """Expressions equal to ``f`` wherever it is defined: ``f`` and its single fraction."""
    return _unique([f, one_fraction(f)])


def derivative_forms(f, x) -> list:
    """``df/dx`` and its single fraction; ``[]`` when ``f`` does not depend on ``x``; ``None`` when SymPy
    cannot differentiate it."""
    try:
        d = sp.diff(f, x)
    except _ERRORS:
        return None
    if d == 0:
        return []
    if d.has(sp.Derivative, sp.Subs):
        return None
    return _unique([d, one_fraction(d)])


def at_infinity(f, ends: dict, u: dict) -> list:
    """``f`` with each parameter ``x`` of ``ends`` (``{x: +1 or -1}``) written as ``end/u[x]``: forms whose
    value at ``u = 0`` is ``f``'s limit at those infinite ends, where that value is defined without a
    singularity (see :mod:`dpverify.xinterval`)."""
    g = f.xreplace({x: s / u[x] for x, s in ends.items()})
    return _unique([deep_fraction(g), one_fraction(g)])


#: functions whose value jumps: a limit is never read off a form that uses them
DISCONTINUOUS = (sp.floor, sp.ceiling, sp.sign, sp.Piecewise, sp.frac, sp.Heaviside, sp.Mod)


def continuous(f) -> bool:
    return not f.has(*DISCONTINUOUS)


__all__ = ["DISCONTINUOUS", "MAX_COEFFICIENT", "MAX_OPS", "size", "tame", "at_infinity", "continuous", "deep_fraction", "derivative_forms", "forms",
           "one_fraction"]
