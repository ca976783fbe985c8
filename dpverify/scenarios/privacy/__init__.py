"""Scenarios that measure privacy (``SupBound``): exact or bounded by an accountant, or estimated by an audit.

* :mod:`.gaussian`: the Gaussian mechanism -- ``gaussian_mechanism``;
* :mod:`.mechanisms`: additive-noise mechanisms on every neighbouring shift -- ``additive_noise``;
* :mod:`.subsampled`: amplification by subsampling -- ``subsampled_dp``;
* :mod:`.sampled_gaussian`: the sampled Gaussian mechanism (noisy SGD, one sample or a Poisson sample a
  step) -- ``sampled_gaussian``;
* :mod:`.gd`: noisy gradient descent with a noise schedule, accounted and audited --
  ``gd_schedule_privacy``, ``gaussian_renyi``, ``noisy_gd_audit``;
* :mod:`.budget_filter`: noisy GD under a zCDP budget filter -- ``budget_filter_gd``;
* :mod:`.one_sample_sgd`: noisy SGD with one sample a step -- ``single_sample_sgd_privacy``,
  ``linear_pair_sampler``;
* :mod:`.output_perturbation`: output perturbation on neighbouring data sets --
  ``output_perturbation_privacy``;
* :mod:`.audit`: an empirical audit of any algorithm -- ``dp_audit``.
"""
from .gaussian import GaussianMechanism
from .subsampled import SubsampledDP

__all__ = ["GaussianMechanism", "SubsampledDP"]
