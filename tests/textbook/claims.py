"""A user's claims file: textbook results, true and with planted errors.

Loaded the way a user's file is (``dpverify check --module tests/textbook/claims.py --all``, or the
pytest plugin), never imported as part of the project. Every claim states the verdict a correct
checker must return; the planted errors are the kind papers make (a forgotten factor, a constant
too small, a calibration used outside its range, a quadratic term dropped).
"""
from pathlib import Path

import sympy as sp

from dpverify import registry
from dpverify import (Choice, Claim, Domain, ExpectationBound, Identity, Inequality, Infimum, Int, Real, Relation,
                      Seq, Source, SupBound)
from dpverify.privacy import composition
from dpverify.scenarios import PointScenario, coupled_stability, gaussian_mechanism, noisy_gd

BOOK = "textbook results (Bun & Steinke 2016; Balle & Wang 2018; Nesterov 2004; Hardt et al. 2016)"
M, kappa, Delta, T, D, s, eta, G, N = sp.symbols("M kappa Delta T D s eta G N")
sens, sd, a, rho, delta, eps, order = sp.symbols("Delta_f s_f a rho delta epsilon order")
x, y = sp.IndexedBase("x"), sp.Symbol("y")
t = sp.Symbol("t")
L = sp.log(1 / delta)


def _claim(id, label, summary, domain, statements, expected="holds", reason="", witness=None):
    return Claim(id=f"textbook/{id}", source=Source(BOOK, label), summary=summary, domain=domain,
                 statements=tuple(statements), expected=expected, reason=reason, witness=witness)


# ------------------------------------------------------------------------- the Gaussian mechanism
_mech = Domain(Delta_f=Real(gt=0, search=(1e-2, 10.0), log=True), s_f=Real(gt=0, search=(0.1, 10.0), log=True),
               order=Real(gt=1, search=(1.01, 50.0), log=True))
GAUSS_ZCDP = _claim(
    "claim-gaussian-zcdp", "Proposition 1.6 (Bun & Steinke)",
    "N(0, s^2) noise on a Delta-sensitive query is Delta^2/(2 s^2)-zCDP: D_a/a <= Delta^2/(2 s^2).", _mech,
    [SupBound("Renyi divergence / order", bound=sens**2 / (2 * sd**2), kind="privacy",
              scenario=gaussian_mechanism(sensitivity=sens, noise_std=sd, order=order, measure="renyi_over_order"))])
GAUSS_ZCDP_PLANTED = _claim(
    "claim-gaussian-zcdp-half", "Proposition 1.6 (Bun & Steinke)",
    "PLANTED: the same with Delta^2/(4 s^2) (a factor 2 lost).", _mech,
    [SupBound("Renyi divergence / order", bound=sens**2 / (4 * sd**2), kind="privacy",
              scenario=gaussian_mechanism(sensitivity=sens, noise_std=sd, order=order, measure="renyi_over_order"))],
    expected="violated", reason="planted: the zCDP of the Gaussian mechanism is Delta^2/(2 s^2)",
    witness={"Delta_f": 1.0, "s_f": 1.0, "order": 2.0})

# ------------------------------------------------------------------------- zCDP to (eps, delta)-DP
_conv = Domain(rho=Real(gt=0, search=(1e-3, 10.0), log=True), delta=Real(gt=0, lt=1, search=(1e-10, 0.1), log=True))
ZCDP_TO_DP = _claim(
    "claim-zcdp-to-dp", "Proposition 1.3 (Bun & Steinke)",
    "rho-zCDP gives (rho + 2 sqrt(rho ln(1/delta)), delta)-DP: the exact delta of the Gaussian mechanism with "
    "mu = sqrt(2 rho) at that eps is at most delta; and it is the best RDP order's conversion.", _conv,
    [SupBound("exact delta at the converted eps", bound=delta, kind="privacy",
              scenario=gaussian_mechanism(sensitivity=1, noise_std=1 / sp.sqrt(2 * rho),
                                          eps=rho + 2 * sp.sqrt(rho * L), measure="delta_at_eps")),
     Identity("inf over orders a > 1 of rho a + ln(1/delta)/(a - 1) = rho + 2 sqrt(rho ln 1/delta)",
              lhs=Infimum(rho * a + L / (a - 1), a, 1, sp.oo), rhs=rho + 2 * sp.sqrt(rho * L))])
ZCDP_TO_DP_PLANTED = _claim(
    "claim-zcdp-to-dp-sqrt", "Proposition 1.3 (Bun & Steinke)",
    "PLANTED: rho-zCDP gives (rho + sqrt(rho ln(1/delta)), delta)-DP (a factor 2 lost).", _conv,
    [SupBound("exact delta at the converted eps", bound=delta, kind="privacy",
              scenario=gaussian_mechanism(sensitivity=1, noise_std=1 / sp.sqrt(2 * rho),
                                          eps=rho + sp.sqrt(rho * L), measure="delta_at_eps"))],
    expected="violated", reason="planted: the conversion needs 2 sqrt(rho ln(1/delta))",
    witness={"rho": 0.5, "delta": 1e-5})
_orders = Domain(rho=Real(gt=0, search=(1e-3, 10.0), log=True),
                 delta=Real(gt=0, lt=1, search=(1e-10, 0.1), log=True), a=Real(gt=1, search=(1.0001, 1e4), log=True))
BEST_ORDER = _claim(
    "claim-rdp-best-order", "Proposition 1.3 (Bun & Steinke)",
    "There is an RDP order a > 1 with rho a + ln(1/delta)/(a - 1) <= rho + 2 sqrt(rho ln(1/delta)) (an 'exists').",
    _orders, [Inequality("exists a", lhs=rho * a + L / (a - 1), rhs=(rho + 2 * sp.sqrt(rho * L)) * (1 + 1e-12),
                         exists=("a",))])
BEST_ORDER_PLANTED = _claim(
    "claim-rdp-best-order-sqrt", "Proposition 1.3 (Bun & Steinke)",
    "PLANTED: some order a > 1 gives rho a + ln(1/delta)/(a - 1) <= rho + sqrt(rho ln(1/delta)).",
    _orders, [Inequality("exists a", lhs=rho * a + L / (a - 1), rhs=rho + sp.sqrt(rho * L), exists=("a",))],
    expected="violated", reason="planted: the minimum over orders is rho + 2 sqrt(rho ln(1/delta))",
    witness={"rho": 0.5, "delta": 1e-5, "a": 2.0})

# ------------------------------------------------------------------------- the classical Gaussian calibration
_cal = Domain(epsilon=Real(gt=0, lt=1, search=(1e-3, 0.999), log=True),
              delta=Real(gt=0, lt=1, search=(1e-10, 0.1), log=True))
CALIBRATION = _claim(
    "claim-gaussian-calibration", "Theorem A.1 (Dwork & Roth)",
    "s = sqrt(2 ln(1.25/delta))/eps (sensitivity 1) gives (eps, delta)-DP for eps < 1.", _cal,
    [SupBound("exact delta at eps", bound=delta, kind="privacy",
              scenario=gaussian_mechanism(sensitivity=1, noise_std=sp.sqrt(2 * sp.log(sp.Rational(5, 4) / delta)) / eps,
                                          eps=eps, measure="delta_at_eps"))])
CALIBRATION_PLANTED = _claim(
    "claim-gaussian-calibration-any-eps", "Theorem A.1 (Dwork & Roth)",
    "PLANTED: the same calibration for every eps in (0, 50] (its range of validity dropped).",
    Domain(epsilon=Real(gt=0, le=50, search=(1e-3, 50.0), log=True),
           delta=Real(gt=0, lt=1, search=(1e-10, 0.1), log=True)),
    [SupBound("exact delta at eps", bound=delta, kind="privacy",
              scenario=gaussian_mechanism(sensitivity=1, noise_std=sp.sqrt(2 * sp.log(sp.Rational(5, 4) / delta)) / eps,
                                          eps=eps, measure="delta_at_eps"))],
    expected="violated", reason="planted: the calibration is proved for eps < 1 only and fails for large eps",
    witness={"epsilon": 20.0, "delta": 0.1})

# ------------------------------------------------------------------------- gradient descent rates
_gd = Domain(M=Real(gt=0, search=(1e-2, 1e2), log=True, units=(1, -2)),
             kappa=Real(ge=1, search=(1.0, 1e3), log=True),
             Delta=Real(gt=0, search=(1e-3, 1e3), log=True, units=(1, 0)),
             D=Int(ge=1, search=(1, 10)), T=Int(ge=1, search=(1, 30)))
_GD = dict(problem="pl", smooth=M, curvature=M / kappa, step=1 / M, dim=D, horizon=T, init_gap=Delta)
GD_PL = _claim(
    "thm-gd-pl", "Theorem 2.1.15 (Nesterov); Karimi et al. 2016",
    "GD with step 1/M on an M-smooth mu-PL function: f(x_T) - f* <= (1 - mu/M)^T (f(x_0) - f*) (kappa = M/mu; "
    "the bound is 0 at kappa = 1).", _gd,
    [ExpectationBound("noiseless GD", bound=(1 - 1 / kappa) ** T * Delta, scenario=noisy_gd(noise_std=0, **_GD))])
GD_PL_PLANTED = _claim(
    "thm-gd-pl-no-square", "Theorem 2.1.15 (Nesterov)",
    "PLANTED: f(x_T) - f* <= (1 - 2 mu/M)^T (f(x_0) - f*) for kappa >= 2 (the mu^2/M^2 term dropped).",
    Domain(M=Real(gt=0, search=(1e-2, 1e2), log=True, units=(1, -2)), kappa=Real(ge=2, search=(2.0, 1e3), log=True),
           Delta=Real(gt=0, search=(1e-3, 1e3), log=True, units=(1, 0)), D=Int(ge=1, search=(1, 10)),
           T=Int(ge=1, search=(1, 30))),
    [ExpectationBound("noiseless GD", bound=(1 - 2 / kappa) ** T * Delta, scenario=noisy_gd(noise_std=0, **_GD))],
    expected="violated", reason="planted: on the slowest direction one step multiplies the gap by (1 - mu/M)^2 > 1 - 2 mu/M",
    witness={"M": 1.0, "kappa": 4.0, "Delta": 1.0, "D": 1, "T": 3})
_ngd = Domain(**_gd.params, s=Real(ge=0, search=(0.0, 10.0), units=(1, -1)))
NOISY_GD = _claim(
    "thm-noisy-gd-pl", "Theorem 1 (Karimi et al. 2016), with Gaussian gradient noise",
    "Noisy GD (step 1/M, gradient noise N(0, s^2 I_D)) on an M-smooth mu-PL function: E f(x_T) - f* <= "
    "(1 - mu/M)^T Delta + D s^2 (1 - (1 - mu/M)^T)/(2 mu).", _ngd,
    [ExpectationBound("noisy GD", bound=(1 - 1 / kappa) ** T * Delta + D * s**2 * (1 - (1 - 1 / kappa) ** T) * kappa / (2 * M),
                      scenario=noisy_gd(noise_std=s, **_GD))])
NOISY_GD_PLANTED = _claim(
    "thm-noisy-gd-pl-no-dimension", "Theorem 1 (Karimi et al. 2016), with Gaussian gradient noise",
    "PLANTED: the same bound without the dimension D in the noise term.", _ngd,
    [ExpectationBound("noisy GD", bound=(1 - 1 / kappa) ** T * Delta + s**2 * (1 - (1 - 1 / kappa) ** T) * kappa / (2 * M),
                      scenario=noisy_gd(noise_std=s, **_GD))],
    expected="violated", reason="planted: the noise adds D s^2/(2M) per step, one s^2/(2M) per coordinate",
    witness={"M": 1.0, "kappa": 1.0, "Delta": 1e-3, "D": 10, "T": 1, "s": 1.0})

# ------------------------------------------------------------------------- stability of GD
_stab = Domain(Relation(sp.Lt(eta, 2 / M), "eta < 2/M"),
               G=Real(gt=0, search=(1e-1, 10.0), log=True), eta=Real(gt=0, search=(1e-4, 1e2), log=True),
               M=Real(gt=0, search=(1e-2, 1e2), log=True), T=Int(ge=1, search=(1, 30)), N=Int(ge=2, search=(2, 20)))
_STAB = dict(lipschitz=G, step=eta, horizon=T, n_samples=N, smooth=M, families=("linear", "logistic"),
             adjacency="replace")
STABILITY = _claim(
    "thm-gd-stability", "Theorem 3.8 (Hardt, Recht & Singer 2016)",
    "GD with step eta <= 2/M on convex, M-smooth, G-Lipschitz losses is 2 G^2 T eta / N uniformly stable.", _stab,
    [SupBound("stability gap", bound=2 * G**2 * T * eta / N, kind="stability", scenario=coupled_stability(**_STAB))])
STABILITY_PLANTED = _claim(
    "thm-gd-stability-half", "Theorem 3.8 (Hardt, Recht & Singer 2016)",
    "PLANTED: G^2 T eta / N (the factor 2 of replace-one neighbours lost).", _stab,
    [SupBound("stability gap", bound=G**2 * T * eta / N, kind="stability", scenario=coupled_stability(**_STAB))],
    expected="violated", reason="planted: a replaced sample moves each step by up to 2 G eta / N",
    witness={"G": 1.0, "eta": 0.5, "M": 1.0, "T": 1, "N": 2})

# ------------------------------------------------------------------------- sums and means
_seq = Domain(T=Int(ge=1, search=(1, 8)), x=Seq("T", Real(gt=0, search=(1e-3, 1e3), log=True)))
SUM = sp.Sum(x[t], (t, 1, T))
SUMSQ = sp.Sum(x[t] ** 2, (t, 1, T))
CAUCHY = _claim("claim-cauchy-schwarz", "Cauchy-Schwarz inequality",
                "(sum_t x_t)^2 <= T sum_t x_t^2.", _seq, [Inequality("Cauchy-Schwarz", lhs=SUM**2, rhs=T * SUMSQ)])
CAUCHY_PLANTED = _claim("claim-cauchy-schwarz-no-t", "Cauchy-Schwarz inequality",
                        "PLANTED: (sum_t x_t)^2 <= sum_t x_t^2 (the factor T lost).", _seq,
                        [Inequality("no T", lhs=SUM**2, rhs=SUMSQ)],
                        expected="violated", reason="planted: fails for any two positive terms",
                        witness={"T": 2, "x": [1.0, 1.0]})
AM_GM = _claim("claim-am-gm", "AM-GM inequality", "sqrt(x y) <= (x + y)/2 for x, y > 0.",
               Domain(x0=Real(gt=0, search=(1e-3, 1e3), log=True), y=Real(gt=0, search=(1e-3, 1e3), log=True)),
               [Inequality("AM-GM", lhs=sp.sqrt(sp.Symbol("x0") * y), rhs=(sp.Symbol("x0") + y) / 2)])
POWER_MEAN_PLANTED = _claim("claim-power-mean-reversed", "power-mean inequality",
                            "PLANTED: the mean of squares is at most the square of the mean.", _seq,
                            [Inequality("reversed", lhs=SUMSQ / T, rhs=(SUM / T) ** 2)],
                            expected="violated", reason="planted: the power-mean inequality goes the other way",
                            witness={"T": 2, "x": [1.0, 2.0]})
_ = Choice

# ------------------------------------------------------------------------- bounds on the logarithm
_pos = Domain(y=Real(gt=0, search=(1e-6, 1e3), log=True))
LOG_LOWER = _claim("claim-log-lower", "log(1 + y) >= y/(1 + y)",
                   "log(1 + y) >= y/(1 + y) for y > 0 (tight as y -> 0: both sides are y - O(y^2)).", _pos,
                   [Inequality("y/(1+y) <= log(1+y)", lhs=y / (1 + y), rhs=sp.log(1 + y))])
LOG_LOWER_PLANTED = _claim("claim-log-lower-square", "log(1 + y) >= y - y^2/2",
                           "PLANTED: log(1 + y) >= y - y^2/3 (the Taylor coefficient 1/2 misprinted 1/3).", _pos,
                           [Inequality("y - y^2/3 <= log(1+y)", lhs=y - y**2 / 3, rhs=sp.log(1 + y))],
                           expected="violated", reason="planted: log(1 + y) = y - y^2/2 + O(y^3) < y - y^2/3 near 0",
                           witness={"y": 0.5})

# ------------------------------------------------------------------------- composition of (eps, delta)-DP
_k = sp.Symbol("k")
_comp = Domain(k=Int(ge=1, search=(1, 50)), epsilon=Real(gt=0, search=(0.01, 5.0), log=True),
               delta=Real(gt=0, lt=1, search=(1e-8, 0.1), log=True))


def _k_fold(times):
    """delta at (times x eps) of the k-fold composition of (eps, delta)-DP mechanisms: the k-fold product of
    the canonical pair (Kairouz, Oh & Viswanath 2015, Thm. 3.3), with its ball definition for certificates."""
    def f(pt):
        mult = 1 if times == 1 else int(pt["k"])
        return composition.optimal_composition_delta(float(pt["epsilon"]), float(pt["delta"]), int(pt["k"]),
                                                     mult * float(pt["epsilon"]))
    mult = "1" if times == 1 else 'P["k"]'
    ball = ("def point_lower(P, data):\n    return composed_canonical_delta(P[\"epsilon\"], P[\"delta\"], P[\"k\"], "
            f"{mult} * P[\"epsilon\"])\n")
    return PointScenario(f, "k-fold product of the canonical (eps, delta) pair, exact", optimise=0, ball=ball)


BASIC_COMPOSITION = _claim(
    "claim-basic-composition", "Theorem 3.16 (Dwork & Roth)",
    "k mechanisms, each (eps, delta)-DP, are (k eps, k delta)-DP together.", _comp,
    [SupBound("delta at k eps of the worst k-fold composition <= k delta", bound=sp.Min(1, _k * delta), kind="privacy",
              scenario=_k_fold("k"))])
BASIC_COMPOSITION_PLANTED = _claim(
    "claim-composition-free", "Theorem 3.16 (Dwork & Roth)",
    "PLANTED: k mechanisms, each (eps, delta)-DP, are (eps, delta)-DP together (composition forgotten).", _comp,
    [SupBound("delta at eps of the worst k-fold composition <= delta", bound=delta, kind="privacy",
              scenario=_k_fold(1))],
    expected="violated", reason="planted: privacy loss grows with k (k = 2, eps = 1, delta = 0.01: 0.351 > 0.01)",
    witness={"k": 2, "epsilon": 1.0, "delta": 0.01})

CLAIMS = (GAUSS_ZCDP, GAUSS_ZCDP_PLANTED, ZCDP_TO_DP, ZCDP_TO_DP_PLANTED, BEST_ORDER, BEST_ORDER_PLANTED,
          CALIBRATION, CALIBRATION_PLANTED, GD_PL, GD_PL_PLANTED, NOISY_GD, NOISY_GD_PLANTED, STABILITY,
          STABILITY_PLANTED, CAUCHY, CAUCHY_PLANTED, AM_GM, POWER_MEAN_PLANTED, LOG_LOWER, LOG_LOWER_PLANTED,
          BASIC_COMPOSITION, BASIC_COMPOSITION_PLANTED)
# the ready-made scenarios' textbook results, from the sibling file (loaded by path, as this file is)
CLAIMS += registry.load_module(str(Path(__file__).resolve().with_name("scenario_claims.py"))).CLAIMS
# exists= on expectations and suprema, heavy-ball momentum, both directions of privacy measures
CLAIMS += registry.load_module(str(Path(__file__).resolve().with_name("expression_claims.py"))).CLAIMS
# privacy statements whose inputs are declared public or derived from the data (the neighbouring-data check)
CLAIMS += registry.load_module(str(Path(__file__).resolve().with_name("neighbour_claims.py"))).CLAIMS
