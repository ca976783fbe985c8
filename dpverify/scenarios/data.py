"""The ready-made data problems of Monte Carlo points (:class:`~dpverify.scenarios.points.MCPoint`), each
generated from a seed, its constants *measured* (``measured()``) and mapped onto a claim's symbols:

* :class:`LogisticData`: ridge logistic regression on ``make_classification`` data (``noisy_gd``,
  ``adaptive_gd``), whose start and curvature an adversarial search moves (``moved``);
* :class:`ERMData`: ridge logistic, Huber or least squares regression on generated data (output
  perturbation, random-round SGD);
* :class:`SeparableData`: a separable, possibly non-convex loss with centred per-sample shifts
  (step-decay SGD);
* :class:`CosineData`: the non-convex cosine sum (``adaptive_gd``).
"""
from __future__ import annotations

from dataclasses import dataclass, replace
from functools import lru_cache
from typing import Mapping

import numpy as np

from .. import sim
from ..sim.problems import CosineSum, SeparableLoss
from .points import SyntheticData

__all__ = ["CosineData", "ERMData", "LogisticData", "SMOOTH_FACTOR", "SeparableData", "aligned_data", "centred_rows", "classification_data", "regression_data", "separable_from_json"]


#: the per-sample smoothness of each loss family is ``SMOOTH_FACTOR[family] ||x||^2 + lam``
SMOOTH_FACTOR = {"least_squares": 1.0, "logistic": 0.25, "huber": 1.0}


@lru_cache(maxsize=16)
def classification_data(n: int, d: int, seed: int, scale: float = 1.0):
    """Standardised two-class data from scikit-learn's ``make_classification``, rows scaled to
    maximum norm ``scale``; labels in {-1, +1}."""
    from sklearn.datasets import make_classification

    X, y = make_classification(n_samples=n, n_features=d, n_informative=max(1, d - 1), n_redundant=0,
                               n_repeated=0, random_state=seed, class_sep=1.0)
    X = (X - X.mean(axis=0)) / X.std(axis=0)
    X = X * (scale / np.linalg.norm(X, axis=1).max())
    return X, np.where(y > 0, 1.0, -1.0)


@lru_cache(maxsize=32)
def _logistic_problem(n, d, seed, scale, lam, align=()):
    return sim.LogisticRegression(aligned_data(classification_data(n, d, seed, scale)[0], align, scale),
                                  classification_data(n, d, seed, scale)[1], lam)


def aligned_data(X, align, scale: float):
    """The rows of ``X`` with the share ``||align||`` of their component along ``align`` removed
    (``align = ()``: ``X`` unchanged), rescaled to maximum norm ``scale``: a data set of the same class
    (feature norms at most ``scale``) whose curvature along ``align`` is as small as the share makes it
    (all of it removed: only the ridge's).

    >>> import numpy as np
    >>> aligned_data(np.array([[1.0, 1.0], [0.0, 2.0]]), (1.0, 0.0), 1.0).tolist()
    [[0.0, 0.5], [0.0, 1.0]]
    """
    X = np.asarray(X, float)
    a = np.asarray(align, float)
    share = float(np.linalg.norm(a)) if a.size else 0.0
    if share == 0.0:
        return X
    u = a / share
    X = X - min(share, 1.0) * np.outer(X @ u, u)
    top = float(np.linalg.norm(X, axis=1).max())
    return X * (scale / top) if top > 0 else X


@dataclass(frozen=True, kw_only=True)
class LogisticData(SyntheticData):
    """Ridge-regularised logistic regression on ``make_classification`` data (n samples, d features,
    rows of maximum norm ``scale``): lam-strongly convex, (lam + scale^2/4)-smooth; its constants are
    measured from the data, not assumed.

    Two more instance parameters, which the adversarial search moves (both empty by default: the
    data as drawn, the start at 0): ``start``, the start theta_1, and ``align``, a vector of norm at
    most 1 whose direction loses that share of every row's component (:func:`aligned_data`), so
    that the search can take curvature away from a direction (the start's, for the slowest problem).

    >>> LogisticData(n=50, d=2, lam=0.1, start=(1.0, 0.0), align=(0.0, 1.0)).measured()["dim"]
    2
    """

    lam: float = 0.05
    start: tuple = ()
    align: tuple = ()
    family = "logistic"

    def __post_init__(self):
        object.__setattr__(self, "start", tuple(float(x) for x in self.start))
        object.__setattr__(self, "align", tuple(float(x) for x in self.align))

    def build(self):
        return _logistic_problem(self.n, self.d, self.data_seed, self.scale, self.lam, self.align)

    def theta1(self) -> np.ndarray:
        """The start theta_1 (0 unless ``start`` is given)."""
        return np.asarray(self.start, float) if self.start else np.zeros(self.d)

    def measured(self) -> dict:
        p = self.build()
        return {"smooth": float(p.M), "curvature": float(p.mu), "dim": self.d, "n_samples": self.n,
                "init_gap": float(p.value(self.theta1()) - p.f_star),
                "feature_norm": float(np.linalg.norm(p.X, axis=1).max())}

    def moved(self, rng, scale: float) -> "LogisticData":
        """A neighbour for the adversarial search: the start moved in the box ``|theta_i| <= 4 / scale``
        of the data's scale, or ``align`` moved (kept at norm at most 1: rows keep norm at most the
        data's scale), or both; one move in four takes all the curvature the data add from the start's
        direction (the data analogue of the quadratic's slow mode). ``scale`` in (0, 1] is the step.

        >>> LogisticData(n=20, d=2).moved(np.random.default_rng(0), 0.5).d
        2
        """
        d, box = self.d, 4.0 / self.scale
        start = self.theta1() if self.start else np.zeros(d)
        align = np.asarray(self.align, float) if self.align else np.zeros(d)
        kind = int(rng.integers(0, 4))
        if kind in (0, 2):
            start = np.clip(start + scale * box * rng.normal(size=d), -box, box)
        if kind in (1, 2):
            align = align + scale * rng.normal(size=d)
            align = align / max(1.0, float(np.linalg.norm(align)))
        if kind == 3:
            if not np.any(start):
                start = np.clip(box * rng.normal(size=d), -box, box)
            align = start / np.linalg.norm(start)
        return replace(self, start=tuple(start.tolist()), align=tuple(align.tolist()))

    def to_json(self) -> dict:
        out = super().to_json()
        out.update({k: list(getattr(self, k)) for k in ("start", "align") if getattr(self, k)})
        return out

    def describe(self) -> str:
        extra = "".join(f", {k}=({', '.join(f'{x:.3g}' for x in getattr(self, k))})"
                        for k in ("start", "align") if getattr(self, k))
        return f"ridge logistic regression (make_classification N={self.n}, D={self.d}, lambda={self.lam}{extra})"


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
def _erm_problem(family, n, d, lam, seed, scale):
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
        return _erm_problem(self.family, self.n, self.d, self.lam, self.data_seed, self.scale)

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
        return {"smooth": SMOOTH_FACTOR[self.family] * xmax * xmax + self.lam, "curvature": float(self.lam),
                "dim": self.d, "n_samples": self.n, "init_dist": R, "lipschitz": float(L),
                "init_gap": float(p.value(np.zeros(self.d)) - p.f_star)}

    def describe(self) -> str:
        return f"ridge {self.family} (scikit-learn generated, N={self.n}, D={self.d}, lambda={self.lam})"


def centred_rows(n: int, D: int, seed: int):
    """Centred per-sample directions: rows of unit norm (an odd n gets one zero row), sum zero."""
    rng = np.random.default_rng(seed)
    half = n // 2
    u = rng.normal(size=(half, D))
    u /= np.linalg.norm(u, axis=1, keepdims=True)
    rows = np.concatenate([u, -u] + ([np.zeros((1, D))] if n % 2 else []))
    signs = np.concatenate([np.ones(half), -np.ones(half)] + ([np.zeros(1)] if n % 2 else []))
    return rows, signs


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
    family = "separable"

    def build(self) -> SeparableLoss:
        rows, signs = centred_rows(self.n, self.dim, self.data_seed)
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
        return {"family": self.family, "phi": self.phi, "params": list(self.params), "dim": self.dim, "n": self.n,
                "a_scale": self.a_scale, "b_scale": self.b_scale, "start": self.start, "region": self.region,
                "weight": self.weight, "data_seed": self.data_seed}

    def describe(self) -> str:
        shape = {"sine": "x^2/2 + (s/2) sin^2 x (non-convex)", "quadratic": "lam x^2/2",
                 "huber": "Huber"}[self.phi]
        return (f"separable loss {self.weight:g} * phi, phi = {shape}, s/lam = {self.params}, D={self.dim}, n={self.n}, per-sample shifts "
                f"{self.a_scale:g}, box |w_j| <= {self.region:g}")


def separable_from_json(d: Mapping) -> SeparableData:
    d = dict(d)
    d.pop("family", None)
    d["params"] = tuple(d["params"])
    return SeparableData(**d)


@dataclass(frozen=True)
class CosineData:
    """The non-convex :class:`~dpverify.sim.problems.losses.CosineSum` ``F = sum_i a_i (1 - cos theta_i)`` started
    at ``theta1`` (its smoothness, dimension and starting gap, distance and gradient are measured)."""

    a: tuple = (1.0, 0.5, 0.25)
    theta1: tuple = (2.0, -1.0, 0.5)

    def build(self):
        return CosineSum(np.asarray(self.a, dtype=float))

    def start(self) -> np.ndarray:
        return np.asarray(self.theta1, dtype=float)

    def measured(self) -> dict:
        p = self.build()
        return {"smooth": float(p.M), "dim": p.dim}

    def to_json(self) -> dict:
        return {"family": "cosine", "a": list(self.a), "theta1": list(self.theta1)}

    def describe(self) -> str:
        return f"non-convex sum_i a_i (1 - cos theta_i), a = {list(self.a)}"
