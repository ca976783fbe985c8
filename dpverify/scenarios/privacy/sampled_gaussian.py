"""The sampled Gaussian mechanism's privacy in a claim's symbols (noisy SGD drawing one sample, or a
Poisson sample, per step).

``sampled_gaussian(noise_multiplier=z, sampling_probability=q, steps=k, delta=d)`` measures an
upper bound on eps at ``delta`` of ``k`` steps of the sampled Gaussian mechanism
(:func:`dpverify.privacy.composition.subsampled_gaussian_epsilon`: the RDP accountant while
searching, the smaller of RDP and PLD to decide), an upper bound on that eps, with the PLD's
optimistic estimate as a lower bound; when they straddle the claimed bound, both PLD estimates again
on a grid fine enough for the bound (:meth:`SampledGaussianPrivacy.refine`). With ``eps=e`` instead of
``delta=``, it measures delta at ``e``: the PLD's pessimistic delta (an upper bound) with its
optimistic one as a lower bound. ``sampling_probability=1`` is the composed Gaussian mechanism
without sampling, measured exactly (``k`` steps compose to one Gaussian mechanism of ``mu = sqrt(k) / z``:
its exact profile, or its eps at delta solved in mpmath). For noisy SGD drawing one sample per step under
replace-one neighbours, ``z`` is the noise std over the replace-one sensitivity (twice the
per-sample gradient bound) and ``q = 1/n``.
"""
from __future__ import annotations

import math

from ...measured import Measured
from ...privacy import event_delta, poisson_sampled_gaussian_event
from ...privacy.composition import subsampled_gaussian_delta_pld, subsampled_gaussian_epsilon, subsampled_gaussian_epsilon_pld
from ..base import MappedScenario
from ..measuring import gaussian_profile
from .gaussian import gaussian_eps_at

__all__ = ["SampledGaussianPrivacy", "sampled_gaussian"]


class SampledGaussianPrivacy(MappedScenario):
    """eps at ``delta`` (or, given ``eps`` instead, delta at ``eps``) of composed sampled Gaussian
    mechanisms (module docstring); the instance is the claim's point."""

    REQUIRED = ("noise_multiplier", "sampling_probability", "steps")
    OPTIONAL = ("delta", "eps")
    search_runs = 2
    optimise = 1
    name = "sampled Gaussian mechanism, composed (dp-accounting RDP / PLD, Poisson sampling, add-or-remove)"

    def __init__(self, params, *, sampler=None):
        super().__init__(params)
        if ("delta" in params) == ("eps" in params):
            raise TypeError("sampled_gaussian: give exactly one of delta= (it measures eps at delta) and eps= "
                            f"(delta at eps); got {sorted(k for k in ('delta', 'eps') if k in params) or 'neither'}")
        self.at_eps = "eps" in params
        self.sampler = sampler

    def _args(self, pt):
        m = self.map
        target = "eps" if self.at_eps else "delta"
        return (float(m.scalar("noise_multiplier", pt)), float(m.scalar("sampling_probability", pt)),
                int(round(float(m.scalar("steps", pt)))), float(m.scalar(target, pt)))

    #: grid points the refining PLD may spend on the composed privacy loss's range
    REFINE_BINS = 2e7

    def measure(self, inst, runs, seed):
        """While searching (``runs <= search_runs``) the RDP accountant's eps (or delta), an upper bound;
        else, for eps at delta, the smaller of RDP's and the PLD's (upper bounds), with the PLD's
        optimistic estimate as a lower bound; for delta at eps, the PLD's pessimistic (upper) and
        optimistic (lower) deltas."""
        z, q, k, d = self._args(inst)
        q = min(q, 1.0)
        if q == 1.0:           # k Gaussian mechanisms compose to one of mu = sqrt(k) / z: exact
            mu = math.sqrt(k) / z
            return gaussian_profile(d, mu, mu_error=4 * mu * 2.0**-52) if self.at_eps else gaussian_eps_at(d, mu)
        if self.at_eps:
            if runs <= self.search_runs:
                return Measured.upper_bound(event_delta(poisson_sampled_gaussian_event(z, q, k), d, accountant="rdp"))
            upper = subsampled_gaussian_delta_pld(z, q, k, d, pessimistic=True)
            lower = subsampled_gaussian_delta_pld(z, q, k, d, pessimistic=False)
            return Measured("upper", upper, min(lower, upper), upper)
        if runs <= self.search_runs:
            return Measured.upper_bound(subsampled_gaussian_epsilon(z, q, k, d, accountant="rdp"))
        upper = subsampled_gaussian_epsilon(z, q, k, d, accountant="best")
        lower = subsampled_gaussian_epsilon_pld(z, q, k, d, pessimistic=False)
        return Measured("upper", upper, min(lower, upper), upper)

    def refine(self, inst, bound):
        """Both PLD estimates on a grid of ``5% bound / steps`` (the discretisation moves eps by at most
        one grid step per composition), no finer than the composed loss's range over ``REFINE_BINS``,
        intersected with :meth:`measure`'s bracket; delta at eps on a grid ten times finer."""
        z, q, k, d = self._args(inst)
        q = min(q, 1.0)
        if q == 1.0:
            return None        # measure is exact already
        spread = 10 * math.sqrt(k) * q / z + k * q * q / (z * z) + 30 * q / z
        first = self.measure(inst, self.search_runs + 1, 0)
        if self.at_eps:
            vdi = max(1e-4, spread / self.REFINE_BINS)
            upper = min(first.upper, subsampled_gaussian_delta_pld(z, q, k, d, vdi, pessimistic=True))
            lower = max(first.lower, subsampled_gaussian_delta_pld(z, q, k, d, vdi, pessimistic=False))
            return Measured("upper", upper, min(lower, upper), upper)
        if not bound > 0:
            return None
        vdi = min(1e-4, max(0.05 * bound / k, spread / self.REFINE_BINS))
        upper = min(first.upper, subsampled_gaussian_epsilon_pld(z, q, k, d, vdi, pessimistic=True))
        lower = max(first.lower, subsampled_gaussian_epsilon_pld(z, q, k, d, vdi, pessimistic=False))
        return Measured("upper", upper, min(lower, upper), upper)

    def describe(self, inst):
        z, q, k, d = self._args(inst)
        at = f"eps {d:.3g}" if self.at_eps else f"delta {d:.3g}"
        return f"noise multiplier {z:.4g}, sampling probability {q:.4g}, {k} steps, {at}"


def sampled_gaussian(**params) -> SampledGaussianPrivacy:
    """``steps`` compositions of the Gaussian mechanism on a Poisson subsample (each sample used with
    ``sampling_probability``; 1 is the plain composed Gaussian mechanism), noise std =
    ``noise_multiplier`` x the sensitivity, in a claim's own symbols: eps at ``delta=``, or delta at
    ``eps=`` (give exactly one); see the module docstring.

    >>> import sympy as sp
    >>> z, q, T, delta = sp.symbols("z q T delta")
    >>> sc = sampled_gaussian(noise_multiplier=z, sampling_probability=q, steps=T, delta=delta)
    """
    return SampledGaussianPrivacy(params)
