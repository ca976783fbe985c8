"""Functions defined by the proofs of [dni] ("On Dynamic Noise Influence in Differential Private
Learning", seed 000_155fea93f75f24eb.txt), which only its claims use.

* ``t_hat``: the threshold T_hat of Lemma B.7, and the scans of its two regimes;
* the U3 ratios of the proofs of Theorems 4.5 and 4.6;
* ``MomentumGradientDrift``: Lemma B.5 on arbitrary momentum trajectories;
* ``dp_to_zcdp_spurious_root``: the zCDP "inversion" printed below Lemma B.3 (the spurious root).
"""
from __future__ import annotations

import math
from functools import lru_cache

import mpmath
import numpy as np
from hypothesis import strategies as st

from dpverify.privacy.validation import check_delta, check_nonnegative, uses_mpmath
from dpverify.scenarios import PointScenario, Scenario


def _logfloats(lo, hi):
    return st.floats(math.log(lo), math.log(hi)).map(math.exp)


@lru_cache(maxsize=65536)
def t_hat(beta: float, gamma: float, limit: int = 10_000_000) -> int:
    """[dni, Lemma B.7]: the largest t with gamma^(t-1) >= (1 - beta)/(1 - beta^t).

    h(t) = gamma^(t-1)(1 - beta^t) starts at h(1) = 1 - beta and decays to 0, so the set is finite.
    log h is scanned (NumPy, log space) for t up to where gamma^(t-1) < (1 - beta)/2, so a set
    that is not a prefix of 1..T_hat would still be seen; the decision at the boundary is
    re-evaluated in mpmath at 40 digits. Only the largest t the scan admits matters, so the scan
    runs from the top down, in blocks, and stops at the first block holding one: log h(t) <=
    (t - 1) log gamma (the other term is a log1p of a number <= 0), so no t above the last one with
    (t - 1) log gamma >= log(1 - beta) can be admitted. The same values are computed as by a scan
    of every t (:func:`_t_hat_full_scan`, which the tests compare it with).
    """
    lb, lg = math.log1p(-beta), math.log(gamma)
    stop = min(limit, int(math.ceil((math.log(2) - lb) / -lg)) + 2)
    lbeta, thr = math.log(beta), lb - 1e-12
    # the last index i = t - 1 < stop with i * lg >= thr (i * lg is non-increasing in i)
    lo, hi = 0, stop           # invariant: every i < lo has i * lg >= thr; every i >= hi has i * lg < thr
    while lo < hi:
        mid = (lo + hi) // 2
        if float(mid) * lg >= thr:
            lo = mid + 1
        else:
            hi = mid
    top = 1
    end, block = lo, 4096      # indices [0, end) may be admitted
    while end > 0:
        start = max(0, end - block)
        ts = np.arange(start + 1, end + 1, dtype=float)
        logh = (ts - 1) * lg + np.log1p(-np.exp(ts * lbeta))
        ok = np.nonzero(logh >= thr)[0]
        if ok.size:
            top = max(1, start + int(ok[-1]) + 1)
            break
        end, block = start, 2 * block
    return _t_hat_settle(beta, gamma, top)


def _t_hat_settle(beta, gamma, top: int) -> int:
    """The largest t of ``top - 2 .. top + 2`` in the set, decided in mpmath at 40 digits (else 1)."""
    b, g = mpmath.mpf(beta), mpmath.mpf(gamma)
    with mpmath.workdps(40):
        best = 1
        for t in range(max(1, top - 2), top + 3):
            if g ** (t - 1) * (1 - b**t) >= 1 - b:
                best = max(best, t)
    return best


def _t_hat_full_scan(beta: float, gamma: float, limit: int = 10_000_000) -> int:
    """:func:`t_hat` by a scan of every t up to where gamma^(t-1) < (1 - beta)/2 (the reference the
    tests compare the top-down scan with)."""
    lb, lg = math.log1p(-beta), math.log(gamma)
    stop = min(limit, int(math.ceil((math.log(2) - lb) / -lg)) + 2)
    ts = np.arange(1, stop + 1, dtype=float)
    logh = (ts - 1) * lg + np.log1p(-np.exp(ts * math.log(beta)))
    ok = np.nonzero(logh >= lb - 1e-12)[0]
    cands = sorted({1, *(int(x) + 1 for x in ok[-3:])})
    return _t_hat_settle(beta, gamma, cands[-1])


#: T_hat of Lemma B.7 in ball arithmetic (python-flint ``arb``), the definition a certificate's check.py
#: carries (:func:`dpverify.arb_source.ball_function`): t = 1 is always in the set (h(1) = 1 - beta); once
#: gamma^(t-1) < 1 - beta is decided, h(t) = gamma^(t-1)(1 - beta^t) < 1 - beta for every later t.
T_HAT_BALL = r'''
def T_hat(beta, gamma):
    """[dni, Lemma B.7]: the largest t with gamma^(t-1) (1 - beta^t) >= 1 - beta (0 <= beta < 1, 0 < gamma < 1)."""
    if not (_cmp(beta, ">=", 0) and _cmp(beta, "<", 1) and _cmp(gamma, ">", 0) and _cmp(gamma, "<", 1)):
        raise ValueError(f"T_hat needs 0 <= beta < 1 and 0 < gamma < 1, got {beta}, {gamma}")
    best, t, g = 1, 2, gamma
    while _cmp(g, ">=", 1 - beta):
        if _cmp(g * (1 - beta ** t), ">=", 1 - beta):
            best = t
        t, g = t + 1, g * gamma
        if t > 10 ** 6:
            raise ValueError("T_hat is beyond 10^6")
    return arb(best)
'''


def _t_hat_below(p):
    b, g = mpmath.mpf(p["beta"]), mpmath.mpf(p["gamma_m"])
    th = t_hat(p["beta"], p["gamma_m"])
    ts = np.arange(1, th + 1, dtype=float)
    ratio = np.exp(math.log1p(-p["beta"]) - np.log1p(-np.exp(ts * math.log(p["beta"])))
                   - (ts - 1) * math.log(p["gamma_m"]))
    worst = int(np.argmax(ratio)) + 1
    with mpmath.workdps(40):  # the worst t, and both ends, in mpmath
        return float(max((1 - b) / ((1 - b**t) * g ** (t - 1)) for t in {1, worst, th}))


def _t_hat_above(p):
    b, g = mpmath.mpf(p["beta"]), mpmath.mpf(p["gamma_m"])
    th = t_hat(p["beta"], p["gamma_m"])
    with mpmath.workdps(40):
        return float(max((1 - b) / ((1 - b**t) * g ** (th - 1)) for t in range(th + 1, th + 200)))


def _u3_uniform_ratio(p):
    """[dni, proof of Theorem 4.5]: U3 of the uniform schedule over its printed bound."""
    kappa, eta0, beta, T, R = p["kappa"], p["eta0"], p["beta"], int(p["T"]), p["R"]
    gamma = 1 - eta0 / kappa
    th = t_hat(beta, gamma)
    s2 = T / R
    with mpmath.workdps(30):
        b, g = mpmath.mpf(beta), mpmath.mpf(gamma)
        u3 = mpmath.fsum(g ** (T - t) * (1 - b) ** 2 / (1 - b**t) ** 2
                         * mpmath.fsum(b ** (2 * (t - i)) for i in range(1, t + 1)) * s2 for t in range(1, T + 1))
        bound = s2 * g ** (T - 1) * (min(T, th) + max((g ** (th - T) - 1) / (1 - g), 0))
        return float(u3 / bound)


def _u3_dynamic_ratio(p):
    """[dni, proof of Theorem 4.6]: max over i of (coefficient of sigma_i^2 in U3) / q_i.

    U3 = sum_t gamma^(T-t) (1-beta)^2/(1-beta^t)^2 sum_{i<=t} beta^(2(t-i)) sigma_i^2 is linear in
    sigma_i^2 >= 0, so U3 <= sum_i q_i sigma_i^2 for every schedule iff this ratio is <= 1.
    q_t = 2 gamma^(T+t)/(gamma(gamma - beta^2)) for t <= T_hat and
    gamma^(2(T_hat-1)) (gamma^(T+1-t) - beta^(2(T+1-t)))/(gamma - beta^2) for t > T_hat.
    """
    kappa, eta0, beta, T = p["kappa"], p["eta0"], p["beta"], int(p["T"])
    gamma = 1 - eta0 / kappa
    th = t_hat(beta, gamma)
    with mpmath.workdps(30):
        b, g = mpmath.mpf(beta), mpmath.mpf(gamma)
        worst = mpmath.mpf(0)
        for i in range(1, T + 1):
            coef = mpmath.fsum(g ** (T - t) * (1 - b) ** 2 / (1 - b**t) ** 2 * b ** (2 * (t - i))
                               for t in range(i, T + 1))
            if i <= th:
                q = 2 * g ** (T + i) / (g * (g - b**2))
            else:
                q = g ** (2 * (th - 1)) * (g ** (T + 1 - i) - b ** (2 * (T + 1 - i))) / (g - b**2)
            worst = max(worst, coef / q)
        return float(worst)


U3_DYNAMIC = PointScenario(_u3_dynamic_ratio, "U3 coefficients against the proof's q_t, in mpmath (30 digits)",
                           optimise=1)
U3_UNIFORM = PointScenario(_u3_uniform_ratio, "uniform schedule sigma_t^2 = T/R, U3 in mpmath (30 digits)",
                           optimise=1)
T_HAT_BELOW = PointScenario(_t_hat_below, "Lemma B.7 threshold: every t <= T_hat (scan in mpmath)", optimise=1)
T_HAT_ABOVE = PointScenario(_t_hat_above, "Lemma B.7 threshold: t = T_hat+1..T_hat+199 (mpmath)", optimise=1)


class MomentumGradientDrift(Scenario):
    """[dni, Lemma B.5] on arbitrary trajectories of theta_{t+1} = theta_t - eta_t v_{t+1}/b_t.

    Instances: beta < gamma < 1, eta0 > 0, M > 0, a quadratic with Hessian eigenvalues in [0, M]
    (so grad is M-Lipschitz), theta_1 and ANY velocity sequence v_2..v_{T+1} (the lemma uses
    only smoothness and the update rule). Measured: LHS / RHS, with eta_t = eta0/(2M),
    b_t = 1 - beta^t, LHS = sum_t gamma^(T-t) (2(1-beta) eta_t / b_t) sum_{i<=t} beta^(t-i)
    ||grad_t - grad_i||^2 and RHS = eta0^3 beta gamma / (2M(1-beta)^3(gamma-beta)^2)
    sum_{i<T} gamma^(T-i) ||v_{i+1}||^2.
    """

    search_runs = 2
    search_domain = None
    optimise = 0

    def strategy(self):
        @st.composite
        def inst(draw):
            gamma = draw(st.floats(0.05, 0.9999))
            beta = draw(st.floats(0.001, 0.999)) * gamma
            T = draw(st.integers(2, 10))
            d = draw(st.integers(1, 3))
            M = draw(_logfloats(1e-2, 1e2))
            eigs = [M * u for u in draw(st.lists(st.floats(0, 1), min_size=d, max_size=d))]
            eigs[0] = M
            vs = draw(st.lists(st.lists(st.floats(-10, 10), min_size=d, max_size=d), min_size=T, max_size=T))
            return {"beta": beta, "gamma_m": gamma, "eta0": draw(_logfloats(1e-3, 8.0)), "M": M, "T": T,
                    "eigs": eigs, "theta1": draw(st.lists(st.floats(-10, 10), min_size=d, max_size=d)), "v": vs}

        return inst().filter(lambda d: sum(x * x for row in d["v"][:-1] for x in row) > 1e-12)

    def point(self, inst):
        return {k: inst[k] for k in ("beta", "gamma_m", "eta0", "M", "T")}

    def make_instance(self, point):
        return None

    def measure(self, inst, runs, seed):
        beta, gamma, eta0, M, T = (inst[k] for k in ("beta", "gamma_m", "eta0", "M", "T"))
        H = np.asarray(inst["eigs"])
        v = np.asarray(inst["v"], float)          # v[t-1] = v_{t+1}, t = 1..T
        eta = eta0 / (2 * M)
        theta = [np.asarray(inst["theta1"], float)]
        for t in range(1, T + 1):
            theta.append(theta[-1] - eta * v[t - 1] / (1 - beta**t))
        grads = [H * th for th in theta]          # grad_t = H theta_t, t = 1..T+1
        lhs = 0.0
        for t in range(1, T + 1):
            inner = sum(beta ** (t - i) * float(np.sum((grads[t - 1] - grads[i - 1]) ** 2)) for i in range(1, t + 1))
            lhs += gamma ** (T - t) * 2 * (1 - beta) * eta / (1 - beta**t) * inner
        coef = eta0**3 * beta * gamma / (2 * M * (1 - beta) ** 3 * (gamma - beta) ** 2)
        rhs = coef * sum(gamma ** (T - i) * float(np.sum(v[i - 1] ** 2)) for i in range(1, T))
        return lhs / rhs, 0.0

    def describe(self, inst):
        return f"quadratic D={len(inst['eigs'])}, T={inst['T']}, arbitrary velocities"



MOMENTUM_DRIFT = MomentumGradientDrift()


def dp_to_zcdp_spurious_root(eps, delta):
    """The '+' root ``eps + 2L + 2 sqrt(L (eps + L)) = (sqrt(L+eps) + sqrt(L))^2``.

    This is the formula printed below [dni, Lemma B.3].  It is **not** a
    solution of ``rho + 2 sqrt(rho L) = eps`` (that equation has exactly one
    root, :func:`dp_to_zcdp`); it solves ``rho - 2 sqrt(rho L) = eps``
    instead (squaring ``2 sqrt(rho L) = eps - rho`` introduces it).  Provided
    only so tests can demonstrate that it is spurious.

    Parameters
    ----------
    eps : real, >= 0
    delta : real in (0, 1)

    Returns
    -------
    float or mpf

    Raises
    ------
    ValueError
        If ``eps`` is negative / non-finite or ``delta`` is not in (0, 1).
    """
    check_nonnegative("eps", eps)
    check_delta(delta)
    if uses_mpmath(eps, delta):
        e, L = mpmath.mpf(eps), -mpmath.log(mpmath.mpf(delta))
        return e + 2 * L + 2 * mpmath.sqrt(L * (e + L))
    e, L = float(eps), -math.log(float(delta))
    return e + 2.0 * L + 2.0 * math.sqrt(L * (e + L))


