"""Claims of [stage], Section 1 (Introduction): the risk decomposition of Definition 1.1, the high-dimensional
regime of Section 1.2."""
from __future__ import annotations

import sympy as sp

from dpverify.claims import Claim, Domain, Identity, Inequality, Int, Limit, LimitPath, Real

from .common import L, LOG, _src, d, eps, mu, n, theta

# ----------------------------------------------------------------------------- Definition 1.1
# The decomposition (1) on the Gaussian location model: z ~ N(m, s^2), f(w; z) = (w - z)^2/2, n samples, and the
# algorithm A(S) = a w0 + (1 - a) zbar + N(0, v) (T noisy gradient steps of any size: a = (1 - eta)^T). Exact
# expectations:
m_, s_, w0_, a_, v_ = sp.symbols("m s w0 a v")
_TESTING = (a_**2 * (w0_ - m_) ** 2 + (1 - a_) ** 2 * s_**2 / n + v_) / 2          # E F_E(A(S)) - min F_E
_EMPIRICAL = (a_**2 * ((w0_ - m_) ** 2 + s_**2 / n) + v_) / 2                     # E F_S(A(S)) - E F_S(w*_S)
_GENERALISATION = (1 - a_) * s_**2 / n                                             # E F_E(A(S)) - E F_S(A(S))
CLAIM_RISK_DECOMPOSITION = Claim(
    id="stage/claim-risk-decomposition",
    source=_src("Definition 1.1", "(1)",
                "E[F_E(w_S)] - min F_E (testing error) <= E[F_E(w_S)] - E_S[F_S(w*_S)] [read E[F_S(w_S)] - "
                "E_S[F_S(w*_S)]: the label says 'expected excess empirical risk'] + E[F_E(w_S) - F_S(w_S)] "
                "(generalisation error; the OCR repeats the first label)"),
    kind="inequality",
    summary="Testing error <= expected excess empirical risk + generalisation error (Definition 1.1, eq. (1)).",
    domain=Domain(m=Real(search=(-3.0, 3.0)), s=Real(gt=0, search=(1e-2, 10.0), log=True),
                  w0=Real(search=(-3.0, 3.0)), a=Real(search=(-3.0, 3.0)), v=Real(ge=0, search=(0.0, 10.0)),
                  n=Int(ge=1, search=(1, 1000))),
    statements=(
        Identity("on the Gaussian location model: testing = empirical + generalisation - (min F_E - E F_S(w*_S)), "
                 "min F_E - E F_S(w*_S) = s^2/(2n)", lhs=_TESTING, rhs=_EMPIRICAL + _GENERALISATION - s_**2 / (2 * n)),
        Inequality("(1): testing error <= expected excess empirical risk + generalisation error",
                   lhs=_TESTING, rhs=_EMPIRICAL + _GENERALISATION),
    ),
    expected="verified",
)

# ----------------------------------------------------------------------------- Section 1.2
OURS = sp.Max(d * L**2 * LOG / (theta**2 * mu * n**2 * eps**2), sp.sqrt(1 / (theta * mu * n)))
_HIGH_DIM_TEXT = ("'In the same high-dimensional regime considered in [Bassily et al., 2019; Feldman et al., 2020] where "
                  "n = Theta(d), our population risk is better than the O(d^{1/4}/sqrt(n eps)) = O(1/(n^{1/4} "
                  "eps^{1/2})) rate (i.e., P-2)'; ours: O(max{d L^2 log(1/delta)/(theta^2 mu n^2 eps^2), "
                  "sqrt(1/(theta mu n))}) (Theorem 3.4), read along n -> infinity with d = n")
_RATE_PARAMS = dict(
    n=Real(ge=2, search=(10.0, 1e4), log=True),
    d=Real(ge=1, search=(1.0, 100.0), log=True),
    L=Real(gt=0, search=(1e-1, 10.0), log=True),
    theta=Real(gt=0, le=2, search=(0.1, 2.0)),
    mu=Real(gt=0, search=(1e-3, 1.0), log=True),
    epsilon=Real(gt=0, search=(0.1, 10.0), log=True),
    delta=Real(gt=0, lt=1, search=(1e-10, 0.1), log=True),
)
CLAIM_HIGH_DIM = Claim(
    id="stage/claim-high-dim",
    source=_src("Section 1.2", None, _HIGH_DIM_TEXT),
    kind="limit",
    summary="With n = Theta(d), d^{1/4}/sqrt(n eps) = 1/(n^{1/4} eps^{1/2}) and Theorem 3.4's rate is of lower order.",
    domain=Domain(**_RATE_PARAMS),
    statements=(
        Identity("d^{1/4}/sqrt(n eps) at d = n equals 1/(n^{1/4} eps^{1/2})",
                 lhs=(d ** sp.Rational(1, 4) / sp.sqrt(n * eps)).subs(d, n), rhs=1 / (n ** sp.Rational(1, 4) * sp.sqrt(eps))),
        Limit("(Theorem 3.4's rate over P-2's at d = n)^4 -> 0 as n -> infinity (the fourth power has the same limit "
              "and decays fast enough for the sweep to resolve it)",
              expr=(OURS.subs(d, n) * n ** sp.Rational(1, 4) * sp.sqrt(eps)) ** 4, value=sp.Integer(0),
              path=LimitPath("n", "inf")),
    ),
)
