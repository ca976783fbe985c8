"""dpverify.sim.influence: the influence of a sample against exact leave-one-out (Sherman-Morrison).
(Moved from tests/test_hdp.py.)"""
from __future__ import annotations

import numpy as np

from dpverify.sim import LeastSquares, remove_sample
from dpverify.sim import influence as inf


def test_influence_against_exact_leave_one_out():
    """Least squares: leave-one-out by Sherman-Morrison; the influence error shrinks like 1/n^2 (the ratio
    of the maximal errors at n and 4n is between 4 and 64 on i.i.d. data)."""
    rng = np.random.default_rng(0)
    X, y = rng.normal(size=(50, 3)) / 2, rng.normal(size=50)
    p = LeastSquares(X, y, 0.01)
    A = X.T @ X + 0.01 * 50 * np.eye(3)
    for r in range(5):
        x, yy = X[r], y[r]
        res = x @ p.theta_star - yy
        sm = np.linalg.solve(A - np.outer(x, x) - 0.01 * np.eye(3), x * res + 0.01 * p.theta_star)
        assert np.allclose(remove_sample(p, r).theta_star - p.theta_star, sm, rtol=1e-8, atol=1e-12)
    errs = []
    for n in (50, 200):
        rng = np.random.default_rng(1)
        X, y = rng.normal(size=(n, 3)) / 2, rng.normal(size=n)
        errs.append(inf.influence_errors(LeastSquares(X, y, 0.01)).max())
    assert 4 < errs[0] / errs[1] < 64
