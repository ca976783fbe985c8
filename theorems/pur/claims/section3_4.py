"""Claims of [pur], Section 3.4 (Data-independent selection): Propositions 3 and 4, the steps a budget allows,
Tables 1 and 2."""
from __future__ import annotations

import sympy as sp
from sympy.utilities.lambdify import implemented_function

from dpverify.scenarios import CosineData, MCPoint, adaptive_gd, gaussian_mechanism
from dpverify.scenarios import gd_schedule_privacy, noisy_gd_audit
from dpverify.claims import (AlgorithmRate, Claim, Domain, ExpectationBound, Identity, Inequality, Int, Limit, LimitPath, Rate, Real,
                           Relation, SupBound)

from .. import proofs
from .release import from_gap
from dpverify.privacy.neighbours import ReleaseInputs
from .common import (COSINE, Delta0, EPS_OF, G1, L, LN, M, N, PI2, PROVED, P_D, P_DELTA, P_DELTA0, P_GRAD, P_L,
                     P_L_WIDE, P_M, P_MU, P_N, P_R, P_RHO, P_T, R, R_C, SIGMA_3A, SIGMA_3B, SIGMA_3C, T, _kappa_rel,
                     _small_logistic, _src, d, delta, eps, kappa, mu, order, r0, rho, t)
from .section3_2_3 import (P_RP, P_U0, R0, _CONVEX_PARAMS, _ITERATE_NOTE, _LOG_CONVEX, _MC_STRONG, _RP_REL,
                           _STRONG_PARAMS, _convex_statements, _pilot, _rule_3b, _then_r0)

# ============================================================================= Section 3.4
GD_RATES = Claim(
    id="pur/claim-gd-gradient-rates",
    source=_src("Section 3.4", None,
                "'similar results are known for the gradient norm in non-private GD: the gradient norm converges at a "
                "rate of O(1/t) for convex losses and O(r^t) for strongly convex losses, where r = 1 - mu/M' (GD with "
                "eta = 1/M; the O(1/t) constant checked: ||grad F(theta_T)|| <= M ||theta_0 - theta*||/(T + 1))"),
    kind="expectation bound",
    summary=("Non-private GD (eta = 1/M): ||grad F(theta_T)|| <= M||theta_0 - theta*||/(T + 1) (convex) and "
             "<= (1 - mu/M)^T ||grad F(theta_0)|| (strongly convex)."),
    domain=Domain(_kappa_rel(), M=P_M, mu=P_MU, d=P_D, T=P_T, r0=P_R, G1=P_GRAD),
    statements=(
        ExpectationBound("convex: ||grad F(theta_T)||^2 <= (M r0/(T + 1))^2", bound=(M * r0 / (T + 1)) ** 2,
                         scenario=adaptive_gd(problem="convex", statistic="grad_norm_sq", smooth=M, step=1 / M,
                                              noise_std=0, dim=d, horizon=T, init_dist=r0,
                                              mc=(MCPoint(_small_logistic(0.02), {"T": 20}),))),
        ExpectationBound("strongly convex: ||grad F(theta_T)||^2 <= (1 - mu/M)^(2T) ||grad F(theta_0)||^2",
                         bound=(1 - mu / M) ** (2 * T) * G1**2,
                         scenario=adaptive_gd(problem="strongly_convex", statistic="grad_norm_sq", smooth=M,
                                              curvature=mu, step=1 / M, noise_std=0, dim=d, horizon=T, init_grad=G1,
                                              mc=(MCPoint(_small_logistic(0.1), {"T": 20}),))),
    ),
)

# ----------------------------------------------------------------------------- Proposition 3
_PROOF_3A = ("proof (a): with sigma_t = 4M sqrt(F(theta_0) - F*)/(sqrt(d) t) the noise term is 2M(F(theta_0) - F*)/t^2; "
             "(3/(8M)) E sum_t ||grad F||^2 <= (F(theta_0) - F*) + pi^2 M (F(theta_0) - F*)/3, 'rearrange to obtain' "
             "E[(1/T) sum_{t=0}^T ||grad F(theta_t)||^2] <= 8(pi^2 M/3 + 1)(F(theta_0) - F*)/(3T)")
_SCHEDULE_3A = dict(step=1 / (2 * M), noise_std=SIGMA_3A)
Q_3B, R_3B = 3 / (8 * M * R**2), 2 * M * R**2
BOUND_3B = 16 * M * R**2 / (3 * T)
_SCHEDULE_3B = dict(step=1 / (2 * M), noise_std=SIGMA_3B)
_MC_3A = (MCPoint("quadratic"), MCPoint(COSINE, {"T": 25}), MCPoint(_small_logistic(0.05), {"T": 10}))
BOUND_3A = 8 * (PI2 * M / 3 + 1) * Delta0 / (3 * T)
BOUND_3A_C = 8 * M * (PI2 * M / 3 + 1) * Delta0 / (3 * T)
_3A_DOMAIN = Domain(M=P_M, d=P_D, T=P_T, Delta0=P_DELTA0)
PROP_3A = Claim(
    id="pur/prop-3a",
    source=_src("Proposition 3", None,
                "(a) if sigma_t = 4M sqrt(F(theta_0) - F*)/(sqrt(d) t) [OCR '\\sqrt{d}t'; 4(a) and the proofs read "
                "'\\sqrt{dt}', the proof's noise term 2M(F(theta_0) - F*)/t^2 decides sqrt(d) t] and eta_t = 1/(2M), "
                "E[(1/T) sum_{t=0}^T ||grad F(theta_t)||^2] <= 8(pi^2 M/3 + 1)(F(theta_0) - F*)/(3T); " + _PROOF_3A),
    kind="expectation bound",
    summary="Schedule 3(a), non-convex F: E (1/T) sum_{t=0}^T ||grad F(theta_t)||^2 <= 8(pi^2 M/3 + 1)(F(theta_0) - F*)/(3T).",
    domain=_3A_DOMAIN,
    statements=(
        Identity("proof: the noise term (M/2) eta^2 d sigma_t^2 is 2M(F(theta_0) - F*)/t^2",
                 lhs=(M / 2 * (1 / (2 * M)) ** 2 * d * SIGMA_3A**2).subs(t, T), rhs=2 * M * Delta0 / T**2, skip=PROVED),
        Inequality("proof: sum_{t=1}^T 1/t^2 <= pi^2/6", lhs=sp.Sum(1 / t**2, (t, 1, T)), rhs=PI2 / 6),
        Identity("proof: 'rearrange' (3/(8M)) S <= (pi^2 M/3 + 1)(F(theta_0) - F*) into S/T <= the printed bound",
                 lhs=BOUND_3A, rhs=(8 * M / 3) * (PI2 * M / 3 + 1) * Delta0 / T),
        ExpectationBound("Proposition 3(a)", bound=BOUND_3A,
                         scenario=adaptive_gd(problem="smooth", statistic="avg_grad_norm_sq", average="all", smooth=M,
                                              dim=d, horizon=T, init_gap=Delta0, mc=_MC_3A, **_SCHEDULE_3A)),
    ),
    expected="violated",
    reason=("the proof's last step drops a factor M: (3/(8M)) sum ||grad F||^2 <= (pi^2 M/3 + 1)(F(theta_0) - F*) gives "
            "8M(pi^2 M/3 + 1)(F(theta_0) - F*)/(3T); the printed bound fails for M above about 1.5 (M = 10, T = 2, d = 1: "
            "313.1 > 45.2 on the quadratic F = M theta^2/2, exact)"),
    witness={"M": 10.0, "d": 1, "T": 2, "Delta0": 1.0},
    error_in="statement", statement_survives=False,
)
PROP_3A_CORRECTED = PROP_3A.corrected(
    summary="Schedule 3(a): E (1/T) sum_{t=0}^T ||grad F(theta_t)||^2 <= 8M(pi^2 M/3 + 1)(F(theta_0) - F*)/(3T).",
    statements=(
        ExpectationBound("Proposition 3(a) with the factor M of its proof", bound=BOUND_3A_C,
                         scenario=adaptive_gd(problem="smooth", statistic="avg_grad_norm_sq", average="all", smooth=M,
                                              dim=d, horizon=T, init_gap=Delta0, mc=_MC_3A, **_SCHEDULE_3A)),
    ),
)

PROP_3B = Claim(
    id="pur/prop-3b",
    source=_src("Proposition 3", "(19)",
                "(b) if F is convex, sigma_t = 4MR/(sqrt(d) t) [OCR '\\sqrt{dt}'; the noise term 2MR^2/t^2 of (19) decides] "
                "and the iterates satisfy ||theta_t - theta*|| <= R, E[F(theta_T) - F*] <= 16MR^2/(3T); proof: V_{t+1} <= "
                "V_t - (3/(8MR^2)) V_t^2 + 2MR^2/t^2, 'Applying Lemma 2 yields the result' (Lemma 2 needs r/(t+1)^2: the "
                "step from theta_{t-1} with sigma_t, as read for Propositions 3-4; with (15) at R-bar >= R Lemma 2 applies "
                "with q = 3/(8M R-bar^2), r q <= 3/4 and gives 16 M R-bar^2/(3T))" + _ITERATE_NOTE),
    kind="expectation bound",
    summary="Schedule 3(b), convex F: E[F(theta_T) - F*] <= 16MR^2/(3T).",
    domain=Domain(_RP_REL, **_CONVEX_PARAMS),
    statements=(
        Identity("(19): the noise term (M/2) eta^2 d sigma_t^2 is 2MR^2/t^2",
                 lhs=(M / 2 * (1 / (2 * M)) ** 2 * d * SIGMA_3B**2).subs(t, T), rhs=2 * M * R**2 / T**2, skip=PROVED),
        Inequality("Lemma 2's r <= 1/q: r q = 3/4", lhs=R_3B * Q_3B, rhs=sp.Integer(1), skip=PROVED),
        Inequality("Lemma 2's V_0 <= 1/q: F(theta_0) - F* <= M ||theta_0 - theta*||^2/2 <= 8MR^2/3", lhs=M * R0**2 / 2,
                   rhs=1 / Q_3B),
        Identity("Lemma 2's 2/(qT) is the printed 16MR^2/(3T)", lhs=2 / (Q_3B * T), rhs=BOUND_3B, skip=PROVED),
    ) + _convex_statements("Proposition 3(b)", lambda Rb: 16 * M * Rb**2 / (3 * T), _SCHEDULE_3B, _then_r0(_rule_3b)),
)

_SCHEDULE_3C = dict(step=1 / (2 * M), noise_std=SIGMA_3C)
PROP_3C = Claim(
    id="pur/prop-3c",
    source=_src("Proposition 3", "(10), (20)",
                "(c) if F is mu-strongly convex, sigma_t = sqrt(2 mu (F(theta_0) - F*)(1 - mu/(2M))^t/d), E[F(theta_T) - "
                "F*] <= (1 - mu/(2M))^T (F(theta_0) - F*); proof (20): noise term (1/(4kappa))(F(theta_0) - F*)(1 - "
                "1/(2kappa))^t, induction 1 - 3/(4kappa) + 1/(4kappa) = 1 - 1/(2kappa)"),
    kind="expectation bound",
    summary="Schedule 3(c), mu-strongly convex F: E[F(theta_T) - F*] <= (1 - mu/(2M))^T (F(theta_0) - F*).",
    domain=Domain(_kappa_rel(), **_STRONG_PARAMS),
    statements=(
        Identity("(20): the noise term (M/2) eta^2 d sigma_t^2 is (mu/(4M)) (F(theta_0) - F*)(1 - mu/(2M))^t",
                 lhs=(M / 2 * (1 / (2 * M)) ** 2 * d * SIGMA_3C**2).subs(t, T), rhs=mu / (4 * M) * Delta0 * R_C**T, skip=PROVED),
        Identity("the induction step: (1 - 3mu/(4M)) + (mu/(4M)) = 1 - mu/(2M)",
                 lhs=1 - 3 * mu / (4 * M) + mu / (4 * M), rhs=R_C, skip=PROVED),
        ExpectationBound("(10)", bound=R_C**T * Delta0,
                         scenario=adaptive_gd(problem="strongly_convex", statistic="excess", smooth=M, curvature=mu,
                                              dim=d, horizon=T, init_gap=Delta0, mc=_MC_STRONG, **_SCHEDULE_3C)),
    ),
)

SAME_RATE = Claim(
    id="pur/claim-same-rate",
    source=_src("Section 3.4", None,
                "after Proposition 3: 'Remarkably, the data-independent schedule achieves the same convergence rate as "
                "the data-dependent schedule, up to a small multiplicative factor.' (for (a) the schedule of 3(a) is not "
                "dimensionally consistent, sigma_t ~ M sqrt(F(theta_0) - F*), and the corrected factor (2/3)(pi^2 M/3 + "
                "1) depends on M; (b), (c) checked)"),
    kind="identity",
    summary="Proposition 3's bounds are Proposition 2's times 4/3 (convex) and 1 (strongly convex).",
    domain=Domain(M=P_M, mu=P_MU, T=P_T, R=P_R, Delta0=P_DELTA0),
    statements=(
        Identity("(b): 16MR^2/(3T) / (4MR^2/T) = 4/3", lhs=BOUND_3B / (4 * M * R**2 / T), rhs=sp.Rational(4, 3), skip=PROVED),
        Identity("(c): (10) / (9) = 1", lhs=(R_C**T * Delta0) / (R_C**T * Delta0), rhs=sp.Integer(1), skip=PROVED),
    ),
    expected="verified",
)

RHO_T_B = 2 * L**2 / (N**2 * SIGMA_3B**2)
RHO_T_C = 2 * L**2 / (N**2 * SIGMA_3C**2)
PER_STEP = Claim(
    id="pur/claim-per-step-zcdp",
    source=_src("Section 3.4", None,
                "'the noise variance from Proposition 3 is such that releasing the noisy gradient satisfies O(t^2)-zCDP "
                "and O((1/r)^t)-zCDP, respectively in the convex and strongly convex cases' (rho_t = 2L^2/(N^2 sigma_t^2))"),
    kind="identity",
    summary="Step t costs L^2 d t^2/(8 N^2 M^2 R^2) (convex) and (L^2 d/(N^2 mu Delta0)) (1 - mu/(2M))^-t (strongly convex).",
    domain=Domain(_kappa_rel(), M=P_M, mu=P_MU, d=P_D, R=P_R, L=P_L, N=P_N, Delta0=P_DELTA0,
                  t=Int(ge=1, search=(1, 200))),
    statements=(
        Identity("convex: rho_t = L^2 d t^2/(8 N^2 M^2 R^2)", lhs=RHO_T_B, rhs=L**2 * d * t**2 / (8 * N**2 * M**2 * R**2), skip=PROVED),
        Identity("strongly convex: rho_t = (L^2 d/(N^2 mu Delta0)) (1/r)^t, r = 1 - mu/(2M)", lhs=RHO_T_C,
                 rhs=L**2 * d / (N**2 * mu * Delta0) * R_C ** (-t), skip=PROVED),
    ),
    expected="verified",
)


# ----------------------------------------------------------------------------- Proposition 4
def _privacy(noise_std, horizon, budget, step=None, curvature=None, inputs=None):
    """SupBound: the zCDP of the run (21), measured, <= budget; an audit of the iterates beside it; ``inputs``: what
    the release reads from the data (:mod:`.release`), for the neighbouring-data check."""
    extra = {} if step is None else {"step": step}
    if curvature is not None:
        extra["curvature"] = curvature
    return SupBound(
        "the iterates theta_1..theta_T are rho-zCDP: sum_t 2L^2/(N^2 sigma_t^2) <= rho, i.e. (eps, delta)-DP, "
        "eps = rho + 2 sqrt(rho log 1/delta)", bound=budget, kind="privacy",
        scenario=gd_schedule_privacy(noise_std=noise_std, lipschitz=L, n_samples=N, horizon=horizon, measure="zcdp"),
        audit=noisy_gd_audit(eps=EPS_OF(budget), delta=delta, noise_std=noise_std, lipschitz=L, n_samples=N,
                             horizon=horizon, **extra), inputs=inputs)


_PRIV_PARAMS = dict(L=P_L, N=Int(ge=1, search=(1, 1000)), delta=Real(gt=0, lt=1, search=(1e-8, 0.1), log=True))
RHO_4A = L**2 * d * T**3 / (8 * N**2 * M**2 * Delta0)        # the budget whose printed T of 4(a) is T
T_4A = sp.cbrt(8 * rho * N**2 * M**2 * Delta0 / (L**2 * d))
FINAL_4A = sp.Rational(8, 3) * (PI2 * M / 3 + 1) * sp.cbrt(Delta0**2 * L**2 * d / (8 * rho * N**2 * M**2))
FINAL_4A_C = sp.Rational(8, 3) * M * (PI2 * M / 3 + 1) * sp.cbrt(Delta0**2 * L**2 * d / (8 * rho * N**2 * M**2))
_LIP_A = Relation(sp.Ge(L**2, 2 * M * Delta0), "L >= ||grad F(theta_0)||, which can be sqrt(2 M (F(theta_0) - F*))")
_4A_DOMAIN = Domain(_LIP_A, M=P_M, d=P_D, T=Int(ge=1, search=(1, 30)), Delta0=P_DELTA0,
                    **{**_PRIV_PARAMS, "L": P_L_WIDE})
# a Lipschitz, M-smooth, non-convex loss for the Monte Carlo of 4(a): M cos-well, L = M, started near 0
_COS_4A = CosineData(a=(100.0,), theta1=(0.1,))
_MC_4A = (MCPoint("quadratic"), MCPoint(_COS_4A, {"T": 2, "L": 100.0, "N": 10, "delta": 1e-5}),
          MCPoint(_small_logistic(0.05), {"T": 10, "L": 1.0, "N": 60, "delta": 1e-5}))
_PROOF_4A = ("proof: sum_t 1/sigma_t^2 = d/(16 M^2 (F(theta_0) - F*)) sum t^2, sum t^2 <= T^3, rho <= L^2 d T^3/(8 N^2 M^2 "
             "(F(theta_0) - F*)), 'That is, we can run T = cbrt(8 rho N^2 M^2 (F(theta_0) - F*)/(L^2 d)) iterations until "
             "the privacy budget is exhausted. Inserting this into the excess risk bound from Proposition 3'; checked at "
             "the budgets rho = L^2 d T^3/(8 N^2 M^2 (F(theta_0) - F*)) whose printed T is the integer T")
PROP_4A = Claim(
    id="pur/prop-4a",
    source=_src("Proposition 4", "(21)",
                "(a) sigma_t = 4M sqrt(F(theta_0) - F*)/(sqrt(d) t), after T = cbrt(8 rho N^2 M^2 (F(theta_0) - F*)/(L^2 d)) "
                "iterations, E[(1/T) sum_{t=0}^T ||grad F(theta_t)||^2] <= (8/3)(pi^2 M/3 + 1) cbrt((F(theta_0) - F*)^2 "
                "L^2 d/(8 rho N^2 M^2)); the iterates are (eps, delta)-DP, eps = rho + 2 sqrt(rho log 1/delta); "
                + _PROOF_4A),
    kind="expectation bound",
    summary=("Schedule 3(a) run for T = cbrt(8 rho N^2 M^2 Delta0/(L^2 d)) steps is rho-zCDP and E (1/T) sum ||grad F||^2 <= "
             "(8/3)(pi^2 M/3 + 1) cbrt(Delta0^2 L^2 d/(8 rho N^2 M^2))."),
    domain=_4A_DOMAIN,
    definitions={rho: RHO_4A},
    statements=(
        Identity("proof: sum_t 1/sigma_t^2 = d/(16 M^2 Delta0) sum_t t^2",
                 lhs=sp.Sum(1 / SIGMA_3A**2, (t, 1, T)), rhs=d / (16 * M**2 * Delta0) * sp.Sum(t**2, (t, 1, T)), skip=PROVED),
        Inequality("proof: sum_{t=1}^T t^2 <= T^3", lhs=sp.Sum(t**2, (t, 1, T)), rhs=T**3, skip=PROVED),
        Identity("the printed T is the T of this budget", lhs=T_4A, rhs=T, skip=PROVED),
        _privacy(SIGMA_3A, T, rho, step=1 / (2 * M), inputs=from_gap(SIGMA_3A, T, T_4A, {"rho": RHO_4A})),
        Identity("the final expression is Proposition 3(a)'s bound (as printed) at this T", lhs=FINAL_4A, rhs=BOUND_3A, skip=PROVED),
        Identity("the final expression is what Proposition 3(a)'s proof gives at this T", lhs=FINAL_4A, rhs=BOUND_3A_C),
        ExpectationBound("Proposition 4(a)", bound=FINAL_4A,
                         scenario=adaptive_gd(problem="smooth", statistic="avg_grad_norm_sq", average="all", smooth=M,
                                              dim=d, horizon=T, init_gap=Delta0, mc=_MC_4A, **_SCHEDULE_3A)),
    ),
    expected="violated",
    reason=("the final bound is Proposition 3(a)'s printed bound at the printed T (the algebra is right) and inherits its "
            "lost factor M: at M = 10, T = 2, d = 1 it is 45.2 where the exact value is 313.1 (a Lipschitz cosine loss "
            "with M = 100 fails it too, by Monte Carlo); and the privacy promise fails for the algorithm as printed: T and "
            "sigma_t read F(theta_0) - F*, F* 'the minimal empirical risk' (line 233), so neighbouring data sets release "
            "different numbers of iterates (the 'data-independent' schedule is not)"),
    witness={"M": 10.0, "d": 1, "T": 2, "Delta0": 1.0, "L": 5.0, "N": 10, "delta": 1e-5},
    error_in="statement", statement_survives=False,
)
_PUBLIC_GAP = ("; Delta0 is a public bound on F(theta_0) - F* over the class, fixed before the data (the printed "
               "F(theta_0) - F* of the data set makes T and sigma_t data-dependent); checked at F(theta_0) - F* = Delta0, "
               "the bound's worst case")
PROP_4A_CORRECTED = PROP_4A.corrected(
    builds_on=("pur/prop-3a-corrected",),
    summary=("Schedule 3(a) for T = cbrt(8 rho N^2 M^2 Delta0/(L^2 d)) steps: rho-zCDP, and E (1/T) sum_{t=0}^T ||grad F||^2 <= "
             "(8/3) M (pi^2 M/3 + 1) cbrt(Delta0^2 L^2 d/(8 rho N^2 M^2))" + _PUBLIC_GAP + "."),
    statements=(
        _privacy(SIGMA_3A, T, rho, step=1 / (2 * M), inputs=ReleaseInputs(public=("L", "M", "N", "d", "T", "Delta0"))),
        Identity("the corrected final expression is Proposition 3(a)-corrected's bound at this T", lhs=FINAL_4A_C,
                 rhs=BOUND_3A_C, skip=PROVED),
        ExpectationBound("Proposition 4(a) with the factor M", bound=FINAL_4A_C,
                         scenario=adaptive_gd(problem="smooth", statistic="avg_grad_norm_sq", average="all", smooth=M,
                                              dim=d, horizon=T, init_gap=Delta0, mc=_MC_4A, **_SCHEDULE_3A)),
    ),
)

RHO_4B = L**2 * d * T**3 / (8 * N**2 * M**2 * R**2)
T_4B = sp.cbrt(8 * rho * N**2 * M**2 * R**2 / (L**2 * d))
FINAL_4B = sp.Rational(8, 3) * sp.cbrt(L**2 * M * R * d / (rho * N**2))
FINAL_4B_C = sp.Rational(8, 3) * sp.cbrt(M * R**4 * L**2 * d / (rho * N**2))
_LIP_B = Relation(sp.Ge(L, M * R), "L >= M R, the largest ||grad F|| on the ball ||theta - theta*|| <= R")
_4B_DOMAIN = Domain(_RP_REL, _LIP_B, M=P_M, d=P_D, T=Int(ge=1, search=(1, 30)), R=P_R, u0=P_U0, Rp=P_RP,
                    **{**_PRIV_PARAMS, "L": P_L_WIDE})
_4B_MC = {"T": 10, "N": 100, "delta": 1e-5, "u0": 0.1}       # R = 10 ||theta_0 - theta*||


def _then_4b(p):
    q = {**p, "L": 1.01 * p["R"] * p["M"]}    # just above the relation L >= M R
    return {"L": q["L"], **_pilot(_LOG_CONVEX, _rule_3b)(q)}


PROP_4B = Claim(
    id="pur/prop-4b",
    source=_src("Proposition 4", None,
                "(b) if F is convex, sigma_t = 4MR/(sqrt(d) t) and the iterates satisfy ||theta_t - theta*|| <= R, after "
                "T = cbrt(8 rho N^2 M^2 R^2/(L^2 d)) iterations, E[F(theta_T) - F*] <= (8/3) cbrt(L^2 M R d/(rho N^2)); "
                "proof: 'For (b), the proof is analogous to (a), but using the noise schedule and excess risk bound for "
                "the convex case'; checked at the budgets whose printed T is the integer T" + _ITERATE_NOTE),
    kind="expectation bound",
    summary="Schedule 3(b) for T = cbrt(8 rho N^2 M^2 R^2/(L^2 d)) steps: rho-zCDP and E[F(theta_T) - F*] <= (8/3) cbrt(L^2 M R d/(rho N^2)).",
    domain=_4B_DOMAIN,
    definitions={rho: RHO_4B},
    statements=(
        Identity("sum_t 1/sigma_t^2 = d/(16 M^2 R^2) sum_t t^2",
                 lhs=sp.Sum(1 / SIGMA_3B**2, (t, 1, T)), rhs=d / (16 * M**2 * R**2) * sp.Sum(t**2, (t, 1, T)), skip=PROVED),
        Identity("the printed T is the T of this budget", lhs=T_4B, rhs=T, skip=PROVED),
        _privacy(SIGMA_3B, T, rho, step=1 / (2 * M)),
        Identity("the final expression is Proposition 3(b)'s 16MR^2/(3T) at this T", lhs=FINAL_4B, rhs=BOUND_3B),
    ) + _convex_statements("Proposition 4(b)", lambda Rb: FINAL_4B.subs(R, Rb), _SCHEDULE_3B, _then_4b, _4B_MC),
    expected="violated",
    reason=("inserting T into 16MR^2/(3T) gives (8/3) cbrt(M R^4 L^2 d/(rho N^2)), not cbrt(L^2 M R d/(rho N^2)): at the "
            "printed T the printed bound is 16MR/(3T), Proposition 3(b)'s with R for R^2 (dimensionally a loss per length), "
            "too small for R > 1 (M = 1, R = 10, T = 2, d = 1: exact 103.1 > 26.9 at R-bar = 1.03 R)"),
    witness={"M": 1.0, "d": 1, "T": 2, "R": 10.0, "u0": 1.0, "Rp": 10.0, "L": 10.0, "N": 10, "delta": 1e-5},
    error_in="statement", statement_survives=False,
)
PROP_4B_CORRECTED = PROP_4B.corrected(
    summary=("Schedule 3(b) for T = cbrt(8 rho N^2 M^2 R^2/(L^2 d)) steps: rho-zCDP and E[F(theta_T) - F*] <= (8/3) "
             "cbrt(M R^4 L^2 d/(rho N^2)) = 16MR^2/(3T) (R at least the radius of (15))."),
    statements=(
        _privacy(SIGMA_3B, T, rho, step=1 / (2 * M)),
        Identity("the corrected expression is Proposition 3(b)'s 16MR^2/(3T) at this T", lhs=FINAL_4B_C, rhs=BOUND_3B, skip=PROVED),
    ) + _convex_statements("Proposition 4(b) corrected, 16 M R-bar^2/(3T)", lambda Rb: 16 * M * Rb**2 / (3 * T),
                           _SCHEDULE_3B, _then_4b, _4B_MC),
)

KAPPA = {kappa: M / mu}
RP = 1 / (1 - 1 / (2 * kappa))                 # the proof's r = 1/(1 - 1/(2 kappa)) > 1
DELTA_S = 2 * L / N                            # the proof's sensitivity Delta = 2L/N
A_4C = (d * DELTA_S**2 / 2) / (2 * mu * Delta0)
RHO_4C = d * DELTA_S**2 / (2 * mu * Delta0) * RP**T      # the printed rho of the proof, whose printed T is T
T_4C = sp.log(rho * mu * Delta0 * N**2 / (2 * d * L**2)) / sp.log(2 * kappa / (2 * kappa - 1))
BOUND_11 = L**2 * d / (N**2 * mu * rho)
_LIP_C = Relation(sp.Ge(L**2, 2 * M * Delta0), "L >= ||grad F(theta_0)||, which can be sqrt(2 M (F(theta_0) - F*))")
_4C_PARAMS = dict(M=P_M, mu=P_MU, d=P_D, Delta0=P_DELTA0, **{**_PRIV_PARAMS, "L": P_L_WIDE})
_MC_4C = (MCPoint("quadratic"), MCPoint(_small_logistic(0.1), {"L": 1.0, "delta": 1e-5, "T": 10}))
PROP_4C = Claim(
    id="pur/prop-4c",
    source=_src("Proposition 4", "(11), (21)",
                "(c) if F is mu-strongly convex and sigma_t = sqrt(2 mu (F(theta_0) - F*)(1 - mu/(2M))^t/d), after T = "
                "log(rho mu (F(theta_0) - F*) N^2/(2 d L^2))/log(2kappa/(2kappa - 1)) iterations, E[F(theta_T) - F*] <= "
                "L^2 d/(N^2 mu rho) (11); proof: rho = (d Delta^2/2)/(2 mu (F(theta_0) - F*)) sum_t (1 - 1/(2kappa))^-t = "
                "a sum_{t=1}^T r^t, r = 1/(1 - 1/(2kappa)), = a r/(r - 1)(r^T - 1), r/(r - 1) = 2kappa, 'rho = 2 a kappa "
                "(r^T - 1) <= 2 a kappa r^T = d Delta^2/(2 mu (F(theta_0) - F*)) (1 - 1/(2kappa))^-T', then E[F(theta_T) - "
                "F*] <= d Delta^2/(2 mu rho), Delta = 2L/N; checked at the budgets rho = d Delta^2 r^T/(2 mu Delta0) whose "
                "printed T is the integer T"),
    kind="expectation bound",
    summary=("Schedule 3(c) for T = log(rho mu Delta0 N^2/(2 d L^2))/log(2kappa/(2kappa - 1)) steps: the iterates are "
             "rho-zCDP and E[F(theta_T) - F*] <= L^2 d/(N^2 mu rho) (11)."),
    domain=Domain(_kappa_rel(), _LIP_C, T=Int(ge=1, search=(1, 30)), **_4C_PARAMS),
    definitions={rho: RHO_4C, **KAPPA},
    statements=(
        Identity("sum_t 1/sigma_t^2 = (d/(2 mu Delta0)) sum_t (1 - 1/(2 kappa))^-t",
                 lhs=sp.Sum(1 / SIGMA_3C**2, (t, 1, T)),
                 rhs=d / (2 * mu * Delta0) * sp.Sum((1 - 1 / (2 * kappa)) ** (-t), (t, 1, T)), skip=PROVED),
        Identity("the geometric series: sum_{t=1}^T r^t = r (r^T - 1)/(r - 1)", lhs=sp.Sum(RP**t, (t, 1, T)),
                 rhs=RP * (RP**T - 1) / (RP - 1), skip=PROVED),
        Identity("r/(r - 1) = 2 kappa", lhs=RP / (RP - 1), rhs=2 * kappa, skip=PROVED),
        Identity("'2 a kappa r^T = d Delta^2/(2 mu Delta0) r^T'", lhs=2 * A_4C * kappa * RP**T,
                 rhs=d * DELTA_S**2 / (2 * mu * Delta0) * RP**T, skip=("symbolic",)),
        Identity("(11) is the proof's d Delta^2/(2 mu rho) with Delta = 2L/N", lhs=BOUND_11,
                 rhs=d * DELTA_S**2 / (2 * mu * rho), skip=("symbolic",)),
        Identity("the printed T is the T of the proof's rho", lhs=T_4C, rhs=T, skip=("symbolic",)),
        _privacy(SIGMA_3C, T, rho, step=1 / (2 * M), curvature=mu,
                 inputs=from_gap(SIGMA_3C, T, T_4C, {"rho": RHO_4C.subs(KAPPA)}, public=("L", "M", "N", "d", "mu"),
                                 subs=KAPPA)),
        ExpectationBound("(11)", bound=BOUND_11,
                         scenario=adaptive_gd(problem="strongly_convex", statistic="excess", smooth=M, curvature=mu,
                                              dim=d, horizon=T, init_gap=Delta0, mc=_MC_4C, **_SCHEDULE_3C)),
    ),
    expected="violated",
    reason=("two slips: '2 a kappa r^T = d Delta^2/(2 mu Delta0) r^T' drops kappa, so the printed T spends kappa (rho - "
            "2dL^2/(N^2 mu Delta0)) > rho (privacy fails for kappa > 1, by up to a factor kappa); and (11) is half of "
            "d Delta^2/(2 mu rho) = 2L^2 d/(N^2 mu rho), failing at kappa = 1 (T = 1: exact 0.375 (F(theta_0) - F*) > 0.25); and T and sigma_t read F(theta_0) - F*, "
            "the data set's minimal empirical risk (line 233): neighbouring data sets release different numbers of iterates"),
    witness={"T": 1, "M": 1.0, "mu": 1.0, "d": 1, "Delta0": 1.0, "L": 1.5, "N": 1, "delta": 1e-5},
    error_in="statement", statement_survives=False,
)
T_4C_C = sp.floor(sp.log(1 + rho * N**2 * mu * Delta0 / (2 * kappa * d * L**2)) / sp.log(2 * kappa / (2 * kappa - 1)))
BOUND_11_C = 4 * kappa**2 / (2 * kappa - 1) * L**2 * d / (N**2 * mu * rho)
PROP_4C_CORRECTED = PROP_4C.corrected(
    summary=("Schedule 3(c) for T = floor(log(1 + rho N^2 mu Delta0/(2 kappa d L^2))/log(2kappa/(2kappa - 1))) steps (all "
             "the budget allows): rho-zCDP and E[F(theta_T) - F*] <= (4 kappa^2/(2kappa - 1)) L^2 d/(N^2 mu rho)"
             + _PUBLIC_GAP + "."),
    domain=Domain(_kappa_rel(), _LIP_C, rho=Real(gt=0, search=(1e-2, 1e2), log=True),
                  **{**_4C_PARAMS, "M": Real(gt=0, search=(1e-2, 1e1), log=True, units=(1, -2)),
                     "N": Int(ge=1, search=(1, 100))}),
    definitions=KAPPA,
    statements=(
        Inequality("the derivation: Delta0 (1 - 1/(2kappa))^T <= (4 kappa^2/(2kappa - 1)) L^2 d/(N^2 mu rho)",
                   lhs=Delta0 * (1 - 1 / (2 * kappa)) ** T_4C_C, rhs=BOUND_11_C, skip=("symbolic",)),
        _privacy(SIGMA_3C, T_4C_C, rho, step=1 / (2 * M), curvature=mu,
                 inputs=ReleaseInputs(public=("L", "M", "N", "d", "mu", "rho", "Delta0"))),
        ExpectationBound("(11) corrected", bound=BOUND_11_C,
                         scenario=adaptive_gd(problem="strongly_convex", statistic="excess", smooth=M, curvature=mu,
                                              dim=d, horizon=T_4C_C, init_gap=Delta0,
                                              mc=(MCPoint("quadratic"),
                                                  MCPoint(_small_logistic(0.1), {"L": 1.0, "delta": 1e-5, "rho": 20.0})),
                                              **_SCHEDULE_3C)),
    ),
)

EPS_CLAIM = Claim(
    id="pur/claim-eps",
    source=_src("Proposition 4", None,
                "after Proposition 4: 'Here, F* is the minimal empirical risk and eps = rho + 2 sqrt(rho log delta^-1)'; "
                "proof: 'The corresponding (eps, delta)-DP guarantees are eps = rho + 2 sqrt(rho log delta^-1)'"),
    kind="privacy bound",
    summary="rho-zCDP gives (rho + 2 sqrt(rho log(1/delta)), delta)-DP (exact Gaussian profile; dp_accounting agrees).",
    domain=Domain(rho=Real(gt=0, search=(1e-3, 1e2), log=True), delta=P_DELTA, T=Int(ge=1, search=(1, 20)),
                  L=P_L, N=Int(ge=1, search=(1, 1000)), order=Real(gt=1, search=(1.001, 1e4), log=True)),
    statements=(
        SupBound("exact delta of the Gaussian mechanism with mu = sqrt(2 rho) at eps = rho + 2 sqrt(rho log 1/delta)",
                 bound=delta, kind="privacy",
                 scenario=gaussian_mechanism(sensitivity=1, noise_std=1 / sp.sqrt(2 * rho), eps=EPS_OF(rho),
                                             measure="delta_at_eps")),
        SupBound("dp_accounting (RDP) eps of T steps of (2) spending rho <= rho + 2 sqrt(rho log 1/delta)",
                 bound=EPS_OF(rho), kind="privacy",
                 scenario=gd_schedule_privacy(noise_std=2 * L / N * sp.sqrt(T / (2 * rho)), lipschitz=L, n_samples=N,
                                              horizon=T, delta=delta, measure="epsilon")),
        Inequality("every order a > 1 gives at least rho + 2 sqrt(rho log 1/delta)", lhs=EPS_OF(rho),
                   rhs=rho * order + LN / (order - 1)),
    ),
)


# ----------------------------------------------------------------------------- steps a budget allows
def _t_max(schedule):
    names = {"a": ("rho", "L", "N", "M", "Delta0", "d"), "b": ("rho", "L", "N", "M", "R", "d"),
             "c": ("rho", "L", "N", "kappa", "mu", "Delta0", "d")}[schedule]
    return implemented_function(f"T_max_{schedule}",
                                lambda *a: proofs.steps_allowed_closed(schedule, dict(zip(names, a))))


T_MAX_A, T_MAX_B, T_MAX_C = _t_max("a"), _t_max("b"), _t_max("c")
T_STAR_A = implemented_function("T_star_a", lambda *a: proofs.budget_root_a(*a))
_BUDGET_DOMAIN = Domain(rho=Real(gt=0, search=(1e-2, 1e3), log=True), L=P_L, N=Int(ge=1, search=(1, 1000)), M=P_M,
                        Delta0=P_DELTA0, d=P_D, R=P_R, mu=P_MU, kappa=Real(ge=1, search=(1.0, 1e2), log=True))
BUDGET_STEPS = Claim(
    id="pur/claim-budget-steps",
    source=_src("Proposition 4", None,
                "proof of Proposition 4: 'That is, we can run T = cbrt(8 rho N^2 M^2 (F(theta_0) - F*)/(L^2 d)) iterations "
                "until the privacy budget is exhausted' (and (b) 'analogous'); the number of steps the budget rho "
                "allows under (21), T_max = max{T: sum_{t<=T} rho_t <= rho}, computed exactly"),
    kind="inequality",
    summary=("The printed T of 4(a), 4(b) stays within the budget (floor(T) <= T_max) but spends only about a third of it "
             "(T_max/T -> 3^(1/3)); for 3(c), T_max = floor(log(1 + rho N^2 mu Delta0/(2 kappa d L^2))/log(2kappa/(2kappa-1)))."),
    domain=_BUDGET_DOMAIN,
    statements=(
        Inequality("(a): floor(T) <= T_max", lhs=sp.floor(T_4A), rhs=T_MAX_A(rho, L, N, M, Delta0, d), skip=("symbolic", "scaling")),
        Inequality("(b): floor(T) <= T_max", lhs=sp.floor(T_4B), rhs=T_MAX_B(rho, L, N, M, R, d), skip=("symbolic", "scaling")),
        Limit("(a): T*/T -> 3^(1/3) as rho -> infinity, T* the real root of rho_spent(T*) = rho (sum t^2 ~ T^3/3)",
              expr=T_STAR_A(rho, L, N, M, Delta0, d) / T_4A, value=sp.cbrt(3), path=LimitPath("rho", "inf"),
              skip=("symbolic", "scaling")),
        Identity("(c): T_max = floor(log(1 + rho N^2 mu Delta0/(2 kappa d L^2))/log(2kappa/(2kappa - 1)))",
                 lhs=T_MAX_C(rho, L, N, kappa, mu, Delta0, d),
                 rhs=sp.floor(sp.log(1 + rho * N**2 * mu * Delta0 / (2 * kappa * d * L**2))
                              / sp.log(2 * kappa / (2 * kappa - 1))), skip=("symbolic", "scaling")),
    ),
)

CONVEX_SCALING = Claim(
    id="pur/claim-convex-scaling",
    source=_src("Section 3.4", None,
                "after Proposition 4: 'Note that the convex upper bound scales with cbrt(d/(rho N^2)). This is because the "
                "privacy loss grows as O(T^3) while the excess loss, even in the non-private case, only decreases as "
                "O(1/T).'"),
    kind="rate",
    summary="Under 3(b) the zCDP after T steps is Theta(T^3), and 4(b)'s bound is Theta(cbrt(d/(rho N^2))).",
    domain=Domain(M=P_M, d=Real(ge=1, search=(1, 1e3), log=True), R=P_R, L=P_L,
                  N=Real(ge=1, search=(1, 1e4), log=True), rho=P_RHO, T=Real(ge=1, search=(1, 1000), log=True)),
    statements=(
        Rate("rho after T steps of 3(b) = Theta(T^3)",
             expr=L**2 * d / (8 * N**2 * M**2 * R**2) * T * (T + 1) * (2 * T + 1) / 6, rate=T**3,
             paths=(LimitPath("T", "inf"),), skip=("scaling",)),
        Rate("4(b) (corrected) = Theta(cbrt(d/(rho N^2)))", expr=FINAL_4B_C, rate=sp.cbrt(d / (rho * N**2)),
             paths=(LimitPath("rho", "0+"), LimitPath("rho", "inf"), LimitPath("N", "inf"), LimitPath("d", "inf")),
             skip=("scaling",)),
        Rate("4(b) (as printed) = Theta(cbrt(d/(rho N^2)))", expr=FINAL_4B, rate=sp.cbrt(d / (rho * N**2)),
             paths=(LimitPath("rho", "0+"), LimitPath("N", "inf"), LimitPath("d", "inf")), skip=("scaling",)),
    ),
)

RHO_OF_EPS = (sp.sqrt(LN + eps) - sp.sqrt(LN)) ** 2           # the rho whose conversion is eps
_TABLE_DOMAIN = Domain(epsilon=Real(gt=0, search=(1e-2, 1e2), log=True), delta=P_DELTA, M=P_M, mu=P_MU, R=P_R, L=P_L,
                       d=Real(ge=1, search=(1, 1e3), log=True), N=Real(ge=1, search=(10, 1e5), log=True),
                       Delta0=P_DELTA0)
_TABLE_PATHS = (LimitPath("epsilon", "0+"), LimitPath("N", "inf"), LimitPath("d", "inf"))
TABLE_1 = Claim(
    id="pur/claim-table-1",
    algebra_why=("not yet run on PUR-GD: the convex rate is a supremum over spectra in (0, M] at T ~ N^(2/3) steps, "
                 "more than an exact sweep of six decades of N can afford per point (referee41's pur_tables.py finds the ratio flat along N, eps and d)"),
    source=_src("Section 3.4 (Table 1)", None,
                "Table 1, 'Ours' (convex): excess loss cbrt(d/(eps^2 N^2)), cbrt(d/(rho N^2)); iterations cbrt(eps N^2/d); "
                "local gradient evaluations N^(5/3) cbrt(eps/d); 'All entries are upper bounds and should be read as "
                "O(.) where ... L, M and delta are treated as constants ... stated for the high-privacy regime (eps -> 0). "
                "For the low-privacy regime (eps -> infinity), replace eps^2 with eps' (rho from eps by inverting eps = "
                "rho + 2 sqrt(rho log 1/delta); R treated as a constant)"),
    about="algorithm",  # the excess loss and cost of the algorithm; the Rates check Proposition 4's bounds
    kind="rate",
    summary="Table 1 'Ours' row: Proposition 4(b)'s loss, iterations and gradient evaluations as O-rates in eps, N, d.",
    domain=_TABLE_DOMAIN,
    statements=(
        Rate("excess loss (4(b) as printed) = O(cbrt(d/(eps^2 N^2)))", expr=FINAL_4B.subs(rho, RHO_OF_EPS),
             rate=sp.cbrt(d / (eps**2 * N**2)), kind="O", paths=_TABLE_PATHS, skip=("scaling",)),
        Rate("excess loss = O(cbrt(d/(eps N^2))) as eps -> infinity", expr=FINAL_4B.subs(rho, RHO_OF_EPS),
             rate=sp.cbrt(d / (eps * N**2)), kind="O", paths=(LimitPath("epsilon", "inf"),), skip=("scaling",)),
        Rate("iterations T = O(cbrt(eps N^2/d))", expr=T_4B.subs(rho, RHO_OF_EPS), rate=sp.cbrt(eps * N**2 / d),
             kind="O", paths=_TABLE_PATHS, skip=("scaling",)),
        Rate("gradient evaluations N T = O(N^(5/3) cbrt(eps/d))", expr=N * T_4B.subs(rho, RHO_OF_EPS),
             rate=N ** sp.Rational(5, 3) * sp.cbrt(eps / d), kind="O", paths=_TABLE_PATHS, skip=("scaling",)),
    ),
)
# PUR-GD with schedule 3(c) run for the printed T (rounded, at least 1 step: max{T, 1} written (T + 1 + |T - 1|)/2),
# exactly on strongly convex quadratics
_T_TABLE_2 = T_4C.subs(rho, RHO_OF_EPS)
PUR_GD_3C = adaptive_gd(problem="strongly_convex", statistic="excess", smooth=M, curvature=mu, dim=d,
                        horizon=(_T_TABLE_2 + 1 + sp.Abs(_T_TABLE_2 - 1)) / 2, init_gap=Delta0, **_SCHEDULE_3C)
TABLE_2 = Claim(
    id="pur/claim-table-2",
    source=_src("Section 3.4 (Table 2)", None,
                "Table 2, 'Ours' (strongly convex): excess loss d/(N^2 eps^2), d/(N^2 rho); iterations log(eps N^2); "
                "evaluations N log(eps N^2) (read as O(.), L, M, mu, delta constants; high privacy; eps^2 -> eps for "
                "eps -> infinity)"),
    about="algorithm",  # the excess loss of the algorithm: the AlgorithmRates run PUR-GD, the Rates Proposition 4's bound
    kind="rate",
    summary="Table 2 'Ours' row: Proposition 4(c)'s loss (11) and iterations as O-rates in eps, N, d.",
    domain=_TABLE_DOMAIN,
    definitions={kappa: M / mu},
    statements=(
        Rate("excess loss (11) = O(d/(N^2 eps^2))", expr=BOUND_11.subs(rho, RHO_OF_EPS), rate=d / (N**2 * eps**2),
             kind="O", paths=_TABLE_PATHS, skip=("scaling",)),
        Rate("excess loss (11) = O(d/(N^2 eps)) as eps -> infinity", expr=BOUND_11.subs(rho, RHO_OF_EPS),
             rate=d / (N**2 * eps), kind="O", paths=(LimitPath("epsilon", "inf"),), skip=("scaling",)),
        Rate("iterations T = O(log(eps N^2)) as N -> infinity", expr=T_4C.subs(rho, RHO_OF_EPS), rate=sp.log(eps * N**2),
             kind="O", paths=(LimitPath("N", "inf"),), skip=("scaling",)),
        AlgorithmRate("PUR-GD's E[F(theta_T) - F*] at the printed T = O(d/(N^2 eps^2))", rate=d / (N**2 * eps**2),
                      kind="O", paths=(LimitPath("epsilon", "0+"), LimitPath("N", "inf")), decades=4,
                      scenario=PUR_GD_3C),
        AlgorithmRate("PUR-GD's E[F(theta_T) - F*] at the printed T = O(d/(N^2 eps^2)) as d -> infinity",
                      rate=d / (N**2 * eps**2), kind="O", paths=(LimitPath("d", "inf"),), decades=3,
                      scenario=PUR_GD_3C),
    ),
)
