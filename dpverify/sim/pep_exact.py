"""Performance-estimation problems written exactly, and their certificates checked exactly.

Standard library only (``fractions``): the source of this module is copied verbatim into every
standalone ``check.py`` of a worst-case certificate (:mod:`.pep_checker`), so dpverify and a reader
check a certificate with the same text. Nothing here solves anything; it states the problem and
checks what a solver proposed.

**The problem** (normalised: ``L = 1``; the class and the methods are invariant under
``f(x) -> f(c x)/(L c^2)``, which maps the step ``h`` to ``h L`` and the curvature ``mu`` to ``mu/L``).
A method runs from ``x_0`` for ``len(steps)`` steps, querying gradients (:func:`run`). Every quantity is
written over a *basis*: ``x_0 - x*`` (classes with a minimiser ``x*``, placed at the origin with
``g* = 0``, ``f* = 0``; on the ``smooth`` class ``x_0`` is the origin) and one free vector per gradient
queried; every function value queried is a free number. The Gram matrix ``G`` of the basis ranges over
all positive semi-definite matrices. A *constraint* is an expression ``e(G, F) <= 0`` that every
function of the class and every start satisfying the initial condition meets (:func:`constraints`):

* the class's interpolation conditions between every ordered pair of points (``*`` included), in the
  form of Taylor, Hendrickx & Glineur (2017): for L-smooth mu-strongly convex functions (``mu = 0``:
  convex) ``f_i >= f_j + <g_j, x_i - x_j> + ||g_i - g_j||^2/2 + mu/(2(1 - mu)) ||x_i - x_j - (g_i - g_j)||^2``,
  for L-smooth functions ``f_i >= f_j + <g_i + g_j, x_i - x_j>/2 + ||g_i - g_j||^2/4 - ||x_i - x_j||^2/4``;
  on ``pl`` also ``||g_i||^2/2 <= f_i - f* <= ||g_i||^2/(2 mu)``; on ``smooth`` (no minimiser) at every
  point ``f_0 - f_i + ||g_i||^2/2 <= Delta`` (``f_i - inf f >= ||g_i||^2/(2L)``);
* the initial condition: ``||x_0 - x*||^2 <= 1`` or ``f_0 - f* <= 1``;
* for a statistic that is a minimum over the iterates, ``t <= ||g_i||^2`` at every iterate.

**An upper-bound certificate** is a multiplier ``lambda_k >= 0`` per constraint such that
``objective - sum_k lambda_k e_k = c - <S, G>`` identically in ``G``, ``F`` and ``t`` with ``S`` positive
semi-definite; then every function of the class has ``objective <= c`` (:func:`check_upper`). The PSD test
is an exact LDL^T with diagonal pivoting (:func:`psd`).

**A lower-bound certificate** is a worst function: ``x_0`` and every gradient and function value the
method queries, as vectors of rationals in some ``R^r``; :func:`check_lower` runs the method on them,
checks *every* constraint exactly and returns the objective. For ``smooth_convex`` and
``smooth_strongly_convex`` the interpolation conditions are necessary and sufficient (Taylor et al.
2017, Thm 4): a function of the class passes through those points, so the worst case is at least that
value. (For ``pl`` and ``smooth`` the conditions are only necessary: a lower bound needs a function; on
``smooth``, :func:`check_smooth` checks one written down by :mod:`.pep_smooth`.)
"""
from __future__ import annotations

from fractions import Fraction

METHODS = ("gd", "heavy_ball", "nesterov", "bias_corrected")
CLASSES = ("smooth_strongly_convex", "smooth_convex", "smooth", "pl")
STATISTICS = ("excess", "dist_sq", "grad_norm_sq", "random_round_excess", "random_round_grad_norm_sq", "mean_excess")
INITS = ("dist", "gap")
STAR = -1


def num(v):
    """An exact number: ``Fraction`` of an int, float or text; anything else (a SymPy expression, when the
    problem is written with symbolic parameters) as it is."""
    return Fraction(v) if isinstance(v, (int, float, str, Fraction)) else v


class Expr:
    """``sum quad[(a, b)] G_ab + sum lin[k] F_k (+ lin['t'] t) + const`` (``a <= b``), exact."""

    __slots__ = ("quad", "lin", "const")

    def __init__(self, quad=None, lin=None, const=Fraction(0)):
        self.quad = quad if quad is not None else {}
        self.lin = lin if lin is not None else {}
        self.const = num(const)

    @staticmethod
    def _merge(a, b, k):
        out = dict(a)
        for key, v in b.items():
            w = out.get(key, 0) + k * v
            if w:
                out[key] = w
            else:
                out.pop(key, None)
        return out

    def _lift(self, o):
        return o if isinstance(o, Expr) else Expr(const=o)

    def __add__(self, o):
        o = self._lift(o)
        return Expr(self._merge(self.quad, o.quad, 1), self._merge(self.lin, o.lin, 1), self.const + o.const)

    __radd__ = __add__

    def __sub__(self, o):
        o = self._lift(o)
        return Expr(self._merge(self.quad, o.quad, -1), self._merge(self.lin, o.lin, -1), self.const - o.const)

    def __rsub__(self, o):
        return self._lift(o) - self

    def __neg__(self):
        return self * -1

    def __mul__(self, k):
        if isinstance(k, Expr):
            raise TypeError("an Expr is linear in G, F and t: multiply it by a number")
        k = num(k)
        if not k:
            return Expr()
        return Expr({a: v * k for a, v in self.quad.items()}, {a: v * k for a, v in self.lin.items()}, self.const * k)

    __rmul__ = __mul__


class Vec:
    """A vector over the basis (sparse: basis index -> coefficient); ``u @ v`` is an :class:`Expr`."""

    __slots__ = ("c",)

    def __init__(self, c=None):
        self.c = c if c is not None else {}

    def __add__(self, o):
        return Vec(Expr._merge(self.c, o.c, 1))

    def __sub__(self, o):
        return Vec(Expr._merge(self.c, o.c, -1))

    def __mul__(self, k):
        k = num(k)
        return Vec({a: v * k for a, v in self.c.items()}) if k else Vec()

    __rmul__ = __mul__

    def __neg__(self):
        return self * -1

    def __matmul__(self, o):
        quad = {}
        for a, u in self.c.items():
            for b, v in o.c.items():
                key = (a, b) if a <= b else (b, a)
                w = quad.get(key, 0) + u * v
                if w:
                    quad[key] = w
                else:
                    quad.pop(key, None)
        return Expr(quad)

    def key(self):
        return tuple(sorted(self.c.items()))


class WVec(tuple):
    """A vector of ``R^r`` with exact coordinates (a worst function's); ``u @ v`` is a Fraction."""

    def __add__(self, o):
        return WVec(a + b for a, b in zip(self, o))

    def __sub__(self, o):
        return WVec(a - b for a, b in zip(self, o))

    def __mul__(self, k):
        return WVec(a * k for a in self)

    __rmul__ = __mul__

    def __neg__(self):
        return WVec(-a for a in self)

    def __matmul__(self, o):
        return sum((a * b for a, b in zip(self, o)), Fraction(0))

    def key(self):
        return tuple(self)


def run(method, steps, beta, x0, oracle):
    """The method's points: ``oracle(x)`` gives ``(g, f)`` at ``x`` (the same for the same point). Returns
    the iterates ``x_0..x_T`` (every one is queried, its value and gradient enter the statistics)."""
    xs, prev, m = [x0], x0, None
    oracle(x0)
    for t, h in enumerate(steps, start=1):
        x = xs[-1]
        if method == "gd":
            nxt = x - oracle(x)[0] * h
        elif method == "heavy_ball":
            nxt = x - oracle(x)[0] * h + (x - prev) * beta
        elif method == "nesterov":
            y = x + (x - prev) * beta
            nxt = y - oracle(y)[0] * h
        elif method == "bias_corrected":
            g = oracle(x)[0]
            m = g * (1 - beta) if m is None else m * beta + g * (1 - beta)
            nxt = x - m * (h / (1 - beta**t))
        else:
            raise ValueError(f"unknown method {method!r}")
        prev = x
        xs.append(nxt)
        oracle(nxt)
    return xs


class Symbolic:
    """The oracle of the problem itself: a new basis vector and a new function value per new point."""

    def __init__(self, has_star):
        self.n = 1 if has_star else 0        # basis: x_0 - x* (with a minimiser), then the gradients
        self.points = []                     # (x, g, f): f an Expr (a function value variable)
        self.calls = []                      # the point each call of the oracle returned, in order
        self._at = {}

    def x0(self):
        return Vec({0: Fraction(1)}) if self.n == 1 else Vec()

    def __call__(self, x):
        k = x.key()
        if k not in self._at:
            g = Vec({self.n: Fraction(1)})
            self.n += 1
            f = Expr(lin={len(self.points): Fraction(1)})
            self._at[k] = len(self.points)
            self.points.append((x, g, f))
        self.calls.append(self._at[k])
        return self.points[self._at[k]][1:]

    def star(self):
        return (Vec(), Vec(), Expr())

    def t(self):
        return Expr(lin={"t": Fraction(1)})


class Witness:
    """The oracle of a worst function: the recorded ``x_0`` and, in the order the method queries new
    points, their gradients and values (rationals). ``calls``: the point each call returns (a
    :class:`Symbolic` run's ``calls``: which queries are the same point is a property of the method, not of
    the numbers)."""

    def __init__(self, x0, grads, values, calls):
        self.r = len(x0)
        self._x0, self._g, self._f = WVec(x0), [WVec(g) for g in grads], list(values)
        if any(len(g) != self.r for g in self._g) or len(self._g) != len(self._f):
            raise ValueError("the worst function's vectors must all have the dimension of x_0, one value each")
        self.points, self._calls, self._k = [], list(calls), 0

    def x0(self):
        return self._x0

    def __call__(self, x):
        i = self._calls[self._k]
        self._k += 1
        if i == len(self.points):
            if i >= len(self._g):
                raise ValueError("the worst function gives fewer gradients than the method queries")
            self.points.append((x, self._g[i], self._f[i]))
        return self.points[i][1:]

    def star(self):
        zero = WVec([Fraction(0)] * self.r)
        return (zero, zero, Fraction(0))


def interpolation(function_class, q, Pi, Pj):
    """The interpolation condition from ``j`` to ``i`` as ``e <= 0`` (module docstring)."""
    (xi, gi, fi), (xj, gj, fj) = Pi, Pj
    dx, dg = xi - xj, gi - gj
    if function_class in ("smooth_strongly_convex", "smooth_convex"):
        e = fj - fi + gj @ dx + (dg @ dg) * Fraction(1, 2)
        if q:
            r = dx - dg
            e = e + (r @ r) * (q / (2 * (1 - q)))
        return e
    # smooth (and the smoothness part of pl)
    return fj - fi + (gi + gj) @ dx * Fraction(1, 2) + (dg @ dg) * Fraction(1, 4) - (dx @ dx) * Fraction(1, 4)


def _iterate_points(oracle, n_iterates):
    """The point of each iterate: :func:`run` queries x_0, then per step the step's point and the new iterate."""
    calls = oracle.calls if isinstance(oracle, Symbolic) else oracle._calls
    return [calls[2 * k] for k in range(n_iterates)]


def constraints(spec, oracle, only=None):
    """``(iterates, points, [(key, e)], objective)`` of the problem ``spec`` (a dict: method, function_class,
    statistic, init, steps, q, beta as Fractions) with ``oracle`` (:class:`Symbolic` or :class:`Witness`).
    Point ``-1`` is ``*``. A min statistic (``smooth``) is ``t`` in :class:`Symbolic` and the min itself in a
    :class:`Witness`. ``only``: a set of keys; every other constraint is listed with ``e = None`` (not built)."""
    cls, stat, init = spec["function_class"], spec["statistic"], spec["init"]
    q = num(spec.get("q", 0)) if cls in ("smooth_strongly_convex", "pl") else Fraction(0)
    steps = [num(h) for h in spec["steps"]]
    beta = num(spec.get("beta", 0))
    has_star = cls != "smooth"
    xs = run(spec["method"], steps, beta, oracle.x0(), oracle)
    pts = list(oracle.points)
    star = oracle.star()
    its = _iterate_points(oracle, len(xs))
    allp = [(i, pts[i]) for i in range(len(pts))] + ([(STAR, star)] if has_star else [])
    out = []

    def add(key, build):
        out.append((key, build() if only is None or key in only else None))

    interp_class = "smooth" if cls == "pl" else cls
    for i, Pi in allp:
        for j, Pj in allp:
            if i != j:
                add(("i", i, j), lambda: interpolation(interp_class, q, Pi, Pj))
    if cls == "pl":
        for i, (x, g, f) in allp:
            if i != STAR:
                add(("pl_low", i), lambda: (g @ g) * Fraction(1, 2) - f)   # f - f* >= ||g||^2/(2L)
                add(("pl", i), lambda: f - (g @ g) * (1 / (2 * q)))         # f - f* <= ||g||^2/(2 mu)
    x0, g0, f0 = pts[its[0]]
    if init == "dist":
        add(("init",), lambda: x0 @ x0 - 1)
    elif has_star:
        add(("init",), lambda: f0 - 1)
    else:
        for i, (x, g, f) in enumerate(pts):
            add(("init", i), lambda: f0 - f + (g @ g) * Fraction(1, 2) - 1)
    base = {"random_round_excess": "excess", "random_round_grad_norm_sq": "grad_norm_sq",
            "mean_excess": "excess"}.get(stat, stat)

    def value(i):
        x, g, f = pts[i]
        return {"excess": f, "dist_sq": x @ x, "grad_norm_sq": g @ g}[base]

    if stat in ("random_round_excess", "random_round_grad_norm_sq", "mean_excess"):
        ws = [2 * h - h * h for h in steps] if stat != "mean_excess" else [Fraction(0)] + [Fraction(1)] * len(steps)
        total = sum(ws)
        obj = sum((value(its[k]) * (w / total) for k, w in enumerate(ws) if w), Fraction(0))
    elif not has_star and base == "grad_norm_sq":
        if isinstance(oracle, Symbolic):
            obj = oracle.t()
            for i in dict.fromkeys(its):
                add(("min", i), lambda: obj - value(i))
        else:
            obj = min(value(i) for i in dict.fromkeys(its))
    else:
        obj = value(its[-1])
    return its, pts, out, obj


def key_text(key) -> str:
    """A constraint's key as text (``i:3:-1``), the form certificates use."""
    return ":".join(str(k) for k in key)


def psd(S):
    """Whether the symmetric rational matrix ``S`` (a list of rows) is positive semi-definite: LDL^T with the
    largest remaining diagonal entry as pivot; a largest pivot of 0 needs the rest to be 0. Returns
    ``(ok, reason)``; exact."""
    n = len(S)
    if any(len(row) != n for row in S) or any(S[i][j] != S[j][i] for i in range(n) for j in range(i)):
        return False, "S is not a symmetric square matrix"
    A = [list(row) for row in S]
    left = list(range(n))
    while left:
        p = max(left, key=lambda i: A[i][i])
        d = A[p][p]
        if d < 0:
            return False, f"a negative pivot ({float(d):.3g})"
        if d == 0:
            bad = [(i, j) for i in left for j in left if A[i][j] != 0]
            return (not bad), ("" if not bad else "a zero pivot with a nonzero entry in its row")
        left.remove(p)
        row = A[p]
        for i in left:
            a = A[i][p]
            if a:
                r = a / d
                Ai = A[i]
                for j in left:
                    if row[j]:
                        Ai[j] -= r * row[j]
    return True, ""


def gram_matrix(quad, n):
    """The symmetric matrix ``S`` of ``<S, G> = sum quad[(a, b)] G_ab`` over ``n`` basis vectors."""
    S = [[Fraction(0)] * n for _ in range(n)]
    for (a, b), v in quad.items():
        if a == b:
            S[a][a] += v
        else:
            S[a][b] += v / 2
            S[b][a] += v / 2
    return S


def check_upper(spec, multipliers, field=None):
    """Check an upper-bound certificate: ``multipliers`` maps a constraint's :func:`key_text` to a
    rational ``>= 0`` (the others are 0). Returns ``(bound, S)``: the objective is at most ``bound`` over
    the class; raises ``ValueError`` naming what fails. ``field``: a map from Fractions to another exact
    rational type for the PSD test (dpverify passes python-flint's ``fmpq``; a reader's checker, none)."""
    sym = Symbolic(spec["function_class"] != "smooth")
    wanted = {str(k): Fraction(v) for k, v in multipliers.items()}
    _, _, listed, _ = constraints(spec, Symbolic(spec["function_class"] != "smooth"), only=set())
    by_text = {key_text(k): k for k, _ in listed}
    unknown = sorted(set(wanted) - set(by_text))
    if unknown:
        raise ValueError(f"multipliers of constraints the problem does not have: {unknown[:3]}")
    _, _, cons, obj = constraints(spec, sym, only={by_text[k] for k, v in wanted.items() if v})
    keys = {key_text(k): e for k, e in cons if e is not None}
    rest = obj
    for k, lam in wanted.items():
        if lam < 0:
            raise ValueError(f"the multiplier of {k} is negative ({lam})")
        if lam:
            rest = rest - keys[k] * lam
    if rest.lin:
        k, v = next(iter(sorted(rest.lin.items(), key=str)))
        raise ValueError(f"objective - sum lambda e keeps a term in {'t' if k == 't' else f'f_{k}'} ({v})")
    S = gram_matrix(rest.quad, sym.n)
    S = [[-v if field is None else field(-v) for v in row] for row in S]
    ok, why = psd(S)
    if not ok:
        raise ValueError(f"S is not positive semi-definite: {why}")
    return rest.const, S


def check_lower(spec, x0, grads, values):
    """Check a lower-bound certificate (a worst function, module docstring). Returns the objective at it;
    raises ``ValueError`` naming a constraint it violates."""
    sym = Symbolic(spec["function_class"] != "smooth")
    constraints(spec, sym, only=set())
    wit = Witness([Fraction(v) for v in x0], [[Fraction(v) for v in g] for g in grads],
                  [Fraction(v) for v in values], sym.calls)
    _, pts, cons, obj = constraints(spec, wit)
    if len(pts) != len(wit._g):
        raise ValueError(f"the worst function gives {len(wit._g)} gradients; the method queries {len(pts)} points")
    for k, e in cons:
        if e > 0:
            raise ValueError(f"the worst function violates constraint {key_text(k)} by {float(e):.3g}")
    return obj


def check_smooth(spec, x0, grads, values, function, delta=Fraction(1)):
    """Check a one-dimensional ``L``-smooth function (``L = 1``) for a worst function of the ``smooth`` class:
    ``function = {"start": [x, f, 0], "knots": [[x_k, c_k], ...]}`` is constant before ``start``, has curvature
    ``c_k`` (``|c_k| <= 1``) from knot ``x_k`` to the next, and must be constant after the last (slope 0, curvature 0).
    Every point the method queries must lie on it (value and slope), and ``f(x_0) - inf f <= delta``. Returns the
    statistic (:func:`check_lower`); raises ``ValueError`` naming what fails."""
    value = check_lower(spec, x0, grads, values)
    sx, sf, sg = (Fraction(v) for v in function["start"])
    knots = [(Fraction(x), Fraction(c)) for x, c in function["knots"]]
    if sg != 0 or not knots or knots[0][0] != sx:
        raise ValueError("the function must start flat at its first knot")
    xs, fs, gs, cs = [], [], [], []
    f, g = sf, sg
    for i, (x, c) in enumerate(knots):
        if abs(c) > 1:
            raise ValueError(f"curvature {c} at knot {i} exceeds L = 1")
        if i and x < knots[i - 1][0]:
            raise ValueError("the knots must be in increasing order")
        if i:
            w = x - knots[i - 1][0]
            c0 = knots[i - 1][1]
            f, g = f + g * w + c0 * w * w / 2, g + c0 * w
        xs.append(x)
        fs.append(f)
        gs.append(g)
        cs.append(c)
    if cs[-1] != 0 or gs[-1] != 0:
        raise ValueError("the function must end flat (slope 0, curvature 0 after its last knot)")

    def at(x):
        if x <= xs[0]:
            return fs[0], Fraction(0)
        k = max(i for i in range(len(xs)) if xs[i] <= x)
        w = x - xs[k]
        return fs[k] + gs[k] * w + cs[k] * w * w / 2, gs[k] + cs[k] * w

    sym = Symbolic(False)
    constraints(spec, sym, only=set())
    wit = Witness([Fraction(v) for v in x0], [[Fraction(v) for v in g] for g in grads],
                  [Fraction(v) for v in values], sym.calls)
    its, pts, _, _ = constraints(spec, wit)
    for x, gp, fp in pts:
        if len(x) != 1:
            raise ValueError("a witness function of the smooth class is one-dimensional")
        fv, gv = at(x[0])
        if (fv, gv) != (fp, gp[0]):
            raise ValueError(f"the point at {x[0]} is not on the function")
    low = min(fs)
    for i in range(len(xs) - 1):
        if cs[i] > 0:
            v = xs[i] - gs[i] / cs[i]
            if xs[i] < v < xs[i + 1]:
                low = min(low, fs[i] - gs[i] * gs[i] / (2 * cs[i]))
    f0 = pts[its[0]][2]
    if f0 - low > delta:
        raise ValueError(f"f(x_0) - inf f = {f0 - low} exceeds the initial gap {delta}")
    return value


__all__ = ["CLASSES", "Expr", "INITS", "METHODS", "STAR", "STATISTICS", "Symbolic", "Vec", "Witness", "WVec",
           "check_lower", "check_smooth", "check_upper", "constraints", "gram_matrix", "interpolation", "key_text", "psd", "run"]
