"""Claims of [stage], Section 2 (Preliminaries): Theorems 2.1 (privacy of noisy SGD) and 2.2 (generalisation by
uniform stability)."""
from __future__ import annotations

import sympy as sp

from sympy.utilities.lambdify import implemented_function

from dpverify.scenarios import PointScenario, dp_audit, gaussian_mechanism
from dpverify.scenarios import seeded_search
from dpverify.claims import Claim, Domain, Inequality, Int, Real, Relation, SupBound

from .. import proofs
from .common import B, LOG, _src, c2, delta, eps, n

# ----------------------------------------------------------------------------- Theorem 2.1
c1, T, q = sp.symbols("c1 T q")
PI_21 = c2 * sp.sqrt(T * LOG) / eps            # Theorem 2.1's pi at q = 1 (full batch): noise std L pi on the sum
_THM_2_1_TEXT = (
    "[Abadi et al., 2016] For an L-Lipschitz continuous loss function f, there exists constants c1 and c2 so that "
    "given the sampling probability q = B/n and the number of total iterations T, for any eps < c1 q^2 T, a "
    "stochastic gradient-based algorithm with batch size B and stochastic gradient injected with noise from "
    "Gaussian mechanism with standard deviation L pi, is (eps, delta)-differentially private for any delta > 0 if "
    "pi >= c2 q sqrt(T log(1/delta))/eps [read as in Abadi et al.: noise std L pi on the sum of the batch's "
    "gradients; neighbours of Definition 2.1: one sample replaced, sensitivity 2L]")
_AUDIT_RUNS = 500    # outputs per side in each audit of the search (the final audit uses --runs)


def _audit(sampler, what, domain, **params):
    """The empirical audit beside a privacy statement, its search drawn by NumPy over ``domain``."""
    return seeded_search(dp_audit(sampler=sampler, what=what, search_runs=_AUDIT_RUNS, **params), domain)


def _accounting(fn, what, domain):
    return seeded_search(PointScenario(fn, what, optimise=0), domain)


THM_2_1_DELTA_STAR = implemented_function("delta_star", lambda a, b, dl: proofs.thm21_delta_at_tstar(a, b, dl)[2])
THM_3_1_DELTA_STAR = implemented_function("delta_star_alg1",
                                          lambda a, b, dl: proofs.thm31_delta_at_t0star(a, b, dl)[2])
_THM_2_1_DOMAIN = Domain(
    Relation(sp.Lt(eps, c1 * T), "eps < c1 q^2 T (q = 1)"),
    c1=Real(gt=0, search=(1e-2, 1e2), log=True),
    c2=Real(gt=0, search=(1e-2, 1e2), log=True),
    T=Int(ge=1, search=(1, 10**6)),
    delta=Real(gt=0, lt=1, search=(1e-10, 0.5), log=True),
    epsilon=Real(gt=0, search=(1e-3, 500.0), log=True),
)
THM_2_1 = Claim(
    id="stage/thm-2.1",
    source=_src("Theorem 2.1", None, _THM_2_1_TEXT),
    kind="privacy bound",
    summary=("There exist c1, c2 such that for every eps < c1 q^2 T, T steps of noisy SGD with noise std L pi, "
             "pi >= c2 q sqrt(T log(1/delta))/eps, are (eps, delta)-DP for every delta > 0."),
    domain=_THM_2_1_DOMAIN,
    statements=(
        SupBound("full batches (q = 1): the last iterate is (eps, delta)-DP (exact profile of its Gaussian law)",
                 bound=delta, kind="privacy",
                 scenario=gaussian_mechanism(sensitivity=2 * sp.sqrt(T), noise_std=PI_21, eps=eps,
                                             measure="delta_at_eps"),
                 audit=_audit(proofs.sgd_sum_sampler, "T full-batch noisy SGD steps on a linear loss, D vs D' "
                              "(z_1 = +-L e)", _THM_2_1_DOMAIN, eps=eps, delta=delta)),
        # `inconclusive` by itself: a grid over c2's box cannot refute "some c2 > 0", and the interval proof over
        # (0, inf) needs a ball form and tails, which this double-precision Python function has not; the claim
        # is `violated` on the statement above
        Inequality("no c2 works for this c1: at T* = ceil(64 max(c2^2 ln(1/delta), 1)/c1), eps* = c1 T*/2 the exact "
                   "delta(eps*) exceeds delta", lhs=THM_2_1_DELTA_STAR(c1, c2, delta), rhs=delta, exists=("c2",),
                   skip=("symbolic", "scaling")),
    ),
    expected="violated",
    reason=("eps < c1 q^2 T lets eps grow with T while pi = c2 q sqrt(T ln(1/delta))/eps falls like 1/sqrt(T): for "
            "every c1, c2 the exact delta(eps) tends to 1 (c1 = 1, c2 = 10, q = 1, T = 1000, eps = 500: delta(eps) = "
            "0.012 > 1e-5); the hypothesis eps <= ln(1/delta) is missing"),
    witness={"c1": 1.0, "c2": 10.0, "T": 1000, "delta": 1e-5, "epsilon": 500.0},
    error_in="statement", statement_survives=False,
)

# The corrected statement: constants c1 = 1, c2 = 10 and the missing hypothesis eps <= ln(1/delta), under the
# paper's own sampling (batches drawn without replacement) and Definition 2.1's neighbours; the accountant is
# an upper bound that cannot certify eps far below ln(1/delta)/128, so the check covers eps >= 1/2.
C1_OK, C2_OK = 1, 10
_PRIVACY_OK = dict(
    n=Int(ge=2, search=(2, 1000)),
    B=Int(ge=1, search=(1, 1000)),
    delta=Real(gt=0, lt=1, search=(1e-8, 0.05), log=True),
    epsilon=Real(ge=0.5, search=(0.5, 20.0), log=True),
)
_THM_2_1_OK_DOMAIN = Domain(
    Relation(sp.Le(B, n), "B <= n"),
    Relation(sp.Lt(eps, C1_OK * (B / n) ** 2 * T), "eps < c1 q^2 T, c1 = 1"),
    Relation(sp.Le(eps, LOG), "eps <= ln(1/delta)"),
    T=Int(ge=1, search=(1, 10**5)), **_PRIVACY_OK)
_WOR_ACCOUNTANT = ("RDP accountant of the subsampled Gaussian without replacement (Wang et al. 2019, dp_accounting), "
                   "replace-one neighbours")
THM_2_1_CORRECTED = THM_2_1.corrected(
    summary=("With eps <= ln(1/delta) added, c1 = 1 and c2 = 10 work: T steps of noisy SGD on batches of B of n drawn "
             "without replacement, noise L pi on the sum, pi = 10 q sqrt(T ln(1/delta))/eps, eps < q^2 T, are "
             "(eps, delta)-DP under one-sample replacement (RDP accountant; checked for eps >= 1/2)."),
    domain=_THM_2_1_OK_DOMAIN,
    statements=(
        SupBound("eps of T WOR-subsampled Gaussian steps (noise multiplier pi/2) <= eps", bound=eps, kind="privacy",
                 scenario=_accounting(lambda pt: proofs.sgd_transcript_epsilon({**pt, "c2": C2_OK}), _WOR_ACCOUNTANT,
                                      _THM_2_1_OK_DOMAIN),
                 audit=_audit(lambda pt, side, k, rng: proofs.sgd_sum_sampler({**pt, "c2": C2_OK}, side, k, rng),
                              "T noisy SGD steps on a linear loss, batches of B of n, D vs D' (z_1 = +-L e)",
                              _THM_2_1_OK_DOMAIN, eps=eps, delta=delta)),
    ),
)

# ----------------------------------------------------------------------------- Theorem 2.2
_c = sp.Symbol("c")
_THM_2_2_DOMAIN = Domain(n=Int(ge=2, search=(2, 40)), p=Real(gt=0, lt=1, search=(0.01, 0.99)),
                         c=Real(gt=0, search=(0.01, 3.0), log=True), s=Real(ge=0, search=(0.0, 2.0)))
THM_2_2 = Claim(
    id="stage/thm-2.2",
    source=_src("Theorem 2.2", "(3)",
                "(Generalization error by uniform stability, Theorem 2.2 in [Hardt et al., 2016]) If an algorithm A "
                "satisfies alpha-uniform stability with respect to loss f, its generalization error is bounded by "
                "alpha: E_{A,S}[F_E(A(S)) - F_S(A(S))] <= alpha [checked on an exactly solvable model: z in {-1, +1}, "
                "squared loss, A(S) = c zbar + N(0, s^2), alpha the smallest constant of Definition 2.4]"),
    kind="generalisation bound",
    summary="Generalisation error <= alpha for alpha-uniformly stable algorithms (Hardt et al. 2016, Thm 2.2).",
    domain=_THM_2_2_DOMAIN,
    statements=(
        SupBound("generalisation error / alpha <= 1 (exact sums over the data sets)", bound=sp.Integer(1),
                 kind="supremum",
                 scenario=seeded_search(PointScenario(proofs.generalisation_over_stability,
                                                      "z in {-1, +1} with P(z = 1) = p, (w - z)^2/2, A(S) = c zbar + "
                                                      "N(0, s^2): binomial sums", optimise=3), _THM_2_2_DOMAIN),
                 # the gap F_E(w) - F_S(w) = w (zbar - E z) with E_A w = c zbar is at most 2c on every S, and
                 # alpha = (2c/n)(1 + c(1 - 1/n)) (a flip k -> k - 1 at k = n, z = -1): alpha >= 2c says nothing
                 trivial=sp.Ge(2 * _c / n * (1 + _c * (1 - 1 / n)), 2 * _c)),
    ),
)
