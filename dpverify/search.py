"""Counterexample search: Hypothesis generation and shrinking, then a local optimiser.

``search(strategy, margin, ...)`` looks for a point where ``margin(point) < 0`` (the claim fails
there). Hypothesis draws ``samples`` points (seeded, no database, so a seed replays exactly) and,
when one fails, shrinks it to a minimal counterexample. Otherwise the points with the smallest
margins seed a Nelder-Mead search on the margin in the domain's (log-)coordinates.
"""
from __future__ import annotations

import hashlib
import math
import random
from dataclasses import dataclass, field
from typing import Any, Callable, Mapping

import numpy as np
from hypothesis import HealthCheck, Phase, find, settings
from hypothesis.errors import NoSuchExample, Unsatisfiable


class EvaluationError(Exception):
    """A point at which a statement cannot be evaluated (recorded, not a counterexample)."""


def derive_seed(*parts: Any) -> int:
    """A 63-bit seed from the user's seed and names, stable across processes and platforms."""
    h = hashlib.sha256("|".join(str(p) for p in parts).encode()).digest()
    return int.from_bytes(h[:8], "little") >> 1


@dataclass
class SearchResult:
    counterexample: dict | None
    min_margin: float | None
    tightness: float | None
    samples: int
    errors: int = 0
    best_point: dict | None = None
    found_by: str = ""
    notes: list[str] = field(default_factory=list)


def _settings(samples: int) -> settings:
    return settings(
        max_examples=max(1, samples),
        database=None,
        deadline=None,
        derandomize=False,
        suppress_health_check=list(HealthCheck),
        phases=[Phase.generate, Phase.shrink],
        report_multiple_bugs=False,
    )


def search(
    strategy,
    margin: Callable[[dict], tuple[float, float | None]],
    samples: int,
    seed: int,
    domain=None,
    optimise: int = 3,
    tol: float = 0.0,
) -> SearchResult:
    """Search ``strategy`` for a point with ``margin < -tol``.

    ``margin(point)`` returns ``(margin, tightness)``; it may raise :class:`EvaluationError`.
    ``domain`` (a :class:`dpverify.spec.Domain`) enables the local optimiser over its real
    parameters, started from the ``optimise`` points with the smallest margins.
    """
    best: list[tuple[float, dict, float | None]] = []
    state = {"n": 0, "errors": 0, "min": math.inf, "tight": math.inf, "best": None}

    def record(pt, m, t):
        state["n"] += 1
        if m < state["min"]:
            state["min"] = m
            state["best"] = pt
        if t is not None and m >= -tol and t < state["tight"]:
            state["tight"] = t
        best.append((m, pt, t))
        if len(best) > 64:
            best.sort(key=lambda x: x[0])
            del best[16:]

    def fails(pt) -> bool:
        try:
            m, t = margin(pt)
        except EvaluationError:
            state["errors"] += 1
            return False
        m = float(m)
        record(pt, m, t)
        return m < -tol

    result = SearchResult(None, None, None, 0)
    try:
        ce = find(strategy, fails, settings=_settings(samples), random=random.Random(seed))
        result.counterexample = ce
        result.found_by = "hypothesis (shrunk)"
    except (NoSuchExample, Unsatisfiable):
        pass

    if result.counterexample is None and domain is not None and optimise > 0 and best:
        best.sort(key=lambda x: x[0])
        starts = []
        for m, pt, _ in best:
            if all(_same(pt, s) is False for s in starts):
                starts.append(pt)
            if len(starts) >= optimise:
                break
        for start in starts:
            ce = _local_search(domain, start, margin, record, tol)
            if ce is not None:
                result.counterexample = ce
                result.found_by = "local optimiser of the margin"
                break

    result.samples = state["n"]
    result.errors = state["errors"]
    result.min_margin = None if state["min"] == math.inf else state["min"]
    result.tightness = None if state["tight"] == math.inf else state["tight"]
    result.best_point = state["best"]
    if result.counterexample is not None:
        m, t = margin(result.counterexample)
        result.min_margin = float(m)
    return result


def _same(a: Mapping, b: Mapping) -> bool:
    return all(a.get(k) == b.get(k) for k in a)


def _coords(domain, point):
    """Real parameters (and sequence entries) of ``point`` as an unconstrained vector."""
    from .spec import Real, Seq

    keys, xs = [], []
    for name, p in domain.params.items():
        if isinstance(p, Real):
            keys.append((name, None, p.log))
            xs.append(math.log(point[name]) if p.log else float(point[name]))
        elif isinstance(p, Seq) and len(point[name]) <= 12:
            for i, v in enumerate(point[name]):
                keys.append((name, i, p.elem.log))
                xs.append(math.log(v) if p.elem.log else float(v))
    return keys, np.array(xs, dtype=float)


def _point(keys, x, template):
    pt = {k: (list(v) if isinstance(v, list) else v) for k, v in template.items()}
    for (name, i, lg), xi in zip(keys, x):
        v = math.exp(xi) if lg else float(xi)
        if i is None:
            pt[name] = v
        else:
            pt[name][i] = v
    return pt


def _local_search(domain, start, margin, record, tol):
    from scipy.optimize import minimize

    keys, x0 = _coords(domain, start)
    if len(x0) == 0:
        return None
    found = {}

    def obj(x):
        if not np.all(np.isfinite(x)) or np.any(np.abs(x) > 700):
            return 1e6
        pt = _point(keys, x, start)
        if not domain.contains(pt):
            return 1e6
        try:
            m, t = margin(pt)
        except EvaluationError:
            return 1e6
        m = float(m)
        record(pt, m, t)
        if m < -tol:
            found["pt"] = pt
            raise _Found
        return m

    try:
        minimize(obj, x0, method="Nelder-Mead",
                 options={"maxfev": 60 * (len(x0) + 1), "xatol": 1e-10, "fatol": 1e-14})
    except _Found:
        pass
    except (ValueError, ArithmeticError):  # a best effort on top of the Hypothesis search
        pass
    return found.get("pt")


class _Found(Exception):
    """Stops the optimiser at the first counterexample."""
