"""The diagonal quadratic, the problem on which noisy gradient descent's moments are exact."""

from __future__ import annotations

import numpy as np

from ..validation import check_array, check_real
from .base import Problem, readonly

__all__ = ["Quadratic"]


class Quadratic(Problem):
    """Diagonal quadratic ``f(theta) = f* + 1/2 sum_i eigs_i (theta_i - theta*_i)^2``.

    Isotropic Gaussian noise is rotation invariant, so noisy GD on any
    quadratic with Hessian ``H = U diag(eigs) U^T`` is, in the eigenbasis,
    noisy GD on this diagonal quadratic: diagonal is without loss of
    generality for noisy gradient descent.

    Parameters
    ----------
    eigs : array_like, shape (D,)
        Non-negative Hessian eigenvalues.
    theta_star : array_like, shape (D,), optional
        Minimiser (default: the origin).
    f_star : float, optional
        Minimum value (default 0).

    Attributes
    ----------
    dim : int
    mu : float
        ``min(eigs)`` (PL / strong convexity constant).
    M : float
        ``max(eigs)`` (smoothness constant).
    f_star : float
    eigs, theta_star : ndarray (read-only)

    Notes
    -----
    A quadratic has no samples, so ``grad(..., clip=C)`` is rejected.
    """

    def __init__(self, eigs: object, theta_star: object = None, f_star: float = 0.0) -> None:
        eigs = check_array("eigs", eigs, ndim=1, nonnegative=True)
        dim = eigs.shape[0]
        if theta_star is None:
            theta_star = np.zeros(dim)
        theta_star = check_array("theta_star", theta_star, shape=(dim,))
        self.eigs = readonly(eigs)
        self.theta_star = readonly(theta_star)
        self.f_star = check_real("f_star", f_star)
        self.dim = dim
        self.mu = float(eigs.min())
        self.M = float(eigs.max())
        self._freeze()

    def __repr__(self) -> str:
        return f"Quadratic(dim={self.dim}, mu={self.mu:g}, M={self.M:g}, f_star={self.f_star:g})"

    def value(self, theta: object) -> np.ndarray:
        """``f(theta)`` for ``theta`` of shape ``(..., D)``; returns shape ``(...)``."""
        delta = self.check_theta(theta) - self.theta_star
        return self.f_star + 0.5 * ((delta * delta) @ self.eigs)

    def grad(self, theta: object, clip: float | None = None) -> np.ndarray:
        """``grad f(theta) = eigs * (theta - theta*)``, shape ``(..., D)``."""
        if clip is not None:
            raise ValueError(
                f"clip must be None for Quadratic (it has no per-sample gradients), got {clip!r}"
            )
        return self.eigs * (self.check_theta(theta) - self.theta_star)

    def affine_samples(self):
        """One sample: ``H = diag(eigs)``, ``c = eigs * theta*`` (nothing to draw)."""
        return np.diag(self.eigs)[None], (self.eigs * self.theta_star)[None], np.ones(1)
