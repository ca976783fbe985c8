"""dpverify.scenarios.privacy.one_sample_sgd: the exact final-iterate sampler of the linear pair against psgd.
(Moved from tests/test_hdp.py.)"""
from __future__ import annotations

import numpy as np
from scipy import stats

from dpverify.scenarios import linear_pair_sampler
from dpverify.sim import LinearLoss, psgd


def test_linear_pair_sampler_is_psgd_on_the_linear_loss():
    """The exact final-iterate draw against psgd (batch 1) on the linear loss, 20000 runs each: two-sample
    Kolmogorov-Smirnov p-value above 1e-3."""
    from sympy import Float

    smp = linear_pair_sampler(noise_std=Float(0.3), n_samples=Float(4), horizon=Float(6), replaced=Float(-1.0),
                              replacement=Float(1.0), others=Float(0.5))
    a = smp({}, "D", 20000, np.random.default_rng(0))
    X = np.array([[-1.0], [0.5], [0.5], [0.5]])
    r = psgd(LinearLoss(X), np.zeros(1), 1.0, np.full(6, 0.3), 1, 20000, 5, return_thetas=True,
             statistic=lambda th: th[:, 0])
    assert stats.ks_2samp(a, -r.thetas[:, 0]).pvalue > 1e-3
