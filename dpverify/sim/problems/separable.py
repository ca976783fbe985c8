"""A separable, possibly non-convex data problem whose empirical risk is known in closed form.

:class:`SeparableLoss` has per-sample losses that differ by centred linear and non-convex
perturbations, so the empirical risk is ``sum_j u_j phi(w_j - c_j)`` whatever the samples; it
provides mini-batch gradients (``batch_grad``) for :func:`~dpverify.sim.step_decay.step_decay_sgd`
and measured curvature constants.
"""
from __future__ import annotations

import math

import numpy as np

from .base import Problem

__all__ = ["SeparableLoss"]

#: largest row length :func:`_row_sums` adds column by column
_ROW_SUM_COLUMNS = 4
_ROW_SUM_OK: dict[int, bool] = {}


def _row_sums_agree(D: int) -> bool:
    """Whether adding the columns of a ``(rows, D)`` array to ``0.0`` one after another gives
    NumPy's ``sum(axis=-1)`` bit for bit (checked once per ``D`` on hostile rows: signed zeros,
    cancellation at ``1e16``, overflow, infinities, NaN, subnormals, at several row counts)."""
    if D not in _ROW_SUM_OK:
        rng = np.random.default_rng(D)
        special = np.array([0.0, -0.0, 1.0, -1.0, 1e16, -1e16, 1e308, -1e308, np.inf, -np.inf, np.nan, 5e-324,
                            -5e-324, 2.2250738585072014e-308, 1e-16, 3.0])
        ok = True      # NaN bits are not compared: _row_sums gives NumPy's own sum where a NaN appears
        with np.errstate(all="ignore"):
            for rows in (1, 3, 8, 1023, 1024, 8192):
                v = special[rng.integers(0, special.size, size=(rows, D))] * rng.choice([1.0, 0.5, 3.0], (rows, D))
                v[: min(rows, 4)] = rng.standard_normal((min(rows, 4), D)) * 1e16
                ok = ok and np.array_equal(_column_sums(v), v.sum(axis=-1), equal_nan=True) and np.array_equal(
                    np.signbit(_column_sums(v)), np.signbit(v.sum(axis=-1)))
        _ROW_SUM_OK[D] = bool(ok)
    return _ROW_SUM_OK[D]


def _column_sums(v: np.ndarray) -> np.ndarray:
    out = np.zeros(v.shape[0])
    for j in range(v.shape[1]):
        out += v[:, j]
    return out


def _row_sums(v: np.ndarray) -> np.ndarray:
    """``v.sum(axis=-1)``, bit for bit; a ``(rows, D)`` array with ``D <= 4`` is summed a column at
    a time (NumPy's reduction over a short last axis pays one inner-loop call a row: 11 us for 1024
    rows of 2 against 1.5), when :func:`_row_sums_agree` found it NumPy's order on this machine
    (C-contiguous ``float64`` rows, what that check compares)."""
    if (v.ndim == 2 and v.shape[1] <= _ROW_SUM_COLUMNS and v.dtype == np.float64 and v.flags.c_contiguous
            and _row_sums_agree(v.shape[1])):
        out = _column_sums(v)
        # Which NaN a sum of two NaNs keeps (sign, payload) is the compiled loop's choice of operand
        # order: with a NaN anywhere (or inf - inf), NumPy's own sum gives NaN's bits too.
        if not np.isnan(np.add.reduce(out)):
            return out
    return v.sum(axis=-1)


class SeparableLoss(Problem):
    """Per-sample losses ``f(w; z_i) = sum_j u_j phi(w_j - c_j) + <a_i, w - c> + b_i sum_j psi(w_j - c_j)``
    (weights ``u_j > 0``, default 1).

    ``a`` (n x D) and ``b`` (n) are centred (``sum_i a_i = 0``, ``sum_i b_i = 0``), so the empirical
    risk is ``F(w) = sum_j phi(w_j - c_j)`` whatever the samples, minimised at ``c`` with ``F* =
    n phi(0)``-free value ``D phi(0)``. ``phi`` (the shape of F) and ``psi`` (a non-convex
    per-sample perturbation, ``psi(x) = sin(x)^2 / 2`` rescaled) are chosen by name:

    * ``"quadratic"``: ``phi(x) = lam x^2 / 2`` (``params = (lam,)``);
    * ``"sine"``: ``phi(x) = x^2/2 + (s/2) sin(x)^2`` (``params = (s,)``), non-convex for ``s > 1``,
      PL and one-point weakly quasi-convex on bounded sets (its constants measured by
      :meth:`pl_constant` and :meth:`quasi_convexity` on a box);
    * ``"huber"``: ``phi(x) = lam x^2/2`` for ``|x| <= r``, ``lam r |x| - lam r^2/2`` beyond
      (``params = (lam, r)``): lam-smooth, (lam r)-Lipschitz everywhere, PL only on bounded sets.

    ``with_sample(i, a_new, b_new)`` gives the neighbouring data set with sample ``i`` replaced (its
    empirical risk gains ``<a_new - a_i, w - c>/n + ...``; no longer centred).
    """

    PHIS = ("quadratic", "sine", "huber")

    def __init__(self, phi: str, params, center, a, b=None, *, weights=None, centred: bool = True):
        if phi not in self.PHIS:
            raise ValueError(f"phi must be one of {self.PHIS}, got {phi!r}")
        self.phi, self.params = phi, tuple(float(p) for p in params)
        self.center = np.asarray(center, dtype=float).reshape(-1)
        self.dim = self.center.size
        self.weights = np.ones(self.dim) if weights is None else np.asarray(weights, float).reshape(-1)
        if self.weights.size != self.dim or not np.all(self.weights > 0):
            raise ValueError(f"weights must be {self.dim} positive numbers, got {weights!r}")
        self.unit_weights = bool(np.all(self.weights == 1.0))
        self.a = np.asarray(a, dtype=float).reshape(-1, self.dim)
        self.n_samples = self.a.shape[0]
        self.b = np.zeros(self.n_samples) if b is None else np.asarray(b, dtype=float).reshape(-1)
        if self.b.size != self.n_samples:
            raise ValueError(f"b must have one entry per sample ({self.n_samples}), got {self.b.size}")
        if centred and (np.abs(self.a.sum(axis=0)).max() > 1e-9 * max(1.0, np.abs(self.a).sum())
                        or abs(self.b.sum()) > 1e-9 * max(1.0, np.abs(self.b).sum())):
            raise ValueError("a and b must be centred (sum over samples zero); pass centred=False for a neighbour")
        self.a_mean, self.b_mean = self.a.mean(axis=0), float(self.b.mean())
        self.any_a = bool(np.any(self.a_mean))
        self.has_b = bool(np.any(self.b))
        self.centred = centred
        # F = sum_j phi(w_j - c_j) (phi(0) = 0) when centred; a neighbour's minimum is not computed
        self.f_star = 0.0 if centred else float("nan")

    # ---------------------------------------------------------------- the shapes
    # Each shape's value and first two derivatives; only the one asked for is computed.
    def _phi(self, x, d=0):
        if self.phi == "quadratic":
            (lam,) = self.params
            return (lambda: lam * x * x / 2, lambda: lam * x, lambda: lam + 0 * x)[d]()
        if self.phi == "sine":
            (s,) = self.params
            return (lambda: x * x / 2 + s * np.sin(x) ** 2 / 2, lambda: x + s * np.sin(2 * x) / 2,
                    lambda: 1 + s * np.cos(2 * x))[d]()
        lam, r = self.params
        ax = np.abs(x)
        inside = ax <= r
        if d == 0:
            return np.where(inside, lam * x * x / 2, lam * r * ax - lam * r * r / 2)
        if d == 1:
            return np.where(inside, lam * x, lam * r * np.sign(x))
        return np.where(inside, lam, 0.0)

    @staticmethod
    def _psi(x, d=0):
        return (lambda: np.sin(x) ** 2 / 2, lambda: np.sin(2 * x) / 2, lambda: np.cos(2 * x))[d]()

    # ---------------------------------------------------------------- Problem interface
    def _wphi(self, x, d=0):
        v = self._phi(x, d)
        return v if self.unit_weights else v * self.weights

    def value(self, theta):
        x = np.asarray(theta, float) - self.center
        out = _row_sums(self._wphi(x))
        if self.any_a:
            out = out + x @ self.a_mean
        if self.b_mean:
            out = out + self.b_mean * _row_sums(self._psi(x))
        return out

    def excess(self, theta):
        v = self.value(theta)
        return v if self.f_star == 0.0 else v - self.f_star     # v - 0.0 is v, bit for bit (-0.0 too)

    def grad(self, theta, clip=None):
        if clip is not None:
            raise ValueError("SeparableLoss does not clip")
        x = np.asarray(theta, float) - self.center
        g = self._wphi(x, 1)
        if self.any_a:
            g = g + self.a_mean
        if self.b_mean:
            g = g + self.b_mean * self._psi(x, 1)
        return g

    #: gradients are computed row by row (elementwise), so a chunk may be processed at once
    elementwise = True

    def batch_grad(self, theta, idx, clip=None):
        """Mini-batch gradient ``(1/B) sum_{i in idx} grad f(theta; z_i)`` per row, ``idx`` (rows, B)."""
        if clip is not None:
            raise ValueError(f"clip must be None for SeparableLoss (it does not clip), got {clip!r}")
        x = np.asarray(theta, float) - self.center
        B = idx.shape[1]
        acc = self.a[idx[:, 0]]
        for k in range(1, B):
            acc += self.a[idx[:, k]]
        g = self._wphi(x, 1)
        g += acc / B
        if self.has_b:
            bb = self.b[idx[:, 0]]
            for k in range(1, B):
                bb = bb + self.b[idx[:, k]]
            g += (bb / B)[:, None] * self._psi(x, 1)
        return g

    def per_sample_grads(self, theta, clip=None):
        """``grad f(theta; z_i)`` for every sample at one ``theta`` (``(D,)``), shape ``(n, D)``."""
        if clip is not None:
            raise ValueError(f"clip must be None for SeparableLoss (it does not clip), got {clip!r}")
        x = np.asarray(theta, float) - self.center
        return self._wphi(x, 1)[None, :] + self.a + self.b[:, None] * self._psi(x, 1)[None, :]

    def affine_samples(self):
        """For ``phi = "quadratic"`` without ``b`` (a diagonal quadratic with per-sample shifts): sample ``i``'s
        gradient ``u lam (w - c) + a_i``, i.e. ``H_i = diag(u lam)``, ``c_i = u lam c - a_i``, ``w_i = 1/n``;
        ``None`` for the other shapes (not affine)."""
        if self.phi != "quadratic" or self.has_b:
            return None
        h = self.weights * self.params[0]
        n = self.n_samples
        return (np.broadcast_to(np.diag(h), (n, self.dim, self.dim)).copy(), (h * self.center)[None, :] - self.a,
                np.full(n, 1.0 / n))

    def with_sample(self, i: int, a_new, b_new: float = 0.0) -> "SeparableLoss":
        a = self.a.copy()
        b = self.b.copy()
        a[i] = np.asarray(a_new, float)
        b[i] = float(b_new)
        return SeparableLoss(self.phi, self.params, self.center, a, b, weights=self.weights, centred=False)

    # ---------------------------------------------------------------- measured constants (1-D scans)
    def _grid(self, radius, k=20001):
        return np.linspace(-radius, radius, k)

    def phi_constants(self, radius: float) -> dict:
        """On ``|x| <= radius``: PL constant ``min phi'^2/(2 (phi - phi(0)))``, one-point weak
        quasi-convexity ``min x phi'/(phi - phi(0))``, ``max phi''`` and ``max |phi'|`` (dense grid,
        then refined by a bounded scalar minimisation). ``F = sum_j phi(w_j - c_j)`` has the same
        PL and quasi-convexity constants (ratios of sums of non-negative terms)."""
        from scipy.optimize import minimize_scalar

        phi0 = float(self._phi(np.zeros(1))[0])

        def ratios(x):
            x = np.asarray(x, float)
            f = self._phi(x) - phi0
            d1 = self._phi(x, 1)
            return d1 * d1 / (2 * f), x * d1 / f

        x = self._grid(radius)
        x = x[np.abs(x) > 1e-6 * radius]
        out = {}
        for key, k in (("mu", 0), ("theta", 1)):
            r = ratios(x)[k]
            i = int(np.argmin(r))
            lo, hi = x[max(i - 1, 0)], x[min(i + 1, len(x) - 1)]
            best = float(r[i])
            if lo * hi > 0:  # refine inside the bracket (not across the minimiser, where the ratio is 0/0)
                res = minimize_scalar(lambda t: float(ratios([t])[k][0]), bounds=(min(lo, hi), max(lo, hi)),
                                      method="bounded", options={"xatol": 1e-12})
                best = min(best, float(res.fun))
            out[key] = best
        xs = self._grid(radius)
        out["beta"] = float(np.max(np.abs(self._phi(xs, 2))))
        out["max_grad"] = float(np.max(np.abs(self._phi(xs, 1))))
        return out

    def constants(self, radius: float) -> dict:
        """Every constant of the standing assumptions on the box ``|w_j - c_j| <= radius``:
        ``mu`` (PL of F), ``theta`` (one-point weak quasi-convexity of F at c), ``beta`` (smoothness
        of every per-sample loss), ``lipschitz`` (largest per-sample gradient norm on the box, over
        the samples), ``sample_var`` (largest (1/n) sum_i ||grad f_i - grad F||^2 on the box),
        ``loss_range`` (max - min of the per-sample losses on the box, an upper estimate)."""
        c = self.phi_constants(radius)
        if not self.centred:
            raise ValueError("constants are measured for a centred data set (its empirical risk is sum_j u_j phi)")
        bmax = float(np.abs(self.b).max()) if self.n_samples else 0.0
        D, u = self.dim, self.weights
        anorm = np.linalg.norm(self.a, axis=1)
        beta = float(u.max()) * c["beta"] + bmax
        lip = float(np.linalg.norm(u)) * c["max_grad"] + float((anorm + np.abs(self.b) * 0.5 * math.sqrt(D)).max())
        var = float(np.mean((anorm + np.abs(self.b) * 0.5 * math.sqrt(D)) ** 2))
        phi_max = float(np.max(self._phi(self._grid(radius)))) - float(self._phi(np.zeros(1))[0])
        rng = float(u.sum()) * phi_max + 2 * float(anorm.max()) * radius * math.sqrt(D) + bmax * D / 2
        return {"mu": float(u.min()) * c["mu"], "theta": c["theta"], "beta": beta, "lipschitz": lip,
                "sample_var": var, "loss_range": rng}

    def __repr__(self):
        return f"SeparableLoss(phi={self.phi}{self.params}, D={self.dim}, n={self.n_samples})"
