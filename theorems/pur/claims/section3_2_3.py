"""Claims of [pur], Sections 3.2 (Privacy cost) and 3.3 (Data-dependent selection): eq. (4), Lemma 1, Propositions 1
and 2."""
from __future__ import annotations

import math

import sympy as sp

from dpverify.scenarios import MCPoint, PointScenario, adaptive_gd, gaussian_mechanism, worst_case
from dpverify.scenarios import measured_sensitivity
from dpverify.claims import (Claim, Domain, ExpectationBound, Identity, Inequality, Limit, LimitPath, Real, Relation,
                           Reading, SupBound)

from .. import proofs
from .common import (COSINE, Delta0, G1, L, M, N, PROVED, PUR_RULE, P_D, P_DELTA, P_DELTA0, P_ETA, P_GRAD, P_L, P_M,
                     P_MU, P_N, P_R, P_SIGMA, P_T, R, R_C, Rp, T, _kappa_rel, _small_logistic, _src, c, d, delta, eta,
                     gn, k, kappa, mu, sigma, u0)

# ============================================================================= Section 3.2
C_PRIV = sp.sqrt(2 * sp.log(sp.Rational(5, 4) / delta)) * 2 * L / N
EQ_4 = Claim(
    id="pur/eq-4",
    source=_src("Section 3.2", "(4)",
                "'If the example-level loss f(.; x_n) is L-Lipschitz for all x_n, then ... the full gradient grad F of "
                "the empirical risk has sensitivity 2L/N. Therefore ... theta_{t+1} computed via Equation 2 from theta_t "
                "preserves (eps, delta)-DP for any sigma_t > sqrt(2 log(1.25/delta)) 2L/(N eps), eps < 1'; P(sigma_t) = "
                "c/sigma_t with c = sqrt(2 log(1.25 delta^-1)) 2L/N (the constraint eps < 1 is kept: the text drops it "
                "only 'while we develop a suitable heuristic')"),
    kind="privacy bound",
    summary="grad F has sensitivity 2L/N, and one step of (2) is (P(sigma), delta)-DP, P(sigma) = c/sigma, when c/sigma < 1.",
    domain=Domain(Relation(sp.Lt(C_PRIV / sigma, 1), "P(sigma) = c/sigma < 1"),
                  L=P_L, N=P_N, sigma=P_SIGMA, delta=P_DELTA),
    statements=(
        SupBound("sensitivity of grad F (replace-one), measured on a worst neighbour pair <= 2L/N",
                 bound=sp.Integer(1), kind="sensitivity",
                 scenario=PointScenario(lambda p: measured_sensitivity(p["L"], p["N"], "replace") * p["N"] / (2 * p["L"]),
                                        "linear per-sample losses with ||x_n|| <= L, x_1 replaced by -x_1 (ratio to 2L/N)",
                                        optimise=0)),
        SupBound("exact delta of one step at eps = P(sigma) <= delta", bound=delta, kind="privacy",
                 scenario=gaussian_mechanism(sensitivity=2 * L / N, noise_std=sigma, eps=C_PRIV / sigma,
                                             measure="delta_at_eps")),
    ),
)

# ============================================================================= Section 3.3
U_FUN = (eta - M * eta**2 / 2) * gn**2 - M * eta**2 * d * sigma**2 / 2       # the utility of Lemma 1
LEMMA_1 = Claim(
    id="pur/lemma-1",
    source=_src("Lemma 1", "(5)",
                "E[F(theta_t) - F(theta_{t+1}) | theta_t, sigma_t] >= (eta_t - M eta_t^2/2) ||grad F(theta_t)||^2 - "
                "(M/2) eta_t^2 d sigma_t^2, F M-smooth (any eta_t > 0, sigma_t >= 0)"),
    kind="expectation bound",
    summary="Descent lemma (5) for one step of (2) on an M-smooth F.",
    domain=Domain(M=P_M, eta=P_ETA, sigma=Real(ge=0, search=(0.0, 10.0), units=(1, -1)), d=P_D, G1=P_GRAD),
    statements=(
        ExpectationBound(
            "E F(theta_{t+1}) - F(theta_t) <= -(eta - M eta^2/2) ||grad F||^2 + (M/2) eta^2 d sigma^2",
            bound=-(eta - M * eta**2 / 2) * G1**2 + M * eta**2 * d * sigma**2 / 2,
            scenario=adaptive_gd(problem="smooth", statistic="increase", smooth=M, step=eta, noise_std=sigma, dim=d,
                                 horizon=1, init_grad=G1,
                                 mc=(MCPoint("quadratic"),
                                     MCPoint(COSINE, {"sigma": 0.5}, then=lambda p: {"eta": 0.9 / p["M"]}),
                                     MCPoint(_small_logistic(0.05), {"sigma": 0.2},
                                             then=lambda p: {"eta": 1.5 / p["M"]})))),
    ),
)

PUR = (c / sigma) / U_FUN
PUR_STAR = 4 * M * c * sp.sqrt(d) / gn**3
ETA_12 = 1 / (M * (1 + d * sigma**2 / gn**2))
_PUR_PARAMS = dict(M=P_M, d=P_D, gn=P_GRAD, c=Real(gt=0, search=(1e-2, 1e2), log=True, units=(1, -1)),
                   sigma=P_SIGMA, eta=P_ETA)
PROP_1 = Claim(
    id="pur/prop-1",
    source=_src("Proposition 1", "(6), (3)",
                "'The privacy-utility ratio PUR(sigma_t, eta_t) is minimized by sigma_t = ||grad F(theta_t)||/sqrt(d) "
                "and eta_t = 1/(2M)', PUR = P(sigma)/U(sigma, eta), P = c/sigma (4), U = (eta - M eta^2/2)||grad F||^2 "
                "- (M/2) eta^2 d sigma^2 (Lemma 1); over sigma > 0, eta > 0 as printed"),
    kind="minimiser",
    summary="PUR(sigma, eta) = P(sigma)/U(sigma, eta) is minimised (over sigma, eta > 0) by sigma = ||grad F||/sqrt(d), eta = 1/(2M).",
    domain=Domain(**_PUR_PARAMS),
    statements=(
        Inequality("PUR(||grad F||/sqrt(d), 1/(2M)) <= PUR(sigma, eta) for every sigma, eta > 0",
                   lhs=PUR.subs({sigma: gn / sp.sqrt(d), eta: 1 / (2 * M)}), rhs=PUR, skip=("symbolic",)),
        Inequality("PUR* U(sigma, eta) <= P(sigma) for every sigma, eta > 0 (= PUR* <= PUR wherever U > 0; PUR* = "
                   "PUR(||grad F||/sqrt(d), 1/(2M)) = 4Mc sqrt(d)/||grad F||^3)", lhs=PUR_STAR * U_FUN, rhs=c / sigma,
                   trivial=sp.Le(U_FUN, 0), reading="over U > 0"),
    ),
    readings=(Reading("over U > 0", "holds", replaces=("PUR(||grad F||/sqrt(d), 1/(2M)) <= PUR(sigma, eta) for every "
                                                       "sigma, eta > 0",),
                      summary=("minimised over the (sigma, eta) with a positive utility U (the range where PUR is a "
                               "privacy-per-utility ratio and the proof's 'maximise U first' is valid)")),),
    expected="violated",
    reason=("PUR = P/U is negative wherever the utility U < 0 (e.g. every eta >= 2/M) and tends to -infinity as U -> 0-, "
            "so it has no minimum over sigma, eta > 0; (6) minimises it over the (sigma, eta) with U > 0, where the "
            "proof's 'maximise U first' is valid"),
    witness={"M": 1.0, "d": 1, "gn": 1.0, "c": 1.0, "sigma": 1.0, "eta": 2.0},
    error_in="statement", statement_survives=False,
)
_U_POS = Relation(sp.Gt(U_FUN, 0), "U(sigma, eta) > 0 (a positive expected improvement)")
PROP_1_CORRECTED = PROP_1.corrected(
    summary=("Over the (sigma, eta) with U > 0, PUR is minimised by (6), with minimum 4 M c sqrt(d)/||grad F||^3: "
             "max over eta by (12), then min over sigma of 2Mc(g^-2 sigma^-1 + d g^-4 sigma)."),
    domain=Domain(_U_POS, **_PUR_PARAMS),
    statements=(
        Inequality("PUR(||grad F||/sqrt(d), 1/(2M)) <= PUR(sigma, eta) whenever U(sigma, eta) > 0",
                   lhs=PUR.subs({sigma: gn / sp.sqrt(d), eta: 1 / (2 * M)}), rhs=PUR, skip=("symbolic",)),
        Identity("the minimum is 4 M c sqrt(d)/||grad F||^3", lhs=PUR.subs({sigma: gn / sp.sqrt(d), eta: 1 / (2 * M)}),
                 rhs=PUR_STAR, skip=PROVED),
        Identity("step 2 (the proof's form): PUR(sigma, eta of (12)) = 2 M c (g^-2 sigma^-1 + d g^-4 sigma)",
                 lhs=PUR.subs(eta, ETA_12), rhs=2 * M * c * (gn**-2 / sigma + d * gn**-4 * sigma), skip=PROVED),
        Inequality("step 3, second order: d^2/dsigma^2 (g^-2 sigma^-1 + d g^-4 sigma) = 2 g^-2 sigma^-3 > 0",
                   lhs=sp.Integer(0), rhs=sp.diff(gn**-2 / sigma + d * gn**-4 * sigma, sigma, 2), strict=True, skip=PROVED),
        Identity("step 3 (min over sigma): d/dsigma (g^-2 sigma^-1 + d g^-4 sigma) = 0 at g/sqrt(d)",
                 lhs=sp.diff(gn**-2 / sigma + d * gn**-4 * sigma, sigma).subs(sigma, gn / sp.sqrt(d)), rhs=sp.Integer(0), skip=PROVED),
        Identity("(12) at sigma = g/sqrt(d) is 1/(2M)", lhs=ETA_12.subs(sigma, gn / sp.sqrt(d)), rhs=1 / (2 * M), skip=PROVED),
    ),
)

EQ_12 = Claim(
    id="pur/eq-12",
    source=_src("Proposition 1", "(12)",
                "proof of Proposition 1: 'we can first maximize U with respect to eta_t, which is attained by eta_t = "
                "1/(M(1 + d sigma_t^2/||grad F(theta_t)||^2))'; Section 3.3: 'When the noise standard deviation is "
                "proportional to the gradient norm, the signal-to-noise ratio is constant and therefore the optimal "
                "step size is constant'"),
    kind="minimiser",
    summary="U(sigma, .) is concave and maximised by eta = 1/(M(1 + d sigma^2/||grad F||^2)) (12); constant when sigma = k ||grad F||.",
    domain=Domain(M=P_M, d=P_D, gn=P_GRAD, sigma=P_SIGMA, eta=P_ETA,
                  k=Real(gt=0, search=(1e-2, 1e2), log=True)),
    statements=(
        Identity("dU/deta = 0 at (12)", lhs=sp.diff(U_FUN, eta).subs(eta, ETA_12), rhs=sp.Integer(0), skip=PROVED),
        Inequality("d^2U/deta^2 = -M(||grad F||^2 + d sigma^2) < 0", lhs=sp.diff(U_FUN, eta, 2), rhs=sp.Integer(0),
                   strict=True, skip=PROVED),
        Inequality("U(sigma, eta) <= U(sigma, eta of (12)) for every eta", lhs=U_FUN, rhs=U_FUN.subs(eta, ETA_12), skip=PROVED),
        Identity("sigma = k ||grad F||: the step (12) is 1/(M(1 + d k^2)), free of the gradient",
                 lhs=ETA_12.subs(sigma, k * gn), rhs=1 / (M * (1 + d * k**2)), skip=PROVED),
    ),
    expected="verified",
)

# ----------------------------------------------------------------------------- Proposition 2
_MC_SMOOTH = (MCPoint("quadratic"), MCPoint(COSINE, {"T": 25}), MCPoint(_small_logistic(0.05), {"T": 10}))
PROP_2A = Claim(
    id="pur/prop-2a",
    source=_src("Proposition 2", "(7), (13)",
                "(a) for (possibly) non-convex F, E[(1/T) sum_{t=1}^T ||grad F(theta_t)||^2] <= 4M(F(theta_0) - F*)/T, "
                "eta_t = 1/(2M), sigma_t = ||grad F(theta_t)||/sqrt(d) (oracle gradient norm); proof (13): one step "
                "gives E[F(theta_t) - F(theta_{t+1})] >= ||grad F||^2/(4M)"),
    kind="expectation bound",
    summary="Data-dependent schedule (6), non-convex F: E (1/T) sum_{t=1}^T ||grad F(theta_t)||^2 <= 4M(F(theta_0) - F*)/T.",
    domain=Domain(M=P_M, d=P_D, T=P_T, Delta0=P_DELTA0, gn=P_GRAD),
    statements=(
        Identity("(13): U(||grad F||/sqrt(d), 1/(2M)) = ||grad F||^2/(4M)",
                 lhs=U_FUN.subs({sigma: gn / sp.sqrt(d), eta: 1 / (2 * M)}), rhs=gn**2 / (4 * M), skip=PROVED),
        ExpectationBound("(7)", bound=4 * M * Delta0 / T,
                         scenario=adaptive_gd(problem="smooth", statistic="avg_grad_norm_sq", average="after",
                                              smooth=M, dim=d, horizon=T, init_gap=Delta0, mc=_MC_SMOOTH,
                                              **PUR_RULE)),
    ),
)
P_U0 = Real(gt=0, le=1, search=(1e-2, 1.0), log=True)        # ||theta_0 - theta*|| = u0 R, 0 < u0 <= 1
P_RP = Real(gt=0, search=(1e2, 1e3), log=True, units=(0, 1))  # above R's search box: R' >= R always holds there
_CONVEX_PARAMS = dict(M=P_M, d=P_D, T=P_T, R=P_R, u0=P_U0, Rp=P_RP)
R0 = u0 * R                     # ||theta_0 - theta*||
_RP_REL = Relation(sp.Ge(Rp, R), "R' >= R (a radius for which (15) holds, Monte Carlo points)")
R15 = sp.Symbol("R15")          # observable: the smallest radius of (15) along the path (exact route)
RBAR, RBAR_MC = sp.Max(R, R15), sp.Max(R, Rp)
_ITERATE_NOTE = ("; the hypothesis ||theta_t - theta*|| <= R cannot hold for (2) (pur/claim-iterate-radius); the proof "
                 "uses it only through (15) E||grad F(theta_t)||^2 >= E[F(theta_t) - F*]^2/R^2 (Cauchy-Schwarz, Jensen), so "
                 "the bound is checked at R-bar = max(R, R15), R15 the smallest radius of (15) along the path (exact: "
                 "measured; Monte Carlo: R' from an independent pilot run, +20%), with ||theta_0 - theta*|| = u0 R <= R")
_LOG_CONVEX = _small_logistic(0.02)


def _pilot(spec, rule_of):
    """MCPoint ``then``: R' = 1.2 max(R, pilot estimate of R15) for the schedule ``rule_of(point)``."""
    def then(p):
        return {"Rp": 1.2 * max(p["R"], proofs.pilot_radius(spec, rule_of(p), p["T"]))}
    return then


def _pur_rule(p):
    return lambda tt, gg: (1 / (2 * p["M"]), gg / math.sqrt(p["d"]))


def _rule_3b(p):
    return lambda tt, gg: (1 / (2 * p["M"]), 4 * p["M"] * p["R"] / (math.sqrt(p["d"]) * tt))


def _then_r0(rule_of):
    """MCPoint ``then``: R' from a pilot run (R = the measured ||theta_0 - theta*|| / u0)."""
    return _pilot(_LOG_CONVEX, rule_of)


def _convex_statements(name, bound_of, schedule, mc_then, extra_mc=None):
    """The exact statement (at R-bar = max(R, R15)) and the Monte Carlo one (at max(R, R'))."""
    kw = dict(problem="convex", statistic="excess", smooth=M, dim=d, horizon=T, init_dist=R0, **schedule)
    mc_params = {"T": 10, "u0": 1.0, **(extra_mc or {})}
    return (
        ExpectationBound(f"{name} (exact, at R-bar = max(R, R15))", bound=bound_of(RBAR),
                         scenario=adaptive_gd(observe={"R15": "proof_radius"}, **kw)),
        ExpectationBound(f"{name} (Monte Carlo on logistic regression, at max(R, R'))", bound=bound_of(RBAR_MC),
                         scenario=adaptive_gd(mc=(MCPoint(_LOG_CONVEX, mc_params, then=mc_then),), **kw),
                         skip=("exact",)),
    )


PROP_2B = Claim(
    id="pur/prop-2b",
    source=_src("Proposition 2", "(8), (14), (15)",
                "(b) if F is convex and the iterates satisfy ||theta_t - theta*|| <= R, E[F(theta_T) - F*] <= 4MR^2/T"
                + _ITERATE_NOTE),
    kind="expectation bound",
    summary="Data-dependent schedule (6), convex F: E[F(theta_T) - F*] <= 4MR^2/T.",
    domain=Domain(_RP_REL, **_CONVEX_PARAMS),
    statements=_convex_statements("(8)", lambda Rb: 4 * M * Rb**2 / T, PUR_RULE, _then_r0(_pur_rule)),
)
_MC_STRONG = (MCPoint("quadratic", {"M": 1.0, "mu": 0.2, "d": 3, "T": 12, "Delta0": 1.0}),
              MCPoint(_small_logistic(0.1), {"T": 10}))
_STRONG_PARAMS = dict(M=P_M, mu=P_MU, d=P_D, T=P_T, Delta0=P_DELTA0)
PROP_2C = Claim(
    id="pur/prop-2c",
    source=_src("Proposition 2", "(9)",
                "(c) if F is mu-strongly convex, E[F(theta_T) - F*] <= (1 - mu/(2M))^T (F(theta_0) - F*)"),
    kind="expectation bound",
    summary="Data-dependent schedule (6), mu-strongly convex F: E[F(theta_T) - F*] <= (1 - mu/(2M))^T (F(theta_0) - F*).",
    domain=Domain(_kappa_rel(), **_STRONG_PARAMS),
    statements=(
        ExpectationBound("(9)", bound=R_C**T * Delta0,
                         scenario=adaptive_gd(problem="strongly_convex", statistic="excess", smooth=M, curvature=mu,
                                              dim=d, horizon=T, init_gap=Delta0, mc=_MC_STRONG, **PUR_RULE)),
    ),
)

TWICE = Claim(
    id="pur/claim-twice-iterations",
    source=_src("Section 3.3", None,
                "after Proposition 2: 'For strongly convex losses, it is O(r^t) where r = 1 - mu/M in the non-private "
                "case and r = 1 - mu/(2M) in the private case, meaning that the private version only needs "
                "approximately twice as many iterations ... because log(1 - mu/M) ~ 2 log(1 - mu/(2M)), unless M/mu is "
                "very small' (non-private: GD with eta = 1/M)"),
    kind="limit",
    summary=("Non-private GD (eta = 1/M) contracts F - F* by 1 - mu/M; log(1 - 1/kappa)/log(1 - 1/(2kappa)) >= 2 "
             "and -> 2 as kappa -> infinity."),
    domain=Domain(_kappa_rel(), kappa=Real(gt=1, search=(1.001, 1e4), log=True), **_STRONG_PARAMS),
    statements=(
        ExpectationBound("non-private GD, eta = 1/M: F(theta_T) - F* <= (1 - mu/M)^T (F(theta_0) - F*)",
                         bound=(1 - mu / M) ** T * Delta0,
                         scenario=adaptive_gd(problem="strongly_convex", statistic="excess", smooth=M, curvature=mu,
                                              step=1 / M, noise_std=0, dim=d, horizon=T, init_gap=Delta0,
                                              mc=(MCPoint(_small_logistic(0.1), {"T": 15}),))),
        # the contraction per step over the whole class (one step: (1 - mu/M)^T is below the SDP's error ~1e-9 Delta0
        # once mu is near M and T is several steps)
        SupBound("one step over every M-smooth mu-strongly convex F (not only quadratics): F(theta_1) - F* <= "
                 "(1 - mu/M)(F(theta_0) - F*)", bound=(1 - mu / M) * Delta0, kind="performance",
                 scenario=worst_case(method="gd", function_class="smooth_strongly_convex", statistic="excess", smooth=M,
                                     curvature=mu, step=1 / M, horizon=1, init_gap=Delta0)),
        Inequality("log(1 - 1/kappa) / log(1 - 1/(2 kappa)) >= 2 (at least twice as many iterations)",
                   lhs=sp.Integer(2), rhs=sp.log(1 - 1 / kappa) / sp.log(1 - 1 / (2 * kappa))),
        Limit("log(1 - 1/kappa) / log(1 - 1/(2 kappa)) -> 2 as kappa -> infinity",
              expr=sp.log(1 - 1 / kappa) / sp.log(1 - 1 / (2 * kappa)), value=sp.Integer(2),
              path=LimitPath("kappa", "inf")),
    ),
)
