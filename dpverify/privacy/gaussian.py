"""The Gaussian mechanism: Renyi divergences (by quadrature and closed form) and its exact privacy
profile [Balle & Wang 2018, Thm. 8]."""
from __future__ import annotations

import functools
import math
import numbers

import mpmath
import numpy as np
import scipy  # its submodules load on first use (scipy's lazy loading), not at start-up

from .validation import check_delta, check_finite, check_orders, check_positive, uses_mpmath
from .zcdp import zcdp_to_dp

def renyi_divergence_gaussians(mu0, mu1, s, alpha, dps: int = 50):
    """Renyi divergence ``D_alpha(N(mu0, s^2) || N(mu1, s^2))`` by quadrature.

    Computes ``1/(alpha-1) ln int p(x)^alpha q(x)^(1-alpha) dx`` (or the KL
    divergence ``int p ln(p/q)`` for ``alpha == 1``) by the trapezoidal rule on
    the real line (:func:`_trapezoid`, in mpmath at ``dps`` decimal digits and 10
    more), from the two densities directly, i.e. *without* using the closed form.  Used to check the Gaussian mechanism's zCDP
    independently: with ``|mu0 - mu1| = Delta`` and ``s = Delta sigma`` the
    result is ``alpha / (2 sigma^2)``.  (The isotropic multivariate case
    reduces to this one-dimensional one along ``mu0 - mu1``.)

    Parameters
    ----------
    mu0, mu1 : real
        Means of the two Gaussians.
    s : real, > 0
        Common standard deviation.
    alpha : real, >= 1
        Renyi order (``alpha == 1`` gives KL).
    dps : int, >= 15
        Working precision in decimal digits.

    Returns
    -------
    mpf
        The divergence at ``dps`` digits of working precision.

    Raises
    ------
    ValueError
        On non-finite means, non-positive ``s``, ``alpha < 1`` or bad ``dps``.
    ArithmeticError
        When the rule's check fails (:func:`_trapezoid`): the working precision lost to cancellation in
        the integrand (a huge ``s / |mu0 - mu1|`` for KL, a tiny ``s`` at a high order, means far apart
        at few digits). More ``dps`` answers there (``scenarios.privacy.renyi_over_order_measured``
        doubles them).
    """
    check_finite("mu0", mu0)
    check_finite("mu1", mu1)
    check_positive("s", s)
    check_orders(alpha, allow_one=True)
    if isinstance(dps, (bool, np.bool_)) or not isinstance(dps, numbers.Integral) or dps < 15:
        raise ValueError(f"dps must be an integer >= 15. Found {dps!r}.")
    args = (mu0, mu1, s, alpha, int(dps), mpmath.mp.prec)
    try:
        hash(args)
    except TypeError:     # e.g. a 0-d array: computed, not memoised
        return _renyi_quadrature.__wrapped__(*args)
    return _renyi_quadrature(*args)


@functools.lru_cache(maxsize=1024, typed=True)
def _renyi_quadrature(mu0, mu1, s, alpha, dps: int, caller_prec: int):
    """:func:`renyi_divergence_gaussians` on validated arguments, memoised on all of them and on the caller's
    precision (the result is rounded to it; an mpf is immutable, so the cached value is safe to share).

    The integrand works on mpmath's raw values (``mpmath.libmp``): the same operations in the same order, at
    the working precision and rounding, as ``sd * exp(a logp(x) + (1 - a) logq(x))`` written with mpf
    operators (so the same value, bit for bit), without the operators' per-call conversions."""
    from mpmath.libmp import from_int, mpf_add, mpf_div, mpf_exp, mpf_mul, mpf_mul_int, mpf_pow_int, mpf_sub

    with mpmath.workdps(dps + 10):
        prec, rnd = mpmath.mp._prec_rounding
        m0, m1, sd, a = (mpmath.mpf(v) for v in (mu0, mu1, s, alpha))
        log_norm = -mpmath.log(sd * mpmath.sqrt(2 * mpmath.pi))
        M0, M1, SD, A, LN = m0._mpf_, m1._mpf_, sd._mpf_, a._mpf_, log_norm._mpf_
        two_var = mpf_mul(mpf_mul_int(SD, 2, prec, rnd), SD, prec, rnd)    # 2 * sd * sd
        one_minus_a = mpf_sub(from_int(1), A, prec, rnd)

        def logs(x):      # logp(x), logq(x): log_norm - (x - m)**2 / (2 * sd * sd)
            lp = mpf_sub(LN, mpf_div(mpf_pow_int(mpf_sub(x, M0, prec, rnd), 2, prec, rnd), two_var, prec, rnd),
                         prec, rnd)
            lq = mpf_sub(LN, mpf_div(mpf_pow_int(mpf_sub(x, M1, prec, rnd), 2, prec, rnd), two_var, prec, rnd),
                         prec, rnd)
            return lp, lq

        # Integrate in standardised coordinates x = centre + sd * t: the integrand is then sd times a
        # Gaussian of width 1 in t (times a linear factor for KL), whatever the means, s and alpha.
        if a == 1:
            C = M0

            def integrand(t):        # sd * exp(lp) * (lp - logq(x))
                lp, lq = logs(mpf_add(C, mpf_mul(SD, t, prec, rnd), prec, rnd))
                return mpf_mul(mpf_mul(SD, mpf_exp(lp, prec, rnd), prec, rnd), mpf_sub(lp, lq, prec, rnd), prec, rnd)

            value = mpmath.mpf(_trapezoid(integrand, dps, prec, rnd))
        else:
            # p^a q^(1-a) is proportional to a Gaussian centred here, width sd.
            C = (a * m0 + (1 - a) * m1)._mpf_

            def integrand(t):        # sd * exp(a * logp(x) + (1 - a) * logq(x))
                lp, lq = logs(mpf_add(C, mpf_mul(SD, t, prec, rnd), prec, rnd))
                e = mpf_add(mpf_mul(A, lp, prec, rnd), mpf_mul(one_minus_a, lq, prec, rnd), prec, rnd)
                return mpf_mul(SD, mpf_exp(e, prec, rnd), prec, rnd)

            value = mpmath.log(mpmath.mpf(_trapezoid(integrand, dps, prec, rnd))) / (a - 1)
    return +value  # round to the caller's context precision


def _trapezoid(integrand, dps: int, prec: int, rnd):
    """The integral over the real line of ``integrand`` (raw mpmath values in and out) by the trapezoidal
    rule, for an entire integrand that is a Gaussian of width 1 around 0 (times a polynomial of low degree).

    For such an integrand the trapezoidal rule with step ``h`` errs by about ``2 exp(-2 pi^2 / h^2)``
    relative (Poisson summation; the rule behind tanh-sinh), and cutting the line at ``|t| = L`` drops
    ``erfc(L / sqrt 2)`` of it: ``h = 2^-j`` and ``L`` are chosen so that both are below ``10^-(dps + 10)``,
    and the rule at ``2 h`` errs by less than ``10^-(dps / 2 + 5)``
    (``h = 1/4`` and ``L = 14`` at 25 digits: 113 evaluations, where ``mpmath.quad``'s tanh-sinh took about
    3,500 for the same digits). The rule at ``2 h`` (the even nodes) is the check: if the two differ by more
    than ``10^-(dps / 2)`` relative, the integrand is not what this rule assumes (or the working precision
    is lost to cancellation) and an ``ArithmeticError`` says so. Nodes are summed in increasing ``t``, the
    even ones first."""
    from mpmath.libmp import from_man_exp, fzero, mpf_abs, mpf_add, mpf_cmp, mpf_mul, mpf_shift, mpf_sub

    digits = dps + 10
    L = math.ceil(math.sqrt(2 * math.log(10) * digits)) + 1
    j = 2       # the fine rule good to `digits`, the coarse one (step 2h, the check) to dps / 2 and 5 more
    while (2 * math.pi**2 * 4.0**j < math.log(10) * digits + math.log(2)
           or 2 * math.pi**2 * 4.0**(j - 1) < math.log(10) * (dps // 2 + 5) + math.log(2)):
        j += 1
    n = L << j
    even = odd = fzero
    for k in range(-n, n + 1, 2):
        even = mpf_add(even, integrand(from_man_exp(k, -j)), prec, rnd)
    for k in range(-n + 1, n, 2):
        odd = mpf_add(odd, integrand(from_man_exp(k, -j)), prec, rnd)
    fine = mpf_shift(mpf_add(even, odd, prec, rnd), -j)          # h (even + odd), h = 2^-j
    coarse = mpf_shift(even, 1 - j)                               # 2 h even
    gap = mpf_abs(mpf_sub(fine, coarse, prec, rnd))
    if mpf_cmp(gap, mpf_mul(mpf_abs(fine), _tenth_power(dps // 2, prec), prec, rnd)) > 0:
        raise ArithmeticError(f"the Renyi quadrature did not converge to {dps // 2} digits (its rules at steps "
                              f"2^-{j} and 2^-{j - 1} differ by {mpmath.mpf(gap)} against {mpmath.mpf(fine)})")
    return fine


def _tenth_power(k: int, prec: int):
    """``10^-k`` as a raw mpmath value at ``prec`` bits."""
    from mpmath.libmp import from_int, mpf_div, round_nearest

    return mpf_div(from_int(1), from_int(10**k), prec, round_nearest)


def renyi_divergence_gaussians_closed(mu0, mu1, s, alpha):
    """Closed form ``D_alpha(N(mu0, s^2) || N(mu1, s^2)) = alpha (mu0-mu1)^2 / (2 s^2)``.

    Parameters
    ----------
    mu0, mu1 : real
    s : real, > 0
    alpha : real, > 0

    Returns
    -------
    float or mpf
        [Bun & Steinke 2016, Lemma 2.4].

    Raises
    ------
    ValueError
        On non-finite means, non-positive ``s`` or ``alpha``.
    """
    check_finite("mu0", mu0)
    check_finite("mu1", mu1)
    check_positive("s", s)
    check_positive("alpha", alpha)
    if uses_mpmath(mu0, mu1, s, alpha):
        m0, m1, sd, a = (mpmath.mpf(v) for v in (mu0, mu1, s, alpha))
        return a * (m0 - m1) ** 2 / (2 * sd * sd)
    return float(alpha) * (float(mu0) - float(mu1)) ** 2 / (2.0 * float(s) ** 2)


# ---------------------------------------------------------------------------
# Exact privacy profile of the Gaussian mechanism
# ---------------------------------------------------------------------------


def _log_gaussian_delta(eps: float, mu: float) -> float:
    """``ln delta(eps)`` for the Gaussian mechanism, in double precision."""
    a = scipy.special.log_ndtr(-eps / mu + mu / 2.0)
    b = scipy.special.log_ndtr(-eps / mu - mu / 2.0)
    t = eps + b - a  # ln(e^eps Phi(.-mu) / Phi(.)) ; < 0 mathematically
    if t >= 0.0:
        return -math.inf
    return float(a + math.log(-math.expm1(t)))


def gaussian_delta_exact(eps, mu):
    """Exact privacy profile of the Gaussian mechanism with ``mu = Delta / s``.

    ``delta(eps) = Phi(-eps/mu + mu/2) - e^eps Phi(-eps/mu - mu/2)``
    [Balle & Wang 2018, Thm. 8].  Float inputs are evaluated in log space
    with ``scipy.special.log_ndtr`` and ``expm1`` (no cancellation or
    underflow before the final ``exp``); ``mpf`` inputs use ``mpmath.ncdf``
    at the current precision.  Valid for every real ``eps``.  The
    ``rho``-zCDP Gaussian has ``mu = sqrt(2 rho)``.

    Parameters
    ----------
    eps : real
        Privacy-loss threshold.
    mu : real, > 0
        Sensitivity divided by the noise standard deviation.

    Returns
    -------
    float or mpf
        ``delta(eps) >= 0``.

    Raises
    ------
    ValueError
        If ``eps`` is not finite or ``mu`` is not positive and finite.
    """
    check_finite("eps", eps)
    check_positive("mu", mu)
    if uses_mpmath(eps, mu):
        return max(gaussian_delta_mp(eps, mu), mpmath.mpf(0))
    return math.exp(_log_gaussian_delta(float(eps), float(mu)))


def gaussian_eps_exact(delta, mu) -> float:
    """Smallest ``eps >= 0`` such that the Gaussian mechanism is ``(eps, delta)``-DP.

    Solves ``gaussian_delta_exact(eps, mu) = delta`` by Brent's method on
    ``ln delta(eps) - ln delta`` over ``[0, zcdp_to_dp(mu^2/2, delta)]`` (the
    upper end is a valid bracket by the zCDP-to-DP conversion).  Returns ``0.0`` if
    ``delta >= delta(0)``.  Double precision only.

    Parameters
    ----------
    delta : real in (0, 1)
    mu : real, > 0

    Returns
    -------
    float
        [Balle & Wang 2018, Thm. 8].

    Raises
    ------
    ValueError
        If ``delta`` is not in (0, 1) or ``mu`` is not positive and finite.
    """
    check_delta(delta)
    check_positive("mu", mu)
    d, m = float(delta), float(mu)
    log_d = math.log(d)

    def f(e):
        return _log_gaussian_delta(e, m) - log_d

    if f(0.0) <= 0.0:
        return 0.0
    hi = zcdp_to_dp(m * m / 2.0, d)
    while f(hi) > 0.0:  # guard against rounding at the bracket end
        hi = 2.0 * hi + 1e-12
    if f(hi) == 0.0:
        return hi
    return float(scipy.optimize.brentq(f, 0.0, hi, xtol=1e-14, rtol=4 * np.finfo(float).eps))


_CLAMP = mpmath.mpf(10) ** 6


def gaussian_delta_mp(eps, mu):
    """``Phi(-eps/mu + mu/2) - e^eps Phi(-eps/mu - mu/2)``, the Gaussian mechanism's profile
    [Balle & Wang 2018, Thm. 8], in mpmath at the working precision (unclipped: rounding may make it
    slightly negative). The arguments of Phi are clamped to +-1e6 (mpmath's erfc overflows near 1e300);
    Phi moves by less than Phi(-1e6) ~ 10^(-2e11) there."""
    e, m = mpmath.mpf(eps), mpmath.mpf(mu)
    a = mpmath.ncdf(max(min(-e / m + m / 2, _CLAMP), -_CLAMP))
    return a - mpmath.exp(e) * mpmath.ncdf(max(min(-e / m - m / 2, _CLAMP), -_CLAMP))


def gaussian_eps_mp(delta, mu, dps: int = 30):
    """The smallest ``eps >= 0`` at which the Gaussian mechanism of ``mu = Delta / sigma`` is
    ``(eps, delta)``-DP, solved in mpmath at ``dps`` digits (an mpf): the root of the exact profile
    ``Phi(-eps/mu + mu/2) - e^eps Phi(-eps/mu - mu/2) = delta`` [Balle & Wang 2018, Thm. 8], which is
    decreasing in eps, bracketed by ``[0, zCDP-to-DP eps]`` and found by bisection to ``dps`` digits;
    0 when ``delta >= delta(0)``."""
    check_delta(delta)
    check_positive("mu", mu)
    with mpmath.workdps(dps + 10):
        d, m = mpmath.mpf(delta), mpmath.mpf(mu)

        def f(e):
            return gaussian_delta_mp(e, m) - d

        if f(0) <= 0:
            return mpmath.mpf(0)
        hi = m * m / 2 + 2 * mpmath.sqrt(m * m / 2 * mpmath.log(1 / d))
        while f(hi) > 0:
            hi = 2 * hi + 1
        return _bisect_root(f, mpmath.mpf(0), hi, int((dps + 5) * 3.33) + int(mpmath.log(hi + 1, 2)) + 2)


def _bisect_root(f, lo, hi, steps: int):
    """The root of a decreasing ``f`` in ``[lo, hi]`` (``f(lo) > 0 >= f(hi)``), by ``steps`` halvings: the
    bracket's midpoint."""
    for _ in range(steps):
        mid = (lo + hi) / 2
        if f(mid) > 0:
            lo = mid
        else:
            hi = mid
    return (lo + hi) / 2


def gaussian_eps_signed_mp(delta, mu, dps: int = 30):
    """The eps at which the Gaussian mechanism's exact profile equals ``delta``, on the whole real line
    (an mpf): :func:`gaussian_eps_mp` where it is positive, and the negative root where
    ``delta > delta(0)`` (the profile is decreasing from 1 at ``eps -> -inf``, so the root exists for every
    ``delta`` in (0, 1)): eps at delta is *not* 0 there, and a bound below 0 may hold. Bisection to
    ``dps`` digits of the bracket ``[lo, 0]``, ``lo`` halved until the profile exceeds ``delta``.
    ``mu = 0`` (identical outputs: ``delta(eps) = max(0, 1 - e^eps)``) gives ``ln(1 - delta)``."""
    check_delta(delta)
    if mu == 0:
        with mpmath.workdps(dps + 10):
            return +mpmath.log1p(-mpmath.mpf(delta))
    check_positive("mu", mu)
    with mpmath.workdps(dps + 10):
        d, m = mpmath.mpf(delta), mpmath.mpf(mu)

        def f(e):
            return gaussian_delta_mp(e, m) - d

        if f(0) > 0:
            return gaussian_eps_mp(delta, mu, dps)
        lo = mpmath.mpf(-1)
        while f(lo) <= 0:
            lo *= 2
        return _bisect_root(f, lo, mpmath.mpf(0), int((dps + 5) * 3.33) + int(mpmath.log(1 - lo, 2)) + 2)
