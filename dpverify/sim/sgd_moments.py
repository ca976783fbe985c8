"""Exact moments of one-sample stochastic gradient descent on (ridge) least squares.

The iteration, for ``t = 1..T`` from a fixed ``theta_1``::

    J_t ~ w (a probability vector over the samples; uniform = sampling with replacement),
    theta_{t+1} = theta_t - eta_t (grad l(theta_t; z_{J_t}) + s_t g_{J_t} nu_t),   nu_t ~ N(0, I),

with the per-sample loss ``l(theta; z_j) = 1/2 (x_j^T theta - y_j)^2 + (lam/2)||theta||^2`` and the
*noise gate* ``g_j`` in {0, 1} (1 for every sample: DP-SGD with one sample per step; 0 for some
samples: noise only on the steps that draw a gated sample). The gradient is affine in theta, so
the mean ``m_t = E theta_t`` and second moment ``S_t = E theta_t theta_t^T`` follow linear
recursions (``A_j = I - eta (x_j x_j^T + lam I)``, ``b_j = eta y_j x_j``)::

    m_{t+1} = sum_j w_j (A_j m_t + b_j),
    S_{t+1} = sum_j w_j (A_j S_t A_j^T + A_j m_t b_j^T + b_j m_t^T A_j^T + b_j b_j^T)
              + eta_t^2 s_t^2 (sum_j w_j g_j) I.

Every expectation of a quadratic in ``theta`` (empirical risk, population risk of a finite-support
distribution, the sampling variance ``E Var_J grad l(theta_t; z_J)``) is then exact. The Monte Carlo
simulator :func:`dpverify.sim.psgd` with ``batch=1`` runs the same iteration (ungated) and agrees
with these moments within its confidence interval (tests).
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .validation import check_array, check_real

__all__ = ["SGDMoments", "sgd_moments", "sgd_moments_mp", "quadratic_expectation", "loss_expectation",
           "loss_expectation_mp", "gradient_variance"]


@dataclass(frozen=True)
class SGDMoments:
    """Mean and second moment of the iterates of one-sample SGD, for ``t = 1..T+1``.

    ``means[t - 1]`` and ``seconds[t - 1]`` are ``E theta_t`` and ``E theta_t theta_t^T``;
    ``var_grad[t - 1]`` is ``E Var_J grad l(theta_t; z_J)`` (the sampling variance of the stochastic
    gradient at step t, expectation over theta_t), for ``t = 1..T``.
    """

    means: np.ndarray
    seconds: np.ndarray
    var_grad: np.ndarray

    @property
    def mean(self) -> np.ndarray:
        return self.means[-1]

    @property
    def second(self) -> np.ndarray:
        return self.seconds[-1]


def _check_data(X, y, weights, gate):
    X = check_array("X", X, ndim=2)
    n, m = X.shape
    y = check_array("y", y, shape=(n,))
    if weights is None:
        weights = np.full(n, 1.0 / n)
    weights = check_array("weights", weights, shape=(n,), nonnegative=True)
    if not abs(weights.sum() - 1.0) <= 1e-12:
        raise ValueError(f"weights must sum to 1, got sum {weights.sum()!r}")
    if gate is None:
        gate = np.ones(n)
    gate = check_array("gate", gate, shape=(n,), nonnegative=True)
    if not np.all((gate == 0) | (gate == 1)):
        raise ValueError(f"gate must contain only 0 and 1, got {np.unique(gate)!r}")
    return X, y, weights, gate


def gradient_variance(X, y, weights, mean, second, lam: float = 0.0) -> float:
    """``E Var_J grad l(theta; z_J)`` for theta with the given mean and second moment.

    ``grad l(theta; z_j) = x_j (x_j^T theta - y_j) + lam theta``; the ridge term is common to every
    sample and does not contribute to the variance over J.
    """
    X, y, w, _ = _check_data(X, y, weights, None)
    return _gradient_variance(X, y, w, np.asarray(mean, float), np.asarray(second, float))


def _gradient_variance(X, y, w, m, S):
    # E ||g_j||^2 = ||x_j||^2 E (x_j^T theta - y_j)^2
    XS = X @ S
    sq = np.einsum("jd,jd->j", X, X)
    e_res2 = np.einsum("jd,jd->j", XS, X) - 2 * y * (X @ m) + y * y
    first = float(w @ (sq * e_res2))
    # E ||sum_j w_j g_j||^2 with sum_j w_j g_j = B theta - c, B = sum w_j x_j x_j^T, c = sum w_j y_j x_j
    B = (X * w[:, None]).T @ X
    c = (w * y) @ X
    second_term = float(np.einsum("de,ef,df->", B, S, B) - 2 * c @ (B @ m) + c @ c)
    return max(first - second_term, 0.0)


def sgd_moments(X, y, theta1, etas, sigmas, *, lam: float = 0.0, weights=None, gate=None) -> SGDMoments:
    """Exact moments of one-sample SGD on ridge least squares (module docstring).

    Parameters
    ----------
    X : array_like, shape (n, m)
    y : array_like, shape (n,)
    theta1 : array_like, shape (m,)
    etas : float or array_like, shape (T,)
    sigmas : array_like, shape (T,)
        Noise standard deviations ``s_t >= 0`` per coordinate (``T = len(sigmas)``).
    lam : float
        Ridge coefficient of every per-sample loss.
    weights : array_like, shape (n,), optional
        Sampling probabilities of the samples (default uniform).
    gate : array_like of 0/1, shape (n,), optional
        Which samples' steps receive noise (default all).

    Notes
    -----
    With ``A_j = a I - eta x_j x_j^T`` (``a = 1 - eta lam``), ``W = diag(w)`` and ``B = X^T W X``, the
    sums over j are matrix products: ``sum_j w_j A_j S A_j^T = a^2 S - a eta (B S + S B) + eta^2 X^T
    diag(w_j x_j^T S x_j) X``, and likewise for the cross terms.
    """
    X, y, w, gate = _check_data(X, y, weights, gate)
    n, m = X.shape
    theta1 = check_array("theta1", theta1, shape=(m,))
    sigmas = check_array("sigmas", sigmas, ndim=1, nonnegative=True, nonempty=False)
    etas = check_array("etas", etas, ndim=(0, 1), nonnegative=True, nonempty=False)
    etas = np.full(len(sigmas), float(etas)) if etas.ndim == 0 else etas
    if len(etas) != len(sigmas):
        raise ValueError(f"etas must be a scalar or have length T={len(sigmas)}, got length {len(etas)}")
    lam = check_real("lam", lam, nonnegative=True)
    p_noise = float(w @ gate)
    B = (X * w[:, None]).T @ X
    c = (w * y) @ X
    Wy2 = (X * (w * y * y)[:, None]).T @ X
    mean = theta1.copy()
    S = np.outer(theta1, theta1)
    means, seconds, vg = [mean.copy()], [S.copy()], []
    eye = np.eye(m)
    for eta, s in zip(etas.tolist(), sigmas.tolist()):
        vg.append(_gradient_variance(X, y, w, mean, S))
        a = 1.0 - eta * lam
        q = np.einsum("jd,de,je->j", X, S, X)                  # x_j^T S x_j
        xm = X @ mean                                           # x_j^T m
        BS = B @ S
        new_S = (a * a) * S - a * eta * (BS + BS.T) + eta * eta * ((X * (w * q)[:, None]).T @ X)
        # cross terms sum_j w_j (A_j m b_j^T + b_j m^T A_j^T), b_j = eta y_j x_j
        cr = a * eta * np.outer(mean, c) - eta * eta * ((X * (w * y * xm)[:, None]).T @ X)
        new_S += cr + cr.T + eta * eta * Wy2 + (eta * s) ** 2 * p_noise * eye
        mean = a * mean - eta * (B @ mean) + eta * c
        S = 0.5 * (new_S + new_S.T)
        means.append(mean.copy())
        seconds.append(S.copy())
    return SGDMoments(np.asarray(means), np.asarray(seconds), np.asarray(vg))


def quadratic_expectation(Q, c, const, mean, second) -> float:
    """``E[1/2 theta^T Q theta - c^T theta + const]`` from the mean and the second moment."""
    Q, c = np.asarray(Q, float), np.asarray(c, float)
    return float(0.5 * np.trace(Q @ np.asarray(second, float)) - c @ np.asarray(mean, float) + const)


def loss_expectation(X, y, mean, second, *, lam: float = 0.0, weights=None) -> float:
    """``E sum_j w_j l(theta; z_j)`` (the empirical risk for uniform weights, the population risk
    for a finite-support distribution's weights) for theta with the given moments."""
    X, y, w, _ = _check_data(X, y, weights, None)
    Q = (X * w[:, None]).T @ X + lam * np.eye(X.shape[1])
    c = (w * y) @ X
    return quadratic_expectation(Q, c, 0.5 * float(w @ (y * y)), mean, second)


def sgd_moments_mp(X, y, theta1, etas, sigmas, *, lam=0.0, weights=None, gate=None, dps: int = 50):
    """:func:`sgd_moments` in mpmath at ``dps`` digits (for small problems: rounding is never a
    verdict); ``etas`` and ``sigmas`` may be ``mpf`` (kept exact). Returns ``(mean, second, var_grad)``: the final mean (list), second moment (list of
    lists) and the list of ``E Var_J grad l(theta_t; z_J)`` for ``t = 1..T``, all ``mpf``."""
    import mpmath

    X, y, w, gate = _check_data(X, y, weights, gate)
    n, m = X.shape
    sigmas = list(sigmas)
    etas = [etas] * len(sigmas) if np.ndim(etas) == 0 else list(etas)
    if len(etas) != len(sigmas):
        raise ValueError(f"etas must be a scalar or have length T={len(sigmas)}, got length {len(etas)}")
    with mpmath.workdps(dps):
        mpf = mpmath.mpf
        Xm = [[mpf(float(v)) for v in row] for row in X]
        ym = [mpf(float(v)) for v in y]
        wm = [mpf(float(v)) for v in w]
        lamm = mpf(lam)
        mean = [mpf(float(v)) for v in theta1]
        S = [[mean[a] * mean[b] for b in range(m)] for a in range(m)]
        p_noise = mpmath.fsum(wm[j] for j in range(n) if gate[j] == 1)
        var_grad = []

        def vgrad(mean, S):
            first = mpmath.fsum(
                wm[j] * mpmath.fsum(x * x for x in Xm[j])
                * (mpmath.fsum(Xm[j][a] * S[a][b] * Xm[j][b] for a in range(m) for b in range(m))
                   - 2 * ym[j] * mpmath.fsum(Xm[j][a] * mean[a] for a in range(m)) + ym[j] ** 2)
                for j in range(n))
            B = [[mpmath.fsum(wm[j] * Xm[j][a] * Xm[j][b] for j in range(n)) for b in range(m)] for a in range(m)]
            c = [mpmath.fsum(wm[j] * ym[j] * Xm[j][a] for j in range(n)) for a in range(m)]
            BS = [[mpmath.fsum(B[a][k] * S[k][b] for k in range(m)) for b in range(m)] for a in range(m)]
            tr = mpmath.fsum(BS[a][k] * B[a][k] for a in range(m) for k in range(m))
            Bm = [mpmath.fsum(B[a][k] * mean[k] for k in range(m)) for a in range(m)]
            second = tr - 2 * mpmath.fsum(c[a] * Bm[a] for a in range(m)) + mpmath.fsum(v * v for v in c)
            return max(first - second, mpf(0))

        for eta, s in zip(etas, sigmas):
            e, s = mpf(eta), mpf(s)
            var_grad.append(vgrad(mean, S))
            new_mean = [mpf(0)] * m
            new_S = [[mpf(0)] * m for _ in range(m)]
            for j in range(n):
                x = Xm[j]
                A = [[(1 if a == b else 0) - e * (x[a] * x[b] + (lamm if a == b else 0)) for b in range(m)]
                     for a in range(m)]
                bv = [e * ym[j] * x[a] for a in range(m)]
                Am = [mpmath.fsum(A[a][k] * mean[k] for k in range(m)) for a in range(m)]
                AS = [[mpmath.fsum(A[a][k] * S[k][b] for k in range(m)) for b in range(m)] for a in range(m)]
                for a in range(m):
                    new_mean[a] += wm[j] * (Am[a] + bv[a])
                    for b in range(m):
                        asa = mpmath.fsum(AS[a][k] * A[b][k] for k in range(m))
                        new_S[a][b] += wm[j] * (asa + Am[a] * bv[b] + bv[a] * Am[b] + bv[a] * bv[b])
            for a in range(m):
                new_S[a][a] += (e * s) ** 2 * p_noise
            mean, S = new_mean, new_S
        return mean, S, var_grad


def loss_expectation_mp(X, y, mean, second, *, lam=0.0, weights=None, dps: int = 50):
    """:func:`loss_expectation` in mpmath (``mean``/``second`` as returned by :func:`sgd_moments_mp`)."""
    import mpmath

    X, y, w, _ = _check_data(X, y, weights, None)
    n, m = X.shape
    with mpmath.workdps(dps):
        mpf = mpmath.mpf
        tot = mpf(0)
        for j in range(n):
            x = [mpf(float(v)) for v in X[j]]
            yj = mpf(float(y[j]))
            quad = mpmath.fsum(x[a] * second[a][b] * x[b] for a in range(m) for b in range(m))
            lin = mpmath.fsum(x[a] * mean[a] for a in range(m))
            tot += mpf(float(w[j])) * (quad - 2 * yj * lin + yj * yj) / 2
        if lam:
            tot += mpf(lam) / 2 * mpmath.fsum(second[a][a] for a in range(m))
        return tot
