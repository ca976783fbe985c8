"""Monte Carlo and exact-moment simulator of private gradient descent.

Implements the noisy gradient descent of [dni, eq. (1)] with the privacy
accounting of [dni, Algorithm 1] and the noise schedules of [dni, Sec. 4.1]
(``dni`` = seed paper ``000_155fea93f75f24eb``).

Modules
-------
rng         chunk-invariant per-block random generators
problems    Quadratic, LeastSquares, LogisticRegression, LinearLoss, adjacency helpers
schedules   uniform, dynamic, pgd_influence, dynamic_pgd, exponential schedules (sigma_t)
algorithms  budget_steps, pgd, pgd_budgeted, coupled_pgd, gd, MCResult
moments     exact moments of PGD on diagonal quadratics
momentum    momentum_pgd (bias-corrected momentum, eq. (10)) and its exact quadratic moments
sgd         psgd (private SGD, Sec. 4.3), minibatch_grad, sampling_noise_moments
"""

from .algorithms import MCResult, budget_steps, coupled_pgd, gd, pgd, pgd_budgeted
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
from .rng import BLOCK, block_rng, iter_chunks
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

__all__ = [
    "BLOCK",
    "block_rng",
    "iter_chunks",
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
from .adaptive import AdaptiveResult, adaptive_gd, adaptive_moments, quadratic_path_moments  # noqa: E402,F401
