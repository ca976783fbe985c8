"""The adversarial search over a data problem's instance parameters: ``search.climb`` (deterministic for a
seed, within its budget, never worse than its starts), the data moves of ``noisy_gd`` (inside the class:
feature norms at most the data's scale) and the Monte Carlo check's use of it (the instance found is
measured with the point's own seed, never the search's)."""
from __future__ import annotations

from pathlib import Path

import numpy as np

from dpverify import registry
from dpverify.checks import Config
from dpverify.checks import monte_carlo
from dpverify.scenarios import LogisticData, bind
from dpverify.scenarios.gd import aligned_data
from dpverify.search import climb

TEXTBOOK = str(Path(__file__).resolve().parents[1] / "textbook" / "claims.py")


def _quadratic(x):
    return float(np.sum((np.asarray(x) - 3.0) ** 2))


def _move(x, rng, scale):
    return np.asarray(x) + scale * rng.normal(size=2)


def test_climb_is_deterministic_within_budget_and_never_worse_than_its_starts():
    a = climb([np.zeros(2), np.ones(2)], _move, _quadratic, 40, seed=5)
    b = climb([np.zeros(2), np.ones(2)], _move, _quadratic, 40, seed=5)
    assert a.evaluations == b.evaluations <= 40
    assert np.array_equal(a.best, b.best) and a.score == b.score
    assert a.score <= a.start_score == _quadratic(np.ones(2))
    assert a.score < 0.5 * a.start_score          # 38 steps of a Gaussian walk on a bowl improve it
    assert climb([np.zeros(2)], _move, lambda x: float("nan"), 10, seed=0) is None


def test_aligned_data_removes_the_direction_and_keeps_the_class():
    rng = np.random.default_rng(0)
    X = rng.normal(size=(20, 3))
    Y = aligned_data(X, (0.0, 0.0, 1.0), 2.0)
    assert np.allclose(Y[:, 2], 0.0)
    assert np.isclose(np.linalg.norm(Y, axis=1).max(), 2.0)
    assert np.array_equal(aligned_data(X, (), 2.0), X)


def test_a_moved_data_problem_is_measured_again():
    spec = LogisticData(n=50, d=3, lam=0.05, start=(1.0, 0.0, 0.0), align=(1.0, 0.0, 0.0))
    m = spec.measured()
    at_zero = LogisticData(n=50, d=3, lam=0.05, align=(1.0, 0.0, 0.0)).measured()
    # no data along the start's direction: moving theta_1 from 0 to e_1 adds exactly the ridge's lam/2
    assert np.isclose(m["init_gap"] - at_zero["init_gap"], 0.05 / 2, rtol=1e-9)
    assert m["feature_norm"] <= 1.0 + 1e-12


def test_the_monte_carlo_check_measures_the_chosen_instance_afresh():
    claim = registry.get("textbook/thm-gd-logistic-data-fast-rate", [str(TEXTBOOK)])
    stmt = claim.statements[0]
    ev = monte_carlo.check(stmt, claim, Config(seed=0))
    adv = ev.data["adversary"]
    assert adv["chosen"] and adv["margin"] < adv["start_margin"]
    assert "adversarial search" in ev.basis.on and "adversarial search" in ev.detail
    # the search's runs use their own seed: the point's Monte Carlo seed is the drawn point's
    sc = bind(stmt.scenario, claim)
    assert all(p.get("mc") is not None for p in sc.mc_instances(0))
    off = monte_carlo.check(stmt, claim, Config(seed=0, adversary=0))
    assert "adversary" not in off.data and off.verdict == "holds" and ev.verdict == "violated"
