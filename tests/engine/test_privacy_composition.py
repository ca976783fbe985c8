"""dpverify.privacy.composition: the exact optimal composition against dp-accounting's PLD, and the exact
amplification by subsampling against the tight formula. (Moved from tests/test_erm.py.)"""
from __future__ import annotations

import numpy as np
import pytest

from dpverify.privacy import composition as C


@pytest.mark.parametrize("eps, delta, k, eps_total", [(0.5, 1e-5, 10, 2.0), (0.1, 0.0, 50, 0.8), (1.0, 1e-3, 3, 1.5)])
def test_optimal_composition_matches_dp_accounting_pld(eps, delta, k, eps_total):
    exact = C.optimal_composition_delta(eps, delta, k, eps_total)
    assert exact == pytest.approx(C.pld_composition_delta(eps, delta, k, eps_total), rel=1e-6, abs=1e-12)
    assert C.optimal_composition_delta(eps, delta, k, C.advanced_composition_eps(eps, k, 1e-6)) <= k * delta + 1e-6


def test_amplification_exact_eps_is_the_tight_formula():
    rng = np.random.default_rng(0)
    for _ in range(300):
        eps, al = float(np.exp(rng.uniform(-5, 3))), float(np.exp(rng.uniform(-6, 0)))
        delta = float(rng.uniform(0, 0.3))
        p, q = C.canonical_pair(eps, delta)
        assert C.pair_delta(p, q, eps) == pytest.approx(delta, abs=1e-15)
        a, b = C.subsampled_pair(p, q, al)
        assert C.pair_epsilon(a, b, al * delta) == pytest.approx(C.amplified_eps(eps, al), rel=1e-9, abs=1e-15)
