"""Scenarios: how an expectation, sensitivity, stability or privacy statement meets the simulator.

Grouped by what they measure and speaking the language of optimisation (problem class, step size,
noise standard deviation, dimension, horizon); each claim maps these onto its own symbols with
keyword arguments, so a ready-made scenario is one line::

    noisy_gd(problem="pl", smooth=M, curvature=mu, step=eta, noise_std=s, dim=D, horizon=T, init_gap=Delta)
    gaussian_mechanism(sensitivity=Delta, noise_std=s, order=a, measure="renyi_over_order")

* :mod:`.expectations`: expectations of algorithms (noisy gradient descent from parts, adaptive,
  step-decay, random-round and one-sample SGD, output perturbation), exact on quadratics and Monte Carlo;
* :mod:`.privacy`: privacy of mechanisms and algorithms (accountants, exact profiles, audits);
* :mod:`.sensitivity`: sensitivities searched over data;
* :mod:`.stability`: uniform stability by coupled runs on neighbouring data sets;
* :mod:`.worst_case`: the worst case of a noise-free first-order method over a whole function class
  (performance estimation, ``worst_case``);
* what they share: :mod:`.base` (the interface :class:`Scenario` and :class:`MappedScenario`),
  :mod:`.immutable`, :mod:`.points` (Monte Carlo points), :mod:`.montecarlo` (the one Monte Carlo path),
  :mod:`.point` (:class:`PointScenario`: a quantity computed at the claim's point by a function of the
  caller's), :mod:`.params` (the parameter maps), :mod:`.data` (the ready-made data problems),
  :mod:`.measuring` and :mod:`.sampling`.
"""

from typing import TYPE_CHECKING

from ..lazy import attach

if TYPE_CHECKING:  # the public names; each is imported on first use (dpverify.lazy)
    from .base import MappedScenario, Scenario, bind
    from .data import CosineData, ERMData, LogisticData, SeparableData, aligned_data, classification_data
    from .expectations.adaptive import AdaptiveGD, adaptive_gd, measured_constants
    from .expectations.gd import NoisyGD, noisy_gd
    from .expectations.one_sample_sgd import OneSampleSGD, one_sample_sgd, seeded_least_squares
    from .expectations.output_perturbation import OutputPerturbationGD, output_perturbation_gd
    from .expectations.random_round import RandomRoundSGD, random_round_sgd
    from .expectations.step_decay import StepDecaySGD, step_decay_risk
    from .params import ParamMap
    from .point import PointScenario
    from .points import MCPoint
    from .privacy.audit import DPAudit, dp_audit
    from .privacy.budget_filter import BudgetFilterGD, budget_filter_gd
    from .privacy.gaussian import GaussianMechanism, gaussian_eps_at, gaussian_mechanism
    from .privacy.gd import (GaussianRenyi, NoisyGDAudit, ScheduleGDPrivacy, gaussian_renyi, gd_schedule_privacy,
                             measured_sensitivity, noisy_gd_audit)
    from .privacy.mechanisms import AdditiveNoise, additive_noise
    from .privacy.one_sample_sgd import SingleSampleSGDPrivacy, eps_at_delta, linear_pair_sampler, single_sample_sgd_privacy
    from .privacy.output_perturbation import OutputPerturbationPrivacy, output_perturbation_privacy
    from .privacy.sampled_gaussian import SampledGaussianPrivacy, sampled_gaussian
    from .privacy.subsampled import SubsampledDP, subsampled_dp
    from .sampling import seeded_search
    from .sensitivity.gd import GDSensitivity, LinearModelLoss, gd_sensitivity
    from .sensitivity.squared_loss import SquaredLossSensitivity, squared_loss_sensitivity
    from .stability.gd import CoupledStability, coupled_stability
    from .stability.step_decay import StepDecayStability, step_decay_stability
    from .worst_case import WorstCase, worst_case

__getattr__, __dir__, __all__ = attach(__name__, __file__)
