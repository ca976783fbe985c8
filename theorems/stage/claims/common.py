"""Symbols of [stage] that its claims share."""
from __future__ import annotations

import sympy as sp

from dpverify.claims import Source

SEED = "003_5052799caee6efc5.txt"

# ----------------------------------------------------------------------------- symbols
beta, mu, theta, L, sigma = sp.symbols("beta mu theta L sigma")
n, B, d, K, T0, t0 = sp.symbols("n B d K T0 t0")
rho, c4, c2, eps, delta, Delta0 = sp.symbols("rho c4 c2 epsilon delta Delta0")
eta0, T_tot, pi_, Gamma = sp.symbols("eta0 T_tot pi Gamma")
LOG = sp.log(1 / delta)

_src = Source.for_document(SEED)
