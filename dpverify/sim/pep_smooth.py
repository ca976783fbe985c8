"""A witness function for the smooth (non-convex) class: an explicit L-smooth function, bounded below, through
the worst points.

The ``smooth`` class is ``L``-smooth functions with ``f(x_0) - inf f <= Delta``. Its interpolation conditions
(Taylor, Hendrickx & Glineur 2017, Thm 3.10) make a set of points interpolable by an ``L``-smooth function, but
say nothing of ``inf f``: the PEP adds ``f(x_0) - f(x_i) + ||g_i||^2/(2L) <= Delta`` at every point, which every
function of the class meets (``f(x) - inf f >= ||grad f(x)||^2/(2L)``), so its value is an *upper* bound. To
*refute* a claim, a function of the class is needed. For a worst case in one dimension, :func:`build` writes one
down: through the points sorted by position, each gap is bridged by two quadratic pieces whose curvatures lie in
``[-L, L]`` (the knot where the interpolation condition is tight, ``m = (x_a + x_b)/2 + (g_b - g_a)/(2 sigma L)``,
else a knot at a simple fraction of the gap), and beyond the outermost points the slope is brought to 0 by
curvature ``L`` (then the function is constant). Everything is exact rationals; :func:`pep_exact.check_smooth`
(standard library, copied into the checkers) re-derives the function's values and slopes knot by knot, checks
every curvature, every point, and computes ``inf f`` exactly (the knots and the pieces' vertices).
"""
from __future__ import annotations

from fractions import Fraction

from . import pep_exact as E

#: knot positions tried inside a gap, as fractions of it, after the tight one
THETAS = tuple(Fraction(a, b) for a, b in ((1, 2), (1, 3), (2, 3), (1, 4), (3, 4), (1, 5), (4, 5), (1, 10), (9, 10)))


def bridge(xa, fa, ga, xb, fb, gb, L):
    """Knots ``[(x, curvature on the interval that starts there)]`` from ``xa`` to ``xb`` (excluded) for a C^1
    function with curvature in ``[-L, L]`` matching value and slope at both ends; ``None`` when none is found."""
    d = xb - xa
    rise = fb - fa - ga * d
    for sigma in (1, -1):            # the tight bridge: curvature sigma L, then -sigma L, knot m
        m = (xa + xb) / 2 + (gb - ga) / (2 * sigma * L)
        if xa <= m <= xb:
            u, v = m - xa, xb - m
            if rise == sigma * L * u * u / 2 + sigma * L * u * v - sigma * L * v * v / 2:
                return [(xa, sigma * L), (m, -sigma * L)] if u and v else [(xa, sigma * L if u else -sigma * L)]
    for th in THETAS:                # curvatures s on [xa, m], t on [m, xb], m = xa + th d: two linear equations
        u, v = th * d, (1 - th) * d
        # gb - ga = s u + t v ; rise = s (u^2/2 + u v) + t v^2/2
        a11, a12, a21, a22 = u, v, u * u / 2 + u * v, v * v / 2
        det = a11 * a22 - a12 * a21
        if det == 0:
            continue
        s = ((gb - ga) * a22 - a12 * rise) / det
        t = (a11 * rise - a21 * (gb - ga)) / det
        if abs(s) <= L and abs(t) <= L:
            return [(xa, s), (xa + u, t)]
    return None


def build(spec, x0, grads, values, L=Fraction(1)):
    """The knots of a one-dimensional ``L``-smooth function through the worst points (module docstring):
    ``{"start": [x, f, g], "knots": [[x, curvature], ...]}`` -- the function is ``f`` with slope ``g`` at ``start``,
    curvature as given from each knot to the next, constant before the first knot's start and after the last --
    or ``None`` (more than one dimension, two points at one place with different data, no bridge)."""
    if len(x0) != 1:
        return None
    sym = E.Symbolic(False)
    E.constraints(spec, sym, only=set())
    wit = E.Witness([Fraction(v) for v in x0], [[Fraction(v) for v in g] for g in grads],
                    [Fraction(v) for v in values], sym.calls)
    _, pts, _, _ = E.constraints(spec, wit)
    data = {}
    for x, g, f in pts:
        key = x[0]
        if key in data and data[key] != (f, g[0]):
            return None
        data[key] = (f, g[0])
    xs = sorted(data)
    knots = []
    # before the first point: slope brought to 0 from the left with curvature L (going right, f'' = L raises g):
    # walking backwards from x_first with slope g < 0 needs f'' = -L? We build left to right from a flat start.
    f1, g1 = data[xs[0]]
    if g1 != 0:
        c = L if g1 > 0 else -L      # from slope 0 at s = x1 - g1/c, curvature c reaches g1 at x1
        s0 = xs[0] - g1 / c
        start = [s0, f1 - g1 * g1 / (2 * c), Fraction(0)]
        knots.append([s0, c])
    else:
        start = [xs[0], f1, Fraction(0)]
    for a, b in zip(xs, xs[1:]):
        br = bridge(a, data[a][0], data[a][1], b, data[b][0], data[b][1], L)
        if br is None:
            return None
        knots.extend([list(k) for k in br])
    fl, gl = data[xs[-1]]
    if gl != 0:
        c = L if gl < 0 else -L      # slope brought to 0 after the last point
        knots.append([xs[-1], c])
        knots.append([xs[-1] - gl / c, Fraction(0)])
    else:
        knots.append([xs[-1], Fraction(0)])
    return {"start": start, "knots": knots}


__all__ = ["THETAS", "bridge", "build"]
