"""Linear models on data: the per-sample loss of sample ``n`` is ``phi_n(x_n^T theta) + (lam/2) ||theta||^2``.

Data problems (:class:`LeastSquares`, :class:`LogisticRegression`,
:class:`LinearLoss`) are *linear models*: the per-sample loss is
``phi_n(x_n^T theta) + (lam/2) ||theta||^2``, so every per-sample gradient is
``r_n x_n + lam theta`` with the scalar ``r_n = phi_n'(x_n^T theta)``.  This
lets per-sample gradient norms and clipped mean gradients be computed from the
``(runs, N)`` margins without materialising a ``(runs, N, D)`` tensor.

Normaliser convention
---------------------
A data problem stores ``normaliser`` (default: the number of samples ``N``)
and defines ``f(theta) = (1/normaliser) * sum_n loss_n(theta)``.  For a full
data set ``normaliser == N`` and this is the usual empirical mean.
:func:`remove_sample` deletes one row but keeps ``normaliser`` at the original
``N``, the remove-one convention of gradient sensitivity:
``grad f_d - grad f_{d without n} = grad f(theta; x_n) / N``.
Because the ridge term is part of every per-sample loss, the ridge coefficient
of ``f`` is ``lam * n_samples / normaliser`` (equal to ``lam`` for full data).

Neighbouring data sets: :func:`make_neighbour` (replace-one), :func:`remove_sample` (remove-one).
"""

from __future__ import annotations

import numpy as np
import scipy  # its submodules load on first use (scipy's lazy loading), not at start-up

from ..validation import check_array, check_int, check_real
from .base import Problem, readonly

__all__ = [
    "LinearModel",
    "LeastSquares",
    "LogisticRegression",
    "LinearLoss",
    "HuberRegression",
    "check_data_problem",
    "make_neighbour",
    "remove_sample",
]

# --------------------------------------------------------------------------- #
# Linear models on data
# --------------------------------------------------------------------------- #


class LinearModel(Problem):
    """Per-sample loss ``phi_n(x_n^T theta) + (lam/2)||theta||^2`` (see module doc)."""

    _has_labels = True

    def _init_data(self, X: object, y: object, lam: object, normaliser: object) -> None:
        X = check_array("X", X, ndim=2)
        n, dim = X.shape
        if n == 0 or dim == 0:
            raise ValueError(f"X must have at least one row and one column, got shape {X.shape}")
        if self._has_labels:
            y = check_array("y", y, shape=(n,))
            self.y = readonly(y)
        else:
            self.y = None
        lam = check_real("lam", lam, nonnegative=True)
        if normaliser is None:
            normaliser = float(n)
        normaliser = check_real("normaliser", normaliser, positive=True)
        self.X = readonly(X)
        self.lam = lam
        self.normaliser = normaliser
        self.n_samples = n
        self.dim = dim
        self.ridge = lam * n / normaliser
        self.sq_norms = readonly(np.einsum("nd,nd->n", X, X))
        self._gram_eigs = np.linalg.eigvalsh(X.T @ X)

    # -- per-model pieces ---------------------------------------------------
    def _loss(self, m: np.ndarray) -> np.ndarray:  # pragma: no cover - abstract
        raise NotImplementedError

    def dloss(self, m: np.ndarray, y: np.ndarray | None = None) -> np.ndarray:  # pragma: no cover - abstract
        """``phi'`` at the margins ``m``, with the labels ``y`` (broadcast against ``m``; default the
        model's own labels, e.g. a mini-batch's gathered labels otherwise)."""
        raise NotImplementedError

    def with_data(self, X: np.ndarray, y: np.ndarray | None, normaliser: float) -> "LinearModel":
        """The same model (class, ``lam``) on other data."""
        return type(self)(X, y, self.lam, normaliser=normaliser)

    def _set_minimiser(self, theta_star: np.ndarray) -> None:
        """Store ``theta_star`` and ``f_star = f(theta_star)``, then freeze the problem."""
        self.theta_star = readonly(theta_star)
        self.f_star = float(self.value(self.theta_star))
        self._freeze()

    def _lipschitz_for_unit_dloss(self, radius: float) -> float:
        """``max_n ||x_n|| + lam * radius``: the per-sample gradient bound when ``|phi_n'| <= 1``."""
        radius = check_real("radius", radius, nonnegative=True)
        return float(np.sqrt(self.sq_norms.max()) + self.lam * radius)

    def __repr__(self) -> str:
        lam = f", lam={self.lam:g}" if self._has_labels else ""
        return (f"{type(self).__name__}(n_samples={self.n_samples}, dim={self.dim}{lam}, "
                f"normaliser={self.normaliser:g})")

    # -- shared API ---------------------------------------------------------
    def margins(self, theta: object) -> np.ndarray:
        """``x_n^T theta`` for every sample, shape ``(..., N)``."""
        return self.check_theta(theta) @ self.X.T

    def value(self, theta: object) -> np.ndarray:
        """``f(theta) = (1/normaliser) sum_n loss_n(theta)``, shape ``(...)``."""
        theta = self.check_theta(theta)
        m = theta @ self.X.T
        data = self._loss(m).sum(axis=-1) / self.normaliser
        if self.ridge == 0.0:
            return data
        return data + 0.5 * self.ridge * np.einsum("...d,...d->...", theta, theta)

    def _norms(self, theta: np.ndarray, m: np.ndarray, r: np.ndarray) -> np.ndarray:
        """Per-sample gradient norms ``||r_n x_n + lam theta||`` without a 3-d tensor."""
        sq = r * r * self.sq_norms
        if self.lam != 0.0:
            tt = np.einsum("...d,...d->...", theta, theta)[..., None]
            sq = sq + 2.0 * self.lam * r * m + (self.lam * self.lam) * tt
        # The expansion is >= 0 exactly; clamp rounding below zero.
        return np.sqrt(np.maximum(sq, 0.0))

    def per_sample_grad_norms(self, theta: object) -> np.ndarray:
        """Norms ``||grad f(theta; x_n)||``, shape ``(..., N)``."""
        theta = self.check_theta(theta)
        m = theta @ self.X.T
        return self._norms(theta, m, self.dloss(m))

    def grad(self, theta: object, clip: float | None = None) -> np.ndarray:
        """Mean gradient, optionally with per-sample clipping.

        Parameters
        ----------
        theta : array_like, shape (..., D)
        clip : float, optional
            Clipping norm ``C``: sample gradient ``g_n`` is replaced by
            ``g_n * min(1, C / ||g_n||)`` before averaging.

        Returns
        -------
        ndarray, shape (..., D)
            ``(1/normaliser) sum_n g_n`` (clipped if *clip* is given).
        """
        theta = self.check_theta(theta)
        m = theta @ self.X.T
        r = self.dloss(m)
        if clip is None:
            out = (r @ self.X) / self.normaliser
            if self.ridge != 0.0:
                out += self.ridge * theta
            return out
        clip = check_real("clip", clip, positive=True)
        norms = self._norms(theta, m, r)
        scale = np.minimum(1.0, clip / np.maximum(norms, np.finfo(np.float64).tiny))
        out = ((scale * r) @ self.X) / self.normaliser
        if self.lam != 0.0:
            out += (self.lam / self.normaliser) * scale.sum(axis=-1)[..., None] * theta
        return out

    def batch_grad(self, theta: np.ndarray, idx: np.ndarray, clip: float | None = None) -> np.ndarray:
        """Mini-batch gradient for each row of *theta* ``(rows, D)``, batch *idx* ``(rows, n)`` (repeats
        allowed): ``(n_samples / normaliser) (1/n) sum_j grad f(theta; x_{idx_j})``, each per-sample
        gradient clipped to norm ``clip`` first when given (unchecked arguments:
        :func:`dpverify.sim.gradients.minibatch_grad` checks them)."""
        n = idx.shape[-1]
        Xb = self.X[idx]                                      # (rows, n, D)
        m = np.einsum("rnd,rd->rn", Xb, theta)
        r = self.dloss(m, None if self.y is None else self.y[idx])
        factor = self.n_samples / (self.normaliser * n)
        if clip is None:
            out = np.einsum("rn,rnd->rd", r, Xb)
            out *= factor
            if self.lam != 0.0:
                out += self.ridge * theta
            return out
        # per-sample norms ||r x + lam theta|| by the expansion of _norms
        sq = r * r * self.sq_norms[idx]
        if self.lam != 0.0:
            tt = np.einsum("rd,rd->r", theta, theta)[:, None]
            sq = sq + 2.0 * self.lam * r * m + (self.lam * self.lam) * tt
        norms = np.sqrt(np.maximum(sq, 0.0))
        scale = np.minimum(1.0, clip / np.maximum(norms, np.finfo(np.float64).tiny))
        out = np.einsum("rn,rnd->rd", scale * r, Xb)
        if self.lam != 0.0:
            out += self.lam * scale.sum(axis=-1)[:, None] * theta
        out *= factor
        return out

    def per_sample_grads(self, theta: object, clip: float | None = None) -> np.ndarray:
        """``grad f(theta; x_n) = phi_n'(x_n^T theta) x_n + lam theta`` for every sample, shape ``(..., N, D)``,
        each clipped to norm ``clip`` when given (the mean gradient is their sum over ``normaliser``)."""
        theta = self.check_theta(theta)
        m = theta @ self.X.T                                          # (..., N)
        r = self.dloss(m)
        g = r[..., None] * self.X + self.lam * theta[..., None, :]  # (..., N, D)
        if clip is not None:
            norms = np.sqrt(np.einsum("...nd,...nd->...n", g, g))
            g = g * np.minimum(1.0, clip / np.maximum(norms, np.finfo(np.float64).tiny))[..., None]
        return g

    def sample(self, index: int) -> tuple[np.ndarray, float | None]:
        """Return ``(x_index, y_index)`` (``y`` is ``None`` without labels)."""
        index = check_int("index", index, minimum=0)
        if index >= self.n_samples:
            raise ValueError(f"index must be < n_samples={self.n_samples}, got {index!r}")
        return self.X[index], (None if self.y is None else float(self.y[index]))


class LeastSquares(LinearModel):
    """Ridge least squares ``f(theta) = (1/2N)||X theta - y||^2 + (lam/2)||theta||^2``.

    Per-sample loss ``1/2 (x_n^T theta - y_n)^2 + (lam/2)||theta||^2``.

    Parameters
    ----------
    X : array_like, shape (N, D)
    y : array_like, shape (N,)
    lam : float, optional
        Ridge coefficient ``>= 0``.
    normaliser : float, optional
        Divisor of the loss sum (default ``N``; see module docstring).

    Attributes
    ----------
    mu, M : float
        ``ridge + lambda_min/max(X^T X / normaliser)``.
    f_star : float
        Exact minimum, from the minimiser ``theta_star`` of the normal
        equations ``(X^T X + N lam I) theta = X^T y``, solved as the
        equivalent (better conditioned) least-squares problem
        ``[X; sqrt(N lam) I] theta ~ [y; 0]``.
    """

    def __init__(self, X: object, y: object, lam: float = 0.0, *, normaliser: float | None = None):
        self._init_data(X, y, lam, normaliser)
        gram = np.maximum(self._gram_eigs, 0.0) / self.normaliser
        self.mu = float(self.ridge + gram[0])
        self.M = float(self.ridge + gram[-1])
        self._set_minimiser(self._solve())

    def _solve(self) -> np.ndarray:
        n_lam = self.lam * self.n_samples
        if n_lam > 0:
            A = np.vstack([self.X, np.sqrt(n_lam) * np.eye(self.dim)])
            b = np.concatenate([self.y, np.zeros(self.dim)])
        else:
            A, b = self.X, self.y
        return np.linalg.lstsq(A, b, rcond=None)[0]

    def _loss(self, m: np.ndarray) -> np.ndarray:
        res = m - self.y
        return 0.5 * res * res

    def dloss(self, m: np.ndarray, y: np.ndarray | None = None) -> np.ndarray:
        return m - (self.y if y is None else y)

    def affine_samples(self):
        """Sample ``j``'s gradient as the mean gradient weighs it, ``(N / normaliser) x_j (x_j^T theta - y_j)
        + ridge theta``: ``H_j = (N / normaliser) x_j x_j^T + ridge I``, ``c_j = (N / normaliser) y_j x_j``,
        ``w_j = 1 / N``."""
        X, y, n = np.asarray(self.X), np.asarray(self.y), self.n_samples
        c = n / self.normaliser
        H = c * np.einsum("ja,jb->jab", X, X) + self.ridge * np.eye(self.dim)[None]
        return H, (c * y)[:, None] * X, np.full(n, 1.0 / n)

    def lipschitz_on_ball(self, radius: float) -> float:
        """Per-sample gradient bound on ``||theta|| <= radius``.

        ``max_n ||x_n|| (||x_n|| radius + |y_n|) + lam radius``.
        """
        radius = check_real("radius", radius, nonnegative=True)
        xn = np.sqrt(self.sq_norms)
        return float(np.max(xn * (xn * radius + np.abs(self.y))) + self.lam * radius)


def _logistic_newton(X: np.ndarray, y: np.ndarray, ridge: float, normaliser: float,
                     max_iter: int = 100) -> np.ndarray:
    """Minimise the ridge logistic loss by damped Newton's method.

    ``F(theta) = (1/normaliser) sum_n log(1 + exp(-y_n x_n^T theta))
    + (ridge/2)||theta||^2``, strictly convex for ``ridge > 0``.  Losses use
    ``np.logaddexp`` and probabilities ``scipy.special.expit`` so nothing
    overflows.  Iterates until the gradient norm stops decreasing once below
    ``1e-9`` (quadratic convergence makes the final gradient ~1e-16 scale)
    and raises ``RuntimeError`` if it never gets below
    ``1e-9 (1 + max_n ||x_n||)``.
    """
    dim = X.shape[1]

    def objective(th: np.ndarray) -> float:
        return float(np.logaddexp(0.0, -y * (X @ th)).sum() / normaliser + 0.5 * ridge * (th @ th))

    theta = np.zeros(dim)
    best, best_norm = theta, np.inf
    eye = np.eye(dim)
    for _ in range(max_iter):
        m = X @ theta
        g = X.T @ (-y * scipy.special.expit(-y * m)) / normaliser + ridge * theta
        g_norm = float(np.linalg.norm(g))
        if g_norm < best_norm:
            best, best_norm = theta, g_norm
        elif best_norm < 1e-9:
            break
        if g_norm == 0.0:
            break
        w = scipy.special.expit(m) * scipy.special.expit(-m)
        H = (X.T * w) @ X / normaliser + ridge * eye
        step = -scipy.linalg.cho_solve(scipy.linalg.cho_factor(H), g)
        slope = float(g @ step)
        f0, s = objective(theta), 1.0
        # Armijo backtracking, except where the predicted decrease -slope is
        # below what double precision resolves in F: there the iterate is
        # deep in Newton's quadratic-convergence region and full steps are used.
        if -slope > 1e-10 * (1.0 + abs(f0)):
            while objective(theta + s * step) > f0 + 1e-4 * s * slope and s > 1e-12:
                s *= 0.5
        theta = theta + s * step
    scale = 1.0 + float(np.sqrt(np.max(np.einsum("nd,nd->n", X, X))))
    if not best_norm <= 1e-9 * scale:
        raise RuntimeError(f"Newton's method did not converge: gradient norm {best_norm:.3g}")
    return best


class LogisticRegression(LinearModel):
    """Ridge logistic regression with labels in ``{-1, +1}``.

    Per-sample loss ``log(1 + exp(-y_n x_n^T theta)) + (lam/2)||theta||^2``.

    Parameters
    ----------
    X : array_like, shape (N, D)
    y : array_like, shape (N,)
        Labels, each ``-1`` or ``+1``.
    lam : float
        Ridge coefficient, must be ``> 0`` (makes ``f`` strongly convex, hence
        PL, with a unique minimiser).
    normaliser : float, optional
        Divisor of the loss sum (default ``N``; see module docstring).

    Attributes
    ----------
    mu : float
        ``ridge`` (``= lam`` for full data).
    M : float
        ``ridge + lambda_max(X^T X) / (4 normaliser)``.
    theta_star : ndarray
        Minimiser found by damped Newton's method.
    f_star : float
        ``f(theta_star)``, accurate to ~1e-12 relative.
    """

    def __init__(self, X: object, y: object, lam: float, *, normaliser: float | None = None):
        self._init_data(X, y, lam, normaliser)
        if not np.all(np.abs(self.y) == 1.0):
            raise ValueError(f"y must contain only -1 and +1 labels, got {np.unique(self.y)!r}")
        if not self.lam > 0:
            raise ValueError(f"lam must be positive for LogisticRegression, got {lam!r}")
        self.mu = float(self.ridge)
        self.M = float(self.ridge + max(self._gram_eigs[-1], 0.0) / (4.0 * self.normaliser))
        theta_star = _logistic_newton(np.asarray(self.X), np.asarray(self.y), self.ridge,
                                      self.normaliser)
        self._set_minimiser(theta_star)

    def _loss(self, m: np.ndarray) -> np.ndarray:
        return np.logaddexp(0.0, -self.y * m)

    def dloss(self, m: np.ndarray, y: np.ndarray | None = None) -> np.ndarray:
        y = self.y if y is None else y
        return -y * scipy.special.expit(-y * m)

    def lipschitz_on_ball(self, radius: float) -> float:
        """Per-sample gradient bound ``max_n ||x_n|| + lam * radius`` on ``||theta|| <= radius``."""
        return self._lipschitz_for_unit_dloss(radius)


class LinearLoss(LinearModel):
    """Linear per-sample loss ``<x_n, theta>`` (convex, 0-smooth, unbounded below).

    Used for stability counterexamples: every per-sample gradient is the
    constant ``x_n``, so the loss is ``G``-Lipschitz with
    ``G = max_n ||x_n||``.

    Parameters
    ----------
    X : array_like, shape (N, D)
    normaliser : float, optional
        Divisor of the loss sum (default ``N``; see module docstring).

    Attributes
    ----------
    mu, M : float
        Both ``0``.
    f_star : float
        ``-inf``.
    G : float
        ``max_n ||x_n||``.
    """

    _has_labels = False

    def __init__(self, X: object, *, normaliser: float | None = None):
        self._init_data(X, None, 0.0, normaliser)
        self.mu = 0.0
        self.M = 0.0
        self.f_star = -np.inf
        self.G = float(np.sqrt(self.sq_norms.max()))
        self._freeze()

    def _loss(self, m: np.ndarray) -> np.ndarray:
        return m

    def dloss(self, m: np.ndarray, y: np.ndarray | None = None) -> np.ndarray:
        return np.ones_like(m)

    def with_data(self, X, y, normaliser):
        return LinearLoss(X, normaliser=normaliser)

    def lipschitz_on_ball(self, radius: float) -> float:
        """``max_n ||x_n||`` (independent of *radius*)."""
        check_real("radius", radius, nonnegative=True)
        return self.G


class HuberRegression(LinearModel):
    """Ridge Huber regression, a data problem of the simulator (convex, 1-smooth in the residual,
    globally Lipschitz without the ridge term).

    Per-sample loss ``h(x_n^T theta - y_n) + (lam/2)||theta||^2`` with the Huber function of
    threshold 1: ``h(u) = u^2 / 2`` for ``|u| <= 1``, ``|u| - 1/2`` otherwise, so ``h'(u) = clip(u, -1, 1)``
    and ``0 <= h'' <= 1``. A threshold ``c`` reduces to this one by rescaling: ``h_c(u) = c^2 h(u / c)``,
    i.e. Huber regression with threshold ``c`` on ``(X, y)`` is ``c^2`` times :class:`HuberRegression`
    on ``(X / c, y / c)``.

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

    def dloss(self, m: np.ndarray, y: np.ndarray | None = None) -> np.ndarray:
        return np.clip(m - (self.y if y is None else y), -1.0, 1.0)

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


# --------------------------------------------------------------------------- #
# Adjacent data sets
# --------------------------------------------------------------------------- #


def check_data_problem(problem: object) -> LinearModel:
    if not isinstance(problem, LinearModel):
        raise ValueError(
            "problem must be a data problem (LeastSquares, LogisticRegression or LinearLoss), "
            f"got {problem!r}"
        )
    return problem


def _check_index(problem: LinearModel, index: object) -> int:
    index = check_int("index", index, minimum=0)
    if index >= problem.n_samples:
        raise ValueError(f"index must be < n_samples={problem.n_samples}, got {index!r}")
    return index


def make_neighbour(problem: LinearModel, index: int, x_new: object, y_new: float | None = None):
    """Replace sample *index* (replace-one adjacency).

    Parameters
    ----------
    problem : LeastSquares, LogisticRegression or LinearLoss
    index : int
        Row to replace, ``0 <= index < n_samples``.
    x_new : array_like, shape (D,)
        New feature vector.
    y_new : float, optional
        New label; ``None`` keeps the old label.  Must be ``None`` for
        :class:`LinearLoss` (no labels).

    Returns
    -------
    Problem
        Same class, same ``lam`` and ``normaliser``, row *index* replaced.
    """
    problem = check_data_problem(problem)
    index = _check_index(problem, index)
    x_new = check_array("x_new", x_new, shape=(problem.dim,))
    X = np.array(problem.X)
    X[index] = x_new
    if problem.y is None:
        if y_new is not None:
            raise ValueError(f"y_new must be None for {type(problem).__name__}, got {y_new!r}")
        y = None
    else:
        y = np.array(problem.y)
        if y_new is not None:
            y[index] = check_real("y_new", y_new)
    return problem.with_data(X, y, problem.normaliser)


def remove_sample(problem: LinearModel, index: int):
    """Delete sample *index*, keeping the normaliser at the original ``N``.

    This is the "remove-one" neighbouring data set of gradient sensitivity:
    ``f_{-n}(theta) = (1/N) sum_{j != n} loss_j``,
    so that ``grad f - grad f_{-n} = grad loss_n / N``.

    Returns
    -------
    Problem
        Same class with ``n_samples - 1`` rows and the same ``normaliser``.
    """
    problem = check_data_problem(problem)
    index = _check_index(problem, index)
    if problem.n_samples == 1:
        raise ValueError(f"problem must have at least 2 samples to remove one, got {problem!r}")
    X = np.delete(np.asarray(problem.X), index, axis=0)
    y = None if problem.y is None else np.delete(np.asarray(problem.y), index)
    return problem.with_data(X, y, problem.normaliser)
