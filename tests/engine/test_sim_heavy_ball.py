"""Tests of Polyak's heavy-ball momentum in ``dpverify.sim`` (:mod:`dpverify.sim.updates.heavy_ball`) and in the
``noisy_gd`` scenario (``momentum_form="heavy_ball"``): exact moments on quadratics against Monte
Carlo (tolerances from the run count), against mpmath and against the closed form at the spectrum's
ends; ``beta = 0`` is plain noisy GD; results do not depend on chunks or workers."""
from __future__ import annotations

import math

import mpmath
import numpy as np
import pytest
import sympy as sp

from dpverify import sim
from dpverify.scenarios import bind, noisy_gd
from dpverify.sim.updates.heavy_ball import propagate as _propagate
from simresults import same_result

EIGS = np.array([0.3, 1.0, 4.0])
THETA1 = np.array([1.0, -0.5, 0.8])
T = 12


def _polyak(M, mu):
    rho = (math.sqrt(M) - math.sqrt(mu)) / (math.sqrt(M) + math.sqrt(mu))
    return 4 / (math.sqrt(M) + math.sqrt(mu)) ** 2, rho**2, rho


@pytest.mark.parametrize("beta, eta", [(0.5, 0.2), (_polyak(4.0, 0.3)[1], _polyak(4.0, 0.3)[0])])
def test_exact_moments_agree_with_monte_carlo(beta, eta):
    """The Monte Carlo mean of f(theta_{T+1}) - f* lies within 5 standard errors of the exact mean
    (standard error from the exact variance and the run count: a false failure has probability
    below 6e-7), and the sample variance within 5 standard errors of the exact variance (the
    variance of a sample variance bounded by the fourth moment of the Gaussian quadratic form)."""
    runs, noise = 100_000, np.full(T, 0.4)
    mean, var = sim.heavy_ball_quadratic_mean_var(EIGS, THETA1, eta, noise, beta)
    res = sim.heavy_ball_pgd(sim.Quadratic(EIGS), THETA1, eta, noise, beta, runs=runs, seed=11)
    assert abs(res.mean - mean[0]) <= 5 * math.sqrt(var[0] / runs), (res.mean, mean[0])
    # Var of the sample variance <= E(X - EX)^4 / n; for a Gaussian quadratic form E(X-EX)^4 <= 15 var^2 (chi-square
    # like tails: kurtosis of a chi-square with one degree of freedom is 15)
    assert abs(res.var - var[0]) <= 5 * math.sqrt(15 * var[0] ** 2 / runs), (res.var, var[0])


def test_mpmath_moments_agree_with_double_precision():
    eta, beta, _ = _polyak(4.0, 0.3)
    noise = np.full(T, 0.25)
    mean, _ = sim.heavy_ball_quadratic_mean_var(EIGS, THETA1, eta, noise, beta)
    with mpmath.workdps(40):
        lam, m, s2 = sim.heavy_ball_moments_mp(EIGS, THETA1, [eta] * T, noise, beta)
        exact = mpmath.fsum(li * (a * a + b) for li, a, b in zip(lam, m, s2)) / 2
    assert abs(float(exact) - mean[0]) <= 1e-12 * float(exact)


@pytest.mark.parametrize("kappa, steps", [(4.0, 3), (50.0, 10), (2.0, 1)])
def test_polyak_parameters_at_the_spectrum_ends_match_the_closed_form(kappa, steps):
    """With Polyak's parameters the iteration matrix at lambda = M has the double eigenvalue -rho, at
    lambda = mu the double eigenvalue rho, so (x_0 = x_1 = d) x_{T+1} = d (r^(T+1) + (T+1)(1 - r) r^T)
    with r = -rho or rho: the noise-free exact moments reproduce it."""
    M, mu = 1.0, 1.0 / kappa
    eta, beta, rho = _polyak(M, mu)
    _, m, s2 = _propagate([mu, M], [1.0, 1.0], eta, np.zeros(steps), beta)
    for r, got in ((rho, m[0][0]), (-rho, m[0][1])):
        want = r ** (steps + 1) + (steps + 1) * (1 - r) * r**steps
        assert got == pytest.approx(want, rel=1e-12, abs=1e-15)
    assert np.all(s2 == 0)


def test_beta_zero_is_plain_noisy_gd_on_the_same_noise():
    noise = np.full(5, 0.3)
    a = sim.heavy_ball_pgd(sim.Quadratic(EIGS), THETA1, 0.3, noise, 0.0, runs=3000, seed=4, return_thetas=True)
    b = sim.pgd(sim.Quadratic(EIGS), THETA1, 0.3, noise, runs=3000, seed=4, return_thetas=True, fast_path=False)
    assert np.array_equal(a.thetas, b.thetas)
    mean, _ = sim.heavy_ball_quadratic_mean_var(EIGS, THETA1, 0.3, noise, 0.0)
    assert mean[0] == pytest.approx(sim.pgd_quadratic_mean_var(EIGS, THETA1, 0.3, noise)[0][0], rel=1e-12)


def test_results_do_not_depend_on_chunks_or_workers():
    args = (sim.Quadratic(EIGS), THETA1, 0.2, np.full(T, 0.4), 0.5)
    a = sim.heavy_ball_pgd(*args, runs=5000, seed=3, chunk_runs=1024, workers=1)
    b = sim.heavy_ball_pgd(*args, runs=5000, seed=3, chunk_runs=4096, workers=2)
    same_result(a, b)


def test_the_scenario_runs_heavy_ball_exactly_and_by_monte_carlo():
    """``noisy_gd(momentum_form="heavy_ball")``: its exact expectation is the simulator's, and its Monte
    Carlo mean agrees with it within 5 standard errors of the run count."""
    from dpverify import Claim, Domain, ExpectationBound, Int, Real, Source

    M, mu, s, T_ = sp.symbols("M mu s T")
    sc = noisy_gd(problem="strongly_convex", smooth=M, curvature=mu, step=1 / M, momentum=sp.Rational(1, 4),
                  momentum_form="heavy_ball", noise_std=s, dim=2, horizon=T_, init_dist=1, statistic="dist_sq")
    claim = Claim(id="mine/hb", source=Source("my notes", "Lemma 1"),
                  domain=Domain(M=Real(gt=0), mu=Real(gt=0), s=Real(ge=0), T=Int(ge=1)),
                  statements=(ExpectationBound("b", bound=10, scenario=sc),))
    b = bind(sc, claim)
    inst = b.instance_at({"M": 2.0, "mu": 0.5, "s": 0.3, "T": 8})
    eigs, th = b.problem_at(inst)
    lam, m, s2 = _propagate(eigs, th, 0.5, np.full(8, 0.3), 0.25)
    assert b.exact(inst) == pytest.approx(float((m * m + s2).sum()), rel=1e-12)
    runs = 50_000
    mean, var = b.monte_carlo(inst, runs, 5, 8192)
    assert abs(mean - b.exact(inst)) <= 5 * math.sqrt(var / runs)
    assert "heavy-ball" in b.algorithm


@pytest.mark.parametrize("kw, words", [
    (dict(momentum_form="polyak"), "momentum_form must be one of"),
    (dict(momentum_form="heavy_ball"), "needs momentum="),
])
def test_bad_momentum_forms_are_refused(kw, words):
    M, s = sp.symbols("M s")
    with pytest.raises(TypeError, match=words):
        noisy_gd(problem="pl", smooth=M, curvature=M / 2, step=1 / M, noise_std=s, dim=1, horizon=3, init_gap=1, **kw)
