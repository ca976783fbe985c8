"""dpverify.scenarios.stability.step_decay: the stability scenario's measured gap against a hand computation on a
deterministic instance. (Moved from tests/test_stage.py; Theorem 3.3 of theorems.stage is only a fixture.)"""
from __future__ import annotations

import math

import numpy as np
import pytest

from dpverify.scenarios import bind
from theorems.stage import claims as C

Z99 = 3.29  # two-sided 0.999 normal quantile: every Monte Carlo tolerance below is Z99 standard errors


def test_stability_gap_by_hand_on_a_deterministic_instance():
    """Full batches (B = n), no noise, no non-convex part and no momentum: the coupled iterates are deterministic, the
    output is either of the stage's two iterates with probability 1/2, and the gap at iterate t is the difference of
    the quadratic parts plus A |w_t - w'_t| (the universe's best z)."""
    sc = bind(C.THM_3_3.statements[0].scenario, C.THM_3_3)
    pt = {"K": 1, "T0": 1, "t0": 1, "rho": 0.5, "c4": 1.0, "theta": 2.0, "mu": 1.0, "beta": 1.0, "L": 1.0, "d": 1,
          "n": 4, "B": 4, "pi": 1e-300}
    inst = sc._complete({"point": pt, "lam": 1.0, "A": 0.5, "bmax": 0.0, "start": 0.5, "data_seed": 0, "D": 1, "n": 4})
    inst = {**inst, "point": {**inst["point"], "rho": 1e-300}}     # momentum has no effect
    eta = sc._sched(inst["point"])[0][0]
    pa, pb = sc._problems(inst)
    wa, wb, gaps = np.array([0.5]), np.array([0.5]), []
    for _ in range(2):   # T^1 = 2 steps
        wa, wb = wa - eta * pa.grad(wa[None])[0], wb - eta * pb.grad(wb[None])[0]
        gaps.append((wa[0] ** 2 - wb[0] ** 2) / 2 + 0.5 * abs(wa[0] - wb[0]))
    runs = 20000
    value, var = sc.measure(inst, runs, 3)
    assert abs(value - np.mean(gaps)) <= Z99 * abs(gaps[1] - gaps[0]) / 2 / math.sqrt(runs)
    assert var == pytest.approx((gaps[1] - gaps[0]) ** 2 / 4, rel=0.05)
