"""Fused kernels, worker threads and their invariants (``dpverify.sim.draws``, the kernel modules, ``parallel``).

* the fused generator draws exactly NumPy's numbers (normals and mini-batch indices);
* results are bit-identical for every ``workers`` and ``chunk_runs``, on both paths;
* the fused and NumPy paths agree (quadratic iterates bit for bit, the rest to rounding);
* sigma = 0 is exact gradient descent for every fused kernel;
* Monte Carlo agrees with exact moments (tolerances from the run counts, fixed seeds);
* without numba the NumPy path runs.

All random tests use fixed seeds; no test is timed.
"""

from __future__ import annotations

import json
import math
import os
import subprocess
import sys
import threading

import numpy as np
import pytest

from dpverify import sim
from dpverify.sim import (
    BLOCK,
    LeastSquares,
    Quadratic,
    block_rng,
    coupled_pgd,
    gd,
    make_neighbour,
    momentum_pgd,
    pgd,
    pgd_quadratic_mean_var,
    psgd,
    remove_sample,
    sfc64_state,
    uniform,
)
from dpverify.sim import draws, parallel
from dpverify.sim.rng import index_rng
from simresults import same_result  # noqa: E402

needs_numba = pytest.mark.skipif(not draws.numba_available(), reason="numba not installed")

THETA1 = np.array([0.5, -0.3, 0.8])
T = 12
SIGMAS = np.linspace(3.0, 1.0, T)
ETAS = np.linspace(0.3, 0.1, T)


_same = same_result


@pytest.fixture
def fused(request):
    """Run a test with the fused kernels on (``True``) or off (``False``)."""
    on = request.param
    if on and not draws.numba_available():
        pytest.skip("numba not installed")
    sim.set_fused(on)
    yield on
    sim.set_fused(None)


@pytest.fixture
def tiny_tasks(monkeypatch):
    """One block a task and no small-job shortcut, so that several threads really run."""
    monkeypatch.setattr(parallel, "TASK_WORK", 1.0)


# --------------------------------------------------------------------------- #
# the fused generator draws NumPy's numbers
# --------------------------------------------------------------------------- #


@needs_numba
def test_fused_normals_are_numpys():
    assert draws.self_check()
    blocks = [0, 1, 977]
    states = np.stack([sfc64_state(block_rng(31, b)) for b in blocks])
    got = np.empty((3, 300_000))   # ~2700 draws a block go through the rejection branches
    draws.fill_normal(states, got)
    for i, b in enumerate(blocks):
        rng = block_rng(31, b)
        np.testing.assert_array_equal(got[i], rng.standard_normal(300_000))
        np.testing.assert_array_equal(states[i], sfc64_state(rng))  # same state afterwards


@needs_numba
@pytest.mark.parametrize("hi", [0, 1, 2, 39, 1000, 2**31 + 5, 2**32 - 2])
def test_fused_indices_are_numpys(hi):
    state = sfc64_state(index_rng(8, 3))
    got = np.empty(20_000, dtype=np.int64)
    draws.fill_index(state, hi, got)
    np.testing.assert_array_equal(got, index_rng(8, 3).integers(0, hi + 1, size=20_000))


def test_sfc64_state_rejects_other_generators():
    with pytest.raises(ValueError, match="^rng "):
        sfc64_state(np.random.default_rng(0))
    rng = block_rng(1, 0)
    rng.integers(0, 10)  # leaves a buffered 32-bit half
    with pytest.raises(ValueError, match="^rng "):
        sfc64_state(rng)


# --------------------------------------------------------------------------- #
# bit-identity across workers and chunk sizes
# --------------------------------------------------------------------------- #

RUNS = 5 * BLOCK + 77   # 6 blocks, the last one partial


def _cases(problems):
    ls, lg, lin, q = (problems[k] for k in ("least_squares", "logistic", "linear", "quadratic"))
    base = dict(theta1=THETA1, etas=ETAS, noise_stds=SIGMAS * (1.0 / 40), runs=RUNS, seed=21)
    return {
        "pgd_quadratic_default_stat": lambda **kw: pgd(q, **base, **kw),
        "pgd_quadratic_thetas": lambda **kw: pgd(q, **base, statistic=q.value,
                                                 return_thetas=True, **kw),
        "pgd_least_squares_clip": lambda **kw: pgd(ls, **base, clip=2.0, return_thetas=True,
                                                   **kw),
        "pgd_logistic": lambda **kw: pgd(lg, **base, **kw),
        "momentum_quadratic": lambda **kw: momentum_pgd(q, beta=0.8, **base,
                                                        return_thetas=True, **kw),
        "momentum_logistic_clip": lambda **kw: momentum_pgd(lg, beta=0.6, clip=1.0, **base,
                                                            statistic=lg.value, **kw),
        "psgd_linear_momentum": lambda **kw: psgd(lin, batch=5, beta=0.5, statistic=lin.value,
                                                  return_thetas=True, **base, **kw),
        "psgd_least_squares_clip": lambda **kw: psgd(ls, batch=3, clip=1.5, **base, **kw),
        "coupled_quadratics": lambda **kw: coupled_pgd(q, Quadratic([1.0, 0.1, 0.4]), **base,
                                                       **kw),
        "coupled_linear": lambda **kw: coupled_pgd(lin, make_neighbour(lin, 0, [5.0, -5.0, 5.0]),
                                                   **base, **kw),
        "coupled_removed_sample": lambda **kw: coupled_pgd(ls, remove_sample(ls, 3), **base,
                                                           clip=1.0, **kw),
    }


CASES = [
    "pgd_quadratic_default_stat", "pgd_quadratic_thetas", "pgd_least_squares_clip",
    "pgd_logistic", "momentum_quadratic", "momentum_logistic_clip", "psgd_linear_momentum",
    "psgd_least_squares_clip", "coupled_quadratics", "coupled_linear", "coupled_removed_sample"]


def _equal(a, b):
    if isinstance(a, tuple):
        for x, y in zip(a, b):
            assert np.array_equal(x, y)
    else:
        _same(a, b)


@pytest.mark.parametrize("fused", [True, False], indirect=True)
@pytest.mark.parametrize("case", CASES)
def test_bit_identical_for_every_workers_and_chunk_runs(problems, case, fused, tiny_tasks):
    run = _cases(problems)[case]
    ref = run(workers=1, chunk_runs=65536)
    for workers in (1, 2, 3):
        for chunk_runs in (1024, 3000, 65536):
            _equal(run(workers=workers, chunk_runs=chunk_runs), ref)


@pytest.mark.parametrize("fused", [True, False], indirect=True)
def test_several_threads_really_run(problems, fused, tiny_tasks):
    q = problems["quadratic"]
    seen = set()
    # each worker thread waits at its first task until the other one has one too: with two real
    # workers both arrive (the first one blocks, so the other takes a task), with one the wait
    # times out and the test fails; no race on which thread happens to be faster
    meet = threading.Barrier(2, timeout=60)

    def statistic(theta):
        me = threading.get_ident()
        if me not in seen:
            seen.add(me)
            meet.wait()
        return q.excess(theta)

    res = pgd(q, THETA1, ETAS, SIGMAS * (1.0 / 40), 40 * BLOCK, 3, statistic=statistic, workers=2)
    assert len(seen) == 2 and threading.get_ident() not in seen
    _same(res, pgd(q, THETA1, ETAS, SIGMAS * (1.0 / 40), 40 * BLOCK, 3, statistic=q.excess,
                   workers=1))


def test_error_in_a_worker_propagates(problems, tiny_tasks):
    q = problems["quadratic"]
    with pytest.raises(ValueError, match="^statistic "):
        pgd(q, THETA1, ETAS, SIGMAS * (1.0 / 40), 8 * BLOCK, 3, statistic=lambda th: th, workers=2)


# --------------------------------------------------------------------------- #
# fused path vs NumPy path
# --------------------------------------------------------------------------- #


def _both(run):
    """``(fused, numpy)`` results of ``run(fast_path=...)`` with the same seed."""
    sim.set_fused(True)
    try:
        a = run()
    finally:
        sim.set_fused(False)
    try:
        b = run()
    finally:
        sim.set_fused(None)
    return a, b


@needs_numba
def test_quadratic_fused_iterates_equal_numpy_fast_path(problems):
    q = problems["quadratic"]
    kw = dict(runs=2 * BLOCK + 9, seed=5, return_thetas=True)
    a, b = _both(lambda: pgd(q, THETA1, ETAS, SIGMAS * (1.0 / 40), **kw, statistic=q.excess))
    _same(a, b)    # same noise and operations: bit for bit
    a, b = _both(lambda: pgd(q, THETA1, ETAS, SIGMAS * (1.0 / 40), **kw))
    np.testing.assert_array_equal(a.thetas, b.thetas)
    # default statistic: the kernel sums 1/2 eigs delta^2 itself
    assert a.mean == pytest.approx(b.mean, rel=1e-13)
    assert a.var == pytest.approx(b.var, rel=1e-10)


@needs_numba
@pytest.mark.parametrize("name", ["least_squares", "logistic", "linear"])
@pytest.mark.parametrize("clip", [None, 1.2])
def test_linear_fused_agrees_with_numpy(problems, name, clip):
    p = problems[name]
    kw = dict(runs=BLOCK + 9, seed=5, return_thetas=True, statistic=p.value, clip=clip)
    for run in (lambda: pgd(p, THETA1, ETAS, SIGMAS * (1.0 / 40), **kw),
                lambda: momentum_pgd(p, THETA1, ETAS, SIGMAS * (1.0 / 40), 0.7, **kw),
                lambda: psgd(p, THETA1, ETAS, SIGMAS * (1.0 / 6), 6, **kw),
                lambda: psgd(p, THETA1, ETAS, SIGMAS * (1.0 / 6), 6, beta=0.5, **kw)):
        a, b = _both(run)
        # same noise and mini-batches; gradients by loops vs BLAS: ~T roundings apart
        # (a different noise or index stream would move the iterates by O(0.1))
        np.testing.assert_allclose(a.thetas, b.thetas, rtol=1e-10, atol=1e-12)
        assert a.mean == pytest.approx(b.mean, rel=1e-10, abs=1e-12)


@needs_numba
def test_coupled_fused_agrees_with_numpy(problems):
    q, ls = problems["quadratic"], problems["least_squares"]
    pairs = [(q, Quadratic([1.0, 0.1, 0.4], theta_star=[0.0, 1.0, 0.0])),
             (ls, remove_sample(ls, 7)), (ls, make_neighbour(ls, 2, [1.0, 2.0, 3.0], 0.5))]
    for pa, pb in pairs:
        (fa, fb), (na, nb) = _both(lambda: coupled_pgd(pa, pb, THETA1, ETAS, SIGMAS * (1.0 / 40),
                                                       BLOCK + 3, 6, clip=None))
        if isinstance(pa, Quadratic):   # theta-form kernel = NumPy generic path's operations
            np.testing.assert_array_equal(fa, na)
            np.testing.assert_array_equal(fb, nb)
        np.testing.assert_allclose(fa, na, rtol=1e-10, atol=1e-12)
        np.testing.assert_allclose(fb, nb, rtol=1e-10, atol=1e-12)


@needs_numba
def test_coupled_fused_is_pgd_on_problem_a(problems):
    ls = problems["least_squares"]
    kw = dict(theta1=THETA1, etas=ETAS, noise_stds=SIGMAS * (1.0 / 40), runs=BLOCK + 3, seed=6)
    ta, _ = coupled_pgd(ls, remove_sample(ls, 1), clip=1.5, **kw)
    ref = pgd(ls, clip=1.5, return_thetas=True, statistic=ls.value, **kw)
    np.testing.assert_array_equal(ta, ref.thetas)   # same kernel, same operations


@needs_numba
@pytest.mark.parametrize("name, clip", [("least_squares", None), ("logistic", 1.0)])
def test_fused_momentum_beta0_is_fused_pgd(problems, name, clip):
    p = problems[name]
    kw = dict(runs=BLOCK + 30, seed=2, clip=clip, return_thetas=True, statistic=p.value)
    _same(momentum_pgd(p, THETA1, ETAS, SIGMAS * (1.0 / 40), 0.0, **kw),
          pgd(p, THETA1, ETAS, SIGMAS * (1.0 / 40), **kw))


# --------------------------------------------------------------------------- #
# sigma = 0 is exact gradient descent, for every fused kernel
# --------------------------------------------------------------------------- #


def _ref_linear_grad(p, th, clip, idx=None):
    """Gradient in the fused kernels' operation order, with Python floats.

    Full batch (``idx=None``): ``problems.LinearModel.grad``; mini-batch: ``LinearModel.batch_grad``.
    """
    X, D = p.X.tolist(), p.dim
    y = [0.0] * p.n_samples if p.y is None else p.y.tolist()
    sqn = p.sq_norms.tolist()
    kind = type(p).__name__
    rows = range(p.n_samples) if idx is None else idx
    m, r = [], []
    for j in rows:
        acc = 0.0
        for d in range(D):
            acc += X[j][d] * th[d]
        m.append(acc)
        if kind == "LeastSquares":
            r.append(acc - y[j])
        elif kind == "LogisticRegression":
            r.append(-y[j] * (1.0 / (1.0 + math.exp(y[j] * acc))))
        else:
            r.append(1.0)
    g = [0.0] * D
    lam = p.lam
    if clip is None:
        for k, j in enumerate(rows):
            for d in range(D):
                g[d] += r[k] * X[j][d]
        out = []
        for d in range(D):
            if idx is None:
                v = g[d] / p.normaliser
                if p.ridge != 0.0:
                    v += p.ridge * th[d]
            else:
                v = g[d] * (p.n_samples / (p.normaliser * len(idx)))
                if lam != 0.0:
                    v += p.ridge * th[d]
            out.append(v)
        return out
    tt = 0.0
    if lam != 0.0:
        tt = 0.0
        for d in range(D):
            tt += th[d] * th[d]
    total = 0.0
    for k, j in enumerate(rows):
        sq = r[k] * r[k] * sqn[j]
        if lam != 0.0:
            sq = sq + 2.0 * lam * r[k] * m[k] + (lam * lam) * tt
        sc = min(1.0, clip / max(math.sqrt(max(sq, 0.0)), np.finfo(float).tiny))
        total += sc
        for d in range(D):
            g[d] += sc * r[k] * X[j][d]
    out = []
    for d in range(D):
        if idx is None:
            v = g[d] / p.normaliser
            if lam != 0.0:
                v += ((lam / p.normaliser) * total) * th[d]
        else:
            v = g[d]
            if lam != 0.0:
                v += (lam * total) * th[d]
            v = v * (p.n_samples / (p.normaliser * len(idx)))
        out.append(v)
    return out


@needs_numba
@pytest.mark.parametrize("fused", [True], indirect=True)
@pytest.mark.parametrize("name, clip", [("least_squares", None), ("least_squares", 1.0),
                                        ("logistic", None), ("logistic", 0.7),
                                        ("linear", None), ("linear", 2.0)])
def test_sigma_zero_is_exact_gd_linear_kernels(problems, name, clip, fused):
    p = problems[name]
    zero = np.zeros(T)
    # linear_gd: every run follows the reference GD loop bit for bit, and gd() to rounding
    res = pgd(p, THETA1, ETAS, zero * (1.0 / 40), 3, 0, clip=clip, return_thetas=True,
              statistic=p.value)
    th = THETA1.tolist()
    for eta in ETAS.tolist():
        g = _ref_linear_grad(p, th, clip)
        th = [th[d] - g[d] * eta for d in range(p.dim)]
    np.testing.assert_array_equal(res.thetas, np.broadcast_to(th, res.thetas.shape))
    if clip is None:
        np.testing.assert_allclose(res.thetas[0], gd(p, THETA1, ETAS, T), rtol=1e-12,
                                   atol=1e-14)
    # linear_sgd: the same with the mini-batches of the block's index stream
    batch = 4
    res = psgd(p, THETA1, ETAS, zero * (1.0 / batch), batch, 3, 9, clip=clip, return_thetas=True,
               statistic=p.value)
    irng = index_rng(9, 0)
    ths = [THETA1.tolist() for _ in range(3)]
    for eta in ETAS.tolist():
        idx = irng.integers(0, p.n_samples, size=(3, batch)).tolist()
        for i in range(3):
            g = _ref_linear_grad(p, ths[i], clip, idx[i])
            ths[i] = [ths[i][d] - g[d] * eta for d in range(p.dim)]
    np.testing.assert_array_equal(res.thetas, np.array(ths))


@pytest.mark.parametrize("fused", [True, False], indirect=True)
def test_sigma_zero_is_exact_gd_quadratic_kernels(problems, fused):
    q, q2 = problems["quadratic"], Quadratic([1.5, 0.1, 0.7], theta_star=[2.0, 0.0, -1.0])
    zero = np.zeros(T)
    runs = BLOCK + 3
    # quadratic_theta (momentum with beta = 0, coupled): theta - eta * grad, as gd
    res = momentum_pgd(q, THETA1, ETAS, zero * (1.0 / 40), 0.0, runs, 1, return_thetas=True)
    np.testing.assert_array_equal(res.thetas, np.broadcast_to(gd(q, THETA1, ETAS, T),
                                                              (runs, 3)))
    ta, tb = coupled_pgd(q, q2, THETA1, ETAS, zero * (1.0 / 40), runs, 1)
    np.testing.assert_array_equal(ta, np.broadcast_to(gd(q, THETA1, ETAS, T), (runs, 3)))
    np.testing.assert_array_equal(tb, np.broadcast_to(gd(q2, THETA1, ETAS, T), (runs, 3)))
    # quadratic_delta: delta <- (1 - eta eigs) delta exactly, every run; gd to rounding
    res = pgd(q, THETA1, ETAS, zero * (1.0 / 40), runs, 1, return_thetas=True)
    delta = THETA1 - q.theta_star
    for eta in ETAS:
        delta = delta * (1.0 - eta * q.eigs) - 0.0
    np.testing.assert_array_equal(res.thetas, np.broadcast_to(delta + q.theta_star, (runs, 3)))
    np.testing.assert_allclose(res.thetas[0], gd(q, THETA1, ETAS, T), rtol=1e-13, atol=1e-15)
    # momentum on a quadratic with beta > 0 and no noise: the hand recursion, bit for bit
    res = momentum_pgd(q, THETA1, ETAS, zero * (1.0 / 40), 0.9, 2, 1, return_thetas=True)
    th, v = THETA1.copy(), np.zeros(3)
    for t, eta in enumerate(ETAS.tolist(), start=1):
        g = q.eigs * (th - q.theta_star)
        v = v * 0.9 + g * (1.0 - 0.9)
        th = th - (v / (1.0 - 0.9 ** t)) * eta
    np.testing.assert_array_equal(res.thetas, np.broadcast_to(th, (2, 3)))


# --------------------------------------------------------------------------- #
# Monte Carlo vs exact moments
# --------------------------------------------------------------------------- #


@pytest.mark.parametrize("fused", [True, False], indirect=True)
def test_least_squares_monte_carlo_matches_exact_moments(fused):
    """Least squares is a quadratic: rotate to its Hessian's eigenbasis (isotropic noise is
    rotation invariant) and compare the fused linear-model kernel with exact moments."""
    rng = np.random.default_rng(4)
    X = rng.normal(size=(30, 3)) * [1.0, 0.5, 2.0]
    p = LeastSquares(X, X @ [1.0, -1.0, 0.5] + 0.2 * rng.normal(size=30), lam=0.05)
    H = X.T @ X / 30 + p.ridge * np.eye(3)
    eigs, U = np.linalg.eigh(H)
    theta1 = np.array([2.0, 2.0, -1.0])
    runs, etas, sigmas = 2**15, np.full(30, 0.2), uniform(30, 2.0)
    res = pgd(p, theta1, etas, sigmas * (1.5 / 30), runs, 77)
    mean, var = pgd_quadratic_mean_var(eigs, U.T @ (theta1 - p.theta_star), etas, sigmas * (1.5 / 30))
    # 4 standard errors sqrt(Var / runs) with the exact variance: fails w.p. ~6e-5
    assert abs(res.mean - mean[0]) < 4 * math.sqrt(var[0] / runs)
    res = momentum_pgd(p, theta1, etas, sigmas * (1.5 / 30), 0.0, runs, 78)
    assert abs(res.mean - mean[0]) < 4 * math.sqrt(var[0] / runs)


@pytest.mark.parametrize("fused", [True, False], indirect=True)
def test_coupled_quadratics_monte_carlo_matches_exact_moments(fused):
    qa, qb = Quadratic([0.2, 0.9]), Quadratic([1.0, 0.5], theta_star=[1.0, -1.0])
    runs, etas, sigmas = 2**15, np.linspace(0.5, 0.2, 20), uniform(20, 1.0)
    ta, tb = coupled_pgd(qa, qb, [1.0, 1.0], etas, sigmas * (1.0 / 5), runs, 8)
    for q, th in ((qa, ta), (qb, tb)):
        mean, var = pgd_quadratic_mean_var(q.eigs, [1.0, 1.0], etas, sigmas * (1.0 / 5),
                                           theta_star=q.theta_star)
        assert abs(q.excess(th).mean() - mean[0]) < 4 * math.sqrt(var[0] / runs)


# --------------------------------------------------------------------------- #
# configuration and the NumPy fallback
# --------------------------------------------------------------------------- #


def test_workers_setting(monkeypatch, problems):
    monkeypatch.delenv("DPVERIFY_WORKERS", raising=False)
    sim.set_workers(None)
    from dpverify.resources import usable_cpus

    assert sim.get_workers() == usable_cpus()   # the affinity mask, within a container's CPU quota
    monkeypatch.setenv("DPVERIFY_WORKERS", "3")
    assert sim.get_workers() == 3
    sim.set_workers(1)
    try:
        assert sim.get_workers() == 1   # set_workers wins over the environment
    finally:
        sim.set_workers(None)
    for bad in ("0", "two", "-1"):
        monkeypatch.setenv("DPVERIFY_WORKERS", bad)
        with pytest.raises(ValueError, match="^DPVERIFY_WORKERS "):
            sim.get_workers()
    monkeypatch.delenv("DPVERIFY_WORKERS")
    for bad in (0, 1.5, True):
        with pytest.raises(ValueError, match="^workers "):
            sim.set_workers(bad)
    q = problems["quadratic"]
    for call in (lambda: pgd(q, THETA1, 0.1, np.array([1.0]) * (1.0 / 10), 10, 0, workers=0),
                 lambda: momentum_pgd(q, THETA1, 0.1, np.array([1.0]) * (1.0 / 10), 0.5, 10, 0, workers=-2),
                 lambda: coupled_pgd(q, q, THETA1, 0.1, np.array([1.0]) * (1.0 / 10), 10, 0, workers=2.0),
                 lambda: psgd(problems["linear"], THETA1, 0.1, np.array([1.0]) * (1.0 / 2), 2, 10, 0,
                              workers="2")):
        with pytest.raises(ValueError, match="^workers "):
            call()
    with pytest.raises(ValueError, match="^enabled "):
        sim.set_fused(1)


@needs_numba
def test_env_switches_fused_path_off(monkeypatch):
    sim.set_fused(None)
    assert sim.fused_enabled()
    monkeypatch.setenv("DPVERIFY_FUSED", "0")
    assert not sim.fused_enabled()
    sim.set_fused(True)   # an explicit setting wins
    try:
        assert sim.fused_enabled()
    finally:
        sim.set_fused(None)


_NO_NUMBA = r"""
import json, sys
sys.modules["numba"] = None          # as if numba were not installed
import numpy as np
from dpverify import sim
q = sim.Quadratic([0.2, 0.5, 1.0], theta_star=[1.0, -2.0, 0.5])
res = sim.pgd(q, [0.5, -0.3, 0.8], 0.3, np.linspace(3.0, 1.0, 12) * (1.0 / 40), 1100, 5,
              return_thetas=True, statistic=q.excess)
X = np.random.default_rng(0).normal(size=(20, 3))
ls = sim.LeastSquares(X, X @ [1.0, 2.0, 3.0], lam=0.1)
sg = sim.psgd(ls, [0.0, 0.0, 0.0], 0.1, np.ones(5) * (1.0 / 4), 4, 2000, 3)
print(json.dumps({"fused": sim.fused_enabled(), "numba": sim.numba_available(),
                  "thetas": res.thetas.tolist(), "mean": res.mean, "psgd": sg.mean}))
"""


def test_without_numba_the_numpy_path_runs():
    out = subprocess.run([sys.executable, "-c", _NO_NUMBA], capture_output=True, text=True,
                         check=True, env={**os.environ, "DPVERIFY_FUSED": ""})
    got = json.loads(out.stdout)
    assert got["fused"] is False and got["numba"] is False
    q = Quadratic([0.2, 0.5, 1.0], theta_star=[1.0, -2.0, 0.5])
    res = pgd(q, [0.5, -0.3, 0.8], 0.3, np.linspace(3.0, 1.0, 12) * (1.0 / 40), 1100, 5,
              return_thetas=True, statistic=q.excess)
    # the quadratic iterates are bit-identical with and without numba (same noise, same
    # operations); floats survive the JSON round trip exactly (repr is shortest round-trip)
    np.testing.assert_array_equal(np.array(got["thetas"]), res.thetas)
    assert got["mean"] == res.mean
    X = np.random.default_rng(0).normal(size=(20, 3))
    ls = LeastSquares(X, X @ [1.0, 2.0, 3.0], lam=0.1)
    sg = psgd(ls, [0.0, 0.0, 0.0], 0.1, np.ones(5) * (1.0 / 4), 4, 2000, 3)
    assert sg.mean == pytest.approx(got["psgd"], rel=1e-10)   # same draws, other arithmetic
