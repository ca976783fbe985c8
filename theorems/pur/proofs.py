"""Quantities that only the proofs (and Section 4) of [pur] define, for its claims.

[pur] "Adaptive Hyperparameter Selection for Differentially Private Gradient Descent", seed file
``001_8c6e002b41f68e78.txt``.

* :func:`lemma2_worst`: the worst sequence Lemma 2 allows (the largest ``V_t`` any admissible
  sequence reaches), and :data:`LEMMA2_WORST` the scenario measuring ``max_t q t V_t / 2``;
* :func:`steps_allowed`: the exact number of steps a zCDP budget allows for the schedules of
  Proposition 3 (a), (b), (c) under the privacy accounting (21) of the proof of Proposition 4;
* :func:`logistic_constants`: Section 4's Lipschitz and smoothness constants measured on data;
* :data:`ORACLE_LEAK`: the audit of one step of the data-dependent schedule (6) on neighbouring data
  sets where one gradient vanishes (Section 5).
"""
from __future__ import annotations

import math
from functools import lru_cache

import mpmath
import numpy as np

from dpverify.privacy import audit
from dpverify.scenarios import PointScenario
from dpverify.sim.adaptive import adaptive_gd
from dpverify.sim.problems import Logistic

from . import data


# ----------------------------------------------------------------------------- Lemma 2
def lemma2_worst(q, r, V0, T, dps: int = 30) -> list:
    """``S_0 .. S_T``: the largest value ``V_t`` of any sequence in R_{>=0} with
    ``V_{t+1} <= V_t - q V_t^2 + r/(t+1)^2`` and ``V_0 <= S_0 = V0``.

    The values reachable at ``t`` form the interval ``[0, S_t]`` (any smaller value is allowed), and
    ``W(a) = a - q a^2 + r/(t+1)^2`` increases up to ``a* = 1/(2q)``, so
    ``S_{t+1} = W(min(S_t, a*))`` exactly.
    """
    with mpmath.workdps(dps):
        q, r = mpmath.mpf(q), mpmath.mpf(r)
        a_star = 1 / (2 * q)
        S = [mpmath.mpf(V0)]
        for t in range(int(T)):
            a = min(S[-1], a_star)
            S.append(a - q * a * a + r / (t + 1) ** 2)
        return S


def lemma2_ratio(q: float, r: float, V0: float, T: int) -> float:
    """``max_{1 <= t <= T} q t S_t / 2`` for the worst sequence (double precision: the recursion is a
    contraction towards values of order 1/(qt), far from the bound 1, so rounding cannot decide it)."""
    a_star, s, best = 1 / (2 * q), float(V0), 0.0
    for t in range(int(T)):
        a = min(s, a_star)
        s = a - q * a * a + r / (t + 1) ** 2
        best = max(best, q * (t + 1) * s / 2)
    return best


LEMMA2_WORST = PointScenario(lambda p: lemma2_ratio(p["q"], p["r"], p["V0"], p["T"]),
                             "the worst admissible sequence (the exact recursion of its supremum)", optimise=3)


# ----------------------------------------------------------------------------- the radius of (15)
def pilot_radius(spec, rule, T: int, runs: int = 4000, seed: int = 20240) -> float:
    """A Monte Carlo estimate (a pilot run, independent of any check's runs) of the smallest R with
    E||grad F(theta_t)||^2 >= (E[F(theta_t) - F*])^2/R^2 at every step (the form (15) in which the proofs of
    Propositions 2(b), 3(b) use 'the iterates satisfy ||theta_t - theta*|| <= R')."""
    p = spec.build()
    th = np.zeros(p.dim)
    res = adaptive_gd(p, th, rule, int(T), runs, seed, track=("excess", "grad_norm_sq"), record=True)
    ex = res.tracks["excess"][:, :-1].mean(axis=0)
    g2 = res.tracks["grad_norm_sq"][:, :-1].mean(axis=0)
    ok = g2 > 0
    return float(np.max(ex[ok] / np.sqrt(g2[ok]))) if ok.any() else 0.0


# ----------------------------------------------------------------------------- steps a budget allows
def _rho_step(schedule: str, p: dict):
    """zCDP of step t under (21): rho_t = 2 L^2 / (N^2 sigma_t^2) for the schedules of Proposition 3."""
    L, N, d = mpmath.mpf(p["L"]), mpmath.mpf(p["N"]), mpmath.mpf(p["d"])
    if schedule == "a":        # sigma_t = 4 M sqrt(F(theta_0) - F*)/(sqrt(d) t)
        k = L**2 * d / (8 * N**2 * mpmath.mpf(p["M"]) ** 2 * mpmath.mpf(p["Delta0"]))
        return lambda t: k * t * t
    if schedule == "b":        # sigma_t = 4 M R/(sqrt(d) t)
        k = L**2 * d / (8 * N**2 * mpmath.mpf(p["M"]) ** 2 * mpmath.mpf(p["R"]) ** 2)
        return lambda t: k * t * t
    kappa, mu = mpmath.mpf(p["kappa"]), mpmath.mpf(p["mu"])  # sigma_t^2 = 2 mu Delta0 (1 - 1/(2 kappa))^t / d
    k, rr = L**2 * d / (N**2 * mu * mpmath.mpf(p["Delta0"])), 1 - 1 / (2 * kappa)
    return lambda t: k * rr ** (-t)


def steps_allowed(schedule: str, p: dict, max_steps: int = 10**6) -> int:
    """The largest T with sum_{t<=T} rho_t <= rho: the steps the budget allows, the rho_t (40 digits) summed
    one by one in mpmath with 20 guard digits, so the comparison with the budget is exact. Raises
    ``ValueError`` when more than ``max_steps`` steps fit."""
    with mpmath.workdps(40):
        rho_step, budget = _rho_step(schedule, p), mpmath.mpf(p["rho"])
    if not budget > 0:
        raise ValueError(f"rho must be positive. Found {p['rho']!r}.")
    with mpmath.workdps(60):
        total = mpmath.mpf(0)
        for t in range(1, max_steps + 2):
            total += rho_step(t)
            if total > budget:
                return t - 1
    raise ValueError(f"the budget rho = {p['rho']!r} is not exhausted within max_steps = {max_steps} steps")


def steps_allowed_closed(schedule: str, p: dict) -> int:
    """:func:`steps_allowed` from the closed forms of the cumulative zCDP (same integer, any budget size):
    (a), (b) ``k T(T+1)(2T+1)/6 <= rho``; (c) ``2 kappa k ((1 - 1/(2kappa))^-T - 1) <= rho``. The float
    estimate is corrected by exact comparisons in mpmath (40 digits)."""
    with mpmath.workdps(40):
        rho = mpmath.mpf(p["rho"])
        L, N, d = mpmath.mpf(p["L"]), mpmath.mpf(p["N"]), mpmath.mpf(p["d"])
        if schedule in ("a", "b"):
            scale = p["Delta0"] if schedule == "a" else mpmath.mpf(p["R"]) ** 2
            k = L**2 * d / (8 * N**2 * mpmath.mpf(p["M"]) ** 2 * mpmath.mpf(scale))
            spent = lambda T: k * T * (T + 1) * (2 * T + 1) / 6  # noqa: E731
            guess = int(mpmath.floor(mpmath.cbrt(3 * rho / k)))
        else:
            kappa, mu = mpmath.mpf(p["kappa"]), mpmath.mpf(p["mu"])
            k = L**2 * d / (N**2 * mu * mpmath.mpf(p["Delta0"]))
            rp = 1 / (1 - 1 / (2 * kappa))
            spent = lambda T: 2 * kappa * k * (rp**T - 1)  # noqa: E731
            guess = int(mpmath.floor(mpmath.log(1 + rho / (2 * kappa * k)) / mpmath.log(rp)))
        T = max(guess, 0)
        while T > 0 and spent(T) > rho:
            T -= 1
        while spent(T + 1) <= rho:
            T += 1
        return T


def budget_root_a(rho, L, N, M, Delta0, d):
    """The real T* with k T*(T* + 1)(2T* + 1)/6 = rho (schedule 3(a)): the horizon that exhausts the budget."""
    with mpmath.workdps(50):
        k = mpmath.mpf(L) ** 2 * d / (8 * mpmath.mpf(N) ** 2 * mpmath.mpf(M) ** 2 * mpmath.mpf(Delta0))
        target = 6 * mpmath.mpf(rho) / k
        x0 = mpmath.cbrt(target / 2)
        return mpmath.findroot(lambda x: x * (x + 1) * (2 * x + 1) - target, x0)


# ----------------------------------------------------------------------------- Section 4's constants
@lru_cache(maxsize=64)
def _problem(name: str, lam: float) -> Logistic:
    X, y = data.load(name)
    return Logistic(X, y, lam)


def _grad_norm_sup(p: Logistic, centre: np.ndarray, R: float, seed: int = 0) -> float:
    """sup ||grad F(theta)|| over the ball B(centre, R): 256 random points and the best 4 refined by
    projected gradient ascent on ||grad F||^2 (gradient 2 H grad F)."""
    rng = np.random.default_rng(seed)
    d = p.dim
    u = rng.normal(size=(256, d))
    u /= np.linalg.norm(u, axis=1, keepdims=True)
    radii = R * np.concatenate([np.ones(128), rng.random(128) ** (1 / d)])
    pts = centre + u * radii[:, None]
    g = np.linalg.norm(p.grad(pts), axis=1)
    best = float(g.max())
    for k in np.argsort(-g)[:2]:
        th, step = pts[k].copy(), R / 4
        val = g[k]
        for _ in range(25):
            gr = p.grad(th[None, :])[0]
            direction = p.hessian(th) @ gr
            nrm = np.linalg.norm(direction)
            if nrm == 0:
                break
            cand = th + step * direction / nrm
            off = cand - centre
            if np.linalg.norm(off) > R:
                cand = centre + off * (R / np.linalg.norm(off))
            v = float(np.linalg.norm(p.grad(cand[None, :])[0]))
            if v > val:
                th, val = cand, v
            else:
                step /= 2
        best = max(best, val)
    return best


def logistic_constants(name: str, lam: float, R: float) -> dict:
    """Section 4's constants against their measured values on a data set.

    ``L = lam R + Z`` against ``sup ||grad F||`` over the ball of radius R around theta* (around 0
    when lam = 0, where the claimed bound Z is global); ``M = lam + Z^2/4`` against
    ``sup_theta lambda_max(grad^2 F) = lam + lambda_max(X^T X / N)/4`` (attained at theta = 0, where
    every sigmoid slope is 1/4); ``lam`` against ``min lambda_min(grad^2 F)`` over the ball; and the
    replace-one sensitivity of grad F, ``max ||grad f(theta; x_i) - grad f(theta; x')|| / N`` over the
    ball, the samples and their negations, against ``2L/N``.
    """
    p = _problem(name, float(lam))
    Z = data.feature_bound(name)
    centre = np.asarray(p.theta_star) if lam > 0 else np.zeros(p.dim)
    L_meas = _grad_norm_sup(p, centre, float(R))
    M_meas = max(float(np.linalg.eigvalsh(p.hessian(np.zeros(p.dim)))[-1]),
                 float(np.linalg.eigvalsh(p.hessian(centre))[-1]))
    rng = np.random.default_rng(1)
    thetas = centre + R * rng.normal(size=(8, p.dim)) / math.sqrt(p.dim)
    mu_meas = min(float(np.linalg.eigvalsh(p.hessian(th))[0]) for th in thetas)
    sens = 0.0
    for th in list(thetas[:4]) + [centre]:
        G = p.per_sample_grads(th)
        # replacing x_i by the sample whose gradient is farthest from it, or by -x_i (label kept)
        X, y = p.X, p.y
        neg = -(-y * (1.0 / (1.0 + np.exp(-y * (X @ th)))))[:, None] * X + lam * th[None, :]
        far = np.linalg.norm(G - neg, axis=1).max()
        i = int(np.argmax(np.linalg.norm(G - G.mean(axis=0), axis=1)))
        sens = max(sens, far, float(np.linalg.norm(G - G[i], axis=1).max()))
    return {"Z": Z, "L_claimed": lam * R + Z, "L_measured": L_meas, "M_claimed": lam + Z * Z / 4,
            "M_measured": M_meas, "mu_measured": mu_meas, "sensitivity_N": sens, "N": p.n_samples}


@lru_cache(maxsize=256)
def _constants_cached(name: str, lam: float, R: float) -> dict:
    return logistic_constants(name, lam, R)


def _constants_at(p: dict) -> dict:
    return _constants_cached(p["dataset"], float(p["lam"]), float(p["R"]))


LOGISTIC_LIPSCHITZ = PointScenario(lambda p: (c := _constants_at(p))["L_measured"] / c["L_claimed"],
                                   "sup ||grad F|| over the ball, measured (random points + projected ascent)",
                                   optimise=0)
LOGISTIC_SMOOTHNESS = PointScenario(lambda p: (c := _constants_at(p))["M_measured"] / c["M_claimed"],
                                    "sup lambda_max(grad^2 F), measured", optimise=0)
LOGISTIC_CURVATURE = PointScenario(lambda p: float(p["lam"]) / _constants_at(p)["mu_measured"],
                                   "min lambda_min(grad^2 F) over the ball, measured", optimise=0)
LOGISTIC_SENSITIVITY = PointScenario(lambda p: (c := _constants_at(p))["sensitivity_N"] / (2 * c["L_claimed"]),
                                     "replace-one sensitivity of grad F times N, measured", optimise=0)


# ----------------------------------------------------------------------------- Section 5
def oracle_step_audit(p: dict, n: int = 20000, seed: int = 0):
    """Audit one step of (2) with the data-dependent schedule (6) at a point theta where
    ||grad F_D(theta)|| = g > 0 and a neighbouring data set D' has grad F_D'(theta) = 0 (Section 5):
    on D' the step adds no noise (sigma = 0) and returns theta; on D it is Gaussian."""
    g, d, M = float(p["g"]), int(p["d"]), float(p["M"])
    eta = 1 / (2 * M)

    # released: theta_{t+1}; post-processed (theta_t is public): the length of the step, ||theta_{t+1} - theta_t||
    def on_d(k, rng):
        z = rng.standard_normal((k, d))
        return np.linalg.norm(-eta * (g * np.eye(d)[0][None, :] + (g / math.sqrt(d)) * z), axis=1)

    def on_dprime(k, rng):
        return np.zeros(k)

    return audit(on_d, on_dprime, eps=float(p["epsilon"]), delta=float(p["delta"]), n=n, seed=seed)


ORACLE_LEAK = PointScenario(lambda p: 1.0 - oracle_step_audit(p).delta_lower,
                            "audit of one step of the data-dependent schedule (6) (Clopper-Pearson, 20000 + 20000 "
                            "runs per side)", optimise=0)
