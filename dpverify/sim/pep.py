"""Worst case of a first-order method over a whole function class, by performance estimation.

A performance-estimation problem (PEP; Drori & Teboulle 2014, Taylor, Hendrickx & Glineur 2017)
asks for the largest value of a statistic after ``T`` steps of a method over *every* function of a
class and every starting point within an initial condition. Written on the Gram matrix of the
iterates and gradients it is a semidefinite program; PEPit builds it and an open SDP solver
(Clarabel) solves it: PEPit's constraints are written into the conic program CVXPY would build from
them, bit for bit, without CVXPY's canonicalisation (:mod:`.pep_clarabel`), or through CVXPY where
that writer refuses a problem.

Methods (``x_0`` the start, ``g_t = grad f`` at the point queried, ``h_t`` the step of step t):

* ``gd``: ``x_{t+1} = x_t - h_t g(x_t)``;
* ``heavy_ball`` (Polyak): ``x_{t+1} = x_t - h_t g(x_t) + beta (x_t - x_{t-1})``, ``x_{-1} = x_0``;
* ``nesterov``: ``y_t = x_t + beta (x_t - x_{t-1})``, ``x_{t+1} = y_t - h_t g(y_t)``, ``x_{-1} = x_0``;
* ``bias_corrected``: an EMA of gradients ``m_t = beta m_{t-1} + (1 - beta) g(x_{t-1})``, ``m_0 = 0``,
  and ``x_t = x_{t-1} - h_t m_t / (1 - beta^t)`` (t = 1..T).

Classes (``L`` the smoothness, ``mu`` the curvature):

* ``smooth_strongly_convex`` (``0 < mu < L``) and ``smooth_convex``: interpolation conditions are
  necessary and sufficient (Taylor et al. 2017, Thm 4), so the SDP's value *is* the worst case;
* ``smooth`` (L-smooth, not necessarily convex) with ``f(x_0) - inf f <= Delta``: the smooth
  interpolation conditions among the iterates and, at each iterate, ``f(x_0) - f(x_t) +
  ||g_t||^2/(2L) <= Delta`` (every L-smooth function bounded below by ``f*`` has ``f(x) - f* >=
  ||grad f(x)||^2/(2L)``). These are necessary; the lower bound ``f*`` is not an interpolation
  condition, so the value is an **upper bound** on the worst case;
* ``pl`` (L-smooth with ``||grad f||^2 >= 2 mu (f - f*)``): no interpolation conditions are known;
  PEPit's necessary ones (the PL inequality and ``f - f* >= ||g||^2/(2L)`` at every point, smooth
  interpolation among the points) give an **upper bound**.

Statistics: ``excess`` (``f(x_T) - f*``), ``dist_sq`` (``||x_T - x*||^2``), ``grad_norm_sq``
(``||g(x_T)||^2``; on ``smooth`` the min over ``t = 0..T``), and two averages over the iterates, each a
single linear metric of the Gram matrix: ``random_round_excess`` / ``random_round_grad_norm_sq`` the
expectation over a random output round ``R`` in ``0..T-1`` with ``P(R = k)`` proportional to
``2 h_k - L h_k^2`` (Ghadimi & Lan's randomised rule; steps in ``(0, 2/L)``), and ``mean_excess`` the
mean of ``f(x_t) - f*`` over ``t = 1..T`` (an output drawn uniformly from the iterates a run produces).

Everything is solved on the normalised problem (``L = 1`` and ``||x_0 - x*|| = 1`` or
``f(x_0) - f* = 1``: the class is invariant under ``f(x) -> f(R y)/(L R^2)``, which turns the step
``h`` into ``h L`` and the curvature into ``mu/L``), then scaled back, so that the same normalised
problem is solved once (a cache) and the solver always sees numbers of order one.

The error of an SDP solution is folded in conservatively (:class:`PEPResult`): the lower bound is
the primal value at the solver's worst function, recovered as vectors (so that its Gram matrix is
exactly positive semi-definite), minus twice the first-order effect of the constraints it violates
(sum of multiplier x violation) and minus the duality gap; the upper bound is the dual value plus
twice the dual residual's negative eigenvalue times ``1 + trace G``, plus the gap.

PEPit keeps its state in class attributes, so solves are serialised by a lock.
"""
from __future__ import annotations

import functools
import math
import threading
import warnings
from dataclasses import dataclass

import numpy as np

METHODS = ("gd", "heavy_ball", "nesterov", "bias_corrected")
CLASSES = ("smooth_strongly_convex", "smooth_convex", "smooth", "pl")
#: classes whose PEP uses interpolation conditions (the SDP value is the worst case, not a bound)
EXACT_CLASSES = ("smooth_strongly_convex", "smooth_convex")
STATISTICS = ("excess", "dist_sq", "grad_norm_sq", "random_round_excess", "random_round_grad_norm_sq", "mean_excess")
#: statistics averaged over the iterates (a random output round or the mean; module docstring), and what each averages
AVERAGED = {"random_round_excess": "excess", "random_round_grad_norm_sq": "grad_norm_sq", "mean_excess": "excess"}
INITS = ("dist", "gap")
SOLVER = "CLARABEL"
#: floor of the error of a solve, relative to the value's scale (Clarabel's default tolerances are 1e-8)
REL_FLOOR = 1e-9

#: ``mu/L`` above ``1 - DEGENERATE`` is not measured (module docstring of the scenario)
DEGENERATE = 1e-9

_LOCK = threading.Lock()


class PEPError(ValueError):
    """The PEP could not be solved (unbounded, infeasible, or the solver failed)."""


@dataclass(frozen=True)
class PEPResult:
    """The worst case of one PEP, in the caller's units.

    ``value`` the primal value (the statistic at the solver's worst function); ``lower`` and
    ``upper`` bound the SDP's true optimum (see the module docstring); ``exact``: the class has
    interpolation conditions (the SDP optimum is the worst case over the class; otherwise it is an
    upper bound on it). ``iterates``: the worst function seen along the run, one tuple per iterate
    ``(t, f(x_t) - f*, ||x_t - x*||, ||g_t||)`` (``smooth``: ``f(x_0) - f(x_t)`` and ``nan`` for the
    distance, there is no minimiser), in the caller's units; ``rank`` the dimension of that function.
    """

    value: float
    lower: float
    upper: float
    exact: bool
    solver: str
    primal: float
    dual: float
    primal_violation: float
    dual_residual: float
    iterates: tuple
    rank: int

    def describe(self) -> str:
        its = "; ".join(f"t={t}: gap {f:.4g}, dist {d:.4g}, |g| {g:.4g}" for t, f, d, g in self.iterates)
        return (f"SDP by {self.solver}: primal {self.primal:.10g}, dual {self.dual:.10g} (gap "
                f"{self.dual - self.primal:.2g}), primal violation {self.primal_violation:.2g}, dual residual "
                f"{self.dual_residual:.2g}; worst function (dimension {self.rank}): {its}")


def _scales(init: str, L: float, r: float) -> dict:
    """Factors from the normalised problem to the caller's units, by statistic (``r``: R or Delta)."""
    if init == "dist":   # x = R y, f = L R^2 h
        return {"excess": L * r * r, "dist_sq": r * r, "grad_norm_sq": L * L * r * r, "dist": r, "grad": L * r}
    # f(x_0) - f* = Delta: R^2 = Delta / L
    return {"excess": r, "dist_sq": r / L, "grad_norm_sq": L * r, "dist": math.sqrt(r / L), "grad": math.sqrt(L * r)}


def degenerate(function_class: str, smooth: float, curvature: float) -> bool:
    """Whether ``curvature/smooth`` is above ``1 - DEGENERATE`` for a class with a curvature (not measured)."""
    return function_class in ("smooth_strongly_convex", "pl") and float(curvature) > (1 - DEGENERATE) * float(smooth)


def validate(method: str, function_class: str, statistic: str, init: str) -> None:
    """Refuse a combination the PEP cannot state (a ``TypeError`` naming it)."""
    for name, v, allowed in (("method", method, METHODS), ("function_class", function_class, CLASSES),
                             ("statistic", statistic, STATISTICS), ("init", init, INITS)):
        if v not in allowed:
            raise TypeError(f"worst_case: {name} must be one of {allowed}, got {v!r}")
    if function_class == "smooth" and (statistic not in ("grad_norm_sq", "random_round_grad_norm_sq") or init != "gap"):
        raise TypeError("worst_case: function_class='smooth' (nonconvex) has no minimiser: use statistic="
                        "'grad_norm_sq' (the min over the iterates) or 'random_round_grad_norm_sq' with init_gap=")
    if function_class == "pl" and (statistic == "dist_sq" or init != "gap"):
        raise TypeError("worst_case: function_class='pl' is stated with init_gap= and statistic 'excess' or "
                        "'grad_norm_sq' (the minimisers of a PL function need not be unique)")
    if function_class == "smooth_convex" and init == "gap" and statistic == "dist_sq":
        raise TypeError("worst_case: on smooth convex functions f(x_0) - f* does not bound ||x_T - x*|| "
                        "(unbounded): use init_dist=")


def worst_case(method: str, function_class: str, statistic: str, init: str, *, smooth: float, steps,
               init_value: float, curvature: float = 0.0, momentum: float = 0.0) -> PEPResult:
    """The worst case of ``statistic`` after ``len(steps)`` steps (module docstring), in the caller's
    units: ``init`` "dist" (``||x_0 - x*|| <= init_value``) or "gap" (``f(x_0) - f* <= init_value``)."""
    validate(method, function_class, statistic, init)
    L, r = float(smooth), float(init_value)
    if not (L > 0 and math.isfinite(L)) or not (r >= 0 and math.isfinite(r)):
        raise PEPError(f"need smooth > 0 and a finite initial value >= 0, got {smooth!r}, {init_value!r}")
    mu = float(curvature) / L if function_class in ("smooth_strongly_convex", "pl") else 0.0
    if function_class in ("smooth_strongly_convex", "pl") and not 0 < mu <= 1:
        raise PEPError(f"need 0 < curvature <= smooth, got {curvature!r}, {smooth!r}")
    if mu > 1 - DEGENERATE:   # strongly convex: one quadratic shape, 1/(1 - mu/L) breaks; PL: f - f* = ||g||^2/(2L)
        raise PEPError(f"curvature = smooth ({curvature!r}, {smooth!r}): a degenerate class, whose worst case is "
                       "0 or a single quadratic's, which the SDP's error cannot certify; not measured")
    hs = tuple(float(h) * L for h in steps)
    if statistic in AVERAGED and not hs:
        raise PEPError(f"statistic {statistic!r} averages over the iterates: it needs a horizon of at least 1")
    if statistic in AVERAGED and statistic != "mean_excess" and not all(0 < h < 2 for h in hs):
        raise PEPError(f"a random output round needs steps in (0, 2/smooth) (weights 2 h - L h^2 > 0), got {steps!r}")
    beta = float(momentum) if method != "gd" else 0.0
    if method == "bias_corrected" and not 0 <= beta < 1:
        raise PEPError(f"bias-corrected momentum needs 0 <= momentum < 1, got {momentum!r}")
    norm = _solve(method, function_class, statistic, init, hs, mu, beta)
    k = _scales(init, L, r)
    s = k[AVERAGED.get(statistic, statistic)]
    its = tuple((t, f * k["excess"], d * k["dist"], g * k["grad"]) for t, f, d, g in norm.iterates)
    return PEPResult(norm.value * s, norm.lower * s, norm.upper * s, norm.exact, norm.solver, norm.primal * s,
                     norm.dual * s, norm.primal_violation * s, norm.dual_residual * s, its, norm.rank)


@functools.lru_cache(maxsize=4096)
def _solve(method, function_class, statistic, init, hs, mu, beta) -> PEPResult:
    with _LOCK:
        return _solve_locked(method, function_class, statistic, init, hs, mu, beta)


def _function(problem, function_class, mu):
    from PEPit.functions import (SmoothConvexFunction, SmoothFunction, SmoothQuadraticLojasiewiczFunctionCheap,
                                 SmoothStronglyConvexFunction)

    if function_class == "smooth_strongly_convex":
        return problem.declare_function(SmoothStronglyConvexFunction, L=1.0, mu=mu)
    if function_class == "smooth_convex":
        return problem.declare_function(SmoothConvexFunction, L=1.0)
    if function_class == "smooth":
        return problem.declare_function(SmoothFunction, L=1.0)
    return problem.declare_function(SmoothQuadraticLojasiewiczFunctionCheap, L=1.0, mu=mu)


def _run(method, f, x0, hs, beta):
    """The iterates x_0..x_T and every point whose gradient the method queried."""
    xs, prev, m = [x0], x0, None
    for t, h in enumerate(hs, start=1):
        x = xs[-1]
        if method == "gd":
            nxt = x - h * f.gradient(x)
        elif method == "heavy_ball":
            nxt = x - h * f.gradient(x) + beta * (x - prev)
        elif method == "nesterov":
            y = x + beta * (x - prev)
            nxt = y - h * f.gradient(y)
        else:
            g = f.gradient(x)
            m = (1 - beta) * g if m is None else beta * m + (1 - beta) * g
            nxt = x - (h / (1 - beta**t)) * m
        prev = x
        xs.append(nxt)
    return xs


def _solve_locked(method, function_class, statistic, init, hs, mu, beta) -> PEPResult:
    from PEPit import PEP

    problem = PEP()
    f = _function(problem, function_class, mu)
    x0 = problem.set_initial_point()
    g0, f0 = f.oracle(x0)
    has_min = function_class != "smooth"
    if has_min:
        xs_, fs = f.stationary_point(return_gradient_and_function_value=True)[0::2]
    if init == "dist":
        problem.set_initial_condition((x0 - xs_) ** 2 <= 1)
    elif has_min:
        problem.set_initial_condition(f0 - fs <= 1)
    xs = _run(method, f, x0, hs, beta)
    oracles = [f.oracle(x) for x in xs]
    if function_class == "smooth":   # necessary: f(x_0) - f(x_t) + ||g_t||^2/2 <= f(x_0) - inf f <= 1
        for g, fx in oracles:
            problem.set_initial_condition(f0 - fx + 0.5 * g**2 <= 1)
    if statistic in AVERAGED:     # random round: R in 0..T-1, P(R = k) proportional to 2 h_k - h_k^2 (L = 1);
        ws = [2 * h - h * h for h in hs] if statistic != "mean_excess" else [0.0] + [1.0] * len(hs)  # mean: 1..T
        terms = [(g**2 if statistic == "random_round_grad_norm_sq" else fx - fs) * (w / sum(ws))
                 for w, (g, fx) in zip(ws, oracles) if w]
        metric = terms[0]
        for term in terms[1:]:
            metric = metric + term
        problem.set_performance_metric(metric)
    elif function_class == "smooth":
        for g, _ in oracles:
            problem.set_performance_metric(g**2)
    else:
        gT, fT = oracles[-1]
        problem.set_performance_metric({"excess": fT - fs, "dist_sq": (xs[-1] - xs_) ** 2,
                                        "grad_norm_sq": gT**2}[statistic])
    try:
        with warnings.catch_warnings():   # "may be inaccurate": the status is reported, the error folded in
            warnings.simplefilter("ignore")
            dual, via = _solve_sdp(problem)
    except Exception as exc:  # noqa: BLE001 - a solver failure is reported, never a verdict
        raise PEPError(f"the SDP solver failed: {exc}") from exc
    status = getattr(getattr(problem.wrapper, "prob", None), "status", "unknown")
    if dual is None or status not in ("optimal", "optimal_inaccurate") or not math.isfinite(dual):
        raise PEPError(f"the SDP solver returned status {status!r} (value {dual!r})")
    primal = float(problem.objective.eval())
    dual = float(dual)
    # primal: constraints violated at the recovered worst function, weighted by their multipliers
    cons = list(getattr(problem, "_list_of_prepared_constraints", []))
    viol, first_order = 0.0, 0.0
    for c in cons:
        v = float(c.eval())
        v = abs(v) if c.equality_or_inequality == "equality" else max(v, 0.0)
        viol = max(viol, v)
        first_order += abs(float(c.eval_dual())) * v
    G = np.asarray(problem.G_value, dtype=float)
    resid = max(0.0, -float(np.min(np.linalg.eigvalsh(np.asarray(problem.residual, dtype=float)))))
    gap = abs(dual - primal)
    floor = REL_FLOOR * max(1.0, abs(primal))
    lower = primal - 2 * first_order - gap - floor
    upper = max(primal, dual) + 2 * resid * (1 + float(np.trace(G))) + gap + floor
    eig = np.linalg.eigvalsh((G + G.T) / 2)
    rank = int(np.sum(eig > 1e-6 * max(float(eig[-1]), 1e-300)))
    iterates = []
    for t, (x, (g, fx)) in enumerate(zip(xs, oracles)):
        gn = math.sqrt(max(float(g.eval() @ g.eval()), 0.0))
        if has_min:
            d = x.eval() - xs_.eval()
            iterates.append((t, float(fx.eval() - fs.eval()), math.sqrt(max(float(d @ d), 0.0)), gn))
        else:
            iterates.append((t, float(f0.eval() - fx.eval()), math.nan, gn))
    exact = function_class in EXACT_CLASSES
    solver = f"PEPit {_version()} / {via}" + ("" if status == "optimal" else f" (status {status})")
    return PEPResult(primal, min(lower, primal), max(upper, primal), exact, solver,
                     primal, dual, viol, resid, tuple(iterates), rank)


#: the wrapper :func:`worst_case` solves through: ``"clarabel"`` (:mod:`.pep_clarabel`, the conic program
#: CVXPY would build, handed to Clarabel directly) or ``"cvxpy"`` (PEPit's own wrapper)
WRAPPER = "clarabel"


def _solve_sdp(problem) -> tuple[float, str]:
    """``problem.solve(...)`` through :data:`WRAPPER`, and the path it took (for the evidence): a
    problem the direct wrapper refuses (:class:`.pep_clarabel.Unsupported`) goes through CVXPY."""
    from PEPit.wrappers import WRAPPERS

    from .pep_clarabel import ClarabelWrapper, Unsupported

    if WRAPPER == "clarabel":
        WRAPPERS.setdefault("clarabel", ClarabelWrapper)   # PEPit looks wrappers up by name in this dict
        try:
            return problem.solve(wrapper="clarabel", solver=SOLVER, verbose=0), f"{SOLVER} (CVXPY's conic form, built directly)"
        except Unsupported:
            pass
    return problem.solve(wrapper="cvxpy", solver=SOLVER, verbose=0), f"CVXPY {SOLVER}"


@functools.lru_cache(maxsize=1)
def _version() -> str:
    try:
        from importlib.metadata import version

        return version("pepit")
    except Exception:  # noqa: BLE001
        return "?"


__all__ = ["CLASSES", "DEGENERATE", "EXACT_CLASSES", "degenerate", "INITS", "METHODS", "PEPError", "PEPResult", "STATISTICS", "validate",
           "worst_case"]
