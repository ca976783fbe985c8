"""The models of [hdp]'s experiments: a one-hidden-layer network with the logistic loss, and
logistic regression, vectorised over runs, as models for :func:`dpverify.sim.gated_sgd.gated_sgd`
(and any one-sample SGD).

``f(x) = v^T tanh(W x + b) + c``, per-sample loss ``log(1 + exp(-y f(x))) + (lam/2)||theta||^2`` with
``theta = (W, b, v, c)`` flattened (``h d + 2h + 1`` parameters). Smooth (tanh and the logistic
loss are), so L-smooth on bounded sets; not convex. Methods (``theta`` of shape ``(runs, dim)``):

* ``sample_grad(theta, idx)``: the gradient of sample ``idx[r]``'s loss at ``theta[r]`` (analytic),
  optionally clipped to norm ``clip`` (the usual device that bounds the per-sample gradient by G,
  which a network's loss does not do by itself);
* ``point_grad(theta, x, y)``: the gradient of one point's loss at every row;
* ``full_grad(theta)`` / ``value(theta)``: the empirical risk's gradient and value;
* ``hessian(theta)``: the empirical risk's Hessian by central differences of ``full_grad``
  (step ``1e-5``; symmetrised), for the influence of each sample;
* ``predict(theta, X)``: the sign of f.
"""
from __future__ import annotations

import numpy as np
import scipy  # its submodules load on first use (scipy's lazy loading), not at start-up

__all__ = ["Logistic", "OneHiddenLayer"]


def _real(name: str, value, *, positive: bool) -> float:
    """*value* as a float, finite and positive (or non-negative); ``ValueError`` naming *name* else."""
    ok = isinstance(value, (int, float, np.integer, np.floating)) and not isinstance(value, bool)
    out = float(value) if ok else float("nan")
    if not (np.isfinite(out) and (out > 0 if positive else out >= 0)):
        kind = "positive" if positive else "non-negative"
        raise ValueError(f"{name} must be a finite {kind} real number, got {value!r}")
    return out


class OneHiddenLayer:
    """One hidden layer of ``hidden`` tanh units, logistic loss, labels in {-1, +1} (module docstring)."""

    def __init__(self, X, y, hidden: int, lam: float = 0.0, clip: float | None = None):
        if isinstance(hidden, bool) or not isinstance(hidden, (int, np.integer)) or hidden < 1:
            raise ValueError(f"hidden must be a positive integer, got {hidden!r}")
        self._set_data(X, y, lam, clip)
        self.h = int(hidden)
        self.dim = self.h * self.d + 2 * self.h + 1

    def _set_data(self, X, y, lam, clip) -> None:
        """Validate and store the data (labels in {-1, +1}), ``lam`` and ``clip``."""
        X = np.asarray(X, dtype=np.float64)
        if X.ndim != 2 or X.size == 0 or not np.all(np.isfinite(X)):
            raise ValueError(f"X must be a non-empty finite 2-d array, got shape {X.shape}")
        y = np.asarray(y, dtype=np.float64)
        if y.shape != (X.shape[0],):
            raise ValueError(f"y must have shape ({X.shape[0]},), got shape {y.shape}")
        if not np.all(np.abs(y) == 1):
            raise ValueError(f"y must contain only -1 and +1 labels, got {np.unique(y)!r}")
        self.X, self.y = X, y
        self.n_samples, self.d = X.shape
        self.lam = _real("lam", lam, positive=False)
        self.clip = None if clip is None else _real("clip", clip, positive=True)

    def _regularise_and_clip(self, out, theta):
        """Add the ridge term to per-sample gradient rows and clip them to norm ``clip`` (in place)."""
        if self.lam:
            out += self.lam * theta
        if self.clip is not None:
            nrm = np.linalg.norm(out, axis=1, keepdims=True)
            out *= np.minimum(1.0, self.clip / np.maximum(nrm, np.finfo(float).tiny))
        return out

    # ------------------------------------------------------------------ parameters
    def unpack(self, theta):
        theta = np.asarray(theta, float)
        h, d = self.h, self.d
        W = theta[..., : h * d].reshape(theta.shape[:-1] + (h, d))
        b = theta[..., h * d: h * d + h]
        v = theta[..., h * d + h: h * d + 2 * h]
        c = theta[..., -1]
        return W, b, v, c

    def init(self, seed: int = 0, scale: float | None = None) -> np.ndarray:
        """A random starting point (Glorot-like scale for W and v, zeros for the biases)."""
        rng = np.random.default_rng(seed)
        s = scale if scale is not None else 1.0 / np.sqrt(self.d)
        theta = np.zeros(self.dim)
        theta[: self.h * self.d] = s * rng.standard_normal(self.h * self.d)
        theta[self.h * self.d + self.h: self.h * self.d + 2 * self.h] = rng.standard_normal(self.h) / np.sqrt(self.h)
        return theta

    # ------------------------------------------------------------------ per-sample quantities
    def _grad_rows(self, theta, x, y):
        """Gradient of the loss of point (x[r], y[r]) at theta[r], rows (r, dim)."""
        W, b, v, c = self.unpack(theta)
        a = np.tanh(np.einsum("rhd,rd->rh", W, x) + b)                 # (r, h)
        f = np.einsum("rh,rh->r", v, a) + c
        g = -y * scipy.special.expit(-y * f)                                           # dl/df
        dv = g[:, None] * a
        dz = (g[:, None] * v) * (1 - a * a)                              # (r, h)
        dW = dz[:, :, None] * x[:, None, :]
        out = np.concatenate([dW.reshape(len(x), -1), dz, dv, g[:, None]], axis=1)
        return self._regularise_and_clip(out, theta)

    def sample_grad(self, theta, idx):
        idx = np.asarray(idx)
        return self._grad_rows(np.asarray(theta, float), self.X[idx], self.y[idx])

    def point_grad(self, theta, x, y):
        theta = np.asarray(theta, float)
        r = theta.shape[0]
        return self._grad_rows(theta, np.repeat(np.asarray(x, float)[None], r, 0), np.full(r, float(y)))

    # ------------------------------------------------------------------ empirical risk
    def _forward(self, theta, X):
        W, b, v, c = self.unpack(theta)
        a = np.tanh(np.einsum("...hd,nd->...nh", W, X) + b[..., None, :])
        return a, np.einsum("...nh,...h->...n", a, v) + c[..., None]

    def value(self, theta):
        theta = np.asarray(theta, float)
        _, f = self._forward(theta, self.X)
        out = np.logaddexp(0.0, -self.y * f).mean(axis=-1)
        return out + 0.5 * self.lam * np.einsum("...d,...d->...", theta, theta) if self.lam else out

    def full_grad(self, theta):
        """Unclipped gradient of the empirical risk, rows (runs, dim)."""
        theta = np.atleast_2d(np.asarray(theta, float))
        W, b, v, c = self.unpack(theta)
        a, f = self._forward(theta, self.X)                              # (r, n, h), (r, n)
        g = -self.y * scipy.special.expit(-self.y * f) / self.n_samples                # (r, n)
        dv = np.einsum("rn,rnh->rh", g, a)
        dz = g[..., None] * v[:, None, :] * (1 - a * a)                  # (r, n, h)
        dW = np.einsum("rnh,nd->rhd", dz, self.X)
        out = np.concatenate([dW.reshape(len(theta), -1), dz.sum(axis=1), dv, g.sum(axis=1)[:, None]], axis=1)
        return out + self.lam * theta if self.lam else out

    def hessian(self, theta, step: float = 1e-5):
        """Hessian of the empirical risk by central differences of :meth:`full_grad` (runs, dim, dim)."""
        theta = np.atleast_2d(np.asarray(theta, float))
        r, m = theta.shape
        H = np.empty((r, m, m))
        for k in range(m):
            e = np.zeros(m)
            e[k] = step
            H[:, :, k] = (self.full_grad(theta + e) - self.full_grad(theta - e)) / (2 * step)
        return 0.5 * (H + H.transpose(0, 2, 1))

    def predict(self, theta, X):
        """Sign of f at every row of X, for every run: (runs, n)."""
        _, f = self._forward(np.atleast_2d(np.asarray(theta, float)), np.asarray(X, float))
        return np.where(f >= 0, 1.0, -1.0)


class Logistic(OneHiddenLayer):
    """Logistic regression ``f(x) = w^T x`` as a model of the same interface (no hidden layer), with
    optional per-sample gradient clipping and the analytic Hessian
    ``(1/n) sum_j s(f_j)(1 - s(f_j)) x_j x_j^T + lam I``."""

    def __init__(self, X, y, lam: float = 0.0, clip: float | None = None):
        self._set_data(X, y, lam, clip)
        self.h = 0
        self.dim = self.d

    def init(self, seed: int = 0, scale: float | None = None) -> np.ndarray:
        return np.zeros(self.dim)

    def _grad_rows(self, theta, x, y):
        f = np.einsum("rd,rd->r", theta, x)
        out = (-y * scipy.special.expit(-y * f))[:, None] * x
        return self._regularise_and_clip(out, theta)

    def _f(self, theta, X):
        return np.einsum("...d,nd->...n", np.asarray(theta, float), X)

    def value(self, theta):
        theta = np.asarray(theta, float)
        out = np.logaddexp(0.0, -self.y * self._f(theta, self.X)).mean(axis=-1)
        return out + 0.5 * self.lam * np.einsum("...d,...d->...", theta, theta) if self.lam else out

    def full_grad(self, theta):
        theta = np.atleast_2d(np.asarray(theta, float))
        g = -self.y * scipy.special.expit(-self.y * self._f(theta, self.X)) / self.n_samples
        return g @ self.X + self.lam * theta

    def hessian(self, theta, step: float = 0.0):
        theta = np.atleast_2d(np.asarray(theta, float))
        s = scipy.special.expit(self._f(theta, self.X))
        w = s * (1 - s) / self.n_samples
        return np.einsum("rn,nd,ne->rde", w, self.X, self.X) + self.lam * np.eye(self.dim)[None]

    def predict(self, theta, X):
        return np.where(self._f(np.atleast_2d(theta), np.asarray(X, float)) >= 0, 1.0, -1.0)
