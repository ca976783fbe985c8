"""Claims of [erm], Section 3.1 (Convex case): Lemmas 2 and 3, Theorems 1-3 (output perturbation, Algorithm 1)."""
from __future__ import annotations

from dataclasses import replace

import sympy as sp

from dpverify.scenarios import MCPoint, dp_audit, gd_sensitivity, output_perturbation_gd, output_perturbation_privacy
from dpverify.scenarios import ERMData
from dpverify.claims import (Claim, Domain, ExpectationBound, Identity, Inequality, Int, Limit, LimitPath, Rate, Real,
                           Reading, Relation, SupBound)

from .. import proofs
from .common import BETA, D, EPS, ETA, L, LIP, LOG_B, MU, RADIUS, T, W, _src, beta, d, delta, eps, eta, gamma, mu, n, t

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
    reason=("line 8's Gaussian (std sqrt(2 log(2/delta)) Delta/eps) is (eps, delta)-DP only for moderate eps: with "
            "the sensitivity 2LT eta/n = (2/3) Delta that GD reaches (Theorem 3's setting) some delta fails from eps ~ "
            "12.4 (from eps ~ 6.4 were Delta itself reached); eps = 30, delta = 0.5 gives delta(eps) = 0.9997"),
    witness={"beta": 1.0, "mu": 0.5, "n": 4, "T": 5, "epsilon": 30.0, "delta": 0.5, "L": 1.0},
    error_in="statement", statement_survives=False,
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
    error_in="statement", statement_survives=False,
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
_RATE_3A_IN_D = (sp.sqrt(beta) * L * d * D**2 / (n * eps)) ** sp.Rational(2, 3)
_RATE_3B_IN_D = (L * sp.sqrt(beta * d * sp.log(1 / delta)) * D**2 / (n * eps)) ** sp.Rational(2, 3)
_RATE_3A_D = Rate("O-form with D: the explicit bound at the printed T", expr=(OPT_3 + NOISE_3A).subs(T, T_3A),
                  rate=_RATE_3A_IN_D, kind="O", paths=_T3_PATHS)
_RATE_3B_D = Rate("O-form with D: the explicit bound at the printed T", expr=(OPT_3 + NOISE_3B).subs(T, T_3B),
                  rate=_RATE_3B_IN_D, kind="O", paths=_T3_PATHS + (LimitPath("delta", "0+"),))
_D_READINGS = (Reading("D", "holds", replaces=("O-form as printed (in ||w_hat||), on the radial Huber family (exact error)",),
                       summary=("||w_hat|| in the rate read as the bound D on it (the hypothesis ||w_hat|| <= D, with "
                                "which T is set): the rate in D holds")),)


def _read_with_d(huber_error, rate_in_d, rate_d):
    """The statements of the reading "D": the radial Huber family's exact error and the explicit bound at the
    printed T, each O of the rate with D in place of ||w_hat||."""
    return (Rate("O-form read with D, on the radial Huber family (exact error)", expr=huber_error, rate=rate_in_d,
                 kind="O", paths=(LimitPath("W", "0+"), LimitPath("n", "inf")), reading="D",
                 skip=("scaling",)),  # the family's L is sqrt(beta): scaling the loss leaves it
            replace(rate_d, reading="D"))
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
        *_read_with_d(HUBER_3A, _RATE_3A_IN_D, _RATE_3A_D),
    ),
    readings=_D_READINGS,
    expected="violated",
    reason=("T is set with D but the rate is printed in ||w_hat||: the noise term 9T^2L^2d(d+1)/(2 beta n^2 eps^2) does "
            "not shrink with ||w_hat||, so for w_hat -> 0 (radial Huber losses, where the error is exactly that noise "
            "term's E phi(||z||)) the ratio to the printed rate grows like (D/||w_hat||)^(4/3)"),
    witness={"beta": 1.0, "L": 1.0, "D": 1.0, "n": 100.0, "d": 1, "epsilon": 1.0, "T": 10, "W": 0.01},
    error_in="statement", statement_survives=False,
)
THM_3A_CORRECTED = THM_3A.corrected(
    summary="The explicit bound holds and, at the printed T, is O([sqrt(beta) L d D^2/(n eps)]^(2/3)) (D in place of ||w_hat||).",
    domain=_thm3_domain(huber=False),
    statements=(
        ExpectationBound("explicit bound of the proof", bound=OPT_3 + NOISE_3A, scenario=_UTIL_3A),
        _RATE_3A_D,
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
        *_read_with_d(HUBER_3B, _RATE_3B_IN_D, _RATE_3B_D),
    ),
    readings=_D_READINGS,
    expected="violated",
    reason=("as in item 1: T is set with D, the rate is printed in ||w_hat||, and the noise term does not shrink "
            "with ||w_hat|| (ratio ~ (D/||w_hat||)^(4/3) on radial Huber losses)"),
    witness={"beta": 1.0, "L": 1.0, "D": 1.0, "n": 100.0, "d": 1, "epsilon": 1.0, "T": 10, "W": 0.01, "delta": 1e-3},
    error_in="statement", statement_survives=False,
)
THM_3B_CORRECTED = THM_3B.corrected(
    summary="The explicit bound holds and, at the printed T, is O([L sqrt(beta d log(1/delta)) D^2/(n eps)]^(2/3)).",
    domain=_thm3_domain(_DELTA_3, huber=False),
    statements=(
        ExpectationBound("explicit bound of the proof", bound=OPT_3 + NOISE_3B, scenario=_UTIL_3B),
        _RATE_3B_D,
    ),
)

# ============================================================================= Section 3.1, unnumbered results
# Excess population risk of the strongly convex case: "by substituting our utility bound in Theorem 2" into
# [21]'s Theorem 5 / inequality (18) (Shalev-Shwartz et al. 2009: for mu-strongly convex, L-Lipschitz f, with
# probability 1 - gamma_1 over S, for every w: G(w) - G(w*) <= sqrt((2L^2/mu)(F(w) - F(w_hat))) + 4L^2/(gamma_1 mu n)),
# F(w_priv) - F(w_hat) <= U/gamma_2 by Markov (U: Theorem 2 item 2's bound at its T), gamma_1 = gamma_2 = gamma/2.
U_2B = (OPT_2 + NOISE_2B).subs(T, T_2B)
GEN_SC = 2 * L * sp.sqrt(U_2B / (mu * gamma)) + 8 * L**2 / (gamma * mu * n)
GEN_PRINTED = L * sp.sqrt(beta * d) / (n * eps * mu * gamma)
GEN_CORRECTED = L**2 * sp.sqrt(beta * d) / (n * eps * mu ** sp.Rational(3, 2) * gamma)


def _scale_loss(*names):
    """Multiply the loss by c: L, beta and mu (and whatever else is named) move with L, T is unchanged."""
    return {k: sp.Symbol(k) * L / LimitPath.start("L") for k in names}


LOSS_SCALE = LimitPath("L", "inf", tied=_scale_loss("beta", "mu"), label="the loss multiplied by c: L, beta, mu x c")
_GAMMA = Real(gt=0, lt=1, search=(1e-6, 0.5), log=True)
_GEN_DOMAIN = Domain(
    Relation(sp.Le(mu, beta), "mu <= beta"),
    Relation(sp.Gt(mu**2 * n**2 * eps**2 * D**2, L**2 * d * sp.log(1 / delta)), "Theorem 2 item 2's T is positive"),
    beta=BETA, mu=MU, L=LIP, D=RADIUS, n=Real(ge=1, search=(1e2, 1e6), log=True), d=Real(ge=1, search=(1.0, 100.0)),
    epsilon=Real(gt=0, le=1, search=(0.1, 1.0), log=True), delta=Real(gt=0, lt=1, search=(1e-8, 1e-2), log=True),
    gam=_GAMMA)
_GEN_PATHS = (LimitPath("n", "inf"), LimitPath("gam", "0+"), LOSS_SCALE)
SEC_3_1_EXCESS_RISK = Claim(
    id="erm/sec-3.1-excess-risk",
    source=_src("Section 3.1", None,
                "after Theorem 2: 'The most usual technique to obtain excess risk is to use Theorem 5 and inequality (18) "
                "in [21]. In this case, we assume loss function f(w, xi) is mu-strongly convex and L-Lipschitz ... "
                "Thus, by substituting our utility bound in Theorem 2, we can obtain: with probability at least 1 - "
                "gamma, ExcessRisk(w_priv) <= O~(L sqrt(beta d)/(n eps mu gamma))' ((eps, delta)-DP; O~ ignores log "
                "factors) [[21] = Shalev-Shwartz, Shamir, Srebro, Sridharan 2009: G(w) - G(w*) <= sqrt((2L^2/mu)(F(w) "
                "- F(w_hat))) + 4L^2/(gamma mu n) w.p. 1 - gamma; the utility bound made high-probability by Markov, "
                "gamma split in halves; eps <= 1]"),
    kind="rate",
    summary=("Strongly convex, (eps, delta)-DP: with probability 1 - gamma the excess population risk of w_priv, "
             "2L sqrt(U/(mu gamma)) + 8L^2/(gamma mu n) from [21] and Theorem 2, is O~(L sqrt(beta d)/(n eps mu gamma))."),
    domain=_GEN_DOMAIN,
    statements=(
        Rate("[21]'s inequality with Theorem 2 item 2's bound is O(L sqrt(beta d)/(n eps mu gamma))", expr=GEN_SC,
             rate=GEN_PRINTED, kind="O", paths=_GEN_PATHS),
    ),
    expected="violated",
    reason=("the printed order scales as the square root of the loss (L sqrt(beta)/mu has units loss^(1/2)) while the "
            "excess risk scales with it: multiplying the loss by c multiplies [21]'s bound by c and the printed order by "
            "sqrt(c) (already f = (c/2)(w - xi)^2, xi = +-1, has excess risk >= c/(2n) with probability > 0.15 against "
            "the printed ~ sqrt(c)/(n eps gamma))"),
    witness={"beta": 1.0, "mu": 1.0, "L": 1.0, "D": 1.0, "n": 1e4, "d": 10.0, "epsilon": 1.0, "delta": 1e-5,
             "gam": 0.05},
    error_in="statement", statement_survives=False,
)
SEC_3_1_EXCESS_RISK_CORRECTED = SEC_3_1_EXCESS_RISK.corrected(
    summary=("With eps <= 1 and mu <= beta the bound from [21] and Theorem 2 is O~(L^2 sqrt(beta d)/(n eps mu^(3/2) "
             "gamma)): the printed order times L/sqrt(mu), in n, d, eps and gamma as printed."),
    statements=(
        Rate("[21]'s inequality with Theorem 2 item 2's bound is O(L^2 sqrt(beta d)/(n eps mu^(3/2) gamma)) (log(1/delta) "
             "fixed)", expr=GEN_SC, rate=GEN_CORRECTED, kind="O", paths=_GEN_PATHS),
    ),
)

# The general convex case (after Theorem 3): 'we can solve it along the same road as strongly convex case by adding a
# regularization term mu/2 ||w||^2 (where mu = sqrt(2) L^(1/2) (beta d)^(1/4)/(sqrt(n eps gamma) R))': the excess risk
# is at most mu R^2/2 plus the strongly convex bound at that mu (||w*|| <= R).
Rb = sp.Symbol("R")
A_PRINTED = L * sp.sqrt(beta * d) / (n * eps * gamma)          # the printed strongly convex order is A/mu
MU_REG = sp.sqrt(2) * sp.sqrt(L) * (beta * d) ** sp.Rational(1, 4) / (sp.sqrt(n * eps * gamma) * Rb)
REG_PRINTED = Rb * sp.sqrt(L) * (beta * d) ** sp.Rational(1, 4) / sp.sqrt(n * eps * gamma)
A_CORRECTED = L**2 * sp.sqrt(beta * d) / (n * eps * gamma)     # the corrected order is A'/mu^(3/2)
MU_REG_CORRECTED = (3 * A_CORRECTED / Rb**2) ** sp.Rational(2, 5)
REG_CORRECTED = Rb ** sp.Rational(6, 5) * A_CORRECTED ** sp.Rational(2, 5)
_REG_DOMAIN = Domain(beta=BETA, L=LIP, mu=MU, R=RADIUS, n=Real(ge=1, search=(1e2, 1e8), log=True),
                     d=Real(ge=1, search=(1.0, 100.0)), epsilon=Real(gt=0, le=1, search=(0.1, 1.0), log=True), gam=_GAMMA)
SEC_3_1_CONVEX_REGULARIZED = Claim(
    id="erm/sec-3.1-convex-regularized",
    source=_src("Section 3.1", None,
                "after Theorem 3: 'As for generalization property for general convex loss, we can solve it along the same "
                "road as strongly convex case by adding a regularization term (mu/2)||w||_2^2 (where mu = sqrt(2) "
                "L^(1/2) (beta d)^(1/4)/(sqrt(n eps gamma) R)). Therefore, in convex case, we can obtain: with "
                "probability at least 1 - gamma, ExcessRisk(w_priv) <= O~(R L^(1/2) (beta d)^(1/4)/sqrt(n eps "
                "gamma))' [excess risk <= mu R^2/2 + the strongly convex order at mu]"),
    kind="rate",
    summary=("Regularising with the printed mu, mu R^2/2 + (strongly convex order at mu) is O~(R L^(1/2) (beta d)^(1/4)/"
             "sqrt(n eps gamma)) (the printed mu minimises it for the printed order A/mu)."),
    domain=_REG_DOMAIN,
    statements=(
        Identity("with the printed strongly convex order A/mu: mu R^2/2 + A/mu at the printed mu = sqrt(2) x the printed "
                 "rate", lhs=(mu * Rb**2 / 2 + A_PRINTED / mu).subs(mu, MU_REG), rhs=sp.sqrt(2) * REG_PRINTED),
        Rate("with the strongly convex bound [21] and Theorem 2 give (order A'/mu^(3/2), erm/sec-3.1-excess-risk-"
             "corrected): mu R^2/2 + A'/mu^(3/2) at the printed mu is O(R L^(1/2) (beta d)^(1/4)/sqrt(n eps gamma))",
             expr=(mu * Rb**2 / 2 + A_CORRECTED / mu ** sp.Rational(3, 2)).subs(mu, MU_REG), rate=REG_PRINTED, kind="O",
             paths=(LimitPath("L", "inf", tied=_scale_loss("beta"), label="the loss multiplied by c: L, beta x c"),)),
    ),
    expected="violated",
    reason=("the printed rate inherits the strongly convex order's units (loss^(3/4) here): with the order [21] and "
            "Theorem 2 give, A'/mu^(3/2), the regularised bound at the printed mu grows as c^(11/8) when the loss is "
            "multiplied by c, the printed rate as c^(3/4) (and Algorithm 1's own noise, Delta ~ L/(n mu) ~ c^(1/4), "
            "costs ~ L |z| ~ c^(5/4) on a Huber loss)"),
    witness={"beta": 1.0, "L": 1.0, "mu": 1.0, "R": 1.0, "n": 1e4, "d": 10.0, "epsilon": 1.0, "gam": 0.05},
    error_in="statement", statement_survives=False,
)
SEC_3_1_CONVEX_REGULARIZED_CORRECTED = SEC_3_1_CONVEX_REGULARIZED.corrected(
    summary=("With the strongly convex order A'/mu^(3/2), A' = L^2 sqrt(beta d)/(n eps gamma): mu = (3A'/R^2)^(2/5) "
             "minimises mu R^2/2 + A'/mu^(3/2), whose value (5/6) 3^(2/5) R^(6/5) A'^(2/5) is O~(R^(6/5) L^(4/5) "
             "(beta d)^(1/5)/(n eps gamma)^(2/5))."),
    statements=(
        Identity("mu R^2/2 + A'/mu^(3/2) at mu = (3A'/R^2)^(2/5) equals (5/6) 3^(2/5) R^(6/5) A'^(2/5)",
                 lhs=(mu * Rb**2 / 2 + A_CORRECTED / mu ** sp.Rational(3, 2)).subs(mu, MU_REG_CORRECTED),
                 rhs=sp.Rational(5, 6) * 3 ** sp.Rational(2, 5) * REG_CORRECTED),
        Inequality("mu = (3A'/R^2)^(2/5) minimises mu R^2/2 + A'/mu^(3/2)",
                   lhs=(mu * Rb**2 / 2 + A_CORRECTED / mu ** sp.Rational(3, 2)).subs(mu, MU_REG_CORRECTED),
                   rhs=mu * Rb**2 / 2 + A_CORRECTED / mu ** sp.Rational(3, 2)),
    ),
)

# "when d is smaller than n, then both bounds are below the typical Theta~(n^(-1/2)) generalization error": ours
# (Theorem 3, constants dropped) and Bassily et al.'s, which the paper gives as Theorem 5's convex order ("this
# algorithm also achieve same utility bound with [1]").
OURS_CVX_A = (d / (n * eps)) ** sp.Rational(2, 3)
OURS_CVX_B = (sp.sqrt(d * sp.log(1 / delta)) / (n * eps)) ** sp.Rational(2, 3)
BASSILY_CVX_B = sp.sqrt(d * sp.log(n / delta) * sp.log(1 / delta)) / (n * eps)
N_HALF = 1 / sp.sqrt(n)
_D_LT_N = LimitPath("n", "inf", tied={"d": d * n / LimitPath.start("n")}, label="d < n, d/n fixed")
_BELOW_DOMAIN = Domain(Relation(sp.Lt(d, n), "d smaller than n"), n=Real(ge=2, search=(1e2, 1e5), log=True),
                       d=Real(ge=1, search=(1.0, 50.0), log=True), epsilon=Real(gt=0, le=1, search=(0.1, 1.0), log=True),
                       delta=Real(gt=0, lt=1, search=(1e-8, 1e-2), log=True))
_BELOW_FIXED = (
    Limit("d fixed: (ours eps-DP / n^(-1/2))^6 -> 0 (the sixth power: same limit, resolved by the sweep)",
          expr=(OURS_CVX_A / N_HALF) ** 6, value=sp.Integer(0), path=LimitPath("n", "inf")),
    Limit("d fixed: (ours (eps, delta)-DP / n^(-1/2))^6 -> 0", expr=(OURS_CVX_B / N_HALF) ** 6, value=sp.Integer(0),
          path=LimitPath("n", "inf")),
    Limit("d fixed: (Bassily et al.'s / n^(-1/2))^2 -> 0", expr=(BASSILY_CVX_B / N_HALF) ** 2, value=sp.Integer(0),
          path=LimitPath("n", "inf")),
)
SEC_3_1_BELOW_GENERALIZATION = Claim(
    id="erm/sec-3.1-below-generalization",
    source=_src("Section 3.1", None,
                "after Theorem 3: 'Though the utility guarantee is weaker than Bassily et al. [1] in general convex case "
                "by a factor of O(1/n^(1/3)), but when d is smaller than n, then both bounds are below the typical "
                "Theta~(n^(-1/2)) generalization error in learning theory' [ours: Theorem 3's (d/(n eps))^(2/3) and "
                "(sqrt(d log(1/delta))/(n eps))^(2/3); Bassily et al.'s: Theorem 5's convex sqrt(d log(n/delta) "
                "log(1/delta))/(n eps), which 'achieve[s] same utility bound with [1]'; two readings of 'd smaller than "
                "n': d fixed as n grows, and d < n with d/n fixed]"),
    kind="limit",
    summary="With d smaller than n, Theorem 3's and Bassily et al.'s convex utility orders are O~(n^(-1/2)).",
    domain=_BELOW_DOMAIN,
    statements=_BELOW_FIXED + (
        Rate("d < n with d/n fixed: Bassily et al.'s is O~(n^(-1/2)) (log(n/delta) is the ignored log factor)",
             expr=BASSILY_CVX_B / sp.sqrt(sp.log(n / delta)), rate=N_HALF, kind="O", paths=(_D_LT_N,)),
        Rate("d < n with d/n fixed: ours (eps-DP) is O(n^(-1/2))", expr=OURS_CVX_A, rate=N_HALF, kind="O",
             paths=(_D_LT_N,)),
        Rate("d < n with d/n fixed: ours ((eps, delta)-DP) is O~(n^(-1/2))", expr=OURS_CVX_B, rate=N_HALF, kind="O",
             paths=(_D_LT_N,)),
    ),
    expected="violated",
    reason=("with d < n but d/n fixed (n = Theta(d)) Theorem 3's (d/(n eps))^(2/3) is a constant, not below n^(-1/2) "
            "(ratio ~ n^(1/2)); it is below n^(-1/2) exactly when d <= eps n^(1/4) (eps-DP), d log(1/delta) <= eps^2 "
            "n^(1/2) ((eps, delta)-DP)"),
    witness={"n": 1e3, "d": 500.0, "epsilon": 1.0, "delta": 1e-5},
    error_in="statement", statement_survives=False,
)
SEC_3_1_BELOW_GENERALIZATION_CORRECTED = SEC_3_1_BELOW_GENERALIZATION.corrected(
    summary=("Both orders are O~(n^(-1/2)) for d fixed; Theorem 3's are at most n^(-1/2) exactly when d <= eps n^(1/4) "
             "(eps-DP) and d log(1/delta) <= eps^2 n^(1/2) ((eps, delta)-DP)."),
    domain=Domain(Relation(sp.Le(d, eps * n ** sp.Rational(1, 4)), "d <= eps n^(1/4)"),
                  Relation(sp.Le(d * sp.log(1 / delta), eps**2 * sp.sqrt(n)), "d log(1/delta) <= eps^2 n^(1/2)"),
                  *_BELOW_DOMAIN.relations, **_BELOW_DOMAIN.params),
    statements=_BELOW_FIXED + (
        Inequality("ours (eps-DP) <= n^(-1/2) when d <= eps n^(1/4)", lhs=OURS_CVX_A, rhs=N_HALF),
        Inequality("ours ((eps, delta)-DP) <= n^(-1/2) when d log(1/delta) <= eps^2 n^(1/2)", lhs=OURS_CVX_B, rhs=N_HALF),
    ),
)

# Footnote 2 (on the 1/gamma of the strongly convex excess risk): 'Note 1/gamma dependence on failure probability gamma
# can be improved to log(1/gamma) by boosting the confidence method used in [20]'.
_K_BOOST = sp.log(1 / gamma, 2)                                 # runs, each failing with probability at most 1/2
BOOSTED = L * sp.sqrt(beta * d) / ((n / _K_BOOST) * eps * mu * sp.Rational(1, 2))  # the printed order at (n/k, 1/2)
FOOTNOTE_2 = Claim(
    id="erm/footnote-2",
    source=_src("Section 3.1", "footnote 2",
                "'Note 1/gamma dependence on failure probability gamma can be improved to log(1/gamma) by boosting the "
                "confidence method used in [20]' [read: k = log2(1/gamma) independent runs, each on n/k of the samples "
                "(parallel composition keeps eps) at failure probability 1/2, all fail with probability 2^-k <= "
                "gamma; each run's bound is the printed order at (n/k, gamma = 1/2); the selection of the best run on "
                "held-out data is not modelled]"),
    kind="rate",
    summary=("Boosting the confidence: ceil(log2(1/gamma)) runs at failure probability 1/2 fail together with probability "
             "<= gamma, and the bound of a run on n/k samples is O(log(1/gamma)) in gamma, not O(1/gamma)."),
    domain=Domain(gam=Real(gt=0, le=0.5, search=(1e-12, 0.5), log=True), beta=BETA, mu=MU, L=LIP,
                  n=Real(ge=1, search=(1e2, 1e6), log=True), d=Real(ge=1, search=(1.0, 100.0)), epsilon=EPS),
    statements=(
        Inequality("all of ceil(log2(1/gamma)) runs fail with probability 2^-ceil(log2(1/gamma)) <= gamma",
                   lhs=sp.Rational(1, 2) ** sp.ceiling(_K_BOOST), rhs=gamma),
        Rate("a run on n/k samples at gamma = 1/2, k = log2(1/gamma): 2k L sqrt(beta d)/(n eps mu) = Theta(L sqrt(beta d) "
             "log(1/gamma)/(n eps mu)) as gamma -> 0", expr=BOOSTED,
             rate=L * sp.sqrt(beta * d) * sp.log(1 / gamma) / (n * eps * mu), paths=(LimitPath("gam", "0+"),)),
        Limit("the boosted bound over the printed one at gamma -> 0", expr=BOOSTED / GEN_PRINTED,
              value=sp.Integer(0), path=LimitPath("gam", "0+")),
    ),
)
