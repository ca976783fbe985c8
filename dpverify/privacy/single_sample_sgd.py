"""Privacy of noisy SGD with one sample per step, under replace-one adjacency.

The mechanism: T steps ``theta_{t+1} = theta_t - eta (grad l(theta_t; z_{J_t}) + b_t)`` with ``J_t``
uniform on the n samples (independently at each step) and ``b_t ~ N(0, s^2 I)``; every per-sample
gradient has norm at most G; neighbouring data sets have the same size n and differ in one sample;
every iterate is released.

One step, for a fixed theta_t and neighbours differing in sample i, releases
``P = (1 - q) R + q N(a, s^2 I)`` against ``Q = (1 - q) R + q N(b, s^2 I)`` (q = 1/n, R the mixture
over the other samples, ``||a||, ||b|| <= G`` up to the common step). The worst such pair puts
every other sample's gradient at the replacement's (R = Q): it is the *sampled Gaussian mechanism*
``((1 - q) N(0, 1) + q N(1/z, 1), N(0, 1))`` with noise multiplier ``z = s / (2G)`` (the remove
direction of [Mironov, Talwar & Zhang 2019]), attained by the linear loss ``<x, theta>`` with
``x_i = -G e`` and every other ``x_j = x_i' = G e``. That this pair bounds every other one is
verified on a grid of one-dimensional pairs, in hockey-stick divergence and Renyi divergence
(in the tests); for the hockey-stick divergence with ``gamma >= 1`` it follows from the
advanced joint convexity of [Balle, Barthe & Gaboardi 2018, Thm. 2].

* :func:`sgm_rdp`: Renyi DP of the sampled Gaussian mechanism at integer orders (exact sum of
  [Mironov, Talwar & Zhang 2019, Sec. 3.3]), vectorised over the orders;
* :func:`rdp_to_delta`, :func:`rdp_to_epsilon`: the conversion of [Canonne, Kamath & Steinke 2020,
  Prop. 12] minimised over the orders;
* :func:`single_sample_sgd_delta` / :func:`single_sample_sgd_epsilon`: the upper bounds they give
  for T composed steps, and :func:`single_sample_sgd_noise`, the smallest noise std they certify;
* :func:`single_sample_sgd_delta_lower`: a certified *lower* bound on the delta the algorithm
  achieves: the hockey-stick divergence of the attained pair on the event "some released
  increment falls below tau", maximised over tau (closed form; any event gives a lower bound);
  and :func:`single_sample_sgd_noise_lower`, the noise below which (eps, delta) is impossible.

All functions take the gradient bound G (``lipschitz``), the number of samples n and the number of
steps T, and raise ``ValueError`` naming a bad argument.
"""
from __future__ import annotations

import math
from functools import lru_cache

import numpy as np
import scipy  # its submodules load on first use (scipy's lazy loading), not at start-up

from .validation import check_delta, check_positive

__all__ = ["ORDERS", "sgm_rdp", "rdp_to_delta", "rdp_to_epsilon", "single_sample_sgd_delta",
           "single_sample_sgd_epsilon", "single_sample_sgd_delta_lower", "single_sample_sgd_noise",
           "single_sample_sgd_noise_lower"]

#: Integer Renyi orders used by the accountant (dense where small eps and large T need them).
ORDERS = np.array(list(range(2, 33)) + [40, 48, 56, 64, 80, 96, 112, 128, 160, 192, 256, 320, 384, 512, 640, 768,
                                        1024, 1280, 1536, 2048, 2560, 3072, 4096, 6144, 8192, 12288, 16384],
                  dtype=np.int64)


@lru_cache(maxsize=8)
def _tables(orders: tuple):
    a = np.concatenate([np.full(int(o) + 1, float(o)) for o in orders])
    k = np.concatenate([np.arange(int(o) + 1, dtype=float) for o in orders])
    logc = scipy.special.gammaln(a + 1) - scipy.special.gammaln(k + 1) - scipy.special.gammaln(a - k + 1)
    starts = np.cumsum([0] + [int(o) + 1 for o in orders[:-1]])
    return a, k, logc, starts


def _check_int(name, v, minimum=1):
    if isinstance(v, bool) or not isinstance(v, (int, np.integer)) or v < minimum:
        raise ValueError(f"{name} must be an integer >= {minimum}. Found {v!r}.")
    return int(v)


def sgm_rdp(q: float, z: float, orders=ORDERS) -> np.ndarray:
    """Renyi DP at integer ``orders`` of the sampled Gaussian mechanism with sampling rate ``q`` and
    noise multiplier ``z``: ``log(sum_k C(a,k) (1-q)^(a-k) q^k exp((k^2 - k)/(2 z^2))) / (a - 1)``."""
    if not (0 < q <= 1):
        raise ValueError(f"q must be in (0, 1]. Found {q!r}.")
    check_positive("z", z)
    orders = tuple(int(o) for o in np.asarray(orders))
    if any(o < 2 for o in orders):
        raise ValueError(f"orders must be integers >= 2. Found {orders!r}.")
    if q == 1.0:
        return np.array([o / (2 * z * z) for o in orders])
    a, k, logc, starts = _tables(orders)
    terms = logc + (a - k) * math.log1p(-q) + k * math.log(q) + (k * k - k) / (2 * z * z)
    mx = np.maximum.reduceat(terms, starts)
    sums = np.add.reduceat(np.exp(terms - np.repeat(mx, np.diff(np.append(starts, len(terms))))), starts)
    return (mx + np.log(sums)) / (np.asarray(orders, float) - 1)


def rdp_to_delta(rdp, eps: float, orders=ORDERS) -> float:
    """Smallest delta over the orders with (eps, delta)-DP from the RDP curve (CKS 2020, Prop. 12)."""
    a = np.asarray(orders, float)
    rdp = np.asarray(rdp, float)
    with np.errstate(over="ignore", invalid="ignore"):
        logd = (a - 1) * (rdp - eps + np.log1p(-1 / a)) - np.log(a)
    logd = np.where(np.isfinite(logd), logd, np.inf)
    return float(min(1.0, math.exp(min(0.0, float(np.min(logd))))))


def rdp_to_epsilon(rdp, delta: float, orders=ORDERS) -> float:
    """Smallest eps over the orders with (eps, delta)-DP from the RDP curve (CKS 2020, Prop. 12)."""
    check_delta(delta)
    a = np.asarray(orders, float)
    e = np.asarray(rdp, float) + np.log1p(-1 / a) - (math.log(delta) + np.log(a)) / (a - 1)
    return max(0.0, float(np.min(e)))


def _args(noise_std, lipschitz, n, steps):
    check_positive("noise_std", noise_std)
    check_positive("lipschitz", lipschitz)
    n = _check_int("n", n, 1)
    steps = _check_int("steps", steps, 0)
    return float(noise_std), float(lipschitz), n, steps


def single_sample_sgd_delta(eps: float, noise_std: float, lipschitz: float, n: int, steps: int) -> float:
    """Upper bound on the delta of T steps at ``eps`` (RDP of the dominating pair, module docstring)."""
    s, G, n, T = _args(noise_std, lipschitz, n, steps)
    if T == 0:
        return 0.0
    return rdp_to_delta(T * sgm_rdp(1.0 / n, s / (2 * G)), float(eps))


def single_sample_sgd_epsilon(delta: float, noise_std: float, lipschitz: float, n: int, steps: int) -> float:
    """Upper bound on the eps of T steps at ``delta``."""
    s, G, n, T = _args(noise_std, lipschitz, n, steps)
    if T == 0:
        return 0.0
    return rdp_to_epsilon(T * sgm_rdp(1.0 / n, s / (2 * G)), float(delta))


def _log_diff(la, lb):
    """log(exp(la) - exp(lb)) for la >= lb (elementwise), -inf where equal."""
    with np.errstate(divide="ignore", invalid="ignore"):
        return la + np.log1p(-np.exp(np.minimum(lb - la, 0.0)))


def _log1m_exp(x):
    """log(1 - exp(x)) for x <= 0."""
    x = np.minimum(x, -1e-300)
    with np.errstate(divide="ignore", invalid="ignore"):
        return np.where(x > -0.693, np.log(-np.expm1(x)), np.log1p(-np.exp(x)))


def _log_some(logp, T):
    """log(1 - (1 - p)^T) from log p, stable for tiny p (then ~ log T + log p)."""
    logp = np.asarray(logp, float)
    tiny = logp < -30
    with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
        big = _log1m_exp(T * _log1m_exp(np.where(tiny, -30.0, logp)))
        small = math.log(T) + logp + np.log1p(-np.minimum((T - 1) * np.exp(np.minimum(logp, 0.0)) / 2, 0.5))
    return np.where(tiny, small, big)


def single_sample_sgd_delta_lower(eps: float, noise_std: float, lipschitz: float, n: int, steps: int,
                                  grid: int = 401) -> float:
    """A certified lower bound on the delta the algorithm achieves at ``eps``.

    On the attained pair (one-dimensional increments ``Y_t``: ``N(G, s^2)`` on D',
    ``(1 - q) N(G, s^2) + q N(-G, s^2)`` on D), the event ``S_tau = {min_t Y_t < tau}`` has
    ``P_D(S) = 1 - (1 - p_D)^T`` and ``P_D'(S) = 1 - (1 - p_D')^T``; ``max_tau P_D(S) - e^eps P_D'(S)``
    (a grid in units of s around -G..G, refined by golden section) bounds delta from below.
    """
    s, G, n, T = _args(noise_std, lipschitz, n, steps)
    if T == 0:
        return 0.0
    q = 1.0 / n
    lq, l1q = math.log(q), (math.log1p(-q) if q < 1 else -math.inf)

    def gap(tau):
        tau = np.atleast_1d(np.asarray(tau, float))
        lpp = scipy.special.log_ndtr((tau - G) / s)                      # log P_D'(Y < tau)
        lpd = np.logaddexp(l1q + lpp, lq + scipy.special.log_ndtr((tau + G) / s))
        lsd, lsp = _log_some(lpd, T), _log_some(lpp, T)
        out = _log_diff(lsd, eps + lsp)
        return np.where(lsd > eps + lsp, np.exp(out), 0.0)

    lo, hi = -G - 12 * s - 2 * G * math.sqrt(T), G + 12 * s
    taus = np.unique(np.concatenate([np.linspace(lo, hi, grid), np.linspace(-G - 12 * s, -G + 12 * s, 97),
                                     np.linspace(-12 * s, 12 * s, 97), np.linspace(G - 12 * s, G + 12 * s, 97)]))
    grid = len(taus)
    vals = gap(taus)
    k = int(np.argmax(vals))
    a, b = taus[max(0, k - 1)], taus[min(grid - 1, k + 1)]
    phi = (math.sqrt(5) - 1) / 2
    c, d = b - phi * (b - a), a + phi * (b - a)
    fc, fd = float(gap(c)[0]), float(gap(d)[0])
    for _ in range(60):
        if fc > fd:
            b, d, fd = d, c, fc
            c = b - phi * (b - a)
            fc = float(gap(c)[0])
        else:
            a, c, fc = c, d, fd
            d = a + phi * (b - a)
            fd = float(gap(d)[0])
    return float(max(vals[k], fc, fd, 0.0))


def _bisect_noise(f, target, lipschitz):
    """The noise std where the decreasing function ``f(s)`` crosses ``target`` (log bisection)."""
    lo, hi = 1e-8 * lipschitz, 1e8 * lipschitz
    if f(hi) > target:
        return math.inf
    if f(lo) <= target:
        return 0.0
    for _ in range(80):
        mid = math.sqrt(lo * hi)
        if f(mid) > target:
            lo = mid
        else:
            hi = mid
        if hi / lo < 1 + 1e-10:
            break
    return hi


def single_sample_sgd_noise(eps: float, delta: float, lipschitz: float, n: int, steps: int) -> float:
    """The smallest noise std whose upper-bound delta at ``eps`` is at most ``delta`` (to 1e-10 relative)."""
    check_delta(delta)
    check_positive("eps", eps)
    return _bisect_noise(lambda s: single_sample_sgd_delta(eps, s, lipschitz, n, steps), delta, lipschitz)


def single_sample_sgd_noise_lower(eps: float, delta: float, lipschitz: float, n: int, steps: int) -> float:
    """A noise std below which (eps, delta)-DP is impossible (the lower-bound delta exceeds delta)."""
    check_delta(delta)
    check_positive("eps", eps)
    return _bisect_noise(lambda s: single_sample_sgd_delta_lower(eps, s, lipschitz, n, steps), delta, lipschitz)
