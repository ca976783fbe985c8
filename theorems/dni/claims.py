"""Claims of [dni]: "On Dynamic Noise Influence in Differential Private Learning" (ICLR 2021 submission).

Seed file ``000_155fea93f75f24eb.txt``. Every claim is encoded as printed; where OCR garbled a
formula the surrounding derivation decides (and the ``Source.text`` quotes what was read). Where
the paper is wrong the printed claim is kept with ``expected="violated"`` and a ``-corrected``
claim that holds sits next to it.

Notation (eq. (2)): kappa = M/mu, gamma = 1 - 1/kappa, 1/alpha = 2 R M N^2 (f(theta_1) - f*)/(D G^2),
q_t = gamma^(T-t) alpha (eq. (3)).
"""
from __future__ import annotations

import math

import sympy as sp
from sympy.utilities.lambdify import implemented_function

from dpverify import sim
from dpverify.scenarios import (LogisticData, MCPoint, budget_filter_gd, coupled_stability, gaussian_mechanism,
                                noisy_gd, squared_loss_sensitivity)
from dpverify.spec import (
    Choice, Claim, Constant, Domain, ExpectationBound, Identity, Inequality, Int, Limit, LimitPath,
    Minimiser, Rate, Real, Relation, Seq, Source, SupBound,
)

from . import proofs

SEED = "000_155fea93f75f24eb.txt"

# ----------------------------------------------------------------------------- symbols
kappa, alpha, R, T, t, s = sp.symbols("kappa alpha R T t s")
c, alpha0 = sp.symbols("c alpha0")
M, mu, G, N, D, Delta1, eta = sp.symbols("M mu G N D Delta1 eta")
eps, delta, rho, order = sp.symbols("epsilon delta rho order")
B = sp.Symbol("B")
beta = sp.Symbol("beta")
k, i_ = sp.symbols("k i", integer=True)
q = sp.IndexedBase("q")
sigma = sp.IndexedBase("sigma")
gamma = sp.Symbol("gamma")
k_ = sp.Symbol("k", positive=True)  # kappa = 1 + k in proofs
h_ = sp.Symbol("h", positive=True)  # kappa = (1+h)^2/(h(h+2)), i.e. sqrt(gamma) = 1/(1+h): kappa > 1
a_ = sp.Symbol("a", positive=True)
KAPPA_H = {kappa: (1 + h_) ** 2 / (h_ * (h_ + 2))}

GAMMA = {gamma: 1 - 1 / kappa}
L = sp.log(1 / delta)

# ----------------------------------------------------------------------------- shared pieces
ERUB_UNIFORM_T = gamma**T + alpha * kappa * (1 - gamma**T) * T          # (21)
T_STAR_UNIFORM = sp.log(1 + sp.log(1 / gamma) / alpha) / sp.log(1 / gamma)  # (23)
ERUB_24 = (1 + kappa * sp.log(1 + sp.log(1 / gamma) / alpha)) / (1 + sp.log(1 / gamma) / alpha)  # (24)
RATE_5 = kappa**2 / (kappa + 1 / alpha) * sp.log(1 + 1 / (kappa * alpha))

SIGMA2_DYNAMIC = gamma ** ((t - T) / 2) * (1 - gamma ** (T / 2)) / (R * (1 - sp.sqrt(gamma)))  # (7)
ERUB_DYNAMIC_T = gamma**T + alpha * ((1 - gamma ** (T / 2)) / (1 - sp.sqrt(gamma))) ** 2
A_DYN = alpha / (1 - sp.sqrt(gamma)) ** 2
T_26 = 2 * sp.log(alpha / (alpha + (1 - sp.sqrt(gamma)) ** 2)) / sp.log(gamma)  # (26)
ERUB_MIN_DYN = A_DYN / (A_DYN + 1)
RATE_8 = kappa**2 * alpha / (kappa**2 * alpha + 1)

RHO_PRINTED = eps + 2 * L + 2 * sp.sqrt(L * (eps + L))    # below Lemma B.3, as printed
RHO_ROOT = eps + 2 * L - 2 * sp.sqrt(L * (eps + L))       # the root of rho + 2 sqrt(rho L) = eps
R_MA = eps**2 / L                                         # section 4.1.3 / Table 2


# The parameters of a PGD run on an M-smooth, mu-PL loss (eq. (2)); units for the scaling check.
PGD_PARAMS = dict(
    kappa=Real(ge=1, search=(1.0, 1e3), log=True),
    M=Real(gt=0, search=(1e-2, 1e2), log=True, units=(1, -2)),
    G=Real(gt=0, search=(1e-2, 1e2), log=True, units=(1, -1)),
    N=Real(ge=1, search=(1, 1e4), log=True),
    D=Int(ge=1, search=(1, 50)),
    Delta1=Real(gt=0, search=(1e-3, 1e3), log=True, units=(1, 0)),
    R=Real(gt=0, search=(1e-2, 1e2), log=True),
    T=Int(ge=1, search=(1, 12)),
    sigma=Seq("T", Real(gt=0, search=(1e-2, 1e2), log=True)),
)

_src = Source.for_document(SEED)

# ----------------------------------------------------------------------------- the paper's algorithms
# PGD of eq. (1), theta_{t+1} = theta_t - eta (grad f(theta_t) + sigma_t G nu_t / N), in the engine's
# terms: an M-smooth, mu-PL problem (mu = M/kappa), step eta, gradient noise std G sigma_t / N.
_PGD = dict(smooth=M, curvature=M / kappa, dim=D, horizon=T, init_gap=Delta1, n_samples=N)
_LOGISTIC = LogisticData(n=200, d=5, lam=0.05)
_LOGISTIC_B = LogisticData(n=200, d=5, lam=0.1)


def _alpha_at(pt, R_key="R"):
    """alpha of eq. (2) at a point of the claim's parameters."""
    return pt["D"] * pt["G"] ** 2 / (2 * pt[R_key] * pt["M"] * pt["N"] ** 2 * pt["Delta1"])


def _schedule(kind, T_steps, budget=lambda pt: pt["R"]):
    """A noise schedule sigma_1..sigma_T spending the budget R (section 4.1): uniform, dynamic (7), exponential."""
    def make(pt):
        R_ = budget(pt)
        if kind == "uniform":
            sig = sim.uniform(T_steps, R_)
        elif kind == "dynamic":
            sig = sim.dynamic_pgd(pt["kappa"], _alpha_at(pt), R_, T_steps)
        else:
            sig = sim.exponential_for_budget(0.1, T_steps, R_)
        return {"T": T_steps, "sigma": [float(x) for x in sig]}
    return make


_PGD_MC = (MCPoint(_LOGISTIC, {"G": 1.0, "R": 1e-3}, _schedule("uniform", 10)),
           MCPoint(_LOGISTIC, {"G": 1.0, "R": 1e-3}, _schedule("dynamic", 10)),
           MCPoint(_LOGISTIC_B, {"G": 1.0, "R": 1e-3}, _schedule("exponential", 20)))
PGD_ERUB = noisy_gd(problem="pl", statistic="normalised_excess", step=1 / M, noise_std=G * sigma[t] / N,
                    mc=_PGD_MC, **_PGD)


# ----------------------------------------------------------------------------- Theorem 4.1
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
    ),
)

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
    ),
    expected="violated",
    reason=("with eta_t = eta0/(2M) one PL descent step contracts by 1 - (eta0/kappa)(1 - eta0/4), not gamma = "
            "1 - eta0/kappa: the bound fails even without its momentum-effect term (kappa=1.01, eta0=0.5, "
            "beta=0.01, negligible noise: 0.0577 > gamma^5 = 0.0328)"),
    witness={"kappa": 1.01, "M": 1.0, "G": 1.0, "N": 1.0, "D": 1, "Delta1": 0.495, "R": 20.0, "T": 1, "beta": 0.125,
             "eta0": 0.505, "sigma": [1.0]},
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
T_HAT = implemented_function("T_hat", lambda b, g: proofs.t_hat(float(b), float(g)))


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
)


def _with_corrected_contraction(printed, summary, name, bound, scenario):
    """The ``-corrected`` claim of a momentum ERUB: gamma' = 1 - (eta0/kappa)(1 - eta0/4) for gamma."""
    return printed.corrected(summary=summary, definitions={**_ALPHA, **GAMMA_MOM_C},
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
)
THM_4_8_CORRECTED = THM_4_8.corrected(
    summary="alpha R' U3^g <= alpha_g sigma_g^2 / eta0, so the sampling term of (11) is at most 2 alpha_g sigma_g^2.",
    statements=(
        Inequality("alpha R' U3^g <= alpha_g sigma_g^2 / eta0", lhs=alpha * R_PRIME * U3_G,
                   rhs=ALPHA_G * sigma_g**2 / eta0, skip=("symbolic",)),
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
                    LimitPath("kappa", "inf", {"alpha": lambda x, b: b["alpha"] * b["kappa"] / x},
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
                    LimitPath("kappa", "inf", {"alpha": lambda x, b: b["alpha"] * b["kappa"] ** 2 / x ** 2},
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

# ----------------------------------------------------------------------------- privacy lemmas
SIG, DELTA = sp.Symbol("sigma"), sp.Symbol("Delta")
_x = sp.Symbol("x", real=True)


def _gauss(mean, sd):
    return sp.exp(-(_x - mean) ** 2 / (2 * sd**2)) / (sp.sqrt(2 * sp.pi) * sd)


# Renyi divergence of order `order` between the outputs on neighbouring inputs (f(x) - f(x') = Delta).
RENYI_OVER_ORDER = sp.log(sp.Integral(
    sp.exp(order * sp.log(_gauss(0, DELTA * SIG)) + (1 - order) * sp.log(_gauss(DELTA, DELTA * SIG))),
    (_x, -sp.oo, sp.oo))) / (order - 1) / order

LEMMA_B_2 = Claim(
    id="dni/lemma-b.2",
    source=_src("Lemma B.2", None, "M(x) = f(x) + N(0, Delta^2 sigma^2 I) satisfies 1/(2 sigma^2)-zCDP"),
    kind="privacy bound",
    summary="Gaussian mechanism with noise std Delta*sigma is 1/(2 sigma^2)-zCDP (Bun & Steinke 2016).",
    domain=Domain(
        sigma=Real(gt=0, search=(0.2, 20.0), log=True),
        Delta=Real(gt=0, search=(1e-3, 1e3), log=True),
        order=Real(gt=1, search=(1.01, 64.0), log=True),
    ),
    statements=(
        Identity("D_alpha(N(0, s^2) || N(Delta, s^2)) / alpha = 1/(2 sigma^2) with s = Delta sigma (SymPy integral)",
                 lhs=RENYI_OVER_ORDER, rhs=1 / (2 * SIG**2), reparam={order: 1 + a_, SIG: sp.Symbol("S", positive=True),
                                                                     DELTA: sp.Symbol("Dl", positive=True)}),
        SupBound("Renyi divergence of order alpha over alpha <= 1/(2 sigma^2)",
                 bound=1 / (2 * SIG**2), scenario=gaussian_mechanism(sensitivity=DELTA, noise_std=DELTA * SIG, order=order, measure="renyi_over_order"), kind="privacy"),
    ),
)

LEMMA_B_3 = Claim(
    id="dni/lemma-b.3",
    source=_src("Lemma B.3", None, "rho-zCDP implies (rho + 2 sqrt(rho ln(1/delta)), delta)-DP for any delta > 0"),
    kind="privacy bound",
    summary="zCDP to (eps, delta)-DP conversion (Bun & Steinke 2016, Prop. 1.3).",
    domain=Domain(
        rho=Real(gt=0, search=(1e-4, 10.0), log=True),
        delta=Real(gt=0, lt=1, search=(1e-12, 0.5), log=True),
        order=Real(gt=1, search=(1.001, 1e4), log=True),
    ),
    statements=(
        Identity("RDP conversion rho a + ln(1/delta)/(a - 1) at its minimiser a* = 1 + sqrt(ln(1/delta)/rho)",
                 lhs=(rho * order + L / (order - 1)).subs(order, 1 + sp.sqrt(L / rho)),
                 rhs=rho + 2 * sp.sqrt(rho * L)),
        Inequality("rho + 2 sqrt(rho ln 1/delta) is the minimum over RDP orders",
                   lhs=rho + 2 * sp.sqrt(rho * L), rhs=rho * order + L / (order - 1)),
        SupBound("exact delta of the Gaussian mechanism at eps = rho + 2 sqrt(rho ln 1/delta)",
                 bound=delta, scenario=gaussian_mechanism(sensitivity=1, noise_std=1 / sp.sqrt(2 * rho),
                                               eps=rho + 2 * sp.sqrt(rho * L), measure="delta_at_eps"), kind="privacy"),
    ),
)

_eps_delta = dict(
    epsilon=Real(gt=0, search=(1e-3, 50.0), log=True),
    delta=Real(gt=0, lt=1, search=(1e-12, 0.5), log=True),
)
_INVERSION_CONSTANTS_TEXT = "Appendix D: 0.1963-zCDP (equal to (4, 1e-8)-DP) which implies R = 0.3927"
ZCDP_INVERSION = Claim(
    id="dni/claim-zcdp-inversion",
    source=_src("below Lemma B.3; section 4.1.3; Appendix D", None,
                "By solving rho + 2 sqrt(rho ln(1/delta)) = eps, we can get rho = eps + 2 ln(1/delta) + "
                "2 sqrt(ln(1/delta)(eps + ln(1/delta))); R = 2 rho. " + _INVERSION_CONSTANTS_TEXT),
    kind="identity",
    summary="rho = eps + 2 ln(1/delta) + 2 sqrt(ln(1/delta)(eps + ln(1/delta))) solves rho + 2 sqrt(rho ln(1/delta)) = eps.",
    domain=Domain(**_eps_delta),
    statements=(
        Identity("printed rho solves rho + 2 sqrt(rho ln 1/delta) = eps",
                 lhs=RHO_PRINTED + 2 * sp.sqrt(RHO_PRINTED * L), rhs=eps),
    ),
    expected="violated",
    reason=("the printed '+' root is spurious: it solves rho - 2 sqrt(rho L) = eps; the root is "
            "rho = eps + 2L - 2 sqrt(L(eps + L)) = (sqrt(L + eps) - sqrt L)^2 (appendix D's 0.1963 uses it)"),
    constants=(
        Constant("rho of (4, 1e-8)-DP from the printed formula", "0.1963",
                 RHO_PRINTED.subs({eps: 4, delta: sp.Rational(1, 10**8)}),
                 note="the printed formula gives 81.48, not appendix D's 0.1963"),
    ),
    witness={"epsilon": 1.0, "delta": math.exp(-1)},
)
ZCDP_INVERSION_CORRECTED = ZCDP_INVERSION.corrected(
    summary="rho = eps + 2L - 2 sqrt(L(eps + L)) = (sqrt(L + eps) - sqrt L)^2 solves Lemma B.3's equation.",
    statements=(
        Identity("rho = (sqrt(L + eps) - sqrt L)^2", lhs=RHO_ROOT,
                 rhs=(sp.sqrt(L + eps) - sp.sqrt(L)) ** 2),
        Identity("rho solves rho + 2 sqrt(rho ln 1/delta) = eps",
                 lhs=RHO_ROOT + 2 * sp.sqrt(RHO_ROOT * L), rhs=eps),
    ),
    constants=(
        Constant("rho of (4, 1e-8)-DP", "0.1963", RHO_ROOT.subs({eps: 4, delta: sp.Rational(1, 10**8)}),
                 match="truncate", note="0.19635... is printed cut to 0.1963; rounding gives 0.1964"),
        Constant("R = 2 rho for (4, 1e-8)-DP", "0.3927", 2 * RHO_ROOT.subs({eps: 4, delta: sp.Rational(1, 10**8)})),
    ),
)

R_COMPARISON = Claim(
    id="dni/claim-r-comparison",
    source=_src("Section 4.1.3", None,
                "based on Lemma B.3, R = 2 rho = 2 eps + 4 ln(1/delta) + 4 sqrt(ln(1/delta)(eps + ln(1/delta))) ... "
                "it is easy to see R = R_zCDP > R_MA when eps <= 2 ln(1/delta); R_MA = eps^2/ln(1/delta) (Table 2)"),
    kind="inequality",
    summary="R_zCDP > R_MA = eps^2/ln(1/delta) when eps <= 2 ln(1/delta).",
    domain=Domain(Relation(sp.Le(eps, 2 * L), "epsilon <= 2 ln(1/delta)"), **_eps_delta),
    statements=(
        Inequality("with the printed R = 2 eps + 4L + 4 sqrt(L(eps + L))", lhs=R_MA, rhs=2 * RHO_PRINTED,
                   strict=True),
        Inequality("with the R that Lemma B.3 gives (R = 2 rho, rho + 2 sqrt(rho L) = eps)", lhs=R_MA,
                   rhs=2 * RHO_ROOT, strict=True),
    ),
    expected="violated",
    reason=("holds only for the spurious printed root; with the rho that Lemma B.3 gives, "
            "R_zCDP = 2 eps^2/(sqrt(L + eps) + sqrt L)^2 < R_MA/2 for every eps > 0 (e.g. eps=4, delta=1e-8: 0.3927 < 0.8686)"),
    witness={"epsilon": 1.0, "delta": math.exp(-1)},
)
R_COMPARISON_CORRECTED = R_COMPARISON.corrected(
    summary="R_zCDP = 2 (sqrt(L + eps) - sqrt L)^2 < R_MA/2 for every eps > 0, 0 < delta < 1.",
    domain=Domain(**_eps_delta),
    statements=(
        Identity("R_zCDP = 2 eps^2/(sqrt(L + eps) + sqrt L)^2", lhs=2 * RHO_ROOT,
                 rhs=2 * eps**2 / (sp.sqrt(L + eps) + sp.sqrt(L)) ** 2),
        Inequality("R_zCDP < R_MA / 2", lhs=2 * RHO_ROOT, rhs=R_MA / 2, strict=True),
    ),
)

# ----------------------------------------------------------------------------- Theorem 3.1
_privacy_domain = Domain(
    T=Int(ge=1, search=(1, 20)),
    sigma=Seq("T", Real(gt=0, search=(0.05, 50.0), log=True)),
    R=Real(gt=0, search=(1e-2, 1e2), log=True),
    G=Real(gt=0, search=(1e-2, 1e2), log=True),
    N=Int(ge=2, search=(2, 1000)),
)
# Algorithm 1: PGD whose steps a zCDP budget filter admits (request 1/sigma_t^2 of the residual budget).
_ALG1 = dict(noise_multiplier=sigma[t], budget=R, clip=G, n_samples=N, horizon=T)
ALGORITHM1_REPLACE = budget_filter_gd(adjacency="replace", **_ALG1)
ALGORITHM1_REMOVE = budget_filter_gd(adjacency="remove", **_ALG1)
THM_3_1 = Claim(
    id="dni/thm-3.1",
    source=_src("Theorem 3.1", None,
                "PGD with privatized gradients defined by Algorithm 1, stops at step T ... satisfies rho-zCDP "
                "where rho <= R/2 (Definition 3.4: adjacent datasets d, d' in D^n differ in one sample)"),
    kind="privacy bound",
    summary="PGD with Algorithm 1's budget accounting is rho-zCDP with rho <= R/2, for any schedule (neighbours of Def. 3.4).",
    domain=_privacy_domain,
    statements=(
        SupBound("rho <= R/2 under Definition 3.4's neighbours (same size, one sample replaced)",
                 bound=R / 2, scenario=ALGORITHM1_REPLACE, kind="privacy"),
    ),
    expected="violated",
    reason=("the proof uses Def. B.1's remove-one sensitivity G/N, but Def. 3.4's neighbours d, d' in D^n "
            "differ by a replaced sample: sensitivity 2G/N, so rho = 2 sum sigma_t^-2 < 2R, not R/2"),
    witness={"T": 1, "R": math.e, "G": 1.0, "N": 2, "sigma": [1.0]},
)
THM_3_1_CORRECTED = THM_3_1.corrected(
    summary="rho < 2R for replace-one neighbours (Def. 3.4); rho < R/2 for remove-one with fixed N (Def. B.1).",
    statements=(
        SupBound("rho <= 2R for replace-one neighbours (Def. 3.4)", bound=2 * R,
                 scenario=ALGORITHM1_REPLACE, kind="privacy"),
        SupBound("rho <= R/2 for remove-one neighbours with fixed normaliser N (Def. B.1)", bound=R / 2,
                 scenario=ALGORITHM1_REMOVE, kind="privacy"),
    ),
)

# ----------------------------------------------------------------------------- Lemma B.4
SQUARED_SENSITIVITY = squared_loss_sensitivity(radius=B, n_samples=N)
LEMMA_B_4 = Claim(
    id="dni/lemma-b.4",
    source=_src("Lemma B.4", None,
                "If max_n ||x_n|| = 1 and (1/N) sum x_n = 0, Delta_2 = max_i (1/N) sqrt(2 f(theta; x_i)) ||x_i|| "
                "<= (1/N) sqrt(D_M^2 + 1), D_M bounding ||theta|| over Theta_M (OCR: '1(DM |theta|2 + 1)'; the "
                "proof bounds (1/2N) sum [(||x_n|| ||theta||)^2 + 1])"),
    kind="sensitivity bound",
    summary="The squared loss 1/2 (x^T theta - 1)^2 on centred data of max norm 1 has sensitivity <= sqrt(B^2 + 1)/N for ||theta|| <= B.",
    domain=Domain(B=Real(gt=0, search=(1e-2, 1e2), log=True), N=Int(ge=2, search=(2, 6))),
    statements=(
        SupBound("max_i ||grad f(theta; x_i)||/N <= sqrt(B^2 + 1)/N for ||theta|| <= B",
                 bound=sp.sqrt(B**2 + 1) / N, scenario=SQUARED_SENSITIVITY, kind="sensitivity"),
    ),
    expected="violated",
    reason=("the proof bounds the average loss f(theta) (the linear term cancels because the data are centred) "
            "but the sensitivity needs the per-sample loss, where x_i^T theta - 1 can reach -(B + 1): "
            "sensitivity (B + 1)/N > sqrt(B^2 + 1)/N"),
    witness={"B": 1.0, "N": 2},
)
LEMMA_B_4_CORRECTED = LEMMA_B_4.corrected(
    summary="Remove-one sensitivity of the squared loss is at most (B + 1)/N, attained (x_i = e, theta = -B e).",
    statements=(
        SupBound("max_i ||grad f(theta; x_i)||/N <= (B + 1)/N for ||theta|| <= B",
                 bound=(B + 1) / N, scenario=SQUARED_SENSITIVITY, kind="sensitivity"),
    ),
)

# ----------------------------------------------------------------------------- (17), (18): true risk
# The derivation printed around (16)-(18): Theorem A.1 (Shalev-Shwartz et al. 2009, 5.4) with
# probability 1 - p, TER <= sqrt((2 G^2/mu) EER) + 4 G^2/(p mu N); PGD repeated k = log2(1/p) times
# at budget R/k each, and Markov's inequality on one repetition's EER (which gives 2 F(R/k), where
# the text writes F(R/k): a constant the O absorbs); F = (f(theta_1) - f*) times the minimal ERUB of
# section 4.1.3: (24) for the uniform schedule, A/(A + 1) of Theorem 4.3 for the dynamic one.
p_fail = sp.Symbol("p")
K_REP = sp.log(1 / p_fail, 2)
MU_ = M / kappa
_alpha_k = D * G**2 * K_REP / (2 * R * M * N**2 * Delta1)   # alpha at budget R/k
TER_CHAIN_UNIFORM = (sp.sqrt(2 * G**2 / MU_ * 2 * Delta1 * ERUB_24.subs(alpha, _alpha_k))
                     + 4 * G**2 / (p_fail * MU_ * N))
TER_CHAIN_DYNAMIC = (sp.sqrt(2 * G**2 / MU_ * 2 * Delta1 * ERUB_MIN_DYN.subs(alpha, _alpha_k))
                     + 4 * G**2 / (p_fail * MU_ * N))
RATE_17 = G**2 / (MU_ * N) * (sp.sqrt(D * sp.log(N) * sp.log(1 / p_fail) / R) + 1 / p_fail)
RATE_18 = G**2 / (MU_ * N) * (sp.sqrt(D * sp.log(1 / p_fail) / R) + 1 / p_fail)
_ter_domain = Domain(
    Relation(sp.Le(Delta1, G**2 * kappa / (2 * M)), "f(theta_1) - f* <= G^2/(2 mu) (G-Lipschitz and mu-PL)"),
    kappa=Real(gt=1, search=(1.001, 1e3), log=True),
    M=PGD_PARAMS["M"], G=PGD_PARAMS["G"],
    N=Real(ge=2, search=(2, 1e4), log=True),
    D=Real(ge=1, search=(1, 1e3), log=True),
    R=PGD_PARAMS["R"],
    Delta1=Real(gt=0, search=(1e-3, 1e3), log=True, units=(1, 0)),
    p=Real(gt=0, le=0.5, search=(1e-6, 0.5), log=True),
)
_TER_PATHS = (LimitPath("N", "inf"), LimitPath("p", "0+"), LimitPath("D", "inf"), LimitPath("R", "0+"),
              LimitPath("R", "inf"),
              LimitPath("N", "inf", {"D": lambda x, b: b["D"] * x / b["N"]}, "D/N fixed (N >= D)"))
_TER_TEXT = ("(16) TER <= sqrt((2G^2/mu)(f(theta) - f(theta*))) + 4G^2/(p mu N) [OCR: '2G2 PfW-TF) + 与 / μN pμN']; "
             "k = log2(1/p) repetitions at budget R/k, 'there exists one repetition whose EER is F(R/log2(1/p)) "
             "with probability at least 1 - p'; ")


def _true_risk_claim(eq, printed, summary, chain, rate, rate_text):
    """(17) or (18): the text's derivation for one schedule is O of the printed rate."""
    return Claim(id=f"dni/eq-{eq}", source=_src("after Theorem A.1", f"({eq})", _TER_TEXT + printed),
                 kind="rate", summary=summary, domain=_ter_domain, definitions=GAMMA,
                 statements=(Rate(f"({eq}): the derivation's bound = O({rate_text})", expr=chain, rate=rate,
                                  kind="O", paths=_TER_PATHS),))


EQ_17 = _true_risk_claim(
    17, "(17) TER_uniform <= O(G^2/(mu N) (sqrt(D ln(N) ln(1/p)/R) + 1/p)), kappa and constants ignored "
        "[OCR: 'G2 r /D ln(N) ln(1/p) / μN \\ NR + pH'; read with the squares OCR drops elsewhere, i.e. "
        "(G^2/mu)(sqrt(D ln N ln(1/p)/(N^2 R)) + 1/(pN)), which is what the derivation gives]",
    "True excess risk with probability 1 - p, uniform schedule: Theorem A.1 + k = log2(1/p) repetitions "
    "+ (24) give O(G^2/(mu N)(sqrt(D ln N ln(1/p)/R) + 1/p)).",
    TER_CHAIN_UNIFORM, RATE_17, "G^2/(mu N)(sqrt(D ln(N) ln(1/p)/R) + 1/p)")
EQ_18 = _true_risk_claim(
    18, "(18) TER_dynamic <= O(G^2/(mu N) (sqrt(D ln(1/p)/R) + 1/p)) [OCR: 'TERdyi ≤o (, IyDNF+P))'; the ln N of "
        "(17) is gone, as the dynamic schedule's O(alpha) in section 4.1.3 says]",
    "True excess risk with probability 1 - p, dynamic schedule: Theorem A.1 + repetitions + Theorem "
    "4.3's minimum give O(G^2/(mu N)(sqrt(D ln(1/p)/R) + 1/p)), a ln N below (17).",
    TER_CHAIN_DYNAMIC, RATE_18, "G^2/(mu N)(sqrt(D ln(1/p)/R) + 1/p)")


# The step of the derivation above that is not a cited theorem: "by Markov's inequality, there
# exists one repetition whose EER is F(R/log2(1/p)) with probability at least 1 - 1/2^k". The k
# repetitions are independent, so this holds for every k iff one run exceeds F with probability
# <= 1/2. Markov's inequality alone gives that only at 2F; at F it needs the distribution.
# Instances where the ERUB is attained in expectation (kappa = 1, one step: excess / bound is chi^2_D / D, D = 1
# and 50), a kappa = 10 quadratic with the uniform schedule, and the logistic problem with the dynamic schedule.
_Q = {"kappa": 1.0, "M": 1.0, "G": 1.0, "N": 10, "Delta1": 0.5, "R": 0.5, "T": 1, "sigma": [1.0]}
PGD_EXCEEDS_ERUB = noisy_gd(problem="pl", statistic="normalised_excess", exceeds=ERUB_3, step=1 / M,
                            noise_std=G * sigma[t] / N, **_PGD,
                            mc=(MCPoint("quadratic", {**_Q, "D": 1}), MCPoint("quadratic", {**_Q, "D": 50}),
                                MCPoint("quadratic", {**_Q, "kappa": 10.0, "D": 5, "Delta1": 0.45, "T": 20,
                                                      "sigma": [20 ** 0.5 / 0.5 ** 0.5] * 20}),
                                _PGD_MC[1]))
MARKOV_REPETITION = Claim(
    id="dni/claim-markov-repetition",
    source=_src("after Theorem A.1", None,
                "'by Markov's inequality, there exists one repetition whose EER is F(R/log2(1/p)) with probability "
                "at least 1 - 1/2^k = 1 - p' (k independent repetitions of PGD, F the EER bound (3) at budget R/k)"),
    kind="expectation bound",
    summary=("The repetition step of (17)/(18): one PGD run's excess risk exceeds the ERUB (3) with probability "
             "at most 1/2 (Markov gives this only for twice the ERUB)."),
    domain=Domain(**PGD_PARAMS),
    definitions={alpha: D * G**2 / (2 * R * M * N**2 * Delta1), **GAMMA},
    statements=(
        ExpectationBound("P(one run's (f(theta_{T+1}) - f*)/(f(theta_1) - f*) > ERUB (3)) <= 1/2",
                         bound=sp.Rational(1, 2), scenario=PGD_EXCEEDS_ERUB),
    ),
)

# ----------------------------------------------------------------------------- Theorem A.3
_stab_domain = lambda adj: Domain(  # noqa: E731
    Relation(sp.Lt(eta, 2 / M), "eta < 2/M"),
    G=Real(gt=0, search=(1e-1, 10.0), log=True, units=(1, -1)),
    eta=Real(gt=0, search=(1e-4, 1e2), log=True, units=(-1, 2)),
    M=Real(gt=0, search=(1e-2, 1e2), log=True, units=(1, -2)),
    T=Int(ge=1, search=(1, 30)),
    N=Int(ge=2, search=(2, 20)),
    adjacency=Choice(adj),
)
THM_A_3 = Claim(
    id="dni/thm-a.3",
    source=_src("Theorem A.3", None,
                "Suppose eta < 2/M for M smooth, G-Lipschitz f(theta; x). Then PGD is s-uniformly stable with "
                "s = G^2 T eta / N (Definition A.1: any neighbour datasets d, d' in D^N)"),
    kind="stability bound",
    summary="PGD with eta < 2/M on M-smooth, G-Lipschitz losses is s-uniformly stable with s = G^2 T eta / N.",
    domain=_stab_domain(("replace",)),
    statements=(
        SupBound("sup_x E[f(M(d); x) - f(M(d'); x)] <= G^2 T eta / N",
                 bound=G**2 * T * eta / N, scenario=coupled_stability(lipschitz=G, step=eta, horizon=T, n_samples=N, smooth=M,
                                                   families=("linear",), adjacency="replace"), kind="stability"),
    ),
    expected="violated",
    reason=("Def. A.1's neighbours replace a sample, and a linear (convex, G-Lipschitz, M-smooth) loss moves "
            "the iterate by eta ||x_n - x_n'||/N <= 2 G eta/N per step: s = 2 G^2 T eta/N (Bassily et al. 2019 "
            "also assume convexity, which the statement omits)"),
    witness={"G": 1.0, "eta": 1.0, "M": 1.0, "T": 1, "N": 2, "adjacency": "replace"},
)
THM_A_3_CORRECTED = THM_A_3.corrected(
    summary="For convex, M-smooth, G-Lipschitz losses and eta < 2/M, PGD is (2 G^2 T eta / N)-uniformly stable.",
    statements=(
        SupBound("sup_x E[f(M(d); x) - f(M(d'); x)] <= 2 G^2 T eta / N (convex losses)",
                 bound=2 * G**2 * T * eta / N, scenario=coupled_stability(lipschitz=G, step=eta, horizon=T, n_samples=N, smooth=M,
                                                   families=("linear", "logistic"), adjacency="replace"), kind="stability"),
    ),
)

# ----------------------------------------------------------------------------- momentum auxiliary lemmas
g_ = sp.Symbol("gamma_m")                  # the gamma of Lemmas B.6-B.7 (a free parameter there)
w = sp.IndexedBase("w")                     # w_i stands for ||v_{i+1}||^2 >= 0
_momentum_pair = Domain(
    Relation(sp.Lt(beta, g_), "beta < gamma"),
    beta=Real(gt=0, lt=1, search=(1e-3, 0.999)),
    gamma_m=Real(gt=0, lt=1, search=(1e-3, 0.9999)),
    T=Int(ge=2, search=(2, 9)),
    w=Seq("T", Real(ge=0, search=(0.0, 10.0))),
)
LEMMA_B_5 = Claim(
    id="dni/lemma-b.5",
    source=_src("Lemma B.5", None,
                "sum_t gamma^(T-t) (2(1-beta) eta_t/b_t) sum_{i<=t} beta^(t-i) ||grad_t - grad_i||^2 <= "
                "eta0^3 beta gamma/(2M(1-beta)^3(gamma-beta)^2) sum_{i=1}^{T-1} gamma^(T-i) ||v_{i+1}||^2, "
                "eta_t = eta0/(2M), b_t = 1 - beta^t (left weight garbled by OCR; read from the U2 term of "
                "Theorem 4.4's proof, which reproduces the printed constant through Lemma B.6)"),
    kind="inequality",
    summary="Gradient drift along momentum trajectories, bounded by the velocities (smoothness only).",
    domain=Domain(
        Relation(sp.Lt(beta, g_), "beta < gamma"),
        beta=Real(gt=0, lt=1, search=(1e-3, 0.999)),
        gamma_m=Real(gt=0, lt=1, search=(0.05, 0.9999)),
        eta0=Real(gt=0, search=(1e-3, 8.0), log=True),
        M=Real(gt=0, search=(1e-2, 1e2), log=True),
        T=Int(ge=2, search=(2, 10)),
    ),
    statements=(
        SupBound("LHS / RHS <= 1 over quadratics with Hessian <= M and arbitrary velocities",
                 bound=sp.Integer(1), scenario=proofs.MOMENTUM_DRIFT, kind="supremum"),
    ),
)

LEMMA_B_6 = Claim(
    id="dni/lemma-b.6",
    source=_src("Lemma B.6", None,
                "sum_t gamma^(T-t) sum_{i=1}^{t-1} ||v_{i+1}||^2 sum_{k=t-i}^{t-1} k beta^k <= "
                "2 beta gamma/((gamma - beta)^2 (1 - beta)) sum_{i=1}^{T-1} gamma^(T-i) ||v_{i+1}||^2 "
                "(beta < gamma < 1, a = beta/gamma in the proof)"),
    kind="inequality",
    summary="Momentum auxiliary inequality over arbitrary non-negative sequences ||v_{i+1}||^2.",
    domain=_momentum_pair,
    statements=(
        Inequality("(B.6) for every non-negative sequence w_i = ||v_{i+1}||^2",
                   lhs=sp.Sum(g_ ** (T - t) * sp.Sum(w[i_] * sp.Sum(k * beta**k, (k, t - i_, t - 1)), (i_, 1, t - 1)),
                              (t, 1, T)),
                   rhs=2 * beta * g_ / ((g_ - beta) ** 2 * (1 - beta)) * sp.Sum(g_ ** (T - i_) * w[i_], (i_, 1, T - 1)),
                   skip=("symbolic",)),
        Inequality("proof step: sum_{j=1}^{n} j a^j <= a/(1 - a)^2 with a = beta/gamma",
                   lhs=sp.Sum(k * (beta / g_) ** k, (k, 1, T)), rhs=(beta / g_) / (1 - beta / g_) ** 2),
    ),
)

LEMMA_B_7 = Claim(
    id="dni/lemma-b.7",
    source=_src("Lemma B.7", None,
                "T_hat = max t s.t. gamma^(t-1) >= (1 - beta)/(1 - beta^t). If t <= T_hat, (1 - beta)/(1 - beta^t) "
                "<= gamma^(t-1) for t = 1..T_hat. If t > T_hat, (1 - beta)/(1 - beta^t) < gamma^(T_hat - 1)"),
    kind="inequality",
    summary="The threshold T_hat splitting the momentum influence into two regimes.",
    domain=Domain(beta=Real(gt=0, lt=1, search=(1e-3, 0.999)), gamma_m=Real(gt=0, lt=1, search=(1e-3, 0.9999))),
    statements=(
        Identity("h(1) = gamma^0 (1 - beta^1) = 1 - beta", lhs=(g_ ** (t - 1) * (1 - beta**t)).subs(t, 1), rhs=1 - beta),
        SupBound("max_{t <= T_hat} (1 - beta)/((1 - beta^t) gamma^(t-1)) <= 1", bound=sp.Integer(1),
                 scenario=proofs.T_HAT_BELOW, kind="supremum"),
        SupBound("max_{t > T_hat} (1 - beta)/((1 - beta^t) gamma^(T_hat-1)) <= 1", bound=sp.Integer(1),
                 scenario=proofs.T_HAT_ABOVE, kind="supremum"),
    ),
)

CLAIMS = (
    THM_3_1, THM_3_1_CORRECTED,
    ERUB, THM_4_2, CLAIM_T_LIMIT, CLAIM_T_LIMIT_CORRECTED, LEMMA_4_1, EQ_25, THM_4_3,
    THM_4_4, THM_4_4_CORRECTED, MOMENTUM_EXAMPLE, MOMENTUM_EXAMPLE_CORRECTED, THM_4_5, THM_4_5_CORRECTED, THM_4_6, THM_4_6_CORRECTED, THM_4_7, THM_4_8, THM_4_8_CORRECTED,
    EQ_17, EQ_18, MARKOV_REPETITION, THM_A_3, THM_A_3_CORRECTED,
    LEMMA_B_2, LEMMA_B_3, ZCDP_INVERSION, ZCDP_INVERSION_CORRECTED, R_COMPARISON, R_COMPARISON_CORRECTED,
    LEMMA_B_4, LEMMA_B_4_CORRECTED, LEMMA_B_5, LEMMA_B_6, LEMMA_B_7,
)
