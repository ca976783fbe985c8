"""dpverify.privacy.single_sample_sgd: the dominating pair of one step on a grid of neighbouring pairs, and
the upper and lower bounds bracketing dp-accounting's PLD. (Moved from tests/test_hdp.py.)"""
from __future__ import annotations

import math

import numpy as np
import pytest
from scipy import stats

from dpverify.privacy import single_sample_sgd as ssg


def _hockey(p, q, eps, dx):
    return float(np.sum(np.maximum(p - math.exp(eps) * q, 0.0)) * dx)


def test_the_one_sided_pair_dominates_one_step():
    """For one step (q = 1/n), every 1-D neighbouring pair ((1-q)N(c) + qN(a), (1-q)N(c) + qN(b)) with
    |a|, |b|, |c| <= 1 has hockey-stick divergences (both orders) and Renyi divergences no larger than the
    sampled Gaussian mechanism's ((1-q)N(0) + qN(2), N(0)); grid of 5^3 pairs."""
    x = np.linspace(-20, 20, 20001)
    dx = x[1] - x[0]
    grid = np.linspace(-1, 1, 5)
    for q, s in ((0.5, 0.7), (0.1, 1.5)):
        P_ = (1 - q) * stats.norm.pdf(x, 0, s) + q * stats.norm.pdf(x, 2, s)
        Q_ = stats.norm.pdf(x, 0, s)
        for eps in (0.1, 1.0, 3.0):
            ref = _hockey(P_, Q_, eps, dx)
            for a in grid:
                for b in grid:
                    for c in grid:
                        p = (1 - q) * stats.norm.pdf(x, c, s) + q * stats.norm.pdf(x, a, s)
                        qq = (1 - q) * stats.norm.pdf(x, c, s) + q * stats.norm.pdf(x, b, s)
                        assert _hockey(p, qq, eps, dx) <= ref + 1e-9
        from scipy.special import logsumexp

        for alpha in (2, 4):
            rdp = float(ssg.sgm_rdp(q, s / 2, [alpha])[0])
            for a in grid:
                for b in grid:
                    for c in grid:
                        lp = np.logaddexp(math.log1p(-q) + stats.norm.logpdf(x, c, s), math.log(q) + stats.norm.logpdf(x, a, s))
                        lq = np.logaddexp(math.log1p(-q) + stats.norm.logpdf(x, c, s), math.log(q) + stats.norm.logpdf(x, b, s))
                        ren = (logsumexp(alpha * lp + (1 - alpha) * lq) + math.log(dx)) / (alpha - 1)
                        assert ren <= rdp * (1 + 1e-6) + 1e-9


@pytest.mark.parametrize("eps, s, T, n", [(1.0, 2.0, 100, 10), (1.0, 0.09, 7, 1000), (0.5, 3.0, 300, 30)])
def test_upper_and_lower_bounds_bracket_the_pld(eps, s, T, n):
    """delta_lower <= PLD (optimistic) and PLD (pessimistic) <= Renyi upper bound, for the attained pair."""
    import dp_accounting as dpa
    from dp_accounting.pld import privacy_loss_distribution as pld

    def d(pess):
        return pld.from_gaussian_mechanism(standard_deviation=s / 2, value_discretization_interval=1e-3,
                                           sampling_prob=1 / n, pessimistic_estimate=pess, use_connect_dots=pess,
                                           neighboring_relation=dpa.NeighboringRelation.ADD_OR_REMOVE_ONE
                                           ).self_compose(T).get_delta_for_epsilon(eps)
    assert ssg.single_sample_sgd_delta_lower(eps, s, 1.0, n, T) <= d(False) + 1e-12
    assert d(True) <= ssg.single_sample_sgd_delta(eps, s, 1.0, n, T) + 1e-12
