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


def test_amplification_at_alpha_next_to_one_needs_the_high_precision_path():
    """Hostile: at alpha = 1 - 2^-52 the target delta' = alpha delta cancels against the leak atom delta;
    the double-precision solve is wrong in its first digit, the mpmath one returns the tight eps' =
    ln(1 + alpha (e^eps - 1)) (which is eps up to 1e-16) to 25 digits."""
    import mpmath

    eps, delta, al = 0.1353352832366127, 0.1875, 1 - 2.0 ** -52
    a, b = C.subsampled_pair(*C.canonical_pair(eps, delta), al)
    assert abs(C.pair_epsilon(a, b, al * delta) - eps) > 0.1          # the cancellation this path avoids
    with mpmath.workdps(40):
        p, q = C.canonical_pair(eps, delta, dps=40)
        a, b = C.subsampled_pair(p, q, al, dps=40)
        got = C.pair_epsilon(a, b, mpmath.mpf(al) * delta, dps=40)
        tight = mpmath.log1p(mpmath.mpf(al) * mpmath.expm1(eps))
        assert abs(got - tight) < mpmath.mpf(10) ** -25 * tight


@pytest.mark.parametrize("eps, delta, al", [(0.5, 1e-3, 0.2), (3.0, 0.0, 0.01), (1e-3, 0.4, 0.999)])
def test_high_precision_pair_epsilon_agrees_with_double_away_from_cancellation(eps, delta, al):
    import mpmath

    a, b = C.subsampled_pair(*C.canonical_pair(eps, delta), al)
    p, q = C.canonical_pair(eps, delta, dps=30)
    am, bm = C.subsampled_pair(p, q, al, dps=30)
    with mpmath.workdps(30):   # delta' = alpha delta exactly: a rounded product can fall below the leak atom
        target = mpmath.mpf(al) * delta
    assert float(C.pair_epsilon(am, bm, target, dps=30)) == pytest.approx(C.pair_epsilon(a, b, al * delta), rel=1e-9)


def test_high_precision_inputs_are_validated():
    with pytest.raises(ValueError, match="dps"):
        C.pair_epsilon([0.5, 0.5], [0.5, 0.5], 0.1, dps=0)
    with pytest.raises(ValueError, match="probability vector"):
        C.pair_epsilon([0.7, 0.5], [0.5, 0.5], 0.1, dps=30)
    with pytest.raises(ValueError, match="delta"):
        C.pair_epsilon([0.5, 0.5], [0.5, 0.5], -0.1, dps=30)
