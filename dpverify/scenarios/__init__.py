"""Scenarios: how an expectation, sensitivity, stability or privacy statement meets the simulator.

Grouped by algorithm family and speaking the language of optimisation (problem class, step size,
noise standard deviation, dimension, horizon); each claim maps these onto its own symbols with
keyword arguments, so a ready-made scenario is one line::

    noisy_gd(problem="pl", smooth=M, curvature=mu, step=eta, noise_std=s, dim=D, horizon=T, init_gap=Delta)
    gaussian_mechanism(sensitivity=Delta, noise_std=s, order=a, measure="renyi_over_order")

* :mod:`.gd`: noisy gradient descent (plain, bias-corrected momentum, mini-batch), exact moments on
  quadratics and Monte Carlo on quadratics or logistic regression;
* :mod:`.stability`: uniform stability by coupled runs on neighbouring data sets;
* :mod:`.sensitivity`: gradient sensitivity of a loss, searched over data;
* :mod:`.worst_case`: the worst case of a noise-free first-order method over a whole function class
  (performance estimation, ``worst_case``);
* :mod:`.privacy`: the Gaussian mechanism, amplification by subsampling (``subsampled_dp``), noisy GD
  under a zCDP budget filter, and an empirical privacy audit of any algorithm (``dp_audit``);
* :mod:`.base`: the interface, :class:`PointScenario` (a quantity computed at the claim's point by
  a function of the caller's) and the parameter maps.
"""

from typing import TYPE_CHECKING

from .._lazy import attach

if TYPE_CHECKING:  # the public names; each is imported on first use (dpverify._lazy)
    from .base import MappedScenario, ParamMap, PointScenario, Scenario, bind
    from .gd import LogisticData, MCPoint, NoisyGD, classification_data, noisy_gd
    from .privacy import (BudgetFilterGD, DPAudit, GaussianMechanism, SubsampledDP, budget_filter_gd, dp_audit,
                          gaussian_mechanism, subsampled_dp)
    from .sensitivity import SquaredLossSensitivity, squared_loss_sensitivity
    from .stability import CoupledStability, coupled_stability
    from .step_decay import SeparableData, StepDecaySGD, StepDecayStability, step_decay_risk, step_decay_stability
    from .gd_sensitivity import GDSensitivity, gd_sensitivity
    from .mechanisms import AdditiveNoise, additive_noise
    from .output_perturbation import ERMData, OutputPerturbationGD, OutputPerturbationPrivacy, output_perturbation_gd, output_perturbation_privacy
    from .random_round import RandomRoundSGD, SampledGaussianPrivacy, random_round_sgd, sampled_gaussian
    from .adaptive import AdaptiveGD, CosineData, adaptive_gd, measured_constants
    from .worst_case import WorstCase, worst_case

__getattr__, __dir__, __all__ = attach(__name__, __file__)
