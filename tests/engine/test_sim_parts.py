"""Algorithms from parts (dpverify.sim.descent.simulate, moments.exact_moments): DP-SGD with heavy ball on
clipped mini-batches against a plain NumPy loop written here, its fused and NumPy paths, and exact moments
of rules and sources against Monte Carlo (tolerance from the sample size) and against the specialised
recursions they generalise."""
from __future__ import annotations

import numpy as np
import pytest

from dpverify import sim
from dpverify.sim import (BiasCorrectedMomentum, FullGradient, HeavyBall, MiniBatch, OneSample, Plain, block_rng,
                          exact_moments, simulate)
from dpverify.sim.sgd_moments import loss_expectation, sgd_moments

#: standard errors a Monte Carlo mean may stray from the exact expectation (the scenario contract's)
Z_TOL = 5.0


def _least_squares(n=24, d=3, lam=0.05, seed=0):
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(n, d)) / np.sqrt(d)
    return sim.LeastSquares(X, X @ rng.normal(size=d) + 0.3 * rng.normal(size=n), lam)


def _excess(p):
    H = p.X.T @ p.X / p.normaliser + p.ridge * np.eye(p.dim)
    return H, np.asarray(p.theta_star)


def _reference_dp_sgd_heavy_ball(p, theta1, etas, noise, batch, beta, clip, runs, seed):
    """DP-SGD with heavy ball, written plainly: per block, per step, the block's indices (its index stream)
    and noise (its noise stream), every run's clipped per-sample gradients averaged, then
    theta' = theta - eta (g + s z) + beta (theta - theta_prev)."""
    BLOCK = sim.BLOCK
    X, y, lam = np.asarray(p.X), np.asarray(p.y), p.lam
    out = np.empty((runs, p.dim))
    for b in range(-(-runs // BLOCK)):
        rows = min(BLOCK, runs - b * BLOCK)
        nrng, irng = block_rng(seed, b), block_rng(seed, b, child=0)
        theta = np.tile(theta1, (rows, 1))
        prev = theta.copy()
        for eta, s in zip(etas, noise):
            idx = irng.integers(0, p.n_samples, size=(rows, batch))
            z = nrng.standard_normal((rows, p.dim))
            grads = np.empty((rows, batch, p.dim))
            for r in range(rows):
                for k, j in enumerate(idx[r]):
                    gj = (X[j] @ theta[r] - y[j]) * X[j] + lam * theta[r]
                    grads[r, k] = gj * min(1.0, clip / max(np.linalg.norm(gj), 1e-300))
            g = grads.mean(axis=1) * (p.n_samples / p.normaliser) + s * z
            theta, prev = theta - eta * g + beta * (theta - prev), theta
        out[b * BLOCK: b * BLOCK + rows] = theta
    return out


@pytest.mark.parametrize("fast_path", [False, True])
def test_dp_sgd_with_heavy_ball_is_the_plain_loop(fast_path):
    p = _least_squares()
    theta1, etas, noise = np.array([0.5, -0.2, 0.1]), np.full(12, 0.3), np.linspace(0.4, 0.1, 12)
    runs, seed = 1100, 9
    res = simulate(p, theta1, etas, noise, runs, seed, update=HeavyBall(0.6), gradient=MiniBatch(5, clip=0.8),
                   return_thetas=True, fast_path=fast_path)
    want = _reference_dp_sgd_heavy_ball(p, theta1, etas, noise, 5, 0.6, 0.8, runs, seed)
    np.testing.assert_allclose(res.thetas, want, rtol=1e-11, atol=1e-12)
    assert res.mean == pytest.approx(float(np.mean(p.value(want) - p.f_star)), rel=1e-11)


def test_the_fused_and_numpy_paths_agree_and_ignore_chunks_and_workers():
    p = _least_squares()
    args = (p, np.zeros(3), 0.2, np.full(15, 0.3), 3000, 4)
    kw = dict(update=HeavyBall(0.5), gradient=MiniBatch(4, clip=1.0), return_thetas=True)
    fused = simulate(*args, **kw, chunk_runs=1024, workers=1)
    again = simulate(*args, **kw, chunk_runs=4096, workers=2)
    numpy = simulate(*args, **kw, fast_path=False)
    assert np.array_equal(fused.thetas, again.thetas) and fused.mean == again.mean
    np.testing.assert_allclose(fused.thetas, numpy.thetas, rtol=1e-11, atol=1e-12)


@pytest.mark.parametrize("gradient", [MiniBatch(4), MiniBatch(6, replace=False), OneSample(), FullGradient()],
                         ids=["with-replacement", "without-replacement", "one-sample", "full"])
@pytest.mark.parametrize("update", [Plain(), BiasCorrectedMomentum(0.6), HeavyBall(0.5)],
                         ids=["plain", "momentum", "heavy-ball"])
def test_exact_moments_agree_with_monte_carlo(update, gradient):
    p = _least_squares()
    theta1, etas, noise = np.array([1.0, -0.5, 0.5]), np.full(10, 0.25), np.full(10, 0.2)
    H, star = _excess(p)
    exact = exact_moments(p, theta1, etas, noise, update=update, gradient=gradient).quadratic(H, star)
    runs = 40_000
    res = simulate(p, theta1, etas, noise, runs, 21, update=update, gradient=gradient)
    # f - f* is exactly that quadratic form for least squares; the tolerance is the sample's standard error
    assert abs(res.mean - exact) <= Z_TOL * res.stderr, (res.mean, exact, res.stderr)


def test_exact_moments_of_one_sample_sgd_are_the_least_squares_recursion():
    """Plain one-sample SGD: the generic propagation (rule transition, source covariance factor 1) equals
    sgd_moments' second-moment recursion, derived separately."""
    p = _least_squares(lam=0.1)
    theta1, etas, noise = np.array([0.3, 0.2, -0.4]), np.linspace(0.3, 0.1, 8), np.full(8, 0.15)
    mine = exact_moments(p, theta1, etas, noise, gradient=OneSample())
    ref = sgd_moments(p.X, p.y, theta1, etas, noise, lam=p.lam)
    np.testing.assert_allclose(mine.mean, ref.mean, rtol=1e-12, atol=1e-14)
    np.testing.assert_allclose(mine.second, ref.second, rtol=1e-11, atol=1e-14)
    H, star = _excess(p)
    assert mine.quadratic(H, star) == pytest.approx(loss_expectation(p.X, p.y, ref.mean, ref.second, lam=p.lam)
                                                    - p.f_star, rel=1e-9)


@pytest.mark.parametrize("update, specialised", [
    (Plain(), lambda *a: sim.pgd_quadratic_mean_var(*a)),
    (BiasCorrectedMomentum(0.7), lambda *a: sim.momentum_quadratic_mean_var(*a, 0.7)),
    (HeavyBall(0.4), lambda *a: sim.heavy_ball_quadratic_mean_var(*a, 0.4)),
], ids=["plain", "momentum", "heavy-ball"])
def test_exact_moments_generalise_each_rules_recursion_on_quadratics(update, specialised):
    eigs, theta1, etas, noise = [0.2, 1.0, 3.0], [1.0, -1.0, 0.5], np.linspace(0.4, 0.2, 9), np.full(9, 0.3)
    mine = exact_moments(sim.Quadratic(eigs), theta1, etas, noise, update=update)
    assert mine.quadratic(np.diag(eigs), np.zeros(3)) == pytest.approx(float(specialised(eigs, theta1, etas, noise)[0][0]),
                                                                         rel=1e-12)
    cov = mine.second - np.outer(mine.mean, mine.mean)
    assert np.allclose(cov, np.diag(np.diag(cov)), atol=1e-15)         # directions stay independent


def test_heavy_ball_on_shifted_quadratics_matches_step_decays_moments():
    """Heavy ball with mini-batches drawn without replacement on a separable quadratic with per-sample shifts
    (additive sampling noise): the generic propagation against step-decay's 8x8 phase matrices (one phase,
    momentum on every step, the last iterate as output), two derivations of the same moments."""
    rng = np.random.default_rng(3)
    n, D, B = 10, 2, 3
    a = rng.normal(size=(n, D))
    a -= a.mean(axis=0)
    weights = np.array([0.5, 2.0])
    p = sim.SeparableLoss("quadratic", (1.0,), np.zeros(D), a, weights=weights)
    T, eta, beta, s = 7, 0.2, 0.45, 0.3
    theta1 = np.array([1.0, -0.8])
    mine = exact_moments(p, theta1, eta, np.full(T, s), update=HeavyBall(beta), gradient=MiniBatch(B, replace=False))
    var_a = (a * a).mean(axis=0)
    noise_var = s * s + var_a * sim.wor_batch_variance(1.0, n, B)
    _, second = sim.step_decay_quadratic_moments(weights, theta1, [eta], [T], [T], beta, noise_var, output="last")
    np.testing.assert_allclose(np.diag(mine.second), second, rtol=1e-12)


def test_a_sources_sampling_covariance_is_its_draws():
    """MiniBatch.sampling_covariance against the covariance of many drawn mini-batch gradients (the
    tolerance from the number of draws), with and without replacement, clipped or not."""
    p = _least_squares(n=12)
    theta = np.array([0.4, -0.3, 0.9])
    rng = np.random.default_rng(5)
    draws = 200_000
    for source in (MiniBatch(3), MiniBatch(5, replace=False), MiniBatch(3, clip=0.5)):
        idx = source.draw(p, rng, draws)
        g = source.gradient(p, np.tile(theta, (draws, 1)), idx)
        emp = np.cov(g.T, bias=True)
        want = source.sampling_covariance(p, theta)
        assert np.allclose(g.mean(axis=0), p.grad(theta[None], source.clip)[0], atol=5 * np.sqrt(np.diag(want).max() / draws))
        # each entry's sampling error is about its scale over sqrt(draws); 8 of them is far beyond chance
        scale = np.sqrt(np.outer(np.diag(want), np.diag(want)))
        assert np.all(np.abs(emp - want) <= 8 * scale * np.sqrt(2.0 / draws)), (source, emp, want)
    assert np.array_equal(FullGradient().sampling_covariance(p, theta), np.zeros((3, 3)))
    # with replacement: the trace is sampling_noise_moments' (derived on its own)
    assert np.trace(MiniBatch(3).sampling_covariance(p, theta)) == pytest.approx(
        float(sim.sampling_noise_moments(p, theta, 3)[1]), rel=1e-12)


def test_clipped_sources_have_no_exact_moments():
    p = _least_squares()
    with pytest.raises(ValueError, match="^clip "):
        exact_moments(p, np.zeros(3), 0.1, [0.1], gradient=MiniBatch(2, clip=1.0))
    with pytest.raises(ValueError, match="^problem "):
        exact_moments(sim.LogisticRegression(p.X, np.sign(p.y) + (p.y == 0), 0.1), np.zeros(3), 0.1, [0.1])


@pytest.mark.parametrize("kw, name", [
    (lambda: dict(update="heavy"), "update"), (lambda: dict(gradient=4), "gradient"),
    (lambda: dict(update=HeavyBall(1.0)), "beta"), (lambda: dict(update=HeavyBall([0.1, 0.2])), "beta"),
    (lambda: dict(gradient=MiniBatch(0)), "batch"), (lambda: dict(gradient=MiniBatch(30, replace=False)), "batch"),
    (lambda: dict(gradient=MiniBatch(2.5)), "batch"),
])
def test_bad_parts_are_refused_naming_the_parameter(kw, name):
    with pytest.raises(ValueError, match=rf"^{name} "):
        simulate(_least_squares(), np.zeros(3), 0.1, [0.1] * 3, 10, 0, **kw())


def _claim(sc):
    import sympy as sp  # noqa: F401
    from dpverify import Claim, Domain, ExpectationBound, Int, Real, Source

    return Claim(id="mine/parts", source=Source("my notes", "Lemma 1"),
                 domain=Domain(M=Real(gt=0), mu=Real(gt=0), s=Real(ge=0), T=Int(ge=1, le=50), B=Int(ge=1, le=50)),
                 statements=(ExpectationBound("b", bound=10, scenario=sc),))


def test_the_scenario_passes_the_parts_through():
    """noisy_gd(update=..., gradient=...): the parts written as parts or as parameters are the same algorithm
    (the same exact moments, the same Monte Carlo bits); DP-SGD with heavy ball on mini-batches of a data
    problem runs by Monte Carlo through the scenario, its mean the simulator's."""
    import sympy as sp

    from dpverify.scenarios import LogisticData, MCPoint, bind, noisy_gd

    M, mu, s, T, B = sp.symbols("M mu s T B")
    common = dict(problem="strongly_convex", smooth=M, curvature=mu, step=1 / M, noise_std=s, dim=2, horizon=T,
                  init_dist=1, statistic="dist_sq")
    as_parts = noisy_gd(update=HeavyBall(sp.Rational(1, 4)), **common)
    claim = _claim(as_parts)
    a, b = bind(noisy_gd(momentum=sp.Rational(1, 4), momentum_form="heavy_ball", **common), claim), bind(as_parts, claim)
    pt = {"M": 2.0, "mu": 0.5, "s": 0.3, "T": 8, "B": 4}
    ia, ib = a.instance_at(pt), b.instance_at(pt)
    assert a.exact(ia) == b.exact(ib) and a.algorithm == b.algorithm == "noisy heavy-ball momentum gradient descent"
    assert a.monte_carlo(ia, 2000, 3, 65536) == b.monte_carlo(ib, 2000, 3, 65536)

    data = LogisticData(n=40, d=3, lam=0.1)
    dp_sgd = noisy_gd(problem="logistic", smooth=M, curvature=mu, step=1 / M, noise_std=s, dim=3, horizon=T,
                      init_gap=1, update=HeavyBall(sp.Rational(1, 2)), gradient=MiniBatch(B, clip=1.0),
                      mc=(MCPoint(data, {"s": 0.2, "T": 10, "B": 4}),))
    sc = bind(dp_sgd, _claim(dp_sgd))
    assert sc.algorithm == "noisy heavy-ball momentum mini-batch SGD" and not sc.supports_exact
    (inst,) = sc.mc_instances(0)
    mean, _ = sc.monte_carlo(inst, 3000, 7, 65536)
    p = data.build()
    v = sc.point(inst)
    want = simulate(p, data.theta1(), 1 / v["M"], np.full(10, 0.2), 3000, 7, update=HeavyBall(0.5),
                    gradient=MiniBatch(4, clip=1.0), statistic=lambda th: p.value(th) - p.f_star)
    assert mean == want.mean
