"""Additive-noise mechanisms ``M(x) = q(x) + Z`` measured on every neighbouring shift.

``additive_noise(noise=..., norm=..., sensitivity=Delta, scale=b, dim=k, eps=e)``: the shift
``a = q(x) - q(x')`` is drawn by Hypothesis on the sphere ``||a|| = Delta`` of the sensitivity's norm
(``"l1"`` or ``"l2"``; a shift inside the ball is never worse), and the scenario measures the exact
privacy of the pair (:mod:`dpverify.privacy.mechanisms`):

* ``noise="laplace"`` (i.i.d. Laplace(b) coordinates) and ``"norm_laplace"`` (density proportional
  to ``exp(-||z||_2 / b)``): the largest privacy loss, i.e. the pair's pure eps (``eps`` unused);
* ``noise="gaussian"`` (``N(0, b^2 I)``): the exact delta at ``eps``, or, given ``delta`` instead, the
  exact eps at ``delta`` (the profile inverted and bracketed in mpmath).
"""
from __future__ import annotations

import numpy as np
from hypothesis import strategies as st

from ...privacy.mechanisms import laplace_max_privacy_loss, norm_laplace_max_privacy_loss
from ..base import MappedScenario
from ..measuring import ULP, computed, gaussian_profile
from .gaussian import gaussian_eps_at

__all__ = ["AdditiveNoise", "NOISES", "additive_noise"]


_SEED, _BOOL = st.integers(0, 2**32 - 1), st.booleans()


NOISES = ("laplace", "norm_laplace", "gaussian")


class AdditiveNoise(MappedScenario):
    REQUIRED = ("sensitivity", "scale", "dim")
    OPTIONAL = ("eps", "delta")
    search_runs = 2
    optimise = 0

    def __init__(self, params, *, noise: str, norm: str):
        super().__init__(params)
        if noise not in NOISES:
            raise TypeError(f"additive_noise: noise must be one of {NOISES}, got {noise!r}")
        if norm not in ("l1", "l2"):
            raise TypeError(f"additive_noise: norm must be 'l1' or 'l2', got {norm!r}")
        if noise == "gaussian" and ("eps" in params) == ("delta" in params):
            raise TypeError("additive_noise: noise='gaussian' measures delta at eps= or eps at delta=; give exactly "
                            "one of them")
        if noise != "gaussian" and "delta" in params:
            raise TypeError(f"additive_noise: noise={noise!r} measures its pure eps; delta= is for noise='gaussian'")
        self.noise, self.norm = noise, norm
        self.name = f"{noise.replace('_', '-')} noise, shifts on the {norm} sensitivity sphere"

    def _shift(self, inst):
        m = self.map
        D = float(m.scalar("sensitivity", inst["point"]))
        u = np.asarray(inst["direction"], float)
        nrm = np.abs(u).sum() if self.norm == "l1" else np.linalg.norm(u)
        return D * u / nrm

    def strategy(self):
        def build(pt, draw):
            k = int(round(float(self.map.scalar("dim", pt))))
            rng = np.random.default_rng(draw(_SEED))
            u = rng.standard_normal(k)
            if draw(_BOOL):                   # along one axis
                u = np.eye(k)[int(rng.integers(0, k))]
            return {"point": pt, "direction": u.tolist()}

        return self.instances_from(build)

    def point(self, inst):
        return inst["point"]

    def make_instance(self, point):
        self._require_bound()
        k = int(round(float(self.map.scalar("dim", point))))
        return {"point": dict(point), "direction": [1.0] + [0.0] * (k - 1)}

    def measure(self, inst, runs, seed):
        a = self._shift(inst)
        b = float(self.map.scalar("scale", inst["point"]))
        ops = 4 * len(a) + 8
        if self.noise == "laplace":
            return computed(laplace_max_privacy_loss(a, b), ops)
        if self.noise == "norm_laplace":
            return computed(norm_laplace_max_privacy_loss(a, b), ops)
        mu = float(np.linalg.norm(a)) / b
        if self.map.has("delta"):
            return gaussian_eps_at(float(self.map.scalar("delta", inst["point"])), mu, mu_rel=ops * ULP)
        return gaussian_profile(float(self.map.scalar("eps", inst["point"])), mu, mu_error=mu * ops * ULP)

    def sampler(self, point, side, n, rng):
        """``n`` outputs at ``point`` on the side "D" (shift 0) or "D'" (the first axis shift)."""
        inst = self.instance_at(point)
        a = self._shift(inst) if side == "D'" else np.zeros(len(inst["direction"]))
        b = float(self.map.scalar("scale", point))
        k = len(a)
        if self.noise == "laplace":
            z = rng.laplace(0.0, b, size=(n, k))
        elif self.noise == "gaussian":
            z = b * rng.standard_normal((n, k))
        else:
            from ...sim import norm_laplace

            z = norm_laplace(rng, n, k, b)
        return a + z

    def describe(self, inst):
        return f"{self.name}, shift {np.round(self._shift(inst), 4).tolist()}"


def additive_noise(*, noise: str, norm: str = "l2", **params) -> AdditiveNoise:
    """An additive-noise mechanism ``q(x) + Z`` measured on every neighbouring shift of ``norm`` at most
    ``sensitivity``: ``noise="laplace"`` or ``"norm_laplace"`` (pure eps) or ``"gaussian"`` (delta at
    ``eps=``, or eps at ``delta=``); parameters ``sensitivity``, ``scale``, ``dim`` (module docstring).

    >>> import sympy as sp
    >>> D, b, k, delta = sp.symbols("Delta b k delta")
    >>> sc = additive_noise(noise="gaussian", sensitivity=D, scale=b, dim=k, delta=delta)
    """
    return AdditiveNoise(params, noise=noise, norm=norm)
