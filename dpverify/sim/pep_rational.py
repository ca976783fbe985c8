"""Exact certificates from a numerical PEP solution: a rational worst function and rational multipliers.

A solver's numbers are not a proof. From a :class:`.pep_direct.Solution` this module builds

* **a worst function** (a lower bound, :func:`lower`): the primal Gram matrix factored as ``V V^T``
  (pivoted ``L D L^T``, rank ``r``: every basis vector is a point of ``R^r``), rounded to rationals in
  two ways -- the gradients fitted by an affine map ``g = A x + b`` on the queried points and recomputed
  by running the method exactly (a quadratic or a Huber-like worst function is then recovered exactly),
  or every coordinate rounded; the function values are the largest ones the difference constraints
  allow (a shortest path from ``f* = 0``, exact), which maximise every statistic with non-negative
  weights on them. Where rounding leaves a constraint violated, the point is mixed with a strictly
  feasible one (a quadratic of curvature strictly inside the class; the constraints are linear in
  ``(G, F)``, and the weights of the mix are a rational point of the unit circle, so the vectors stay
  rational). :func:`.pep_exact.check_lower` checks the result against every constraint.
* **multipliers** (an upper bound, :func:`upper`): the multipliers the solver made positive are the
  unknowns (those of constraints slack at an exact worst function are 0: complementary slackness); the
  equations are the dual's equalities (no term in ``F`` or ``t`` may remain), the kernel of ``S``
  (``S K = 0`` for the exact worst function's coordinates ``K``: the facial reduction that lets a tight
  certificate, whose ``S`` is singular, pass an exact test) and, for a tight bound, the bound itself.
  The equations are reduced exactly (python-flint ``fmpq_mat.rref``) with the columns in decreasing
  order of the solver's values, so the largest multipliers are solved for and the others are fixed at
  their rounded values. :func:`.pep_exact.check_upper` decides ``S >> 0`` exactly.
"""
from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

import numpy as np

from . import pep_exact as E

#: the rounding tolerances tried, coarsest first (the simplest rational within each, relative to max(1, |x|))
TOLERANCES = (1e-4, 1e-6, 1e-8, 1e-11)
#: a multiplier below this share of the largest is taken as 0
ACTIVE_REL = 1e-7


def simplest(lo: Fraction, hi: Fraction) -> Fraction:
    """The rational with the smallest denominator in ``[lo, hi]`` (continued fractions)."""
    if lo > hi:
        lo, hi = hi, lo
    if lo <= 0 <= hi:
        return Fraction(0)
    if hi < 0:
        return -simplest(-hi, -lo)
    fl = lo.numerator // lo.denominator
    if Fraction(fl) == lo:
        return lo
    if fl + 1 <= hi:
        return Fraction(fl + 1)
    # lo and hi share the integer part fl: recurse on the reciprocals of the fractional parts
    return fl + 1 / simplest(1 / (hi - fl), 1 / (lo - fl))


def _q(x: float, tol: float) -> Fraction:
    """The simplest rational within ``tol * max(1, |x|)`` of ``x``."""
    x = Fraction(float(x))
    w = Fraction(tol) * max(Fraction(1), abs(x))
    return simplest(x - w, x + w)


@dataclass
class Lower:
    """A worst function: ``x0`` and the gradients (rational vectors of ``R^r``), the values, the
    statistic's exact ``value``, and whether it was rounded exactly (``mixed`` is the share of a strictly
    feasible point mixed in, 0 when none)."""

    x0: list
    grads: list
    values: list
    value: Fraction
    mixed: Fraction = Fraction(0)
    #: on the smooth class: the explicit one-dimensional function through the points (:mod:`.pep_smooth`)
    function: dict | None = None

    @property
    def dimension(self) -> int:
        return len(self.x0)

    def to_json(self) -> dict:
        out = {"x0": [str(v) for v in self.x0], "grads": [[str(v) for v in g] for g in self.grads],
               "values": [str(v) for v in self.values], "value": str(self.value)}
        if self.function is not None:
            out["function"] = {"start": [str(v) for v in self.function["start"]],
                               "knots": [[str(x), str(c)] for x, c in self.function["knots"]]}
        return out


@dataclass
class Upper:
    """Multipliers (constraint key text -> rational) proving ``objective <= bound``."""

    multipliers: dict
    bound: Fraction

    def to_json(self) -> dict:
        return {"multipliers": {k: str(v) for k, v in self.multipliers.items()}, "bound": str(self.bound)}


# ------------------------------------------------------------------------------------------ the worst function
def factor(G: np.ndarray, rel: float = 1e-7, split: bool = False):
    """``V`` (``n x r``) with ``G ~ V V^T``: pivoted ``L D L^T`` truncated where the pivots fall below
    ``rel`` of the largest diagonal entry, ``V = L sqrt(D)`` (``split``: ``(L, D)`` instead)."""
    A = np.array(G, dtype=float)
    n = len(A)
    top = max(float(np.max(np.diag(A))) if n else 0.0, 1e-300)
    left, cols, ds = list(range(n)), [], []
    while left:
        p = max(left, key=lambda i: A[i, i])
        d = A[p, p]
        if d <= rel * top:
            break
        col = np.zeros(n)
        col[left] = A[left, p] / d
        left.remove(p)
        A[np.ix_(left, left)] -= d * np.outer(col[left], col[left])
        cols.append(col)
        ds.append(d)
    Lm = np.array(cols).T if cols else np.zeros((n, 0))
    if split:
        return Lm, np.array(ds)
    return Lm * np.sqrt(np.array(ds)) if cols else Lm


def four_squares(r: Fraction, limit: int = 2000) -> list | None:
    """Rationals ``[a, b, c, d]`` with ``a^2 + b^2 + c^2 + d^2 = r`` (Lagrange: every positive rational has them),
    found by a bounded search; ``None`` past ``limit`` trials."""
    import math

    if r <= 0:
        return None
    n = r.numerator * r.denominator           # r = n / den^2
    den = r.denominator
    trials = 0
    a = math.isqrt(n)
    while a >= 0:
        rest = n - a * a
        b = math.isqrt(rest)
        while b >= 0 and trials < limit:
            trials += 1
            rest2 = rest - b * b
            c = math.isqrt(rest2)
            d2 = rest2 - c * c
            d = math.isqrt(d2)
            if d * d == d2:
                return [Fraction(v, den) for v in (a, b, c, d)]
            if 2 * b * b < rest:
                break
            b -= 1
        if trials >= limit or 2 * a * a < n:
            break
        a -= 1
    return None


def _ldl_candidates(spec, sym, G):
    """Rational ``(x0, grads)`` with Gram matrix ``L D L^T`` for ``L``, ``D`` rounded (a Gram matrix of rationals
    whose vectors are irrational, such as a gradient of squared norm 2): each column ``j`` becomes four
    coordinates, ``D_j`` a sum of four rational squares."""
    Lm, Dv = factor(G, split=True)
    P = len(sym.points)
    has_star = spec["function_class"] != "smooth"
    for tol in TOLERANCES:
        for r in range(1, Lm.shape[1] + 1):
            roots = [four_squares(_q(d, tol)) for d in Dv[:r]]
            if any(rt is None for rt in roots):
                continue
            rows = [[_q(Lm[a, j], tol) * c for j in range(r) for c in roots[j]] for a in range(Lm.shape[0])]
            x0 = rows[0] if has_star else [Fraction(0)] * (4 * r)
            yield x0, [rows[_grad_index(spec, i)] for i in range(P)]


def _grad_index(spec, i):
    return i + (1 if spec["function_class"] != "smooth" else 0)


def _values(spec, x0, grads, calls):
    """The largest function values the difference constraints allow (``None`` when none fit); exact."""
    wit = E.Witness(x0, grads, [Fraction(0)] * len(grads), calls)
    _, pts, cons, _ = E.constraints(spec, wit)
    P = len(pts)
    anchor = P                                     # f* = 0; on `smooth`, f(x_0) = 0 (values are relative)
    smooth = spec["function_class"] == "smooth"
    i0 = calls[0]
    node = (lambda i: anchor if i == E.STAR else i)
    edges = []                                     # (a, b, c): f_a - f_b >= c, i.e. f_b <= f_a - c
    for key, e in cons:                            # e is the constraint at zero values: c
        kind = key[0]
        if kind == "i":
            edges.append((node(key[1]), node(key[2]), e))
        elif kind == "pl_low":
            edges.append((key[1], anchor, e))
        elif kind == "pl":
            edges.append((anchor, key[1], e))
        elif kind == "init" and len(key) == 1 and spec["init"] == "gap":
            edges.append((anchor, i0, e))
        elif kind == "init" and len(key) == 2:
            edges.append((key[1], i0, e))
    src = i0 if smooth else anchor
    dist = [None] * (P + 1)
    dist[src] = Fraction(0)
    for _ in range(P + 2):
        changed = False
        for a, b, c in edges:
            if dist[a] is not None:
                v = dist[a] - c
                if dist[b] is None or v < dist[b]:
                    dist[b], changed = v, True
        if not changed:
            break
    else:
        return None
    if any(d is None for d in dist[:P]):
        return None
    return dist[:P]


def run_affine(spec, calls, x0, A, b):
    """The gradients the method meets on ``g(x) = A x + b`` from ``x0`` (exact)."""
    r = len(x0)
    grads = []
    k = [0]

    class Oracle:
        points = []

        def __call__(self, x):
            i = calls[k[0]]
            k[0] += 1
            if i == len(grads):
                grads.append(E.WVec(sum((A[a][c] * x[c] for c in range(r)), Fraction(0)) + b[a] for a in range(r)))
            return grads[i], None

    E.run(spec["method"], [Fraction(h) for h in spec["steps"]], Fraction(spec.get("beta", 0)), E.WVec(x0), Oracle())
    return [list(g) for g in grads]


def _candidates(spec, sym, V):
    """Rational ``(x0, grads)`` near the factor ``V`` and its truncations to its first columns (a solver's
    point carries small spurious dimensions): an affine gradient fit, then coordinate rounding."""
    for r in range(1, V.shape[1] + 1):
        yield from _candidates_of(spec, sym, V[:, :r])


def _candidates_of(spec, sym, V):
    n, r = V.shape
    P = len(sym.points)
    has_star = spec["function_class"] != "smooth"
    x0n = V[0] if has_star else np.zeros(r)
    Xp = np.zeros((P, r))
    for i, (x, _, _) in enumerate(sym.points):
        for a, v in x.c.items():
            Xp[i] += float(v) * V[a]
    Gp = np.array([V[_grad_index(spec, i)] for i in range(P)])
    M = np.hstack([Xp, np.ones((P, 1))])
    coef = np.linalg.lstsq(M, Gp, rcond=None)[0]
    fit = float(np.max(np.abs(M @ coef - Gp))) if P else 0.0
    scale = max(1.0, float(np.max(np.abs(Gp))) if P else 1.0)
    for den in TOLERANCES:
        x0 = [_q(v, den) for v in x0n]
        if fit <= 1e-6 * scale:
            A = [[_q(coef[c, a], den) for c in range(r)] for a in range(r)]
            b = [_q(coef[r, a], den) for a in range(r)]
            yield x0, run_affine(spec, sym.calls, x0, A, b)
        yield x0, [[_q(v, den) for v in Gp[i]] for i in range(P)]


def _interior(spec, calls):
    """A strictly feasible point of the class: a quadratic of curvature strictly inside, in one dimension."""
    cls = spec["function_class"]
    q = Fraction(spec.get("q", 0)) if cls in ("smooth_strongly_convex", "pl") else Fraction(0)
    a = (1 + q) / 2 if cls != "smooth" else Fraction(1, 2)
    x0 = [Fraction(1, 2)]
    return x0, run_affine(spec, calls, x0, [[a]], [Fraction(0)])


def _check(spec, x0, grads, calls):
    values = _values(spec, x0, grads, calls)
    if values is None:
        return None
    try:
        return E.check_lower(spec, x0, grads, values), values
    except ValueError:
        return None


def _scaled(spec, x0, grads, calls):
    """The point scaled down (by a rational factor, the statistic by its square) until it meets the
    initial condition; ``None`` if that does not help."""
    for k in (Fraction(1), Fraction(10**6 - 1, 10**6), Fraction(999, 1000), Fraction(9, 10), Fraction(1, 2)):
        xs = [v * k for v in x0]
        gs = [[v * k for v in g] for g in grads]
        got = _check(spec, xs, gs, calls)
        if got is not None:
            return xs, gs, got
    return None


def lower(spec, sym, G: np.ndarray, target: Fraction | None = None, mix: bool = True, accept=None) -> Lower | None:
    """A checked worst function near the Gram matrix ``G`` (module docstring): the first whose value is
    ``target`` exactly, else the one with the largest value; ``None`` when none passes (``mix``: try the
    mixes with a strictly feasible point before giving up; ``accept(candidate)``: a further check, which may
    attach data to the candidate, or refuse it)."""
    V = factor(G)
    best = None
    if V.shape[1]:
        import itertools

        for x0, grads in itertools.chain(_candidates(spec, sym, V), _ldl_candidates(spec, sym, G)):
            got = _check(spec, x0, grads, sym.calls)
            if got is None:
                continue
            value, values = got
            cand = Lower(x0, grads, values, value)
            if accept is not None and not accept(cand):
                continue
            if target is not None and value == target:
                return cand
            if best is None or value > best.value:
                best = cand
    if best is not None or not mix:
        return best
    # mix with a strictly feasible point: c^2 + s^2 = 1, c = (1 - t^2)/(1 + t^2), s = 2t/(1 + t^2)
    ux0, ugrads = _interior(spec, sym.calls)
    for t in (Fraction(1, 10**6), Fraction(1, 10**4), Fraction(1, 100), Fraction(1, 10)):
        c, s = (1 - t * t) / (1 + t * t), 2 * t / (1 + t * t)
        for x0, grads in _candidates(spec, sym, V) if V.shape[1] else [([], [[]] * len(ugrads))]:
            mx0 = [v * c for v in x0] + [v * s for v in ux0]
            mgrads = [[v * c for v in g] + [v * s for v in ug] for g, ug in zip(grads, ugrads)]
            got = _scaled(spec, mx0, mgrads, sym.calls)
            if got is not None:
                xs, gs, (value, values) = got
                return Lower(xs, gs, values, value, s * s)
    return None


# ------------------------------------------------------------------------------------------ the multipliers
def _sym_matrix(quad, n):
    """``quad`` as a symmetric matrix (rationals), ``<S, G> = sum quad[(a, b)] G_ab``."""
    return E.gram_matrix(quad, n)


def upper(spec, num, sol, kernel=None, bound: Fraction | None = None, witness: Lower | None = None) -> Upper | None:
    """Rational multipliers near the solver's (module docstring), checked exactly; ``None`` when the
    equations have no solution near them or ``S`` is not PSD. ``kernel``: rational vectors (length ``n``)
    ``S`` must annihilate; ``bound``: the value the multipliers must prove exactly; ``witness``: an exact
    worst function (its slack constraints get multiplier 0)."""
    import flint

    lam0 = sol.lam
    top = max(lam0.values()) if lam0 else 0.0
    active = [k for k in sol.keys if lam0[k] > ACTIVE_REL * max(top, 1e-300)]
    if witness is not None:
        slack = _slack_keys(spec, witness, set(active))
        active = [k for k in active if k not in slack]
    active.sort(key=lambda k: -lam0[k])
    exprs = num.exprs(active)
    n = num.n
    rows, rhs = [], []
    lin_keys = sorted({j for k in active for j in exprs[k].lin} | set(num.obj.lin), key=str)
    for j in lin_keys:                                   # sum lambda_k lin_k[j] = obj.lin[j]
        rows.append([exprs[k].lin.get(j, Fraction(0)) for k in active])
        rhs.append(num.obj.lin.get(j, Fraction(0)))
    if kernel:                                           # (sum lambda_k A_k - C) u = 0 for u in the kernel
        U = flint.fmpq_mat(n, len(kernel), [_fq(u[a]) for a in range(n) for u in kernel])
        prods = [_fmat(_sym_matrix(exprs[k].quad, n)) * U for k in active]
        CU = _fmat(_sym_matrix(num.obj.quad, n)) * U
        for c in range(len(kernel)):
            for a in range(n):
                rows.append([_fr(P[a, c]) for P in prods])
                rhs.append(_fr(CU[a, c]))
    if bound is not None:
        rows.append([-exprs[k].const for k in active])
        rhs.append(Fraction(bound))
    a = len(active)
    if not a:
        return None
    M = flint.fmpq_mat(len(rows), a + 1, [flint.fmpq(v.numerator, v.denominator)
                                          for row, r in zip(rows, rhs) for v in list(row) + [r]])
    R, rank = M.rref()
    pivots, row_of = [], {}
    for i in range(rank):
        for j in range(a + 1):
            if R[i, j] != 0:
                if j == a:
                    return None                          # inconsistent: 0 = nonzero
                pivots.append(j)
                row_of[j] = i
                break
    for den in TOLERANCES:
        lam = {}
        free = [j for j in range(a) if j not in row_of]
        for j in free:
            lam[j] = _q(lam0[active[j]], den) if lam0[active[j]] > 0 else Fraction(0)
        for j in pivots:
            i = row_of[j]
            v = R[i, a]
            for f in free:
                if R[i, f] != 0:
                    v -= R[i, f] * flint.fmpq(lam[f].numerator, lam[f].denominator)
            lam[j] = Fraction(int(v.p), int(v.q))
        if any(v < 0 for v in lam.values()):
            continue
        mult = {E.key_text(active[j]): v for j, v in lam.items() if v}
        try:
            value, _ = E.check_upper(spec, mult, field=_fq)
        except ValueError:
            continue
        return Upper(mult, value)
    return None


def _fq(v):
    import flint

    v = Fraction(v)
    return flint.fmpq(v.numerator, v.denominator)


def _fr(v) -> Fraction:
    return Fraction(int(v.p), int(v.q))


def _fmat(M):
    import flint

    return flint.fmpq_mat(len(M), len(M), [_fq(v) for row in M for v in row])


def _slack_keys(spec, witness: Lower, keys) -> set:
    """The keys among ``keys`` whose constraint is strictly slack at the exact worst function."""
    sym = E.Symbolic(spec["function_class"] != "smooth")
    E.constraints(spec, sym, only=set())
    wit = E.Witness(witness.x0, witness.grads, witness.values, sym.calls)
    _, _, cons, _ = E.constraints(spec, wit)
    return {k for k, e in cons if k in keys and e < 0}


def kernel_of(spec, witness: Lower, n: int) -> list:
    """The worst function's coordinates as vectors over the basis (``S`` must annihilate them)."""
    has_star = spec["function_class"] != "smooth"
    r = witness.dimension
    rowsv = ([list(witness.x0)] if has_star else []) + [list(g) for g in witness.grads]
    return [[rowsv[a][k] for a in range(n)] for k in range(r)]


__all__ = ["ACTIVE_REL", "TOLERANCES", "four_squares", "run_affine", "simplest", "Lower", "Upper", "factor", "kernel_of", "lower", "upper"]
