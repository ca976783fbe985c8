"""Ridge Huber regression, a data problem of the simulator (convex, 1-smooth in the residual,
globally Lipschitz without the ridge term).

Per-sample loss ``h(x_n^T theta - y_n) + (lam/2)||theta||^2`` with the Huber function of
threshold 1::

    h(u) = u^2 / 2            for |u| <= 1,
    h(u) = |u| - 1/2          otherwise,

so ``h'(u) = clip(u, -1, 1)`` and ``0 <= h'' <= 1``. A threshold ``c`` reduces to this one by
rescaling: ``h_c(u) = c^2 h(u / c)``, i.e. Huber regression with threshold ``c`` on ``(X, y)`` is
``c^2`` times :class:`HuberRegression` on ``(X / c, y / c)``.

It shares the interface of the other data problems (:mod:`dpverify.sim.problems`): ``value``,
``grad`` (optionally clipped), per-sample gradient norms, neighbours by
:func:`~dpverify.sim.problems.make_neighbour` / :func:`~dpverify.sim.problems.remove_sample`,
mini-batch gradients by :func:`~dpverify.sim.sgd.minibatch_grad`.
"""
from __future__ import annotations

import numpy as np
import scipy  # its submodules load on first use (scipy's lazy loading), not at start-up

from .problems import _LinearModel

__all__ = ["HuberRegression"]


class HuberRegression(_LinearModel):
    """Ridge Huber regression (module docstring).

    Parameters
    ----------
    X, y, lam, normaliser
        As in :class:`~dpverify.sim.problems.LeastSquares`.

    Attributes
    ----------
    mu : float
        ``ridge`` (a lower bound on the curvature; Huber's own curvature vanishes for large residuals).
    M : float
        ``ridge + lambda_max(X^T X) / normaliser`` (``h'' <= 1``).
    theta_star, f_star
        Minimiser (L-BFGS polished by Newton steps on the quadratic pieces) and minimum.
    """

    def __init__(self, X: object, y: object, lam: float = 0.0, *, normaliser: float | None = None):
        self._init_data(X, y, lam, normaliser)
        self.mu = float(self.ridge)
        self.M = float(self.ridge + max(self._gram_eigs[-1], 0.0) / self.normaliser)
        self._set_minimiser(self._solve())

    def _loss(self, m: np.ndarray) -> np.ndarray:
        a = np.abs(m - self.y)
        return np.where(a <= 1.0, 0.5 * a * a, a - 0.5)

    def _dloss(self, m: np.ndarray) -> np.ndarray:
        return np.clip(m - self.y, -1.0, 1.0)

    def _solve(self) -> np.ndarray:
        X, y = np.asarray(self.X), np.asarray(self.y)
        f = lambda th: float(self.value(th))  # noqa: E731
        g = lambda th: self.grad(th)  # noqa: E731
        res = scipy.optimize.minimize(f, np.zeros(self.dim), jac=g, method="L-BFGS-B",
                       options={"maxiter": 10_000, "gtol": 1e-13, "ftol": 1e-16})
        th = res.x
        # Newton steps on the current quadratic pieces (exact once the active set is right)
        for _ in range(50):
            r = X @ th - y
            inner = (np.abs(r) <= 1.0).astype(float)
            H = (X.T * inner) @ X / self.normaliser + self.ridge * np.eye(self.dim)
            gr = g(th)
            try:
                step = np.linalg.lstsq(H, gr, rcond=None)[0]
            except np.linalg.LinAlgError:
                break
            cand = th - step
            if f(cand) <= f(th) and np.linalg.norm(g(cand)) < np.linalg.norm(gr):
                th = cand
            else:
                break
            if np.linalg.norm(g(th)) < 1e-14:
                break
        return th

    def lipschitz_on_ball(self, radius: float) -> float:
        """Per-sample gradient bound ``max_n ||x_n|| + lam * radius`` on ``||theta|| <= radius``."""
        return self._lipschitz_for_unit_dloss(radius)
