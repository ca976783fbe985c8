"""The symbolic time limit (dpverify.checks.base.time_limit) counts a clock, not the wall: tested with
a clock the test advances itself, so nothing here depends on how busy the machine is."""
import threading
import time

import pytest

from dpverify.checks.base import SymbolicTimeout, thread_cpu_clock, time_limit


class Counter:
    """A clock that advances only when the body says it computed."""

    def __init__(self):
        self.now = 0.0
        self.reads = 0

    def __call__(self):
        self.reads += 1
        return self.now


def _compute(clock, out, steps=10**7):
    try:
        with time_limit(5.0, clock=clock):
            for _ in range(steps):
                clock.now += 1e-3          # one "millisecond of CPU" per step
        out["r"] = "finished"
    except SymbolicTimeout:
        out["r"] = clock.now


def _wait(clock, out):
    """No computing: the clock stands still while the watcher polls it many times."""
    try:
        with time_limit(5.0, clock=clock):
            done = threading.Event()
            for _ in range(2000):
                if clock.reads >= 5:
                    break
                done.wait(0.01)
        out["r"] = "finished" if clock.reads >= 5 else "watcher never polled"
    except SymbolicTimeout:
        out["r"] = "interrupted"


@pytest.mark.parametrize("where", ["main", "worker"])
def test_computing_past_the_limit_is_interrupted(where):
    out, clock = {}, Counter()
    if where == "main":
        _compute(clock, out)
    else:
        th = threading.Thread(target=_compute, args=(clock, out))
        th.start()
        th.join()
    assert isinstance(out["r"], float) and out["r"] >= 5.0


@pytest.mark.parametrize("where", ["main", "worker"])
def test_waiting_is_not_computing(where):
    out, clock = {}, Counter()
    if where == "main":
        _wait(clock, out)
    else:
        th = threading.Thread(target=_wait, args=(clock, out))
        th.start()
        th.join()
    assert out["r"] == "finished"


def test_the_default_clock_is_the_threads_own(monkeypatch):
    """thread_cpu_clock(tid) reads the CPU clock of thread tid: read in a worker thread, it reads the
    worker's clock, not the main thread's or the process's (clock ids compared; no time is measured)."""
    if not hasattr(time, "pthread_getcpuclockid"):
        pytest.skip("no per-thread CPU clocks on this platform")
    monkeypatch.setattr(time, "clock_gettime", lambda clock_id: clock_id)   # a read returns the clock it read
    seen = {}

    def worker():
        tid = threading.get_ident()
        seen["read"], seen["own"] = thread_cpu_clock(tid)(), time.pthread_getcpuclockid(tid)

    th = threading.Thread(target=worker)
    th.start()
    th.join()
    main = time.pthread_getcpuclockid(threading.get_ident())
    assert seen["read"] == seen["own"]
    assert seen["read"] not in (main, time.CLOCK_PROCESS_CPUTIME_ID)
    assert thread_cpu_clock(threading.get_ident())() == main


def _swallow_once(clock, out):
    """The body swallows the first interruption (as a broad ``except Exception`` in a library, or a
    garbage-collector callback, would) and computes on: the limit must still end it."""
    try:
        with time_limit(5.0, clock=clock):
            try:
                for _ in range(10**7):
                    clock.now += 1e-3
            except SymbolicTimeout:
                out["swallowed"] = clock.now
            for _ in range(10**7):
                clock.now += 1e-3
        out["r"] = "finished"
    except SymbolicTimeout:
        out["r"] = clock.now


def test_an_interruption_swallowed_once_is_raised_again():
    out, clock = {}, Counter()
    _swallow_once(clock, out)
    assert out["swallowed"] >= 5.0
    assert isinstance(out["r"], float), out["r"]          # "finished" means the limit was lost


def test_a_dropped_interruption_prints_no_traceback(monkeypatch):
    """Where Python cannot raise an exception (a weakref callback during collection) it calls
    sys.unraisablehook, which prints "Exception ignored" and a traceback; for the time limit's own
    exception that is noise on a user's terminal. Any other exception still reaches the hook."""
    import sys
    import types

    seen = []
    monkeypatch.setattr(sys, "unraisablehook", lambda u: seen.append(type(u.exc_value).__name__))
    with time_limit(5.0, clock=Counter()):
        for exc in (SymbolicTimeout(), ValueError("other")):
            sys.unraisablehook(types.SimpleNamespace(exc_type=type(exc), exc_value=exc, exc_traceback=None,
                                                     err_msg="Exception ignored in", object=None))
    assert seen == ["ValueError"]


class _Inner(Exception):
    pass


def test_limits_nested_in_an_expired_one_never_hang():
    """An outer limit past its time is raised again and again while the body enters inner limits (SymPy's
    ``except Exception`` swallowing it, as in the rate proofs' nested limits). A watcher started per limit
    could receive the outer interruption itself (a new thread has its starter's ident until it runs) and die
    unstarted, leaving the body waiting for it for ever; a limit's exception between taking and releasing a
    Python-level lock left the lock held. The body runs 3 s here (thousands of inner limits, ~60 outer
    interruptions) and must end."""
    out = {}

    def body():
        calls = iter(range(10**9))
        t0 = time.monotonic()
        try:
            with time_limit(1.0, clock=lambda: 0.0 if next(calls) == 0 else 100.0):
                while True:   # an interruption outside the inner try (in the loop's test) starts the loop again
                    try:
                        while time.monotonic() - t0 < 3.0:
                            try:
                                with time_limit(5.0, clock=lambda: 0.0, raises=_Inner):
                                    out["inner"] = out.get("inner", 0) + 1
                            except SymbolicTimeout:
                                out["caught"] = out.get("caught", 0) + 1
                        break
                    except SymbolicTimeout:
                        continue
        except SymbolicTimeout:
            pass
        out["done"] = True

    th = threading.Thread(target=body, daemon=True)
    th.start()
    th.join(60)
    assert not th.is_alive() and out.get("done"), out
    assert out.get("inner", 0) > 1000 and out.get("caught", 0) >= 1, out


def test_a_forked_child_starts_with_no_limit_and_can_set_its_own():
    """fork() inside a limit (the runner forks its workers): the child has no watcher and must not inherit a
    held lock; its own limits work."""
    import os

    if not hasattr(os, "fork"):
        pytest.skip("no fork on this platform")
    r, w = os.pipe()
    with time_limit(100.0, clock=Counter()):
        pid = os.fork()
        if pid == 0:   # pragma: no cover - the child
            out, clock = {}, Counter()
            _compute(clock, out)
            os.write(w, b"ok" if isinstance(out["r"], float) and out["r"] >= 5.0 else b"no")
            os._exit(0)
    os.close(w)
    got = os.read(r, 2)
    os.waitpid(pid, 0)
    assert got == b"ok"


def test_no_limit_outlives_its_block_when_interruptions_land_while_entering_or_leaving(monkeypatch):
    """A referee's stress (amplified: the watcher polls every 0.5 ms, threads switch every 10 us, every limit
    is past after its first read): an interruption landing between entering and the block's ``try`` or inside
    the leaving loop left an entry behind, raised in the thread every poll for ever after. Now a block's entry
    goes with its frame: once every block has ended, the thread computes for 1 s without an interruption."""
    import sys

    from dpverify.checks import base

    monkeypatch.setattr(base, "POLL", 0.0005)
    old = sys.getswitchinterval()
    sys.setswitchinterval(1e-5)
    out = {}

    def body():
        tid, end, n = threading.get_ident(), time.monotonic() + 3.0, 0
        while time.monotonic() < end:
            try:
                n += 1
                calls = iter(range(10**9))
                with time_limit(1.0, clock=lambda: 0.0 if next(calls) == 0 else 100.0):
                    for i in range(20):
                        try:
                            i * i
                        except SymbolicTimeout:
                            pass
            except SymbolicTimeout:
                pass
        out["blocks"], spurious, t1 = n, 0, time.monotonic()
        while time.monotonic() - t1 < 1.0:
            try:
                sum(range(1000))
            except SymbolicTimeout:
                spurious += 1
        out["spurious"], out["left"] = spurious, tid in base._ACTIVE

    th = threading.Thread(target=body, daemon=True)
    try:
        th.start()
        th.join(60)
    finally:
        sys.setswitchinterval(old)
    assert not th.is_alive() and out["blocks"] > 100, out
    assert out["spurious"] == 0 and not out["left"], out


def test_two_equal_nested_limits_are_two():
    """Leaving the inner of two limits with the same clock, time and class must not end the outer."""
    clock = Counter()
    with pytest.raises(SymbolicTimeout):
        with time_limit(5.0, clock=clock):
            with time_limit(5.0, clock=clock):
                pass
            for _ in range(10**7):
                clock.now += 1e-3


def test_a_library_that_turns_the_limits_exception_into_its_own_is_still_the_limit():
    """Hypothesis catches an exception raised inside its data generation and raises FlakyStrategyDefinition: past
    the limit that is the limit (a timeout, inconclusive), not an error; before it, the library's error stands."""
    class Flaky(Exception):
        pass

    def body(clock, steps):
        with time_limit(5.0, clock=clock):
            try:
                for _ in range(steps):
                    clock.now += 1e-3
            except SymbolicTimeout as exc:
                raise Flaky("data generation behaved differently") from exc

    clock = Counter()
    with pytest.raises(SymbolicTimeout, match="reported as Flaky"):
        body(clock, 10**7)
    with pytest.raises(ValueError):        # an error before the limit is the error
        with time_limit(5.0, clock=Counter()):
            raise ValueError("a bug")
