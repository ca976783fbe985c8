"""What Proposition 4's release reads from the data, for the neighbouring-data check
(:mod:`dpverify.checks.neighbours`): ``F(theta_0) - F*`` ("where F* is the minimal empirical risk", seed 001 lines
206, 233) and, through it, the noise schedule sigma_t of 3(a)/(c) and the number of iterations T of 4(a)/(c)
(lines 216, 224). Declared on the claims (refereed: /work/referee3 re-derived the leak with its own script).

The data model of the derived input: ``f(theta; x_i) = (M/2)(theta - u x_i)^2`` on ``|theta| <= u``, ``u = L/(2M)``,
``x_i`` in [-1, 1] (first coordinate; the others 0): M-smooth, M-strongly convex (so mu-strongly convex for every
mu <= M), L-Lipschitz on the ball, ``F*`` at ``u mean(x)``, and ``F(0) - F* = L^2 mean(x)^2/(8M)`` (which meets the
claims' hypothesis ``L^2 >= 2 M (F(theta_0) - F*)``).
"""
from __future__ import annotations

import sympy as sp

from dpverify.privacy.neighbours import Derived, Examples, GaussianRelease, ReleaseInputs, zcdp

from .common import Delta0, L, M, N, rho, t

x, xbar = sp.symbols("x xbar")
#: ``F(0) - F*`` on a data set of the model above
GAP = L ** 2 * xbar ** 2 / (8 * M)
GAP_DERIVED = Derived(GAP, aggregates={xbar: ("mean", x)}, note="Delta0 = F(theta_0) - F*, F* the minimal empirical risk")
EXAMPLES = Examples({"x": (-1.0, 1.0)}, rows="N")


def from_gap(noise, count, horizon=None, constants=None, public=("L", "M", "N", "d"), subs=None):
    """Delta0 derived from the data (and the claim's T with it when ``horizon`` is the paper's T formula);
    ``subs``: definitions (e.g. kappa = M/mu) substituted in the expressions."""
    subs = subs or {}
    derived = {"Delta0": GAP_DERIVED}
    if horizon is not None:
        derived["T"] = Derived(sp.floor(horizon.subs(Delta0, GAP).subs(subs)), aggregates={xbar: ("mean", x)},
                               note="T computed from F(theta_0) - F*")
    return ReleaseInputs(public=public, derived=derived, examples=EXAMPLES, constants=constants or {},
                         release=GaussianRelease(count=sp.sympify(count).subs(subs), noise_std=noise.subs(subs),
                                                 sensitivity=2 * L / N, step=t),
                         guarantee=zcdp(rho), adjacency="replace")
