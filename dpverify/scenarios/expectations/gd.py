"""Noisy gradient descent, with optional momentum (bias-corrected or Polyak's heavy ball) and mini-batches.

The algorithm family, in optimisation terms::

    g_t         = grad f(theta_t) + s_t z_t,            z_t ~ N(0, I_D)   (full batch), or
    g_t         = mean of grad f(theta_t; x_j) over a batch (drawn with or without replacement) + s_t z_t,
    theta_{t+1} = theta_t - eta_t g_t                                      (plain), or
    v_{t+1}     = beta v_t + (1 - beta) g_t,  theta_{t+1} = theta_t - eta_t v_{t+1} / (1 - beta^t)
                                                   (momentum=beta, the default momentum_form="bias_corrected"), or
    theta_{t+1} = theta_t - eta_t g_t + beta (theta_t - theta_{t-1}),  theta_0 = theta_1
                                                   (momentum=beta, momentum_form="heavy_ball": Polyak)

for t = 1..T, from theta_1. Its parameters: ``smooth`` (M), ``curvature`` (mu, the PL or strong
convexity constant), ``step`` (eta_t), ``noise_std`` (s_t, the standard deviation of the gradient
noise per coordinate), ``dim`` (D), ``horizon`` (T), ``init_gap`` (f(theta_1) - f*) or
``init_dist`` (||theta_1 - theta*||), ``momentum`` (beta), ``batch``, ``n_samples`` and ``feature_norm``
(the largest feature norm of a data problem, measured). A claim maps
each onto its own symbols; ``step`` and ``noise_std`` may use the step index ``t``::

    noisy_gd(problem="pl", smooth=M, curvature=mu, step=1 / M, noise_std=s, dim=D, horizon=T,
             init_gap=Delta)

Problem classes (``problem=``): ``"pl"`` and ``"strongly_convex"`` (diagonal quadratics with
Hessian spectrum in [mu, M], both ends present when D >= 2: M-smooth, mu-strongly convex, hence
mu-PL) and ``"convex"`` (spectrum in [0, M]). Expectations on quadratics are exact (moment
propagation, confirmed in mpmath when close); Monte Carlo runs on quadratics or on ridge logistic
regression on data (:class:`LogisticData`), whose smoothness, curvature, dimension, sample count and
initial gap are *measured* and mapped back onto the claim's symbols.

``problem="logistic"`` is ridge logistic regression on data alone (Monte Carlo only, on the ``mc`` points'
:class:`LogisticData`; no quadratic stands in for it).

Adversarial search over the data (every claim with data problems among its ``mc`` points): before the
Monte Carlo check, :func:`~dpverify.search.climb` moves a data problem's start theta_1 and the direction
and share of curvature its data lose (:meth:`NoisyGD.perturb`; feature norms stay at most the data's
scale), ``ADVERSARY_BUDGET`` evaluations of ``adversary_runs`` runs with one seed for all (common random
numbers), minimising the relative margin; the instance it reaches replaces the drawn point it started
from and is measured with that point's own seed (``dpverify check --adversary 4`` spends four times
the budget, ``0`` none). The evidence says which instance was chosen and how (``data["adversary"]``).

Statistics (``statistic=``): ``"excess"`` E f(theta_{T+1}) - f*, ``"normalised_excess"`` that over
f(theta_1) - f*, ``"dist_sq"`` E||theta_{T+1} - theta*||^2, ``"grad_norm_sq"`` E||grad f(theta_{T+1})||^2.
``exceeds=expr`` turns the statistic into the probability that one run's value exceeds ``expr``.
Observables (``observe={"v2": "velocity_sq"}``): E||v_{t+1}||^2 for t = 1..T (bias-corrected momentum,
exact route), usable in a bound as ``v2[t]``.

The algorithm is made of parts, passed through to the simulator (:func:`dpverify.sim.descent.simulate`):
an update rule (``update=``, :mod:`dpverify.sim.updates`: ``Plain()``, ``BiasCorrectedMomentum(beta)``,
``HeavyBall(beta)``) and a gradient source (``gradient=``, :mod:`dpverify.sim.gradients`: ``FullGradient()``,
``MiniBatch(B)`` with or without replacement, ``OneSample()``, clipped per sample with ``clip=``), whose
parameters may be expressions in the claim's symbols (``HeavyBall(beta)`` maps ``momentum``, ``MiniBatch(B)``
maps ``batch``).  ``momentum=beta`` with ``momentum_form`` and ``batch=B`` are the same parts written as
parameters.  Exact moments on quadratics come from the update rule (its recursion per eigen-direction) with
full gradients; Monte Carlo runs any combination (DP-SGD with heavy ball on mini-batches:
``update=HeavyBall(beta), gradient=MiniBatch(B)`` on a data problem).  E.g. Polyak's parameters on a
strongly convex quadratic::

    noisy_gd(problem="strongly_convex", smooth=M, curvature=mu, step=4 / (sp.sqrt(M) + sp.sqrt(mu))**2,
             momentum=((sp.sqrt(M) - sp.sqrt(mu)) / (sp.sqrt(M) + sp.sqrt(mu)))**2, momentum_form="heavy_ball",
             noise_std=0, dim=D, horizon=T, init_dist=R, statistic="dist_sq")
"""
from __future__ import annotations

import math
from typing import Any, Mapping

import mpmath
import numpy as np
import sympy as sp
from hypothesis import strategies as st

from ... import sim
from ...numeric import Compiled, golden_section
from ...search import EvaluationError
from ...sim import gradients as sim_gradients
from ...sim import updates as sim_updates
from ..base import MappedScenario
from ..data import LogisticData
from ..params import T_INDEX

__all__ = ["MOMENTUM_FORMS", "NoisyGD", "OBSERVABLES", "PROBLEMS", "STATISTICS", "noisy_gd"]


PROBLEMS = ("pl", "strongly_convex", "convex", "logistic")


STATISTICS = ("excess", "normalised_excess", "dist_sq", "grad_norm_sq")


OBSERVABLES = ("velocity_sq",)


#: evaluations of the adversarial search over a data problem's start and data (common random numbers,
#: ``Scenario.adversary_runs`` runs each), per statement
ADVERSARY_BUDGET = 16


#: the update rule ``momentum=`` makes, by ``momentum_form``
MOMENTUM_FORMS = {"bias_corrected": sim_updates.BiasCorrectedMomentum, "heavy_ball": sim_updates.HeavyBall}


class NoisyGD(MappedScenario):
    """Noisy gradient descent (module docstring) in a user's own symbols."""
    NOISE = ("noise_std",)

    def noise_free(self):
        return None if self.gradient.samples else super().noise_free()

    REQUIRED = ("smooth", "step", "noise_std", "dim", "horizon")
    OPTIONAL = ("curvature", "init_gap", "init_dist", "momentum", "batch", "n_samples", "feature_norm")
    STEPWISE = ("step", "noise_std")
    MEASURED_ORDER = ("dim", "n_samples", "smooth", "curvature", "init_gap", "feature_norm")

    def __init__(self, params: Mapping[str, Any], *, problem: str = "pl", statistic: str = "excess",
                 exceeds=None, observe: Mapping[str, str] | None = None, mc: tuple = (),
                 mc_count: int = 3, index: sp.Symbol = T_INDEX, momentum_form: str = "bias_corrected",
                 update: sim_updates.UpdateRule | None = None, gradient: sim_gradients.GradientSource | None = None):
        params = dict(params)
        if momentum_form not in MOMENTUM_FORMS:
            raise TypeError(f"noisy_gd: momentum_form must be one of {tuple(MOMENTUM_FORMS)}, got {momentum_form!r}")
        if momentum_form == "heavy_ball" and "momentum" not in params and update is None:
            raise TypeError("noisy_gd: momentum_form='heavy_ball' needs momentum= (beta)")
        if update is None:
            update = MOMENTUM_FORMS[momentum_form](params["momentum"]) if "momentum" in params else sim_updates.Plain()
        if gradient is None:
            gradient = sim_gradients.MiniBatch(params["batch"]) if "batch" in params else sim_gradients.FullGradient()
        if not isinstance(update, sim_updates.UpdateRule) or not isinstance(gradient, sim_gradients.GradientSource):
            raise TypeError(f"noisy_gd: update= must be a dpverify.sim.updates rule and gradient= a "
                            f"dpverify.sim.gradients source, got {update!r} and {gradient!r}")
        for key, expr in {**update.scenario_params(), **gradient.scenario_params()}.items():
            if key in params and params[key] is not expr:
                raise TypeError(f"noisy_gd: give {key} once, in the parts (update=, gradient=) or as {key}=")
            params[key] = expr
        super().__init__(params, index)
        self.update, self.gradient = update, gradient
        if problem not in PROBLEMS:
            raise TypeError(f"noisy_gd: problem must be one of {PROBLEMS}, got {problem!r}")
        if statistic not in STATISTICS:
            raise TypeError(f"noisy_gd: statistic must be one of {STATISTICS}, got {statistic!r}")
        if problem == "logistic" and not any(m.problem != "quadratic" for m in mc):
            raise TypeError("noisy_gd: problem='logistic' runs on data problems only: give mc=(MCPoint(LogisticData(...)), ...)")
        if problem in ("pl", "strongly_convex") and "curvature" not in params:
            raise TypeError(f"noisy_gd: problem={problem!r} needs curvature= (the PL / strong convexity constant)")
        if "init_gap" in params and "init_dist" in params:
            raise TypeError("noisy_gd: give init_gap or init_dist, not both")
        if "init_gap" not in params and "init_dist" not in params and statistic != "normalised_excess":
            raise TypeError("noisy_gd: give init_gap= (f(theta_1) - f*) or init_dist= (||theta_1 - theta*||)")
        self.observe_map = dict(observe or {})
        for name, what in self.observe_map.items():
            if what not in OBSERVABLES:
                raise TypeError(f"noisy_gd: observable {name} = {what!r} is not one of {OBSERVABLES}")
            if what not in update.OBSERVABLES:
                raise TypeError(f"noisy_gd: {what} is observed only with bias-corrected momentum (momentum=), "
                                f"not with {update.name}")
        self.problem, self.statistic, self.exceeds = problem, statistic, exceeds
        self.indicator = exceeds is not None
        self._set_mc_points("noisy_gd", mc, mc_count)
        if not self.mc_spec and exceeds is not None:
            raise TypeError("noisy_gd: exceeds= is a Monte Carlo statistic; give mc= points or mc_count > 0")
        self.supports_exact = exceeds is None and not gradient.samples and problem != "logistic"
        # the data problems' start and data are searched adversarially before the Monte Carlo check
        self.adversary_budget = ADVERSARY_BUDGET if any(m.problem != "quadratic" for m in self.mc_spec) else 0
        self.supports_monte_carlo = not self.observe_map and bool(self.mc_spec)
        mom = "" if isinstance(update, sim_updates.Plain) else f"{update.name} "
        sgd = "mini-batch SGD" if gradient.samples else "gradient descent"
        self.algorithm = f"noisy {mom}{sgd}"
        self.name = {"pl": "diagonal quadratic (spectrum in [mu, M])",
                     "strongly_convex": "diagonal quadratic (spectrum in [mu, M])",
                     "convex": "diagonal quadratic (spectrum in [0, M])",
                     "logistic": "ridge logistic regression on data (feature norms at most the data's scale)"}[problem]

    def validate_for(self, claim):
        msg = super().validate_for(claim)
        if msg:
            return msg
        if self.exceeds is not None:
            from ...claims import symbol_names

            unknown = sorted(symbol_names(claim.expand(sp.sympify(self.exceeds))) - set(claim.domain.params)
                             - {str(k) for k in claim.definitions})
            if unknown:
                return f"noisy_gd: exceeds uses {', '.join(unknown)}, which are not parameters of the claim"
        return None

    def _on_bind(self):
        self._threshold = None if self.exceeds is None else Compiled(self.exceeds, self.claim)

    # ------------------------------------------------------------------ parameters at a point
    def _values(self, pt, dps=None):
        m = self.map
        T = int(round(float(m.scalar("horizon", pt))))
        D = int(round(float(m.scalar("dim", pt))))
        v = {"T": T, "D": D, "M": m.scalar("smooth", pt, dps),
             "eta": m.steps("step", pt, T, dps), "s": m.steps("noise_std", pt, T, dps)}
        for k in ("curvature", "init_gap", "init_dist", "momentum", "batch"):
            if m.has(k):
                v[k] = m.scalar(k, pt, dps)
        return v

    # ------------------------------------------------------------------ quadratic instances
    # An instance stores the spectrum as fractions u of [lo, M] (lo = mu, or 0 for convex problems)
    # and the direction of theta_1; eigenvalues and theta_1 are computed from the claim's point at
    # the working precision, so that the problem has exactly the point's M, mu and initial gap.
    def _draw_fractions(self, D, draw):
        if D == 1:
            u = draw(st.sampled_from([0.0, 1.0, None]))
            return [draw(st.floats(0, 1)) if u is None else u]
        return [0.0] + draw(st.lists(st.floats(0, 1), min_size=D - 2, max_size=D - 2)) + [1.0]

    def _canonical_fractions(self, D):
        if self.problem == "convex":
            return [1.0] if D == 1 else [0.0] + [1.0] * (D - 1)
        return [0.0] + [1.0] * (D - 1)

    def problem_at(self, inst, dps=None):
        """(eigenvalues, theta_1) of a quadratic instance, in float (dps None) or mpmath."""
        v = self._values(inst["point"], dps)
        num = (lambda x: float(x)) if dps is None else mpmath.mpf
        M = num(v["M"])
        lo = num(0) if self.problem == "convex" else num(v["curvature"])
        with mpmath.workdps(dps or 15):
            eigs = [lo + num(u) * (M - lo) for u in inst["u"]]
            d = [num(x) for x in inst["dir"]]
            if "init_dist" in v:
                r = num(v["init_dist"]) / _sqrt(sum(x * x for x in d), dps)
            else:
                q = sum(li * x * x for li, x in zip(eigs, d)) / 2
                if not q > 0:   # the start on eigenvalue 0 of a convex quadratic: f(theta_1) - f* is 0, not Delta
                    raise EvaluationError("noisy_gd: the start lies on the eigenvalue 0 of the convex quadratic, "
                                          "where no initial gap init_gap > 0 can be met")
                r = _sqrt(num(v.get("init_gap", 1)) / q, dps)
            return eigs, [x * r for x in d]

    def _usable(self, inst) -> bool:
        """Whether the instance can meet its initial condition: a convex quadratic with ``init_gap`` needs the
        start off the eigenvalue 0 (``sum lambda_i d_i^2 > 0``), checked before any scaling divides by it."""
        v = self._values(inst["point"])
        if self.problem != "convex" or "init_dist" in v:
            return True
        M = float(v["M"])
        return sum(float(u) * M * float(x) * float(x) for u, x in zip(inst["u"], inst["dir"])) > 0

    def strategy(self):
        if self.problem == "logistic":
            return None   # the class's instances are data problems: the Monte Carlo points and their adversary
        def build(pt, draw):
            # one problem in four is the class's extreme one (spectrum at its ends, theta_1 on the
            # slowest direction: where contraction bounds are tight); the rest are general
            kind = draw(st.integers(0, 3))
            if kind == 0:
                return self.instance_at(pt)
            if kind == 1 and self._has_slow_mode(pt):
                return self._slow_mode_instance(pt)
            if kind == 1 and self.problem != "convex" and self.supports_exact:
                return self._canonical_instance(pt)   # instance_at is the extreme one: keep the canonical too
            D = self._values(pt)["D"]
            out = {"point": pt, "u": self._draw_fractions(D, draw),
                   "dir": draw(st.lists(st.floats(-1, 1), min_size=D, max_size=D).filter(
                       lambda x: sum(a * a for a in x) > 1e-6))}
            return out if self._usable(out) else self.instance_at(pt)

        return self.instances_from(build)

    def _has_slow_mode(self, pt) -> bool:
        return self.problem == "convex" and self.map.has("init_dist") and "batch" not in self.params

    def _slow_mode_instance(self, pt):
        """The convex class's worst case for a start at distance R, which random spectra rarely draw:
        every eigenvalue at the lambda maximising the noise-free excess ``lambda/2 prod_t (1 - eta_t
        lambda)^2 R^2`` (``M/(2T + 1)`` for the constant step ``1/M``), theta_1 along the first axis."""
        v = self._values(pt)
        M = float(v["M"])
        lam = self._slow_lambda(v)
        D = v["D"]
        return {"point": pt, "u": [min(1.0, lam / M)] * D, "dir": [1.0] + [0.0] * (D - 1)}

    @staticmethod
    def _slow_lambda(v) -> float:
        """The lambda in (0, M] maximising the noise-free excess ``lambda/2 prod_t (1 - eta_t lambda)^2``
        from a start at a fixed distance (``M/(2T + 1)`` for the constant step ``1/M``)."""
        M, etas = float(v["M"]), np.array([float(e) for e in v["eta"]], dtype=float)

        def log_excess(log_lam):
            lam = math.exp(log_lam)
            with np.errstate(divide="ignore"):
                return log_lam + 2 * float(np.sum(np.log(np.abs(1 - etas * lam))))

        # unimodal on [0, min(M, 1/max eta)]; beyond it (steps above 1/M) the canonical instance has lambda = M
        log_lam, _ = golden_section(lambda x: -log_excess(x), math.log(M) - 40, math.log(M), 80)
        return math.exp(log_lam)

    def _extreme_instance(self, pt):
        """The spectrum class's worst problem at ``pt`` among its extreme candidates, by the exact
        statistic: theta_1 on one eigenvalue placed at mu, at M (where ``|1 - eta lambda|`` is largest
        for long steps) or at the slow mode clipped to [mu, M] (the excess from a start at distance R),
        the other eigenvalues at the ends so that the problem keeps the point's mu and M."""
        v = self._values(pt)
        D, M, lo = v["D"], float(v["M"]), float(v["curvature"])
        slow = (min(max(self._slow_lambda(v), lo), M) - lo) / (M - lo) if M > lo else 0.0
        cands = [self._canonical_instance(pt)]
        for f in (0.0, 1.0, slow):
            if D == 1:
                cands.append({"point": pt, "u": [f], "dir": [1.0]})
            elif D == 2:
                cands.append({"point": pt, "u": [0.0, 1.0], "dir": [1.0 - f, f] if f in (0.0, 1.0) else [1.0, 0.0]})
            else:
                cands.append({"point": pt, "u": [f, 0.0] + [1.0] * (D - 2), "dir": [1.0] + [0.0] * (D - 1)})
        scored = []
        for inst in cands:
            try:
                val = float(self.exact(inst))
            except (ArithmeticError, ValueError):
                continue
            if math.isfinite(val):
                scored.append((val, inst))
        return max(scored, key=lambda x: x[0])[1] if scored else cands[0]

    def make_instance(self, point):
        self._require_bound()
        if self.problem == "logistic":
            return None   # a data problem's constants are measured, never set by a point
        if self._has_slow_mode(point):   # a convex start at distance R: the slowest mode is the extreme problem
            return self._slow_mode_instance(point)
        if self.problem != "convex" and self.supports_exact:
            return self._extreme_instance(point)
        return self._canonical_instance(point)

    def _canonical_instance(self, point):
        D = self._values(point)["D"]
        u = self._canonical_fractions(D)
        k = 0 if self.problem != "convex" else max(range(D), key=lambda i: u[i])
        dirn = [0.0] * D
        dirn[k] = 1.0
        return {"point": dict(point), "u": u, "dir": dirn}

    def point(self, inst):
        return inst["point"]

    def with_point(self, inst, point):
        """The same problem (spectrum fractions, direction) at another point of the claim; where the
        dimension differs there, the class's extreme problem in the new dimension."""
        if self._values(point)["D"] != len(inst["u"]):
            return self.instance_at(point)
        return {**inst, "point": point}

    # ------------------------------------------------------------------ exact route
    def _moments(self, inst, dps):
        """``(lam, m, s2, extra)`` per direction: the update rule's exact moments on the quadratic instance."""
        v = self._values(inst["point"], dps)
        eigs, th = self.problem_at(inst, dps)
        return self.update.at(v).quadratic_moments(eigs, th, v["eta"], v["s"], dps)

    def _stat_from_moments(self, lam, m, s2, th, dps):
        if dps is None:
            lam, m, s2, th = (np.asarray(x, float) for x in (lam, m, s2, th))
            e2 = m * m + s2
            if self.statistic == "excess":
                return float(0.5 * lam @ e2)
            if self.statistic == "normalised_excess":
                return float((0.5 * lam @ e2) / (0.5 * lam @ (th * th)))
            if self.statistic == "dist_sq":
                return float(e2.sum())
            return float((lam * lam) @ e2)
        with mpmath.workdps(dps):
            th = [mpmath.mpf(x) for x in th]
            e2 = [a * a + b for a, b in zip(m, s2)]
            if self.statistic == "excess":
                return mpmath.fsum(li * e / 2 for li, e in zip(lam, e2))
            if self.statistic == "normalised_excess":
                return (mpmath.fsum(li * e for li, e in zip(lam, e2))
                        / mpmath.fsum(li * x * x for li, x in zip(lam, th)))
            if self.statistic == "dist_sq":
                return mpmath.fsum(e2)
            return mpmath.fsum(li * li * e for li, e in zip(lam, e2))

    def exact_available(self, inst) -> bool:
        return self.supports_exact and "problem" not in inst

    def exact(self, inst, dps=None):
        lam, m, s2, _ = self._moments(inst, dps)
        return self._stat_from_moments(lam, m, s2, self.problem_at(inst, dps)[1], dps)

    def observe(self, inst, dps=None):
        if not self.observe_map:
            return {}
        _, _, _, vel = self._moments(inst, dps)
        return {name: list(vel) for name, what in self.observe_map.items() if what == "velocity_sq"}

    # ------------------------------------------------------------------ Monte Carlo route
    def _data_problem(self, inst):
        spec = dict(inst["problem"])
        spec.pop("family")
        return LogisticData(**spec)

    def monte_carlo(self, inst, runs, seed, chunk_runs):
        v = self._values(inst["point"])
        etas, s = np.asarray(v["eta"], float), np.asarray(v["s"], float)
        if "problem" in inst:
            spec = self._data_problem(inst)
            p = spec.build()
            theta1 = spec.theta1()
        else:
            eigs, th = self.problem_at(inst)
            p = sim.Quadratic(np.asarray(eigs, float))
            theta1 = np.asarray(th, float)
        stat = self._per_run_statistic(p, theta1, inst)
        source = self.gradient.at(v)
        if source.samples and "problem" not in inst:
            raise ValueError("mini-batch SGD needs a data problem (MCPoint(problem=LogisticData(...)))")
        res = sim.simulate(p, theta1, etas, s, runs, seed, update=self.update.at(v), gradient=source,
                           chunk_runs=chunk_runs, statistic=stat)
        return res.mean, res.var

    def _per_run_statistic(self, p, theta1, inst):
        f0 = float(p.value(theta1[None, :])[0] - p.f_star)
        star = getattr(p, "theta_star", None)
        if self.statistic == "excess":
            base = lambda th: p.value(th) - p.f_star  # noqa: E731
        elif self.statistic == "normalised_excess":
            base = lambda th: (p.value(th) - p.f_star) / f0  # noqa: E731
        elif self.statistic == "dist_sq":
            base = lambda th: ((th - star) ** 2).sum(axis=1)  # noqa: E731
        else:
            base = lambda th: (p.grad(th) ** 2).sum(axis=1)  # noqa: E731
        if self._threshold is None:
            return base
        thr = float(self._threshold(inst["point"], 30))
        return lambda th: (base(th) > thr).astype(float)

    def perturb(self, inst, rng, scale):
        """A data instance moved inside its class (:meth:`LogisticData.moved`: the start theta_1 and the
        direction and share of curvature taken from the data); the measured constants and the point are
        computed again (:meth:`~dpverify.scenarios.base.MappedScenario.moved_data_instance`); ``None`` for
        a quadratic instance or a point the move takes outside the hypotheses."""
        if "problem" not in inst or "mc" not in inst:
            return None
        return self.moved_data_instance(inst, self._data_problem(inst), rng, scale)

    def rounding_tolerance(self, inst, value) -> float:
        """An absolute bound on the float64 error of one deterministic run's statistic."""
        v = self._values(inst["point"])
        ops = 8 * (v["T"] + 1) * (v["D"] + 1)
        scale = abs(value) + (float(v.get("init_gap", 1.0)) if "init_gap" in v else 1.0)
        return ops * np.finfo(float).eps * scale

    def describe(self, inst):
        pt = inst["point"]
        v = self._values(pt)
        extra = self.update.at(v).summary()
        if "problem" in inst:
            return f"{self._data_problem(inst).describe()}, T={v['T']}{extra}"
        lam = np.asarray(self.problem_at(inst)[0])
        pos = lam[lam > 0]
        cond = (lam.max() / pos.min()) if pos.size else float("inf")
        return f"quadratic D={len(lam)} M/mu={cond:.4g} T={v['T']}{extra}"


def _sqrt(x, dps):
    return math.sqrt(x) if dps is None else mpmath.sqrt(x)


def noisy_gd(*, problem: str = "pl", statistic: str = "excess", exceeds=None, observe=None, mc=(),
             mc_count: int = 3, index: sp.Symbol = T_INDEX, momentum_form: str = "bias_corrected",
             update=None, gradient=None, **params) -> NoisyGD:
    """Noisy gradient descent in a claim's own symbols (see the module docstring).

    ``update=`` and ``gradient=`` are the algorithm's parts (:mod:`dpverify.sim.updates`,
    :mod:`dpverify.sim.gradients`), passed through to the simulator; their parameters may be expressions
    in the claim's symbols.  ``momentum=beta`` is the same as ``update=BiasCorrectedMomentum(beta)``
    (``momentum_form="bias_corrected"``, the default: Adam's first moment with its bias correction) or
    ``update=HeavyBall(beta)`` (``momentum_form="heavy_ball"``: Polyak, ``theta_{t+1} = theta_t - eta_t g_t
    + beta (theta_t - theta_{t-1})``); ``batch=B`` the same as ``gradient=MiniBatch(B)``.

    >>> import sympy as sp
    >>> from dpverify.sim import HeavyBall, MiniBatch
    >>> M, mu, s, T, B = sp.symbols("M mu s T B")
    >>> sc = noisy_gd(problem="pl", smooth=M, curvature=mu, step=1 / M, noise_std=s, dim=1, horizon=T,
    ...               init_gap=1)
    >>> hb = noisy_gd(problem="strongly_convex", smooth=M, curvature=mu, step=1 / M, momentum=sp.Rational(1, 4),
    ...               momentum_form="heavy_ball", noise_std=s, dim=2, horizon=T, init_dist=1, statistic="dist_sq")
    >>> dp_sgd = noisy_gd(problem="logistic", smooth=M, curvature=mu, step=1 / M, noise_std=s, dim=3, horizon=T,
    ...                   init_gap=1, update=HeavyBall(sp.Rational(1, 4)), gradient=MiniBatch(B, clip=1),
    ...                   mc=(MCPoint(LogisticData(n=50, d=3)),))
    """
    return NoisyGD(params, problem=problem, statistic=statistic, exceeds=exceeds, observe=observe, mc=mc,
                   mc_count=mc_count, index=index, momentum_form=momentum_form, update=update, gradient=gradient)
