"""What every check shares: its configuration (:class:`~dpverify.config.Config`, re-exported), a clock, a
time limit for SymPy, what a check tested (:func:`based`, :func:`scenario_on`) and the share of its points where a statement is not
trivially true (:class:`Triviality`)."""
from __future__ import annotations

import contextlib
import functools
import math
import os
import sys
import threading
import time
import weakref

import numpy as np
from typing import Any, NamedTuple

from ..config import Config
from ..measured import Measured
from ..search import climb


class Clock:
    def __init__(self):
        self.t0 = time.perf_counter()

    @property
    def seconds(self) -> float:
        return time.perf_counter() - self.t0


class SymbolicTimeout(Exception):
    pass


@contextlib.contextmanager
def time_limit(seconds: float, clock=None, raises: type[BaseException] = SymbolicTimeout):
    """Interrupt SymPy after ``seconds`` of its thread's CPU time (not wall time, so that a verdict
    does not depend on how busy the machine is), in any thread (the main one or a Dask worker's):
    the process's one watcher thread polls the thread's CPU clock and raises ``SymbolicTimeout`` in it
    asynchronously (SymPy is pure Python, so the exception arrives promptly). ``clock``: a zero-argument
    function read in place of the thread's CPU clock (for tests). ``raises``: the exception raised (a nested
    limit raises its own class, so that the outer limit's exception is never taken for the inner one's).

    One watcher serves every limit (:func:`_watcher`), started where no limit is active: a thread started
    while a watcher may interrupt the starting thread can receive that interruption itself (CPython gives a
    new thread the ident of the thread that starts it until the new one runs, and an asynchronous exception
    goes to every thread with the ident), die before it has started, and leave the starting thread waiting
    for it for ever -- which a watcher started per limit did, inside nested limits.

    An exception of another class that leaves the block once the limit has passed is raised as the limit's: a
    library that catches the limit's exception may raise its own instead (Hypothesis, generating the points of
    a sweep inside a limited proof, raised ``FlakyStrategyDefinition``, and the claim's verdict became
    ``error``)."""
    if seconds <= 0:
        yield
        return
    tid = threading.get_ident()
    cpu = thread_cpu_clock(tid) if clock is None else clock
    # held by this frame only: once the block has ended (however), the watcher drops an entry whose token is gone
    token = _Token()
    entry = _Limit(cpu, cpu() + seconds, raises, weakref.ref(token))
    _quiet_when_dropped(raises)
    try:
        with _LOCK:
            _watcher()
            _ACTIVE.setdefault(tid, []).append(entry)
        try:
            yield
        except raises:
            raise
        except Exception as exc:
            # past the limit, a library may turn the limit's exception into its own (Hypothesis: "data generation
            # behaved differently", FlakyStrategyDefinition): that is the limit, not an error of the check
            if cpu() >= entry.limit:
                raise raises(f"the limit of {seconds:g} s, reported as {type(exc).__name__}") from exc
            raise
    finally:
        # leaving should not be cut short by a limit's exception arriving meanwhile: tried again, such an exception
        # dropped (the block has ended; an outer limit past its own is raised again by the watcher); where one
        # still lands between the tries, the entry goes when this frame has let go of its token
        for _ in range(1000):
            try:
                _leave(tid, entry)
                break
            except tuple(_DROPPED_QUIETLY):
                continue
        del token


def _leave(tid: int, entry) -> None:
    with _LOCK:
        stack = _ACTIVE.get(tid, [])
        if entry in stack:   # with every limit nested in it (not after a fork: the child starts with none)
            del stack[stack.index(entry):]
        if not stack:
            _ACTIVE.pop(tid, None)
        # an exception set but not yet delivered when the block left would fire later, elsewhere
        _set_async_exc(tid, None)


class _Token:
    __slots__ = ("__weakref__",)


class _Limit:
    """One active limit (compared by identity: two limits with the same clock, time and class are two)."""
    __slots__ = ("cpu", "limit", "raises", "token")

    def __init__(self, cpu, limit: float, raises: type, token):
        self.cpu, self.limit, self.raises, self.token = cpu, limit, raises, token


#: the active limits per thread (outermost first), guarded by ``_LOCK``. A limited thread takes only this lock, a
#: C-level lock whose ``with`` a limit's exception cannot interrupt between acquiring and setting up the release
#: (a ``Condition``'s or an ``Event``'s Python-level ``__enter__`` can: the lock then stays held for ever).
_ACTIVE: dict[int, list] = {}
_LOCK = threading.Lock()
_WATCHER: list = []
#: how often the watcher reads the clocks
POLL = 0.05


def _after_fork_in_child() -> None:
    """A forked child has no watcher thread and may have copied ``_LOCK`` held: it starts afresh, with no
    limit (a block entered before the fork runs unlimited in the child, as it always did)."""
    global _LOCK
    _LOCK = threading.Lock()
    _ACTIVE.clear()
    _WATCHER.clear()


if hasattr(os, "register_at_fork"):
    os.register_at_fork(after_in_child=_after_fork_in_child)


def _set_async_exc(tid: int, exc) -> None:
    import ctypes

    ctypes.pythonapi.PyThreadState_SetAsyncExc(ctypes.c_ulong(tid), None if exc is None else ctypes.py_object(exc))


def _watch() -> None:
    """Every ``POLL`` seconds: in each thread past one of its limits, raise the outermost such limit's
    exception (again every round until the block leaves: an exception that lands in a garbage-collector
    callback or a ``__del__`` is dropped by Python, and one SymPy's own ``except Exception`` swallows is
    lost, which would leave the limit unenforced)."""
    while True:
        time.sleep(POLL)
        with _LOCK:
            for tid, stack in list(_ACTIVE.items()):
                stack[:] = [e for e in stack if e.token() is not None]   # blocks that ended without leaving
                if not stack:
                    del _ACTIVE[tid]
                    continue
                for entry in stack:
                    try:
                        past = entry.cpu() >= entry.limit
                    except (OSError, ValueError):   # the thread's clock is gone with the thread
                        past = False
                    if past:
                        _set_async_exc(tid, entry.raises)
                        break


def _watcher() -> None:
    """Start the watcher where there is none (the first limit of the process, or of a forked child: the
    caller holds ``_LOCK``, and with no watcher no limit can interrupt the starting thread)."""
    if not (_WATCHER and _WATCHER[0].is_alive()):
        th = threading.Thread(target=_watch, name="dpverify-time-limit", daemon=True)
        _WATCHER[:] = [th]
        th.start()


_DROPPED_QUIETLY: set = set()


def _quiet_when_dropped(cls) -> None:
    """Python prints "Exception ignored in ..." with a traceback when an exception lands where it
    cannot propagate (a weakref callback during garbage collection); a time limit's exception there
    is expected (it is raised again, see :func:`time_limit`), so it is dropped silently. Any other
    unraisable exception still reaches the hook that was in place (wrapped again if someone, e.g. a
    test runner, replaced ours)."""
    _DROPPED_QUIETLY.add(cls)
    if getattr(sys.unraisablehook, "dpverify_quiet", False):
        return
    previous = sys.unraisablehook

    def hook(unraisable):
        if not isinstance(unraisable.exc_value, tuple(_DROPPED_QUIETLY)):
            previous(unraisable)

    hook.dpverify_quiet = True
    sys.unraisablehook = hook


def thread_cpu_clock(tid: int):
    """A zero-argument function reading the CPU time of thread ``tid`` (wall time where the platform
    has no per-thread CPU clocks)."""
    try:
        clock = time.pthread_getcpuclockid(tid)
    except (AttributeError, OSError):  # pragma: no cover - no per-thread CPU clocks: wall time
        return time.monotonic
    return lambda: time.clock_gettime(clock)


class Settled(NamedTuple):
    """What :func:`settle` concluded at one point.

    ``status``: ``holds``, ``violated``, ``tie`` (the two sides agree to the highest precision
    tried: a pass for ``<=`` and for an identity) or ``unresolved`` (the sign never settled, or a
    strict inequality met a tie that could not be shown exact): neither a counterexample nor
    support. ``m``: the relative margin ``(bound - value) / max(|value|, |bound|)`` (for an
    identity ``tol - |value - bound| / scale``), negative exactly when ``status`` is ``violated``;
    ``measured``: the decided quantity with its error (:class:`~dpverify.measured.Measured`);
    ``dps``: the digits of the last evaluation.
    """

    status: str
    m: float
    value: Any
    bound: Any
    dps: int
    measured: Measured | None = None


# a margin of at least this much (relative) at the first precision is a clear pass; closer passes
# and every failure are evaluated again at higher precision
CLEAR = 1e-6
ESCALATIONS = 3  # the precision doubles at most this many times: up to 8x the starting digits


def scale_digits(point) -> int:
    """Decimal orders of magnitude of the point's numbers away from 1 (the largest): ``1 + x``
    with ``x = 1e-150`` needs 150 more digits than ``1 + 0.5`` to be told apart from ``1``."""
    out = 0
    for v in (point or {}).values():
        for u in (v if isinstance(v, (list, tuple)) else (v,)):
            try:
                f = abs(float(u))
            except (TypeError, ValueError, OverflowError):
                continue
            if f > 0 and math.isfinite(f):
                out = max(out, math.ceil(abs(math.log10(f))))
    return out


def settle(values, dps: int, *, strict: bool = False, identity: bool = False, tol=0, point=None,
           exact_tie=None) -> Settled:
    """Decide ``value <= bound`` (``<`` when ``strict``; ``value == bound`` to a relative ``tol``
    when ``identity``) at one point, raising the precision until the decision settles.

    ``values(dps) -> (value, bound)`` in mpmath. The first evaluation uses ``dps`` digits plus the
    :func:`scale_digits` of ``point``, so that a point's own scale never hides a difference. A pass
    with a margin of at least ``CLEAR`` there is kept (its error taken as the rounding of that
    precision); otherwise the precision doubles, and the error of each evaluation is its distance
    to the next one (the same underflow at two precisions is no confirmation: it cannot happen at
    the point's own scale). Every decision is :meth:`Measured.decide` on the relative difference
    ``(value - bound) / max(|value|, |bound|)`` with that error. A strict inequality whose sign
    never settles (its two sides equal at every precision, or apart by less than the error) is a
    failure only when ``exact_tie()`` confirms the tie exactly (e.g. in SymPy); it is
    ``unresolved`` otherwise.
    """
    import mpmath

    d = int(dps) + scale_digits(point)
    cap = d * 2 ** ESCALATIONS
    tol = mpmath.mpf(tol)
    a, b = _real(values(d))
    prev = None
    while True:
        diff = mpmath.fsub(a, b, exact=True)
        scale = max(abs(a), abs(b))
        err = mpmath.mpf(0) if prev is None else abs(mpmath.fsub(diff, prev, exact=True))
        if prev is None:  # the rounding of one evaluation, before any second opinion
            err = scale * mpmath.mpf(10) ** (15 - d)
        meas, status = _decide(diff, err, scale, strict, identity, tol)
        m = _margin(diff, scale, identity, tol, status, strict)
        if prev is None:
            if status == "holds" and (identity or m >= CLEAR):
                return Settled("holds", m, a, b, d, meas)
        elif status in ("holds", "violated") and not (strict and status == "violated" and diff == 0):
            return Settled(status, m, a, b, d, meas)
        if 2 * d > cap:
            break
        prev, d = diff, 2 * d
        a, b = _real(values(d))
    if strict and exact_tie is not None and exact_tie():
        return Settled("violated", -_TINY, a, b, d, meas)
    if not strict and abs(diff) <= err + scale * mpmath.mpf(10) ** (15 - d // 2):
        return Settled("tie", max(m, 0.0), a, b, d, meas)  # equal to about d/2 digits: meets "<=" / "=="
    return Settled("unresolved", 0.0, a, b, d, meas)


_TINY = 5e-324


def _real(pair):
    import mpmath

    return tuple(mpmath.re(mpmath.mpmathify(v)) for v in pair)


def _decide(diff, err, scale, strict, identity, tol):
    """``Measured.decide`` on ``(value - bound) / scale`` (``|value - bound| / scale`` for an
    identity) with error ``err / scale``, rescaled into the range of doubles when ``tol`` is 0
    (the sign of a difference of 1e-600 survives)."""
    import mpmath

    if scale == 0:
        q, e = mpmath.mpf(0), err
    else:
        q, e = (abs(diff) if identity else diff) / scale, err / scale
    k = mpmath.mpf(1)
    if tol == 0 and max(abs(q), e) > 0:
        k = mpmath.mpf(10) ** (-int(mpmath.floor(mpmath.log10(max(abs(q), e)))))
    meas = Measured.exact(float(q * k), float(e * k))
    verdict = meas.decide(float(tol * k), strict=strict and not identity)
    return meas, {"inconclusive": "unresolved"}.get(verdict, verdict)


def _margin(diff, scale, identity, tol, status, strict=False) -> float:
    """The relative margin as a float whose sign agrees with ``status`` (positive for a strict pass)."""
    if scale == 0:
        m = float(tol)
    else:
        m = float(tol - abs(diff) / scale) if identity else float(-diff / scale + tol)
    if status == "violated":
        return min(m, -_TINY)
    if status == "holds":
        return max(m, _TINY if strict and not identity else 0.0)
    return m


def confirmed_margin(values, dps: int, tol=None, point=None):
    """Decide ``value <= bound`` in mpmath with :func:`settle` (``tol``: relative slack, 1e-30 by
    default).

    ``values(dps) -> (value, bound)`` as mpmath numbers. Returns ``(m, value, bound)`` with the
    relative margin ``m = (bound - value) / scale + tol``: negative only when the failure settles
    (its difference larger than the evaluation's error at rising precision); a point whose sign
    never settles gives ``m = 0``.
    """
    import mpmath

    tol = mpmath.mpf(10) ** -30 if tol is None else tol
    s = settle(values, dps, tol=tol, point=point)
    return (0.0 if s.status == "unresolved" else s.m), s.value, s.bound


# --------------------------------------------------------------------------- what a check tested
def based(basis):
    """Decorate a check ``(stmt, claim, cfg) -> Evidence`` so that its evidence says what it tested:
    ``basis`` is a :class:`~dpverify.verdict.Basis` or a function ``(stmt, claim, evidence) -> Basis``,
    applied where the check did not set one itself."""
    def deco(fn):
        @functools.wraps(fn)
        def check(stmt, claim, cfg):
            ev = fn(stmt, claim, cfg)
            if ev.basis is None:
                ev.basis = basis(stmt, claim, ev) if callable(basis) else basis
            return ev
        return check
    return deco


def scenario_on(sc, inst=None, monte_carlo: bool = False) -> str:
    """The ``on`` text of a scenario's evidence: its algorithm (when it names one) on its problem
    family (``name``, or ``mc_name`` for the Monte Carlo problems), or the scenario's ``describe``
    where it names no family (a :class:`~dpverify.scenarios.PointScenario`)."""
    family = sc.mc_name if monte_carlo else sc.name
    if not family or family in ("scenario", "none"):
        try:
            family = sc.describe(inst)
        except Exception:  # noqa: BLE001 - a description needing an instance: no family to name
            family = ""
    alg = getattr(sc, "algorithm", "") or ""
    return f"{alg} on {family}" if alg and family else (alg or family)


#: an adversarial search's instance counts as a move only when it lowers the relative margin by more
#: than this (less is the rounding of an exact measurement)
ADVERSARY_MOVE_TOL = 1e-9


def adversarial_search(sc, claim, stmt, cfg: Config, starts: list, score, *, runs: int, over: str,
                       at: str) -> dict | None:
    """The adversarial search over a scenario's instance parameters (:func:`~dpverify.search.climb` with
    the scenario's :meth:`~dpverify.scenarios.Scenario.perturb`, ``cfg.adversary`` times its
    ``adversary_budget`` evaluations of ``score``, moves seeded by ``(claim, statement,
    "adversary-moves")``). The caller's ``score`` is deterministic (common random numbers). Returns
    ``None`` when no start could be scored, else a dict: ``instance`` (the one reached, ``None`` when no
    move improved on the starts), ``origin`` (its start's index), ``evaluations``, ``runs``,
    ``start_margin``, ``margin``, ``chosen`` (its description) and ``text`` (a line for the evidence:
    the search ``over`` what, from the starts ``at`` what)."""
    budget = max(1, int(round(sc.adversary_budget * cfg.adversary)))
    res = climb(starts, sc.perturb, score, budget, cfg.seed_for(claim.id, stmt.name, "adversary-moves"))
    if res is None:
        return None
    moved = res.improvements > 0 and res.score < res.start_score - ADVERSARY_MOVE_TOL
    text = (f"adversarial search over {over}: {res.evaluations} evaluations of {runs} runs (common random "
            f"numbers), relative margin {res.start_score:.3g} at {at} -> {res.score:.3g}")
    return {"instance": res.best if moved else None, "origin": res.origin, "text": text,
            "evaluations": res.evaluations, "runs": runs, "start_margin": res.start_score, "margin": res.score,
            "chosen": sc.describe(res.best) if moved else None}


def inside_points(sc, claim, instances) -> list:
    """The claim's points of the ``instances`` a scenario drew that lie inside its hypotheses."""
    out = []
    for inst in instances:
        try:
            pt = sc.point(inst)
        except Exception:  # noqa: BLE001 - an instance the scenario cannot map is not a checked point
            continue
        if claim.domain.contains(pt):
            out.append(pt)
    return out


#: a measured statistic at most this share of its bound (or exactly 0) counts as identically zero
ZERO_STATISTIC = 1e-12
#: what a check adds to its evidence when every instance it measured makes the statistic identically zero
VACUOUS_NOTE = ("the statistic is 0 at every instance measured (the method solves each problem drawn exactly): "
                "these instances are no evidence about the bound")


def recording(margin, seen: list):
    """``margin`` that also appends each ``(value, bound)`` it returns to ``seen``; its ``screen`` (relative
    margins ``(b - v)/max(|b|, |v|)`` in double precision) is kept and recorded too, as ``(1 - m, 1)``:
    ``v/b`` where ``b > 0``."""
    def wrapped(inst):
        mg = margin(inst)
        seen.append((mg.value, mg.bound))
        return mg

    if hasattr(margin, "screen"):
        def screen(insts):
            ms = margin.screen(insts)
            seen.extend((1.0 - float(m), 1.0) for m in ms)
            return ms

        wrapped.screen = screen
    return wrapped


def vacuous_statistic(pairs) -> bool:
    """Whether every measured ``(value, bound)`` with a nonzero bound has the statistic identically zero
    (``|value| <= ZERO_STATISTIC |bound|``); ``False`` when there is none."""
    ok = []
    for v, b in pairs:
        try:
            v, b = float(v), float(b)
        except (TypeError, ValueError):
            continue
        if math.isfinite(v) and math.isfinite(b) and b != 0:
            ok.append(abs(v) <= ZERO_STATISTIC * abs(b))
    return bool(ok) and all(ok)


class Triviality:
    """Where a statement is trivially true: its ``trivial=`` relation evaluated at points of the
    claim (double precision; points NumPy cannot evaluate in mpmath at 30 digits; points where it
    cannot be evaluated at all are not counted).

    ``coverage(points)``: the share of ``points`` where the statement is NOT trivially true, or
    ``None`` when the statement declares nothing (or no point could be evaluated)."""

    _OPS = {"<": np.less, "<=": np.less_equal, ">": np.greater, ">=": np.greater_equal}

    def __init__(self, stmt, claim):
        self.rel = getattr(stmt, "trivial", None)
        self.claim = claim
        self._compiled: dict = {}

    def _side(self, expr):
        from ..numeric import Compiled

        if expr not in self._compiled:
            self._compiled[expr] = Compiled(expr, self.claim)
        return self._compiled[expr]

    def _values(self, expr, points) -> np.ndarray:
        f = self._side(expr)
        with np.errstate(all="ignore"):
            try:
                v = np.broadcast_to(np.asarray(f.batch(points), dtype=float), (len(points),)).copy()
            except (ValueError, TypeError, ZeroDivisionError, OverflowError, ArithmeticError):
                v = np.full(len(points), np.nan)
        for i in np.flatnonzero(np.isnan(v)):
            try:
                import mpmath

                x = f(points[i], 30)
                v[i] = float(mpmath.re(x)) if mpmath.im(x) == 0 else np.nan
            except (ValueError, TypeError, ZeroDivisionError, OverflowError, ArithmeticError):
                v[i] = np.nan
        return v

    def _truth(self, rel, points) -> np.ndarray:
        """1.0 where ``rel`` holds, 0.0 where not, NaN where it cannot be evaluated."""
        import sympy as sp

        if isinstance(rel, sp.And) or isinstance(rel, sp.Or):
            parts = [self._truth(a, points) for a in rel.args]
            comb = np.minimum if isinstance(rel, sp.And) else np.maximum
            return functools.reduce(comb, parts)
        if isinstance(rel, sp.Not):
            return 1.0 - self._truth(rel.args[0], points)
        a, b = self._values(rel.lhs, points), self._values(rel.rhs, points)
        with np.errstate(all="ignore"):
            out = self._OPS[rel.rel_op](a, b).astype(float)
        out[np.isnan(a) | np.isnan(b)] = np.nan
        return out

    def coverage(self, points) -> float | None:
        if self.rel is None:
            return None
        points = [p for p in points if p is not None]
        if not points:
            return None
        t = self._truth(self.rel, points)
        t = t[~np.isnan(t)]
        return None if t.size == 0 else float(np.mean(t == 0.0))
