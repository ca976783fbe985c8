"""zCDP of the Gaussian mechanism, composition, and conversions between zCDP, RDP and (eps, delta)-DP.

[Bun & Steinke 2016], [Canonne, Kamath & Steinke 2020]. Closed forms compute in mpmath when any
argument is an ``mpf`` (at the caller's precision), else in double precision.
"""
from __future__ import annotations

import math

import mpmath
import numpy as np
import scipy  # its submodules load on first use (scipy's lazy loading), not at start-up

from .validation import (as_sequence, check_delta, check_nonnegative, check_orders, check_positive, is_real,
                         uses_mpmath)

# ---------------------------------------------------------------------------
# zCDP of the Gaussian mechanism and composition
# ---------------------------------------------------------------------------


def gaussian_zcdp(sensitivity, noise_std):
    """zCDP parameter of the Gaussian mechanism, ``rho = Delta^2 / (2 s^2)``.

    Parameters
    ----------
    sensitivity : real, >= 0
        L2 sensitivity ``Delta`` of the released query.
    noise_std : real, > 0
        Standard deviation ``s`` of the isotropic Gaussian noise.

    Returns
    -------
    float or mpf
        ``rho`` such that the mechanism is ``rho``-zCDP
        with ``s = Delta * sigma``;
        [Bun & Steinke 2016, Prop. 1.6].

    Raises
    ------
    ValueError
        If ``sensitivity`` is negative / non-finite or ``noise_std`` is not
        positive and finite.
    """
    check_nonnegative("sensitivity", sensitivity)
    check_positive("noise_std", noise_std)
    if uses_mpmath(sensitivity, noise_std):
        d, s = mpmath.mpf(sensitivity), mpmath.mpf(noise_std)
        return d * d / (2 * s * s)
    d, s = float(sensitivity), float(noise_std)
    return (d / s) ** 2 / 2.0


def gaussian_zcdp_multiplier(sigma):
    """zCDP of the Gaussian mechanism with noise multiplier ``sigma``: ``1/(2 sigma^2)``.

    Parameters
    ----------
    sigma : real, > 0
        Noise standard deviation divided by the sensitivity.

    Returns
    -------
    float or mpf
        ``1 / (2 sigma^2)``; [Bun & Steinke 2016, Prop. 1.6].

    Raises
    ------
    ValueError
        If ``sigma`` is not positive and finite.
    """
    check_positive("sigma", sigma)
    if uses_mpmath(sigma):
        s = mpmath.mpf(sigma)
        return 1 / (2 * s * s)
    return 0.5 / float(sigma) ** 2


def compose_zcdp(rhos):
    """Compose zCDP guarantees by summation.

    Parameters
    ----------
    rhos : iterable of real, each >= 0
        Per-mechanism zCDP parameters (adaptive composition allowed).

    Returns
    -------
    float or mpf
        ``sum(rhos)``; [Bun & Steinke 2016, Lemma 2.3].
        Floats are summed with ``math.fsum`` (correctly rounded); an empty
        iterable gives ``0.0``.

    Raises
    ------
    ValueError
        If ``rhos`` is not iterable or an element is negative / non-finite
        (the message names ``rhos[i]``).
    """
    values = as_sequence("rhos", rhos)
    for i, r in enumerate(values):
        check_nonnegative(f"rhos[{i}]", r)
    if uses_mpmath(*values):
        return mpmath.fsum(mpmath.mpf(r) for r in values)
    return math.fsum(float(r) for r in values)


# ---------------------------------------------------------------------------
# zCDP <-> (eps, delta)-DP
# ---------------------------------------------------------------------------


def zcdp_to_dp(rho, delta):
    """Standard conversion ``rho``-zCDP => ``(eps, delta)``-DP: ``eps = rho + 2 sqrt(rho ln(1/delta))``
    [Bun & Steinke 2016, Prop. 1.3], a float (an mpf for mpf arguments).

    ``rho`` real ``>= 0``, the zCDP parameter; ``delta`` in ``(0, 1)``, the target delta. Raises
    ``ValueError`` if ``rho`` is negative or not finite, or ``delta`` is not in ``(0, 1)``.
    """
    check_nonnegative("rho", rho)
    check_delta(delta)
    if uses_mpmath(rho, delta):
        r, d = mpmath.mpf(rho), mpmath.mpf(delta)
        return r + 2 * mpmath.sqrt(r * -mpmath.log(d))
    r, L = float(rho), -math.log(float(delta))
    return r + 2.0 * math.sqrt(r * L)


def _cks_objective(u: float, rho: float, L: float) -> float:
    """CKS conversion at ``alpha = 1 + exp(u)``, written stably.

    With ``a = alpha``, ``a - 1 = e^u``:
    ``rho a + (L + (a-1) ln(1-1/a) - ln a)/(a-1)
      = rho (1 + e^u) + (L - log1p(e^u)) e^{-u} + u - log1p(e^u)``.
    """
    e = math.exp(u)
    lp = math.log1p(e)
    return rho * (1.0 + e) + (L - lp) * math.exp(-u) + u - lp


def zcdp_to_dp_optimal(rho, delta) -> float:
    """Tighter ``rho``-zCDP => ``(eps, delta)``-DP conversion via Renyi DP, in double precision (``mpf``
    arguments are converted to ``float``).

    ``eps = inf_{alpha > 1} [rho alpha + (ln(1/delta) + (alpha-1) ln(1-1/alpha)
    - ln alpha) / (alpha - 1)]``, clipped at 0
    [Canonne, Kamath & Steinke 2020, Prop. 12]; [Asoodeh et al. 2021].

    The objective is minimised over ``u = ln(alpha - 1)``: a coarse grid
    around the classic optimum ``alpha* = 1 + sqrt(ln(1/delta)/rho)`` followed
    by bounded Brent refinement.  The returned value is also minimised against
    the objective at ``alpha*``, where it is provably ``<=``
    :func:`zcdp_to_dp` (the extra terms ``ln(1-1/a) - ln(a)/(a-1)`` are
    negative), so ``zcdp_to_dp_optimal(r, d) <= zcdp_to_dp(r, d)`` always.
    The arguments and their errors are those of :func:`zcdp_to_dp`.
    """
    check_nonnegative("rho", rho)
    check_delta(delta)
    r, L = float(rho), -math.log(float(delta))
    if r == 0.0:
        return 0.0
    u_star = 0.5 * (math.log(L) - math.log(r))  # alpha* - 1 = sqrt(L/rho)
    u_star = min(max(u_star, -690.0), 690.0)
    grid = np.linspace(max(u_star - 20.0, -700.0), min(u_star + 20.0, 700.0), 401)
    vals = np.array([_cks_objective(u, r, L) for u in grid])
    k = int(np.argmin(vals))
    lo, hi = grid[max(k - 1, 0)], grid[min(k + 1, len(grid) - 1)]
    res = scipy.optimize.minimize_scalar(
        _cks_objective, bounds=(lo, hi), args=(r, L), method="bounded",
        options={"xatol": 1e-12},
    )
    best = min(float(res.fun), float(vals[k]), _cks_objective(u_star, r, L))
    best = min(best, zcdp_to_dp(r, float(delta)))
    return max(0.0, best)


def dp_to_zcdp(eps, delta):
    """Invert :func:`zcdp_to_dp`: the unique ``rho >= 0`` with ``rho + 2 sqrt(rho L) = eps``, ``L = ln(1/delta)``
    [Bun & Steinke 2016, Prop. 1.3], a float (an mpf for mpf arguments).

    ``rho = (sqrt(L + eps) - sqrt(L))^2``, computed without cancellation as
    ``eps^2 / (sqrt(L + eps) + sqrt(L))^2``. (Substituting ``x = sqrt(rho)`` gives ``x^2 + 2 sqrt(L) x - eps = 0``
    whose only non-negative root is ``x = sqrt(L + eps) - sqrt(L)``.) ``eps`` real ``>= 0``, the target epsilon;
    ``delta`` in ``(0, 1)``. Raises ``ValueError`` if ``eps`` is negative or not finite, or ``delta`` is not in
    ``(0, 1)``.
    """
    check_nonnegative("eps", eps)
    check_delta(delta)
    if uses_mpmath(eps, delta):
        e, L = mpmath.mpf(eps), -mpmath.log(mpmath.mpf(delta))
        return e * e / (mpmath.sqrt(L + e) + mpmath.sqrt(L)) ** 2
    e, L = float(eps), -math.log(float(delta))
    return e * e / (math.sqrt(L + e) + math.sqrt(L)) ** 2


def rdp_of_zcdp(rho, orders):
    """Renyi-DP curve implied by ``rho``-zCDP: ``epsilon(alpha) = rho * alpha``.

    Parameters
    ----------
    rho : real, >= 0
        zCDP parameter.
    orders : real > 1, or sequence of real > 1
        Renyi orders ``alpha``.

    Returns
    -------
    float, mpf, numpy.ndarray or list of mpf
        ``rho * alpha``; [Bun & Steinke 2016, Def. 1.1].
        A scalar for scalar ``orders``; a float ``ndarray`` for a sequence of
        orders (a ``list`` of ``mpf`` if any input is ``mpf``).

    Raises
    ------
    ValueError
        If ``rho`` is negative / non-finite, or an order is not in ``(1, inf)``.
    """
    check_nonnegative("rho", rho)
    seq = check_orders(orders)
    scalar = is_real(orders)
    if uses_mpmath(rho, *seq):
        out = [mpmath.mpf(rho) * mpmath.mpf(a) for a in seq]
        return out[0] if scalar else out
    arr = float(rho) * np.asarray([float(a) for a in seq], dtype=float)
    return float(arr[0]) if scalar else arr

