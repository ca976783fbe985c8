"""Scenarios that measure a sensitivity (``SupBound``), searched over data sets.

* :mod:`.gd`: the sensitivity of full-batch gradient descent on neighbouring data sets -- ``gd_sensitivity``;
* :mod:`.squared_loss`: the gradient sensitivity of the squared loss -- ``squared_loss_sensitivity``.
"""
