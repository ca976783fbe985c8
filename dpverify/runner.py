"""Running the checks of a command: the cache first, then every other claim in worker processes.

A claim's check runs in a forked worker process even with one job (``--jobs 1``), never in the process
that holds the run's results: whatever one claim's arithmetic does -- a C library aborting the process
(GMP's "overflow in mpz type" under mpmath), a segmentation fault, the out-of-memory killer -- costs that
claim only. Its verdict is ``error`` naming the cause ("worker died: signal 6 (SIGABRT)"); the other
claims are checked and reported (:func:`dpverify.distributed.process_map` replaces a dead worker and reruns
its unfinished tasks). With several jobs the workers use one simulator thread each; a single worker
keeps the simulators' threads.
"""
from __future__ import annotations

import sys


def check_one(args):
    """One claim's verdict; anything that goes wrong becomes the verdict ``error`` naming the cause."""
    claim_id, cfg_kw, modules = args
    from . import registry
    from .checks import Config, run
    from .verdict import Verdict

    try:
        return run(registry.get(claim_id, modules), Config(**cfg_kw))
    except Exception as exc:  # noqa: BLE001 - a claim that cannot be checked is reported, never a crash
        return Verdict.errored(claim_id, exc, seed=cfg_kw.get("seed", 0), at=cfg_kw.get("at"))


def one_thread_per_process() -> None:
    """In each of several check processes the simulators use one worker thread (the processes
    already fill the cores; threads on top would only compete)."""
    from .sim import set_workers

    set_workers(1)


def lost_verdict(claims, cfg_kw):
    """``on_lost`` of the pools: a claim whose worker died every time gets the verdict ``error``."""
    from .verdict import Verdict

    def lost(i, exc):
        c = claims[i]
        return Verdict.errored(c.id, exc, label=c.label, expected=c.expected, seed=cfg_kw["seed"], at=cfg_kw["at"])
    return lost


def cached_verdicts(claims, cfg_kw, use_cache: bool, done: dict):
    """Fill ``done`` with the verdicts the cache holds for ``claims`` under ``cfg_kw``; return the
    cache (None when not used) and each claim's key (None for a claim that cannot be fingerprinted:
    it is always checked)."""
    from .cache import VerdictCache, verdict_key

    if not use_cache:
        return None, {}
    cache, keys = VerdictCache(), {}
    if not cache.usable():
        return None, {}
    for i, c in enumerate(claims):
        try:
            keys[i] = verdict_key(c, cfg_kw)
        except (TypeError, ValueError, RecursionError) as exc:
            print(f"dpverify: note: {c.id} is not cached (cannot fingerprint it: {exc})", file=sys.stderr)
            keys[i] = None
            continue
        v = cache.get(keys[i], c)
        if v is not None:
            done[i] = v
    return cache, keys


class SchedulerFailed(Exception):
    """The Dask scheduler could not be used (the message says why)."""


class Progress:
    """A run's progress on standard error: a bar where standard error is a terminal, otherwise one line per
    finished claim (``[done/total] id: verdict (seconds s); about N left``), so that a run piped to a file,
    or watched through ``tail -f``, shows work, not silence. ``enabled=False`` prints nothing (``--no-progress``)."""

    def __init__(self, total: int, *, enabled: bool = True, stream=None, tty: bool | None = None):
        import time

        self.total, self.enabled, self.count, self.computed = total, enabled, 0, 0
        self.stream = sys.stderr if stream is None else stream
        if tty is None:
            isatty = getattr(self.stream, "isatty", None)
            tty = bool(isatty and isatty())
        self.tty = tty
        self.start = time.monotonic()
        self.bar = None
        if enabled and tty:
            from tqdm import tqdm

            import shutil

            # the size given: on a pseudo-terminal of size 0x0 (``script``, CI runners, docker without -t's
            # size) tqdm took 0 rows and drew nothing
            cols, rows = shutil.get_terminal_size((100, 24))
            self.bar = tqdm(total=total, desc="checking", unit="claim", file=self.stream, ncols=max(cols, 40),
                            nrows=max(rows, 2))

    def note(self, text: str) -> None:
        """One line for the reader (the run's summary first), above the bar if there is one."""
        if not self.enabled:
            return
        if self.bar is not None:
            self.bar.write(text, file=self.stream)
        else:
            print(text, file=self.stream, flush=True)

    def cached(self, n: int) -> None:
        """``n`` verdicts replayed from the verdict cache (counted, never in the time estimate)."""
        self.count += n
        if self.bar is not None:
            self.bar.update(n)

    def left(self) -> str:
        """The time left, from the claims computed so far (the cached ones cost nothing)."""
        import time

        remaining = self.total - self.count
        if not remaining:
            return "done"
        if not self.computed:
            return "time left unknown"
        secs = (time.monotonic() - self.start) / self.computed * remaining
        return f"about {_duration(secs)} left"

    def finished(self, v) -> None:
        self.count += 1
        self.computed += 1
        if self.bar is not None:
            self.bar.set_postfix_str(f"{v.id}: {v.verdict}")
            self.bar.update()
        elif self.enabled:
            print(f"dpverify: [{self.count}/{self.total}] {v.id}: {v.verdict} ({v.seconds:.1f} s); {self.left()}",
                  file=self.stream, flush=True)

    def close(self) -> None:
        if self.bar is not None:
            self.bar.close()


def _duration(secs: float) -> str:
    """``42 s``, ``3 min``, ``1 h 05 min``: a time left, as rounded as an estimate is."""
    if secs < 90:
        return f"{secs:.0f} s"
    if secs < 3600:
        return f"{secs / 60:.0f} min"
    return f"{int(secs // 3600)} h {int(secs % 3600 // 60):02d} min"


def plural(n: int, word: str) -> str:
    """``1 claim``, ``2 claims``."""
    return f"{n} {word}" if n == 1 else f"{n} {word}s"


def run_checks(claims, cfg_kw: dict, *, jobs: int, modules=(), use_cache: bool = True, scheduler=None,
               progress: bool = True, done: dict | None = None, headline: str = "") -> list:
    """The verdicts of ``claims`` in their order. ``done`` (index -> verdict) is filled as verdicts
    arrive, so that an interrupted run can still write those finished. With ``progress``, standard error
    shows the run (:class:`Progress`): first ``headline`` and what will run, then each finished claim."""
    done = {} if done is None else done
    bar = Progress(len(claims), enabled=progress)
    cache, keys = cached_verdicts(claims, cfg_kw, use_cache, done)
    bar.cached(len(done))
    todo = [i for i in range(len(claims)) if i not in done]
    tasks = [(claims[i].id, cfg_kw, tuple(modules)) for i in todo]
    workers = min(jobs, len(tasks)) if tasks else 0
    bar.note(f"dpverify: checking {plural(len(claims), 'claim')}{headline}: {len(done)} from the verdict cache, "
             f"{len(tasks)} to run on {plural(workers, 'worker')}")

    def arrived(j, v):
        i = todo[j]
        done[i] = v
        if cache is not None and keys.get(i) is not None:
            cache.put(keys[i], v)
        bar.finished(v)

    try:
        pending = [claims[i] for i in todo]
        if tasks and scheduler is not None:
            from .distributed import SchedulerError, dask_map

            try:
                dask_map(check_one, tasks, scheduler=scheduler, workers=jobs, desc="checking", progress=False,
                         initializer=one_thread_per_process, on_result=arrived, on_lost=lost_verdict(pending, cfg_kw))
            except SchedulerError as exc:
                raise SchedulerFailed(str(exc)) from None
        elif tasks:     # in forked workers, even one: a claim that crashes its process costs only itself
            from .distributed import process_map

            process_map(check_one, tasks, workers=workers, initializer=one_thread_per_process if workers > 1 else None,
                        on_result=arrived, on_lost=lost_verdict(pending, cfg_kw))
        return [done[i] for i in range(len(claims))]
    finally:
        bar.close()


__all__ = ["Progress", "SchedulerFailed", "plural", "cached_verdicts", "check_one", "lost_verdict", "one_thread_per_process", "run_checks"]
