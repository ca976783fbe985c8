"""Symbols, shared pieces and the algorithms of [dni] that its claims share."""
from __future__ import annotations

import sympy as sp

from dpverify import sim
from dpverify.scenarios import LogisticData, MCPoint, noisy_gd
from dpverify.claims import Int, Real, Seq, Source
from ..schedules import dynamic_pgd, exponential_for_budget

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
            sig = dynamic_pgd(pt["kappa"], _alpha_at(pt), R_, T_steps)
        else:
            sig = exponential_for_budget(0.1, T_steps, R_)
        return {"T": T_steps, "sigma": [float(x) for x in sig]}
    return make


_PGD_MC = (MCPoint(_LOGISTIC, {"G": 1.0, "R": 1e-3}, _schedule("uniform", 10)),
           MCPoint(_LOGISTIC, {"G": 1.0, "R": 1e-3}, _schedule("dynamic", 10)),
           MCPoint(_LOGISTIC_B, {"G": 1.0, "R": 1e-3}, _schedule("exponential", 20)))
PGD_ERUB = noisy_gd(problem="pl", statistic="normalised_excess", step=1 / M, noise_std=G * sigma[t] / N,
                    mc=_PGD_MC, **_PGD)
