"""Sensitivity of full-batch gradient descent, by coupled runs on neighbouring data sets and an
adversarial search over the data and the replaced sample.

Two data sets of ``n`` samples that differ in one sample (replace-one) are each run through
``T`` steps of gradient descent ``w_{t+1} = w_t - eta grad F(w_t)`` from the same ``w_0``; the
scenario measures ``||w_T - w_T'||`` (the L2-sensitivity of GD on that pair). Losses (per sample,
linear models ``phi(x^T w, y) + (lam/2)||w||^2``):

* ``"least_squares"``: ``(x^T w - y)^2 / 2`` on bounded data (``||x||^2 <= (M - lam)``, ``|y|`` drawn);
* ``"logistic"``: ``log(1 + exp(-y x^T w))``, ``y = +-1`` (``||x||^2 / 4 <= M - lam``);
* ``"huber"``: Huber with threshold 1 (``||x||^2 <= M - lam``), whose saturated regime is linear.

The ridge coefficient ``lam`` is drawn in ``[curvature, M)``, zero included when ``curvature``
is 0, so every per-sample loss is convex (curvature-strongly convex) and ``M``-smooth: an instance
of the class the claim assumes, built inside it. The Lipschitz constant is *measured*: the
largest per-sample gradient norm on the ball that contains both runs
(``lipschitz_on_ball(r)``, r the largest iterate norm), over the samples of both data sets, and
is mapped onto the claim's symbol for it (so a bound in ``L`` is evaluated at the smallest ``L``
the instance allows). The search draws data sets and replaced samples by Hypothesis, and offers
the analytic worst case (:meth:`GDSensitivity.instance_at`: every other sample without features, the
differing sample's Huber gradient saturated and reversed) and a structured variant of it as shapes
among those it draws. From the worst instance found, the supremum check climbs
(:meth:`GDSensitivity.perturb`, ``ADVERSARY_BUDGET`` evaluations) and confirms the instance it reaches
(``data["adversary"]``; ``dpverify check --adversary 0`` turns it off).

Parameters (mapped onto a claim's symbols): ``smooth`` (M), ``step`` (eta), ``horizon`` (T),
``n_samples`` (n), optional ``curvature`` (mu, default 0) and ``lipschitz`` (the claim symbol that
receives the measured constant).
"""
from __future__ import annotations

import math

import numpy as np
from hypothesis import strategies as st

from ...measured import Measured
from ..base import MappedScenario
from ..data import SMOOTH_FACTOR
from ..measuring import ULP

__all__ = ["FAMILIES", "GDSensitivity", "LinearModelLoss", "coupled_gd", "gd_sensitivity"]


FAMILIES = ("least_squares", "logistic", "huber")


#: the largest label the adversarial search moves a least-squares or Huber label to
LABEL_CAP = 1e3


#: evaluations of the adversarial search over the data and the replaced sample, per statement
ADVERSARY_BUDGET = 24


# Hypothesis strategies of the instance shapes, built once (building them per draw costs more than drawing)
_SHAPES = {"canonical": st.integers(0, 2), "bool": st.booleans(), "ridge": st.floats(0.0, 0.9),
           "dim": st.integers(1, 3), "seed": st.integers(0, 2**32 - 1), "structured": st.integers(0, 2).map(lambda k: k == 2),
           "replace": st.integers(0, 3).map(lambda k: k if k < 3 else 0), "shrink": st.sampled_from([1.0, 1.0, 0.5, 0.1]),
           "label_scale": st.sampled_from([0.1, 1.0, 3.0, 30.0])}


class LinearModelLoss:
    """Gradients of ``(1/n) sum_i phi(x_i^T w, y_i) + (lam/2)||w||^2`` for the three families (only
    what gradient descent and the Lipschitz measurement need; the simulator's problem classes of
    the same losses also compute minimisers, which sensitivity does not use)."""

    def __init__(self, family: str, X, y, lam: float):
        self.family, self.X, self.y, self.lam = family, np.asarray(X, float), np.asarray(y, float), float(lam)
        self.n_samples, self.dim = self.X.shape

    def dloss(self, m):
        if self.family == "least_squares":
            return m - self.y
        if self.family == "logistic":
            return -self.y / (1.0 + np.exp(np.clip(self.y * m, -700, 700)))
        return np.clip(m - self.y, -1.0, 1.0)

    def grad(self, w):
        w = np.atleast_2d(w)
        return (self.dloss(w @ self.X.T) @ self.X) / self.n_samples + self.lam * w

    def lipschitz_on_ball(self, radius: float) -> float:
        """Largest per-sample gradient norm on ``||w|| <= radius``: ``|phi'| ||x|| + lam radius`` with
        ``|phi'| <= 1`` (logistic, Huber) or ``<= ||x|| radius + |y|`` (least squares)."""
        xn = np.sqrt((self.X ** 2).sum(axis=1))
        if self.family == "least_squares":
            per = xn * (xn * radius + np.abs(self.y))
        else:
            per = xn
        return float(per.max() + self.lam * radius)


def coupled_gd(pa, pb, w0, eta: float, T: int, distances: list | None = None):
    """Final iterates of GD on two problems from ``w0`` and the largest iterate norm met;
    ``distances`` (a list) receives ``||w_t - w_t'||`` for t = 0..T."""
    wa = np.asarray(w0, float)[None, :].copy()
    wb = wa.copy()
    r = float(np.linalg.norm(wa))
    if distances is not None:
        distances.append(0.0)
    for _ in range(int(T)):
        wa = wa - eta * pa.grad(wa)
        wb = wb - eta * pb.grad(wb)
        r = max(r, float(np.linalg.norm(wa)), float(np.linalg.norm(wb)))
        if distances is not None:
            distances.append(float(np.linalg.norm(wa - wb)))
    return wa[0], wb[0], r


class GDSensitivity(MappedScenario):
    """``||w_T - w_T'||`` of GD on neighbouring data sets (module docstring), searched adversarially."""

    REQUIRED = ("smooth", "step", "horizon", "n_samples")
    OPTIONAL = ("curvature", "lipschitz")
    search_runs = 2
    adversary_budget = ADVERSARY_BUDGET

    def __init__(self, params, *, families=FAMILIES, what: str = "GD"):
        super().__init__(params)
        for f in families:
            if f not in FAMILIES:
                raise TypeError(f"gd_sensitivity: family must be one of {FAMILIES}, got {f!r}")
        if "lipschitz" in params and not hasattr(params["lipschitz"], "is_Symbol"):
            raise TypeError("gd_sensitivity: lipschitz= must be the claim's symbol for the Lipschitz constant")
        self.families = tuple(families)
        self.what = what
        self.name = f"{what} on neighbouring data sets ({'/'.join(self.families)} losses, replace-one)"

    # ------------------------------------------------------------------ parameters
    def _values(self, pt):
        m = self.map
        v = {"M": float(m.scalar("smooth", pt)), "eta": float(m.scalar("step", pt)),
             "T": int(round(float(m.scalar("horizon", pt)))), "n": int(round(float(m.scalar("n_samples", pt))))}
        v["mu"] = float(m.scalar("curvature", pt)) if m.has("curvature") else 0.0
        return v

    def point(self, inst):
        """The claim's point with the measured Lipschitz constant (kept as drawn when the instance's
        losses are constant, i.e. 0-Lipschitz and so L-Lipschitz for every L)."""
        pt = dict(inst["point"])
        if self.map.has("lipschitz") and inst["L"] > 0:
            pt[str(self.params.exprs["lipschitz"])] = inst["L"]
        return pt

    # ------------------------------------------------------------------ instances
    def _finish(self, inst):
        """Measure the instance (GD on both data sets) and record L and the distance."""
        v = self._values(inst["point"])
        pa, pb = self.problems(inst)
        dist: list = []
        wa, wb, r = coupled_gd(pa, pb, inst["w0"], v["eta"], v["T"], dist)
        inst["distances"] = dist
        inst["L"] = max(pa.lipschitz_on_ball(r), pb.lipschitz_on_ball(r))
        inst["distance"] = float(np.linalg.norm(wa - wb))
        inst["w_T"], inst["w_T_prime"] = wa.tolist(), wb.tolist()
        return inst

    def problems(self, inst):
        X = np.asarray(inst["X"], float)
        y = np.asarray(inst["y"], float)
        Xb, yb = X.copy(), y.copy()
        Xb[-1], yb[-1] = inst["x_new"], inst["y_new"]
        return (LinearModelLoss(inst["family"], X, y, inst["lam"]),
                LinearModelLoss(inst["family"], Xb, yb, inst["lam"]))

    def strategy(self):
        S = _SHAPES

        def build(pt, draw):
            if draw(S["canonical"]) == 0 and "huber" in self.families:
                return self.instance_at(pt)     # the analytic worst case at this point
            v = self._values(pt)
            fam = self.families[draw(st.integers(0, len(self.families) - 1))]
            n, M, mu = v["n"], v["M"], v["mu"]
            lam = mu + draw(S["ridge"]) * (M - mu) if mu > 0 or draw(S["bool"]) else 0.0
            room = max(M - lam, 0.0) / SMOOTH_FACTOR[fam]
            d = draw(S["dim"])
            # the data come from one drawn seed (numpy), the shapes from Hypothesis draws
            rng = np.random.default_rng(draw(S["seed"]))
            if draw(S["structured"]):
                X = np.zeros((n, d))
                X[-1, 0] = 1.0
                x_new = X[-1].copy()
            else:
                A = rng.uniform(-1, 1, size=(n + 1, d))
                X, x_new = A[:n], A[n]
                flip = draw(S["replace"])
                if flip:
                    x_new = -X[-1] if flip == 1 else X[-1].copy()
            norm = max(np.linalg.norm(np.vstack([X, x_new]), axis=1).max(), 1e-12)
            k = math.sqrt(room) * draw(S["shrink"]) / norm
            X, x_new = X * k, x_new * k
            if fam == "logistic":
                y, y_new = np.where(rng.uniform(size=n) < 0.5, -1.0, 1.0), (-1.0 if rng.uniform() < 0.5 else 1.0)
            else:
                scale = draw(S["label_scale"])
                y, y_new = scale * rng.uniform(-1, 1, size=n), scale * rng.uniform(-1, 1)
            if draw(S["bool"]):
                y_new = -y[-1]
            w0 = np.zeros(d) if draw(S["bool"]) else rng.uniform(-1, 1, size=d)
            return self._finish({"point": pt, "family": fam, "lam": float(lam), "X": X.tolist(),
                                 "y": y.tolist(), "x_new": x_new.tolist(), "y_new": float(y_new),
                                 "w0": w0.tolist()})

        return self.instances_from(build)

    def make_instance(self, point):
        """The structured worst case: one-dimensional Huber losses, every sample but the last
        without features, the last one's gradient saturated at +-u on the two data sets (labels
        +-s far beyond the threshold), lam = curvature, u^2 <= M - lam and, when the claim names a
        Lipschitz constant L, u (1 + lam T eta/n) <= L so that the instance is L-Lipschitz on the
        ball its runs stay in (the iterates move by at most eta u/n per step)."""
        self._require_bound()
        v = self._values(point)
        n, lam = v["n"], v["mu"]
        u = math.sqrt(max(v["M"] - lam, 0.0))
        if self.map.has("lipschitz"):
            u = min(u, float(point[str(self.params.exprs["lipschitz"])]) / (1.0 + lam * v["T"] * v["eta"] / max(n, 1)))
        s = 2.0 + 2.0 * v["T"] * v["eta"] * u * u / max(n, 1) + 10.0 * u
        X = np.zeros((n, 1))
        X[-1, 0] = u
        y = np.zeros(n)
        y[-1] = s
        return self._finish({"point": dict(point), "family": "huber", "lam": float(lam), "X": X.tolist(),
                             "y": y.tolist(), "x_new": [u], "y_new": -s, "w0": [0.0]})

    def perturb(self, inst, rng, scale):
        """A neighbour of ``inst`` inside the class, for the adversarial search: one of the replaced
        sample ``x_n`` or its replacement moved (a Gaussian step of ``scale`` times the largest feature
        norm the smoothness allows), both set to that norm along their directions, their labels moved
        (least squares, Huber: a step of ``scale`` times the labels' size, ``|y| <= LABEL_CAP``; logistic:
        a sign flipped), the other samples shrunk or moved, the start ``w_0`` moved, or the ridge
        ``lam`` moved in ``[curvature, M)`` (features rescaled to stay inside the smoothness). Features
        are kept at ``||x||^2 <= (M - lam)`` (``4 (M - lam)`` for logistic); the instance is measured again."""
        v = self._values(inst["point"])
        fam, lam = inst["family"], float(inst["lam"])
        X, y = np.array(inst["X"], float), np.array(inst["y"], float)
        x_new, y_new, w0 = np.array(inst["x_new"], float), float(inst["y_new"]), np.array(inst["w0"], float)
        n, d = X.shape
        kind = int(rng.integers(0, 7))
        if kind == 6:
            lo = v["mu"]
            frac = (lam - lo) / (v["M"] - lo) if v["M"] > lo else 0.0
            lam = lo + float(np.clip(frac + scale * rng.normal(), 0.0, 0.95)) * (v["M"] - lo)
        cap = math.sqrt(max(v["M"] - lam, 0.0) / SMOOTH_FACTOR[fam])
        if kind in (0, 1):
            row = x_new if kind == 0 else X[-1]
            row += scale * cap * rng.normal(size=d)
        elif kind == 2:
            for a in (X[-1], x_new):
                nrm = np.linalg.norm(a)
                a[:] = cap * (a / nrm if nrm > 0 else np.eye(d)[0])
        elif kind == 3:
            if fam == "logistic":
                if rng.integers(0, 2):
                    y_new = -y_new
                else:
                    y[-1] = -y[-1]
            else:
                size = max(1.0, abs(y_new), abs(y[-1]))
                y[-1] += scale * size * rng.normal()
                y_new += scale * size * rng.normal()
                y[-1], y_new = float(np.clip(y[-1], -LABEL_CAP, LABEL_CAP)), float(np.clip(y_new, -LABEL_CAP, LABEL_CAP))
        elif kind == 4 and n > 1:
            if rng.integers(0, 2):
                X[:-1] *= 1.0 - scale * rng.uniform()
            else:
                X[:-1] += scale * cap * rng.normal(size=(n - 1, d))
        elif kind == 5:
            w0 += scale * max(1.0, float(np.linalg.norm(w0))) * rng.normal(size=d)
        rows = np.vstack([X, x_new])
        norms = np.linalg.norm(rows, axis=1, keepdims=True)
        rows = rows * np.minimum(1.0, cap / np.maximum(norms, 1e-300))
        return self._finish({"point": dict(inst["point"]), "family": fam, "lam": lam, "X": rows[:n].tolist(),
                             "y": y.tolist(), "x_new": rows[n].tolist(), "y_new": y_new, "w0": w0.tolist()})

    def distance_error(self, inst) -> float:
        """An estimate of the rounding in ``||w_T - w_T'||``: ``4 (n + D + 2)`` roundings per step of the
        iterates' size, over ``T`` steps (GD with ``eta M <= 2`` does not amplify earlier errors)."""
        v = self._values(inst["point"])
        size = float(np.linalg.norm(inst["w_T"]) + np.linalg.norm(inst["w_T_prime"]))
        return 4.0 * (v["n"] + len(inst["w0"]) + 2) * (v["T"] + 1) * ULP * size

    def measure(self, inst, runs, seed):
        return Measured.exact(float(inst["distance"]), self.distance_error(inst) + 4 * ULP * float(inst["distance"]))

    def describe(self, inst):
        v = self._values(inst["point"])
        return (f"{inst['family']} loss (lam={inst['lam']:.3g}), n={v['n']}, D={len(inst['w0'])}, T={v['T']}, "
                f"eta={v['eta']:.4g}, measured L={inst['L']:.4g}, ||w_T - w_T'||={inst['distance']:.4g}")


def gd_sensitivity(*, families=FAMILIES, **params) -> GDSensitivity:
    """L2-sensitivity of gradient descent on neighbouring data sets, in a claim's own symbols."""
    return GDSensitivity(params, families=families)
