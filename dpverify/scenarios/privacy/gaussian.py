"""The Gaussian mechanism's privacy, measured at each point of a claim.

``gaussian_mechanism(sensitivity=..., noise_std=..., measure=...)`` measures, at each point of a
claim, one privacy quantity of ``M(x) = f(x) + N(0, s^2 I)`` with ``||f(x) - f(x')|| <= Delta``:

* ``measure="renyi_over_order"`` (needs ``order``): D_a(N(0, s^2) || N(Delta, s^2)) / a, by quadrature
  in mpmath (25 digits, its error measured against 50, more digits where that error is large), not by
  its closed form;
* ``measure="delta_at_eps"`` (needs ``eps``): the exact privacy profile delta(eps) [Balle & Wang 2018,
  Thm. 8];
* ``measure="eps_at_delta"`` (needs ``delta``): the smallest eps with ``delta(eps) <= delta``, the same
  profile solved in mpmath at 20 and 40 digits (the error is their gap plus what the rounding of
  ``mu = sensitivity / noise_std`` to a double moves).
"""
from __future__ import annotations

import math

import mpmath

from ... import privacy
from ...measured import Measured
from ..base import MappedScenario
from ..measuring import gaussian_profile

__all__ = ["GaussianMechanism", "QUADRATURE_REL_ERROR", "gaussian_eps_at", "gaussian_mechanism", "renyi_over_order_measured"]


#: the least relative error taken for the Renyi divergence by 25-digit quadrature, rounded to a double
#: (:func:`renyi_over_order_measured`)
QUADRATURE_REL_ERROR = 1e-12


class GaussianMechanism(MappedScenario):
    REQUIRED = ("sensitivity", "noise_std")
    OPTIONAL = ("order", "eps", "delta")
    MEASURES = ("renyi_over_order", "delta_at_eps", "eps_at_delta")
    optimise = 3

    def __init__(self, params, *, measure: str):
        super().__init__(params)
        if measure not in self.MEASURES:
            raise TypeError(f"gaussian_mechanism: measure must be one of {self.MEASURES}, got {measure!r}")
        need = {"renyi_over_order": "order", "delta_at_eps": "eps", "eps_at_delta": "delta"}[measure]
        if need not in params:
            raise TypeError(f"gaussian_mechanism: measure={measure!r} needs {need}=")
        self.measure_kind = measure
        self.optimise = 0 if measure == "renyi_over_order" else 3
        self.name = {"renyi_over_order": "Gaussian mechanism, Renyi divergence by quadrature (25 digits)",
                     "delta_at_eps": "Gaussian mechanism: exact privacy profile (Balle & Wang)",
                     "eps_at_delta": "Gaussian mechanism: eps at delta of the exact profile (mpmath)"}[measure]

    def measure(self, inst, runs, seed):
        m = self.map
        d, s = m.scalar("sensitivity", inst), m.scalar("noise_std", inst)
        if self.measure_kind == "renyi_over_order":
            return renyi_over_order_measured(d, s, m.scalar("order", inst))
        mu = float(d) / float(s)
        if self.measure_kind == "eps_at_delta":
            return gaussian_eps_at(float(m.scalar("delta", inst)), mu)
        eps = m.scalar("eps", inst)
        return gaussian_profile(float(eps), mu, mu_error=4 * abs(mu) * 2.0**-52)

    def proof_form(self):
        """The exact profile (``delta_at_eps``: eps and ``mu = sensitivity / noise_std``) or the closed form
        ``D_a / a = Delta^2 / (2 s^2)`` [Bun & Steinke 2016, Lemma 2.4] (``renyi_over_order``); ``eps_at_delta``
        has none (a root, not a closed form)."""
        e = self.params.exprs
        if self.measure_kind == "delta_at_eps":
            return {"kind": "gaussian-profile", "eps": e["eps"], "mu": e["sensitivity"] / e["noise_std"]}
        if self.measure_kind == "renyi_over_order":
            return {"kind": "closed", "expr": e["sensitivity"] ** 2 / (2 * e["noise_std"] ** 2),
                    "source": "Bun & Steinke 2016, Lemma 2.4: D_a(N(0, s^2) || N(Delta, s^2)) = a Delta^2 / (2 s^2)"}
        return None

    def describe(self, inst):
        return self.name


def renyi_over_order_measured(sensitivity, noise_std, order, dps: int = 25, max_dps: int = 200) -> Measured:
    """``D_a(N(0, s^2) || N(Delta, s^2)) / a`` by quadrature at ``dps`` digits, as an exact value whose error
    is its distance from the same quadrature at twice the digits, and never below
    :data:`QUADRATURE_REL_ERROR` relative. Where ``a Delta^2 / s^2`` is tiny the integral is ``1 + tiny`` and
    its logarithm keeps only the working digits beyond that (at ``sigma = s / Delta = 1e12`` about 10 of
    35); when that distance exceeds the floor, or a quadrature's own check fails (cancellation in its
    integrand: ``ArithmeticError``), the digits double (the value then the higher-precision quadrature's),
    up to ``max_dps``; with no two quadratures to compare by then, ``EvaluationError`` (no measurement here).
    """
    from ...search import EvaluationError

    def quad(digits, own_precision):
        try:
            if not own_precision:       # the first: rounded to the caller's precision, as it always was
                return privacy.renyi_divergence_gaussians(0.0, sensitivity, noise_std, order, dps=digits)
            with mpmath.workdps(digits):
                return privacy.renyi_divergence_gaussians(0.0, sensitivity, noise_std, order, dps=digits)
        except ArithmeticError:
            return None

    lo = quad(dps, False)
    while True:
        nxt = 2 * dps
        if nxt > max_dps:
            raise EvaluationError(f"the Renyi quadrature did not converge within {max_dps} digits "
                                  f"(sensitivity {sensitivity!r}, noise_std {noise_std!r}, order {order!r})")
        hi = quad(nxt, True)
        if lo is not None and hi is not None:
            v = float(lo) / order
            with mpmath.workdps(nxt):
                a = mpmath.mpf(order)
                gap = abs(hi - lo) / a + abs(hi / a - v) + abs(hi / a) * mpmath.mpf(10) ** (1 - nxt)
            floor = abs(v) * QUADRATURE_REL_ERROR
            error = math.nextafter(float(gap), math.inf)
            if error <= floor or 2 * nxt > max_dps:
                return Measured.exact(v, max(floor, error))
        lo, dps = hi, nxt


def gaussian_eps_at(delta: float, mu: float, mu_rel: float = 8 * 2.0**-52) -> Measured:
    """The Gaussian mechanism's exact eps at ``delta`` (``mu = sensitivity / noise_std``, a double that
    may be off by ``mu_rel`` relative, 8 ulps by default), as an interval that brackets the root on the
    whole real line: where ``delta > delta(0)`` the root is negative (the profile falls from 1 at
    ``eps -> -inf``), never clamped to 0 (a clamp is a bound, not a value: a true claim whose bound is
    below 0 would be refuted by it). The double-precision root ``v`` (Brent) is confirmed by the sign of
    the 30-digit profile at ``v -+ w`` (with ``mu`` moved by ``mu_rel`` down and up, since eps increases
    with mu), ``w = 1e-12 (1 + v)``; when that fails, or ``v`` is at the clamp (0), the signed root is
    solved in mpmath at 20 and 40 digits with the same widening. ``mu = 0`` (identical outputs,
    ``delta(eps) = max(0, 1 - e^eps)``): ``ln(1 - delta)``."""
    if mu == 0:
        v = math.log1p(-delta)
        return Measured.exact(v, abs(v) * 2.0**-52)
    v = privacy.gaussian_eps_exact(delta, mu)
    mu_lo, mu_hi = mu * (1 - mu_rel), mu * (1 + mu_rel)
    if v == 0:     # at the clamp: the root is at or below 0, found in double precision on [lo, 0]
        v = _negative_root(delta, mu)
    if v is not None and v != 0:
        w = 1e-12 * (1 + abs(v))
        with mpmath.workdps(30):
            def excess(e, m):     # delta(e) - delta at mu = m; decreasing in e, increasing in m
                return privacy.gaussian_delta_mp(e, m) - delta
            below = excess(v - w, mu_lo) > 0
            above = excess(v + w, mu_hi) < 0
        if below and above:
            return Measured("exact", v, v - w, v + w)
    at = Measured.at_precision(lambda dps: privacy.gaussian_eps_signed_mp(delta, mu, dps), dps=20)
    moved = max(abs(float(privacy.gaussian_eps_signed_mp(delta, m, 20)) - at.value) for m in (mu_lo, mu_hi))
    return Measured.exact(at.value, (at.upper - at.value) + moved)


def _negative_root(delta: float, mu: float):
    """The root of ``delta(eps) = delta`` at or below 0 in double precision (Brent on ``[lo, 0]``), or None."""
    import scipy.optimize

    def f(e):
        return float(privacy.gaussian_delta_exact(e, mu)) - delta

    if f(0.0) > 0:
        return None
    lo = -1.0
    while f(lo) <= 0:
        lo *= 2
        if lo < -1e6:
            return None
    if f(0.0) == 0:
        return 0.0
    return float(scipy.optimize.brentq(f, lo, 0.0, xtol=1e-15, rtol=4 * 2.0**-52))


def gaussian_mechanism(*, measure: str, **params) -> GaussianMechanism:
    """The Gaussian mechanism ``f(x) + N(0, noise_std^2 I)`` with ``||f(x) - f(x')|| <= sensitivity``,
    in a claim's own symbols; ``measure`` is ``"renyi_over_order"`` (needs ``order``),
    ``"delta_at_eps"`` (needs ``eps``) or ``"eps_at_delta"`` (needs ``delta``); see the module
    docstring. (The composed or subsampled mechanism is :func:`sampled_gaussian`.)

    >>> import sympy as sp
    >>> Delta, s, delta = sp.symbols("Delta s delta")
    >>> sc = gaussian_mechanism(measure="eps_at_delta", sensitivity=Delta, noise_std=s, delta=delta)
    """
    return GaussianMechanism(params, measure=measure)
