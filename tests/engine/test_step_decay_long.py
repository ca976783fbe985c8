"""Step-decay moments over stages of 2^30 steps: a phase's segments come from its breakpoints (the same runs as
step by step), and a long run without momentum has its peak second moment bounded from above, never below."""
from __future__ import annotations

import numpy as np

from dpverify.sim import step_decay_moments as sdm


def _stepwise(T, m, output):
    acc = [output == "after" or (output == "before" and t < T) or (output == "last" and t == T) for t in range(1, T + 1)]
    segs = []
    for t in range(T):
        key = (t + 1 <= m, acc[t])
        if segs and tuple(segs[-1][1:]) == key:
            segs[-1][0] += 1
        else:
            segs.append([1, *key])
    return segs


def test_segments_are_the_stepwise_runs_and_cost_nothing_for_a_long_phase():
    for T in range(1, 25):
        for m in range(0, 28):
            for output in ("after", "before", "last"):
                assert sdm._segments(T, m, output) == _stepwise(T, m, output)
    assert sdm._segments(2**30 * 16, 2**20, "before") == [[2**20, True, True], [2**34 - 2**20 - 1, False, True],
                                                          [1, False, False]]


def test_the_peak_of_a_long_run_is_bounded_above_and_exact_below_the_cut():
    eigs, delta0, noise = [0.3, 1.0], [2.0, -0.5], [4.0, 0.5]
    n = sdm.LONG + 3000
    exact_peak = None
    # the exact peak by the full trajectory, for comparison
    lam, v, c = eigs, noise, [0.0, 0.0]
    M = np.asarray(sdm._step_matrices(lam, 0.01, 0.0, v, c, True, 1.0, 0.0))
    y = sdm._phase_state(np.array(delta0) ** 2, np.array(delta0), "after")
    Y = sdm._trajectory(M, y, n)
    exact_peak = np.maximum(np.array(delta0) ** 2, Y[:, 0, :].max(axis=1))
    got = sdm.peak_second_moment(eigs, delta0, [0.01], [n], [0], 0.0, noise, None, "after")
    assert np.all(got >= exact_peak * (1 - 1e-12))
    assert np.all(got <= 2 * exact_peak)          # a bound, not a blow-up: mean and variance move monotonically
    short = sdm.peak_second_moment(eigs, delta0, [0.01], [sdm.LONG], [0], 0.0, noise, None, "after")
    Ys = sdm._trajectory(M, y, sdm.LONG)
    assert np.allclose(short, np.maximum(np.array(delta0) ** 2, Ys[:, 0, :].max(axis=1)), rtol=1e-12)
