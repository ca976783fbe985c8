"""dpverify.sim.gated_sgd: influence-gated SGD against psgd and against a direct loop, chunk invariance, the
watched-step counter. (Moved from tests/test_hdp.py.)

Statistical tolerances are stated next to each assertion (derived from the run counts); seeds fixed.
"""
from __future__ import annotations

import math

import numpy as np
import pytest

from dpverify.sim import LeastSquares, LogisticRegression, psgd
from dpverify.sim.gated_sgd import gated_sgd
from dpverify.sim.rng import block_rng


def _ls(n=6, m=2, seed=0):
    rng = np.random.default_rng(seed)
    X = rng.uniform(-1, 1, (n, m))
    X /= np.maximum(np.linalg.norm(X, axis=1, keepdims=True), 1.0)
    return X, rng.uniform(-1, 1, n)


def test_gated_sgd_without_a_passing_test_is_psgd():
    """No step passes: one-sample DP-SGD, the same random streams as psgd (batch 1): equal to rounding."""
    X, y = _ls(n=7, seed=4)
    p = LeastSquares(X, y, 0.05)
    th1 = np.array([0.4, -0.1])
    g = gated_sgd(p, th1, 0.5, 0.3, rounds=2, local_steps=5, runs=3000, seed=11)
    ps = psgd(p, th1, 0.5, np.full(10, 0.3), 1, 3000, 11, return_thetas=True)
    assert np.allclose(g.thetas, ps.thetas, rtol=1e-10, atol=1e-12)
    assert g.escapes.sum() == 0


def test_gated_sgd_no_noise_is_a_direct_sgd_loop():
    """sigma = 0: plain SGD; the sample indices are each block's first auxiliary stream, block_rng(seed, b, child=0)."""
    X, y = _ls(n=5, seed=6)
    p = LogisticRegression(X, np.where(y > 0, 1.0, -1.0), 0.1)
    th1 = np.array([0.2, 0.3])
    res = gated_sgd(p, th1, 0.8, 0.0, rounds=1, local_steps=12, runs=4, seed=7)
    irng = block_rng(7, 0, child=0)
    th = np.repeat(th1[None], 4, 0)
    for _ in range(12):
        idx = irng.integers(0, 5, size=4)
        for r in range(4):
            x, yy = p.X[idx[r]], p.y[idx[r]]
            th[r] = th[r] - 0.8 * (-yy / (1 + math.exp(yy * x @ th[r])) * x + 0.1 * th[r])
    assert np.allclose(res.thetas, th, rtol=1e-12, atol=1e-14)


def test_gated_sgd_results_do_not_depend_on_chunk_size():
    X, y = _ls(n=6, seed=8)
    p = LeastSquares(X, y, 0.0)
    kw = dict(rounds=2, local_steps=4, runs=2500, seed=3, test_std=0.3, threshold=0.25, offset=0.01)
    a = gated_sgd(p, np.zeros(2), 0.7, 0.5, chunk_runs=1024, **kw)
    b = gated_sgd(p, np.zeros(2), 0.7, 0.5, chunk_runs=65536, **kw)
    assert np.array_equal(a.thetas, b.thetas) and np.array_equal(a.escapes, b.escapes)
    assert 0 < a.escape_rate < 1


def test_watched_steps_count_exactly_the_noise_free_steps_of_the_watched_sample():
    """Every step passes: matches = draws of the watched sample, Binomial(T, 1/n) per run (mean within 5
    standard errors over 4000 runs); no step passes: no match at all."""
    X, y = _ls(n=5, seed=9)
    p = LeastSquares(X, y, 0.0)
    T, runs = 20, 4000
    res = gated_sgd(p, np.zeros(2), 0.5, 1.0, rounds=1, local_steps=T, runs=runs, seed=2, test_std=0.0,
                    threshold=np.inf, watch=(X[2], y[2]))
    se = math.sqrt(T * 0.2 * 0.8 / runs)
    assert abs(res.matches.mean() - T / 5) <= 5 * se
    none = gated_sgd(p, np.zeros(2), 0.5, 1.0, rounds=1, local_steps=T, runs=500, seed=2, watch=(X[2], y[2]))
    assert none.matches.sum() == 0


GATED_CASES = [  # n, rounds, local steps, threshold, test std, chunk_runs, runs, watch, ridge_hessian, lam, X scale
    (5, 2, 7, 0.5, 0.3, 1024, 2500, True, 0.0, 0.0, 1.0),
    (3, 3, 4, -1.0, 0.0, 2048, 1030, False, 0.0, 0.0, 1.0),      # never passes: no Hessian, no test draws
    (7, 1, 10, math.inf, 0.0, 1024, 1100, True, 0.1, 0.0, 1.0),  # always passes
    (4, 2, 5, 0.2, 0.1, 65536, 3001, True, 0.0, 0.05, 0.7),     # ridge, non-unit features, a partial block
]


@pytest.mark.parametrize("case", GATED_CASES)
def test_gated_sgd_fused_one_dimensional_least_squares_is_bit_identical(case):
    """The fused kernel (one-dimensional least squares) gives exactly the NumPy loop's iterates and counts."""
    from dpverify import sim
    from dpverify.sim import kernels

    if not kernels.numba_available():
        pytest.skip("numba not installed")
    n, R, Tl, thr, ts, chunk, runs, watch, ridge, lam, xs = case
    prob = LeastSquares(np.full((n, 1), xs), np.linspace(-1.0, 1.0, n), lam)
    out = []
    for on in (False, True):
        sim.set_fused(on)
        try:
            out.append(gated_sgd(prob, [0.3], 0.7, 0.4, rounds=R, local_steps=Tl, runs=runs, seed=5, test_std=ts,
                                 threshold=thr, offset=0.01, scale=2.0, chunk_runs=chunk,
                                 watch=([xs], 0.5) if watch else None, ridge_hessian=ridge))
        finally:
            sim.set_fused(None)
    ref, got = out
    assert np.array_equal(ref.thetas, got.thetas)
    assert np.array_equal(ref.escapes, got.escapes)
    assert (ref.matches is None and got.matches is None) or np.array_equal(ref.matches, got.matches)
    if 0 <= thr < math.inf and ts > 0:
        assert 0 < ref.escapes.sum() < runs * R * Tl      # the test both passes and fails: both branches ran


def test_round_hessian_of_one_dimensional_least_squares_is_the_same_for_every_run():
    """The fused path takes every round's inverse Hessian from one run when ``_hessian_is_shared()``: here it
    holds, and NumPy's Hessians and inverses of stacks of shapes other than the check's equal those of one run."""
    from dpverify.sim import gated_sgd as gs

    assert gs._hessian_is_shared()
    rng = np.random.default_rng(3)
    for rows, n in ((1024, 100), (34464, 100), (7, 9000), (65536, 5), (2049, 1)):
        X = rng.uniform(-2.0, 2.0, (n, 1))
        model = gs.LinearModelAdapter(LeastSquares(X, rng.uniform(-1.0, 1.0, n), 0.01))
        assert gs._shared_hessian(model)
        theta = rng.standard_normal((rows, 1))
        one, many = model.hessian(theta[:1]), model.hessian(theta)
        assert np.array_equal(many, np.broadcast_to(one, many.shape))
        assert np.array_equal(np.linalg.inv(many), np.broadcast_to(np.linalg.inv(one), many.shape))


def test_shared_hessian_only_for_the_adapters_own_hessian_of_least_squares():
    from dpverify.sim import gated_sgd as gs

    X, y = np.linspace(0.5, 1.0, 6)[:, None], np.linspace(-1.0, 1.0, 6)

    class Shifted(gs.LinearModelAdapter):
        def hessian(self, theta):   # depends on theta: no single run stands for all
            return super().hessian(theta) + theta[:, :, None] ** 2

    assert gs._shared_hessian(gs.LinearModelAdapter(LeastSquares(X, y, 0.0)))
    assert not gs._shared_hessian(Shifted(LeastSquares(X, y, 0.0)))
    assert not gs._shared_hessian(gs.LinearModelAdapter(LogisticRegression(X, np.where(y > 0, 1.0, -1.0), 0.1)))


@pytest.mark.parametrize("shared", [True, False])
def test_gated_sgd_fused_is_bit_identical_with_and_without_the_shared_hessian(monkeypatch, shared):
    """Whether the check of ``_hessian_is_shared`` holds (Hessians once for all rounds and runs) or not (every
    round's Hessians for all runs, as the NumPy loop): the fused path equals the NumPy loop, over seeds and
    chunk sizes, a subclass whose Hessian depends on theta included."""
    from dpverify import sim
    from dpverify.sim import gated_sgd as gs
    from dpverify.sim import kernels

    if not kernels.numba_available():
        pytest.skip("numba not installed")
    monkeypatch.setattr(gs, "_HESSIAN_SHARED", shared)
    X, y = np.linspace(0.5, 1.2, 9)[:, None], np.linspace(-1.0, 1.0, 9)

    class Shifted(gs.LinearModelAdapter):
        def hessian(self, theta):
            return super().hessian(theta) + 0.1 * theta[:, :, None] ** 2

    models = (LeastSquares(X, y, 0.02), gs.LinearModelAdapter(LeastSquares(X, y)), Shifted(LeastSquares(X, y, 0.0)))
    for seed, chunk, model in zip((1, 2, 3), (1024, 2048, 1024), models):
        out = []
        for on in (False, True):
            sim.set_fused(on)
            try:
                out.append(gated_sgd(model, [0.3], 0.6, 0.4, rounds=3, local_steps=4, runs=2100, seed=seed,
                                     test_std=0.1, threshold=0.3, offset=0.01, chunk_runs=chunk,
                                     watch=([X[4, 0]], y[4]), ridge_hessian=0.05 * (seed == 2)))
            finally:
                sim.set_fused(None)
        ref, got = out
        assert np.array_equal(ref.thetas, got.thetas)
        assert np.array_equal(ref.escapes, got.escapes) and np.array_equal(ref.matches, got.matches)
        assert 0 < ref.escapes.sum() < 2100 * 12 and ref.matches.sum() > 0


@pytest.mark.parametrize("shared", [True, False])
def test_gated_sgd_bit_identical_for_every_workers_and_chunk_runs(monkeypatch, shared):
    """Fused: tasks of blocks on worker threads (one block a task here) when the blocks are independent (shared
    Hessian, or no test), else chunk by chunk; either way every workers and chunk_runs gives the NumPy loop's
    results bit for bit."""
    from dpverify import sim
    from dpverify.sim import gated_sgd as gs
    from dpverify.sim import kernels, parallel

    if not kernels.numba_available():
        pytest.skip("numba not installed")
    monkeypatch.setattr(parallel, "TASK_WORK", 1.0)
    monkeypatch.setattr(gs, "_HESSIAN_SHARED", shared)
    prob = LeastSquares(np.linspace(0.6, 1.1, 8)[:, None], np.linspace(-1.0, 1.0, 8), 0.01)
    for thr, ts in ((0.3, 0.1), (-1.0, 0.0)):
        kw = dict(rounds=2, local_steps=5, runs=3500, seed=9, test_std=ts, threshold=thr, offset=0.01,
                  watch=([0.6], -1.0))
        sim.set_fused(False)
        try:
            ref = gated_sgd(prob, [0.2], 0.6, 0.5, **kw)
        finally:
            sim.set_fused(None)
        for workers in (1, 2, 3):
            for chunk_runs in (1024, 3000, 65536):
                got = gated_sgd(prob, [0.2], 0.6, 0.5, chunk_runs=chunk_runs, workers=workers, **kw)
                assert np.array_equal(ref.thetas, got.thetas)
                assert np.array_equal(ref.escapes, got.escapes) and np.array_equal(ref.matches, got.matches)
        assert (ref.matches.sum() > 0) == (thr >= 0)     # noisy steps never match


def test_gated_sgd_fused_tasks_really_run_on_several_threads(monkeypatch):
    """With two workers, two threads each run a task of blocks (each waits at its first task for the other)."""
    import threading

    from dpverify.sim import gated_sgd as gs
    from dpverify.sim import kernels, parallel

    if not kernels.numba_available() or not kernels.fused_enabled():
        pytest.skip("fused kernels off")
    monkeypatch.setattr(parallel, "TASK_WORK", 1.0)
    seen, meet, inner = set(), threading.Barrier(2, timeout=60), gs._fused_chunk

    def chunk(*args):
        me = threading.get_ident()
        if me not in seen:
            seen.add(me)
            meet.wait()
        return inner(*args)

    monkeypatch.setattr(gs, "_fused_chunk", chunk)
    prob = LeastSquares(np.ones((4, 1)), np.linspace(-1.0, 1.0, 4), 0.0)
    gated_sgd(prob, [0.2], 0.5, 0.5, rounds=1, local_steps=2, runs=8 * 1024, seed=1, test_std=0.1, threshold=0.2,
              workers=2)
    assert len(seen) == 2


def test_gated_sgd_rejects_bad_workers():
    prob = LeastSquares(np.ones((4, 1)), np.linspace(-1.0, 1.0, 4), 0.0)
    for bad in (0, -1, 1.5, True):
        with pytest.raises(ValueError, match="workers"):
            gated_sgd(prob, [0.2], 0.5, 0.5, rounds=1, local_steps=2, runs=10, seed=1, workers=bad)
