"""The interface of a gradient source: where a step's gradient comes from, before the noise is added.

A source draws what it needs from the block's index stream (:func:`dpverify.sim.rng.index_rng`: one
array of sample indices a step, for the block's rows, before the step's gradients), evaluates the
gradient at each row's iterate, and knows its **sampling covariance**: the covariance of its gradient
around the full gradient, a multiple (:meth:`GradientSource.covariance_factor`) of the covariance of
one uniformly drawn per-sample gradient, which :meth:`GradientSource.sampling_covariance` evaluates at
a point and :func:`dpverify.sim.moments.exact_moments` propagates exactly where per-sample gradients are
affine.  Clipping (``clip=C``) scales every per-sample gradient to norm at most ``C`` before averaging.

A source may hold expressions instead of numbers (a scenario's source, in a claim's symbols):
:meth:`GradientSource.scenario_params` names them as scenario parameters and :meth:`GradientSource.at`
gives the numeric source at a point.
"""
from __future__ import annotations

import abc
import dataclasses

import numpy as np

__all__ = ["GradientSource"]


class GradientSource(abc.ABC):
    """Where a step's gradient comes from (module docstring)."""

    #: whether the source draws sample indices (from the block's index stream)
    samples = False
    #: the source's fields that are scenario parameters (field -> parameter name)
    SCENARIO_PARAMS: dict = {}
    clip = None
    name = ""

    def check(self, problem) -> None:
        """Raise ``ValueError`` (naming the parameter) when the source cannot draw from ``problem``."""

    def draw(self, problem, irng: np.random.Generator, rows: int) -> np.ndarray | None:
        """The sample indices of one step of a block of ``rows`` runs (``None``: the source draws none)."""
        return None

    @abc.abstractmethod
    def gradient(self, problem, theta: np.ndarray, idx: np.ndarray | None) -> np.ndarray:
        """The gradient at every row of ``theta`` (``(rows, D)``), with the step's indices ``idx``."""

    @abc.abstractmethod
    def covariance_factor(self, n: int) -> float:
        """The covariance of the source's gradient around the full gradient, as a multiple of the
        (population) covariance of one uniformly drawn per-sample gradient, on ``n`` samples."""

    def sampling_covariance(self, problem, theta) -> np.ndarray:
        """The covariance ``(D, D)`` of the source's gradient at the point ``theta`` (``(D,)``): the
        covariance factor times that of the per-sample gradients (``problem.per_sample_grads``, clipped
        with ``clip``, weighed as the mean gradient weighs them: ``n_samples / normaliser``); zero where
        nothing is sampled."""
        theta = np.asarray(theta, dtype=float)
        n = getattr(problem, "n_samples", None)
        factor = 0.0 if n is None else self.covariance_factor(n)
        if factor == 0.0:
            return np.zeros((theta.shape[-1], theta.shape[-1]))
        g = problem.per_sample_grads(theta, self.clip)
        c = n / getattr(problem, "normaliser", n)
        centred = g - g.mean(axis=0)
        return (factor * c * c / n) * (centred.T @ centred)

    # ------------------------------------------------------------------ in a scenario
    def scenario_params(self) -> dict:
        """The source's expressions as scenario parameters (parameter name -> expression)."""
        return {name: getattr(self, f) for f, name in self.SCENARIO_PARAMS.items()}

    def at(self, values) -> "GradientSource":
        """The numeric source at a point: each scenario parameter's value from ``values``."""
        return dataclasses.replace(self, **{f: values[name] for f, name in self.SCENARIO_PARAMS.items()})

    def clipped(self, clip: float) -> "GradientSource":
        """The same source with its per-sample gradients clipped to norm ``clip``."""
        return dataclasses.replace(self, clip=clip)

    def describe(self) -> str:
        return self.name + ("" if self.clip is None else f", per-sample gradients clipped to norm {self.clip:g}")
