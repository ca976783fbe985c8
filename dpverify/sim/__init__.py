"""Monte Carlo and exact-moment simulator of noisy (private) gradient methods.

Noisy gradient descent ``theta_{t+1} = theta_t - eta_t (grad f(theta_t) + s_t z_t)``
with time-varying steps and noise scales, its momentum and mini-batch
variants, a zCDP budget filter, and noise schedules.

Modules
-------
rng         per-block random generators (SFC64, SeedSequence streams per block)
parallel    worker threads: set_workers / get_workers (env DPVERIFY_WORKERS)
kernels     fused numba kernels and their random number source; set_fused
problems    Quadratic, LeastSquares, LogisticRegression, LinearLoss, adjacency helpers
schedules   uniform, dynamic, pgd_influence, dynamic_pgd, exponential schedules (sigma_t)
algorithms  budget_steps, pgd, pgd_budgeted, coupled_pgd, gd, MCResult
moments     exact moments of noisy GD on diagonal quadratics
momentum    momentum_pgd (bias-corrected momentum) and its exact quadratic moments
sgd         psgd (noisy mini-batch SGD), minibatch_grad, sampling_noise_moments

Every Monte Carlo simulator takes ``workers`` (default: all CPUs) and
``chunk_runs``; neither changes any result for a given seed.
"""

from .algorithms import FUSED_PATHS, MCResult, budget_steps, coupled_pgd, gd, pgd, pgd_budgeted
from .kernels import fused_enabled, numba_available, set_fused
from .moments import pgd_quadratic_mean_var, pgd_quadratic_moments, pgd_quadratic_variance
from .momentum import (momentum_pgd, momentum_quadratic_mean_var, momentum_quadratic_moments,
                       momentum_quadratic_velocity)
from .problems import (
    LeastSquares,
    LinearLoss,
    LogisticRegression,
    Problem,
    Quadratic,
    make_neighbour,
    remove_sample,
)
from .parallel import get_workers, set_workers
from .rng import BLOCK, block_rng, iter_chunks, sfc64_state
from .schedules import (
    dynamic,
    dynamic_pgd,
    dynamic_pgd_closed_form,
    exponential,
    exponential_for_budget,
    pgd_influence,
    total_cost,
    uniform,
)
from .sgd import index_rng, minibatch_grad, psgd, sampling_noise_moments
from .step_decay import SeparableLoss, coupled_step_decay_sgd, phase_schedule, step_decay_quadratic_moments, step_decay_sgd  # noqa: F401

__all__ = [
    "BLOCK",
    "block_rng",
    "sfc64_state",
    "iter_chunks",
    "set_workers",
    "get_workers",
    "set_fused",
    "fused_enabled",
    "numba_available",
    "FUSED_PATHS",
    "Problem",
    "Quadratic",
    "LeastSquares",
    "LogisticRegression",
    "LinearLoss",
    "make_neighbour",
    "remove_sample",
    "uniform",
    "dynamic",
    "pgd_influence",
    "dynamic_pgd",
    "dynamic_pgd_closed_form",
    "exponential",
    "exponential_for_budget",
    "total_cost",
    "MCResult",
    "budget_steps",
    "pgd",
    "pgd_budgeted",
    "coupled_pgd",
    "gd",
    "pgd_quadratic_moments",
    "pgd_quadratic_variance",
    "pgd_quadratic_mean_var",
    "momentum_pgd",
    "momentum_quadratic_moments",
    "momentum_quadratic_mean_var",
    "momentum_quadratic_velocity",
    "psgd",
    "minibatch_grad",
    "sampling_noise_moments",
    "index_rng",
]
from .huber import HuberRegression  # noqa: E402
from .output_perturbation import add_noise, norm_laplace, norm_laplace_moments, output_perturbation, output_perturbation_quadratic_excess  # noqa: E402,E501
from .random_round import random_round_linear, random_round_probabilities, random_round_quadratic, random_round_quadratic_constant, random_round_sgd, trajectory_average  # noqa: E402,E501
__all__ += ["HuberRegression", "add_noise", "norm_laplace", "norm_laplace_moments", "output_perturbation", "output_perturbation_quadratic_excess", "random_round_linear", "random_round_probabilities", "random_round_quadratic", "random_round_quadratic_constant", "random_round_sgd", "trajectory_average"]  # noqa: E501
from .adaptive import AdaptiveResult, adaptive_gd, adaptive_moments, quadratic_path_moments  # noqa: E402,F401
