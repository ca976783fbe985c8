"""Random-round noisy SGD (Ghadimi & Lan's randomised stochastic gradient with Gaussian noise), in
optimisation terms (its privacy with one sample per step: :mod:`dpverify.scenarios.privacy.sampled_gaussian`).

``random_round_sgd(smooth=M, step=eta_t, horizon=T, dim=D, noise_std=s_t, init_gap=Delta)`` measures
an expectation over the random round ``R`` (``P(R = k + 1)`` proportional to ``2 eta_k - M eta_k^2``,
:func:`dpverify.sim.random_round_probabilities`) and the noise: ``statistic="grad_norm_sq"``
(``E||grad F(w_R)||^2``) or ``"excess"`` (``E F(w_R) - F*``); with ``trajectory=True`` the per-run
statistic is ``E[s(w_R) | trajectory]`` (all T steps run) and ``exceeds=expr`` turns it into the
probability that it exceeds ``expr`` (a high-probability bound). Step and noise may use the step
index ``t`` (1..T stands for eta_0..eta_{T-1}). With both ``init_dist`` and ``init_gap`` mapped, an
instance is built from ``init_dist`` and its ``F(w_0) - F*`` is written into the claim's symbol for
``init_gap`` (so a step size or bound may use both). ``integers=("n",)`` names claim parameters the
algorithm needs as integers (e.g. a sample count that sets the horizon): instances snap them to the
nearest integer inside the domain (a claim may declare them real, e.g. for a rate along n). Routes:

* exact on convex diagonal quadratics (spectrum in [0, M], both ends present when D >= 2; the
  gradient is exact and only the Gaussian noise is random), for ``init_gap`` (F(w_0) - F*) or
  ``init_dist`` (||w_0 - w*||) as the claim names it;
* Monte Carlo on data problems (:class:`~dpverify.scenarios.data.ERMData`, one
  uniformly drawn sample per step), whose constants are measured and mapped onto the claim.
"""
from __future__ import annotations

import math

import mpmath
import numpy as np
from hypothesis import strategies as st

from ... import sim
from ...numeric import Compiled
from ..base import MappedScenario
from ..data import ERMData
from ..points import fit_dimension

__all__ = ["RandomRoundSGD", "STATISTICS", "random_round_sgd"]


_SEED, _SHAPE = st.integers(0, 2**32 - 1), st.sampled_from(["ends", "isotropic", "top"])


STATISTICS = ("grad_norm_sq", "excess")


class RandomRoundSGD(MappedScenario):
    """Expectations of random-round noisy SGD (module docstring)."""
    NOISE = ()   # the random output round stays random without noise

    REQUIRED = ("smooth", "step", "horizon", "dim", "noise_std")
    OPTIONAL = ("init_gap", "init_dist", "n_samples", "lipschitz")
    STEPWISE = ("step", "noise_std")
    MEASURED_ORDER = ("dim", "n_samples", "smooth", "init_gap", "init_dist", "lipschitz")

    def __init__(self, params, *, statistic: str = "grad_norm_sq", trajectory: bool = False, exceeds=None,
                 mc: tuple = (), integers: tuple = ()):
        super().__init__(params)
        if statistic not in STATISTICS:
            raise TypeError(f"random_round_sgd: statistic must be one of {STATISTICS}, got {statistic!r}")
        if "init_gap" not in params and "init_dist" not in params:
            raise TypeError("random_round_sgd: give init_gap= (F(w_0) - F*) or init_dist= (||w_0 - w*||)")
        if "init_gap" in params and "init_dist" in params and not getattr(params["init_gap"], "is_Symbol", False):
            raise TypeError("random_round_sgd: with init_dist=, init_gap= must be the claim's symbol that receives "
                            "the instance's F(w_0) - F*")
        self.integers = tuple(integers)
        if exceeds is not None and not trajectory:
            raise TypeError("random_round_sgd: exceeds= applies to the trajectory statistic (trajectory=True)")
        self._set_mc_points("random_round_sgd", mc, quadratic="convex quadratics")
        self.statistic, self.trajectory, self.exceeds = statistic, trajectory, exceeds
        self.indicator = exceeds is not None
        self.geometry = "init_dist" if "init_dist" in params else "init_gap"
        self.gap_symbol = str(params["init_gap"]) if "init_dist" in params and "init_gap" in params else None
        self.supports_exact = not trajectory
        self.supports_monte_carlo = bool(self.mc_spec)
        self.algorithm = "random-round noisy SGD" + (" (whole trajectories)" if trajectory else "")
        self.name = "convex quadratics (spectrum in [0, M]), exact gradients plus Gaussian noise"

    def validate_for(self, claim):
        msg = super().validate_for(claim)
        if msg or self.exceeds is None:
            return msg
        from ...claims import symbol_names

        unknown = sorted(symbol_names(claim.expand(self.exceeds)) - set(claim.domain.params)
                         - {str(k) for k in claim.definitions})
        return f"random_round_sgd: exceeds uses {', '.join(unknown)}" if unknown else None

    def _on_bind(self):
        self._threshold = None if self.exceeds is None else Compiled(self.exceeds, self.claim)
        idx = str(self.params.index)
        self._constant = {k: idx not in {str(x) for x in self.claim.expand(self.params.exprs[k]).free_symbols}
                          for k in ("step", "noise_std")}

    def _steps(self, key, pt, T, dps):
        """Values at t = 1..T; a step-independent expression is evaluated once and repeated."""
        if self._constant[key]:
            return [self.map.scalar(key, pt, dps)] * T
        return self.map.steps(key, pt, T, dps)

    def _values(self, pt, dps=None, steps: bool = True):
        m = self.map
        T = int(round(float(m.scalar("horizon", pt))))
        v = {"T": T, "D": int(round(float(m.scalar("dim", pt)))), "M": m.scalar("smooth", pt, dps),
             "g": m.scalar(self.geometry, pt, dps)}
        if steps:
            v["eta"], v["s"] = self._steps("step", pt, T, dps), self._steps("noise_std", pt, T, dps)
        return v

    # ------------------------------------------------------------------ quadratic instances
    def problem_at(self, inst, dps=None):
        v = self._values(inst["point"], dps, steps=False)
        num = float if dps is None else mpmath.mpf
        with mpmath.workdps(dps or 15):
            M = num(v["M"])
            eigs = [num(u) * M for u in inst["u"]]
            d = [num(x) for x in inst["dir"]]
            if self.geometry == "init_dist":
                r = num(v["g"]) / (mpmath.sqrt(sum(x * x for x in d)) if dps else math.sqrt(sum(x * x for x in d)))
            else:
                q = sum(li * x * x for li, x in zip(eigs, d)) / 2
                r = (mpmath.sqrt(num(v["g"]) / q) if dps else math.sqrt(num(v["g"]) / q))
            return eigs, [x * r for x in d]

    def _usable(self, inst):
        """A gap F(w_0) - F* > 0 needs a direction with positive curvature."""
        if self.geometry == "init_dist":
            return True
        d2 = sum(x * x for x in inst["dir"])
        return sum(u * x * x for u, x in zip(inst["u"], inst["dir"])) > 1e-9 * d2

    def point(self, inst):
        if self.gap_symbol is None or "problem" in inst:
            return inst["point"]
        eigs, ws = self.problem_at(inst)
        return {**inst["point"], self.gap_symbol: 0.5 * sum(li * w * w for li, w in zip(eigs, ws))}

    def with_point(self, inst, point):
        """The same problem at another point (its spectrum and direction fitted to the point's dimension)."""
        point = self._snap(point)
        if "problem" in inst:
            return {**inst, "point": point}
        out = fit_dimension({**inst, "point": point}, self._values(point, steps=False)["D"])
        return out if self._usable(out) else self._base_instance(point)

    def _snap(self, pt):
        pt = dict(pt)
        for k in self.integers:
            v = pt[k]
            for cand in (round(v), math.floor(v), math.ceil(v)):
                trial = {**pt, k: float(cand)}
                if self.claim.domain.contains(trial):
                    pt = trial
                    break
        return pt

    def strategy(self):
        def build(pt, draw):
            pt = self._snap(pt)
            D = self._values(pt, steps=False)["D"]
            rng = np.random.default_rng(draw(_SEED))        # fractions and direction from one drawn seed
            frac = lambda k: np.where(rng.uniform(size=k) < 0.5, rng.uniform(size=k),  # noqa: E731
                                      10.0 ** rng.uniform(-6, 0, size=k)).tolist()
            shape = draw(_SHAPE)
            if shape == "isotropic":       # every eigenvalue the same fraction of M (flat losses included)
                u = frac(1) * D
            elif shape == "top" or D == 1:
                u = [1.0] * D
            else:                          # both ends of [0, M] present
                u = [0.0] + frac(D - 2) + [1.0]
            direction = rng.standard_normal(D).tolist()
            out = {"point": pt, "u": u, "dir": direction}
            return out if self._usable(out) else self._base_instance(pt)

        return self.instances_from(build)

    def make_instance(self, point):
        """The isotropic quadratic at ``point``, or ``None`` when its mapped point leaves the claim's
        hypotheses (the checks then report the pinned point inconclusive)."""
        inst = self._base_instance(point)
        return inst if self.claim.domain.contains(self.point(inst)) else None

    def _base_instance(self, point):
        self._require_bound()
        point = self._snap(point)
        v = self._values(point, steps=False)
        D = v["D"]
        u = [1.0] * D
        if self.gap_symbol is not None:  # the isotropic quadratic whose F(w_0) - F* is the point's
            M, R = float(v["M"]), float(v["g"])
            u = [min(1.0, 2 * float(point[self.gap_symbol]) / (M * R * R))] * D
        direction = [1.0] + [0.0] * (D - 1)
        return {"point": dict(point), "u": u, "dir": direction}

    def exact_available(self, inst) -> bool:
        return self.supports_exact and "problem" not in inst

    def exact(self, inst, dps=None):
        pt = self.point(inst)
        eigs, ws = self.problem_at(inst, dps)
        zero = [0] * len(eigs)
        if self._constant["step"] and self._constant["noise_std"]:   # closed form, R uniform
            m = self.map
            T = int(round(float(m.scalar("horizon", pt))))
            return sim.random_round_quadratic_constant(eigs, zero, ws, m.scalar("step", pt, dps), T,
                                                       m.scalar("noise_std", pt, dps), self.statistic, dps)
        v = self._values(pt, dps)
        probs = self._probs(v, dps)
        return sim.random_round_quadratic(eigs, zero, ws, v["eta"], probs, v["s"], self.statistic, dps)

    @staticmethod
    def _probs(v, dps=None):
        if dps is None:
            return sim.random_round_probabilities(np.asarray(v["eta"], float), float(v["M"]))
        with mpmath.workdps(dps):
            w = [2 * e - v["M"] * e * e for e in v["eta"]]
            tot = mpmath.fsum(w)
            return [x / tot for x in w]

    def observe(self, inst, dps=None):
        return {}

    # ------------------------------------------------------------------ Monte Carlo
    def measured_constants(self, problem) -> dict:
        return problem.measured(None if problem.lam == 0 else 2.0)

    def monte_carlo(self, inst, runs, seed, chunk_runs):
        v = self._values(self.point(inst))
        if "problem" in inst:
            p = ERMData(**inst["problem"]).build()
            w0 = np.zeros(p.dim)
        else:
            eigs, ws = self.problem_at(inst)
            p = sim.Quadratic(np.asarray(eigs, float))
            w0 = np.asarray(ws, float)
        etas, s = np.asarray(v["eta"], float), np.asarray(v["s"], float)
        probs = sim.random_round_probabilities(etas, float(v["M"]))
        if self.statistic == "grad_norm_sq":
            base = lambda w: (p.grad(w) ** 2).sum(axis=1)  # noqa: E731
        else:
            base = lambda w: p.value(w) - p.f_star  # noqa: E731
        seed = seed % (2**63)
        if not self.trajectory:
            res = sim.random_round_sgd(p, w0, etas, probs, s, runs, seed, chunk_runs=chunk_runs, statistic=base)
            return res.mean, res.var
        if self._threshold is None:
            res = sim.trajectory_average(p, w0, etas, probs, s, runs, seed, base, chunk_runs=chunk_runs)
            return res.mean, res.var
        thr = float(self._threshold(self.point(inst), 30))
        traj = sim.trajectory_average(p, w0, etas, probs, s, runs, seed, base, chunk_runs=chunk_runs,
                                      return_values=True)
        hits = (traj > thr).astype(float)
        return float(hits.mean()), float(hits.var(ddof=1))

    def rounding_tolerance(self, inst, value) -> float:
        v = self._values(inst["point"], steps=False)
        return 16 * (v["T"] + 1) * (v["D"] + 1) * np.finfo(float).eps * (abs(value) + 1.0)

    def describe(self, inst):
        v = self._values(inst["point"], steps=False)
        if "problem" in inst:
            return f"{ERMData(**inst['problem']).describe()}, T={v['T']}, one sample per step"
        return f"convex quadratic D={v['D']}, T={v['T']}"


def random_round_sgd(*, statistic: str = "grad_norm_sq", trajectory: bool = False, exceeds=None, mc=(),
                     integers: tuple = (), **params) -> RandomRoundSGD:
    """Random-round noisy SGD in a claim's own symbols (module docstring)."""
    return RandomRoundSGD(params, statistic=statistic, trajectory=trajectory, exceeds=exceeds, mc=mc,
                          integers=integers)
