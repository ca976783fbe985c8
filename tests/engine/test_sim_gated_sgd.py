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
    from dpverify.sim import draws

    if not draws.numba_available():
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
    from dpverify.sim import draws

    if not draws.numba_available():
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
    from dpverify.sim import draws, parallel

    if not draws.numba_available():
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
    from dpverify.sim import draws, parallel

    if not draws.numba_available() or not draws.fused_enabled():
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


# -- least squares in 2..8 dimensions: kernels.gated_ls -------------------------------------------------

def _both(prob, theta1, **kw):
    """gated_sgd on the NumPy loop and on the fused path."""
    from dpverify import sim

    out = []
    for on in (False, True):
        sim.set_fused(on)
        try:
            out.append(gated_sgd(prob, theta1, **kw))
        finally:
            sim.set_fused(None)
    return out


def _equal(a, b):
    """The same iterates bit for bit (NaN where the other has NaN), escape counts and matches."""
    same_nan = np.array_equal(np.isnan(a.thetas), np.isnan(b.thetas))
    bits = np.array_equal(np.where(np.isnan(a.thetas), 0.0, a.thetas).view(np.uint64),
                          np.where(np.isnan(b.thetas), 0.0, b.thetas).view(np.uint64))
    return (same_nan and bits and np.array_equal(a.escapes, b.escapes)
            and ((a.matches is None and b.matches is None) or np.array_equal(a.matches, b.matches)))


DIMS_CASES = [  # dim, samples, threshold, test std, watch, ridge_hessian, lam, feature scales (powers of 10)
    (2, 5, 0.5, 0.3, True, 0.0, 0.0, 0),
    (3, 11, 0.2, 0.1, True, 0.0, 0.05, 2),     # features from 1e-2 to 1e2: sums of spread magnitudes
    (5, 4, math.inf, 0.0, True, 0.1, 0.0, 1),  # always passes; fewer samples than features (the ridge)
    (8, 30, 0.3, 0.2, False, 0.0, 0.01, 1),
    (4, 7, -1.0, 0.0, True, 0.0, 0.0, 0),      # never passes: no Hessian, no test draws
    (6, 9, 0.0, 0.0, True, 0.0, 0.02, 0),      # threshold 0: passes only where c is exactly 0
]


@pytest.mark.parametrize("case", DIMS_CASES)
def test_gated_sgd_fused_least_squares_in_several_dimensions_is_bit_identical(case):
    """kernels.gated_ls gives exactly the NumPy loop's iterates, escape counts and watched matches."""
    from dpverify.sim import draws

    if not draws.numba_available():
        pytest.skip("numba not installed")
    D, n, thr, ts, watch, ridge, lam, spread = case
    rng = np.random.default_rng(D * 100 + n)
    X = rng.standard_normal((n, D)) * 10.0 ** rng.integers(-spread, spread + 1, (n, D))
    y = rng.standard_normal(n)
    prob = LeastSquares(X, y, lam)
    eta = 0.3 / max(1.0, float(np.max(np.sum(X * X, axis=1))))
    ref, got = _both(prob, rng.standard_normal(D) * 0.2, eta=eta, sigma=0.4, rounds=2, local_steps=5, runs=2100,
                     seed=D, test_std=ts, threshold=thr, offset=0.01, chunk_runs=1024,
                     watch=(X[1], y[1]) if watch else None, ridge_hessian=ridge)
    assert _equal(ref, got)
    if 0 < thr < math.inf:
        assert 0 < ref.escapes.sum() < 2100 * 10       # both branches of the test ran
    if watch and thr == math.inf:
        assert ref.matches.sum() > 0


def test_gated_sgd_fused_several_dimensions_hostile_iterates():
    """Iterates that overflow to inf and NaN (a start at 1e300, a step size far too large; a subnormal and a
    negative zero in the start): the same NaN patterns, escape counts and matches in both paths."""
    rng = np.random.default_rng(3)
    X = rng.standard_normal((6, 3)) * 1e3
    prob = LeastSquares(X, rng.standard_normal(6), 0.0)
    with np.errstate(all="ignore"):
        for theta1, eta in (([1e300, -1e300, 3.0], 50.0), ([1e200, 1e-300, -0.0], 1e5)):
            ref, got = _both(prob, theta1, eta=eta, sigma=0.5, rounds=2, local_steps=6, runs=1500, seed=4,
                             test_std=0.2, threshold=0.4, offset=0.0, watch=(X[0], 1.0))
            assert _equal(ref, got)
            assert not np.all(np.isfinite(ref.thetas))


@pytest.mark.parametrize("shared", [True, False])
def test_gated_sgd_several_dimensions_bit_identical_for_every_workers_and_chunk_runs(monkeypatch, shared):
    """With the round's inverse Hessian shared by all runs (blocks as tasks on threads) or computed per run
    every round (chunk by chunk, as the NumPy loop): every workers and chunk_runs gives the NumPy loop."""
    from dpverify import sim
    from dpverify.sim import gated_sgd as gs
    from dpverify.sim import draws, parallel

    if not draws.numba_available():
        pytest.skip("numba not installed")
    monkeypatch.setattr(parallel, "TASK_WORK", 1.0)
    monkeypatch.setattr(gs, "_HESSIAN_SHARED_DIMS", {3: shared})
    rng = np.random.default_rng(8)
    X = rng.uniform(-1, 1, (10, 3))
    y = rng.uniform(-1, 1, 10)
    prob = LeastSquares(X, y, 0.01)
    kw = dict(rounds=3, local_steps=3, runs=3500, seed=9, test_std=0.1, threshold=0.3, offset=0.01, watch=(X[2], y[2]))
    sim.set_fused(False)
    try:
        ref = gated_sgd(prob, [0.2, -0.1, 0.05], 0.6, 0.5, **kw)
    finally:
        sim.set_fused(None)
    for workers in (1, 2):
        for chunk_runs in (1024, 3000, 65536):
            got = gated_sgd(prob, [0.2, -0.1, 0.05], 0.6, 0.5, chunk_runs=chunk_runs, workers=workers, **kw)
            assert _equal(ref, got)
    assert 0 < ref.escapes.sum() < 3500 * 9 and ref.matches.sum() > 0


def test_the_several_dimensions_numpy_path_is_the_einsum_path_to_rounding():
    """The NumPy path sums these dot products in index order (gated_sgd._dot_rows) instead of by einsum and
    BLAS: the same algorithm, so the iterates agree to rounding (1e-12 relative over 20 steps) and the
    escape counts nearly everywhere (a test at its threshold may flip)."""
    from dpverify import sim
    from dpverify.sim import gated_sgd as gs

    rng = np.random.default_rng(5)
    X = rng.uniform(-1, 1, (9, 4))
    prob = LeastSquares(X, rng.uniform(-1, 1, 9), 0.02)
    kw = dict(rounds=2, local_steps=10, runs=2000, seed=1, test_std=0.1, threshold=0.3, offset=0.01)
    sim.set_fused(False)
    try:
        explicit = gated_sgd(prob, np.full(4, 0.1), 0.5, 0.4, **kw)
        original = gs._explicit
        try:
            gs._explicit = lambda model: False          # einsum / matmul, as before
            blas = gated_sgd(prob, np.full(4, 0.1), 0.5, 0.4, **kw)
        finally:
            gs._explicit = original
    finally:
        sim.set_fused(None)
    assert np.allclose(explicit.thetas, blas.thetas, rtol=1e-12, atol=1e-14)
    assert abs(int(explicit.escapes.sum()) - int(blas.escapes.sum())) <= 2


def test_a_sum_in_another_order_is_seen():
    """Planted: the NumPy path summing in reverse index order. The kernel (index order) then differs from it
    in the last bits, and the comparison above sees it: the tests can fail."""
    from dpverify.sim import gated_sgd as gs
    from dpverify.sim import draws

    if not draws.numba_available():
        pytest.skip("numba not installed")
    rng = np.random.default_rng(11)
    X = rng.standard_normal((12, 5)) * 10.0 ** rng.integers(-3, 4, (12, 5))
    prob = LeastSquares(X, rng.standard_normal(12), 0.0)
    eta = 0.3 / float(np.max(np.sum(X * X, axis=1)))

    def reversed_dot(a, b):
        s = 0.0 + a[:, -1] * b[:, -1]
        for d in range(a.shape[1] - 2, -1, -1):
            s = s + a[:, d] * b[:, d]
        return s

    original = gs._dot_rows
    gs._dot_rows = reversed_dot
    try:
        ref, got = _both(prob, rng.standard_normal(5), eta=eta, sigma=0.4, rounds=1, local_steps=8, runs=1100,
                         seed=2, test_std=0.1, threshold=0.3, offset=0.0)
    finally:
        gs._dot_rows = original
    assert not np.array_equal(ref.thetas, got.thetas)


def test_more_than_eight_dimensions_and_other_models_run_numpy():
    from dpverify.sim import gated_sgd as gs

    rng = np.random.default_rng(2)
    X = rng.uniform(-1, 1, (12, 9))
    assert not gs._fusable(gs.LinearModelAdapter(LeastSquares(X, rng.uniform(-1, 1, 12))))
    assert not gs._explicit(gs.LinearModelAdapter(LogisticRegression(X[:, :3], np.sign(rng.uniform(-1, 1, 12)), 0.1)))

    class Own(gs.LinearModelAdapter):            # a model that overrides the gradient: its own sums
        def sample_grad(self, theta, idx):
            return super().sample_grad(theta, idx)

    assert not gs._explicit(Own(LeastSquares(X[:, :3], rng.uniform(-1, 1, 12))))
    res = gated_sgd(LeastSquares(X, rng.uniform(-1, 1, 12)), np.zeros(9), 0.1, 0.3, rounds=1, local_steps=3, runs=50,
                    seed=1, test_std=0.1, threshold=0.3)
    assert np.all(np.isfinite(res.thetas))


@pytest.mark.parametrize("X", [[[0.0, 1.0], [0.0, 2.0]], [[0.0], [0.0]]])
def test_no_round_inverts_no_hessian_on_either_path(X):
    """Found by a referee: with the test on, no round and a singular Hessian (a zero feature column), the NumPy
    loop returns the start, but the fused path inverted the shared Hessian up front and raised LinAlgError."""
    prob = LeastSquares(np.array(X), np.array([1.0, 2.0]), 0.0)
    D = prob.dim
    ref, got = _both(prob, np.zeros(D), eta=0.1, sigma=1.0, rounds=0, local_steps=3, runs=4, seed=1, threshold=0.5)
    assert _equal(ref, got) and np.array_equal(got.thetas, np.zeros((4, D))) and got.escapes.sum() == 0
