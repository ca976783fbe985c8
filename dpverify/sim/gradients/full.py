"""The full gradient: every sample every step (no sampling covariance); with ``clip``, the mean of the
per-sample gradients each clipped to norm ``clip`` (noisy clipped gradient descent, DP-GD)."""
from __future__ import annotations

from dataclasses import dataclass

from .base import GradientSource

__all__ = ["FullGradient"]


@dataclass(frozen=True)
class FullGradient(GradientSource):
    """``grad F(theta)``, or with ``clip`` the mean of the clipped per-sample gradients.

    >>> from dpverify.sim import Quadratic
    >>> FullGradient().gradient(Quadratic([1.0, 2.0]), [[1.0, 1.0]], None).tolist()
    [[1.0, 2.0]]
    """

    clip: float | None = None
    name = "full gradient"

    def gradient(self, problem, theta, idx):
        return problem.grad(theta, self.clip)

    def covariance_factor(self, n):
        return 0.0
