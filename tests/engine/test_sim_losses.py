"""dpverify.sim.problems.losses: values and gradients (against central differences) of the logistic loss and the
cosine sum. (Moved from tests/test_pur.py; the Iris data of theorems.pur is only a fixture.)"""
from __future__ import annotations

import numpy as np

from dpverify.sim.problems import CosineSum, Logistic
from theorems.pur import data


def test_logistic_value_and_grad_and_cosine_gradient():
    X, y = data.load("iris")
    p = Logistic(X, y, 0.1)
    th = np.random.default_rng(0).normal(size=(5, p.dim))
    f, g = p.value_and_grad(th)
    assert np.allclose(f, p.value(th)) and np.allclose(g, p.grad(th))
    h = 1e-6
    fd = np.array([(p.value(th + h * e) - p.value(th - h * e)) / (2 * h) for e in np.eye(p.dim)]).T
    assert np.allclose(fd, g, atol=1e-7)
    c = CosineSum([1.0, 0.5, 0.25])
    th = np.array([[2.0, -1.0, 0.5]])
    fd = np.array([(c.value(th + h * e) - c.value(th - h * e)) / (2 * h) for e in np.eye(3)]).T
    assert np.allclose(fd, c.grad(th), atol=1e-8)
    assert c.M == 1.0 and c.f_star == 0.0
