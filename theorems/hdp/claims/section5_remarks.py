"""Claims of [hdp], Section 5 (PIDP-SGD): Remarks 5-10 (the influence-function hypothesis, the coefficient 2 of
line 9, the privacy of the whole algorithm, its time complexity, the accounting of c_t, eps against eps1).

The remarks are OCR'd with their formulas partly lost; each Source says what was reconstructed."""
from __future__ import annotations

import sympy as sp

from dpverify.scenarios import PointScenario, gaussian_mechanism
from dpverify.claims import Claim, Domain, Identity, Inequality, Int, Limit, LimitPath, Rate, Real, Relation, SupBound

from .. import proofs
from .common import G, _src, n
from .section4 import Md, N_, _RATE_PARAMS, eps_r
from .section5 import (R_, THM_5, THM_5_CORRECTED, Tl, _PIDP_AUDIT, _T7_RATE, _THM5, _THM5C_DOMAIN, d1, d2, e2, r_, xi_,
                       xo_, xr_)
from .section6_7 import _EER_6

# ----------------------------------------------------------------------------- Remark 5
# The one-dimensional instance of Theorem 4: l(theta; x) = a/2 (theta - x)^2 on C = [-r, r], |x| <= 1, D = (x_i, x_o,
# ..., x_o) (n samples); H_theta* = a, L = a, C = 0, G = a (r + max |x|). Everything below is in closed form.
a_h, zeta = sp.symbols("a zeta")
_XBAR = (xi_ + (n - 1) * xo_) / n                                    # theta* of the undamped loss
_MX = sp.Max(sp.Abs(xi_), sp.Abs(xo_))


def _max_over_samples(f):
    """max over the two kinds of sample of D (x_i, and the n - 1 copies of x_o) of f(x)."""
    return sp.Max(f(xi_), f(xo_))


def _thm4_bound(L, G_, z):
    """Theorem 4's bound (2LG + CG^2/zeta)/(zeta^2 n^2) with C = 0."""
    return 2 * L * G_ / (z**2 * n**2)


# reading A: the loss is unchanged and c_z = (1/n)(H + zeta)^{-1} grad l(theta*, z) uses the damped Hessian;
# theta*_{-z} - theta* = (xbar - x)/(n - 1), grad l(theta*, x) = a (xbar - x)
_ERR_A = _max_over_samples(lambda x: sp.Abs(_XBAR - x) * sp.Abs(1 / (n - 1) - a_h / (n * (a_h + zeta))))
_G_A = a_h * (r_ + _MX)
# reading B: zeta/2 theta^2 added to every per-sample loss (H = a + zeta everywhere); theta* = a xbar/(a + zeta),
# theta*_{-z} - theta* = a (xbar - x)/((a + zeta)(n - 1)), c_z = a (xbar - x)/(n (a + zeta))
_ERR_B = _max_over_samples(lambda x: a_h * sp.Abs(_XBAR - x) / ((a_h + zeta) * n * (n - 1)))
_G_B = (a_h + zeta) * r_ + a_h * _MX
_R5_DOMAIN = Domain(Relation(sp.Lt(a_h, zeta), "a < zeta: H_theta* = a does not satisfy ||H||_2 >= zeta"),
                    n=Int(ge=2, search=(2, 1000)), a=Real(gt=0, search=(1e-3, 1.0), log=True),
                    zeta=Real(gt=0, search=(1e-3, 10.0), log=True), r=Real(ge=1, search=(1.0, 100.0), log=True),
                    x_i=Real(ge=-1, le=1, search=(-1.0, 1.0)), x_o=Real(ge=-1, le=1, search=(-1.0, 1.0)))
_R5_B = Inequality("reading B (zeta/2 ||theta||^2 added to the loss, so zeta is added to every Hessian's diagonal): "
                   "Theorem 4's bound with L = a + zeta, G = (a + zeta) r + a max|x| holds",
                   lhs=_ERR_B, rhs=_thm4_bound(a_h + zeta, _G_B, zeta), skip=("symbolic",))
_R5_HOLDS = Inequality("the added zeta makes the assumption hold: ||H + zeta I||_2 = lambda_min(H + zeta I) = a + zeta "
                       ">= zeta", lhs=zeta, rhs=a_h + zeta)
REMARK_5 = Claim(
    id="hdp/remark-5",
    source=_src("Section 5.2, Remark 5", None,
                "In Theorem 4, we assume that ||H_theta*||_2 >= zeta. Because most of the algorithms are regularized, so the "
                "assumption is easy to hold. And if H_theta* does not satisfy the assumption, we can add a small zeta > 0 to "
                "the diagonal elements of H_theta* (OCR: 'H_{theta^*}' left in plain text, read as the Hessian of Theorem 4). "
                "[1-D instance: l = a/2 (theta - x)^2 on C = [-r, r], |x| <= 1, D = (x_i, x_o, ..., x_o), H_theta* = a < zeta; "
                "read as: after the fix, Theorem 4's error bound (2LG + CG^2/zeta)/(zeta^2 n^2) holds for the contribution "
                "c_z the algorithm uses]"),
    kind="inequality",
    summary=("Adding zeta to the diagonal of H_theta* makes ||H||_2 >= zeta hold, and Theorem 4's O(1/n^2) error bound "
             "then holds: for the damped c_z = (1/n)(H + zeta I)^{-1} grad l (reading A) and for the loss regularised by "
             "zeta/2 ||theta||^2 (reading B)."),
    domain=_R5_DOMAIN,
    statements=(
        _R5_HOLDS,
        Inequality("reading A (zeta added to H_theta* in c_z only, the loss unchanged): max_z ||(theta*_{-z} - theta*) - "
                   "c_z|| <= Theorem 4's bound with L = a, G = a (r + max|x|), C = 0", lhs=_ERR_A,
                   rhs=_thm4_bound(a_h, _G_A, zeta), skip=("symbolic",)),
        _R5_B,
    ),
    expected="violated",
    reason=("reading A: damping the Hessian of c_z biases the influence function by ~ zeta/(n (a + zeta)) per unit "
            "gradient, an O(1/n) error that Theorem 4's O(1/n^2) bound cannot cover (n = 100, a = 0.1, zeta = 0.5: error "
            "0.0167 > 1.6e-5); reading B (regularising the loss) holds"),
    witness={"n": 100, "a": 0.1, "zeta": 0.5, "r": 1.0, "x_i": 1.0, "x_o": -1.0},
    error_in="statement", statement_survives=False,
)
REMARK_5_CORRECTED = REMARK_5.corrected(
    summary=("With the damped c_z (reading A) the error is at most Theorem 4's bound at the undamped Hessian (zeta_H = a) "
             "plus the damping bias zeta G/(n a (a + zeta)), which is O(zeta/n); regularising the loss (reading B) keeps "
             "Theorem 4's bound with zeta."),
    statements=(
        _R5_HOLDS,
        Inequality("reading A: error <= Theorem 4's bound at zeta_H = a + zeta G/(n a (a + zeta))", lhs=_ERR_A,
                   rhs=_thm4_bound(a_h, _G_A, a_h) + zeta * _G_A / (n * a_h * (a_h + zeta)), skip=("symbolic",)),
        _R5_B,
    ),
)

# ----------------------------------------------------------------------------- Remark 6
# Theorem 5's one-dimensional instance: l = 1/2 (theta - x)^2 on C = [-r, r] (zeta = L = 1, C = 0, G = r + max |x|),
# D = (x_i, x_o, ..., x_o), D' = (x_r, x_o, ..., x_o): theta*_D = xbar, theta*_D' - theta*_D = (x_r - x_i)/n.
_MX3 = sp.Max(sp.Abs(xi_), sp.Abs(xr_), sp.Abs(xo_))
_E6 = _thm4_bound(1, r_ + _MX3, 1)                                   # Theorem 4's E = 2 G/n^2
_EXCHANGE = sp.Abs(xr_ - xi_) / n
_C_I, _C_R = sp.Abs(_XBAR - xi_) / n, sp.Abs(xr_ - _XBAR) / n        # |c_{z_i}| (deleted), |c_{z_r}| (inserted)
_R6_SENS = Inequality("reading 'sensitivity' (an exchange is a deletion and an insertion): |theta*_D' - theta*_D| <= 2 "
                      "max(|theta*_{D - z_i} - theta*_D|, |theta*_{D + z_r} - theta*_D|) = 2 max(|xbar - x_i|/(n - 1), "
                      "|x_r - xbar|/(n + 1))", lhs=_EXCHANGE,
                      rhs=2 * sp.Max(sp.Abs(_XBAR - xi_) / (n - 1), sp.Abs(xr_ - _XBAR) / (n + 1)), skip=("symbolic",))
_R6_DOMAIN = Domain(n=Int(ge=2, search=(2, 1000)), r=Real(ge=1, search=(1.0, 100.0), log=True),
                    x_i=Real(ge=-1, le=1, search=(-1.0, 1.0)), x_r=Real(ge=-1, le=1, search=(-1.0, 1.0)),
                    x_o=Real(ge=-1, le=1, search=(-1.0, 1.0)))
REMARK_6 = Claim(
    id="hdp/remark-6",
    source=_src("Section 5.3, Remark 6", None,
                "In Algorithm 1, c_t = 2 c_t^(o) + b^(c). The coefficient 2 is because in DP, besides inserting (or deleting) a "
                "data instance to (or from) the dataset, exchanging is also allowed. [c_t^(o) = c_{z_t} + E (line 7), c_z = "
                "(1/n) H^{-1} grad l(theta*, z), E Theorem 4's bound; the proof of Theorem 5 uses [A(D') - A(D)]_i <= [c_t]_i; "
                "1-D instance of Theorem 5: l = 1/2 (theta - x)^2 on C = [-r, r], D = (x_i, x_o, ..., x_o), D' = (x_r, x_o, "
                "..., x_o), the model theta* the minimiser]"),
    kind="inequality",
    summary=("Exchanging z_i for z_r moves the model by at most twice what inserting or deleting one sample does: "
             "read with the sample's own contribution (what line 9 tests, 2(|c_{z_i}| + E)) and as a sensitivity."),
    domain=_R6_DOMAIN,
    statements=(
        Inequality("reading 'the sample's own contribution' (line 9 tests z_t's c_t^(o) only): |theta*_D' - theta*_D| <= "
                   "2 (|c_{z_i}| + E)", lhs=_EXCHANGE, rhs=2 * (_C_I + _E6), skip=("symbolic",)),
        _R6_SENS,
    ),
    expected="violated",
    reason=("doubling z_t's own contribution does not bound an exchange: a sample at the model (c_{z_i} = 0) replaced by "
            "a far one moves it by |x_r - x_i|/n = O(1/n) while 2E = O(1/n^2) (n = 10, x_i = x_o = 0, x_r = 1, r = 1: "
            "0.1 > 0.08); the factor 2 bounds it with the larger of the two samples' contributions"),
    witness={"n": 10, "r": 1.0, "x_i": 0.0, "x_r": 1.0, "x_o": 0.0},
    error_in="statement", statement_survives=False,
)
REMARK_6_CORRECTED = REMARK_6.corrected(
    summary=("The coefficient 2 is right for the larger of the two contributions (the deleted sample's and the inserted "
             "one's): |theta*_D' - theta*_D| <= 2 (max(|c_{z_i}|, |c_{z_r}|) + E), which line 9 cannot compute since z_r "
             "is unknown (a sup over the data universe is needed)."),
    statements=(
        Inequality("|theta*_D' - theta*_D| <= 2 (max(|c_{z_i}|, |c_{z_r}|) + E)", lhs=_EXCHANGE,
                   rhs=2 * (sp.Max(_C_I, _C_R) + _E6), skip=("symbolic",)),
        _R6_SENS,
    ),
)

# ----------------------------------------------------------------------------- Remark 7
REMARK_7 = Claim(
    id="hdp/remark-7",
    source=_src("Section 5.3, Remark 7", None,
                "In Algorithm 1, we consider the differential privacy of the whole algorithm. Because the Hessian may change "
                "during the training process, so the sequence of the data samples may affect the noise adding process ... the "
                "sequence of the data flow indeed affects the noise adding process, but the DP property still holds, because "
                "for the new model, data z is not so significant as before. [read as Theorem 5's (eps1 + eps2, delta1 + "
                "delta2)-DP for the whole run, R >= 2 rounds, contributions recomputed at each round's global iterate; "
                "Theorem 5's 1-D instance and noise]"),
    kind="privacy bound",
    summary="Algorithm 1 over R >= 2 rounds, the noise decisions changing with the Hessian, is (eps1 + eps2, delta1 + delta2)-DP.",
    domain=Domain(*THM_5.domain.relations, **{**_THM5, "R": Int(ge=2, search=(2, 3))}),
    statements=(
        SupBound("the whole run is (eps1 + eps2, delta1 + delta2)-DP: P(the replaced sample takes a noise-free step in "
                 "round 0) (a lower bound on the run's delta at every eps) <= delta1 + delta2", bound=d1 + d2,
                 kind="privacy", scenario=PointScenario(proofs.noise_free_leak, "the noise-free branch of lines 10-11 in "
                                                        "round 0 of the point's 1-D instance, exact", optimise=1),
                 audit=_PIDP_AUDIT),
    ),
    expected="violated",
    reason=("Theorem 5's leak does not depend on the order of the data: round 0 alone releases z_i's exact gradient step "
            "with a probability above delta1 + delta2 (R = 2, r = 100, n = 10, eps1 = eps2 = 3, delta1 = delta2 = 0.01, 30 "
            "steps a round: round 0 alone gives 0.106 > 0.02), whatever later rounds do"),
    witness={**THM_5.witness, "R": 2},
    error_in="statement", statement_survives=False,
)
REMARK_7_CORRECTED = REMARK_7.corrected(
    builds_on=("hdp/thm-5-corrected",),
    summary=("With noise on every step of every round (the noise-free branch removed, T = R T_local steps in all) the whole "
             "run is one-sample DP-SGD and is (eps1 + eps2, delta1 + delta2)-DP with eq. (2)-corrected's sigma, whatever the "
             "order (Theorem 5-corrected)."),
    domain=_THM5C_DOMAIN,
    statements=THM_5_CORRECTED.statements,
)

# ----------------------------------------------------------------------------- Remark 8
Rc, Tc, Jc = sp.symbols("R_c T_c J")
_CPLX = dict(N=Real(ge=1, search=(1.0, 1e4), log=True), M_d=Real(ge=1, search=(1.0, 1e4), log=True),
             R_c=Real(ge=1, search=(1.0, 1e4), log=True), T_c=Real(ge=1, search=(1.0, 1e4), log=True),
             J=Real(ge=0, search=(0.0, 1e4)))
_CPLX_PATHS = tuple(LimitPath(p, "inf") for p in ("N", "M_d", "R_c", "T_c"))


def _cost(N, M):
    """Operations of Algorithm 1 (as written, dense linear algebra, constants dropped): each round forms H (n m^2),
    inverts it by elimination (m^3, line 4) and computes the n contributions (n m^2); each step costs O(m) (its gradient,
    the test of lines 9-10, the update)."""
    return Rc * (2 * N * M**2 + M**3) + Rc * Tc * M


_M_GE_N = N_ + Jc                                                    # m = n + j >= n (n <= m, the high-dimension case)
_N_GE_M = Md + Jc                                                    # n = m + j >= m (n >= m)
_R8_TL1 = Rate("T_local = 1: O(R n m^2 + R m) = Theta(R n m^2)", expr=Rc * N_ * Md**2 + Rc * Md, rate=Rc * N_ * Md**2,
               kind="Theta", paths=_CPLX_PATHS)
_R8_CMP = (Identity("[24]'s O(Rnm) against DP-LSSGD's O(Rm^2): R n m - R m^2 = R m (n - m), positive iff n > m",
                    lhs=Rc * N_ * Md - Rc * Md**2, rhs=Rc * Md * (N_ - Md)),
           Inequality("reading A (ours = [24]'s O(Rnm)), n <= m (m = n + j): R n m <= R m^2, ours is better",
                      lhs=Rc * N_ * _M_GE_N, rhs=Rc * _M_GE_N**2))
REMARK_8 = Claim(
    id="hdp/remark-8",
    source=_src("Section 5.3, Remark 8", None,
                "The time complexity of Algorithm 1 is O(Rnm^2 + R T_local m). Under the case T_local = 1, it becomes "
                "O(Rnm^2) ... an efficient approach to calculate the Influence Function was given in [24], and the time "
                "complexity can be reduced to O(Rnm) ... DP-LSSGD ... whose time complexity is O(Rm^2). Under the cases n > m, "
                "our time complexity is larger than DP-LSSGD, and under high dimension cases, when n <= m, our time complexity "
                "is better. [cost of Algorithm 1 as written: line 4 'get H and compute its inverse' by elimination; orders "
                "compared as the expressions printed; n, m, R, T_local as reals >= 1 along the limits]"),
    kind="rate",
    summary=("Algorithm 1 costs O(Rnm^2 + R T_local m), Theta(Rnm^2) at T_local = 1; with [24] O(Rnm), which is larger "
             "than DP-LSSGD's O(Rm^2) iff n > m (reading A; reading B compares the O(Rnm^2) before [24])."),
    domain=Domain(**_CPLX),
    statements=(
        Rate("Algorithm 1 as written (m^3 to invert H each round, n m^2 for H and the contributions, m a step): "
             "O(R n m^2 + R T_local m)", expr=_cost(N_, Md), rate=Rc * N_ * Md**2 + Rc * Tc * Md, kind="O",
             paths=_CPLX_PATHS),
        _R8_TL1,
        *_R8_CMP,
        Inequality("reading B (ours = O(Rnm^2), before [24]), n <= m (m = n + j): R n m^2 <= R m^2, ours is better",
                   lhs=Rc * N_ * _M_GE_N**2, rhs=Rc * _M_GE_N**2),
    ),
    expected="violated",
    reason=("the printed count leaves out the inversion of H on line 4 (m^3 a round by elimination), which dominates "
            "R n m^2 when m > n, exactly the high-dimension case the remark favours (n = 10, m -> inf: cost/printed ~ m/n); "
            "reading B of the comparison fails for every n > 1 (R n m^2 > R m^2)"),
    witness={"N": 10.0, "M_d": 10.0, "R_c": 1.0, "T_c": 1.0, "J": 0.0},
    error_in="statement", statement_survives=False,
)
REMARK_8_CORRECTED = REMARK_8.corrected(
    summary=("Algorithm 1 costs Theta(R(nm^2 + m^3) + R T_local m), which is the printed O(Rnm^2 + R T_local m) when "
             "n >= m; at T_local = 1 and against DP-LSSGD the printed arithmetic (reading A) holds."),
    statements=(
        Rate("Algorithm 1 as written: Theta(R(nm^2 + m^3) + R T_local m)", expr=_cost(N_, Md),
             rate=Rc * (N_ * Md**2 + Md**3) + Rc * Tc * Md, kind="Theta", paths=_CPLX_PATHS),
        Rate("n >= m (n = m + j): O(R n m^2 + R T_local m)", expr=_cost(_N_GE_M, Md),
             rate=Rc * _N_GE_M * Md**2 + Rc * Tc * Md, kind="O", paths=_CPLX_PATHS[1:] + (LimitPath("J", "inf"),)),
        _R8_TL1,
        *_R8_CMP,
    ),
)

# ----------------------------------------------------------------------------- Remark 9
# The c_t part of Theorem 5: sensitivity S = 2G/(n zeta) (the proof's, on the 1-D instance zeta = 1 exactly),
# sigma_(c) = c' G R sqrt(log(1.25 R/delta2))/(n zeta eps2) with c' = 2.83; k Gaussian releases of values at distance S
# with the same noise are exactly the Gaussian mechanism with sensitivity sqrt(k) S.
_S_CT = 2 * G / (n * zeta)


def _sigma_c(rounds):
    return sp.Rational(283, 100) * G * rounds * sp.sqrt(sp.log(sp.Rational(5, 4) * rounds / d2)) / (n * zeta * e2)


_R9 = dict(n=Int(ge=2, search=(2, 1000)), G=Real(gt=0, search=(0.1, 10.0), log=True),
           zeta=Real(gt=0, search=(1e-2, 10.0), log=True), R=Int(ge=1, search=(1, 4)), T_local=Int(ge=1, search=(1, 30)),
           delta2=Real(gt=0, lt=1, search=(1e-6, 0.1), log=True), epsilon2=Real(gt=0, search=(0.01, 50.0), log=True))
_R9_ONCE = SupBound("reading A (one release of c_{z_t} a round, as the remark accounts it): the R rounds' releases are "
                    "(eps2, delta2)-DP (exact profile of the R-fold Gaussian composition)", bound=d2, kind="privacy",
                    scenario=gaussian_mechanism(sensitivity=sp.sqrt(R_) * _S_CT, noise_std=_sigma_c(R_), eps=e2,
                                                measure="delta_at_eps"))
REMARK_9 = Claim(
    id="hdp/remark-9",
    source=_src("Section 5.4, Remark 9", None,
                "for DP of computing c_t, the analysis is based on the l_2-sensitivity and Gaussian mechanism ... computing c_t "
                "is only for the decision process and during T_local iterations, c_{z_t} for a certain data instance z_t is "
                "fixed and only calculated once, so it derives corresponding privacy loss only once. Thus, there is no need "
                "to track the privacy loss over the whole training iterations. [with Theorem 5's sigma_(c) >= c' G R "
                "sqrt(log(1.25R/delta2))/(n zeta eps2), c' = 2.83, S(c_t) <= 2G/(n zeta), (eps2/R, delta2/R) a round by "
                "Lemma 3; Algorithm 1 samples b^(c) on line 8, inside the loop over the T_local steps]"),
    kind="privacy bound",
    summary=("The contributions' releases cost one Gaussian mechanism a round: with sigma_(c) of Theorem 5 the c_t part is "
             "(eps2, delta2)-DP over R rounds (reading A), also when z_t is drawn at every step of a round and its fixed "
             "c_{z_t} is released with a fresh b^(c) each time (reading B)."),
    domain=Domain(**_R9),
    statements=(
        _R9_ONCE,
        SupBound("reading B (b^(c) drawn afresh on line 8 each time z_t is drawn; z_t drawn at all T_local steps): the R "
                 "T_local releases of the fixed c_{z_t} cost one a round: (eps2, delta2)-DP", bound=d2, kind="privacy",
                 scenario=gaussian_mechanism(sensitivity=sp.sqrt(R_ * Tl) * _S_CT, noise_std=_sigma_c(R_), eps=e2,
                                             measure="delta_at_eps")),
    ),
    expected="violated",
    reason=("reading A holds only in Lemma 3's range eps2/R <= 1 (R = 1, eps2 = 50, delta2 = 0.1: delta = 1.0); reading "
            "B: a fixed value released k times with fresh noise leaks as one release with sensitivity sqrt(k) S, not S "
            "(R = 1, T_local = 30, eps2 = 1, delta2 = 1e-3: delta = 0.30)"),
    witness={"n": 10, "G": 1.0, "zeta": 1.0, "R": 1, "T_local": 30, "delta2": 1e-3, "epsilon2": 1.0},
    error_in="statement", statement_survives=False,
)
_R9C = {**_R9, "epsilon2": Real(gt=0, search=(0.01, 30.0), log=True)}
REMARK_9_CORRECTED = REMARK_9.corrected(
    builds_on=("hdp/lemma-3-corrected",),
    summary=("One release a round is (eps2, delta2)-DP when eps2 <= R (each round's (eps2/R, delta2/R) in Lemma 3's range); "
             "with a fresh b^(c) at every step the per-step accounting (R replaced by T = R T_local in sigma_(c)) is."),
    domain=Domain(Relation(sp.Le(e2, R_), "eps2 <= R (eps2/R <= 1, Lemma 3-corrected's range)"), **_R9C),
    statements=(
        _R9_ONCE,
        SupBound("reading B with sigma_(c) at T = R T_local releases: (eps2, delta2)-DP", bound=d2, kind="privacy",
                 scenario=gaussian_mechanism(sensitivity=sp.sqrt(R_ * Tl) * _S_CT, noise_std=_sigma_c(R_ * Tl), eps=e2,
                                             measure="delta_at_eps")),
    ),
)

# ----------------------------------------------------------------------------- Remark 10
eta, Kc = sp.symbols("eta K_c")
_EPS1 = (1 - eta) * eps_r                                            # eps1 = eps - eps2, eps2 = eta eps
REMARK_10 = Claim(
    id="hdp/remark-10",
    source=_src("Section 5.5, Remark 10", None,
                "Note that eps and eps1 can be set almost the same, so we do not distinguish them in the discussion above "
                "(Theorems 6 and 7 are stated in eps1 and compared in eps; eps = eps1 + eps2 by Theorem 5; section 7 sets "
                "eps1 = 3 eps/4). [eps2 = eta eps; sigma_(c) = K_c/eps2, K_c = 2.83 G R sqrt(log(1.25R/delta2))/(n zeta)]"),
    kind="rate",
    summary=("Theorem 6's bound in eps1 = (1 - eta) eps is 1/(1 - eta)^2 times the bound in eps (-> 1 as eta -> 0+), "
             "Theorem 7's rate changes by a constant at section 7's eta = 1/4; the price is sigma_(c) = Theta(1/eta)."),
    domain=Domain(eta=Real(gt=0, lt=1, search=(1e-4, 0.99), log=True), K_c=Real(gt=0, search=(1e-2, 1e2), log=True),
                  K=Real(ge=1, search=(1.0, 1e3), log=True), G=Real(gt=0, search=(0.1, 10.0), log=True),
                  delta=Real(gt=0, lt=1, search=(1e-10, 0.5), log=True), **_RATE_PARAMS),
    statements=(
        Identity("Theorem 6's bound in eps1 over the bound in eps = 1/(1 - eta)^2", lhs=_EER_6.subs(eps_r, _EPS1) / _EER_6,
                 rhs=1 / (1 - eta) ** 2, skip=("scaling",)),
        Limit("the ratio -> 1 as eta -> 0+ (eps1 almost eps)", expr=_EER_6.subs(eps_r, _EPS1) / _EER_6, value=sp.Integer(1),
              path=LimitPath("eta", "0+")),
        Rate("eps1 = 3 eps/4 (section 7): Theorem 7's rate in eps1 = Theta(its rate in eps)",
             expr=_T7_RATE.subs(eps_r, 3 * eps_r / 4) / _T7_RATE, rate=sp.Integer(1), kind="Theta",
             paths=(LimitPath("eps_r", "inf"), LimitPath("eps_r", "0+"), LimitPath("N", "inf"), LimitPath("K", "inf"))),
        Rate("the price of eps1 -> eps: sigma_(c) = K_c/(eta eps) = Theta(1/eta) as eta -> 0+", expr=Kc / (eta * eps_r),
             rate=1 / eta, kind="Theta", paths=(LimitPath("eta", "0+"),)),
    ),
)
