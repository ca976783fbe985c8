"""A user's claims file: hostile cases for the Monte Carlo check, each with a true and a false twin.

Loaded the way a user's file is (``dpverify check --module tests/textbook/hostile_mc.py --all``),
never imported as part of the project. Every expectation is exact, so every claim's verdict is the
mathematical truth (or ``inconclusive`` where no run count the check uses can decide):

* noisy GD with step 1/M on a quadratic whose spectrum is {M} (kappa = 1) forgets its start in one
  step: theta_{t+1} = -(s/M) z_t, so E f(theta_{T+1}) - f* = D s^2/(2M) exactly for every T >= 1,
  and f(theta_{T+1}) - f* = (s^2/(2M)) chi^2_D;
* with D = 1 the event f(theta_{T+1}) - f* > c^2 s^2/(2M) is |z| > c, of probability 2 Phi(-c).

Hostile cases: a bound equal to the exact expectation (never ``violated``); a rare event of
probability 2e-5 claimed at most 1e-5 (never ``holds``: with 20000 runs the event is usually never
seen, and a sample variance of 0 is not a proof); a bound that forgets the noise, false everywhere
except at s = 0, where Hypothesis's minimal example puts every default Monte Carlo point (found
``violated`` once the points spread over the domain).
"""
import sympy as sp
from scipy.stats import norm

from dpverify import Claim, Domain, ExpectationBound, Int, Real, Source
from dpverify.scenarios import noisy_gd

SRC = "noisy gradient descent on a quadratic with spectrum {M}: exact moments (hostile Monte Carlo cases)"
M, kappa, Delta, T, D, s = sp.symbols("M kappa Delta T D s")


def _claim(id, label, summary, domain, statements, expected="holds", reason=""):
    return Claim(id=f"textbook/hostile-mc-{id}", source=Source(SRC, label), summary=summary, domain=domain,
                 statements=tuple(statements), expected=expected, reason=reason)


# ------------------------------------------------------------------------- a bound equal to the expectation
_one = Domain(M=Real(gt=0, search=(0.1, 10.0), log=True), s=Real(gt=0, search=(0.1, 10.0), log=True),
              Delta=Real(gt=0, search=(1e-3, 1e3), log=True), D=Int(ge=1, search=(1, 10)),
              T=Int(ge=1, search=(1, 5)))
_ONE = dict(problem="pl", smooth=M, curvature=M, step=1 / M, noise_std=s, dim=D, horizon=T, init_gap=Delta)
TIGHT = _claim(
    "tight", "exact expectation",
    "E f(theta_{T+1}) - f* <= D s^2/(2M): the bound IS the expectation (a tight true bound).", _one,
    [ExpectationBound("E excess = D s^2/(2M)", bound=D * s**2 / (2 * M), scenario=noisy_gd(**_ONE))])
TIGHT_PLANTED = _claim(
    "tight-planted", "exact expectation",
    "PLANTED: E f(theta_{T+1}) - f* <= 0.9 D s^2/(2M) (10% too small).", _one,
    [ExpectationBound("E excess <= 0.9 D s^2/(2M)", bound=sp.Rational(9, 10) * D * s**2 / (2 * M),
                      scenario=noisy_gd(**_ONE))],
    expected="violated", reason="planted: the expectation is D s^2/(2M)")

# ------------------------------------------------------------------------- a rare event
#: |z| > C_RARE has probability 2e-5; |z| > C_COMMON has probability 0.02
C_RARE = sp.Float(float(norm.isf(1e-5)), 17)
C_COMMON = sp.Float(float(norm.isf(1e-2)), 17)
_ev = Domain(M=Real(gt=0, search=(0.5, 5.0), log=True), s=Real(gt=0, search=(0.1, 10.0), log=True))


def _event(c):
    """One Monte Carlo point (so that 20000 runs see no event with probability e^-0.4 = 67%)."""
    return noisy_gd(problem="pl", smooth=M, curvature=M, step=1 / M, noise_std=s, dim=1, horizon=1, init_gap=1,
                    exceeds=c**2 * s**2 / (2 * M), mc_count=1)


RARE = _claim(
    "rare-event", "tail of chi^2_1",
    "P(f(theta_2) - f* > c^2 s^2/(2M)) <= 1e-5 with 2 Phi(-c) = 2e-5: FALSE by a factor 2, but 20000 runs see "
    "the event 0.4 times on average: no verdict is possible at that run count.", _ev,
    [ExpectationBound("P(excess > threshold) <= 1e-5", bound=sp.Float(1e-5), scenario=_event(C_RARE))],
    expected="inconclusive",
    reason="the probability is 2e-5 (the claim is false), which 20000 runs cannot tell from 1e-5")
RARE_TRUE = _claim(
    "rare-event-true", "tail of chi^2_1",
    "P(f(theta_2) - f* > c^2 s^2/(2M)) <= 1e-3 with 2 Phi(-c) = 2e-5 (true; the event is rarely seen).", _ev,
    [ExpectationBound("P(excess > threshold) <= 1e-3", bound=sp.Float(1e-3), scenario=_event(C_RARE))])
EVENT_PLANTED = _claim(
    "event-planted", "tail of chi^2_1",
    "PLANTED: P(f(theta_2) - f* > c^2 s^2/(2M)) <= 0.01 with 2 Phi(-c) = 0.02 (a factor 2: one-sided tail).", _ev,
    [ExpectationBound("P(excess > threshold) <= 0.01", bound=sp.Float(0.01), scenario=_event(C_COMMON))],
    expected="violated", reason="planted: the probability is 2 Phi(-c) = 0.02 (both tails)")

# ------------------------------------------------------------------------- false only away from the minimal example
_gd = Domain(M=Real(gt=0, search=(0.5, 2.0), log=True), kappa=Real(ge=1, search=(1.0, 10.0), log=True),
             Delta=Real(gt=0, search=(1e-3, 1e-2), log=True), D=Int(ge=1, search=(1, 10)),
             T=Int(ge=1, search=(1, 10)), s=Real(ge=0, search=(0.0, 10.0)))
_GD = dict(problem="pl", smooth=M, curvature=M / kappa, step=1 / M, noise_std=s, dim=D, horizon=T, init_gap=Delta)
SPREAD_TRUE = _claim(
    "spread-true", "Theorem 1 (Karimi et al. 2016), with Gaussian gradient noise",
    "E f(x_T) - f* <= (1 - 1/kappa)^T Delta + D s^2 (1 - (1 - 1/kappa)^T) kappa/(2M).", _gd,
    [ExpectationBound("noisy GD", bound=(1 - 1 / kappa) ** T * Delta + D * s**2 * (1 - (1 - 1 / kappa) ** T) * kappa
                      / (2 * M), scenario=noisy_gd(**_GD))])
SPREAD_PLANTED = _claim(
    "spread-planted", "Theorem 1 (Karimi et al. 2016), with Gaussian gradient noise",
    "PLANTED: E f(x_T) - f* <= (1 - 1/kappa)^T Delta (the noise term forgotten: true only at s = 0).", _gd,
    [ExpectationBound("noisy GD", bound=(1 - 1 / kappa) ** T * Delta, scenario=noisy_gd(**_GD))],
    expected="violated", reason="planted: the noise adds at least s^2/(2M) (the top eigenvalue's share) per run")

CLAIMS = (TIGHT, TIGHT_PLANTED, RARE, RARE_TRUE, EVENT_PLANTED, SPREAD_TRUE, SPREAD_PLANTED)
