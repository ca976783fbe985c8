"""Claims of [dni], Section 4.1 (gradient descent): Theorems 4.1-4.3, Lemma 4.1 and eq. (25), the limit of T."""
from __future__ import annotations

import sympy as sp

from dpverify.scenarios import worst_case

from dpverify.claims import (Claim, SupBound, Constant, Domain, ExpectationBound, Identity, Inequality, Int, Limit, LimitPath,
                           Minimiser, Rate, Real, Relation, Seq)

from .common import (D, Delta1, ERUB_24, ERUB_DYNAMIC_T, ERUB_MIN_DYN, ERUB_UNIFORM_T, G, GAMMA, KAPPA_H, M, N,
                     PGD_ERUB, PGD_PARAMS, R, RATE_5, RATE_8, SIGMA2_DYNAMIC, T, T_26, T_STAR_UNIFORM, _src, a_, alpha,
                     alpha0, c, eta, gamma, kappa, mu, q, s, sigma, t)

# ----------------------------------------------------------------------------- Theorem 4.1
# The proof composes one step, E f(theta_{t+1}) - f* <= gamma (f(theta_t) - f*) + M/2 eta^2 D (G sigma_t/N)^2: its
# noise-free part over the whole class (the noise's term is checked separately); Theorem 4.7's proof composes it too.
PL_ONE_STEP = SupBound("one step of the proof, noise-free part, over every M-smooth mu-PL f (an upper bound): "
                       "f(theta_2) - f* <= gamma (f(theta_1) - f*)", bound=gamma * Delta1, kind="performance",
                       scenario=worst_case(method="gd", function_class="pl", statistic="excess", smooth=M,
                                           curvature=M / kappa, step=1 / M, horizon=1, init_gap=Delta1))
ERUB_3 = gamma**T + R * sp.Sum(gamma ** (T - t) * alpha * sigma[t] ** 2, (t, 1, T))
ERUB = Claim(
    id="dni/thm-4.1",
    source=_src("Theorem 4.1", "(3)",
                "ERUB = gamma^T + R sum_t q_t sigma_t^2, q_t = gamma^(T-t) alpha, eta = 1/M"),
    kind="expectation bound",
    summary="PGD with eta = 1/M on an M-smooth mu-PL loss: E f(theta_{T+1}) - f* <= "
            "(gamma^T + R sum_t q_t sigma_t^2)(f(theta_1) - f*).",
    domain=Domain(**PGD_PARAMS),
    definitions={alpha: D * G**2 / (2 * R * M * N**2 * Delta1), **GAMMA},
    statements=(
        Identity("contraction with eta = 1/M",
                 lhs=(1 - 2 * mu * eta * (1 - M * eta / 2)).subs({eta: 1 / M, mu: M / kappa}),
                 rhs=gamma),
        Identity("unrolled noise term equals R sum q_t sigma_t^2",
                 lhs=sp.Sum(gamma ** (T - t) * M / 2 * (G * sigma[t] / (N * M)) ** 2 * D, (t, 1, T)) / Delta1,
                 rhs=R * sp.Sum(gamma ** (T - t) * alpha * sigma[t] ** 2, (t, 1, T))),
        ExpectationBound("ERUB (3)", bound=ERUB_3, scenario=PGD_ERUB),
        PL_ONE_STEP,
    ),
)

# ----------------------------------------------------------------------------- Theorem 4.2
_uniform_domain = Domain(
    Relation(sp.Ge(kappa, 1 / (1 - c)), "kappa >= 1/(1 - c)"),
    Relation(sp.Lt(alpha, alpha0), "alpha < alpha0"),
    kappa=Real(gt=1, search=(1.001, 1e4), log=True),
    alpha=Real(gt=0, search=(1e-8, 10.0), log=True),
    c=Real(gt=0, lt=1, search=(0.05, 0.95)),
    alpha0=Real(gt=0, search=(1e-2, 20.0), log=True),
    T=Int(ge=1, search=(1, 60)),
)
THM_4_2 = Claim(
    id="dni/thm-4.2",
    source=_src("Theorem 4.2", "(4), (5), (21)-(24)",
                "sigma_t^2 = T/R; T = ln(1 + ln(1/gamma)/alpha)/ln(1/gamma) (23); "
                "ERUB = (1 + kappa ln(1 + ln(1/gamma)/alpha))/(1 + ln(1/gamma)/alpha) (24); "
                "ERUB_min^uniform = Theta(kappa^2/(kappa + 1/alpha) ln(1 + 1/(kappa alpha))) (5), read from the proof"),
    kind="rate",
    summary="Uniform schedule: the T of (23), the bound (24) at that T, and its Theta rate (5).",
    domain=_uniform_domain,
    definitions=GAMMA,
    statements=(
        Identity("uniform ERUB (21): R sum q_t T/R = alpha kappa (1 - gamma^T) T",
                 lhs=gamma**T + sp.Sum(gamma ** (T - t) * alpha * T, (t, 1, T)),
                 rhs=ERUB_UNIFORM_T),
        Identity("(24) is (21) at the T of (23)", lhs=ERUB_UNIFORM_T.subs(T, T_STAR_UNIFORM), rhs=ERUB_24),
        Inequality("ln(1/gamma) <= 1/(c kappa)", lhs=sp.log(1 / gamma), rhs=1 / (c * kappa)),
        Inequality("ln(1/gamma) >= 1/kappa", lhs=1 / kappa, rhs=sp.log(1 / gamma)),
        Rate("(5): (24) = Theta(kappa^2/(kappa + 1/alpha) ln(1 + 1/(kappa alpha)))",
             expr=ERUB_24, rate=RATE_5, kind="Theta",
             paths=(LimitPath("alpha", "0+"), LimitPath("kappa", "inf"),
                    LimitPath("kappa", "inf", {"alpha": alpha * LimitPath.start("kappa") / kappa},
                              "kappa alpha fixed"))),
        Rate("(4): T of (23) = O(kappa ln(1 + 1/(kappa alpha)))",
             expr=T_STAR_UNIFORM, rate=kappa * sp.log(1 + 1 / (kappa * alpha)), kind="O",
             paths=(LimitPath("alpha", "0+"), LimitPath("kappa", "inf"))),
    ),
)

T_LIMIT_TEXT = ("proof of Theorem 4.2: 'T* = (1/ln(1/gamma)) ln(1 + ln(1/gamma)/alpha) (23) which gradually converges "
                "to 0 as kappa -> inf'; sketch of proof: 'We choose T = ... <= O(kappa ln(1 + 1/(kappa alpha))) which "
                "converges to 0 as kappa -> +inf' ('a small T should be taken for sharp losses')")
CLAIM_T_LIMIT = Claim(
    id="dni/claim-t-limit",
    source=_src("Theorem 4.2", "(23)", T_LIMIT_TEXT),
    kind="limit",
    summary="The T of (23) converges to 0 as kappa -> inf (alpha fixed), and so does its O-bound.",
    domain=Domain(kappa=Real(gt=1, search=(1.001, 1e4), log=True), alpha=Real(gt=0, search=(1e-6, 10.0), log=True)),
    definitions=GAMMA,
    statements=(
        Limit("T of (23) -> 0 as kappa -> inf", expr=T_STAR_UNIFORM, value=sp.Integer(0),
              path=LimitPath("kappa", "inf")),
        Limit("kappa ln(1 + 1/(kappa alpha)) -> 0 as kappa -> inf",
              expr=kappa * sp.log(1 + 1 / (kappa * alpha)), value=sp.Integer(0), path=LimitPath("kappa", "inf")),
    ),
    expected="violated",
    reason=("ln(1/gamma) ~ 1/kappa, so T = ln(1 + ln(1/gamma)/alpha)/ln(1/gamma) -> 1/alpha (and "
            "kappa ln(1 + 1/(kappa alpha)) -> 1/alpha), not 0; T even increases with kappa"),
    witness={"kappa": 10.0, "alpha": 1.0},
    error_in="proof-step", statement_survives=True,
)
CLAIM_T_LIMIT_CORRECTED = CLAIM_T_LIMIT.corrected(
    summary="The T of (23) increases with kappa towards 1/alpha: T < 1/alpha and T -> 1/alpha as kappa -> inf.",
    statements=(
        Limit("T of (23) -> 1/alpha as kappa -> inf", expr=T_STAR_UNIFORM, value=1 / alpha,
              path=LimitPath("kappa", "inf")),
        Inequality("T of (23) < 1/alpha (ln(1 + x) < x with x = ln(1/gamma)/alpha)", lhs=T_STAR_UNIFORM,
                   rhs=1 / alpha, strict=True),
        Inequality("dT/dkappa >= 0: T of (23) increases with kappa", lhs=sp.Integer(0),
                   rhs=sp.diff(T_STAR_UNIFORM.subs(GAMMA), kappa)),
    ),
)

# ----------------------------------------------------------------------------- Lemma 4.1 and (25)
_seq_domain = Domain(
    T=Int(ge=1, search=(1, 8)),
    R=Real(gt=0, search=(1e-2, 1e2), log=True),
    q=Seq("T", Real(gt=0, search=(1e-4, 1e2), log=True)),
)
SUM_SQRT_Q = sp.Sum(sp.sqrt(q[t]), (t, 1, T))
LEMMA_4_1 = Claim(
    id="dni/lemma-4.1",
    source=_src("Lemma 4.1", "(6)",
                "min R sum q_t sigma_t^2 = (sum sqrt q_t)^2 when sigma_t^2 = (1/(R sqrt q_t)) sum_i sqrt q_i, "
                "subject to sum sigma_t^-2 = R"),
    kind="minimiser",
    summary="The dynamic schedule minimises the weighted noise under the budget; the minimum is (sum sqrt q_t)^2.",
    domain=_seq_domain,
    statements=(
        Minimiser("optimal schedule (6)",
                  objective=R * sp.Sum(q[t] * sigma[t] ** 2, (t, 1, T)),
                  constraint=sp.Sum(sigma[t] ** -2, (t, 1, T)) - R,
                  value=SUM_SQRT_Q**2, var="sigma", index=s,
                  argmin=sp.sqrt(sp.Sum(sp.sqrt(q[t]), (t, 1, T)) / (R * sp.sqrt(q[s])))),
        Inequality("the minimum is below the uniform schedule's T sum q_t",
                   lhs=SUM_SQRT_Q**2, rhs=T * sp.Sum(q[t], (t, 1, T))),
    ),
)

EQ_25 = Claim(
    id="dni/eq-25",
    source=_src("Proof of Lemma 4.1", "(25)",
                "T sum q_t - (sum sqrt q_t)^2 = T^2 (1/T) sum (sqrt q_t - (1/T) sum sqrt q)^2 = T^2 Var"),
    kind="identity",
    summary="Uniform minus dynamic weighted noise equals T^2 times the variance of sqrt(q_t) over t.",
    domain=_seq_domain,
    statements=(
        Identity("variance identity (25)",
                 lhs=T * sp.Sum(q[t], (t, 1, T)) - SUM_SQRT_Q**2,
                 rhs=T**2 * sp.Sum((sp.sqrt(q[t]) - sp.Sum(sp.sqrt(q[s]), (s, 1, T)) / T) ** 2, (t, 1, T)) / T),
    ),
)

# ----------------------------------------------------------------------------- Theorem 4.3
_dyn_domain = Domain(
    Relation(sp.Le(alpha, alpha0), "alpha <= alpha0"),
    Relation(sp.Le(t, T), "t <= T"),
    kappa=Real(ge=1, search=(1.0, 1e4), log=True),
    alpha=Real(gt=0, search=(1e-8, 10.0), log=True),
    alpha0=Real(gt=0, search=(1e-2, 20.0), log=True),
    R=Real(gt=0, search=(1e-2, 1e2), log=True),
    T=Int(ge=1, search=(1, 40)),
    t=Int(ge=1, search=(1, 40)),
)
THM_4_3 = Claim(
    id="dni/thm-4.3",
    source=_src("Theorem 4.3", "(7), (8), (26)",
                "sigma_t^2 = (1/R) gamma^((t-T)/2)(1 - gamma^(T/2))/(1 - sqrt gamma) (7, OCR garbled; "
                "Lemma 4.1 with q_t = gamma^(T-t) alpha decides); T = 2 log_gamma(alpha/(alpha + (1 - sqrt gamma)^2)) "
                "(26); ERUB_min = Theta(kappa^2 alpha/(kappa^2 alpha + 1)) (8); kappa <= (1 - sqrt gamma)^-1 <= 2 kappa"),
    kind="rate",
    summary="Dynamic schedule: its ERUB, the minimising T, the minimum and its Theta rate.",
    domain=_dyn_domain,
    definitions=GAMMA,
    statements=(
        Identity("(7) is Lemma 4.1's schedule for q_t = gamma^(T-t) alpha",
                 lhs=SIGMA2_DYNAMIC,
                 rhs=sp.Sum(sp.sqrt(gamma ** (T - s) * alpha), (s, 1, T)) / (R * sp.sqrt(gamma ** (T - t) * alpha)),
                 reparam=KAPPA_H),
        Identity("dynamic ERUB: gamma^T + alpha((1 - gamma^(T/2))/(1 - sqrt gamma))^2",
                 lhs=gamma**T + R * sp.Sum(gamma ** (T - t) * alpha * SIGMA2_DYNAMIC, (t, 1, T)),
                 rhs=ERUB_DYNAMIC_T, reparam=KAPPA_H),
        Identity("the T of (26) is stationary", lhs=sp.diff(ERUB_DYNAMIC_T, T).subs(T, T_26), rhs=0),
        Identity("minimum at (26) is A/(A + 1), A = alpha (1 - sqrt gamma)^-2",
                 lhs=ERUB_DYNAMIC_T.subs(T, T_26), rhs=ERUB_MIN_DYN),
        Identity("(1 - sqrt gamma)^-2 = kappa(2 kappa - 1 + 2 sqrt(kappa(kappa - 1)))",
                 lhs=(1 - sp.sqrt(gamma)) ** -2, rhs=kappa * (2 * kappa - 1 + 2 * sp.sqrt(kappa * (kappa - 1))),
                 reparam=KAPPA_H),
        Inequality("kappa <= (1 - sqrt gamma)^-1", lhs=kappa, rhs=1 / (1 - sp.sqrt(gamma)), reparam=KAPPA_H),
        Inequality("(1 - sqrt gamma)^-1 <= 2 kappa", lhs=1 / (1 - sp.sqrt(gamma)), rhs=2 * kappa,
                   reparam=KAPPA_H),
        Inequality("ERUB_min <= 4 kappa^2 alpha/(kappa^2 alpha + 1)", lhs=ERUB_MIN_DYN, rhs=4 * RATE_8,
                   reparam={**KAPPA_H, alpha: a_}),
        Inequality("ERUB_min >= kappa^2 alpha/(4 kappa^2 alpha + 1) >= (1/4) kappa^2 alpha/(kappa^2 alpha + 1)",
                   lhs=RATE_8 / 4, rhs=ERUB_MIN_DYN, reparam={**KAPPA_H, alpha: a_}),
        Rate("(8): ERUB_min = Theta(kappa^2 alpha/(kappa^2 alpha + 1))", expr=ERUB_MIN_DYN, rate=RATE_8,
             paths=(LimitPath("alpha", "0+"), LimitPath("kappa", "inf"),
                    LimitPath("kappa", "inf", {"alpha": alpha * LimitPath.start("kappa") ** 2 / kappa**2},
                              "kappa^2 alpha fixed"))),
        Rate("(7): T of (26) = O(2 kappa ln(1 + 1/(kappa^2 alpha)))", expr=T_26,
             rate=2 * kappa * sp.log(1 + 1 / (kappa**2 * alpha)), kind="O",
             paths=(LimitPath("alpha", "0+"), LimitPath("kappa", "inf"))),
    ),
    constants=(
        Constant("upper constant 4 of (8)", "4",
                 sp.limit((1 + sp.sqrt(1 - 1 / sp.Symbol("x"))) ** 2, sp.Symbol("x"), sp.oo),
                 match="bound-ge", note="sup over kappa >= 1, alpha > 0 of ERUB_min/(kappa^2 alpha/(kappa^2 alpha+1))"),
        Constant("lower constant 1/4 of (8)", "1/4", sp.Integer(1), match="bound-le",
                 note="tight lower constant is 1 (kappa = 1): the printed 1/4 is valid but loose"),
        Constant("kappa <= (1 - sqrt gamma)^-1: constant 1", "1",
                 sp.limit((1 + sp.sqrt(1 - 1 / sp.Symbol("x"))), sp.Symbol("x"), 1), match="bound-le"),
        Constant("(1 - sqrt gamma)^-1 <= 2 kappa: constant 2", "2",
                 sp.limit((1 + sp.sqrt(1 - 1 / sp.Symbol("x"))), sp.Symbol("x"), sp.oo), match="bound-ge"),
    ),
)
