"""Output perturbation of gradient descent: its privacy on neighbouring data sets, in optimisation terms (its
utility: :mod:`dpverify.scenarios.expectations.output_perturbation`).

``output_perturbation_privacy(noise=..., sensitivity=Delta, eps=eps, noise_scale=b, ...)`` runs GD on
neighbouring data sets (:mod:`dpverify.scenarios.sensitivity.gd`: adversarial search over data and the replaced
sample) and measures the exact privacy of the released ``w_T + z`` on that pair: the largest privacy
loss ``||w_T - w_T'|| / b`` for norm-Laplace noise (its pure eps), or the exact delta at ``eps`` of
the two Gaussians (Balle & Wang's profile). Its ``sampler(point, side, n, rng)`` draws the
algorithm's outputs on the structured worst-case pair, for an empirical audit beside it.
"""
from __future__ import annotations

import numpy as np

from ... import sim
from ...measured import Measured
from ...privacy.mechanisms import norm_laplace_max_privacy_loss
from ..measuring import ULP, gaussian_profile
from ..sensitivity.gd import FAMILIES, GDSensitivity
from .gaussian import gaussian_eps_at

__all__ = ["OutputPerturbationPrivacy", "output_perturbation_privacy"]


class OutputPerturbationPrivacy(GDSensitivity):
    """Exact privacy of ``w_T + z`` on neighbouring data sets (module docstring): norm-Laplace noise
    measures its pure eps; Gaussian noise the exact delta at ``eps=`` or the exact eps at ``delta=``
    (Balle & Wang's profile inverted, bracketed in mpmath; give exactly one)."""

    REQUIRED = GDSensitivity.REQUIRED + ("noise_scale",)
    OPTIONAL = GDSensitivity.OPTIONAL + ("eps", "delta")

    def __init__(self, params, *, noise: str, families=FAMILIES):
        super().__init__(params, families=families, what="GD with output perturbation")
        if noise not in ("norm_laplace", "gaussian"):
            raise TypeError(f"output_perturbation_privacy: noise must be 'norm_laplace' or 'gaussian', got {noise!r}")
        given = [k for k in ("eps", "delta") if k in params]
        if noise == "gaussian" and len(given) != 1:
            raise TypeError("output_perturbation_privacy: noise='gaussian' measures delta at eps= or eps at delta=; "
                            f"give exactly one, got {given or 'neither'}")
        if noise == "norm_laplace" and "delta" in params:
            raise TypeError("output_perturbation_privacy: noise='norm_laplace' measures its pure eps; delta= is for "
                            "noise='gaussian'")
        self.noise = noise
        self.measure_name = ("largest privacy loss (pure eps)" if noise == "norm_laplace" else
                             "exact delta at eps" if "eps" in params else "exact eps at delta")
        self.name = f"GD + {noise.replace('_', '-')} output perturbation on neighbouring data sets"

    def _on_bind(self):
        self._sampled = {}   # point -> instance, for this claim (an audit draws four times at one point)

    def noise_scale(self, point) -> float:
        """The output noise's scale at ``point`` (the Gaussian's standard deviation, or the norm-Laplace
        scale), as the claim's ``noise_scale`` expression gives it."""
        return float(self.map.scalar("noise_scale", point))

    _noise = noise_scale

    def measure(self, inst, runs, seed):
        pt = self.point(inst)
        b = self._noise(pt)   # calibrated with the instance's (measured) Lipschitz constant
        shift = np.asarray(inst["w_T"]) - np.asarray(inst["w_T_prime"])
        mu, mu_error = float(np.linalg.norm(shift)) / b, self.distance_error(inst) / b
        if self.noise == "norm_laplace":
            return Measured.exact(norm_laplace_max_privacy_loss(shift, b), mu_error + 8 * mu * ULP)
        if self.map.has("delta"):
            return gaussian_eps_at(float(self.map.scalar("delta", pt)), mu, (mu_error + 8 * mu * ULP) / mu if mu else 0)
        return gaussian_profile(float(self.map.scalar("eps", pt)), mu, mu_error=mu_error + 8 * mu * ULP)

    def sampler(self, point, side, n, rng):
        """``n`` outputs ``w_T + z`` of the structured worst-case pair at ``point`` (side "D" or "D'")."""
        key = tuple(sorted((k, float(v)) for k, v in point.items()))
        inst = self._sampled.get(key)
        if inst is None:
            self._sampled.clear()
            inst = self._sampled[key] = self.instance_at(point)
        b = self._noise(point)   # the point's L, at least the instance's measured constant
        base = np.asarray(inst["w_T"] if side == "D" else inst["w_T_prime"], float)
        return base + sim.add_noise(rng, n, len(base), self.noise, b)

    def describe(self, inst):
        return super().describe(inst) + f"; {self.measure_name}"


def output_perturbation_privacy(*, noise: str, families=FAMILIES, **params) -> OutputPerturbationPrivacy:
    """Privacy of output-perturbed GD on neighbouring data sets, in a claim's own symbols: the pure eps
    of norm-Laplace noise, or for Gaussian noise delta at ``eps=`` or eps at ``delta=`` (see
    :class:`OutputPerturbationPrivacy`).

    >>> import sympy as sp
    >>> M, mu, T, n, L, b, d = sp.symbols("M mu T n L b delta")
    >>> sc = output_perturbation_privacy(noise="gaussian", smooth=M, curvature=mu, step=1 / M, horizon=T,
    ...                                  n_samples=n, lipschitz=L, noise_scale=b, delta=d)
    """
    return OutputPerturbationPrivacy(params, noise=noise, families=families)
