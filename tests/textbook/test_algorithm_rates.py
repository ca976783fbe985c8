"""Rates of what an algorithm attains (tests/textbook/algorithm_rates.py): the true rates hold and the planted
ones (a power of T too fast, a noise floor forgotten) are violated, on the exact and the Monte Carlo route; and a
claim about an algorithm measured on it is no longer capped "algebra-only" while one checked on its formula is."""
from __future__ import annotations

from pathlib import Path

import sympy as sp

import dpverify
from dpverify import AlgorithmRate, Claim, Domain, LimitPath, Rate, Real, Source, registry
from dpverify.testing import claim_tests

FILE = Path(__file__).resolve().parent / "algorithm_rates.py"
test_algorithm_rate_verdicts = claim_tests(str(FILE))
MOD = registry.load_module(str(FILE))


def test_the_true_rate_is_measured_on_the_algorithm_and_equals_its_exact_constant():
    """E f - f* = s^2/(2 mu T) exactly: the ratio to s^2/(mu T) is 1/2 at every point of both paths."""
    v = dpverify.check(MOD.SGD_RATE)
    ev = next(e for e in v.evidence if e.check == "algorithm-rate")
    assert ev.verdict == "holds" and ev.basis.kind == "algorithm-rate"
    lo, hi = ev.data["band"]
    assert abs(lo - 0.5) < 1e-9 and abs(hi - 0.5) < 1e-9


def test_the_planted_rate_drifts_one_decade_per_decade():
    ev = next(e for e in dpverify.check(MOD.SGD_RATE_PLANTED).evidence if e.check == "algorithm-rate")
    assert ev.verdict == "violated"
    lows = ev.data["log10_ratio_lower"]
    assert abs((lows[-1] - lows[-3]) - 1.0) < 1e-6      # two half-decade steps of T: the ratio T/2 grows tenfold


def _about_algorithm(*statements):
    mu, s, T, R = sp.symbols("mu s T R")
    return Claim(id="textbook/claim-algebra-or-algorithm", source=Source("test", "rate"), domain=MOD._dom,
                 statements=statements, about="algorithm", kind="rate", summary="s^2/(2 mu T) = Theta(s^2/(mu T))")


def test_a_claim_measured_on_its_algorithm_is_not_algebra_only():
    mu, s, T = sp.symbols("mu s T")
    formula = Rate("s^2/(2 mu T) = Theta(s^2/(mu T))", expr=s**2 / (2 * mu * T), rate=s**2 / (mu * T),
                   paths=(LimitPath("T", "inf"),))
    on_formula = dpverify.check(_about_algorithm(formula))
    assert on_formula.verdict in ("holds", "verified") and "algebra-only" in on_formula.flags
    measured = AlgorithmRate("E f - f* = Theta(s^2/(mu T))", rate=s**2 / (mu * T), kind="Theta",
                             paths=(LimitPath("T", "inf"),), decades=3, scenario=MOD._decaying())
    both = dpverify.check(_about_algorithm(formula, measured))
    assert both.verdict == "holds" and "algebra-only" not in both.flags
    assert "algorithm-rate" in str(both.basis)
