"""The subsampled Gaussian mechanism under sampling without replacement, and an exact lower bound on
delta(eps) for one-dimensional Gaussian mixtures.

* :func:`wor_gaussian_epsilon`: an upper bound on the (eps, delta) of a composition of Gaussian
  mechanisms on subsamples drawn without replacement, neighbours replacing one record --
  ``dp_accounting``'s RDP bound for [Wang, Balle & Kasiviswanathan 2019] on a conservative cached grid.
* :func:`mixture_delta_lower`: ``max_S P(S) - e^eps Q(S)`` over half-lines ``S`` for two
  one-dimensional mixtures of Gaussians -- a lower bound on the delta(eps) of any mechanism whose
  output (or a function of it) has these distributions on two neighbouring data sets, and the exact
  delta(eps) when the likelihood ratio is monotone (equal variances, ordered means).
"""
from __future__ import annotations

import math
from functools import lru_cache

import numpy as np
import scipy  # its submodules load on first use (scipy's lazy loading), not at start-up

from .accountants import event_rdp
from .mechanisms import sampled_without_replacement_gaussian_event
from .validation import check_delta, check_nonnegative, check_positive


# A short list of integer orders keeps dp_accounting's O(alpha^2) WOR bound fast.
WOR_ORDERS = (2, 3, 4, 6, 8, 12, 16, 24, 32, 48, 64)
_GRID = 20  # points per decade of the cached (q, z) grid


@lru_cache(maxsize=8192)
def _wor_rdp_step(k_q: int, k_z: int, orders: tuple) -> np.ndarray:
    """Per-step RDP at ``orders`` of the Gaussian mechanism with multiplier ``10^(k_z/_GRID)`` on a subsample
    without replacement of ratio ``10^(k_q/_GRID)`` (replace-one), from dp_accounting; the elementwise minimum
    with the unsampled Gaussian's ``alpha/(2 z^2)`` (both are upper bounds)."""
    import dp_accounting

    q = min(1.0, 10.0 ** (k_q / _GRID))
    z = 10.0 ** (k_z / _GRID)
    gauss = np.asarray(orders, float) / (2 * z * z)
    if q >= 1.0:
        return gauss
    size = 10**9
    event = sampled_without_replacement_gaussian_event(size, int(math.ceil(q * size)), z)
    rdp = event_rdp(event, list(orders), neighboring_relation=dp_accounting.NeighboringRelation.REPLACE_ONE)
    return np.minimum(rdp, gauss)


def wor_gaussian_epsilon(n: int, batch: int, noise_multiplier: float, steps: int, delta: float,
                         orders: tuple = WOR_ORDERS) -> float:
    """An upper bound on the eps at ``delta`` of ``steps`` compositions of the Gaussian mechanism (noise std
    over the query's l2-sensitivity = ``noise_multiplier``) on a subsample of ``batch`` of ``n`` records drawn
    without replacement, replace-one neighbours.

    The per-step RDP is ``dp_accounting``'s bound for ``SampledWithoutReplacementDpEvent`` [Wang, Balle &
    Kasiviswanathan 2019, Thm 27] (replaced by the unsampled Gaussian's ``alpha/(2 z^2)`` where that is
    smaller), computed at a sampling ratio rounded *up* and a multiplier rounded *down* to a grid of 20 points
    per decade (the bound increases with the ratio and decreases with the multiplier, so the rounding only
    loosens it) and cached; composition multiplies it by ``steps``; the conversion is dp_accounting's
    ``compute_epsilon`` [Canonne, Kamath & Steinke 2020, Prop. 12]. The orders stop at 64, so eps below about
    ``ln(1/delta)/63`` cannot be certified."""
    from dp_accounting.rdp.rdp_privacy_accountant import compute_epsilon

    n, batch, steps = int(n), int(batch), int(steps)
    if not 1 <= batch <= n:
        raise ValueError(f"batch must be in [1, n]. Found batch={batch!r}, n={n!r}.")
    if steps < 1:
        raise ValueError(f"steps must be a positive integer. Found {steps!r}.")
    check_positive("noise_multiplier", noise_multiplier)
    check_delta(delta)
    k_q = int(math.ceil(_GRID * math.log10(batch / n) - 1e-9))
    k_z = int(math.floor(_GRID * math.log10(float(noise_multiplier)) + 1e-9))
    curve = _wor_rdp_step(min(k_q, 0), k_z, tuple(orders))
    return float(compute_epsilon(list(orders), steps * curve, float(delta))[0])


def _log_mixture_tail(x, means, stds, log_weights, upper: bool):
    """log P(X > x) (``upper``) or log P(X < x) for the mixture, at every x of the 1-d array ``x``."""
    z = (np.asarray(x, float)[:, None] - means[None, :]) / stds[None, :]
    lc = scipy.special.log_ndtr(-z) if upper else scipy.special.log_ndtr(z)
    return logsumexp_rows(log_weights[None, :] + lc)


def logsumexp_rows(a) -> np.ndarray:
    """``scipy.special.logsumexp(a, axis=1)`` of a real 2-d array, bit for bit, without the array-API
    dispatch that costs SciPy 60 us a call (it is called ~50,000 times by a delta search). The same steps
    as SciPy 1.17's: every maximum of a row taken out of the sum (``m`` of them), ``log1p(sum exp(a -
    max) / m) + log(m) + max``, and a non-finite result replaced by ``log(sum(exp(a)))``;
    ``tests/engine/test_privacy_sampled_gaussian.py`` checks it against SciPy on hostile rows."""
    a = np.asarray(a, dtype=float)
    with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
        out_inf = np.log(np.sum(np.exp(a), axis=1, keepdims=True))
        a_max = np.max(a, axis=1, keepdims=True)
        top = a == a_max
        m = np.sum(top.astype(float), axis=1, keepdims=True)
        s = np.sum(np.exp(np.where(top, -np.inf, a) - a_max), axis=1, keepdims=True)
        s = np.where(s == 0, s, s / m)
        sign = np.sign(s + 1) * np.sign(m)
        s = np.where(s < -1, -s - 2, s)
        out = np.log1p(s) + np.log(np.abs(m)) + a_max
        out[sign < 0] = np.nan
    return np.where(np.isfinite(out), out, out_inf)[:, 0]


def mixture_delta_lower(p_means, q_means, stds, eps: float, weights=None, q_stds=None, q_weights=None) -> float:
    """``max_S P(S) - e^eps Q(S)`` over half-lines ``S = {x > tau}`` and ``{x < tau}``, for the mixtures
    ``P = sum_i w_i N(p_means_i, stds_i^2)`` and ``Q = sum_i w'_i N(q_means_i, q_stds_i^2)`` (equal weights
    by default), in both directions (P vs Q and Q vs P): a lower bound on delta(eps) for any pair of
    neighbouring data sets on which a mechanism's output (or a function of it) has these laws.
    Computed in log space on a grid of 401 thresholds spanning every component, refined around the
    best by a bounded scalar search."""
    check_nonnegative("eps", eps)
    pm, qm = np.asarray(p_means, float).ravel(), np.asarray(q_means, float).ravel()
    ps = np.broadcast_to(np.asarray(stds, float), pm.shape).astype(float)
    qs = ps if q_stds is None else np.broadcast_to(np.asarray(q_stds, float), qm.shape).astype(float)
    pw = np.full(pm.shape, -math.log(pm.size)) if weights is None else np.log(np.asarray(weights, float))
    qw = np.full(qm.shape, -math.log(qm.size)) if q_weights is None else np.log(np.asarray(q_weights, float))
    if np.any(ps <= 0) or np.any(qs <= 0):
        raise ValueError("stds must be positive. Found a non-positive standard deviation.")
    lo = float(min(np.min(pm - 12 * ps), np.min(qm - 12 * qs)))
    hi = float(max(np.max(pm + 12 * ps), np.max(qm + 12 * qs)))
    grid = np.linspace(lo, hi, 401)
    best = 0.0
    for (am, as_, aw), (bm, bs, bw) in (((pm, ps, pw), (qm, qs, qw)), ((qm, qs, qw), (pm, ps, pw))):
        for upper in (True, False):
            def gaps(t):
                la = _log_mixture_tail(t, am, as_, aw, upper)
                lb = _log_mixture_tail(t, bm, bs, bw, upper)
                return np.exp(la) - np.exp(np.minimum(eps + lb, 700.0))

            vals = gaps(grid)
            k = int(np.argmax(vals))
            a, b = grid[max(k - 1, 0)], grid[min(k + 1, len(grid) - 1)]
            res = scipy.optimize.minimize_scalar(lambda t: -float(gaps(np.array([t]))[0]), bounds=(a, b), method="bounded",
                                           options={"xatol": 1e-10 * max(1.0, abs(b - a))})
            best = max(best, float(vals[k]), -float(res.fun))
    return best


__all__ = ["WOR_ORDERS", "logsumexp_rows", "mixture_delta_lower", "wor_gaussian_epsilon"]
