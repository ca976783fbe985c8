"""dpverify.sim.output_perturbation: the exact norm-Laplace sampler, and output perturbation against plain GD,
exact moments (float and mpmath) and chunk sizes. (Moved from tests/test_erm.py.)

Statistical tolerances are derived from the run counts (z = 4.5 standard errors: a false failure has
probability below 1e-5 per assertion); seeds are fixed.
"""
from __future__ import annotations

import math

import numpy as np
import pytest
from scipy import stats

from dpverify import sim

Z = 4.5


def _close_mc(mean, se, exact):
    assert abs(mean - exact) <= Z * se + 1e-12 * abs(exact), (mean, se, exact)


@pytest.mark.parametrize("dim, scale", [(1, 0.7), (3, 2.0), (10, 0.1)])
def test_norm_laplace_sampler_is_exact(dim, scale):
    """Radius Gamma(D, b) (KS test), E||z|| = D b, E||z||^2 = D(D+1) b^2 (Lemma 6), direction uniform (mean 0)."""
    z = sim.norm_laplace(np.random.default_rng(1), 200_000, dim, scale)
    r = np.linalg.norm(z, axis=1)
    assert stats.kstest(r / scale, stats.gamma(dim).cdf).pvalue > 1e-4
    m1, m2 = sim.norm_laplace_moments(dim, scale)
    _close_mc(r.mean(), r.std() / math.sqrt(len(r)), m1)
    _close_mc((r * r).mean(), (r * r).std() / math.sqrt(len(r)), m2)
    u = z / r[:, None]
    assert np.all(np.abs(u.mean(axis=0)) <= Z / math.sqrt(len(r)))


def test_output_perturbation_no_noise_is_gd_and_mc_matches_exact():
    q = sim.Quadratic([0.2, 1.0, 3.0], theta_star=[1.0, -2.0, 0.5])
    res = sim.output_perturbation(q, np.zeros(3), 0.25, 17, "gaussian", 0.0, 5, 0, return_thetas=True)
    assert np.allclose(res.thetas, sim.gd(q, np.zeros(3), 0.25, 17)[None, :], rtol=0, atol=1e-15)
    for noise in ("norm_laplace", "gaussian"):
        mc = sim.output_perturbation(q, np.zeros(3), 0.25, 7, noise, 0.3, 100_000, 3)
        exact = sim.output_perturbation_quadratic_excess(q.eigs, q.theta_star, np.zeros(3), 0.25, 7, noise, 0.3)
        _close_mc(mc.mean, mc.stderr, exact)
        assert float(sim.output_perturbation_quadratic_excess(q.eigs, q.theta_star, np.zeros(3), 0.25, 7, noise, 0.3,
                                                              dps=40)) == pytest.approx(exact, rel=1e-12)
    a = sim.output_perturbation(q, np.zeros(3), 0.25, 7, "norm_laplace", 0.3, 3000, 5, chunk_runs=1024)
    b = sim.output_perturbation(q, np.zeros(3), 0.25, 7, "norm_laplace", 0.3, 3000, 5, chunk_runs=65536)
    assert a.mean == b.mean and a.var == b.var


def test_a_quadratic_whose_lipschitz_constant_is_raised_runs_with_the_raised_noise():
    """A quadratic instance takes L = max(L, its own bound on the ball) (the class's hypothesis); noise
    calibrated to L must then use that L too, as the bound does: with the drawn L the run is a less
    noisy algorithm than the bound's and a violation could be missed. Compared with the closed form
    E F(w_T + z) - F* = sum_i l_i ((1 - l_i/M)^T w*_i)^2/2 + b^2 sum_i l_i/2 (GD, step 1/M, w_0 = 0)."""
    import sympy as sp

    from dpverify import Claim, Domain, ExpectationBound, Int, Real, Source
    from dpverify.scenarios import bind, output_perturbation_gd

    L, M, mu, R, T = sp.symbols("L M mu R T", positive=True)
    sc = output_perturbation_gd(noise="gaussian", smooth=M, curvature=mu, step=1 / M, horizon=T, dim=1,
                                noise_scale=L, init_dist=R, lipschitz=L)
    claim = Claim(id="mine/opg", source=Source("my notes", "Lemma 1"),
                  domain=Domain(L=Real(gt=0, search=(1e-2, 1e2)), M=Real(gt=0, search=(1, 2)),
                                mu=Real(gt=0, search=(0.1, 0.5)), R=Real(gt=0, search=(1, 2)),
                                T=Int(ge=0, search=(0, 5))),
                  statements=(ExpectationBound("u", bound=L**2, scenario=sc),))
    s = bind(sc, claim)
    inst = {"point": {"L": 0.01, "M": 2.0, "mu": 0.5, "R": 1.0, "T": 3}, "u": [1.0], "dir": [1.0], "r": 1.0}
    raised = s.point(inst)["L"]
    assert raised == pytest.approx(2.0 * 2 * 1.0 + 2.0 * 1.0)      # M rho + |H w*|, rho = 2R, w* = R
    lam, w = 2.0, 1.0
    expected = lam * ((1 - lam / 2.0) ** 3 * w) ** 2 / 2 + raised**2 * lam / 2
    assert float(s.exact(inst)) == pytest.approx(expected, rel=1e-12)
