"""Claims of [hdp], Section 5.4: the steps of the proof of Theorem 5 that no other claim encodes, and what
Algorithm 1 releases, tests and calibrates.

Algorithm 1 as printed releases theta_priv = theta_R^(g) only (line 19); it tests a noisy contribution
c_t = 2 c_t^(o) + b^(c) at every one of its T = R T_local steps (lines 6-9, a fresh b^(c) each time, z_t drawn
uniformly); sigma_(c) is calibrated to the proof's S(c_t) <= 2G/(n zeta) and R releases, sigma to one-sample
DP-SGD over T steps (eq. (2)).

The steps of the proof, in order, and where each is checked:

1. c_t = theta~_{-z_t} - theta_r^(g) = (1/n) H^{-1} grad l: Theorem 4's c_z (``hdp/thm-4``);
2. S(c_t) <= 2G/(n zeta): ``hdp/claim-ct-sensitivity``;
3. c_{z_t} fixed in a round, its loss summed R times: ``hdp/remark-9``;
4. sigma_(c) gives (eps2/R, delta2/R)-DP at each round by Lemma 3: ``hdp/thm-5-step-4`` (line 9 perturbs
   2 c_t^(o), twice the c_t whose sensitivity step 2 bounds); ``hdp/lemma-3`` for Lemma 3's own range;
5. c' = 2.83, (eps2, delta2) overall: ``hdp/thm-5`` (c' >= 2 sqrt 2), ``hdp/remark-9``, and the composition
   Algorithm 1 runs, ``hdp/alg-1-test-composition``;
6. Definition 4 rewritten as 1 - delta/P <= e^eps P'/P: ``hdp/thm-5-step-6``;
7. every coordinate (eps, delta)-DP => the model (eps, delta)-DP ([13]): ``hdp/thm-5-step-7``;
8. P = kappa delta/(kappa - 1) and (15): ``hdp/thm-5-step-8``;
9. the model uniform on [-r, r], [A(D') - A(D)]_i <= [c_t]_i: ``hdp/thm-5-step-9``;
10. the overlap of the two intervals, the threshold and the test, kappa = e^eps1: ``hdp/thm-5-step-10``;
11. noise-free steps (eps1, delta1)-DP each, noisy ones by the moments accountant (eq. (2), ``hdp/eq-2``), so
    training is (eps1, delta1)-DP: ``hdp/thm-5-step-11``;
12. composition of the two parts: ``hdp/thm-5-step-12``;
and the theorem itself about what line 19 releases: ``hdp/alg-1-release``.
"""
from __future__ import annotations

import sympy as sp

from dpverify.privacy import composition
from dpverify.scenarios import PointScenario, gaussian_mechanism
from dpverify.scenarios import single_sample_sgd_privacy
from dpverify.claims import Claim, Domain, Identity, Inequality, Int, Real, Relation, SupBound

from .. import proofs
from .common import T, _src, delta, eps, m, n
from .section4 import _audit
from .section5 import A_TEST, R_, THM_5, THM_5_CORRECTED, Tl, _THM5, _THM5C_DOMAIN, d1, d2, e1, e2, r_, xi_, xr_

_X = dict(x_i=Real(ge=-1, le=1, search=(-1.0, 1.0)), x_r=Real(ge=-1, le=1, search=(-1.0, 1.0)),
          x_o=Real(ge=-1, le=1, search=(-1.0, 1.0)))
_NE = (Relation(sp.Ne(xi_, xr_), "x_i != x_r"),)


def _sigma_c(c_prime, G_, rounds):
    """sigma_(c) of Theorem 5 (zeta = 1): c' G R sqrt(log(1.25 R/delta2))/(n eps2), R = ``rounds``."""
    return c_prime * G_ * rounds * sp.sqrt(sp.log(sp.Rational(5, 4) * rounds / d2)) / (n * e2)


_C283, _C566 = sp.Rational(283, 100), sp.Rational(283, 50)

# ----------------------------------------------------------------------------- what line 19 releases
_ALG1_RELEASE_TEXT = (
    "Algorithm 1, line 19: 'return theta_priv = theta_R^(g)'; Theorem 5: '(eps1 + eps2, delta1 + delta2)-DP' with "
    "sigma >= c G sqrt(T log(1/delta1))/(n eps1), sigma_(c) >= c' G R sqrt(log(1.25R/delta2))/(n zeta eps2), c' = 2.83 "
    "[the released output alone; Theorem 5's 1-D instance with one round: l = 1/2 (theta - x)^2 on C = [-r, r], "
    "|x| <= 1, zeta = L = 1, alpha = 1, D = (x_i, x_o, ..., x_o), D' = (x_r, x_o, ..., x_o), theta~ = v r]")
# One round; the search box looks where the last step can pass the test (few samples, a threshold 2 r delta1 above
# the contribution's 2E = 4G/n^2, a small test noise): about one draw in four breaks the printed bound there.
_RELEASE = {**_THM5, "R": Int(ge=1, le=1), "n": Int(ge=2, search=(2, 10)),
            "delta1": Real(gt=0, lt=1, search=(0.01, 0.5), log=True), "epsilon1": Real(gt=0, search=(0.01, 1.0), log=True),
            "epsilon2": Real(gt=0, search=(1.0, 50.0), log=True)}
ALG_1_RELEASE = Claim(
    id="hdp/alg-1-release",
    error_in="statement", statement_survives=False,
    source=_src("Algorithm 1 (line 19), Theorem 5", None, _ALG1_RELEASE_TEXT),
    kind="privacy bound",
    about="algorithm",
    summary=("Algorithm 1's released output theta_priv alone (not every iterate) is (eps1 + eps2, delta1 + delta2)-DP "
             "with Theorem 5's sigma and sigma_(c)."),
    domain=Domain(*THM_5.domain.relations, **_RELEASE),
    statements=(
        SupBound("delta of theta_priv at every eps >= P(theta_priv = x_i exactly) = P(the last step draws z_i and "
                 "passes the test) <= delta1 + delta2", bound=d1 + d2, kind="privacy",
                 scenario=PointScenario(proofs.final_release_leak, "the noise-free branch on the last step of the "
                                        "point's 1-D instance (R = 1): P(theta_priv = x_i) = p_i/n, exact", optimise=1,
                                        ball=proofs.FINAL_RELEASE_LEAK_BALL),
                 audit=_audit(proofs.pidp_sampler(final_at_xi=True), "Algorithm 1 (PIDP-SGD), theta_priv = x_i",
                              e1 + e2, d1 + d2)),
    ),
    expected="violated",
    reason=("with alpha = 1/L a noise-free step of z_i lands on x_i exactly, so theta_priv = x_i with probability "
            "p_i/n on D and 0 on D', whatever eps: the final output alone leaks (n = 5, r = 100, eps1 = 0.1, eps2 = 5, "
            "delta1 = 0.1, delta2 = 0.05: 0.171 > 0.15)"),
    witness={"n": 5, "R": 1, "T_local": 1, "r": 100.0, "delta1": 0.1, "delta2": 0.05, "epsilon1": 0.1, "epsilon2": 5.0,
             "c": 1.0, "x_i": 0.0, "x_r": 1.0, "x_o": -1.0, "v": 0.0},
)
ALG_1_RELEASE_CORRECTED = ALG_1_RELEASE.corrected(
    summary=("Without the noise-free branch theta_priv is a post-processing of one-sample DP-SGD's iterates: (eps1 + "
             "eps2, delta1 + delta2)-DP when sigma is eq. (2)-corrected's for (eps1, delta1) (Theorem 5-corrected)."),
    domain=_THM5C_DOMAIN,
    statements=THM_5_CORRECTED.statements,
)

# ----------------------------------------------------------------------------- step 4: the Gaussian of line 9
# The instance's worst neighbouring pair, x_i = 1 and x_r = -1: |2 c^(o)(D) - 2 c^(o)(D')| = 2 |x_i - x_r|/n = 4/n when
# z_t is the replaced sample (H = 1), and G = r + 1.
_STEP4 = dict(n=Int(ge=2, search=(2, 100)), r=Real(gt=0, search=(0.01, 100.0), log=True), R=Int(ge=1, search=(1, 4)),
              delta2=Real(gt=0, lt=1, search=(1e-8, 0.1), log=True),
              epsilon2=Real(gt=0, search=(0.01, 5.0), log=True))
_LINE9_SENS = 4 / n
_G1 = r_ + 1
THM_5_STEP_4 = Claim(
    id="hdp/thm-5-step-4",
    error_in="proof-step", statement_survives=False,
    source=_src("Theorem 5 (proof), Algorithm 1 (lines 7-9)", None,
                "'by Lemma 3, when computing c_t, if the added Gaussian random noise b^(c) ~ N(0, sigma^2) satisfies "
                "sigma > 2 sqrt(2) sqrt(log(1.25R/delta2)) G R/(n zeta eps2), (eps2/R, delta2/R)-DP at iteration t is "
                "guaranteed by Gaussian mechanism' (with S(c_t) <= 2G/(n zeta) for c_t = theta~_{-z_t} - theta_r^(g)); "
                "Algorithm 1, line 9: 'c_t = 2 c_t^(o) + b^(c)', line 7: c_t^(o) = c_{z_t} + E [the noise is added to "
                "2 c_t^(o); Theorem 5's 1-D instance: H = 1, c_{z_t} = (theta~ - x)/n, its worst pair x_i = 1, x_r = -1, G = r + 1]"),
    kind="privacy bound",
    about="algorithm",
    summary=("The noisy contribution of line 9, c_t = 2 c_t^(o) + b^(c) with sigma_(c) of Theorem 5 (c' = 2.83), is "
             "(eps2/R, delta2/R)-DP in each round."),
    domain=Domain(**_STEP4),
    statements=(
        SupBound("line 9's release for z_t the replaced sample: delta at eps2/R (exact Gaussian profile, sensitivity "
                 "4/n of 2 c_t^(o)) <= delta2/R", bound=d2 / R_, kind="privacy",
                 scenario=gaussian_mechanism(sensitivity=_LINE9_SENS, noise_std=_sigma_c(_C283, _G1, R_), eps=e2 / R_,
                                             measure="delta_at_eps")),
    ),
    expected="violated",
    reason=("the proof bounds the sensitivity of c_t = theta~_{-z_t} - theta_r^(g) by 2G/(n zeta), but line 9 adds "
            "b^(c) to 2 c_t^(o), whose sensitivity is twice that (up to 4G/(n zeta)); within Lemma 3's range (n = 10, "
            "r = 0.1, x_i = 1, x_r = -1, R = 1, eps2 = 1, delta2 = 1e-5: delta = 7.2e-4 > 1e-5)"),
    witness={"n": 10, "r": 0.1, "R": 1, "delta2": 1e-5, "epsilon2": 1.0},
)
THM_5_STEP_4_CORRECTED = THM_5_STEP_4.corrected(
    summary=("With c' = 5.66 >= 4 sqrt(2) (the sensitivity 4G/(n zeta) of 2 c_t^(o)) and eps2/R <= 1 (Lemma 3's "
             "range), line 9's release is (eps2/R, delta2/R)-DP in each round."),
    domain=Domain(Relation(sp.Le(e2, R_), "eps2 <= R (Lemma 3-corrected's range)"), **_STEP4),
    statements=(
        SupBound("line 9's release, sigma_(c) with c' = 5.66: delta at eps2/R <= delta2/R", bound=d2 / R_,
                 kind="privacy",
                 scenario=gaussian_mechanism(sensitivity=_LINE9_SENS, noise_std=_sigma_c(_C566, _G1, R_), eps=e2 / R_,
                                             measure="delta_at_eps")),
    ),
)

# ----------------------------------------------------------------------------- step 5: the tests Algorithm 1 runs
# The search box looks where the replaced sample is drawn often (n <= 3) over many steps with a small radius (so
# G = r + 1 is close to the gradient difference 2 and the factor 2 of line 9 shows): about one draw in four breaks
# the printed budget there (one in thirty over n <= 5, r <= 1, T_local <= 100).
_TC = dict(n=Int(ge=2, search=(2, 3)), r=Real(gt=0, search=(0.01, 0.5), log=True), R=Int(ge=1, search=(1, 2)),
           T_local=Int(ge=1, search=(10, 100)), delta2=Real(gt=0, lt=1, search=(1e-8, 0.1), log=True),
           epsilon2=Real(gt=0, search=(0.3, 5.0), log=True))
ALG_1_TEST_COMPOSITION = Claim(
    id="hdp/alg-1-test-composition",
    error_in="proof-step", statement_survives=False,
    source=_src("Theorem 5 (proof), Algorithm 1 (lines 5-9)", None,
                "'So, with c' = 2.83, c_t calculation is (eps2, delta2)-DP overall'; Algorithm 1: for t = 0 to T_local - 1: "
                "'Choose data instance z_t randomly', 'Sample b^(c) ~ N(0, sigma_(c)^2 I_m)', 'c_t = 2 c_t^(o) + b^(c)' "
                "[the composition run: T = R T_local noisy contributions, z_t uniform on the n samples at every step, a "
                "fresh b^(c) each time; 1-D instance at its worst pair: D = (1, -1, ..., -1), D' = (-1, ..., -1), H = 1, "
                "2 c_t^(o) = 2 (theta~ - x_{z_t})/n + 2E, G = r + 1]"),
    kind="privacy bound",
    about="algorithm",
    summary=("The T = R T_local noisy contributions Algorithm 1 computes (a fresh b^(c) and a uniformly drawn z_t at "
             "every step, sigma_(c) of Theorem 5 with c' = 2.83) are (eps2, delta2)-DP together."),
    domain=Domain(**_TC),
    statements=(
        SupBound("delta at eps2 of the T noisy contributions (one-sample sampled Gaussian, sensitivity 4/n, "
                 "attained pair on one event: a lower bound) <= delta2", bound=d2, kind="privacy",
                 scenario=single_sample_sgd_privacy(noise_std=_sigma_c(_C283, _G1, R_), lipschitz=2 / n,
                                                    n_samples=n, horizon=R_ * Tl, eps=e2, bound="lower")),
    ),
    expected="violated",
    reason=("b^(c) is drawn at every step and the proof's sensitivity misses line 9's factor 2: with few samples the "
            "steps draw the replaced sample often and the T releases cost more than (eps2, delta2) (n = 2, r = 0.1, "
            "R = 1, T_local = 30, eps2 = 1, delta2 = 1e-3: delta >= 3.6e-3)"),
    witness={"n": 2, "r": 0.1, "R": 1, "T_local": 30, "delta2": 1e-3, "epsilon2": 1.0},
)
ALG_1_TEST_COMPOSITION_CORRECTED = ALG_1_TEST_COMPOSITION.corrected(
    summary=("With c' = 5.66 and R replaced by T = R T_local in sigma_(c), and eps2 <= T, the T noisy contributions are "
             "(eps2, delta2)-DP (each (eps2/T, delta2/T) by Lemma 3-corrected; the exact composition is tighter)."),
    domain=Domain(Relation(sp.Le(e2, R_ * Tl), "eps2 <= T = R T_local"), **_TC),
    statements=(
        SupBound("delta at eps2 of T Gaussian releases with sensitivity 4/n each (the replaced sample drawn "
                 "at every step, which by joint convexity bounds every draw of the z_t) <= delta2", bound=d2,
                 kind="privacy",
                 scenario=gaussian_mechanism(sensitivity=sp.sqrt(R_ * Tl) * 4 / n,
                                             noise_std=_sigma_c(_C566, _G1, R_ * Tl), eps=e2, measure="delta_at_eps")),
    ),
)

# ----------------------------------------------------------------------------- steps 6, 8, 10: the algebra
P_, Pp, kap, cc = sp.symbols("P P_prime kappa c_t")
_PROB = dict(P=Real(gt=0, le=1), P_prime=Real(gt=0, le=1), kappa=Real(gt=1, search=(1.0, 100.0), log=True),
             epsilon=Real(gt=0, search=(0.01, 10.0), log=True), delta=Real(gt=0, lt=1, search=(1e-8, 0.5), log=True))
THM_5_STEP_6 = Claim(
    id="hdp/thm-5-step-6",
    source=_src("Theorem 5 (proof)", None,
                "'P[A(D) in S] <= e^eps P[A(D') in S] + delta' ... '(eps, delta)-DP naturally holds if the following "
                "inequality holds: 1 - delta/P[[A(D)]_i in S] <= e^eps P[[A(D')]_i in S]/P[[A(D)]_i in S]'"),
    kind="identity",
    about="math",
    summary="Definition 4's inequality divided by P = P[A(D) in S] > 0: 1 - delta/P <= e^eps P'/P.",
    domain=Domain(**{k: _PROB[k] for k in ("P", "P_prime", "epsilon", "delta")}),
    statements=(Identity("(P - e^eps P' - delta)/P = (1 - delta/P) - e^eps P'/P (the two inequalities are one)",
                         lhs=(P_ - sp.exp(eps) * Pp - delta) / P_, rhs=(1 - delta / P_) - sp.exp(eps) * Pp / P_),),
    expected="verified",
)
THM_5_STEP_8 = Claim(
    id="hdp/thm-5-step-8",
    source=_src("Theorem 5 (proof)", "(15)",
                "'For simplicity, we set P[[A(D)]_i in S] = kappa delta/(kappa - 1) (kappa > 1), then: 1/kappa <= e^eps "
                "P[[A(D')]_i in S]/P[[A(D)]_i in S], which can be written as: ln(P[[A(D)]_i in S]/P[[A(D')]_i in S]) <= "
                "eps + ln(kappa) (15)'"),
    kind="identity",
    about="math",
    summary="At P = kappa delta/(kappa - 1), 1 - delta/P = 1/kappa, and 1/kappa <= e^eps P'/P is (15).",
    domain=Domain(**{k: _PROB[k] for k in ("P", "P_prime", "kappa", "epsilon", "delta")}),
    statements=(
        Identity("1 - delta/P = 1/kappa at P = kappa delta/(kappa - 1)", lhs=1 - delta / (kap * delta / (kap - 1)),
                 rhs=1 / kap),
        Identity("ln(e^eps P'/P) - ln(1/kappa) = (eps + ln kappa) - ln(P/P'): the two inequalities are one",
                 lhs=sp.expand_log(sp.log(sp.exp(eps) * Pp / P_) - sp.log(1 / kap), force=True),
                 rhs=sp.expand_log(eps + sp.log(kap) - sp.log(P_ / Pp), force=True)),
    ),
    expected="verified",
)
_PW = kap * delta / (kap - 1)                   # P of the set S, an interval of length 2 r P under the uniform model
THM_5_STEP_10 = Claim(
    id="hdp/thm-5-step-10",
    source=_src("Theorem 5 (proof), Algorithm 1 (lines 9-10)", None,
                "'P[[A(D')]_i in S] <= kappa delta/(kappa - 1) - [c_t]_i/(2r), [c_t]_i >= 0; kappa delta/(kappa - 1) + "
                "[c_t]_i/(2r), [c_t]_i < 0. If |[c_t]_i| >= 2 r kappa delta/(kappa - 1), then P[... in S and ... in S] = 0 ... "
                "ln(2 r kappa delta1/(2 r kappa delta1 - (kappa - 1) sign([c_t]_i)[c_t]_i)) <= eps1 + ln(kappa) ... We set "
                "kappa = e^eps1' [under the proof's model: [A(D)]_i uniform on [-r, r], S an interval of probability P, "
                "A(D') its shift by [c_t]_i]"),
    kind="identity",
    about="math",
    summary=("Under the uniform model, P' = P - |c|/(2r), the sets are disjoint iff |c| >= 2rP, (15) reads "
             "ln(2 r kappa delta/(2 r kappa delta - (kappa - 1)|c|)) <= eps + ln kappa, and kappa = e^eps1 gives lines "
             "9-10."),
    domain=Domain(Relation(sp.Lt(cc, 2 * r_ * _PW), "|c_t| < 2 r kappa delta/(kappa - 1)"),
                  kappa=_PROB["kappa"], delta=_PROB["delta"], r=Real(gt=0, search=(0.01, 100.0), log=True),
                  c_t=Real(gt=0, search=(1e-6, 10.0), log=True), epsilon1=Real(gt=0, search=(0.01, 10.0), log=True)),
    statements=(
        Identity("overlap of [-rP, rP] and its shift by c, in probability under the uniform law on [-r, r]: "
                 "(2rP - c)/(2r) = P - c/(2r)", lhs=(2 * r_ * _PW - cc) / (2 * r_), rhs=_PW - cc / (2 * r_)),
        Identity("P/P' = 2 r kappa delta/(2 r kappa delta - (kappa - 1) c)", lhs=_PW / (_PW - cc / (2 * r_)),
                 rhs=2 * r_ * kap * delta / (2 * r_ * kap * delta - (kap - 1) * cc)),
        Identity("kappa = e^eps1 (delta = delta1): the threshold 2 r kappa delta/(kappa - 1) is line 9's",
                 lhs=(2 * r_ * kap * delta / (kap - 1)).subs(kap, sp.exp(e1)),
                 rhs=2 * r_ * sp.exp(e1) * delta / (sp.exp(e1) - 1)),
        Identity("kappa = e^eps1: eps1 + ln kappa = 2 eps1, line 10's bound", lhs=e1 + sp.log(sp.exp(e1)), rhs=2 * e1),
    ),
    expected="verified",
)

# ----------------------------------------------------------------------------- step 7: coordinates
mu_g = sp.Symbol("mu_g")


def _gauss_delta(e, mu):
    """The exact privacy profile of the Gaussian mechanism with sensitivity/noise mu [Balle & Wang 2018, Thm 8]."""
    Phi = lambda z: (1 + sp.erf(z / sp.sqrt(2))) / 2  # noqa: E731
    return Phi(-e / mu + mu / 2) - sp.exp(e) * Phi(-e / mu - mu / 2)


# The search box keeps eps/mu below about 7, where the profiles are above double rounding (further out both sides
# of the corrected statement underflow to 0 and cannot be told apart).
_COORD = dict(m=Int(ge=2, search=(2, 10)), mu_g=Real(gt=0, search=(0.3, 5.0), log=True),
              epsilon=Real(gt=0, search=(0.01, 2.0), log=True))
THM_5_STEP_7 = Claim(
    id="hdp/thm-5-step-7",
    error_in="proof-step", statement_survives=False,
    source=_src("Theorem 5 (proof)", None,
                "'Via the discussion in [13], if all m dimensions of model A(D) are (eps, delta)-DP, then (eps, delta)-DP "
                "of A(D) is guaranteed. So, in the following, we consider each dimension of A(D).' [checked on the "
                "m-dimensional Gaussian mechanism with independent noise N(0, I) and f(D) - f(D') = mu (1, ..., 1): every "
                "coordinate is the 1-D Gaussian mechanism with sensitivity mu, exactly (eps, delta(eps; mu))-DP]"),
    kind="privacy bound",
    about="math",
    summary="A mechanism whose every coordinate is (eps, delta)-DP is (eps, delta)-DP.",
    domain=Domain(**_COORD),
    statements=(
        SupBound("the m-dimensional mechanism's delta at eps (sensitivity sqrt(m) mu) <= each coordinate's delta(eps; mu)",
                 bound=_gauss_delta(eps, mu_g), kind="privacy",
                 scenario=gaussian_mechanism(sensitivity=sp.sqrt(m) * mu_g, noise_std=1, eps=eps,
                                             measure="delta_at_eps")),
    ),
    expected="violated",
    reason=("privacy loss adds up over coordinates: m coordinates each (eps, delta)-DP are jointly only (m eps, m delta)"
            "-DP in general (two coordinates of the Gaussian mechanism, mu = 1, eps = 1: 0.286 > 0.127)"),
    witness={"m": 2, "mu_g": 1.0, "epsilon": 1.0},
)
THM_5_STEP_7_CORRECTED = THM_5_STEP_7.corrected(
    summary=("m coordinates each (eps, delta)-DP, with independent randomness, are (m eps, m delta)-DP together (basic "
             "composition); the proof's per-coordinate analysis pays a factor m."),
    statements=(
        SupBound("the m-dimensional mechanism's delta at m eps <= m delta(eps; mu)", bound=m * _gauss_delta(eps, mu_g),
                 kind="privacy",
                 scenario=gaussian_mechanism(sensitivity=sp.sqrt(m) * mu_g, noise_std=1, eps=m * eps,
                                             measure="delta_at_eps")),
    ),
)

# ----------------------------------------------------------------------------- step 9: the uniform model
_FLUCT = dict(r=Real(gt=0, search=(0.01, 100.0), log=True), delta1=Real(gt=0, lt=1, search=(1e-6, 0.1), log=True),
              epsilon1=Real(gt=0, search=(0.01, 5.0), log=True), x_i=_X["x_i"], x_r=_X["x_r"])
_PASS = A_TEST * (1 - sp.exp(-2 * e1))          # a coordinate passes lines 9-10 iff |[c_t]_i| <= this
_TWO_G = 2 * (r_ + sp.Max(sp.Abs(xi_), sp.Abs(xr_)))
_STEP_GAP = PointScenario(proofs.noise_free_step_gap, "one noise-free step of Algorithm 1 on D and D' from the same "
                          "theta~ (gated_sgd, the test passed), exact", optimise=0)
THM_5_STEP_9 = Claim(
    id="hdp/thm-5-step-9",
    error_in="proof-step", statement_survives=False,
    source=_src("Theorem 5 (proof)", None,
                "'Considering that the model parameters are uniformly distributed in a bounded parameter space, whose "
                "radius is r, i.e., [A(D')]_i in [-r, r], and noting that E[A(D')] = A(D) ... With the largest "
                "fluctuation c_t, then for the i-th element of A(D) and A(D'), [A(D') - A(D)]_i = [A(D')]_i - [A(D)]_i "
                "<= [c_t]_i' [on a step that passes lines 9-10, |[c_t]_i| <= 2 r delta1 (1 + e^(-eps1)); Theorem 5's 1-D "
                "instance, alpha = 1/L = 1, one noise-free step from the same theta_t on D (z_t = x_i) and D' (x_r)]"),
    kind="inequality",
    about="algorithm",
    summary=("On a step that passes the test, the outputs on neighbouring data sets differ by at most the tested "
             "contribution: |[A(D') - A(D)]_i| <= |[c_t]_i| <= 2 r delta1 (1 + e^(-eps1))."),
    domain=Domain(*_NE, **_FLUCT),
    statements=(
        Inequality("the noise-free step's difference alpha |grad l(theta_t; x_i) - grad l(theta_t; x_r)| = |x_i - x_r| "
                   "<= the passing bound on |c_t|", lhs=sp.Abs(xi_ - xr_), rhs=_PASS),
        SupBound("the same difference, run: one noise-free step of Algorithm 1 (lines 10-11) on z_t = x_i and on "
                 "x_r from the same theta~ <= the passing bound on |c_t|", bound=_PASS, kind="sensitivity",
                 scenario=_STEP_GAP),
    ),
    expected="violated",
    reason=("a noise-free step moves the output by alpha times the gradient difference, an O(1) quantity (up to 2 alpha "
            "G), while the tested contribution is O(1/n) and passes only below 2 r delta1 (1 + e^(-eps1)); the output "
            "is not uniform on [-r, r] (a noise-free step is deterministic) (x_i = 1, x_r = -1, r = 1, delta1 = 0.01, "
            "eps1 = 1: 2 > 0.027)"),
    witness={"r": 1.0, "delta1": 0.01, "epsilon1": 1.0, "x_i": 1.0, "x_r": -1.0},
)
THM_5_STEP_9_CORRECTED = THM_5_STEP_9.corrected(
    summary=("A noise-free step's outputs on neighbouring data sets differ by alpha |grad l(theta_t; z) - grad l(theta_t; "
             "z')| <= 2 alpha G, unrelated to c_t: nothing bounds it by the test's threshold."),
    statements=(
        Inequality("|x_i - x_r| <= 2 alpha G = 2 (r + max |x|)", lhs=sp.Abs(xi_ - xr_), rhs=_TWO_G),
        SupBound("the run's difference (one noise-free step on x_i and on x_r) <= 2 alpha G", bound=_TWO_G,
                 kind="sensitivity", scenario=_STEP_GAP),
    ),
)

# ----------------------------------------------------------------------------- step 11: T noise-free steps
_TRAIN = dict(T=Int(ge=2, search=(2, 200)), epsilon1=Real(gt=0, search=(0.01, 5.0), log=True),
              delta1=Real(gt=0, lt=1, search=(1e-8, 0.1), log=True))
def _t_fold(times):
    """delta at (``times`` x eps1) of the optimal T-fold composition of (eps1, delta1)-DP algorithms [Kairouz, Oh &
    Viswanath 2015, Thm 3.3], exact; ``times`` is 1 or the name of the point's parameter T."""
    def f(pt):
        k = 1 if times == 1 else int(pt[times])
        return composition.optimal_composition_delta(float(pt["epsilon1"]), float(pt["delta1"]), int(pt["T"]),
                                                     k * float(pt["epsilon1"]))
    return PointScenario(f, "optimal composition of T (eps1, delta1)-DP algorithms, exact", optimise=0,
                         ball=proofs.t_fold_ball(str(times)))


THM_5_STEP_11 = Claim(
    id="hdp/thm-5-step-11",
    error_in="proof-step", statement_survives=False,
    source=_src("Theorem 5 (proof)", None,
                "'For the data instances whose contributions are not so much, (eps1, delta1)-DP is naturally guaranteed, "
                "as analyzed above. And if the contribution is large, via moments accountant method, ... then (eps1, "
                "delta1)-DP can be guaranteed when training.' [each noise-free step (eps1, delta1)-DP, as the proof "
                "derives it per step; training runs T = T_local R steps]"),
    kind="privacy bound",
    about="math",
    summary="T steps, each (eps1, delta1)-DP (the noise-free steps as the proof analyses them), are (eps1, delta1)-DP.",
    domain=Domain(**_TRAIN),
    statements=(
        SupBound("optimal T-fold composition of (eps1, delta1)-DP steps [Kairouz, Oh & Viswanath 2015]: delta at eps1 "
                 "<= delta1", bound=d1, kind="privacy",
                 scenario=_t_fold(1)),
    ),
    expected="violated",
    reason=("the per-step guarantee is charged once for the whole run: T (eps1, delta1)-DP steps compose to (T eps1, "
            "T delta1) (basic), or by the optimal composition theorem to far more than delta1 at eps1 (T = 2, eps1 = 1, "
            "delta1 = 0.01: 0.351 > 0.01)"),
    witness={"T": 2, "epsilon1": 1.0, "delta1": 0.01},
)
THM_5_STEP_11_CORRECTED = THM_5_STEP_11.corrected(
    summary="T steps, each (eps1, delta1)-DP, are (T eps1, T delta1)-DP (basic composition).",
    statements=(
        SupBound("optimal T-fold composition: delta at T eps1 <= T delta1", bound=sp.Min(1, T * d1),
                 kind="privacy",
                 scenario=_t_fold("T")),
    ),
)

# ----------------------------------------------------------------------------- step 12: the two parts
THM_5_STEP_12 = Claim(
    id="hdp/thm-5-step-12",
    source=_src("Theorem 5 (proof)", None,
                "'Then, by composition theorems [15], Algorithm 1 is (eps1 + eps2, delta1 + delta2)-DP overall' [the "
                "training part (eps1, delta1)-DP, the c_t part (eps2, delta2)-DP, adaptively composed]"),
    kind="privacy bound",
    about="math",
    summary="An (eps1, delta1)-DP and an (eps2, delta2)-DP algorithm, adaptively composed, are (eps1 + eps2, delta1 + "
            "delta2)-DP.",
    domain=Domain(epsilon1=Real(gt=0, search=(0.01, 10.0), log=True), epsilon2=Real(gt=0, search=(0.01, 10.0), log=True),
                  delta1=Real(ge=0, lt=1, search=(1e-8, 0.5), log=True),
                  delta2=Real(ge=0, lt=1, search=(1e-8, 0.5), log=True)),
    statements=(
        SupBound("the product of the two canonical pairs (the worst adaptive composition): delta at eps1 + eps2 <= "
                 "delta1 + delta2", bound=d1 + d2, kind="privacy",
                 scenario=PointScenario(proofs.composed_canonical_delta, "product of the canonical (eps1, delta1) and "
                                        "(eps2, delta2) pairs, exact", optimise=0)),
    ),
)

__all__ = ["ALG_1_RELEASE", "ALG_1_RELEASE_CORRECTED", "ALG_1_TEST_COMPOSITION", "ALG_1_TEST_COMPOSITION_CORRECTED",
           "THM_5_STEP_4", "THM_5_STEP_4_CORRECTED", "THM_5_STEP_6", "THM_5_STEP_7", "THM_5_STEP_7_CORRECTED",
           "THM_5_STEP_8", "THM_5_STEP_9", "THM_5_STEP_9_CORRECTED", "THM_5_STEP_10", "THM_5_STEP_11",
           "THM_5_STEP_11_CORRECTED", "THM_5_STEP_12"]
