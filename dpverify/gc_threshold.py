"""The cyclic garbage collector's thresholds for the command line's jobs.

A check allocates millions of short-lived containers (SymPy expressions, Hypothesis's choice nodes, mpmath
tuples). CPython runs its generation-0 collection every 700 net container allocations by default, and a
full collection every hundred of those (once a quarter of the long-lived objects are new): on
``dpverify check --all`` the collector took 5.5 % of the CPU, most of it in full collections of the large
heap SymPy keeps, and 2.3 % under :data:`THRESHOLD` (``benchmarks/gc_threshold.py``). The command line
raises the thresholds for the duration of its command and puts them back after.
Nothing a check computes should depend on when cycles are collected (no result reads a weak reference or
a finalizer): ``tests/engine/test_gc.py`` compares four claims' JSON under CPython's default, these
thresholds and no automatic collection, and ``benchmarks/gc_threshold.py`` the whole registry's.

``DPVERIFY_GC_THRESHOLD`` overrides them: one to three integers as ``gc.set_threshold`` takes them (0 to 2**31 - 1),
e.g. ``700,10,10`` (CPython's default, for an A/B run) or ``0`` (no automatic collection).
"""
from __future__ import annotations

import contextlib
import gc
import os

#: generation 0 every 50,000 net allocations, generation 1 every 20 of those, generation 2 every 20 of
#: those (and, as always, only when a quarter of the long-lived objects are new). Measured in
#: ``benchmarks/gc_threshold.py``: peak memory is unchanged within noise.
THRESHOLD = (50_000, 20, 20)


def threshold_from_env(environ=os.environ) -> tuple[int, ...]:
    """The thresholds to use: ``DPVERIFY_GC_THRESHOLD`` when set, else :data:`THRESHOLD`.

    Raises ValueError naming the variable and its value when it is not one to three integers from 0 to 2**31 - 1.
    """
    raw = environ.get("DPVERIFY_GC_THRESHOLD")
    if raw is None or not raw.strip():
        return THRESHOLD
    try:
        values = tuple(int(p) for p in raw.split(","))
    except ValueError:
        values = ()
    if not 1 <= len(values) <= 3 or any(not 0 <= v < 2**31 for v in values):
        raise ValueError(f"DPVERIFY_GC_THRESHOLD must be one to three integers from 0 to 2147483647 separated "
                         f"by commas (e.g. 700,10,10), got {raw!r}")
    return values


@contextlib.contextmanager
def fewer_collections(threshold: tuple[int, ...] | None = None):
    """Run the block with the collector's thresholds set to ``threshold`` (default: from the environment,
    see :func:`threshold_from_env`); the previous thresholds are restored on exit, whatever happens."""
    before = gc.get_threshold()
    gc.set_threshold(*(threshold_from_env() if threshold is None else threshold))
    try:
        yield
    finally:
        gc.set_threshold(*before)
