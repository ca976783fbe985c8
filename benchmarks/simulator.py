"""Throughput and memory benchmark of the ``dpverify.sim`` simulator.

Usage::

    python benchmarks/simulator.py [--quick] [--repeats N] [--no-peers] [--page PATH]

Measures, in one run, noisy gradient descent
``theta <- theta - eta (A theta + s z)`` on a diagonal quadratic (``A`` diagonal,
``z ~ N(0, I)``), in coordinate-steps per second (``runs * D * T / wall time``),
at two workloads: ``w1`` (runs = 1e5, D = 100, T = 100) and ``w2`` (runs = 1e6,
D = 2, T = 100).

* **limit**: the fastest float64 normal fill on all cores -- worker threads
  (as many as the simulator uses) each take blocks of 1024 runs, make the block's
  generator and fill a ``(1024, D)`` buffer ``T`` times.  Two fills are timed: NumPy's
  ``Generator.standard_normal(out=buf)`` with the simulator's generator (SFC64, the
  fastest of NumPy's bit generators, see ``rng_fill_*``) and, with numba, dpverify's
  fused fill (the generator code of the kernels, writing every value to the buffer).
  ``limit_w*`` is the faster of the two.
* **dpverify**: ``dpverify.sim.pgd`` with default settings (all cores, fused kernel
  when numba is installed), the default statistic (excess risk).
* **peers**, each given all cores as well as it can use them and computing the same
  statistic: a plain NumPy loop over steps (one thread per core, each over its share
  of the runs, in-place ufuncs, an SFC64 generator per thread); with numba installed,
  a hand-written ``@njit(nogil=True)`` kernel calling ``Generator.standard_normal()``
  of a per-block SFC64 generator, blocks spread over one thread per core; with JAX
  installed, ``jax.lax.scan`` under ``jit`` in float64 (XLA uses the cores itself).

Timing runs in two rounds per workload: the fills and dpverify in alternation
(``repeats`` times, more for short jobs: at least 20 s, at most ``4 * repeats``), then
dpverify and the peers in alternation (``min(repeats, 2)`` times; the peers are the
slow part of the benchmark).  Then
``limit_ratio_w1``/``limit_ratio_w2`` = dpverify / limit from the first round (goal
>= 0.8), ``peer_ratio`` = min over the workloads of dpverify / fastest peer from the
second round (goal >= 1.0) and,
as before, ``throughput_ratio`` = dpverify at w1 / NumPy's one-core fill rate with the
simulator's generator (the larger of a block-sized and a chunk-sized buffer).  Also:
the one-core fill rate of each NumPy bit generator (why SFC64), which simulators have
a fused path, ``moments_points_per_s`` of ``pgd_quadratic_moments``, and the peak
memory (``tracemalloc``; ``ru_maxrss`` growth) of runs = 1e6 and 1e7 (D = 10, T = 10):
flat in runs.

``--new-paths-only`` (:func:`bench_new_paths`): each simulator fused after pgd against the fill
limit at its ``runs, D, T`` and against its NumPy path.  The limit fills ``runs * D * T`` normals,
one per coordinate-step, so ``*_limit_ratio*`` compares the simulator's coordinate-steps with
normals.  A simulator that draws more than one value per coordinate-step also prints
``*_draws_per_step`` (values drawn per run and step) and ``*_limit_ratio_per_draw_cpu`` (the rate of
its draws over the limit's: ``*_limit_ratio_cpu`` times draws per step over ``D``), every draw counted
as a normal.  Gated SGD on one-dimensional least squares draws 3 (the sample index, the step noise,
the test noise, with the test on as in the job; 2 without the test): its per-step ratio cannot pass
about 1/3.  An index costs less than a normal (one 64-bit draw makes two 32-bit indices), so the
per-draw ratio slightly flatters it.  Every figure is one ``key=value`` line.  Timings are best-of-N with the
jobs of a round timed in alternation, so that a transient slow-down of a shared
machine hits them all.  ``--quick`` shrinks every size (figures meaningless).
"""

from __future__ import annotations

import argparse
import math
import os
import resource
import sys
import time
import tracemalloc
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from dpverify import sim  # noqa: E402
from dpverify.sim import BLOCK, Quadratic, block_rng, pgd, pgd_quadratic_moments, uniform  # noqa: E402
from dpverify.sim import draws as generator, parallel  # noqa: E402
from dpverify.sim.fused import block_states  # noqa: E402

CHUNK_RUNS = 65536
ETA, G, N, SEED = 0.5, 1.0, 1000, 7


def _timed(fn) -> float:
    t0 = time.perf_counter()
    fn()
    return time.perf_counter() - t0


def _setup(dim: int, T: int):
    """Problem and constants shared by every implementation."""
    eigs = np.linspace(0.01, 1.0, dim)
    sigmas = uniform(T, 1.0)
    a = 1.0 - ETA * eigs                       # (D,)
    c = ETA * sigmas * G / N                   # (T,)
    return Quadratic(eigs), eigs, sigmas, a, c


# --------------------------------------------------------------------------- #
# limit: normal fills on all cores
# --------------------------------------------------------------------------- #


def _block_tasks(runs: int, dim: int, T: int, workers: int):
    tasks, window, workers = parallel.plan_tasks(-(-runs // BLOCK), workers, CHUNK_RUNS // BLOCK,
                                                 BLOCK * dim * T)
    return tasks, window, workers


def fill_numpy_job(runs: int, dim: int, T: int, workers: int):
    tasks, window, workers = _block_tasks(runs, dim, T, workers)

    def task(bb):
        buf = np.empty((BLOCK, dim))
        for b in range(*bb):
            rng = block_rng(SEED, b)
            view = buf[: min(BLOCK, runs - b * BLOCK)]
            for _ in range(T):
                rng.standard_normal(out=view)

    def run():
        for _ in parallel.ordered_map(task, tasks, workers, window):
            pass

    return run


def fill_fused_job(runs: int, dim: int, T: int, workers: int):
    tasks, window, workers = _block_tasks(runs, dim, T, workers)

    def task(bb):
        buf = np.empty(BLOCK * dim)
        generator.fill_repeat(block_states(SEED, *bb), buf, T)

    def run():
        for _ in parallel.ordered_map(task, tasks, workers, window):
            pass

    return run


# --------------------------------------------------------------------------- #
# dpverify
# --------------------------------------------------------------------------- #


def dpverify_job(runs: int, dim: int, T: int):
    problem, _, sigmas, _, _ = _setup(dim, T)
    theta1 = np.ones(dim)
    noise_stds = sigmas * (G / N)

    def run():
        pgd(problem, theta1, ETA, noise_stds, runs, SEED, chunk_runs=CHUNK_RUNS)

    return run


def new_path_jobs(quick: bool) -> dict:
    """The simulators fused after pgd (random-round SGD, step-decay SGD, adaptive GD with a declared
    rule, gated SGD on least squares in one and three dimensions): ``name -> (job, runs, D, T)``.

    ``job(fused)`` runs the simulator on its fused (``True``) or NumPy (``False``) path; the work
    is ``runs * D * T`` coordinate-steps (every run draws ``D`` normals a step).  An entry may add a
    fifth item, the values each run draws a step when that is not ``D`` (gated SGD: 2 D + 1), and a sixth, the
    samples ``N`` of a linear model whose full gradient each step computes (adaptive GD on logistic
    regression): such a job is bound by its ``N`` exps a step, not by its draws, and is compared with
    its NumPy path only.
    """
    from dpverify.sim import LeastSquares, LogisticRegression
    from dpverify.sim.adaptive import NormRule, adaptive_gd
    from dpverify.sim.gated_sgd import gated_sgd
    from dpverify.sim.problems import CosineSum
    from dpverify.sim.random_round import random_round_probabilities, random_round_sgd
    from dpverify.sim import SeparableLoss, step_decay_sgd

    scale = 20 if quick else 1
    jobs = {}
    runs, D, T = 200_000 // scale, 2, 100
    q = Quadratic(np.linspace(0.1, 1.0, D))
    etas = np.full(T, 0.05)
    probs = random_round_probabilities(etas, 1.0)
    probs = np.r_[np.zeros(T - 1), 1.0] * 0.999 + probs * 0.001   # R = T almost surely: all T steps
    probs /= probs.sum()
    jobs["random_round"] = (lambda: random_round_sgd(q, np.ones(D), etas, probs, 0.5, runs, SEED), runs, D, T)
    rng = np.random.default_rng(0)
    a = rng.standard_normal((100, D))
    for name, phi, batch in (("step_decay_quadratic_full", "quadratic", None), ("step_decay_sine_b4", "sine", 4)):
        sruns = 100_000 // scale
        p = SeparableLoss(phi, (2.0,), np.zeros(D), a - a.mean(axis=0))
        jobs[name] = (lambda p=p, batch=batch, sruns=sruns: step_decay_sgd(
            p, np.ones(D), [0.2, 0.1], [50, 100], [10, 20], 0.5, 0.3, batch, sruns, SEED), sruns, D, 150)
    aruns, aD = 200_000 // scale, 3          # noise proportional to the gradient norm: s_t = ||g_t|| / sqrt(D)
    rule = NormRule(np.full(T, 0.5), np.full(T, 1 / np.sqrt(aD)), proportional=True)
    qa = Quadratic(np.linspace(0.1, 1.0, aD))
    jobs["adaptive_proportional"] = (lambda: adaptive_gd(qa, np.ones(aD), rule, T, aruns, SEED), aruns, aD, T)
    # the same rule on ridge logistic regression, N = 60 samples in D = 3 (a step is a gradient over
    # the data: 60 margins, exps and FMA sums a run; not a fill-bound job)
    lruns, lT, N = 80_000 // scale, 10, 60
    X = rng.standard_normal((N, aD))
    lr = LogisticRegression(X / np.linalg.norm(X, axis=1).max(), np.where(rng.standard_normal(N) >= 0, 1.0, -1.0),
                            0.02)
    lrule = NormRule(np.full(lT, 0.5), np.full(lT, 1 / np.sqrt(aD)), proportional=True)
    jobs["adaptive_logistic"] = (lambda: adaptive_gd(lr, np.zeros(aD), lrule, lT, lruns, SEED), lruns, aD, lT,
                                 None, N)
    # the same rule on a separable cosine sum (D libm sines a step: compared with its NumPy path only;
    # its "samples" are 1, so the CPU figures are per run and step)
    cs = CosineSum(np.linspace(0.5, 2.0, aD))
    cruns, cT = 20_000 // scale, 25
    crule = NormRule(np.full(cT, 0.3), np.full(cT, 1 / np.sqrt(aD)), proportional=True)
    jobs["adaptive_cosine"] = (lambda: adaptive_gd(cs, np.full(aD, 2.5), crule, cT, cruns, SEED), cruns, aD, cT,
                               None, 1)
    # gated SGD on one-dimensional least squares (three draws a step: index, noise, test noise; the
    # rounds' Hessians and inverses by NumPy on both paths)
    gruns, n, threshold = 100_000 // scale, 100, 0.02
    ls = LeastSquares(np.ones((n, 1)), np.linspace(-1.0, 1.0, n), 0.0)
    jobs["gated_sgd_ls1"] = (lambda: gated_sgd(ls, [0.3], 0.5, 0.4, rounds=2, local_steps=50, runs=gruns, seed=SEED,
                                               test_std=0.05, threshold=threshold, offset=0.001, scale=2.0,
                                               watch=([1.0], 0.5)), gruns, 1, 100, 2 + (threshold >= 0))
    # the same in D = 3 (kernels.gated_ls: 2 D + 1 = 7 draws a step, D x D influence products a test)
    gD = 3
    Xg = rng.uniform(-1.0, 1.0, (n, gD)) / np.sqrt(gD)
    ls3 = LeastSquares(Xg, np.linspace(-1.0, 1.0, n), 0.0)
    jobs["gated_sgd_ls3"] = (lambda: gated_sgd(ls3, np.full(gD, 0.3), 0.5, 0.4, rounds=2, local_steps=50, runs=gruns,
                                               seed=SEED, test_std=0.05, threshold=threshold, offset=0.001, scale=2.0,
                                               watch=(Xg[0], 0.5)), gruns, gD, 100, 2 * gD + 1)
    return jobs


def bench_new_paths(quick: bool, repeats: int, workers: int) -> list[tuple[str, object]]:
    """Each newly fused simulator's rate as a fraction of the fill limit, and fused / NumPy speedup.

    The limit is the faster of the two fills of ``fill_*_job`` at the simulator's ``runs, D, T``.
    ``*_limit_ratio`` compares best wall times; ``*_limit_ratio_cpu`` best process CPU times (the
    CPU the job's threads used: on a machine shared with other jobs, the steadier of the two).  For a
    job drawing ``draws`` values a run and step (other than ``D``): ``*_draws_per_step`` and
    ``*_limit_ratio_per_draw_cpu`` = ``*_limit_ratio_cpu * draws / D`` (module docstring).
    """
    lines = []
    for name, (job, runs, D, T, *more) in new_path_jobs(quick).items():
        def on(job=job):
            sim.set_fused(None)
            job()

        def off(job=job):
            sim.set_fused(False)
            try:
                job()
            finally:
                sim.set_fused(None)

        on()   # compile
        samples = more[1] if len(more) > 1 else None
        jobs = {"fused": on, "numpy": off}
        if samples is None:                # a job bound by its draws: against the fill limit too
            jobs["fill_numpy"] = fill_numpy_job(runs, D, T, workers)
            if generator.numba_available():
                jobs["fill_fused"] = fill_fused_job(runs, D, T, workers)
        cpu: dict[str, float] = {}
        best = _best_of(jobs, repeats, cpu=cpu)
        if samples is not None:
            work = runs * T * samples
            lines += [(f"{name}_runs", runs), (f"{name}_dim", D), (f"{name}_steps", T), (f"{name}_samples", samples),
                      (f"{name}_fused_ns_per_sample_step_cpu", f"{cpu['fused'] / work * 1e9:.3g}"),
                      (f"{name}_numpy_ns_per_sample_step_cpu", f"{cpu['numpy'] / work * 1e9:.3g}"),
                      (f"{name}_speedup_vs_numpy", f"{best['numpy'] / best['fused']:.2f}"),
                      (f"{name}_speedup_vs_numpy_cpu", f"{cpu['numpy'] / cpu['fused']:.2f}")]
            continue
        limit = min(v for k, v in best.items() if k.startswith("fill_"))
        limit_cpu = min(v for k, v in cpu.items() if k.startswith("fill_"))
        rate = runs * D * T / best["fused"]
        lines += [(f"{name}_runs", runs), (f"{name}_dim", D), (f"{name}_steps", T),
                  (f"{name}_fused_per_s", f"{rate:.4g}"),
                  (f"{name}_limit_ratio", f"{limit / best['fused']:.3f}"),
                  (f"{name}_limit_ratio_cpu", f"{limit_cpu / cpu['fused']:.3f}"),
                  (f"{name}_speedup_vs_numpy", f"{best['numpy'] / best['fused']:.2f}"),
                  (f"{name}_speedup_vs_numpy_cpu", f"{cpu['numpy'] / cpu['fused']:.2f}")]
        if more and more[0] is not None:
            draws = more[0]
            lines += [(f"{name}_draws_per_step", draws),
                      (f"{name}_limit_ratio_per_draw_cpu", f"{limit_cpu * draws / (D * cpu['fused']):.3f}")]
    return lines


# --------------------------------------------------------------------------- #
# peers
# --------------------------------------------------------------------------- #


def numpy_loop_job(runs: int, dim: int, T: int, workers: int):
    """Plain NumPy loop over steps; one thread per core over its share of the runs."""
    _, eigs, _, a, c = _setup(dim, T)
    bounds = np.linspace(0, runs, workers + 1).astype(int)
    children = np.random.SeedSequence(SEED).spawn(workers)

    def part(i: int) -> float:
        rng = np.random.Generator(np.random.SFC64(children[i]))
        m = bounds[i + 1] - bounds[i]
        theta = np.ones((m, dim))
        z = np.empty((m, dim))
        for t in range(T):
            rng.standard_normal(out=z)
            z *= c[t]
            theta *= a
            theta -= z
        return float((0.5 * (theta * theta) @ eigs).sum())

    def run():
        with ThreadPoolExecutor(workers) as pool:
            total = sum(pool.map(part, range(workers)))
        return total / runs

    return run


def numba_peer_job(runs: int, dim: int, T: int, workers: int):
    """A hand-written numba kernel: per-block SFC64 Generator, blocks over one thread per core."""
    import numba

    @numba.njit(nogil=True)
    def block_kernel(rng, rows, a, c, eigs):
        dim = a.shape[0]
        theta = np.ones((rows, dim))
        for t in range(c.shape[0]):
            ct = c[t]
            for r in range(rows):
                for d in range(dim):
                    theta[r, d] = a[d] * theta[r, d] - ct * rng.standard_normal()
        total = 0.0
        for r in range(rows):
            for d in range(dim):
                total += 0.5 * eigs[d] * theta[r, d] * theta[r, d]
        return total

    _, eigs, _, a, c = _setup(dim, T)
    nblocks = -(-runs // BLOCK)
    seqs = np.random.SeedSequence(SEED)
    per_task = max(1, min(64, nblocks // (4 * workers)))
    tasks = [(b, min(b + per_task, nblocks)) for b in range(0, nblocks, per_task)]

    def task(bb):
        total = 0.0
        for b in range(*bb):
            rng = np.random.Generator(np.random.SFC64(np.random.SeedSequence(
                seqs.entropy, spawn_key=(b,))))
            total += block_kernel(rng, min(BLOCK, runs - b * BLOCK), a, c, eigs)
        return total

    task((0, 1))  # compile

    def run():
        with ThreadPoolExecutor(workers) as pool:
            return sum(pool.map(task, tasks)) / runs

    return run


def jax_job(runs: int, dim: int, T: int):
    """``jax.lax.scan`` over steps under ``jit``, float64 (XLA spreads work over the cores)."""
    import jax
    import jax.numpy as jnp

    jax.config.update("jax_enable_x64", True)
    _, eigs, _, a, c = _setup(dim, T)
    a_j, c_j, eigs_j = jnp.asarray(a), jnp.asarray(c), jnp.asarray(eigs)

    @jax.jit
    def simulate(key):
        def step(theta, xs):
            ct, k = xs
            z = jax.random.normal(k, theta.shape, dtype=jnp.float64)
            return a_j * theta - ct * z, None

        keys = jax.random.split(key, T)
        theta, _ = jax.lax.scan(step, jnp.ones((runs, dim), dtype=jnp.float64), (c_j, keys))
        return jnp.mean(0.5 * (theta * theta) @ eigs_j)

    key = jax.random.PRNGKey(SEED)
    simulate(key).block_until_ready()  # compile

    def run():
        return float(simulate(key).block_until_ready())

    return run


# --------------------------------------------------------------------------- #
# the rest: generator choice, today's one-core figures, moments, memory
# --------------------------------------------------------------------------- #


def rng_fill_rates(dim: int, values: int, repeats: int) -> dict[str, float]:
    """One-core ``standard_normal(out=(BLOCK, dim))`` rate of each NumPy bit generator."""
    kinds = ["SFC64", "PCG64", "PCG64DXSM", "Philox", "MT19937"]
    gens = {k: np.random.Generator(getattr(np.random, k)(np.random.SeedSequence(1)))
            for k in kinds}
    buf = np.empty((BLOCK, dim))
    calls = max(1, values // buf.size)
    best = {k: math.inf for k in kinds}
    for _ in range(repeats):
        for k, g in gens.items():
            def run(g=g):
                for _ in range(calls):
                    g.standard_normal(out=buf)
            best[k] = min(best[k], _timed(run))
    return {k: calls * buf.size / v for k, v in best.items()}


def one_core_fill(rows: int, dim: int, values: int):
    rng = block_rng(SEED, 0)
    buf = np.empty((rows, dim))
    calls = max(1, values // buf.size)

    def run():
        for _ in range(calls):
            rng.standard_normal(out=buf)

    return run, calls * buf.size


def bench_moments(P: int, dim: int, T: int, repeats: int) -> float:
    rng = np.random.default_rng(0)
    eigs = rng.uniform(0.01, 1.0, size=(P, dim))
    theta1 = rng.normal(size=(P, dim))
    etas = np.full((P, T), 0.5)
    noise_stds = np.broadcast_to(uniform(T, 1.0) * (1.0 / 1000), (P, T))   # sigma_t G / N, G = 1, N = 1000
    best = min(_timed(lambda: pgd_quadratic_moments(eigs, theta1, etas, noise_stds))
               for _ in range(repeats))
    return P / best


def bench_memory(runs: int, dim: int = 10, T: int = 10) -> tuple[float, float]:
    """``tracemalloc`` peak (MiB) and ``ru_maxrss`` growth (MiB) of one Monte Carlo run."""
    problem = Quadratic(np.linspace(0.01, 1.0, dim))
    rss0 = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    tracemalloc.start()
    pgd(problem, np.ones(dim), 0.5, uniform(T, 1.0) * (1.0 / 1000), runs, 11, chunk_runs=CHUNK_RUNS)
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    rss1 = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    return peak / 2**20, (rss1 - rss0) / 1024  # ru_maxrss is KiB on Linux


def _best_of(jobs: dict, repeats: int, min_seconds: float = 0.0, cpu: dict | None = None) -> dict[str, float]:
    """Best wall time of each job, the jobs timed in alternation.

    At least *repeats* rounds, and more (up to ``4 * repeats``) until the rounds
    took *min_seconds*: short jobs get more chances to meet a quiet machine.
    With *cpu* (a dict), it also gets each job's best process CPU time.
    """
    for fn in jobs.values():   # warm-up: JIT, page faults, thread start-up
        fn()
    best = {name: math.inf for name in jobs}
    start, rounds = time.perf_counter(), 0
    while rounds < repeats or (time.perf_counter() - start < min_seconds
                               and rounds < 4 * repeats):
        for name, fn in jobs.items():
            c0 = time.process_time()
            best[name] = min(best[name], _timed(fn))
            if cpu is not None:
                cpu[name] = min(cpu.get(name, math.inf), time.process_time() - c0)
        rounds += 1
    return best


def _have(module: str) -> bool:
    try:
        __import__(module)
        return True
    except Exception:  # noqa: BLE001
        return False


# the page --page writes (benchmarks/mdpage.py)
PAGE = dict(
    title="The simulator's speed and memory",
    about=(
        'Noisy gradient descent on a diagonal quadratic in coordinate-steps per second, against the '
        'fastest float64 normal fill on all cores (the limit: a simulator that draws its noise '
        'cannot beat it) and against peer implementations; the fused paths of the other simulators '
        'against the limit and their NumPy paths; peak memory. The ratios are what compare across '
        'machines.'
    ),
    goals=[
    ('limit_ratio_w1', '>=', 0.8, 'pgd at 0.8 of the fill limit or more (w1)'),
    ('limit_ratio_w2', '>=', 0.8, 'pgd at 0.8 of the fill limit or more (w2)'),
    ],
)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="tiny sizes for a smoke test")
    parser.add_argument("--repeats", type=int, default=None, help="timing repetitions")
    parser.add_argument("--no-peers", action="store_true", help="skip the peer implementations")
    parser.add_argument("--new-paths-only", action="store_true",
                        help="only the fused random-round, step-decay, adaptive and gated paths against the limit and NumPy")
    parser.add_argument("--page", metavar="PATH", help="also write the result as a Markdown page (docs/measurements/simulator.md)")
    args = parser.parse_args(argv)
    from mdpage import recording          # benchmarks/ is the script's folder
    with recording(args.page, **PAGE):
        if args.quick:
            workloads = {"w1": (4096, 100, 10), "w2": (20_000, 2, 10)}
            P, mem_runs, repeats = 500, (100_000, 200_000), 1
        else:
            workloads = {"w1": (100_000, 100, 100), "w2": (1_000_000, 2, 100)}
            P, mem_runs, repeats = 10_000, (1_000_000, 10_000_000), 5
        repeats = args.repeats or repeats
        peer_repeats = max(1, min(repeats, 2))
        workers = sim.get_workers()
        fused = sim.fused_enabled()
        have_numba, have_jax = generator.numba_available(), _have("jax")
        if args.new_paths_only:
            for k, v in [("cpus", os.cpu_count()), ("workers", workers), ("fused_enabled", fused),
                         *bench_new_paths(args.quick, repeats, workers)]:
                print(f"{k}={v}")
            return

        # warm-up (JIT compilation) before the memory figures
        dpverify_job(2 * BLOCK, 10, 10)()
        mem = {r: bench_memory(r) for r in mem_runs}

        lines: list[tuple[str, object]] = [
            ("cpus", os.cpu_count()), ("workers", workers), ("numba", have_numba),
            ("jax", have_jax), ("fused_enabled", fused),
        ]
        rates: dict[str, dict[str, float]] = {}
        for w, (runs, dim, T) in workloads.items():
            work = runs * dim * T
            dpv = dpverify_job(runs, dim, T)
            # (1) the limit and dpverify, in alternation
            jobs = {"fill_numpy": fill_numpy_job(runs, dim, T, workers)}
            if have_numba:
                jobs["fill_fused"] = fill_fused_job(runs, dim, T, workers)
            jobs["dpverify"] = dpv
            best = _best_of(jobs, repeats, min_seconds=0.0 if args.quick else 20.0)
            # (2) the peers and dpverify, in alternation (each peer warmed up/compiled first)
            peers = {}
            if not args.no_peers:
                peers["numpy_loop"] = numpy_loop_job(runs, dim, T, workers)
                if have_numba:
                    peers["numba_kernel"] = numba_peer_job(runs, dim, T, workers)
                if have_jax:
                    peers["jax_scan"] = jax_job(runs, dim, T)
                best_p = _best_of({"dpverify": dpv, **peers}, peer_repeats)
                best.update({k: v for k, v in best_p.items() if k != "dpverify"})
                best["dpverify_with_peers"] = best_p["dpverify"]
            r = {name: work / t for name, t in best.items()}
            rates[w] = r
            limit_name = max((k for k in r if k.startswith("fill_")), key=r.get)
            lines += [(f"{w}_runs", runs), (f"{w}_dim", dim), (f"{w}_steps", T)]
            lines += [(f"{w}_{name}_per_s", f"{v:.4g}") for name, v in r.items()]
            lines += [(f"limit_{w}_per_s", f"{r[limit_name]:.4g}"), (f"limit_{w}_source", limit_name)]
            if peers:
                fastest = max(peers, key=r.get)
                lines += [(f"fastest_peer_{w}", fastest),
                          (f"peer_ratio_{w}", f"{r['dpverify_with_peers'] / r[fastest]:.3f}")]

        # today's one-core figures and the generator choice
        runs1, dim1, T1 = workloads["w1"]
        fill_values = runs1 * dim1 * T1 // 4
        fills = {}
        for name, (rows, dim) in {"block": (BLOCK, dim1), "chunk": (min(CHUNK_RUNS, runs1), dim1)}.items():
            fn, values = one_core_fill(rows, dim, fill_values)
            fills[name] = values / min(_timed(fn) for _ in range(repeats))
        fill = max(fills.values())
        gen = rng_fill_rates(dim1, fill_values, repeats)
        moments = bench_moments(P, 100, 100, repeats)

        lines += [(f"rng_fill_{k.lower()}_per_s", f"{v:.4g}") for k, v in gen.items()]
        lines += [("rng_fastest", max(gen, key=gen.get)), ("rng_used", "SFC64")]
        lines += [("mc_coord_steps_per_s", f"{rates['w1']['dpverify']:.4g}"),
                  ("normal_fill_block_per_s", f"{fills['block']:.4g}"),
                  ("normal_fill_chunk_per_s", f"{fills['chunk']:.4g}"),
                  ("normal_fill_per_s", f"{fill:.4g}"),
                  ("moments_points_per_s", f"{moments:.4g}")]
        for runs, (peak, rss) in mem.items():
            lines += [(f"peak_memory_mib_runs_{runs:.0e}".replace("+0", ""), f"{peak:.1f}"),
                      (f"maxrss_delta_mib_runs_{runs:.0e}".replace("+0", ""), f"{rss:.1f}")]
        lines += bench_new_paths(args.quick, repeats, workers)
        lines += [("fused_paths", ",".join(sim.FUSED_PATHS) if fused else "none")]
        lines += [(f"fused_path_{k}", v) for k, v in sim.FUSED_PATHS.items()] if fused else []
        for w in workloads:
            r = rates[w]
            limit = max(v for k, v in r.items() if k.startswith("fill_"))
            lines.append((f"limit_ratio_{w}", f"{r['dpverify'] / limit:.3f}"))
        peer_ratios = [float(v) for k, v in lines if k.startswith("peer_ratio_")]
        if peer_ratios:
            lines.append(("peer_ratio", f"{min(peer_ratios):.3f}"))
        lines.append(("throughput_ratio", f"{rates['w1']['dpverify'] / fill:.3f}"))
        for k, v in lines:
            print(f"{k}={v}")


if __name__ == "__main__":
    main()
