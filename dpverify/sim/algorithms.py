"""The named noisy gradient methods, each a problem, a gradient source and an update rule run by
:func:`dpverify.sim.descent.simulate` (module docstring there: randomness, code paths, which results are
bit-identical between the fused kernels and the NumPy paths):

=================  ==========================================  ===========================================
simulator          gradient source                             update rule
=================  ==========================================  ===========================================
:func:`pgd`        full (``clip`` per sample)                  plain
:func:`momentum_pgd`  full (``clip``)                          bias-corrected momentum
:func:`heavy_ball_pgd`  full (``clip``)                        heavy ball
:func:`psgd`       mini-batches with replacement (``clip``)    plain, or bias-corrected momentum (``beta``)
:func:`coupled_pgd`  full, two problems sharing the noise      plain
=================  ==========================================  ===========================================

The iteration of :func:`pgd` is noisy gradient descent::

    theta_{t+1} = theta_t - eta_t * (grad f(theta_t) + s_t nu_t),   nu_t ~ N(0, I_D),

with ``s_t = noise_stds[t]`` the standard deviation of the noise per coordinate at step ``t``; per-sample
gradients may be clipped to a norm ``clip`` (which leaves the noise as given).  Any other combination
(heavy ball on clipped mini-batches: DP-SGD with heavy ball) is a call of
:func:`~dpverify.sim.descent.simulate` with its parts.  Block ``b`` draws its noise from
``block_rng(seed, b)``, so run ``i`` sees the same ``nu_t`` in every simulator with the same seed, and
``momentum_pgd`` with ``beta = 0`` or ``heavy_ball_pgd`` with ``beta = 0`` is ``pgd`` on the same path bit
for bit (``pgd``'s diagonal-quadratic kernel and fast path associate the arithmetic differently from the
theta form: they agree with the others to rounding).
"""

from __future__ import annotations

import numpy as np

from .arguments import check_clip, check_problem
from .descent import simulate, simulate_coupled
from .driver import Statistic
from .gradients import FullGradient, MiniBatch
from .problems import Problem
from .results import MCResult
from .updates import BiasCorrectedMomentum, HeavyBall, Plain
from .validation import check_etas, check_int, check_runs, check_steps, check_theta1

__all__ = ["FUSED_PATHS", "coupled_pgd", "gd", "heavy_ball_pgd", "momentum_pgd", "pgd", "psgd"]

#: Which simulator / problem combinations run a fused kernel (when numba is available).
FUSED_PATHS = {
    "pgd": "Quadratic (kernel quadratic_delta); LeastSquares, LogisticRegression, LinearLoss "
           "with or without clip (linear_gd)",
    "coupled_pgd": "two Quadratics (quadratic_theta, K=2); two linear models (linear_gd, K=2)",
    "momentum_pgd": "Quadratic (quadratic_theta); linear models with or without clip (linear_gd)",
    "heavy_ball_pgd": "Quadratic (quadratic_theta); linear models with or without clip (linear_gd)",
    "psgd": "linear models, plain or momentum, with or without clip (linear_sgd)",
    "simulate": "any update rule with full gradients on Quadratics (quadratic_theta; the plain rule on one: "
                "quadratic_delta) and on linear models (linear_gd), with mini-batches drawn with replacement on "
                "one linear model (linear_sgd), with or without clip",
    "random_round_sgd": "Quadratic (random_round_quadratic)",
    "step_decay_sgd": "SeparableLoss, full or Floyd mini-batches, box track (step_decay_separable)",
    "coupled_step_decay_sgd": "two SeparableLosses, as step_decay_sgd (step_decay_separable, P=2)",
    "adaptive_gd": "Quadratic, CosineSum, or logistic / least-squares model where its gradients check equal at first use, "
                   "with a NormRule: noise a schedule or proportional to the gradient norm "
                   "(adaptive_quadratic, adaptive_linear)",
    "gated_sgd": "LeastSquares in 1 dimension (gated_ls1) and in 2..8 (gated_ls, its sums in index order on "
                 "both paths); the rounds' Hessians and inverses by NumPy",
}



def pgd(problem: Problem, theta1: object, etas: object, noise_stds: object, runs: int, seed: int,
        chunk_runs: int = 65536, clip: float | None = None,
        statistic: Statistic | None = None, progress: bool = False, *,
        return_thetas: bool = False, fast_path: bool = True,
        workers: int | None = None) -> MCResult:
    """Monte Carlo estimate of a statistic of noisy gradient descent.

    Runs ``theta_{t+1} = theta_t - eta_t (grad f(theta_t) + s_t nu_t)`` with
    ``nu_t ~ N(0, I_D)`` and ``s_t = noise_stds[t]``, for ``t = 1..T`` from
    ``theta_1 = theta1`` in ``runs`` independent runs.

    Parameters
    ----------
    problem : Problem
        Objective (see :mod:`dpverify.sim.problems`).
    theta1 : array_like, shape (D,)
        Common starting point.
    etas : float or array_like, shape (T,)
        Step sizes ``eta_t >= 0``.
    noise_stds : array_like, shape (T,)
        Standard deviation ``s_t >= 0`` of the Gaussian noise added to each
        coordinate of the gradient at step ``t`` (``T = len(noise_stds)``, may
        be 0).
    runs : int
        Number of Monte Carlo runs.
    seed : int
        Non-negative master seed (see :mod:`dpverify.sim.rng`).
    chunk_runs : int, optional
        About how many runs are held in memory at once (rounded up to whole
        blocks, at least two blocks per worker).  Does not change any result.
    clip : float, optional
        Clip per-sample gradients to norm ``clip`` (linear models only).  The
        noise is *noise_stds* whether or not gradients are clipped.
    statistic : callable, optional
        ``statistic(theta_final)`` with ``theta_final`` of shape
        ``(rows, D)`` returning shape ``(rows,)``; called on one block of
        runs at a time, possibly from several worker threads at once (so it
        must not modify shared state).  Default ``problem.value(theta) -
        problem.f_star`` (computed inside the fused kernel on a
        :class:`Quadratic`).
    progress : bool, optional
        Show a ``tqdm`` progress bar over runs.
    return_thetas : bool, optional
        Also return the final iterates (``runs * D`` floats of memory).
    fast_path : bool, optional
        Use the fused kernels (numba) or, without numba, the NumPy
        diagonal-quadratic fast path when possible (default ``True``);
        ``False`` forces the NumPy generic path.
    workers : int, optional
        Worker threads (default: :func:`~dpverify.sim.parallel.get_workers`,
        i.e. all CPUs, within a CPU quota, unless set otherwise).  Does not change any result.

    Returns
    -------
    MCResult
    """
    return simulate(problem, theta1, etas, noise_stds, runs, seed, gradient=FullGradient(clip), chunk_runs=chunk_runs,
                    statistic=statistic, progress=progress, return_thetas=return_thetas, fast_path=fast_path,
                    workers=workers, desc="pgd")


def momentum_pgd(problem: Problem, theta1: object, etas: object, noise_stds: object, beta: float,
                 runs: int, seed: int, chunk_runs: int = 65536,
                 clip: float | None = None, statistic: Statistic | None = None,
                 progress: bool = False, *, return_thetas: bool = False,
                 fast_path: bool = True, workers: int | None = None) -> MCResult:
    """Monte Carlo estimate of a statistic of noisy gradient descent with momentum.

    Runs, for ``t = 1..T`` from ``theta_1 = theta1`` and ``v_1 = 0``::

        g_t      = grad f(theta_t) + s_t nu_t,     s_t = noise_stds[t],
        v_{t+1}  = beta v_t + (1 - beta) g_t,
        m_{t+1}  = v_{t+1} / (1 - beta^t),
        theta_{t+1} = theta_t - eta_t m_{t+1},

    which equals the recursion ``m_{t+1} = phi(m_t, g_t)`` with ``m_2 = g_1``
    (see the module docstring).  With *clip*, per-sample gradients are clipped
    to norm ``clip`` (the noise stays *noise_stds*).

    Parameters
    ----------
    beta : float
        Momentum coefficient in ``[0, 1)``; ``beta = 0`` is plain noisy GD and
        reproduces :func:`~dpverify.sim.algorithms.pgd` (same seed) bit for
        bit on the same path (see the module docstring).
    problem, theta1, etas, noise_stds, runs, seed, chunk_runs, clip, statistic, progress, \
return_thetas, workers
        As in :func:`~dpverify.sim.algorithms.pgd`.  Results are
        bit-identical for every ``chunk_runs`` and ``workers``.
    fast_path : bool, optional
        Use the fused kernel (numba) for a :class:`Quadratic` or a linear model
        (default); ``False`` forces the NumPy path.

    Returns
    -------
    MCResult
    """
    return simulate(problem, theta1, etas, noise_stds, runs, seed, update=BiasCorrectedMomentum(beta),
                    gradient=FullGradient(clip), chunk_runs=chunk_runs, statistic=statistic, progress=progress,
                    return_thetas=return_thetas, fast_path=fast_path, workers=workers, desc="momentum_pgd")


def heavy_ball_pgd(problem: Problem, theta1: object, etas: object, noise_stds: object, beta: float,
                   runs: int, seed: int, chunk_runs: int = 65536, clip: float | None = None,
                   statistic: Statistic | None = None, progress: bool = False, *,
                   return_thetas: bool = False, fast_path: bool = True,
                   workers: int | None = None) -> MCResult:
    """Monte Carlo estimate of a statistic of noisy heavy-ball gradient descent (module docstring).

    Parameters
    ----------
    beta : float
        Momentum coefficient in ``[0, 1)``; ``beta = 0`` is plain noisy GD on
        :func:`~dpverify.sim.algorithms.pgd`'s noise stream.
    problem, theta1, etas, noise_stds, runs, seed, chunk_runs, clip, statistic, progress, \
return_thetas, workers
        As in :func:`~dpverify.sim.algorithms.pgd`.  Results are bit-identical for every ``chunk_runs``
        and ``workers``.
    fast_path : bool, optional
        Use the fused kernel (numba) for a :class:`Quadratic` or a linear model (default); ``False``
        forces the NumPy path.

    Returns
    -------
    MCResult

    Example
    -------
    >>> from dpverify import sim
    >>> res = sim.heavy_ball_pgd(sim.Quadratic([1.0, 4.0]), [1.0, 1.0], 0.4, [0.1] * 20, 1 / 9,
    ...                          runs=1000, seed=0)
    """
    return simulate(problem, theta1, etas, noise_stds, runs, seed, update=HeavyBall(beta), gradient=FullGradient(clip),
                    chunk_runs=chunk_runs, statistic=statistic, progress=progress, return_thetas=return_thetas,
                    fast_path=fast_path, workers=workers, desc="heavy_ball_pgd")


def psgd(problem: Problem, theta1: object, etas: object, noise_stds: object, batch: int,
         runs: int, seed: int, chunk_runs: int = 65536,
         clip: float | None = None, beta: float | None = None,
         statistic: Statistic | None = None, progress: bool = False, *,
         return_thetas: bool = False, fast_path: bool = True,
         workers: int | None = None) -> MCResult:
    """Monte Carlo estimate of a statistic of noisy mini-batch SGD.

    For ``t = 1..T`` from ``theta_1 = theta1``, every run draws a mini-batch
    of *batch* indices uniformly with replacement, forms the mini-batch
    gradient ``grad_hat_t`` (:func:`minibatch_grad`), adds ``s_t nu_t``
    (``s_t = noise_stds[t]``, ``nu_t ~ N(0, I_D)``) and steps plainly (``beta=None``: noisy gradient descent with the
    stochastic gradient) or with bias-corrected momentum (``beta`` given; see
    :mod:`dpverify.sim.updates.momentum`).

    Parameters
    ----------
    problem : LeastSquares, LogisticRegression or LinearLoss
        Data problem (a :class:`Quadratic` has no samples to draw).
    theta1 : array_like, shape (D,)
    etas : float or array_like, shape (T,)
    noise_stds : array_like, shape (T,)
        Standard deviation ``s_t >= 0`` of the noise added to each coordinate
        of the mini-batch gradient (``T = len(noise_stds)``).
    batch : int
        Batch size ``n >= 1`` (may exceed ``n_samples``: sampling is with
        replacement).
    runs, seed, chunk_runs, statistic, progress, return_thetas, workers
        As in :func:`~dpverify.sim.algorithms.pgd`; results are
        bit-identical for every ``chunk_runs`` and ``workers``.
    clip : float, optional
        Clip per-sample gradients to norm ``clip`` (the noise stays *noise_stds*).
    beta : float, optional
        Momentum coefficient in ``[0, 1)``; ``None`` for plain PSGD
        (``beta=0`` gives the same result bit for bit).
    fast_path : bool, optional
        Use the fused kernel (numba) when available (default); ``False``
        forces the NumPy path.  Both draw the same indices and noise and agree
        to rounding.

    Returns
    -------
    MCResult
    """
    update = Plain() if beta is None else BiasCorrectedMomentum(beta)
    return simulate(problem, theta1, etas, noise_stds, runs, seed, update=update, gradient=MiniBatch(batch, clip=clip),
                    chunk_runs=chunk_runs, statistic=statistic, progress=progress, return_thetas=return_thetas,
                    fast_path=fast_path, workers=workers, desc="psgd")


def coupled_pgd(problem_a: Problem, problem_b: Problem, theta1: object, etas: object,
                noise_stds: object, runs: int, seed: int, clip: float | None = None, chunk_runs: int = 65536, *,
                fast_path: bool = True, workers: int | None = None
                ) -> tuple[np.ndarray, np.ndarray]:
    """Run noisy gradient descent on two problems with the *same* noise draws.

    Both trajectories use the noise of :func:`pgd` with the same ``seed``
    (run ``i`` of ``problem_a`` and run ``i`` of ``problem_b`` share
    ``nu_1..nu_T``); used for stability analysis on adjacent data sets.

    Parameters
    ----------
    problem_a, problem_b : Problem
        Objectives of equal dimension (e.g. adjacent data sets from
        :func:`~dpverify.sim.problems.make_neighbour`).
    theta1, etas, noise_stds, runs, seed, clip, chunk_runs, workers
        As in :func:`pgd`.
    fast_path : bool, optional
        Use the fused kernel when both problems are quadratics or both linear
        models (default); ``False`` forces the NumPy generic path.  On
        ``problem_a`` the fused kernel performs the same operations as
        :func:`pgd`'s fused linear-model kernel (bit-identical iterates), and
        the NumPy path those of :func:`pgd` with ``fast_path=False``.

    Returns
    -------
    theta_a, theta_b : ndarray, shape (runs, D)
        Final iterates.
    """
    problem_a = check_problem("problem_a", problem_a)
    problem_b = check_problem("problem_b", problem_b)
    if problem_a.dim != problem_b.dim:
        raise ValueError(
            f"problem_b must have the same dim as problem_a ({problem_a.dim}), got {problem_b.dim}"
        )
    theta1 = check_theta1(theta1, problem_a.dim)
    etas, scales = check_steps(etas, noise_stds)
    clip = check_clip(clip, problem_a, problem_b)
    runs, seed = check_runs(runs, seed, chunk_runs, workers)
    out = simulate_coupled([problem_a, problem_b], theta1, etas, scales, runs, seed, update=Plain(),
                           gradient=FullGradient(clip), chunk_runs=chunk_runs, fast_path=fast_path, workers=workers)
    return out[0], out[1]


def gd(problem: Problem, theta1: object, etas: object, T: int) -> np.ndarray:
    """Deterministic gradient descent ``theta_{t+1} = theta_t - eta_t grad f(theta_t)``.

    The ``noise_stds = 0`` limit of noisy gradient descent.

    Parameters
    ----------
    problem : Problem
    theta1 : array_like, shape (D,)
    etas : float or array_like, shape (T,)
    T : int
        Number of steps (``>= 0``).

    Returns
    -------
    ndarray, shape (D,)
        ``theta_{T+1}``.
    """
    problem = check_problem("problem", problem)
    theta = check_theta1(theta1, problem.dim)[None, :].copy()
    T = check_int("T", T, minimum=0)
    etas = check_etas(etas, T)
    for eta in etas.tolist():
        theta = theta - eta * problem.grad(theta)
    return theta[0]
