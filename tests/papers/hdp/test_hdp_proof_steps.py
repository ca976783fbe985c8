"""The quantities behind the claims of the proof of Theorem 5 (theorems/hdp/claims/section5_proof.py), against closed
forms computed here."""
import math

import pytest
from scipy.stats import norm

from theorems.hdp import proofs


def test_composed_canonical_pairs_give_basic_composition_exactly():
    # the product of the canonical pairs has delta = 1 - (1 - delta1)(1 - delta2) at eps1 + eps2
    pt = {"epsilon1": 1.0, "epsilon2": 2.0, "delta1": 1e-8, "delta2": 3e-8}
    v = proofs.composed_canonical_delta(pt).value
    assert v == pytest.approx(1e-8 + 3e-8 - 3e-16, rel=1e-12)
    assert v <= 4e-8


def test_final_release_leak_is_the_last_step_passing_over_n():
    pt = {"n": 5, "R": 1, "T_local": 7, "r": 100.0, "delta1": 0.1, "delta2": 0.05, "epsilon1": 0.1, "epsilon2": 5.0,
          "c": 1.0, "x_i": 0.0, "x_r": 1.0, "x_o": -1.0, "v": 0.0}
    G = 101.0
    mean = 2 * (0.0 + 2 * G / 25)
    sc = 2.83 * G * math.sqrt(math.log(1.25 / 0.05)) / (5 * 5.0)
    thr = 2 * 100 * 0.1 * (1 + math.exp(-0.1))
    p = norm.cdf((thr - mean) / sc) - norm.cdf((-thr - mean) / sc)
    got = proofs.final_release_leak(pt)
    assert got.kind == "lower" and got.value == pytest.approx(p / 5, rel=1e-10)
    assert got.value > 0.15      # the witness of hdp/alg-1-release: above delta1 + delta2


@pytest.mark.parametrize("xi,xr", [(1.0, -1.0), (0.25, 0.5), (-0.3, 0.9)])
def test_noise_free_step_moves_by_the_gradient_difference(xi, xr):
    assert proofs.noise_free_step_gap({"x_i": xi, "x_r": xr}) == pytest.approx(abs(xi - xr), abs=1e-12)
