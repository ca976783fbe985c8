"""Privacy of noisy SGD with one sample per step (replace-one neighbours), for ``SupBound``
statements and their audits.

``single_sample_sgd_privacy(noise_std=s, lipschitz=G, n_samples=n, horizon=T, eps=e, bound=...)``
measures the delta the algorithm achieves at ``eps`` (:mod:`dpverify.privacy.single_sample_sgd`):

* ``bound="upper"``: Renyi accounting of the dominating pair (a certified upper bound: a statement
  ``delta(eps) <= claimed`` that it supports holds);
* ``bound="lower"``: the hockey-stick divergence of an attained pair on one event (a certified lower
  bound: a statement it refutes is violated).

With ``delta=d`` instead of ``eps=`` it measures the eps the algorithm achieves at ``d``, with the
same direction: ``bound="upper"`` gives an eps at which the upper bound on delta is at most ``d``
(found by bisection; the algorithm's true eps at ``d`` is at most it), ``bound="lower"`` an eps at
which the lower bound on delta exceeds ``d`` (the true eps at ``d`` is above it). Only the point
the bisection returns carries the guarantee, so neither needs the bounds to be monotone.

``linear_pair_sampler(...)`` is an audit sampler (:func:`dpverify.scenarios.dp_audit`): the final
iterate of the algorithm on the one-dimensional linear loss ``l(theta; x) = x theta`` (G-Lipschitz
for ``|x| <= G``) on the neighbouring data sets D = (x_i, x_o, ..., x_o) and D' = (x_i', x_o, ...,
x_o), the three values given by the claim's point (so the audit's search over the domain is a
search over neighbouring pairs). The final iterate is ``theta_1 - eta sum_t (x_{J_t} + b_t)``; it is
drawn exactly (K ~ Binomial(T, 1/n) draws of the replaced sample, a Gaussian sum) -- the same
distribution :func:`dpverify.sim.psgd` simulates step by step (tests).
"""
from __future__ import annotations

import math

import numpy as np
import sympy as sp

from ...measured import Measured
from ...privacy import single_sample_sgd as ss
from ..base import MappedScenario

__all__ = ["LinearPairSampler", "SingleSampleSGDPrivacy", "eps_at_delta", "linear_pair_sampler", "single_sample_sgd_privacy"]


#: bisection steps of eps at delta (the interval shrinks to 2^-BISECT of its start)
BISECT = 50


#: eps at delta searched up to this value (beyond it the measurement is +inf: nothing certified)
EPS_MAX = 2.0**12


def eps_at_delta(delta_at, delta: float, bound: str) -> Measured:
    """The eps at ``delta`` from a bound ``delta_at(eps)`` on the algorithm's delta, in its direction:
    ``bound="upper"`` (``delta_at`` an upper bound) an eps whose ``delta_at`` is at most ``delta`` (an
    upper bound on the true eps), ``"lower"`` an eps whose ``delta_at`` exceeds ``delta`` (a lower
    bound on it); found by bisection, the guarantee checked at the point returned. Neither is clamped
    into a value: the upper one at 0 is an upper bound (the true eps may be below 0), and where the lower
    bound on delta at 0 is at most ``delta`` the lower one is ``ln(1 - delta)`` (true for every pair of
    distributions), not 0.

    >>> eps_at_delta(lambda e: math.exp(-e), 0.01, "upper").upper >= math.log(100)
    True
    """
    def ok(e):   # the true delta at e is at most delta (upper), or above it (lower)
        d = float(delta_at(e))
        return d <= delta if bound == "upper" else d > delta

    if bound == "upper":
        if ok(0.0):
            return Measured.upper_bound(0.0)
        lo, hi = 0.0, 1.0
        while not ok(hi):
            lo, hi = hi, 2 * hi
            if hi > EPS_MAX:
                return Measured.upper_bound(math.inf)
        for _ in range(BISECT):
            mid = (lo + hi) / 2
            lo, hi = (lo, mid) if ok(mid) else (mid, hi)
        return Measured.upper_bound(hi)
    if not ok(0.0):
        # Not 0: the true eps at delta may be negative. Every pair has delta(e) >= 1 - e^e (the whole
        # space as the event), so the true eps is at least ln(1 - delta), whatever ``delta_at`` says.
        return Measured.lower_bound(math.log1p(-delta) if delta < 1 else -math.inf)
    lo, hi = 0.0, 1.0
    while ok(hi):
        lo, hi = hi, 2 * hi
        if hi > EPS_MAX:
            return Measured.lower_bound(lo)
    for _ in range(BISECT):
        mid = (lo + hi) / 2
        lo, hi = (mid, hi) if ok(mid) else (lo, mid)
    return Measured.lower_bound(lo)


class SingleSampleSGDPrivacy(MappedScenario):
    """The delta at ``eps=`` (or the eps at ``delta=``) of one-sample noisy SGD, an upper or a lower
    bound (module docstring)."""
    REQUIRED = ("noise_std", "lipschitz", "n_samples", "horizon")
    OPTIONAL = ("eps", "delta")
    optimise = 1

    def __init__(self, params, *, bound: str = "upper"):
        super().__init__(params)
        if bound not in ("upper", "lower"):
            raise TypeError(f"single_sample_sgd_privacy: bound must be 'upper' or 'lower', got {bound!r}")
        given = [k for k in self.OPTIONAL if k in params]
        if len(given) != 1:
            raise TypeError("single_sample_sgd_privacy: give exactly one of eps= (delta at eps) or delta= (eps at "
                            f"delta), got {given or 'neither'}")
        self.bound_kind, self.target = bound, given[0]
        what = "delta" if self.target == "eps" else "eps at delta"
        self.name = (f"one-sample noisy SGD, replace-one: {what} by Renyi accounting of the dominating pair (upper)"
                     if bound == "upper" else
                     f"one-sample noisy SGD, replace-one: {what} of an attained pair on one event (lower)")

    def values(self, inst):
        m = self.map
        return (m.scalar("noise_std", inst), m.scalar("lipschitz", inst), int(round(m.scalar("n_samples", inst))),
                int(round(m.scalar("horizon", inst))), m.scalar(self.target, inst))

    def measure(self, inst, runs, seed):
        s, G, n, T, x = self.values(inst)
        delta_at = ss.single_sample_sgd_delta if self.bound_kind == "upper" else ss.single_sample_sgd_delta_lower
        if self.target == "delta":
            return eps_at_delta(lambda e: delta_at(e, s, G, n, T), float(x), self.bound_kind)
        if self.bound_kind == "upper":
            return Measured.upper_bound(float(delta_at(x, s, G, n, T)))
        return Measured.lower_bound(float(delta_at(x, s, G, n, T)))

    def describe(self, inst):
        s, G, n, T, x = self.values(inst)
        return f"{self.name}; noise std {s:.4g}, G={G:.4g}, n={n}, T={T}, {self.target}={x:.4g}"


def single_sample_sgd_privacy(*, bound: str = "upper", **params) -> SingleSampleSGDPrivacy:
    """The delta of one-sample noisy SGD at a claimed ``eps=`` (or its eps at a claimed ``delta=``), an
    upper (``bound="upper"``) or lower (``"lower"``) bound, in a claim's own symbols (module docstring).

    >>> import sympy as sp
    >>> s, G, n, T, d = sp.symbols("s G n T delta")
    >>> sc = single_sample_sgd_privacy(noise_std=s, lipschitz=G, n_samples=n, horizon=T, delta=d)
    """
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
