"""The exact privacy profile of two one-dimensional Gaussians with different means *and* variances.

``hockey_stick(eps, (m1, s1), (m2, s2))`` is ``H_eps(P || Q) = sup_S P(S) - e^eps Q(S)`` for ``P = N(m1, s1^2)``
and ``Q = N(m2, s2^2)``: the set where ``log p - log q > eps`` is where a quadratic in ``x`` is positive (an
interval, the complement of one, a half-line, the line or nothing), and ``H`` is ``P - e^eps Q`` of that set, by
normal distribution functions in mpmath. With equal variances it is Balle & Wang's profile of the Gaussian
mechanism [Balle & Wang 2018, Thm. 8]; with different variances it is what a mechanism whose noise level depends
on the data releases on two neighbouring data sets.

``delta_lower(eps, s1, s2, shift)`` is a rigorous lower bound on the delta at ``eps`` of two releases ``N(m, s1^2)``
and ``N(m', s2^2)`` whose means differ by an unknown amount ``|m - m'| <= shift``: the least over the shift of the
larger of the two directions' ``H``, on a grid, less the most ``H`` can move between two grid points (``H`` moves
with the mean of the law not multiplied by ``e^eps`` by at most ``1 / (s sqrt(2 pi))`` per unit, ``s`` its deviation; by post-processing a lower bound
on one coordinate of one release is one on the whole release). The grid is refined where the bound is weakest.
"""
from __future__ import annotations

import heapq
import math

import mpmath as mp

__all__ = ["DIGITS", "delta_lower", "hockey_stick", "loss_region"]

#: working digits of the profile (the quadratic's roots cancel where the variances nearly agree)
DIGITS = 50
#: grid points over the unknown mean shift in :func:`delta_lower`
GRID = 129
#: evaluations of the profile :func:`delta_lower` may spend refining its grid
BUDGET = 1200
#: beyond this eps :func:`delta_lower` returns its trivial bound 0 (e^eps overflows a double)
MAX_EPS = 700.0


def _check(name, value, positive=True):
    v = float(value)
    if not math.isfinite(v) or (positive and not v > 0):
        raise ValueError(f"{name} must be a finite number{' > 0' if positive else ''}. Found {value!r}.")


def loss_region(eps, p, q):
    """The intervals ``(lo, hi)`` (mpf, infinite ends as ``-inf``/``inf``) where ``log p(x) - log q(x) > eps`` for
    ``p = N(p[0], p[1]^2)``, ``q = N(q[0], q[1]^2)``."""
    (m1, s1), (m2, s2) = p, q
    m1, s1, m2, s2, eps = (mp.mpf(v) for v in (m1, s1, m2, s2, eps))
    A = 1 / (2 * s2 ** 2) - 1 / (2 * s1 ** 2)
    B = m1 / s1 ** 2 - m2 / s2 ** 2
    C = m2 ** 2 / (2 * s2 ** 2) - m1 ** 2 / (2 * s1 ** 2) + mp.log(s2 / s1) - eps
    inf = mp.inf
    if A == 0:
        if B == 0:
            return [(-inf, inf)] if C > 0 else []
        r = -C / B
        return [(r, inf)] if B > 0 else [(-inf, r)]
    disc = B ** 2 - 4 * A * C
    if disc <= 0:
        return [(-inf, inf)] if A > 0 and disc < 0 else []
    root = mp.sqrt(disc)
    r1, r2 = sorted(((-B - root) / (2 * A), (-B + root) / (2 * A)))
    return [(-inf, r1), (r2, inf)] if A > 0 else [(r1, r2)]


def _mass(interval, m, s):
    lo, hi = interval
    return mp.ncdf(hi, m, s) - mp.ncdf(lo, m, s)


def hockey_stick(eps, p, q, digits: int = DIGITS):
    """``H_eps(N(p) || N(q)) = sup_S P(S) - e^eps Q(S)`` exactly (``p``, ``q``: (mean, standard deviation)), an
    mpf at ``digits`` digits (never below 0).

    >>> float(hockey_stick(0.0, (0.0, 1.0), (0.0, 1.0)))
    0.0
    >>> round(float(hockey_stick(0.0, (0.0, 1.0), (0.0, 2.0))), 6)   # total variation of N(0,1), N(0,4)
    0.322675
    """
    _check("eps", eps, positive=False)
    for name, v in (("p's standard deviation", p[1]), ("q's standard deviation", q[1])):
        _check(name, v)
    _check("p's mean", p[0], positive=False)
    _check("q's mean", q[0], positive=False)
    with mp.workdps(digits):
        total = mp.mpf(0)
        for iv in loss_region(eps, p, q):
            total += _mass(iv, p[0], p[1]) - mp.exp(eps) * _mass(iv, q[0], q[1])
        return max(total, mp.mpf(0))


def delta_lower(eps, s1, s2, shift, grid: int = GRID, budget: int = BUDGET, target: float | None = None) -> float:
    """A rigorous lower bound on ``max(H_eps(P || Q), H_eps(Q || P))`` for ``P = N(m, s1^2)``, ``Q = N(0, s2^2)``
    and every ``m`` with ``|m| <= shift`` (the module docstring): the delta at ``eps`` of two releases of one
    coordinate whose noise levels are ``s1`` and ``s2`` and whose means differ by at most ``shift``.

    ``H`` is even in ``m`` and moves with it by at most ``1/(min(s1, s2) sqrt(2 pi))`` per unit (each direction moves
    the law that is not multiplied by ``e^eps``, whose total variation moves that much). On an interval ``[a, b]`` of
    shifts the least value is therefore at least ``(f(a) + f(b))/2 - K (b - a)/2``; the interval with the smallest
    such bound is halved until ``budget`` evaluations are spent, starting from ``grid`` points; with a ``target``
    (a promised delta), as soon as the bound exceeds it or a value at one shift is at or below it (then no bound can
    exceed it).

    >>> delta_lower(1.0, 1.0, 1.0, 0.0)
    0.0
    >>> 0.35 < delta_lower(1.0, 1.0, 3.0, 0.5) < 0.4
    True
    """
    _check("eps", eps, positive=False)
    _check("s1", s1)
    _check("s2", s2)
    _check("shift", shift, positive=False)
    if shift < 0:
        raise ValueError(f"shift must be >= 0. Found {shift!r}.")
    eps, s1, s2, shift = float(eps), float(s1), float(s2), float(shift)
    if eps > MAX_EPS:
        return 0.0   # e^eps beyond double precision: 0 is a lower bound, and no promise at such eps is refuted

    def f(m):
        v = max(hockey_stick(eps, (m, s1), (0.0, s2)), hockey_stick(eps, (m, s2), (0.0, s1)))
        return float(v * (1 - mp.mpf(10) ** -30)) * (1 - 1e-15)   # the digits' rounding, then the double's

    if shift == 0:
        return max(0.0, f(0.0))
    K = 1.0 / (min(s1, s2) * math.sqrt(2 * math.pi))
    ms = [shift * k / (grid - 1) for k in range(grid)]
    vals = [f(m) for m in ms]
    heap = [((va + vb) / 2 - K * (b - a) / 2, a, b, va, vb) for a, b, va, vb in zip(ms, ms[1:], vals, vals[1:])]
    heapq.heapify(heap)
    spent = grid
    while spent < budget and heap[0][0] < min(vals) - 1e-12:
        if target is not None and (heap[0][0] > target or min(vals) <= target):
            break
        _, a, b, va, vb = heapq.heappop(heap)
        c = (a + b) / 2
        vc = f(c)
        vals.append(vc)
        spent += 1
        for lo, hi, vl, vh in ((a, c, va, vc), (c, b, vc, vb)):
            heapq.heappush(heap, ((vl + vh) / 2 - K * (hi - lo) / 2, lo, hi, vl, vh))
    return max(0.0, math.nextafter(min(heap[0][0], min(vals)), -math.inf))
