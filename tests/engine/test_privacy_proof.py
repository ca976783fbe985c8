"""The privacy numbers with their true direction and precision (issue 38, item 3): the Gaussian profile in
ball arithmetic against dp-accounting and against mpmath at 1e-229; eps at delta below 0 (never clamped);
the privacy proof (dpverify.checks.privacyproof) on registered claims: symbolic on the whole domain, by
branch-and-bound on the search box, and a refutation at an exact point."""
from __future__ import annotations

import math

import mpmath
import pytest
from dp_accounting.pld import privacy_loss_mechanism

from dpverify import registry
from dpverify.checks import Config, privacyproof
from dpverify.privacy import gaussian_delta_exact
from dpverify.privacy.arb_profile import ball_bounds, gaussian_delta_ball, gaussian_delta_enclosure
from dpverify.scenarios.privacy.gaussian import gaussian_eps_at
from dpverify.scenarios.privacy.one_sample_sgd import eps_at_delta


@pytest.mark.parametrize("mu", [0.3, 1.0, 3.0])
@pytest.mark.parametrize("eps", [-1.0, 0.0, 0.5, 2.0, 6.0])
def test_the_ball_profile_matches_dp_accounting(mu, eps):
    ref = privacy_loss_mechanism.GaussianPrivacyLoss(standard_deviation=1.0, sensitivity=mu).get_delta_for_epsilon(eps)
    lo, mid, hi = ball_bounds(gaussian_delta_ball(eps, mu))
    assert lo <= mid <= hi and mid == pytest.approx(ref, rel=1e-9, abs=1e-300)


def test_the_ball_profile_has_a_relative_error_at_1e229_where_doubles_do_not():
    eps, mu = 32.5, 1.0
    ball = gaussian_delta_ball(eps, mu)
    with mpmath.workdps(100):
        e, m = mpmath.mpf(eps), mpmath.mpf(mu)
        ref = mpmath.ncdf(-e / m + m / 2) - mpmath.exp(e) * mpmath.ncdf(-e / m - m / 2)
    lo, mid, hi = ball_bounds(ball)
    assert 1e-230 < ref < 1e-220 and lo <= ref <= hi and (hi - lo) <= 1e-15 * float(ref)
    assert abs(gaussian_delta_exact(eps, mu) - float(ref)) > 1e-12 * float(ref)    # what doubles knew


def test_the_enclosure_over_a_box_holds_the_profile_inside_it():
    ball = gaussian_delta_enclosure(1.0, 1.5, 0.8, 1.2)
    for e in (1.0, 1.2, 1.5):
        for m in (0.8, 1.0, 1.2):
            lo, _, hi = ball_bounds(gaussian_delta_ball(e, m))
            assert ball.lower() <= lo and hi <= ball.upper()


@pytest.mark.parametrize("mu, eps", [(1.0, -0.5), (0.3, -2.0), (2.0, -0.1), (1.0, 0.7)])
def test_eps_at_delta_is_the_signed_root_of_dp_accountings_profile(mu, eps):
    delta = privacy_loss_mechanism.GaussianPrivacyLoss(standard_deviation=1.0, sensitivity=mu).get_delta_for_epsilon(eps)
    m = gaussian_eps_at(delta, mu)
    assert m.kind == "exact" and m.lower - 1e-9 <= eps <= m.upper + 1e-9
    assert (m.upper < 0) == (eps < 0)


def test_eps_at_delta_with_identical_outputs_is_ln_one_minus_delta():
    m = gaussian_eps_at(0.25, 0.0)
    assert m.lower <= math.log(0.75) <= m.upper and m.upper < 0


def test_a_lower_bound_on_delta_that_says_nothing_at_zero_gives_the_universal_lower_bound_not_zero():
    m = eps_at_delta(lambda e: 0.0, 0.3, "lower")
    assert m.kind == "lower" and m.value == pytest.approx(math.log(0.7)) and m.value < 0
    up = eps_at_delta(lambda e: 0.0, 0.3, "upper")
    assert up.kind == "upper" and up.upper == 0.0        # a clamp at 0 kept as what it is: an upper bound


def _statement(cid, index=0):
    claim = registry.get(cid)
    registry.resolve(claim)
    return claim, [s for s in claim.statements if privacyproof.applies(s)][index]


def test_a_closed_form_equal_to_the_bound_is_proved_on_the_whole_domain():
    claim, stmt = _statement("dni/lemma-b.2")
    ev = privacyproof.check(stmt, claim, Config())
    assert ev.verdict == "verified" and ev.basis.kind == "privacy-proof" and privacyproof.run_checker(ev.data["checker"])


def test_the_conversion_is_proved_on_the_search_box_by_monotonicity():
    claim, stmt = _statement("dni/lemma-b.3")
    ev = privacyproof.check(stmt, claim, Config())
    assert ev.verdict == "verified" and ev.basis.kind == "privacy-proof-on-box"
    assert ev.data["certified"] >= 1 and "delta in" in ev.basis.on


def test_a_false_conversion_is_refuted_at_an_exact_point():
    claim = registry.load_module("tests/textbook/hostile_privacy.py").PROFILE_FALSE
    stmt = claim.statements[0]
    ev = privacyproof.check(stmt, claim, Config())
    assert ev.verdict == "violated" and claim.domain.contains(ev.counterexample["params"])
    with mpmath.workdps(50):   # confirmed independently in mpmath at the point
        mu, delta = (mpmath.mpf(ev.counterexample["params"][k]) for k in ("mu", "delta"))
        eps = mu * mpmath.sqrt(2 * mpmath.log(1 / delta))
        assert mpmath.ncdf(-eps / mu + mu / 2) - mpmath.exp(eps) * mpmath.ncdf(-eps / mu - mu / 2) > delta
