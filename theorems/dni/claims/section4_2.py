"""Claims of [dni], Section 4.2 (gradient descent with momentum): Theorems 4.4-4.8 and the momentum example."""
from __future__ import annotations

import math

import sympy as sp
from sympy.utilities.lambdify import implemented_function

from dpverify.arb_source import ball_function
from dpverify.scenarios import MCPoint, noisy_gd, worst_case
from dpverify.claims import (Choice, Claim, Constant, Domain, ExpectationBound, Identity, Inequality, Int, Real, Relation,
                           SupBound)

from .. import proofs
from .common import (D, Delta1, G, GAMMA, M, N, PGD_PARAMS, R, T, _LOGISTIC, _LOGISTIC_B, _PGD, _schedule, _src, alpha,
                     beta, gamma, i_, kappa, sigma, t)
from .section4_1 import PL_ONE_STEP

# ----------------------------------------------------------------------------- Theorem 4.4
eta0 = sp.Symbol("eta0")
v2 = sp.IndexedBase("v2")   # E||v_{t+1}||^2, observed along the run (exact on quadratics)
# Momentum PGD of eq. (10) with eta_t = eta0/(2M): bias-corrected momentum with step eta0/(2M).
_MOM = dict(_PGD, step=eta0 / (2 * M), momentum=beta)
MOMENTUM_ERUB = noisy_gd(statistic="normalised_excess", noise_std=G * sigma[t] / N, observe={"v2": "velocity_sq"},
                         mc_count=0, **_MOM)
MOMENTUM_ERUB_NO_V = noisy_gd(statistic="normalised_excess", noise_std=G * sigma[t] / N, mc_count=0, **_MOM)
MOMENTUM_UNIFORM_ERUB = noisy_gd(statistic="normalised_excess", noise_std=G * sp.sqrt(T / R) / N, mc_count=0,
                                 **_MOM)
VSUM = sp.Sum(gamma ** (T - t) * v2[t], (t, 1, T))


# The noise-free part of a momentum ERUB (sigma = 0, without the momentum-effect term, which Z >= 0 only lowers) over a
# whole class: bias-corrected momentum (10) with eta_t = eta0/(2M). The M-smooth mu-strongly convex functions are a
# subclass of the M-smooth mu-PL ones with interpolation conditions (exact: it refutes). The corrected gamma' = 1 -
# (eta0/kappa)(1 - eta0/4) is not stated over the class: at the domain's small steps the class's worst case lies
# within ~1e-8 of gamma'^T, below the SDP's accuracy (inconclusive). Theorems 4.5 and 4.6 have the same noise-free
# part (their noise terms vanish at sigma = 0): it is checked once, here.
NOISE_FREE_SC = SupBound(
    "noise-free part over every M-smooth mu-strongly convex f (mu-PL: a subclass, exact): "
    "f(theta_{T+1}) - f* <= gamma^T (f(theta_1) - f*)", bound=gamma**T * Delta1, kind="performance",
    scenario=worst_case(method="bias_corrected", function_class="smooth_strongly_convex", statistic="excess", smooth=M,
                        curvature=M / kappa, step=eta0 / (2 * M), momentum=beta, horizon=T, init_gap=Delta1))
GAMMA_MOM = {gamma: 1 - eta0 / kappa}
C_MOM = beta * gamma / ((gamma - beta) ** 2 * (1 - beta) ** 3)
U3 = sp.Sum(gamma ** (T - t) * (1 - beta) ** 2 / (1 - beta**t) ** 2
            * sp.Sum(beta ** (2 * (t - i_)) * sigma[i_] ** 2, (i_, 1, t)), (t, 1, T))
Z_MOM = 1 - beta * gamma * eta0**2 / ((1 - beta) ** 3 * (gamma - beta) ** 2) - eta0 / 4
THM_4_4 = Claim(
    id="dni/thm-4.4",
    source=_src("Theorem 4.4", "(11)-(13)",
                "beta < gamma, beta in (0,1), eta_t = eta0/(2M) (Lemma B.5's proof), "
                "eta0 <= 8 (sqrt(1 + 64 beta gamma (gamma-beta)^-2 (1-beta)^-3) + 1)^-1; EER <= (gamma^T + "
                "2 R eta0 alpha U3)(f(theta_1) - f*) - Z/(2M) sum_t gamma^(T-t) E||v_{t+1}||^2, gamma = 1 - eta0/kappa, "
                "Z = 1 - beta gamma eta0^2/((1-beta)^3 (gamma-beta)^2) - eta0/4 >= 0, U3 = sum_t gamma^(T-t) "
                "(1-beta)^2/(1-beta^t)^2 sum_i beta^(2(t-i)) sigma_i^2 (OCR garbled; Z read so that Z >= 0 is "
                "exactly the printed condition on eta0, and eta from the proofs)"),
    kind="expectation bound",
    summary=("(11): momentum EER <= (gamma^T + 2 R eta0 alpha U3)(f(theta_1) - f*) - Z/(2M) sum_t gamma^(T-t) E||v_{t+1}||^2, "
             "gamma = 1 - eta0/kappa, eta_t = eta0/(2M), Z >= 0."),
    domain=Domain(
        Relation(sp.Lt(beta, 1 - eta0 / kappa), "beta < gamma = 1 - eta0/kappa"),
        Relation(sp.Lt(eta0, kappa), "eta0 < kappa"),
        Relation(sp.Le(eta0, 8 / (sp.sqrt(1 + 64 * C_MOM.subs(GAMMA_MOM)) + 1)), "eta0 <= 8/(sqrt(1 + 64c) + 1)"),
        **{**PGD_PARAMS, "kappa": Real(gt=1, search=(1.01, 1e3), log=True)},
        beta=Real(gt=0, lt=1, search=(1e-3, 0.999)),
        eta0=Real(gt=0, search=(1e-3, 8.0), log=True),
    ),
    definitions={alpha: D * G**2 / (2 * R * M * N**2 * Delta1), **GAMMA_MOM},
    statements=(
        Identity("Z >= 0 is exactly the printed condition on eta0 (the larger root of Z = 0)",
                 lhs=Z_MOM.subs(eta0, sp.Symbol("e")).subs(sp.Symbol("e"), 8 / (sp.sqrt(1 + 64 * C_MOM) + 1)), rhs=0,
                 skip=("scaling", "symbolic")),
        ExpectationBound("EER bound (11)",
                         bound=gamma**T + 2 * R * eta0 * alpha * U3 - Z_MOM * VSUM / (2 * M * Delta1),
                         scenario=MOMENTUM_ERUB),
        ExpectationBound("(11) without its momentum-effect term (weaker, since Z >= 0)",
                         bound=gamma**T + 2 * R * eta0 * alpha * U3, scenario=MOMENTUM_ERUB_NO_V),
        NOISE_FREE_SC,
    ),
    expected="violated",
    reason=("with eta_t = eta0/(2M) one PL descent step contracts by 1 - (eta0/kappa)(1 - eta0/4), not gamma = "
            "1 - eta0/kappa: the bound fails even without its momentum-effect term (kappa=1.01, eta0=0.5, "
            "beta=0.01, negligible noise: 0.0577 > gamma^5 = 0.0328)"),
    witness={"kappa": 1.01, "M": 1.0, "G": 1.0, "N": 1.0, "D": 1, "Delta1": 0.495, "R": 20.0, "T": 1, "beta": 0.125,
             "eta0": 0.505, "sigma": [1.0]},
    error_in="statement", statement_survives=False,
)
GAMMA_MOM_C = {gamma: 1 - eta0 / kappa * (1 - eta0 / 4)}
THM_4_4_CORRECTED = THM_4_4.corrected(
    summary=("(11) with the contraction 1 - (eta0/kappa)(1 - eta0/4) and without the momentum-effect term; "
             "checked on quadratics (no proof)."),
    definitions={alpha: D * G**2 / (2 * R * M * N**2 * Delta1), **GAMMA_MOM_C},
    statements=(
        ExpectationBound("E f(theta_{T+1}) - f* <= (gamma'^T + 2 R eta0 alpha U3)(f(theta_1) - f*)",
                         bound=gamma**T + 2 * R * eta0 * alpha * U3, scenario=MOMENTUM_ERUB_NO_V),
    ),
)

_ETA0_MAX = 8 / (sp.sqrt(1 + 64 * C_MOM) + 1)      # Theorem 4.4's condition eta0 <= this, with c(beta, gamma)
_example_domain = Domain(beta=Choice((0.9,)), gamma=Choice((0.99,)))
MOMENTUM_EXAMPLE = Claim(
    id="dni/claim-momentum-example",
    source=_src("Theorem 4.4", None,
                "after Theorem 4.4: 'The momentum effect term can improve the upper bound when eta0 is small. For "
                "example, when beta = 0.9 and gamma = 0.99, then eta0 <= 0.98/M which is a rational value.' (the "
                "condition of Theorem 4.4: eta0 <= 8 (sqrt(1 + 64 beta gamma (gamma - beta)^-2 (1 - beta)^-3) + 1)^-1)"),
    kind="constant",
    summary="Theorem 4.4's step-size condition at beta = 0.9, gamma = 0.99 reads eta0 <= 0.98 (/M).",
    domain=_example_domain,
    statements=(
        Identity("8/(sqrt(1 + 64 c) + 1) = 0.98 at beta = 0.9, gamma = 0.99", lhs=_ETA0_MAX,
                 rhs=sp.Rational(98, 100)),
    ),
    expected="violated",
    reason=("c = beta gamma/((gamma - beta)^2 (1 - beta)^3) = 110000 at beta = 0.9, gamma = 0.99, so the condition is "
            "eta0 <= 8/(sqrt(7040001) + 1) = 0.0030140, not 0.98; and gamma = 1 - eta0/kappa = 0.99 then needs "
            "kappa = 100 eta0 <= 0.30 < 1: no loss admits the example"),
    witness={"beta": 0.9, "gamma": 0.99},
    constants=(Constant("largest eta0 at beta = 0.9, gamma = 0.99", "0.98", _ETA0_MAX.subs({beta: sp.Rational(9, 10),
                                                                                            gamma: sp.Rational(99, 100)}),
                        note="the printed condition gives 0.003014"),),
    error_in="statement", statement_survives=False,
)
MOMENTUM_EXAMPLE_CORRECTED = MOMENTUM_EXAMPLE.corrected(
    summary=("At beta = 0.9, gamma = 0.99 the condition is eta0 <= 0.0030140; with gamma = 1 - eta0/kappa that needs "
             "kappa <= 0.30, outside kappa >= 1: the example admits no M-smooth, mu-PL loss."),
    statements=(
        Inequality("8/(sqrt(1 + 64 c) + 1) < 0.003014", lhs=_ETA0_MAX, rhs=sp.Rational(3014, 10**6), strict=True),
        Inequality("8/(sqrt(1 + 64 c) + 1) > 0.003013", lhs=sp.Rational(3013, 10**6), rhs=_ETA0_MAX, strict=True),
        Inequality("kappa = eta0/(1 - gamma) < 1 for every admissible eta0", lhs=_ETA0_MAX / (1 - gamma),
                   rhs=sp.Integer(1), strict=True),
    ),
    constants=(Constant("largest eta0 at beta = 0.9, gamma = 0.99", "0.003014",
                        _ETA0_MAX.subs({beta: sp.Rational(9, 10), gamma: sp.Rational(99, 100)})),),
    expected="verified",
)

# ----------------------------------------------------------------------------- Theorems 4.5 and 4.6
# T_hat of Lemma B.7 as a function of (beta, gamma), evaluated by the scenario's scan.
T_HAT = ball_function(implemented_function("T_hat", lambda b, g: proofs.t_hat(float(b), float(g))), proofs.T_HAT_BALL)


def _u3_uniform_bracket(g):
    """The proof of Theorem 4.5: U3 <= (T/R) gamma^(T-1) (min{T, T_hat} + max{(gamma^(T_hat-T) - 1)/(1 - gamma), 0})."""
    th = T_HAT(beta, g)
    return sp.Min(T, th) + sp.Max((g ** (th - T) - 1) / (1 - g), 0)


def _q_dynamic(g, tt):
    """The proof of Theorem 4.6's q_t (both regimes of Lemma B.7's T_hat)."""
    th = T_HAT(beta, g)
    return sp.Piecewise((2 * g ** (T + tt) / (g * (g - beta**2)), tt <= th),
                        (g ** (2 * (th - 1)) * (g ** (T + 1 - tt) - beta ** (2 * (T + 1 - tt))) / (g - beta**2), True))


_MOM_RELATIONS = (
    Relation(sp.Lt(beta, 1 - eta0 / kappa), "beta < gamma = 1 - eta0/kappa"),
    Relation(sp.Lt(eta0, kappa), "eta0 < kappa"),
    Relation(sp.Le(eta0, 8 / (sp.sqrt(1 + 64 * C_MOM.subs(GAMMA_MOM)) + 1)), "eta0 <= 8/(sqrt(1 + 64c) + 1)"),
)
_MOM_PARAMS = dict(
    kappa=Real(gt=1, search=(1.01, 1e3), log=True),
    eta0=Real(gt=0, search=(1e-3, 8.0), log=True),
    beta=Real(gt=0, lt=1, search=(1e-3, 0.999)),
    T=Int(ge=1, search=(1, 60)),
    R=Real(gt=0, search=(1e-2, 1e2), log=True),
    M=PGD_PARAMS["M"], G=PGD_PARAMS["G"], N=PGD_PARAMS["N"], D=PGD_PARAMS["D"], Delta1=PGD_PARAMS["Delta1"],
)
_ALPHA = {alpha: D * G**2 / (2 * R * M * N**2 * Delta1)}
ERUB_4_5 = gamma**T * (1 + 2 * eta0 * alpha / gamma * T * _u3_uniform_bracket(gamma))
ERUB_4_6 = gamma**T + 2 * eta0 * alpha * R * sp.Sum(_q_dynamic(gamma, t) * sigma[t] ** 2, (t, 1, T))
_INHERITS = ("it is Theorem 4.4's bound (Z >= 0) with U3 bounded, so it inherits 4.4's contraction: with eta_t = "
             "eta0/(2M) a PL step contracts by 1 - (eta0/kappa)(1 - eta0/4), not gamma = 1 - eta0/kappa, and the "
             "bound fails where the noise is small")

THM_4_5 = Claim(
    id="dni/thm-4.5",
    source=_src("Theorem 4.5", None,
                "proof of Theorem 4.5: with sigma_t^2 = T/R, U3 <= (T/R) gamma^(T-1) (min{T, T_hat} + "
                "max{(gamma^(T_hat-T) - 1)/(1 - gamma), 0}), T_hat of Lemma B.7, gamma = 1 - eta0/kappa; "
                "'By Theorem 4.4, because Z >= 0, ERUB <= gamma^T + 2 R eta0 alpha U3 = gamma^T (1 + (alpha'/gamma) T "
                "(min{T, T_hat} + max{...})), alpha' = 2 eta0 alpha (the theorem's O-bound on ERUB_min and its T are "
                "too garbled by OCR to encode; these explicit steps are)"),
    kind="expectation bound",
    summary=("Momentum, uniform schedule: ERUB <= gamma^T (1 + (2 eta0 alpha/gamma) T (min{T, T_hat} + "
             "max{(gamma^(T_hat-T) - 1)/(1 - gamma), 0})), gamma = 1 - eta0/kappa (the proof's U3 bound through Thm 4.4)."),
    domain=Domain(*_MOM_RELATIONS, **_MOM_PARAMS),
    definitions={**_ALPHA, **GAMMA_MOM},
    statements=(
        SupBound("U3 / ((T/R) gamma^(T-1) (min{T, T_hat} + max{(gamma^(T_hat-T) - 1)/(1 - gamma), 0})) <= 1",
                 bound=sp.Integer(1), scenario=proofs.U3_UNIFORM, kind="supremum"),
        ExpectationBound("ERUB <= gamma^T (1 + (2 eta0 alpha/gamma) T (min{T, T_hat} + max{...}))",
                         bound=ERUB_4_5, scenario=MOMENTUM_UNIFORM_ERUB),
    ),
    expected="violated",
    reason=f"the U3 step holds; the ERUB step fails: {_INHERITS}",
    witness={"kappa": 1.01, "M": 1.0, "G": 1.0, "N": 1.0, "D": 1, "Delta1": 0.495, "R": 20.0, "T": 1, "beta": 0.125,
             "eta0": 0.505},
    error_in="statement", statement_survives=False,
)


def _with_corrected_contraction(printed, summary, name, bound, scenario):
    """The ``-corrected`` claim of a momentum ERUB: gamma' = 1 - (eta0/kappa)(1 - eta0/4) for gamma."""
    return printed.corrected(builds_on=("dni/thm-4.4-corrected",), summary=summary, definitions={**_ALPHA, **GAMMA_MOM_C},
                             statements=(ExpectationBound(name, bound=bound, scenario=scenario),))


THM_4_5_CORRECTED = _with_corrected_contraction(
    THM_4_5, ("The uniform-schedule ERUB with Theorem 4.4-corrected's contraction gamma' = 1 - (eta0/kappa)(1 - "
              "eta0/4) in place of gamma (also in T_hat and the U3 bound); checked on quadratics (no proof)."),
    "ERUB <= gamma'^T (1 + (2 eta0 alpha/gamma') T (min{T, T_hat'} + max{...}))", ERUB_4_5,
    MOMENTUM_UNIFORM_ERUB)

THM_4_6 = Claim(
    id="dni/thm-4.6",
    source=_src("Theorem 4.6", None,
                "ERUB <= gamma^T + 2 eta0 alpha sum_t R q_t sigma_t^2 (statement); proof: U3 <= (2 gamma^T/(gamma(gamma - "
                "beta^2))) sum_{i<=T_hat} gamma^i sigma_i^2 + gamma^(2 T_hat - 2) sum_{i>T_hat} (gamma^(T+1-i) - "
                "beta^(2(T+1-i)))/(gamma - beta^2) sigma_i^2 = sum_t q_t sigma_t^2 (the theorem's c1, c2 and its "
                "O-bound are too garbled by OCR to encode; these explicit steps, for every schedule, are)"),
    kind="expectation bound",
    summary=("Momentum, dynamic schedule: ERUB <= gamma^T + 2 eta0 alpha R sum_t q_t sigma_t^2 with the proof's q_t, "
             "gamma = 1 - eta0/kappa."),
    domain=Domain(*_MOM_RELATIONS, **{**_MOM_PARAMS, "sigma": PGD_PARAMS["sigma"]}),
    definitions={**_ALPHA, **GAMMA_MOM},
    statements=(
        SupBound("max_i (coefficient of sigma_i^2 in U3) / q_i <= 1 (so U3 <= sum q_t sigma_t^2 for every schedule)",
                 bound=sp.Integer(1), scenario=proofs.U3_DYNAMIC, kind="supremum"),
        ExpectationBound("ERUB <= gamma^T + 2 eta0 alpha R sum_t q_t sigma_t^2", bound=ERUB_4_6,
                         scenario=MOMENTUM_ERUB_NO_V),
    ),
    expected="violated",
    reason=f"the q_t step holds; the ERUB of the statement fails: {_INHERITS}",
    witness={"kappa": 1.65, "eta0": 1.0, "beta": 0.0625, "T": 1, "R": 1.0, "M": 1.0, "G": 1.0, "N": 1.0, "D": 1,
             "Delta1": 1.0, "sigma": [0.135]},
    error_in="statement", statement_survives=False,
)
THM_4_6_CORRECTED = _with_corrected_contraction(
    THM_4_6, ("The dynamic-schedule ERUB with gamma' = 1 - (eta0/kappa)(1 - eta0/4) in place of gamma (also in "
              "T_hat and q_t); checked on quadratics (no proof)."),
    "ERUB <= gamma'^T + 2 eta0 alpha R sum_t q'_t sigma_t^2", ERUB_4_6, MOMENTUM_ERUB_NO_V)

# ----------------------------------------------------------------------------- Theorem 4.7
sigma_g = sp.Symbol("sigma_g")
n_batch = sp.Max(N * sp.sqrt(R), 1)
R_PRIME = R * N**2 / n_batch**2
# Private SGD of section 4.3: mini-batches of n = max{N sqrt(R), 1} drawn with replacement, noise G sigma_t/n,
# sum_t sigma_t^-2 = R' = R N^2/n^2; the sampling-noise constant sigma_g^2 = n max||x||^2 / D (the ridge term is
# common to every sample and the logistic factor lies in (0, 1), so a mini-batch gradient's variance is at most
# max||x||^2 / n), from the measured largest feature norm.
_r_prime = lambda pt: pt["R"] * pt["N"] ** 2 / max(pt["N"] * pt["R"] ** 0.5, 1) ** 2  # noqa: E731
_PSGD_MC = (MCPoint(_LOGISTIC, {"G": 1.0, "R": 0.01}, _schedule("uniform", 10, _r_prime)),
            MCPoint(_LOGISTIC, {"G": 1.0, "R": 0.01}, _schedule("dynamic", 10, _r_prime)),
            MCPoint(_LOGISTIC_B, {"G": 1.0, "R": 0.01}, _schedule("uniform", 20, _r_prime)))
PSGD_ERUB = noisy_gd(statistic="normalised_excess", step=1 / M, noise_std=G * sigma[t] / n_batch, batch=n_batch,
                     feature_norm=sp.sqrt(D * sigma_g**2 / n_batch), mc=_PSGD_MC, **_PGD)
THM_4_7 = Claim(
    id="dni/thm-4.7",
    source=_src("Theorem 4.7", "(14)",
                "PSGD with n = max{N sqrt(R), 1}: ERUB = gamma^T + alpha_g sigma_g^2 + R' sum_t q_t sigma_t^2, "
                "q_t = gamma^(T-t) alpha, sum_t 1/sigma_t^2 = R', alpha_g = D/(2 mu N^2 R (f(theta_1) - f*)); "
                "sampling noise grad_t = grad f + sigma_g xi_t/n with E||xi_t||^2 <= D; R' = R/p^2, p = n/N"),
    kind="expectation bound",
    summary="Private SGD with eta = 1/M: the PGD bound plus alpha_g sigma_g^2 for mini-batch sampling noise.",
    domain=Domain(**{**PGD_PARAMS, "R": Real(gt=0, search=(1e-4, 1.0), log=True),
                     "sigma_g": Real(ge=0, search=(0.0, 10.0), units=(1, -1))}),
    definitions={alpha: D * G**2 / (2 * R * M * N**2 * Delta1), **GAMMA},
    statements=(
        Identity("alpha is unchanged when N^2 R is replaced by n^2 R' (n >= 1)",
                 lhs=D * G**2 / (2 * R_PRIME * M * n_batch**2 * Delta1), rhs=alpha),
        ExpectationBound("ERUB (14)",
                         bound=gamma**T + D / (2 * (M / kappa) * N**2 * R * Delta1) * sigma_g**2
                         + R_PRIME * sp.Sum(gamma ** (T - t) * alpha * sigma[t] ** 2, (t, 1, T)),
                         scenario=PSGD_ERUB),
        PL_ONE_STEP,
    ),
)

# ----------------------------------------------------------------------------- Theorem 4.8
_w = lambda tt: (1 - beta) ** 2 / (1 - beta**tt) ** 2 * sp.Sum(beta ** (2 * (tt - i_)), (i_, 1, tt))  # noqa: E731
U3_G = sigma_g**2 / G**2 * sp.Sum(gamma ** (T - t) * _w(t), (t, 1, T))
ALPHA_G = D / (2 * (M / kappa) * N**2 * R * Delta1)
_thm48_domain = Domain(
    Relation(sp.Lt(beta, 1 - eta0 / kappa), "beta < gamma = 1 - eta0/kappa"),
    Relation(sp.Lt(eta0, kappa), "eta0 < kappa"),
    Relation(sp.Le(eta0, 8 / (sp.sqrt(1 + 64 * C_MOM.subs(GAMMA_MOM)) + 1)), "eta0 <= 8/(sqrt(1 + 64c) + 1)"),
    kappa=Real(gt=1, search=(1.01, 1e3), log=True),
    M=PGD_PARAMS["M"], G=PGD_PARAMS["G"], D=PGD_PARAMS["D"], Delta1=PGD_PARAMS["Delta1"],
    N=Real(ge=1, search=(1, 1e4), log=True),
    R=Real(gt=0, search=(1e-4, 1.0), log=True),
    T=Int(ge=1, search=(1, 30)),
    t=Int(ge=1, search=(1, 30)),
    beta=Real(gt=0, lt=1, search=(1e-3, 0.999)),
    eta0=Real(gt=0, search=(1e-3, 8.0), log=True),
    sigma_g=Real(gt=0, search=(1e-2, 10.0), log=True, units=(1, -1)),
)
THM_4_8 = Claim(
    id="dni/thm-4.8",
    source=_src("Theorem 4.8", "(15)",
                "assumptions of Theorem 4.4 (gamma = 1 - eta0/kappa); n = max{N sqrt(R), 1}; U3 = U3^g + U3 with "
                "alpha R U3^g <= alpha_g sigma_g^2, U3^g = (sigma_g^2/G^2) sum_t gamma^(T-t) (1-beta)^2/(1-beta^t)^2 "
                "sum_i beta^(2(t-i)); proof: ... <= (sigma_g^2/G^2) 1/(1 - gamma) = (sigma_g^2/G^2) kappa; "
                "alpha R' U3^g <= D sigma_g^2/(2 mu N^2 R (f(theta_1) - f*)) (R' = R N^2/n^2)"),
    kind="inequality",
    summary="(15): with momentum, the sampling-noise part of U3 costs alpha R' U3^g <= alpha_g sigma_g^2.",
    domain=_thm48_domain,
    definitions={alpha: D * G**2 / (2 * R * M * N**2 * Delta1), **GAMMA_MOM},
    statements=(
        Inequality("proof step: (1-beta)^2/(1-beta^t)^2 sum_{i<=t} beta^(2(t-i)) <= 1", lhs=_w(t), rhs=sp.Integer(1)),
        Inequality("(15): alpha R' U3^g <= alpha_g sigma_g^2", lhs=alpha * R_PRIME * U3_G, rhs=ALPHA_G * sigma_g**2,
                   skip=("symbolic",)),
    ),
    expected="violated",
    reason=("the proof bounds sum_t gamma^(T-t) by 1/(1 - gamma) = kappa, but Theorem 4.4's gamma = 1 - eta0/kappa "
            "gives kappa/eta0: (15) fails whenever eta0 < 1 - gamma^T (e.g. beta -> 0, eta0 = 1/2, T large)"),
    witness={"kappa": math.e, "M": 1.0, "G": 1.0, "D": 1, "Delta1": 1.0, "N": 1.0, "R": 1.0, "T": 6, "t": 1,
             "beta": 0.25, "eta0": math.exp(-1), "sigma_g": 1.0},
    error_in="statement", statement_survives=False,
)
THM_4_8_CORRECTED = THM_4_8.corrected(
    summary="alpha R' U3^g <= alpha_g sigma_g^2 / eta0, so the sampling term of (11) is at most 2 alpha_g sigma_g^2.",
    statements=(
        Inequality("alpha R' U3^g <= alpha_g sigma_g^2 / eta0", lhs=alpha * R_PRIME * U3_G,
                   rhs=ALPHA_G * sigma_g**2 / eta0, skip=("symbolic",)),
    ),
)
