"""Claims of [erm]: "Efficient Private ERM for Smooth Objectives" (Zhang, Zheng, Mou, Wang).

Seed file ``002_83aa5496eb291d00.txt``. Every claim is encoded as printed; where the text is garbled
the surrounding derivation decides (``Source.text`` quotes what was read). Where the paper is
wrong the printed claim is kept with ``expected="violated"`` and a ``-corrected`` claim that holds
sits next to it.

Notation: F(w, S) = (1/n) sum_i f(w, xi_i); f is L-Lipschitz, beta-smooth (mu-strongly convex
where stated); Algorithm 1 = gradient descent for T steps, then w_priv = w_T + z with z of density
proportional to exp(-eps ||z|| / Delta) (delta = 0) or exp(-eps^2 ||z||^2 / (4 log(2/delta) Delta^2))
(a Gaussian of std sqrt(2 log(2/delta)) Delta / eps); Algorithm 2 = random-round private SGD with
noise of density proportional to exp(-eps^2 ||z||^2 / (8 L^2 log(3n/delta) log(2/delta))) (std
2 L sqrt(log(3n/delta) log(2/delta)) / eps per coordinate) and R in [n^2].
"""
from __future__ import annotations

import math

import sympy as sp

from dpverify.scenarios import (MCPoint, PointScenario, additive_noise, dp_audit, gaussian_mechanism, gd_sensitivity,
                                noisy_gd, output_perturbation_gd, output_perturbation_privacy, random_round_sgd,
                                sampled_gaussian)
from dpverify.scenarios.output_perturbation import ERMData
from dpverify.spec import (Claim, Domain, ExpectationBound, Identity, Inequality, Int, LimitPath, Rate, Real,
                           Relation, Source, SupBound)

from . import proofs

SEED = "002_83aa5496eb291d00.txt"

_src = Source.for_document(SEED)

# ----------------------------------------------------------------------------- symbols
L, beta, mu, eta, D, W = sp.symbols("L beta mu eta D W")
n, d, T, t, k = sp.symbols("n d T t k")
eps, delta, delta_p, alpha, gamma = sp.symbols("epsilon delta delta_p alpha gam")
Delta1, Delta2, sigma, Delta0, R0, alpha2 = sp.symbols("Delta1 Delta2 sigma Delta0 R0 alpha2")
r_ = sp.Symbol("r", positive=True)

LOG_A = sp.log(3 * n / delta)          # log(3n/delta)
LOG_B = sp.log(2 / delta)              # log(2/delta)

# units under loss x c, parameters x s (scaling check)
BETA = Real(gt=0, search=(1e-2, 1e2), log=True, units=(1, -2))
MU = Real(gt=0, search=(1e-3, 1e2), log=True, units=(1, -2))
LIP = Real(gt=0, search=(1e-3, 1e3), log=True, units=(1, -1))
ETA = Real(gt=0, search=(1e-4, 1e2), log=True, units=(-1, 2))
RADIUS = Real(gt=0, search=(1e-2, 1e2), log=True, units=(0, 1))
EPS = Real(gt=0, search=(1e-2, 10.0), log=True)
DELTA = Real(gt=0, lt=1, search=(1e-10, 0.9), log=True)


# ============================================================================= Lemma 1
SIGMA_CLASSICAL = sp.sqrt(2 * sp.log(sp.Rational(5, 4) / delta)) * Delta2 / eps
_LAPLACE = additive_noise(noise="laplace", norm="l1", sensitivity=Delta1, scale=Delta1 / eps, dim=k)
_GAUSS_L1 = gaussian_mechanism(sensitivity=Delta2, noise_std=SIGMA_CLASSICAL, eps=eps, measure="delta_at_eps")
_GAUSS_L1_AUDIT = dp_audit(
    sampler=proofs.gaussian_mechanism_sampler(
        lambda pt: math.sqrt(2 * math.log(1.25 / pt["delta"])) * pt["Delta2"] / pt["epsilon"]),
    what="Lemma 1's Gaussian mechanism", eps=eps, delta=delta)


def _lemma1_domain(eps_range):
    return Domain(epsilon=eps_range, delta=DELTA,
                  Delta1=Real(gt=0, search=(1e-2, 1e2), log=True), Delta2=Real(gt=0, search=(1e-2, 1e2), log=True),
                  k=Int(ge=1, search=(1, 6)))


def _lemma1_statements():
    return (
        SupBound("Laplace: largest privacy loss of q + Lap(Delta_1/eps)^k over ||q(S) - q(S')||_1 = Delta_1 <= eps",
                 bound=eps, kind="privacy", scenario=_LAPLACE),
        SupBound("Gaussian: exact delta(eps) of q + N(0, sigma^2 I), sigma = sqrt(2 ln(1.25/delta)) Delta_2/eps, <= delta",
                 bound=delta, kind="privacy", scenario=_GAUSS_L1, audit=_GAUSS_L1_AUDIT),
    )


LEMMA_1 = Claim(
    id="erm/lemma-1",
    source=_src("Lemma 1", None,
                "Laplace mechanism: q(S) + (Y_1..Y_k), Y_i iid Lap(Delta_1(q)/eps), preserves eps-DP. Gaussian "
                "mechanism: Y_i iid N(0, sigma^2), sigma = sqrt(2 ln(1.25/delta)) Delta_2(q)/eps, preserves "
                "(eps, delta)-DP (no range of eps or delta printed)"),
    kind="privacy bound",
    summary=("Laplace mechanism with Lap(Delta_1/eps) noise is eps-DP; the Gaussian mechanism with "
             "sigma = sqrt(2 ln(1.25/delta)) Delta_2/eps is (eps, delta)-DP (for every eps > 0, delta in (0, 1))."),
    domain=_lemma1_domain(Real(gt=0, search=(1e-2, 50.0), log=True)),
    statements=_lemma1_statements(),
    expected="violated",
    reason=("the classical Gaussian calibration holds only for eps < 1 (Dwork & Roth, Thm A.1); the exact "
            "profile exceeds delta from eps ~ 3.8 on (e.g. eps = 20, delta = 0.01: delta(eps) = 0.48)"),
    witness={"epsilon": 20.0, "delta": 0.01, "Delta1": 1.0, "Delta2": 1.0, "k": 1},
)
LEMMA_1_CORRECTED = LEMMA_1.corrected(
    summary=("Laplace: eps-DP for every eps; Gaussian with sigma = sqrt(2 ln(1.25/delta)) Delta_2/eps: "
             "(eps, delta)-DP for 0 < eps <= 1 (every delta in (0, 1); the exact profile first fails near eps = 3.8)."),
    domain=_lemma1_domain(Real(gt=0, le=1, search=(1e-2, 1.0), log=True)),
)

# ============================================================================= Lemma 2
_GD = dict(beta=BETA, eta=ETA, T=Int(ge=1, search=(1, 40)), n=Int(ge=1, search=(1, 12)), L=LIP)
_GD_SENS = gd_sensitivity(smooth=beta, step=eta, horizon=T, n_samples=n, lipschitz=L)
_GD_REC = proofs.GDRecursion(dict(smooth=beta, step=eta, horizon=T, n_samples=n, lipschitz=L), strongly_convex=False)
LEMMA_2 = Claim(
    id="erm/lemma-2",
    source=_src("Lemma 2", None,
                "f convex, beta-smooth, L-Lipschitz, GD with constant step eta <= 1/beta for T steps: Delta_T <= "
                "3 L T eta / n (Delta_T = ||w_T - w_T'||, neighbours: one sample replaced); proof: Delta_{t+1}^2 <= "
                "Delta_t^2 + 4 eta L Delta_t / n + 8 eta^2 L^2 / n^2, and 9L^2t^2eta^2/n^2 + 12L^2teta^2/n^2 + "
                "8L^2eta^2/n^2 <= 9L^2eta^2(t+1)^2/n^2"),
    kind="sensitivity bound",
    summary="GD on convex, beta-smooth, L-Lipschitz losses with eta <= 1/beta has L2-sensitivity ||w_T - w_T'|| <= 3LT eta/n.",
    domain=Domain(Relation(sp.Le(eta, 1 / beta), "eta <= 1/beta"), **_GD, t=Int(ge=1, search=(1, 10**4))),
    statements=(
        Inequality("base case: Delta_1^2 <= 8 eta^2 L^2/n^2 <= (3 L eta/n)^2", lhs=8 * eta**2 * L**2 / n**2,
                   rhs=9 * L**2 * eta**2 / n**2),
        Inequality("induction step: 9L^2t^2eta^2/n^2 + 12L^2t eta^2/n^2 + 8L^2eta^2/n^2 <= 9L^2eta^2(t+1)^2/n^2",
                   lhs=(9 * L**2 * t**2 * eta**2 + 12 * L**2 * t * eta**2 + 8 * L**2 * eta**2) / n**2,
                   rhs=9 * L**2 * eta**2 * (t + 1) ** 2 / n**2),
        SupBound("the recursion Delta_{t+1}^2 <= Delta_t^2 + 4 eta L Delta_t/n + 8 eta^2 L^2/n^2 at every step "
                 "(max over t of the ratio of the excess to 8 eta^2 L^2/n^2 is <= 1)",
                 bound=sp.Integer(1), kind="supremum", scenario=_GD_REC),
        SupBound("||w_T - w_T'|| <= 3 L T eta / n", bound=3 * L * T * eta / n, kind="sensitivity", scenario=_GD_SENS),
    ),
)

# ============================================================================= Lemma 3
_SC = dict(beta=BETA, mu=MU, eta=ETA, T=Int(ge=1, search=(1, 40)), n=Int(ge=1, search=(1, 12)), L=LIP)
_SC_REL = (Relation(sp.Le(mu, beta), "mu <= beta"), Relation(sp.Le(eta, 1 / (beta + mu)), "eta <= 1/(beta + mu)"))
_SC_SENS = gd_sensitivity(smooth=beta, curvature=mu, step=eta, horizon=T, n_samples=n, lipschitz=L)
_SC_REC = proofs.GDRecursion(dict(smooth=beta, curvature=mu, step=eta, horizon=T, n_samples=n, lipschitz=L),
                             strongly_convex=True)
B_3 = 5 * L * (mu + beta) / (n * mu * beta)
_p, _q, _r = sp.symbols("p q r", positive=True)
# eta <= 1/(beta + mu), mu <= beta, n >= 2 (interior points; the sampled check covers the boundary)
_SC_REPARAM = {eta: 1 / ((beta + mu) * (1 + _p)), mu: beta / (1 + _q), n: 2 + _r}
LEMMA_3 = Claim(
    id="erm/lemma-3",
    source=_src("Lemma 3", None,
                "f mu-strongly convex, beta-smooth, L-Lipschitz, GD with eta <= 1/(beta + mu) for T steps: Delta_T "
                "<= 5 L (mu + beta)/(n mu beta); proof: Delta_{t+1}^2 <= [1 - 2(n-1) eta mu beta/(n(mu+beta))] "
                "Delta_t^2 + 4 eta L Delta_t/n + 8 eta^2 L^2/n^2 ('For any n >= 2'); L-Lipschitz used on the "
                "ball {||w|| <= 2D} that holds both runs"),
    kind="sensitivity bound",
    summary="GD on mu-strongly convex, beta-smooth, L-Lipschitz losses with eta <= 1/(beta+mu): ||w_T - w_T'|| <= 5L(mu+beta)/(n mu beta).",
    domain=Domain(*_SC_REL, **_SC),
    statements=(
        SupBound("the recursion of the proof at every step (ratio <= 1)", bound=sp.Integer(1), kind="supremum",
                 scenario=_SC_REC),
        SupBound("||w_T - w_T'|| <= 5 L (mu + beta)/(n mu beta)", bound=B_3, kind="sensitivity", scenario=_SC_SENS),
    ),
)
LEMMA_3_INDUCTION = Claim(
    id="erm/claim-lemma3-induction",
    source=_src("Lemma 3", None,
                "proof of Lemma 3 ('For any n >= 2', eta <= 1/(mu+beta)): Delta_1 <= 5L/(n(mu+beta)) <= "
                "5L(mu+beta)/(n mu beta); [1 - 2(n-1) eta mu beta/(n(mu+beta))] B^2 + 20 eta L^2 (mu+beta)/(n^2 mu "
                "beta) + 8 L^2 eta^2/n^2 <= B^2 - (eta mu beta/(mu+beta)) B^2 + ... = B^2 + (eta L^2/n^2)(-5(mu+beta)/"
                "(mu beta) + 8 eta) <= B^2, B = 5L(mu+beta)/(n mu beta)"),
    kind="inequality",
    summary="The induction of Lemma 3's proof (n >= 2, eta <= 1/(mu+beta)): base case and step, each inequality as printed.",
    domain=Domain(*_SC_REL, beta=BETA, mu=MU, eta=ETA, L=LIP, n=Int(ge=2, search=(2, 10**4))),
    statements=(
        Inequality("base case: Delta_1^2 <= 8 eta^2 L^2/n^2 <= (5L/(n(mu+beta)))^2", lhs=8 * eta**2 * L**2 / n**2,
                   rhs=(5 * L / (n * (mu + beta))) ** 2, reparam=_SC_REPARAM),
        Inequality("5L/(n(mu+beta)) <= 5L(mu+beta)/(n mu beta)", lhs=5 * L / (n * (mu + beta)), rhs=B_3,
                   reparam=_SC_REPARAM),
        Inequality("1 - 2(n-1) eta mu beta/(n(mu+beta)) <= 1 - eta mu beta/(mu+beta) (n >= 2)",
                   lhs=1 - 2 * (n - 1) * eta * mu * beta / (n * (mu + beta)), rhs=1 - eta * mu * beta / (mu + beta),
                   reparam=_SC_REPARAM),
        Inequality("-5(mu+beta)/(mu beta) + 8 eta <= 0", lhs=8 * eta, rhs=5 * (mu + beta) / (mu * beta),
                   reparam=_SC_REPARAM),
        Inequality("the induction step: recursion at Delta_t = B stays below B^2",
                   lhs=(1 - 2 * (n - 1) * eta * mu * beta / (n * (mu + beta))) * B_3**2
                   + 20 * eta * L**2 * (mu + beta) / (n**2 * mu * beta) + 8 * L**2 * eta**2 / n**2,
                   rhs=B_3**2, reparam=_SC_REPARAM),
    ),
    expected="verified",
)

# ============================================================================= Theorem 1 (Algorithm 1 is DP)
DELTA_T3 = 3 * L * T / (beta * n)                     # Theorem 3: eta = 1/beta
DELTA_T2 = 5 * L * (1 + beta / mu) / (n * beta)       # Theorem 2: eta = 1/(mu + beta)
_GAUSS_STD = lambda Dl: sp.sqrt(2 * sp.log(2 / delta)) * Dl / eps  # noqa: E731  line 8 of Algorithm 1
_ALG1 = dict(smooth=beta, horizon=T, n_samples=n, lipschitz=L, eps=eps)
_ALG1_LAP_T3 = output_perturbation_privacy(noise="norm_laplace", step=1 / beta, noise_scale=DELTA_T3 / eps, **_ALG1)
_ALG1_LAP_T2 = output_perturbation_privacy(noise="norm_laplace", step=1 / (mu + beta), curvature=mu,
                                           noise_scale=DELTA_T2 / eps, **_ALG1)
_ALG1_GAU_T3 = output_perturbation_privacy(noise="gaussian", step=1 / beta, noise_scale=_GAUSS_STD(DELTA_T3), **_ALG1)
_ALG1_GAU_T2 = output_perturbation_privacy(noise="gaussian", step=1 / (mu + beta), curvature=mu,
                                           noise_scale=_GAUSS_STD(DELTA_T2), **_ALG1)


def _alg1_statements(claim_ref):
    return (
        SupBound("delta = 0, Theorem 3's setting (eta = 1/beta, Delta = 3LT/(beta n)): largest privacy loss of "
                 "w_T + z on neighbouring data sets <= eps", bound=eps, kind="privacy", scenario=_ALG1_LAP_T3),
        SupBound("delta = 0, Theorem 2's setting (eta = 1/(mu+beta), Delta = 5L(1+beta/mu)/(n beta)): largest "
                 "privacy loss <= eps", bound=eps, kind="privacy", scenario=_ALG1_LAP_T2),
        SupBound("delta > 0, Theorem 3's setting: exact delta at eps of w_T + z (line 8's Gaussian) <= delta",
                 bound=delta, kind="privacy", scenario=_ALG1_GAU_T3,
                 audit=dp_audit(sampler=proofs.bound_sampler(_ALG1_GAU_T3, claim_ref), what="Algorithm 1 (delta > 0)",
                                eps=eps, delta=delta)),
        SupBound("delta > 0, Theorem 2's setting: exact delta at eps <= delta", bound=delta, kind="privacy",
                 scenario=_ALG1_GAU_T2),
    )


def _alg1_domain(eps_range):
    return Domain(Relation(sp.Le(mu, beta), "mu <= beta"), beta=BETA, mu=MU, n=Int(ge=1, search=(1, 12)),
                  T=Int(ge=1, search=(1, 40)), epsilon=eps_range, delta=Real(gt=0, lt=1, search=(1e-8, 0.9), log=True),
                  L=LIP)


THM_1 = Claim(
    id="erm/thm-1",
    source=_src("Theorem 1", None,
                "Algorithm 1 is (eps, delta)-DP for any eps > 0 and delta in [0, 1), with the settings of Theorems 2 "
                "and 3 (Delta = 5L(1+beta/mu)/(n beta), eta = 1/(mu+beta); Delta = 3LT/(beta n), eta = 1/beta); "
                "Algorithm 1 line 6: z ~ exp(-eps ||z||_2/Delta) (delta = 0), line 8: z ~ exp(-eps^2 ||z||_2^2/"
                "(4 log(2/delta) Delta^2)); proof: Lemmas 1, 2, 3"),
    kind="privacy bound",
    summary="Algorithm 1 (GD + output perturbation) with Theorem 2's or 3's settings is (eps, delta)-DP for any eps > 0, delta in [0, 1).",
    domain=_alg1_domain(Real(gt=0, search=(1e-2, 1e3), log=True)),
    statements=_alg1_statements(lambda: THM_1),
    expected="violated",
    reason=("line 8's Gaussian (std sqrt(2 log(2/delta)) Delta/eps) is (eps, delta)-DP only for moderate eps (as "
            "Lemma 1's calibration, it needs eps <~ 6); with the sensitivity 2LT eta/n that GD reaches, eps = 30, "
            "delta = 0.5 gives delta(eps) = 0.9997"),
    witness={"beta": 1.0, "mu": 0.5, "n": 4, "T": 5, "epsilon": 30.0, "delta": 0.5, "L": 1.0},
)
THM_1_CORRECTED = THM_1.corrected(
    summary="Algorithm 1 is eps-DP (delta = 0) for every eps, and (eps, delta)-DP with line 8's Gaussian for 0 < eps <= 1.",
    domain=_alg1_domain(Real(gt=0, le=1, search=(1e-2, 1.0), log=True)),
)

# ============================================================================= Theorem 2
_T2_PARAMS = dict(beta=BETA, mu=MU, L=Real(gt=0, search=(1e-2, 1e3), log=True, units=(1, -1)), D=RADIUS,
                  n=Real(ge=1, search=(1, 1e6), log=True), d=Int(ge=1, search=(1, 8)),
                  epsilon=EPS, T=Int(ge=0, search=(0, 200)))
OPT_2 = beta / 2 * sp.exp(-2 * mu * beta * T / (mu + beta) ** 2) * D**2
NOISE_2A = 25 * L**2 * (mu + beta) ** 2 * (d + 1) * d / (n**2 * eps**2 * mu**2 * beta)
NOISE_2B_PRINTED = 50 * L**2 * (mu + beta) ** 2 * (d + 1) * d / (n**2 * eps**2 * mu**2 * beta)
NOISE_2B = 25 * L**2 * (mu + beta) ** 2 * d * LOG_B / (n**2 * eps**2 * mu**2 * beta)
T_2A = (mu**2 + beta**2) / (mu * beta) * sp.log(mu**2 * n**2 * eps**2 * D**2 / (L**2 * d**2))
T_2B = (mu**2 + beta**2) / (mu * beta) * sp.log(mu**2 * n**2 * eps**2 * D**2 / (L**2 * d * sp.log(1 / delta)))
RATE_2A = beta * L**2 * d**2 / (n**2 * eps**2 * mu**2)
RATE_2B = beta * L**2 * d * sp.log(1 / delta) / (n**2 * eps**2 * mu**2)
_T2_PATHS = (LimitPath("n", "inf"), LimitPath("D", "inf"), LimitPath("L", "0+"), LimitPath("beta", "inf"))
_ALG1_UTIL = dict(smooth=beta, curvature=mu, step=1 / (mu + beta), horizon=T, dim=d, init_dist=D, lipschitz=L,
                  n_samples=n, lipschitz_radius=2.0)
_MC_SC = lambda extra: (MCPoint(ERMData("logistic", n=200, d=5, lam=0.1), {"epsilon": 1.0, "T": 40, **extra}),  # noqa: E731
                        MCPoint(ERMData("huber", n=200, d=5, lam=0.1), {"epsilon": 0.5, "T": 40, **extra}),
                        MCPoint(ERMData("least_squares", n=200, d=5, lam=0.5), {"epsilon": 2.0, "T": 20, **extra}))
_UTIL_2A = output_perturbation_gd(noise="norm_laplace", noise_scale=DELTA_T2 / eps, mc=_MC_SC({}), **_ALG1_UTIL)
_UTIL_2B = output_perturbation_gd(noise="gaussian", noise_scale=_GAUSS_STD(DELTA_T2), mc=_MC_SC({"delta": 1e-3}),
                                  **_ALG1_UTIL)
_T2_TEXT = ("If f is mu-strongly convex, beta-smooth, ||w_hat|| <= D, f L-Lipschitz on {||w|| <= 2D}, eta = 1/(mu+beta), "
            "Delta = 5L(1+beta/mu)/(n beta); proof (A.2): E F(w_priv) - F(w_hat) <= (F(w_T) - F(w_hat)) + (beta/2) "
            "E||z||^2 <= ")
THM_2A = Claim(
    id="erm/thm-2a",
    source=_src("Theorem 2", None, _T2_TEXT + "(beta/2) exp(-2 mu beta T/(mu+beta)^2) D^2 + 25 L^2 (mu+beta)^2 (d+1) d/"
                "(n^2 eps^2 mu^2 beta) <= O(beta L^2 d^2/(n^2 eps^2 mu^2)) with T = Theta((mu^2+beta^2)/(mu beta) "
                "log(mu^2 n^2 eps^2 D^2/(L^2 d^2))) (item 1, eps-DP; w_0 = 0)"),
    kind="expectation bound",
    summary="eps-DP Algorithm 1, strongly convex: E F(w_priv) - F* <= (beta/2) e^(-2 mu beta T/(mu+beta)^2) D^2 + 25L^2(mu+beta)^2(d+1)d/(n^2 eps^2 mu^2 beta) = O(beta L^2 d^2/(n^2 eps^2 mu^2)).",
    domain=Domain(Relation(sp.Le(mu, beta), "mu <= beta"),
                  Relation(sp.Gt(mu * n * eps * D, L * d), "the printed T is positive: mu n eps D > L d"),
                  **_T2_PARAMS),
    statements=(
        Identity("(beta/2) E||z||^2 = (beta/2) d(d+1)(Delta/eps)^2 = 25 L^2 (mu+beta)^2 d(d+1)/(2 n^2 eps^2 mu^2 beta)",
                 lhs=beta / 2 * d * (d + 1) * (DELTA_T2 / eps) ** 2, rhs=NOISE_2A / 2),
        Inequality("the printed noise term is at least (beta/2) E||z||^2", lhs=NOISE_2A / 2, rhs=NOISE_2A),
        ExpectationBound("explicit bound of the proof", bound=OPT_2 + NOISE_2A, scenario=_UTIL_2A),
        Rate("O-form: the explicit bound at the printed T is O(beta L^2 d^2/(n^2 eps^2 mu^2))",
             expr=(OPT_2 + NOISE_2A).subs(T, T_2A), rate=RATE_2A, kind="O", paths=_T2_PATHS),
    ),
)
_T2B_DOMAIN = Domain(Relation(sp.Le(mu, beta), "mu <= beta"),
                     Relation(sp.Gt(mu**2 * n**2 * eps**2 * D**2, L**2 * d * sp.log(1 / delta)),
                              "the printed T is positive"),
                     **_T2_PARAMS, delta=Real(gt=0, lt=1, search=(1e-10, 0.5), log=True))
_T2B_PATHS = _T2_PATHS + (LimitPath("delta", "0+"),)
THM_2B = Claim(
    id="erm/thm-2b",
    source=_src("Theorem 2", None, _T2_TEXT + "(beta/2) exp(-2 mu beta T/(mu+beta)^2) D^2 + 50 L^2 (mu+beta)^2 (d+1) d/"
                "(n^2 eps^2 mu^2 beta) <= O(beta L^2 d log(1/delta)/(n^2 eps^2 mu^2)) with T = Theta((mu^2+beta^2)/"
                "(mu beta) log(mu^2 n^2 eps^2 D^2/(L^2 d log(1/delta)))) (item 2, (eps, delta)-DP, line 8's Gaussian)"),
    kind="expectation bound",
    summary="(eps, delta)-DP Algorithm 1, strongly convex: E F(w_priv) - F* <= (beta/2) e^(-2 mu beta T/(mu+beta)^2) D^2 + 50L^2(mu+beta)^2(d+1)d/(n^2 eps^2 mu^2 beta) = O(beta L^2 d log(1/delta)/(n^2 eps^2 mu^2)).",
    domain=_T2B_DOMAIN,
    statements=(
        Identity("(beta/2) E||z||^2 = (beta/2) d 2 log(2/delta) (Delta/eps)^2 = 25 L^2 (mu+beta)^2 d log(2/delta)/"
                 "(n^2 eps^2 mu^2 beta)", lhs=beta / 2 * d * 2 * LOG_B * (DELTA_T2 / eps) ** 2, rhs=NOISE_2B),
        Inequality("(beta/2) E||z||^2 <= the printed noise term 50 L^2 (mu+beta)^2 (d+1) d/(n^2 eps^2 mu^2 beta)",
                   lhs=NOISE_2B, rhs=NOISE_2B_PRINTED),
        ExpectationBound("explicit bound of the proof, as printed", bound=OPT_2 + NOISE_2B_PRINTED, scenario=_UTIL_2B),
        Rate("O-form of the printed explicit bound at the printed T", expr=(OPT_2 + NOISE_2B_PRINTED).subs(T, T_2B),
             rate=RATE_2B, kind="O", paths=_T2B_PATHS),
    ),
    expected="violated",
    reason=("the printed noise term copies the eps-DP (d+1)d and drops log(2/delta): line 8's Gaussian gives "
            "(beta/2) E||z||^2 = 25 L^2 (mu+beta)^2 d log(2/delta)/(n^2 eps^2 mu^2 beta), larger whenever "
            "log(2/delta) > 2(d+1) (d = 1, delta = 1e-4: 2.48 times the printed term)"),
    witness={"beta": 1.0, "mu": 1.0, "L": 3.0, "D": 1.0, "n": 10.0, "d": 1, "epsilon": 1.0, "T": 200, "delta": 1e-4},
)
THM_2B_CORRECTED = THM_2B.corrected(
    summary="E F(w_priv) - F* <= (beta/2) e^(-2 mu beta T/(mu+beta)^2) D^2 + 25 L^2 (mu+beta)^2 d log(2/delta)/(n^2 eps^2 mu^2 beta), which at the printed T is O(beta L^2 d log(1/delta)/(n^2 eps^2 mu^2)).",
    statements=(
        ExpectationBound("explicit bound with (beta/2) E||z||^2 of line 8's Gaussian", bound=OPT_2 + NOISE_2B,
                         scenario=_UTIL_2B),
        Rate("O-form at the printed T", expr=(OPT_2 + NOISE_2B).subs(T, T_2B), rate=RATE_2B, kind="O",
             paths=_T2B_PATHS),
    ),
)

# ============================================================================= Theorem 3
_T3_PARAMS = dict(beta=BETA, L=Real(gt=0, search=(1e-2, 1e3), log=True, units=(1, -1)), D=RADIUS,
                  n=Real(ge=1, search=(1, 1e6), log=True), d=Int(ge=1, search=(1, 8)), epsilon=EPS,
                  T=Int(ge=1, search=(1, 200)))
OPT_3 = 2 * beta * D**2 / T
NOISE_3A = 9 * T**2 * L**2 * d * (d + 1) / (2 * beta * n**2 * eps**2)
NOISE_3B = 9 * T**2 * L**2 * d * LOG_B / (beta * n**2 * eps**2)
T_3A = sp.ceiling((beta**2 * n**2 * eps**2 * D**2 / (L**2 * d**2)) ** sp.Rational(1, 3))
T_3B = sp.ceiling((beta**2 * n**2 * eps**2 * D**2 / (L**2 * d * sp.log(1 / delta))) ** sp.Rational(1, 3))
_ALG1_CVX = dict(smooth=beta, step=1 / beta, horizon=T, dim=d, init_dist=D, lipschitz=L, n_samples=n,
                 lipschitz_radius=None)
_MC_CVX = lambda extra: (MCPoint(ERMData("huber", n=200, d=5, lam=0.0), {"epsilon": 1.0, "T": 20, **extra}),  # noqa: E731
                         MCPoint(ERMData("huber", n=100, d=3, lam=0.0, data_seed=1), {"epsilon": 0.3, "T": 10, **extra}))
_UTIL_3A = output_perturbation_gd(noise="norm_laplace", noise_scale=DELTA_T3 / eps, mc=_MC_CVX({}), **_ALG1_CVX)
_UTIL_3B = output_perturbation_gd(noise="gaussian", noise_scale=_GAUSS_STD(DELTA_T3), mc=_MC_CVX({"delta": 1e-3}),
                                  **_ALG1_CVX)
# The radial Huber family: f(w, xi) = phi(||w - xi||), every sample xi = w_hat, phi(r) = beta r^2/2 (r <= beta^-1/2),
# sqrt(beta) r - 1/2 beyond: convex, beta-smooth, sqrt(beta)-Lipschitz on R^d; eta = 1/beta reaches w_hat in one step
# when ||w_hat|| sqrt(beta) <= 1, so E F(w_priv) - F* = E phi(||z||) exactly.
HUBER_3A = proofs.radial_huber_excess(sp.sqrt(beta), d, "norm_laplace", (DELTA_T3 / eps).subs(T, T_3A))
HUBER_3B = proofs.radial_huber_excess(sp.sqrt(beta), d, "gaussian", _GAUSS_STD(DELTA_T3).subs(T, T_3B))
_T3_TEXT = ("If f is L-Lipschitz, convex and beta-smooth on R^d, ||w_hat|| <= D, eta = 1/beta, Delta = 3LT/(beta n); "
            "proof (A.3): 'the first term is 2 beta D^2/T, while the second term is 9T^2L^2d(d+1)/(2 beta n^2 eps^2) "
            "for eps-DP and changes into 9T^2L^2 d log(2/delta)/(beta n^2 eps^2) for (eps, delta)-DP'; ")


def _thm3_domain(extra=None, huber=True):
    rel = [Relation(sp.Le(W, D), "||w_hat|| <= D"),
           Relation(sp.Le(W**2 * beta, 1), "||w_hat|| <= beta^(-1/2) (radial Huber family: one GD step reaches w_hat)"),
           Relation(sp.Ge(L**2, beta), "L >= sqrt(beta) (the radial Huber family is sqrt(beta)-Lipschitz)")] if huber else []
    params = dict(_T3_PARAMS, **({"W": Real(gt=0, search=(1e-6, 1e2), log=True, units=(0, 1))} if huber else {}))
    return Domain(*rel, **params, **(extra or {}))


_T3_PATHS = (LimitPath("n", "inf"), LimitPath("D", "inf"), LimitPath("epsilon", "inf"))
THM_3A = Claim(
    id="erm/thm-3a",
    source=_src("Theorem 3", None, _T3_TEXT + "item 1 (eps-DP): T = Theta([beta^2 n^2 eps^2 D^2/(L^2 d^2)]^(1/3)), E F(w_priv)"
                " - F(w_hat) <= O([sqrt(beta) L d ||w_hat||^2/(n eps)]^(2/3)) (W = ||w_hat||; T read as the ceiling of "
                "the printed expression)"),
    kind="expectation bound",
    summary="eps-DP Algorithm 1, convex: E F(w_priv) - F* <= 2 beta D^2/T + 9T^2L^2d(d+1)/(2 beta n^2 eps^2), and at the printed T it is O([sqrt(beta) L d ||w_hat||^2/(n eps)]^(2/3)).",
    domain=_thm3_domain(),
    statements=(
        Identity("(beta/2) E||z||^2 = 9 T^2 L^2 d (d+1)/(2 beta n^2 eps^2)",
                 lhs=beta / 2 * d * (d + 1) * (DELTA_T3 / eps) ** 2, rhs=NOISE_3A),
        ExpectationBound("explicit bound of the proof: 2 beta D^2/T + 9 T^2 L^2 d(d+1)/(2 beta n^2 eps^2)",
                         bound=OPT_3 + NOISE_3A, scenario=_UTIL_3A),
        Rate("O-form as printed (in ||w_hat||), on the radial Huber family (exact error)", expr=HUBER_3A,
             rate=(sp.sqrt(beta) * L * d * W**2 / (n * eps)) ** sp.Rational(2, 3), kind="O",
             paths=(LimitPath("W", "0+"), LimitPath("n", "inf"))),
    ),
    expected="violated",
    reason=("T is set with D but the rate is printed in ||w_hat||: the noise term 9T^2L^2d(d+1)/(2 beta n^2 eps^2) does "
            "not shrink with ||w_hat||, so for w_hat -> 0 (radial Huber losses, where the error is exactly that noise "
            "term's E phi(||z||)) the ratio to the printed rate grows like (D/||w_hat||)^(4/3)"),
    witness={"beta": 1.0, "L": 1.0, "D": 1.0, "n": 100.0, "d": 1, "epsilon": 1.0, "T": 10, "W": 0.01},
)
THM_3A_CORRECTED = THM_3A.corrected(
    summary="The explicit bound holds and, at the printed T, is O([sqrt(beta) L d D^2/(n eps)]^(2/3)) (D in place of ||w_hat||).",
    domain=_thm3_domain(huber=False),
    statements=(
        ExpectationBound("explicit bound of the proof", bound=OPT_3 + NOISE_3A, scenario=_UTIL_3A),
        Rate("O-form with D: the explicit bound at the printed T", expr=(OPT_3 + NOISE_3A).subs(T, T_3A),
             rate=(sp.sqrt(beta) * L * d * D**2 / (n * eps)) ** sp.Rational(2, 3), kind="O", paths=_T3_PATHS),
    ),
)
_DELTA_3 = {"delta": Real(gt=0, lt=1, search=(1e-10, 0.5), log=True)}
THM_3B = Claim(
    id="erm/thm-3b",
    source=_src("Theorem 3", None, _T3_TEXT + "item 2 ((eps, delta)-DP): T = Theta([beta^2 n^2 eps^2 D^2/(L^2 d log(1/delta))]"
                "^(1/3)), E F(w_priv) - F(w_hat) <= O([L sqrt(beta d log(1/delta)) ||w_hat||^2/(n eps)]^(2/3))"),
    kind="expectation bound",
    summary="(eps, delta)-DP Algorithm 1, convex: E F(w_priv) - F* <= 2 beta D^2/T + 9T^2L^2 d log(2/delta)/(beta n^2 eps^2), and at the printed T it is O([L sqrt(beta d log(1/delta)) ||w_hat||^2/(n eps)]^(2/3)).",
    domain=_thm3_domain(_DELTA_3),
    statements=(
        Identity("(beta/2) E||z||^2 = 9 T^2 L^2 d log(2/delta)/(beta n^2 eps^2)",
                 lhs=beta / 2 * d * 2 * LOG_B * (DELTA_T3 / eps) ** 2, rhs=NOISE_3B),
        ExpectationBound("explicit bound of the proof: 2 beta D^2/T + 9 T^2 L^2 d log(2/delta)/(beta n^2 eps^2)",
                         bound=OPT_3 + NOISE_3B, scenario=_UTIL_3B),
        Rate("O-form as printed (in ||w_hat||), on the radial Huber family (exact error)", expr=HUBER_3B,
             rate=(L * sp.sqrt(beta * d * sp.log(1 / delta)) * W**2 / (n * eps)) ** sp.Rational(2, 3), kind="O",
             paths=(LimitPath("W", "0+"), LimitPath("n", "inf"))),
    ),
    expected="violated",
    reason=("as in item 1: T is set with D, the rate is printed in ||w_hat||, and the noise term does not shrink "
            "with ||w_hat|| (ratio ~ (D/||w_hat||)^(4/3) on radial Huber losses)"),
    witness={"beta": 1.0, "L": 1.0, "D": 1.0, "n": 100.0, "d": 1, "epsilon": 1.0, "T": 10, "W": 0.01, "delta": 1e-3},
)
THM_3B_CORRECTED = THM_3B.corrected(
    summary="The explicit bound holds and, at the printed T, is O([L sqrt(beta d log(1/delta)) D^2/(n eps)]^(2/3)).",
    domain=_thm3_domain(_DELTA_3, huber=False),
    statements=(
        ExpectationBound("explicit bound of the proof", bound=OPT_3 + NOISE_3B, scenario=_UTIL_3B),
        Rate("O-form with D: the explicit bound at the printed T", expr=(OPT_3 + NOISE_3B).subs(T, T_3B),
             rate=(L * sp.sqrt(beta * d * sp.log(1 / delta)) * D**2 / (n * eps)) ** sp.Rational(2, 3), kind="O",
             paths=_T3_PATHS + (LimitPath("delta", "0+"),)),
    ),
)

# ============================================================================= Theorem 4 (Algorithm 2 is DP)
Z_ALG2 = sp.sqrt(LOG_A * LOG_B) / eps       # line 5's noise std over the replace-one sensitivity 2L
_ALG2_DOMAIN = Domain(epsilon=Real(gt=0, le=1, search=(1e-2, 1.0), log=True),
                      delta=Real(gt=0, lt=1, search=(1e-10, 0.9), log=True), n=Int(ge=1, search=(1, 300)))
THM_4 = Claim(
    id="erm/thm-4",
    source=_src("Theorem 4", None,
                "Algorithm 2 is (eps, delta)-DP for any eps in (0, 1] and delta in (0, 1) (line 5: z_t ~ exp(-eps^2 "
                "||z||^2/(8 L^2 log(3n/delta) log(2/delta))), one uniformly drawn sample per step, R <= n^2 steps); "
                "proof (A.4): per-step loss bound, Lemma 9 with alpha = 1/n, Lemma 10 with delta' = delta/2 and T = n^2"),
    kind="privacy bound",
    summary="Algorithm 2 (random-round private SGD, one sample per step, n^2 steps at most) is (eps, delta)-DP for eps in (0, 1], delta in (0, 1).",
    domain=_ALG2_DOMAIN,
    statements=(
        SupBound("eps of n^2 steps of the sampled Gaussian (noise multiplier sqrt(log(3n/delta) log(2/delta))/eps "
                 "over the replace-one sensitivity 2L, sampling probability 1/n) at delta <= eps",
                 bound=eps, kind="privacy",
                 scenario=sampled_gaussian(noise_multiplier=Z_ALG2, sampling_probability=1 / n, steps=n**2, delta=delta),
                 audit=dp_audit(sampler=proofs.algorithm2_sampler, what="Algorithm 2 on its worst-case linear data sets",
                                eps=eps, delta=delta)),
        Identity("the proof's amplification: 2 (1/n) eps/(2 sqrt(2 log(2/delta))) = eps/(n sqrt(2 log(2/delta)))",
                 lhs=2 * (1 / n) * eps / (2 * sp.sqrt(2 * LOG_B)), rhs=eps / (n * sp.sqrt(2 * LOG_B))),
        Identity("the proof's deltas: n^2 (1/n)(delta/(2n)) + delta/2 = delta",
                 lhs=n**2 * (1 / n) * delta / (2 * n) + delta / 2, rhs=delta),
    ),
)

M_STEP = eps / sp.sqrt(LOG_A * LOG_B)                   # ||g - g'||/std with ||g - g'|| = 2L
C_PRINTED = eps / (2 * sp.sqrt(2 * LOG_B))
C_CORRECT = M_STEP**2 / 2 + M_STEP * sp.sqrt(2 * sp.log(2 * n / delta))


def _loss_tail(c):
    """P(|m Z + m^2/2| > c), Z standard normal: the Gaussian privacy loss at distance m exceeds c."""
    return (sp.erfc((c - M_STEP**2 / 2) / (M_STEP * sp.sqrt(2))) + sp.erfc((c + M_STEP**2 / 2) / (M_STEP * sp.sqrt(2)))) / 2


_STEP_DOMAIN = Domain(epsilon=Real(gt=0, le=1, search=(1e-2, 1.0), log=True), delta=DELTA,
                      n=Int(ge=1, search=(1, 10**6)))
STEP_LOSS = Claim(
    id="erm/claim-step-privacy-loss",
    source=_src("Theorem 4", None,
                "proof of Theorem 4 (A.4): 'By [13], we have that with probability 1 - delta/(2n), C_t <= eps/(2 "
                "sqrt(2 log(2/delta))) for all t <= R', C_t = |log p_{X_t(S)}(X_t(S))/p_{X_t(S')}(X_t(S))|, X_t = "
                "grad f(w_t, xi) + z_t (a differing gradient: ||g - g'|| <= 2L)"),
    kind="inequality",
    summary="Per step, the privacy loss of line 5's Gaussian is at most eps/(2 sqrt(2 log(2/delta))) with probability 1 - delta/(2n).",
    domain=_STEP_DOMAIN,
    statements=(
        Inequality("P(C_t > eps/(2 sqrt(2 log(2/delta)))) <= delta/(2n) at ||g - g'|| = 2L",
                   lhs=_loss_tail(C_PRINTED), rhs=delta / (2 * n), skip=("symbolic",)),
    ),
    expected="violated",
    reason=("the loss is |m Z + m^2/2| with m = eps/sqrt(log(3n/delta) log(2/delta)); its (1 - delta/(2n))-quantile "
            "is about m sqrt(2 log(2n/delta)) ~ eps sqrt(2/log(2/delta)), four times the printed threshold: the "
            "printed event has probability 0.26 at eps = 1, delta = 1e-3, n = 10, against delta/(2n) = 5e-5"),
    witness={"epsilon": 1.0, "delta": 1e-3, "n": 10},
)
STEP_LOSS_CORRECTED = STEP_LOSS.corrected(
    summary="With probability 1 - delta/(2n) the per-step loss is at most m^2/2 + m sqrt(2 log(2n/delta)), m = eps/sqrt(log(3n/delta) log(2/delta)) (about 4x the printed bound).",
    statements=(
        Inequality("P(C_t > m^2/2 + m sqrt(2 log(2n/delta))) <= delta/(2n)", lhs=_loss_tail(C_CORRECT),
                   rhs=delta / (2 * n), skip=("symbolic",)),
    ),
)

EPS_STEP = eps / (n * sp.sqrt(2 * LOG_B))               # after Lemma 9 with alpha = 1/n
COMPOSED_PRINTED = sp.sqrt(2 * n**2 * LOG_B * EPS_STEP) + n**2 * EPS_STEP * (sp.exp(EPS_STEP) - 1)
COMPOSED_DRV = sp.sqrt(2 * n**2 * LOG_B) * EPS_STEP + n**2 * EPS_STEP * (sp.exp(EPS_STEP) - 1)
_COMP_TEXT = ("proof of Theorem 4: per step C_t <= eps/(n sqrt(2 log(2/delta))) after Lemma 9 (alpha = 1/n); 'The "
              "theorem follows from applying Lemma 10 with delta' = delta/2 and T = R <= n^2'; Lemma 10 printed as "
              "eps' = sqrt(2T log(1/delta') eps) + T eps (e^eps - 1) (eps inside the root), whose source [8] reads "
              "sqrt(2T log(1/delta')) eps + T eps (e^eps - 1)")
THM4_COMPOSITION = Claim(
    id="erm/claim-thm4-composition",
    source=_src("Theorem 4", None, _COMP_TEXT),
    kind="inequality",
    summary="Lemma 10 with T = n^2, delta' = delta/2 and the per-step eps/(n sqrt(2 log(2/delta))) gives eps' <= eps.",
    domain=_STEP_DOMAIN,
    statements=(
        Inequality("Lemma 10 as printed: sqrt(2 n^2 log(2/delta) eps_s) + n^2 eps_s (e^eps_s - 1) <= eps",
                   lhs=COMPOSED_PRINTED, rhs=eps),
        Inequality("Lemma 10 as in [8]: sqrt(2 n^2 log(2/delta)) eps_s + n^2 eps_s (e^eps_s - 1) <= eps",
                   lhs=COMPOSED_DRV, rhs=eps),
    ),
    expected="violated",
    reason=("with eps inside the root the composed eps' grows like sqrt(n eps); with [8]'s form it is eps + "
            "n^2 eps_s (e^eps_s - 1) > eps: either way the proof does not reach eps (e.g. eps = 1, delta = 0.1, n = 10: "
            "5.12 and 1.17)"),
    witness={"epsilon": 1.0, "delta": 0.1, "n": 10},
)
THM4_COMPOSITION_CORRECTED = THM4_COMPOSITION.corrected(
    summary="With Lemma 10 as in [8], the proof's parameters give eps' = eps + n^2 eps_s (e^eps_s - 1) <= eps + eps^2/log(2/delta) (eps <= 1).",
    statements=(
        Inequality("sqrt(2 n^2 log(2/delta)) eps_s + n^2 eps_s (e^eps_s - 1) <= eps + eps^2/log(2/delta)",
                   lhs=COMPOSED_DRV, rhs=eps + eps**2 / LOG_B),
    ),
)

# ============================================================================= Theorem 5
SIGMA2_5 = 4 * L**2 + 4 * d * L**2 * LOG_A * LOG_B / eps**2
D_F = sp.sqrt(2 * Delta0 / beta)
EXPLICIT_5 = beta * (D_F**2 + SIGMA2_5 * n**2 * eta**2) / (n**2 * (2 * eta - beta * eta**2))
ETA_5 = sp.Min(1 / beta, D_F / (sp.sqrt(SIGMA2_5) * n))
NOISE_STD_ALG2 = 2 * L * sp.sqrt(LOG_A * LOG_B) / eps
_T5_PARAMS = dict(beta=BETA, L=LIP, Delta0=Real(gt=0, search=(1e-3, 1e2), log=True, units=(1, 0)),
                  n=Real(ge=1, search=(1, 6)), d=Real(ge=1, search=(1, 4)), epsilon=EPS, delta=DELTA)
_MC_T5 = (MCPoint(ERMData("huber", n=6, d=2, lam=0.0, data_seed=3), {"epsilon": 1.0, "delta": 1e-3, "eta": 0.5}),
          MCPoint(ERMData("huber", n=5, d=3, lam=0.0, data_seed=4), {"epsilon": 0.2, "delta": 0.01, "eta": 0.05}))
_ALG2 = dict(smooth=beta, horizon=n**2, dim=d, noise_std=NOISE_STD_ALG2, integers=("n", "d"))
_ALG2_UTIL = random_round_sgd(statistic="grad_norm_sq", step=eta, init_gap=Delta0, lipschitz=L, n_samples=n,
                              mc=_MC_T5, **_ALG2)
_T5_PATHS = (LimitPath("n", "inf"), LimitPath("epsilon", "0+"), LimitPath("delta", "0+"), LimitPath("d", "inf"))
THM_5 = Claim(
    id="erm/thm-5",
    source=_src("Theorem 5", None,
                "f L-Lipschitz, beta-smooth; P(R = k+1) = (2 eta_k - beta eta_k^2)/sum_r (2 eta_r - beta eta_r^2), "
                "eta_k < 2/beta; sigma^2 = 4L^2 + 4 d L^2 log(3n/delta) log(2/delta)/eps^2: E||grad F(w_priv)||^2 <= "
                "beta [D_F^2 + sigma^2 sum_k eta_k^2]/sum_r (2 eta_r - beta eta_r^2), D_F = sqrt(2(F(w_0) - F*)/beta); "
                "with eta_k = min{1/beta, D_F/(sigma n)}: = O(beta L sqrt(d log(n/delta) log(1/delta)) D_F/(n eps)); "
                "convex, ||w_hat|| <= D: E F(w_priv) - F(w_hat) = O(L sqrt(d log(n/delta) log(1/delta)) D/(n eps)) "
                "(constant steps; n, d real in the rate sweep, integers where the algorithm runs)"),
    kind="expectation bound",
    summary="Algorithm 2: E||grad F(w_priv)||^2 <= beta[D_F^2 + sigma^2 n^2 eta^2]/(n^2(2 eta - beta eta^2)), = O(beta L sqrt(d log(n/delta) log(1/delta)) D_F/(n eps)) with the printed step; convex: O(L sqrt(d log(n/delta) log(1/delta)) D/(n eps)).",
    domain=Domain(Relation(sp.Lt(eta, 2 / beta), "eta < 2/beta"),
                  Relation(sp.Le(2 * Delta0 / beta, D**2), "D_F <= D (F(w_0) - F* <= beta D^2/2 for convex F)"),
                  **_T5_PARAMS, eta=ETA, D=RADIUS),
    statements=(
        ExpectationBound("explicit bound (constant step eta, T = n^2)", bound=EXPLICIT_5, scenario=_ALG2_UTIL),
        Rate("O-form with eta = min{1/beta, D_F/(sigma n)}", expr=EXPLICIT_5.subs(eta, ETA_5),
             rate=beta * L * sp.sqrt(d * sp.log(n / delta) * sp.log(1 / delta)) * D_F / (n * eps), kind="O",
             paths=_T5_PATHS),
        Rate("convex O-form: Lemma 11's convex bound at that step", kind="O", paths=_T5_PATHS,
             expr=((D**2 + SIGMA2_5 * n**2 * eta**2) / (n**2 * (2 * eta - beta * eta**2))).subs(eta, ETA_5),
             rate=L * sp.sqrt(d * sp.log(n / delta) * sp.log(1 / delta)) * D / (n * eps)),
    ),
)

SGD_VARIANCE = Claim(
    id="erm/claim-sgd-variance",
    source=_src("Theorem 5", None,
                "proof sketch of Theorem 5 and proof (A.5): 'E||G(w_t) - grad F(w_t, S)||^2 <= 4L^2 + 8L^2 "
                "log(3n/delta) log(2/delta)/eps^2', G(w_t) = grad f(w_t, xi) + z_t, z_t of line 5"),
    kind="inequality",
    summary="The variance of Algorithm 2's stochastic gradient is at most 4L^2 + 8L^2 log(3n/delta) log(2/delta)/eps^2.",
    domain=Domain(L=LIP, d=Int(ge=1, search=(1, 100)), epsilon=EPS, delta=DELTA, n=Int(ge=1, search=(1, 10**6))),
    statements=(
        Identity("E||z_t||^2 for line 5's density: d (8 L^2 log(3n/delta) log(2/delta)/eps^2)/2",
                 lhs=d * (8 * L**2 * LOG_A * LOG_B / eps**2) / 2, rhs=4 * d * L**2 * LOG_A * LOG_B / eps**2),
        Inequality("E||z_t||^2 (a lower bound of the variance) <= 4L^2 + 8L^2 log(3n/delta) log(2/delta)/eps^2",
                   lhs=4 * d * L**2 * LOG_A * LOG_B / eps**2, rhs=4 * L**2 + 8 * L**2 * LOG_A * LOG_B / eps**2),
    ),
    expected="violated",
    reason=("the noise alone has E||z_t||^2 = 4 d L^2 log(3n/delta) log(2/delta)/eps^2: the printed bound drops the "
            "dimension d (Theorem 5's sigma^2 has it) and fails for d >= 3"),
    witness={"L": 1.0, "d": 3, "epsilon": 1.0, "delta": 1e-3, "n": 10},
)
SGD_VARIANCE_CORRECTED = SGD_VARIANCE.corrected(
    summary="E||G - grad F||^2 <= L^2 + 4 d L^2 log(3n/delta) log(2/delta)/eps^2 <= sigma^2 of Theorem 5 (exact on drawn data sets).",
    statements=(
        SupBound("E||G(w) - grad F(w)||^2 / (L(w)^2 + d s^2) <= 1 on drawn data sets (exact variance)", bound=sp.Integer(1),
                 kind="supremum",
                 scenario=proofs.GradientVariance(
                     lambda pt: 4 * pt["d"] * pt["L"] ** 2 * math.log(3 * pt["n"] / pt["delta"])
                     * math.log(2 / pt["delta"]) / pt["epsilon"] ** 2)),
        Inequality("L^2 + 4 d L^2 log(3n/delta) log(2/delta)/eps^2 <= sigma^2 of Theorem 5",
                   lhs=L**2 + 4 * d * L**2 * LOG_A * LOG_B / eps**2, rhs=SIGMA2_5),
    ),
)

# ============================================================================= Lemma 4
LEMMA_4 = Claim(
    id="erm/lemma-4",
    source=_src("Lemma 4", None,
                "X_1..X_T a martingale difference sequence with E_{t-1}[exp(X_t^2/sigma_t^2)] <= exp(1): with "
                "probability at least 1 - delta, sum_t X_t <= sqrt(3 log(1/delta) sum_t sigma_t^2) [14]"),
    kind="probability bound",
    summary="Sub-Gaussian martingale tail: P(sum X_t > sqrt(3 log(1/delta) sum sigma_t^2)) <= delta.",
    domain=Domain(T=Int(ge=1, search=(1, 400)), delta=Real(gt=0, lt=1, search=(1e-12, 0.99), log=True)),
    statements=(
        SupBound("exact tail of the extreme sequences (Gaussian at the moment limit, Rademacher) <= delta",
                 bound=delta, kind="supremum", scenario=proofs.LEMMA_4_TAIL),
    ),
)

# ============================================================================= Theorem 6
GAMMA_LOG = sp.log(3 / gamma)
A_D = 1 / (1 - sp.exp(-2 / d))                          # a = (1 - exp(-2/d))^-1
ALPHA2 = 4 * L**2 * LOG_A * LOG_B / eps**2               # alpha^2: line 5's variance per coordinate
SIGMA_5 = sp.sqrt(SIGMA2_5)
ETA_6 = sp.Min(1 / beta, D_F / (SIGMA_5 * n))
SUM_X = (eta - beta * eta**2) * n * L**2 * sp.sqrt(12 * GAMMA_LOG)                                   # (3)
SUM_Y = (eta + beta * eta**2) * n * L**2 / eps * sp.sqrt(24 * A_D * GAMMA_LOG * LOG_A * LOG_B)         # (4)
SUM_R = beta / 2 * ALPHA2 * eta**2 * (d * n**2 + 2 * n * sp.sqrt(d * GAMMA_LOG) + 2 * GAMMA_LOG)    # (5)
SUM_DELTA = 2 * beta * eta**2 * n**2 * L**2                                                          # (2)
COMBINED_6 = (Delta0 + SUM_X + SUM_Y + SUM_R + SUM_DELTA) / (n**2 * (eta - beta * eta**2 / 2))
_MC_T6 = (MCPoint(ERMData("huber", n=5, d=2, lam=0.0, data_seed=5), {"epsilon": 1.0, "delta": 1e-3, "gam": 0.1}),)
_ALG2_HP = random_round_sgd(statistic="grad_norm_sq", trajectory=True, exceeds=COMBINED_6.subs(eta, ETA_6),
                            step=ETA_6, init_gap=Delta0, lipschitz=L, n_samples=n, mc=_MC_T6, **_ALG2)
_kx = sp.Symbol("kx", positive=True)
THM_6 = Claim(
    id="erm/thm-6",
    source=_src("Theorem 6", "(1)-(5)",
                "eta_k = min{1/beta, D_F/(sigma n)}: with probability at least 1 - gamma (noise and sampling), E||grad "
                "F(w_priv)||^2 <= O(sqrt(d log(1/gamma) log(n/delta) log(1/delta))/(n eps)); proof (A.6): (1) sum_t "
                "(eta_t - beta eta_t^2/2)||grad F(w_t)||^2 <= F(w_1) - F(w_hat) + sum (X_t + Y_t + R_t) + (beta/2) sum "
                "eta_t^2 ||delta_t||^2; (2) <= 2 beta eta_1^2 n^2 L^2; (3) sum X_t >= (eta_1 - beta eta_1^2) n L^2 "
                "sqrt(12 log(3/gamma)) with probability <= gamma/3; (4) sum Y_t >= (eta_1 + beta eta_1^2)(n L^2/eps) "
                "sqrt(24 a log(3/gamma) log(3n/delta) log(2/delta)) w.p. <= gamma/3, a = (1 - exp(-2/d))^-1; (5) sum "
                "R_t >= (beta/2) alpha^2 eta_1^2 (d n^2 + 2n sqrt(d log(3/gamma)) + 2 log(3/gamma)) w.p. <= gamma/3, "
                "alpha^2 = 4 L^2 log(3n/delta) log(2/delta)/eps^2 (Laurent & Massart); E over R given the trajectory"),
    kind="probability bound",
    summary="Algorithm 2 with eta = min{1/beta, D_F/(sigma n)}: with probability 1 - gamma, E_R||grad F(w_R)||^2 <= the bound combined from (1)-(5), which is O(sqrt(d log(1/gamma) log(n/delta) log(1/delta))/(n eps)).",
    domain=Domain(Relation(sp.Le(eta, 1 / beta), "eta <= 1/beta"), **_T5_PARAMS, eta=ETA,
                  gam=Real(gt=0, lt=1, search=(1e-6, 0.5), log=True)),
    statements=(
        Identity("(2): (beta/2) n^2 eta^2 (2L)^2 = 2 beta eta^2 n^2 L^2", lhs=beta / 2 * n**2 * eta**2 * (2 * L) ** 2,
                 rhs=SUM_DELTA),
        Identity("(3): sqrt(3 log(3/gamma) n^2 4 (eta - beta eta^2)^2 L^4) = (eta - beta eta^2) n L^2 sqrt(12 log(3/gamma))",
                 lhs=sp.sqrt(3 * GAMMA_LOG * n**2 * 4 * (eta - beta * eta**2) ** 2 * L**4), rhs=SUM_X),
        Identity("(4): sqrt(3 log(3/gamma) n^2 sigma_t^2) with sigma_t^2 = 2a (eta L + beta L eta^2)^2 alpha^2",
                 lhs=sp.sqrt(3 * GAMMA_LOG * n**2 * 2 * A_D * (eta * L + beta * L * eta**2) ** 2 * ALPHA2), rhs=SUM_Y),
        Inequality("(5)'s tail: P(chi^2_k >= k + 2 sqrt(k x) + 2x) <= e^-x, k = d n^2, x = log(3/gamma)",
                   lhs=sp.uppergamma(d * n**2 / 2, (d * n**2 + 2 * sp.sqrt(d * n**2 * GAMMA_LOG) + 2 * GAMMA_LOG) / 2)
                   / sp.gamma(d * n**2 / 2), rhs=gamma / 3),
        Rate("the combined bound at eta = min{1/beta, D_F/(sigma n)} is O(sqrt(d log(1/gamma) log(n/delta) log(1/delta))/(n eps)) "
             "with beta, L, D_F held fixed (the printed O omits them, unlike Theorem 5's, so it is not scale-consistent "
             "and the scaling check does not apply)",
             expr=COMBINED_6.subs(eta, ETA_6),
             rate=sp.sqrt(d * sp.log(1 / gamma) * sp.log(n / delta) * sp.log(1 / delta)) / (n * eps), kind="O",
             paths=_T5_PATHS + (LimitPath("gam", "0+"),), skip=("scaling",)),
        ExpectationBound("P(E_R[||grad F(w_R)||^2 | trajectory] > the combined bound) <= gamma", bound=gamma,
                         scenario=_ALG2_HP),
    ),
)
MGF_Y = Claim(
    id="erm/claim-mgf-y",
    source=_src("Theorem 6", "(4)",
                "proof of Theorem 6: 'if we set sigma_t^2 = 2a(eta_t L + beta L eta_t^2) alpha^2, where a = (1 - "
                "exp(-2/d))^-1 (which is actually O(d)) ... then we have E_{t-1}[exp(Y_t^2/sigma_t^2)] <= exp(1)', Y_t = "
                "[(beta eta_t^2 - eta_t) grad F(w_t) + beta eta_t^2 delta_t]^T z_t, ||grad F|| <= L, ||delta_t|| <= 2L, "
                "z_t ~ N(0, alpha^2 I): Y_t ~ N(0, s^2) with s <= (eta + beta eta^2) L alpha, E exp(Y^2/sigma^2) = "
                "(1 - 2 s^2/sigma^2)^(-1/2) <= e iff 2 s^2/sigma^2 <= 1 - e^-2"),
    kind="inequality",
    summary="sigma_t^2 = 2a(eta L + beta L eta^2) alpha^2 makes E exp(Y_t^2/sigma_t^2) <= e; a = (1 - e^(-2/d))^-1 = O(d).",
    domain=Domain(Relation(sp.Le(eta, 1 / beta), "eta <= 1/beta"), beta=BETA, eta=ETA, L=LIP,
                  d=Real(ge=1, search=(1, 1e4), log=True), alpha2=Real(gt=0, search=(1e-4, 1e4), log=True, units=(2, -2))),
    statements=(
        Inequality("2 s^2/sigma_t^2 <= 1 - e^-2 with the worst s = (eta + beta eta^2) L alpha",
                   lhs=2 * (eta + beta * eta**2) ** 2 * L**2 * alpha2 / (2 * A_D * (eta * L + beta * L * eta**2) * alpha2),
                   rhs=1 - sp.exp(-2)),
        Rate("a = (1 - exp(-2/d))^-1 = O(d)", expr=A_D, rate=d, kind="O", paths=(LimitPath("d", "inf"),)),
    ),
    expected="violated",
    reason=("sigma_t^2 must scale like Y_t^2, i.e. carry (eta L + beta L eta^2)^2: with the printed first power the "
            "moment bound fails once (eta + beta eta^2) L > a (1 - e^-2) (e.g. beta = eta = 1, L = 10, d = 1); (4) "
            "itself is what the squared sigma_t^2 gives"),
    witness={"beta": 1.0, "eta": 1.0, "L": 10.0, "d": 1.0, "alpha2": 1.0},
)
MGF_Y_CORRECTED = MGF_Y.corrected(
    summary="sigma_t^2 = 2a(eta L + beta L eta^2)^2 alpha^2 gives 2 s^2/sigma_t^2 <= 1/a = 1 - e^(-2/d) <= 1 - e^-2, and a = O(d).",
    statements=(
        Inequality("2 s^2/sigma_t^2 <= 1 - e^-2 with sigma_t^2 = 2a (eta L + beta L eta^2)^2 alpha^2",
                   lhs=2 * (eta + beta * eta**2) ** 2 * L**2 * alpha2 / (2 * A_D * (eta * L + beta * L * eta**2) ** 2 * alpha2),
                   rhs=1 - sp.exp(-2)),
        Rate("a = (1 - exp(-2/d))^-1 = O(d)", expr=A_D, rate=d, kind="O", paths=(LimitPath("d", "inf"),)),
    ),
)

# ============================================================================= Lemmas 5-8 (Appendix A.2, A.3)
_R0 = Real(gt=0, search=(1e-2, 1e2), log=True, units=(0, 1))
LEMMA_5 = Claim(
    id="erm/lemma-5",
    source=_src("Lemma 5", None,
                "[nesterov] f mu-strongly convex and beta-smooth, GD with constant step eta <= 2/(beta + mu) for T "
                "steps: F(w_T) - F(w_hat) <= (beta/2) exp(-2 eta mu beta T/(mu + beta)) ||w_0 - w_hat||^2"),
    kind="expectation bound",
    summary="GD on mu-strongly convex, beta-smooth F with eta <= 2/(beta+mu): F(w_T) - F* <= (beta/2) e^(-2 eta mu beta T/(mu+beta)) ||w_0 - w*||^2.",
    domain=Domain(Relation(sp.Le(mu, beta), "mu <= beta"), Relation(sp.Le(eta, 2 / (beta + mu)), "eta <= 2/(beta + mu)"),
                  beta=BETA, mu=MU, eta=ETA, d=Int(ge=1, search=(1, 6)), T=Int(ge=1, search=(1, 200)), R0=_R0),
    statements=(
        ExpectationBound("F(w_T) - F* <= (beta/2) exp(-2 eta mu beta T/(mu + beta)) R0^2",
                         bound=beta / 2 * sp.exp(-2 * eta * mu * beta * T / (mu + beta)) * R0**2,
                         scenario=noisy_gd(problem="strongly_convex", statistic="excess", smooth=beta, curvature=mu,
                                           step=eta, noise_std=0, dim=d, horizon=T, init_dist=R0, mc_count=0)),
    ),
)


def _radial_moment(density, power):
    """E||z||^power for an isotropic density proportional to density(||z||) on R^d (polar coordinates)."""
    return (sp.Integral(r_ ** (d - 1 + power) * density, (r_, 0, sp.oo))
            / sp.Integral(r_ ** (d - 1) * density, (r_, 0, sp.oo)))


_NOISE_DOMAIN = Domain(d=Int(ge=1, search=(1, 30)), sigma=Real(gt=0, search=(1e-3, 1e3), log=True, units=(0, 1)))
LEMMA_6 = Claim(
    id="erm/lemma-6",
    source=_src("Lemma 6", None, "z in R^d with z ~ exp(-||z||_2/sigma): E||z||^2 = d(d+1) sigma^2 (polar coordinates: "
                                "the radius has density proportional to r^(d-1) e^(-r/sigma))"),
    kind="identity",
    summary="For the density proportional to exp(-||z||/sigma) on R^d, E||z||^2 = d(d+1) sigma^2.",
    domain=_NOISE_DOMAIN,
    statements=(
        Identity("E||z||^2 = int r^(d+1) e^(-r/sigma) dr / int r^(d-1) e^(-r/sigma) dr = d(d+1) sigma^2",
                 lhs=_radial_moment(sp.exp(-r_ / sigma), 2), rhs=d * (d + 1) * sigma**2),
    ),
    expected="verified",
)
LEMMA_7 = Claim(
    id="erm/lemma-7",
    source=_src("Lemma 7", None, "z in R^d with z ~ exp(-||z||_2^2/(2 sigma^2)): E||z||^2 = d sigma^2"),
    kind="identity",
    summary="For the density proportional to exp(-||z||^2/(2 sigma^2)) on R^d, E||z||^2 = d sigma^2.",
    domain=_NOISE_DOMAIN,
    statements=(
        Identity("E||z||^2 = int r^(d+1) e^(-r^2/(2 sigma^2)) dr / int r^(d-1) e^(-r^2/(2 sigma^2)) dr = d sigma^2",
                 lhs=_radial_moment(sp.exp(-r_**2 / (2 * sigma**2)), 2), rhs=d * sigma**2),
    ),
    expected="verified",
)
LEMMA_8 = Claim(
    id="erm/lemma-8",
    source=_src("Lemma 8", None,
                "[nesterov] f convex and beta-smooth, GD with eta = 1/beta for T steps: F(w_T) - F(w_hat) <= "
                "2 beta ||w_0 - w_hat||^2/T"),
    kind="expectation bound",
    summary="GD on convex, beta-smooth F with eta = 1/beta: F(w_T) - F* <= 2 beta ||w_0 - w*||^2/T.",
    domain=Domain(beta=BETA, d=Int(ge=1, search=(1, 6)), T=Int(ge=1, search=(1, 200)), R0=_R0),
    statements=(
        ExpectationBound("F(w_T) - F* <= 2 beta R0^2/T", bound=2 * beta * R0**2 / T,
                         scenario=noisy_gd(problem="convex", statistic="excess", smooth=beta, step=1 / beta,
                                           noise_std=0, dim=d, horizon=T, init_dist=R0, mc_count=0)),
    ),
)

# ============================================================================= Lemmas 9, 10 (Appendix A.4)
_AMP_DOMAIN = lambda eps_range: Domain(epsilon=eps_range, delta=Real(ge=0, lt=1, search=(0.0, 0.5)),  # noqa: E731
                                       alpha=Real(gt=0, le=1, search=(1e-3, 1.0), log=True))
LEMMA_9 = Claim(
    id="erm/lemma-9",
    source=_src("Lemma 9", None,
                "(Amplification [3]) running an (eps, delta)-DP algorithm on uniformly random alpha n entries of S "
                "ensures (2 alpha eps, alpha delta)-DP (no range of eps printed)"),
    kind="privacy bound",
    summary="An (eps, delta)-DP algorithm run on a uniformly random alpha fraction of the data is (2 alpha eps, alpha delta)-DP.",
    domain=_AMP_DOMAIN(Real(gt=0, search=(1e-3, 50.0), log=True)),
    statements=(
        SupBound("eps' of the subsampled canonical (eps, delta)-DP pair at delta' = alpha delta <= 2 alpha eps",
                 bound=2 * alpha * eps, kind="privacy", scenario=proofs.AMPLIFICATION),
    ),
    expected="violated",
    reason=("the tight amplified eps is ln(1 + alpha(e^eps - 1)), below 2 alpha eps only for eps <~ 1 (Beimel et al. "
            "state it for eps <= 1): at eps = 10, alpha = 0.01 an eps-DP algorithm subsampled is ln(1 + 0.01 (e^10 - 1)) "
            "= 5.40-DP at best, not 0.2-DP"),
    witness={"epsilon": 10.0, "delta": 0.0, "alpha": 0.01},
)
LEMMA_9_CORRECTED = LEMMA_9.corrected(
    summary="For eps <= 1 the subsampled algorithm is (2 alpha eps, alpha delta)-DP; for every eps it is (ln(1 + alpha(e^eps - 1)), alpha delta)-DP (tight).",
    domain=_AMP_DOMAIN(Real(gt=0, le=1, search=(1e-3, 1.0), log=True)),
    statements=(
        SupBound("eps' at delta' = alpha delta <= 2 alpha eps (eps <= 1)", bound=2 * alpha * eps, kind="privacy",
                 scenario=proofs.AMPLIFICATION),
        Inequality("ln(1 + alpha(e^eps - 1)) <= 2 alpha eps (eps <= 1)", lhs=sp.log(1 + alpha * (sp.exp(eps) - 1)),
                   rhs=2 * alpha * eps),
        SupBound("eps' at delta' = alpha delta <= ln(1 + alpha(e^eps - 1)) (the tight bound, attained)",
                 bound=sp.log(1 + alpha * (sp.exp(eps) - 1)), kind="privacy", scenario=proofs.AMPLIFICATION),
    ),
)
EPS_10_PRINTED = sp.sqrt(2 * T * sp.log(1 / delta_p) * eps) + T * eps * (sp.exp(eps) - 1)
EPS_10_DRV = sp.sqrt(2 * T * sp.log(1 / delta_p)) * eps + T * eps * (sp.exp(eps) - 1)
_EPS10_F = sp.lambdify([T, delta_p, eps], EPS_10_PRINTED, "math")
_EPS10_DRV_F = sp.lambdify([T, delta_p, eps], EPS_10_DRV, "math")
LEMMA_10 = Claim(
    id="erm/lemma-10",
    source=_src("Lemma 10", None,
                "(Strong composition [8]) for eps > 0, delta >= 0, delta' > 0, an (eps, delta)-DP algorithm is "
                "(eps', T delta + delta')-DP under T-fold adaptive composition, eps' = sqrt(2T log(1/delta') eps) + "
                "T eps (e^eps - 1) (eps inside the root as printed; [8] has sqrt(2T log(1/delta')) eps)"),
    kind="privacy bound",
    summary="T-fold composition of (eps, delta)-DP is (sqrt(2T log(1/delta') eps) + T eps (e^eps - 1), T delta + delta')-DP.",
    domain=Domain(epsilon=Real(gt=0, search=(1e-3, 3.0), log=True), delta=Real(ge=0, lt=1, search=(0.0, 1e-3)),
                  delta_p=Real(gt=0, lt=1, search=(1e-10, 0.5), log=True), T=Int(ge=1, search=(1, 500))),
    statements=(
        SupBound("optimal delta of T-fold composition at eps' (as printed) <= T delta + delta'",
                 bound=T * delta + delta_p, kind="privacy",
                 scenario=PointScenario(proofs.composition_delta_at(
                     lambda pt: _EPS10_F(pt["T"], pt["delta_p"], pt["epsilon"])),
                     "k-fold composition of the canonical (eps, delta) pair, exact (Kairouz et al.)")),
        SupBound("optimal delta at eps' of [8] (eps outside the root) <= T delta + delta'",
                 bound=T * delta + delta_p, kind="privacy",
                 scenario=PointScenario(proofs.composition_delta_at(
                     lambda pt: _EPS10_DRV_F(pt["T"], pt["delta_p"], pt["epsilon"])),
                     "k-fold composition of the canonical (eps, delta) pair, exact (Kairouz et al.)")),
    ),
)

# ============================================================================= Lemmas 11, 12 (Appendix A.5)
_GL_PARAMS = dict(beta=BETA, eta=ETA, T=Int(ge=1, search=(1, 20000)), d=Int(ge=1, search=(1, 4)),
                  sigma=Real(gt=0, search=(1e-3, 1e2), log=True, units=(1, -1)),
                  Delta0=Real(gt=0, search=(1e-3, 1e2), log=True, units=(1, 0)), R0=_R0)
_GL_REL = (Relation(sp.Lt(eta, 2 / beta), "eta < 2/beta"),
           Relation(sp.Le(Delta0, beta * R0**2 / 2), "F(w_0) - F* <= beta ||w_0 - w_hat||^2/2 (convex, beta-smooth)"))
_GL = dict(smooth=beta, horizon=T, dim=d, noise_std=sigma / sp.sqrt(d))   # E||G - grad F||^2 = sigma^2 exactly
SUM_ETA2 = T * eta**2
DEN_GL = T * (2 * eta - beta * eta**2)
_GL_NC = random_round_sgd(statistic="grad_norm_sq", step=eta, init_gap=Delta0, **_GL)
_GL_CVX = random_round_sgd(statistic="excess", step=eta, init_dist=R0, init_gap=Delta0, **_GL)
_L11_TEXT = ("(Theorem 2.1 of [10]) eta_t < 2/beta, R in [T], P(R = k) = (2 eta_k - L eta_k^2)/sum_k (2 eta_k - beta "
             "eta_k^2) (an L for beta in the numerator; Algorithm 2 uses beta), oracle with E G = grad F and "
             "E||G - grad F||^2 <= sigma^2: 1. E||grad F(w_R)||^2 <= (D_f^2 + sigma^2 sum eta_t^2)/sum (2 eta_t - beta "
             "eta_t^2), D_f = sqrt(2(F(w_0) - F*)/beta); 2. convex: E F(w_R) - F(w_hat) <= (||w_0 - w_hat||^2 + sigma^2 "
             "sum eta^2)/sum (2 eta_t - beta eta_t^2) (constant steps; the oracle's noise Gaussian with E||.||^2 = sigma^2)")
LEMMA_11 = Claim(
    id="erm/lemma-11",
    source=_src("Lemma 11", None, _L11_TEXT),
    kind="expectation bound",
    summary="Random-round SGD: E||grad F(w_R)||^2 <= (D_f^2 + sigma^2 sum eta^2)/sum(2 eta - beta eta^2); convex: E F(w_R) - F* <= (||w_0 - w*||^2 + sigma^2 sum eta^2)/sum(2 eta - beta eta^2).",
    domain=Domain(*_GL_REL, **_GL_PARAMS),
    statements=(
        ExpectationBound("1. E||grad F(w_R)||^2 <= (D_f^2 + sigma^2 T eta^2)/(T(2 eta - beta eta^2))",
                         bound=(D_F**2 + sigma**2 * SUM_ETA2) / DEN_GL, scenario=_GL_NC),
        ExpectationBound("2. convex: E F(w_R) - F* <= (R0^2 + sigma^2 T eta^2)/(T(2 eta - beta eta^2))",
                         bound=(R0**2 + sigma**2 * SUM_ETA2) / DEN_GL, scenario=_GL_CVX),
    ),
    expected="violated",
    reason=("item 1 drops Ghadimi & Lan's factor: their Theorem 2.1 bounds (1/beta) E||grad F(w_R)||^2 (Theorem 5 here "
            "has the beta); without it the sides scale differently and the bound fails for beta > 1 (beta = 100, one "
            "noiseless step: 8100 > 526)"),
    witness={"beta": 100.0, "eta": 0.001, "T": 1, "d": 1, "sigma": 0.001, "Delta0": 50.0, "R0": 1.0},
)
LEMMA_11_CORRECTED = LEMMA_11.corrected(
    summary="E||grad F(w_R)||^2 <= beta (D_f^2 + sigma^2 sum eta^2)/sum(2 eta - beta eta^2) (Theorem 5's form); item 2 as printed.",
    statements=(
        ExpectationBound("1. E||grad F(w_R)||^2 <= beta (D_f^2 + sigma^2 T eta^2)/(T(2 eta - beta eta^2))",
                         bound=beta * (D_F**2 + sigma**2 * SUM_ETA2) / DEN_GL, scenario=_GL_NC),
        ExpectationBound("2. convex: E F(w_R) - F* <= (R0^2 + sigma^2 T eta^2)/(T(2 eta - beta eta^2))",
                         bound=(R0**2 + sigma**2 * SUM_ETA2) / DEN_GL, scenario=_GL_CVX),
    ),
)
ETA_12 = sp.Min(1 / beta, D_F / (sigma * sp.sqrt(T)))
_L12_DOMAIN = Domain(Relation(sp.Le(Delta0, beta * R0**2 / 2), "F(w_0) - F* <= beta ||w_0 - w_hat||^2/2 (convex, beta-smooth)"),
                     **{k_: v for k_, v in _GL_PARAMS.items() if k_ != "eta"})
_GL12 = dict(_GL, step=ETA_12)
_GL12_NC = random_round_sgd(statistic="grad_norm_sq", init_gap=Delta0, **_GL12)
_GL12_CVX = random_round_sgd(statistic="excess", init_dist=R0, init_gap=Delta0, **_GL12)
LEMMA_12 = Claim(
    id="erm/lemma-12",
    source=_src("Lemma 12", None,
                "(Corollary 2.2 of [10]) with eta_t = min{1/beta, D_f/(sigma sqrt(T))}: E||grad F(w_R)||^2 <= beta "
                "D_f^2/T + 2 D_f sigma/sqrt(T); if f is convex: E F(w_R) - F(w_hat) <= beta ||w_0 - w_hat||^2/T + "
                "2 ||w_0 - w_hat|| sigma/sqrt(T)"),
    kind="expectation bound",
    summary="With eta = min{1/beta, D_f/(sigma sqrt T)}: E||grad F(w_R)||^2 <= beta D_f^2/T + 2 D_f sigma/sqrt T; convex: E F(w_R) - F* <= beta R0^2/T + 2 R0 sigma/sqrt T.",
    domain=_L12_DOMAIN,
    statements=(
        ExpectationBound("E||grad F(w_R)||^2 <= beta D_f^2/T + 2 D_f sigma/sqrt(T)",
                         bound=beta * D_F**2 / T + 2 * D_F * sigma / sp.sqrt(T), scenario=_GL12_NC),
        ExpectationBound("convex: E F(w_R) - F* <= beta R0^2/T + 2 R0 sigma/sqrt(T)",
                         bound=beta * R0**2 / T + 2 * R0 * sigma / sp.sqrt(T), scenario=_GL12_CVX),
    ),
    expected="violated",
    reason=("item 1 drops a beta from each term of Ghadimi & Lan's bound (L D_f^2/N + (D~ + D_f^2/D~) sigma/sqrt N on "
            "(1/L) E||grad f||^2); item 2 keeps the D_f step but quotes the bound of the D_X step: with D~ = D_f it is "
            "beta R0^2/T + (D_f + R0^2/D_f) sigma/sqrt T, and flat losses (D_f << R0) exceed the printed one"),
    witness={"beta": 1.0, "T": 10000, "d": 1, "sigma": 0.012, "Delta0": 0.00113, "R0": 1.0},
)
LEMMA_12_CORRECTED = LEMMA_12.corrected(
    summary="E||grad F(w_R)||^2 <= beta^2 D_f^2/T + 2 beta D_f sigma/sqrt T; convex: E F(w_R) - F* <= beta R0^2/T + (D_f + R0^2/D_f) sigma/sqrt T.",
    statements=(
        ExpectationBound("E||grad F(w_R)||^2 <= beta^2 D_f^2/T + 2 beta D_f sigma/sqrt(T)",
                         bound=beta**2 * D_F**2 / T + 2 * beta * D_F * sigma / sp.sqrt(T), scenario=_GL12_NC),
        ExpectationBound("convex: E F(w_R) - F* <= beta R0^2/T + (D_f + R0^2/D_f) sigma/sqrt(T)",
                         bound=beta * R0**2 / T + (D_F + R0**2 / D_F) * sigma / sp.sqrt(T), scenario=_GL12_CVX),
    ),
)

CLAIMS = (
    LEMMA_1, LEMMA_1_CORRECTED, LEMMA_2, LEMMA_3, LEMMA_3_INDUCTION, THM_1, THM_1_CORRECTED,
    THM_2A, THM_2B, THM_2B_CORRECTED, THM_3A, THM_3A_CORRECTED, THM_3B, THM_3B_CORRECTED,
    THM_4, THM_5, LEMMA_4, THM_6,
    LEMMA_5, LEMMA_6, LEMMA_7, LEMMA_8,
    STEP_LOSS, STEP_LOSS_CORRECTED, THM4_COMPOSITION, THM4_COMPOSITION_CORRECTED, LEMMA_9, LEMMA_9_CORRECTED, LEMMA_10,
    SGD_VARIANCE, SGD_VARIANCE_CORRECTED, LEMMA_11, LEMMA_11_CORRECTED, LEMMA_12, LEMMA_12_CORRECTED,
    MGF_Y, MGF_Y_CORRECTED,
)
