"""The interface every simulator objective shares (:class:`Problem`), used by the simulators of
:mod:`dpverify.sim`:

``dim``
    Parameter dimension ``D``.
``mu``, ``M``
    PL / strong-convexity constant and smoothness constant of the empirical
    loss ``f``.
``f_star``
    ``min f`` (``-inf`` for :class:`~dpverify.sim.problems.LinearLoss`).
``value(theta)``
    ``theta`` of shape ``(..., D)`` (typically ``(runs, D)``) -> ``(...)``.
``grad(theta, clip=None)``
    Mean gradient ``(1/N) sum_n grad f(theta; x_n)`` of shape ``(..., D)``;
    with ``clip=C`` every per-sample gradient is first scaled to norm at most
    ``C`` (per-sample gradient clipping).
``affine_samples()``
    Where every per-sample gradient is affine in ``theta``, ``grad f(theta; x_j) = H_j theta - c_j``:
    ``(H, c, weights)`` (the exact moments of :mod:`dpverify.sim.moments` need them); ``None`` otherwise.

Problems are immutable: attributes cannot be reassigned and stored arrays are
read-only.
"""

from __future__ import annotations

import numpy as np

__all__ = ["Problem", "readonly"]


def readonly(arr: np.ndarray) -> np.ndarray:
    """Return a read-only float64 copy of *arr*."""
    out = np.array(arr, dtype=np.float64, copy=True)
    out.setflags(write=False)
    return out


class Problem:
    """Base class of simulator objectives (immutable after construction)."""

    _frozen = False
    dim: int
    mu: float
    M: float
    f_star: float

    def __setattr__(self, name: str, value: object) -> None:
        if self._frozen:
            raise AttributeError(f"{type(self).__name__} is immutable; cannot set {name!r}")
        object.__setattr__(self, name, value)

    def _freeze(self) -> None:
        object.__setattr__(self, "_frozen", True)

    def check_theta(self, theta: object) -> np.ndarray:
        """Return *theta* as a float array of shape ``(..., dim)``."""
        arr = np.asarray(theta, dtype=np.float64)
        if arr.ndim == 0 or arr.shape[-1] != self.dim:
            raise ValueError(
                f"theta must have shape (..., {self.dim}) for {type(self).__name__}, "
                f"got shape {arr.shape}"
            )
        return arr

    def value(self, theta: np.ndarray) -> np.ndarray:  # pragma: no cover - abstract
        raise NotImplementedError

    def grad(self, theta: np.ndarray, clip: float | None = None) -> np.ndarray:  # pragma: no cover
        raise NotImplementedError

    def affine_samples(self):
        """``(H, c, w)`` when every per-sample gradient is affine, ``grad f(theta; x_j) = H_j theta - c_j``
        (``H`` ``(n, D, D)``, ``c`` ``(n, D)``), as the mean gradient weighs them: ``grad F = sum_j w_j
        grad f(theta; x_j)`` and a mini-batch's gradient is their mean over the drawn ``j``; ``None``
        otherwise (the default).  :func:`dpverify.sim.moments.exact_moments` needs them."""
        return None

    def excess(self, theta: np.ndarray) -> np.ndarray:
        """Excess risk ``f(theta) - f_star`` (the default simulator statistic)."""
        return self.value(theta) - self.f_star
