"""The update rules' steps compiled for the kernels: :func:`update_step` runs the step of the rule with
code ``code`` (:attr:`UpdateRule.CODE`), each rule's own ``step`` (one definition for NumPy and the
kernels, :mod:`dpverify.sim.updates.base`) inlined.

A new rule is a module of :mod:`dpverify.sim.updates` with its class, plus one line here and its file in
:data:`dpverify.sim.jit.KERNEL_SOURCES` (its step is compiled, so its source names the kernels' cache).
"""
from __future__ import annotations

from ..jit import numba
from .heavy_ball import HeavyBall
from .momentum import BiasCorrectedMomentum
from .plain import Plain

__all__ = ["heavy_ball_step", "momentum_step", "plain_step", "update_step"]

if numba is not None:
    from ..jit import inline

    #: each rule's step, compiled (inlined into its caller)
    plain_step = inline(Plain.step)
    momentum_step = inline(BiasCorrectedMomentum.step)
    heavy_ball_step = inline(HeavyBall.step)
    _MOMENTUM, _HEAVY_BALL = BiasCorrectedMomentum.CODE, HeavyBall.CODE

    @inline
    def update_step(code, th, aux, g, eta, pa, pb):
        """``(th', aux')``: the step of the rule whose ``CODE`` is ``code``."""
        if code == _MOMENTUM:
            return momentum_step(th, aux, g, eta, pa, pb)
        if code == _HEAVY_BALL:
            return heavy_ball_step(th, aux, g, eta, pa, pb)
        return plain_step(th, aux, g, eta, pa, pb)
