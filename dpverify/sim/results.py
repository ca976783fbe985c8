"""Summary of a Monte Carlo run: per-block moments of a per-run statistic, combined.

Every Monte Carlo simulator of :mod:`dpverify.sim` reduces its per-run
statistic block by block (:data:`~dpverify.sim.rng.BLOCK` runs) to the block's
*moments* ``(count, sum, sum of squares, M2)``, with ``M2`` the centred sum of
squares ``sum (x - block mean)^2`` (:func:`block_moments`), and combines them,
in block order, into an :class:`MCResult` (:meth:`MCResult.from_block_moments`):

* ``sum`` and ``sumsq``: exactly rounded sums (``math.fsum``) of the block
  values, so the result does not depend on how blocks were grouped into chunks
  or workers;
* ``mean = sum / runs``;
* ``var``: the pairwise (Chan et al.) combination
  ``M2 = sum_b [M2_b + n_b (mean_b - mean)^2]`` (an exact identity), divided by
  ``runs - 1``; it has no ``sumsq - sum^2 / n`` cancellation.

Non-finite statistics
---------------------
A block whose statistic is ``nan`` somewhere has a ``nan`` sum, and a
statistic that is ``+inf`` in some runs and ``-inf`` in others has no sum:
both give ``mean = nan`` (never an exception, never a finite number).
``+inf`` (or ``-inf``) alone gives ``mean = +inf`` (``-inf``), the value of
the sample mean.  Whenever the mean is not finite the variance is ``nan``.
Finite block sums whose total overflows give ``+-inf`` rather than the
``OverflowError`` of ``math.fsum``.  For finite data nothing changes: the sums
are ``math.fsum`` of the block values.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass, field

import numpy as np

__all__ = ["MCResult", "block_moments", "exact_sum"]

#: Scale for sums that overflow in ``math.fsum`` (a power of two: scaling is exact).
_SCALE = 2.0 ** 64


def exact_sum(values: Iterable[float]) -> float:
    """Exactly rounded sum of *values* (``math.fsum``), defined for non-finite values.

    ``nan`` if any value is ``nan`` or values of both infinite signs occur;
    ``+-inf`` if infinite values of one sign occur or the finite total
    overflows; else ``math.fsum(values)``.
    """
    vals = [float(v) for v in values]
    if not all(math.isfinite(v) for v in vals):
        if any(math.isnan(v) for v in vals):
            return math.nan
        signs = {v > 0 for v in vals if math.isinf(v)}
        return math.nan if len(signs) == 2 else (math.inf if True in signs else -math.inf)
    try:
        return math.fsum(vals)
    except OverflowError:   # an intermediate partial overflowed: sum at a smaller exact scale
        return math.fsum(v / _SCALE for v in vals) * _SCALE


def block_moments(x: object, rows: int) -> tuple[int, float, float, float]:
    """``(rows, sum, sum of squares, centred M2)`` of one block's per-run statistic *x*.

    *x* must have shape ``(rows,)`` (the statistic's contract); non-finite
    values propagate quietly (see the module docstring).
    """
    x = np.asarray(x, dtype=np.float64)
    if x.shape != (rows,):
        raise ValueError(
            f"statistic must map thetas of shape ({rows}, D) to shape ({rows},), got shape {x.shape}"
        )
    add = np.add.reduce      # np.sum's own reduction, without its dispatch (a third of the time here)
    with np.errstate(invalid="ignore", over="ignore"):
        s = float(add(x))
        centred = x - s / rows
        return rows, s, float(add(x * x)), float(add(centred * centred))


@dataclass(frozen=True)
class MCResult:
    """Summary of a Monte Carlo run of a per-run statistic.

    Attributes
    ----------
    runs : int
        Number of runs.
    mean : float
        Sample mean of the statistic (``nan`` or ``+-inf`` for non-finite
        statistics, see the module docstring).
    var : float
        Unbiased sample variance (``nan`` when ``runs == 1`` or the mean is
        not finite), from per-block centred sums.
    sum, sumsq : float
        Sum of the statistic and of its square over all runs.
    seed : int
        Master seed.
    steps : int
        Number of steps that were run.
    thetas : ndarray or None
        Final iterates, shape ``(runs, D)``, when ``return_thetas=True``.
    """

    runs: int
    mean: float
    var: float
    sum: float
    sumsq: float
    seed: int
    steps: int
    thetas: np.ndarray | None = field(default=None, repr=False, compare=False)

    @property
    def stderr(self) -> float:
        """Standard error of the mean, ``sqrt(var / runs)``."""
        return math.sqrt(self.var / self.runs) if self.runs > 1 else math.nan

    @classmethod
    def from_block_moments(cls, moments: object, *, seed: int, steps: int, **fields) -> MCResult:
        """Combine per-block moments, given in block order, into a result.

        Parameters
        ----------
        moments : array_like, shape (B, 4)
            Rows ``(count, sum, sum of squares, M2)`` of the blocks
            (:func:`block_moments`), ``B >= 1``, every count positive.
        seed, steps : int
            Stored as given.
        **fields
            Further fields of *cls* (``thetas``; a subclass's own fields).
        """
        m = np.asarray(moments, dtype=np.float64).reshape(-1, 4)
        n, s, s2, m2 = m.T
        if m.shape[0] == 0 or not np.all(n > 0):
            raise ValueError(f"moments must hold at least one block with a positive count, got counts {n}")
        runs = int(n.sum())
        total = exact_sum(s)
        mean = total / runs
        if math.isfinite(mean):
            # Exact decomposition sum (x - mean)^2 = sum_b [M2_b + n_b (mean_b - mean)^2].
            with np.errstate(invalid="ignore", over="ignore"):
                dev = s / n - mean
                m2_total = exact_sum(m2 + n * (dev * dev))
            var = m2_total / (runs - 1) if runs > 1 else math.nan
        else:
            var = math.nan
        return cls(runs=runs, mean=mean, var=var, sum=total, sumsq=exact_sum(s2), seed=seed,
                   steps=steps, **fields)
