"""Quantities that only the proofs of [erm] define ("Efficient Private ERM for Smooth Objectives",
seed 002_83aa5496eb291d00.txt), and the samplers of its audits.

* :func:`radial_huber_excess`: ``E phi(||z||)`` for the radial Huber loss ``phi(r) = u^2 r^2/2``
  (``r <= 1/u``), ``u r - 1/2`` (beyond): a convex, ``u^2``-smooth, globally ``u``-Lipschitz loss on
  which Algorithm 1 with ``eta = 1/u^2`` reaches ``w_hat`` in one step, so its error is exactly the
  noise term, in closed form (incomplete gamma functions);
* :class:`GDRecursion`: the recursions of the proofs of Lemmas 2 and 3, step by step on coupled runs;
* :class:`GradientVariance`: ``E||G(w) - grad F(w)||^2`` of Algorithm 2's stochastic gradient, exactly,
  on data sets (the sampling variance plus the noise);
* the exact measures behind Lemmas 4, 9, 10 (martingale tail, amplification, strong composition);
* samplers of the audits: the Gaussian mechanism of Lemma 1, Algorithm 1 (through its privacy
  scenario) and Algorithm 2 on its worst-case linear data sets (closed-form output distribution).
"""
from __future__ import annotations

import math

import numpy as np
import sympy as sp
from hypothesis import strategies as st
import scipy  # its submodules load on first use (scipy's lazy loading), not at start-up

from dpverify import sim
from dpverify.privacy import composition
from dpverify.scenarios import PointScenario, Scenario, bind
from dpverify.scenarios import GDSensitivity, LinearModelLoss


# ----------------------------------------------------------------------------- radial Huber
def radial_huber_excess(u, dim, noise: str, scale):
    """SymPy expression of ``E phi(||z||)`` (module docstring) for ``z`` with density proportional
    to ``exp(-||z||/b)`` (``noise="norm_laplace"``, ``||z|| ~ Gamma(D, b)``) or ``N(0, s^2 I)``
    (``"gaussian"``, ``||z|| = s chi_D``), ``b`` or ``s`` = ``scale``."""
    c = 1 / u  # the radius where phi turns linear
    if noise == "norm_laplace":
        b, k = scale, dim
        x = c / b
        inner_sq = b**2 * sp.lowergamma(k + 2, x) / sp.gamma(k)          # E[r^2; r <= c]
        outer_r = b * sp.uppergamma(k + 1, x) / sp.gamma(k)              # E[r; r > c]
        outer_p = sp.uppergamma(k, x) / sp.gamma(k)                      # P(r > c)
    else:
        s, k = scale, sp.Rational(1, 2) * dim
        x = c**2 / (2 * s**2)
        inner_sq = 2 * s**2 * sp.lowergamma(k + 1, x) / sp.gamma(k)
        outer_r = sp.sqrt(2) * s * sp.uppergamma(k + sp.Rational(1, 2), x) / sp.gamma(k)
        outer_p = sp.uppergamma(k, x) / sp.gamma(k)
    return u**2 / 2 * inner_sq + u * outer_r - outer_p / 2


def radial_huber_phi(u, r):
    """phi(r) of the radial Huber loss, vectorised (for Monte Carlo tests)."""
    r = np.asarray(r, float)
    return np.where(r <= 1 / u, 0.5 * u * u * r * r, u * r - 0.5)


# ----------------------------------------------------------------------------- Lemma 2 / 3 recursions
class GDRecursion(GDSensitivity):
    """``max_t [Delta_{t+1}^2 - c Delta_t^2 - 4 eta L Delta_t / n] / (8 eta^2 L^2 / n^2)`` on coupled GD
    runs, with ``c = 1`` (the recursion of Lemma 2's proof) or ``c = 1 - 2(n-1) eta mu beta/(n (mu +
    beta))`` (Lemma 3's); the recursion holds at every step iff this is <= 1."""

    def __init__(self, params, *, strongly_convex: bool, families=("least_squares", "logistic", "huber")):
        super().__init__(params, families=families, what="GD recursion")
        self.strongly_convex = strongly_convex
        self.name = "one step of the proof's recursion on coupled GD runs (" + "/".join(families) + ")"

    def measure(self, inst, runs, seed):
        v = self._values(inst["point"])
        eta, n, L, mu, M = v["eta"], v["n"], inst["L"], v["mu"], v["M"]
        c = 1.0 - (2 * (n - 1) * eta * mu * M / (n * (mu + M)) if self.strongly_convex else 0.0)
        unit = 8 * eta * eta * L * L / (n * n)
        if unit <= 0:
            return 0.0, 0.0
        d = inst["distances"]
        worst = max((d[t + 1] ** 2 - c * d[t] ** 2 - 4 * eta * L * d[t] / n) / unit for t in range(len(d) - 1))
        return float(worst), 0.0


# ----------------------------------------------------------------------------- Algorithm 2's gradient variance
_N, _SEED = st.integers(1, 8), st.integers(0, 2**32 - 1)
_FAMILY, _LAM = st.sampled_from(["least_squares", "logistic", "huber"]), st.sampled_from([0.0, 0.1])

class GradientVariance(Scenario):
    """``E||G(w) - grad F(w)||^2 / (L(w)^2 + D s^2)`` for Algorithm 2's ``G(w) = grad f(w; xi) + z``
    (``xi`` uniform on the data, ``z ~ N(0, s^2 I_D)``), exactly: the variance of the per-sample
    gradients plus ``D s^2``, with ``L(w)`` the largest per-sample gradient norm at ``w``. Data
    sets, ``w`` and the loss family are drawn; ``D s^2`` comes from the claim's point."""

    name = "Algorithm 2's stochastic gradient on drawn data sets (least squares, logistic, Huber)"
    search_runs = 2
    optimise = 0

    def __init__(self, noise_sq):
        self.noise_sq = noise_sq   # callable point -> D s^2

    def strategy(self):
        dom = self.claim.domain.strategy()

        @st.composite
        def inst(draw):
            pt = draw(dom)
            d = int(pt["d"])
            n = draw(_N)
            fam = draw(_FAMILY)
            rng = np.random.default_rng(draw(_SEED))      # the data from one drawn seed
            X = rng.uniform(-1, 1, size=(n, d))
            y = np.where(rng.uniform(size=n) < 0.5, -1.0, 1.0) if fam == "logistic" else 3 * rng.uniform(-1, 1, size=n)
            w = rng.uniform(-3, 3, size=d)
            return {"point": pt, "family": fam, "X": X.tolist(), "y": y.tolist(), "w": w.tolist(), "lam": draw(_LAM)}

        return inst()

    def point(self, inst):
        return inst["point"]

    def make_instance(self, point):
        d = int(point["d"])
        X = np.zeros((2, d))
        X[0, 0], X[1, 0] = 1.0, -1.0
        return {"point": dict(point), "family": "huber", "X": X.tolist(), "y": [5.0, 5.0], "w": [0.0] * d,
                "lam": 0.0}

    @staticmethod
    def parts(inst):
        p = LinearModelLoss(inst["family"], inst["X"], inst["y"], inst["lam"])
        w = np.asarray(inst["w"], float)
        r = p.dloss(p.X @ w)
        g = r[:, None] * p.X + p.lam * w[None, :]
        var = float(((g - g.mean(axis=0)) ** 2).sum(axis=1).mean())
        L = float(np.sqrt((g * g).sum(axis=1)).max())
        return var, L

    def measure(self, inst, runs, seed):
        var, L = self.parts(inst)
        ds2 = float(self.noise_sq(inst["point"]))
        return (var + ds2) / (L * L + ds2), 0.0

    def describe(self, inst):
        var, L = self.parts(inst)
        return f"{inst['family']} loss, n={len(inst['X'])}, sampling variance {var:.4g}, L(w) = {L:.4g}"


# ----------------------------------------------------------------------------- Lemma 4
def _gaussian_c():
    """Largest variance (relative to sigma_t^2) of a centred Gaussian with E exp(X^2/sigma^2) <= e."""
    return (1 - math.exp(-2)) / 2


def martingale_tail(pt) -> float:
    """Largest P(sum_t X_t > sqrt(3 log(1/delta) sum sigma_t^2)) over two extreme sequences meeting
    E exp(X_t^2/sigma_t^2) <= e with sigma_t = 1: i.i.d. Gaussians of variance (1 - e^-2)/2 (exact
    normal tail) and Rademacher signs (exact binomial tail)."""
    T, delta = int(pt["T"]), float(pt["delta"])
    thr = math.sqrt(3 * math.log(1 / delta) * T)
    gauss = float(scipy.stats.norm.sf(thr / math.sqrt(_gaussian_c() * T)))
    k = math.floor((thr + T) / 2) + 1     # sum of T signs = 2K - T > thr  <=>  K > (thr + T)/2
    rad = float(scipy.stats.binom.sf(k - 1, T, 0.5))
    return max(gauss, rad)


LEMMA_4_TAIL = PointScenario(martingale_tail, "exact tails of i.i.d. Gaussian (E exp(X^2/s^2) = e) and Rademacher "
                                              "martingale differences")


# ----------------------------------------------------------------------------- Lemmas 9, 10
def subsampled_delta_at(eps_of):
    """``pt -> delta`` at ``eps_of(pt)`` of the canonical (eps, delta) pair run on a uniformly random
    alpha fraction of the data (replace-one): ((1 - alpha) P + alpha Q, P), both directions."""
    def f(pt):
        p, q = composition.canonical_pair(float(pt["epsilon"]), float(pt["delta"]))
        a, b = composition.subsampled_pair(p, q, float(pt["alpha"]))
        return composition.pair_delta(a, b, float(eps_of(pt)))
    return f


def composition_delta_at(eps_of):
    """``pt -> optimal delta`` at ``eps_of(pt)`` of the k-fold composition of (eps, delta)-DP algorithms."""
    def f(pt):
        return composition.optimal_composition_delta(float(pt["epsilon"]), float(pt["delta"]), int(pt["T"]),
                                                     float(eps_of(pt)))
    return f


# ----------------------------------------------------------------------------- audit samplers
def gaussian_mechanism_sampler(std_of):
    """Lemma 1's Gaussian mechanism on a pair at distance Delta_2 (first axis), std ``std_of(pt)``."""
    def sampler(pt, side, n, rng):
        k = int(pt["k"])
        shift = np.zeros(k)
        if side == "D'":
            shift[0] = float(pt["Delta2"])
        return shift + float(std_of(pt)) * rng.standard_normal((n, k))
    return sampler


def bound_sampler(scenario, claim_ref):
    """``scenario.sampler`` bound to the claim ``claim_ref()`` (resolved at call time)."""
    def sampler(pt, side, n, rng):
        return bind(scenario, claim_ref()).sampler(pt, side, n, rng)
    return sampler


def algorithm2_sampler(pt, side, n, rng):
    """Algorithm 2 on its worst-case neighbours (linear losses, per-sample gradient bound L = 1,
    one dimension): on D every sample's gradient is -1 but the last one's +1, on D' all are -1;
    constant step eta = 1 (the output's privacy does not depend on it), noise std
    2 sqrt(log(3n/delta) log(2/delta))/eps per step (line 5), R uniform on 1..n^2. Exact output
    draws (:func:`dpverify.sim.random_round_linear`)."""
    m = int(pt["n"])
    eps, delta = float(pt["epsilon"]), float(pt["delta"])
    s = 2 * math.sqrt(math.log(3 * m / delta) * math.log(2 / delta)) / eps
    grads = np.array([[-1.0], [1.0 if side == "D" else -1.0]])   # the n - 1 common samples, the differing one
    probs = np.full(m * m, 1.0 / (m * m))
    return sim.random_round_linear(rng, n, np.zeros(1), 1.0, probs, grads, np.array([m - 1.0, 1.0]), s)


__all__ = ["GDRecursion", "GradientVariance", "LEMMA_4_TAIL", "algorithm2_sampler",
           "bound_sampler", "composition_delta_at", "gaussian_mechanism_sampler", "martingale_tail",
           "radial_huber_excess", "radial_huber_phi", "subsampled_delta_at"]
