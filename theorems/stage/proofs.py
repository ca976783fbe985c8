"""Quantities that only [stage] ("Private Stochastic Non-convex Optimization with Improved Utility
Rates", seed 003_5052799caee6efc5.txt) needs: the neighbouring data sets and outputs of its privacy
counterexamples, and the Gaussian location model of Definition 1.1.

Privacy instance (Theorems 2.1 and 3.1, Definition 2.1's neighbours): the linear loss
``f(w; z) = <z, w>`` (L-Lipschitz and beta-smooth for every beta, the assumptions Theorem 3.1 makes)
on n samples that are all zero except ``z_1 = L e`` (data set D) or ``z_1 = -L e`` (D'). Only the
projection of the iterates on ``e`` depends on the data; in units of ``L/B`` a step's mini-batch
gradient is ``+-1`` when sample 1 is in the batch (probability B/n for a batch drawn without
replacement, independently across steps) and 0 otherwise, plus Gaussian noise of standard deviation
``s = pi B / L``. Everything below is in these units (the step size scales both laws alike).
"""
from __future__ import annotations

import math
from fractions import Fraction

import numpy as np

from dpverify.measured import Measured
from dpverify.privacy import mixture_delta_lower, wor_gaussian_epsilon


# ----------------------------------------------------------------------------- Theorem 2.1's algorithm
def sgd_sum_sampler(pt, side, n_out, rng):
    """Outputs of T steps of noisy mini-batch SGD, Abadi et al.'s form (noise std L pi on the sum of the
    batch's gradients, pi = c2 q sqrt(T ln(1/delta))/eps), last iterate projected on e and divided by -eta L:
    ``+-N + pi sqrt(T) xi``, N ~ Binomial(T, q) the steps whose batch holds sample 1 (exact law)."""
    T, q = int(pt["T"]), float(pt.get("q", 1.0))
    if "n" in pt and "B" in pt:
        q = pt["B"] / pt["n"]
    pi = pt["c2"] * q * math.sqrt(T * math.log(1 / pt["delta"])) / pt["epsilon"]
    sign = 1.0 if side == "D" else -1.0
    counts = np.full(n_out, T, dtype=float) if q >= 1 else rng.binomial(T, q, size=n_out).astype(float)
    return sign * counts + pi * math.sqrt(T) * rng.standard_normal(n_out)


def thm21_delta_at_tstar(c1, c2, delta):
    """The exact delta(eps) of Theorem 2.1's full-batch algorithm (q = 1) at T* = ceil(64 max(c2^2 ln(1/delta),
    1)/c1) steps and eps* = c1 T*/2 (so eps* < c1 q^2 T*): a Gaussian mechanism with sensitivity/noise ratio
    mu = 2 sqrt(T*)/pi = c1 T*/(c2 sqrt(ln 1/delta)) [Balle & Wang 2018, Thm 8]; in double precision with the
    tails in log space (the value is 1 - O(1e-200) at these T*, so no cancellation matters)."""
    from scipy.special import log_ndtr

    c1, c2, delta = float(c1), float(c2), float(delta)
    lg = math.log(1 / delta)
    T = math.ceil(64 * max(c2**2 * lg, 1) / c1)
    eps = c1 * T / 2
    mu = c1 * T / (c2 * math.sqrt(lg))
    return eps, T, math.exp(log_ndtr(-eps / mu + mu / 2)) - math.exp(min(eps + log_ndtr(-eps / mu - mu / 2), 700.0))


# ----------------------------------------------------------------------------- Algorithm 1 (DpageEM)
def _schedule(pt):
    K, T0, t0 = int(pt["K"]), int(pt["T0"]), int(pt.get("t0", 0))
    return [T0 * 2**k for k in range(1, K + 1)], [t0 * 2**k for k in range(1, K + 1)], [0.5**k for k in range(1, K + 1)]


def algorithm1_noise(pt):
    """``s = pi B / L`` for pi of eq. (4) at equality: c2 q sqrt(T_tot ln(1/delta))/eps with q = B/n."""
    lengths, _, _ = _schedule(pt)
    q = pt["B"] / pt["n"] if "B" in pt else 1.0
    return pt["c2"] * q * math.sqrt(sum(lengths) * math.log(1 / pt["delta"])) / pt["epsilon"]


def algorithm1_sampler(pt, side, n_out, rng):
    """Outputs of Algorithm 1 (DpageEM, output drawn uniformly from the last stage's iterates) on D or D',
    projected on e, in units of eta^1 L/B: every step, sample 1 is in the batch with probability B/n."""
    lengths, mons, decays = _schedule(pt)
    q = pt["B"] / pt["n"] if "B" in pt else 1.0
    s = algorithm1_noise(pt)
    rho = float(pt.get("rho", 0.0))
    sign = 1.0 if side == "D" else -1.0
    w = np.zeros(n_out)
    rows = np.arange(n_out)
    for T, m, dk in zip(lengths, mons, decays):
        eta = dk / decays[0]
        g = s * rng.standard_normal((n_out, T))
        g += sign * (1.0 if q >= 1 else (rng.random((n_out, T)) < q))
        pick = rng.integers(1, T + 1, size=n_out)
        path = np.empty((n_out, T))
        prev = w.copy()
        mk = m if rho else 0
        for t in range(mk):                      # momentum on: the heavy-ball recursion
            w, prev = w - eta * g[:, t] + rho * (w - prev), w
            path[:, t] = w
        if mk < T:                               # momentum off: partial sums
            path[:, mk:] = w[:, None] - eta * np.cumsum(g[:, mk:], axis=1)
        w = path[rows, pick - 1]
    return w[:, None]


def algorithm1_full_batch_laws(pt):
    """Per output index t = 1..T^1 of Algorithm 1 with one stage (K = 1) and full batches (q = 1): the mean
    and standard deviation of the output's projection on D (on D' the mean changes sign)."""
    lengths, mons, _ = _schedule({**pt, "K": 1})
    T, m = lengths[0], mons[0]
    rho, s = float(pt.get("rho", 0.0)), algorithm1_noise(pt)
    mean, mean_prev = 0.0, 0.0
    S00 = S01 = S11 = 0.0   # second moments of the noise part (w_t, w_{t-1})
    means, sds = np.empty(T), np.empty(T)
    for t in range(1, T + 1):
        r = rho if t <= m else 0.0
        a, b = 1.0 + r, -r
        mean, mean_prev = a * mean + b * mean_prev - 1.0, mean
        S00, S01, S11 = a * a * S00 + 2 * a * b * S01 + b * b * S11 + s * s, a * S00 + b * S01, S00
        means[t - 1], sds[t - 1] = mean, math.sqrt(S00)
    return means, sds


def algorithm1_delta_lower(pt):
    """A lower bound on Algorithm 1's delta(eps) (one stage, full batches): the best half-line of the output's
    projection, exact for these two Gaussian mixtures (:func:`dpverify.privacy.mixture_delta_lower`)."""
    means, sds = algorithm1_full_batch_laws(pt)
    return Measured.lower_bound(mixture_delta_lower(means, -means, sds, float(pt["epsilon"])))


def thm31_delta_at_t0star(c1, c2, delta):
    """A closed-form lower bound on the delta(eps*) of Algorithm 1 (one stage, K = 1, full batches, no
    momentum, pi of (4) at equality) at T0* = ceil(64 max(c2^2 ln(1/delta), 1)/c1), T = 2 T0* steps and
    eps* = c1 T0* (so eps* < c1 (B/n)^2 sum_k T^k = 2 c1 T0*). Returns ``(eps*, T0*, bound)``.

    In the units of the module docstring the output is ``-t + s sqrt(t) xi`` on D and ``+t + s sqrt(t) xi``
    on D', t uniform on 1..T, s = c2 sqrt(T ln(1/delta))/eps*. On the half-line H = {x < -a}, a = T/32:
    P_D(H) >= (1 - 2a/T) Phi(sqrt(2a)/(2s)) (the t >= 2a have t - a >= t/2) and P_D'(H) <= Phi(-2 sqrt(a)/s)
    ((a + t)/sqrt(t) >= 2 sqrt(a)), so delta(eps*) >= P_D(H) - e^eps* P_D'(H) -- about 15/16 for every
    c1, c2 (the second term is at most e^(-3 eps*), eps* >= 64). Tails in log space."""
    from scipy.special import log_ndtr

    c1, c2, delta = float(c1), float(c2), float(delta)
    lg = math.log(1 / delta)
    T0 = math.ceil(64 * max(c2**2 * lg, 1) / c1)
    T = 2 * T0
    eps = c1 * T0
    s = c2 * math.sqrt(T * lg) / eps
    a = T / 32
    p = (1 - 2 * a / T) * math.exp(log_ndtr(math.sqrt(2 * a) / (2 * s)))
    q = math.exp(min(eps + log_ndtr(-2 * math.sqrt(a) / s), 700.0))
    return eps, T0, p - q


def transcript_epsilon(pt):
    """An upper bound on the eps at delta of Algorithm 1 (any output: post-processing of the noisy
    gradients): T_tot = sum_k T^k compositions of the Gaussian mechanism on batches of B of n drawn without
    replacement, replace-one neighbours, noise multiplier z = pi B/(2L) (dp_accounting's RDP accountant)."""
    lengths, _, _ = _schedule(pt)
    z = algorithm1_noise(pt) / 2
    return Measured.upper_bound(wor_gaussian_epsilon(int(pt["n"]), int(pt["B"]), float(z), int(sum(lengths)),
                                                     float(pt["delta"])))


def sgd_transcript_epsilon(pt):
    """The same for Theorem 2.1's T steps (noise L pi on the sum, sensitivity 2L: z = pi/2)."""
    q = pt["B"] / pt["n"]
    pi = pt["c2"] * q * math.sqrt(pt["T"] * math.log(1 / pt["delta"])) / pt["epsilon"]
    return Measured.upper_bound(wor_gaussian_epsilon(int(pt["n"]), int(pt["B"]), float(pi / 2), int(pt["T"]),
                                                     float(pt["delta"])))


# ----------------------------------------------------------------------------- Theorem 2.2 on an exact model
def _binomial_weights(n, p):
    from scipy.stats import binom

    k = np.arange(n + 1)
    return k, binom.pmf(k, n, p)


def rademacher_generalization(pt):
    """Theorem 2.2 on an exactly solvable model: samples z in {-1, +1} (P(z = 1) = p), the squared loss
    f(w; z) = (w - z)^2/2, and the randomised algorithm A(S) = c zbar_S + N(0, s^2) (one noisy gradient step of
    size c from 0 on F_S). Returns ``(gen, alpha)``: the generalisation error E_{A,S}[F_E(A(S)) - F_S(A(S))]
    (a sum over the number k of +1 samples, binomial weights) and the uniform stability of Definition 2.4,
    max over neighbouring S, S' (one sample flipped: k -> k +- 1) and z = +-1 of E_A[f(A(S); z) - f(A(S'); z)]
    (both sides' noise integrates to s^2/2, which cancels)."""
    n, p, c, s = int(pt["n"]), float(pt["p"]), float(pt["c"]), float(pt["s"])
    k, w = _binomial_weights(n, p)
    zbar = (2 * k - n) / n
    m = c * zbar                                   # E_A[A(S)]
    Ez = 2 * p - 1
    F_E = (m * m + s * s - 2 * m * Ez + 1) / 2       # E_A F_E(A(S)), F_E(w) = (w^2 - 2 w E z + 1)/2
    F_S = (m * m + s * s - 2 * m * zbar + 1) / 2     # E_A F_S(A(S))
    gen = float(np.dot(w, F_E - F_S))
    alpha = 0.0
    for kk in range(n + 1):
        for nb in (kk - 1, kk + 1):
            if 0 <= nb <= n:
                m1, m2 = c * (2 * kk - n) / n, c * (2 * nb - n) / n
                for z in (-1.0, 1.0):
                    alpha = max(alpha, ((m1 - z) ** 2 - (m2 - z) ** 2) / 2)
    return gen, alpha


def generalisation_over_stability(pt):
    gen, alpha = rademacher_generalization(pt)
    return gen / alpha


# ----------------------------------------------------------------------------- the sampling switch of Theorem 3.1
def _binomial_pmf(T, q):
    from scipy.stats import binom

    k = np.arange(T + 1)
    w = binom.pmf(k, T, q)
    keep = w > 0
    return k[keep].astype(float), w[keep]


def run_delta_at_accountant_eps(pt):
    """A lower bound on the delta of Algorithm 2's T noisy mini-batch gradients (batches of B of n drawn without
    replacement, replace-one neighbours of Definition 2.1) at the eps that the moments accountant's setting certifies
    for them: Poisson sampling at rate q = B/n with add-or-remove neighbours and the same noise multiplier s
    (dp-accounting's PLD accountant, pessimistic: an upper bound on that setting's eps). The lower bound is the best
    half-line of the sum of the T increments on the linear-loss pair (module docstring): D gives N(+K, T s^2), D'
    N(-K, T s^2), K ~ Binomial(T, B/n)."""
    T, q, s = int(pt["T"]), float(pt["B"]) / float(pt["n"]), float(pt["s"])
    k, w = _binomial_pmf(T, q)
    return Measured.lower_bound(mixture_delta_lower(k, -k, s * math.sqrt(T), accountant_eps(pt), weights=w,
                                                    q_weights=w))


def accountant_eps(pt) -> float:
    """The eps that dp-accounting's PLD accountant (pessimistic) gives at the point's delta for T Poisson-sampled
    Gaussian steps at rate B/n with noise multiplier s (add-or-remove neighbours)."""
    from dpverify.privacy import event_epsilon, poisson_sampled_gaussian_event

    T, q, s = int(pt["T"]), float(pt["B"]) / float(pt["n"]), float(pt["s"])
    return float(event_epsilon(poisson_sampled_gaussian_event(s, q, T), float(pt["delta"]), accountant="pld"))


def record_accountant_eps(pt) -> dict:
    """What the certificate of ``stage/claim-sampling-switch`` records: the accountant's eps, exactly."""
    e = Fraction(accountant_eps(pt))
    return {"accountant_eps": f"{e.numerator}/{e.denominator}",
            "accountant": "dp-accounting PLD (pessimistic): T Poisson-sampled Gaussian steps, rate B/n, noise "
                          "multiplier s, add-or-remove"}


#: :func:`run_delta_at_accountant_eps` in ball arithmetic, for the violation's certificate
RUN_DELTA_BALL = r'''
def point_lower(P, data):
    """A lower bound on the delta of Algorithm 2's T steps at the accountant's eps (recorded in data).

    Linear-loss pair in units of L/B: a step's batch gradient is +1 on D and -1 on D' when sample 1 is
    in the batch of B drawn without replacement from n (probability a = B/n, independently across steps),
    0 otherwise, plus N(0, s^2). The sum of the T released increments (a post-processing) is
    sum_k C(T, k) a^k (1 - a)^(T - k) N(+-k, T s^2) on D (D'); its delta at eps is at least
    P(X > tau) - e^eps Q(X > tau) for any threshold tau (best_halfline).

    The accountant's eps is dp-accounting's output for Poisson sampling at rate a, add-or-remove, noise s.
    For T = 1 it is checked here to be a guarantee of that scheme: the Poisson step's pair (1 - a) N(0, s^2)
    + a N(1, s^2) against N(0, s^2) has monotone likelihood ratios, so its exact delta at eps (both
    directions, closed form) must be <= delta; then the run's delta above delta at an eps that the Poisson
    scheme meets refutes the switch whatever accountant is used (delta(eps) is non-increasing in eps).
    """
    T, n, B, s, delta = P["T"], P["n"], P["B"], P["s"], P["delta"]
    if not 1 <= B <= n:
        raise ValueError(f"need 1 <= B <= n, got B = {B}, n = {n}")
    eps, a = ball(Fraction(data["accountant_eps"])), q(B, n)
    if T == 1:
        w, s2 = eps.exp(), s * s
        x = s2 * ((w - 1 + a) / a).log() + arb(1) / 2           # add: the likelihood ratio is e^eps at x
        add = (1 - a) * normal_cdf(-x / s) + a * normal_cdf((1 - x) / s) - w * normal_cdf(-x / s)
        remove = arb(0)
        if _cmp(1 / w, ">", 1 - a):                              # remove: the ratio reaches e^eps below x'
            x = s2 * ((1 / w - 1 + a) / a).log() + arb(1) / 2
            remove = normal_cdf(x / s) - w * ((1 - a) * normal_cdf(x / s) + a * normal_cdf((x - 1) / s))
        if not _cmp(_max(add, remove), "<=", delta):
            raise ValueError(f"the recorded eps {eps} is not a guarantee of the Poisson step at delta {delta}")
    weights, binom = [], 1
    for k in range(T + 1):
        weights.append(binom * a ** k * (1 - a) ** (T - k))
        binom = binom * (T - k) // (k + 1)
    value, tau = best_halfline(list(range(T + 1)), [-k for k in range(T + 1)], weights, s * arb(T).sqrt(), eps)
    return value
'''


def _one_step_delta(pt, pair, scale):
    """delta(eps) of one step, in units of L/B with noise s/scale: ``pair`` 'run' (batches without replacement,
    replace-one: (1 - q) N(0) + q N(1) against (1 - q) N(0) + q N(-1)) or 'poisson' (add-or-remove: (1 - q) N(0) +
    q N(1) against N(0)). Both likelihood ratios are monotone, so the best half-line is the exact delta(eps)."""
    q, s, e = float(pt["B"]) / float(pt["n"]), float(pt["s"]) / scale, float(pt["epsilon"])
    if pair == "run":
        return mixture_delta_lower([0.0, 1.0], [0.0, -1.0], s, e, weights=[1 - q, q], q_weights=[1 - q, q])
    return mixture_delta_lower([0.0, 1.0], [0.0], s, e, weights=[1 - q, q], q_stds=s, q_weights=[1.0])


def one_step_run_delta(pt):
    """Exact delta(eps) of one step of Algorithm 2 (``_one_step_delta``, 'run'), with the optimiser's error."""
    v = _one_step_delta(pt, "run", 1.0)
    return Measured.exact(v, 1e-12 + 1e-9 * v)


def one_step_poisson_delta_half_noise(s_, B_, n_, eps_):
    """Exact delta(eps) of one Poisson-sampled step with add-or-remove neighbours at half the noise (sensitivity 2L,
    a replaced sample's)."""
    return _one_step_delta({"s": s_, "B": B_, "n": n_, "epsilon": eps_}, "poisson", 2.0)
