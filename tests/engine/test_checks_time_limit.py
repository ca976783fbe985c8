"""The symbolic time limit (dpverify.checks.base.time_limit) counts a clock, not the wall: tested with
a clock the test advances itself, so nothing here depends on how busy the machine is."""
import threading

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


def test_the_default_clock_is_the_threads_own():
    """The CPU clock of a thread that has not started computing differs from the main thread's."""
    seen = {}

    def idle():
        seen["worker"] = thread_cpu_clock(threading.get_ident())()

    th = threading.Thread(target=idle)
    th.start()
    th.join()
    main = thread_cpu_clock(threading.get_ident())()
    assert seen["worker"] < main
