"""Two more objectives for the simulator: a smooth non-convex loss, and logistic regression with a
ridge coefficient that may be zero.

* :class:`CosineSum` ``F(theta) = sum_i a_i (1 - cos theta_i)``: separable, periodic, non-convex
  (its Hessian ``diag(a_i cos theta_i)`` has eigenvalues in ``[-max a, max a]``), ``max a``-smooth,
  ``||a||``-Lipschitz, bounded below by ``F* = 0`` (attained at ``theta = 0``, the ``theta_star`` used
  for distances), with saddles and maxima where some ``theta_i = pi``: a test function for bounds
  that assume only smoothness (no convexity, no PL).
* :class:`Logistic` ``F(theta) = (1/N) sum_n [log(1 + exp(-y_n x_n^T theta)) + (lam/2)||theta||^2]``
  with ``lam >= 0``: convex, ``lam + lambda_max(X^T X)/(4N)``-smooth, ``max_n ||x_n||``-Lipschitz when
  ``lam = 0``. For ``lam > 0`` its minimiser and minimum are those of
  :class:`~dpverify.sim.problems.LogisticRegression` (Newton's method); for ``lam = 0`` the minimum may not be
  attained (separable data), and ``f_star`` is the value reached by L-BFGS (an upper estimate of the
  infimum, ``0`` on separable data up to the optimiser's tolerance), ``theta_star`` its argument; both
  are computed on first use.
  Per-sample gradients (``per_sample_grads``) give sensitivities on neighbouring data sets.
"""
from __future__ import annotations

from functools import cached_property

import numpy as np
import scipy  # its submodules load on first use (scipy's lazy loading), not at start-up

from .base import Problem
from .linear import LogisticRegression

__all__ = ["CosineSum", "Logistic"]


class CosineSum(Problem):
    """``F(theta) = sum_i a_i (1 - cos theta_i)`` with ``a_i > 0`` (module docstring)."""

    def __init__(self, a) -> None:
        a = np.asarray(a, dtype=float)
        if a.ndim != 1 or a.size == 0 or not np.all(np.isfinite(a)) or not np.all(a > 0):
            raise ValueError(f"a must be a non-empty 1-d array of positive numbers, got {a!r}")
        a = a.copy()
        a.setflags(write=False)
        self.a = a
        self.dim = int(a.size)
        self.M = float(a.max())
        self.mu = 0.0
        self.L = float(np.linalg.norm(a))
        self.f_star = 0.0
        ts = np.zeros(self.dim)
        ts.setflags(write=False)
        self.theta_star = ts
        self._freeze()

    def __repr__(self) -> str:
        return f"CosineSum(dim={self.dim}, M={self.M:g})"

    def value(self, theta) -> np.ndarray:
        theta = self.check_theta(theta)
        return (1.0 - np.cos(theta)) @ self.a

    def grad(self, theta, clip=None) -> np.ndarray:
        if clip is not None:
            raise ValueError(f"clip must be None for CosineSum (it has no per-sample gradients), got {clip!r}")
        return self.a * np.sin(self.check_theta(theta))


class Logistic(Problem):
    """Logistic regression with ridge ``lam >= 0``; labels in {-1, +1} (module docstring)."""

    def __init__(self, X, y, lam: float = 0.0) -> None:
        X = np.asarray(X, dtype=float)
        y = np.asarray(y, dtype=float)
        if X.ndim != 2 or X.shape[0] == 0 or X.shape[1] == 0 or not np.all(np.isfinite(X)):
            raise ValueError(f"X must be a finite 2-d array with at least one row and column, got shape {X.shape}")
        if y.shape != (X.shape[0],) or not np.all(np.abs(y) == 1.0):
            raise ValueError(f"y must hold one label -1 or +1 per row of X, got {y!r}")
        if not (isinstance(lam, (int, float)) and np.isfinite(lam) and lam >= 0):
            raise ValueError(f"lam must be a finite number >= 0, got {lam!r}")
        X, y = X.copy(), y.copy()
        X.setflags(write=False)
        y.setflags(write=False)
        self.X, self.y, self.lam = X, y, float(lam)
        self.n_samples, self.dim = X.shape
        gram = np.linalg.eigvalsh(X.T @ X / self.n_samples)
        self.M = float(self.lam + max(gram[-1], 0.0) / 4.0)
        self.mu = float(self.lam)
        self.feature_norm = float(np.sqrt(np.einsum("nd,nd->n", X, X).max()))
        self._freeze()

    @cached_property
    def _solution(self):
        if self.lam > 0:
            ref = LogisticRegression(self.X, self.y, self.lam)
            theta_star, f_star = np.asarray(ref.theta_star), float(ref.f_star)
        else:
            theta_star, f_star = self._lbfgs()
        theta_star = np.array(theta_star, dtype=float)
        theta_star.setflags(write=False)
        return theta_star, f_star

    @property
    def theta_star(self) -> np.ndarray:
        """The minimiser (computed on first use)."""
        return self._solution[0]

    @property
    def f_star(self) -> float:
        """The minimum, or for lam = 0 the value L-BFGS reaches (computed on first use)."""
        return self._solution[1]

    def __repr__(self) -> str:
        return f"Logistic(n_samples={self.n_samples}, dim={self.dim}, lam={self.lam:g})"

    def _lbfgs(self):
        from scipy.optimize import minimize

        res = minimize(lambda th: float(self.value(th[None, :])[0]), np.zeros(self.dim),
                       jac=lambda th: self.grad(th[None, :])[0], method="L-BFGS-B",
                       options={"maxiter": 5000, "gtol": 1e-10, "ftol": 1e-15})
        return res.x, float(res.fun)

    @staticmethod
    def _softplus(z: np.ndarray) -> np.ndarray:
        """log(1 + e^z), stable (and faster than np.logaddexp(0, z))."""
        return np.maximum(z, 0.0) + np.log1p(np.exp(-np.abs(z)))

    def value(self, theta) -> np.ndarray:
        theta = self.check_theta(theta)
        out = self._softplus(-self.y * (theta @ self.X.T)).mean(axis=-1)
        if self.lam:
            out = out + 0.5 * self.lam * np.einsum("...d,...d->...", theta, theta)
        return out

    def grad(self, theta, clip=None) -> np.ndarray:
        if clip is not None:
            raise ValueError(f"clip is not supported by Logistic, got {clip!r}")
        return self.value_and_grad(theta, value=False)[1]

    def value_and_grad(self, theta, value: bool = True):
        """``(F(theta), grad F(theta))`` from one evaluation of the margins (``F`` is None when not asked)."""
        theta = self.check_theta(theta)
        z = -self.y * (theta @ self.X.T)
        g = ((-self.y * scipy.special.expit(z)) @ self.X) / self.n_samples
        f = self._softplus(z).mean(axis=-1) if value else None
        if self.lam:
            g = g + self.lam * theta
            if value:
                f = f + 0.5 * self.lam * np.einsum("...d,...d->...", theta, theta)
        return f, g

    def per_sample_grads(self, theta) -> np.ndarray:
        """``grad f(theta; x_n)`` for every sample, shape ``(N, D)`` (one ``theta`` of shape ``(D,)``)."""
        theta = np.asarray(theta, dtype=float).reshape(self.dim)
        r = -self.y * scipy.special.expit(-self.y * (self.X @ theta))
        return r[:, None] * self.X + self.lam * theta[None, :]

    def hessian(self, theta) -> np.ndarray:
        """``grad^2 F(theta)``, shape ``(D, D)`` (one ``theta``)."""
        theta = np.asarray(theta, dtype=float).reshape(self.dim)
        m = self.X @ theta
        w = scipy.special.expit(m) * scipy.special.expit(-m)
        return (self.X.T * w) @ self.X / self.n_samples + self.lam * np.eye(self.dim)
