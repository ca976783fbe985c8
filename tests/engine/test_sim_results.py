"""The Monte Carlo result type: block moments combined (dpverify.sim.results.MCResult)."""
from __future__ import annotations

import math

import numpy as np
import pytest

from dpverify import sim
from dpverify.sim.results import MCResult, block_moments, exact_sum
from dpverify.sim.rng import BLOCK


def _moments(x: np.ndarray) -> list[tuple]:
    return [block_moments(x[lo:lo + BLOCK], len(x[lo:lo + BLOCK])) for lo in range(0, len(x), BLOCK)]


@pytest.mark.parametrize("n", [1, 2, 7, BLOCK, BLOCK + 1, 5 * BLOCK + 333])
@pytest.mark.parametrize("shift", [0.0, 1e6])
def test_block_combination_equals_one_pass_mean_and_variance(n, shift):
    x = shift + np.random.default_rng(n).standard_normal(n) * 3.0
    res = MCResult.from_block_moments(_moments(x), seed=0, steps=0)
    assert res.runs == n
    assert res.sum == pytest.approx(math.fsum(x), rel=1e-14, abs=1e-12)
    assert res.mean == pytest.approx(math.fsum(x) / n, rel=1e-14, abs=1e-15)
    assert res.sumsq == pytest.approx(math.fsum(x * x), rel=1e-14)
    if n == 1:
        assert math.isnan(res.var) and math.isnan(res.stderr)
    else:
        # The centred sums keep full relative accuracy even with a large common shift.
        assert res.var == pytest.approx(np.var(x, ddof=1), rel=1e-10)
        assert res.stderr == pytest.approx(math.sqrt(np.var(x, ddof=1) / n), rel=1e-10)


def test_combination_does_not_depend_on_how_blocks_are_stacked():
    x = np.random.default_rng(3).standard_normal(3 * BLOCK + 17)
    rows = _moments(x)
    a = MCResult.from_block_moments(rows, seed=1, steps=2)
    b = MCResult.from_block_moments(np.array(rows), seed=1, steps=2)
    assert (a.runs, a.mean, a.var, a.sum, a.sumsq) == (b.runs, b.mean, b.var, b.sum, b.sumsq)
    assert (a.seed, a.steps) == (1, 2)


def _with(values, n=3 * BLOCK):
    x = np.random.default_rng(0).standard_normal(n)
    for i, v in values.items():
        x[i] = v
    return MCResult.from_block_moments(_moments(x), seed=0, steps=0)


def test_nan_in_a_block_gives_nan_mean_and_variance():
    res = _with({BLOCK + 5: np.nan})
    assert math.isnan(res.mean) and math.isnan(res.var) and math.isnan(res.sum)


def test_infinities_of_one_sign_give_an_infinite_mean_and_nan_variance():
    res = _with({3: np.inf, 2 * BLOCK: np.inf})
    assert res.mean == math.inf and math.isnan(res.var)
    res = _with({3: -np.inf})
    assert res.mean == -math.inf and math.isnan(res.var)


def test_infinities_of_both_signs_give_nan_not_an_exception():
    res = _with({3: np.inf, 2 * BLOCK: -np.inf})          # math.fsum would raise ValueError
    assert math.isnan(res.mean) and math.isnan(res.var) and math.isnan(res.sum)


def test_overflowing_finite_sums_give_inf_not_an_exception():
    assert exact_sum([1e308, 1e308]) == math.inf           # math.fsum raises OverflowError
    assert exact_sum([1e308, 1e308, -1e308]) == 1e308      # intermediate overflow, representable total
    assert exact_sum([-1e308, -1e308]) == -math.inf
    assert exact_sum([0.1, 0.2, 0.3]) == math.fsum([0.1, 0.2, 0.3])


@pytest.mark.parametrize("moments", [np.zeros((0, 4)), [[0, 0.0, 0.0, 0.0]], [[2, 1.0, 1.0, 0.0], [-1, 0.0, 0.0, 0.0]]])
def test_bad_block_counts_raise(moments):
    with pytest.raises(ValueError, match="^moments "):
        MCResult.from_block_moments(moments, seed=0, steps=0)


def test_block_moments_checks_the_statistic_shape():
    with pytest.raises(ValueError, match="^statistic "):
        block_moments(np.zeros((3, 2)), 3)


# --------------------------------------------------------------------------- every simulator uses it

_Q = sim.Quadratic([0.5, 1.0], theta_star=[1.0, -1.0])
_RUNS = 2 * BLOCK + 10


def _opposite_infinities(th, *tracks):
    """+inf on the first run of every block, -inf on the second, finite elsewhere."""
    x = np.sum(th, axis=1)
    x[0], x[1] = np.inf, -np.inf
    return x


_SIMULATORS = {
    "pgd": lambda stat: sim.pgd(_Q, [0.0, 0.0], 0.3, [0.1] * 4, _RUNS, 1, statistic=stat),
    "pgd numpy": lambda stat: sim.pgd(_Q, [0.0, 0.0], 0.3, [0.1] * 4, _RUNS, 1, statistic=stat, fast_path=False),
    "momentum_pgd": lambda stat: sim.momentum_pgd(_Q, [0.0, 0.0], 0.3, [0.1] * 4, 0.5, _RUNS, 1, statistic=stat),
    "psgd": lambda stat: sim.psgd(sim.LinearLoss(np.eye(2)), [0.0, 0.0], 0.3, [0.1] * 4, 2, _RUNS, 1,
                                  statistic=stat),
    "output_perturbation": lambda stat: sim.output_perturbation(_Q, [0.0, 0.0], 0.3, 4, "gaussian", 0.1, _RUNS, 1,
                                                                statistic=stat),
    "random_round_sgd": lambda stat: sim.random_round_sgd(_Q, [0.0, 0.0], [0.3] * 4, [0.25] * 4, 0.1, _RUNS, 1,
                                                          statistic=stat),
    "step_decay_sgd": lambda stat: sim.step_decay_sgd(_Q, [0.0, 0.0], [0.3], [4], [0], 0.0, 0.1, None, _RUNS, 1,
                                                      statistic=stat).mc,
    "adaptive_gd": lambda stat: sim.adaptive_gd(_Q, [0.0, 0.0], lambda t, g: (0.3, 0.1), 4, _RUNS, 1,
                                                statistic=stat),
}


@pytest.mark.parametrize("name", sorted(_SIMULATORS))
def test_every_simulator_returns_the_guarded_result(name):
    res = _SIMULATORS[name](_opposite_infinities)
    assert isinstance(res, MCResult) and res.runs == _RUNS
    assert math.isnan(res.mean) and math.isnan(res.var)
    finite = _SIMULATORS[name](lambda th, *tr: np.sum(th, axis=1))
    assert math.isfinite(finite.mean) and finite.var > 0


# --------------------------------------------------------------------------- stored values

# Results of the simulators before the result type was shared (and before pgd took noise
# standard deviations): bit for bit, on the NumPy paths (no numba, no BLAS involved).
_TH = np.array([0.3, -0.2, 0.1])
_QS = sim.Quadratic([0.2, 0.5, 1.0], theta_star=[1.0, -2.0, 0.5], f_star=0.25)
_SIG = np.linspace(0.5, 1.5, 12)


def _hex(res):
    return [float(v).hex() for v in (res.mean, res.var, res.sum, res.sumsq)]


def test_results_are_bit_identical_to_stored_values():
    G, N = 3.0, 7.0
    res = sim.pgd(_QS, _TH, 0.2, _SIG * (G / N), 3000, 1, fast_path=False)
    assert _hex(res) == ["0x1.ef4968b235390p-4", "0x1.44d7037ec2b9ap-8", "0x1.6ac2442e85fb4p+8",
                         "0x1.d5d66a9afc1cap+5"]
    res = sim.momentum_pgd(_QS, _TH, 0.2, _SIG * (G / N), 0.6, 1500, 1, fast_path=False)
    assert _hex(res) == ["0x1.699e86a46bce5p-4", "0x1.6e4525268f204p-9", "0x1.08db9b9d6cf5ap+7",
                         "0x1.fc2c9f50a5fe4p+3"]
    res = sim.output_perturbation(_QS, np.zeros(3), 0.25, 7, "norm_laplace", 0.3, 3000, 1)
    assert _hex(res) == ["0x1.fce0fa6b0758dp-2", "0x1.c76e6000c378fp-3", "0x1.74b6c76963e19p+10",
                         "0x1.5ff30043c39f6p+10"]
    res = sim.adaptive_gd(_QS, _TH, lambda t, g: (0.3, 0.2 * g + 0.1), 10, 2500, 5)
    assert _hex(res) == ["0x1.b28f84849eae5p-5", "0x1.066797d574b1dp-11", "0x1.093c18a1f1d9ep+7",
                         "0x1.09245eccfc114p+3"]
