"""Privacy accounting for noisy gradient descent (zCDP, RDP, exact Gaussian DP).

This module implements the privacy bookkeeping used by the paper ``dni``
(seed ``000_155fea93f75f24eb``), which measures privacy with zero-concentrated
differential privacy (zCDP) [dni, Definition 3.4], [Bun & Steinke 2016,
Def. 1.1]:

* Gaussian mechanism: sensitivity ``Delta`` and noise ``N(0, Delta^2 sigma^2 I)``
  is ``1/(2 sigma^2)``-zCDP [dni, Lemma B.2], [Bun & Steinke 2016, Prop. 1.6].
* Composition adds the rho's [dni, Lemma B.1], [Bun & Steinke 2016, Lemma 2.3].
* Conversion ``rho``-zCDP => ``(rho + 2 sqrt(rho ln(1/delta)), delta)``-DP
  [dni, Lemma B.3], [Bun & Steinke 2016, Prop. 1.3], its inverse, and the
  tighter RDP-based conversion [Canonne, Kamath & Steinke 2020, Prop. 12].
* Exact privacy profile of the Gaussian mechanism [Balle & Wang 2018, Thm. 8].
* Algorithm 1 of dni (budget requests ``rho_t = 1/sigma_t^2`` against a
  residual budget ``R_t``) and cross-checks against Google's ``dp_accounting``.

Numeric conventions
-------------------
* **Closed forms** (``gaussian_zcdp``, ``gaussian_zcdp_multiplier``,
  ``compose_zcdp``, ``zcdp_to_dp``, ``dp_to_zcdp``, ``dp_to_zcdp_spurious_root``,
  ``rdp_of_zcdp``, ``renyi_divergence_gaussians_closed``,
  ``gaussian_delta_exact``): if *any* numeric argument is an ``mpmath.mpf``,
  the computation is done with ``mpmath`` at the caller's current
  ``mpmath.mp`` precision and an ``mpf`` is returned; otherwise inputs are
  converted to ``float`` and the result is a Python ``float`` computed with
  ``math`` / ``scipy.special`` (``rdp_of_zcdp`` returns a numpy array for
  sequence ``orders``).
* **Numerical optimisation / root finding** (``zcdp_to_dp_optimal``,
  ``gaussian_eps_exact``) and the ``dp_accounting`` wrappers work in double
  precision only: ``mpf`` inputs are accepted but converted to ``float`` and a
  ``float`` is returned.
* ``renyi_divergence_gaussians`` always integrates with ``mpmath`` at ``dps``
  decimal digits and returns an ``mpf`` (it is a high-precision reference).

Every invalid argument raises ``ValueError`` whose message names the parameter
and the offending value, in ``dp_accounting``'s style, e.g.
``"delta must be in (0, 1). Found 2.0."``.

Adjacency
---------
``"remove"``: neighbouring datasets differ by removing one sample
[dni, Definition B.1]; the mean gradient ``(1/N) sum_i g_i`` with
``||g_i|| <= G`` and a fixed normaliser ``N`` has sensitivity ``G/N``.
``"replace"``: same-size neighbours ``d, d' in D^n`` that differ in one sample
[dni, Definition 3.4]; the sensitivity is ``2G/N`` and every zCDP value is
4x the "remove" value.

Notes on ``dp_accounting`` 0.6.0 (verified from its source): for an
unsampled ``GaussianDpEvent(z)`` the ``RdpAccountant`` *ignores* the
neighbouring relation (it always uses ``alpha / (2 z^2)``), whereas the
``PLDAccountant`` with ``REPLACE_ONE`` internally doubles the sensitivity.
To avoid this inconsistency the wrappers below always use
``ADD_OR_REMOVE_ONE`` and encode replace-adjacency as the halved noise
multiplier ``z/2`` (the noise std relative to the replace sensitivity).
"""

from __future__ import annotations

import collections
import dataclasses
import math
import numbers
from typing import Iterable, Sequence

import mpmath
import numpy as np
from scipy import optimize, special

__all__ = [
    "Algorithm1Privacy",
    "ADJACENCIES",
    "gaussian_zcdp",
    "gaussian_zcdp_multiplier",
    "compose_zcdp",
    "zcdp_to_dp",
    "zcdp_to_dp_optimal",
    "dp_to_zcdp",
    "dp_to_zcdp_spurious_root",
    "rdp_of_zcdp",
    "renyi_divergence_gaussians",
    "renyi_divergence_gaussians_closed",
    "gaussian_delta_exact",
    "gaussian_eps_exact",
    "sensitivity_of_mean_gradient",
    "algorithm1_privacy",
    "dp_accounting_epsilon",
    "dp_accounting_rdp",
]

#: Supported neighbouring relations (see module docstring).
ADJACENCIES = ("remove", "replace")


# ---------------------------------------------------------------------------
# Validation helpers
# ---------------------------------------------------------------------------


def _is_real(x) -> bool:
    """True for real scalars (int, float, numpy reals, Fraction, mpf), not bool."""
    if isinstance(x, (bool, np.bool_)):
        return False
    return isinstance(x, (numbers.Real, mpmath.mpf))


def _require_real(name: str, x) -> None:
    if not _is_real(x):
        raise ValueError(f"{name} must be a real number. Found {x!r}.")


def _is_nan(x) -> bool:
    return bool(mpmath.isnan(x)) if isinstance(x, mpmath.mpf) else math.isnan(float(x))


def _is_finite(x) -> bool:
    return bool(mpmath.isfinite(x)) if isinstance(x, mpmath.mpf) else math.isfinite(float(x))


def _check_positive(name: str, x) -> None:
    """Finite and > 0."""
    _require_real(name, x)
    if _is_nan(x) or not _is_finite(x) or not x > 0:
        raise ValueError(f"{name} must be positive and finite. Found {x}.")


def _check_nonnegative(name: str, x) -> None:
    """Finite and >= 0."""
    _require_real(name, x)
    if _is_nan(x) or not _is_finite(x) or not x >= 0:
        raise ValueError(f"{name} must be non-negative and finite. Found {x}.")


def _check_finite(name: str, x) -> None:
    _require_real(name, x)
    if _is_nan(x) or not _is_finite(x):
        raise ValueError(f"{name} must be finite. Found {x}.")


def _check_delta(x, name: str = "delta") -> None:
    _require_real(name, x)
    if _is_nan(x) or not 0 < x < 1:
        raise ValueError(f"{name} must be in (0, 1). Found {x}.")


def _check_adjacency(adjacency) -> None:
    if adjacency not in ADJACENCIES:
        raise ValueError(
            f"adjacency must be one of {ADJACENCIES}. Found {adjacency!r}."
        )


def _use_mp(*xs) -> bool:
    """Whether to compute with mpmath (any argument is an ``mpf``)."""
    return any(isinstance(x, mpmath.mpf) for x in xs)


def _as_sequence(name: str, xs) -> list:
    if isinstance(xs, (str, bytes)) or not isinstance(xs, Iterable):
        raise ValueError(f"{name} must be an iterable of real numbers. Found {xs!r}.")
    return list(xs)


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
        [dni, Lemma B.2] with ``s = Delta * sigma``;
        [Bun & Steinke 2016, Prop. 1.6].

    Raises
    ------
    ValueError
        If ``sensitivity`` is negative / non-finite or ``noise_std`` is not
        positive and finite.
    """
    _check_nonnegative("sensitivity", sensitivity)
    _check_positive("noise_std", noise_std)
    if _use_mp(sensitivity, noise_std):
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
        ``1 / (2 sigma^2)`` [dni, Lemma B.2]; [Bun & Steinke 2016, Prop. 1.6].

    Raises
    ------
    ValueError
        If ``sigma`` is not positive and finite.
    """
    _check_positive("sigma", sigma)
    if _use_mp(sigma):
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
        ``sum(rhos)`` [dni, Lemma B.1]; [Bun & Steinke 2016, Lemma 2.3].
        Floats are summed with ``math.fsum`` (correctly rounded); an empty
        iterable gives ``0.0``.

    Raises
    ------
    ValueError
        If ``rhos`` is not iterable or an element is negative / non-finite
        (the message names ``rhos[i]``).
    """
    values = _as_sequence("rhos", rhos)
    for i, r in enumerate(values):
        _check_nonnegative(f"rhos[{i}]", r)
    if _use_mp(*values):
        return mpmath.fsum(mpmath.mpf(r) for r in values)
    return math.fsum(float(r) for r in values)


# ---------------------------------------------------------------------------
# zCDP <-> (eps, delta)-DP
# ---------------------------------------------------------------------------


def zcdp_to_dp(rho, delta):
    """Standard conversion ``rho``-zCDP => ``(eps, delta)``-DP.

    ``eps = rho + 2 sqrt(rho ln(1/delta))``.

    Parameters
    ----------
    rho : real, >= 0
        zCDP parameter.
    delta : real in (0, 1)
        Target delta.

    Returns
    -------
    float or mpf
        ``eps`` [dni, Lemma B.3]; [Bun & Steinke 2016, Prop. 1.3].

    Raises
    ------
    ValueError
        If ``rho`` is negative / non-finite or ``delta`` is not in (0, 1).
    """
    _check_nonnegative("rho", rho)
    _check_delta(delta)
    if _use_mp(rho, delta):
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
    """Tighter ``rho``-zCDP => ``(eps, delta)``-DP conversion via Renyi DP.

    ``eps = inf_{alpha > 1} [rho alpha + (ln(1/delta) + (alpha-1) ln(1-1/alpha)
    - ln alpha) / (alpha - 1)]``, clipped at 0
    [Canonne, Kamath & Steinke 2020, Prop. 12]; [Asoodeh et al. 2021].

    The objective is minimised over ``u = ln(alpha - 1)``: a coarse grid
    around the classic optimum ``alpha* = 1 + sqrt(ln(1/delta)/rho)`` followed
    by bounded Brent refinement.  The returned value is also minimised against
    the objective at ``alpha*``, where it is provably ``<=``
    :func:`zcdp_to_dp` (the extra terms ``ln(1-1/a) - ln(a)/(a-1)`` are
    negative), so ``zcdp_to_dp_optimal(r, d) <= zcdp_to_dp(r, d)`` always.

    Parameters
    ----------
    rho : real, >= 0
        zCDP parameter.
    delta : real in (0, 1)
        Target delta.

    Returns
    -------
    float
        The optimised epsilon (double precision; ``mpf`` inputs are
        converted to ``float``).

    Raises
    ------
    ValueError
        If ``rho`` is negative / non-finite or ``delta`` is not in (0, 1).
    """
    _check_nonnegative("rho", rho)
    _check_delta(delta)
    r, L = float(rho), -math.log(float(delta))
    if r == 0.0:
        return 0.0
    u_star = 0.5 * (math.log(L) - math.log(r))  # alpha* - 1 = sqrt(L/rho)
    u_star = min(max(u_star, -690.0), 690.0)
    grid = np.linspace(max(u_star - 20.0, -700.0), min(u_star + 20.0, 700.0), 401)
    vals = np.array([_cks_objective(u, r, L) for u in grid])
    k = int(np.argmin(vals))
    lo, hi = grid[max(k - 1, 0)], grid[min(k + 1, len(grid) - 1)]
    res = optimize.minimize_scalar(
        _cks_objective, bounds=(lo, hi), args=(r, L), method="bounded",
        options={"xatol": 1e-12},
    )
    best = min(float(res.fun), float(vals[k]), _cks_objective(u_star, r, L))
    best = min(best, zcdp_to_dp(r, float(delta)))
    return max(0.0, best)


def dp_to_zcdp(eps, delta):
    """Invert :func:`zcdp_to_dp`: the unique ``rho >= 0`` with ``rho + 2 sqrt(rho L) = eps``.

    With ``L = ln(1/delta)``, ``rho = (sqrt(L + eps) - sqrt(L))^2``, computed
    without cancellation as ``eps^2 / (sqrt(L + eps) + sqrt(L))^2``.
    (Substituting ``x = sqrt(rho)`` gives ``x^2 + 2 sqrt(L) x - eps = 0`` whose
    only non-negative root is ``x = sqrt(L + eps) - sqrt(L)``.)

    Note the inversion printed below [dni, Lemma B.3],
    ``rho = eps + 2 ln(1/delta) + 2 sqrt(ln(1/delta)(eps + ln(1/delta)))``,
    is the *other*, spurious root (see :func:`dp_to_zcdp_spurious_root`); the
    paper's figure "0.1963-zCDP (equal to (4, 1e-8)-DP)" [dni, Appendix D]
    matches this function (0.196352..., i.e. 0.1963 truncated / 0.1964
    rounded; ``2 rho = 0.39270`` gives the paper's ``R = 0.3927``).

    Parameters
    ----------
    eps : real, >= 0
        Target epsilon.
    delta : real in (0, 1)
        Target delta.

    Returns
    -------
    float or mpf
        ``rho`` [dni, Lemma B.3]; [Bun & Steinke 2016, Prop. 1.3].

    Raises
    ------
    ValueError
        If ``eps`` is negative / non-finite or ``delta`` is not in (0, 1).
    """
    _check_nonnegative("eps", eps)
    _check_delta(delta)
    if _use_mp(eps, delta):
        e, L = mpmath.mpf(eps), -mpmath.log(mpmath.mpf(delta))
        return e * e / (mpmath.sqrt(L + e) + mpmath.sqrt(L)) ** 2
    e, L = float(eps), -math.log(float(delta))
    return e * e / (math.sqrt(L + e) + math.sqrt(L)) ** 2


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
    _check_nonnegative("eps", eps)
    _check_delta(delta)
    if _use_mp(eps, delta):
        e, L = mpmath.mpf(eps), -mpmath.log(mpmath.mpf(delta))
        return e + 2 * L + 2 * mpmath.sqrt(L * (e + L))
    e, L = float(eps), -math.log(float(delta))
    return e + 2.0 * L + 2.0 * math.sqrt(L * (e + L))


# ---------------------------------------------------------------------------
# Renyi divergences
# ---------------------------------------------------------------------------


def _check_orders(orders, *, allow_one: bool = False) -> list:
    if _is_real(orders):
        seq = [orders]
    else:
        seq = _as_sequence("orders", orders)
        if not seq:
            raise ValueError(f"orders must be non-empty. Found {orders!r}.")
    for i, a in enumerate(seq):
        name = "orders" if _is_real(orders) else f"orders[{i}]"
        _require_real(name, a)
        ok = (a >= 1) if allow_one else (a > 1)
        if _is_nan(a) or not _is_finite(a) or not ok:
            bound = "[1, inf)" if allow_one else "(1, inf)"
            raise ValueError(f"{name} must be in {bound}. Found {a}.")
    return seq


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
        ``rho * alpha`` [dni, Definition 3.4]; [Bun & Steinke 2016, Def. 1.1].
        A scalar for scalar ``orders``; a float ``ndarray`` for a sequence of
        orders (a ``list`` of ``mpf`` if any input is ``mpf``).

    Raises
    ------
    ValueError
        If ``rho`` is negative / non-finite, or an order is not in ``(1, inf)``.
    """
    _check_nonnegative("rho", rho)
    seq = _check_orders(orders)
    scalar = _is_real(orders)
    if _use_mp(rho, *seq):
        out = [mpmath.mpf(rho) * mpmath.mpf(a) for a in seq]
        return out[0] if scalar else out
    arr = float(rho) * np.asarray([float(a) for a in seq], dtype=float)
    return float(arr[0]) if scalar else arr


def renyi_divergence_gaussians(mu0, mu1, s, alpha, dps: int = 50):
    """Renyi divergence ``D_alpha(N(mu0, s^2) || N(mu1, s^2))`` by quadrature.

    Computes ``1/(alpha-1) ln int p(x)^alpha q(x)^(1-alpha) dx`` (or the KL
    divergence ``int p ln(p/q)`` for ``alpha == 1``) with ``mpmath.quad``
    (tanh-sinh) at ``dps`` decimal digits, from the two densities directly,
    i.e. *without* using the closed form.  Used to check [dni, Lemma B.2]
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
    """
    _check_finite("mu0", mu0)
    _check_finite("mu1", mu1)
    _check_positive("s", s)
    _check_orders(alpha, allow_one=True)
    if isinstance(dps, (bool, np.bool_)) or not isinstance(dps, numbers.Integral) or dps < 15:
        raise ValueError(f"dps must be an integer >= 15. Found {dps!r}.")
    with mpmath.workdps(int(dps) + 10):
        m0, m1, sd, a = (mpmath.mpf(v) for v in (mu0, mu1, s, alpha))
        log_norm = -mpmath.log(sd * mpmath.sqrt(2 * mpmath.pi))

        def logp(x):
            return log_norm - (x - m0) ** 2 / (2 * sd * sd)

        def logq(x):
            return log_norm - (x - m1) ** 2 / (2 * sd * sd)

        # Integrate in standardised coordinates x = centre + sd * t so that the
        # quadrature nodes resolve the integrand's scale whatever s is.
        if a == 1:
            centre = m0

            def integrand(t):
                x = centre + sd * t
                lp = logp(x)
                return sd * mpmath.exp(lp) * (lp - logq(x))

            value = mpmath.quad(integrand, [-mpmath.inf, -4, 0, 4, mpmath.inf])
        else:
            # p^a q^(1-a) is proportional to a Gaussian centred here, width sd.
            centre = a * m0 + (1 - a) * m1

            def integrand(t):
                x = centre + sd * t
                return sd * mpmath.exp(a * logp(x) + (1 - a) * logq(x))

            value = mpmath.log(mpmath.quad(integrand, [-mpmath.inf, -4, 0, 4, mpmath.inf])) / (a - 1)
    return +value  # round to the caller's context precision


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
        [Bun & Steinke 2016, Lemma 2.4]; [dni, Lemma B.2].

    Raises
    ------
    ValueError
        On non-finite means, non-positive ``s`` or ``alpha``.
    """
    _check_finite("mu0", mu0)
    _check_finite("mu1", mu1)
    _check_positive("s", s)
    _check_positive("alpha", alpha)
    if _use_mp(mu0, mu1, s, alpha):
        m0, m1, sd, a = (mpmath.mpf(v) for v in (mu0, mu1, s, alpha))
        return a * (m0 - m1) ** 2 / (2 * sd * sd)
    return float(alpha) * (float(mu0) - float(mu1)) ** 2 / (2.0 * float(s) ** 2)


# ---------------------------------------------------------------------------
# Exact privacy profile of the Gaussian mechanism
# ---------------------------------------------------------------------------


def _log_gaussian_delta(eps: float, mu: float) -> float:
    """``ln delta(eps)`` for the Gaussian mechanism, in double precision."""
    a = special.log_ndtr(-eps / mu + mu / 2.0)
    b = special.log_ndtr(-eps / mu - mu / 2.0)
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
    _check_finite("eps", eps)
    _check_positive("mu", mu)
    if _use_mp(eps, mu):
        e, m = mpmath.mpf(eps), mpmath.mpf(mu)
        d = mpmath.ncdf(-e / m + m / 2) - mpmath.exp(e) * mpmath.ncdf(-e / m - m / 2)
        return max(d, mpmath.mpf(0))
    return math.exp(_log_gaussian_delta(float(eps), float(mu)))


def gaussian_eps_exact(delta, mu) -> float:
    """Smallest ``eps >= 0`` such that the Gaussian mechanism is ``(eps, delta)``-DP.

    Solves ``gaussian_delta_exact(eps, mu) = delta`` by Brent's method on
    ``ln delta(eps) - ln delta`` over ``[0, zcdp_to_dp(mu^2/2, delta)]`` (the
    upper end is a valid bracket by [dni, Lemma B.3]).  Returns ``0.0`` if
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
    _check_delta(delta)
    _check_positive("mu", mu)
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
    return float(optimize.brentq(f, 0.0, hi, xtol=1e-14, rtol=4 * np.finfo(float).eps))


# ---------------------------------------------------------------------------
# Algorithm 1 of dni
# ---------------------------------------------------------------------------


@dataclasses.dataclass(frozen=True)
class Algorithm1Privacy:
    """Privacy outcome of [dni, Algorithm 1].

    Attributes
    ----------
    steps : int
        Number of executed (noised) gradient steps ``T``.
    rho : float
        zCDP of the composition of the ``T`` executed Gaussian mechanisms,
        ``sum_t sensitivity^2 / (2 (G sigma_t / N)^2)``.
    residual_budget : float
        ``R_{T+1} = R - sum_{t <= T} 1/sigma_t^2`` (repeated float subtraction,
        exactly as the algorithm does it).
    sensitivity : float
        L2 sensitivity of the mean gradient: ``G/N`` (remove) or ``2G/N``
        (replace).
    per_step_rho : tuple of float
        zCDP of each executed step.
    """

    steps: int
    rho: float
    residual_budget: float
    sensitivity: float
    per_step_rho: tuple


def sensitivity_of_mean_gradient(clip_or_G=1.0, N=1, adjacency: str = "remove") -> float:
    """L2 sensitivity of ``(1/N) sum_i g_i`` with ``||g_i|| <= G`` and fixed ``N``.

    ``G/N`` for removal of one sample [dni, Definition B.1] and ``2G/N`` for
    replacement of one sample (same-size neighbours of [dni, Definition 3.4]).

    Raises
    ------
    ValueError
        On non-positive ``clip_or_G``, non-integer / non-positive ``N`` or an
        unknown ``adjacency``.
    """
    _check_positive("clip_or_G", clip_or_G)
    if isinstance(N, (bool, np.bool_)) or not isinstance(N, numbers.Integral) or N < 1:
        raise ValueError(f"N must be a positive integer. Found {N!r}.")
    _check_adjacency(adjacency)
    factor = 1.0 if adjacency == "remove" else 2.0
    return factor * float(clip_or_G) / int(N)


def algorithm1_privacy(sigmas, R, adjacency: str = "remove", clip_or_G=1.0, N=1) -> Algorithm1Privacy:
    """Run the budget bookkeeping of [dni, Algorithm 1] and account its privacy.

    At step ``t`` the algorithm requests ``rho_t = 1/sigma_t^2``; if
    ``rho_t < R_t`` (strict) it sets ``R_{t+1} = R_t - rho_t`` and releases the
    mean gradient plus ``N(0, (G sigma_t / N)^2 I)``; otherwise it terminates.
    ``R_1 = R``.  The ``sigmas`` iterable is consumed lazily, so an infinite
    generator is fine as long as the budget eventually runs out.

    Each executed step is a Gaussian mechanism with sensitivity ``Delta``
    (:func:`sensitivity_of_mean_gradient`) and noise std ``G sigma_t / N``,
    hence ``Delta^2 / (2 (G sigma_t/N)^2) = c / (2 sigma_t^2)`` zCDP with
    ``c = 1`` (remove) or ``c = 4`` (replace) [dni, Lemma B.2]; the total is
    the sum [dni, Lemma B.1].  ``G`` and ``N`` cancel; the per-step values are
    computed as ``c / (2 sigma_t^2)`` to avoid rounding in ``G/N``.

    Since every executed step has ``rho_t < R_t``, ``sum_t 1/sigma_t^2 < R``
    and so ``rho < R/2`` for "remove" (Theorem 3.1 of dni) and ``rho < 2R``
    for "replace" (up to float rounding of the running subtraction, a few
    ulps of ``R``).

    Floating-point boundary: with a uniform schedule ``sigma_t^2 = T/R`` the
    request at step ``T`` equals the residual *exactly* in real arithmetic, so
    the strict inequality refuses it and only ``T - 1`` steps run; in floating
    point the outcome at that boundary is ``T - 1`` or ``T`` depending on
    rounding of ``sqrt``, ``1/sigma^2`` and the subtractions (e.g. exactly
    ``T - 1`` for ``T = 4, R = 1, sigma = 2``).  To get exactly ``T`` steps,
    inflate ``sigma_t^2`` slightly, e.g. ``T/R * (1 + 1e-9)``.

    Parameters
    ----------
    sigmas : iterable of real > 0
        Noise multipliers ``sigma_1, sigma_2, ...``.
    R : real, > 0
        Total budget ``R_1``.
    adjacency : {"remove", "replace"}
        Neighbouring relation (see module docstring).
    clip_or_G : real, > 0
        Per-sample gradient norm bound ``G`` (Lipschitz constant or clip norm).
    N : int, >= 1
        Fixed normaliser of the mean gradient (dataset size).

    Returns
    -------
    Algorithm1Privacy

    Raises
    ------
    ValueError
        If ``R`` is not positive and finite, a consumed ``sigmas[t]`` is not
        positive and finite, or on bad ``adjacency`` / ``clip_or_G`` / ``N``.
    """
    _check_positive("R", R)
    sensitivity = sensitivity_of_mean_gradient(clip_or_G, N, adjacency)
    if isinstance(sigmas, (str, bytes)) or not isinstance(sigmas, Iterable):
        raise ValueError(f"sigmas must be an iterable of real numbers. Found {sigmas!r}.")
    c = 1.0 if adjacency == "remove" else 4.0
    residual = float(R)
    per_step = []
    for t, sigma in enumerate(sigmas):
        _check_positive(f"sigmas[{t}]", sigma)
        s = float(sigma)
        request = 1.0 / (s * s)
        if not request < residual:
            break
        residual = residual - request
        per_step.append(c / (2.0 * s * s))
    return Algorithm1Privacy(
        steps=len(per_step),
        rho=math.fsum(per_step),
        residual_budget=residual,
        sensitivity=sensitivity,
        per_step_rho=tuple(per_step),
    )


# ---------------------------------------------------------------------------
# Cross-checks via dp_accounting
# ---------------------------------------------------------------------------


def _effective_multipliers(noise_multipliers, adjacency: str) -> list:
    _check_adjacency(adjacency)
    zs = _as_sequence("noise_multipliers", noise_multipliers)
    for i, z in enumerate(zs):
        _check_positive(f"noise_multipliers[{i}]", z)
    scale = 1.0 if adjacency == "remove" else 0.5
    return [scale * float(z) for z in zs]


def _gaussian_composition_event(zs: Sequence[float]):
    import dp_accounting

    counts = collections.Counter(zs)
    return dp_accounting.ComposedDpEvent(
        [
            dp_accounting.SelfComposedDpEvent(dp_accounting.GaussianDpEvent(z), n)
            for z, n in sorted(counts.items())
        ]
    )


def dp_accounting_epsilon(
    noise_multipliers,
    delta,
    adjacency: str = "remove",
    accountant: str = "rdp",
    orders=None,
    value_discretization_interval: float = 1e-4,
) -> float:
    """Epsilon of a composition of Gaussian mechanisms via ``dp_accounting``.

    Composes ``GaussianDpEvent(z_t)`` for each step (identical multipliers are
    grouped into ``SelfComposedDpEvent``) with the neighbouring relation
    ``ADD_OR_REMOVE_ONE``; for ``adjacency="replace"`` the multiplier relative
    to the doubled sensitivity, ``z_t / 2``, is used (see module docstring for
    why ``REPLACE_ONE`` is not used).  For [dni, Algorithm 1], ``z_t = sigma_t``.

    Parameters
    ----------
    noise_multipliers : iterable of real > 0
        Noise std divided by the per-sample bound ``G/N``.
    delta : real in (0, 1)
    adjacency : {"remove", "replace"}
    accountant : {"rdp", "pld"}
        ``"rdp"``: ``RdpAccountant`` (conversion of
        [Canonne, Kamath & Steinke 2020, Prop. 12] at a finite set of orders);
        ``"pld"``: ``PLDAccountant`` (pessimistic discretisation, near-exact).
    orders : sequence of real > 1, optional
        RDP orders (``RdpAccountant`` default if ``None``); ``"rdp"`` only.
    value_discretization_interval : real > 0
        PLD discretisation; ``"pld"`` only.

    Returns
    -------
    float

    Raises
    ------
    ValueError
        On a bad multiplier, ``delta``, ``adjacency``, ``accountant``, ``orders``
        or ``value_discretization_interval``.
    """
    import dp_accounting

    zs = _effective_multipliers(noise_multipliers, adjacency)
    _check_delta(delta)
    if accountant not in ("rdp", "pld"):
        raise ValueError(f"accountant must be 'rdp' or 'pld'. Found {accountant!r}.")
    relation = dp_accounting.NeighboringRelation.ADD_OR_REMOVE_ONE
    if accountant == "rdp":
        kwargs = {} if orders is None else {"orders": [float(a) for a in _check_orders(orders)]}
        acc = dp_accounting.rdp.RdpAccountant(neighboring_relation=relation, **kwargs)
    else:
        _check_positive("value_discretization_interval", value_discretization_interval)
        acc = dp_accounting.pld.PLDAccountant(
            neighboring_relation=relation,
            value_discretization_interval=float(value_discretization_interval),
        )
    if not zs:
        return 0.0
    acc.compose(_gaussian_composition_event(zs))
    return float(acc.get_epsilon(float(delta)))


def dp_accounting_rdp(noise_multipliers, orders, adjacency: str = "remove") -> np.ndarray:
    """RDP curve of a composition of Gaussian mechanisms from ``dp_accounting``.

    Parameters
    ----------
    noise_multipliers : iterable of real > 0
    orders : sequence of real > 1
    adjacency : {"remove", "replace"}
        ``"replace"`` halves each multiplier (see :func:`dp_accounting_epsilon`).

    Returns
    -------
    numpy.ndarray
        ``RdpAccountant(orders).rdp`` after composing; should equal
        ``rdp_of_zcdp(sum_t 1/(2 z_t^2), orders)`` [dni, Lemmas B.1-B.2].

    Raises
    ------
    ValueError
        On a bad multiplier, order or ``adjacency``.
    """
    import dp_accounting

    zs = _effective_multipliers(noise_multipliers, adjacency)
    seq = [float(a) for a in _check_orders(orders)]
    acc = dp_accounting.rdp.RdpAccountant(
        orders=seq, neighboring_relation=dp_accounting.NeighboringRelation.ADD_OR_REMOVE_ONE
    )
    if zs:
        acc.compose(_gaussian_composition_event(zs))
    return np.asarray(acc.rdp, dtype=float)
