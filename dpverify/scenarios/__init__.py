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
from .base import MappedScenario, ParamMap, PointScenario, Scenario, bind
from .gd import LogisticData, MCPoint, NoisyGD, classification_data, noisy_gd
from .privacy import (BudgetFilterGD, DPAudit, GaussianMechanism, SubsampledDP, budget_filter_gd, dp_audit,
                      gaussian_mechanism, subsampled_dp)
from .sensitivity import SquaredLossSensitivity, squared_loss_sensitivity
from .stability import CoupledStability, coupled_stability
from .step_decay import SeparableData, StepDecaySGD, StepDecayStability, step_decay_risk, step_decay_stability  # noqa: F401

__all__ = [
    "BudgetFilterGD", "CoupledStability", "DPAudit", "dp_audit", "GaussianMechanism", "LogisticData", "MCPoint", "MappedScenario",
    "NoisyGD", "ParamMap", "PointScenario", "Scenario", "SquaredLossSensitivity", "bind", "budget_filter_gd",
    "classification_data", "coupled_stability", "gaussian_mechanism", "noisy_gd", "squared_loss_sensitivity",
    "SubsampledDP", "subsampled_dp",
]
from .gd_sensitivity import GDSensitivity, gd_sensitivity  # noqa: E402
from .mechanisms import AdditiveNoise, additive_noise  # noqa: E402
from .output_perturbation import ERMData, OutputPerturbationGD, OutputPerturbationPrivacy, output_perturbation_gd, output_perturbation_privacy  # noqa: E402,E501
from .random_round import RandomRoundSGD, SampledGaussianPrivacy, random_round_sgd, sampled_gaussian  # noqa: E402
__all__ += ["AdditiveNoise", "ERMData", "GDSensitivity", "OutputPerturbationGD", "OutputPerturbationPrivacy", "RandomRoundSGD", "SampledGaussianPrivacy", "additive_noise", "gd_sensitivity", "output_perturbation_gd", "output_perturbation_privacy", "random_round_sgd", "sampled_gaussian"]  # noqa: E501
from .adaptive import AdaptiveGD, CosineData, adaptive_gd, measured_constants  # noqa: E402,F401
__all__ += ["AdaptiveGD", "CosineData", "SeparableData", "StepDecaySGD", "StepDecayStability", "adaptive_gd",
            "measured_constants", "step_decay_risk", "step_decay_stability"]
from .worst_case import WorstCase, worst_case  # noqa: E402
__all__ += ["WorstCase", "worst_case"]
