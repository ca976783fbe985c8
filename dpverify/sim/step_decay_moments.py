"""Exact moments of step-decay SGD with early momentum (:mod:`dpverify.sim.step_decay`) on diagonal
quadratics.

On a diagonal quadratic with an affine gradient ``lam_j (w_j - w*_j) + c_j`` and gradient noise
of variance ``v_j`` per coordinate (independent across steps, mean zero: the Gaussian noise plus
the mini-batch sampling noise), the mean and second moment of ``w_t - w*`` propagate linearly
through ``(w_t, w_{t-1})``; a uniformly drawn output averages them, and the next phase starts from
that mixture with zero velocity, so :func:`step_decay_quadratic_moments` gives the output's first
two moments exactly (NumPy, or mpmath at ``dps`` digits).
"""
from __future__ import annotations

import math

import mpmath
import numpy as np

from .balls import mpf_of, to_arb
from .step_decay import check_output, check_schedule

__all__ = ["peak_second_moment", "step_decay_quadratic_moments"]


def _per_coordinate(x, D):
    if isinstance(x, (list, tuple, np.ndarray)):
        if len(x) != D:
            raise ValueError(f"expected {D} per-coordinate values, got {len(x)}")
        return list(x)
    return [x] * D


# State of one coordinate: y = (S00, S01, S11, m0, m1, accS, accm, 1) with S00 = E w_t^2,
# S01 = E w_t w_{t-1}, S11 = E w_{t-1}^2, m0 = E w_t, m1 = E w_{t-1} (w = iterate - minimiser) and
# the running sums of S00 and m0 over the iterates the output is drawn from. One step
# w' = a w + b w_prev - eta (c + xi), E xi = 0, E xi^2 = v, is y' = M y.
def _segments(T, m, output):
    """(count, momentum on, accumulate) runs of steps 1..T of one phase (from the breakpoints, so that a phase
    of 2^30 steps costs as little as one of 30)."""
    def acc(t):
        return output == "after" or (output == "before" and t < T) or (output == "last" and t == T)

    cuts = sorted({1, T + 1, *(x for x in (m + 1, T) if 1 < x <= T)})   # where momentum or accumulation may change
    segs = []
    for lo, hi in zip(cuts, cuts[1:]):
        key = (lo <= m, acc(lo))
        if segs and tuple(segs[-1][1:]) == key:
            segs[-1][0] += hi - lo
        else:
            segs.append([hi - lo, *key])
    return segs


def _step_matrices(lam, eta, r, v, c, acc, one, zero):
    """The 8x8 step matrix per coordinate (nested lists of numbers)."""
    out = []
    for lj, vj, cj in zip(lam, v, c):
        a = one - eta * lj + r
        b = -r
        row_S00 = [a * a, 2 * a * b, b * b, -2 * eta * cj * a, -2 * eta * cj * b, zero, zero,
                   eta * eta * (vj + cj * cj)]
        row_S01 = [a, b, zero, -eta * cj, zero, zero, zero, zero]
        row_S11 = [one, zero, zero, zero, zero, zero, zero, zero]
        row_m0 = [zero, zero, zero, a, b, zero, zero, -eta * cj]
        row_m1 = [zero, zero, zero, one, zero, zero, zero, zero]
        row_aS = [zero] * 8
        row_am = [zero] * 8
        row_aS[5] = one
        row_am[6] = one
        if acc:
            row_aS = [x + y for x, y in zip(row_aS, row_S00)]
            row_am = [x + y for x, y in zip(row_am, row_m0)]
        row_1 = [zero] * 7 + [one]
        out.append([row_S00, row_S01, row_S11, row_m0, row_m1, row_aS, row_am, row_1])
    return out


def _np_power(M, n):
    """M^n for a stack of square matrices (repeated squaring)."""
    R = np.broadcast_to(np.eye(M.shape[-1]), M.shape).copy()
    P = M.copy()
    while n:
        if n & 1:
            R = P @ R
        n >>= 1
        if n:
            P = P @ P
    return R


def _mp_power(M, n):
    """``M**n`` for an mpmath matrix, at mpmath's working precision: computed by python-flint's ``arb_mat`` power
    (repeated squaring in C, 64 guard bits; the midpoints returned). mpmath's own matrix product in Python was the
    whole cost of an algorithm-rate sweep (a 2^30-step phase of 8x8 matrices per coordinate: ~600 s for one claim)."""
    from flint import arb_mat, ctx

    old = ctx.prec
    ctx.prec = mpmath.mp.prec + 64
    try:
        P = arb_mat([[to_arb(M[i, j]) for j in range(M.cols)] for i in range(M.rows)]) ** int(n)
        out = mpmath.matrix(M.rows, M.cols)
        for i in range(M.rows):
            for j in range(M.cols):
                out[i, j] = mpf_of(P[i, j].mid())
        return out
    finally:
        ctx.prec = old


def _phase_state(S, m, output: str) -> np.ndarray:
    """The 8-component state per coordinate at the start of a phase, from the second moment ``S``
    and the mean ``m`` of the iterate (rows: coordinates)."""
    y = np.zeros((len(m), 8))
    y[:, 0] = y[:, 1] = y[:, 2] = S
    y[:, 3] = y[:, 4] = m
    y[:, 7] = 1.0
    if output == "before":
        y[:, 5], y[:, 6] = S, m
    return y


def step_decay_quadratic_moments(eigs, delta0, etas, lengths, momentum_steps, momentum, noise_var,
                                grad_shift=None, *, output: str = "after", dps: int | None = None,
                                peak: bool = False):
    """Exact first and second moments of ``w_out - w*`` per coordinate on a diagonal quadratic.

    The gradient is ``eigs_j (w_j - w*_j) + grad_shift_j`` plus mean-zero noise of variance
    ``noise_var_j`` per coordinate and step, independent across steps (Gaussian noise plus
    mini-batch sampling noise, :func:`wor_batch_variance`). ``delta0 = w_start - w*``. Each phase is
    a product of powers of one 8x8 step matrix per coordinate (repeated squaring), so the cost is
    logarithmic in the phase lengths.

    Returns ``(mean, second)``: ``E[w_out - w*]_j`` and ``E[(w_out - w*)_j^2]`` (NumPy arrays, or
    lists of mpmath numbers when ``dps`` is given); with ``peak=True`` also the largest
    ``E[(w_t - w*)_j^2]`` over every iterate of every phase (a sequential pass in double precision).
    ``E f(w_out) - f* = sum_j eigs_j second_j / 2`` when there is no shift.
    """
    etas, lengths, mons = check_schedule(etas, lengths, momentum_steps)
    output = check_output(output)
    D = len(list(eigs))
    if dps is None:
        lam = [float(x) for x in eigs]
        v = [float(x) for x in _per_coordinate(noise_var, D)]
        c = [float(x) for x in _per_coordinate(0.0 if grad_shift is None else grad_shift, D)]
        m = np.asarray(delta0, float).reshape(D).copy()
        S = m * m
        rho = float(momentum)
        for eta, T, mk in zip(etas, lengths, mons):
            y = _phase_state(S, m, output)
            for count, mom, acc in _segments(T, mk, output):
                M = np.asarray(_step_matrices(lam, eta, rho if mom else 0.0, v, c, acc, 1.0, 0.0))
                y = np.einsum("dij,dj->di", _np_power(M, count), y)
            k = 1 if output == "last" else T
            S, m = y[:, 5] / k, y[:, 6] / k
        out = (m, S)
    else:
        with mpmath.workdps(dps):
            one, zero = mpmath.mpf(1), mpmath.mpf(0)
            lam = [mpmath.mpf(x) for x in eigs]
            v = [mpmath.mpf(x) for x in _per_coordinate(noise_var, D)]
            c = [mpmath.mpf(x) for x in _per_coordinate(0 if grad_shift is None else grad_shift, D)]
            m = [mpmath.mpf(x) for x in list(delta0)]
            if len(m) != D:
                raise ValueError(f"delta0 must have {D} entries, got {len(m)}")
            S = [x * x for x in m]
            rho = mpmath.mpf(momentum)
            for eta, T, mk in zip(etas, lengths, mons):
                eta = mpmath.mpf(eta)
                ys = []
                for j in range(D):
                    acc0 = (S[j], m[j]) if output == "before" else (zero, zero)
                    ys.append(mpmath.matrix([S[j], S[j], S[j], m[j], m[j], acc0[0], acc0[1], one]))
                for count, mom, acc in _segments(T, mk, output):
                    Ms = _step_matrices(lam, eta, rho if mom else zero, v, c, acc, one, zero)
                    ys = [_mp_power(mpmath.matrix(Mj), count) * y for Mj, y in zip(Ms, ys)]
                k = 1 if output == "last" else T
                S = [y[5] / k for y in ys]
                m = [y[6] / k for y in ys]
            out = (m, S)
    if not peak:
        return out
    return (*out, peak_second_moment(eigs, delta0, etas, lengths, mons, momentum, noise_var, grad_shift, output))


def _trajectory(M, y, count):
    """States after 1..count steps of y' = M y, shape (D, 8, count), by doubling (log2(count) batched products)."""
    Y = np.einsum("dij,dj->di", M, y)[:, :, None]
    Pk = M
    while Y.shape[2] < count:
        Y = np.concatenate([Y, Pk @ Y], axis=2)  # states k+1..2k from states 1..k, Pk = M^k
        Pk = Pk @ Pk
    return Y[:, :, :count]


#: a run of equal steps without momentum longer than this has its peak after LONG steps bounded (_tail_peak)
LONG = 1 << 14


def _tail_peak(lam, eta, v, c, y):
    """An upper bound on E[e_t^2] for every later step of a run without momentum from the state ``y``: the mean
    m_t = m* + a^(t - t1) (m_t1 - m*) with |a| = |1 - eta lam| < 1 stays within |m*| + |m_t1 - m*| of 0 and the
    variance moves monotonically from V_t1 to V* = eta^2 v/(1 - a^2); inf where |a| >= 1."""
    out = np.empty(len(lam))
    for j, (lj, vj, cj) in enumerate(zip(lam, v, c)):
        a = 1.0 - eta * lj
        if not abs(a) < 1.0:
            out[j] = math.inf
            continue
        m, X = y[j, 3], y[j, 0]
        ms = -eta * cj / (1.0 - a)
        out[j] = (abs(ms) + abs(m - ms)) ** 2 + max(X - m * m, eta * eta * vj / (1.0 - a * a))
    return out


def peak_second_moment(eigs, delta0, etas, lengths, mons, momentum, noise_var, grad_shift, output):
    """Largest E[(w_t - w*)_j^2] over every iterate (double precision; all iterates of a run of equal
    steps at once, by doubling)."""
    lam = [float(x) for x in eigs]
    D = len(lam)
    v = [float(x) for x in _per_coordinate(noise_var, D)]
    c = [float(x) for x in _per_coordinate(0.0 if grad_shift is None else grad_shift, D)]
    m = np.asarray([float(x) for x in list(delta0)])
    S = m * m
    peak = S.copy()
    rho = float(momentum)
    for eta, T, mk in zip(etas, lengths, mons):
        y = _phase_state(S, m, output)
        for count, mom, acc in _segments(T, mk, output):
            M = np.asarray(_step_matrices(lam, eta, rho if mom else 0.0, v, c, acc, 1.0, 0.0))
            if count > LONG and not (mom and rho != 0.0):   # a long run without momentum: its first LONG steps
                Y = _trajectory(M, y, LONG)                  # exactly, the rest by a bound (_tail_peak)
                np.maximum(peak, Y[:, 0, :].max(axis=1), out=peak)
                np.maximum(peak, _tail_peak(lam, float(eta), v, c, Y[:, :, -1]), out=peak)
                y = np.einsum("dij,dj->di", _np_power(M, count - LONG), Y[:, :, -1])
                continue
            Y = _trajectory(M, y, count)
            np.maximum(peak, Y[:, 0, :].max(axis=1), out=peak)
            y = Y[:, :, -1]
        k = 1 if output == "last" else T
        S, m = y[:, 5] / k, y[:, 6] / k
    return peak
