"""Scenarios: how an expectation, sensitivity, stability or privacy statement meets the simulator.

A scenario draws instances from the class a theorem assumes (Hypothesis strategies), maps each
instance to a point of the claim's parameters, and measures the quantity the claim bounds. It
knows the simulator and the accountant, never a paper: claims name the scenario they need.

Interface used by the checks:

* ``strategy()``: instances (JSON-able dicts), or ``None`` to use the claim's own domain;
* ``point(instance)``: the claim's parameters at that instance;
* ``exact(instance)`` / ``monte_carlo(instance, runs, seed, chunk_runs)``: expectation statements;
* ``measure(instance, runs, seed) -> (value, variance)``: supremum statements (variance 0 when
  the measurement is deterministic);
* ``instance_at(point)``: an instance realising a pinned point (``--at``), or ``None``;
* ``describe(instance)``: one line for the evidence.
"""
from __future__ import annotations

import math
from functools import lru_cache
from typing import Callable

import mpmath
import numpy as np
from hypothesis import strategies as st

from . import privacy, sim


def _logfloats(lo, hi):
    return st.floats(math.log(lo), math.log(hi)).map(math.exp)


# =============================================================================== PGD excess risk
@lru_cache(maxsize=16)
def logistic_data(n: int, d: int, seed: int, scale: float = 1.0):
    """Standardised two-class data from scikit-learn's generator, rows scaled to max norm ``scale``."""
    from sklearn.datasets import make_classification

    X, y = make_classification(n_samples=n, n_features=d, n_informative=max(1, d - 1),
                               n_redundant=0, n_repeated=0, random_state=seed, class_sep=1.0)
    X = (X - X.mean(axis=0)) / X.std(axis=0)
    X = X * (scale / np.linalg.norm(X, axis=1).max())
    return X, np.where(y > 0, 1.0, -1.0)


@lru_cache(maxsize=32)
def _logistic_problem(n, d, seed, scale, lam):
    X, y = logistic_data(n, d, seed, scale)
    return sim.LogisticRegression(X, y, lam)


class PGDExcessRisk:
    """Normalised excess risk ``(E f(theta_{T+1}) - f*)/(f(theta_1) - f*)`` of PGD with eta = 1/M.

    Exact route: diagonal quadratics with spectra in ``[mu, M]`` (``mu = M/kappa``), drawn by
    Hypothesis together with theta_1, G, N, R and the schedule. Monte Carlo route: ridge-regularised
    logistic regression on scikit-learn data (PL with ``mu = lam``), with uniform, dynamic and
    exponential schedules. Claim parameters produced: kappa, M, G, N, D, Delta1, R, T, sigma.
    """

    name = "diagonal quadratic"
    mc_name = "ridge logistic regression (scikit-learn make_classification, N=200, D=5)"
    algorithm = "PGD eq. (1), eta = 1/M"
    supports_exact = True
    supports_monte_carlo = True

    def strategy(self):
        @st.composite
        def inst(draw):
            d = draw(st.integers(1, 5))
            M = draw(_logfloats(1e-2, 1e2))
            kappa = draw(_logfloats(1.0, 1e3))
            mu = M / kappa
            inner = draw(st.lists(st.floats(0, 1), min_size=max(0, d - 2), max_size=max(0, d - 2)))
            eigs = [mu] + [mu + u * (M - mu) for u in inner] + ([M] if d >= 2 else [])
            theta1 = draw(st.lists(st.floats(-10, 10), min_size=d, max_size=d).filter(
                lambda v: sum(x * x for x in v) > 1e-6))
            T = draw(st.integers(1, 12))
            return {
                "eigs": eigs, "theta1": theta1, "M": M, "kappa": kappa,
                "G": draw(_logfloats(1e-2, 1e2)), "N": draw(st.integers(1, 10000)),
                "R": draw(_logfloats(1e-2, 1e2)), "T": T,
                "sigma": draw(st.lists(_logfloats(1e-2, 1e2), min_size=T, max_size=T)),
            }

        return inst()

    @staticmethod
    def _delta1(inst):
        e, th = np.asarray(inst["eigs"]), np.asarray(inst["theta1"])
        return 0.5 * float(e @ (th * th))

    def point(self, inst):
        if inst.get("family") == "logistic":
            p = _logistic_problem(inst["n"], inst["d"], inst["data_seed"], inst["scale"], inst["lam"])
            return {"kappa": p.M / p.mu, "M": p.M, "G": inst["G"], "N": inst["n"], "D": inst["d"],
                    "Delta1": float(p.value(np.zeros(inst["d"])) - p.f_star), "R": inst["R"],
                    "T": len(inst["sigma"]), "sigma": list(inst["sigma"])}
        return {"kappa": inst["M"] / min(inst["eigs"]) if "kappa" not in inst else inst["kappa"],
                "M": inst["M"], "G": inst["G"], "N": inst["N"], "D": len(inst["eigs"]),
                "Delta1": self._delta1(inst), "R": inst["R"], "T": inst["T"], "sigma": list(inst["sigma"])}

    def exact(self, inst):
        mean = sim.pgd_quadratic_moments(np.asarray(inst["eigs"]), np.asarray(inst["theta1"]),
                                         1.0 / inst["M"], np.asarray(inst["sigma"]), inst["G"], inst["N"])
        return float(mean[0]) / self._delta1(inst)

    def instance_at(self, point):
        d = int(point["D"])
        mu = point["M"] / point["kappa"]
        eigs = [mu] + [point["M"]] * (d - 1)
        theta1 = [math.sqrt(2 * point["Delta1"] / mu)] + [0.0] * (d - 1)
        return {"eigs": eigs, "theta1": theta1, "M": point["M"], "kappa": point["kappa"], "G": point["G"],
                "N": point["N"], "R": point["R"], "T": int(point["T"]), "sigma": list(point["sigma"])}

    def mc_instances(self, cfg):
        out = []
        n, d, seed, scale = 200, 5, 0, 1.0
        for lam, T, kind in ((0.05, 10, "uniform"), (0.05, 10, "dynamic"), (0.1, 20, "exponential")):
            p = _logistic_problem(n, d, seed, scale, lam)
            G, R = 1.0, 1e-3
            delta1 = float(p.value(np.zeros(d)) - p.f_star)
            alpha = d * G**2 / (2 * R * p.M * n**2 * delta1)
            if kind == "uniform":
                sig = sim.uniform(T, R)
            elif kind == "dynamic":
                sig = sim.dynamic_pgd(p.M / p.mu, alpha, R, T)
            else:
                sig = sim.exponential_for_budget(0.1, T, R)
            out.append({"family": "logistic", "n": n, "d": d, "data_seed": seed, "scale": scale, "lam": lam,
                        "G": G, "R": R, "schedule": kind, "sigma": [float(x) for x in sig]})
        return out

    def statistic(self, problem, delta1, inst):
        """The per-run statistic: the normalised excess risk."""
        return lambda th: (problem.value(th) - problem.f_star) / delta1

    def monte_carlo(self, inst, runs, seed, chunk_runs):
        if inst.get("family") == "logistic":
            p = _logistic_problem(inst["n"], inst["d"], inst["data_seed"], inst["scale"], inst["lam"])
            theta1 = np.zeros(inst["d"])
            n = inst["n"]
        else:
            p = sim.Quadratic(np.asarray(inst["eigs"]))
            theta1 = np.asarray(inst["theta1"])
            n = inst["N"]
        delta1 = float(p.value(theta1[None, :])[0] - p.f_star)
        res = sim.pgd(p, theta1, 1.0 / (inst.get("M") or p.M), np.asarray(inst["sigma"]), inst["G"], n,
                      runs, seed, chunk_runs=chunk_runs, statistic=self.statistic(p, delta1, inst))
        return res.mean, res.var

    def describe(self, inst):
        if inst.get("family") == "logistic":
            return (f"logistic regression N={inst['n']} D={inst['d']} lambda={inst['lam']}, "
                    f"{inst.get('schedule', 'given')} schedule T={len(inst['sigma'])}")
        return f"quadratic D={len(inst['eigs'])} kappa={self.point(inst)['kappa']:.4g} T={inst['T']}"


class PGDExceedance(PGDExcessRisk):
    """Probability that one PGD run's normalised excess risk exceeds a threshold, by Monte Carlo.

    ``threshold(point)`` gives the threshold at the claim's parameters (e.g. an expectation bound,
    supplied by the claim). The per-run statistic is the indicator, so its mean is the exceedance
    probability. Instances: diagonal quadratics where that bound is attained in expectation
    (kappa = 1, one step, D = 1 and D = 50: excess / bound is chi^2_D / D), a kappa = 10 quadratic
    and the logistic problems of :class:`PGDExcessRisk`.
    """

    mc_name = "diagonal quadratics (kappa = 1, T = 1, D = 1, 50; kappa = 10, T = 20) and ridge logistic regression"
    supports_exact = False

    def __init__(self, threshold: Callable[[dict], float], what: str):
        self.threshold, self.what = threshold, what
        self.algorithm = f"PGD eq. (1), eta = 1/M, indicator of excess > {what}"

    def mc_instances(self, cfg):
        quads = [
            {"eigs": [1.0], "theta1": [1.0], "M": 1.0, "kappa": 1.0, "G": 1.0, "N": 10, "R": 0.5, "T": 1,
             "sigma": [1.0]},
            {"eigs": [1.0] * 50, "theta1": [1.0] + [0.0] * 49, "M": 1.0, "kappa": 1.0, "G": 1.0, "N": 10,
             "R": 0.5, "T": 1, "sigma": [1.0]},
            {"eigs": [0.1, 0.55, 1.0, 1.0, 1.0], "theta1": [1.0, -1.0, 0.5, 0.0, 0.0], "M": 1.0, "kappa": 10.0,
             "G": 1.0, "N": 10, "R": 0.5, "T": 20, "sigma": [math.sqrt(20 / 0.5)] * 20},
        ]
        return quads + [i for i in super().mc_instances(cfg) if i["schedule"] == "dynamic"]

    def statistic(self, problem, delta1, inst):
        thr = float(self.threshold(self.point(inst)))
        return lambda th: ((problem.value(th) - problem.f_star) / delta1 > thr).astype(float)


class MomentumExcessRisk(PGDExcessRisk):
    """Momentum PGD [dni, eq. (10)] with eta_t = eta0/(2M) on diagonal quadratics, exactly.

    Draws quadratics as :class:`PGDExcessRisk` does plus beta and eta0 satisfying Theorem 4.4's
    hypotheses (gamma = 1 - eta0/kappa, beta < gamma, eta0 <= 8/(sqrt(1 + 64c) + 1) with
    c = beta gamma (gamma - beta)^-2 (1 - beta)^-3). The point carries the exact
    Vsum = sum_t gamma^(T-t) E||v_{t+1}||^2 of the momentum-effect term.
    """

    name = "diagonal quadratic, momentum"
    algorithm = "bias-corrected momentum PGD, eq. (10)"
    supports_monte_carlo = False

    def __init__(self, schedule: str = "given", vsum: bool = True):
        """``schedule="uniform"`` fixes sigma_t^2 = T/R (the point then carries no sigma);
        ``vsum=False`` leaves Vsum out of the point (claims without a momentum-effect term)."""
        if schedule not in ("given", "uniform"):
            raise ValueError(f"schedule must be 'given' or 'uniform', got {schedule!r}")
        self.schedule, self.vsum = schedule, vsum
        if schedule == "uniform":
            self.name = "diagonal quadratic, momentum, uniform schedule sigma_t^2 = T/R"

    @staticmethod
    def eta0_max(beta, gamma):
        c = beta * gamma / ((gamma - beta) ** 2 * (1 - beta) ** 3)
        return 8 / (math.sqrt(1 + 64 * c) + 1)

    def strategy(self):
        base = super().strategy()

        @st.composite
        def inst(draw):
            d = draw(base)
            kappa = max(d["kappa"], 1.01)
            mu = d["M"] / kappa
            d["eigs"] = [mu] + d["eigs"][1:]
            d["kappa"] = kappa
            e0 = draw(st.floats(1e-3, 0.999)) * min(8.0, kappa)
            gamma = 1 - e0 / kappa
            beta = draw(st.floats(1e-3, 0.999)) * gamma
            d.update(beta=beta, eta0=e0)
            if self.schedule == "uniform":
                d["sigma"] = [math.sqrt(d["T"] / d["R"])] * d["T"]
            return d

        return inst().filter(lambda d: d["eta0"] <= self.eta0_max(d["beta"], 1 - d["eta0"] / d["kappa"]))

    def _vsum(self, inst):
        eta = inst["eta0"] / (2 * inst["M"])
        v = sim.momentum_quadratic_velocity(np.asarray(inst["eigs"]), np.asarray(inst["theta1"]), eta,
                                            np.asarray(inst["sigma"]), inst["beta"], inst["G"], inst["N"])[0]
        gamma = 1 - inst["eta0"] / inst["kappa"]
        T = len(inst["sigma"])
        return float(sum(gamma ** (T - t) * v[t - 1] for t in range(1, T + 1)))

    def point(self, inst):
        pt = super().point(inst)
        pt.update(beta=inst["beta"], eta0=inst["eta0"])
        if self.vsum:
            pt["Vsum"] = self._vsum(inst)
        if self.schedule == "uniform":
            del pt["sigma"]
        return pt

    def exact(self, inst):
        eta = inst["eta0"] / (2 * inst["M"])
        mean = sim.momentum_quadratic_moments(np.asarray(inst["eigs"]), np.asarray(inst["theta1"]), eta,
                                              np.asarray(inst["sigma"]), inst["beta"], inst["G"], inst["N"])
        return float(mean[0]) / self._delta1(inst)

    def instance_at(self, point):
        if self.schedule == "uniform":
            point = {**point, "sigma": [math.sqrt(point["T"] / point["R"])] * int(point["T"])}
        inst = super().instance_at(point)
        inst.update(beta=point["beta"], eta0=point["eta0"])
        return inst

    def describe(self, inst):
        return (f"quadratic D={len(inst['eigs'])} kappa={inst['kappa']:.4g} beta={inst['beta']:.3g} "
                f"eta0={inst['eta0']:.3g} T={inst['T']}")


class PSGDExcessRisk(PGDExcessRisk):
    """Normalised excess risk of private SGD [dni, section 4.3] with eta = 1/M, by Monte Carlo.

    Ridge logistic regression on scikit-learn data; mini-batches of n = N sqrt(R) samples drawn
    with replacement; privacy noise G sigma_t / n with sum sigma_t^-2 = R' = R N^2 / n^2. The
    sampling noise model of Theorem 4.7 (grad_t = grad f + sigma_g xi_t / n, E||xi||^2 <= D) holds
    with sigma_g^2 = n max_n ||x_n||^2 / D, since the ridge term is common to every sample and the
    logistic factor lies in (0, 1): the mini-batch gradient's variance is at most max||x||^2 / n.
    Claim parameters: kappa, M, G, N, D, Delta1, R, T, sigma, sigma_g.
    """

    name = "private SGD"
    mc_name = "ridge logistic regression (make_classification, N=200, D=5), batch n = N sqrt(R) = 20"
    algorithm = "private SGD (section 4.3), eta = 1/M"
    supports_exact = False

    def mc_instances(self, cfg):
        out = []
        n_data, d, seed, scale, R = 200, 5, 0, 1.0, 0.01
        batch = int(round(n_data * math.sqrt(R)))
        r_prime = R * n_data**2 / batch**2
        for lam, T, kind in ((0.05, 10, "uniform"), (0.05, 10, "dynamic"), (0.1, 20, "uniform")):
            p = _logistic_problem(n_data, d, seed, scale, lam)
            G = 1.0
            delta1 = float(p.value(np.zeros(d)) - p.f_star)
            alpha = d * G**2 / (2 * R * p.M * n_data**2 * delta1)
            sig = (sim.uniform(T, r_prime) if kind == "uniform" else sim.dynamic_pgd(p.M / p.mu, alpha, r_prime, T))
            X, _ = logistic_data(n_data, d, seed, scale)
            sigma_g = math.sqrt(batch * float((X * X).sum(axis=1).max()) / d)
            out.append({"family": "logistic", "n": n_data, "d": d, "data_seed": seed, "scale": scale, "lam": lam,
                        "G": G, "R": R, "batch": batch, "schedule": kind, "sigma_g": sigma_g,
                        "sigma": [float(x) for x in sig]})
        return out

    def point(self, inst):
        pt = super().point(inst)
        pt["sigma_g"] = inst["sigma_g"]
        return pt

    def instance_at(self, point):
        return None

    def monte_carlo(self, inst, runs, seed, chunk_runs):
        p = _logistic_problem(inst["n"], inst["d"], inst["data_seed"], inst["scale"], inst["lam"])
        theta1 = np.zeros(inst["d"])
        delta1 = float(p.value(theta1[None, :])[0] - p.f_star)
        res = sim.psgd(p, theta1, 1.0 / p.M, np.asarray(inst["sigma"]), inst["batch"], inst["G"], inst["n"],
                       runs, seed, chunk_runs=chunk_runs,
                       statistic=lambda th: (p.value(th) - p.f_star) / delta1)
        return res.mean, res.var

    def describe(self, inst):
        return (f"logistic regression N={inst['n']} D={inst['d']} lambda={inst['lam']}, batch {inst['batch']}, "
                f"{inst['schedule']} schedule T={len(inst['sigma'])}")


# =============================================================================== point scenarios
class PointScenario:
    """The instance is the claim's point itself; ``fn(point) -> value`` measures it exactly."""

    strategy = None
    search_runs = 2

    def __init__(self, fn: Callable[[dict], float], what: str, optimise: int = 3):
        self.fn = fn
        self.what = what
        self.optimise = optimise

    def point(self, inst):
        return inst

    def instance_at(self, point):
        return dict(point)

    def measure(self, inst, runs, seed):
        return float(self.fn(inst)), 0.0

    def describe(self, inst):
        return self.what


def _renyi_over_order(p):
    """D_alpha(N(0, s^2) || N(Delta, s^2)) / alpha with s = Delta*sigma, by mpmath quadrature."""
    d = p["Delta"]
    val = privacy.renyi_divergence_gaussians(0.0, d, d * p["sigma"], p["order"], dps=25)
    return float(val) / p["order"]


def _gaussian_delta_at_printed_eps(p):
    rho, delta = p["rho"], p["delta"]
    eps = privacy.zcdp_to_dp(rho, delta)
    return float(privacy.gaussian_delta_exact(eps, math.sqrt(2 * rho)))


GAUSSIAN_RENYI = PointScenario(_renyi_over_order, "Gaussian mechanism, Renyi divergence by quadrature (25 digits)",
                               optimise=0)
GAUSSIAN_PROFILE = PointScenario(_gaussian_delta_at_printed_eps,
                                 "Gaussian mechanism with mu = sqrt(2 rho): exact privacy profile (Balle & Wang)")


# =============================================================================== Algorithm 1 privacy
class Algorithm1Accounting:
    """zCDP of PGD with Algorithm 1's budget accounting, with the sensitivity measured on data.

    The instance is the claim's point (schedule sigma_1..sigma_T, budget R, clipping norm G, sample
    count N); the adjacency relation is the scenario's. The sensitivity of the clipped mean gradient is measured on a logistic
    dataset and its worst neighbour found by construction (the replaced sample's feature vector
    negated, or the sample removed with the normaliser kept at N), at random parameters; each
    executed step then costs Delta_measured^2 / (2 (G sigma_t / N)^2) (Lemma B.2), summed over the
    steps Algorithm 1 runs (Lemma B.1).
    """

    strategy = None
    search_runs = 2

    def __init__(self, adjacency: str):
        self.adjacency = adjacency

    def point(self, inst):
        return inst

    def instance_at(self, point):
        return dict(point)

    @staticmethod
    def measured_sensitivity(G: float, N: int, adjacency: str, seed: int = 0) -> float:
        rng = np.random.default_rng(seed)
        d = 3
        X = rng.normal(size=(N, d))
        X *= (10.0 * max(G, 1.0)) / np.linalg.norm(X, axis=1, keepdims=True)  # gradients saturate the clip
        y = np.where(rng.random(N) < 0.5, -1.0, 1.0)
        base = sim.LogisticRegression(X, y, 1e-9)  # ridge negligible: clipping caps every gradient at G
        other = (sim.make_neighbour(base, 0, -X[0]) if adjacency == "replace" else sim.remove_sample(base, 0))
        thetas = rng.normal(scale=0.01, size=(8, d))
        diff = base.grad(thetas, clip=G) - other.grad(thetas, clip=G)
        return float(np.linalg.norm(diff, axis=1).max())

    def measure(self, inst, runs, seed):
        sig = [float(x) for x in inst["sigma"]]
        G, N, R, adj = float(inst["G"]), int(inst["N"]), float(inst["R"]), self.adjacency
        acc = privacy.algorithm1_privacy(sig, R, adjacency=adj, clip_or_G=G, N=N)
        delta = self.measured_sensitivity(G, N, adj)
        rho = sum(delta**2 / (2 * (G * s / N) ** 2) for s in sig[: acc.steps])
        return rho, 0.0

    def describe(self, inst):
        return (f"Algorithm 1, {self.adjacency}-one neighbours, T={len(inst['sigma'])}, "
                f"sensitivity measured on clipped logistic gradients")


# =============================================================================== squared-loss sensitivity
class SquaredLossSensitivity:
    """Remove-one sensitivity max_n ||grad f(theta; x_n)||/N of the squared loss 1/2 (x^T theta - 1)^2.

    Instances: N, D, data centred with max norm 1 (the lemma's hypotheses), theta with ||theta|| <= B.
    """

    search_runs = 2
    search_domain = None

    def strategy(self):
        @st.composite
        def inst(draw):
            n = draw(st.integers(2, 6))
            d = draw(st.integers(1, 3))
            rows = draw(st.lists(st.lists(st.floats(-1, 1), min_size=d, max_size=d), min_size=n, max_size=n))
            X = np.asarray(rows, float)
            X = X - X.mean(axis=0)
            m = np.linalg.norm(X, axis=1).max()
            if m < 1e-3:
                X = np.zeros((n, d))
                X[0, 0], X[1, 0] = 1.0, -1.0
            else:
                X = X / m
            B = draw(_logfloats(1e-2, 1e2))
            direction = draw(st.lists(st.floats(-1, 1), min_size=d, max_size=d).filter(
                lambda v: sum(x * x for x in v) > 1e-6))
            r = draw(st.floats(0, 1))
            u = np.asarray(direction) / np.linalg.norm(direction)
            return {"X": X.tolist(), "theta": (u * r * B).tolist(), "B": B, "N": n}

        return inst()

    def point(self, inst):
        return {"B": inst["B"], "N": inst["N"]}

    def instance_at(self, point):
        n = int(point["N"])
        X = np.zeros((n, 1))
        X[0, 0], X[1, 0] = 1.0, -1.0
        return {"X": X.tolist(), "theta": [-float(point["B"])], "B": point["B"], "N": n}

    def measure(self, inst, runs, seed):
        X = np.asarray(inst["X"], float)
        p = sim.LeastSquares(X, np.ones(len(X)))
        norms = p.per_sample_grad_norms(np.asarray(inst["theta"], float)[None, :])
        return float(norms.max()) / inst["N"], 0.0

    def describe(self, inst):
        return f"squared loss, N={inst['N']}, D={len(inst['theta'])}, ||theta||={np.linalg.norm(inst['theta']):.4g}"


# =============================================================================== uniform stability
class PGDStability:
    """Uniform-stability gap of PGD by coupled runs on neighbouring datasets (shared noise).

    ``family="linear"``: per-sample loss <x, theta> with ||x|| <= G (convex, 0-smooth, so
    M-smooth for every M); the gap sup_{||x|| <= G} E[f(theta; x) - f(theta'; x)] equals
    G ||E(theta - theta')||, computed from the coupled runs. ``family="logistic"``: logistic loss
    with features of norm <= G (convex, G-Lipschitz, G^2/4-smooth); the gap is measured at the
    candidate points +-G u (u the mean direction of theta' - theta) by Monte Carlo, a lower
    estimate of the supremum. The replaced sample and the new one are drawn by Hypothesis.
    """

    search_runs = 256
    search_domain = None

    def __init__(self, families=("linear",), adjacency="replace"):
        self.families = tuple(families)
        self.adjacency = adjacency

    def strategy(self):
        @st.composite
        def inst(draw):
            fam = draw(st.sampled_from(self.families))
            n = draw(st.integers(2, 20))
            d = draw(st.integers(1, 3))
            G = draw(_logfloats(1e-1, 10.0))
            rows = draw(st.lists(st.lists(st.floats(-1, 1), min_size=d, max_size=d), min_size=n + 1,
                                 max_size=n + 1))
            X = np.asarray(rows, float)
            norms = np.maximum(np.linalg.norm(X, axis=1, keepdims=True), 1e-12)
            X = G * X / np.maximum(norms, 1.0) if fam == "linear" else G * X / norms
            smooth = 0.0 if fam == "linear" else G**2 / 4
            M = draw(_logfloats(1e-2, 1e2)) if fam == "linear" else smooth
            eta = draw(st.floats(0.01, 0.99)) * 2 / M
            T = draw(st.integers(1, 30))
            return {"family": fam, "X": X[:n].tolist(), "x_new": X[n].tolist(), "index": 0, "G": G,
                    "M": M, "eta": eta, "T": T, "N": n, "noise": draw(st.floats(0, 2)),
                    "labels": [1.0] * n}

        return inst()

    def point(self, inst):
        return {"G": inst["G"], "eta": inst["eta"], "T": inst["T"], "N": inst["N"], "M": inst["M"],
                "adjacency": self.adjacency}

    def instance_at(self, point):
        G = float(point["G"])
        n = int(point["N"])
        X = np.zeros((n, 1))
        X[:, 0] = G
        return {"family": "linear", "X": X.tolist(), "x_new": [-G], "index": 0, "G": G, "M": point["M"],
                "eta": point["eta"], "T": int(point["T"]), "N": n, "noise": 1.0, "labels": [1.0] * n}

    def _problems(self, inst):
        X = np.asarray(inst["X"], float)
        if inst["family"] == "linear":
            a = sim.LinearLoss(X)
        else:
            a = sim.LogisticRegression(X, np.asarray(inst["labels"]), 1e-9)
        if self.adjacency == "replace":
            b = sim.make_neighbour(a, inst["index"], np.asarray(inst["x_new"]))
        else:
            b = sim.remove_sample(a, inst["index"])
        return a, b

    def measure(self, inst, runs, seed):
        a, b = self._problems(inst)
        d = a.dim
        T = inst["T"]
        sig = np.full(T, inst["noise"])
        th_a, th_b = sim.coupled_pgd(a, b, np.zeros(d), inst["eta"], sig, inst["G"], inst["N"],
                                     runs, seed % (2**32))
        G = inst["G"]
        diff = th_a - th_b
        if inst["family"] == "linear":
            gap = G * float(np.linalg.norm(diff.mean(axis=0)))
            return gap, 0.0
        u = diff.mean(axis=0)
        nrm = np.linalg.norm(u)
        u = u / nrm if nrm > 0 else np.eye(d)[0]
        best = (-math.inf, 0.0)
        for sgn in (1.0, -1.0):
            x = sgn * G * u
            la = np.logaddexp(0.0, -(th_a @ x))
            lb = np.logaddexp(0.0, -(th_b @ x))
            g = la - lb
            m = float(g.mean())
            if m > best[0]:
                best = (m, float(g.var(ddof=1)) if len(g) > 1 else 0.0)
        return best

    def describe(self, inst):
        return (f"{inst['family']} loss, N={inst['N']}, T={inst['T']}, eta={inst['eta']:.4g}, "
                f"{self.adjacency}-one neighbours, shared noise")


# =============================================================================== momentum threshold
def t_hat(beta: float, gamma: float, limit: int = 10_000_000) -> int:
    """[dni, Lemma B.7]: the largest t with gamma^(t-1) >= (1 - beta)/(1 - beta^t).

    h(t) = gamma^(t-1)(1 - beta^t) starts at h(1) = 1 - beta and decays to 0, so the set is finite.
    log h is scanned for every t (NumPy, log space) until gamma^(t-1) < (1 - beta)/2, so a set
    that is not a prefix of 1..T_hat would still be seen; the decision at the boundary is
    re-evaluated in mpmath at 40 digits.
    """
    lb, lg = math.log1p(-beta), math.log(gamma)
    stop = min(limit, int(math.ceil((math.log(2) - lb) / -lg)) + 2)
    ts = np.arange(1, stop + 1, dtype=float)
    logh = (ts - 1) * lg + np.log1p(-np.exp(ts * math.log(beta)))
    ok = np.nonzero(logh >= lb - 1e-12)[0]
    cands = sorted({1, *(int(x) + 1 for x in ok[-3:])})
    b, g = mpmath.mpf(beta), mpmath.mpf(gamma)
    with mpmath.workdps(40):
        best = 1
        for t in range(max(1, cands[-1] - 2), cands[-1] + 3):
            if g ** (t - 1) * (1 - b**t) >= 1 - b:
                best = max(best, t)
    return best


def _t_hat_below(p):
    b, g = mpmath.mpf(p["beta"]), mpmath.mpf(p["gamma_m"])
    th = t_hat(p["beta"], p["gamma_m"])
    ts = np.arange(1, th + 1, dtype=float)
    ratio = np.exp(math.log1p(-p["beta"]) - np.log1p(-np.exp(ts * math.log(p["beta"])))
                   - (ts - 1) * math.log(p["gamma_m"]))
    worst = int(np.argmax(ratio)) + 1
    with mpmath.workdps(40):  # the worst t, and both ends, in mpmath
        return float(max((1 - b) / ((1 - b**t) * g ** (t - 1)) for t in {1, worst, th}))


def _t_hat_above(p):
    b, g = mpmath.mpf(p["beta"]), mpmath.mpf(p["gamma_m"])
    th = t_hat(p["beta"], p["gamma_m"])
    with mpmath.workdps(40):
        return float(max((1 - b) / ((1 - b**t) * g ** (th - 1)) for t in range(th + 1, th + 200)))


def _u3_uniform_ratio(p):
    """[dni, proof of Theorem 4.5]: U3 of the uniform schedule over its printed bound."""
    kappa, eta0, beta, T, R = p["kappa"], p["eta0"], p["beta"], int(p["T"]), p["R"]
    gamma = 1 - eta0 / kappa
    th = t_hat(beta, gamma)
    s2 = T / R
    with mpmath.workdps(30):
        b, g = mpmath.mpf(beta), mpmath.mpf(gamma)
        u3 = mpmath.fsum(g ** (T - t) * (1 - b) ** 2 / (1 - b**t) ** 2
                         * mpmath.fsum(b ** (2 * (t - i)) for i in range(1, t + 1)) * s2 for t in range(1, T + 1))
        bound = s2 * g ** (T - 1) * (min(T, th) + max((g ** (th - T) - 1) / (1 - g), 0))
        return float(u3 / bound)


def _u3_dynamic_ratio(p):
    """[dni, proof of Theorem 4.6]: max over i of (coefficient of sigma_i^2 in U3) / q_i.

    U3 = sum_t gamma^(T-t) (1-beta)^2/(1-beta^t)^2 sum_{i<=t} beta^(2(t-i)) sigma_i^2 is linear in
    sigma_i^2 >= 0, so U3 <= sum_i q_i sigma_i^2 for every schedule iff this ratio is <= 1.
    q_t = 2 gamma^(T+t)/(gamma(gamma - beta^2)) for t <= T_hat and
    gamma^(2(T_hat-1)) (gamma^(T+1-t) - beta^(2(T+1-t)))/(gamma - beta^2) for t > T_hat.
    """
    kappa, eta0, beta, T = p["kappa"], p["eta0"], p["beta"], int(p["T"])
    gamma = 1 - eta0 / kappa
    th = t_hat(beta, gamma)
    with mpmath.workdps(30):
        b, g = mpmath.mpf(beta), mpmath.mpf(gamma)
        worst = mpmath.mpf(0)
        for i in range(1, T + 1):
            coef = mpmath.fsum(g ** (T - t) * (1 - b) ** 2 / (1 - b**t) ** 2 * b ** (2 * (t - i))
                               for t in range(i, T + 1))
            if i <= th:
                q = 2 * g ** (T + i) / (g * (g - b**2))
            else:
                q = g ** (2 * (th - 1)) * (g ** (T + 1 - i) - b ** (2 * (T + 1 - i))) / (g - b**2)
            worst = max(worst, coef / q)
        return float(worst)


U3_DYNAMIC = PointScenario(_u3_dynamic_ratio, "U3 coefficients against the proof's q_t, in mpmath (30 digits)",
                           optimise=1)
U3_UNIFORM = PointScenario(_u3_uniform_ratio, "uniform schedule sigma_t^2 = T/R, U3 in mpmath (30 digits)",
                           optimise=1)
T_HAT_BELOW = PointScenario(_t_hat_below, "Lemma B.7 threshold: every t <= T_hat (scan in mpmath)", optimise=1)
T_HAT_ABOVE = PointScenario(_t_hat_above, "Lemma B.7 threshold: t = T_hat+1..T_hat+199 (mpmath)", optimise=1)


# =============================================================================== momentum gradient variance
class MomentumGradientDrift:
    """[dni, Lemma B.5] on arbitrary trajectories of theta_{t+1} = theta_t - eta_t v_{t+1}/b_t.

    Instances: beta < gamma < 1, eta0 > 0, M > 0, a quadratic with Hessian eigenvalues in [0, M]
    (so grad is M-Lipschitz), theta_1 and ANY velocity sequence v_2..v_{T+1} (the lemma uses
    only smoothness and the update rule). Measured: LHS / RHS, with eta_t = eta0/(2M),
    b_t = 1 - beta^t, LHS = sum_t gamma^(T-t) (2(1-beta) eta_t / b_t) sum_{i<=t} beta^(t-i)
    ||grad_t - grad_i||^2 and RHS = eta0^3 beta gamma / (2M(1-beta)^3(gamma-beta)^2)
    sum_{i<T} gamma^(T-i) ||v_{i+1}||^2.
    """

    search_runs = 2
    search_domain = None
    optimise = 0

    def strategy(self):
        @st.composite
        def inst(draw):
            gamma = draw(st.floats(0.05, 0.9999))
            beta = draw(st.floats(0.001, 0.999)) * gamma
            T = draw(st.integers(2, 10))
            d = draw(st.integers(1, 3))
            M = draw(_logfloats(1e-2, 1e2))
            eigs = [M * u for u in draw(st.lists(st.floats(0, 1), min_size=d, max_size=d))]
            eigs[0] = M
            vs = draw(st.lists(st.lists(st.floats(-10, 10), min_size=d, max_size=d), min_size=T, max_size=T))
            return {"beta": beta, "gamma_m": gamma, "eta0": draw(_logfloats(1e-3, 8.0)), "M": M, "T": T,
                    "eigs": eigs, "theta1": draw(st.lists(st.floats(-10, 10), min_size=d, max_size=d)), "v": vs}

        return inst().filter(lambda d: sum(x * x for row in d["v"][:-1] for x in row) > 1e-12)

    def point(self, inst):
        return {k: inst[k] for k in ("beta", "gamma_m", "eta0", "M", "T")}

    def instance_at(self, point):
        return None

    def measure(self, inst, runs, seed):
        beta, gamma, eta0, M, T = (inst[k] for k in ("beta", "gamma_m", "eta0", "M", "T"))
        H = np.asarray(inst["eigs"])
        v = np.asarray(inst["v"], float)          # v[t-1] = v_{t+1}, t = 1..T
        eta = eta0 / (2 * M)
        theta = [np.asarray(inst["theta1"], float)]
        for t in range(1, T + 1):
            theta.append(theta[-1] - eta * v[t - 1] / (1 - beta**t))
        grads = [H * th for th in theta]          # grad_t = H theta_t, t = 1..T+1
        lhs = 0.0
        for t in range(1, T + 1):
            inner = sum(beta ** (t - i) * float(np.sum((grads[t - 1] - grads[i - 1]) ** 2)) for i in range(1, t + 1))
            lhs += gamma ** (T - t) * 2 * (1 - beta) * eta / (1 - beta**t) * inner
        coef = eta0**3 * beta * gamma / (2 * M * (1 - beta) ** 3 * (gamma - beta) ** 2)
        rhs = coef * sum(gamma ** (T - i) * float(np.sum(v[i - 1] ** 2)) for i in range(1, T))
        return lhs / rhs, 0.0

    def describe(self, inst):
        return f"quadratic D={len(inst['eigs'])}, T={inst['T']}, arbitrary velocities"


# =============================================================================== instances
PGD_ERUB = PGDExcessRisk()
PSGD_ERUB = PSGDExcessRisk()
MOMENTUM_ERUB = MomentumExcessRisk()
MOMENTUM_ERUB_NO_V = MomentumExcessRisk(vsum=False)
MOMENTUM_UNIFORM_ERUB = MomentumExcessRisk(schedule="uniform", vsum=False)
MOMENTUM_DRIFT = MomentumGradientDrift()
ALGORITHM1_REPLACE = Algorithm1Accounting("replace")
ALGORITHM1_REMOVE = Algorithm1Accounting("remove")
SQUARED_SENSITIVITY = SquaredLossSensitivity()
STABILITY_LINEAR = PGDStability(("linear",), "replace")
STABILITY_CONVEX = PGDStability(("linear", "logistic"), "replace")
