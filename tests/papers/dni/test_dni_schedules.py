"""[dni]'s noise schedules (theorems/dni/schedules.py): the budget they spend, the optimum of Lemma 4.1,
their bad input. (Moved with the schedules from the engine's tests.)"""
import numpy as np
import pytest

from dpverify.sim import total_cost, uniform
from theorems.dni.schedules import dynamic, dynamic_pgd, exponential, exponential_for_budget, pgd_influence


def test_dynamic_spends_the_budget_and_is_optimal():
    q = np.random.default_rng(1).uniform(0.01, 5.0, size=40)
    sig = dynamic(q, 3.0)
    assert np.sum(sig**-2.0) == pytest.approx(3.0, rel=1e-13)
    # Lemma 4.1: the minimum of R * sum q_t sigma_t^2 is (sum sqrt q_t)^2.
    assert 3.0 * np.sum(q * sig**2) == pytest.approx(np.sum(np.sqrt(q)) ** 2, rel=1e-13)
    # ...and it beats the uniform schedule with the same budget.
    assert np.sum(q * sig**2) <= np.sum(q * uniform(40, 3.0) ** 2)


def test_pgd_influence_and_exponential():
    q = pgd_influence(4.0, 2.0, 3)
    np.testing.assert_allclose(q, [2.0 * 0.75**2, 2.0 * 0.75, 2.0])
    np.testing.assert_allclose(exponential(2.0, 0.1, 3), 2.0 * np.exp(-0.1 * np.arange(1, 4)))
    for k in (-0.5, 0.0, 0.05, 3.0):
        sig = exponential_for_budget(k, 60, 2.5)
        assert total_cost(sig) == pytest.approx(2.5, rel=1e-12)
        np.testing.assert_allclose(sig[1:] / sig[:-1], np.exp(-k), rtol=1e-12)



@pytest.mark.parametrize("make, name", [
    (lambda: dynamic([1.0, 0.0], 1.0), "q"),
    (lambda: dynamic([1.0, 2.0], -1.0), "R"),
    (lambda: pgd_influence(0.5, 1.0, 3), "kappa"),
    (lambda: pgd_influence(2.0, 0.0, 3), "alpha"),
    (lambda: dynamic_pgd(1.0, 1.0, 1.0, 3), "kappa"),
    (lambda: exponential(0.0, 1.0, 3), "sigma0"),
    (lambda: exponential(1.0, np.inf, 3), "k"),
    (lambda: exponential_for_budget(0.1, 3, 0.0), "R"),
])
def test_bad_input_names_the_parameter(make, name):
    with pytest.raises(ValueError, match=rf"^{name} "):
        make()
