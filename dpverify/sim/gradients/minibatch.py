"""Mini-batches: the mean of ``batch`` per-sample gradients drawn uniformly, with replacement (DP-SGD's
usual sampling; :class:`OneSample` is ``batch = 1``) or without (a uniform ``batch``-subset a step), each
per-sample gradient clipped to norm ``clip`` first when given.

Mini-batch gradient and normaliser
----------------------------------
The batch average is ``problem.batch_grad(theta, idx, clip)``: for a linear model
(:class:`~dpverify.sim.problems.LinearModel`) the plain batch average of the per-sample gradients
times ``n_samples / normaliser``, so that ``E[grad_hat] = problem.grad(theta, clip)`` also for
:func:`~dpverify.sim.problems.remove_sample` data sets (whose ``normaliser`` stays at the original ``N``).
The sampling noise ``xi = grad_hat - E[grad_hat]`` has covariance :meth:`MiniBatch.covariance_factor`
times ``Cov(grad f(theta; x_J))`` (``J`` uniform): ``1 / batch`` with replacement,
``(n - batch) / (batch (n - 1))`` without (:func:`wor_batch_variance`); :func:`sampling_noise_moments`
gives its trace for batches drawn with replacement.

Randomness
----------
A block's indices come from its index stream (:func:`~dpverify.sim.rng.index_rng`), an array of
shape ``(rows, batch)`` a step: ``Generator.integers`` with replacement (the fused kernels draw the same
indices with the same algorithm), Floyd's algorithm or random keys without
(:func:`sample_without_replacement`).
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from ..problems import LinearModel, check_data_problem
from ..validation import check_int, check_real
from .base import GradientSource

__all__ = ["MiniBatch", "OneSample", "minibatch_grad", "sample_without_replacement", "sampling_noise_moments",
           "wor_batch_variance"]


@dataclass(frozen=True)
class MiniBatch(GradientSource):
    """The mean of ``batch`` per-sample gradients drawn uniformly with replacement (``replace=True``) or
    without, clipped to norm ``clip`` first when given (module docstring).  Without replacement a batch of
    all the samples (or more) is the full gradient: nothing is drawn.

    >>> MiniBatch(4).covariance_factor(100), MiniBatch(4, replace=False).covariance_factor(5)
    (0.25, 0.0625)
    """

    batch: Any = 1
    replace: bool = True
    clip: float | None = None
    samples = True
    SCENARIO_PARAMS = {"batch": "batch"}

    def __post_init__(self):
        if isinstance(self.batch, (int, np.integer)) and not isinstance(self.batch, bool):
            check_int("batch", self.batch)

    @property
    def name(self) -> str:
        how = "with" if self.replace else "without"
        return f"mini-batches of {self.batch} drawn {how} replacement"

    def check(self, problem) -> None:
        if not (callable(getattr(problem, "batch_grad", None)) and getattr(problem, "n_samples", None)):
            check_data_problem(problem)      # names the problem: a data problem is needed
        check_int("batch", self.batch)
        if not self.replace and self.batch > problem.n_samples:
            raise ValueError(f"batch = {self.batch} exceeds n_samples = {problem.n_samples} (drawn without replacement)")

    def _full(self, problem) -> bool:
        return not self.replace and self.batch >= problem.n_samples

    def draw(self, problem, irng, rows):
        if self.replace:
            return irng.integers(0, problem.n_samples, size=(rows, self.batch))
        if self._full(problem):
            return None
        return sample_without_replacement(irng, problem.n_samples, self.batch, rows)

    def gradient(self, problem, theta, idx):
        if idx is None:                    # every sample: the full gradient
            return problem.grad(theta, self.clip)
        return problem.batch_grad(theta, idx, self.clip)

    def covariance_factor(self, n):
        if self.replace:
            return 1.0 / self.batch
        return wor_batch_variance(1.0, n, self.batch)

    def at(self, values) -> "MiniBatch":
        """The numeric source at a point: the batch is the claim's value rounded, at least 1."""
        return MiniBatch(max(1, int(round(float(values["batch"])))), self.replace, self.clip)


@dataclass(frozen=True)
class OneSample(MiniBatch):
    """One uniformly drawn sample a step (``MiniBatch(1)``), clipped to norm ``clip`` when given."""

    batch: Any = 1
    SCENARIO_PARAMS = {}
    name = "one sample a step"

    def at(self, values) -> "OneSample":
        return self


def _check_clip(clip: object) -> float | None:
    return None if clip is None else check_real("clip", clip, positive=True)


def minibatch_grad(problem: LinearModel, theta: object, indices: object,
                   clip: float | None = None) -> np.ndarray:
    """Mini-batch gradient of PSGD for given batches.

    Parameters
    ----------
    problem : LeastSquares, LogisticRegression or LinearLoss
    theta : array_like, shape (rows, D)
    indices : array_like of int, shape (rows, n)
        Row ``i`` of the output uses samples ``indices[i]`` (repeats allowed).
    clip : float, optional
        Clip each per-sample gradient to norm ``clip`` before averaging.

    Returns
    -------
    ndarray, shape (rows, D)
        ``(n_samples / normaliser) (1/n) sum_j grad f(theta_i; x_{indices[i, j]})``
        (the plain average for a full data set).
    """
    problem = check_data_problem(problem)
    theta = problem.check_theta(theta)
    if theta.ndim != 2:
        raise ValueError(f"theta must have shape (rows, {problem.dim}), got shape {theta.shape}")
    idx = np.asarray(indices)
    if (idx.ndim != 2 or idx.shape[0] != theta.shape[0] or idx.shape[1] == 0
            or not np.issubdtype(idx.dtype, np.integer)):
        raise ValueError(f"indices must be an integer array of shape ({theta.shape[0]}, n) "
                         f"with n >= 1, got {indices!r}")
    if idx.size and (idx.min() < 0 or idx.max() >= problem.n_samples):
        raise ValueError(f"indices must lie in [0, n_samples={problem.n_samples}), "
                         f"got range [{idx.min()}, {idx.max()}]")
    return problem.batch_grad(theta, idx, _check_clip(clip))


def sampling_noise_moments(problem: LinearModel, theta: object, batch: int,
                           clip: float | None = None) -> tuple[np.ndarray, np.ndarray]:
    """Mean and covariance trace of the PSGD mini-batch gradient at *theta*.

    With ``J`` uniform on the samples, the mini-batch gradient of ``batch``
    i.i.d. draws has (exactly)

        mean  = problem.grad(theta, clip)                  (the full gradient),
        trace = tr Cov(grad_hat) = c^2 tr Cov(grad f(theta; x_J)) / batch,

    with ``c = n_samples / normaliser`` (1 for a full data set).  Written as
    ``grad_hat = grad + sigma_g xi / n`` with ``E xi = 0`` and
    ``E ||xi||^2 <= D`` (a sampling-noise model), this holds with equality for
    ``sigma_g = batch * sqrt(trace / D)``, the smallest admissible
    ``sigma_g`` at this ``theta``.

    Parameters
    ----------
    problem : LeastSquares, LogisticRegression or LinearLoss
    theta : array_like, shape (..., D)
    batch : int
        Batch size ``n >= 1``.
    clip : float, optional
        Per-sample clipping norm.

    Returns
    -------
    mean : ndarray, shape (..., D)
    trace : ndarray, shape (...)

    Notes
    -----
    Materialises the ``(..., N, D)`` per-sample gradients (centred before
    squaring, so no cancellation).
    """
    problem = check_data_problem(problem)
    theta = problem.check_theta(theta)
    batch = check_int("batch", batch)
    clip = _check_clip(clip)
    g = problem.per_sample_grads(theta, clip)                         # (..., N, D)
    centred = g - g.mean(axis=-2, keepdims=True)
    c = problem.n_samples / problem.normaliser
    trace = c * c * np.einsum("...nd,...nd->...", centred, centred) / (problem.n_samples * batch)
    return problem.grad(theta, clip), trace


def sample_without_replacement(rng: np.random.Generator, n: int, batch: int, rows: int) -> np.ndarray:
    """``rows`` independent uniform subsets of size ``batch`` of ``{0..n-1}``, shape ``(rows, batch)``.

    Floyd's algorithm vectorised over rows (``O(rows batch^2)``) for small batches, random keys
    otherwise (``O(rows n)``); each row is a uniformly distributed ``batch``-subset (in no
    particular order).
    """
    n, batch, rows = check_int("n", n), check_int("batch", batch), check_int("rows", rows, minimum=0)
    if batch > n:
        raise ValueError(f"batch = {batch} exceeds n = {n}")
    if batch > 48 and batch * batch > n:
        keys = rng.random((rows, n))
        return np.argpartition(keys, batch - 1, axis=1)[:, :batch].astype(np.int64)
    out = np.empty((rows, batch), dtype=np.int64)
    dup = np.empty(rows, dtype=bool)
    eq = np.empty(rows, dtype=bool)
    for k, j in enumerate(range(n - batch, n)):
        r = rng.integers(0, j + 1, size=rows)
        if k:
            np.equal(out[:, 0], r, out=dup)
            for kk in range(1, k):
                np.equal(out[:, kk], r, out=eq)
                dup |= eq
            r[dup] = j
        out[:, k] = r
    return out


def wor_batch_variance(sample_var, n: int, batch: int):
    """Variance of the mean of ``batch`` of ``n`` values drawn without replacement, given their
    (population, 1/n) variance ``sample_var``: ``sample_var (n - batch) / (batch (n - 1))``."""
    n, batch = check_int("n", n), check_int("batch", batch)
    if batch >= n:
        return 0 * sample_var
    return sample_var * (n - batch) / (batch * (n - 1))
