"""Exact moments on diagonal quadratics in mpmath, for confirming a float64 result.

The same recursions as the update rules' (:mod:`dpverify.sim.updates`: plain noisy gradient descent,
bias-corrected momentum, heavy ball), one parameter point at a time, at the
caller's ``mpmath`` precision. Each eigen-direction ``i`` of ``f = f* + 1/2 sum_i lam_i d_i^2``
evolves independently and linearly, so the mean and (co)variance propagate exactly:

* noisy GD, ``d_{t+1} = (1 - eta_t lam) d_t - eta_t s_t z``:
  ``m <- a m``, ``s2 <- a^2 s2 + (eta_t s_t)^2`` with ``a = 1 - eta_t lam``;
* momentum, ``v_{t+1} = beta v_t + (1 - beta)(lam d_t + s_t z)``,
  ``d_{t+1} = d_t - eta_t v_{t+1} / (1 - beta^t)``: the 2x2 mean and covariance of ``(d, v)``;
* heavy ball, ``d_{t+1} = (1 + beta - eta_t lam) d_t - beta d_{t-1} - eta_t s_t z``: the 2x2 mean and
  covariance of ``(d_t, d_{t-1})``.

Inputs are sequences of numbers (converted with ``mpmath.mpf``); outputs are ``mpf``.
"""
from __future__ import annotations

import mpmath

__all__ = ["gd_moments_mp", "heavy_ball_moments_mp", "momentum_coordinate_step", "momentum_moments_mp"]


def gd_moments_mp(eigs, delta1, etas, scales):
    """Per-direction mean and variance of ``theta_{T+1} - theta*`` for noisy GD.

    ``scales[t]`` is the standard deviation of the gradient noise per coordinate at step t.
    Returns ``(lam, m, s2)`` as lists of ``mpf``.
    """
    lam = [mpmath.mpf(x) for x in eigs]
    m = [mpmath.mpf(x) for x in delta1]
    s2 = [mpmath.mpf(0)] * len(m)
    for eta, s in zip(etas, scales):
        eta, s = mpmath.mpf(eta), mpmath.mpf(s)
        c2 = (eta * s) ** 2
        for i, li in enumerate(lam):
            a = 1 - eta * li
            m[i] = a * m[i]
            s2[i] = a * a * s2[i] + c2
    return lam, m, s2


def momentum_coordinate_step(li, k, b, b1, b2, mx, mv, sxx, sxv, svv):
    """One step of bias-corrected momentum on one eigen-direction ``lam = li``: the new mean ``(mx, mv)`` and
    covariance ``(sxx, sxv, svv)`` of ``(d, v)`` under ``v <- b v + (1 - b)(li d + s z)``, ``d <- d - k v``
    (``k = eta_t/(1 - b^t)``, ``b2 = (1 - b) s``, ``b1 = -k b2``). Plain arithmetic: numbers of any kind
    (mpmath, python-flint balls; the certificates' checkers copy this source)."""
    a21, a22 = (1 - b) * li, b
    a11, a12 = 1 - k * a21, -k * b
    return (a11 * mx + a12 * mv, a21 * mx + a22 * mv,
            a11 * a11 * sxx + 2 * a11 * a12 * sxv + a12 * a12 * svv + b1 * b1,
            a11 * a21 * sxx + (a11 * a22 + a12 * a21) * sxv + a12 * a22 * svv + b1 * b2,
            a21 * a21 * sxx + 2 * a21 * a22 * sxv + a22 * a22 * svv + b2 * b2)


def momentum_moments_mp(eigs, delta1, etas, scales, beta):
    """Per-direction mean and variance of ``theta_{T+1} - theta*`` for bias-corrected momentum,
    and ``E||v_{t+1}||^2`` for t = 1..T. Returns ``(lam, m, s2, velocity_sq)``."""
    b = mpmath.mpf(beta)
    lam = [mpmath.mpf(x) for x in eigs]
    mx = [mpmath.mpf(x) for x in delta1]
    mv = [mpmath.mpf(0)] * len(mx)
    sxx = [mpmath.mpf(0)] * len(mx)
    sxv = [mpmath.mpf(0)] * len(mx)
    svv = [mpmath.mpf(0)] * len(mx)
    vel = []
    for t, (eta, s) in enumerate(zip(etas, scales), start=1):
        k = mpmath.mpf(eta) / (1 - b ** t)
        b2 = (1 - b) * mpmath.mpf(s)
        b1 = -k * b2
        total = mpmath.mpf(0)
        for i, li in enumerate(lam):
            mx[i], mv[i], sxx[i], sxv[i], svv[i] = momentum_coordinate_step(li, k, b, b1, b2, mx[i], mv[i], sxx[i],
                                                                            sxv[i], svv[i])
            total += mv[i] ** 2 + svv[i]
        vel.append(total)
    return lam, mx, sxx, vel


def heavy_ball_moments_mp(eigs, delta1, etas, scales, beta):
    """Per-direction mean and variance of ``theta_{T+1} - theta*`` for noisy heavy-ball GD, in
    mpmath at the caller's precision (inputs converted with ``mpmath.mpf``). Returns
    ``(lam, m, s2)`` as lists of ``mpf``.

    >>> lam, m, s2 = heavy_ball_moments_mp([1, 4], [1, 1], [0.4] * 3, [0.1] * 3, 0.1)
    """
    b = mpmath.mpf(beta)
    lam = [mpmath.mpf(x) for x in eigs]
    mx = [mpmath.mpf(x) for x in delta1]
    mp = list(mx)
    sxx, sxp, spp = ([mpmath.mpf(0)] * len(mx) for _ in range(3))
    for eta, s in zip(etas, scales):
        eta, s = mpmath.mpf(eta), mpmath.mpf(s)
        b1 = eta * s
        for i, li in enumerate(lam):
            a11 = 1 + b - eta * li
            mx[i], mp[i] = a11 * mx[i] - b * mp[i], mx[i]
            sxx[i], sxp[i], spp[i] = (a11 * a11 * sxx[i] - 2 * a11 * b * sxp[i] + b * b * spp[i] + b1 * b1,
                                      a11 * sxx[i] - b * sxp[i], sxx[i])
    return lam, mx, sxx
