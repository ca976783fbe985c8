"""Monte Carlo and exact-moment simulator of noisy (private) gradient methods.

An algorithm is made of parts (:func:`~dpverify.sim.descent.simulate`): a **problem**
(:mod:`.problems`: ``Quadratic``, ``LeastSquares``, ``LogisticRegression``, ...), a **gradient source**
(:mod:`.gradients`: the full gradient, mini-batches with or without replacement, one sample, each clipped
per sample or not, with its sampling covariance) and an **update rule** (:mod:`.updates`: plain,
bias-corrected momentum, heavy ball, each with its state, its step and its exact moments)::

    g_t = grad_t(theta_t) + s_t z_t,   (theta_{t+1}, aux_{t+1}) = update.step(theta_t, aux_t, g_t, eta_t),

``z_t ~ N(0, I)``, ``s_t`` the noise standard deviation per coordinate.  The exact moments of any
combination on problems whose per-sample gradients are affine follow from the parts
(:func:`~dpverify.sim.moments.exact_moments`).

Modules
-------
problems      the objectives (a room of their own), neighbouring data sets
gradients     gradient sources: FullGradient, MiniBatch, OneSample (clip=)
updates       update rules: Plain, BiasCorrectedMomentum, HeavyBall; their compiled steps
descent       simulate (any problem, source and rule) and its NumPy paths; descent_kernels beside it
algorithms    the named compositions: pgd, momentum_pgd, heavy_ball_pgd, psgd, coupled_pgd, gd
moments       exact moments on quadratics (pgd_quadratic_*, momentum_*, heavy_ball_*, exact_moments);
              moments_mp in mpmath; sgd_moments for one-sample SGD on least squares
random_round, step_decay, adaptive, gated_sgd, output_perturbation
              the other algorithms, each with its compiled kernels beside it (*_kernels)
rng           per-block random generators (SFC64, SeedSequence streams per block)
parallel      worker threads: set_workers / get_workers (env DPVERIFY_WORKERS)
results       MCResult: per-block moments of a per-run statistic, combined (NaN-guarded)
driver        the loop every Monte Carlo simulator shares; fused: the fused paths' arguments
jit, draws    numba (decorators, the content-keyed cache) and the kernels' random numbers; set_fused
schedules     uniform (the budget spent evenly) and total_cost; a paper keeps its own schedules

Every Monte Carlo simulator takes ``workers`` (default: all CPUs, within a CPU quota) and
``chunk_runs``; neither changes any result for a given seed.  How many steps a
privacy budget allows is decided outside the simulator
(:func:`dpverify.privacy.steps.steps_within_budget`).
"""

from typing import TYPE_CHECKING

from ..lazy import attach

if TYPE_CHECKING:  # the public names; each is imported on first use (dpverify.lazy)
    from .adaptive import AdaptiveResult, NormRule, adaptive_gd
    from .adaptive_exact import adaptive_moments, adaptive_path_moments, quadratic_path_moments
    from .algorithms import FUSED_PATHS, coupled_pgd, gd, heavy_ball_pgd, momentum_pgd, pgd, psgd
    from .descent import simulate
    from .draws import fused_enabled, numba_available, set_fused
    from .gradients import (FullGradient, GradientSource, MiniBatch, OneSample, minibatch_grad,
                            sample_without_replacement, sampling_noise_moments, wor_batch_variance)
    from .moments import (ExactMoments, exact_moments, heavy_ball_quadratic_mean_var, momentum_quadratic_mean_var,
                          momentum_quadratic_moments, momentum_quadratic_velocity, pgd_quadratic_mean_var,
                          pgd_quadratic_moments, pgd_quadratic_variance)
    from .moments_mp import heavy_ball_moments_mp
    from .output_perturbation import (add_noise, norm_laplace, norm_laplace_moments, output_perturbation,
                                      output_perturbation_quadratic_excess)
    from .parallel import get_workers, set_workers
    from .problems import (CosineSum, HuberRegression, LeastSquares, LinearLoss, Logistic, LogisticRegression, Problem,
                           Quadratic, SeparableLoss, make_neighbour, remove_sample)
    from .random_round import (random_round_linear, random_round_probabilities, random_round_quadratic,
                               random_round_quadratic_constant, random_round_sgd, trajectory_average)
    from .results import MCResult
    from .rng import BLOCK, block_rng, index_rng, iter_chunks, sfc64_state
    from .schedules import total_cost, uniform
    from .step_decay import coupled_step_decay_sgd, output_rng, phase_schedule, step_decay_sgd
    from .step_decay_moments import step_decay_quadratic_moments
    from .updates import BiasCorrectedMomentum, HeavyBall, Plain, UpdateRule

__getattr__, __dir__, __all__ = attach(__name__, __file__)
