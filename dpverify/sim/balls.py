"""mpmath numbers into python-flint balls and back, for the exact recursions that run in ball arithmetic
(:mod:`.adaptive_exact`, :mod:`.step_decay_moments`)."""
from __future__ import annotations

import mpmath
import numpy as np

__all__ = ["mpf_of", "to_arb"]


def to_arb(x):
    """``x`` (an mpmath, int or float number, or anything ``mpmath.mpf`` reads, at mpmath's working precision) as a
    python-flint ``arb``: its mantissa times a power of two, exact where it fits flint's working precision, else a
    ball around it."""
    import flint

    if isinstance(x, (int, np.integer)):
        return flint.arb(int(x))
    if not isinstance(x, mpmath.mpf):   # an mpf is taken as it is, not rounded to mpmath's working precision
        x = mpmath.mpf(x)
    if not mpmath.isfinite(x):
        raise ValueError(f"not a finite number: {x}")
    man, exp = x.man_exp                      # mpmath's mantissa is unsigned
    return flint.arb(flint.arf((-int(man) if x < 0 else int(man), int(exp))))


def mpf_of(x):
    """An exact python-flint ``arb`` (a ball's midpoint or radius) as an ``mpf``, exactly."""
    man, exp = x.man_exp()
    return mpmath.mpf((int(man), int(exp)))
