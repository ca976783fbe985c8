"""Exact moments of noisy (private) gradient descent on diagonal quadratics.

On ``f(theta) = f* + 1/2 sum_i lam_i (theta_i - theta*_i)^2`` noisy gradient
descent ``theta_{t+1} = theta_t - eta_t (grad f(theta_t) + s_t nu_t)`` is
linear with Gaussian noise, so each coordinate
of ``delta = theta - theta*`` stays Gaussian and coordinates stay
independent:

    delta_{t+1,i} = a_{t,i} delta_{t,i} - c_t nu_{t,i},
    a_{t,i} = 1 - eta_t lam_i,   c_t = eta_t s_t,

with ``s_t`` the noise standard deviation per coordinate (``noise_stds``).

Hence the mean ``m`` and variance ``s^2`` of each coordinate propagate as

    m_{t+1} = a_t m_t,    s^2_{t+1} = a_t^2 s^2_t + c_t^2,

(``s^2_1 = 0``), and ``v = E[delta^2] = m^2 + s^2`` obeys
``v_{t+1} = a_t^2 v_t + c_t^2``.  The excess risk
``f(theta_{T+1}) - f* = 1/2 sum_i lam_i delta_i^2`` then has

    E = 1/2 sum_i lam_i (m_i^2 + s_i^2),
    Var = sum_i lam_i^2 / 4 * Var(delta_i^2) = sum_i lam_i^2 / 4 (2 s_i^4 + 4 s_i^2 m_i^2),

using, for ``delta = m + s z`` with ``z ~ N(0, 1)``,
``Var(delta^2) = Var(2 m s z + s^2 z^2) = 4 m^2 s^2 + 2 s^4``
(``Cov(z, z^2) = 0``, ``Var(z^2) = 2``) and independence across coordinates.

All functions are vectorised over ``P`` parameter points.  The same for the update rules with a state
of their own (:mod:`dpverify.sim.updates`): :func:`momentum_quadratic_mean_var` (bias-corrected momentum)
and :func:`heavy_ball_quadratic_mean_var` (Polyak's heavy ball), each rule's closed recursion.

Any update rule with any gradient source
-----------------------------------------
:func:`exact_moments` propagates the mean and second moment of the whole state ``z = (theta, aux)`` of any
rule with any gradient source on any problem whose per-sample gradients are affine,
``grad f(theta; x_j) = H_j theta - c_j`` (:meth:`~dpverify.sim.problems.Problem.affine_samples`: a
diagonal quadratic, least squares, a separable quadratic with per-sample shifts).  The rule gives its step
as a linear map, ``z' = A_t z + B_t g`` (:meth:`~dpverify.sim.updates.UpdateRule.transition`); the source's
gradient is ``g = H^ theta - c^ + s_t nu`` with ``(H^, c^)`` the mean of its draws, whose second moments
are the full gradient's plus its covariance factor ``f`` (:meth:`~dpverify.sim.gradients.GradientSource.covariance_factor`:
0 full, ``1/B`` with replacement, ``(n - B)/(B (n - 1))`` without) times the covariance of one draw:
``E[H^ X H^T] = H X H^T + f (E_j[H_j X H_j^T] - H X H^T)``, and likewise for the cross and constant terms.
With ``S = E[z z^T]``, ``mu = E z``, ``P`` the iterate's block and ``nu`` independent of everything::

    mu'  = A mu + B (H P mu - c),
    S'   = A S A^T + A E[z g^T] B^T + B E[g z^T] A^T + B E[g g^T] B^T,
    E[g z^T] = H P S - c mu^T,
    E[g g^T] = E[H^ P S P^T H^T] - E[H^ P mu c^T] - E[c^ mu^T P^T H^T] + E[c^ c^T] + s_t^2 I,

exactly (no Gaussian assumption: multiplicative sampling noise included).
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .arguments import check_parts
from .updates.heavy_ball import propagate as _heavy_ball_propagate
from .updates.momentum import propagate as _momentum_propagate
from .validation import check_quadratic_inputs, check_steps, check_theta1

__all__ = ["ExactMoments", "exact_moments", "heavy_ball_quadratic_mean_var", "momentum_quadratic_mean_var",
           "momentum_quadratic_moments", "momentum_quadratic_velocity", "pgd_quadratic_mean_var",
           "pgd_quadratic_moments", "pgd_quadratic_variance"]


def _propagate(eigs: np.ndarray, delta1: np.ndarray, etas: np.ndarray,
               c: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Return coordinate means ``m`` and variances ``s^2`` of ``theta_{T+1} - theta*``."""
    m = np.array(delta1, dtype=np.float64, copy=True)
    s2 = np.zeros_like(m)
    a = np.empty_like(m)
    c2 = np.ascontiguousarray((c * c).T)  # (T, P)
    etas_t = np.ascontiguousarray(etas.T)  # (T, P)
    for t in range(etas_t.shape[0]):
        np.multiply(etas_t[t][:, None], eigs, out=a)
        np.subtract(1.0, a, out=a)          # a_t = 1 - eta_t lam
        m *= a                              # m_{t+1} = a_t m_t
        a *= a
        s2 *= a                             # s2_{t+1} = a_t^2 s2_t + c_t^2
        s2 += c2[t][:, None]
    return m, s2


def _gaussian_excess(lam: np.ndarray, m: np.ndarray, s2: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Mean and variance of ``1/2 sum_i lam_i d_i^2`` for independent ``d_i ~ N(m_i, s2_i)`` (module docstring)."""
    mean = 0.5 * np.einsum("pd,pd->p", lam, m * m + s2)
    var = 0.25 * np.einsum("pd,pd->p", lam * lam, 2.0 * s2 * s2 + 4.0 * s2 * m * m)
    return mean, var


def pgd_quadratic_mean_var(eigs, theta1, etas, noise_stds, theta_star=None):
    """Exact mean and variance of ``f(theta_{T+1}) - f*`` of noisy gradient descent.

    Parameters
    ----------
    eigs : array_like, shape (D,) or (P, D)
        Non-negative Hessian eigenvalues.
    theta1 : array_like, shape (D,) or (P, D)
        Starting point.
    etas : float or array_like, shape (T,) or (P, T)
        Step sizes.
    noise_stds : array_like, shape (T,) or (P, T)
        Noise standard deviation per coordinate at each step (``T`` may be 0).
    theta_star : array_like, shape (D,) or (P, D), optional
        Minimiser (default origin).

    Returns
    -------
    mean, var : ndarray, shape (P,)
        ``P = 1`` when no input carries a point axis.
    """
    eigs, delta1, etas, c = check_quadratic_inputs(eigs, theta1, etas, noise_stds, theta_star)
    m, s2 = _propagate(eigs, delta1, etas, c)
    return _gaussian_excess(eigs, m, s2)


def pgd_quadratic_moments(eigs, theta1, etas, noise_stds, theta_star=None) -> np.ndarray:
    """Exact expected excess risk ``E[f(theta_{T+1})] - f*`` of noisy gradient descent.

    Propagates ``v = E[(theta - theta*)^2]`` coordinate-wise,
    ``v_{t+1} = a_t^2 v_t + (eta_t s_t)^2`` with
    ``a_t = 1 - eta_t lam``, and returns ``1/2 sum_i lam_i v_i``.
    Arguments as in :func:`pgd_quadratic_mean_var`.

    Returns
    -------
    ndarray, shape (P,)
    """
    eigs, delta1, etas, c = check_quadratic_inputs(eigs, theta1, etas, noise_stds, theta_star)
    v = np.array(delta1 * delta1, dtype=np.float64)
    a = np.empty_like(v)
    c2 = np.ascontiguousarray((c * c).T)
    etas_t = np.ascontiguousarray(etas.T)
    for t in range(etas_t.shape[0]):
        np.multiply(etas_t[t][:, None], eigs, out=a)
        np.subtract(1.0, a, out=a)
        a *= a
        v *= a
        v += c2[t][:, None]
    return 0.5 * np.einsum("pd,pd->p", eigs, v)


def pgd_quadratic_variance(eigs, theta1, etas, noise_stds, theta_star=None) -> np.ndarray:
    """Exact ``Var[f(theta_{T+1})]`` of noisy gradient descent on a diagonal quadratic.

    ``sum_i lam_i^2 / 4 (2 s_i^4 + 4 s_i^2 m_i^2)`` where ``m_i`` and
    ``s_i^2`` are the mean and variance of ``theta_{T+1,i} - theta*_i``
    (derivation in the module docstring).  Arguments as in
    :func:`pgd_quadratic_mean_var`.

    Returns
    -------
    ndarray, shape (P,)
    """
    return pgd_quadratic_mean_var(eigs, theta1, etas, noise_stds, theta_star)[1]


def momentum_quadratic_velocity(eigs, theta1, etas, noise_stds, beta, theta_star=None):
    """Exact ``E||v_{t+1}||^2`` for t = 1..T, shape ``(P, T)``.

    The velocity second moments of the same recursion as :func:`momentum_quadratic_mean_var`.
    """
    rec: list = []
    _momentum_propagate(eigs, theta1, etas, noise_stds, beta, theta_star, record=rec)
    return np.stack(rec, axis=1)


def momentum_quadratic_mean_var(eigs, theta1, etas, noise_stds, beta, theta_star=None):
    """Exact mean and variance of ``f(theta_{T+1}) - f*`` for noisy GD with momentum.

    Propagates the mean and 2x2 covariance of ``(theta_i - theta*_i, v_i)``
    per eigen-direction (:mod:`dpverify.sim.updates.momentum`), then uses the Gaussian quadratic
    form ``E = 1/2 sum_i lam_i (m_i^2 + s_i^2)``,
    ``Var = sum_i lam_i^2 / 4 (2 s_i^4 + 4 s_i^2 m_i^2)``.

    Parameters
    ----------
    eigs, theta1, etas, noise_stds, theta_star
        As in :func:`~dpverify.sim.moments.pgd_quadratic_mean_var` (each may
        carry a leading axis of ``P`` parameter points).
    beta : float or array_like, shape (P,)
        Momentum coefficient(s) in ``[0, 1)``.

    Returns
    -------
    mean, var : ndarray, shape (P,)
        ``P = 1`` when no input carries a point axis.
    """
    lam, m, s2 = _momentum_propagate(eigs, theta1, etas, noise_stds, beta, theta_star)
    return _gaussian_excess(lam, m, s2)


def momentum_quadratic_moments(eigs, theta1, etas, noise_stds, beta, theta_star=None) -> np.ndarray:
    """Exact expected excess risk ``E[f(theta_{T+1})] - f*`` of noisy GD with momentum.

    Arguments as in :func:`momentum_quadratic_mean_var`.

    Returns
    -------
    ndarray, shape (P,)
    """
    return momentum_quadratic_mean_var(eigs, theta1, etas, noise_stds, beta, theta_star)[0]


def heavy_ball_quadratic_mean_var(eigs, theta1, etas, noise_stds, beta, theta_star=None):
    """Exact mean and variance of ``f(theta_{T+1}) - f*`` for noisy heavy-ball GD on a diagonal
    quadratic (:mod:`dpverify.sim.updates.heavy_ball`), by the Gaussian quadratic form.

    Parameters
    ----------
    eigs, theta1, etas, noise_stds, theta_star
        As in :func:`~dpverify.sim.moments.pgd_quadratic_mean_var` (each may carry a leading axis
        of ``P`` parameter points).
    beta : float
        Momentum coefficient in ``[0, 1)``.

    Returns
    -------
    mean, var : ndarray, shape (P,)

    Example
    -------
    >>> mean, var = heavy_ball_quadratic_mean_var([1.0, 4.0], [1.0, 1.0], 0.4, [0.1] * 20, 1 / 9)
    """
    lam, m, s2 = _heavy_ball_propagate(eigs, theta1, etas, noise_stds, beta, theta_star)
    return _gaussian_excess(lam, m, s2)


# --------------------------------------------------------------------------- #
# Any update rule with any gradient source, on affine per-sample gradients
# --------------------------------------------------------------------------- #


@dataclass(frozen=True)
class ExactMoments:
    """The exact mean ``E theta_{T+1}`` and second moment ``E theta_{T+1} theta_{T+1}^T`` (:func:`exact_moments`)."""

    mean: np.ndarray
    second: np.ndarray

    def quadratic(self, H, center) -> float:
        """``E[1/2 (theta - center)^T H (theta - center)]`` (e.g. a quadratic problem's excess risk)."""
        H, c = np.asarray(H, float), np.asarray(center, float)
        cov_c = self.second - np.outer(self.mean, c) - np.outer(c, self.mean) + np.outer(c, c)
        return float(0.5 * np.einsum("ab,ab->", H, cov_c))

    @property
    def dist_sq(self) -> float:
        """``E||theta||^2``."""
        return float(np.trace(self.second))


def _batch_second(f: float, Hbar: np.ndarray, Hj: np.ndarray, w: np.ndarray, X: np.ndarray) -> np.ndarray:
    """``E[H^ X H^T]`` for the mean ``H^`` of the source's draws (covariance factor ``f``)."""
    full = Hbar @ X @ Hbar.T
    if f == 0.0:
        return full
    return full + f * (np.einsum("j,jab,bc,jdc->ad", w, Hj, X, Hj) - full)


def exact_moments(problem, theta1, etas, noise_stds, *, update=None, gradient=None) -> ExactMoments:
    """Exact mean and second moment of ``theta_{T+1}`` for noisy gradient descent from parts (module
    docstring) on a problem whose per-sample gradients are affine
    (:meth:`~dpverify.sim.problems.Problem.affine_samples`), any update rule
    (:mod:`dpverify.sim.updates`) and any unclipped gradient source (:mod:`dpverify.sim.gradients`).

    Parameters
    ----------
    problem : Problem
        A :class:`~dpverify.sim.Quadratic`, :class:`~dpverify.sim.LeastSquares`, or a
        :class:`~dpverify.sim.SeparableLoss` with ``phi="quadratic"`` and no ``b``.
    theta1, etas, noise_stds
        As in :func:`~dpverify.sim.descent.simulate`.
    update, gradient
        The parts (default :class:`~dpverify.sim.updates.Plain` and
        :class:`~dpverify.sim.gradients.FullGradient`).

    Example
    -------
    >>> from dpverify import sim
    >>> m = exact_moments(sim.Quadratic([1.0, 4.0]), [1.0, 1.0], 0.2, [0.1] * 5, update=sim.HeavyBall(0.3))
    >>> round(m.quadratic(np.diag([1.0, 4.0]), [0.0, 0.0]), 6) > 0
    True
    """
    update, gradient = check_parts(update, gradient)
    affine = problem.affine_samples()
    if affine is None:
        raise ValueError(f"problem must have affine per-sample gradients (a quadratic, least squares, a separable "
                         f"quadratic with shifts), got {problem!r}")
    if gradient.clip is not None:
        raise ValueError(f"clip must be None for exact moments (a clipped gradient is not affine), got {gradient.clip!r}")
    Hj, cj, w = affine
    D = problem.dim
    theta1 = check_theta1(theta1, D)
    etas, scales = check_steps(etas, noise_stds)
    update.check(len(scales))
    f = gradient.covariance_factor(len(w)) if gradient.samples else 0.0
    Hbar, cbar = np.einsum("j,jab->ab", w, Hj), w @ cj
    k = update.STATE
    mu = np.concatenate([theta1] + [update.init(theta1)] * (k - 1))
    S = np.outer(mu, mu)
    P = np.zeros((D, k * D))
    P[:, :D] = np.eye(D)
    eye = np.eye(D)
    for t, (eta, s) in enumerate(zip(etas.tolist(), scales.tolist()), start=1):
        A, B = update.transition(eta, t)
        Abar, Bbar = np.kron(A, eye), np.kron(B[:, None], eye)
        th_mu, th_S = P @ mu, P @ S @ P.T
        hc = Hbar @ np.outer(th_mu, cbar)                 # E[H^ theta c^T] for theta independent of the draw
        cc = np.outer(cbar, cbar)
        if f:
            hc = hc + f * (np.einsum("j,jab,b,jc->ac", w, Hj, th_mu, cj) - hc)
            cc = cc + f * (np.einsum("j,ja,jb->ab", w, cj, cj) - cc)
        gz = Hbar @ P @ S - np.outer(cbar, mu)
        gg = _batch_second(f, Hbar, Hj, w, th_S) - hc - hc.T + cc + (s * s) * eye
        S = Abar @ S @ Abar.T + Abar @ gz.T @ Bbar.T + Bbar @ gz @ Abar.T + Bbar @ gg @ Bbar.T
        S = 0.5 * (S + S.T)
        mu = Abar @ mu + Bbar @ (Hbar @ th_mu - cbar)
    return ExactMoments(P @ mu, P @ S @ P.T)
