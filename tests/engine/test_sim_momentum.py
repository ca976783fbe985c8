"""Tests of momentum PGD and private SGD in ``dpverify.sim`` ([dni] = seed 000_155fea93f75f24eb).

Covers [dni, eq. (10)] (bias-corrected momentum) and [dni, Sec. 4.3] (PSGD).
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
    Quadratic,
    gd,
    minibatch_grad,
    momentum_pgd,
    momentum_quadratic_mean_var,
    momentum_quadratic_moments,
    pgd,
    pgd_quadratic_mean_var,
    psgd,
    remove_sample,
    sampling_noise_moments,
)
from simresults import same_result

# --------------------------------------------------------------------------- #
# fixtures
# --------------------------------------------------------------------------- #


DATA = ["least_squares", "logistic", "linear"]
THETA1 = np.array([0.5, -0.3, 0.8])
T = 25
SIGMAS = np.linspace(3.0, 1.0, T)


_same = same_result


# --------------------------------------------------------------------------- #
# momentum PGD [dni, eq. (10)]
# --------------------------------------------------------------------------- #


@pytest.mark.parametrize("name, clip", [("least_squares", None), ("logistic", 1.5),
                                        ("linear", None), ("least_squares", 2.0)])
def test_momentum_beta0_is_pgd_bit_for_bit(problems, name, clip):
    """beta = 0 uses pgd's noise and arithmetic: identical results (no tolerance)."""
    p = problems[name]
    runs = 2 * BLOCK + 300  # partial last block
    kw = dict(chunk_runs=BLOCK, clip=clip, return_thetas=True, statistic=p.value)
    a = pgd(p, THETA1, 0.05, SIGMAS * (1.0 / 40), runs, 11, **kw)
    b = momentum_pgd(p, THETA1, 0.05, SIGMAS * (1.0 / 40), 0.0, runs, 11, **kw)
    _same(a, b)


def test_momentum_beta0_is_pgd_on_quadratic(problems):
    """Quadratic: bit for bit with pgd's generic path; to rounding with its fast path."""
    p = problems["quadratic"]
    runs = BLOCK + 5
    # momentum_pgd's fused kernel (theta form) performs the NumPy generic path's operations, so
    # the iterates are bit-identical whichever path momentum_pgd takes; the statistic is then
    # evaluated by the same Python code.
    for fast in (True, False):
        b = momentum_pgd(p, THETA1, 0.3, SIGMAS * (1.0 / 10), 0.0, runs, 4, return_thetas=True,
                         statistic=p.excess, fast_path=fast)
        a = pgd(p, THETA1, 0.3, SIGMAS * (1.0 / 10), runs, 4, return_thetas=True, fast_path=False,
                statistic=p.excess)
        _same(a, b)
    # Default statistic: the fused kernel sums 1/2 eigs delta^2 itself (rounding differs).
    c = momentum_pgd(p, THETA1, 0.3, SIGMAS * (1.0 / 10), 0.0, runs, 4)
    assert c.mean == pytest.approx(a.mean, rel=1e-12)
    fast = pgd(p, THETA1, 0.3, SIGMAS * (1.0 / 10), runs, 4, return_thetas=True)
    # same noise, different association of ~T roundings per coordinate
    np.testing.assert_allclose(b.thetas, fast.thetas, rtol=1e-12, atol=1e-12)


@pytest.mark.parametrize("fast", [False, True])
@pytest.mark.parametrize("name, clip", [("least_squares", None), ("logistic", 0.8)])
def test_momentum_noiseless_matches_hand_loop_and_phi(problems, name, clip, fast):
    """sigma = 0, one run: the momentum recursion by hand (NumPy path: bit for bit; fused
    kernel, whose gradients use loops instead of BLAS: to rounding) and phi (to rounding)."""
    p, beta, eta = problems[name], 0.9, 0.05
    res = momentum_pgd(p, THETA1, eta, np.zeros(T) * (1.0 / 40), beta, 1, 0, clip=clip,
                       return_thetas=True, fast_path=fast)
    theta = THETA1[None, :].copy()
    v = np.zeros_like(theta)
    for t in range(1, T + 1):
        g = p.grad(theta, clip)
        v = beta * v + (1.0 - beta) * g
        m = v / (1.0 - beta ** t)
        theta = theta - eta * m
    if fast:
        np.testing.assert_allclose(res.thetas, theta, rtol=1e-12, atol=1e-14)
    else:
        assert np.array_equal(res.thetas, theta)
    assert res.steps == T and res.runs == 1 and math.isnan(res.var)

    # m_{t+1} = phi(m_t, g_t) = [beta(1-beta^{t-1}) m_t + (1-beta) g_t]/(1-beta^t), m_2 = g_1
    theta_phi = THETA1[None, :].copy()
    m = None
    for t in range(1, T + 1):
        g = p.grad(theta_phi, clip)
        m = g if t == 1 else (beta * (1 - beta ** (t - 1)) * m + (1 - beta) * g) / (1 - beta ** t)
        theta_phi = theta_phi - eta * m
    # algebraically identical; differences are O(T) roundings
    np.testing.assert_allclose(theta_phi, theta, rtol=1e-12, atol=1e-13)


def test_momentum_moments_beta0_equal_pgd_moments():
    eigs = np.array([0.1, 0.7, 1.9])
    sig = np.linspace(0.5, 2.0, 30)
    for beta in (0.0, [0.0, 0.0]):
        m, v = momentum_quadratic_mean_var(eigs, [1.0, -1.0, 2.0], 0.2, sig * (1.5 / 20), beta)
        m0, v0 = pgd_quadratic_mean_var(eigs, [1.0, -1.0, 2.0], 0.2, sig * (1.5 / 20))
        np.testing.assert_allclose(m, np.broadcast_to(m0, m.shape), rtol=1e-13)
        np.testing.assert_allclose(v, np.broadcast_to(v0, v.shape), rtol=1e-13)


def test_momentum_moments_vectorised_over_points():
    eigs = np.array([[0.1, 0.7, 1.9], [0.3, 0.3, 2.5]])
    th = np.array([[1.0, -1.0, 2.0], [0.0, 3.0, -1.0]])
    sig = np.array([np.linspace(0.5, 2.0, 12), np.linspace(3.0, 1.0, 12)])
    etas = np.array([np.full(12, 0.2), np.linspace(0.3, 0.1, 12)])
    beta = np.array([0.5, 0.95])
    G, N = np.array([1.0, 2.0]), np.array([10.0, 50.0])
    m, v = momentum_quadratic_mean_var(eigs, th, etas, sig * (G / N)[:, None], beta)
    for i in range(2):
        mi, vi = momentum_quadratic_mean_var(eigs[i], th[i], etas[i], sig[i] * (G[i] / N[i]), beta[i])
        assert m[i] == mi[0] and v[i] == vi[0]
    np.testing.assert_array_equal(momentum_quadratic_moments(eigs, th, etas, sig * (G / N)[:, None], beta), m)


@pytest.mark.parametrize("case", [
    # (eigs, theta_star, theta1, etas, sigmas, beta, G, N)
    ([0.2, 0.5, 1.0, 2.0], [1.0, -2.0, 0.5, 0.0], [2.0, 2.0, 2.0, 2.0], 0.1,
     np.linspace(1.0, 3.0, 40), 0.5, 1.0, 10.0),
    ([0.05, 1.5, 3.0], [0.0, 0.0, 1.0], [3.0, -1.0, 0.0], np.linspace(0.2, 0.05, 30),
     np.full(30, 2.0), 0.9, 2.0, 25.0),
])
def test_momentum_exact_moments_agree_with_monte_carlo(case):
    eigs, ts, th1, etas, sig, beta, G, N = case
    p = Quadratic(eigs, theta_star=ts, f_star=0.7)
    runs = 2 ** 17
    res = momentum_pgd(p, th1, etas, sig * (G / N), beta, runs, 123)
    mean, var = momentum_quadratic_mean_var(eigs, th1, etas, sig * (G / N), beta, theta_star=ts)
    # CLT: the MC mean is within 4 standard errors sqrt(Var/runs) (exact Var) w.p. ~1 - 6e-5
    assert abs(res.mean - mean[0]) <= 4.0 * math.sqrt(var[0] / runs)
    # Sample variance: relative s.e. sqrt((kappa - 1)/runs) with kurtosis kappa <= 15 (that of
    # chi^2_1, the heaviest case of a weighted sum of non-central chi^2_1); allow 5 s.e.
    assert abs(res.var / var[0] - 1.0) <= 5.0 * math.sqrt(14.0 / runs)


# --------------------------------------------------------------------------- #
# chunk invariance
# --------------------------------------------------------------------------- #


@pytest.mark.parametrize("name, clip", [("least_squares", None), ("logistic", 1.0),
                                        ("quadratic", None)])
def test_momentum_chunk_invariance(problems, name, clip):
    runs = 3 * BLOCK + 77
    kw = dict(clip=clip, return_thetas=True)
    a = momentum_pgd(problems[name], THETA1, 0.05, SIGMAS * (1.0 / 40), 0.8, runs, 9,
                     chunk_runs=BLOCK, **kw)
    b = momentum_pgd(problems[name], THETA1, 0.05, SIGMAS * (1.0 / 40), 0.8, runs, 9,
                     chunk_runs=8192, **kw)
    _same(a, b)


@pytest.mark.parametrize("name, clip, beta", [("least_squares", None, None),
                                              ("logistic", 1.0, 0.9), ("linear", None, 0.5)])
def test_psgd_chunk_invariance(problems, name, clip, beta):
    runs = 3 * BLOCK + 77
    kw = dict(clip=clip, beta=beta, return_thetas=True, statistic=problems[name].value)
    a = psgd(problems[name], THETA1, 0.05, SIGMAS * (1.0 / 8), 8, runs, 9, chunk_runs=BLOCK, **kw)
    b = psgd(problems[name], THETA1, 0.05, SIGMAS * (1.0 / 8), 8, runs, 9, chunk_runs=8192, **kw)
    _same(a, b)


# --------------------------------------------------------------------------- #
# PSGD [dni, Sec. 4.3]
# --------------------------------------------------------------------------- #


def test_psgd_beta0_is_plain_psgd(problems):
    p = problems["least_squares"]
    a = psgd(p, THETA1, 0.05, SIGMAS * (1.0 / 4), 4, BLOCK + 3, 2, return_thetas=True)
    b = psgd(p, THETA1, 0.05, SIGMAS * (1.0 / 4), 4, BLOCK + 3, 2, beta=0.0, return_thetas=True)
    _same(a, b)


@pytest.fixture(scope="module")
def identical():
    """Least squares whose 16 samples are all equal: every mini-batch gradient is grad f."""
    X = np.tile([[1.5, -0.5, 2.0]], (16, 1))
    return LeastSquares(X, np.full(16, 0.7), lam=0.1)


def test_psgd_identical_samples_noiseless_is_gd(identical):
    runs = BLOCK + 10
    res = psgd(identical, THETA1, 0.05, np.zeros(T) * (1.0 / 8), 8, runs, 5, return_thetas=True)
    det = gd(identical, THETA1, 0.05, T)
    # Averaging 8 (psgd) or 16 (gd) equal gradients differs only by rounding.
    np.testing.assert_allclose(res.thetas, np.broadcast_to(det, res.thetas.shape),
                               rtol=1e-12, atol=1e-14)
    assert res.var < 1e-24  # all runs equal up to rounding


def test_psgd_identical_samples_is_pgd_run_by_run(identical):
    """Same privacy-noise stream as pgd: with no sampling noise, psgd(batch=n) = pgd(N=n)."""
    runs = BLOCK + 10
    a = psgd(identical, THETA1, 0.05, SIGMAS * (1.0 / 8), 8, runs, 5, beta=0.7, return_thetas=True)
    b = momentum_pgd(identical, THETA1, 0.05, SIGMAS * (1.0 / 8), 0.7, runs, 5, return_thetas=True)
    np.testing.assert_allclose(a.thetas, b.thetas, rtol=1e-10, atol=1e-12)
    c = psgd(identical, THETA1, 0.05, SIGMAS * (1.0 / 8), 8, runs, 5, return_thetas=True)
    d = pgd(identical, THETA1, 0.05, SIGMAS * (1.0 / 8), runs, 5, return_thetas=True)
    np.testing.assert_allclose(c.thetas, d.thetas, rtol=1e-10, atol=1e-12)


@pytest.mark.parametrize("name, clip", [("least_squares", None), ("logistic", None),
                                        ("linear", None), ("least_squares", 3.0),
                                        ("logistic", 0.5)])
def test_minibatch_grad_full_enumeration_is_full_gradient(problems, name, clip):
    p = problems[name]
    thetas = np.array([THETA1, [2.0, 1.0, -1.0]])
    idx = np.tile(np.arange(p.n_samples), (2, 1))
    np.testing.assert_allclose(minibatch_grad(p, thetas, idx, clip), p.grad(thetas, clip),
                               rtol=1e-12, atol=1e-13)
    # remove_sample keeps normaliser = N: the batch average is rescaled by (N-1)/N
    q = remove_sample(p, 3)
    idx = np.tile(np.arange(q.n_samples), (2, 1))
    np.testing.assert_allclose(minibatch_grad(q, thetas, idx, clip), q.grad(thetas, clip),
                               rtol=1e-12, atol=1e-13)


@pytest.mark.parametrize("name, clip", [("least_squares", None), ("logistic", 0.5)])
def test_sampling_noise_moments_exact(problems, name, clip):
    """Trace = population covariance trace of the per-sample gradients / batch."""
    p = problems[name]
    per = minibatch_grad(p, np.tile(THETA1, (p.n_samples, 1)),
                         np.arange(p.n_samples)[:, None], clip)  # batch 1: all samples
    tr1 = np.sum((per - per.mean(axis=0)) ** 2) / p.n_samples
    mean, tr = sampling_noise_moments(p, THETA1, 5, clip)
    np.testing.assert_allclose(mean, p.grad(THETA1, clip), rtol=1e-14)
    np.testing.assert_allclose(tr, tr1 / 5, rtol=1e-12)


@pytest.mark.parametrize("name, clip", [("least_squares", None), ("logistic", 0.5)])
def test_psgd_minibatch_gradient_unbiased(problems, name, clip):
    """One step with eta = 1, sigma = 0: theta1 - theta2 is one mini-batch gradient per run."""
    p, batch, runs = problems[name], 4, 2 ** 16
    res = psgd(p, THETA1, 1.0, np.array([0.0]) * (1.0 / batch), batch, runs, 77, clip=clip, return_thetas=True)
    ghat = THETA1 - res.thetas
    mean, tr = sampling_noise_moments(p, THETA1, batch, clip)
    per = minibatch_grad(p, np.tile(THETA1, (p.n_samples, 1)),
                         np.arange(p.n_samples)[:, None], clip)
    sd = np.sqrt(per.var(axis=0) / batch)  # exact per-coordinate sd of one mini-batch gradient
    # each coordinate of the run average within 5 standard errors sd / sqrt(runs)
    assert np.all(np.abs(ghat.mean(axis=0) - mean) <= 5.0 * sd / math.sqrt(runs))
    # E||ghat - mean||^2 = tr; its MC estimate within 5 s.e. (s.e. estimated from the runs)
    sq = np.sum((ghat - mean) ** 2, axis=1)
    assert abs(sq.mean() - tr) <= 5.0 * sq.std() / math.sqrt(runs)


# --------------------------------------------------------------------------- #
# input validation
# --------------------------------------------------------------------------- #


@pytest.mark.parametrize("kwargs, name", [
    (dict(beta=1.0), "beta"), (dict(beta=-0.1), "beta"), (dict(beta=float("nan")), "beta"),
    (dict(beta="0.5"), "beta"), (dict(runs=0), "runs"), (dict(seed=-1), "seed"),
    (dict(etas=[0.1, 0.2]), "etas"),
    (dict(theta1=[1.0, 2.0]), "theta1"), (dict(noise_stds=[-1.0]), "noise_stds"),
    (dict(chunk_runs=0), "chunk_runs"), (dict(statistic=3), "statistic"),
])
def test_momentum_pgd_bad_inputs(problems, kwargs, name):
    args = dict(problem=problems["least_squares"], theta1=THETA1, etas=0.1, noise_stds=[0.025],
                beta=0.9, runs=10, seed=0)
    args.update(kwargs)
    with pytest.raises(ValueError, match=rf"^{name} "):
        momentum_pgd(**args)


def test_momentum_pgd_rejects_clip_on_quadratic(problems):
    with pytest.raises(ValueError, match="^clip "):
        momentum_pgd(problems["quadratic"], THETA1, 0.1, np.array([1.0]) * (1.0 / 10), 0.5, 5, 0, clip=1.0)


@pytest.mark.parametrize("kwargs, name", [
    (dict(batch=0), "batch"), (dict(batch=2.0), "batch"), (dict(beta=1.0), "beta"),
    (dict(clip=0.0), "clip"),
    (dict(runs=1.5), "runs"), (dict(problem=Quadratic([1.0, 1.0, 1.0])), "problem"),
    (dict(problem="ls"), "problem"), (dict(noise_stds=[[1.0]]), "noise_stds"),
])
def test_psgd_bad_inputs(problems, kwargs, name):
    args = dict(problem=problems["least_squares"], theta1=THETA1, etas=0.1, noise_stds=[0.25],
                batch=4, runs=10, seed=0)
    args.update(kwargs)
    with pytest.raises(ValueError, match=rf"^{name} "):
        psgd(**args)


def test_moment_and_helper_bad_inputs(problems):
    eigs, th, sig = [0.5, 1.0], [1.0, 1.0], [0.1, 0.2]
    with pytest.raises(ValueError, match="^beta "):
        momentum_quadratic_moments(eigs, th, 0.1, sig, 1.0)
    with pytest.raises(ValueError, match="^beta "):
        momentum_quadratic_mean_var(eigs, th, 0.1, sig, [-0.5])
    with pytest.raises(ValueError, match="^beta "):
        momentum_quadratic_moments([eigs, eigs], th, 0.1, sig, [0.1, 0.2, 0.3])
    with pytest.raises(ValueError, match="^etas "):
        momentum_quadratic_moments(eigs, th, [0.1], sig, 0.5)
    with pytest.raises(ValueError, match="^noise_stds "):
        momentum_quadratic_moments(eigs, th, 0.1, [0.1, -0.2], 0.5)
    p = problems["least_squares"]
    with pytest.raises(ValueError, match="^indices "):
        minibatch_grad(p, THETA1[None, :], [[0, 40]])
    with pytest.raises(ValueError, match="^indices "):
        minibatch_grad(p, THETA1[None, :], [[0.5]])
    with pytest.raises(ValueError, match="^batch "):
        sampling_noise_moments(p, THETA1, 0)
    with pytest.raises(ValueError, match="^problem "):
        sampling_noise_moments(problems["quadratic"], THETA1, 2)
