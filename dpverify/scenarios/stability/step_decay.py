"""Uniform stability of step-decay SGD with early momentum (:mod:`dpverify.sim.step_decay`), by coupled
runs on neighbouring data sets of separable losses (its expected excess risk:
:mod:`dpverify.scenarios.expectations.step_decay`, where the algorithm family and its parameters are
described).
"""
from __future__ import annotations

import math

import numpy as np

from ...sim.problems import SeparableLoss
from ...sim.step_decay import coupled_step_decay_sgd
from ..base import MappedScenario
from ..data import centred_rows
from ..sampling import numpy_instances

__all__ = ["StepDecayStability", "step_decay_stability"]


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
        rows, signs = centred_rows(n, D, inst["data_seed"])
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
        from ...search import EvaluationError

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
