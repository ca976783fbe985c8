"""Textbook results through the engine's ready-made scenarios, true and with planted errors.

A second user for every scenario factory the papers use (each factory here is given one textbook
result that holds and one twin with a realistic slip: a factor lost, a term dropped, a composition
forgotten). Part of the user's claims file ``tests/textbook/claims.py`` (which appends ``CLAIMS``
of this module); every claim is kept cheap (small horizons, dimensions and search boxes).
"""
import dataclasses

import numpy as np
import sympy as sp

from dpverify import Claim, Domain, ExpectationBound, Int, Real, Relation, Seq, Source, SupBound
from dpverify.scenarios import (additive_noise, adaptive_gd, budget_filter_gd, coupled_stability, dp_audit,
                                gd_sensitivity,
                                output_perturbation_gd, output_perturbation_privacy, random_round_sgd, sampled_gaussian,
                                noisy_gd, squared_loss_sensitivity, step_decay_risk, step_decay_stability, worst_case,
                                LogisticData, MCPoint)
from dpverify.scenarios import one_sample_sgd
from dpverify.scenarios import gaussian_renyi, gd_schedule_privacy, noisy_gd_audit
from dpverify.scenarios import linear_pair_sampler, single_sample_sgd_privacy

t, g = sp.Symbol("t"), sp.Symbol("g")          # the step index and the gradient norm of the scenarios


def _claim(id, book, label, summary, domain, statements, expected="holds", reason="", witness=None):
    return Claim(id=f"textbook/{id}", source=Source(book, label), summary=summary, domain=domain,
                 statements=tuple(statements), expected=expected, reason=reason, witness=witness)


def _twins(id, book, label, summary, domain, statement, planted, reason, witness):
    """A true textbook result and its planted twin (``planted``: (summary, statement))."""
    return (_claim(id, book, label, summary, domain, [statement]),
            _claim(planted[0], book, label, "PLANTED: " + planted[1], domain, [planted[2]], expected="violated",
                   reason="planted: " + reason, witness=witness))


def _zcdp_eps(rho, delta):
    """eps of rho-zCDP at delta (Bun & Steinke 2016, Prop. 1.3)."""
    return rho + 2 * sp.sqrt(rho * sp.log(1 / delta))


DR = "Dwork & Roth 2014, The Algorithmic Foundations of Differential Privacy"
BS = "Bun & Steinke 2016, Concentrated differential privacy"
HRS = "Hardt, Recht & Singer 2016, Train faster, generalize better"
NES = "Nesterov 2004, Introductory Lectures on Convex Optimization"
BCN = "Bottou, Curtis & Nocedal 2018, Optimization methods for large-scale machine learning"
GL = "Ghadimi & Lan 2013, Stochastic first- and zeroth-order methods for nonconvex stochastic programming"
CMS = "Chaudhuri, Monteleoni & Sarwate 2011, Differentially private empirical risk minimization"
MIR = "Mironov 2017, Renyi differential privacy; Abadi et al. 2016, Deep learning with differential privacy"
SSBD = "Shalev-Shwartz & Ben-David 2014, Understanding Machine Learning"

# ------------------------------------------------------------------------- additive_noise: the Laplace mechanism
D2, eps, k = sp.symbols("Delta_2 epsilon k")
_lap = Domain(Delta_2=Real(gt=0, search=(1e-2, 1e2), log=True), epsilon=Real(gt=0, search=(1e-2, 10.0), log=True),
              k=Int(ge=1, search=(1, 8)))
LAPLACE_L2, LAPLACE_L2_PLANTED = _twins(
    "thm-laplace-l2-sensitivity", DR, "Theorem 3.6 (Laplace mechanism), with ||a||_1 <= sqrt(k) ||a||_2",
    "Lap(sqrt(k) Delta_2/eps)^k noise on a query of l2-sensitivity Delta_2 in R^k is eps-DP.", _lap,
    SupBound("largest privacy loss over shifts ||a||_2 = Delta_2", bound=eps, kind="privacy",
             scenario=additive_noise(noise="laplace", norm="l2", sensitivity=D2, scale=sp.sqrt(k) * D2 / eps, dim=k)),
    ("thm-laplace-l2-inverse-sqrt-k", "Lap(Delta_2/(sqrt(k) eps))^k noise is eps-DP (the exponent of k flipped).",
     SupBound("largest privacy loss over shifts ||a||_2 = Delta_2", bound=eps, kind="privacy",
              scenario=additive_noise(noise="laplace", norm="l2", sensitivity=D2, scale=D2 / (sp.sqrt(k) * eps),
                                      dim=k))),
    "the Laplace mechanism needs the l1-sensitivity, up to sqrt(k) Delta_2; a shift along one axis already "
    "loses sqrt(k) eps",
    {"Delta_2": 1.0, "epsilon": 1.0, "k": 4})

# ------------------------------------------------------------------------- squared_loss_sensitivity
B, N = sp.symbols("B N")
_sq = Domain(B=Real(gt=0, search=(1e-2, 1e2), log=True), N=Int(ge=2, search=(2, 6)))
SQUARED, SQUARED_PLANTED = _twins(
    "claim-squared-loss-lipschitz", SSBD, "Section 12.1.2 (squared loss on bounded data is Lipschitz)",
    "For ||x|| <= 1, |y| = 1, ||theta|| <= B, ||grad 1/2 (x^T theta - y)^2|| = |x^T theta - y| ||x|| <= B + 1: "
    "the remove-one gradient sensitivity is at most (B + 1)/N.", _sq,
    SupBound("max_i ||grad f(theta; x_i)||/N", bound=(B + 1) / N, kind="sensitivity",
             scenario=squared_loss_sensitivity(radius=B, n_samples=N)),
    ("claim-squared-loss-lipschitz-no-label", "the sensitivity is at most B/N (the label's term dropped).",
     SupBound("max_i ||grad f(theta; x_i)||/N", bound=B / N, kind="sensitivity",
              scenario=squared_loss_sensitivity(radius=B, n_samples=N))),
    "|x^T theta - y| reaches ||theta|| + 1 when x^T theta = -||theta||",
    {"B": 1.0, "N": 2})

# ------------------------------------------------------------------------- gd_sensitivity: GD is non-expansive
M, eta, T, n, L = sp.symbols("M eta T n L")
_gds = Domain(Relation(sp.Le(eta, 2 / M), "eta <= 2/M"), M=Real(gt=0, search=(1e-1, 10.0), log=True),
              eta=Real(gt=0, search=(1e-2, 10.0), log=True), T=Int(ge=1, search=(1, 10)), n=Int(ge=1, search=(1, 8)),
              L=Real(gt=0, search=(1e-1, 10.0), log=True))
GD_SENS, GD_SENS_PLANTED = _twins(
    "thm-gd-sensitivity-convex", HRS, "Lemmas 2.5 and 3.7 (growth recursion; GD is 1-expansive for eta <= 2/M)",
    "Full-batch GD with eta <= 2/M on convex, M-smooth, L-Lipschitz losses: one replaced sample moves w_T by "
    "||w_T - w_T'|| <= 2 L T eta / n.", _gds,
    SupBound("||w_T - w_T'||", bound=2 * L * T * eta / n, kind="sensitivity",
             scenario=gd_sensitivity(smooth=M, step=eta, horizon=T, n_samples=n, lipschitz=L)),
    ("thm-gd-sensitivity-convex-half", "||w_T - w_T'|| <= L T eta / n (the remove-one step used for replace-one).",
     SupBound("||w_T - w_T'||", bound=L * T * eta / n, kind="sensitivity",
              scenario=gd_sensitivity(smooth=M, step=eta, horizon=T, n_samples=n, lipschitz=L))),
    "a replaced sample changes the mean gradient by up to 2L/n per step",
    {"M": 1.0, "eta": 1.0, "T": 3, "n": 2, "L": 1.0})

# ------------------------------------------------------------------------- output_perturbation_privacy
mu = sp.Symbol("mu")
_opp = Domain(Relation(sp.Le(mu, M), "mu <= M"), M=Real(gt=0, search=(1e-1, 10.0), log=True),
              mu=Real(gt=0, search=(1e-2, 10.0), log=True), n=Int(ge=1, search=(1, 50)), T=Int(ge=1, search=(1, 20)),
              epsilon=Real(gt=0, search=(1e-1, 10.0), log=True), L=Real(gt=0, search=(1e-1, 10.0), log=True))
_OPP = dict(noise="norm_laplace", smooth=M, curvature=mu, step=1 / M, horizon=T, n_samples=n, lipschitz=L, eps=eps)
OUTPUT_PRIVACY, OUTPUT_PRIVACY_PLANTED = _twins(
    "thm-output-perturbation", CMS, "Corollary 8 and Theorem 6 (output perturbation, sensitivity 2L/(n mu))",
    "T steps of GD (eta = 1/M) on mu-strongly convex, M-smooth, L-Lipschitz ERM stay within 2L/(n mu) of the "
    "neighbour's run, so releasing w_T + z with density ~ exp(-||z|| n mu eps/(2L)) is eps-DP.", _opp,
    SupBound("largest privacy loss of w_T + z", bound=eps, kind="privacy",
             scenario=output_perturbation_privacy(noise_scale=2 * L / (n * mu * eps), **_OPP)),
    ("thm-output-perturbation-half", "the same with noise scale L/(n mu eps) (sensitivity L/(n mu)).",
     SupBound("largest privacy loss of w_T + z", bound=eps, kind="privacy",
              scenario=output_perturbation_privacy(noise_scale=L / (n * mu * eps), **_OPP))),
    "replacing one sample moves the regularised minimiser by up to 2L/(n mu), not L/(n mu)",
    {"M": 1.0, "mu": 0.5, "n": 50, "T": 20, "epsilon": 1.0, "L": 1.0})

# ------------------------------------------------------------------------- output_perturbation_gd: utility
D, b, R = sp.symbols("D b R")
_opg = Domain(Relation(sp.Le(mu, M), "mu <= M"), M=Real(gt=0, search=(1e-1, 10.0), log=True),
              mu=Real(gt=0, search=(1e-2, 10.0), log=True), D=Int(ge=1, search=(1, 5)), T=Int(ge=0, search=(0, 20)),
              b=Real(ge=0, search=(0.0, 3.0)), R=Real(gt=0, search=(1e-2, 10.0), log=True))
_OPG = dict(noise="gaussian", smooth=M, curvature=mu, step=1 / M, horizon=T, dim=D, noise_scale=b, init_dist=R)
OUTPUT_UTILITY, OUTPUT_UTILITY_PLANTED = _twins(
    "thm-output-perturbation-utility", NES, "Lemma 1.2.3 and Theorem 2.1.15 (smoothness; GD on strongly convex F)",
    "E F(w_T + z) - F* <= (1 - mu/M)^T M R^2/2 + M D b^2/2 for GD (eta = 1/M) from ||w_0 - w*|| <= R on a "
    "mu-strongly convex, M-smooth F and z ~ N(0, b^2 I_D).", _opg,
    ExpectationBound("E F(w_T + z) - F*", bound=(1 - mu / M) ** T * M * R**2 / 2 + M * D * b**2 / 2,
                     scenario=output_perturbation_gd(**_OPG)),
    ("thm-output-perturbation-utility-no-dimension", "the same with the noise term M b^2/2 (the dimension lost).",
     ExpectationBound("E F(w_T + z) - F*", bound=(1 - mu / M) ** T * M * R**2 / 2 + M * b**2 / 2,
                      scenario=output_perturbation_gd(**_OPG))),
    "E z^T H z/2 = b^2 tr(H)/2 sums over the D coordinates",
    {"M": 1.0, "mu": 0.5, "D": 4, "T": 20, "b": 1.0, "R": 0.1})

# ------------------------------------------------------------------------- budget_filter_gd: composition under a filter
sigma, Rb, G = sp.IndexedBase("sigma"), sp.Symbol("R"), sp.Symbol("G")
_bf = Domain(T=Int(ge=1, search=(1, 8)), sigma=Seq("T", Real(gt=0, search=(0.1, 10.0), log=True)),
             R=Real(gt=0, search=(1e-2, 1e2), log=True), G=Real(gt=0, search=(1e-1, 10.0), log=True),
             N=Int(ge=2, search=(2, 100)))
_BF = dict(adjacency="replace", noise_multiplier=sigma[t], budget=Rb, clip=G, n_samples=N, horizon=T)
_SPENT = sp.Min(Rb, sp.Sum(sigma[t] ** -2, (t, 1, T)))
BUDGET_FILTER, BUDGET_FILTER_PLANTED = _twins(
    "thm-budget-filter-zcdp", BS, "Proposition 1.6 and Lemma 2.3 (Gaussian mechanism, composition), with a budget filter",
    "Noisy GD on G-clipped gradients (noise std G sigma_t/N) whose steps a filter admits while sum_t 1/sigma_t^2 < R is "
    "2 min(R, sum_t 1/sigma_t^2)-zCDP for replace-one neighbours (sensitivity 2G/N).", _bf,
    SupBound("zCDP of the admitted steps", bound=2 * _SPENT, kind="privacy", scenario=budget_filter_gd(**_BF)),
    ("thm-budget-filter-zcdp-half", "the same with min(R, sum_t 1/sigma_t^2) (a factor 2 lost).",
     SupBound("zCDP of the admitted steps", bound=_SPENT, kind="privacy", scenario=budget_filter_gd(**_BF))),
    "each admitted step is (2G/N)^2/(2 (G sigma_t/N)^2) = 2/sigma_t^2-zCDP",
    {"T": 1, "sigma": [1.0], "R": 10.0, "G": 1.0, "N": 2})

# ------------------------------------------------------------------------- gd_schedule_privacy: a decaying schedule
s = sp.Symbol("s")
_sched = Domain(T=Int(ge=1, search=(1, 30)), s=Real(gt=0, search=(1e-1, 10.0), log=True),
                L=Real(gt=0, search=(1e-1, 10.0), log=True), N=Int(ge=1, search=(1, 100)))
_SCHED = dict(noise_std=s * sp.sqrt(t), lipschitz=L, n_samples=N, horizon=T, measure="zcdp")
SCHEDULE, SCHEDULE_PLANTED = _twins(
    "thm-schedule-zcdp-harmonic", BS, "Proposition 1.6 and Lemma 2.3, with sum_{t <= T} 1/t <= 1 + ln T",
    "T steps of noisy GD (L-Lipschitz losses, replace-one, noise std s sqrt(t) at step t) are "
    "2 L^2 (1 + ln T)/(N^2 s^2)-zCDP.", _sched,
    SupBound("zCDP of the iterates", bound=2 * L**2 * (1 + sp.log(T)) / (N**2 * s**2), kind="privacy",
             scenario=gd_schedule_privacy(**_SCHED)),
    ("thm-schedule-zcdp-harmonic-bounded", "2 L^2 (pi^2/6)/(N^2 s^2)-zCDP (sum 1/t bounded like sum 1/t^2).",
     SupBound("zCDP of the iterates", bound=2 * L**2 * sp.pi**2 / 6 / (N**2 * s**2), kind="privacy",
              scenario=gd_schedule_privacy(**_SCHED))),
    "the harmonic sum grows like ln T; only sum 1/t^2 is bounded by pi^2/6",
    {"T": 10, "s": 1.0, "L": 1.0, "N": 1})

# ------------------------------------------------------------------------- noisy_gd_audit: (eps, delta) of noisy GD
delta = sp.Symbol("delta")
_aud = Domain(T=Int(ge=1, search=(1, 10)), s=Real(gt=0, search=(1e-1, 10.0), log=True),
              L=Real(gt=0, search=(1e-1, 10.0), log=True), N=Int(ge=1, search=(1, 20)),
              delta=Real(gt=0, lt=1, search=(1e-6, 0.1), log=True))
RHO_GD = 2 * T * L**2 / (N**2 * s**2)


def _gd_dp(rho):
    e = _zcdp_eps(rho, delta)
    return SupBound("exact delta(eps) of the iterates at eps = rho + 2 sqrt(rho ln 1/delta)", bound=delta,
                    kind="privacy",
                    scenario=gd_schedule_privacy(noise_std=s, lipschitz=L, n_samples=N, horizon=T, eps=e,
                                                 measure="delta_at_eps"),
                    audit=noisy_gd_audit(eps=e, delta=delta, noise_std=s, lipschitz=L, n_samples=N, horizon=T))


NOISY_GD_DP, NOISY_GD_DP_PLANTED = _twins(
    "thm-noisy-gd-dp", BS, "Propositions 1.3 and 1.6, Lemma 2.3",
    "T steps of noisy GD (L-Lipschitz losses, replace-one, noise std s) are (rho + 2 sqrt(rho ln 1/delta), delta)-DP "
    "with rho = 2 T L^2/(N^2 s^2).", _aud, _gd_dp(RHO_GD),
    ("thm-noisy-gd-dp-remove-one", "the same with rho = T L^2/(2 N^2 s^2) (remove-one sensitivity L/N).",
     _gd_dp(RHO_GD / 4)),
    "replace-one neighbours move the mean gradient by 2L/N, so rho is 4 times larger",
    {"T": 4, "s": 1.0, "L": 1.0, "N": 1, "delta": 1e-3})

# ------------------------------------------------------------------------- gaussian_renyi: calibration to a zCDP budget
Dl, rho, order = sp.symbols("Delta rho order")
_ren = Domain(Delta=Real(gt=0, search=(1e-2, 10.0), log=True), rho=Real(gt=0, search=(1e-3, 10.0), log=True),
              order=Real(gt=1, search=(1.01, 64.0), log=True))
RENYI, RENYI_PLANTED = _twins(
    "claim-gaussian-calibration-zcdp", BS, "Proposition 1.6 (Gaussian mechanism), solved for the noise",
    "Noise std s = Delta/sqrt(2 rho) makes the Gaussian mechanism rho-zCDP: D_a/a <= rho at every order a > 1.", _ren,
    SupBound("Renyi divergence / order", bound=rho, kind="privacy",
             scenario=gaussian_renyi(sensitivity=Dl, noise_std=Dl / sp.sqrt(2 * rho), order=order)),
    ("claim-gaussian-calibration-zcdp-half", "s = Delta/(2 sqrt(rho)) (the 2 under the root moved out).",
     SupBound("Renyi divergence / order", bound=rho, kind="privacy",
              scenario=gaussian_renyi(sensitivity=Dl, noise_std=Dl / (2 * sp.sqrt(rho)), order=order))),
    "with s = Delta/(2 sqrt(rho)) the mechanism is 2 rho-zCDP",
    {"Delta": 1.0, "rho": 0.5, "order": 2.0})

# ------------------------------------------------------------------------- single_sample_sgd_privacy + linear_pair_sampler
_one = Domain(Relation(sp.Le(2 * T * G**2 / s**2, sp.log(1 / delta)),
                       "rho <= ln(1/delta): the best Renyi order 1 + sqrt(ln(1/delta)/rho) is >= 2, the smallest "
                       "order of the accountant (below it its upper bound is too loose to confirm the claim)"),
              s=Real(gt=0, search=(0.5, 10.0), log=True), G=Real(gt=0, search=(1e-1, 10.0), log=True),
              n=Int(ge=1, search=(1, 3)), T=Int(ge=1, search=(1, 20)), delta=Real(gt=0, lt=1, search=(1e-6, 0.1), log=True))


def _one_sample(rho, bound):
    e = _zcdp_eps(rho, delta)
    return SupBound("delta(eps) of one-sample noisy SGD at eps = rho + 2 sqrt(rho ln 1/delta)", bound=delta,
                    kind="privacy",
                    scenario=single_sample_sgd_privacy(noise_std=s, lipschitz=G, n_samples=n, horizon=T, eps=e,
                                                       bound=bound),
                    audit=dp_audit(sampler=linear_pair_sampler(noise_std=s, n_samples=n, horizon=T, replaced=G,
                                                               replacement=-G, others=0),
                                   what="one-sample noisy SGD on a linear-loss pair", eps=e, delta=delta,
                                   search_runs=1000))


ONE_SAMPLE_DP, ONE_SAMPLE_DP_PLANTED = _twins(
    "thm-one-sample-sgd-dp", BS, "Propositions 1.3 and 1.6, Lemma 2.3 (no amplification by sampling used)",
    "T steps of noisy SGD on one uniformly drawn sample (G-bounded gradients, noise std s, replace-one) are "
    "(rho + 2 sqrt(rho ln 1/delta), delta)-DP with rho = 2 T G^2/s^2, whatever n (checked for rho <= ln(1/delta)).",
    _one,
    _one_sample(2 * T * G**2 / s**2, "upper"),
    ("thm-one-sample-sgd-dp-one-step", "the same with rho = 2 G^2/s^2 (the composition over T steps forgotten).",
     _one_sample(2 * G**2 / s**2, "lower")),
    "the T steps compose; with n = 1 every step sees the replaced sample",
    {"s": 4.0, "G": 1.0, "n": 1, "T": 20, "delta": 1e-5})

# ------------------------------------------------------------------------- sampled_gaussian
z, q, K = sp.symbols("z q K")
_sg = Domain(z=Real(gt=0, search=(0.5, 10.0), log=True), q=Real(gt=0, le=1, search=(0.1, 1.0), log=True),
             K=Int(ge=5, search=(5, 20)), delta=Real(gt=0, lt=1, search=(1e-6, 0.1), log=True))
SAMPLED, SAMPLED_PLANTED = _twins(
    "thm-sampled-gaussian-no-amplification", MIR, "Mironov 2017 Prop. 7 and Bun & Steinke Prop. 1.3 (sampling never hurts)",
    "K steps of the sampled Gaussian mechanism (noise multiplier z, any sampling rate q <= 1) are "
    "(rho + 2 sqrt(rho ln 1/delta), delta)-DP with rho = K/(2 z^2).", _sg,
    SupBound("eps of K sampled Gaussian steps", bound=_zcdp_eps(K / (2 * z**2), delta), kind="privacy",
             scenario=sampled_gaussian(noise_multiplier=z, sampling_probability=q, steps=K, delta=delta)),
    ("thm-sampled-gaussian-one-step", "the same with rho = 1/(2 z^2) (the composition over K steps forgotten).",
     SupBound("eps of K sampled Gaussian steps", bound=_zcdp_eps(1 / (2 * z**2), delta), kind="privacy",
              scenario=sampled_gaussian(noise_multiplier=z, sampling_probability=q, steps=K, delta=delta))),
    "at q = 1 the K steps are one Gaussian mechanism with K times the zCDP",
    {"z": 1.0, "q": 1.0, "K": 20, "delta": 1e-5})

# ------------------------------------------------------------------------- random_round_sgd: Ghadimi & Lan
Delta0 = sp.Symbol("Delta0")
_rr = Domain(M=Real(gt=0, search=(1e-1, 10.0), log=True), D=Int(ge=1, search=(1, 3)), T=Int(ge=1, search=(1, 30)),
             sigma0=Real(gt=0, search=(1e-3, 10.0), log=True), Delta0=Real(gt=0, search=(1e-3, 1e2), log=True))
sigma0 = sp.Symbol("sigma0")
_RR = dict(statistic="grad_norm_sq", smooth=M, step=1 / M, horizon=T, dim=D, noise_std=sigma0 / sp.sqrt(D),
           init_gap=Delta0)
RANDOM_ROUND, RANDOM_ROUND_PLANTED = _twins(
    "thm-random-round-sgd", GL, "Theorem 2.1 with constant steps 1/M (uniform output round)",
    "SGD with step 1/M on an M-smooth F, gradient noise of variance sigma^2, output round R uniform on 1..T: "
    "E||grad F(w_R)||^2 <= 2 M (F(w_1) - F*)/T + sigma^2.", _rr,
    ExpectationBound("E||grad F(w_R)||^2", bound=2 * M * Delta0 / T + sigma0**2, scenario=random_round_sgd(**_RR)),
    ("thm-random-round-sgd-noise-averaged", "the same with sigma^2/T (the noise believed to average out).",
     ExpectationBound("E||grad F(w_R)||^2", bound=2 * M * Delta0 / T + sigma0**2 / T,
                      scenario=random_round_sgd(**_RR))),
    "every step after the first adds its own noise: the floor sigma^2 does not shrink with T",
    {"M": 1.0, "D": 1, "T": 20, "sigma0": 1.0, "Delta0": 1e-3})

# ------------------------------------------------------------------------- adaptive_gd: relative (multiplicative) noise
kappa, c = sp.symbols("kappa c")
_ad = Domain(M=Real(gt=0, search=(1e-1, 10.0), log=True), kappa=Real(ge=1, search=(1.0, 100.0), log=True),
             c=Real(ge=0, search=(0.0, 3.0)), D=Int(ge=1, search=(1, 4)), T=Int(ge=1, search=(1, 20)),
             Delta0=Real(gt=0, search=(1e-3, 1e2), log=True))
_AD = dict(problem="strongly_convex", statistic="excess", smooth=M, curvature=M / kappa, step=1 / (M * (1 + c**2)),
           noise_std=c * g / sp.sqrt(D), dim=D, horizon=T, init_gap=Delta0, mc_count=0)
ADAPTIVE, ADAPTIVE_PLANTED = _twins(
    "thm-relative-noise-gd", BCN, "Theorem 4.6 (fixed step, strongly convex), with M = 0 and M_V = c^2",
    "GD with gradient noise of variance c^2 ||grad F||^2 and step 1/(M (1 + c^2)) on an M-smooth mu-strongly convex F: "
    "E F(w_{T+1}) - F* <= (1 - mu/(M (1 + c^2)))^T (F(w_1) - F*).", _ad,
    ExpectationBound("E F(w_{T+1}) - F*", bound=(1 - 1 / (kappa * (1 + c**2))) ** T * Delta0,
                     scenario=adaptive_gd(**_AD)),
    ("thm-relative-noise-gd-no-slowdown", "the same with the noiseless rate (1 - mu/M)^T (the 1 + c^2 dropped).",
     ExpectationBound("E F(w_{T+1}) - F*", bound=(1 - 1 / kappa) ** T * Delta0, scenario=adaptive_gd(**_AD))),
    "the noise makes the second moment of the step (1 + c^2) ||grad F||^2, which the step must pay for",
    {"M": 1.0, "kappa": 2.0, "c": 2.0, "D": 1, "T": 5, "Delta0": 1.0})


# ------------------------------------------------------------------------- one_sample_sgd: SGD for a mean
def mean_estimation_data(pt):
    """Data (X, y, theta_1) of a point: 2k samples x_i = 1 with labels +c, -c, ..., theta_1 = theta0, so that
    L(theta) = (theta^2 + c^2)/2 is 1-smooth and 1-strongly convex, L* = c^2/2 and the per-sample gradients
    have variance c^2 about the mean gradient."""
    n2 = 2 * int(pt["k"])
    y = np.where(np.arange(n2) % 2 == 0, 1.0, -1.0) * float(pt["c"])
    return np.ones((n2, 1)), y, np.array([float(pt["theta0"])])


theta0 = sp.Symbol("theta0")
_os = Domain(Relation(sp.Le(eta, 1), "eta <= 1/L = 1"), k=Int(ge=1, search=(1, 3)), c=Real(ge=0, search=(0.0, 3.0)),
             theta0=Real(search=(-3.0, 3.0)), eta=Real(gt=0, search=(1e-2, 1.0), log=True),
             s=Real(ge=0, search=(0.0, 3.0)), T=Int(ge=1, search=(1, 20)))
_OS = dict(data=mean_estimation_data, step=eta, noise_std=s, horizon=T)


def _bcn(V):
    return eta * V / 2 + (1 - eta) ** T * (theta0**2 / 2 - eta * V / 2)


ONE_SAMPLE_SGD, ONE_SAMPLE_SGD_PLANTED = _twins(
    "thm-sgd-noise-ball", BCN, "Theorem 4.6 (fixed step, strongly convex), L = c_mu = 1, M = c^2 + s^2",
    "One-sample SGD with step eta <= 1 and gradient noise N(0, s^2) on L(theta) = (1/2n) sum (theta - y_i)^2 "
    "(labels of variance c^2): E L(theta_{T+1}) - L* <= eta V/2 + (1 - eta)^T (L(theta_1) - L* - eta V/2), "
    "V = c^2 + s^2.", _os,
    ExpectationBound("E L(theta_{T+1}) - L*", bound=_bcn(c**2 + s**2), scenario=one_sample_sgd(**_OS)),
    ("thm-sgd-noise-ball-no-injected-noise", "the same with V = c^2 (the injected noise's variance dropped).",
     ExpectationBound("E L(theta_{T+1}) - L*", bound=_bcn(c**2), scenario=one_sample_sgd(**_OS))),
    "the injected noise adds s^2 to the variance of every step",
    {"k": 1, "c": 0.1, "theta0": 0.0, "eta": 0.5, "s": 1.0, "T": 20})

# ------------------------------------------------------------------------- step_decay_risk: one phase of mini-batch SGD
T0, pi_, Bt, sig2 = sp.symbols("T0 pi B sigma2")
_sd = Domain(Relation(sp.Le(mu, M), "mu <= M"), Relation(sp.Le(eta, 1 / M), "eta <= 1/M"),
             Relation(sp.Le(Bt, n), "B <= n"),
             M=Real(gt=0, search=(1e-1, 10.0), log=True), mu=Real(gt=0, search=(1e-2, 10.0), log=True),
             eta=Real(gt=0, search=(1e-2, 10.0), log=True), T0=Int(ge=1, search=(1, 12)),
             pi=Real(ge=0, search=(0.0, 2.0)), D=Int(ge=1, search=(1, 3)), Delta0=Real(gt=0, search=(1e-3, 10.0), log=True),
             B=Int(ge=1, search=(1, 4)), n=Int(ge=2, search=(2, 8)), sigma2=Real(ge=0, search=(0.0, 2.0)))
_SD = dict(smooth=M, curvature=mu, step0=eta, length0=T0, momentum_steps0=0, momentum=0, phases=1, decay=1, growth=1,
           noise_std=pi_, dim=D, init_gap=Delta0, batch=Bt, n_samples=n, sample_var=sig2)
_r = 1 - eta * mu


def _phase_bound(V):
    return Delta0 * _r * (1 - _r**T0) / (eta * mu * T0) + M * eta * V / (2 * mu)


STEP_DECAY_RISK, STEP_DECAY_RISK_PLANTED = _twins(
    "thm-minibatch-sgd-pl", BCN, "Theorem 4.6 (fixed step, strongly convex / PL), averaged over the output iterate",
    "T0 steps of mini-batch SGD (step eta <= 1/M, batch B, per-sample gradient variance sigma2, noise N(0, pi^2 I_D)) "
    "on an M-smooth mu-PL F, output uniform on the iterates: E F(w_out) - F* <= Delta0 (1 - eta mu)(1 - (1 - eta mu)^T0)"
    "/(eta mu T0) + M eta V/(2 mu), V = sigma2/B + D pi^2.", _sd,
    ExpectationBound("E F(w_out) - F*", bound=_phase_bound(sig2 / Bt + D * pi_**2), scenario=step_decay_risk(**_SD)),
    ("thm-minibatch-sgd-pl-no-privacy-noise", "the same with V = sigma2/B (the injected noise forgotten).",
     ExpectationBound("E F(w_out) - F*", bound=_phase_bound(sig2 / Bt), scenario=step_decay_risk(**_SD))),
    "the Gaussian noise adds D pi^2 to the variance of every step",
    {"M": 1.0, "mu": 0.5, "eta": 1.0, "T0": 12, "pi": 1.0, "D": 2, "Delta0": 1e-3, "B": 1, "n": 2, "sigma2": 0.0})

# ------------------------------------------------------------------------- step_decay_stability: SGD on non-convex losses
beta, theta = sp.symbols("beta theta")
_ss = Domain(Relation(sp.Le(Bt, n), "B <= n"), L=Real(gt=0, search=(1e-2, 1e2), log=True),
             beta=Real(gt=0, search=(1e-3, 10.0), log=True), mu=Real(gt=0, search=(1e-3, 10.0), log=True),
             theta=Real(gt=0, le=2, search=(0.05, 2.0)), eta=Real(gt=0, search=(1e-2, 1.0), log=True),
             T0=Int(ge=1, search=(1, 4)), pi=Real(ge=0, search=(0.0, 0.3)), B=Int(ge=1, search=(1, 4)),
             n=Int(ge=2, search=(2, 8)), D=Int(ge=1, search=(1, 2)))
_SS = dict(lipschitz=L, smooth=beta, curvature=mu, quasi_convexity=theta, step0=eta, length0=T0, momentum_steps0=0,
           momentum=0, phases=1, decay=1, growth=1, noise_std=pi_, batch=Bt, n_samples=n, dim=D)
_GROWTH = ((1 + eta * beta) ** T0 - 1) / beta
STEP_DECAY_STABILITY, STEP_DECAY_STABILITY_PLANTED = _twins(
    "thm-sgd-stability-nonconvex", HRS, "Lemma 2.5 (growth recursion) and the proof of Theorem 3.12, constant step",
    "T0 steps of mini-batch SGD (constant step eta, shared noise) on L-Lipschitz, beta-smooth, possibly non-convex "
    "losses are 2 L^2 ((1 + eta beta)^T0 - 1)/(n beta)-uniformly stable.", _ss,
    SupBound("stability gap", bound=2 * L**2 * _GROWTH / n, kind="stability", scenario=step_decay_stability(**_SS)),
    ("thm-sgd-stability-nonconvex-batch-twice",
     "2 L^2 B ((1 + eta beta)^T0 - 1)/(n^2 beta) (the inclusion probability B/n applied to a step already "
     "averaged over n).",
     SupBound("stability gap", bound=2 * L**2 * Bt * _GROWTH / n**2, kind="stability",
              scenario=step_decay_stability(**_SS))),
    "the replaced sample moves the batch step by up to 2 eta L/B, with probability B/n: 2 eta L/n in expectation",
    {"L": 1.0, "beta": 1e-3, "mu": 1e-3, "theta": 1.0, "eta": 1.0, "T0": 1, "pi": 0.0, "B": 1, "n": 8, "D": 1})

# ------------------------------------------------------------------------- noisy_gd: the convex class's slow mode
# GD with step 1/M on a convex quadratic from distance R: f(x_T) - f* = max over lambda of lambda/2 (1 - lambda/M)^(2T)
# R^2, attained at lambda = M/(2T + 1), i.e. M R^2/(2(2T + 1)) (1 - 1/(2T + 1))^(2T) ~ M R^2/(4 e T). A spectrum
# drawn at random has an eigenvalue that small with probability ~1/T: the planted bound, too small by 1.1x for
# large T, was `holds` at every seed until the strategy drew the slow mode.
Mc, Rc, Tc = sp.symbols("M R T", positive=True)
_gdc = Domain(M=Real(gt=0, search=(0.1, 10.0), log=True), R=Real(gt=0, search=(0.1, 10.0), log=True),
              T=Int(ge=1, search=(1, 200)))
_GDC = noisy_gd(problem="convex", smooth=Mc, step=1 / Mc, noise_std=0, dim=2, horizon=Tc, init_dist=Rc)
GD_CONVEX, GD_CONVEX_PLANTED = _twins(
    "thm-gd-convex-quadratic", NES, "Theorem 2.1.14 (GD on convex M-smooth functions, step 1/M), on quadratics",
    "T steps of GD with step 1/M on a convex M-smooth quadratic from distance R: f(x_T) - f* <= M R^2/(4T).", _gdc,
    ExpectationBound("f(x_T) - f* <= M R^2/(4T)", bound=Mc * Rc**2 / (4 * Tc), scenario=_GDC),
    ("thm-gd-convex-quadratic-twelfth", "f(x_T) - f* <= M R^2/(12 T) (a constant taken from the wrong line).",
     ExpectationBound("f(x_T) - f* <= M R^2/(12 T)", bound=Mc * Rc**2 / (12 * Tc), scenario=_GDC)),
    "at lambda = M/(2T + 1) the excess is M R^2/(2(2T + 1)) (1 - 1/(2T + 1))^(2T) ~ M R^2/(4 e T) > M R^2/(12 T) "
    "for T >= 3",
    {"M": 1.0, "R": 1.0, "T": 100})

# ------------------------------------------------------------------------- noisy_gd: a strongly convex class's slow mode
# The same from distance R on an M-smooth mu-strongly convex quadratic with mu <= M/(10(2T + 1)): the slow mode
# lambda = M/(2T + 1) lies in [mu, M], so the excess reaches ~M R^2/(4 e T) there; at mu (the canonical start) it is
# below a tenth of that. A random spectrum (the ends fixed, the middle eigenvalue drawn) and a random start rarely
# put the start's weight that close to the slow mode: the planted bound was `holds` at seeds 0-9 until the strategy
# drew the class's extreme instance (theta_1 on an eigenvalue at mu, at M or at the slow mode, by the exact excess).
mus = sp.Symbol("mu", positive=True)
_gds = Domain(Relation(sp.Le(10 * (2 * Tc + 1) * mus, Mc), "mu <= M/(10(2T + 1))"),
              M=Real(gt=0, search=(0.1, 10.0), log=True), R=Real(gt=0, search=(0.1, 10.0), log=True),
              mu=Real(gt=0, search=(1e-6, 0.5), log=True), T=Int(ge=1, search=(1, 200)))
_GDS = noisy_gd(problem="strongly_convex", smooth=Mc, curvature=mus, step=1 / Mc, noise_std=0, dim=3, horizon=Tc,
                init_dist=Rc)
GD_SC, GD_SC_PLANTED = _twins(
    "thm-gd-strongly-convex-quadratic", NES,
    "Theorem 2.1.14 (GD on convex M-smooth functions, step 1/M), on strongly convex quadratics",
    "T steps of GD with step 1/M on an M-smooth mu-strongly convex quadratic from distance R: f(x_T) - f* <= "
    "M R^2/(4T).", _gds,
    ExpectationBound("f(x_T) - f* <= M R^2/(4T)", bound=Mc * Rc**2 / (4 * Tc), scenario=_GDS),
    ("thm-gd-strongly-convex-quadratic-twelfth", "f(x_T) - f* <= M R^2/(12 T) (a constant taken from the wrong line).",
     ExpectationBound("f(x_T) - f* <= M R^2/(12 T)", bound=Mc * Rc**2 / (12 * Tc), scenario=_GDS)),
    "at lambda = M/(2T + 1) (in [mu, M]) the excess is M R^2/(2(2T + 1)) (1 - 1/(2T + 1))^(2T) ~ M R^2/(4 e T) > "
    "M R^2/(12 T) for T >= 3",
    {"M": 1.0, "R": 1.0, "mu": 1e-4, "T": 100})

# ------------------------------------------------------------------------- coupled_stability: per-step steps and SGD
# Hardt, Recht & Singer's Theorem 3.8 with the decaying steps eta_t = c/t (per-step, the step index in the scenario):
# the gap is at most (2 L^2 / N) sum_t eta_t, attained by a linear loss whose replaced sample is the negative of the
# original at norm L (the class's extreme pair, one draw in four). A planted 3/2 in place of 2 fails there.
Ls, cs, Ts, Ns, Ms, Bs = sp.symbols("L c T N M B", positive=True)
_stab = Domain(Relation(sp.Le(cs * Ms, 2), "c <= 2/M (steps at most 2/beta)"),
               L=Real(gt=0, search=(0.1, 10.0), log=True), c=Real(gt=0, search=(0.01, 1.0), log=True),
               T=Int(ge=1, search=(1, 30)), N=Int(ge=2, search=(2, 20)), M=Real(gt=0, search=(0.1, 2.0)))
_HRS = coupled_stability(lipschitz=Ls, step=cs / t, horizon=Ts, n_samples=Ns, smooth=Ms)
STAB_STEPS, STAB_STEPS_PLANTED = _twins(
    "thm-stability-decaying-steps", HRS, "Theorem 3.8 (convex, L-Lipschitz, beta-smooth; steps c/t <= 2/beta)",
    "Noisy GD with steps c/t: uniform stability <= (2 L^2/N) sum_t c/t.", _stab,
    SupBound("gap <= 2 L^2 c H_T / N", kind="stability", bound=2 * Ls**2 * cs * sp.harmonic(Ts) / Ns, scenario=_HRS),
    ("thm-stability-decaying-steps-three-halves", "gap <= (3/2) L^2 c H_T / N (the 2 of the expansion lost).",
     SupBound("gap <= 1.5 L^2 c H_T / N", kind="stability", bound=sp.Rational(3, 2) * Ls**2 * cs * sp.harmonic(Ts) / Ns,
              scenario=_HRS)),
    "at the extreme pair (x_new = -x_i, ||x_i|| = L) of a linear loss the gap is exactly 2 L^2 c H_T / N",
    {"L": 1.0, "c": 1.0, "T": 1, "N": 2, "M": 1.0})
# SGD with batches of B drawn with replacement, the same indices in both runs, on logistic losses (L^2/4-smooth):
# the gap stays below 2 L^2 T c / N; near theta = 0 the logistic derivative is 1/2, so the extreme pair's gap is
# about L^2 T c / (2N) and a bound L^2 T c / (4N) (a factor 8 lost) fails.
_sgdd = Domain(L=Real(gt=0, search=(0.5, 2.0), log=True), c=Real(gt=0, search=(0.01, 0.5), log=True),
               T=Int(ge=1, search=(1, 10)), N=Int(ge=2, search=(2, 8)), M=Real(gt=0, search=(1.0, 10.0)),
               B=Int(ge=1, search=(1, 4)))
_SGD = coupled_stability(families=("logistic",), lipschitz=Ls, step=cs, horizon=Ts, n_samples=Ns, smooth=Ms, batch=Bs,
                         noise_std=1)
STAB_SGD, STAB_SGD_PLANTED = _twins(
    "thm-stability-sgd-sampling", HRS, "Theorem 3.8 for SGD (batches drawn with replacement), logistic losses",
    "Noisy SGD with batches of B drawn with replacement: uniform stability <= 2 L^2 T c / N.", _sgdd,
    SupBound("gap <= 2 L^2 T c / N", kind="stability", bound=2 * Ls**2 * Ts * cs / Ns, scenario=_SGD),
    ("thm-stability-sgd-sampling-eighth", "gap <= L^2 T c / (4N) (a factor 8 lost).",
     SupBound("gap <= L^2 T c / (4N)", kind="stability", bound=Ls**2 * Ts * cs / (4 * Ns), scenario=_SGD)),
    "at the extreme pair near theta = 0 the gap is about L^2 T c / (2N)",
    {"L": 2.0, "c": 0.5, "T": 10, "N": 2, "M": 1.0, "B": 1})
# ------------------------------------------------------------------------- worst_case: the whole class, not quadratics
# GD with step 1/L on L-smooth convex functions from distance R: the exact worst case is L R^2/(4T + 2) (Drori &
# Teboulle 2014), attained by a Huber-like function, not by a quadratic (whose worst is ~ L R^2/(4 e T)). The planted
# L R^2/(8T) holds on every convex quadratic ((2T/(2T + 1))^(2T + 1) <= 1/2) and fails on the class for every T >= 1:
# its quadratic statement holds, only the worst case over the class refutes it.
DT = "Drori & Teboulle 2014, Performance of first-order methods for smooth convex minimization"
KNS = "Karimi, Nutini & Schmidt 2016, Linear convergence of gradient methods under the Polyak-Lojasiewicz condition"
Lw, Rw, Tw, kw, Dw = sp.symbols("L R T kappa Delta", positive=True)
_wc = Domain(L=Real(gt=0, search=(0.1, 10.0), log=True), R=Real(gt=0, search=(0.1, 10.0), log=True),
             T=Int(ge=1, search=(1, 8)))
_WC_CONVEX = worst_case(method="gd", function_class="smooth_convex", statistic="excess", smooth=Lw, step=1 / Lw,
                        horizon=Tw, init_dist=Rw)
GD_CLASS = _claim(
    "thm-gd-smooth-convex-class", NES, "Corollary 2.1.2 (GD with step 1/L on L-smooth convex functions)",
    "T steps of GD with step 1/L on any L-smooth convex function from distance R: f(x_T) - f* <= 2 L R^2/(T + 4).",
    _wc, [SupBound("f(x_T) - f* <= 2 L R^2/(T + 4) over the class", bound=2 * Lw * Rw**2 / (Tw + 4),
                   kind="performance", scenario=_WC_CONVEX)])
GD_CLASS_PLANTED = _claim(
    "thm-gd-smooth-convex-quadratic-intuition", DT, "Theorem 3.1 (the tight worst case is L R^2/(4T + 2))",
    "PLANTED: f(x_T) - f* <= L R^2/(8T) for GD with step 1/L on L-smooth convex functions (true on every convex "
    "quadratic, false on the class).", _wc,
    [ExpectationBound("on convex quadratics: f(x_T) - f* <= L R^2/(8T)", bound=Lw * Rw**2 / (8 * Tw),
                      scenario=noisy_gd(problem="convex", smooth=Lw, step=1 / Lw, noise_std=0, dim=2, horizon=Tw,
                                        init_dist=Rw)),
     SupBound("over the class: f(x_T) - f* <= L R^2/(8T)", bound=Lw * Rw**2 / (8 * Tw), kind="performance",
              scenario=_WC_CONVEX)],
    expected="violated",
    reason="planted: the worst case over L-smooth convex functions is L R^2/(4T + 2) > L R^2/(8T) (Drori & "
           "Teboulle); a quadratic only reaches about L R^2/(4 e T)",
    witness={"L": 1.0, "R": 1.0, "T": 1})
# GD with step 1/L on L-smooth mu-PL functions: f(x_T) - f* <= (1 - 1/kappa)^T Delta (Karimi et al., Thm 1); PL has
# no interpolation conditions, the PEP's necessary ones give an upper bound, which confirms. (kappa >= 1.5: at kappa = 1
# the bound is exactly 0, and an SDP, whose error is ~1e-9 of the initial gap, can never certify a value of 0.)
_pl = Domain(L=Real(gt=0, search=(0.1, 10.0), log=True), kappa=Real(ge=1.5, search=(1.5, 100.0), log=True),
             Delta=Real(gt=0, search=(0.1, 10.0), log=True), T=Int(ge=1, search=(1, 6)))
GD_PL_CLASS = _claim(
    "thm-gd-pl-class", KNS, "Theorem 1 (GD with step 1/L under the PL inequality)",
    "T steps of GD with step 1/L on any L-smooth function with ||grad f||^2 >= 2 (L/kappa) (f - f*): "
    "f(x_T) - f* <= (1 - 1/kappa)^T (f(x_0) - f*).", _pl,
    [SupBound("f(x_T) - f* <= (1 - 1/kappa)^T Delta over the class (upper bound)", bound=(1 - 1 / kw)**Tw * Dw,
              kind="performance", scenario=worst_case(method="gd", function_class="pl", statistic="excess",
                                                     smooth=Lw, curvature=Lw / kw, step=1 / Lw, horizon=Tw,
                                                     init_gap=Dw))])

# The same worst case stated as attained: L R^2/(4T + 2) *is* the worst f(x_T) - f* (a Huber-like function reaches it),
# for every T; tight=True asks for both sides, an upper certificate and a worst function at the bound. The planted twin
# halves it (a slip of a factor 2 in the denominator), refuted by a certified worst function.
_dt = Domain(L=Real(gt=0, search=(0.1, 10.0), log=True), R=Real(gt=0, search=(0.1, 10.0), log=True),
             T=Int(ge=1, search=(1, 50)))
_WC_DT = worst_case(method="gd", function_class="smooth_convex", statistic="excess", smooth=Lw, step=1 / Lw, horizon=Tw,
                    init_dist=Rw)
GD_CLASS_TIGHT, GD_CLASS_TIGHT_PLANTED = _twins(
    "thm-gd-smooth-convex-tight", DT, "Theorem 3.1 (GD with step 1/L: the worst case is L R^2/(4T + 2), attained)",
    "The worst f(x_T) - f* of T steps of GD with step 1/L over L-smooth convex functions from distance R is exactly "
    "L R^2/(4T + 2).", _dt,
    SupBound("f(x_T) - f* = L R^2/(4T + 2) over the class (attained)", bound=Lw * Rw**2 / (4 * Tw + 2), tight=True,
             kind="performance", scenario=_WC_DT),
    ("thm-gd-smooth-convex-tight-half", "f(x_T) - f* <= L R^2/(8T + 4) (a factor 2 lost).",
     SupBound("f(x_T) - f* <= L R^2/(8T + 4) over the class", bound=Lw * Rw**2 / (8 * Tw + 4), kind="performance",
              scenario=_WC_DT)),
    "a Huber-like function reaches L R^2/(4T + 2) > L R^2/(8T + 4) at every T",
    {"L": 1.0, "R": 1.0, "T": 1})
GD_CLASS_TIGHT = dataclasses.replace(GD_CLASS_TIGHT, expected="verified")
# GD with step 1/L on L-smooth (L/kappa)-strongly convex functions: ||x_T - x*||^2 <= (1 - 1/kappa)^(2T) R^2, attained by
# the quadratic of curvature mu; a one-step contraction proves it for every T and kappa (a potential symbolic in kappa).
_ctr = Domain(L=Real(gt=0, search=(0.1, 10.0), log=True), R=Real(gt=0, search=(0.1, 10.0), log=True),
              kappa=Real(gt=1, search=(1.5, 100.0), log=True), T=Int(ge=1, search=(1, 50)))
GD_CONTRACTION_TIGHT = _claim(
    "thm-gd-strongly-convex-contraction-tight", NES, "Theorem 2.1.15 (the distance contracts by (1 - mu/L)^2 a step)",
    "GD with step 1/L on L-smooth mu-strongly convex functions: ||x_T - x*||^2 = (1 - 1/kappa)^(2T) R^2 at worst "
    "(attained by the quadratic of curvature mu).", _ctr,
    [SupBound("||x_T - x*||^2 = (1 - 1/kappa)^(2T) R^2 over the class (attained)", bound=(1 - 1 / kw) ** (2 * Tw) * Rw**2,
              tight=True, kind="performance",
              scenario=worst_case(method="gd", function_class="smooth_strongly_convex", statistic="dist_sq", smooth=Lw,
                                  curvature=Lw / kw, step=1 / Lw, horizon=Tw, init_dist=Rw))],
    expected="verified")
# GD with step 1/L on L-smooth (not necessarily convex) functions with f(x_0) - inf f <= Delta, the output round R
# drawn with P(R = k) proportional to 2 h - L h^2 (uniform here): E||grad f(x_R)||^2 <= 2 L Delta/T (the descent lemma
# summed; Ghadimi & Lan 2013). The class's SDP is only an upper bound (inf f is no interpolation condition); the planted
# twin drops the 2, and a one-dimensional L-smooth function bounded below (checked exactly) refutes it.
_sm = Domain(L=Real(gt=0, search=(0.1, 10.0), log=True), Delta=Real(gt=0, search=(0.1, 10.0), log=True),
             T=Int(ge=1, le=8, search=(1, 8)))
_WC_SMOOTH = worst_case(method="gd", function_class="smooth", statistic="random_round_grad_norm_sq", smooth=Lw,
                        step=1 / Lw, horizon=Tw, init_gap=Dw)
GD_SMOOTH_CLASS, GD_SMOOTH_CLASS_PLANTED = _twins(
    "thm-gd-smooth-random-round-class", GL, "Theorem 2.1 (noise-free: the descent lemma summed)",
    "GD with step 1/L on L-smooth functions, R uniform on 0..T-1: E||grad f(x_R)||^2 <= 2 L Delta/T.", _sm,
    SupBound("E_R ||grad f(x_R)||^2 <= 2 L Delta/T over the class", bound=2 * Lw * Dw / Tw, kind="performance",
             scenario=_WC_SMOOTH),
    ("thm-gd-smooth-random-round-class-half", "E_R ||grad f(x_R)||^2 <= L Delta/T (the 2 of the descent lemma lost).",
     SupBound("E_R ||grad f(x_R)||^2 <= L Delta/T over the class", bound=Lw * Dw / Tw, kind="performance",
              scenario=_WC_SMOOTH)),
    "a one-dimensional L-smooth function bounded below reaches about 2 L Delta/T",
    {"L": 1.0, "Delta": 1.0, "T": 1})

# ------------------------------------------------------------------------- noisy_gd on data: the adversarial search
# GD with step 1/M on ridge logistic regression (M-smooth, lam-strongly convex, both measured from the data):
# f(x_T) - f* <= (1 - mu/M)^T Delta (Karimi et al., Thm 1). The planted twin claims the rate ((M - mu)/(M + mu))^(2T)
# of the step 2/(M + mu) for the step 1/M. From theta_1 = 0 on the drawn data the gap decays faster still (the data
# add curvature in every direction), so the drawn points hold; the class's worst case has a direction the data do not
# see (curvature lam only) with the start on it, where the gap decays as (1 - mu/M)^(2T): only the adversarial search
# over the start and the data (LogisticData's start and align) finds it.
Ml, mul, Dl, Tl, Dim = sp.symbols("M mu Delta T D", positive=True)
_lg = Domain(M=Real(gt=0), mu=Real(gt=0), Delta=Real(gt=0), D=Int(ge=1), T=Int(ge=1, search=(2, 8)))
_LG = noisy_gd(problem="logistic", smooth=Ml, curvature=mul, step=1 / Ml, noise_std=0, dim=Dim, horizon=Tl,
               init_gap=Dl, mc=tuple(MCPoint(LogisticData(n=100, d=3, lam=0.02, data_seed=k)) for k in range(3)))
GD_DATA, GD_DATA_PLANTED = _twins(
    "thm-gd-logistic-data", KNS, "Theorem 1 (GD with step 1/M under the PL inequality), on ridge logistic regression",
    "GD with step 1/M on ridge logistic regression: f(x_T) - f* <= (1 - mu/M)^T Delta.", _lg,
    ExpectationBound("f(x_T) - f* <= (1 - mu/M)^T Delta", bound=(1 - mul / Ml) ** Tl * Dl, scenario=_LG),
    ("thm-gd-logistic-data-fast-rate", "the rate ((M - mu)/(M + mu))^(2T) of the step 2/(M + mu) for the step 1/M.",
     ExpectationBound("f(x_T) - f* <= ((M - mu)/(M + mu))^(2T) Delta", bound=((Ml - mul) / (Ml + mul)) ** (2 * Tl) * Dl,
                      scenario=_LG)),
    "on data with no curvature but the ridge's along the start's direction the gap decays as (1 - mu/M)^(2T), "
    "above ((M - mu)/(M + mu))^(2T)", None)

CLAIMS = (LAPLACE_L2, LAPLACE_L2_PLANTED, SQUARED, SQUARED_PLANTED, GD_SENS, GD_SENS_PLANTED, OUTPUT_PRIVACY,
          OUTPUT_PRIVACY_PLANTED, OUTPUT_UTILITY, OUTPUT_UTILITY_PLANTED, BUDGET_FILTER, BUDGET_FILTER_PLANTED,
          SCHEDULE, SCHEDULE_PLANTED, NOISY_GD_DP, NOISY_GD_DP_PLANTED, RENYI, RENYI_PLANTED, ONE_SAMPLE_DP,
          ONE_SAMPLE_DP_PLANTED, SAMPLED, SAMPLED_PLANTED, RANDOM_ROUND, RANDOM_ROUND_PLANTED, ADAPTIVE,
          ADAPTIVE_PLANTED, ONE_SAMPLE_SGD, ONE_SAMPLE_SGD_PLANTED, STEP_DECAY_RISK, STEP_DECAY_RISK_PLANTED,
          STEP_DECAY_STABILITY, STEP_DECAY_STABILITY_PLANTED, GD_CONVEX, GD_CONVEX_PLANTED, GD_SC, GD_SC_PLANTED,
          STAB_STEPS, STAB_STEPS_PLANTED, STAB_SGD, STAB_SGD_PLANTED, GD_CLASS, GD_CLASS_PLANTED, GD_PL_CLASS,
          GD_CLASS_TIGHT, GD_CLASS_TIGHT_PLANTED, GD_CONTRACTION_TIGHT, GD_SMOOTH_CLASS, GD_SMOOTH_CLASS_PLANTED,
          GD_DATA, GD_DATA_PLANTED)
