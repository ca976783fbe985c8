"""Shared by the simulator tests: bit-identity of two Monte Carlo results."""
import math

import numpy as np


def same_result(a, b):
    """Bit-identical MCResults (moments and final iterates)."""
    assert (a.runs, a.steps, a.seed) == (b.runs, b.steps, b.seed)
    assert a.mean == b.mean and a.sum == b.sum and a.sumsq == b.sumsq
    assert a.var == b.var or (math.isnan(a.var) and math.isnan(b.var))
    if a.thetas is not None or b.thetas is not None:
        assert np.array_equal(a.thetas, b.thetas)
