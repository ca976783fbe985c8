"""Noisy SGD with one sample per step on least-squares data, with exact expectations.

The algorithm (:mod:`dpverify.sim.sgd_moments`): ``t = 1..T``, ``J_t`` uniform on the n samples,
``theta_{t+1} = theta_t - eta_t (grad l(theta_t; z_{J_t}) + s_t g_{J_t} nu_t)``, with the per-sample
loss ``l = 1/2 (x^T theta - y)^2 + (lam/2)||theta||^2`` and a noise gate ``g_j``: noise on every
step, or (``noisy_samples=k``) only on steps that draw one of the first k samples.

An instance is the claim's point; the data ``(X, y, theta_1)`` are a function of the point given by
the caller (``data=``), e.g. a seeded generator whose seed, size and dimension are parameters of
the claim, so that every counterexample the search finds is replayed by its point alone. The data's
constants (smoothness, PL constant, initial gap, ...) enter a claim through its definitions
(functions of the same parameters), never assumed.

Parameters (mapped onto a claim's symbols): ``step`` (eta_t), ``noise_std`` (s_t; both may use the
step index t), ``horizon`` (T), optional ``noisy_samples`` (k) and ``ridge`` (lam).

Statistic: ``E L(theta_{T+1}; D) - L*`` (exact, in double precision or in mpmath at a given
precision). Observables (``observe={"V": "max_gradient_variance"}``): ``max_t E Var_J grad
l(theta_t; z_J)`` over the run. Monte Carlo (``mc_count > 0``, ungated only) runs
:func:`dpverify.sim.psgd` with ``batch=1`` at points drawn from the claim's domain.
"""
from __future__ import annotations

from typing import Callable

import mpmath
import numpy as np

from ... import sim
from ...sim import sgd_moments as sm
from ..base import MappedScenario
from ..params import T_INDEX

__all__ = ["OneSampleSGD", "one_sample_sgd", "seeded_least_squares"]


OBSERVABLES = ("max_gradient_variance",)


class OneSampleSGD(MappedScenario):
    NOISE = ()   # sampling one example per step stays random without noise
    REQUIRED = ("step", "noise_std", "horizon")
    OPTIONAL = ("noisy_samples", "ridge")
    STEPWISE = ("step", "noise_std")

    def __init__(self, params, *, data: Callable, observe=None, mc_count: int = 0, index=T_INDEX):
        super().__init__(params, index)
        if not callable(data):
            raise TypeError(f"one_sample_sgd: data must be callable point -> (X, y, theta1), got {data!r}")
        self.data = data
        self.observe_map = dict(observe or {})
        for k, v in self.observe_map.items():
            if v not in OBSERVABLES:
                raise TypeError(f"one_sample_sgd: observable {k} = {v!r} is not one of {OBSERVABLES}")
        self._set_mc_points("one_sample_sgd", (), mc_count)
        self.supports_exact = True
        self.supports_monte_carlo = bool(self.mc_spec) and "noisy_samples" not in params
        self.algorithm = "noisy SGD, one sample per step" + (", noise gated" if "noisy_samples" in params else "")
        self.name = "least squares (data from the claim's point)"
        self.mc_name = self.name

    # ------------------------------------------------------------------ the instance
    def strategy(self):
        self._require_bound()
        return self.instances_from(lambda pt, draw: {"point": pt})

    def point(self, inst):
        return inst["point"]

    def with_point(self, inst, point):
        return {"point": point}

    def make_instance(self, point):
        return {"point": dict(point)}

    def _setup(self, pt, dps=None):
        X, y, th1 = (np.asarray(a, float) for a in self.data(pt))
        m = self.map
        T = int(round(float(m.scalar("horizon", pt))))
        etas = [float(v) for v in m.steps("step", pt, T)]
        sig = [float(v) for v in m.steps("noise_std", pt, T)]
        lam = float(m.scalar("ridge", pt)) if m.has("ridge") else 0.0
        gate = None
        if m.has("noisy_samples"):
            k = int(round(float(m.scalar("noisy_samples", pt))))
            gate = (np.arange(len(y)) < k).astype(float)
        return X, y, th1, np.asarray(etas), np.asarray(sig), lam, gate

    def _f_star(self, X, y, lam, dps=None):
        n, mdim = X.shape
        if dps is None:
            A = X.T @ X / n + lam * np.eye(mdim)
            th = np.linalg.lstsq(A, X.T @ y / n, rcond=None)[0]
            r = X @ th - y
            return float(0.5 * np.mean(r * r) + 0.5 * lam * th @ th)
        with mpmath.workdps(dps):
            lam = mpmath.mpf(lam)
            Xm = mpmath.matrix([[mpmath.mpf(float(v)) for v in row] for row in X])
            ym = mpmath.matrix([mpmath.mpf(float(v)) for v in y])
            A = Xm.T * Xm / n + lam * mpmath.eye(mdim)
            th = mpmath.lu_solve(A, Xm.T * ym / n)
            r = Xm * th - ym
            return mpmath.fsum(r[i] ** 2 for i in range(n)) / (2 * n) + lam / 2 * mpmath.fsum(
                th[i] ** 2 for i in range(mdim))

    def _run(self, inst, dps=None):
        key = (id(self.claim), dps,
               tuple(sorted((k, tuple(v) if isinstance(v, list) else v) for k, v in inst["point"].items())))
        cache = self.__dict__.setdefault("_cache", {})
        hit = cache.get(key)
        if hit is None:
            if len(cache) > 4096:
                cache.clear()
            hit = cache[key] = self._compute(inst, dps)
        return hit

    def _compute(self, inst, dps=None):
        X, y, th1, etas, sig, lam, gate = self._setup(inst["point"])
        if dps is not None:  # the step sizes and noise at the working precision (1/L exactly, not rounded)
            pt, m = inst["point"], self.map
            etas = m.steps("step", pt, len(etas), dps)
            sig = m.steps("noise_std", pt, len(sig), dps)
            lam = m.scalar("ridge", pt, dps) if m.has("ridge") else 0
        if dps is None:
            mom = sm.sgd_moments(X, y, th1, etas, sig, lam=lam, gate=gate)
            value = sm.loss_expectation(X, y, mom.mean, mom.second, lam=lam) - self._f_star(X, y, lam)
            return value, float(np.max(mom.var_grad)) if len(mom.var_grad) else 0.0
        mean, S, vg = sm.sgd_moments_mp(X, y, th1, etas, sig, lam=lam, gate=gate, dps=dps)
        with mpmath.workdps(dps):
            value = sm.loss_expectation_mp(X, y, mean, S, lam=lam, dps=dps) - self._f_star(X, y, lam, dps)
            return value, (max(vg) if vg else mpmath.mpf(0))

    def exact_available(self, inst) -> bool:
        return True

    def exact(self, inst, dps=None):
        return self._run(inst, dps)[0]

    def observe(self, inst, dps=None):
        if not self.observe_map:
            return {}
        v = self._run(inst, dps)[1]
        return {k: v for k in self.observe_map}

    # ------------------------------------------------------------------ Monte Carlo
    def monte_carlo(self, inst, runs, seed, chunk_runs):
        X, y, th1, etas, sig, lam, gate = self._setup(inst["point"])
        p = sim.LeastSquares(X, y, lam)
        f_star = self._f_star(X, y, lam)
        res = sim.psgd(p, th1, etas, sig, 1, runs, seed, chunk_runs=chunk_runs,
                       statistic=lambda th: p.value(th) - f_star)
        return res.mean, res.var

    def rounding_tolerance(self, inst, value) -> float:
        X, _, _, etas, _, _, _ = self._setup(inst["point"])
        return 64 * (len(etas) + 1) * (X.size + 1) * np.finfo(float).eps * (abs(value) + 1.0)

    def describe(self, inst):
        X, _, _, etas, _, _, gate = self._setup(inst["point"])
        g = "" if gate is None else f", noise on {int(gate.sum())} of {len(gate)} samples"
        return f"least squares n={X.shape[0]} m={X.shape[1]}, T={len(etas)}{g}"


def one_sample_sgd(*, data, observe=None, mc_count: int = 0, index=T_INDEX, **params) -> OneSampleSGD:
    """One-sample noisy SGD on least squares, in a claim's own symbols (module docstring)."""
    return OneSampleSGD(params, data=data, observe=observe, mc_count=mc_count, index=index)


def seeded_least_squares(n: int, m: int, seed: int, *, label_noise: float = 1.0, start: float = 1.0):
    """Least-squares data of n samples in m dimensions from ``seed``: features uniform in the unit
    ball's cube [-1, 1]^m scaled into the unit ball (||x|| <= 1), labels ``x^T w + label_noise * u``
    with ``w, u`` uniform, theta_1 uniform in [-start, start]^m."""
    rng = np.random.default_rng(np.random.SeedSequence(int(seed), spawn_key=(int(n), int(m))))
    X = rng.uniform(-1, 1, size=(n, m))
    X /= np.maximum(np.linalg.norm(X, axis=1, keepdims=True), 1.0)
    w = rng.uniform(-1, 1, size=m)
    y = X @ w + label_noise * rng.uniform(-1, 1, size=n)
    th1 = rng.uniform(-start, start, size=m)
    return X, y, th1
