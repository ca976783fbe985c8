"""A user's claims file: rates of what an algorithm attains (AlgorithmRate), true and planted.

Noisy gradient descent with the step ``eta_t = 1/(mu t)`` on ``f(w) = mu w^2/2`` and gradient noise of
standard deviation ``s``: ``w_{t+1} = (1 - 1/t) w_t - s z_t/(mu t)``, so ``w_{T+1} = -(s/mu) (1/T) sum_t z_t``
(the first step lands on the minimiser, the rest average the noise) and exactly
``E f(w_{T+1}) - f* = s^2/(2 mu T)``: Theta(s^2/(mu T)) along T -> inf (and s -> 0), never O(s^2/(mu T^2)).
The same algorithm with the constant step ``eta`` keeps a noise floor ``s^2 eta/(2(2 - eta mu))``, so its
excess is Theta(1) along T -> inf and a claimed O(1/T) is false.
"""
import sympy as sp

from dpverify import AlgorithmRate, Claim, Domain, Int, LimitPath, Real, Source
from dpverify.scenarios import noisy_gd

mu, s, T, eta, R = sp.symbols("mu s T eta R")
t = sp.Symbol("t")
BOOK = Source("textbook results (SGD with step 1/(mu t) averages the noise; a constant step keeps a floor)",
              "exact moments of SGD on a one-dimensional quadratic")
_dom = Domain(mu=Real(gt=0, search=(0.1, 10.0), log=True), s=Real(gt=0, search=(0.1, 10.0), log=True),
              T=Int(ge=1, search=(2, 20)), R=Real(gt=0, search=(0.1, 10.0), log=True))


def _decaying(**kw):
    return noisy_gd(problem="strongly_convex", smooth=mu, curvature=mu, step=1 / (mu * t), noise_std=s, dim=1,
                    horizon=T, init_dist=R, **kw)


def _claim(id, summary, statements, expected="holds", reason="", witness=None, domain=_dom):
    return Claim(id=f"textbook/{id}", source=BOOK, summary=summary, domain=domain, statements=tuple(statements),
                 about="algorithm", kind="rate", expected=expected, reason=reason, witness=witness)


SGD_RATE = _claim(
    "claim-sgd-one-over-t",
    "SGD with step 1/(mu t) on a mu-strongly convex quadratic: E f(w_{T+1}) - f* = Theta(s^2/(mu T)).",
    [AlgorithmRate("E f(w_{T+1}) - f* = Theta(s^2/(mu T))", rate=s**2 / (mu * T), kind="Theta",
                   paths=(LimitPath("T", "inf"), LimitPath("s", "0+")), decades=4, scenario=_decaying())])
SGD_RATE_PLANTED = _claim(
    "claim-sgd-one-over-t-squared",
    "PLANTED: the same with O(s^2/(mu T^2)) (one power of T too fast).",
    [AlgorithmRate("E f(w_{T+1}) - f* = O(s^2/(mu T^2))", rate=s**2 / (mu * T**2), kind="O",
                   paths=(LimitPath("T", "inf"),), decades=4, scenario=_decaying())],
    expected="violated", reason="planted: the averaged noise gives exactly s^2/(2 mu T), not O(1/T^2)",
    witness={"mu": 1.0, "s": 1.0, "T": 10, "R": 1.0})

_const = Domain(mu=Real(gt=0, search=(0.1, 1.0), log=True), s=Real(gt=0, search=(0.1, 10.0), log=True),
                T=Int(ge=1, search=(2, 20)), R=Real(gt=0, search=(0.1, 10.0), log=True))
#: the constant step 1/2 on f = mu w^2/2 with mu <= 1 (smoothness 1): the floor is s^2/(2(2/mu - 1/2))... exactly
#: E f - f* -> mu s^2/(8 (1 - mu/4)) as T -> inf
_CONST_SC = dict(problem="strongly_convex", smooth=mu, curvature=mu, step=sp.Rational(1, 2), noise_std=s, dim=1,
                 horizon=T, init_dist=R)


def _constant(route):
    sc = noisy_gd(**_CONST_SC)
    return sc if route == "exact" else sc.evolve(supports_exact=False)


CONST_FLOOR = [_claim(
    f"claim-constant-step-floor-{route}",
    f"SGD with the constant step 1/2 keeps a noise floor: E f(w_(T+1)) - f* = Theta(s^2 mu) along T -> inf ({route}).",
    [AlgorithmRate(f"E f(w_(T+1)) - f* = Theta(s^2 mu) ({route})", rate=s**2 * mu, kind="Theta",
                   paths=(LimitPath("T", "inf"),), decades=3, runs=20000, scenario=_constant(route))],
    domain=_const) for route in ("exact", "monte-carlo")]
CONST_FLOOR_PLANTED = [_claim(
    f"claim-constant-step-one-over-t-{route}",
    f"PLANTED: SGD with the constant step 1/2 has E f(w_(T+1)) - f* = O(s^2 mu/T) ({route}; the floor forgotten).",
    [AlgorithmRate(f"E f(w_(T+1)) - f* = O(s^2 mu/T) ({route})", rate=s**2 * mu / T, kind="O",
                   paths=(LimitPath("T", "inf"),), decades=3, runs=20000, scenario=_constant(route))],
    domain=_const, expected="violated", reason="planted: a constant step keeps the floor mu s^2/(8 (1 - mu/4))",
    witness={"mu": 1.0, "s": 1.0, "T": 100, "R": 1.0}) for route in ("exact", "monte-carlo")]

CLAIMS = (SGD_RATE, SGD_RATE_PLANTED, *CONST_FLOOR, *CONST_FLOOR_PLANTED)
