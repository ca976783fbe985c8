"""Update rules: how a noisy gradient moves the iterate (:class:`UpdateRule`; optax's
``GradientTransformation`` for noisy gradient descent), one rule a module:

* :class:`Plain`: ``theta <- theta - eta g``;
* :class:`BiasCorrectedMomentum`: Adam's first moment with its bias correction;
* :class:`HeavyBall`: Polyak's heavy ball, its momentum a number or one per step (step-decay SGD's
  early momentum).

Each has its state, its step (one definition, run on NumPy arrays and compiled into the kernels by
:mod:`.compiled`), its transition for the exact moments of :func:`dpverify.sim.moments.exact_moments` and
its closed recursion on diagonal quadratics.  An algorithm is an update rule and a gradient source
(:mod:`dpverify.sim.gradients`) on a problem (:mod:`dpverify.sim.problems`):
:func:`dpverify.sim.descent.simulate`.
"""
from .base import UpdateRule
from .heavy_ball import HeavyBall
from .momentum import BiasCorrectedMomentum
from .plain import Plain

__all__ = ["BiasCorrectedMomentum", "HeavyBall", "Plain", "UpdateRule"]
