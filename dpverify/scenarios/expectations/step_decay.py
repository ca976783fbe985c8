"""Step-decay SGD with early momentum (:mod:`dpverify.sim.step_decay`): its expected excess risk
(exact on quadratics, Monte Carlo on non-convex losses); its uniform stability is
:mod:`dpverify.scenarios.stability.step_decay`.

The algorithm family, in optimisation terms: phase k = 1..K runs ``length0 growth^k`` steps of
mini-batch SGD (``batch`` of ``n_samples`` drawn without replacement) with step
``step0 decay^k``, heavy-ball momentum ``momentum`` for its first ``momentum_steps0 growth^k``
steps, Gaussian noise of standard deviation ``noise_std`` per gradient coordinate, and outputs an
iterate drawn uniformly from the phase (``output="after"``: the iterates the steps produce), where
the next phase starts with zero velocity. A claim maps each parameter onto its own symbols::

    step_decay_sgd(smooth=beta, curvature=mu, quasi_convexity=theta, step0=eta0, length0=T0,
                  momentum_steps0=t0, momentum=rho, phases=K, noise_std=pi, dim=d, init_gap=Delta0,
                  batch=B, n_samples=n, sample_var=sigma**2, lipschitz=L)

Problem classes and the hypotheses they honour
----------------------------------------------
Every constant of the standing assumptions is a property of the loss *on the region the iterates
visit* (a bounded loss cannot be Polyak-Lojasiewicz on all of R^d unless it is constant, so these
assumptions are local): the region is the box of ``REGION`` root-mean-squares of every iterate
(exact route) or the box that contains every iterate of every run (Monte Carlo, tracked).

* Exact route: diagonal quadratics ``F(w) = 1/2 sum_j lam_j (w_j - c_j)^2`` with spectrum in
  ``[curvature, smooth]`` (both ends when ``dim >= 2``), per-sample losses ``F(w) + <a_i, w - c>``
  with centred ``a_i`` whose variance is exactly ``sample_var`` (so the bounded-variance assumption
  is tight), mu-PL with ``mu = lam_min``, one-point ``theta``-weakly quasi-convex for every
  ``theta <= 2``; ``lipschitz`` must bound every per-sample gradient on the region and
  ``loss_bound`` half the range of the losses there (else the point is outside the hypotheses).
  Expectations by :func:`~dpverify.sim.step_decay.step_decay_quadratic_moments` (matrix powers),
  confirmed in mpmath.
* Monte Carlo: :class:`~dpverify.scenarios.data.SeparableData` points (e.g. the non-convex ``x^2/2 + (s/2) sin^2 x``), whose
  constants are measured on a box and mapped onto the claim's symbols; a run whose iterates leave
  the box is refused.
"""
from __future__ import annotations

import math

import mpmath
import numpy as np
import sympy as sp

from ... import sim
from ...sim.gradients import wor_batch_variance
from ...sim.problems import SeparableLoss
from ...sim.step_decay import step_decay_sgd
from ...sim.step_decay_moments import peak_second_moment, step_decay_quadratic_moments
from ..base import MappedScenario
from ..data import separable_from_json
from ..points import spectrum_and_direction
from ..sampling import numpy_instances

__all__ = ["REGION", "StepDecaySGD", "step_decay_risk"]


REGION = 6.0


def _shift_rows(n: int, var_split, sample_var: float):
    """Per-sample shifts a_i with sum zero and (1/n) sum_i a_ij^2 = sample_var * var_split_j."""
    nz = n - (n % 2)
    s = np.sqrt(np.asarray(var_split, float) * sample_var * n / max(nz, 1))
    half = n // 2
    a = np.concatenate([np.tile(s, (half, 1)), np.tile(-s, (half, 1))] + ([np.zeros((1, len(s)))] if n % 2 else []))
    return a


class StepDecaySGD(MappedScenario):
    """Expected excess risk ``E F(w_out) - F*`` of step-decay SGD (module docstring)."""
    NOISE = ("noise_std",)

    def noise_free(self):
        return None if "batch" in self.params else super().noise_free()

    REQUIRED = ("smooth", "curvature", "step0", "length0", "momentum_steps0", "momentum", "phases", "noise_std",
                "dim", "init_gap")
    OPTIONAL = ("batch", "n_samples", "sample_var", "lipschitz", "loss_bound", "quasi_convexity", "decay", "growth")
    MEASURED_ORDER = ("dim", "n_samples", "smooth", "curvature", "quasi_convexity", "lipschitz", "sample_var",
                      "init_gap", "loss_bound")
    supports_exact = True

    def __init__(self, params, *, output: str = "after", mc: tuple = (), mc_count: int = 0):
        super().__init__(params)
        if output not in sim.step_decay.OUTPUTS:
            raise TypeError(f"step_decay_sgd: output must be one of {sim.step_decay.OUTPUTS}, got {output!r}")
        self.output = output
        self._set_mc_points("step_decay_sgd", mc, mc_count,
                            also=("diagonal quadratics with per-sample shifts (pinned points)",))
        self.supports_monte_carlo = bool(self.mc_spec)
        self.algorithm = "step-decay SGD with early momentum"
        self.name = "diagonal quadratics with per-sample shifts (spectrum in [mu, beta])"

    # ------------------------------------------------------------------ parameters at a point
    def _values(self, pt, dps=None) -> dict:
        m = self.map
        f = (lambda k: m.scalar(k, pt)) if dps is None else (lambda k: m.scalar(k, pt, dps))
        v = {"K": int(round(float(f("phases")))), "T0": int(round(float(f("length0")))),
             "m0": int(round(float(f("momentum_steps0")))), "D": int(round(float(f("dim")))),
             "beta": f("smooth"), "mu": f("curvature"), "eta0": f("step0"), "rho": f("momentum"),
             "s": f("noise_std"), "gap": f("init_gap")}
        v["decay"] = f("decay") if m.has("decay") else 0.5
        v["growth"] = int(round(float(f("growth")))) if m.has("growth") else 2
        for key, name in (("batch", "B"), ("n_samples", "n")):
            if m.has(key):
                v[name] = int(round(float(f(key))))
        for key in ("sample_var", "lipschitz", "loss_bound", "quasi_convexity"):
            if m.has(key):
                v[key] = f(key)
        return v

    def _schedule(self, v, dps=None):
        K, T0, m0, g = v["K"], v["T0"], v["m0"], v["growth"]
        ks = range(1, K + 1)
        return ([v["eta0"] * v["decay"] ** k for k in ks], [T0 * g**k for k in ks], [m0 * g**k for k in ks])

    def _batch_var(self, v):
        """Variance per unit of sample variance of the mini-batch mean (without replacement)."""
        if "B" not in v or "n" not in v or "sample_var" not in v:
            return 0.0
        return wor_batch_variance(1.0, v["n"], v["B"]) if v["B"] < v["n"] else 0.0

    # ------------------------------------------------------------------ quadratic instances
    def strategy(self):
        self._require_bound()

        def build(pt, rng):
            D = self._values(pt)["D"]
            u = [float(rng.integers(2))] if D == 1 else [0.0] + rng.uniform(0, 1, D - 2).tolist() + [1.0]
            direction = rng.uniform(-1, 1, D)
            direction /= max(np.linalg.norm(direction), 1e-12)
            split = rng.uniform(0.01, 1, D)
            return self._towards_hypotheses({"point": pt, "u": u, "dir": direction.tolist(),
                                             "split": (split / split.sum()).tolist()})

        return numpy_instances(self.claim.domain, build)

    def _towards_hypotheses(self, inst, rounds: int = 4):
        """Move a drawn point into the local hypotheses where a bare symbol allows: raise ``lipschitz`` to
        the largest gradient norm on the region and shrink ``init_gap`` until the losses range over at most
        ``2 loss_bound`` there (a different sampling of the same domain; nothing is assumed)."""
        pt = dict(inst["point"])
        lip = self.params.exprs.get("lipschitz")
        gap = self.params.exprs.get("init_gap")
        for _ in range(rounds):
            cur = {**inst, "point": pt}
            need = self._needs(cur)
            if need is None:
                break
            L_need, rng_, lb = need
            changed = False
            if isinstance(lip, sp.Symbol) and float(self.map.scalar("lipschitz", pt)) < L_need:
                pt[str(lip)] = 1.05 * L_need
                changed = True
            if isinstance(gap, sp.Symbol) and rng_ > 2 * lb:
                pt[str(gap)] = float(pt[str(gap)]) * 0.5 * (2 * lb / rng_)
                changed = True
            if not changed:
                break
        if not self.claim.domain.contains(pt):
            return inst
        return {**inst, "point": pt}

    def make_instance(self, point):
        self._require_bound()
        D = self._values(point)["D"]
        u = [0.0] + [1.0] * (D - 1)
        return {"point": dict(point), "u": u, "dir": [1.0] + [0.0] * (D - 1), "split": [1.0 / D] * D}

    def point(self, inst):
        return inst["point"]

    def with_point(self, inst, point):
        """The same problem at another point of the claim; where the dimension differs there, the
        class's extreme problem in the new dimension."""
        if "problem" not in inst and self._values(point)["D"] != len(inst["u"]):
            return self.instance_at(point)
        return {**inst, "point": point}

    def problem_at(self, inst, dps=None):
        """(eigenvalues, delta_0, per-coordinate gradient-noise variance) of a quadratic instance."""
        v = self._values(inst["point"], dps)
        num = float if dps is None else mpmath.mpf
        with mpmath.workdps(dps or 15):
            eigs, d = spectrum_and_direction(inst, v["mu"], v["beta"], num)
            q = sum(li * x * x for li, x in zip(eigs, d)) / 2
            r = (num(v["gap"]) / q) ** num(0.5) if dps is not None else math.sqrt(float(v["gap"]) / float(q))
            delta0 = [x * r for x in d]
            sv = num(v.get("sample_var", 0))
            bv = num(self._batch_var(v)) if dps is None else mpmath.mpf(self._batch_var(v))
            noise = [num(v["s"]) ** 2 + sv * num(w) * bv for w in inst["split"]]
        return eigs, delta0, noise

    def _needs(self, inst):
        """(largest per-sample gradient norm, range of the per-sample losses, loss_bound) on the region of
        ``REGION`` root-mean-squares of every iterate, or None when the claim maps neither."""
        v = self._values(inst["point"])
        if "lipschitz" not in v and "loss_bound" not in v:
            return None
        eigs, delta0, noise = self.problem_at(inst)
        etas, lengths, mons = self._schedule(v)
        with np.errstate(over="ignore", invalid="ignore"):
            peak = peak_second_moment(eigs, delta0, [float(e) for e in etas], lengths, mons, float(v["rho"]), noise,
                                       None, self.output)
        R = REGION * np.sqrt(peak)
        amax = 0.0
        if "sample_var" in v and "n" in v:
            amax = math.sqrt(float(v["sample_var"]) * v["n"] / max(v["n"] - v["n"] % 2, 1))
        lam = np.asarray(eigs, float)
        with np.errstate(over="ignore", invalid="ignore"):  # an unbounded region is inf: the check says so
            need = float(np.linalg.norm(lam * R)) + amax
            rng_ = float(np.sum(lam * R * R) / 2 + 2 * amax * np.linalg.norm(R))
        return need, rng_, float(v.get("loss_bound", math.inf))

    def _check_hypotheses(self, inst):
        """Raise ValueError when the instance leaves the claim's hypotheses (module docstring)."""
        v = self._values(inst["point"])
        if "quasi_convexity" in v and v["quasi_convexity"] > 2 * (1 + 1e-12):
            raise ValueError(f"a quadratic is theta-weakly quasi-convex only for theta <= 2, got {v['quasi_convexity']}")
        need = self._needs(inst)
        if need is None:
            return
        L_need, rng_, lb = need
        if not (math.isfinite(L_need) and math.isfinite(rng_)):
            raise ValueError("the iterates' second moments overflow: no bounded region")
        if "lipschitz" in v and float(v["lipschitz"]) < L_need:
            raise ValueError(f"lipschitz = {float(v['lipschitz']):.4g} is below the largest per-sample gradient "
                             f"norm {L_need:.4g} on the region the iterates visit")
        if rng_ > 2 * lb:
            raise ValueError(f"the losses range over {rng_:.4g} on the region, more than 2 * loss_bound")

    def exact_available(self, inst) -> bool:
        return "problem" not in inst

    def exact(self, inst, dps=None):
        v = self._values(inst["point"], dps)
        if dps is not None:  # every point that decides a verdict is checked against the hypotheses
            self._check_hypotheses(inst)
        eigs, delta0, noise = self.problem_at(inst, dps)
        etas, lengths, mons = self._schedule(v, dps)
        if dps is None:
            with np.errstate(over="ignore", invalid="ignore"):  # a diverging schedule gives inf: the checks refuse it
                _, S = step_decay_quadratic_moments(eigs, delta0, [float(e) for e in etas], lengths, mons,
                                                   float(v["rho"]), noise, output=self.output)
                return float(np.dot(eigs, S) / 2)
        with mpmath.workdps(dps):
            _, S = step_decay_quadratic_moments(eigs, delta0, etas, lengths, mons, v["rho"], noise,
                                               output=self.output, dps=dps)
            return mpmath.fsum(li * s for li, s in zip(eigs, S)) / 2

    # ------------------------------------------------------------------ Monte Carlo route
    def measured_constants(self, problem) -> dict:
        return {key: val for key, val in problem.measured().items() if self.map.has(key)}

    #: measured constant -> the claim's value must be at least (+1) or at most (-1) the measured one
    _DIRECTION = {"smooth": 1, "lipschitz": 1, "sample_var": 1, "loss_bound": 1, "curvature": -1,
                  "quasi_convexity": -1, "init_gap": 0, "dim": 0, "n_samples": 0}

    def admits(self, measured, pt) -> bool:
        """Whether the claim's constants at ``pt`` are valid for the measured ones (e.g. its L is at least
        the measured Lipschitz constant, its mu at most the measured PL constant)."""
        for key, val in measured.items():
            claimed = float(self.map.scalar(key, pt))
            sgn = self._DIRECTION.get(key, 0)
            tol = 1e-9 * max(1.0, abs(val))
            if (sgn > 0 and claimed < val - tol) or (sgn < 0 and claimed > val + tol) or (
                    sgn == 0 and abs(claimed - val) > tol):
                return False
        return True

    def monte_carlo(self, inst, runs, seed, chunk_runs):
        v = self._values(inst["point"])
        etas, lengths, mons = self._schedule(v)
        if "problem" in inst:
            spec = separable_from_json(inst["problem"])
            p = spec.build()
            theta0 = spec.theta0()
            res = step_decay_sgd(p, theta0, etas, lengths, mons, float(v["rho"]), float(v["s"]), v.get("B"), runs,
                                seed, output=self.output, chunk_runs=chunk_runs, track_from=np.zeros(p.dim),
                                box=True)
            if not res.max_dist <= spec.region:
                raise ValueError(f"an iterate left the box |w_j| <= {spec.region} where the constants were measured "
                                 f"(reached {res.max_dist:.4g})")
            return res.mean, res.var
        eigs, delta0, _ = self.problem_at(inst)
        n = v.get("n", 2)
        a = _shift_rows(n, inst["split"], float(v.get("sample_var", 0.0)))
        p = SeparableLoss("quadratic", (1.0,), np.zeros(v["D"]), a, weights=eigs)
        res = step_decay_sgd(p, np.asarray(delta0), etas, lengths, mons, float(v["rho"]), float(v["s"]), v.get("B"),
                            runs, seed, output=self.output, chunk_runs=chunk_runs)
        return res.mean, res.var

    def describe(self, inst):
        v = self._values(inst["point"])
        sched = (f"K={v['K']}, T0={v['T0']}, t0_mon={v['m0']}, eta0={float(v['eta0']):.4g}, rho={float(v['rho']):.3g}, "
                 f"noise std {float(v['s']):.3g}")
        if "problem" in inst:
            return f"{separable_from_json(inst['problem']).describe()}, {sched}"
        eigs = self.problem_at(inst)[0]
        return f"quadratic D={len(eigs)}, spectrum [{min(eigs):.4g}, {max(eigs):.4g}], {sched}"


def step_decay_risk(*, output: str = "after", mc=(), mc_count: int = 0, **params) -> StepDecaySGD:
    """The expected excess risk of step-decay SGD with early momentum, in a claim's own symbols."""
    return StepDecaySGD(params, output=output, mc=mc, mc_count=mc_count)
