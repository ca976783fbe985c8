"""Monte Carlo and exact-moment simulator of noisy (private) gradient methods.

Noisy gradient descent ``theta_{t+1} = theta_t - eta_t (grad f(theta_t) + s_t z_t)``
with time-varying steps ``eta_t`` and noise standard deviations ``s_t``
(``z_t ~ N(0, I)``), optional per-sample gradient clipping, its momentum and
mini-batch variants, and the uniform noise schedule.

Modules
-------
rng         per-block random generators (SFC64, SeedSequence streams per block)
parallel    worker threads: set_workers / get_workers (env DPVERIFY_WORKERS)
results     MCResult: per-block moments of a per-run statistic, combined (NaN-guarded)
kernels     fused numba kernels and their random number source; set_fused
problems    Quadratic, LeastSquares, LogisticRegression, LinearLoss, adjacency helpers
schedules   uniform (the budget spent evenly) and total_cost; a paper keeps its own schedules
algorithms  pgd, coupled_pgd, gd
moments     exact moments of noisy GD on diagonal quadratics
momentum    momentum_pgd (bias-corrected momentum) and its exact quadratic moments
heavy_ball  heavy_ball_pgd (Polyak's heavy-ball momentum) and its exact quadratic moments
sgd         psgd (noisy mini-batch SGD), minibatch_grad, sampling_noise_moments

Every Monte Carlo simulator takes ``workers`` (default: all CPUs, within a CPU quota) and
``chunk_runs``; neither changes any result for a given seed.  How many steps a
privacy budget allows is decided outside the simulator
(:func:`dpverify.privacy.steps.steps_within_budget`).
"""

from typing import TYPE_CHECKING

from .._lazy import attach

if TYPE_CHECKING:  # the public names; each is imported on first use (dpverify._lazy)
    from .adaptive import AdaptiveResult, NormRule, adaptive_gd, adaptive_moments, quadratic_path_moments
    from .algorithms import FUSED_PATHS, coupled_pgd, gd, pgd
    from .heavy_ball import heavy_ball_moments_mp, heavy_ball_pgd, heavy_ball_quadratic_mean_var
    from .draws import fused_enabled, numba_available, set_fused
    from .moments import pgd_quadratic_mean_var, pgd_quadratic_moments, pgd_quadratic_variance
    from .momentum import (momentum_pgd, momentum_quadratic_mean_var, momentum_quadratic_moments,
                           momentum_quadratic_velocity)
    from .output_perturbation import (add_noise, norm_laplace, norm_laplace_moments, output_perturbation,
                                      output_perturbation_quadratic_excess)
    from .parallel import get_workers, set_workers
    from .problems import (CosineSum, HuberRegression, LeastSquares, LinearLoss, Logistic, LogisticRegression, Problem,
                           Quadratic, SeparableLoss, make_neighbour, remove_sample)
    from .random_round import (random_round_linear, random_round_probabilities, random_round_quadratic,
                               random_round_quadratic_constant, random_round_sgd, trajectory_average)
    from .results import MCResult
    from .rng import BLOCK, block_rng, iter_chunks, sfc64_state
    from .schedules import total_cost, uniform
    from .sgd import index_rng, minibatch_grad, psgd, sampling_noise_moments
    from .step_decay import (coupled_step_decay_sgd, phase_schedule, step_decay_quadratic_moments,
                             step_decay_sgd)

__getattr__, __dir__, __all__ = attach(__name__, __file__)
