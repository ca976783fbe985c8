"""Symbols and parameters of [erm] that its claims share."""
from __future__ import annotations

import sympy as sp

from dpverify.claims import Real, Source

SEED = "002_83aa5496eb291d00.txt"

_src = Source.for_document(SEED)

# ----------------------------------------------------------------------------- symbols
L, beta, mu, eta, D, W = sp.symbols("L beta mu eta D W")
n, d, T, t, k = sp.symbols("n d T t k")
eps, delta, delta_p, alpha, gamma = sp.symbols("epsilon delta delta_p alpha gam")
Delta1, Delta2, sigma, Delta0, R0, alpha2 = sp.symbols("Delta1 Delta2 sigma Delta0 R0 alpha2")
r_ = sp.Symbol("r", positive=True)

LOG_A = sp.log(3 * n / delta)          # log(3n/delta)
LOG_B = sp.log(2 / delta)              # log(2/delta)

# units under loss x c, parameters x s (scaling check)
BETA = Real(gt=0, search=(1e-2, 1e2), log=True, units=(1, -2))
MU = Real(gt=0, search=(1e-3, 1e2), log=True, units=(1, -2))
LIP = Real(gt=0, search=(1e-3, 1e3), log=True, units=(1, -1))
ETA = Real(gt=0, search=(1e-4, 1e2), log=True, units=(-1, 2))
RADIUS = Real(gt=0, search=(1e-2, 1e2), log=True, units=(0, 1))
EPS = Real(gt=0, search=(1e-2, 10.0), log=True)
DELTA = Real(gt=0, lt=1, search=(1e-10, 0.9), log=True)
