"""Uniform stability of noisy gradient descent, by coupled runs on neighbouring data sets.

Two data sets that differ in one sample (replaced, or removed with the normaliser kept) are run
with the *same* noise draws; the stability gap ``sup_x E[f(theta; x) - f(theta'; x)]`` is measured
on the final iterates. Loss families:

* ``"linear"``: per-sample loss <x, theta> with ||x|| <= G (convex, G-Lipschitz, 0-smooth, so
  M-smooth for every M); the gap equals G ||E(theta - theta')||, exactly from the coupled runs;
* ``"logistic"``: log(1 + exp(-<x, theta>)) with ||x|| = G (convex, G-Lipschitz, G^2/4-smooth: in
  the class only when G^2/4 <= M); the gap is measured at +-G u (u the mean direction of
  theta' - theta) by Monte Carlo, a lower estimate of the supremum.

Parameters (mapped onto a claim's symbols): ``lipschitz`` (G), ``step`` (eta_t), ``horizon`` (T),
``n_samples`` (N), ``smooth`` (M), optional ``noise_std`` (sigma_t, drawn in [0, 2] when not mapped:
the bound must hold for every noise level; the gradient noise's standard deviation is
``sigma_t G / N``) and ``batch`` (B). ``step`` and ``noise_std`` may use the step index ``t``
(``step=c / t``). With ``batch=B`` the algorithm is SGD: each step averages the gradients of B samples
drawn with replacement, the *same* indices in both runs (replace-one neighbours only); for the linear
family the gap is then the full-batch one exactly (each sample's expected weight is 1/N), for the
logistic family it is measured by Monte Carlo over noise and sampling.

The data and the replaced sample are drawn by Hypothesis; one draw in four is the class's extreme
pair: the replaced sample at norm G and its replacement its negative (the largest change of one
per-sample gradient a G-Lipschitz loss allows). From the worst instance the search finds, the supremum
check climbs (:meth:`CoupledStability.perturb`, :func:`~dpverify.search.climb`: the data, the replaced
sample, its replacement and an unmapped noise level moved, measured with the search's seed) and
confirms the instance it reaches at a fresh seed (``data["adversary"]``).
"""
from __future__ import annotations

import math

import numpy as np
from hypothesis import strategies as st

from ... import sim
from ...measured import Measured
from ..base import MappedScenario
from ..measuring import ULP, estimate

__all__ = ["CoupledStability", "coupled_stability"]


#: evaluations of the adversarial search over the data and the replaced sample, per statement
ADVERSARY_BUDGET = 16


class CoupledStability(MappedScenario):
    REQUIRED = ("lipschitz", "step", "horizon", "n_samples", "smooth")
    OPTIONAL = ("noise_std", "batch")
    STEPWISE = ("step", "noise_std")
    search_runs = 256
    adversary_budget = ADVERSARY_BUDGET

    def __init__(self, params, *, families=("linear",), adjacency="replace"):
        super().__init__(params)
        if "batch" in params and adjacency != "replace":
            raise TypeError("coupled_stability: batch= (SGD with sampling) couples the mini-batch indices of "
                            "replace-one neighbours; adjacency='remove' is not supported with it")
        for f in families:
            if f not in ("linear", "logistic"):
                raise TypeError(f"coupled_stability: family must be 'linear' or 'logistic', got {f!r}")
        if adjacency not in ("replace", "remove"):
            raise TypeError(f"coupled_stability: adjacency must be 'replace' or 'remove', got {adjacency!r}")
        self.families, self.adjacency = tuple(families), adjacency
        self.name = f"{'/'.join(self.families)} losses, {adjacency}-one neighbours"

    def _values(self, pt):
        m = self.map
        T = int(round(m.scalar("horizon", pt)))
        out = {"G": m.scalar("lipschitz", pt), "eta": np.asarray(m.steps("step", pt, T), float),
               "T": T, "N": int(round(m.scalar("n_samples", pt))), "M": m.scalar("smooth", pt)}
        if m.has("noise_std"):
            out["noise"] = np.asarray(m.steps("noise_std", pt, T), float)
        if m.has("batch"):
            out["B"] = int(round(m.scalar("batch", pt)))
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
            if draw(st.integers(0, 3)) == 0:        # the extreme pair: x_0 at norm G, replaced by -x_0
                u = X[0] / np.abs(X[0]).max() if np.any(X[0]) else np.eye(d)[0]   # scaled first: no underflow
                X[0] = G * u / np.linalg.norm(u)
                X[n] = -X[0]
            noise = v["noise"].tolist() if "noise" in v else draw(st.floats(0, 2))
            return {"point": pt, "family": fam, "X": X[:n].tolist(), "x_new": X[n].tolist(), "index": 0,
                    "noise": noise}

        return self.instances_from(build)

    def point(self, inst):
        return inst["point"]

    def make_instance(self, point):
        self._require_bound()
        v = self._values(point)
        X = np.full((v["N"], 1), v["G"])
        noise = v["noise"].tolist() if "noise" in v else 1.0
        return {"point": dict(point), "family": "linear", "X": X.tolist(), "x_new": [-v["G"]], "index": 0,
                "noise": noise}

    def perturb(self, inst, rng, scale):
        """A neighbour of ``inst`` inside the class, for the adversarial search: the replaced sample
        ``x_0`` or its replacement moved (a Gaussian step of ``scale`` G), the replacement moved towards
        ``-x_0`` (by the share ``scale``), the other samples moved, or the noise level moved in [0, 2]
        (when the claim does not map it). Rows are kept at norm at most G (linear losses) or exactly G
        (logistic losses, which are G-Lipschitz only there)."""
        v = self._values(inst["point"])
        G = float(v["G"])
        X, x_new = np.array(inst["X"], float), np.array(inst["x_new"], float)
        noise = inst["noise"]
        n, d = X.shape
        kind = int(rng.integers(0, 5 if isinstance(noise, list) else 6))
        if kind == 0:
            x_new += scale * G * rng.normal(size=d)
        elif kind == 1:
            X[0] += scale * G * rng.normal(size=d)
        elif kind == 2:
            x_new = (1 - scale) * x_new - scale * X[0]
        elif kind == 3 and n > 1:
            X[1:] += scale * G * rng.normal(size=(n - 1, d))
        elif kind == 4:
            for row in (X[0], x_new):
                nrm = np.linalg.norm(row)
                row[:] = G * (row / nrm if nrm > 0 else np.eye(d)[0])
        elif kind == 5:
            noise = float(np.clip(noise + scale * rng.normal(), 0.0, 2.0))
        rows = np.vstack([X, x_new])
        norms = np.maximum(np.linalg.norm(rows, axis=1, keepdims=True), 1e-300)
        rows = rows * (np.minimum(1.0, G / norms) if inst["family"] == "linear" else G / norms)
        after = np.linalg.norm(rows, axis=1)
        if not np.all(np.isfinite(rows)) or np.any(after > G * (1 + 1e-9)):
            return None     # a move that leaves the class (a row above G, e.g. a subnormal row rescaled) is not made
        return {**inst, "X": rows[:n].tolist(), "x_new": rows[n].tolist(), "noise": noise}

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
        sig = np.broadcast_to(np.asarray(inst["noise"], float), (v["T"],))
        noise_stds = sig * (float(v["G"]) / float(v["N"]))   # sigma_t G / N: the Gaussian mechanism's std
        if "B" in v and inst["family"] != "linear":       # SGD: shared indices; linear: E gap = full batch
            if np.ptp(noise_stds) > 0:
                raise ValueError("coupled_stability: batch= runs SGD with one noise level; noise_std varies with t")
            th_a, th_b, _ = sim.coupled_step_decay_sgd(
                a, b, np.zeros(d), v["eta"].tolist(), [1] * v["T"], [0] * v["T"], 0.0,
                float(noise_stds[0]) if v["T"] else 0.0, v["B"], runs, seed % (2**32), output="last")
        else:
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
        if best[1] == 0 and np.any(np.asarray(inst["noise"]) > 0):   # a noisy gap whose sample variance is 0: spread unknown
            return estimate(best[0], 0.0, runs)
        return best

    def describe(self, inst):
        v = self._values(inst["point"])
        eta = v["eta"]
        steps = f"eta={eta[0]:.4g}" if eta.size and np.ptp(eta) == 0 else f"eta_t in [{eta.min():.4g}, {eta.max():.4g}]"
        algo = f"SGD with batches of {v['B']} shared, " if "B" in v else ""
        return (f"{inst['family']} loss, N={v['N']}, T={v['T']}, {steps}, {algo}"
                f"{self.adjacency}-one neighbours, shared noise")


def coupled_stability(*, families=("linear",), adjacency="replace", **params) -> CoupledStability:
    """Uniform stability of noisy GD (or, with ``batch=``, noisy SGD) by coupled runs on neighbouring data
    sets, in a claim's own symbols: ``families`` of losses (``"linear"``, ``"logistic"``),
    ``adjacency`` (``"replace"`` or ``"remove"``); parameters ``lipschitz``, ``step`` (may use ``t``),
    ``horizon``, ``n_samples``, ``smooth``, optional ``noise_std`` (may use ``t``) and ``batch``. See the
    module docstring. For use in a ``SupBound(kind="stability")``.

    >>> import sympy as sp
    >>> G, c, T, N, M = sp.symbols("G c T N M")
    >>> t = sp.Symbol("t")
    >>> sc = coupled_stability(lipschitz=G, step=c / t, horizon=T, n_samples=N, smooth=M)
    """
    return CoupledStability(params, families=families, adjacency=adjacency)
