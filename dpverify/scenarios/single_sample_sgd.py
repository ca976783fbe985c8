"""Privacy of noisy SGD with one sample per step (replace-one neighbours), for ``SupBound``
statements and their audits.

``single_sample_sgd_privacy(noise_std=s, lipschitz=G, n_samples=n, horizon=T, eps=e, bound=...)``
measures the delta the algorithm achieves at ``eps`` (:mod:`dpverify.privacy.single_sample_sgd`):

* ``bound="upper"``: Renyi accounting of the dominating pair (a certified upper bound: a statement
  ``delta(eps) <= claimed`` that it supports holds);
* ``bound="lower"``: the hockey-stick divergence of an attained pair on one event (a certified lower
  bound: a statement it refutes is violated).

``linear_pair_sampler(...)`` is an audit sampler (:func:`dpverify.scenarios.dp_audit`): the final
iterate of the algorithm on the one-dimensional linear loss ``l(theta; x) = x theta`` (G-Lipschitz
for ``|x| <= G``) on the neighbouring data sets D = (x_i, x_o, ..., x_o) and D' = (x_i', x_o, ...,
x_o), the three values given by the claim's point (so the audit's search over the domain is a
search over neighbouring pairs). The final iterate is ``theta_1 - eta sum_t (x_{J_t} + b_t)``; it is
drawn exactly (K ~ Binomial(T, 1/n) draws of the replaced sample, a Gaussian sum) -- the same
distribution :func:`dpverify.sim.psgd` simulates step by step (tests).
"""
from __future__ import annotations

import numpy as np
import sympy as sp

from ..measured import Measured
from ..privacy import single_sample_sgd as ss
from .base import MappedScenario


class SingleSampleSGDPrivacy(MappedScenario):
    REQUIRED = ("noise_std", "lipschitz", "n_samples", "horizon", "eps")
    optimise = 1

    def __init__(self, params, *, bound: str = "upper"):
        super().__init__(params)
        if bound not in ("upper", "lower"):
            raise TypeError(f"single_sample_sgd_privacy: bound must be 'upper' or 'lower', got {bound!r}")
        self.bound_kind = bound
        self.name = ("one-sample noisy SGD, replace-one: delta by Renyi accounting of the dominating pair (upper)"
                     if bound == "upper" else
                     "one-sample noisy SGD, replace-one: delta of an attained pair on one event (lower)")

    def values(self, inst):
        m = self.map
        return (m.scalar("noise_std", inst), m.scalar("lipschitz", inst), int(round(m.scalar("n_samples", inst))),
                int(round(m.scalar("horizon", inst))), m.scalar("eps", inst))

    def measure(self, inst, runs, seed):
        s, G, n, T, e = self.values(inst)
        if self.bound_kind == "upper":
            return Measured.upper_bound(float(ss.single_sample_sgd_delta(e, s, G, n, T)))
        return Measured.lower_bound(float(ss.single_sample_sgd_delta_lower(e, s, G, n, T)))

    def describe(self, inst):
        s, G, n, T, e = self.values(inst)
        return f"{self.name}; noise std {s:.4g}, G={G:.4g}, n={n}, T={T}, eps={e:.4g}"


def single_sample_sgd_privacy(*, bound: str = "upper", **params) -> SingleSampleSGDPrivacy:
    """The delta of one-sample noisy SGD at a claimed eps, in a claim's own symbols (module docstring)."""
    return SingleSampleSGDPrivacy(params, bound=bound)


class PointExpressions:
    """SymPy expressions in a claim's domain parameters, evaluated in double precision at a point."""

    def __init__(self, **exprs):
        self.exprs = {k: sp.sympify(v) for k, v in exprs.items()}
        self._f = {}

    def __call__(self, point) -> dict:
        out = {}
        for k, e in self.exprs.items():
            f = self._f.get(k)
            if f is None:
                syms = sorted(e.free_symbols, key=str)
                f = self._f[k] = (sp.lambdify(syms, e, modules="math"), [str(s) for s in syms])
            fn, names = f
            out[k] = float(fn(*[float(point[nm]) for nm in names]))
        return out


class LinearPairSampler:
    """Audit sampler: final iterates of one-sample noisy SGD on a linear-loss neighbouring pair
    (module docstring)."""

    def __init__(self, *, noise_std, n_samples, horizon, replaced, replacement, others):
        self.values = PointExpressions(noise_std=noise_std, n_samples=n_samples, horizon=horizon,
                                       replaced=replaced, replacement=replacement, others=others)

    def __call__(self, point, side, size, rng):
        v = self.values(point)
        n, T = int(round(v["n_samples"])), int(round(v["horizon"]))
        xi = v["replaced"] if side == "D" else v["replacement"]
        K = rng.binomial(T, 1.0 / n, size=size)
        return K * xi + (T - K) * v["others"] + v["noise_std"] * np.sqrt(T) * rng.standard_normal(size)


def linear_pair_sampler(*, noise_std, n_samples, horizon, replaced, replacement, others) -> LinearPairSampler:
    """An audit sampler of one-sample noisy SGD on a linear-loss neighbouring pair (module docstring)."""
    return LinearPairSampler(noise_std=noise_std, n_samples=n_samples, horizon=horizon, replaced=replaced,
                             replacement=replacement, others=others)


__all__ = ["LinearPairSampler", "PointExpressions", "SingleSampleSGDPrivacy", "linear_pair_sampler",
           "single_sample_sgd_privacy"]
