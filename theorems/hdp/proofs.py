"""Quantities defined by the proofs and the Algorithm 1 of [hdp] ("Data Heterogeneity Differential
Privacy: From Theory to Algorithm", seed 004_9fced7ebb2318939.txt), which only its claims use.

* the data families the claims are checked on, and their constants (smoothness L, PL constant mu,
  initial gap, Lipschitz constant G on the parameter ball) as functions of the claim's parameters,
  in double precision or in mpmath;
* the contribution test of Algorithm 1 (lines 7-10) and the probability that a sample escapes the
  noise; the leak of the noise-free branch (Theorem 5);
* exact generalisation quantities of one-sample SGD on a finite-support distribution (Lemma 1,
  Theorems 2 and 3);
* influence-function quantities of Theorem 4 and the sensitivity of c_t (proof of Theorem 5).
"""
from __future__ import annotations

import math
from functools import lru_cache

import mpmath
import numpy as np
from sympy.utilities.lambdify import implemented_function

from dpverify.measured import Measured
from dpverify.scenarios import seeded_least_squares


def _is_mp(*xs) -> bool:
    """Compute in mpmath when called with mpmath numbers or inside a raised working precision (the
    checks evaluate integer parameters as Python ints even in mpmath)."""
    return mpmath.mp.dps > 15 or any(isinstance(x, (mpmath.mpf, mpmath.mpc)) for x in xs)


def _ints(*xs):
    return tuple(int(round(float(x))) for x in xs)


# --------------------------------------------------------------------------- least-squares data
@lru_cache(maxsize=4096)
def ls_data(n: int, m: int, seed: int):
    """The least-squares data of a claim point: ``seeded_least_squares(n, m, seed)``."""
    return seeded_least_squares(n, m, seed)


def _ls_point(pt):
    return ls_data(*_ints(pt["n"], pt["m"], pt["seed"]))


@lru_cache(maxsize=4096)
def _ls_constants_mp(n, m, seed, dps):
    X, y, th1 = ls_data(n, m, seed)
    with mpmath.workdps(dps):
        Xm = mpmath.matrix([[mpmath.mpf(float(v)) for v in row] for row in X])
        ym = mpmath.matrix([mpmath.mpf(float(v)) for v in y])
        smooth = max(mpmath.fsum(Xm[j, a] ** 2 for a in range(m)) for j in range(n))
        H = Xm.T * Xm / n
        eig = mpmath.eigsy(H)[0]
        mu = min(eig[i] for i in range(m))
        th = mpmath.lu_solve(H, Xm.T * ym / n)
        t1 = mpmath.matrix([mpmath.mpf(float(v)) for v in th1])
        r_star, r_1 = Xm * th - ym, Xm * t1 - ym
        gap = (mpmath.fsum(r_1[i] ** 2 for i in range(n)) - mpmath.fsum(r_star[i] ** 2 for i in range(n))) / (2 * n)
        return smooth, mu, gap


@lru_cache(maxsize=4096)
def _ls_constants(n, m, seed):
    X, y, th1 = ls_data(n, m, seed)
    H = X.T @ X / n
    th = np.linalg.solve(H, X.T @ y / n)
    gap = 0.5 * (np.mean((X @ th1 - y) ** 2) - np.mean((X @ th - y) ** 2))
    return float(np.max(np.einsum("jd,jd->j", X, X))), float(np.linalg.eigvalsh(H)[0]), float(gap)


def _ls_constant(k):
    def f(n, m, seed):
        args = _ints(n, m, seed)
        if _is_mp(n, m, seed):
            return _ls_constants_mp(*args, mpmath.mp.dps)[k]
        return _ls_constants(*args)[k]
    return f


#: Smoothness of the per-sample loss 1/2 (x^T theta - y)^2: max_j ||x_j||^2.
LS_SMOOTH = implemented_function("L_ls", _ls_constant(0))
#: PL constant of L(theta; D) = (1/2n)||X theta - y||^2: lambda_min(X^T X / n).
LS_MU = implemented_function("mu_ls", _ls_constant(1))
#: L(theta_1; D) - L*.
LS_GAP = implemented_function("Delta_ls", _ls_constant(2))


def ls_data_of_point(pt):
    """``(X, y, theta_1)`` of a claim point with parameters n, m, seed (for :func:`one_sample_sgd`)."""
    return _ls_point(pt)


# --------------------------------------------------------------------------- eq. (2)
def noise_needed_lower(eps, delta, G, n, T) -> float:
    """A closed-form noise std below which one-sample noisy SGD with T steps on n samples cannot be
    (eps, delta)-DP (replace-one, gradients bounded by G).

    On the attained pair of :mod:`dpverify.privacy.single_sample_sgd` the event "some increment is
    below 0" has probability at least ``h = 1 - (1 - 1/(2n))^T`` on D (the replaced sample is drawn
    and its noise is below its mean) and at most ``T Phi(-G/s)`` on D'. (eps, delta)-DP needs
    ``h - e^eps T Phi(-G/s) <= delta``, i.e. ``s >= G / Phi^{-1}(1 - (h - delta) e^{-eps} / T)``
    (0 when ``h <= delta``: no noise is needed for that delta)."""
    from scipy.special import ndtri_exp

    eps, delta, G, n, T = float(eps), float(delta), float(G), int(round(float(n))), int(round(float(T)))
    h = -math.expm1(T * math.log1p(-0.5 / n))
    if h <= delta:
        return 0.0
    logp = math.log(h - delta) - eps - math.log(T)
    if logp >= math.log(0.5):
        return math.inf
    return G / float(-ndtri_exp(logp))


NOISE_NEEDED = implemented_function("sigma_needed", noise_needed_lower)


# --------------------------------------------------------------------------- rank-deficient least squares
def _rng(*key):
    return np.random.default_rng(np.random.SeedSequence(int(key[0]), spawn_key=tuple(int(k) for k in key[1:])))


@lru_cache(maxsize=4096)
def rd_data(n: int, m: int, k: int, seed: int):
    """Least-squares data of rank <= k: the first k coordinates of each row uniform in [-1, 1], the
    other m - k exactly 0 (so the rank is exact in every precision), rows scaled into the unit ball;
    labels uniform in [-1, 1]; a unit direction v (generic: it has a component in the null space)."""
    rng = _rng(seed, n, m, k)
    X = np.zeros((n, m))
    X[:, :k] = rng.uniform(-1, 1, size=(n, k))
    X /= np.maximum(np.linalg.norm(X, axis=1, keepdims=True), 1.0)
    y = rng.uniform(-1, 1, size=n)
    v = rng.normal(size=m)
    return X, y, v / np.linalg.norm(v)


def _mp_ls(X, y, dps):
    """Min-norm minimiser, PL constant (smallest positive eigenvalue of X^T X/n), the projector on
    the row space and the Hessian, in mpmath (rank from the eigenvalues, relative 1e-9)."""
    n, m = X.shape
    with mpmath.workdps(dps):
        Xm = mpmath.matrix([[mpmath.mpf(float(v)) for v in row] for row in X])
        ym = mpmath.matrix([mpmath.mpf(float(v)) for v in y])
        H = Xm.T * Xm / n
        E, Q = mpmath.eigsy(H)
        top = max(abs(E[i]) for i in range(m))
        keep = [i for i in range(m) if E[i] > top * mpmath.mpf("1e-9")]
        P = mpmath.zeros(m, m)
        for i in keep:
            P += Q[:, i] * Q[:, i].T
        b = Xm.T * ym / n
        th = mpmath.zeros(m, 1)
        for i in keep:
            th += Q[:, i] * ((Q[:, i].T * b)[0] / E[i])
        mu = min(E[i] for i in keep)
        return Xm, ym, H, P, th, mu


def _ls_value(Xm, ym, th):
    r = Xm * th - ym
    return mpmath.fsum(r[i] ** 2 for i in range(r.rows)) / (2 * r.rows)


@lru_cache(maxsize=4096)
def _qg(n, m, k, seed, s, project, dps):
    X, y, v = rd_data(n, m, k, seed)
    with mpmath.workdps(dps):
        Xm, ym, H, P, th, mu = _mp_ls(X, y, dps)
        d = mpmath.matrix([mpmath.mpf(float(a)) for a in v]) * mpmath.mpf(s)
        theta = th + d
        ref = th + (mpmath.eye(m) - P) * d if project else th   # projection of theta on the minimisers
        dist2 = mpmath.fsum((theta[i] - ref[i]) ** 2 for i in range(m))
        return mu / 2 * dist2, _ls_value(Xm, ym, theta) - _ls_value(Xm, ym, th)


@lru_cache(maxsize=4096)
def _qg_float(n, m, k, seed, s, project):
    """:func:`_qg` in double precision (the screen; close points are decided in mpmath)."""
    X, y, v = rd_data(n, m, k, seed)
    H = X.T @ X / n
    E, Q = np.linalg.eigh(H)
    keep = E > E.max() * 1e-9
    P = Q[:, keep] @ Q[:, keep].T
    th = Q[:, keep] @ ((Q[:, keep].T @ (X.T @ y / n)) / E[keep])
    d = v * s
    ref = th + (np.eye(m) - P) @ d if project else th
    val = lambda t: 0.5 * np.mean((X @ t - y) ** 2)  # noqa: E731
    return float(E[keep].min()) / 2 * float(np.sum((th + d - ref) ** 2)), float(val(th + d) - val(th))


def _qg_fn(part, project):
    def f(n, m, k, seed, s):
        if not _is_mp(s):
            return _qg_float(*_ints(n, m, k, seed), float(s), project)[part]
        return _qg(*_ints(n, m, k, seed), float(s), project, max(mpmath.mp.dps, 30))[part]
    return f


#: Remark 2 with theta* the (minimum-norm) optimal model: mu/2 ||theta - theta*||^2 and L(theta) - L*.
QG_LHS = implemented_function("qg_lhs", _qg_fn(0, False))
QG_RHS = implemented_function("qg_rhs", _qg_fn(1, False))
#: ... with theta* the projection of theta on the set of minimisers (Karimi et al. 2016).
QG_LHS_PROJ = implemented_function("qg_lhs_proj", _qg_fn(0, True))


# --------------------------------------------------------------------------- eq. (9)
def _eq9_data(n, m, k, seed, t, yr):
    X, y, v = rd_data(n, m, k, seed)
    rng = _rng(seed, n, m, k, 1)
    w = rng.normal(size=m)
    Xp, yp = X.copy(), y.copy()
    Xp[0] = X[0] + t * w / np.linalg.norm(w)
    Xp[0] /= max(1.0, np.linalg.norm(Xp[0]))
    yp[0] = yr
    return X, y, Xp, yp


@lru_cache(maxsize=4096)
def _eq9_float(n, m, k, seed, t, yr, project=False):
    """:func:`_eq9` in double precision (the screen)."""
    X, y, Xp, yp = _eq9_data(n, m, k, seed, t, yr)

    def mn(A, b):
        H = A.T @ A / n
        E, Q = np.linalg.eigh(H)
        keep = E > E.max() * 1e-9
        P = Q[:, keep] @ Q[:, keep].T
        return Q[:, keep] @ ((Q[:, keep].T @ (A.T @ b / n)) / E[keep]), float(E[keep].min()), P

    th, mu, P = mn(X, y)
    thp, _, _ = mn(Xp, yp)
    if project:    # the minimiser of D nearest theta_i*: theta* plus the null-space part of theta_i*
        th = th + (np.eye(m) - P) @ thp
    r = max(np.linalg.norm(th), np.linalg.norm(thp))
    allX, ally = np.vstack([X, Xp[:1]]), np.concatenate([y, yp[:1]])
    xn = np.linalg.norm(allX, axis=1)
    G = float(np.max(xn * (xn * r + np.abs(ally))))
    return float(np.linalg.norm(th - thp)), 4 * G / (n * mu)


@lru_cache(maxsize=4096)
def _eq9(n, m, k, seed, t, yr, project=False):
    """||theta_i* - theta*|| and 4G/(n mu) for D (rank <= k) and D' = D with x_0 replaced by
    x_0 + t w (a fresh direction), label yr; minimisers of minimum norm (with ``project``, theta* the
    minimiser of D nearest theta_i*, its projection on D's minimisers); G the Lipschitz constant of
    the per-sample losses of D and D' on the ball of radius max(||theta*||, ||theta_i*||)."""
    X, y, Xp, yp = _eq9_data(n, m, k, seed, t, yr)
    dps = max(mpmath.mp.dps, 30)
    with mpmath.workdps(dps):
        _, _, _, P, th, mu = _mp_ls(X, y, dps)
        _, _, _, _, thp, _ = _mp_ls(Xp, yp, dps)
        if project:
            th = th + (mpmath.eye(m) - P) * thp
        dist = mpmath.sqrt(mpmath.fsum((th[i] - thp[i]) ** 2 for i in range(m)))
        r = max(mpmath.norm(th), mpmath.norm(thp))
        G = max(mpmath.sqrt(mpmath.fsum(mpmath.mpf(float(a)) ** 2 for a in row)) * (
            mpmath.sqrt(mpmath.fsum(mpmath.mpf(float(a)) ** 2 for a in row)) * r + abs(mpmath.mpf(float(b))))
            for row, b in zip(np.vstack([X, Xp[:1]]), np.concatenate([y, yp[:1]])))
        return dist, 4 * G / (n * mu)


def _eq9_fn(part, project=False):
    def f(n, m, k, seed, t, yr):
        if not _is_mp(t, yr):
            return _eq9_float(*_ints(n, m, k, seed), float(t), float(yr), project)[part]
        return _eq9(*_ints(n, m, k, seed), float(t), float(yr), project)[part]
    return f


EQ9_DIST = implemented_function("eq9_dist", _eq9_fn(0))
EQ9_BOUND = implemented_function("eq9_bound", _eq9_fn(1))
#: ... with theta* the minimiser of D nearest theta_i* (the projection QG holds for, Karimi et al. 2016).
EQ9_DIST_PROJ = implemented_function("eq9_dist_proj", _eq9_fn(0, True))
EQ9_BOUND_PROJ = implemented_function("eq9_bound_proj", _eq9_fn(1, True))


# --------------------------------------------------------------------------- Theorem 4 and c_t
@lru_cache(maxsize=4096)
def if_data(n: int, m: int, seed: int, a: float, model: int):
    """Data for the influence claims: features uniform in [-1, 1]^m with the last coordinate scaled
    by ``a`` (anisotropy), rows scaled into the unit ball; labels uniform in [-1, 1] (least squares,
    model 0) or +-1 (logistic regression, model 1); a replacement point and a point theta~."""
    rng = _rng(seed, n, m, 7)
    X = rng.uniform(-1, 1, size=(n, m))
    X[:, -1] *= a
    X /= np.maximum(np.linalg.norm(X, axis=1, keepdims=True), 1.0)
    y = np.where(rng.random(n) < 0.5, -1.0, 1.0) if model else rng.uniform(-1, 1, size=n)
    xr = rng.uniform(-1, 1, size=m)
    xr[-1] *= a
    xr /= max(1.0, np.linalg.norm(xr))
    yr = (1.0 if rng.random() < 0.5 else -1.0) if model else float(rng.uniform(-1, 1))
    return X, y, xr, yr, rng.uniform(-1, 1, size=m)


def _problem(X, y, lam, model):
    from dpverify.sim import LeastSquares, LogisticRegression

    return LogisticRegression(X, y, lam) if model else LeastSquares(X, y, lam)


def _constants(X, y, lam, model, radius):
    """(G, L, C): Lipschitz constant on the ball of the given radius, smoothness and Hessian-Lipschitz
    constant of the per-sample losses (ridge lam included)."""
    from dpverify.sim.influence import LOGISTIC_THIRD_DERIVATIVE

    xn = np.linalg.norm(X, axis=1)
    if model:
        return (float((xn + lam * radius).max()), float((xn**2 / 4).max() + lam),
                float((xn**3).max() * LOGISTIC_THIRD_DERIVATIVE))
    return float((xn * (xn * radius + np.abs(y)) + lam * radius).max()), float((xn**2).max() + lam), 0.0


@lru_cache(maxsize=4096)
def _thm4(n, m, seed, a, lam, model):
    """(max_r error, the bound with zeta = ||H||_2, the bound with zeta = the smallest eigenvalue of
    the weighted Hessian along the removal path)."""
    from dpverify.sim import influence as inf

    X, y, _, _, _ = if_data(n, m, seed, a, model)
    p = _problem(X, y, lam, model)
    loo = inf.leave_one_out(p)
    err = float(np.linalg.norm(loo - inf.influence(p), axis=1).max())
    radius = max(float(np.linalg.norm(p.theta_star)), float(np.linalg.norm(loo + p.theta_star, axis=1).max()))
    G, L, C = _constants(X, y, lam, model, radius)
    H = inf.hessian(p, p.theta_star)
    spec = float(np.linalg.eigvalsh(H)[-1])
    if model:
        z_path = lam * (n - 1) / n     # every weighted Hessian on the path is >= (sum w / n) lam I
    else:                              # the weighted Hessian decreases along the path: its end
        z_path = min(float(np.linalg.eigvalsh(np.delete(X, r, 0).T @ np.delete(X, r, 0) / n)[0]) + lam * (n - 1) / n
                     for r in range(n))
    bound = lambda z: (2 * L * G + C * G * G / z) / (z * z * n * n) if z > 0 else math.inf  # noqa: E731
    return err, bound(spec), bound(z_path)


def _thm4_fn(part):
    def f(n, m, seed, a, lam, model):
        return _thm4(*_ints(n, m, seed), float(a), float(lam), int(round(float(model))))[part]
    return f


IF_ERROR = implemented_function("if_error", _thm4_fn(0))
IF_BOUND_NORM = implemented_function("if_bound_norm", _thm4_fn(1))
IF_BOUND_PATH = implemented_function("if_bound_path", _thm4_fn(2))


@lru_cache(maxsize=4096)
def _ct(n, m, seed, a, lam, model):
    """(sup_t ||c_t(D) - c_t(D')||, 2G/(n zeta) with zeta = min ||H||_2, with zeta = min lambda_min):
    c_t = (1/n) H^{-1} grad l(theta~; z_t) with H the Hessian of L(.; D) (of L(.; D') for D') at theta~,
    D' = D with sample 0 replaced; G = max ||grad l(theta~; z)|| over D and D'."""
    from dpverify.sim import influence as inf

    X, y, xr, yr, th = if_data(n, m, seed, a, model)
    Xp, yp = X.copy(), y.copy()
    Xp[0], yp[0] = xr, yr
    p, pp = _problem(X, y, lam, model), _problem(Xp, yp, lam, model)
    H, Hp = inf.hessian(p, th), inf.hessian(pp, th)
    g, gp = inf.per_sample_gradients(p, th), inf.per_sample_gradients(pp, th)
    c = np.linalg.solve(H, g.T).T / n
    cp = np.linalg.solve(Hp, gp.T).T / n
    sens = float(np.linalg.norm(c - cp, axis=1).max())
    G = float(max(np.linalg.norm(g, axis=1).max(), np.linalg.norm(gp, axis=1).max()))
    spec = min(float(np.linalg.eigvalsh(H)[-1]), float(np.linalg.eigvalsh(Hp)[-1]))
    low = min(float(np.linalg.eigvalsh(H)[0]), float(np.linalg.eigvalsh(Hp)[0]))
    return sens, 2 * G / (n * spec), (2 * G / (n * low) if low > 0 else math.inf)


def _ct_fn(part):
    def f(n, m, seed, a, lam, model):
        return _ct(*_ints(n, m, seed), float(a), float(lam), int(round(float(model))))[part]
    return f


CT_SENS = implemented_function("ct_sensitivity", _ct_fn(0))
CT_BOUND_NORM = implemented_function("ct_bound_norm", _ct_fn(1))
CT_BOUND_MIN = implemented_function("ct_bound_min", _ct_fn(2))


# --------------------------------------------------------------------------- Lemma 1, Theorems 2 and 3
# One-sample SGD on the loss l(theta; z) = 1/2 (x theta - y)^2 (theta real), the data universe two
# points z_1 = (x1, y1), z_2 = (x2, y2), P(z_1) = p, D ~ P^n: a data set is the number k of copies of
# z_1. Everything is a quadratic in theta, so every expectation below is exact (mpmath at the working
# precision, or double precision).
def _moments_1d(w1, x1, y1, x2, y2, alpha, sigma, T, th1, M):
    """E theta_{T+1}, E theta_{T+1}^2 of one-sample SGD sampling z_1 with probability w1."""
    m, S = M(th1), M(th1) ** 2
    a1, a2 = 1 - alpha * x1 * x1, 1 - alpha * x2 * x2
    b1, b2 = alpha * x1 * y1, alpha * x2 * y2
    w2 = 1 - w1
    for _ in range(int(T)):
        m, S = (w1 * (a1 * m + b1) + w2 * (a2 * m + b2),
                w1 * (a1 * a1 * S + 2 * a1 * b1 * m + b1 * b1) + w2 * (a2 * a2 * S + 2 * a2 * b2 * m + b2 * b2)
                + (alpha * sigma) ** 2)
    return m, S


@lru_cache(maxsize=8192)
def _gen(x1, y1, x2, y2, p, n, T, sigma, th1, dps):
    """Exact quantities of one-sample SGD (alpha = 1/L) over every data set of size n.

    Returns a dict: per k = 0..n (copies of z_1): gap (E_A[L_P - L(.; D)]), exc (E_A L(.; D) - L*_D),
    risk (E_A L(.; D)), lstar (L*_D); the probabilities of k under P^n; the constants L, mu (the PL
    constant every data set has), G (Lipschitz on the ball holding every minimiser), min L_P, E_D,A L_P,
    and gamma (uniform stability: sup over neighbouring data sets and z of E[l(A(D), z) - l(A(D'), z)]).
    """
    mp = dps is not None
    with mpmath.workdps(dps or 15):
        M = mpmath.mpf if mp else float
        x1, y1, x2, y2, p, sigma, th1 = (M(v) for v in (x1, y1, x2, y2, p, sigma, th1))
        L = max(x1 * x1, x2 * x2)
        mu = min(x1 * x1, x2 * x2)
        alpha = 1 / L
        r = max(abs(y1 / x1), abs(y2 / x2))
        G = max(abs(x1) * (abs(x1) * r + abs(y1)), abs(x2) * (abs(x2) * r + abs(y2)))

        def loss(x, y, m, S):
            return (x * x * S - 2 * x * y * m + y * y) / 2

        def lstar(w1):
            h = w1 * x1 * x1 + (1 - w1) * x2 * x2
            th = (w1 * x1 * y1 + (1 - w1) * x2 * y2) / h
            return w1 * loss(x1, y1, th, th * th) + (1 - w1) * loss(x2, y2, th, th * th)

        rows = []
        for k in range(n + 1):
            w1 = M(k) / n
            m, S = _moments_1d(w1, x1, y1, x2, y2, alpha, sigma, T, th1, M)
            lp = p * loss(x1, y1, m, S) + (1 - p) * loss(x2, y2, m, S)
            ld = w1 * loss(x1, y1, m, S) + (1 - w1) * loss(x2, y2, m, S)
            ls = lstar(w1)
            rows.append({"m": m, "S": S, "gap": lp - ld, "risk": ld, "exc": ld - ls, "lstar": ls, "lp": lp})
        probs = [M(math.comb(n, k)) * p**k * (1 - p) ** (n - k) for k in range(n + 1)]
        gamma = M(-math.inf) if n == 0 else None
        for k in range(n + 1):
            for kk in (k - 1, k + 1):
                if 0 <= kk <= n:
                    for x, y in ((x1, y1), (x2, y2)):
                        d = loss(x, y, rows[k]["m"], rows[k]["S"]) - loss(x, y, rows[kk]["m"], rows[kk]["S"])
                        gamma = d if gamma is None or d > gamma else gamma
        h = p * x1 * x1 + (1 - p) * x2 * x2
        thp = (p * x1 * y1 + (1 - p) * x2 * y2) / h
        min_lp = p * loss(x1, y1, thp, thp * thp) + (1 - p) * loss(x2, y2, thp, thp * thp)
        E = lambda key: sum(q * row[key] for q, row in zip(probs, rows))  # noqa: E731
        return {"rows": rows, "probs": probs, "L": L, "mu": mu, "G": G, "gamma": gamma, "min_lp": min_lp,
                "E_gap": E("gap"), "E_exc": E("exc"), "E_risk": E("risk"), "E_lstar": E("lstar"), "E_lp": E("lp")}


def _thm2_rhs(L, mu, G, n, exc, risk):
    """inf over tau > 0 of (tau + L)(8 exc/mu + 16 G^2/(n^2 mu^2)) + L risk/tau  (closed form)."""
    B = 8 * exc / mu + 16 * G * G / (n * n * mu * mu)
    sq = mpmath.sqrt if isinstance(B, mpmath.mpf) else math.sqrt
    return L * B + 2 * sq(B * L * max(risk, 0 * risk))


def _gen_fn(what):
    def f(x1, y1, x2, y2, p, n, T, sigma, th1, *rest):
        mp = _is_mp(x1, y1, x2, y2, p, sigma, th1)
        q = _gen(float(x1), float(y1), float(x2), float(y2), float(p), int(round(float(n))), int(round(float(T))),
                 float(sigma), float(th1), mpmath.mp.dps if mp else None)
        nn = int(round(float(n)))
        if what in ("gap_k", "rhs_k"):
            row = q["rows"][int(round(float(rest[0])))]
            if what == "gap_k":
                return row["gap"]
            return _thm2_rhs(q["L"], q["mu"], q["G"], nn, row["exc"], row["risk"])
        if what == "rhs_E":
            return _thm2_rhs(q["L"], q["mu"], q["G"], nn, q["E_exc"], q["E_risk"])
        if what == "epr":
            return q["E_lp"] - q["min_lp"]
        if what == "thm3":
            tau = rest[0] if mp else float(rest[0])
            L, mu, G = q["L"], q["mu"], q["G"]
            return ((tau + L) * ((8 * tau + mu) / (mu * tau) * q["E_exc"] + 16 * G * G / (nn * nn * mu * mu))
                    + L / tau * q["E_lstar"])
        return q[what]
    return f


GEN_GAP_K = implemented_function("gen_gap_k", _gen_fn("gap_k"))      # E_A[L_P - L(.; D_k)]
THM2_RHS_K = implemented_function("thm2_rhs_k", _gen_fn("rhs_k"))    # (5) at D_k, inf over tau
GEN_GAP_E = implemented_function("gen_gap_E", _gen_fn("E_gap"))      # E_D E_A[L_P - L(.; D)]
THM2_RHS_E = implemented_function("thm2_rhs_E", _gen_fn("rhs_E"))    # (5) with E over D too
STABILITY = implemented_function("gamma_stab", _gen_fn("gamma"))     # uniform stability (Def. 6)
EPR = implemented_function("epr", _gen_fn("epr"))                    # E_D,A L_P(theta) - min L_P
THM3_RHS = implemented_function("thm3_rhs", _gen_fn("thm3"))         # Theorem 3's bound at tau


# --------------------------------------------------------------------------- Algorithm 1 (PIDP-SGD)
def test_threshold(r, delta1, eps1):
    """Lines 9-10 of Algorithm 1 combined: with A = 2 r e^eps1 delta1/(e^eps1 - 1), a coordinate passes
    both tests iff |c_i| < A and ln(A/(A - |c_i|)) <= 2 eps1, i.e. iff |c_i| <= A (1 - e^(-2 eps1))
    = 2 r delta1 (1 + e^(-eps1))."""
    return 2.0 * r * delta1 * (1.0 + math.exp(-eps1))


def pass_probability(mean, test_std, threshold):
    """P(|mean + test_std xi| <= threshold), xi ~ N(0, 1), for every coordinate: the product."""
    from scipy.special import ndtr

    mean = np.atleast_1d(np.asarray(mean, float))
    if test_std == 0:
        return float(np.all(np.abs(mean) <= threshold))
    return float(np.prod(ndtr((threshold - mean) / test_std) - ndtr((-threshold - mean) / test_std)))


def pidp_1d(pt):
    """The one-dimensional instance of Algorithm 1 a claim point describes (the loss 1/2 (theta - x)^2
    on C = [-r, r], values |x| <= 1): D = (x_i, x_o, ..., x_o), D' = (x_r, x_o, ..., x_o), theta~ = v r.
    Returns a dict of every quantity of Theorem 5 at the point: G (Lipschitz on C), zeta = L = 1, C = 0,
    E (Theorem 4's error bound), sigma (its first display, constant c), sigma_c (its second, c' = 2.83),
    the threshold of lines 9-10, and the contribution of the replaced sample at theta~."""
    n, R, Tl = int(pt["n"]), int(pt["R"]), int(pt["T_local"])
    r = float(pt["r"])
    G = r + max(abs(pt["x_i"]), abs(pt["x_r"]), abs(pt["x_o"]))
    zeta, Lsm = 1.0, 1.0
    E = 2 * Lsm * G / (zeta**2 * n**2)
    T = R * Tl
    sigma = pt["c"] * G * math.sqrt(T * math.log(1 / pt["delta1"])) / (n * pt["epsilon1"])
    sigma_c = 2.83 * G * R * math.sqrt(math.log(1.25 * R / pt["delta2"])) / (n * zeta * pt["epsilon2"])
    theta0 = pt["v"] * r
    return {"n": n, "R": R, "T_local": Tl, "T": T, "r": r, "G": G, "E": E, "sigma": sigma, "sigma_c": sigma_c,
            "threshold": test_threshold(r, pt["delta1"], pt["epsilon1"]), "theta0": theta0,
            "c_i": (theta0 - pt["x_i"]) / n}


def noise_free_leak(pt) -> Measured:
    """A lower bound on the delta of Algorithm 1 at every eps (the point's 1-D instance): the
    probability that a step of round 0 draws the replaced sample z_i and passes the test, so that the
    released increment is exactly -alpha grad l(theta_t; z_i) (alpha = 1/L = 1), which no step on D'
    produces (x_i differs from every value of D'). Round 0's contributions are computed at theta~ for
    every run, so the probability is exact: 1 - (1 - p_i/n)^T_local."""
    q = pidp_1d(pt)
    p = pass_probability(2 * (q["c_i"] + q["E"]), q["sigma_c"], q["threshold"])
    return Measured.lower_bound(float(-math.expm1(q["T_local"] * math.log1p(-p / q["n"]))))


def final_release_leak(pt) -> Measured:
    """A lower bound on the delta of Algorithm 1's released output theta_priv alone (line 19), R = 1,
    at every eps (the point's 1-D instance): with alpha = 1/L = 1 a noise-free step of sample x sets
    theta to x exactly, so theta_priv = x_i exactly when the last step draws z_i and passes the test,
    which no run on D' produces (x_i differs from every value of D'; a noisy step has a density). With
    one round the contributions are computed at theta~ in every run: the probability is p_i/n."""
    q = pidp_1d(pt)
    return Measured.lower_bound(pass_probability(2 * (q["c_i"] + q["E"]), q["sigma_c"], q["threshold"]) / q["n"])


#: :func:`final_release_leak` in ball arithmetic, for the violation's certificate (``PointScenario(ball=...)``)
FINAL_RELEASE_LEAK_BALL = r'''
def point_lower(P, data):
    """P(theta_priv = x_i) on D, which is 0 on D': a lower bound on delta(eps) at every eps.

    The 1-D instance of Theorem 5 (loss (theta - x)^2/2, alpha = 1/L = 1, H = 1, one round R = 1):
    D = (x_i, x_o, ..., x_o), D' = (x_r, x_o, ..., x_o), theta~ = v r. A noise-free step of sample x
    sets theta to theta - (theta - x) = x exactly; a noisy step adds sigma N(0, 1) with sigma > 0, so
    its output has a density. theta_priv (the last iterate) equals x_i iff the last step draws z_i
    (probability 1/n) and its tested contribution 2 (c_i + E) + sigma_c xi passes lines 9-10, i.e.
    |2 (c_i + E) + sigma_c xi| <= 2 r delta1 (1 + e^-eps1), with c_i = (theta~ - x_i)/n (computed at
    theta~ in the one round), E = 2 G/n^2, G = r + max|x|, sigma_c = 2.83 G R sqrt(log(1.25 R/delta2))/
    (n eps2). On D' no step lands on x_i (x_i differs from x_r and x_o; a noisy step has a density).
    """
    n, R, T = P["n"], P["R"], P["R"] * P["T_local"]
    if R != 1:
        raise ValueError(f"the leak is derived for one round, R = {R}")
    if not (_cmp(P["x_i"], "!=", P["x_r"]) and _cmp(P["x_i"], "!=", P["x_o"])):
        raise ValueError("x_i must differ from x_r and x_o")
    r, d1, d2, e1, e2 = P["r"], P["delta1"], P["delta2"], P["epsilon1"], P["epsilon2"]
    G = r + _max(abs(P["x_i"]), abs(P["x_r"]), abs(P["x_o"]))
    sigma = P["c"] * G * (T * (1 / d1).log()).sqrt() / (n * e1)
    if not _cmp(sigma, ">", 0):
        raise ValueError(f"the noisy steps need sigma > 0, got {sigma}")
    E = 2 * G / n ** 2
    sigma_c = q(283, 100) * G * R * (q(5, 4) * R / d2).log().sqrt() / (n * e2)
    threshold = 2 * r * d1 * (1 + (-e1).exp())
    mean = 2 * ((P["v"] * r - P["x_i"]) / n + E)
    return (normal_cdf((threshold - mean) / sigma_c) - normal_cdf((-threshold - mean) / sigma_c)) / n
'''


def t_fold_ball(times: str) -> str:
    """The ball definition of delta at (k x eps1), k = ``times`` (``"1"`` or ``"T"``), of the optimal T-fold
    composition of (eps1, delta1)-DP algorithms, for a violation's certificate."""
    k = "1" if times == "1" else f"P[{times!r}]"
    return f'''
def point_lower(P, data):
    """delta at {'eps1' if times == '1' else times + ' eps1'} of the T-fold product of the canonical (eps1, delta1) pair: T mechanisms,
    each (eps1, delta1)-DP (the canonical pair is), composed; exact (Kairouz, Oh & Viswanath 2015, Thm. 3.3)."""
    return composed_canonical_delta(P["epsilon1"], P["delta1"], P["T"], {k} * P["epsilon1"])
'''


def noise_free_step_gap(pt) -> float:
    """|theta_1(D) - theta_1(D')| after one step of Algorithm 1 that draws the replaced sample and passes the test
    (lines 10-11, alpha = 1/L = 1), from the same theta~ = 0, simulated by
    :func:`dpverify.sim.gated_sgd.gated_sgd` on the one-sample data sets (x_i) and (x_r) with the test always
    passed: the output difference a noise-free step makes, deterministic."""
    from dpverify.sim import LeastSquares
    from dpverify.sim.gated_sgd import gated_sgd

    out = []
    for x in (float(pt["x_i"]), float(pt["x_r"])):
        res = gated_sgd(LeastSquares(np.ones((1, 1)), np.array([x]), 0.0), [0.0], 1.0, 1.0, rounds=1, local_steps=1,
                        runs=1, seed=0, test_std=0.0, threshold=math.inf, offset=0.0, scale=2.0)
        out.append(float(res.thetas[0, 0]))
    return abs(out[0] - out[1])


def composed_canonical_delta(pt) -> Measured:
    """delta at eps1 + eps2 of the composition of two canonical pairs, (eps1, delta1) and (eps2, delta2)
    [Kairouz, Oh & Viswanath 2015]: every (eps, delta)-DP algorithm is a post-processing of its canonical
    pair, and the product pair is the worst case of the (adaptive) two-fold composition. In mpmath at 50
    digits (the margin to delta1 + delta2 is delta1 delta2, below double rounding for small deltas)."""
    with mpmath.workdps(50):
        def canonical(e, d):
            e, d = mpmath.mpf(e), mpmath.mpf(d)
            w = (1 - d) / (1 + mpmath.exp(e))
            p = [d, w * mpmath.exp(e), w, mpmath.mpf(0)]
            return p, p[::-1]
        p1, q1 = canonical(pt["epsilon1"], pt["delta1"])
        p2, q2 = canonical(pt["epsilon2"], pt["delta2"])
        g = mpmath.exp(mpmath.mpf(pt["epsilon1"]) + mpmath.mpf(pt["epsilon2"]))
        v = mpmath.fsum(max(mpmath.mpf(0), a * b - g * c * d) for a, c in zip(p1, q1) for b, d in zip(p2, q2))
        return Measured.exact(float(v), float(abs(v)) * 1e-30)


def pidp_sampler(*, noise_free: bool = True, final_at_xi: bool = False):
    """Audit sampler of Algorithm 1 on the point's 1-D instance (:func:`pidp_1d`), simulated by
    :func:`dpverify.sim.gated_sgd.gated_sgd`: the output is the number of released increments equal to
    the noise-free step of z_i (what an observer of every iterate computes). With
    ``noise_free=False`` lines 10-11 are removed (every step noisy): the output is the final iterate.
    With ``final_at_xi=True`` only the released theta_priv is looked at: the output is 1 when it equals
    x_i (to 1e-9), else 0."""
    from dpverify.sim import LeastSquares
    from dpverify.sim.gated_sgd import gated_sgd

    def sample(pt, side, size, rng):
        q = pidp_1d(pt)
        vals = np.full(q["n"], float(pt["x_o"]))
        vals[0] = pt["x_i"] if side == "D" else pt["x_r"]
        prob = LeastSquares(np.ones((q["n"], 1)), vals, 0.0)
        res = gated_sgd(prob, [q["theta0"]], 1.0, q["sigma"], rounds=q["R"], local_steps=q["T_local"], runs=size,
                        seed=int(rng.integers(2**63)), test_std=q["sigma_c"],
                        threshold=q["threshold"] if noise_free else -1.0, offset=q["E"], scale=2.0,
                        watch=([1.0], float(pt["x_i"])) if noise_free else None)
        if final_at_xi:
            return (np.abs(res.thetas[:, 0] - float(pt["x_i"])) <= 1e-9).astype(float)
        return res.matches.astype(float) if noise_free else res.thetas[:, 0]

    return sample
