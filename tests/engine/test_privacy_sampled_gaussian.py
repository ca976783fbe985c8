"""dpverify.privacy.sampled_gaussian: the mixture lower bound against the exact Gaussian profile, and the
without-replacement accountant's order grid against dp-accounting. (Moved from tests/test_stage.py.)"""
from __future__ import annotations

import math

import pytest

from dpverify.privacy import gaussian_delta_exact, mixture_delta_lower, wor_gaussian_epsilon


def test_mixture_lower_bound_is_exact_for_one_gaussian():
    for eps in (0.1, 1.0, 4.0):
        assert mixture_delta_lower([1.3], [0.0], 0.8, eps) == pytest.approx(gaussian_delta_exact(eps, 1.3 / 0.8),
                                                                            rel=1e-7)


def test_wor_accountant_grid_only_loosens():
    import dp_accounting
    from dp_accounting import rdp

    from dpverify.privacy.sampled_gaussian import WOR_ORDERS

    n, B, z, T, delta = 1000, 37, 1.7, 300, 1e-5
    acc = rdp.RdpAccountant(orders=list(WOR_ORDERS), neighboring_relation=dp_accounting.NeighboringRelation.REPLACE_ONE)
    acc.compose(dp_accounting.SelfComposedDpEvent(
        dp_accounting.SampledWithoutReplacementDpEvent(n, B, dp_accounting.GaussianDpEvent(z)), T))
    exact = acc.get_epsilon(delta)
    got = wor_gaussian_epsilon(n, B, z, T, delta)
    assert exact <= got <= 1.3 * exact
    assert wor_gaussian_epsilon(n, n, z, T, delta) == pytest.approx(  # full batch: the Gaussian's RDP
        rdp.rdp_privacy_accountant.compute_epsilon(list(WOR_ORDERS),
                                                   [T * a / (2 * (10 ** (math.floor(20 * math.log10(z)) / 20)) ** 2)
                                                    for a in WOR_ORDERS], delta)[0])


def test_logsumexp_rows_is_scipys_bit_for_bit():
    """The delta search's log-sum-exp equals ``scipy.special.logsumexp(axis=1)`` to the bit, on drawn
    rows and hostile ones: ties at the maximum, -inf and +inf entries, NaN, a single column, spreads of
    1e300, subnormal sums, and the log-tails the search feeds it."""
    import numpy as np
    import scipy.special

    from dpverify.privacy.sampled_gaussian import logsumexp_rows

    rng = np.random.default_rng(7)
    rows = [rng.normal(0, s, (64, k)) for s in (1e-3, 1.0, 30.0, 700.0) for k in (1, 2, 3, 8, 50)]
    inf, nan = np.inf, np.nan
    rows.append(np.array([[0.0, 0.0, 0.0], [-inf, -inf, -inf], [inf, 0.0, 1.0], [inf, inf, -inf], [nan, 0.0, 1.0],
                          [-inf, 1.0, 1.0], [-745.0, -745.2, -746.0], [-1e300, 1e300, 0.0], [709.0, 709.5, 709.9],
                          [-740.0, -inf, -741.0], [5.0, 5.0, -inf], [1e-320, -1e-320, 0.0]]))
    rows.append(scipy.special.log_ndtr(rng.normal(0, 20, (200, 4))) - np.log(4))
    for a in rows:
        ours = logsumexp_rows(a)
        theirs = np.asarray(scipy.special.logsumexp(a, axis=1), dtype=float)
        assert ours.shape == theirs.shape
        assert np.array_equal(ours.view(np.int64), theirs.view(np.int64)), (a[ours.view(np.int64) != theirs.view(np.int64)])
