"""The interface of an update rule: how a noisy gradient moves the iterate.

Noisy gradient descent is ``g_t = grad_t + s_t z_t`` (a gradient source's gradient plus Gaussian noise)
followed by an update rule; the rule is optax's ``GradientTransformation`` for this family: a state of
its own beside the iterate (``init``), a step (``step``), and the exact moments on quadratics.

* ``step(th, aux, g, eta, pa, pb) -> (th', aux')``: **one definition** for both paths, plain
  arithmetic on its arguments: NumPy arrays on the NumPy path (:meth:`UpdateRule.numpy_step`), floats in
  the compiled kernels (:mod:`dpverify.sim.updates.compiled` compiles it, and the kernels inline it
  per coordinate).  ``aux`` is the rule's state of the coordinate (a velocity, the previous iterate,
  unused by the plain rule), ``pa``/``pb`` its parameters at the step (:meth:`UpdateRule.params_at`;
  ``step_params`` gives them for every step, as the kernels take them).  The same operations in the same
  order on both paths: the NumPy and fused paths draw the same noise and give the same bits wherever they
  compute the gradient the same way.
* ``transition(eta, t) -> (A, B)``: the step as a linear map of the state ``z = (theta, aux)`` per
  coordinate, ``z' = A z + B g`` (``A`` k x k, ``B`` k; the iterate first): from it and a gradient
  source's sampling covariance :func:`dpverify.sim.moments.exact_moments` propagates the mean and second
  moment of any rule with any source on a problem whose per-sample gradients are affine.
* ``quadratic_moments(eigs, delta1, etas, noise_stds, dps)``: the per-direction mean and variance of
  ``theta_{T+1} - theta*`` on a diagonal quadratic with full gradients, each rule's own closed recursion
  (vectorised, or in mpmath at ``dps`` digits).

A rule may hold expressions instead of numbers (a scenario's rule, in a claim's symbols):
:meth:`UpdateRule.scenario_params` names them as scenario parameters and :meth:`UpdateRule.at` gives the
numeric rule at a point.
"""
from __future__ import annotations

import abc
import dataclasses

import numpy as np

__all__ = ["UpdateRule"]


class UpdateRule(abc.ABC):
    """How a noisy gradient moves the iterate (module docstring)."""

    #: the index of the rule's compiled step in :mod:`dpverify.sim.updates.compiled`
    CODE: int = -1
    #: whether the state starts at the iterate (heavy ball's previous iterate) rather than at 0
    AUX_FROM_THETA = False
    #: the rule's fields that are scenario parameters (field -> parameter name)
    SCENARIO_PARAMS: dict = {}
    #: how many state blocks a coordinate has in :meth:`transition` (the iterate and ``aux``)
    STATE = 1
    #: what else :meth:`quadratic_moments` gives, which a scenario may observe
    OBSERVABLES: tuple = ()
    name = ""

    # ------------------------------------------------------------------ the step
    @staticmethod
    @abc.abstractmethod
    def step(th, aux, g, eta, pa, pb):
        """``(th', aux')`` after one step with the noisy gradient ``g`` and step size ``eta``."""

    def check(self, T: int) -> None:
        """Raise ``ValueError`` (naming the parameter) unless the rule's parameters are numbers it can
        run ``T`` steps with."""

    def init(self, theta: np.ndarray) -> np.ndarray:
        """The rule's state beside ``theta`` before the first step."""
        return theta.copy() if self.AUX_FROM_THETA else np.zeros_like(theta)

    def params_at(self, t: int) -> tuple[float, float]:
        """``(pa, pb)`` of step ``t`` (1-based)."""
        return 0.0, 0.0

    def step_params(self, T: int) -> tuple[np.ndarray, np.ndarray]:
        """``(pa, pb)`` of steps ``1..T``, float64 arrays (the kernels' arguments)."""
        pa, pb = np.empty(T), np.empty(T)
        for t in range(1, T + 1):
            pa[t - 1], pb[t - 1] = self.params_at(t)
        return pa, pb

    def numpy_step(self, theta: np.ndarray, aux: np.ndarray, g: np.ndarray, eta: float, t: int) -> None:
        """One step in place on the arrays ``theta`` and ``aux`` (``g``, the noisy gradient, may be
        overwritten): :meth:`step` on arrays."""
        new_theta, new_aux = self.step(theta, aux, g, eta, *self.params_at(t))
        if new_aux is not aux:
            aux[...] = new_aux        # before theta: the new state may be the old iterate itself
        theta[...] = new_theta

    # ------------------------------------------------------------------ exact moments
    @abc.abstractmethod
    def transition(self, eta: float, t: int) -> tuple[np.ndarray, np.ndarray]:
        """``(A, B)`` of step ``t``: ``z' = A z + B g`` per coordinate, ``z = (theta, aux)`` (module docstring)."""

    @abc.abstractmethod
    def quadratic_moments(self, eigs, delta1, etas, noise_stds, dps=None):
        """``(lam, m, s2, extra)``: the eigenvalues and the mean and variance of ``theta_{T+1} - theta*``
        per direction of a diagonal quadratic (full gradients, noise ``noise_stds[t]`` per coordinate),
        and what else the recursion gives (``None``, or the velocity's ``E||v_{t+1}||^2``)."""

    # ------------------------------------------------------------------ in a scenario
    def scenario_params(self) -> dict:
        """The rule's expressions as scenario parameters (parameter name -> expression)."""
        return {name: getattr(self, f) for f, name in self.SCENARIO_PARAMS.items()}

    def at(self, values) -> "UpdateRule":
        """The numeric rule at a point: each scenario parameter's value from ``values``."""
        return dataclasses.replace(self, **{f: values[name] for f, name in self.SCENARIO_PARAMS.items()})

    def describe(self) -> str:
        return self.name

    def summary(self) -> str:
        """The rule's parameters for an evidence line (``" beta=0.5"``; empty for a rule without any)."""
        return ""
