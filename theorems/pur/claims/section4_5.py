"""Claims of [pur], Sections 4 (Experiments) and 5 (Discussion): the logistic constants, the iterate radius, the
oracle's leak."""
from __future__ import annotations

from dataclasses import replace

import sympy as sp

from dpverify.scenarios import MCPoint, adaptive_gd
from dpverify.claims import Choice, Claim, Domain, ExpectationBound, Int, Reading, Real, SupBound

from .. import proofs
from .common import M, PUR_RULE, P_D, P_GRAD, P_M, P_R, R, T, _src, d
from .section3_2_3 import P_U0, R0, _CONVEX_PARAMS, _LOG_CONVEX
from .section3_4 import BOUND_3B, _SCHEDULE_3B

# ============================================================================= Section 4
CONSTANTS = Claim(
    id="pur/claim-logistic-constants",
    source=_src("Section 4", None,
                "'The corresponding empirical risk F is convex, L-Lipschitz and M-smooth with L = lambda R + Z and M = "
                "lambda + Z^2/4, where R is an upper bound on ||theta_t - theta*||. If lambda > 0 then F is also "
                "lambda-strongly convex.' (Z = max_n ||z_n||; measured on the shipped data sets, standardised; L on the "
                "ball of radius R around theta*, around 0 when lambda = 0)"),
    kind="sensitivity bound",
    summary="Regularised logistic regression: F is (lambda R + Z)-Lipschitz, (lambda + Z^2/4)-smooth, lambda-strongly convex.",
    domain=Domain(dataset=Choice(("synthetic", "iris", "breast_cancer")),
                  lam=Choice((0.0, 0.1, 1.0)), R=Choice((0.3, 3.0))),
    statements=(
        SupBound("sup ||grad F|| over ||theta - theta*|| <= R, divided by lambda R + Z, <= 1", bound=sp.Integer(1),
                 scenario=proofs.LOGISTIC_LIPSCHITZ, kind="supremum"),
        SupBound("sup lambda_max(grad^2 F) / (lambda + Z^2/4) <= 1", bound=sp.Integer(1),
                 scenario=proofs.LOGISTIC_SMOOTHNESS, kind="supremum"),
        SupBound("lambda / min lambda_min(grad^2 F) <= 1 (lambda-strong convexity)", bound=sp.Integer(1),
                 scenario=proofs.LOGISTIC_CURVATURE, kind="supremum"),
        SupBound("replace-one sensitivity of grad F, times N, / 2(lambda R + Z) <= 1 (what (21) needs)",
                 bound=sp.Integer(1), scenario=proofs.LOGISTIC_SENSITIVITY, kind="sensitivity"),
    ),
)

# The conclusions of 2(b) and 3(b) with R bounding only the start (the corrected claim; the "assumption" reading).
_START_ONLY = (
    ExpectationBound("2(b): E[F(theta_T) - F*] <= 4MR^2/T with ||theta_0 - theta*|| <= R only",
                     bound=4 * M * R**2 / T,
                     scenario=adaptive_gd(problem="convex", statistic="excess", smooth=M, dim=d, horizon=T,
                                          init_dist=R0, mc=(MCPoint(_LOG_CONVEX, {"T": 10, "u0": 1.0}),),
                                          **PUR_RULE)),
    ExpectationBound("3(b): E[F(theta_T) - F*] <= 16MR^2/(3T) with ||theta_0 - theta*|| <= R only",
                     bound=BOUND_3B,
                     scenario=adaptive_gd(problem="convex", statistic="excess", smooth=M, dim=d, horizon=T,
                                          init_dist=R0, mc=(MCPoint(_LOG_CONVEX, {"T": 10, "u0": 1.0}),),
                                          **_SCHEDULE_3B)),
)
_RADIUS_DOMAIN = Domain(M=P_M, d=P_D, T=Int(ge=1, search=(1, 20)), R=P_R, u0=P_U0)
ITERATE_RADIUS = Claim(
    id="pur/claim-iterate-radius",
    source=_src("Section 4", None,
                "'... with L = lambda R + Z ..., where R is an upper bound on ||theta_t - theta*||' (the hypothesis of "
                "Propositions 2(b), 3(b), 4(b): 'the iterates satisfy ||theta_t - theta*|| <= R'); checked for the "
                "iterates of (2) with Proposition 3(b)'s schedule sigma_t = 4MR/(sqrt(d) t), ||theta_0 - theta*|| <= R"),
    kind="expectation bound",
    summary="R bounds ||theta_t - theta*|| along the iterates of (2) (with Proposition 3(b)'s schedule).",
    domain=_RADIUS_DOMAIN,
    statements=(
        ExpectationBound("P(max_{1 <= t <= T} ||theta_t - theta*|| > R) <= 0", bound=sp.Integer(0),
                         scenario=adaptive_gd(problem="convex", statistic="max_dist", exceeds=R, smooth=M, dim=d,
                                              horizon=T, init_dist=R0,
                                              mc=(MCPoint("quadratic", {"M": 1.0, "d": 2, "T": 5, "R": 1.0, "u0": 0.5}),
                                                  MCPoint(_LOG_CONVEX, {"T": 10, "u0": 1.0})),
                                              **_SCHEDULE_3B)),
        *(replace(s_, reading="an assumption") for s_ in _START_ONLY),
    ),
    readings=(Reading("an assumption", "holds",
                      replaces=("P(max_{1 <= t <= T} ||theta_t - theta*|| > R) <= 0",),
                      summary=("'R is an upper bound on ||theta_t - theta*||' is a hypothesis the propositions are "
                               "stated under, not a property of (2): read so, it asserts nothing about the iterates, "
                               "and the conclusions it serves (2(b), 3(b)) hold with R bounding ||theta_0 - theta*|| "
                               "only")),),
    expected="violated",
    reason=("Gaussian noise has full support, so no R bounds the iterates of (2); with 3(b)'s own schedule the first step "
            "alone moves theta by 2R in RMS (E||eta zeta_1||^2 = 4R^2): from ||theta_0 - theta*|| = R (M = 1, d = 1) "
            "P(||theta_1 - theta*|| > R) = 0.63; even the proofs' weaker (15) needs a radius above R (1.03 R)"),
    witness={"M": 1.0, "d": 1, "T": 1, "R": 1.0, "u0": 1.0},
    error_in="statement", statement_survives=False,
)
ITERATE_RADIUS_CORRECTED = ITERATE_RADIUS.corrected(
    summary=("No R bounds the iterates of (2), but the conclusions of 2(b) and 3(b) hold with R only bounding "
             "||theta_0 - theta*|| (exact on convex quadratics, Monte Carlo on logistic regression; not proved)."),
    domain=Domain(**{k: v for k, v in _CONVEX_PARAMS.items() if k != "Rp"}),
    statements=_START_ONLY,
)

# ============================================================================= Section 5
ORACLE_LEAK = Claim(
    id="pur/claim-oracle-leak",
    source=_src("Section 5", None,
                "'the privacy leakage from the gradient norm is the highest when we are close to the optimum ... there is "
                "a neighboring dataset on which theta_t is optimal. In that case, the norm of the neighboring gradient "
                "at theta_t is zero, hence, the added noise in the neighboring scenario would also be zero.' (one step "
                "of (2) with the data-dependent schedule (6), audited)"),
    kind="privacy bound",
    summary="One step of the data-dependent schedule (6) is not (eps, delta)-DP for eps <= 2 and any delta < 0.99.",
    domain=Domain(g=P_GRAD, d=Int(ge=1, search=(1, 4)), M=P_M, epsilon=Real(gt=0, le=2, search=(1e-2, 2.0), log=True),
                  delta=Real(gt=0, lt=1, search=(1e-10, 0.5), log=True)),
    statements=(
        SupBound("1 - (the audit's lower confidence bound on delta(eps)) <= 0.01", bound=sp.Rational(1, 100),
                 scenario=proofs.ORACLE_LEAK, kind="privacy"),
    ),
)
