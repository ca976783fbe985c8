"""The inputs of [pur]'s privacy statements, declared public or derived from the data as the paper's text computes
them, for the neighbouring-data check (:mod:`dpverify.checks.neighbours`). Kept beside the claims, except where a
referee confirmed a finding: Proposition 4 (a), (c) and their corrections carry theirs (:mod:`.claims.release`).

What the text says of each schedule (seed ``001_8c6e002b41f68e78.txt``):

* ``M``, ``L``, ``mu``, ``d``, ``N``: constants of the problem class ("Let F be M-smooth and f be L-Lipschitz";
  Section 4: "L = lambda R + Z and M = lambda + Z^2/4"): public;
* ``R`` of 3(b)/4(b): "an upper bound on ||theta_t - theta*||", used as a constant of the class (Section 4's
  ``L = lambda R + Z``): public;
* ``rho``, ``delta``: the budget, chosen before the data: public;
* ``F(theta_0) - F*`` (``Delta0``) of 3(a)/(c), 4(a)/(c): "where F* is the minimal empirical risk" (lines 206, 233)
  -- the data set's own optimum: **derived**; and with it the noise schedule ``sigma_t`` and the number of
  iterations ``T = cbrt(8 rho N^2 M^2 (F(theta_0) - F*)/(L^2 d))`` (line 216) and ``T = log(rho mu (F(theta_0) -
  F*) N^2/(2 d L^2))/log(2 kappa/(2 kappa - 1))`` (line 224).

The data model of the derived inputs: ``f(theta; x_i) = (M/2)(theta - u x_i)^2`` on ``|theta| <= u``, ``u =
L/(2M)``, ``x_i`` in [-1, 1] (first coordinate; the others 0): M-smooth, M-strongly convex (so mu-strongly convex
for every mu <= M), L-Lipschitz on the ball, ``F* `` at ``u mean(x)``, and ``F(0) - F* = L^2 mean(x)^2/(8M)``
(which meets the claims' hypothesis ``L^2 >= 2 M (F(theta_0) - F*)``).
"""
from __future__ import annotations

import sympy as sp

from dpverify.privacy.neighbours import ReleaseInputs

from .claims.common import SIGMA_3A, SIGMA_3C, Delta0, L, M, N, d, mu, rho, t
from .claims.section3_4 import (KAPPA, PROP_4A, PROP_4A_CORRECTED, PROP_4C, PROP_4C_CORRECTED, RHO_4A, RHO_4C, T_4A,
                                T_4C)

from .claims.release import from_gap


def _declared_on(claim):
    """The declaration a claim carries on its privacy statement."""
    (decl,) = {s.inputs for s in claim.statements if getattr(s, "inputs", None) is not None}
    return decl


def _public(*names, data=()):
    return ReleaseInputs(public=names, data=data)


def _from_gap(noise, count, horizon=None, constants=None, public=("L", "M", "N", "d")):
    return from_gap(noise, count, horizon, constants, public, subs=KAPPA)


_T = sp.Symbol("T")
INPUTS = {
    "pur/claim-gaussian-zcdp": _public("Delta", "order", "sigma"),
    "pur/claim-gaussian-zcdp-corrected": _public("Delta", "order", "sigma"),
    "pur/claim-gaussian-dp": _public("Delta", "delta", "epsilon", "k"),
    "pur/eq-4": _public("L", "N", "delta", "sigma"),
    # Proposition 4 (a), (c) and their corrections declare their inputs on the claims (refereed, see .claims.release):
    # the printed schedule derives Delta0 (and T) from the data; the corrections take Delta0 as a public bound
    **{c.id: _declared_on(c) for c in (PROP_4A, PROP_4A_CORRECTED, PROP_4C, PROP_4C_CORRECTED)},
    "pur/prop-4b": _public("L", "M", "N", "R", "T", "d"),
    "pur/prop-4b-corrected": _public("L", "M", "N", "R", "T", "d"),
    "pur/claim-eps": _public("L", "N", "T", "delta", "rho"),
    "pur/eq-21": _public("L", "N", "T", "sigma"),
}

#: a second reading for the referee: T given (public), as if the number of iterations were fixed in advance; the
#: noise schedule sigma_t of 3(a)/(c) still reads F(theta_0) - F* (lines 193, 202), so the check compares noise levels
NOISE_ONLY = {
    "pur/prop-4a": _from_gap(SIGMA_3A, _T, public=("L", "M", "N", "d", "T"), constants={"rho": RHO_4A}),
    "pur/prop-4c": _from_gap(SIGMA_3C, _T, public=("L", "M", "N", "d", "mu", "T"),
                             constants={"rho": RHO_4C.subs(KAPPA)}),
}

#: privacy statements with no declaration, and why
NOT_DECLARED = {
    "pur/claim-oracle-leak": "not a privacy promise: it says the data-dependent schedule (6) leaks (an audit's lower "
                             "bound), which is the neighbouring-data check's own finding on (6)",
}

#: where the neighbouring-data check refutes a declaration, the line of the text it rests on (refereed: the printed claims
#: are expected violated for it; their corrections take Delta0 as a public bound and are not refuted)
FINDINGS = {
    "pur/prop-4a": "line 216: 'after T = cbrt(8 rho N^2 M^2 (F(theta_0)-F*)/(L^2 d)) iterations', F* 'the minimal "
                   "empirical risk' (line 233)",
    "pur/prop-4c": "line 224: 'after T = (log rho mu (F(theta_0) - F*) N^2/(2dL^2)) / (log 2kappa/(2kappa - 1)) "
                   "iterations', F* 'the minimal empirical risk' (line 233)",
}
