"""Scenarios that measure uniform stability (``SupBound``) by coupled runs on neighbouring data sets.

* :mod:`.gd`: noisy gradient descent (and SGD) -- ``coupled_stability``;
* :mod:`.step_decay`: step-decay SGD with early momentum -- ``step_decay_stability``.
"""
