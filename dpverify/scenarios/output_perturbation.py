"""Output perturbation of gradient descent: its utility (an expectation) and its privacy (on
neighbouring data sets), in optimisation terms.

``output_perturbation_gd(noise=..., smooth=M, curvature=mu, step=eta, horizon=T, dim=D,
noise_scale=b, init_dist=R)`` measures ``E F(w_T + z) - F*`` for ``T`` steps of gradient descent from
``w_0`` with ``||w_0 - w*|| <= R`` followed by one draw of ``z`` (:mod:`dpverify.sim.output_perturbation`:
``"norm_laplace"`` with density proportional to ``exp(-||z||/b)``, or ``"gaussian"`` with std ``b``):

* exactly on quadratics whose Hessian spectrum lies in ``[mu, M]`` (both ends present when D >= 2;
  ``[0, M]`` without ``curvature``), ``||w_0 - w*|| = r R`` with the fraction ``r`` drawn in
  ``[0, 1]``, in double precision and in mpmath where close (the exact check);
* by Monte Carlo on data problems (:class:`ERMData`: ridge logistic, Huber or least squares
  regression on scikit-learn generated data), whose constants are *measured* and mapped onto the
  claim's symbols: per-sample smoothness ``c max||x||^2 + lam``, curvature ``lam``, ``D``, ``n``,
  ``R = ||w*||`` (``w_0 = 0``) and the Lipschitz constant on the ball of radius
  ``lipschitz_radius * R`` (``None``: on all of R^D, finite only without ridge).

Where the claim names a Lipschitz constant (``lipschitz=L``) and ``lipschitz_radius`` is given, a
quadratic instance (every sample's loss equal to F) is in the class only for ``L >= M rho + ||H
(w* - 0)||``-type bounds: the instance's point takes ``L = max(L, M rho + ||H w*||)`` (an upper
bound of its Lipschitz constant on the ball of radius rho), so every instance honours the hypothesis.

``output_perturbation_privacy(noise=..., sensitivity=Delta, eps=eps, noise_scale=b, ...)`` runs GD on
neighbouring data sets (:mod:`.gd_sensitivity`: adversarial search over data and the replaced
sample) and measures the exact privacy of the released ``w_T + z`` on that pair: the largest privacy
loss ``||w_T - w_T'|| / b`` for norm-Laplace noise (its pure eps), or the exact delta at ``eps`` of
the two Gaussians (Balle & Wang's profile). Its ``sampler(point, side, n, rng)`` draws the
algorithm's outputs on the structured worst-case pair, for an empirical audit beside it.
"""
from __future__ import annotations

import math
from dataclasses import dataclass
from functools import lru_cache

import mpmath
import numpy as np
from hypothesis import strategies as st

from .. import sim
from ..measured import Measured
from ..privacy.mechanisms import norm_laplace_max_privacy_loss
from .base import MappedScenario, SyntheticData, spectrum_and_direction
from .measuring import ULP, gaussian_profile
from .gd import classification_data
from .gd_sensitivity import FAMILIES, GDSensitivity
from .privacy import gaussian_eps_at

_SMOOTH_FACTOR = {"least_squares": 1.0, "logistic": 0.25, "huber": 1.0}
_SEED, _BOOL = st.integers(0, 2**32 - 1), st.booleans()


def fit_dimension(inst: dict, D: int) -> dict:
    """A quadratic instance (spectrum fractions ``u``, direction ``dir``) with ``D`` coordinates: the
    search moves the point, and when the dimension it maps to changes, the spectrum keeps its ends
    (padded with its top fraction, or cut inside) and the direction is cut or padded with zeros."""
    u, d = list(inst["u"]), list(inst["dir"])
    if len(u) == D:
        return inst
    if D == 1:
        u = [u[-1]]
    elif len(u) > D:
        u = u[:D - 1] + [u[-1]]
    else:
        u = u[:-1] + [u[-1]] * (D - len(u) + 1)
    d = d[:D] + [0.0] * max(0, D - len(d))
    if not any(d):
        d[-1] = 1.0
    return {**inst, "u": u, "dir": d}
_RADIUS = st.one_of(st.sampled_from([1.0, 1.0, 0.5]), st.floats(0, 1))


# =============================================================================== data problems
@lru_cache(maxsize=16)
def regression_data(n: int, d: int, seed: int, scale: float = 1.0, outliers: float = 0.1):
    """Standardised regression data from scikit-learn's ``make_regression``, rows scaled to maximum
    norm ``scale``, targets standardised, a fraction ``outliers`` of them shifted by 10 (for Huber)."""
    from sklearn.datasets import make_regression

    X, y = make_regression(n_samples=n, n_features=d, n_informative=d, noise=10.0, random_state=seed)
    X = (X - X.mean(axis=0)) / X.std(axis=0)
    X = X * (scale / np.linalg.norm(X, axis=1).max())
    y = (y - y.mean()) / y.std()
    k = int(round(outliers * n))
    if k:
        y = y.copy()
        y[np.random.default_rng(seed).choice(n, size=k, replace=False)] += 10.0
    return X, y


@lru_cache(maxsize=32)
def _empirical_risk_problem(family, n, d, lam, seed, scale):
    if family == "logistic":
        X, y = classification_data(n, d, seed, scale)
        return sim.LogisticRegression(X, y, lam)
    X, y = regression_data(n, d, seed, scale)
    if family == "huber":
        return sim.HuberRegression(X, y, lam)
    return sim.LeastSquares(X, y, lam)


@dataclass(frozen=True)
class ERMData(SyntheticData):
    """A data problem for Monte Carlo points: ridge ``family`` ("logistic", "huber" or
    "least_squares") on ``n`` scikit-learn generated samples in ``d`` dimensions (rows of maximum
    norm ``scale``); its constants are measured, not assumed (``lam = 0`` allowed except for logistic)."""

    family: str = "logistic"

    def build(self):
        return _empirical_risk_problem(self.family, self.n, self.d, self.lam, self.data_seed, self.scale)

    def measured(self, lipschitz_radius: float | None = 2.0) -> dict:
        p = self.build()
        xmax = float(np.sqrt(np.max(np.einsum("nd,nd->n", p.X, p.X))))
        R = float(np.linalg.norm(p.theta_star))
        if lipschitz_radius is None:
            if self.lam != 0:
                raise ValueError("a ridge loss is not Lipschitz on all of R^D; give lipschitz_radius")
            L = p.lipschitz_on_ball(0.0)
        else:
            L = p.lipschitz_on_ball(lipschitz_radius * R)
        return {"smooth": _SMOOTH_FACTOR[self.family] * xmax * xmax + self.lam, "curvature": float(self.lam),
                "dim": self.d, "n_samples": self.n, "init_dist": R, "lipschitz": float(L),
                "init_gap": float(p.value(np.zeros(self.d)) - p.f_star)}

    def describe(self) -> str:
        return f"ridge {self.family} (scikit-learn generated, N={self.n}, D={self.d}, lambda={self.lam})"


# =============================================================================== utility
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

    def exact(self, inst, dps=None):
        v = self._values(inst["point"], dps)
        eigs, ws = self.problem_at(inst, dps)
        zero = [0] * len(eigs)
        return sim.output_perturbation_quadratic_excess(eigs, ws, zero, v["eta"], v["T"], self.noise, v["b"], dps)

    def observe(self, inst, dps=None):
        return {}

    # ------------------------------------------------------------------ Monte Carlo on data
    def measured_constants(self, problem) -> dict:
        return problem.measured(self.lipschitz_radius)

    def monte_carlo(self, inst, runs, seed, chunk_runs):
        v = self._values(inst["point"])
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
        v = self._values(inst["point"])
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


# =============================================================================== privacy
class OutputPerturbationPrivacy(GDSensitivity):
    """Exact privacy of ``w_T + z`` on neighbouring data sets (module docstring): norm-Laplace noise
    measures its pure eps; Gaussian noise the exact delta at ``eps=`` or the exact eps at ``delta=``
    (Balle & Wang's profile inverted, bracketed in mpmath; give exactly one)."""

    REQUIRED = GDSensitivity.REQUIRED + ("noise_scale",)
    OPTIONAL = GDSensitivity.OPTIONAL + ("eps", "delta")

    def __init__(self, params, *, noise: str, families=FAMILIES):
        super().__init__(params, families=families, what="GD with output perturbation")
        if noise not in ("norm_laplace", "gaussian"):
            raise TypeError(f"output_perturbation_privacy: noise must be 'norm_laplace' or 'gaussian', got {noise!r}")
        given = [k for k in ("eps", "delta") if k in params]
        if noise == "gaussian" and len(given) != 1:
            raise TypeError("output_perturbation_privacy: noise='gaussian' measures delta at eps= or eps at delta=; "
                            f"give exactly one, got {given or 'neither'}")
        if noise == "norm_laplace" and "delta" in params:
            raise TypeError("output_perturbation_privacy: noise='norm_laplace' measures its pure eps; delta= is for "
                            "noise='gaussian'")
        self.noise = noise
        self.measure_name = ("largest privacy loss (pure eps)" if noise == "norm_laplace" else
                             "exact delta at eps" if "eps" in params else "exact eps at delta")
        self.name = f"GD + {noise.replace('_', '-')} output perturbation on neighbouring data sets"

    def _on_bind(self):
        self._sampled = {}   # point -> instance, for this claim (an audit draws four times at one point)

    def noise_scale(self, point) -> float:
        """The output noise's scale at ``point`` (the Gaussian's standard deviation, or the norm-Laplace
        scale), as the claim's ``noise_scale`` expression gives it."""
        return float(self.map.scalar("noise_scale", point))

    _noise = noise_scale

    def measure(self, inst, runs, seed):
        pt = self.point(inst)
        b = self._noise(pt)   # calibrated with the instance's (measured) Lipschitz constant
        shift = np.asarray(inst["w_T"]) - np.asarray(inst["w_T_prime"])
        mu, mu_error = float(np.linalg.norm(shift)) / b, self.distance_error(inst) / b
        if self.noise == "norm_laplace":
            return Measured.exact(norm_laplace_max_privacy_loss(shift, b), mu_error + 8 * mu * ULP)
        if self.map.has("delta"):
            return gaussian_eps_at(float(self.map.scalar("delta", pt)), mu, (mu_error + 8 * mu * ULP) / mu if mu else 0)
        return gaussian_profile(float(self.map.scalar("eps", pt)), mu, mu_error=mu_error + 8 * mu * ULP)

    def sampler(self, point, side, n, rng):
        """``n`` outputs ``w_T + z`` of the structured worst-case pair at ``point`` (side "D" or "D'")."""
        key = tuple(sorted((k, float(v)) for k, v in point.items()))
        inst = self._sampled.get(key)
        if inst is None:
            self._sampled.clear()
            inst = self._sampled[key] = self.instance_at(point)
        b = self._noise(point)   # the point's L, at least the instance's measured constant
        base = np.asarray(inst["w_T"] if side == "D" else inst["w_T_prime"], float)
        return base + sim.add_noise(rng, n, len(base), self.noise, b)

    def describe(self, inst):
        return super().describe(inst) + f"; {self.measure_name}"


def output_perturbation_privacy(*, noise: str, families=FAMILIES, **params) -> OutputPerturbationPrivacy:
    """Privacy of output-perturbed GD on neighbouring data sets, in a claim's own symbols: the pure eps
    of norm-Laplace noise, or for Gaussian noise delta at ``eps=`` or eps at ``delta=`` (see
    :class:`OutputPerturbationPrivacy`).

    >>> import sympy as sp
    >>> M, mu, T, n, L, b, d = sp.symbols("M mu T n L b delta")
    >>> sc = output_perturbation_privacy(noise="gaussian", smooth=M, curvature=mu, step=1 / M, horizon=T,
    ...                                  n_samples=n, lipschitz=L, noise_scale=b, delta=d)
    """
    return OutputPerturbationPrivacy(params, noise=noise, families=families)


__all__ = ["ERMData", "OutputPerturbationGD", "OutputPerturbationPrivacy", "output_perturbation_gd",
           "output_perturbation_privacy", "regression_data"]
