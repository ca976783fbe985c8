"""What every check shares: its configuration, a clock, and a time limit for SymPy."""
from __future__ import annotations

import contextlib
import threading
import time
from dataclasses import dataclass, field, replace
from typing import Any

from ..search import derive_seed


@dataclass(frozen=True)
class Config:
    """Knobs of a verification run. Every random choice derives from ``seed``.

    ``samples``: points drawn by each sampled search; ``runs``: Monte Carlo runs per parameter
    point; ``confidence``: one-sided confidence of Monte Carlo decisions, shared across the
    points of one check by a Bonferroni correction; ``at``: pin every parameter to one point;
    ``symbolic_timeout``: seconds SymPy may spend on one statement (every attempt on the
    registered papers ends, with or without a proof, within 7 s on a quiet machine; a proof not
    found in time is ``inconclusive``, never a verdict, and the limit is far enough from every
    attempt that a loaded machine or a worker thread gives the same evidence).
    """

    seed: int = 0
    samples: int = 150
    runs: int = 20000
    confidence: float = 0.99
    at: dict | None = None
    chunk_runs: int = 65536
    symbolic_timeout: float = 15.0
    dps: int = 50
    extra: dict = field(default_factory=dict)

    def seed_for(self, *names: Any) -> int:
        return derive_seed(self.seed, *names)

    def with_(self, **kw) -> "Config":
        return replace(self, **kw)

    def __post_init__(self):
        if not isinstance(self.seed, int) or self.seed < 0:
            raise ValueError(f"seed must be a non-negative integer, got {self.seed!r}")
        if not isinstance(self.runs, int) or self.runs < 2:
            raise ValueError(f"runs must be an integer >= 2, got {self.runs!r}")
        if not isinstance(self.samples, int) or self.samples < 1:
            raise ValueError(f"samples must be a positive integer, got {self.samples!r}")
        if not (0.5 <= float(self.confidence) < 1):
            raise ValueError(f"confidence must be in [0.5, 1), got {self.confidence!r}")
        if not isinstance(self.chunk_runs, int) or self.chunk_runs < 1:
            raise ValueError(f"chunk_runs must be a positive integer, got {self.chunk_runs!r}")


class Clock:
    def __init__(self):
        self.t0 = time.perf_counter()

    @property
    def seconds(self) -> float:
        return time.perf_counter() - self.t0


class SymbolicTimeout(Exception):
    pass


@contextlib.contextmanager
def time_limit(seconds: float, clock=None):
    """Interrupt SymPy after ``seconds`` of its thread's CPU time (not wall time, so that a verdict
    does not depend on how busy the machine is), in any thread (the main one or a Dask worker's):
    a watcher polls the thread's CPU clock and raises ``SymbolicTimeout`` in it asynchronously
    (SymPy is pure Python, so the exception arrives promptly). ``clock``: a zero-argument function
    read in place of the thread's CPU clock (for tests)."""
    if seconds <= 0:
        yield
        return
    import ctypes

    tid = threading.get_ident()
    cpu = thread_cpu_clock(tid) if clock is None else clock
    limit = cpu() + seconds
    done = threading.Event()
    lock = threading.Lock()

    def watch():
        while not done.wait(0.05):
            if cpu() >= limit:
                with lock:
                    if not done.is_set():
                        ctypes.pythonapi.PyThreadState_SetAsyncExc(ctypes.c_ulong(tid),
                                                                   ctypes.py_object(SymbolicTimeout))
                return

    watcher = threading.Thread(target=watch, daemon=True)
    watcher.start()
    try:
        yield
    finally:
        with lock:
            done.set()
        watcher.join()


def thread_cpu_clock(tid: int):
    """A zero-argument function reading the CPU time of thread ``tid`` (wall time where the platform
    has no per-thread CPU clocks)."""
    try:
        clock = time.pthread_getcpuclockid(tid)
    except (AttributeError, OSError):  # pragma: no cover - no per-thread CPU clocks: wall time
        return time.monotonic
    return lambda: time.clock_gettime(clock)


def confirmed_margin(values, dps: int, tol=None):
    """Decide ``value <= bound`` in mpmath at ``dps`` and at twice the digits.

    ``values(dps) -> (value, bound)`` as mpmath numbers. Returns ``(m, value, bound)`` with the
    relative margin ``m = (bound - value) / scale + tol``: negative only when the failure is found at
    both precisions and the difference ``value - bound`` is stable between them (within 1%); a
    failure that moves with the precision is a rounding artefact and gives ``m = 0``.
    """
    import mpmath

    tol = mpmath.mpf(10) ** -30 if tol is None else tol
    out = []
    for d in (dps, 2 * dps):
        v, b = values(d)
        with mpmath.workdps(2 * dps):
            scale = max(abs(v), abs(b), mpmath.mpf(10) ** -300)
            out.append(((b - v) / scale + tol, v, b))
    (m1, v1, b1), (m2, v2, b2) = out
    if m2 < 0:
        with mpmath.workdps(2 * dps):
            stable = abs((v2 - b2) - (v1 - b1)) <= mpmath.mpf("0.01") * abs(v2 - b2)
        if not (stable and m1 < 0):
            return 0.0, v2, b2
    return m2, v2, b2
