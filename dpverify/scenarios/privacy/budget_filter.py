"""Noisy gradient descent under a zCDP budget filter, its privacy in a claim's symbols.

``budget_filter_gd(...)`` measures the zCDP of noisy GD on clipped per-sample gradients whose
steps are admitted by a zCDP budget filter (step t requests ``1/sigma_t^2`` of the residual budget
and runs only if the request is strictly below it), with the sensitivity of the mean clipped
gradient *measured* on data under the scenario's adjacency (the replaced sample's features
negated, or the sample removed with the normaliser kept); with ``measure="delta_at_eps"`` /
``"eps_at_delta"`` the exact (eps, delta) profile of the admitted steps (composed Gaussian
mechanisms: one Gaussian mechanism with ``mu = sqrt(2 rho)``).
"""
from __future__ import annotations

import math

import numpy as np

from ... import privacy
from ..base import MappedScenario
from ..measuring import computed, gaussian_profile
from .gaussian import gaussian_eps_at

__all__ = ["BudgetFilterGD", "budget_filter_gd"]


class BudgetFilterGD(MappedScenario):
    """Noisy GD under a zCDP budget filter (module docstring); ``measure`` is ``"zcdp"`` (its rho),
    ``"delta_at_eps"`` (needs ``eps``: the exact delta(eps) of the admitted steps, composed Gaussian
    mechanisms, i.e. one Gaussian mechanism with ``mu = sqrt(2 rho)``) or ``"eps_at_delta"`` (needs
    ``delta``: the exact eps at that delta of the same profile, bracketed in mpmath)."""
    REQUIRED = ("noise_multiplier", "budget", "clip", "n_samples", "horizon")
    OPTIONAL = ("eps", "delta")
    STEPWISE = ("noise_multiplier",)
    MEASURES = ("zcdp", "delta_at_eps", "eps_at_delta")

    def __init__(self, params, *, adjacency: str, measure: str = "zcdp"):
        super().__init__(params)
        if adjacency not in privacy.ADJACENCIES:
            raise TypeError(f"budget_filter_gd: adjacency must be one of {privacy.ADJACENCIES}, got {adjacency!r}")
        if measure not in self.MEASURES:
            raise TypeError(f"budget_filter_gd: measure must be one of {self.MEASURES}, got {measure!r}")
        need = {"delta_at_eps": "eps", "eps_at_delta": "delta"}.get(measure)
        if need is not None and need not in params:
            raise TypeError(f"budget_filter_gd: measure={measure!r} needs {need}=")
        self.adjacency, self.measure_kind = adjacency, measure
        self.name = f"noisy GD with a zCDP budget filter, {adjacency}-one neighbours" + (
            "" if measure == "zcdp" else f" ({measure.replace('_', ' ')}, exact Gaussian profile)")

    @staticmethod
    def measured_sensitivity(G: float, N: int, adjacency: str, seed: int = 0) -> float:
        """Sensitivity of the mean clipped logistic gradient (normaliser N), measured at random
        parameters on the worst neighbour by construction: the differing sample's features
        negated (replace), or the sample removed with the normaliser kept (remove). Only the
        differing sample's clipped gradient changes the mean, so it is computed on that sample."""
        rng = np.random.default_rng(seed)
        d = 3
        x = rng.normal(size=d)
        x *= (10.0 * max(G, 1.0)) / np.linalg.norm(x)  # its gradients saturate the clip
        y = 1.0 if rng.random() < 0.5 else -1.0
        thetas = rng.normal(scale=0.01, size=(8, d))

        def clipped(xv):
            g = -(y / (1.0 + np.exp(y * (thetas @ xv))))[:, None] * xv[None, :]
            nrm = np.linalg.norm(g, axis=1, keepdims=True)
            return g * np.minimum(1.0, G / np.maximum(nrm, 1e-300))

        diff = clipped(x) - (clipped(-x) if adjacency == "replace" else 0.0)
        return float(np.linalg.norm(diff / N, axis=1).max())

    def measure(self, inst, runs, seed):
        m = self.map
        T = int(round(m.scalar("horizon", inst)))
        sig = [float(x) for x in m.steps("noise_multiplier", inst, T)]
        G, N, R = m.scalar("clip", inst), int(round(m.scalar("n_samples", inst))), m.scalar("budget", inst)
        acc = privacy.budget_filter_privacy(sig, R, adjacency=self.adjacency, clip_or_G=G, N=N)
        delta = self.measured_sensitivity(G, N, self.adjacency)
        ops = 8 * len(sig) + 16
        rho = computed(sum(delta**2 / (2 * (G * s / N) ** 2) for s in sig[: acc.steps]), ops=ops)
        if self.measure_kind == "zcdp":
            return rho
        mu, mu_rel = math.sqrt(2 * rho.value), (ops / 2 + 2) * 2.0**-52   # the composed Gaussian mechanisms
        if self.measure_kind == "eps_at_delta":
            return gaussian_eps_at(float(m.scalar("delta", inst)), mu, mu_rel)
        return gaussian_profile(float(m.scalar("eps", inst)), mu, mu_error=mu * mu_rel)

    def describe(self, inst):
        T = int(round(self.map.scalar("horizon", inst)))
        return (f"noisy GD with a zCDP budget filter, {self.adjacency}-one neighbours, T={T}, "
                "sensitivity measured on clipped logistic gradients")


def budget_filter_gd(*, adjacency: str, measure: str = "zcdp", **params) -> BudgetFilterGD:
    """zCDP of noisy GD under a budget filter, in a claim's own symbols (module docstring); with
    ``measure="delta_at_eps"`` (and ``eps=``) or ``"eps_at_delta"`` (and ``delta=``) its exact
    (eps, delta) profile instead (see :class:`BudgetFilterGD`).

    >>> import sympy as sp
    >>> sigma, t, R, G, N, T, d = sp.IndexedBase("sigma"), sp.Symbol("t"), *sp.symbols("R G N T delta")
    >>> sc = budget_filter_gd(adjacency="replace", noise_multiplier=sigma[t], budget=R, clip=G, n_samples=N,
    ...                       horizon=T, measure="eps_at_delta", delta=d)
    """
    return BudgetFilterGD(params, adjacency=adjacency, measure=measure)
