"""Noisy gradient descent whose step size and noise level adapt to the current gradient norm, run by run.

The iteration, for ``t = 1..T`` from ``theta_1``::

    g_t         = grad F(theta_t),
    (eta_t, s_t) = rule(t, ||g_t||),                      (per run)
    theta_{t+1} = theta_t - eta_t (g_t + s_t z_t),       z_t ~ N(0, I_D),

is run for many independent runs at once (arrays of shape ``runs x D``); ``eta_t`` and ``s_t`` are
computed for every run from *that run's* gradient norm (an oracle of it: nothing here charges a
privacy cost for reading it). A rule that ignores the gradient norm is an ordinary schedule
(``eta_t``, ``s_t`` functions of ``t`` only), so the same simulator runs data-dependent and
data-independent schedules side by side.

Randomness follows :mod:`dpverify.sim.rng`: block ``b`` of :data:`~dpverify.sim.rng.BLOCK` runs draws
``z_1 .. z_T`` (shape ``(rows, D)`` each, step after step) from ``block_rng(seed, b)``; per-run
statistics are reduced per block and the blocks combined in block order, so every result is
bit-identical whatever ``chunk_runs`` is. Runs that share a seed share their noise draws whatever
the rule (common random numbers across schedules).

Tracks: quantities of every run along its path, at the iterates ``theta_1 .. theta_{T+1}``
(``"grad_norm_sq"`` ``||grad F||^2``, ``"excess"`` ``F - F*``, ``"dist"`` ``||theta - theta*||``; a problem
with ``value_and_grad`` gives the excess and the gradient in one pass over the data) and at
the steps ``t = 1..T`` (``"noise_std"`` ``s_t``, ``"step"`` ``eta_t``). A per-run statistic may use them
(``statistic(theta_final, tracks)``), and ``record=True`` returns them for every run (figures).

Declared rules and the fused path: a rule given as a :class:`NormRule` (a step-size schedule and a noise
level that is a schedule or a schedule times the gradient norm) on a :class:`~dpverify.sim.Quadratic`
(or a :class:`~dpverify.sim.problems.losses.CosineSum`, whose gradient ``a sin(theta)`` the kernel computes with
libm's ``sin`` where a check at first use finds it NumPy's, :func:`_sines_agree`)
runs the fused kernel :func:`dpverify.sim.adaptive_kernels.adaptive_quadratic`, bit-identical with the NumPy
path for a seed (tracks ``"grad_norm_sq"``, ``"dist"``, ``"noise_std"``, ``"step"``; the ``"excess"``
track, any other rule or problem runs the NumPy path). The NumPy path sums squared norms with ``einsum``,
whose order depends on the machine's vector width; the kernel sums in the order ``einsum`` takes on
AVX2/AVX-512 machines for ``D <= 4``, and runs only where a check at first use for that ``D`` finds it
equal to ``einsum`` (:func:`_norms_agree`; elsewhere the NumPy path runs).

On a linear model (:class:`~dpverify.sim.LogisticRegression`, :class:`~dpverify.sim.LeastSquares`,
:class:`~dpverify.sim.problems.losses.Logistic`) the same rule runs :func:`dpverify.sim.adaptive_kernels.adaptive_linear`, whose
gradient reproduces the NumPy path's: BLAS's ``dgemm`` sums (``theta @ X.T``, ``r @ X``) as chains of
fused multiply-adds over the inner index from ``0.0``, and SciPy's ``expit`` as ``1 / (1 + exp(-z))``
with libm's ``exp``. That is what OpenBLAS and glibc do on this project's x86-64 machines in two and
three dimensions, not a promise of either: a check at first use (:func:`_linear_grads_agree`) compares
the kernel's gradient with ``grad``, first on discriminating standard normal data of the model's class,
shape and memory order (64 batches of a block's row count: every place in a block, where BLAS may use
an edge kernel, is compared many times), then on the data set itself at its scale, at spread magnitudes
and at overflowing rows; the NumPy path runs wherever they differ (four or more dimensions at some row
counts; more than 256 samples, which ``dgemm`` sums in panels) and, without a check, for blocks of one
run and data of one sample or one feature, where NumPy calls ``gemv``.

Exact moments (:func:`adaptive_moments`): on a diagonal quadratic
``F = F* + 1/2 sum_i lam_i (theta_i - theta*_i)^2``, with a step that does not depend on the gradient
and a noise *variance* affine in the squared gradient norm, ``s_t^2 = a_t + b_t ||g_t||^2`` (e.g.
``s_t = ||g_t||/sqrt(D)``: ``a_t = 0``, ``b_t = 1/D``), the second moments ``S_{t,i} = E (theta_{t,i} -
theta*_i)^2`` obey the *linear* recursion

    S_{t+1,i} = (1 - eta_t lam_i)^2 S_{t,i} + eta_t^2 (a_t + b_t sum_j lam_j^2 S_{t,j}),

because ``z_t`` is independent of ``theta_t`` (hence of ``s_t``), so ``E[(theta_t - theta*) s_t z_t] = 0``
and ``E[s_t^2 ||z_t||^2 / D ...]`` factorises. Every statistic linear in ``S`` (expected excess,
gradient norm and squared distance at any iterate, and their sums along the path) is therefore
exact, in double precision or in mpmath.
"""
from __future__ import annotations

import contextlib
import hashlib
import numbers
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

import numpy as np

from . import adaptive_kernels as _kernels
from .adaptive_exact import adaptive_moments, adaptive_path_moments, quadratic_path_moments
from .draws import fused_enabled
from .jit import chunk_width
from .driver import task_plan
from .fused import block_states, f64
from .parallel import ordered_map
from .problems import CosineSum, LeastSquares, Logistic, LogisticRegression, Problem, Quadratic
from .results import MCResult, block_moments
from .rng import BLOCK, block_rng, block_slices, iter_chunks

__all__ = ["AdaptiveResult", "NormRule", "adaptive_gd", "adaptive_moments", "adaptive_path_moments", "quadratic_path_moments",
           "ITERATE_TRACKS", "STEP_TRACKS"]

#: Quantities tracked at every iterate theta_1 .. theta_{T+1}.
ITERATE_TRACKS = ("grad_norm_sq", "excess", "dist")
#: Quantities tracked at every step t = 1..T.
STEP_TRACKS = ("noise_std", "step")

Rule = Callable[[int, np.ndarray], tuple]
PathStatistic = Callable[[np.ndarray, dict], np.ndarray]


# --------------------------------------------------------------------------- validation
def _int(name: str, v, minimum: int = 1) -> int:
    if isinstance(v, (bool, np.bool_)) or not isinstance(v, numbers.Integral) or int(v) < minimum:
        kind = "a positive integer" if minimum == 1 else f"an integer >= {minimum}"
        raise ValueError(f"{name} must be {kind}, got {v!r}")
    return int(v)


def _theta1(theta1, dim: int) -> np.ndarray:
    arr = np.asarray(theta1, dtype=float)
    if arr.shape != (dim,) or not np.all(np.isfinite(arr)):
        raise ValueError(f"theta1 must be a finite array of shape ({dim},), got {theta1!r}")
    return arr


def _per_run(name: str, v, rows: int, t: int) -> np.ndarray:
    arr = np.broadcast_to(np.asarray(v, dtype=float), (rows,))
    if not np.all(np.isfinite(arr)) or np.any(arr < 0):
        bad = arr[~(np.isfinite(arr) & (arr >= 0))][0]
        raise ValueError(f"rule returned {name} = {bad!r} at step t = {t}; it must be finite and >= 0")
    return arr


_NORMS_AGREE: dict[int, bool] = {}


def _norms_agree(dim: int) -> bool:
    """Whether :func:`kernels.sq_norms` equals ``einsum("ij,ij->i")`` in dimension ``dim`` (checked once
    per dimension, on rows of widely spread magnitudes and several row counts)."""
    if dim not in _NORMS_AGREE:
        rng = np.random.default_rng(dim)
        ok = True
        for rows in (1, 3, 1000, BLOCK):
            x = rng.standard_normal((rows, dim)) * np.exp(3.0 * rng.standard_normal((rows, dim)))
            got = np.empty(rows)
            _kernels.sq_norms(x, got)
            ok &= bool(np.array_equal(got, np.einsum("ij,ij->i", x, x)))
        _NORMS_AGREE[dim] = ok
    return _NORMS_AGREE[dim]


# --------------------------------------------------------------------------- declared rules
@dataclass(frozen=True, eq=False)
class NormRule:
    """A rule of a declared form: step ``eta_t = etas[t-1]`` and noise ``s_t = noise[t-1]``
    (``proportional=False``: a schedule) or ``s_t = noise[t-1] * ||g_t||`` (``proportional=True``).

    Called as any rule (``rule(t, grad_norm) -> (eta, noise_std)``); :func:`adaptive_gd` runs it on
    the fused kernel when the problem is a :class:`~dpverify.sim.Quadratic`.

    Parameters
    ----------
    etas : array_like, shape (T,)
        Step sizes.
    noise : array_like, shape (T,)
        Noise standard deviations (schedule) or their ratio to the gradient norm (proportional).
    proportional : bool
        Whether ``s_t`` is ``noise[t-1]`` times the run's gradient norm.

    Examples
    --------
    >>> rule = NormRule(np.full(3, 0.5), np.full(3, 0.25), proportional=True)
    >>> rule(2, np.array([4.0]))
    (0.5, array([1.]))
    """

    etas: np.ndarray
    noise: np.ndarray
    proportional: bool = False

    def __post_init__(self):
        etas = np.array(self.etas, dtype=float).reshape(-1)
        noise = np.array(self.noise, dtype=float).reshape(-1)
        if etas.shape != noise.shape:
            raise ValueError(f"etas and noise must have the same length, got {etas.size} and {noise.size}")
        object.__setattr__(self, "etas", etas)
        object.__setattr__(self, "noise", noise)
        object.__setattr__(self, "proportional", bool(self.proportional))

    def __call__(self, t: int, grad_norm: np.ndarray):
        eta, s = self.etas[t - 1], self.noise[t - 1]
        return (float(eta), s * grad_norm) if self.proportional else (float(eta), float(s))


# --------------------------------------------------------------------------- results
@dataclass(frozen=True)
class AdaptiveResult(MCResult):
    """An :class:`~dpverify.sim.results.MCResult` of :func:`adaptive_gd` with its recorded tracks.

    ``tracks``: the recorded tracks of every run (``record=True``), each of shape ``(runs, T + 1)``
    (iterate tracks) or ``(runs, T)`` (step tracks).
    """

    tracks: dict = field(default_factory=dict, repr=False, compare=False)


# --------------------------------------------------------------------------- the simulator
def _iterate_values(problem: Problem, th: np.ndarray, g: np.ndarray | None, need: set, out: dict, k: int):
    if "grad_norm_sq" in need:
        gg = problem.grad(th) if g is None else g
        out["grad_norm_sq"][:, k] = np.einsum("ij,ij->i", gg, gg)
    if "excess" in need:
        out["excess"][:, k] = problem.value(th) - problem.f_star
    if "dist" in need:
        d = th - np.asarray(problem.theta_star)
        out["dist"][:, k] = np.sqrt(np.einsum("ij,ij->i", d, d))


def _block(problem: Problem, th: np.ndarray, rule: Rule, T: int, rng: np.random.Generator, need: set) -> dict:
    """Advance one block of runs ``th`` (modified in place) for T steps; return its tracks."""
    rows, dim = th.shape
    tr = {k: np.empty((rows, T + 1)) for k in ITERATE_TRACKS if k in need}
    tr.update({k: np.empty((rows, T)) for k in STEP_TRACKS if k in need})
    noise = np.empty((rows, dim))
    joint = "excess" in need and hasattr(problem, "value_and_grad")   # one pass over the data for both
    for t in range(1, T + 1):
        if joint:
            f, g = problem.value_and_grad(th)
            tr["excess"][:, t - 1] = f - problem.f_star
        else:
            g = problem.grad(th)
        gn2 = np.einsum("ij,ij->i", g, g)
        _iterate_values(problem, th, g, need - {"grad_norm_sq"} - ({"excess"} if joint else set()), tr, t - 1)
        if "grad_norm_sq" in need:
            tr["grad_norm_sq"][:, t - 1] = gn2
        eta, s = rule(t, np.sqrt(gn2))
        eta, s = _per_run("eta", eta, rows, t), _per_run("noise_std", s, rows, t)
        if "noise_std" in need:
            tr["noise_std"][:, t - 1] = s
        if "step" in need:
            tr["step"][:, t - 1] = eta
        rng.standard_normal(out=noise)
        noise *= s[:, None]
        noise += g
        noise *= eta[:, None]
        th -= noise
    _iterate_values(problem, th, None, need, tr, T)
    return tr


def adaptive_gd(problem: Problem, theta1, rule: Rule, T: int, runs: int, seed: int, *, chunk_runs: int = 65536,
                statistic: PathStatistic | None = None, track: Sequence[str] = (), record: bool = False,
                return_thetas: bool = False) -> AdaptiveResult:
    """Monte Carlo of noisy gradient descent with a gradient-norm-adaptive rule (module docstring).

    Parameters
    ----------
    problem : Problem
        Objective (``grad`` of shape ``(rows, D)``; ``value``/``f_star`` for the ``"excess"`` track,
        ``theta_star`` for ``"dist"``).
    theta1 : array_like, shape (D,)
        Common starting point.
    rule : callable
        ``rule(t, grad_norm) -> (eta, noise_std)`` for ``t = 1..T``; ``grad_norm`` has shape ``(rows,)``
        (one entry per run of a block); each output is a scalar or an array of shape ``(rows,)``,
        finite and ``>= 0``.
    T : int
        Number of steps (``>= 0``).
    runs, seed : int
        Number of runs and the non-negative master seed (:mod:`dpverify.sim.rng`).
    chunk_runs : int
        Runs held in memory at once (rounded up to a multiple of ``BLOCK``); changes no result.
    statistic : callable, optional
        ``statistic(theta_final, tracks) -> (rows,)``, called per block with the block's final
        iterates and its tracks (those named in ``track``). Default: ``F(theta_{T+1}) - F*``.
    track : sequence of str
        Tracks to compute (:data:`ITERATE_TRACKS`, :data:`STEP_TRACKS`).
    record : bool
        Return the tracks of every run (``result.tracks``).
    return_thetas : bool
        Return the final iterates (``result.thetas``).

    Returns
    -------
    AdaptiveResult
    """
    if not isinstance(problem, Problem):
        raise ValueError(f"problem must be a dpverify.sim Problem, got {problem!r}")
    theta1 = _theta1(theta1, problem.dim)
    T = _int("T", T, minimum=0)
    runs = _int("runs", runs)
    seed = _int("seed", seed, minimum=0)
    _int("chunk_runs", chunk_runs)
    if not callable(rule):
        raise ValueError(f"rule must be callable (t, grad_norm) -> (eta, noise_std), got {rule!r}")
    need = set(track)
    unknown = sorted(need - set(ITERATE_TRACKS) - set(STEP_TRACKS))
    if unknown:
        raise ValueError(f"track must name tracks among {ITERATE_TRACKS + STEP_TRACKS}, got {unknown}")
    if statistic is None:
        statistic = lambda th, tr: problem.value(th) - problem.f_star  # noqa: E731
    elif not callable(statistic):
        raise ValueError(f"statistic must be callable (theta_final, tracks) -> values, got {statistic!r}")
    kept = {k: np.empty((runs, T + (1 if k in ITERATE_TRACKS else 0))) for k in need} if record else {}
    thetas = np.empty((runs, problem.dim)) if return_thetas else None
    if isinstance(rule, NormRule) and rule.etas.size < T:
        raise ValueError(f"rule has {rule.etas.size} steps, T = {T}")
    fused = (_fused_kernel(problem, theta1, rule, T, runs, need)
             if isinstance(rule, NormRule) and fused_enabled() else None)
    if fused is not None:
        # no BLAS thread limit here (it costs ~1.5 ms a call; the kernels use no BLAS)
        moments = _simulate_fused(*fused, problem.dim, rule, T, runs, seed, chunk_runs, statistic, need, kept,
                                  thetas)
    else:
        with _one_blas_thread():
            moments = _simulate(problem, theta1, rule, T, runs, seed, chunk_runs, statistic, need, kept, thetas)
    return AdaptiveResult.from_block_moments(moments, seed=seed, steps=T, tracks=kept, thetas=thetas)


@contextlib.contextmanager
def _one_blas_thread():
    """Blocks of runs are small matrices: one BLAS thread is much faster than many (and results do
    not depend on the thread count)."""
    try:
        from threadpoolctl import threadpool_limits
    except ImportError:  # pragma: no cover - threadpoolctl ships with scikit-learn
        yield
        return
    with threadpool_limits(1):
        yield


def _simulate(problem, theta1, rule, T, runs, seed, chunk_runs, statistic, need, kept, thetas) -> list:
    moments = []
    for start, stop, blocks in iter_chunks(runs, chunk_runs):
        theta = np.empty((stop - start, problem.dim))
        theta[...] = theta1
        for b, sl in zip(blocks, block_slices(start, stop)):
            th = theta[sl]
            tr = _block(problem, th, rule, T, block_rng(seed, b), need)
            rows = sl.stop - sl.start
            moments.append(block_moments(statistic(th, tr), rows))
            lo, hi = start + sl.start, start + sl.stop
            for k in kept:
                kept[k][lo:hi] = tr[k]
            if thetas is not None:
                thetas[lo:hi] = th
    return moments


_SINES_AGREE: list[bool] = []


def _sines_agree() -> bool:
    """Whether :func:`kernels.scaled_sines` (libm's ``sin``) gives :class:`~dpverify.sim.problems.losses.CosineSum`'s
    gradient ``a * np.sin(theta)`` bit for bit (NaN aside), checked once per process on 65536 arguments:
    spread magnitudes, near multiples of pi/2, huge, subnormal, signed zeros, infinities and NaN.  NumPy's
    ``sin`` is libm's on this project's machines; a NumPy built with its own vectorised ``sin`` may differ,
    and then the NumPy path runs."""
    if not _SINES_AGREE:
        rng = np.random.default_rng(2024)
        x = rng.standard_normal(65536) * np.exp(4.0 * rng.standard_normal(65536))
        x[:4096] = np.pi / 2 * rng.integers(-10**6, 10**6, 4096) + rng.standard_normal(4096) * 1e-9
        x[4096:4112] = [0.0, -0.0, np.inf, -np.inf, np.nan, 5e-324, -5e-324, 1e300, -1e300, 2.2e-308, 1e22,
                        np.pi, -np.pi, 1e-300, 7e15, 2.0 ** 1000]
        a = np.exp(rng.standard_normal(65536))
        got = np.empty(65536)
        with np.errstate(all="ignore"):
            _kernels.scaled_sines(a, x, got)
            _SINES_AGREE.append(bool(np.array_equal(got, a * np.sin(x), equal_nan=True)))
    return _SINES_AGREE[0]


def _linear_form(problem):
    """``(logistic, X, y, divisor, ridge)`` of a linear model whose ``grad`` is
    ``(phi'(theta @ X.T) @ X) / divisor (+ ridge * theta)`` with the logistic (``-y expit(-y m)``) or
    least-squares (``m - y``) derivative, or ``None``."""
    if type(problem) in (LogisticRegression, LeastSquares):
        return (type(problem) is LogisticRegression, problem.X, problem.y, float(problem.normaliser),
                float(problem.ridge))
    if type(problem) is Logistic:
        return True, problem.X, problem.y, float(problem.n_samples), float(problem.lam)
    return None


#: Sample-steps (runs x T x N) below which adaptive GD on a linear model runs the NumPy path: the fused
#: path's first use on a data set (its checks, :func:`_linear_grads_agree`, 1-5 ms with a BLAS thread
#: limit) costs more than it saves on less.  The two paths give the same bits; the tests set it to 0.
LINEAR_FUSED_MIN_WORK = 1 << 22

_LINEAR_ORDER: dict[tuple, bool] = {}
_LINEAR_AGREE: dict[tuple, bool] = {}


def _twin(problem, X: np.ndarray, y: np.ndarray):
    """The same model (class, ridge, divisor) on other data ``X`` (kept in its memory order), ``y``."""
    if type(problem) is Logistic:
        return Logistic(X, y, problem.lam)
    return problem.with_data(X, y, problem.normaliser)


def _grads_equal(problem, form, th: np.ndarray) -> bool:
    """Whether :func:`kernels.linear_model_grads` at the rows ``th`` is ``problem.grad``'s bits (NaN
    aside: its sign and payload), ``form`` being :func:`_linear_form`'s of ``problem``."""
    logistic, X, y, divisor, ridge = form
    y = np.asarray(y, dtype=float)
    with np.errstate(all="ignore"):                  # the caller limits BLAS to one thread
        want = problem.grad(th)
        got = np.empty(th.shape)
        _kernels.linear_model_grads(th, f64(X), f64(-y), f64(y), logistic, divisor, ridge, got)
    return bool(np.array_equal(got, want, equal_nan=True))


def _linear_grads_agree(problem, form, rows: int) -> bool:
    """Whether :func:`kernels.linear_model_grads` gives ``problem.grad``'s bits (up to a NaN's sign and
    payload) on blocks of ``rows`` runs; the answer is kept.  Two stages:

    * **the order of the sums**, once per model class, shape ``(rows, N, D)``, memory order of ``X``
      and whether a ridge term is added: the same model on standard normal data in ``X``'s memory order
      (never for one row, one sample or one feature, where NumPy calls ``gemv``, another order), at 64 batches of
      ``rows`` standard normal rows, whose margins and sums cancel, so that two orders of summation give
      other bits in a good share of the elements.  BLAS picks its routine and order by shape and memory
      order, not by the values, but may pick it by the row's place in the block (an edge kernel for the
      rows past a multiple of its tile, e.g. the last of 1023 rows in four dimensions): each place gets
      ``64 D`` sums and ``64 N`` margins;
    * **the data set itself**, once per data set and row count: rows at the data's scale (margins of
      order one), rows of widely spread magnitudes, and rows that overflow ``exp`` or the margins.
    """
    logistic, X, y, divisor, ridge = form
    X = np.asarray(X)
    N, D = X.shape
    if min(rows, N, D) < 2 or X.dtype != np.float64 or not (X.flags.c_contiguous or X.flags.f_contiguous):
        return False                  # one row, sample or feature: NumPy calls gemv, another order
    order = "C" if X.flags.c_contiguous else "F"
    shape_key = (type(problem), logistic, ridge != 0.0, rows, N, D, order)
    if shape_key not in _LINEAR_ORDER:
        rng = np.random.default_rng([rows, N, D])
        Xs = np.asarray(rng.standard_normal((N, D)), order=order)
        ys = np.where(rng.standard_normal(N) >= 0.0, 1.0, -1.0) if logistic else rng.standard_normal(N)
        try:
            twin = _twin(problem, Xs, ys)
        except (ValueError, RuntimeError, np.linalg.LinAlgError):   # e.g. Newton's method failing: unknown
            twin = None
        batches = 64
        with _one_blas_thread():
            _LINEAR_ORDER[shape_key] = twin is not None and all(
                _grads_equal(twin, _linear_form(twin), rng.standard_normal((rows, D))) for _ in range(batches))
    if not _LINEAR_ORDER[shape_key]:
        return False
    y = np.asarray(y, dtype=float)
    key = (shape_key, divisor, ridge, hashlib.sha256(np.ascontiguousarray(X)).digest(),
           hashlib.sha256(np.ascontiguousarray(y)).digest())
    if key not in _LINEAR_AGREE:
        rng = np.random.default_rng(rows)
        scale = 1.0 / max(float(np.abs(X).max()) * np.sqrt(D), 1e-300)
        at_scale = rng.standard_normal((rows, D)) * scale
        spread = at_scale * np.exp(3.0 * rng.standard_normal((rows, D)))
        special = [0.0, -0.0, 1e300, -1e300, 710.0 * scale, -746.0 * scale, 5e-324]
        for r in range(min(rows, 3 * len(special))):
            spread[r, r % D] = special[r % len(special)]
        with _one_blas_thread():
            _LINEAR_AGREE[key] = _grads_equal(problem, form, at_scale) and _grads_equal(problem, form, spread)
    return _LINEAR_AGREE[key]


def _fused_kernel(problem, theta1, rule, T, runs, need):
    """``(kernel, cost)``: ``kernel(states, rows, gtrack, want_g, dtrack, want_d, out, bad)`` runs
    :func:`adaptive_gd` on a fused kernel, bit-identical with the NumPy path, and ``cost`` is the rough
    work of one run's step (in normal draws: ``D`` and, on a linear model, about two per sample for its
    ``exp`` and sums); ``None`` where the NumPy path must run (the
    ``"excess"`` track; a problem other than a :class:`~dpverify.sim.Quadratic` or a logistic or
    least-squares model; a sum of squares or a gradient this machine computes in another order)."""
    dim = problem.dim
    if need & {"excess"} or not _norms_agree(dim):
        return None
    T_etas, T_noise = f64(rule.etas[:T]), f64(rule.noise[:T])
    cosine = type(problem) is CosineSum
    if type(problem) is Quadratic or (cosine and _sines_agree()):
        reps = chunk_width(dim) // dim
        args = (f64(theta1), f64(np.tile(problem.a if cosine else problem.eigs, reps)),
                f64(np.tile(problem.theta_star, reps)), T_etas, T_noise, rule.proportional)
        return (lambda states, rows, *rest: _kernels.adaptive_quadratic(states, rows, *args, *rest, cosine=cosine),
                dim + 2 * cosine * dim)
    form = _linear_form(problem)
    if form is None or runs * max(T, 1) * len(form[2]) < LINEAR_FUSED_MIN_WORK:
        return None
    rows_seen = {BLOCK} if runs >= BLOCK else set()
    if runs % BLOCK:
        rows_seen.add(runs % BLOCK)
    if not all(_linear_grads_agree(problem, form, r) for r in rows_seen):
        return None
    logistic, X, y, divisor, ridge = form
    star = f64(problem.theta_star) if "dist" in need else np.zeros(dim)
    args = (f64(theta1), f64(X), f64(-np.asarray(y, dtype=float)), f64(y), logistic, divisor, ridge, star,
            T_etas, T_noise, rule.proportional)
    return (lambda states, rows, *rest: _kernels.adaptive_linear(states, rows, *args, *rest)), dim + 2 * len(y)


def _simulate_fused(kernel, cost, dim, rule, T, runs, seed, chunk_runs, statistic, need, kept, thetas) -> list:
    """:func:`_simulate` on a fused kernel (:func:`_fused_kernel`; bit-identical with it)."""
    want_g = bool(need & {"grad_norm_sq", "noise_std"})
    want_d = "dist" in need
    workers, tasks, window = task_plan(runs, chunk_runs, None, BLOCK * cost * max(T, 1))

    def job(blocks):
        b0, b1 = blocks
        start, stop = b0 * BLOCK, min(b1 * BLOCK, runs)
        rows = stop - start
        th = np.empty((rows, dim))
        gtr = np.empty((rows, T + 1) if want_g else (0, 0))
        dtr = np.empty((rows, T + 1) if want_d else (0, 0))
        bad = np.full(4, -1.0)
        kernel(block_states(seed, b0, b1), rows, gtr, want_g, dtr, want_d, th, bad)
        if bad[0] >= 0:
            return ("bad", bad)
        out = []
        for sl in block_slices(start, stop):
            tr = {}
            if "grad_norm_sq" in need:
                tr["grad_norm_sq"] = gtr[sl]
            if want_d:
                tr["dist"] = dtr[sl]
            if "noise_std" in need:
                tr["noise_std"] = (rule.noise[:T] * np.sqrt(gtr[sl, :T]) if rule.proportional
                                   else np.broadcast_to(rule.noise[:T], (sl.stop - sl.start, T)).copy())
            if "step" in need:
                tr["step"] = np.broadcast_to(rule.etas[:T], (sl.stop - sl.start, T)).copy()
            out.append(block_moments(statistic(th[sl], tr), sl.stop - sl.start))
            lo, hi = start + sl.start, start + sl.stop
            for k in kept:
                kept[k][lo:hi] = tr[k]
        if thetas is not None:
            thetas[start:stop] = th
        return ("ok", out)

    moments = []
    for kind, val in ordered_map(job, tasks, workers, window):
        if kind == "bad":
            name = "eta" if val[2] == 0 else "noise_std"
            raise ValueError(f"rule returned {name} = {val[3]!r} at step t = {int(val[1])}; it must be finite and >= 0")
        moments.extend(val)
    return moments
