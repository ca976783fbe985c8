"""Symbols of [hdp] that its claims share."""
from __future__ import annotations

import sympy as sp

from dpverify.claims import Source

SEED = "004_9fced7ebb2318939.txt"

_src = Source.for_document(SEED)

# ----------------------------------------------------------------------------- symbols
n, m, T, seed = sp.symbols("n m T seed")
sigma, G, eps, delta, c, cT = sp.symbols("sigma G epsilon delta c c_T")
L_, mu, Delta0, V = sp.symbols("L mu Delta0 V")
k = sp.Symbol("k")
u_i, u_r, u_o = sp.symbols("u_i u_r u_o")    # the replaced sample, its replacement, the others (fractions of G)
S_ = sp.Symbol("S")
L_DELTA = sp.log(1 / delta)
