"""Uniform stability of noisy gradient descent, by coupled runs on neighbouring data sets.

Two data sets that differ in one sample (replaced, or removed with the normaliser kept) are run
with the *same* noise draws; the stability gap ``sup_x E[f(theta; x) - f(theta'; x)]`` is measured
on the final iterates. Loss families:

* ``"linear"``: per-sample loss <x, theta> with ||x|| <= G (convex, G-Lipschitz, 0-smooth, so
  M-smooth for every M); the gap equals G ||E(theta - theta')||, exactly from the coupled runs;
* ``"logistic"``: log(1 + exp(-<x, theta>)) with ||x|| = G (convex, G-Lipschitz, G^2/4-smooth: in
  the class only when G^2/4 <= M); the gap is measured at +-G u (u the mean direction of
  theta' - theta) by Monte Carlo, a lower estimate of the supremum.

Parameters (mapped onto a claim's symbols): ``lipschitz`` (G), ``step`` (eta), ``horizon`` (T),
``n_samples`` (N), ``smooth`` (M), optional ``noise_std`` (drawn in [0, 2] when not mapped: the
bound must hold for every noise level). The replaced sample and the data are drawn by Hypothesis.
"""
from __future__ import annotations

import math

import numpy as np
from hypothesis import strategies as st

from .. import sim
from .base import MappedScenario
from ..measured import Measured
from .measuring import ULP, estimate


class CoupledStability(MappedScenario):
    REQUIRED = ("lipschitz", "step", "horizon", "n_samples", "smooth")
    OPTIONAL = ("noise_std",)
    search_runs = 256

    def __init__(self, params, *, families=("linear",), adjacency="replace"):
        super().__init__(params)
        for f in families:
            if f not in ("linear", "logistic"):
                raise TypeError(f"coupled_stability: family must be 'linear' or 'logistic', got {f!r}")
        if adjacency not in ("replace", "remove"):
            raise TypeError(f"coupled_stability: adjacency must be 'replace' or 'remove', got {adjacency!r}")
        self.families, self.adjacency = tuple(families), adjacency
        self.name = f"{'/'.join(self.families)} losses, {adjacency}-one neighbours"

    def _values(self, pt):
        m = self.map
        out = {"G": m.scalar("lipschitz", pt), "eta": m.scalar("step", pt),
               "T": int(round(m.scalar("horizon", pt))), "N": int(round(m.scalar("n_samples", pt))),
               "M": m.scalar("smooth", pt)}
        if m.has("noise_std"):
            out["noise"] = m.scalar("noise_std", pt)
        return out

    def strategy(self):
        def build(pt, draw):
            v = self._values(pt)
            fams = [f for f in self.families if f == "linear" or v["G"] ** 2 / 4 <= v["M"]]
            fam = draw(st.sampled_from(fams))
            n, d, G = v["N"], draw(st.integers(1, 3)), v["G"]
            rows = draw(st.lists(st.lists(st.floats(-1, 1), min_size=d, max_size=d), min_size=n + 1, max_size=n + 1))
            X = np.asarray(rows, float)
            norms = np.maximum(np.linalg.norm(X, axis=1, keepdims=True), 1e-12)
            X = G * X / np.maximum(norms, 1.0) if fam == "linear" else G * X / norms
            noise = v["noise"] if "noise" in v else draw(st.floats(0, 2))
            return {"point": pt, "family": fam, "X": X[:n].tolist(), "x_new": X[n].tolist(), "index": 0,
                    "noise": noise}

        return self.instances_from(build)

    def point(self, inst):
        return inst["point"]

    def make_instance(self, point):
        self._require_bound()
        v = self._values(point)
        X = np.full((v["N"], 1), v["G"])
        return {"point": dict(point), "family": "linear", "X": X.tolist(), "x_new": [-v["G"]], "index": 0,
                "noise": v.get("noise", 1.0)}

    def _problems(self, inst):
        X = np.asarray(inst["X"], float)
        a = sim.LinearLoss(X) if inst["family"] == "linear" else sim.LogisticRegression(X, np.ones(len(X)), 1e-9)
        if self.adjacency == "replace":
            b = sim.make_neighbour(a, inst["index"], np.asarray(inst["x_new"]))
        else:
            b = sim.remove_sample(a, inst["index"])
        return a, b

    def measure(self, inst, runs, seed):
        v = self._values(inst["point"])
        a, b = self._problems(inst)
        d = a.dim
        sig = np.full(v["T"], inst["noise"])
        noise_stds = sig * (float(v["G"]) / float(v["N"]))   # sigma_t G / N: the Gaussian mechanism's std
        th_a, th_b = sim.coupled_pgd(a, b, np.zeros(d), v["eta"], noise_stds, runs, seed % (2**32))
        G = v["G"]
        diff = th_a - th_b
        if inst["family"] == "linear":
            # the runs' difference is deterministic (linear losses: the gradients do not depend on theta);
            # its rounding is relative to the iterates' size, not to the difference's
            size = float(np.abs(th_a).max() + np.abs(th_b).max()) if th_a.size else 0.0
            gap = G * float(np.linalg.norm(diff.mean(axis=0)))
            return Measured.exact(gap, G * 8.0 * (v["T"] + 2) * d * ULP * size + 8 * ULP * gap)
        u = diff.mean(axis=0)
        nrm = np.linalg.norm(u)
        u = u / nrm if nrm > 0 else np.eye(d)[0]
        best = (-math.inf, 0.0)
        for sgn in (1.0, -1.0):
            x = sgn * G * u
            g = np.logaddexp(0.0, -(th_a @ x)) - np.logaddexp(0.0, -(th_b @ x))
            m = float(g.mean())
            if m > best[0]:
                best = (m, float(g.var(ddof=1)) if len(g) > 1 else 0.0)
        if best[1] == 0 and inst["noise"] > 0:   # a noisy gap whose sample variance is 0: spread unknown
            return estimate(best[0], 0.0, runs)
        return best

    def describe(self, inst):
        v = self._values(inst["point"])
        return (f"{inst['family']} loss, N={v['N']}, T={v['T']}, eta={v['eta']:.4g}, "
                f"{self.adjacency}-one neighbours, shared noise")


def coupled_stability(*, families=("linear",), adjacency="replace", **params) -> CoupledStability:
    """Uniform stability of noisy GD by coupled runs, in a claim's own symbols (module docstring)."""
    return CoupledStability(params, families=families, adjacency=adjacency)
