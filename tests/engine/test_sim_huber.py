"""dpverify.sim.problems.linear: the Huber regression problem (minimiser, gradient against central differences), and the
linear-model losses of the sensitivity search agreeing with the simulator's problems. (Moved from
tests/test_erm.py.)"""
from __future__ import annotations

import numpy as np

from dpverify import sim
from dpverify.scenarios import LinearModelLoss


def test_huber_problem_and_gradient_models_agree():
    rng = np.random.default_rng(3)
    X, y = rng.normal(size=(30, 3)), 3 * rng.standard_t(2, size=30)
    h = sim.HuberRegression(X, y, 0.05)
    assert np.linalg.norm(h.grad(h.theta_star)) < 1e-8
    w = rng.normal(size=3)
    g_fd = np.array([(h.value(w + 1e-6 * e) - h.value(w - 1e-6 * e)) / 2e-6 for e in np.eye(3)])
    assert np.allclose(h.grad(w[None, :])[0], g_fd, atol=1e-6)
    ycls = np.where(y > 0, 1.0, -1.0)
    for fam, prob in (("huber", h), ("least_squares", sim.LeastSquares(X, y, 0.05)),
                      ("logistic", sim.LogisticRegression(X, ycls, 0.05))):
        lm = LinearModelLoss(fam, X, ycls if fam == "logistic" else y, 0.05)
        assert np.allclose(lm.grad(w[None, :]), prob.grad(w[None, :]), atol=1e-12)
