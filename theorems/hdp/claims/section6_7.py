"""Claims of [hdp], Sections 6.1 (Utility bounds compared) and 7 (Experimental results)."""
from __future__ import annotations

import sympy as sp

from dpverify.claims import Claim, Domain, Identity, LimitPath, Rate, Real, Relation

from .common import G, L_DELTA, _src, eps
from .section4 import K_, Md, N_, _A4, _RATE_PARAMS, eps_r

_EER_1 = Md * G**2 * L_DELTA * sp.log(N_) / (N_**2 * eps_r**2)                 # Theorem 1
_EER_43 = Md * G**2 * L_DELTA * sp.log(N_) ** 2 / (N_**2 * eps_r**2)           # [43], Remark 3
_EER_6 = K_ * Md * G**2 * L_DELTA * sp.log(N_) / (N_**3 * eps_r**2)           # Theorem 6
EER_FACTORS = Claim(
    id="hdp/claim-eer-factors",
    source=_src("Section 6.1", None,
                "For our proposed 'performance improving' method: PIDP-SGD, our analyzed excess empirical risk bound is "
                "further tighter by a factor of O(k/n) ... for the non-convex analysis given in [43], the excess empirical "
                "risk bound of our analyzed DP-SGD method is better by a factor of O(log(n)) (as discussed in Remark 3) "
                "and the PIDP-SGD method is better by a factor of O(k log(n)/n) [Theorem 1: O(m G^2 log(1/delta) log(n)/"
                "(n^2 eps^2)), Theorem 6: O(k m G^2 log(1/delta) log(n)/(n^3 eps^2)), [43]: O(m G^2 log(1/delta) "
                "log^2(n)/(n^2 eps^2))]"),
    kind="rate",
    summary="Theorem 6's bound is k/n times Theorem 1's, and O(k log(n)/n) times [43]'s (the exact ratio is k/(n log n)).",
    domain=Domain(Relation(sp.Le(K_, N_), "k <= n"), N=Real(gt=1, search=(1.01, 1e6), log=True),
                  M_d=_RATE_PARAMS["M_d"], eps_r=_RATE_PARAMS["eps_r"], K=Real(ge=1, search=(1.0, 1e3), log=True),
                  G=Real(gt=0, search=(0.1, 10.0), log=True), delta=Real(gt=0, lt=1, search=(1e-10, 0.5), log=True)),
    statements=(
        Identity("Theorem 6 / Theorem 1 = k/n", lhs=_EER_6 / _EER_1, rhs=K_ / N_, skip=("scaling",)),
        Identity("Theorem 6 / [43] = k/(n log n) exactly", lhs=_EER_6 / _EER_43, rhs=K_ / (N_ * sp.log(N_)),
                 skip=("scaling",)),
        Rate("Theorem 6 / [43] = O(k log(n)/n) (the printed factor, loose by log^2 n)", expr=_EER_6 / _EER_43,
             rate=K_ * sp.log(N_) / N_, kind="O", paths=(LimitPath("N", "inf"),)),
    ),
)
BUDGET_SPLIT = Claim(
    id="hdp/claim-budget-split",
    source=_src("Section 7", None, "in the PIDP-SGD method, we set eps1 = 3 eps2 = 3 eps/4 to guarantee eps1 + eps2 = eps "
                "... (in our experiments, we set eps1 = 3 eps2 = 3 eps/4, so the ratio is 1/4)"),
    kind="identity",
    summary="eps1 = 3 eps/4 and eps2 = eps/4 give eps1 = 3 eps2, eps1 + eps2 = eps and eps2/eps = 1/4.",
    expected="verified",
    domain=Domain(epsilon=Real(gt=0, search=(0.01, 3.0), log=True)),
    statements=(Identity("eps1 + eps2 = eps", lhs=3 * eps / 4 + eps / 4, rhs=eps),
                Identity("eps1 = 3 eps2", lhs=3 * eps / 4, rhs=3 * (eps / 4)),
                Identity("eps2/eps = 1/4", lhs=(eps / 4) / eps, rhs=sp.Rational(1, 4))),
)
EPR_COMPARISON = Claim(
    id="hdp/claim-epr-comparison",
    source=_src("Section 6.1", None,
                "here we compare our method with the best result O(m/(n^2 eps^2) + 1/n) given in [16] ... our result is "
                "better by a factor up to O(1/sqrt(n)) under the best case (ours: Table 1's O(min{m/(n^2 eps^2) + 1/n, "
                "sqrt(m)/(n^1.5 eps) + m^1.5/(n^2.5 eps^3)}))"),
    kind="rate",
    about="math",  # a comparison of two printed bounds
    summary="The printed min-rate over [16]'s m/(n^2 eps^2) + 1/n is Theta(1/sqrt(n)) as n grows.",
    domain=Domain(**_RATE_PARAMS),
    statements=(Rate("ratio = Theta(1/sqrt(n)) as n -> inf",
                     expr=sp.Min(_A4 + 1 / N_, sp.sqrt(Md) / (N_**1.5 * eps_r) + Md**1.5 / (N_**2.5 * eps_r**3))
                     / (_A4 + 1 / N_), rate=1 / sp.sqrt(N_), kind="Theta", paths=(LimitPath("N", "inf"),)),),
)
