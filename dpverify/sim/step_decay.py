"""Step-decay SGD with early momentum: phases of their own step size and length, heavy-ball momentum
for the first steps of each phase, mini-batches drawn without replacement, Gaussian gradient noise,
and an output drawn uniformly from each phase's iterates.

The iteration, in optimisation terms (phase k = 1..K has step ``eta_k``, length ``T_k`` and
momentum for its first ``m_k`` steps)::

    w_0 = w_{-1} = start of the phase (the previous phase's output; velocity zero)
    for t = 1..T_k:
        I_t = B indices drawn uniformly without replacement from the n samples
        g_t = (1/B) sum_{i in I_t} grad f(w_{t-1}; z_i) + s xi_t,        xi_t ~ N(0, I_D)
        w_t = w_{t-1} - eta_k g_t + rho_t (w_{t-1} - w_{t-2}),           rho_t = rho if t <= m_k else 0
    output of the phase: w_O with O uniform on {1..T_k} (``output="after"``: the T_k iterates the
    steps produce), on {0..T_k - 1} (``"before"``: the points the steps evaluate gradients at), or
    O = T_k (``"last"``); the next phase starts there.

:func:`phase_schedule` builds the per-phase lists for a geometric schedule (step multiplied by
``decay`` and lengths by ``growth`` at every phase, as in step-decay SGD). ``batch=None`` (or
``batch >= n``) uses the full gradient.

Problems: any :class:`~dpverify.sim.Problem` (full gradients); for mini-batches a data problem,
either one with ``batch_grad(theta, idx)`` (e.g. :class:`~dpverify.sim.problems.separable.SeparableLoss`)
or a linear model of :mod:`dpverify.sim.problems` (through :func:`~dpverify.sim.minibatch_grad`).

Randomness
----------
Block ``b`` of :data:`~dpverify.sim.rng.BLOCK` runs draws its gradient noise from
``block_rng(seed, b)``, its mini-batch indices from ``index_rng(seed, b)`` (as
:func:`~dpverify.sim.psgd` does) and its output indices from :func:`output_rng` ``(seed, b)``;
per-run statistics are reduced per block and combined in block order, so results are
bit-identical for every ``chunk_runs``. :func:`coupled_step_decay_sgd` runs two problems (e.g.
neighbouring data sets) with the *same* noise, mini-batch indices and output indices.

Exact moments on quadratics: :mod:`dpverify.sim.step_decay_moments`.
"""
from __future__ import annotations

import dataclasses
import math
import numbers
from dataclasses import dataclass, field

import numpy as np

from . import draws
from . import step_decay_kernels as _kernels
from .jit import chunk_width
from .driver import run_mc, task_plan
from .fused import block_states, f64
from .parallel import ordered_map
from .results import MCResult, block_moments
from .problems import SeparableLoss
from .rng import BLOCK, block_rng, block_slices, index_rng, iter_chunks
from .gradients import sample_without_replacement
from .updates import HeavyBall

__all__ = [
    "OUTPUTS", "StepDecayResult", "check_output", "check_schedule", "coupled_step_decay_sgd", "output_rng",
    "phase_schedule", "step_decay_sgd",
]

OUTPUTS = ("after", "before", "last")

#: the NumPy path's largest chunk of runs: its arrays fall out of the caches beyond it (on the
#: benchmark's step-decay job, 385 ms of CPU in chunks of 8192 runs, 551 ms in chunks of 65536);
#: ``chunk_runs`` (default 65536, as every simulator) bounds the fused path's tasks, whose few
#: bytes a run make larger tasks cheaper (less overhead a task)
CHUNK_NUMPY = 8192


# --------------------------------------------------------------------------- validation
def _int(name, v, minimum=1):
    if isinstance(v, (bool, np.bool_)) or not isinstance(v, numbers.Integral) or int(v) < minimum:
        raise ValueError(f"{name} must be an integer >= {minimum}, got {v!r}")
    return int(v)


def _real(name, v, *, positive=False, nonnegative=False):
    if isinstance(v, (bool, np.bool_)) or not isinstance(v, numbers.Real) or not math.isfinite(float(v)):
        raise ValueError(f"{name} must be a finite real number, got {v!r}")
    v = float(v)
    if positive and not v > 0:
        raise ValueError(f"{name} must be positive, got {v!r}")
    if nonnegative and not v >= 0:
        raise ValueError(f"{name} must be non-negative, got {v!r}")
    return v


def check_schedule(etas, lengths, momentum_steps):
    lengths = [_int(f"lengths[{k}]", T) for k, T in enumerate(lengths)]
    if not lengths:
        raise ValueError("lengths must hold at least one phase")
    etas = [_real(f"etas[{k}]", e, nonnegative=True) for k, e in enumerate(etas)]
    mons = [_int(f"momentum_steps[{k}]", m, minimum=0) for k, m in enumerate(momentum_steps)]
    if len(etas) != len(lengths) or len(mons) != len(lengths):
        raise ValueError(f"etas, lengths and momentum_steps must have one entry per phase, got "
                         f"{len(etas)}, {len(lengths)} and {len(mons)}")
    for k, (m, T) in enumerate(zip(mons, lengths)):
        if m > T:
            raise ValueError(f"momentum_steps[{k}] = {m} exceeds lengths[{k}] = {T}")
    return etas, lengths, mons


def _momentum(rho):
    rho = _real("momentum", rho, nonnegative=True)
    if not rho < 1:
        raise ValueError(f"momentum must be in [0, 1), got {rho!r}")
    return rho


def check_output(output):
    if output not in OUTPUTS:
        raise ValueError(f"output must be one of {OUTPUTS}, got {output!r}")
    return output


def phase_schedule(eta0: float, T0: int, m0: int, phases: int, decay: float = 0.5, growth: int = 2):
    """Per-phase lists for a geometric schedule: phase k = 1..K has step ``eta0 decay^k``, length
    ``T0 growth^k`` and momentum for its first ``m0 growth^k`` steps."""
    eta0 = _real("eta0", eta0, positive=True)
    T0, phases = _int("T0", T0), _int("phases", phases)
    m0, growth = _int("m0", m0, minimum=0), _int("growth", growth)
    decay = _real("decay", decay, positive=True)
    if m0 > T0:
        raise ValueError(f"m0 = {m0} exceeds T0 = {T0}")
    ks = range(1, phases + 1)
    return ([eta0 * decay**k for k in ks], [T0 * growth**k for k in ks], [m0 * growth**k for k in ks])


def output_rng(seed: int, block: int) -> np.random.Generator:
    """Generator of the output indices of block ``block``: ``SeedSequence(seed, spawn_key=(block, 1))``,
    independent of the noise (``block_rng``) and mini-batch (``index_rng``) streams."""
    seed, block = _int("seed", seed, minimum=0), _int("block", block, minimum=0)
    return np.random.Generator(np.random.PCG64(np.random.SeedSequence(seed, spawn_key=(block, 1))))


# --------------------------------------------------------------------------- Monte Carlo
@dataclass(frozen=True)
class StepDecayResult:
    """An :class:`~dpverify.sim.MCResult` of the final output's statistic, plus the largest
    distance ``max_dist`` of any iterate of any run from ``track_from`` (``nan`` when not tracked)."""

    mc: MCResult
    max_dist: float = float("nan")
    outputs: np.ndarray | None = field(default=None, repr=False, compare=False)

    @property
    def mean(self):
        return self.mc.mean

    @property
    def var(self):
        return self.mc.var


def _phase_kernel(problems, thetas, etas, lengths, mons, rho, noise_std, batch, output, seed, start, blocks,
                  track, box=False):
    """Evolve the chunk arrays ``thetas[i]`` (in place: on return, the final outputs) under
    ``problems[i]``; every problem sees the same noise, mini-batches and output indices."""
    rows, dim = thetas[0].shape
    slices = block_slices(start, start + rows)
    noise_rngs = [block_rng(seed, b) for b in blocks]
    idx_rngs = [index_rng(seed, b) for b in blocks]
    out_rngs = [output_rng(seed, b) for b in blocks]
    n = problems[0].n_samples if hasattr(problems[0], "n_samples") else None
    full = batch is None or n is None or batch >= n
    noise = np.empty((rows, dim))
    grad = np.empty((rows, dim))
    idx = None if full else np.empty((rows, batch), dtype=np.int64)
    prevs = [np.empty((rows, dim)) for _ in problems]
    outs = [np.empty((rows, dim)) for _ in problems]
    pick = np.empty(rows, dtype=np.int64)
    dist = 0.0
    for eta, T, m in zip(etas, lengths, mons):
        for rng, sl in zip(out_rngs, slices):
            if output == "last":
                pick[sl] = T
            else:
                pick[sl] = rng.integers(0 if output == "before" else 1, T + (0 if output == "before" else 1),
                                        size=sl.stop - sl.start)
        for th, pv, ot in zip(thetas, prevs, outs):
            pv[...] = th
            if output == "before":
                sel = pick == 0
                ot[sel] = th[sel]
        for t in range(1, T + 1):
            r_t = rho if t <= m else 0.0
            for nrng, irng, sl in zip(noise_rngs, idx_rngs, slices):
                if not full:
                    idx[sl] = sample_without_replacement(irng, n, batch, sl.stop - sl.start)
                nrng.standard_normal(out=noise[sl])
            for problem, th, pv, ot in zip(problems, thetas, prevs, outs):
                if getattr(problem, "elementwise", False):
                    grad[...] = problem.grad(th) if full else problem.batch_grad(th, idx)
                else:
                    for sl in slices:
                        grad[sl] = problem.grad(th[sl]) if full else problem.batch_grad(th[sl], idx[sl])
                if noise_std:
                    grad += noise_std * noise
                new_th, new_pv = HeavyBall.step(th, pv, grad, eta, r_t, 0.0)    # the heavy-ball rule's step
                pv[...] = new_pv
                th[...] = new_th
                if output == "before":
                    if t < T:
                        sel = pick == t
                        ot[sel] = th[sel]
                else:
                    sel = pick == t
                    ot[sel] = th[sel]
                if track is not None:   # NaN deviations are skipped, as the fused kernel skips them (fmax;
                    dev = np.abs(th - track)     # .max() made a chunk's NaN hide the chunk's other rows)
                    d = np.fmax.reduce(dev, axis=None) if box else np.fmax.reduce(np.sqrt((dev * dev).sum(axis=1)))
                    dist = max(dist, float(d))   # max(dist, nan) is dist
        for th, ot in zip(thetas, outs):
            th[...] = ot
    return dist


# --------------------------------------------------------------------------- fused path
_SIN_OK: bool | None = None


def _sin_agrees() -> bool:
    """Whether the kernels' ``sin(2 x) / 2`` equals NumPy's on this machine (checked once)."""
    global _SIN_OK
    if _SIN_OK is None:
        x = np.random.default_rng(5).standard_normal(4099) * 8.0
        got = np.empty_like(x)
        _kernels.half_sin2(x, got)
        _SIN_OK = bool(np.array_equal(got, np.sin(2 * x) / 2))
    return _SIN_OK


def _fused_phases(problems, theta0, etas, lengths, mons, rho, noise_std, batch, output, seed, track, box):
    """A task ``(b0, b1, start, stop, outs) -> max distance`` running
    :func:`kernels.step_decay_separable` (the fused form of :func:`_phase_kernel`, bit-identical
    with it), or ``None`` when the kernel does not cover the case (the NumPy path runs)."""
    if not draws.fused_enabled() or not all(type(p) is SeparableLoss for p in problems):
        return None
    n = problems[0].n_samples
    full = batch is None or batch >= n
    if (not full and batch > 48 and batch * batch > n) or (track is not None and not box):
        return None           # random-key sampling and the Euclidean track stay on the NumPy path
    if any(p.phi == "sine" or p.has_b or p.b_mean for p in problems) and not _sin_agrees():
        return None
    if len({p.phi for p in problems}) != 1:
        return None           # one compiled variant per loss shape
    reps = chunk_width(problems[0].dim) // problems[0].dim
    tile = lambda v: f64(np.tile(np.reshape(v, -1), reps))  # noqa: E731 - per-coordinate, to the chunk width
    prob = (f64([p.params[0] for p in problems]), f64([(p.params + (0.0,))[1] for p in problems]),
            f64([tile(p.center) for p in problems]), f64([tile(p.weights) for p in problems]),
            f64([p.a for p in problems]), f64([p.b for p in problems]), f64([tile(p.a_mean) for p in problems]),
            np.array([p.any_a for p in problems]), f64([p.b_mean for p in problems]),
            np.array([p.has_b for p in problems]),
            np.array([p.unit_weights and not np.any(p.center) and not np.any(np.signbit(p.center))  # +0.0: x - 0.0 is x
                      for p in problems]))
    kind = SeparableLoss.PHIS.index(problems[0].phi)
    sched = (f64(etas), np.array(lengths, dtype=np.int64), np.array(mons, dtype=np.int64), float(rho),
             float(noise_std), 0 if full else int(batch), int(n), OUTPUTS.index(output), kind)
    trk = tile(np.zeros(problems[0].dim) if track is None else track)
    th0 = f64(theta0)

    low = 0 if output == "before" else 1
    lows, spans = np.full(len(lengths), low, dtype=np.int64), np.array([T - 1 for T in lengths], dtype=np.int64)
    entropy = draws.seed_entropy(seed)
    in_kernel = output != "last" and int(spans.max()) < 2**32 - 1

    def task(b0, b1, start, stop, outs):
        rows = stop - start
        picks = np.empty((len(lengths), rows), dtype=np.int64)
        if output == "last":
            picks[...] = np.array(lengths, dtype=np.int64)[:, None]
        elif in_kernel and b1 <= 2**32:        # output_rng's draws, computed in one call
            sizes = np.array([min((b + 1) * BLOCK, stop) - b * BLOCK for b in range(b0, b1)], dtype=np.int64)
            draws.pcg64_block_integers(entropy, b0, 1, lows, spans, sizes, picks)
        else:
            for b in range(b0, b1):
                lo, hi = b * BLOCK - start, min((b + 1) * BLOCK, stop) - start
                rng = output_rng(seed, b)
                for k, T in enumerate(lengths):
                    picks[k, lo:hi] = rng.integers(low, T + low, size=hi - lo)
        outs[...] = th0
        dist = np.zeros(b1 - b0)
        istates = np.zeros((b1 - b0, 4), np.uint64) if full else block_states(seed, b0, b1, child=0)  # unused if full
        _kernels.step_decay_separable(block_states(seed, b0, b1), istates, rows,
                                      picks, *sched, *prob, trk, track is not None, outs.reshape(len(problems), -1), dist)
        return float(dist.max())

    task.cost = BLOCK * problems[0].dim * sum(lengths) * len(problems) * (1 if full else batch)
    return task


def _check_common(problem, theta0, etas, lengths, momentum_steps, momentum, noise_std, batch, output):
    dim = problem.dim
    theta0 = np.asarray(theta0, dtype=float).reshape(-1)
    if theta0.size != dim:
        raise ValueError(f"theta0 must have shape ({dim},), got {np.shape(theta0)}")
    etas, lengths, mons = check_schedule(etas, lengths, momentum_steps)
    rho = _momentum(momentum)
    s = _real("noise_std", noise_std, nonnegative=True)
    if batch is not None:
        batch = _int("batch", batch)
        if not (hasattr(problem, "batch_grad") or hasattr(problem, "X")):
            raise ValueError(f"mini-batches need a data problem (batch_grad or a linear model), got {problem!r}")
    return theta0, etas, lengths, mons, rho, s, batch, check_output(output)


def step_decay_sgd(problem, theta0, etas, lengths, momentum_steps, momentum: float, noise_std: float,
                  batch: int | None, runs: int, seed: int, *, output: str = "after", chunk_runs: int = 65536,
                  statistic=None, track_from=None, box: bool = False, return_outputs: bool = False) -> StepDecayResult:
    """Monte Carlo of step-decay SGD with early momentum (module docstring).

    Parameters
    ----------
    problem : a simulator problem (``dim``, ``value``, ``grad``; ``n_samples`` and ``batch_grad`` or a
        linear model for mini-batches)
    theta0 : array_like, shape (D,)
        Start of phase 1.
    etas, lengths, momentum_steps : sequences, one entry per phase (:func:`phase_schedule`)
    momentum : float in [0, 1)
        ``rho`` of the heavy-ball term, on for the first ``momentum_steps[k]`` steps of phase k.
    noise_std : float
        Standard deviation ``s`` of the Gaussian noise added to each coordinate of the gradient.
    batch : int or None
        Mini-batch size (drawn without replacement); ``None`` for the full gradient.
    runs, seed, chunk_runs : as in :func:`~dpverify.sim.pgd` (results do not depend on ``chunk_runs``);
        the NumPy path works in chunks of at most :data:`CHUNK_NUMPY` runs
    output : "after", "before" or "last" (module docstring)
    statistic : callable, optional
        ``statistic(outputs (rows, D)) -> (rows,)``; default ``problem.excess``.
    track_from : array_like, optional
        Record the largest distance of any iterate from this point (``result.max_dist``): Euclidean,
        or the largest coordinate deviation with ``box=True``.
    """
    theta0, etas, lengths, mons, rho, s, batch, output = _check_common(
        problem, theta0, etas, lengths, momentum_steps, momentum, noise_std, batch, output)
    runs, seed = _int("runs", runs), _int("seed", seed, minimum=0)
    _int("chunk_runs", chunk_runs)
    stat = problem.excess if statistic is None else statistic
    track = None if track_from is None else np.asarray(track_from, float).reshape(1, -1)
    fused = _fused_phases([problem], theta0, etas, lengths, mons, rho, s, batch, output, seed, track, box)
    if fused is not None:
        dists = []

        def task(b0, b1, start, stop, theta):
            dists.append(fused(b0, b1, start, stop, theta[None]))
            return None

        res = run_mc(task, problem.dim, runs, chunk_runs, None, seed, sum(lengths), stat, False, "step_decay_sgd",
                      return_outputs, fused.cost)
        dist = max(dists, default=0.0)
        return StepDecayResult(dataclasses.replace(res, thetas=None), dist if track is not None else float("nan"),
                               res.thetas)
    moments, dist = [], 0.0
    keep = np.empty((runs, problem.dim)) if return_outputs else None
    for start, stop, blocks in iter_chunks(runs, min(chunk_runs, CHUNK_NUMPY)):
        th = np.empty((stop - start, problem.dim))
        th[...] = theta0
        dist = max(dist, _phase_kernel([problem], [th], etas, lengths, mons, rho, s, batch, output, seed,
                                       start, blocks, track, box))
        if keep is not None:
            keep[start:stop] = th
        for sl in block_slices(start, stop):
            moments.append(block_moments(stat(th[sl]), sl.stop - sl.start))
    mc = MCResult.from_block_moments(moments, seed=seed, steps=sum(lengths))
    return StepDecayResult(mc, dist if track is not None else float("nan"), keep)


def coupled_step_decay_sgd(problem_a, problem_b, theta0, etas, lengths, momentum_steps, momentum: float,
                          noise_std: float, batch: int | None, runs: int, seed: int, *, output: str = "after",
                          chunk_runs: int = 65536, track_from=None, box: bool = False):
    """Step-decay SGD on two problems (e.g. neighbouring data sets) with the same noise, mini-batch
    indices and output indices, run ``i`` of one coupled with run ``i`` of the other.

    Returns ``(outputs_a, outputs_b, max_dist)``: the final outputs, shape ``(runs, D)`` each
    (``chunk_runs`` as in :func:`step_decay_sgd`).
    """
    theta0, etas, lengths, mons, rho, s, batch, output = _check_common(
        problem_a, theta0, etas, lengths, momentum_steps, momentum, noise_std, batch, output)
    if problem_b.dim != problem_a.dim or getattr(problem_b, "n_samples", None) != getattr(problem_a, "n_samples", None):
        raise ValueError("problem_b must have the dimension and sample count of problem_a")
    runs, seed = _int("runs", runs), _int("seed", seed, minimum=0)
    _int("chunk_runs", chunk_runs)
    track = None if track_from is None else np.asarray(track_from, float).reshape(1, -1)
    out_a, out_b = np.empty((runs, problem_a.dim)), np.empty((runs, problem_a.dim))
    fused = _fused_phases([problem_a, problem_b], theta0, etas, lengths, mons, rho, s, batch, output, seed, track,
                          box)
    if fused is not None:
        workers, tasks, window = task_plan(runs, chunk_runs, None, fused.cost)

        def job(blocks):
            start, stop = blocks[0] * BLOCK, min(blocks[1] * BLOCK, runs)
            outs = np.empty((2, stop - start, problem_a.dim))
            d = fused(blocks[0], blocks[1], start, stop, outs)
            out_a[start:stop], out_b[start:stop] = outs
            return d

        dist = max(ordered_map(job, tasks, workers, window), default=0.0)
        return out_a, out_b, (dist if track is not None else float("nan"))
    dist = 0.0
    for start, stop, blocks in iter_chunks(runs, min(chunk_runs, CHUNK_NUMPY)):
        ta, tb = out_a[start:stop], out_b[start:stop]
        ta[...] = theta0
        tb[...] = theta0
        dist = max(dist, _phase_kernel([problem_a, problem_b], [ta, tb], etas, lengths, mons, rho, s, batch,
                                       output, seed, start, blocks, track, box))
    return out_a, out_b, (dist if track is not None else float("nan"))
