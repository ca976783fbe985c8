"""Output perturbation of gradient descent: its utility (an expectation), in optimisation terms (its
privacy on neighbouring data sets: :mod:`dpverify.scenarios.privacy.output_perturbation`).

``output_perturbation_gd(noise=..., smooth=M, curvature=mu, step=eta, horizon=T, dim=D,
noise_scale=b, init_dist=R)`` measures ``E F(w_T + z) - F*`` for ``T`` steps of gradient descent from
``w_0`` with ``||w_0 - w*|| <= R`` followed by one draw of ``z`` (:mod:`dpverify.sim.output_perturbation`:
``"norm_laplace"`` with density proportional to ``exp(-||z||/b)``, or ``"gaussian"`` with std ``b``):

* exactly on quadratics whose Hessian spectrum lies in ``[mu, M]`` (both ends present when D >= 2;
  ``[0, M]`` without ``curvature``), ``||w_0 - w*|| = r R`` with the fraction ``r`` drawn in
  ``[0, 1]``, in double precision and in mpmath where close (the exact check);
* by Monte Carlo on data problems (:class:`~dpverify.scenarios.data.ERMData`: ridge logistic, Huber or least squares
  regression on scikit-learn generated data), whose constants are *measured* and mapped onto the
  claim's symbols: per-sample smoothness ``c max||x||^2 + lam``, curvature ``lam``, ``D``, ``n``,
  ``R = ||w*||`` (``w_0 = 0``) and the Lipschitz constant on the ball of radius
  ``lipschitz_radius * R`` (``None``: on all of R^D, finite only without ridge).

Where the claim names a Lipschitz constant (``lipschitz=L``) and ``lipschitz_radius`` is given, a
quadratic instance (every sample's loss equal to F) is in the class only for ``L >= M rho + ||H
(w* - 0)||``-type bounds: the instance's point takes ``L = max(L, M rho + ||H w*||)`` (an upper
bound of its Lipschitz constant on the ball of radius rho), so every instance honours the hypothesis.
"""
from __future__ import annotations

import math

import mpmath
import numpy as np
from hypothesis import strategies as st

from ... import sim
from ..base import MappedScenario
from ..data import ERMData
from ..points import fit_dimension, spectrum_and_direction

__all__ = ["OutputPerturbationGD", "output_perturbation_gd"]


_SEED, _BOOL = st.integers(0, 2**32 - 1), st.booleans()
_RADIUS = st.one_of(st.sampled_from([1.0, 1.0, 0.5]), st.floats(0, 1))


class OutputPerturbationGD(MappedScenario):
    """``E F(w_T + z) - F*`` of output-perturbed gradient descent (module docstring)."""
    NOISE = ("noise_scale",)

    REQUIRED = ("smooth", "step", "horizon", "dim", "noise_scale", "init_dist")
    OPTIONAL = ("curvature", "lipschitz", "n_samples")
    MEASURED_ORDER = ("dim", "n_samples", "smooth", "curvature", "init_dist", "lipschitz")
    supports_exact = True

    def __init__(self, params, *, noise: str, lipschitz_radius: float | None = 2.0, mc: tuple = ()):
        super().__init__(params)
        if noise not in ("norm_laplace", "gaussian"):
            raise TypeError(f"output_perturbation_gd: noise must be 'norm_laplace' or 'gaussian', got {noise!r}")
        if "lipschitz" in params and not getattr(params["lipschitz"], "is_Symbol", False):
            raise TypeError("output_perturbation_gd: lipschitz= must be the claim's symbol for L")
        self._set_mc_points("output_perturbation_gd", mc)
        self.noise, self.lipschitz_radius = noise, lipschitz_radius
        self.supports_monte_carlo = bool(self.mc_spec)
        self.convex_only = "curvature" not in params
        self.algorithm = f"gradient descent with output perturbation ({noise.replace('_', '-')} noise)"
        self.name = ("convex quadratics (spectrum in [0, M])" if self.convex_only
                     else "quadratics with spectrum in [mu, M]")

    def _on_bind(self):
        idx = str(self.params.index)
        self._constant_step = idx not in {str(x) for x in self.claim.expand(self.params.exprs["step"]).free_symbols}

    def _values(self, pt, dps=None):
        m = self.map
        T = int(round(float(m.scalar("horizon", pt))))
        if self._constant_step:   # a step-independent step size is evaluated once
            eta = m.scalar("step", pt, dps) if T else 0.0
        else:
            eta = m.steps("step", pt, T, dps) if T else []
        v = {"T": T, "D": int(round(float(m.scalar("dim", pt)))), "M": m.scalar("smooth", pt, dps),
             "eta": eta, "b": m.scalar("noise_scale", pt, dps), "R": m.scalar("init_dist", pt, dps)}
        v["mu"] = m.scalar("curvature", pt, dps) if m.has("curvature") else 0
        return v

    # ------------------------------------------------------------------ quadratic instances
    def problem_at(self, inst, dps=None):
        """(eigenvalues, w*) of a quadratic instance (w_0 = 0), in float or mpmath."""
        v = self._values(inst["point"], dps)
        num = float if dps is None else mpmath.mpf
        with mpmath.workdps(dps or 15):
            eigs, d = spectrum_and_direction(inst, v["mu"], v["M"], num)
            nrm = mpmath.sqrt(sum(x * x for x in d)) if dps else math.sqrt(sum(x * x for x in d))
            r = num(inst["r"]) * num(v["R"]) / nrm
            return eigs, [x * r for x in d]

    def point(self, inst):
        pt = dict(inst["point"])
        if self.map is not None and self.map.has("lipschitz") and self.lipschitz_radius is not None \
                and "problem" not in inst:
            eigs, ws = self.problem_at(inst)
            rho = self.lipschitz_radius * float(self._values(pt)["R"])
            bound = max(eigs) * rho + math.sqrt(sum((li * w) ** 2 for li, w in zip(eigs, ws)))
            key = str(self.params.exprs["lipschitz"])
            pt[key] = max(float(pt[key]), bound)
        return pt

    def with_point(self, inst, point):
        """The same problem at another point (its spectrum and direction fitted to the point's dimension)."""
        if "problem" in inst:
            return {**inst, "point": point}
        return fit_dimension({**inst, "point": point}, self._values(point)["D"])

    def strategy(self):
        def build(pt, draw):
            D = self._values(pt)["D"]
            rng = np.random.default_rng(draw(_SEED))        # spectrum and direction from one drawn seed
            if D == 1:
                u = [1.0] if self.convex_only or draw(_BOOL) else [0.0]
            else:
                u = [0.0] + sorted(rng.uniform(0, 1, size=D - 2).tolist()) + [1.0]
            direction = rng.standard_normal(D)
            if draw(_BOOL):                   # along one eigenvector (the extreme cases)
                direction = np.eye(D)[draw(st.integers(0, D - 1))]
            r = draw(_RADIUS)
            return {"point": pt, "u": u, "dir": direction.tolist(), "r": r}

        return self.instances_from(build)

    def make_instance(self, point):
        """A quadratic at ``point`` whose mapped point (measured Lipschitz constant) stays inside the
        claim's hypotheses, or ``None`` (the checks then report the pinned point inconclusive)."""
        self._require_bound()
        D = self._values(point)["D"]
        direction = [0.0] * D
        direction[-1] = 1.0
        spectra = [[1.0] * D] if self.convex_only else [[0.0] + [1.0] * (D - 1), [0.0] * D]
        for u in spectra:
            for r in (1.0, 0.5, 0.0):
                inst = {"point": dict(point), "u": u, "dir": direction, "r": r}
                if self.claim.domain.contains(self.point(inst)):
                    return inst
        return None

    def exact_available(self, inst) -> bool:
        return "problem" not in inst

    def run_values(self, inst, dps=None):
        """The algorithm's values on ``inst`` at the instance's own point (:meth:`point`): where a quadratic
        raises the Lipschitz constant to its own bound, the noise (and a step) calibrated to L use the
        raised value too, as the bound does (with the drawn L the run would be the less noisy algorithm
        of a smaller class than the bound's, and a violation could be missed)."""
        return self._values(self.point(inst), dps)

    def exact(self, inst, dps=None):
        v = self.run_values(inst, dps)
        eigs, ws = self.problem_at(inst, dps)
        zero = [0] * len(eigs)
        return sim.output_perturbation_quadratic_excess(eigs, ws, zero, v["eta"], v["T"], self.noise, v["b"], dps)

    def observe(self, inst, dps=None):
        return {}

    # ------------------------------------------------------------------ Monte Carlo on data
    def measured_constants(self, problem) -> dict:
        return problem.measured(self.lipschitz_radius)

    def monte_carlo(self, inst, runs, seed, chunk_runs):
        v = self.run_values(inst)
        if "problem" in inst:
            spec = dict(inst["problem"])
            p = ERMData(**spec).build()
        else:
            eigs, ws = self.problem_at(inst)
            p = sim.Quadratic(np.asarray(eigs, float), theta_star=np.asarray(ws, float))
        res = sim.output_perturbation(p, np.zeros(p.dim), v["eta"], v["T"], self.noise,
                                      float(v["b"]), runs, seed % (2**63), chunk_runs=chunk_runs)
        return res.mean, res.var

    def rounding_tolerance(self, inst, value) -> float:
        v = self.run_values(inst)
        return 16 * (v["T"] + 1) * (v["D"] + 1) * np.finfo(float).eps * (abs(value) + 1.0)

    def describe(self, inst):
        v = self._values(inst["point"])
        if "problem" in inst:
            return f"{ERMData(**inst['problem']).describe()}, T={v['T']}"
        eigs, ws = self.problem_at(inst)
        return (f"quadratic D={len(eigs)} spectrum [{min(eigs):.3g}, {max(eigs):.3g}], "
                f"||w0 - w*||={math.sqrt(sum(w * w for w in ws)):.3g}, T={v['T']}")


def output_perturbation_gd(*, noise: str, lipschitz_radius: float | None = 2.0, mc=(), **params) -> OutputPerturbationGD:
    """Utility of output-perturbed GD, in a claim's own symbols (module docstring)."""
    return OutputPerturbationGD(params, noise=noise, lipschitz_radius=lipschitz_radius, mc=mc)
