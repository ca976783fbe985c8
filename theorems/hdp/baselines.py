"""The output-perturbation baseline of [hdp, Section 7]: "the output perturbation method proposed in
[44]" (Wu, Li, Kumar, Chaudhuri, Jha & Naughton 2017, "Bolt-on differential privacy for scalable
stochastic gradient descent-based analytics").

Permutation-based SGD: k passes over the data in one random order (drawn once per run), constant
step ``alpha``, then Gaussian noise on the output. For a convex, beta-smooth loss whose per-sample
gradients are bounded by G and ``alpha <= 2/beta``, [44] bounds the L2 sensitivity of the output by
``Delta = 2 k G alpha`` (replace-one neighbours); the noise std is calibrated to (eps, delta) with the
exact privacy profile of the Gaussian mechanism (:func:`dpverify.privacy.gaussian_noise_for`), not the
classical ``sqrt(2 log(1.25/delta))/eps`` calibration, which fails for eps > 1 (``hdp/lemma-3``). For
the one-hidden-layer network, which is not convex, the sensitivity bound of [44] does not apply; the
baseline is run with the same formula, as the paper compares it there, and the audit measures what
that gives.
"""
from __future__ import annotations

import numpy as np

from dpverify.privacy import gaussian_noise_for

__all__ = ["bolt_on_sensitivity", "bolt_on_noise", "permutation_sgd", "output_perturbation"]


def bolt_on_sensitivity(passes: int, G: float, alpha: float) -> float:
    """[44]'s L2 sensitivity of k-pass permutation SGD, convex case: 2 k G alpha."""
    return 2.0 * passes * G * alpha


def bolt_on_noise(eps: float, delta: float, passes: int, G: float, alpha: float) -> float:
    """The Gaussian noise std making the output (eps, delta)-DP given [44]'s sensitivity (exact calibration)."""
    return gaussian_noise_for(eps, delta, bolt_on_sensitivity(passes, G, alpha))


def permutation_sgd(model, theta1, alpha: float, passes: int, runs: int, seed: int) -> np.ndarray:
    """k passes of SGD over one random permutation per run (vectorised over runs): final iterates."""
    rng = np.random.default_rng(np.random.SeedSequence(seed, spawn_key=(17,)))
    n = model.n_samples
    order = np.argsort(rng.random((runs, n)), axis=1)
    theta = np.repeat(np.asarray(theta1, float)[None], runs, axis=0)
    for _ in range(int(passes)):
        for j in range(n):
            theta = theta - alpha * model.sample_grad(theta, order[:, j])
    return theta


def output_perturbation(model, theta1, alpha: float, passes: int, eps: float, delta: float, G: float, runs: int,
                        seed: int) -> tuple[np.ndarray, float]:
    """[44]: permutation SGD plus N(0, s^2 I) on the output; returns (final iterates, s)."""
    s = bolt_on_noise(eps, delta, passes, G, alpha)
    theta = permutation_sgd(model, theta1, alpha, passes, runs, seed)
    rng = np.random.default_rng(np.random.SeedSequence(seed, spawn_key=(18,)))
    return theta + s * rng.standard_normal(theta.shape), s
