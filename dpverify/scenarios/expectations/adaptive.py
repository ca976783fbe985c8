"""Noisy gradient descent with a step size and a noise level that may depend on the current gradient
norm, in a claim's own symbols (the simulator is :mod:`dpverify.sim.adaptive`).

The algorithm, for ``t = 1..T`` from ``theta_1``::

    theta_{t+1} = theta_t - eta_t (grad F(theta_t) + s_t z_t),   z_t ~ N(0, I_D),

where ``step`` (eta_t) and ``noise_std`` (s_t) are expressions in the claim's symbols, the step index
``t`` and the symbol ``grad`` (default ``g``) standing for the current gradient norm
``||grad F(theta_t)||`` of the run: ``noise_std=g / sp.sqrt(D)`` is noise proportional to the gradient
norm (an oracle of it), ``noise_std=4*M*R/(sp.sqrt(D)*t)`` an ordinary schedule::

    adaptive_gd(problem="convex", smooth=M, step=1 / (2 * M), noise_std=g / sp.sqrt(D), dim=D,
                horizon=T, init_dist=R0, statistic="excess")

Parameters: ``smooth`` (M), ``curvature`` (mu, for ``problem="strongly_convex"``), ``step``,
``noise_std``, ``dim`` (D), ``horizon`` (T), and the size of the start: ``init_gap`` (F(theta_1) - F*),
``init_dist`` (||theta_1 - theta*||) or ``init_grad`` (||grad F(theta_1)||), at most one of them.

Problem classes (``problem=``): ``"smooth"`` (M-smooth and bounded below, possibly non-convex: exact
moments on quadratics with Hessian spectrum in [0, M], which belong to the class, and Monte Carlo on
any problem of :class:`MCPoint`, e.g. the non-convex :class:`CosineData`), ``"convex"`` (spectrum in
[0, M]) and ``"strongly_convex"`` (spectrum in [mu, M], both ends present when D >= 2).

Statistics (``statistic=``), over the iterates ``theta_1 .. theta_{T+1}``:

* ``"excess"``: ``E F(theta_{T+1}) - F*``;  ``"increase"``: ``E F(theta_{T+1}) - F(theta_1)``;
* ``"avg_grad_norm_sq"``: ``E (1/T) sum ||grad F(theta_t)||^2`` over the iterates named by
  ``average``: ``"after"`` (theta_2 .. theta_{T+1}, the T iterates the steps produce), ``"steps"``
  (theta_1 .. theta_T, those a step is taken from) or ``"all"`` (theta_1 .. theta_{T+1}, still divided
  by T);
* ``"grad_norm_sq"``: ``E ||grad F(theta_{T+1})||^2``;  ``"dist_sq"``: ``E ||theta_{T+1} - theta*||^2``;  ``"max_dist"``: ``max_{t >= 2} ||theta_t - theta*||``
  (Monte Carlo only; with ``exceeds=R`` the probability that a run leaves the ball of radius R).

``exceeds=expr`` turns the statistic into the probability that one run's value exceeds ``expr``.

Observables (``observe={"R15": "proof_radius"}``, exact route): ``"proof_radius"`` is the smallest ``R``
with ``E ||grad F(theta_t)||^2 >= (E[F(theta_t) - F*])^2 / R^2`` at every iterate a step is taken from
(theta_1 .. theta_T), the form in which convergence proofs for convex losses use "the iterates stay
within R of theta*" (Cauchy-Schwarz and Jensen); a bound may use it as a symbol.

Exact expectations on quadratics (moment propagation, :func:`dpverify.sim.adaptive.adaptive_moments`)
apply when the step does not depend on ``grad`` and the noise *variance* is affine in ``grad**2``
(``s_t^2 = a_t + b_t g^2``): every schedule, and noise proportional to the gradient norm. Monte
Carlo runs the algorithm itself, per run, on quadratics, :class:`~dpverify.scenarios.LogisticData`
or :class:`CosineData`, whose constants are measured and mapped back onto the claim's symbols.

Adversarial search (claims with :class:`~dpverify.scenarios.LogisticData` among their ``mc`` points): as
for ``noisy_gd``, the Monte Carlo check moves a data problem's start and the curvature its data lose along
a direction (:meth:`AdaptiveGD.perturb`) by :func:`~dpverify.search.climb` with common random numbers,
and measures the instance it reaches afresh, with the drawn point's own seed (``data["adversary"]``).
"""
from __future__ import annotations

import math
from typing import Any, Mapping

import mpmath
import numpy as np
import sympy as sp
from hypothesis import strategies as st

from ... import sim
from ...numeric import Compiled
from ...sim.adaptive import adaptive_gd as _simulate
from ...sim.adaptive_exact import adaptive_path_moments
from ..base import MappedScenario
from ..data import CosineData, LogisticData
from ..params import T_INDEX, ParamMap
from .gd import ADVERSARY_BUDGET

__all__ = ["AVERAGES", "AdaptiveGD", "GRAD", "PROBLEMS", "STARTS", "STATISTICS", "adaptive_gd", "measured_constants"]


GRAD = sp.Symbol("g")


PROBLEMS = ("smooth", "convex", "strongly_convex")


STATISTICS = ("excess", "increase", "avg_grad_norm_sq", "grad_norm_sq", "dist_sq", "max_dist")


AVERAGES = ("after", "steps", "all")


OBSERVABLES = ("proof_radius",)


STARTS = ("init_gap", "init_dist", "init_grad")


def _data_spec(d: Mapping) -> Any:
    spec = dict(d)
    fam = spec.pop("family")
    if fam == "cosine":
        return CosineData(a=tuple(spec["a"]), theta1=tuple(spec["theta1"]))
    return LogisticData(**spec)


def _start(spec, problem) -> np.ndarray:
    if callable(getattr(spec, "start", None)):          # CosineData.start()
        return spec.start()
    if hasattr(spec, "theta1"):                          # LogisticData: its start (0 unless given)
        return spec.theta1()
    return np.zeros(problem.dim)


def measured_constants(spec) -> dict:
    """Everything a data problem's start determines: M, mu, D, N and the start's gap, distance and
    gradient norm (F(theta_1) - F*, ||theta_1 - theta*||, ||grad F(theta_1)||), measured."""
    p = spec.build()
    th = _start(spec, p)
    out = dict(spec.measured())
    out.setdefault("smooth", float(p.M))
    out.setdefault("dim", int(p.dim))
    if getattr(p, "mu", 0.0):
        out.setdefault("curvature", float(p.mu))
    g = p.grad(th[None, :])[0]
    out["init_gap"] = float(p.value(th[None, :])[0] - p.f_star)
    out["init_dist"] = float(np.linalg.norm(th - np.asarray(p.theta_star)))
    out["init_grad"] = float(np.linalg.norm(g))
    return out


class AdaptiveGD(MappedScenario):
    """Noisy GD with a gradient-norm-adaptive rule (module docstring), in a claim's own symbols."""
    NOISE = ("noise_std",)

    REQUIRED = ("smooth", "step", "noise_std", "dim", "horizon")
    OPTIONAL = ("curvature",) + STARTS + ("n_samples",)
    STEPWISE = ("step", "noise_std")
    MEASURED_ORDER = ("dim", "n_samples", "curvature", "smooth", "init_gap", "init_dist", "init_grad")

    def __init__(self, params: Mapping[str, Any], *, problem: str, statistic: str, average: str = "after",
                 exceeds=None, observe: Mapping[str, str] | None = None, mc: tuple = (), mc_count: int = 3,
                 grad: sp.Symbol = GRAD, index: sp.Symbol = T_INDEX):
        params = dict(params)
        super().__init__(params, index)
        if problem not in PROBLEMS:
            raise TypeError(f"adaptive_gd: problem must be one of {PROBLEMS}, got {problem!r}")
        if statistic not in STATISTICS:
            raise TypeError(f"adaptive_gd: statistic must be one of {STATISTICS}, got {statistic!r}")
        if average not in AVERAGES:
            raise TypeError(f"adaptive_gd: average must be one of {AVERAGES}, got {average!r}")
        if problem == "strongly_convex" and "curvature" not in params:
            raise TypeError("adaptive_gd: problem='strongly_convex' needs curvature= (the strong convexity constant)")
        starts = [k for k in STARTS if k in params]
        if len(starts) != 1:
            raise TypeError(f"adaptive_gd: give exactly one of {', '.join(STARTS)} (the size of the start), "
                            f"got {starts or 'none'}")
        if not isinstance(grad, sp.Symbol):
            raise TypeError(f"adaptive_gd: grad must be a SymPy Symbol (the current gradient norm), got {grad!r}")
        self.problem, self.statistic, self.average, self.exceeds = problem, statistic, average, exceeds
        self.indicator = exceeds is not None
        self.grad, self.start, self.index = grad, starts[0], index
        self.observe_map = dict(observe or {})
        for name, what in self.observe_map.items():
            if what not in OBSERVABLES:
                raise TypeError(f"adaptive_gd: observable {name} = {what!r} is not one of {OBSERVABLES}")
        self._set_mc_points("adaptive_gd", mc, mc_count)
        # half noisy_gd's budget: a pur-style claim has many Monte Carlo statements on the same data
        self.adversary_budget = (ADVERSARY_BUDGET // 2 if any(isinstance(m.problem, LogisticData) for m in self.mc_spec)
                                 else 0)
        adaptive = {k: grad in self.params.exprs[k].free_symbols for k in ("step", "noise_std")}
        self._variance = None if adaptive["step"] else _affine_variance(self.params.exprs["noise_std"], grad)
        self.supports_exact = exceeds is None and statistic != "max_dist" and self._variance is not None
        self.supports_monte_carlo = bool(self.mc_spec) and not self.observe_map
        if self.observe_map and not self.supports_exact:
            raise TypeError("adaptive_gd: observables come from exact moments; this rule or statistic has none")
        if statistic == "max_dist" and not self.supports_monte_carlo:
            raise TypeError("adaptive_gd: statistic='max_dist' is a Monte Carlo statistic; give mc= points")
        kind = "gradient-norm-adaptive " if any(adaptive.values()) else ""
        self.algorithm = f"noisy gradient descent with a {kind}step/noise rule"
        self.name = {"smooth": "diagonal quadratic (spectrum in [0, M], a smooth loss)",
                     "convex": "diagonal quadratic (spectrum in [0, M])",
                     "strongly_convex": "diagonal quadratic (spectrum in [mu, M])"}[problem]

    # ------------------------------------------------------------------ binding
    def validate_for(self, claim):
        from ...claims import symbol_names

        allowed = set(claim.domain.params) | {str(k) for k in claim.definitions}
        for k, e in self.params.exprs.items():
            names = symbol_names(claim.expand(e))
            if k in self.STEPWISE:
                names -= {str(self.index), str(self.grad)}
            unknown = sorted(names - allowed)
            if unknown:
                return (f"adaptive_gd: {k} = {e} uses {', '.join(unknown)}, which are not parameters of the "
                        f"claim's domain ({', '.join(claim.domain.params)}) nor definitions")
        if self.exceeds is not None:
            unknown = sorted(symbol_names(claim.expand(sp.sympify(self.exceeds))) - allowed)
            if unknown:
                return f"adaptive_gd: exceeds uses {', '.join(unknown)}, which are not parameters of the claim"
        return None

    def _on_bind(self):
        self._threshold = None if self.exceeds is None else Compiled(self.exceeds, self.claim)
        self._var_map = None
        if self._variance is not None:
            a, b = self._variance
            self._var_map = ParamMap("adaptive_gd", {"a": a, "b": b}, optional=("a", "b"), stepwise=("a", "b"),
                                     index=self.index).bind(self.claim)

    # ------------------------------------------------------------------ values at a point
    def _T(self, pt) -> int:
        return int(round(float(self.map.scalar("horizon", pt))))

    def _D(self, pt) -> int:
        return int(round(float(self.map.scalar("dim", pt))))

    def rule_at(self, pt):
        """``rule(t, grad_norm) -> (eta, noise_std)`` at a point of the claim (vectorised over runs).

        A step free of the gradient norm with a noise level free of it or a constant times it is
        returned as a :class:`~dpverify.sim.NormRule` (same values: the simulator may run it fused).
        """
        T = self._T(pt)
        parts, declared = {}, {}
        for key in ("step", "noise_std"):
            e = self.claim.expand(self.params.exprs[key])
            if self.grad in e.free_symbols:
                if e.atoms(sp.Indexed):
                    raise ValueError(f"adaptive_gd: {key} depends on {self.grad} and on a sequence entry; "
                                     "write the sequence part as its own parameter")
                vals = {s: float(pt[str(s)]) for s in e.free_symbols if s not in (self.grad, self.index)}
                e = e.xreplace({s: sp.Float(v, 30) for s, v in vals.items()})
                f = sp.lambdify((self.index, self.grad), e, modules="numpy")
                parts[key] = (lambda t, g, f=f: f(float(t), g))
                coeff = e / self.grad
                if key == "noise_std" and (e == self.grad or (e.is_Mul and len(e.args) == 2 and coeff.is_Number)):
                    declared[key] = (np.full(T, float(f(1.0, 1.0))), True)   # e = c g: printed c * g, c = f(., 1)
            else:
                vals = np.asarray(self.map.steps(key, pt, T), dtype=float)
                parts[key] = (lambda t, g, v=vals: v[t - 1])
                declared[key] = (vals, False)
        if "step" in declared and "noise_std" in declared and not declared["step"][1]:
            return sim.NormRule(declared["step"][0], declared["noise_std"][0], proportional=declared["noise_std"][1])

        def rule(t, g):
            with np.errstate(divide="ignore", invalid="ignore"):
                return parts["step"](t, g), parts["noise_std"](t, g)

        return rule

    # ------------------------------------------------------------------ quadratic instances
    def _lo(self, pt, num):
        return num(0) if self.problem in ("smooth", "convex") else num(self.map.scalar("curvature", pt))

    def _eigs(self, inst, dps=None):
        pt = inst["point"]
        num = (lambda x: float(x)) if dps is None else mpmath.mpf
        M = num(self.map.scalar("smooth", pt, dps))
        lo = self._lo(pt, num)
        return [lo + num(u) * (M - lo) for u in inst["u"]]

    def _norm(self, eigs, d):
        if self.start == "init_dist":
            return sum(x * x for x in d)
        if self.start == "init_gap":
            return sum(li * x * x for li, x in zip(eigs, d)) / 2
        return sum(li * li * x * x for li, x in zip(eigs, d))

    def problem_at(self, inst, dps=None):
        """(eigenvalues, theta_1 - theta*) of a quadratic instance, in float or mpmath."""
        pt = inst["point"]
        num = (lambda x: float(x)) if dps is None else mpmath.mpf
        with mpmath.workdps(dps or 15):
            eigs = self._eigs(inst, dps)
            d = [num(x) for x in inst["dir"]]
            size = num(self.map.scalar(self.start, pt, dps))
            if self.start in ("init_grad", "init_dist"):
                size = size * size
            norm = self._norm(eigs, d)
            r = (math.sqrt(size / norm) if dps is None else mpmath.sqrt(size / norm))
            return eigs, [x * r for x in d]

    def _usable(self, inst) -> bool:
        return self._norm(self._eigs(inst), inst["dir"]) > 0

    def _empty_class(self, pt) -> bool:
        """A strongly convex class with curvature above the smoothness has no member (no spectrum in [mu, M])."""
        return self.problem == "strongly_convex" and float(self.map.scalar("curvature", pt)) > float(
            self.map.scalar("smooth", pt))

    def strategy(self):
        def build(pt, draw):
            D = self._D(pt)
            if D == 1:
                u = draw(st.sampled_from([0.0, 1.0, None]))
                u = [draw(st.floats(0, 1)) if u is None else u]
            else:
                u = [0.0] + draw(st.lists(st.floats(0, 1), min_size=D - 2, max_size=D - 2)) + [1.0]
            out = {"point": pt, "u": u, "dir": draw(st.lists(st.floats(-1, 1), min_size=D, max_size=D).filter(
                lambda x: sum(a * a for a in x) > 1e-6))}
            if self._empty_class(pt):
                return None
            return out if self._usable(out) else self.instance_at(pt)

        return self.instances_from(build)

    def make_instance(self, point):
        """The canonical quadratic at a point: spectrum {lo, M, .., M}, theta_1 along the top eigenvector."""
        self._require_bound()
        if self._empty_class(point):
            return None
        D = self._D(point)
        u = [1.0] if D == 1 else [0.0] + [1.0] * (D - 1)
        dirn = [0.0] * D
        dirn[D - 1] = 1.0
        return {"point": dict(point), "u": u, "dir": dirn}

    def point(self, inst):
        return inst["point"]

    def with_point(self, inst, point):
        """The same problem at another point of the claim; where the dimension differs there, the
        class's extreme problem in the new dimension."""
        if "problem" not in inst and self._D(point) != len(inst["u"]):
            return self.instance_at(point)
        return {**inst, "point": point}

    # ------------------------------------------------------------------ exact route
    def exact_available(self, inst) -> bool:
        return self.supports_exact and "problem" not in inst

    def path_moments(self, inst, dps=None) -> dict:
        """Per-iterate expectations (excess, grad_norm_sq, dist_sq) along the path of a quadratic instance
        (the last few are kept: a bound's observables and the statistic share one computation)."""
        key = (repr(inst), dps)
        cache = self.__dict__.setdefault("_path_cache", {})
        hit = cache.get(key)
        if hit is None:
            hit = self._path_moments(inst, dps)
            if len(cache) > 8:
                cache.clear()
            cache[key] = hit
        return hit

    def _path_moments(self, inst, dps=None) -> dict:
        pt = inst["point"]
        T = self._T(pt)
        eigs, th = self.problem_at(inst, dps)
        etas = self.map.steps("step", pt, T, dps)
        a = self._var_map.steps("a", pt, T, dps) if self._var_map.has("a") else [0] * T
        b = self._var_map.steps("b", pt, T, dps) if self._var_map.has("b") else [0] * T
        return adaptive_path_moments(eigs, th, etas, a, b, dps)

    def _from_path(self, pm, T, dps):
        add = math.fsum if dps is None else mpmath.fsum
        if self.statistic == "excess":
            return pm["excess"][-1]
        if self.statistic == "increase":
            return pm["excess"][-1] - pm["excess"][0]
        if self.statistic == "dist_sq":
            return pm["dist_sq"][-1]
        g = pm["grad_norm_sq"]
        if self.statistic == "grad_norm_sq":
            return g[-1]
        sel = {"after": g[1:], "steps": g[:-1], "all": g}[self.average]
        return add(sel) / T

    def observe(self, inst, dps=None) -> dict:
        if not self.observe_map:
            return {}
        pm = self.path_moments(inst, dps)
        steps = list(zip(pm["excess"][:-1], pm["grad_norm_sq"][:-1]))
        if dps is None:
            vals = [e / math.sqrt(g2) for e, g2 in steps if g2 > 0]
            radius = max(vals) if vals else 0.0
        else:
            with mpmath.workdps(dps):
                vals = [e / mpmath.sqrt(g2) for e, g2 in steps if g2 > 0]
                radius = max(vals) if vals else mpmath.mpf(0)
        return {name: radius for name, what in self.observe_map.items() if what == "proof_radius"}

    def exact(self, inst, dps=None):
        pm = self.path_moments(inst, dps)
        T = self._T(inst["point"])
        if dps is None:
            return float(self._from_path(pm, T, None))
        with mpmath.workdps(dps):
            return self._from_path(pm, T, dps)

    # ------------------------------------------------------------------ Monte Carlo route
    def measured_constants(self, problem) -> dict:
        return measured_constants(problem)

    def per_run_statistic(self, p, theta1, inst):
        """The per-run statistic ``(theta_final, tracks) -> values`` and the tracks it needs."""
        f1 = float(p.value(theta1[None, :])[0])
        T = self._T(inst["point"])
        star = np.asarray(getattr(p, "theta_star", np.zeros(p.dim)))
        if self.statistic == "excess":
            base, need = (lambda th, tr: p.value(th) - p.f_star), ()
        elif self.statistic == "increase":
            base, need = (lambda th, tr: p.value(th) - f1), ()
        elif self.statistic == "dist_sq":
            base, need = (lambda th, tr: ((th - star) ** 2).sum(axis=1)), ()
        elif self.statistic == "grad_norm_sq":
            base, need = (lambda th, tr: (p.grad(th) ** 2).sum(axis=1)), ()
        elif self.statistic == "max_dist":
            base, need = (lambda th, tr: tr["dist"][:, 1:].max(axis=1)), ("dist",)
        else:
            sl = {"after": slice(1, None), "steps": slice(0, -1), "all": slice(None)}[self.average]
            base, need = (lambda th, tr: tr["grad_norm_sq"][:, sl].sum(axis=1) / T), ("grad_norm_sq",)
        if self._threshold is None:
            return base, need
        thr = float(self._threshold(inst["point"], 30))
        return (lambda th, tr: (base(th, tr) > thr).astype(float)), need

    def build(self, inst):
        """(simulator problem, theta_1) of an instance (a quadratic or a data problem)."""
        if "problem" in inst:
            spec = _data_spec(inst["problem"])
            p = spec.build()
            return p, _start(spec, p)
        eigs, th = self.problem_at(inst)
        return sim.Quadratic(np.asarray(eigs, float)), np.asarray(th, float)

    def monte_carlo(self, inst, runs, seed, chunk_runs):
        if self.params.exprs["noise_std"] == 0:
            runs = 2   # no noise: every run is the same deterministic run (variance 0)
        p, theta1 = self.build(inst)
        stat, need = self.per_run_statistic(p, theta1, inst)
        res = _simulate(p, theta1, self.rule_at(inst["point"]), self._T(inst["point"]), runs, seed,
                        chunk_runs=chunk_runs, statistic=stat, track=need)
        return res.mean, res.var

    def perturb(self, inst, rng, scale):
        """A :class:`~dpverify.scenarios.LogisticData` instance moved inside its class (its start and the
        curvature its data lose along a direction, :meth:`LogisticData.moved`), its constants (gap,
        distance and gradient at the start) measured again; ``None`` for quadratics and
        :class:`CosineData`."""
        if "problem" not in inst or "mc" not in inst:
            return None
        return self.moved_data_instance(inst, _data_spec(inst["problem"]), rng, scale)

    def rounding_tolerance(self, inst, value) -> float:
        pt = inst["point"]
        ops = 8 * (self._T(pt) + 1) * (self._D(pt) + 1)
        return ops * np.finfo(float).eps * (abs(value) + 1.0)

    def describe(self, inst):
        T = self._T(inst["point"])
        if "problem" in inst:
            return f"{_data_spec(inst['problem']).describe()}, T={T}"
        lam = np.asarray(self.problem_at(inst)[0])
        return f"quadratic D={len(lam)} spectrum [{lam.min():.4g}, {lam.max():.4g}] T={T}"


def _affine_variance(noise_std, grad):
    """``(a, b)`` with ``noise_std**2 == a + b * grad**2`` (a, b free of grad), or None."""
    e2 = sp.expand(sp.sympify(noise_std) ** 2)
    if grad not in e2.free_symbols:
        return e2, sp.Integer(0)
    try:
        poly = sp.Poly(e2, grad)
    except sp.PolynomialError:
        return None
    if poly.degree() > 2 or poly.coeff_monomial(grad) != 0:
        return None
    a, b = poly.coeff_monomial(1), poly.coeff_monomial(grad**2)
    if grad in a.free_symbols or grad in b.free_symbols:
        return None
    return a, b


def adaptive_gd(*, problem: str = "smooth", statistic: str = "excess", average: str = "after", exceeds=None,
                observe=None, mc=(), mc_count: int = 3, grad: sp.Symbol = GRAD, index: sp.Symbol = T_INDEX,
                **params) -> AdaptiveGD:
    """Noisy GD with a gradient-norm-adaptive (or fixed) step and noise, in a claim's own symbols.

    >>> import sympy as sp
    >>> M, D, T, R, g = sp.symbols("M D T R g")
    >>> sc = adaptive_gd(problem="convex", smooth=M, step=1 / (2 * M), noise_std=g / sp.sqrt(D), dim=D,
    ...                  horizon=T, init_dist=R)
    """
    return AdaptiveGD(params, problem=problem, statistic=statistic, average=average, exceeds=exceeds,
                      observe=observe, mc=mc, mc_count=mc_count, grad=grad, index=index)
