"""Scenarios that measure an algorithm's expectation (``ExpectationBound``): exactly on quadratics where the
moments close, by Monte Carlo on data problems.

* :mod:`.gd`: noisy gradient descent from parts (plain, momentum, heavy ball; full gradients or
  mini-batches, clipped or not) -- ``noisy_gd``;
* :mod:`.adaptive`: noisy GD whose step and noise follow the gradient norm -- ``adaptive_gd``;
* :mod:`.step_decay`: step-decay SGD with early momentum -- ``step_decay_risk``;
* :mod:`.random_round`: random-round noisy SGD -- ``random_round_sgd``;
* :mod:`.output_perturbation`: gradient descent then one draw of noise -- ``output_perturbation_gd``;
* :mod:`.one_sample_sgd`: noisy SGD with one sample a step on least squares -- ``one_sample_sgd``.
"""
