"""Gated noisy SGD: one sample per step, Gaussian noise only on the steps whose sample's
(noisy) Newton-preconditioned gradient fails a size test, vectorised over runs.

The algorithm, for rounds ``r = 0..R-1``, each of ``T_local`` steps, from ``theta_1``::

    at the start of round r:  theta_g = theta (per run), H = hess F(theta_g), the Hessian of the
                              empirical risk (per run);
    each step:  J uniform on the n samples (independently at each step);
                c = (1/n) H^{-1} grad l(theta_g; z_J) + offset   (z_J's Newton step, i.e. its influence on
                                                                   the minimiser to first order);
                c_test = scale * c + test_std * xi,   xi ~ N(0, I);
                pass = max_i |c_test_i| <= threshold;
                theta <- theta - eta (grad l(theta; z_J) + (1 - pass) sigma nu),   nu ~ N(0, I).

With ``threshold < 0`` no step passes: this is noisy SGD with one sample per step (noisy
mini-batch SGD with batch size 1, as :func:`dpverify.sim.psgd`), and no Hessian is computed.

Models (a ``model`` is anything with ``dim``, ``n_samples``, ``sample_grad(theta, idx)`` and, unless
``threshold < 0``, ``hessian(theta)``): the linear models of :mod:`dpverify.sim.problems`
(:class:`LeastSquares`, :class:`LogisticRegression`) through :func:`linear_model`, and any
other model with these methods (e.g. a neural network).

Randomness: block ``b`` of :data:`~dpverify.sim.rng.BLOCK` runs draws the step noise ``nu`` from
``block_rng(seed, b)``, the sample indices from ``block_rng(seed, b, child=0)`` (as
:func:`dpverify.sim.psgd` does) and the test noise ``xi`` from ``block_rng(seed, b, child=1)``, step after step, so results do not depend
on ``chunk_runs``. With ``test_std = 0`` and ``threshold = inf`` every step passes: plain SGD, which
the tests compare with a direct loop.

Per run the result records the number of noise-free steps (``escapes``) and, when ``watch`` (a
feature vector and label) is given, the number of steps whose increment equals exactly the
noise-free gradient step of the watched point, ``-eta grad l(theta_t; z_watch)``: what an observer
of every iterate who knows the watched sample computes (a noisy step matches with probability 0).

Fused path: a one-dimensional :class:`LeastSquares` runs its steps in the numba kernel
:func:`dpverify.sim.gated_sgd_kernels.gated_ls1` (every ``einsum``/``matmul`` of the NumPy loop then sums one
term, so the kernel reproduces it bit for bit); the rounds' Hessians and their inverses are the NumPy
loop's own calls. A least-squares Hessian does not depend on ``theta``, so when NumPy gives a stack of
runs exactly the Hessian and inverse of one run (:func:`_hessian_is_shared`, checked once per process)
the fused path computes them once, at one run, for all rounds and runs; its blocks of runs are then
independent and run as tasks on ``workers`` threads (as do those of a simulation without the test).
Otherwise each round's Hessians are those of a chunk's runs, chunk after chunk, as in the NumPy loop.
In 2 to ``EXPLICIT_MAX_DIM`` (8) dimensions the NumPy loop sums a least-squares model's dot products
(the sample's margin, the influence ``H^-1 g``, the watched point's margin) in index order from 0.0, one
multiply and one add a term (:func:`_dot_rows`; ``einsum`` and BLAS would pick their order by shape and
machine), and :func:`dpverify.sim.gated_sgd_kernels.gated_ls` repeats those operations term for term; the Hessians
and inverses are again the NumPy loop's calls (:func:`_hessian_is_shared` checked once per dimension).
Other models and dimensions (Hessians contracted by ``einsum`` and products by BLAS, whose operation
order a kernel does not reproduce) run the NumPy loop, in the calling thread.
"""
from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from .validation import check_array, check_int, check_real, check_seed
from .problems import LeastSquares, LogisticRegression
from .parallel import ordered_map, plan_tasks, resolve_workers
from .rng import BLOCK, block_rng, block_slices, iter_chunks, n_blocks

__all__ = ["GatedSGDResult", "gated_sgd", "linear_model", "LinearModelAdapter"]


class LinearModelAdapter:
    """A :class:`LeastSquares` or :class:`LogisticRegression` seen as a model for :func:`gated_sgd`."""

    def __init__(self, problem):
        if not isinstance(problem, (LeastSquares, LogisticRegression)):
            raise ValueError(f"problem must be LeastSquares or LogisticRegression, got {problem!r}")
        self.problem = problem
        self.dim = problem.dim
        self.n_samples = problem.n_samples
        self.X = np.asarray(problem.X)
        self.y = None if problem.y is None else np.asarray(problem.y)

    def _dloss(self, m, y):
        return self.problem.dloss(m, y)

    def sample_grad(self, theta, idx):
        """Per-run gradient of the per-sample loss of sample ``idx[r]`` at ``theta[r]``."""
        x = self.X[idx]
        r = self._dloss(np.einsum("rd,rd->r", x, theta), None if self.y is None else self.y[idx])
        return r[:, None] * x + self.problem.lam * theta

    def point_grad(self, theta, x, y):
        """Gradient of the per-sample loss of the point (x, y) at every row of ``theta``."""
        r = self._dloss(theta @ np.asarray(x, float), None if y is None else float(y))
        return r[:, None] * np.asarray(x, float)[None, :] + self.problem.lam * theta

    def hessian(self, theta):
        m = theta @ self.X.T
        if isinstance(self.problem, LeastSquares):
            w = np.ones_like(m)
        else:
            s = 1.0 / (1.0 + np.exp(-m))
            w = s * (1.0 - s)
        H = np.einsum("rj,jd,je->rde", w / self.problem.normaliser, self.X, self.X)
        return H + self.problem.ridge * np.eye(self.dim)[None]

    def value(self, theta):
        return self.problem.value(theta)


def linear_model(problem) -> LinearModelAdapter:
    """The linear model ``problem`` as a model for :func:`gated_sgd`."""
    return LinearModelAdapter(problem)


@dataclass(frozen=True)
class GatedSGDResult:
    """Final iterates and per-run counts of a :func:`gated_sgd` simulation."""

    thetas: np.ndarray
    escapes: np.ndarray
    matches: np.ndarray | None
    seed: int
    steps: int
    extra: dict = field(default_factory=dict)

    @property
    def runs(self) -> int:
        return int(self.thetas.shape[0])

    @property
    def escape_rate(self) -> float:
        """Mean fraction of noise-free steps."""
        return float(self.escapes.mean() / max(self.steps, 1))


def _streams(seed, b):
    return block_rng(seed, b), block_rng(seed, b, child=0), block_rng(seed, b, child=1)


#: the largest dimension whose least squares the NumPy path sums in index order (:func:`_explicit`) and
#: :func:`kernels.gated_ls` runs (``kernels.GATED_MAX_DIM``)
EXPLICIT_MAX_DIM = 8


def _explicit(model) -> bool:
    """Whether the NumPy path sums the model's dot products in index order (:func:`_dot_rows`) instead of by
    ``einsum``/``matmul``: the adapter's own methods on a :class:`LeastSquares` in 2..``EXPLICIT_MAX_DIM``
    dimensions (one dimension: every sum has one term, the same either way). Those sums are then a fixed
    sequence of IEEE operations, which :func:`kernels.gated_ls` repeats term for term; ``einsum`` and BLAS
    choose their order (pairs, vector lanes, fused multiply-adds) by shape and machine."""
    cls = type(model)
    return (isinstance(model, LinearModelAdapter) and type(model.problem) is LeastSquares
            and 2 <= model.dim <= EXPLICIT_MAX_DIM and cls.sample_grad is LinearModelAdapter.sample_grad
            and cls.point_grad is LinearModelAdapter.point_grad)


def _dot_rows(a, b):
    """``sum_d a[:, d] * b[:, d]`` in index order from ``0.0``: ``(((0.0 + a_0 b_0) + a_1 b_1) + ...)``."""
    s = 0.0 + a[:, 0] * b[:, 0]
    for d in range(1, a.shape[1]):
        s = s + a[:, d] * b[:, d]
    return s


def _explicit_sample_grad(model, theta, idx):
    """:meth:`LinearModelAdapter.sample_grad` of a least-squares model, its dot product by :func:`_dot_rows`."""
    x = model.X[idx]
    r = _dot_rows(x, theta) - model.y[idx]
    return r[:, None] * x + model.problem.lam * theta


def _explicit_point_grad(model, theta, x, y):
    """:meth:`LinearModelAdapter.point_grad` of a least-squares model, its dot product by :func:`_dot_rows`."""
    x = np.asarray(x, float)
    r = _dot_rows(theta, x[None, :]) - float(y)
    return r[:, None] * x[None, :] + model.problem.lam * theta


def _explicit_influence(Hinv, g, shared):
    """``H^-1 g`` per run, each coordinate by :func:`_dot_rows` (``Hinv`` one inverse when ``shared``)."""
    c = np.empty_like(g)
    for i in range(g.shape[1]):
        c[:, i] = _dot_rows(g, Hinv[0, i][None, :]) if shared else _dot_rows(Hinv[:, i, :], g)
    return c


def _fusable(model) -> bool:
    """Whether a kernel runs the model: :func:`kernels.gated_ls1` a one-dimensional :class:`LeastSquares`
    (every sum of the NumPy path has one term), :func:`kernels.gated_ls` one the NumPy path sums in index
    order (:func:`_explicit`); either way the kernel reproduces the NumPy path bit for bit."""
    return (isinstance(model, LinearModelAdapter) and type(model.problem) is LeastSquares
            and (model.dim == 1 or _explicit(model))
            and model.n_samples < 2**32 - 1 and _draws().fused_enabled())


def _kernels():
    """The kernels module, imported on first use (numba, 0.15 s: a claims module that names this
    simulator starts without it)."""
    from . import gated_sgd_kernels

    return gated_sgd_kernels


def _draws():
    """The fused path's switch (:mod:`.draws`), imported on first use as :func:`_kernels`."""
    from . import draws

    return draws


_HESSIAN_SHARED: bool | None = None
#: :func:`_hessian_is_shared` of least squares in more than one dimension, by dimension
_HESSIAN_SHARED_DIMS: dict = {}

# (runs, samples) of the check of :func:`_hessian_is_shared`: one run and two, block edges, a sample
# count past the 8192 elements of NumPy's iterator buffer (a reduction it may split).
_HESSIAN_CHECK_SHAPES = ((2, 1), (3, 2), (5, 7), (17, 100), (1023, 64), (1025, 33), (4097, 3), (3, 8193),
                         (2, 20000))


def _hessian_is_shared(dim: int = 1) -> bool:
    """Whether, on this machine, the NumPy loop's round Hessian of a :class:`LeastSquares` in ``dim``
    dimensions equals for every run, bit for bit, its value at one run (checked once per process).

    The Hessian does not depend on ``theta`` (the weights of ``LinearModelAdapter.hessian`` are ones),
    but NumPy could order the ``einsum``'s sum over the samples differently for a stack of runs than for
    one run (the iterator picks its loops by shape), and ``np.linalg.inv`` of a stack of ``1 x 1``
    matrices need not be computed as the inverse of one.  Both are compared here on stacks of the shapes
    of :data:`_HESSIAN_CHECK_SHAPES`, with features and weights of mixed magnitudes; if one differs, the
    fused path computes every round's Hessians for all runs, as the NumPy loop does. In ``dim > 1``
    dimensions the same check with ``dim`` features, once per dimension.
    """
    global _HESSIAN_SHARED
    if dim != 1:
        if dim not in _HESSIAN_SHARED_DIMS:
            _HESSIAN_SHARED_DIMS[dim] = _hessians_agree(dim)
        return _HESSIAN_SHARED_DIMS[dim]
    if _HESSIAN_SHARED is None:
        _HESSIAN_SHARED = _hessians_agree(1)
    return _HESSIAN_SHARED


def _hessians_agree(dim: int) -> bool:
    """:func:`_hessian_is_shared`'s comparison, on ``dim`` features."""
    rng = np.random.default_rng(11 + 1000 * (dim - 1))
    ok = True
    for rows, n in _HESSIAN_CHECK_SHAPES:
        X = rng.standard_normal((n, dim)) * 10.0 ** rng.integers(-6, 7, (n, dim))
        lam = 0.05 * (n % 2) if dim == 1 else 0.05 * (1 + n % 2)   # more features than samples: a ridge
        model = LinearModelAdapter(LeastSquares(X, rng.uniform(-1.0, 1.0, n), lam))
        theta = rng.standard_normal((rows, dim))
        one, many = model.hessian(theta[:1]), model.hessian(theta)
        ok &= bool(np.array_equal(many, np.broadcast_to(one, many.shape)))
        with np.errstate(all="ignore"):       # a singular draw: the same inf/NaN either way, or a difference
            try:
                ok &= bool(np.array_equal(np.linalg.inv(many), np.broadcast_to(np.linalg.inv(one), many.shape),
                                          equal_nan=True))
            except np.linalg.LinAlgError:
                ok = False
    return ok


def _shared_hessian(model) -> bool:
    """Whether the fused path may take every round's and run's inverse Hessian from one run: the
    adapter's own ``hessian`` (not overridden) of a :class:`LeastSquares` with C-contiguous float64
    features, where :func:`_hessian_is_shared` holds."""
    X = model.X
    return (type(model).hessian is LinearModelAdapter.hessian and type(model.problem) is LeastSquares
            and X.dtype == np.float64 and X.flags.c_contiguous and _hessian_is_shared(model.dim))


def _round_inverse(model, theta_g, ridge_hessian) -> np.ndarray:
    """The inverse Hessians ``(rows, m, m)`` at the rows of ``theta_g`` (the ridge added first): a
    round's, in the NumPy loop and in the fused path alike."""
    H = model.hessian(theta_g)
    if ridge_hessian:
        H = H + ridge_hessian * np.eye(model.dim)[None]
    return np.linalg.inv(H)


def _round_hinv(model, theta_g, ridge_hessian) -> np.ndarray:
    """:func:`_round_inverse` flattened, as :func:`kernels.gated_ls1` and :func:`kernels.gated_ls` take it."""
    from .fused import f64

    return f64(_round_inverse(model, theta_g, ridge_hessian).reshape(-1))


def _fused_chunk(model, theta1, eta, sigma, rounds, local_steps, seed, test_std, threshold, offset, scale, watch,
                 ridge_hessian, gate, hinv_all, blocks, theta_out, esc, mat):
    """Consecutive blocks of runs on :func:`kernels.gated_ls1` (one dimension) or :func:`kernels.gated_ls`
    (2..``EXPLICIT_MAX_DIM``; at one dimension it took 2.4 times the CPU of the specialised kernel), the
    steps in the kernel (bit-identical with the NumPy loop); the iterates and round starts row-major and
    flat, the inverse Hessians flat.  The inverse Hessians: ``hinv_all`` for all rounds and runs
    (:func:`_shared_hessian`; the blocks may then be any task of blocks), else every round's by the NumPy
    path's own calls on the runs of ``blocks`` (which must then be a chunk of the NumPy loop)."""
    from .fused import block_states, f64

    rows, dim = theta_out.shape
    b0, b1 = blocks[0], blocks[-1] + 1
    states = block_states(seed, b0, b1)
    istates = block_states(seed, b0, b1, child=0)
    tstates = block_states(seed, b0, b1, child=1)
    ibuf = np.zeros((b1 - b0, 2), dtype=np.uint64)
    y = f64(model.y)
    lam = float(model.problem.lam)
    wy = float(watch[1]) if watch is not None else 0.0
    if dim == 1:
        X = f64(model.X[:, 0])
        wx = float(np.asarray(watch[0], float)[0]) if watch is not None else 0.0
    else:
        X = np.ascontiguousarray(model.X, dtype=np.float64)
        wx = f64(np.asarray(watch[0], float).reshape(dim)) if watch is not None else np.zeros(dim)
    mat_arr = np.zeros(rows, dtype=np.int64) if mat is None else mat
    flat = f64(np.repeat(theta1[None, :], rows, axis=0).reshape(-1))
    theta_g = np.empty(rows * dim)
    hinv = np.zeros(dim * dim) if hinv_all is None else hinv_all
    for _ in range(rounds):
        if gate:
            theta_g = flat.copy()
            if hinv_all is None:
                start = flat.reshape(rows, dim)
                shared = bool(np.all(start == start[:1]))
                hinv = _round_hinv(model, start[:1] if shared else start, ridge_hessian)
        if dim == 1:
            _kernels().gated_ls1(states, istates, tstates, ibuf, rows, local_steps, flat, theta_g, hinv, X, y, lam,
                                 float(eta), float(sigma), gate, float(test_std), float(threshold), float(offset),
                                 float(scale), watch is not None, wx, wy, esc, mat_arr)
        else:
            _kernels().gated_ls(states, istates, tstates, ibuf, rows, local_steps, dim, flat, theta_g, hinv, X, y,
                                lam, float(eta), float(sigma), gate, float(test_std), float(threshold), float(offset),
                                float(scale), watch is not None, wx, wy, esc, mat_arr)
    theta_out[...] = flat.reshape(rows, dim)


def gated_sgd(model, theta1, eta: float, sigma: float, *, rounds: int, local_steps: int, runs: int, seed: int,
              test_std: float = 0.0, threshold: float = -1.0, offset: float = 0.0, scale: float = 2.0,
              chunk_runs: int = 65536, watch=None, ridge_hessian: float = 0.0, workers=None) -> GatedSGDResult:
    """Simulate gated noisy SGD (module docstring) in ``runs`` runs.

    Parameters
    ----------
    model : a linear problem (adapted by :func:`linear_model`) or a model object
    theta1 : array_like, shape (m,)
    eta, sigma : float
        Step size and the standard deviation of the gradient noise of a noisy step.
    rounds, local_steps : int
        R and T_local (``R * T_local`` steps in all).
    test_std, threshold, offset, scale : float
        The influence test: ``c_test = scale (c + offset) + test_std xi`` passes when every
        coordinate has ``|c_test_i| <= threshold`` (``threshold < 0``: never).
    watch : (x, y), optional
        A data point whose exact noise-free steps are counted (module docstring).
    ridge_hessian : float
        Added to the diagonal of H before inverting (for models whose Hessian may be singular).
    workers : int, optional
        Threads of the fused path when its blocks of runs are independent (no test, or one inverse
        Hessian for all runs: :func:`_shared_hessian`); default :func:`dpverify.sim.get_workers`.
        Results do not depend on it.
    """
    if isinstance(model, (LeastSquares, LogisticRegression)):
        model = LinearModelAdapter(model)
    dim, n = int(model.dim), int(model.n_samples)
    theta1 = check_array("theta1", theta1, shape=(dim,))
    eta = check_real("eta", eta, nonnegative=True)
    sigma = check_real("sigma", sigma, nonnegative=True)
    test_std = check_real("test_std", test_std, nonnegative=True)
    threshold = check_real("threshold", threshold, finite=False)
    offset = check_real("offset", offset)
    scale = check_real("scale", scale)
    rounds = check_int("rounds", rounds, minimum=0)
    local_steps = check_int("local_steps", local_steps, minimum=0)
    runs = check_int("runs", runs)
    seed = check_seed(seed)
    chunk_runs = check_int("chunk_runs", chunk_runs)
    workers = resolve_workers(workers)
    gate = threshold >= 0
    if watch is not None:
        wx = check_array("watch x", watch[0], ndim=1)
        wy = watch[1]
    thetas = np.empty((runs, dim))
    escapes = np.zeros(runs, dtype=np.int64)
    matches = np.zeros(runs, dtype=np.int64) if watch is not None else None
    if _fusable(model):
        # (no round, no Hessian: the NumPy loop inverts none, so neither may this, a singular one included)
        hinv_all = (_round_hinv(model, theta1[None, :], ridge_hessian) if gate and rounds > 0 and _shared_hessian(model)
                    else None)
        args = (model, theta1, eta, sigma, rounds, local_steps, seed, test_std, threshold, offset, scale, watch,
                ridge_hessian, gate, hinv_all)

        def run(blocks, start, stop):
            _fused_chunk(*args, blocks, thetas[start:stop], escapes[start:stop],
                         None if matches is None else matches[start:stop])

        if gate and hinv_all is None:     # every round's Hessians of a chunk's runs, as the NumPy loop
            for start, stop, blocks in iter_chunks(runs, chunk_runs):
                run(blocks, start, stop)
        else:                             # independent blocks: tasks of blocks on the worker threads
            tasks, window, workers = plan_tasks(n_blocks(runs), workers, -(-chunk_runs // BLOCK),
                                                BLOCK * rounds * local_steps * 3)
            for _ in ordered_map(lambda bb: run(range(*bb), bb[0] * BLOCK, min(bb[1] * BLOCK, runs)), tasks,
                                 workers, window):
                pass
        return GatedSGDResult(thetas=thetas, escapes=escapes, matches=matches, seed=seed,
                              steps=rounds * local_steps)
    explicit = _explicit(model)
    for start, stop, blocks in iter_chunks(runs, chunk_runs):
        rows = stop - start
        slices = block_slices(start, stop)
        streams = [_streams(seed, b) for b in blocks]
        theta = np.repeat(theta1[None, :], rows, axis=0)
        idx = np.empty(rows, dtype=np.int64)
        nu = np.empty((rows, dim))
        xi = np.empty((rows, dim))
        esc = np.zeros(rows, dtype=np.int64)
        mat = np.zeros(rows, dtype=np.int64)
        never = np.zeros(rows, dtype=bool)
        for _ in range(rounds):
            if gate:
                theta_g = theta.copy()
                shared = bool(np.all(theta_g == theta_g[:1]))  # every run at the same point (round 0)
                Hinv = _round_inverse(model, theta_g[:1] if shared else theta_g, ridge_hessian)
            for _ in range(local_steps):
                for (nrng, irng, trng), sl in zip(streams, slices):
                    k = sl.stop - sl.start
                    idx[sl] = irng.integers(0, n, size=k)
                    nrng.standard_normal(out=nu[sl])
                    if gate:
                        trng.standard_normal(out=xi[sl])
                if gate:
                    if explicit:
                        g_g = _explicit_sample_grad(model, theta_g, idx)
                        c = _explicit_influence(Hinv, g_g, shared) / n + offset
                    else:
                        g_g = model.sample_grad(theta_g, idx)
                        c = (g_g @ Hinv[0].T if shared else np.einsum("rde,re->rd", Hinv, g_g)) / n + offset
                    passed = np.max(np.abs(scale * c + test_std * xi), axis=1) <= threshold
                else:
                    passed = never
                step = _explicit_sample_grad(model, theta, idx) if explicit else model.sample_grad(theta, idx)
                step += np.where(passed, 0.0, sigma)[:, None] * nu
                step *= eta
                if watch is not None:
                    target = eta * (_explicit_point_grad(model, theta, wx, wy) if explicit
                                    else model.point_grad(theta, wx, wy))
                    tol = 1e-12 * (1.0 + np.abs(target).max(axis=1))
                    mat += np.abs(step - target).max(axis=1) <= tol
                theta -= step
                esc += passed
        thetas[start:stop] = theta
        escapes[start:stop] = esc
        if matches is not None:
            matches[start:stop] = mat
    return GatedSGDResult(thetas=thetas, escapes=escapes, matches=matches, seed=seed, steps=rounds * local_steps)
