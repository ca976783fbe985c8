"""Adaptive GD on linear models (logistic, least squares) on the fused kernel.

The fused path must give, for a seed, exactly (bit for bit, up to a NaN's sign and payload) what the
NumPy path gives: final iterates, Monte Carlo moments and every track, for the three linear models,
schedules and levels proportional to the gradient norm, run counts that end in a partial block (a
block of one run takes NumPy's other BLAS routine, ``gemv``: there the NumPy path runs), and hostile
iterates (``exp`` overflowing, infinite margins, NaN).  The kernel's gradient is checked at first use
against the problem's own ``grad``; a planted difference of one unit in the last place sends the run
to the NumPy path.  Fixed seeds; nothing is timed.
"""

from __future__ import annotations

import numpy as np
import pytest

from dpverify import sim
from dpverify.sim import adaptive, draws
from dpverify.sim import adaptive_kernels as kernels
from dpverify.sim.adaptive import NormRule, adaptive_gd
from dpverify.sim.problems import Logistic

pytestmark = pytest.mark.skipif(not draws.numba_available(), reason="numba not installed")

TRACKS = ("grad_norm_sq", "dist", "noise_std", "step")


@pytest.fixture(autouse=True)
def _fused_at_any_size(monkeypatch):
    """The fused path at the tests' small sizes too (by default it starts at 2**22 sample-steps)."""
    monkeypatch.setattr(adaptive, "LINEAR_FUSED_MIN_WORK", 0)


def _blas_architecture() -> str:
    """The kernel family NumPy's OpenBLAS chose on this machine (threadpoolctl), '' when unknown."""
    try:
        from threadpoolctl import threadpool_info
    except ImportError:  # pragma: no cover - scikit-learn brings it
        return ""
    # NumPy's own OpenBLAS (in numpy.libs); other packages (a solver's wheel) may load another one
    libs = [i for i in threadpool_info() if i.get("internal_api") == "openblas"]
    mine = [i for i in libs if "numpy" in str(i.get("filepath", ""))] or libs
    return (mine[0].get("architecture") or "") if mine else ""


#: OpenBLAS kernel families whose dgemm sums each element as one FMA chain from 0.0 in two and three
#: dimensions (measured on this project's earlier machines); elsewhere (SkylakeX's AVX-512 kernels,
#: other BLAS libraries) the first-use check decides, and sends the runs to NumPy where they differ
FMA_CHAIN_BLAS = ("Haswell", "Zen")
_FMA_CHAINS = pytest.mark.skipif(_blas_architecture() not in FMA_CHAIN_BLAS,
                                 reason=f"OpenBLAS kernels {_blas_architecture() or 'unknown'!s}: not the FMA-chain "
                                        f"dgemm of {FMA_CHAIN_BLAS} (the first-use check decides there, tested above)")


def _labels(rng, n):
    return np.where(rng.standard_normal(n) >= 0.0, 1.0, -1.0)


def _problem(kind: str):
    rng = np.random.default_rng(5)
    if kind == "logistic-regression":           # the shape of a small benchmark data set: N = 60, D = 3
        X = rng.standard_normal((60, 3))
        return sim.LogisticRegression(X / np.linalg.norm(X, axis=1).max(), _labels(rng, 60), 0.02)
    if kind == "logistic-no-ridge":
        return Logistic(rng.standard_normal((40, 2)), _labels(rng, 40), 0.0)
    if kind == "logistic-ridge-5d":
        return Logistic(rng.standard_normal((25, 5)) * 3.0, _labels(rng, 25), 0.1)
    if kind == "least-squares":
        return sim.LeastSquares(rng.standard_normal((30, 4)), rng.standard_normal(30), 0.1, normaliser=45.0)
    if kind == "logistic-large-n":              # dgemm sums N > 256 terms in panels: the NumPy path runs here
        return sim.LogisticRegression(rng.standard_normal((3000, 2)) * 0.1, _labels(rng, 3000), 0.01)
    if kind == "least-squares-1d":
        return sim.LeastSquares(rng.standard_normal((17, 1)), rng.standard_normal(17), 0.0)
    raise AssertionError(kind)


KINDS = ["logistic-regression", "logistic-no-ridge", "logistic-ridge-5d", "least-squares", "least-squares-1d",
         "logistic-large-n"]


def _run(p, rule, T, runs, theta1=None, **kw):
    theta1 = np.linspace(0.5, -0.5, p.dim) if theta1 is None else theta1
    return adaptive_gd(p, theta1, rule, T, runs, 9, track=TRACKS, record=True, return_thetas=True,
                       statistic=lambda th, tr: tr["grad_norm_sq"][:, 1:].sum(axis=1) + tr["dist"][:, -1], **kw)


def _both(fn):
    out = []
    for on in (False, True):
        sim.set_fused(on)
        try:
            with np.errstate(all="ignore"):
                out.append(fn())
        except ValueError as err:
            out.append(str(err))
        finally:
            sim.set_fused(None)
    return out


def _same(ref, got):
    assert np.array_equal(ref.thetas, got.thetas, equal_nan=True)
    assert np.array_equal([ref.mean, ref.var], [got.mean, got.var], equal_nan=True)
    for k in TRACKS:
        assert np.array_equal(ref.tracks[k], got.tracks[k], equal_nan=True), k


@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize("proportional", [False, True])
@pytest.mark.parametrize("runs, chunk", [(2500, 1024), (1025, 65536), (2, 65536)])
def test_fused_linear_model_is_bit_identical(kind, proportional, runs, chunk):
    p = _problem(kind)
    T = 6
    rule = NormRule(np.linspace(0.6, 0.2, T), np.linspace(0.4, 0.1, T), proportional=proportional)
    ref, got = _both(lambda: _run(p, rule, T, runs, chunk_runs=chunk))
    _same(ref, got)


@pytest.mark.parametrize("kind", KINDS)
def test_fused_path_is_taken_exactly_where_the_gradients_agree(kind):
    """The fused kernel runs if and only if the first-use check passes for every row count of a block
    the runs have (1024 and the remainder) and the squared norms are einsum's, and never for the
    ``"excess"`` track."""
    p = _problem(kind)
    rule = NormRule(np.full(3, 0.5), np.full(3, 0.1))
    form = adaptive._linear_form(p)
    assert form is not None
    for runs in (2, 7, 1024, 1025, 2048 + 7, 3000):
        rows = {r for r in (1024 if runs >= 1024 else 0, runs % 1024) if r}
        agree = adaptive._norms_agree(p.dim) and all(adaptive._linear_grads_agree(p, form, r) for r in rows)
        assert (adaptive._fused_kernel(p, np.zeros(p.dim), rule, 3, runs, set()) is not None) == agree
    assert adaptive._fused_kernel(p, np.zeros(p.dim), rule, 3, 2048, {"excess"}) is None


@_FMA_CHAINS
@pytest.mark.parametrize("kind", ["logistic-regression", "logistic-no-ridge"])
def test_fused_path_is_taken_in_two_and_three_dimensions(kind):
    """On x86-64 with OpenBLAS's Haswell/Zen kernels (this project's machines), ``dgemm`` sums each
    element as one chain of FMAs from 0.0 in two and three dimensions for any block of 2 to 1024
    runs, so the kernel's gradient is the problem's own and the fused path runs (it does not in
    one dimension, where NumPy calls ``gemv``; in four or more dimensions it depends on the row count)."""
    p = _problem(kind)
    form = adaptive._linear_form(p)
    assert all(adaptive._linear_grads_agree(p, form, rows) for rows in (2, 7, 100, 1024))
    rule = NormRule(np.full(3, 0.5), np.full(3, 0.1))
    assert adaptive._fused_kernel(p, np.zeros(p.dim), rule, 3, 2050, set()) is not None


def test_a_planted_difference_sends_the_run_to_the_numpy_path(monkeypatch):
    """A kernel gradient one unit in the last place off in one element fails the first-use check, and
    the run (still equal to the NumPy path) does not call the fused kernel."""
    p = _problem("logistic-regression")
    real = kernels.linear_model_grads

    def off_by_one_ulp(theta, X, ny, yv, logistic, fN, ridge, out):
        real(theta, X, ny, yv, logistic, fN, ridge, out)
        out[-1, 0] = np.nextafter(out[-1, 0], np.inf)

    monkeypatch.setattr(kernels, "linear_model_grads", off_by_one_ulp)
    monkeypatch.setattr(adaptive, "_LINEAR_AGREE", {})
    calls = []
    monkeypatch.setattr(kernels, "adaptive_linear", lambda *a: calls.append(a))
    form = adaptive._linear_form(p)
    assert not adaptive._linear_grads_agree(p, form, 1024)
    rule = NormRule(np.full(4, 0.5), np.full(4, 0.2), proportional=True)
    ref, got = _both(lambda: _run(p, rule, 4, 2048))
    _same(ref, got)
    assert calls == []


@pytest.mark.parametrize("case", ["exp-overflow", "infinite-margins", "nan-start", "negative-level",
                                  "overflowing-level", "bad-step", "zero-start"])
def test_fused_linear_model_hostile_cases_match_numpy(case):
    """Hostile iterates and rules give the NumPy path's error word for word, or its results bit for bit:
    margins of +-800 (``exp`` overflows: ``expit`` is 0 or 1), margins of 1e300 times features
    (infinite, then NaN gradients), a NaN start, and bad levels and steps at a later step."""
    p = _problem("logistic-regression")
    T, runs = 4, 1100
    etas, noise, theta1 = [0.5] * T, [0.1] * T, np.full(p.dim, 0.3)
    if case == "exp-overflow":
        theta1 = np.full(p.dim, 800.0 / float(np.abs(p.X).sum(axis=1).max()))
        theta1[0] *= -1.0
    elif case == "infinite-margins":
        theta1 = np.full(p.dim, 1e300)
    elif case == "nan-start":
        theta1 = np.full(p.dim, np.nan)
    elif case == "negative-level":
        noise = [0.1, 0.1, -1.0, 0.1]
    elif case == "overflowing-level":
        noise = [0.1, 1e300, 1e300, 0.1]
    elif case == "bad-step":
        etas = [0.5, np.inf, 0.5, 0.5]
    elif case == "zero-start":
        theta1 = np.zeros(p.dim)
        theta1[0] = -0.0
    for proportional in (False, True):
        rule = NormRule(np.asarray(etas, float), np.asarray(noise, float), proportional=proportional)
        ref, got = _both(lambda rule=rule: _run(p, rule, T, runs, theta1=np.asarray(theta1, float)))
        if isinstance(ref, str) or isinstance(got, str):
            assert ref == got
            continue
        _same(ref, got)


@pytest.mark.parametrize("workers", [1, 2, 3])
def test_fused_linear_model_is_the_same_whatever_the_threads(workers):
    from dpverify.sim.parallel import set_workers

    p = _problem("logistic-no-ridge")
    rule = NormRule(np.full(5, 0.4), np.full(5, 0.3), proportional=True)
    ref = _run(p, rule, 5, 5000, chunk_runs=1024)
    set_workers(workers)
    try:
        got = _run(p, rule, 5, 5000, chunk_runs=65536)
    finally:
        set_workers(None)
    _same(ref, got)


def test_kernel_gradient_is_one_fma_chain_per_element_in_any_group_of_rows():
    """With N = 3000 samples the kernel computes the margins of 21 rows at a time (65536 // N): every
    element is still the chain ``fma(a_K-1, b_K-1, ... fma(a_0, b_0, 0.0))`` over the samples, and the
    logistic derivative ``-y expit(-y m)``, as a row-at-a-time reference computes them (the gradient the
    first-use check compares with BLAS's where BLAS sums so; here it does not, see the data set above)."""
    import numba

    fma = kernels._fma

    @numba.njit
    def reference(th, X, y, fN, ridge):
        rows, D = th.shape
        out = np.empty((rows, D))
        for i in range(rows):
            acc = np.zeros(D)
            for n in range(X.shape[0]):
                m = 0.0
                for d in range(D):
                    m = fma(th[i, d], X[n, d], m)
                r = -y[n] * (1.0 / (1.0 + np.exp(-(-y[n] * m))))
                for d in range(D):
                    acc[d] = fma(r, X[n, d], acc[d])
            for d in range(D):
                out[i, d] = acc[d] / fN + ridge * th[i, d]
        return out

    p = _problem("logistic-large-n")
    th = np.random.default_rng(1).standard_normal((1000, 2)) * 30.0
    got = np.empty_like(th)
    X, y = np.ascontiguousarray(p.X), np.asarray(p.y)
    kernels.linear_model_grads(th, X, -y, y, True, float(p.normaliser), float(p.ridge), got)
    assert np.array_equal(got, reference(th, X, y, float(p.normaliser), float(p.ridge)))
    assert np.allclose(got, p.grad(th), rtol=1e-12, atol=1e-15)     # BLAS's panels: equal to rounding


@pytest.mark.parametrize("kind, N, D", [("logistic", 5, 1), ("least-squares", 1, 4), ("least-squares", 16, 4),
                                        ("logistic", 17, 1), ("least-squares", 16, 3), ("logistic", 300, 2)])
@pytest.mark.parametrize("order", ["C", "F"])
def test_a_passing_first_use_check_means_equal_gradients_at_other_rows(kind, N, D, order):
    """Where the first-use check passes for a row count, the kernel's gradient is ``grad``'s at any
    other rows of that count, here 6 more batches of standard normal rows at two scales.  (Shapes a
    referee found an earlier, one-batch check passing on although BLAS summed in another order: one
    dimension and small data sets, where rows of widely spread magnitudes hide the order; features in
    Fortran order, which BLAS reads with other routines, each with its own answer.)"""
    rng = np.random.default_rng([N, D])
    X = np.asarray(rng.standard_normal((N, D)) * np.exp(rng.standard_normal((1, D))), order=order)
    p = (sim.LogisticRegression(X, _labels(rng, N), 0.1, normaliser=2.5) if kind == "logistic"
         else sim.LeastSquares(X, rng.standard_normal(N), 0.1))
    assert p.X.flags.c_contiguous == (order == "C" or D == 1 or N == 1)
    form = adaptive._linear_form(p)
    passed = 0
    for rows in (1, 2, 3, 5, 7, 16, 17, 100, 1024):
        if not adaptive._linear_grads_agree(p, form, rows):
            continue
        passed += 1
        for k in range(6):
            th = rng.standard_normal((rows, D)) * (1.0 if k % 2 else 30.0) / np.abs(X).max()
            assert adaptive._grads_equal(p, form, th), (rows, k)
    assert not adaptive._linear_grads_agree(p, form, 1)             # one row: gemv, never the kernel
    if (N, D, order) == (16, 3, "C") and _blas_architecture() in FMA_CHAIN_BLAS:
        assert passed == 8                                            # 2..1024 rows: dgemm's chains here


def test_the_first_use_check_sees_an_edge_kernel_of_the_last_rows():
    """In four dimensions BLAS sums the last row of a block of 1023 in another order than the others (an
    edge kernel) in a small share of its elements: the check compares every place in the block 64 times,
    so that where it passes, 64 fresh batches of rows agree too (an earlier check of two batches passed
    here and a run differed in one element, found by a referee)."""
    rng = np.random.default_rng(0)
    X = rng.standard_normal((256, 4))
    p = Logistic(X, _labels(rng, 256), 0.0)
    form = adaptive._linear_form(p)
    if adaptive._linear_grads_agree(p, form, 1023):
        for _ in range(64):
            assert adaptive._grads_equal(p, form, rng.standard_normal((1023, 4)))


def test_small_simulations_run_the_numpy_path(monkeypatch):
    """Below ``LINEAR_FUSED_MIN_WORK`` sample-steps the NumPy path runs (the first use's checks would
    cost more than the kernel saves), at and above it the fused kernel."""
    monkeypatch.setattr(adaptive, "LINEAR_FUSED_MIN_WORK", 1 << 22)
    # the threshold alone decides here, whatever this machine's BLAS sums in (the check is tested above)
    monkeypatch.setattr(adaptive, "_linear_grads_agree", lambda p, form, rows: True)
    monkeypatch.setattr(adaptive, "_norms_agree", lambda dim: True)
    p = _problem("logistic-regression")                  # N = 60
    rule = NormRule(np.full(10, 0.5), np.full(10, 0.1))
    assert adaptive._fused_kernel(p, np.zeros(3), rule, 10, 6990, set()) is None     # 4.19e6 < 2**22
    assert adaptive._fused_kernel(p, np.zeros(3), rule, 10, 6991, set()) is not None
