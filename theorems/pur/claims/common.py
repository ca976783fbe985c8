"""Symbols, parameters and the algorithms of [pur] that its claims share."""
from __future__ import annotations

import sympy as sp

from dpverify.scenarios import CosineData, LogisticData
from dpverify.claims import Int, Real, Relation, Source

SEED = "001_8c6e002b41f68e78.txt"

# ----------------------------------------------------------------------------- symbols
M, mu, kappa, L, N, d, T, t, R, r0, Rp, u0 = sp.symbols("M mu kappa L N d T t R r0 Rp u0")
Delta0 = sp.Symbol("Delta0")                       # F(theta_0) - F*
rho, delta, eps = sp.symbols("rho delta epsilon")
sigma, eta, gn, c, G1 = sp.symbols("sigma eta gn c G1")
g = sp.Symbol("g")                                 # the current gradient norm inside adaptive_gd
x, cc, x0, b, Dc = sp.symbols("x cc x0 b D_C")
q, r, V0, u = sp.symbols("q r V0 u")
a_ = sp.Symbol("a")
Dl, order, k = sp.symbols("Delta order k")
ev, sv = sp.symbols("e_v s_v", positive=True)     # bound variables of sup / inf
sig = sp.IndexedBase("sigma")
PI2 = sp.pi**2
# SymPy proves these statements for every point of the domain (symbolic check "verified"); sampling them
# again would only re-derive a proof, so they skip the sampled check (and keep the scaling check)
PROVED = ("sampled",)

_src = Source.for_document(SEED)

# ----------------------------------------------------------------------------- parameters (with units:
# the loss is multiplied by c and the parameter vector by s: M ~ c/s^2, L ~ c/s, R ~ s, eta ~ s^2/c, ...)
P_M = Real(gt=0, search=(1e-2, 1e2), log=True, units=(1, -2))
P_MU = Real(gt=0, search=(1e-3, 1e2), log=True, units=(1, -2))
P_D = Int(ge=1, search=(1, 8))
P_T = Int(ge=1, search=(1, 40))
P_DELTA0 = Real(gt=0, search=(1e-3, 1e3), log=True, units=(1, 0))
P_R = Real(gt=0, search=(1e-2, 1e2), log=True, units=(0, 1))
P_L = Real(gt=0, search=(1e-2, 1e2), log=True, units=(1, -1))
P_L_WIDE = Real(gt=0, search=(1e-2, 1e4), log=True, units=(1, -1))   # a box where L >= ||grad F|| mostly holds
P_N = Int(ge=1, search=(1, 10_000))
P_RHO = Real(gt=0, search=(1e-3, 1e3), log=True)
P_DELTA = Real(gt=0, lt=1, search=(1e-10, 0.1), log=True)
P_GRAD = Real(gt=0, search=(1e-2, 1e2), log=True, units=(1, -1))
P_SIGMA = Real(gt=0, search=(1e-3, 1e2), log=True, units=(1, -1))
P_ETA = Real(gt=0, search=(1e-3, 1e2), log=True, units=(-1, 2))

LN = sp.log(1 / delta)
EPS_OF = lambda rr: rr + 2 * sp.sqrt(rr * LN)  # noqa: E731  - the conversion printed after Proposition 4


def _kappa_rel():
    return Relation(sp.Le(mu, M), "mu <= M (mu-strongly convex and M-smooth)")


# ----------------------------------------------------------------------------- the paper's algorithms
def _small_logistic(lam):
    return LogisticData(n=60, d=3, lam=lam)


COSINE = CosineData(a=(1.0, 0.5, 0.25), theta1=(2.0, -1.0, 0.5))
SIGMA_3A = 4 * M * sp.sqrt(Delta0) / (sp.sqrt(d) * t)          # Proposition 3(a)/4(a) (proof decides sqrt(d) t)
SIGMA_3B = 4 * M * R / (sp.sqrt(d) * t)                         # Proposition 3(b)/4(b)
R_C = 1 - mu / (2 * M)                                          # 1 - 1/(2 kappa)
SIGMA_3C = sp.sqrt(2 * mu * Delta0 * R_C**t / d)                # Proposition 3(c)/4(c)
PUR_RULE = dict(step=1 / (2 * M), noise_std=g / sp.sqrt(d))     # Proposition 1, eq. (6)
