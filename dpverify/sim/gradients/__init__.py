"""Gradient sources: where a step's gradient comes from (:class:`GradientSource`), each with its
sampling covariance, one kind a module:

* :class:`FullGradient`: every sample every step;
* :class:`MiniBatch`: the mean of ``batch`` per-sample gradients drawn with replacement or without
  (:class:`OneSample`: one a step);

any of them with its per-sample gradients clipped to a norm (``clip=``, :meth:`GradientSource.clipped`:
DP-GD and DP-SGD).  An algorithm is a gradient source and an update rule (:mod:`dpverify.sim.updates`)
on a problem: :func:`dpverify.sim.descent.simulate`.
"""
from .base import GradientSource
from .full import FullGradient
from .minibatch import (MiniBatch, OneSample, minibatch_grad, sample_without_replacement, sampling_noise_moments,
                        wor_batch_variance)

__all__ = ["FullGradient", "GradientSource", "MiniBatch", "OneSample", "minibatch_grad", "sample_without_replacement",
           "sampling_noise_moments", "wor_batch_variance"]
