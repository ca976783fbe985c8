"""Claims of [hdp], Section 3.1 (Notations and Assumptions): the constants of Remark 1."""
from __future__ import annotations

import sympy as sp

from dpverify.claims import Claim, Constant, Domain, Identity, Inequality, Real

from .common import _src

# ----------------------------------------------------------------------------- Remark 1
u, xg, cc = sp.symbols("u x_g c_mse")
REMARK_1 = Claim(
    id="hdp/claim-remark-1-constants",
    source=_src("Section 3.1, Remark 1", None,
                "For Mean Squared Error, elements in grad l are less than 2c if y - f(x) is bounded by c ... elements in "
                "hess l are less than 2 ... ||grad^3 l|| = 0. For logistic regression over cross entropy, elements in "
                "grad l are less than 1 ... hess l less than 0.25 ... grad^3 l less than 0.097 (||x|| <= 1; 'less than' "
                "read as 'at most': the bounds 2 and 0.25 are attained at x = e_i)"),
    kind="constant",
    summary=("Remark 1's element bounds: MSE gradient 2c, Hessian 2, third derivative 0; logistic gradient 1, Hessian "
             "0.25, third derivative 0.097 (>= 1/(6 sqrt 3) = 0.0962), for ||x|| <= 1."),
    domain=Domain(u=Real(gt=0, lt=1, search=(0.0, 1.0)), x_g=Real(ge=-1, le=1, search=(-1.0, 1.0)),
                  c_mse=Real(gt=0, search=(1e-2, 1e2), log=True)),
    statements=(
        Inequality("MSE: |2 (y - f(x)) x_i| <= 2c when |y - f(x)| <= c (u c stands for y - f(x))",
                   lhs=2 * u * cc * sp.Abs(xg), rhs=2 * cc, skip=("scaling",)),
        Inequality("MSE: |2 x_i x_j| <= 2", lhs=2 * xg**2, rhs=sp.Integer(2), skip=("scaling",)),
        Inequality("logistic: |y s(-y m) x_i| <= 1 (u = s(-y m) in (0, 1))", lhs=u * sp.Abs(xg), rhs=sp.Integer(1), skip=("scaling",)),
        Inequality("logistic: s(1 - s) x_i x_j <= 0.25", lhs=u * (1 - u) * xg**2, rhs=sp.Rational(1, 4), skip=("scaling",)),
        Inequality("logistic: |s(1 - s)(1 - 2s) x_i x_j x_k| <= 0.097",
                   lhs=sp.Abs(u * (1 - u) * (1 - 2 * u)) * sp.Abs(xg) ** 3, rhs=sp.Rational(97, 1000), skip=("scaling",)),
        Identity("max |s(1 - s)(1 - 2s)| = 1/(6 sqrt 3), at s = 1/2 - 1/(2 sqrt 3)",
                 lhs=(u * (1 - u) * (1 - 2 * u)).subs(u, sp.Rational(1, 2) - 1 / (2 * sp.sqrt(3))),
                 rhs=1 / (6 * sp.sqrt(3)), skip=("scaling",)),
    ),
    constants=(Constant("logistic third-derivative bound", "0.097", 1 / (6 * sp.sqrt(3)), match="bound-ge",
                        note="the tight value is 1/(6 sqrt 3) = 0.0962"),),
)
