"""Influence functions against exact leave-one-out minimisers, on (ridge) least squares and ridge
logistic regression, where both can be computed.

For an empirical risk ``F(theta) = (1/n) sum_j l(theta; z_j)`` with minimiser ``theta*`` and Hessian
``H = (1/n) sum_j hess l(theta*; z_j)``, the influence approximation of removing sample ``z_r`` is

    c_r = (1/n) H^{-1} grad l(theta*; z_r)          ~  theta*_{-r} - theta*,

with ``theta*_{-r} = argmin sum_{j != r} l(theta; z_j)`` (the per-sample loss keeps its ridge term, so
the leave-one-out objective is ``F`` minus the r-th term). Exact leave-one-out minimisers: closed
form for least squares, Newton's method warm-started at ``theta*`` for logistic regression
(:func:`dpverify.sim.remove_sample` keeps the normaliser, so its minimiser is ``theta*_{-r}``).

Also: per-sample gradients and Hessians of the linear models (batched over runs), the Hessian of
the empirical risk at any point, and :data:`LOGISTIC_THIRD_DERIVATIVE`, the largest ``|s''|`` of
the logistic function, ``1/(6 sqrt 3)``, so that the per-sample logistic loss is
``C``-Hessian-Lipschitz with ``C = max_j ||x_j||^3 / (6 sqrt 3)``.
"""
from __future__ import annotations

import math

import numpy as np
import scipy  # its submodules load on first use (scipy's lazy loading), not at start-up

from .problems import LeastSquares, LogisticRegression, remove_sample

__all__ = ["LOGISTIC_THIRD_DERIVATIVE", "curvature", "per_sample_gradients", "hessian", "influence",
           "leave_one_out", "influence_errors"]

#: max over m of |d^3/dm^3 log(1 + e^{-m})| = max |s(1-s)(1-2s)| = 1/(6 sqrt 3) ~ 0.0962.
LOGISTIC_THIRD_DERIVATIVE = 1.0 / (6.0 * math.sqrt(3.0))


def _check(problem):
    if not isinstance(problem, (LeastSquares, LogisticRegression)):
        raise ValueError(f"problem must be LeastSquares or LogisticRegression, got {problem!r}")
    return problem


def curvature(problem, theta) -> np.ndarray:
    """``phi''(x_j^T theta)`` for every sample (shape ``(..., n)``): 1 for least squares,
    ``s(m)(1 - s(m))`` for logistic regression."""
    problem = _check(problem)
    mm = np.asarray(theta, float) @ problem.X.T
    if isinstance(problem, LeastSquares):
        return np.ones_like(mm)
    s = scipy.special.expit(mm)
    return s * (1.0 - s)


def per_sample_gradients(problem, theta) -> np.ndarray:
    """``grad l(theta; z_j) = phi_j'(x_j^T theta) x_j + lam theta`` for every sample, shape ``(..., n, m)``."""
    problem = _check(problem)
    theta = np.asarray(theta, float)
    r = problem.dloss(theta @ problem.X.T)
    return r[..., None] * problem.X + problem.lam * theta[..., None, :]


def hessian(problem, theta) -> np.ndarray:
    """Hessian of the empirical risk ``(1/normaliser) sum_j hess l(theta; z_j)`` at ``theta`` (shape
    ``(..., m, m)``)."""
    problem = _check(problem)
    w = curvature(problem, theta) / problem.normaliser
    H = np.einsum("...j,jd,je->...de", w, problem.X, problem.X)
    return H + problem.ridge * np.eye(problem.dim)


def influence(problem, theta=None) -> np.ndarray:
    """``c_r = (1/n) H^{-1} grad l(theta; z_r)`` for every sample r (shape ``(n, m)``), H the Hessian
    of the empirical risk at ``theta`` (default ``theta*``)."""
    problem = _check(problem)
    theta = problem.theta_star if theta is None else np.asarray(theta, float)
    H = hessian(problem, theta)
    g = per_sample_gradients(problem, theta)
    return np.linalg.solve(H, g.T).T / problem.normaliser


def leave_one_out(problem) -> np.ndarray:
    """Exact ``theta*_{-r} - theta*`` for every sample r (shape ``(n, m)``)."""
    problem = _check(problem)
    out = np.empty((problem.n_samples, problem.dim))
    for r in range(problem.n_samples):
        out[r] = remove_sample(problem, r).theta_star - problem.theta_star
    return out


def influence_errors(problem) -> np.ndarray:
    """``||(theta*_{-r} - theta*) - c_r||`` for every sample r."""
    return np.linalg.norm(leave_one_out(problem) - influence(problem), axis=1)
