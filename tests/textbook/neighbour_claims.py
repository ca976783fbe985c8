"""Textbook results whose schedule is public or chosen from the data, for the neighbouring-data check.

Noisy GD on ``f_i(w) = (w - x_i)^2/2`` with ``x_i`` in [-1, 1] (replace-one, per-example gradients bounded by ``L``),
noise std ``2 L sqrt(T/(2 rho))/n``: ``T`` steps are exactly ``rho``-zCDP [Bun & Steinke 2016, Prop. 1.6, Lemma
2.3] *for a T fixed before the data are seen*. The number of steps is the one that brings a linearly converging
method (rate ``1 - q``) from the initial gap to ``tol``:

* true: the gap is the class's bound ``G0`` (public), so ``T = ceil(log(G0/tol)/log(1/(1 - q)))`` is the same on
  every data set;
* planted: the gap is the data's own ``F(0) - F* = mean(x)^2/2`` (``F*`` the empirical optimum), so ``T`` moves
  with one example and neighbouring data sets release different numbers of iterates.

Both statements are the same accounting (the supremum check passes both); only the declared inputs differ. Part of
``tests/textbook/claims.py``.
"""
import sympy as sp

from dpverify import Claim, Domain, Int, Real, Source, SupBound
from dpverify.privacy.neighbours import Derived, Examples, GaussianRelease, ReleaseInputs, dp, zcdp
from dpverify.scenarios import gd_schedule_privacy

L, n, rho, tol, q, G0, T, x, xbar = sp.symbols("L n rho tol q G0 T x xbar")
eps, delta, z, G, gmax, xmax = sp.symbols("epsilon delta z G gmax xmax")
_BOOK = "Bun & Steinke 2016"
_DOMAIN = Domain(L=Real(gt=0, search=(0.5, 4.0)), n=Int(ge=2, search=(10, 200)),
                 rho=Real(gt=0, search=(0.1, 10.0), log=True), tol=Real(gt=0, lt=1, search=(1e-6, 1e-2), log=True),
                 q=Real(gt=0, lt=1, search=(0.05, 0.5)), G0=Real(gt=0, search=(0.5, 2.0)),
                 T=Int(ge=1, search=(1, 60)))
NOISE = 2 * L * sp.sqrt(T / (2 * rho)) / n
_EXAMPLES = Examples({"x": (-1.0, 1.0)}, rows="n")


def _statement(inputs):
    return SupBound("zCDP of the T iterates", bound=rho, kind="privacy",
                    scenario=gd_schedule_privacy(noise_std=NOISE, lipschitz=L, n_samples=n, horizon=T,
                                                 adjacency="replace", measure="zcdp"),
                    inputs=inputs)


def _steps(gap):
    return sp.Max(1, sp.ceiling(sp.log(gap / tol) / sp.log(1 / (1 - q))))


_RELEASE = GaussianRelease(count=T, noise_std=NOISE, sensitivity=2 * L / n)
PUBLIC_T = ReleaseInputs(public=("L", "n", "rho", "tol", "q", "G0"),
                         derived={"T": Derived(_steps(G0), note="T from the class's bound G0 on the initial gap")},
                         examples=_EXAMPLES, release=_RELEASE, guarantee=zcdp(rho), adjacency="replace")
DATA_T = ReleaseInputs(public=("L", "n", "rho", "tol", "q", "G0"),
                       derived={"T": Derived(_steps(xbar ** 2 / 2), aggregates={xbar: ("mean", x)},
                                             note="T from the data's initial gap F(0) - F* = mean(x)^2/2")},
                       examples=_EXAMPLES, release=_RELEASE, guarantee=zcdp(rho), adjacency="replace")

SCHEDULE_PUBLIC = Claim(
    id="textbook/thm-noisy-gd-steps-public", source=Source(_BOOK, "Proposition 1.6 and Lemma 2.3"),
    summary="Noisy GD run for T = ceil(log(G0/tol)/log(1/(1-q))) steps (G0 the class's bound on the initial gap), "
            "noise std 2 L sqrt(T/(2 rho))/n, is rho-zCDP.",
    domain=_DOMAIN, statements=(_statement(PUBLIC_T),), expected="holds")

SCHEDULE_FROM_DATA = Claim(
    id="textbook/thm-noisy-gd-steps-from-optimum", source=Source(_BOOK, "Proposition 1.6 and Lemma 2.3"),
    summary="Noisy GD run for T = ceil(log((F(0) - F*)/tol)/log(1/(1-q))) steps, F* the empirical optimum, noise std "
            "2 L sqrt(T/(2 rho))/n, is rho-zCDP.",
    domain=_DOMAIN, statements=(_statement(DATA_T),), expected="violated",
    reason="T is computed from the data's optimum: one example moves F(0) - F*, and neighbouring data sets release "
           "different numbers of iterates (different supports: delta = 1)",
    witness={"L": 1.0, "n": 20, "rho": 1.0, "tol": 1e-4, "q": 0.1, "G0": 1.0, "T": 10})

# ------------------------------------------------------------------------- a noise level from the data's gradients
# One release of the mean gradient at w0 = 0 (gradients -x_i, |x_i| <= G), noise std 2 z gmax / n with gmax the
# largest |x_i| of the data set. Calibrated to the class's G it is (eps, delta)-DP for the Gaussian profile's z;
# calibrated to the data's gmax a neighbour whose largest example is removed releases with another noise level.
_DOMAIN_NOISE = Domain(G=Real(gt=0, search=(0.5, 2.0)), n=Int(ge=2, search=(5, 50)),
                       epsilon=Real(gt=0, le=1, search=(0.1, 1.0)),
                       delta=Real(gt=0, lt=1, search=(1e-8, 1e-3), log=True))
Z = 2 * sp.sqrt(2 * sp.log(sp.Rational(5, 4) / delta)) / eps   # twice the classical multiplier (eps <= 1)
_EX_G = Examples({"x": (-1.0, 1.0)}, rows="n")


def _noise_inputs(std, derived):
    return ReleaseInputs(public=("G", "n", "epsilon", "delta"), derived=derived, examples=_EX_G,
                         release=GaussianRelease(count=1, noise_std=std, sensitivity=2 * G / n),
                         guarantee=dp(eps, delta), adjacency="replace")


def _noise_statement(std, inputs):
    from dpverify.scenarios import gaussian_mechanism
    return SupBound("exact delta(eps) of the mean gradient's release", bound=delta, kind="privacy",
                    scenario=gaussian_mechanism(measure="delta_at_eps", sensitivity=2 * G / n, noise_std=std, eps=eps),
                    inputs=inputs)

NOISE_FROM_DATA = Claim(
    id="textbook/claim-gaussian-noise-from-max-gradient", source=Source("Dwork & Roth 2014", "Theorem A.1"),
    summary="The mean gradient released with noise std 2 z gmax/n, z = 2 sqrt(2 ln(1.25/delta))/eps, gmax = max_i "
            "|x_i| of the data set, is (eps, delta)-DP.",
    domain=_DOMAIN_NOISE,
    statements=(_noise_statement(Z * 2 * G / n,
                                 _noise_inputs(Z * 2 * gmax / n,
                                               {"gmax": Derived(xmax, aggregates={xmax: ("max", sp.Abs(x))},
                                                                note="noise from the data's largest gradient")})),),
    expected="violated",
    reason="the noise level is the data's largest gradient: a neighbour without the one non-zero example releases "
           "with no noise at all (or much less), whatever z",
    witness={"G": 1.0, "n": 10, "epsilon": 1.0, "delta": 1e-5})

CLAIMS = (SCHEDULE_PUBLIC, SCHEDULE_FROM_DATA, NOISE_FROM_DATA)
