"""Sampled check: search the claim's domain for a counterexample, decided in mpmath.

Hypothesis draws points from the domain (seeded), a double-precision screen evaluates them all at
once, and every point the screen cannot clear is decided in mpmath by
:func:`~dpverify.checks.base.settle`: at ``Config.dps`` digits plus the point's own orders of
magnitude (``x = 1e-150`` adds 150 digits), then at doubling precision until the sign of
``rhs - lhs`` settles, each evaluation's error being its distance to the next one; every decision
is :meth:`~dpverify.measured.Measured.decide` on the relative difference with that error (no
absolute floor: values of 1e-435 are compared at their own scale). A counterexample is never a
rounding artefact; a point whose sign never settles (up to 8x the digits) is unresolved and makes
the statement at most ``inconclusive``; the two sides of ``<=`` or of an identity agreeing to every
precision tried meet the claim; a strict inequality with exactly equal sides fails only when SymPy
confirms the tie at the (rational) point. An identity holds to a relative ``1e-30``. Failing points
are shrunk by Hypothesis (the evidence reports the worst violation found beside the simplest one:
``data["worst"]``); otherwise a Nelder-Mead search minimises the margin from the closest points,
inside the domain and its search box.

Existential parameters (``Inequality(exists=("order",))``): at every outer point the margin is
maximised over the parameter (a grid over its search box, screened in double precision, then a
local refinement, the best value confirmed in mpmath). An outer point fails the search only when no
value of the parameter was found, and that failure is re-examined on a finer grid in mpmath. A grid
over the search box cannot show that no value in the whole domain works: the check as registered
(:func:`dpverify.checks.existsproof.check_sampled`) keeps such a failure ``violated`` only when
:func:`~dpverify.checks.existsproof.prove_no_value` proves it (interval arithmetic over the
parameter's domain, its tails included) at the counterexample or at the worst failure; otherwise the
statement is ``inconclusive``, with the grid's best margin and where the proof gave up.
"""
from __future__ import annotations

import math

import mpmath
import numpy as np
import sympy as sp

from ..numeric import Compiled, golden_section, is_finite_real, jsonable, real
from ..search import EvaluationError, Margin, search
from ..claims import Identity, Inequality, Real
from ..verdict import Basis, Evidence
from .base import Clock, Config, SymbolicTimeout, Triviality, based, settle, time_limit
from .symbolic import simple_fraction

TOL = mpmath.mpf(10) ** -30
EXISTS_GRID = 33
EXACT_TIE_SECONDS = 5.0  # SymPy's time to confirm a tie of a strict inequality at one point


def applies(stmt) -> bool:
    return isinstance(stmt, (Identity, Inequality))


class StatementMargin:
    """``point -> Margin`` for an identity or inequality (mpmath), and its double-precision screen."""

    def __init__(self, stmt, claim, cfg: Config):
        self.lhs = Compiled(stmt.lhs, claim)
        self.rhs = Compiled(stmt.rhs, claim)
        self.identity = isinstance(stmt, Identity)
        self.strict = getattr(stmt, "strict", False)
        self.dps = cfg.dps

    def _values(self, point, dps):
        try:
            a = self.lhs(point, dps)
            b = self.rhs(point, dps)
        except (ZeroDivisionError, OverflowError, ValueError, TypeError) as exc:
            raise EvaluationError(str(exc)) from exc
        if not (is_finite_real(a) and is_finite_real(b)):
            raise EvaluationError(f"non-finite value lhs={a}, rhs={b}")
        return real(a), real(b)

    def __call__(self, point) -> Margin:
        st = settle(lambda d: self._values(point, d), self.dps, strict=self.strict, identity=self.identity,
                    tol=TOL if self.identity else 0, point=point, exact_tie=lambda: self._exact_tie(point))
        if st.status == "unresolved":
            why = (f"lhs = {mpmath.nstr(st.value, 8)} and rhs = {mpmath.nstr(st.bound, 8)} agree to {st.dps} digits"
                   if st.value == st.bound else
                   f"the sign of rhs - lhs did not settle up to {st.dps} digits")
            return Margin(0.0, float(st.value), float(st.bound), unresolved=why)
        return Margin(st.m, float(st.value), float(st.bound))

    def _exact_tie(self, point) -> bool:
        """Whether ``lhs == rhs`` exactly at ``point`` (SymPy, at a point of simple fractions only:
        SymPy's sign decisions at a fraction of 2^1074 do not end)."""
        diff = self.lhs.expr - self.rhs.expr
        exact = {x: simple_fraction(point.get(str(x))) for x in diff.free_symbols}
        if any(v is None for v in exact.values()):
            return False
        try:
            with time_limit(EXACT_TIE_SECONDS):
                e = diff.xreplace(exact)
                return bool(e == 0 or e.is_zero is True or sp.simplify(e) == 0)
        except (TypeError, ValueError, AttributeError, NotImplementedError, RecursionError, SymbolicTimeout):
            return False

    def screen(self, points) -> np.ndarray:
        a, b = self.lhs.batch(points), self.rhs.batch(points)
        with np.errstate(all="ignore"):
            scale = np.maximum(np.maximum(np.abs(a), np.abs(b)), 1e-300)
            return (b - a) / scale


class ExistsMargin:
    """The margin maximised over one existentially quantified parameter (see the module docstring)."""

    def __init__(self, inner: StatementMargin, claim, name: str):
        self.inner, self.claim, self.name = inner, claim, name
        p = claim.domain.params[name]
        if not isinstance(p, Real):
            raise ValueError(f"exists: {name} must be a Real parameter")
        self.param = p
        lo, hi = p.box()
        self.grid = self._grid(lo, hi, EXISTS_GRID)
        self.fine = self._grid(lo, hi, 4 * EXISTS_GRID + 1)

    def _grid(self, lo, hi, n):
        if self.param.log:
            return list(np.exp(np.linspace(math.log(lo), math.log(hi), n)))
        return list(np.linspace(lo, hi, n))

    def _candidates(self, point, grid):
        out = []
        for v in grid:
            pt = dict(point)
            pt[self.name] = float(v)
            if self.claim.domain.contains(pt):
                out.append(pt)
        return out

    def _refine(self, pts, fm):
        """Golden-section refinement in double precision around the best grid point."""
        k = int(np.nanargmax(fm))
        vals = [p[self.name] for p in pts]
        lo, hi = vals[max(0, k - 1)], vals[min(len(vals) - 1, k + 1)]
        base = pts[k]

        def g(x):  # minimised: the negated margin, NaN (not evaluable) counts as worst
            v = float(self.inner.screen([{**base, self.name: x}])[0])
            return -v if math.isfinite(v) else math.inf

        x, _ = golden_section(g, lo, hi, 40)
        cand = {**base, self.name: x}
        return cand if self.claim.domain.contains(cand) else base

    def best(self, point, grid) -> Margin:
        pts = self._candidates(point, grid)
        if not pts:
            raise EvaluationError(f"no value of {self.name} satisfies the hypotheses at this point")
        fm = self.inner.screen(pts)
        if np.all(np.isnan(fm)):
            results = []
            for p in pts:
                try:
                    results.append((self.inner(p), p))
                except EvaluationError:
                    continue
            if not results:
                raise EvaluationError("cannot evaluate")
            mg, p = max(results, key=lambda r: r[0].m)
            return mg
        cands = [self._refine(pts, np.where(np.isnan(fm), -np.inf, fm))]
        cands += [pts[int(i)] for i in np.argsort(-np.where(np.isnan(fm), -np.inf, fm))[:3]]
        best = None
        for p in cands:
            try:
                mg = self.inner(p)
            except EvaluationError:
                continue
            if best is None or mg.m > best.m:
                best = mg
            if mg.m >= 0 and not mg.unresolved:
                return mg
        if best is None:
            raise EvaluationError("cannot evaluate")
        return best

    def __call__(self, point) -> Margin:
        mg = self.best(point, self.grid)
        if mg.m < 0:  # no witness on the coarse grid: look again on a finer one before reporting
            mg2 = self.best(point, self.fine)
            if mg2.m > mg.m:
                mg = mg2
        return mg

    def screen(self, points) -> np.ndarray:
        out = []
        for point in points:
            pts = self._candidates(point, self.grid)
            fm = self.inner.screen(pts) if pts else np.array([np.nan])
            out.append(np.nanmax(fm) if not np.all(np.isnan(fm)) else np.nan)
        return np.asarray(out, dtype=float)


def margin_function(stmt, claim, cfg: Config):
    """``point -> Margin`` (and ``.screen``) for an identity or inequality, quantifiers included."""
    inner = StatementMargin(stmt, claim, cfg)
    exists = tuple(getattr(stmt, "exists", ()))
    if exists:
        if len(exists) > 1:
            raise ValueError(f"{stmt.name}: one existential parameter is supported, got {exists}")
        return ExistsMargin(inner, claim, exists[0])
    return inner


@based(Basis("algebra", "the printed lhs and rhs at points of the claim's domain (mpmath)"))
def check(stmt, claim, cfg: Config) -> Evidence:
    clock = Clock()
    triv = Triviality(stmt, claim)
    margin = margin_function(stmt, claim, cfg)
    screen = None if isinstance(stmt, Identity) else margin.screen
    quant = f"; exists {', '.join(stmt.exists)} (grid + refinement)" if getattr(stmt, "exists", ()) else ""
    if cfg.at is not None:
        cov = triv.coverage([cfg.at])
        try:
            mg = margin(cfg.at)
        except EvaluationError as exc:
            return Evidence("sampled", stmt.name, "inconclusive", samples=1, seconds=clock.seconds, coverage=cov,
                            detail=f"cannot evaluate at the pinned point: {exc}")
        verdict = "violated" if mg.m < 0 else "inconclusive" if mg.unresolved else "holds"
        return Evidence("sampled", stmt.name, verdict, samples=1, min_margin=mg.m, value=mg.value, bound=mg.bound,
                        point=jsonable(cfg.at),
                        counterexample={"params": jsonable(cfg.at), "seed": cfg.seed} if mg.m < 0 else None,
                        seconds=clock.seconds, coverage=cov,
                        detail=(f"unresolved at the pinned point: {mg.unresolved}" if mg.unresolved else
                                f"evaluated at the pinned point ({cfg.dps} digits or more){quant}"))
    seed = cfg.seed_for(claim.id, stmt.name, "sampled")
    res = search(claim.domain.strategy(), margin, cfg.samples, seed, domain=claim.domain, screen=screen)
    cov = triv.coverage(res.drawn)
    best = res.best
    if res.counterexample is not None:
        return Evidence("sampled", stmt.name, "violated", samples=res.samples, min_margin=res.min_margin,
                        value=best.value, bound=best.bound, point=jsonable(res.counterexample),
                        counterexample={"params": jsonable(res.counterexample), "seed": cfg.seed},
                        seconds=clock.seconds, coverage=cov, data=_worst(res, cfg),
                        detail=f"counterexample found by {res.found_by}; replay with --at{quant}")
    if res.samples == 0 or res.confirmed == 0:
        return Evidence("sampled", stmt.name, "inconclusive", samples=res.samples, seconds=clock.seconds, coverage=cov,
                        detail=f"no point could be evaluated ({res.errors} evaluation errors)")
    if res.unresolved:
        return Evidence("sampled", stmt.name, "inconclusive", samples=res.samples, seconds=clock.seconds, coverage=cov,
                        point=jsonable(res.unresolved_point),
                        detail=f"no counterexample, but {res.unresolved} point(s) could not be decided at any "
                               f"precision tried, e.g. {jsonable(res.unresolved_point)}: {res.unresolved_reason}{quant}")
    detail = (f"no counterexample in {res.samples} points ({res.confirmed} evaluated at {cfg.dps} digits or more, "
              f"the rest cleared by a double-precision screen){quant}")
    if res.errors:
        detail += f" ({res.errors} points could not be evaluated)"
    return Evidence("sampled", stmt.name, "holds", samples=res.samples, min_margin=res.min_margin,
                    tightness=res.tightness, value=None if best is None else best.value,
                    bound=None if best is None else best.bound,
                    point=jsonable(res.best_point) if res.best_point else None,
                    seconds=clock.seconds, coverage=cov, detail=detail)


def _worst(res, cfg: Config) -> dict:
    """``{"worst": {"params", "seed", "ratio", "margin"}}``: the largest violation the search met
    (replayable with ``--at``), reported beside the simplest counterexample."""
    if res.worst_point is None or res.worst is None:
        return {}
    w = res.worst
    ratio = None
    if w.value is not None and w.bound is not None and w.bound > 0 and w.value > 0:
        ratio = float(f"{w.value / w.bound:.10g}")
    return {"worst": {"params": jsonable(res.worst_point), "seed": cfg.seed, "ratio": ratio,
                      "margin": float(f"{w.m:.10g}")}}
