"""Claims of [pur], Section 2 (Background): Lipschitz and smooth losses, sensitivity, zCDP of the Gaussian
mechanism."""
from __future__ import annotations

import sympy as sp

from dpverify.scenarios import gaussian_mechanism
from dpverify.scenarios import gaussian_renyi
from dpverify.claims import Claim, Domain, Identity, Inequality, LimitPath, Rate, Reading, Real, SupBound

from .common import (Dc, Dl, M, N, PROVED, P_DELTA, P_M, P_N, P_SIGMA, _src, a_, b, cc, delta, eps, k, order, sigma, x,
                     x0)

# ============================================================================= Section 2
cf = cc * x ** sp.Rational(3, 2)                                 # f(x) = c |x|^(3/2) on [-1, 1], linear beyond
LIPSCHITZ_GRADIENT = Claim(
    id="pur/claim-lipschitz-gradient",
    source=_src("Section 2", None,
                "'Note that if a function f is differentiable and L-Lipschitz, then its gradient norm is bounded by "
                "L. If f is additionally convex then its gradient is Lipschitz-continuous.' (checked on the convex, "
                "differentiable, (3c/2)-Lipschitz f(x) = c|x|^(3/2) for |x| <= 1, extended linearly)"),
    kind="rate",
    summary="A differentiable, convex, L-Lipschitz f has a Lipschitz-continuous gradient.",
    domain=Domain(cc=Real(gt=0, search=(0.1, 10.0), log=True, units=None),
                  x=Real(gt=0, le=1, search=(1e-3, 1.0), log=True, units=(0, 1))),
    statements=(
        Rate("sup_x |f'(x) - f'(0)|/|x| is finite: |f'(x) - f'(0)|/x = O(1) as x -> 0+",
             expr=sp.diff(cf, x) / x, rate=sp.Integer(1), kind="O", paths=(LimitPath("x", "0+"),),
             skip=("scaling",)),
    ),
    expected="violated",
    reason=("convexity and a Lipschitz bound do not make the gradient Lipschitz: f(x) = c|x|^(3/2) (|x| <= 1, linear "
            "beyond) is convex, differentiable and (3c/2)-Lipschitz, but |f'(x) - f'(0)|/|x| = 3c/(2 sqrt x) -> infinity"),
    witness={"cc": 1.0, "x": 0.5},
    error_in="statement", statement_survives=False,
)
LIPSCHITZ_GRADIENT_CORRECTED = LIPSCHITZ_GRADIENT.corrected(
    summary=("Convex + L-Lipschitz does not give a Lipschitz gradient (f = c|x|^(3/2): f' bounded by 3c/2, f'' >= 0, "
             "|f'(x) - f'(0)|/x = Theta(x^(-1/2))); M-smoothness must be assumed on its own."),
    statements=(
        Inequality("f' is bounded by 3c/2 on [0, 1] (f is (3c/2)-Lipschitz)", lhs=sp.diff(cf, x),
                   rhs=sp.Rational(3, 2) * cc, skip=("scaling",)),
        Inequality("f'' >= 0 (f is convex)", lhs=sp.Integer(0), rhs=sp.diff(cf, x, 2), skip=PROVED),
        Rate("|f'(x) - f'(0)|/x = Theta(x^(-1/2)) as x -> 0+", expr=sp.diff(cf, x) / x, rate=x ** sp.Rational(-1, 2),
             kind="Theta", paths=(LimitPath("x", "0+"),), skip=("scaling",)),
    ),
)

SMOOTH_LIPSCHITZ = Claim(
    id="pur/claim-smooth-lipschitz",
    source=_src("Section 2", None,
                "'Likewise, if f is convex and M-smooth then it is also L-Lipschitz (Boyd & Vandenberghe, 2014).' "
                "(theta ranges over R^d in (1); checked on f(x) = M x^2/2)"),
    kind="rate",
    summary="A convex, M-smooth f is also L-Lipschitz.",
    domain=Domain(M=P_M, x=Real(gt=0, search=(1e-1, 1e1), log=True, units=(0, 1))),
    statements=(
        Rate("|f'(x)| = M x = O(1) as x -> infinity (f = M x^2/2)", expr=M * x, rate=sp.Integer(1), kind="O",
             paths=(LimitPath("x", "inf"),), skip=("scaling",)),
        Inequality("on the bounded C = [-x, x]: sup_C |f'| = M x <= |f'(0)| + M diam(C) = 2 M x (f = M x^2/2)",
                   lhs=M * x, rhs=2 * M * x, reading="on a bounded set"),
    ),
    readings=(Reading("on a bounded set", "holds", replaces=("|f'(x)| = M x = O(1) as x -> infinity (f = M x^2/2)",),
                      summary=("f restricted to a bounded set C (as Lipschitz constants of losses are taken, e.g. L = "
                               "lambda R + Z on the ball of radius R in Section 4): L = ||grad f(x0)|| + M diam(C)")),),
    expected="violated",
    reason=("on R^d (where theta lives) the convex, M-smooth f = M||x||^2/2 has gradient norm M||x||, unbounded; a "
            "Lipschitz constant exists only on a bounded set C: ||grad f(x0)|| + M diam(C)"),
    witness={"M": 1.0, "x": 1.0},
    error_in="statement", statement_survives=False,
)
SMOOTH_LIPSCHITZ_CORRECTED = SMOOTH_LIPSCHITZ.corrected(
    kind="inequality",
    summary="On a bounded C of diameter D_C an M-smooth f is (||grad f(x0)|| + M D_C)-Lipschitz (f = M x^2/2 + b x).",
    domain=Domain(M=P_M, x0=Real(search=(-10.0, 10.0), units=(0, 1)), b=Real(search=(-10.0, 10.0), units=(1, -1)),
                  D_C=Real(gt=0, search=(1e-2, 20.0), log=True, units=(0, 1)),
                  a=Real(ge=-1, le=1, search=(-1.0, 1.0))),
    statements=(
        Inequality("|f'(x)| <= |f'(x0)| + M D_C for x = x0 + a D_C, |a| <= 1 (x, x0 in C)",
                   lhs=sp.Abs(M * (x0 + a_ * Dc) + b), rhs=sp.Abs(M * x0 + b) + M * Dc),
    ),
)

MEAN_SENSITIVITY = Claim(
    id="pur/claim-mean-sensitivity",
    source=_src("Section 2", None,
                "'the arithmetic mean f(x_1, ..., x_N) = 1/N sum_n x_n defined over a bounded convex set C which has "
                "sensitivity Delta = D/N where D = max_{y,z in C} ||y - z|| is the diameter of C' (replacement; "
                "C = [-D/2, D/2], the replaced entry x = a D/2 and its replacement x' = b D/2, |a|, |b| <= 1)"),
    kind="sensitivity bound",
    summary="Replacing one entry moves the mean of N points of C by at most diam(C)/N, attained.",
    domain=Domain(a=Real(ge=-1, le=1, search=(-1.0, 1.0)), b=Real(ge=-1, le=1, search=(-1.0, 1.0)),
                  D_C=Real(gt=0, search=(1e-2, 20.0), log=True, units=(0, 1)), N=P_N),
    statements=(
        Inequality("|mean(x_1..x_N) - mean(x', x_2..x_N)| = |x - x'|/N <= D/N", lhs=sp.Abs(a_ - b) * Dc / (2 * N),
                   rhs=Dc / N),
        Identity("attained by the two ends of C", lhs=sp.Abs(Dc / 2 - (-Dc / 2)) / N, rhs=Dc / N, skip=PROVED),
    ),
)

_GAUSS = dict(Delta=Real(gt=0, search=(1e-3, 1e3), log=True, units=(1, -1)), sigma=P_SIGMA,
              order=Real(gt=1, search=(1.01, 64.0), log=True))
GAUSSIAN_ZCDP = Claim(
    id="pur/claim-gaussian-zcdp",
    source=_src("Section 2", None,
                "'the Gaussian mechanism with variance sigma^2 satisfies rho-zCDP for rho = Delta/(2 sigma^2) where "
                "Delta is the sensitivity of f' (read: \\rho = \\Delta/(2\\sigma^2); the proof of Proposition 4 uses "
                "Delta^2/(2 sigma_t^2))"),
    kind="privacy bound",
    summary="The Gaussian mechanism with noise variance sigma^2 and sensitivity Delta is Delta/(2 sigma^2)-zCDP.",
    domain=Domain(**_GAUSS),
    statements=(
        SupBound("Renyi divergence of order alpha / alpha <= Delta/(2 sigma^2) (double-precision quadrature)",
                 bound=Dl / (2 * sigma**2), kind="privacy",
                 scenario=gaussian_renyi(sensitivity=Dl, noise_std=sigma, order=order)),
        Identity("rho = Delta/(2 sigma^2) equals the zCDP Delta^2/(2 sigma^2) of Bun & Steinke, Prop. 1.6",
                 lhs=Dl / (2 * sigma**2), rhs=Dl**2 / (2 * sigma**2)),
    ),
    expected="violated",
    reason=("the Gaussian mechanism is Delta^2/(2 sigma^2)-zCDP; Delta/(2 sigma^2) is too small whenever Delta > 1 "
            "and is not even invariant under rescaling f and sigma together (the proof of Proposition 4 uses Delta^2)"),
    witness={"Delta": 2.0, "sigma": 1.0, "order": 2.0},
    error_in="statement", statement_survives=False,
)
GAUSSIAN_ZCDP_CORRECTED = GAUSSIAN_ZCDP.corrected(
    summary="The Gaussian mechanism with noise variance sigma^2 and sensitivity Delta is Delta^2/(2 sigma^2)-zCDP.",
    statements=(
        SupBound("Renyi divergence of order alpha / alpha <= Delta^2/(2 sigma^2) (double-precision quadrature)",
                 bound=Dl**2 / (2 * sigma**2), kind="privacy",
                 scenario=gaussian_renyi(sensitivity=Dl, noise_std=sigma, order=order)),
    ),
)

CALIB = sp.sqrt(2 * sp.log(sp.Rational(5, 4) / delta)) * Dl / eps      # sigma at which eps = sqrt(2 log(1.25/delta)) Delta/sigma
GAUSSIAN_DP = Claim(
    id="pur/claim-gaussian-dp",
    source=_src("Section 2", None,
                "'The Gaussian mechanism also satisfies (eps, delta)-DP for eps > sqrt(2 log(1.25/delta)) Delta/sigma "
                "and eps < 1.' (eps > sqrt(2 log(1.25/delta)) Delta/sigma written as sigma = k sqrt(2 log(1.25/delta)) "
                "Delta/eps with k > 1)"),
    kind="privacy bound",
    summary="The Gaussian mechanism is (eps, delta)-DP for sqrt(2 log(1.25/delta)) Delta/sigma < eps < 1.",
    domain=Domain(epsilon=Real(gt=0, lt=1, search=(1e-3, 0.999), log=True), delta=P_DELTA,
                  Delta=Real(gt=0, search=(1e-3, 1e3), log=True, units=(1, -1)),
                  k=Real(gt=1, search=(1.0 + 1e-9, 10.0), log=True)),
    statements=(
        SupBound("exact delta(eps) of the Gaussian mechanism (Balle & Wang) <= delta", bound=delta, kind="privacy",
                 scenario=gaussian_mechanism(sensitivity=Dl, noise_std=k * CALIB, eps=eps, measure="delta_at_eps")),
    ),
)
