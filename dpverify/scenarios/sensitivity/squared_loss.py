"""Gradient sensitivity of a loss over a ball of parameters, searched over data sets.

``squared_loss_sensitivity``: the remove-one sensitivity ``max_n ||grad f(theta; x_n)|| / N`` of
the squared loss ``1/2 (x^T theta - 1)^2`` on centred data of maximum norm 1, for ``||theta|| <= B``.
Parameters: ``radius`` (B) and ``n_samples`` (N). The data and theta are drawn by Hypothesis.
"""
from __future__ import annotations

import numpy as np
from hypothesis import strategies as st

from ... import sim
from ..base import MappedScenario
from ..measuring import computed

__all__ = ["SquaredLossSensitivity", "squared_loss_sensitivity"]


class SquaredLossSensitivity(MappedScenario):
    REQUIRED = ("radius", "n_samples")
    name = "squared loss on centred data of maximum norm 1"

    def _values(self, pt):
        return self.map.scalar("radius", pt), int(round(self.map.scalar("n_samples", pt)))

    def strategy(self):
        def build(pt, draw):
            B, n = self._values(pt)
            d = draw(st.integers(1, 3))
            rows = draw(st.lists(st.lists(st.floats(-1, 1), min_size=d, max_size=d), min_size=n, max_size=n))
            X = np.asarray(rows, float)
            X = X - X.mean(axis=0)
            m = np.linalg.norm(X, axis=1).max()
            if m < 1e-3:
                X = np.zeros((n, d))
                X[0, 0], X[1 % n, 0] = 1.0, -1.0
            else:
                X = X / m
            direction = draw(st.lists(st.floats(-1, 1), min_size=d, max_size=d).filter(
                lambda v: sum(x * x for x in v) > 1e-6))
            r = draw(st.floats(0, 1))
            u = np.asarray(direction) / np.linalg.norm(direction)
            return {"point": pt, "X": X.tolist(), "theta": (u * r * B).tolist()}

        return self.instances_from(build)

    def point(self, inst):
        return inst["point"]

    def make_instance(self, point):
        self._require_bound()
        B, n = self._values(point)
        X = np.zeros((n, 1))
        X[0, 0], X[1 % n, 0] = 1.0, -1.0
        return {"point": dict(point), "X": X.tolist(), "theta": [-float(B)]}

    def measure(self, inst, runs, seed):
        _, n = self._values(inst["point"])
        X = np.asarray(inst["X"], float)
        p = sim.LeastSquares(X, np.ones(len(X)))
        norms = p.per_sample_grad_norms(np.asarray(inst["theta"], float)[None, :])
        return computed(float(norms.max()) / n, ops=4 * X.shape[1] + 8)

    def describe(self, inst):
        return (f"squared loss, N={len(inst['X'])}, D={len(inst['theta'])}, "
                f"||theta||={np.linalg.norm(inst['theta']):.4g}")


def squared_loss_sensitivity(**params) -> SquaredLossSensitivity:
    """Remove-one gradient sensitivity of the squared loss, in a claim's own symbols."""
    return SquaredLossSensitivity(params)
