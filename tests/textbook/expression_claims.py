"""Textbook results that need the expressions added last: ``exists=`` on expectation and supremum
statements, Polyak's heavy-ball momentum, and the missing direction of privacy measures (eps at delta
where only delta at eps was measured, and the reverse). True results and planted twins, in a user's
claims file (appended to ``tests/textbook/claims.py``); every claim is kept cheap.
"""
import sympy as sp

from dpverify import Claim, Domain, ExpectationBound, Inequality, Int, Real, Relation, Seq, Source, SupBound
from dpverify.scenarios import budget_filter_gd, gaussian_mechanism, noisy_gd, subsampled_dp


def _claim(id, book, label, summary, domain, statements, expected="holds", reason="", witness=None):
    return Claim(id=f"textbook/{id}", source=Source(book, label), summary=summary, domain=domain,
                 statements=tuple(statements), expected=expected, reason=reason, witness=witness)


DR = "Dwork & Roth 2014, The Algorithmic Foundations of Differential Privacy"
BCN = "Bottou, Curtis & Nocedal 2018, Optimization methods for large-scale machine learning"

# ------------------------------------------------------------------------- exists= on an expectation
M, kappa, Delta, D, T, s, acc = sp.symbols("M kappa Delta D T s acc")
_hor = Domain(M=Real(gt=0, search=(0.5, 2.0), log=True), kappa=Real(ge=1, search=(1, 4), log=True),
              Delta=Real(gt=0, search=(0.5, 2.0)), D=Int(ge=1, search=(1, 3)), T=Int(ge=1, le=10),
              s=Real(ge=0, search=(0, 1)), acc=Real(gt=0, lt=1, search=(0.15, 0.5), log=True))
_GD = dict(problem="strongly_convex", smooth=M, curvature=M / kappa, step=1 / M, noise_std=s, dim=D, horizon=T,
           init_gap=Delta)
EXISTS_HORIZON = _claim(
    "thm-noisy-gd-exists-horizon", BCN, "Theorem 4.6 (fixed step: linear convergence to a noise floor)",
    "Noisy GD with step 1/M on an M-smooth, M/kappa-strongly convex quadratic (noise std s per coordinate): "
    "there is a horizon T <= 10 with E f(x_T) - f* <= acc Delta + D s^2/(2M) (kappa ln(1/acc)/2 <= 10 here).",
    _hor, [ExpectationBound("some T <= 10 reaches acc Delta + D s^2/(2M)", bound=acc * Delta + D * s**2 / (2 * M),
                            exists=("T",), scenario=noisy_gd(**_GD))])
EXISTS_HORIZON_PLANTED = _claim(
    "thm-noisy-gd-exists-horizon-floor", BCN, "Theorem 4.6 (fixed step: linear convergence to a noise floor)",
    "PLANTED: the same with the noise floor D s^2/(4M) (a factor 2 lost).",
    _hor, [ExpectationBound("some T <= 10 reaches acc Delta + D s^2/(4M)", bound=acc * Delta + D * s**2 / (4 * M),
                            exists=("T",), scenario=noisy_gd(**_GD))],
    expected="violated", reason="planted: an eigenvalue at M keeps E f - f* >= s^2/(2M) from the first step on, "
                                "at every horizon",
    witness={"M": 1.0, "kappa": 1.0, "Delta": 1.0, "D": 2, "T": 1, "s": 1.0, "acc": 0.1})

# ------------------------------------------------------------------------- exists= on a supremum
eps, delta, sigma = sp.symbols("epsilon delta sigma")
_CAL = sp.sqrt(2 * sp.log(sp.Rational(5, 4) / delta)) / eps      # Dwork & Roth's Theorem A.1 calibration


def _noise_domain(sigma_param, most):
    return Domain(Relation(sp.Le(sigma, most), f"sigma <= {most}"),
                  epsilon=Real(gt=0, lt=1, search=(0.1, 0.99), log=True),
                  delta=Real(gt=0, lt=1, search=(1e-6, 0.1), log=True), sigma=sigma_param)


def _some_noise(name):
    return SupBound(name, bound=delta, kind="privacy", exists=("sigma",),
                    scenario=gaussian_mechanism(sensitivity=1, noise_std=sigma, eps=eps, measure="delta_at_eps"))


EXISTS_NOISE = _claim(
    "thm-gaussian-exists-integer-noise", DR, "Theorem A.1 (the Gaussian mechanism's calibration)",
    "For eps < 1 some integer noise std sigma <= sqrt(2 ln(1.25/delta))/eps + 1 makes the Gaussian mechanism "
    "(sensitivity 1) (eps, delta)-DP.", _noise_domain(Int(ge=1, le=200), _CAL + 1),
    [_some_noise("some integer sigma within 1 of the calibration is (eps, delta)-DP")])
EXISTS_NOISE_PLANTED = _claim(
    "thm-gaussian-exists-integer-noise-half", DR, "Theorem A.1 (the Gaussian mechanism's calibration)",
    "PLANTED: some integer noise std sigma <= sqrt(2 ln(1.25/delta))/(2 eps) + 1 suffices (the calibration halved).",
    _noise_domain(Int(ge=1, le=200), _CAL / 2 + 1),
    [_some_noise("some integer sigma within 1 of half the calibration is (eps, delta)-DP")],
    expected="violated", reason="planted: at eps = 0.5, delta = 1e-5 every sigma <= 5 leaks delta(eps) >= 5e-4",
    witness={"epsilon": 0.5, "delta": 1e-5, "sigma": 5})
EXISTS_REAL_NOISE = _claim(
    "thm-gaussian-exists-noise", DR, "Theorem A.1 (the Gaussian mechanism's calibration)",
    "For eps < 1 some noise std sigma <= 2 sqrt(2 ln(1.25/delta))/eps makes the Gaussian mechanism (sensitivity 1) "
    "(eps, delta)-DP.", _noise_domain(Real(gt=0, search=(0.5, 200.0), log=True), 2 * _CAL),
    [_some_noise("some sigma up to twice the calibration is (eps, delta)-DP")])
EXISTS_REAL_NOISE_PLANTED = _claim(
    "thm-gaussian-exists-noise-half", DR, "Theorem A.1 (the Gaussian mechanism's calibration)",
    "PLANTED: some noise std sigma <= sqrt(2 ln(1.25/delta))/(2 eps) suffices. Over a real sigma a grid cannot "
    "show that no value works: the check must not call it violated, only inconclusive.",
    _noise_domain(Real(gt=0, search=(0.5, 200.0), log=True), _CAL / 2),
    [_some_noise("some sigma up to half the calibration is (eps, delta)-DP")],
    expected="inconclusive", reason="planted, but not decidable by a grid over a real sigma: at eps = 0.5, "
                                    "delta = 1e-5 no sigma <= 4.84 is (eps, delta)-DP")

# ------------------------------------------------------------------------- exists= on an inequality over a real
# min over t > 0 of x t + 1/t is 2 sqrt(x), at t = 1/sqrt(x) < 1/4: outside t's search box [1, 10] for every x here.
AMGM = "AM-GM: x t + 1/t >= 2 sqrt(x t / t) for t > 0"
xs, ts = sp.symbols("x_s t_s")
_scale = Domain(x_s=Real(ge=16, le=100, search=(16, 100), log=True), t_s=Real(gt=0, search=(1.0, 10.0), log=True))
EXISTS_SCALE_PLANTED = _claim(
    "claim-exists-scale-sqrt", AMGM, "AM-GM, the best scale",
    "PLANTED: for x in [16, 100] some t > 0 has x t + 1/t <= sqrt(x) (the minimum 2 sqrt(x) halved). False for every "
    "t > 0: proved at the counterexample by interval arithmetic over t's whole domain, tails included.", _scale,
    [Inequality("some t > 0 reaches sqrt(x)", lhs=xs * ts + 1 / ts, rhs=sp.sqrt(xs), exists=("t_s",))],
    expected="violated", reason="planted: min over t > 0 of x t + 1/t is 2 sqrt(x) > sqrt(x)",
    witness={"x_s": 16.0, "t_s": 1.0})
EXISTS_SCALE_OUTSIDE_BOX = _claim(
    "claim-exists-scale-outside-box", AMGM, "AM-GM, the best scale",
    "True, but every working t lies outside t's search box: for x in [16, 100] some t > 0 has x t + 1/t <= "
    "3 sqrt(x) (t = 1/sqrt(x) <= 1/4; the box is [1, 10]). A grid over the box finds none; it must not be called "
    "violated.", _scale,
    [Inequality("some t > 0 reaches 3 sqrt(x)", lhs=xs * ts + 1 / ts, rhs=3 * sp.sqrt(xs), exists=("t_s",))],
    expected="inconclusive", reason="true (t = 1/sqrt(x)), but no working t is in the search box: the grid finds "
                                    "none and the proof over t's domain finds one below it, so no verdict")

# ------------------------------------------------------------------------- Polyak's heavy ball
POL = "Polyak 1964, Some methods of speeding up the convergence of iteration methods; Polyak 1987, Section 3.2.1"
R = sp.Symbol("R")
_hb = Domain(M=Real(gt=0, search=(0.5, 2.0), log=True), kappa=Real(ge=1, search=(1, 100), log=True),
             R=Real(gt=0, search=(0.5, 2.0)), D=Int(ge=1, search=(1, 4)), T=Int(ge=1, search=(1, 30)))
_sq = sp.sqrt(kappa)
RHO_HB = (_sq - 1) / (_sq + 1)                 # Polyak's rate with the optimal parameters
_HB = dict(problem="strongly_convex", statistic="dist_sq", smooth=M, curvature=M / kappa,
           step=4 / (M * (1 + 1 / _sq) ** 2), momentum=RHO_HB**2, momentum_form="heavy_ball", noise_std=0, dim=D,
           horizon=T, init_dist=R)
HEAVY_BALL = _claim(
    "thm-heavy-ball-quadratic", POL, "Theorem 9 of Polyak 1964 (heavy ball on a quadratic, optimal parameters)",
    "Heavy ball x_{t+1} = x_t - eta grad f(x_t) + beta (x_t - x_{t-1}), x_0 = x_1, with eta = 4/(sqrt(M) + "
    "sqrt(mu))^2 and beta = rho^2, rho = (sqrt(kappa) - 1)/(sqrt(kappa) + 1), on an M-smooth, mu-strongly convex "
    "quadratic: ||x_{T+1} - x*|| <= (2T + 3) rho^T ||x_1 - x*|| (the rate rho per step, up to the factor linear in "
    "T of the double eigenvalue at the spectrum's ends).", _hb,
    [ExpectationBound("||x_{T+1} - x*||^2 <= (2T + 3)^2 rho^(2T) R^2", bound=(2 * T + 3) ** 2 * RHO_HB ** (2 * T) * R**2,
                      scenario=noisy_gd(**_HB))])
HEAVY_BALL_PLANTED = _claim(
    "thm-heavy-ball-quadratic-no-factor", POL, "Theorem 9 of Polyak 1964 (heavy ball on a quadratic, optimal "
    "parameters)", "PLANTED: ||x_{T+1} - x*|| <= rho^T ||x_1 - x*|| (the factor linear in T dropped).", _hb,
    [ExpectationBound("||x_{T+1} - x*||^2 <= rho^(2T) R^2", bound=RHO_HB ** (2 * T) * R**2, scenario=noisy_gd(**_HB))],
    expected="violated", reason="planted: at an end of the spectrum the iteration matrix has a double eigenvalue "
                                "-rho or rho, and ||x_{T+1} - x*|| = rho^T (T + 1 + T rho) ||x_1 - x*|| at lambda = M",
    witness={"M": 1.0, "kappa": 4.0, "R": 1.0, "D": 1, "T": 3})

# ------------------------------------------------------------------------- delta at eps: amplification by subsampling
BBG = "Balle, Barthe & Gaboardi 2018, Privacy amplification by subsampling, Theorem 9"
q = sp.Symbol("q")
_sub = Domain(epsilon=Real(gt=0, search=(0.01, 5.0), log=True), delta=Real(gt=0, lt=1, search=(1e-8, 0.1), log=True),
              q=Real(gt=0, le=1, search=(1e-3, 1.0), log=True))
AMPLIFIED_DELTA = _claim(
    "thm-subsampling-delta-at-eps", BBG, "Theorem 9 (replace-one, sampling without replacement)",
    "An (eps, delta)-DP algorithm run on a uniformly random q fraction of the data is (ln(1 + q (e^eps - 1)), "
    "q delta)-DP: its delta at eps' = ln(1 + q (e^eps - 1)) is at most q delta.", _sub,
    [SupBound("delta' at eps' = ln(1 + q (e^eps - 1))", bound=q * delta, kind="privacy",
              scenario=subsampled_dp(eps=eps, delta=delta, sampling=q, target_eps=sp.log(1 + q * (sp.exp(eps) - 1))))])
AMPLIFIED_DELTA_PLANTED = _claim(
    "thm-subsampling-delta-at-eps-linear", BBG, "Theorem 9 (replace-one, sampling without replacement)",
    "PLANTED: the subsampled algorithm is (q eps, q delta)-DP (amplification taken as linear in eps).", _sub,
    [SupBound("delta' at eps' = q eps", bound=q * delta, kind="privacy",
              scenario=subsampled_dp(eps=eps, delta=delta, sampling=q, target_eps=q * eps))],
    expected="violated", reason="planted: ln(1 + q (e^eps - 1)) > q eps for 0 < q < 1, so at eps' = q eps the "
                                "delta' exceeds q delta",
    witness={"epsilon": 2.0, "delta": 1e-5, "q": 0.1})

# ------------------------------------------------------------------------- eps at delta: noisy GD under a budget filter
BS = "Bun & Steinke 2016, Concentrated differential privacy"
t, sig, Rb, G, N = sp.Symbol("t"), sp.IndexedBase("sigma"), *sp.symbols("R G N")
_filt = Domain(T=Int(ge=1, search=(1, 4)), sigma=Seq("T", Real(gt=0, search=(0.3, 10.0), log=True)),
               R=Real(gt=0, search=(1e-2, 10.0), log=True), G=Real(gt=0, search=(0.1, 10.0), log=True),
               N=Int(ge=2, search=(2, 50)), delta=Real(gt=0, lt=1, search=(1e-8, 0.1), log=True))
RHO_FILTER = 2 * sp.Min(Rb, sp.Sum(sig[t] ** -2, (t, 1, T)))


def _filter_eps(bound):
    return SupBound("eps at delta of the admitted steps", bound=bound, kind="privacy",
                    scenario=budget_filter_gd(adjacency="replace", noise_multiplier=sig[t], budget=Rb, clip=G,
                                              n_samples=N, horizon=T, measure="eps_at_delta", delta=delta))


FILTER_EPS = _claim(
    "thm-budget-filter-eps-at-delta", BS, "Propositions 1.3 and 1.6, Lemma 2.3, with a budget filter",
    "Noisy GD on G-clipped gradients (noise std G sigma_t/N, replace-one) whose steps a filter admits while sum_t "
    "1/sigma_t^2 < R has eps(delta) <= rho + 2 sqrt(rho ln(1/delta)), rho = 2 min(R, sum_t 1/sigma_t^2).", _filt,
    [_filter_eps(RHO_FILTER + 2 * sp.sqrt(RHO_FILTER * sp.log(1 / delta)))])
FILTER_EPS_PLANTED = _claim(
    "thm-budget-filter-eps-at-delta-sqrt", BS, "Propositions 1.3 and 1.6, Lemma 2.3, with a budget filter",
    "PLANTED: eps(delta) <= rho + sqrt(rho ln(1/delta)) (the factor 2 of the conversion lost).", _filt,
    [_filter_eps(RHO_FILTER + sp.sqrt(RHO_FILTER * sp.log(1 / delta)))],
    expected="violated", reason="planted: the exact eps(delta) of the composed Gaussian mechanisms is about "
                                "2 sqrt(rho ln(1/delta)) for small rho",
    witness={"T": 1, "sigma": [1.0], "R": 10.0, "G": 1.0, "N": 2, "delta": 1e-5})

CLAIMS = (AMPLIFIED_DELTA, AMPLIFIED_DELTA_PLANTED, FILTER_EPS, FILTER_EPS_PLANTED, HEAVY_BALL, HEAVY_BALL_PLANTED, EXISTS_HORIZON, EXISTS_HORIZON_PLANTED, EXISTS_NOISE, EXISTS_NOISE_PLANTED, EXISTS_REAL_NOISE,
          EXISTS_REAL_NOISE_PLANTED, EXISTS_SCALE_PLANTED, EXISTS_SCALE_OUTSIDE_BOX)
