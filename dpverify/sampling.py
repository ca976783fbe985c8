"""Seeded points from a strategy: the draws a search starts from (:func:`sample_points`).

The first ``HYPOTHESIS_POINTS`` points are Hypothesis's (its minimal example, then its own draws); the
rest, for a domain's strategy or a scenario's instances, are drawn by NumPy from the seed, some thirty
times cheaper. A seed gives the same points in any process (:func:`seed_only`, :func:`derive_seed`).
:mod:`dpverify.search` searches these points for a counterexample.
"""
from __future__ import annotations

import contextlib
import hashlib
import math
import random
import threading
import warnings
from typing import Any

import numpy as np
from hypothesis import HealthCheck, Phase, find, settings
from hypothesis.errors import HypothesisDeprecationWarning, NoSuchExample, Unsatisfiable


def derive_seed(*parts: Any) -> int:
    """A 63-bit seed from the user's seed and names, stable across processes and platforms."""
    h = hashlib.sha256("|".join(str(p) for p in parts).encode()).digest()
    return int.from_bytes(h[:8], "little") >> 1



def hypothesis_settings(samples: int, phases) -> settings:
    """Hypothesis settings of a seeded draw: ``samples`` examples, no database, no deadline, every health
    check off, the given ``phases`` (the search shrinks with them too)."""
    return settings(max_examples=max(1, samples), database=None, deadline=None, derandomize=False,
                    suppress_health_check=list(HealthCheck), phases=phases, report_multiple_bugs=False)


@contextlib.contextmanager
def seed_only():
    """Draws that depend on the seed alone (a context manager; the search shrinks inside it too).

    Hypothesis (6.13x and later) draws about 5% of its numbers from the constants of the "local"
    modules imported so far (any module outside site-packages: the user's claims file, this
    repository, the test modules). The same seed then gives different points in a fresh process,
    in a pytest run and in a Dask worker. While dpverify searches, that pool is empty, so a seed
    replays everywhere; Hypothesis's built-in constants (0, 1, inf, ...) still apply.
    """
    try:
        from hypothesis.internal.conjecture import providers
    except ImportError:  # pragma: no cover - Hypothesis layout changed: nothing to switch off
        yield
        return
    get = getattr(providers, "_get_local_constants", None)
    make = getattr(providers, "Constants", None)
    if get is None or make is None:  # pragma: no cover - a Hypothesis without local constants
        yield
        return
    with _SEED_ONLY_LOCK:
        _SEED_ONLY_DEPTH[0] += 1
        if _SEED_ONLY_DEPTH[0] == 1:
            providers._get_local_constants = lambda: make()
            cache = getattr(providers, "CONSTANTS_CACHE", None)
            if cache is not None and hasattr(cache, "cache"):
                cache.cache.clear()
    try:
        yield
    finally:
        with _SEED_ONLY_LOCK:
            _SEED_ONLY_DEPTH[0] -= 1
            if _SEED_ONLY_DEPTH[0] == 0:
                providers._get_local_constants = get
                cache = getattr(providers, "CONSTANTS_CACHE", None)
                if cache is not None and hasattr(cache, "cache"):
                    cache.cache.clear()


_SEED_ONLY_LOCK = threading.Lock()
_SEED_ONLY_DEPTH = [0]


HYPOTHESIS_POINTS = 2


def sample_points(strategy, n: int, seed: int) -> list[dict]:
    """``n`` points drawn deterministically from ``strategy`` (seeded).

    The first ``HYPOTHESIS_POINTS`` are Hypothesis's (its first is the minimal example: zeros, the
    lower ends of the boxes, for every seed; then its own draws, which favour bounds, simple and
    extreme floats). When ``strategy`` is a domain's (:meth:`dpverify.claims.Domain.strategy`), the rest are
    drawn by NumPy from the seed (:meth:`~dpverify.claims.Domain.draw_point` with ``hostile=True``:
    uniform or log-uniform on the search boxes, a box end or the nearest float inside an open end
    with probability 1/8 per parameter), some thirty times cheaper than a Hypothesis draw; likewise
    for a scenario's instances (``_dpverify_build = (domain, build)``: a point, then ``build(point,
    draw)``, None for no instance there; ``_dpverify_fixed = rng -> dict``: parameters each point is
    drawn with, e.g. a horizon from a list). The rest of any other strategy is Hypothesis's too. ``n = 1`` is therefore not a random point: draw one
    with :func:`dpverify.scenarios.sampling.spread_point` (the Monte Carlo points do)."""
    return sample_with_origin(strategy, n, seed)[0]


def sample_with_origin(strategy, n: int, seed: int) -> tuple[list, range]:
    """:func:`sample_points`, and the range of indices of the points NumPy drew (the search shrinks a
    counterexample found there from Hypothesis's first points only)."""
    src = getattr(strategy, "_dpverify_domain", None)
    build = getattr(strategy, "_dpverify_build", None)
    if (src is None and build is None) or n <= HYPOTHESIS_POINTS:
        return _hypothesis_points(strategy, n, seed), range(0)
    pts = _hypothesis_points(strategy, HYPOTHESIS_POINTS, seed)
    first = len(pts)
    domain, fixed = src if src is not None else (build[0], None)
    pick = getattr(strategy, "_dpverify_fixed", None)   # rng -> the parameters a point is drawn with
    rng = np.random.default_rng(derive_seed(seed, "numpy points"))
    draw = _NumpyDraw(rng)
    misses = refused = 0
    while len(pts) < n and misses <= n // 2 and refused <= 4 * n:
        pt = domain.draw_point(rng, fixed if pick is None else pick(rng), hostile=True)
        if pt is None:      # narrow hypotheses: 64 draws met none
            misses += 1
            continue
        if build is not None:
            try:
                pt = build[1](pt, draw)
            except _NotDrawn:   # a strategy NumPy does not draw: Hypothesis draws the rest
                break
            if pt is None:      # no instance at this point (the strategy filters these out)
                refused += 1
                continue
        pts.append(pt)
    numpy_drawn = range(first, len(pts))
    if len(pts) < n:        # too narrow for NumPy's rejection: Hypothesis draws the rest
        pts += _hypothesis_points(strategy, n - len(pts), derive_seed(seed, "rest"))
    return pts[:n], numpy_drawn


class _NotDrawn(Exception):
    """A strategy :class:`_NumpyDraw` does not draw, or a filter it could not satisfy."""


class _NumpyDraw:
    """``draw(strategy)`` for an instance's builder (``Scenario.instances_from``), by NumPy: bounded
    integers and floats (an end with probability 1/8, else uniform), lists, ``sampled_from``,
    ``just``, ``one_of`` (a branch uniformly), ``builds``, booleans, ``map`` and ``filter`` (64
    tries); anything else raises :class:`_NotDrawn`."""

    def __init__(self, rng):
        self.rng = rng

    def __call__(self, strategy):
        try:
            return self._draw(strategy)
        except (ImportError, AttributeError, TypeError) as exc:   # Hypothesis's internals read otherwise
            raise _NotDrawn(repr(strategy)) from exc

    def _draw(self, strategy):
        from hypothesis.strategies._internal import collections, core, lazy, misc, numbers, strategies

        s = strategy
        while isinstance(s, lazy.LazyStrategy):
            s = s.wrapped_strategy
        rng = self.rng
        if isinstance(s, numbers.IntegersStrategy) and s.start is not None and s.end is not None:
            if rng.random() < 0.125:
                return s.start if rng.random() < 0.5 else s.end
            return int(rng.integers(s.start, s.end + 1))
        if isinstance(s, numbers.FloatStrategy) and math.isfinite(s.min_value) and math.isfinite(s.max_value):
            if rng.random() < 0.125:
                return float(s.min_value if rng.random() < 0.5 else s.max_value)
            return float(min(max(rng.uniform(s.min_value, s.max_value), s.min_value), s.max_value))
        if isinstance(s, collections.ListStrategy) and s.max_size != math.inf:
            k = int(rng.integers(s.min_size, s.max_size + 1))
            return [self(s.element_strategy) for _ in range(k)]
        if isinstance(s, strategies.SampledFromStrategy) and not s._transformations and len(s.elements):
            return s.elements[int(rng.integers(len(s.elements)))]
        if isinstance(s, core.BuildsStrategy):
            return s.target(*(self(a) for a in s.args), **{k: self(v) for k, v in s.kwargs.items()})
        if isinstance(s, strategies.OneOfStrategy) and s.original_strategies:
            return self(s.original_strategies[int(rng.integers(len(s.original_strategies)))])
        if isinstance(s, misc.BooleansStrategy):
            return bool(rng.random() < 0.5)
        if isinstance(s, strategies.MappedStrategy):
            return s.pack(self(s.mapped_strategy))
        if isinstance(s, strategies.FilteredStrategy):
            for _ in range(64):
                v = self(s.filtered_strategy)
                if all(c(v) for c in s.flat_conditions):
                    return v
        raise _NotDrawn(repr(strategy))


def _hypothesis_points(strategy, n: int, seed: int) -> list:
    pts: list = []

    def keep(p):
        pts.append(p)
        return False

    with warnings.catch_warnings():
        # other threads of a Dask worker touch the global random module while we draw; our draws
        # come from our own seeded random.Random, which Hypothesis cannot tell
        warnings.simplefilter("ignore", HypothesisDeprecationWarning)
        try:
            with seed_only():
                find(strategy, keep, settings=hypothesis_settings(n, [Phase.generate]), random=random.Random(seed))
        except (NoSuchExample, Unsatisfiable):
            pass
    return pts[:n]
