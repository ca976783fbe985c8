"""Claims of [erm], Appendix A: Lemmas 5-12."""
from __future__ import annotations

import sympy as sp

from dpverify.scenarios import PointScenario, noisy_gd, random_round_sgd, subsampled_dp, worst_case
from dpverify.claims import Claim, Domain, ExpectationBound, Identity, Inequality, Int, Real, Relation, SupBound

from .. import proofs
from .common import BETA, Delta0, ETA, MU, R0, T, _src, alpha, beta, d, delta, delta_p, eps, eta, mu, r_, sigma
from .section3_2 import D_F

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
        SupBound("over every mu-strongly convex beta-smooth F (not only quadratics): the same bound",
                 bound=beta / 2 * sp.exp(-2 * eta * mu * beta * T / (mu + beta)) * R0**2, kind="performance",
                 scenario=worst_case(method="gd", function_class="smooth_strongly_convex", statistic="excess",
                                     smooth=beta, curvature=mu, step=eta, horizon=T, init_dist=R0)),
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
        SupBound("over every convex beta-smooth F (not only quadratics): F(w_T) - F* <= 2 beta R0^2/T",
                 bound=2 * beta * R0**2 / T, kind="performance",
                 scenario=worst_case(method="gd", function_class="smooth_convex", statistic="excess", smooth=beta,
                                     step=1 / beta, horizon=T, init_dist=R0)),
    ),
)

# ============================================================================= Lemmas 9, 10 (Appendix A.4)
#: the canonical (eps, delta)-DP pair behind a uniformly random alpha n subsample: exact eps' at delta' = alpha delta
AMPLIFICATION = subsampled_dp(eps=eps, delta=delta, sampling=alpha, target_delta=alpha * delta)
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
                 bound=2 * alpha * eps, kind="privacy", scenario=AMPLIFICATION),
    ),
    expected="violated",
    reason=("the tight amplified eps is ln(1 + alpha(e^eps - 1)), below 2 alpha eps only for eps <~ 1 (Beimel et al. "
            "state it for eps <= 1): at eps = 10, alpha = 0.01 an eps-DP algorithm subsampled is ln(1 + 0.01 (e^10 - 1)) "
            "= 5.40-DP at best, not 0.2-DP"),
    witness={"epsilon": 10.0, "delta": 0.0, "alpha": 0.01},
    error_in="statement", statement_survives=False,
)
LEMMA_9_CORRECTED = LEMMA_9.corrected(
    summary="For eps <= 1 the subsampled algorithm is (2 alpha eps, alpha delta)-DP; for every eps it is (ln(1 + alpha(e^eps - 1)), alpha delta)-DP (tight).",
    domain=_AMP_DOMAIN(Real(gt=0, le=1, search=(1e-3, 1.0), log=True)),
    statements=(
        SupBound("eps' at delta' = alpha delta <= 2 alpha eps (eps <= 1)", bound=2 * alpha * eps, kind="privacy",
                 scenario=AMPLIFICATION),
        Inequality("ln(1 + alpha(e^eps - 1)) <= 2 alpha eps (eps <= 1)", lhs=sp.log(1 + alpha * (sp.exp(eps) - 1)),
                   rhs=2 * alpha * eps),
        SupBound("eps' at delta' = alpha delta <= ln(1 + alpha(e^eps - 1)) (the tight bound, attained)",
                 bound=sp.log(1 + alpha * (sp.exp(eps) - 1)), kind="privacy", scenario=AMPLIFICATION),
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
# The noise-free part (sigma = 0) of Lemmas 11 and 12 over a whole class: GD with the random output round R,
# P(R = k) proportional to 2 eta_k - beta eta_k^2 (k = 0..T-1). Convex beta-smooth F with F(w_0) - F* <= Delta0 are a
# subclass of the lemmas' beta-smooth F with interpolation conditions (exact: refutes a gradient bound); the convex
# item is stated over the convex class itself (exact). Horizons T <= 3 are measured (16 points; an SDP of a 10-step
# random round costs ~1 s).


def _class_wide(name, bound, step, statistic):
    return SupBound(name, bound=bound, kind="performance",
                    scenario=worst_case(method="gd", function_class="smooth_convex", statistic=statistic, smooth=beta,
                                        step=step, horizon=T, max_horizon=3, samples=16,
                                        **({"init_dist": R0} if statistic == "random_round_excess"
                                           else {"init_gap": Delta0})))


_L11_NF_2 = _class_wide("2. noise-free part over every convex beta-smooth F: E_R F(w_R) - F* <= R0^2/(T(2 eta - beta "
                        "eta^2))", R0**2 / DEN_GL, eta, "random_round_excess")
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
        _class_wide("1. noise-free part over every convex beta-smooth F with F(w_0) - F* <= Delta0 (a subclass, exact): "
                    "E_R ||grad F(w_R)||^2 <= D_f^2/(T(2 eta - beta eta^2))", D_F**2 / DEN_GL, eta,
                    "random_round_grad_norm_sq"),
        _L11_NF_2,
    ),
    expected="violated",
    reason=("item 1 drops Ghadimi & Lan's factor: their Theorem 2.1 bounds (1/beta) E||grad F(w_R)||^2 (Theorem 5 here "
            "has the beta); without it the sides scale differently and the bound fails for beta > 1 (beta = 100, one "
            "noiseless step: 8100 > 526)"),
    witness={"beta": 100.0, "eta": 0.001, "T": 1, "d": 1, "sigma": 0.001, "Delta0": 50.0, "R0": 1.0},
    error_in="statement", statement_survives=False,
)
LEMMA_11_CORRECTED = LEMMA_11.corrected(
    summary="E||grad F(w_R)||^2 <= beta (D_f^2 + sigma^2 sum eta^2)/sum(2 eta - beta eta^2) (Theorem 5's form); item 2 as printed.",
    statements=(
        ExpectationBound("1. E||grad F(w_R)||^2 <= beta (D_f^2 + sigma^2 T eta^2)/(T(2 eta - beta eta^2))",
                         bound=beta * (D_F**2 + sigma**2 * SUM_ETA2) / DEN_GL, scenario=_GL_NC),
        ExpectationBound("2. convex: E F(w_R) - F* <= (R0^2 + sigma^2 T eta^2)/(T(2 eta - beta eta^2))",
                         bound=(R0**2 + sigma**2 * SUM_ETA2) / DEN_GL, scenario=_GL_CVX),
        _L11_NF_2,
    ),
)
ETA_12 = sp.Min(1 / beta, D_F / (sigma * sp.sqrt(T)))
_L12_DOMAIN = Domain(Relation(sp.Le(Delta0, beta * R0**2 / 2), "F(w_0) - F* <= beta ||w_0 - w_hat||^2/2 (convex, beta-smooth)"),
                     **{k_: v for k_, v in _GL_PARAMS.items() if k_ != "eta"})
_GL12 = dict(_GL, step=ETA_12)
_GL12_NC = random_round_sgd(statistic="grad_norm_sq", init_gap=Delta0, **_GL12)
_GL12_CVX = random_round_sgd(statistic="excess", init_dist=R0, init_gap=Delta0, **_GL12)
# sigma -> 0: eta = min{1/beta, D_f/(sigma sqrt(T))} = 1/beta, and both printed noise terms vanish
_L12_NF_2 = _class_wide("convex: noise-free part (sigma -> 0, eta = 1/beta) over every convex beta-smooth F: E_R F(w_R) - "
                        "F* <= beta R0^2/T", beta * R0**2 / T, 1 / beta, "random_round_excess")
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
        _class_wide("noise-free part (sigma -> 0, eta = 1/beta) over every convex beta-smooth F with F(w_0) - F* <= "
                    "Delta0 (a subclass, exact): E_R ||grad F(w_R)||^2 <= beta D_f^2/T", beta * D_F**2 / T, 1 / beta,
                    "random_round_grad_norm_sq"),
        _L12_NF_2,
    ),
    expected="violated",
    reason=("item 1 drops a beta from each term of Ghadimi & Lan's bound (L D_f^2/N + (D~ + D_f^2/D~) sigma/sqrt N on "
            "(1/L) E||grad f||^2); item 2 keeps the D_f step but quotes the bound of the D_X step: with D~ = D_f it is "
            "beta R0^2/T + (D_f + R0^2/D_f) sigma/sqrt T, and flat losses (D_f << R0) exceed the printed one"),
    witness={"beta": 1.0, "T": 10000, "d": 1, "sigma": 0.012, "Delta0": 0.00113, "R0": 1.0},
    error_in="statement", statement_survives=False,
)
LEMMA_12_CORRECTED = LEMMA_12.corrected(
    summary="E||grad F(w_R)||^2 <= beta^2 D_f^2/T + 2 beta D_f sigma/sqrt T; convex: E F(w_R) - F* <= beta R0^2/T + (D_f + R0^2/D_f) sigma/sqrt T.",
    statements=(
        ExpectationBound("E||grad F(w_R)||^2 <= beta^2 D_f^2/T + 2 beta D_f sigma/sqrt(T)",
                         bound=beta**2 * D_F**2 / T + 2 * beta * D_F * sigma / sp.sqrt(T), scenario=_GL12_NC),
        ExpectationBound("convex: E F(w_R) - F* <= beta R0^2/T + (D_f + R0^2/D_f) sigma/sqrt(T)",
                         bound=beta * R0**2 / T + (D_F + R0**2 / D_F) * sigma / sp.sqrt(T), scenario=_GL12_CVX),
        _L12_NF_2,
    ),
)
