"""dpverify.scenarios.expectations.gd: the noisy-GD scenario's Monte Carlo of an exceedance probability against the exact
chi-square tail. (Moved from tests/test_dni.py; the claims of theorems.dni are only fixtures.)"""
from __future__ import annotations

import math

from dpverify.checks import Config
from dpverify.scenarios import bind
from theorems.dni import claims as dni


def test_exceedance_scenario_measures_the_chi_square_tail():
    """kappa = 1, T = 1: excess / ERUB is chi^2_D / D, so P(exceed) = P(chi^2_1 > 1) = 0.3173.
    Tolerance: 5 standard errors of a proportion over the runs (false alarm < 1e-6)."""
    from scipy import stats

    scen = bind(dni.PGD_EXCEEDS_ERUB, dni.MARKOV_REPETITION)
    inst = scen.mc_instances(Config())[0]
    runs = 40_000
    mean, var = scen.monte_carlo(inst, runs, seed=7, chunk_runs=65536)
    exact = stats.chi2.sf(1.0, 1)
    assert abs(mean - exact) <= 5 * math.sqrt(exact * (1 - exact) / runs)
