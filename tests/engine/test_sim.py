"""Tests of the PGD simulator ``dpverify.sim`` ([dni] = seed 000_155fea93f75f24eb).

All random tests use fixed seeds; statistical tolerances are derived from the
run counts and stated next to each assertion.
"""

from __future__ import annotations

import math

import numpy as np
import pytest

from dpverify.sim import (
    BLOCK,
    LeastSquares,
    LinearLoss,
    LogisticRegression,
    MCResult,
    Quadratic,
    block_rng,
    coupled_pgd,
    gd,
    iter_chunks,
    make_neighbour,
    pgd,
    pgd_quadratic_mean_var,
    pgd_quadratic_moments,
    pgd_quadratic_variance,
    remove_sample,
    total_cost,
    uniform,
)


# --------------------------------------------------------------------------- #
# fixtures
# --------------------------------------------------------------------------- #


# --------------------------------------------------------------------------- #
# rng
# --------------------------------------------------------------------------- #


def test_iter_chunks_rounds_to_blocks():
    assert BLOCK == 1024
    assert list(iter_chunks(3000, 1)) == [(0, 1024, [0]), (1024, 2048, [1]), (2048, 3000, [2])]
    # 2000 rounds up to 2048 = 2 blocks
    assert list(iter_chunks(3000, 2000)) == [(0, 2048, [0, 1]), (2048, 3000, [2])]
    assert list(iter_chunks(5, 65536)) == [(0, 5, [0])]


def test_block_rng_is_spawned_child():
    # The block generators are SFC64 since the speed work (PCG64 before): same seeding
    # (the block-th child of SeedSequence(seed)), different numbers.
    a = block_rng(5, 3).standard_normal(4)
    child = np.random.SeedSequence(5).spawn(4)[3]
    b = np.random.Generator(np.random.SFC64(child)).standard_normal(4)
    np.testing.assert_array_equal(a, b)
    assert not np.array_equal(block_rng(5, 2).standard_normal(4), a)
    # child=j: the j-th child of the block's SeedSequence (e.g. the SGD index stream)
    grandchild = np.random.SeedSequence(5).spawn(4)[3].spawn(1)[0]
    np.testing.assert_array_equal(block_rng(5, 3, child=0).integers(0, 10**6, 8),
                                  np.random.Generator(np.random.SFC64(grandchild)).integers(0, 10**6, 8))


# --------------------------------------------------------------------------- #
# sigma = 0 limit and fast path
# --------------------------------------------------------------------------- #


@pytest.mark.parametrize("name", ["quadratic", "least_squares", "logistic", "linear"])
def test_sigma_zero_reproduces_gd_exactly(problems, name):
    problem = problems[name]
    theta1 = np.array([0.3, -0.7, 1.1])
    etas = np.linspace(0.5, 0.1, 12)
    expected = gd(problem, theta1, etas, 12)
    res = pgd(problem, theta1, etas, np.zeros(12) * (1.0 / 40), 1, 0, return_thetas=True,
              statistic=lambda th: th[:, 0], fast_path=False)
    # Same float operations on a (1, D) block: bit-identical.
    np.testing.assert_array_equal(res.thetas[0], expected)
    assert res.steps == 12


def test_sigma_zero_many_runs_quadratic(problems):
    problem = problems["quadratic"]
    theta1 = np.array([0.3, -0.7, 1.1])
    expected = gd(problem, theta1, 0.4, 15)
    res = pgd(problem, theta1, 0.4, np.zeros(15) * (1.0 / 40), 2500, 0, return_thetas=True,
              fast_path=False)
    # Element-wise arithmetic only: every run is bit-identical to gd.
    np.testing.assert_array_equal(res.thetas, np.broadcast_to(expected, (2500, 3)))
    # Identical runs: the variance is zero up to the rounding of the per-block
    # means (pairwise sums), i.e. relative to mean^2 below (1e-15)^2.
    assert 0.0 <= res.var <= (1e-15 * res.mean) ** 2
    fast = pgd(problem, theta1, 0.4, np.zeros(15) * (1.0 / 40), 2500, 0, return_thetas=True)
    # The fast path computes a*delta instead of theta - eta*lam*(theta - theta*):
    # equal up to a few ulps.
    np.testing.assert_allclose(fast.thetas, res.thetas, rtol=1e-13, atol=1e-14)


def _decreasing(T, R):
    """A decreasing noise schedule spending the zCDP budget R (any schedule serves these tests)."""
    sig = np.geomspace(2.0, 0.5, T)
    return sig * np.sqrt(np.sum(sig**-2.0) / R)


def test_fast_path_matches_generic_path(problems):
    problem = problems["quadratic"]
    theta1 = np.array([3.0, 1.0, -1.0])
    sig = _decreasing(25, 2.0)
    kw = dict(runs=3000, seed=9, return_thetas=True)
    fast = pgd(problem, theta1, 0.3, sig * (2.0 / 50), **kw)
    slow = pgd(problem, theta1, 0.3, sig * (2.0 / 50), fast_path=False, **kw)
    # Same noise, different association of the arithmetic: agree to rounding.
    np.testing.assert_allclose(fast.thetas, slow.thetas, rtol=1e-12, atol=1e-12)
    assert fast.mean == pytest.approx(slow.mean, rel=1e-12)


# --------------------------------------------------------------------------- #
# Monte Carlo vs exact moments
# --------------------------------------------------------------------------- #

MC_POINTS = [
    # eigs, theta_star, theta1, eta, sigmas, G, N
    ([0.1, 0.4, 1.0, 1.5], [0.0, 1.0, -1.0, 2.0], [1.0, 1.0, 1.0, 1.0], 0.5,
     uniform(20, 4.0), 1.0, 10),
    ([0.05, 0.3, 0.9], [0.0, 0.0, 0.0], [2.0, -1.0, 0.5], np.linspace(1.0, 0.3, 30),
     _decreasing(30, 1.0), 2.0, 25),
]


@pytest.mark.parametrize("point", MC_POINTS)
def test_monte_carlo_mean_matches_exact_moments(point):
    eigs, theta_star, theta1, eta, sigmas, G, N = point
    runs = 20_000
    problem = Quadratic(eigs, theta_star=theta_star)
    res = pgd(problem, theta1, eta, sigmas * (G / N), runs, seed=2024)
    mean, var = pgd_quadratic_mean_var(eigs, theta1, eta, sigmas * (G / N), theta_star=theta_star)
    # Standard error from the EXACT variance and the run count:
    # se = sqrt(Var[f(theta_{T+1})] / runs); a correct simulator fails
    # |mean_MC - E| < 4 se with probability ~6e-5.
    se = math.sqrt(var[0] / runs)
    assert abs(res.mean - mean[0]) < 4 * se, (res.mean, mean[0], se)
    # Sample variance: its relative sd is about sqrt((kurtosis - 1) / runs); the
    # excess risk here has kurtosis ~6-10, i.e. relative sd ~0.02 at 20000
    # runs.  Allow 15 % (>= 7 sd: the sample variance of a heavy-tailed
    # statistic converges to normality slowly).
    assert res.var == pytest.approx(var[0], rel=0.15)
    assert res.stderr == pytest.approx(math.sqrt(res.var / runs))


def test_variance_formula_one_coordinate():
    # One coordinate, one step: delta_2 = a*m1 - c*nu, f = lam/2 delta^2.
    lam, m1, eta, sigma, G, N = 0.8, 1.5, 0.5, 2.0, 3.0, 6.0
    a, c = 1 - eta * lam, eta * G * sigma / N
    mean, var = pgd_quadratic_mean_var([lam], [m1], [eta], np.array([sigma]) * (G / N))
    m, s2 = a * m1, c * c
    assert mean[0] == pytest.approx(0.5 * lam * (m * m + s2), rel=1e-14)
    # Var(delta^2) = 2 s^4 + 4 s^2 m^2 for delta ~ N(m, s^2).
    assert var[0] == pytest.approx(lam**2 / 4 * (2 * s2**2 + 4 * s2 * m**2), rel=1e-14)


def test_moments_vectorised_over_points():
    rng = np.random.default_rng(3)
    P, D, T = 7, 4, 9
    eigs = rng.uniform(0.1, 1.0, size=(P, D))
    theta1 = rng.normal(size=(P, D))
    etas = rng.uniform(0.1, 0.9, size=(P, T))
    sigmas = rng.uniform(0.5, 2.0, size=(P, T))
    G = rng.uniform(0.5, 2.0, size=P)
    batch = pgd_quadratic_moments(eigs, theta1, etas, sigmas * (G / 10)[:, None])
    batch_var = pgd_quadratic_variance(eigs, theta1, etas, sigmas * (G / 10)[:, None])
    assert batch.shape == (P,) and batch_var.shape == (P,)
    for p in range(P):
        one, one_var = pgd_quadratic_mean_var(eigs[p], theta1[p], etas[p], sigmas[p] * (G[p] / 10))
        assert batch[p] == pytest.approx(one[0], rel=1e-13)
        assert batch_var[p] == pytest.approx(one_var[0], rel=1e-13)
    # sigma = 0: deterministic GD, variance 0, mean = excess of gd.
    q = Quadratic(eigs[0])
    det = pgd_quadratic_mean_var(eigs[0], theta1[0], etas[0], np.zeros(T) * (1.0 / 10))
    assert det[1][0] == 0.0
    assert det[0][0] == pytest.approx(q.excess(gd(q, theta1[0], etas[0], T)), rel=1e-12)


# --------------------------------------------------------------------------- #
# chunk invariance
# --------------------------------------------------------------------------- #


def _summary(res: MCResult):
    return (res.runs, res.mean, res.var, res.sum, res.sumsq)


def test_chunk_invariance_quadratic_fast_path():
    kw = dict(problem=Quadratic(np.linspace(0.1, 1, 6)), theta1=np.ones(6), etas=0.5,
              noise_stds=uniform(8, 1.0) * (1.0 / 10), runs=10_000, seed=77)
    # 10000 runs = 9 full blocks + a partial block of 784 runs.
    results = [_summary(pgd(chunk_runs=c, **kw)) for c in (1024, 8192, 65536)]
    assert results[0] == results[1] == results[2]  # bit-identical


def test_chunk_invariance_generic_path(problems):
    kw = dict(problem=problems["logistic"], theta1=np.zeros(3), etas=0.5,
              noise_stds=uniform(5, 1.0) * (1.0 / 40), runs=5000, seed=78, clip=1.0)
    results = [_summary(pgd(chunk_runs=c, **kw)) for c in (1024, 8192, 65536)]
    assert results[0] == results[1] == results[2]  # bit-identical


# --------------------------------------------------------------------------- #
# schedules
# --------------------------------------------------------------------------- #


def test_uniform_spends_the_budget():
    np.testing.assert_allclose(uniform(7, 2.0) ** 2, 3.5, rtol=1e-15)
    assert total_cost(uniform(7, 2.0)) == pytest.approx(2.0, rel=1e-14)


# --------------------------------------------------------------------------- #
# problems
# --------------------------------------------------------------------------- #


def test_logistic_f_star_is_true_minimum(problems):
    problem = problems["logistic"]
    th = problem.theta_star[None, :]
    assert np.linalg.norm(problem.grad(th)) < 1e-10
    rng = np.random.default_rng(5)
    for eps in (1e-3, 1e-1, 1.0):
        probe = th + eps * rng.normal(size=(50, 3))
        assert np.all(problem.value(probe) >= problem.f_star)
    # Strong convexity: f(theta) - f* >= mu/2 ||theta - theta*||^2 (up to rounding).
    probe = th + rng.normal(size=(50, 3))
    gap = problem.value(probe) - problem.f_star
    assert np.all(gap >= 0.5 * problem.mu * np.sum((probe - th) ** 2, axis=1) - 1e-12)
    assert problem.mu == pytest.approx(0.1)
    X = np.asarray(problem.X)
    assert problem.M == pytest.approx(0.1 + np.linalg.eigvalsh(X.T @ X)[-1] / (4 * 40))


def test_logistic_separable_data_is_stable():
    # Perfectly separable, large margins: the ridge keeps the minimiser finite.
    X = np.array([[10.0, 0.0], [20.0, 1.0], [-10.0, 0.5], [-30.0, -1.0]])
    y = np.array([1.0, 1.0, -1.0, -1.0])
    problem = LogisticRegression(X, y, lam=1e-3)
    assert np.isfinite(problem.f_star)
    assert np.linalg.norm(problem.grad(problem.theta_star[None])) < 1e-10


def test_least_squares_f_star_exact(problems):
    problem = problems["least_squares"]
    X, y = np.asarray(problem.X), np.asarray(problem.y)
    theta = np.linalg.solve(X.T @ X / 40 + 0.05 * np.eye(3), X.T @ y / 40)
    np.testing.assert_allclose(problem.theta_star, theta, rtol=1e-10)
    assert np.linalg.norm(problem.grad(problem.theta_star[None])) < 1e-10
    eig = np.linalg.eigvalsh(X.T @ X / 40)
    assert (problem.mu, problem.M) == pytest.approx((0.05 + eig[0], 0.05 + eig[-1]))


def _explicit_sample_grads(problem, theta):
    """(runs, N, D) per-sample gradients, for checking only."""
    X = np.asarray(problem.X)
    m = theta @ X.T
    if isinstance(problem, LeastSquares):
        r = m - problem.y
    elif isinstance(problem, LogisticRegression):
        r = -problem.y / (1.0 + np.exp(problem.y * m))
    else:
        r = np.ones_like(m)
    return r[..., None] * X[None] + problem.lam * theta[:, None, :]


@pytest.mark.parametrize("name", ["least_squares", "logistic", "linear"])
def test_clipping_bounds_per_sample_gradients(problems, name):
    problem = problems[name]
    theta = np.random.default_rng(6).normal(size=(5, 3)) * 2
    g = _explicit_sample_grads(problem, theta)
    norms = np.linalg.norm(g, axis=-1)
    np.testing.assert_allclose(problem.per_sample_grad_norms(theta), norms, rtol=1e-9,
                               atol=1e-12)
    np.testing.assert_allclose(problem.grad(theta), g.mean(axis=1), rtol=1e-10, atol=1e-12)
    clip = float(np.median(norms))  # about half of the samples get clipped
    factor = np.minimum(1.0, clip / norms)
    clipped = g * factor[..., None]
    assert np.all(np.linalg.norm(clipped, axis=-1) <= clip * (1 + 1e-12))
    np.testing.assert_allclose(problem.grad(theta, clip=clip), clipped.mean(axis=1),
                               rtol=1e-9, atol=1e-12)
    # The clipped mean gradient itself is bounded by clip.
    assert np.all(np.linalg.norm(problem.grad(theta, clip=clip), axis=-1) <= clip * (1 + 1e-12))


def test_clip_that_clips_nothing_changes_nothing(problems):
    # The noise is noise_stds whether or not gradients are clipped.
    problem = problems["linear"]  # gradient is constant, so theta_T is pure noise + drift
    kw = dict(theta1=np.zeros(3), etas=1.0, noise_stds=[0.1], runs=1024, seed=1,
              return_thetas=True, statistic=lambda th: th[:, 0])
    big = np.max(problem.per_sample_grad_norms(np.zeros((1, 3)))) * 2  # no sample clipped
    a = pgd(problem, clip=big, **kw).thetas
    b = pgd(problem, **kw).thetas
    np.testing.assert_array_equal(a, b)


def test_neighbour_and_remove(problems):
    for name in ("least_squares", "logistic", "linear"):
        problem = problems[name]
        nb = make_neighbour(problem, 2, [9.0, 9.0, 9.0])
        assert type(nb) is type(problem) and nb.n_samples == problem.n_samples
        np.testing.assert_array_equal(nb.X[2], [9.0, 9.0, 9.0])
        np.testing.assert_array_equal(np.delete(nb.X, 2, 0), np.delete(problem.X, 2, 0))
        if problem.y is not None:
            assert nb.y[2] == problem.y[2]  # y_new=None keeps the label
        rm = remove_sample(problem, 2)
        assert type(rm) is type(problem)
        assert rm.n_samples == problem.n_samples - 1 and rm.normaliser == problem.normaliser
        # [dni, Def. B.1]: grad f - grad f_{-n} = grad f(theta; x_n) / N.
        theta = np.random.default_rng(8).normal(size=(4, 3))
        diff = problem.grad(theta) - rm.grad(theta)
        g_n = _explicit_sample_grads(problem, theta)[:, 2, :]
        np.testing.assert_allclose(diff, g_n / problem.n_samples, rtol=1e-9, atol=1e-13)
    flipped = make_neighbour(problems["logistic"], 0, problems["logistic"].X[0], y_new=-1.0)
    assert flipped.y[0] == -1.0


def test_coupled_pgd_shares_noise(problems):
    problem = problems["linear"]
    nb = make_neighbour(problem, 0, [5.0, -5.0, 5.0])
    etas = np.full(6, 0.2)
    kw = dict(theta1=np.zeros(3), etas=etas, noise_stds=np.full(6, 3.0) * (problem.G / 40),
              runs=1500, seed=12)
    ta, tb = coupled_pgd(problem, nb, **kw)
    # Linear loss: the noise cancels, theta_a - theta_b = -sum_t eta_t (x_0 - x_0') / N.
    expected = -etas.sum() * (problem.X[0] - nb.X[0]) / 40
    np.testing.assert_allclose(ta - tb, np.broadcast_to(expected, ta.shape), atol=1e-12)
    # theta_a is exactly the pgd trajectory with the same seed (generic path).
    ref = pgd(problem, return_thetas=True, statistic=lambda th: th[:, 0], **kw).thetas
    np.testing.assert_array_equal(ta, ref)
    assert ta.std() > 0.1  # noise really was added


def test_problems_are_immutable(problems):
    q = problems["quadratic"]
    with pytest.raises(AttributeError):
        q.mu = 3.0
    with pytest.raises(ValueError):
        q.eigs[0] = 5.0  # read-only array
    assert q.value(np.zeros((2, 3))).shape == (2,)
    assert q.excess(q.theta_star[None])[0] == 0.0


# --------------------------------------------------------------------------- #
# bad input
# --------------------------------------------------------------------------- #

_Q = Quadratic([1.0, 2.0])
_X = np.eye(3)


@pytest.mark.parametrize(
    "call, name",
    [
        (lambda: block_rng(-1, 0), "seed"),
        (lambda: block_rng(0, -1), "block"),
        (lambda: list(iter_chunks(0, 1024)), "runs"),
        (lambda: list(iter_chunks(10, 0)), "chunk_runs"),
        (lambda: Quadratic([-1.0, 1.0]), "eigs"),
        (lambda: Quadratic([1.0, 1.0], theta_star=[0.0]), "theta_star"),
        (lambda: Quadratic([1.0], f_star=np.nan), "f_star"),
        (lambda: LeastSquares(np.ones(3), np.ones(3)), "X"),
        (lambda: LeastSquares(_X, np.ones(2)), "y"),
        (lambda: LeastSquares(_X, np.ones(3), lam=-1.0), "lam"),
        (lambda: LogisticRegression(_X, [1.0, 0.0, 1.0], 0.1), "y"),
        (lambda: LogisticRegression(_X, [1.0, -1.0, 1.0], 0.0), "lam"),
        (lambda: LinearLoss(_X, normaliser=0.0), "normaliser"),
        (lambda: make_neighbour(LinearLoss(_X), 3, np.ones(3)), "index"),
        (lambda: make_neighbour(LinearLoss(_X), 0, np.ones(2)), "x_new"),
        (lambda: make_neighbour(LinearLoss(_X), 0, np.ones(3), y_new=1.0), "y_new"),
        (lambda: make_neighbour(_Q, 0, np.ones(2)), "problem"),
        (lambda: remove_sample(LinearLoss(np.ones((1, 2))), 0), "problem"),
        (lambda: _Q.grad(np.ones((2, 2)), clip=1.0), "clip"),
        (lambda: _Q.value(np.ones((2, 3))), "theta"),
        (lambda: LinearLoss(_X).grad(np.ones((2, 3)), clip=-1.0), "clip"),
        (lambda: LinearLoss(_X).lipschitz_on_ball(-1.0), "radius"),
        (lambda: uniform(0, 1.0), "T"),
        (lambda: uniform(5, 0.0), "R"),
        (lambda: uniform(2.5, 1.0), "T"),
        (lambda: pgd("q", [0, 0], 0.1, [0.1], 10, 0), "problem"),
        (lambda: pgd(_Q, [0, 0, 0], 0.1, [0.1], 10, 0), "theta1"),
        (lambda: pgd(_Q, [0, 0], [0.1, 0.1], [0.1], 10, 0), "etas"),
        (lambda: pgd(_Q, [0, 0], -0.1, [0.1], 10, 0), "etas"),
        (lambda: pgd(_Q, [0, 0], 0.1, [-0.1], 10, 0), "noise_stds"),
        (lambda: pgd(_Q, [0, 0], 0.1, [np.nan], 10, 0), "noise_stds"),
        (lambda: pgd(_Q, [0, 0], 0.1, [np.inf], 10, 0), "noise_stds"),
        (lambda: pgd(_Q, [0, 0], 0.1, [[0.1]], 10, 0), "noise_stds"),
        (lambda: pgd(_Q, [0, 0], 0.1, [0.1], 0, 0), "runs"),
        (lambda: pgd(_Q, [0, 0], 0.1, [0.1], 1e5, 0), "runs"),
        (lambda: pgd(_Q, [0, 0], 0.1, [0.1], 10, -3), "seed"),
        (lambda: pgd(_Q, [0, 0], 0.1, [0.1], 10, 0, chunk_runs=0), "chunk_runs"),
        (lambda: pgd(_Q, [0, 0], 0.1, [0.1], 10, 0, clip=0.0), "clip"),
        (lambda: pgd(_Q, [0, 0], 0.1, [], 10, 0, clip=1.0), "clip"),
        (lambda: coupled_pgd(_Q, _Q, [0, 0], 0.1, [0.1], 10, 0, clip=1.0), "clip"),
        (lambda: pgd(_Q, [0, 0], 0.1, [0.1], 10, 0, statistic=3), "statistic"),
        (lambda: pgd(_Q, [0, 0], 0.1, [0.1], 10, 0,
                     statistic=lambda th: th), "statistic"),
        (lambda: coupled_pgd(_Q, Quadratic([1.0]), [0, 0], 0.1, [0.1], 10, 0),
         "problem_b"),
        (lambda: gd(_Q, [0, 0], 0.1, -1), "T"),
        (lambda: pgd_quadratic_moments([1.0], [0.0, 1.0], 0.1, [0.1]), "theta1"),
        (lambda: pgd_quadratic_moments([1.0], [0.0], [0.1, 0.2], [0.1]), "etas"),
        (lambda: pgd_quadratic_moments(np.ones((2, 1)), np.ones((3, 1)), 0.1, [0.1]),
         "theta1"),
        (lambda: pgd_quadratic_moments([1.0], [0.0], 0.1, [-0.1]), "noise_stds"),
        (lambda: pgd_quadratic_moments(np.ones((2, 1)), np.ones((2, 1)), 0.1, np.ones((3, 1))),
         "noise_stds"),
        (lambda: pgd_quadratic_moments([-1.0], [0.0], 0.1, [0.1]), "eigs"),
    ],
)
def test_bad_input_raises_value_error_naming_parameter(call, name):
    with pytest.raises(ValueError, match=rf"^{name} "):
        call()
