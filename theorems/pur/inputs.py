"""The inputs of [pur]'s privacy statements, declared public or derived from the data as the paper's text computes
them, for the neighbouring-data check (:mod:`dpverify.checks.neighbours`). Kept beside the claims, not on them:
a derived input found here is a finding for a referee, not a change of a claim's expected verdict.

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

from dpverify.privacy.neighbours import Derived, Examples, GaussianRelease, ReleaseInputs, zcdp

from .claims.common import SIGMA_3A, SIGMA_3C, Delta0, L, M, N, d, mu, rho, t
from .claims.section3_4 import KAPPA, RHO_4A, RHO_4C, T_4A, T_4C, T_4C_C

x, xbar = sp.symbols("x xbar")
#: ``F(0) - F*`` on a data set of the model above
GAP = L ** 2 * xbar ** 2 / (8 * M)
_GAP = Derived(GAP, aggregates={xbar: ("mean", x)}, note="Delta0 = F(theta_0) - F*, F* the minimal empirical risk")
_EXAMPLES = Examples({"x": (-1.0, 1.0)}, rows="N")


def _public(*names, data=()):
    return ReleaseInputs(public=names, data=data)


def _from_gap(noise, count, horizon=None, constants=None, public=("L", "M", "N", "d")):
    """Delta0 derived (and the claim's T with it when ``horizon`` is the paper's T formula)."""
    derived = {"Delta0": _GAP}
    if horizon is not None:
        derived["T"] = Derived(sp.floor(horizon.subs(Delta0, GAP).subs(KAPPA)), aggregates={xbar: ("mean", x)},
                               note="T computed from F(theta_0) - F*")
    return ReleaseInputs(public=public, derived=derived, examples=_EXAMPLES, constants=constants or {},
                         release=GaussianRelease(count=sp.sympify(count).subs(KAPPA), noise_std=noise.subs(KAPPA), sensitivity=2 * L / N,
                                                 step=t),
                         guarantee=zcdp(rho), adjacency="replace")


_T = sp.Symbol("T")
INPUTS = {
    "pur/claim-gaussian-zcdp": _public("Delta", "order", "sigma"),
    "pur/claim-gaussian-zcdp-corrected": _public("Delta", "order", "sigma"),
    "pur/claim-gaussian-dp": _public("Delta", "delta", "epsilon", "k"),
    "pur/eq-4": _public("L", "N", "delta", "sigma"),
    # 4(a): rho is the budget the claim's T spends at its point (fixed before the data); T and sigma_t read Delta0
    "pur/prop-4a": _from_gap(SIGMA_3A, _T, T_4A, {"rho": RHO_4A}),
    "pur/prop-4a-corrected": _from_gap(SIGMA_3A, _T, T_4A, {"rho": RHO_4A}),
    "pur/prop-4b": _public("L", "M", "N", "R", "T", "d"),
    "pur/prop-4b-corrected": _public("L", "M", "N", "R", "T", "d"),
    "pur/prop-4c": _from_gap(SIGMA_3C, _T, T_4C, {"rho": RHO_4C.subs(KAPPA)}, public=("L", "M", "N", "d", "mu")),
    # the corrected 4(c)'s horizon is its own expression in Delta0: the count reads the derived Delta0
    "pur/prop-4c-corrected": _from_gap(SIGMA_3C, T_4C_C, public=("L", "M", "N", "d", "mu", "rho")),
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

#: where the neighbouring-data check refutes a declaration, the line of the text it rests on (for the referee)
FINDINGS = {
    "pur/prop-4a": "line 216: 'after T = cbrt(8 rho N^2 M^2 (F(theta_0)-F*)/(L^2 d)) iterations', F* 'the minimal "
                   "empirical risk' (line 233)",
    "pur/prop-4a-corrected": "the same T and sigma_t as 4(a) (line 215-216)",
    "pur/prop-4c": "line 224: 'after T = (log rho mu (F(theta_0) - F*) N^2/(2dL^2)) / (log 2kappa/(2kappa - 1)) "
                   "iterations', F* 'the minimal empirical risk' (line 233)",
    "pur/prop-4c-corrected": "the corrected T = floor(log(1 + rho N^2 mu Delta0/(2 kappa d L^2))/log(2kappa/(2kappa-1))) "
                             "still reads Delta0 = F(theta_0) - F*",
}
