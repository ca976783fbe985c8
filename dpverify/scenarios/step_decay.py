"""Step-decay SGD with early momentum (:mod:`dpverify.sim.step_decay`): its expected excess risk
(exact on quadratics, Monte Carlo on non-convex losses) and its uniform stability (coupled runs on
neighbouring data sets).

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
* Monte Carlo: :class:`SeparableData` points (e.g. the non-convex ``x^2/2 + (s/2) sin^2 x``), whose
  constants are measured on a box and mapped onto the claim's symbols; a run whose iterates leave
  the box is refused.
"""
from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Mapping

import mpmath
import numpy as np
import sympy as sp

from .. import sim
from ..sim.problems import SeparableLoss
from ..sim.step_decay import coupled_step_decay_sgd, step_decay_sgd
from ..sim.step_decay_moments import peak_second_moment, step_decay_quadratic_moments
from ..sim.gradients import wor_batch_variance
from .sampling import _numpy_point, numpy_instances, seeded_points, seeded_search  # noqa: F401
from .base import MappedScenario, spectrum_and_direction

REGION = 6.0


def _ab(n: int, D: int, seed: int):
    """Centred per-sample directions: rows of unit norm (an odd n gets one zero row), sum zero."""
    rng = np.random.default_rng(seed)
    half = n // 2
    u = rng.normal(size=(half, D))
    u /= np.linalg.norm(u, axis=1, keepdims=True)
    rows = np.concatenate([u, -u] + ([np.zeros((1, D))] if n % 2 else []))
    signs = np.concatenate([np.ones(half), -np.ones(half)] + ([np.zeros(1)] if n % 2 else []))
    return rows, signs


def _shift_rows(n: int, var_split, sample_var: float):
    """Per-sample shifts a_i with sum zero and (1/n) sum_i a_ij^2 = sample_var * var_split_j."""
    nz = n - (n % 2)
    s = np.sqrt(np.asarray(var_split, float) * sample_var * n / max(nz, 1))
    half = n // 2
    a = np.concatenate([np.tile(s, (half, 1)), np.tile(-s, (half, 1))] + ([np.zeros((1, len(s)))] if n % 2 else []))
    return a


# =============================================================================== Monte Carlo problems
@dataclass(frozen=True)
class SeparableData:
    """A data problem for Monte Carlo: per-sample losses ``sum_j phi(w_j) + <a_i, w> + b_i sum_j psi(w_j)``
    (:class:`~dpverify.sim.step_decay.SeparableLoss`; ``a_i = +-a_scale u_i`` centred, ``b_i = +-b_scale``),
    started at ``w_j = start`` for every j, its constants measured on the box ``|w_j| <= region``."""

    phi: str = "sine"
    params: tuple = (2.0,)
    dim: int = 2
    n: int = 100
    a_scale: float = 0.5
    b_scale: float = 0.0
    start: float = 1.5
    region: float = 3.0
    weight: float = 1.0
    data_seed: int = 0

    def build(self) -> SeparableLoss:
        rows, signs = _ab(self.n, self.dim, self.data_seed)
        return SeparableLoss(self.phi, self.params, np.zeros(self.dim), self.a_scale * rows, self.b_scale * signs,
                             weights=np.full(self.dim, float(self.weight)))

    def theta0(self):
        return np.full(self.dim, float(self.start))

    def measured(self) -> dict:
        p = self.build()
        c = p.constants(self.region)
        return {"smooth": c["beta"], "curvature": c["mu"], "quasi_convexity": c["theta"], "lipschitz": c["lipschitz"],
                "sample_var": c["sample_var"], "dim": self.dim, "n_samples": self.n,
                "init_gap": float(p.value(self.theta0()[None, :])[0] - p.f_star), "loss_bound": c["loss_range"] / 2}

    def to_json(self) -> dict:
        return {"family": "separable", "phi": self.phi, "params": list(self.params), "dim": self.dim, "n": self.n,
                "a_scale": self.a_scale, "b_scale": self.b_scale, "start": self.start, "region": self.region,
                "weight": self.weight, "data_seed": self.data_seed}

    def describe(self) -> str:
        shape = {"sine": "x^2/2 + (s/2) sin^2 x (non-convex)", "quadratic": "lam x^2/2",
                 "huber": "Huber"}[self.phi]
        return (f"separable loss {self.weight:g} * phi, phi = {shape}, s/lam = {self.params}, D={self.dim}, n={self.n}, per-sample shifts "
                f"{self.a_scale:g}, box |w_j| <= {self.region:g}")


def _separable_from_json(d: Mapping) -> SeparableData:
    d = dict(d)
    d.pop("family", None)
    d["params"] = tuple(d["params"])
    return SeparableData(**d)


# =============================================================================== the risk scenario
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
            spec = _separable_from_json(inst["problem"])
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
            return f"{_separable_from_json(inst['problem']).describe()}, {sched}"
        eigs = self.problem_at(inst)[0]
        return f"quadratic D={len(eigs)}, spectrum [{min(eigs):.4g}, {max(eigs):.4g}], {sched}"


def step_decay_risk(*, output: str = "after", mc=(), mc_count: int = 0, **params) -> StepDecaySGD:
    """The expected excess risk of step-decay SGD with early momentum, in a claim's own symbols."""
    return StepDecaySGD(params, output=output, mc=mc, mc_count=mc_count)


# =============================================================================== uniform stability
class StepDecayStability(MappedScenario):
    """Uniform stability of step-decay SGD by coupled runs on neighbouring data sets.

    Instances: per-sample losses ``f(w; z) = sum_j lam (w_j - c_j)^2/2 + <a, w - c> + b sum_j psi(w_j - c_j)``
    with ``psi(x) = sin(x)^2/2`` (curvature in [-1, 1]) and the data universe ``||a|| <= A``,
    ``|b| <= b_max``: the per-sample losses are non-convex when ``b_max > lam``, the empirical risk of
    the centred data set S is lam-strongly convex, and the neighbour S' replaces sample 0 by
    ``(-A a_0/||a_0||, -b_0)``. The claim's ``lipschitz``, ``smooth``, ``curvature`` and
    ``quasi_convexity`` are *set* from the instance: per-sample gradient norms on the box every
    iterate of a pilot run stays in (widened by ``BOX_MARGIN``), ``lam + b_max``, and the PL and
    one-point quasi-convexity constants of both S and S' (their minimum). Measured: ``sup_z
    E[f(A(S); z) - f(A(S'); z)]``, exactly the maximum over the universe of a linear function of z,
    ``E[F(w) - F(w')] + A ||E(w - w')|| + b_max |E[Psi(w) - Psi(w')]|``, from runs that share noise,
    mini-batches and output indices. A run leaving the box is refused. Instances are drawn by NumPy from one
    Hypothesis integer (each costs a pilot run).
    """

    REQUIRED = ("lipschitz", "smooth", "curvature", "quasi_convexity", "step0", "length0", "momentum_steps0",
                "momentum", "phases", "noise_std", "batch", "n_samples", "dim")
    OPTIONAL = ("loss_bound", "decay", "growth")
    BOX_MARGIN = 2.0
    PILOT = 128
    search_runs = 128
    optimise = 0

    def __init__(self, params, *, output: str = "after", adjust: str | None = None):
        super().__init__(params)
        self.output, self.adjust = output, adjust
        self.name = "coupled step-decay SGD on neighbouring data sets"
        self._cache: dict = {}

    def _sched(self, pt):
        m = self.map
        f = lambda k: float(m.scalar(k, pt))  # noqa: E731
        K, T0, m0 = (int(round(f(k))) for k in ("phases", "length0", "momentum_steps0"))
        decay = f("decay") if m.has("decay") else 0.5
        g = int(round(f("growth"))) if m.has("growth") else 2
        ks = range(1, K + 1)
        return ([f("step0") * decay**k for k in ks], [T0 * g**k for k in ks], [m0 * g**k for k in ks], f("momentum"),
                f("noise_std"), int(round(f("batch"))), int(round(f("n_samples"))), int(round(f("dim"))))

    def _problems(self, inst):
        n, D = int(inst["n"]), int(inst["D"])
        rows, signs = _ab(n, D, inst["data_seed"])
        A, bm = inst["A"], inst["bmax"]
        pa = SeparableLoss("quadratic", (inst["lam"],), np.zeros(D), A * rows, bm * signs)
        a0 = rows[0] if np.linalg.norm(rows[0]) > 0 else np.eye(D)[0]
        pb = pa.with_sample(0, -A * a0 / np.linalg.norm(a0), -bm * signs[0])
        return pa, pb

    @staticmethod
    def _pl_theta(lam, alpha, gamma, R):
        """PL and one-point quasi-convexity constants of x -> lam x^2/2 + alpha x + gamma sin(x)^2/2 on |x| <= R
        (the minimiser found on a grid and refined by Newton; the ratios' minimum on a grid of 4001 points, then
        lowered to the strong-convexity values lam - |gamma| and 2 (lam - |gamma|)/(lam + |gamma|) where those
        are smaller, which hold everywhere when lam > |gamma|)."""
        xs = np.linspace(-R, R, 4001)
        h = lam * xs**2 / 2 + alpha * xs + gamma * np.sin(xs) ** 2 / 2
        k = int(np.argmin(h))
        x = xs[k]
        for _ in range(50):
            g1 = lam * x + alpha + gamma * math.sin(2 * x) / 2
            g2 = lam + gamma * math.cos(2 * x)
            x -= g1 / g2
        hs = lam * x * x / 2 + alpha * x + gamma * math.sin(x) ** 2 / 2
        d = h - hs
        g = lam * xs + alpha + gamma * np.sin(2 * xs) / 2
        keep = np.abs(xs - x) > 1e-6 * R
        mu = float(np.min(g[keep] ** 2 / (2 * d[keep])))
        th = float(np.min(g[keep] * (xs[keep] - x) / d[keep]))
        m, M = lam - abs(gamma), lam + abs(gamma)
        if m > 0:
            mu, th = min(mu, m), min(th, 2 * m / M)
        return mu, th

    def _complete(self, inst):
        """Fill the claim's measured parameters (class docstring) from the instance and a pilot run; cached.

        ``inst["c4_u"]`` in [0, 1), when present, places the step parameter ``c4`` of a claim that maps
        ``step0`` through one (a bare symbol appearing in it) inside the interval where the claim's
        relations hold (a different sampling of the same domain)."""
        key = repr(sorted((k, v if not isinstance(v, dict) else tuple(sorted(v.items()))) for k, v in inst.items()))
        hit = self._cache.get(key)
        if hit is not None:
            return hit
        pt = dict(inst["point"])
        D, n, lam, A, bm = int(inst["D"]), int(inst["n"]), inst["lam"], inst["A"], inst["bmax"]
        pa, pb = self._problems(inst)
        mus, thetas = [], []
        for p in (pa, pb):  # PL and quasi-convexity of both data sets' empirical risks (box-free: strongly convex)
            for j in range(D):
                mu_j, th_j = self._pl_theta(lam, p.a_mean[j], p.b_mean, 10.0)
                mus.append(mu_j)
                thetas.append(th_j)
        mu, theta = min(mus), min(min(thetas), 2.0)
        pt = self._write({"smooth": lam + bm, "curvature": mu, "quasi_convexity": theta, "dim": D, "n_samples": n}, pt)
        if self.adjust and "adjust_u" in inst and not self.claim.domain.contains(pt):
            pt = self._place(pt, self.adjust, inst["adjust_u"])
        etas, lengths, mons, rho, s, B, _, _ = self._sched(pt)
        th0 = np.full(D, inst["start"])
        _, _, dist = coupled_step_decay_sgd(pa, pb, th0, etas, lengths, mons, rho, s, B, self.PILOT,
                                           inst["data_seed"] + 1, output=self.output, track_from=np.zeros(D), box=True)
        R = self.BOX_MARGIN * max(dist, abs(inst["start"]))
        pt = self._write({"lipschitz": math.sqrt(D) * lam * R + A + bm * math.sqrt(D) / 2}, pt)
        if self.map.has("loss_bound"):
            pt = self._write({"loss_bound": (D * lam * R * R / 2 + 2 * A * R * math.sqrt(D) + bm * D / 2) / 2}, pt)
        out = {**inst, "point": pt, "box": R}
        self._cache[key] = out
        return out

    def _place(self, pt, name, u):
        """Move the domain parameter ``name`` to the fraction ``u`` of the interval (on its search box, log scale
        where declared) where every relation holds; unchanged when there is none."""
        p = self.claim.domain.params[name]
        lo, hi = p.box()
        grid = np.exp(np.linspace(math.log(lo), math.log(hi), 400)) if getattr(p, "log", False) and lo > 0 else \
            np.linspace(lo, hi, 400)
        ok = [float(x) for x in grid if self.claim.domain.contains({**pt, name: float(x)})]
        if not ok:
            return pt
        return {**pt, name: min(ok) + u * (max(ok) - min(ok))}

    def _write(self, measured, pt):
        order = ("dim", "n_samples", "smooth", "curvature", "quasi_convexity", "lipschitz", "loss_bound")
        known = dict(pt)
        for k in measured:  # measured quantities replace what the domain draw put there
            e = self.claim.expand(self.params.exprs[k])
            for sym in e.free_symbols:
                known.pop(str(sym), None)
        return self.map.solve(measured, known, order)

    def strategy(self):
        self._require_bound()

        def build(pt, rng):
            lam = float(rng.uniform(0.05, 2.0))
            raw = {"point": pt, "lam": lam, "A": float(rng.uniform(0.01, 1.0)),
                   "bmax": lam * float(rng.uniform(0.0, 3.0)), "start": float(rng.uniform(0.1, 1.0)),
                   "data_seed": int(rng.integers(0, 1000)), "adjust_u": float(rng.uniform(0.0, 1.0)),
                   "D": int(round(float(self.map.scalar("dim", pt)))),
                   "n": int(round(float(self.map.scalar("n_samples", pt))))}
            try:
                full = self._complete(raw)
            except (ValueError, ZeroDivisionError, FloatingPointError, KeyError):
                return None
            return full if full is not None and self.claim.domain.contains(full["point"]) else None

        return numpy_instances(self.claim.domain, build)

    def point(self, inst):
        return inst["point"]

    def make_instance(self, point):
        self._require_bound()
        raw = {"point": dict(point), "lam": float(self.map.scalar("curvature", point)), "A": 0.5, "bmax": 0.0,
               "start": 0.5, "data_seed": 0, "D": int(round(float(self.map.scalar("dim", point)))),
               "n": int(round(float(self.map.scalar("n_samples", point))))}
        return self._complete(raw)

    def measure(self, inst, runs, seed):
        from ..search import EvaluationError

        pt = inst["point"]
        etas, lengths, mons, rho, s, B, n, D = self._sched(pt)
        pa, pb = self._problems(inst)
        th0 = np.full(D, inst["start"])
        wa, wb, dist = coupled_step_decay_sgd(pa, pb, th0, etas, lengths, mons, rho, s, B, int(runs), int(seed) % 2**63,
                                             output=self.output, track_from=np.zeros(D), box=True)
        if dist > inst["box"]:
            raise EvaluationError(f"an iterate left the box |w_j| <= {inst['box']:.4g} the constants were measured on")
        lam, A, bm = inst["lam"], inst["A"], inst["bmax"]
        dF = lam * ((wa**2).sum(axis=1) - (wb**2).sum(axis=1)) / 2
        dw = wa - wb
        dP = (np.sin(wa) ** 2).sum(axis=1) / 2 - (np.sin(wb) ** 2).sum(axis=1) / 2
        mdw = dw.mean(axis=0)
        nrm = float(np.linalg.norm(mdw))
        u = mdw / nrm if nrm > 0 else np.zeros(D)
        sgn = 1.0 if dP.mean() >= 0 else -1.0
        per_run = dF + A * (dw @ u) + bm * sgn * dP
        return float(per_run.mean()), float(per_run.var(ddof=1)) if len(per_run) > 1 else 0.0

    def describe(self, inst):
        etas, lengths, mons, rho, s, B, n, D = self._sched(inst["point"])
        return (f"quadratic core lam={inst['lam']:.3g} with per-sample shifts ||a|| <= {inst['A']:.3g} and non-convex "
                f"b psi, |b| <= {inst['bmax']:.3g}; D={D}, n={n}, B={B}, phases {lengths}, momentum steps {mons}, "
                f"rho={rho:.3g}, noise std {s:.3g}; box {inst['box']:.3g}; neighbour replaces sample 0")


def step_decay_stability(*, output: str = "after", adjust: str | None = None, **params) -> StepDecayStability:
    """Uniform stability of step-decay SGD by coupled runs, in a claim's own symbols (class docstring).

    ``adjust`` names a domain parameter the search may move (within the domain) so that a drawn point whose
    measured constants break a relation of the claim satisfies it again (e.g. the step parameter)."""
    return StepDecayStability(params, output=output, adjust=adjust)


__all__ = ["REGION", "SeparableData", "StepDecaySGD", "StepDecayStability", "seeded_points", "seeded_search",
           "step_decay_risk", "step_decay_stability"]
