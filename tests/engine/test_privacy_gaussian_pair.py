"""The exact profile of two Gaussians with different variances (dpverify.privacy.gaussian_pair) against independent
computations: Balle & Wang's closed form at equal variances, the integral of (p - e^eps q)_+ by mpmath quadrature at
different ones, and the lower bound over an unknown mean shift against the profile at every shift."""
from __future__ import annotations

import math

import mpmath as mp
import pytest

from dpverify.privacy import gaussian_delta_exact
from dpverify.privacy.gaussian_pair import delta_lower, hockey_stick, loss_region


def _quadrature(eps, p, q):
    """``int (p - e^eps q)_+ dx`` by mpmath's quadrature, split at the roots of ``p = e^eps q``."""
    with mp.workdps(40):
        def f(x):
            return max(mp.npdf(x, p[0], p[1]) - mp.exp(eps) * mp.npdf(x, q[0], q[1]), 0)
        cuts = sorted({float(e) for iv in loss_region(eps, p, q) for e in iv if mp.isfinite(e)})
        lo = min(p[0] - 40 * p[1], q[0] - 40 * q[1])
        hi = max(p[0] + 40 * p[1], q[0] + 40 * q[1])
        pts = [lo] + [c for c in cuts if lo < c < hi] + [hi]
        return mp.quad(f, pts)


@pytest.mark.parametrize("eps, mu", [(0.0, 0.5), (1.0, 1.0), (0.3, 2.5), (3.0, 4.0)])
def test_equal_variances_are_balle_and_wang(eps, mu):
    assert float(hockey_stick(eps, (0.0, 1.0), (mu, 1.0))) == pytest.approx(gaussian_delta_exact(eps, mu), rel=1e-9)


@pytest.mark.parametrize("eps, p, q", [(0.0, (0.0, 1.0), (0.0, 2.0)), (0.5, (0.0, 1.0), (0.3, 1.5)),
                                       (1.0, (0.2, 2.0), (0.0, 1.0)), (2.0, (0.0, 0.5), (1.0, 0.7)),
                                       (0.1, (0.0, 1.0), (0.0, 1.0 + 1e-6))])
def test_different_variances_match_quadrature(eps, p, q):
    exact = float(hockey_stick(eps, p, q))
    assert exact == pytest.approx(float(_quadrature(eps, p, q)), rel=1e-8, abs=1e-14)


def test_total_variation_of_two_centred_gaussians():
    # TV(N(0,1), N(0,4)): the densities cross at x^2 = 8 ln 2 / 3; TV = 2 (Phi(r) - Phi(r/2)) - ... computed directly
    r = math.sqrt(8 * math.log(2) / 3)
    tv = (2 * mp.ncdf(r) - 1) - (2 * mp.ncdf(r / 2) - 1)
    assert float(hockey_stick(0.0, (0.0, 1.0), (0.0, 2.0))) == pytest.approx(float(tv), rel=1e-12)


def test_identical_gaussians_have_no_privacy_loss_and_profiles_decrease_in_eps():
    assert hockey_stick(0.5, (1.0, 2.0), (1.0, 2.0)) == 0
    # the narrower law against the wider: its privacy loss log p/q is bounded above, so H vanishes beyond it
    values = [float(hockey_stick(e, (0.0, 1.0), (0.4, 1.7))) for e in (0.0, 0.5, 1.0, 2.0)]
    assert values[0] > values[1] > 0 and values[2] == values[3] == 0, values
    # the wider against the narrower: the loss is unbounded (its tails), so H stays positive and decreases
    values = [float(hockey_stick(e, (0.4, 1.7), (0.0, 1.0))) for e in (0.0, 0.5, 1.0, 2.0, 4.0)]
    assert all(a > b > 0 for a, b in zip(values, values[1:])), values


def test_the_lower_bound_is_below_the_profile_at_every_shift_and_tight_at_no_shift():
    eps, s1, s2, shift = 0.5, 1.0, 1.6, 0.8
    low = delta_lower(eps, s1, s2, shift)
    for k in range(0, 41):
        m = shift * k / 40
        for sign in (1, -1):
            at = max(float(hockey_stick(eps, (0.0, s1), (sign * m, s2))), float(hockey_stick(eps, (sign * m, s2), (0.0, s1))))
            assert low <= at, (m, low, at)
    at0 = max(float(hockey_stick(eps, (0.0, s1), (0.0, s2))), float(hockey_stick(eps, (0.0, s2), (0.0, s1))))
    assert delta_lower(eps, s1, s2, 0.0) == pytest.approx(at0, rel=1e-12)
    assert 0 < low < at0


@pytest.mark.parametrize("args, name", [((1.0, 0.0, 1.0, 0.1), "s1"), ((1.0, 1.0, -1.0, 0.1), "s2"),
                                        ((math.nan, 1.0, 1.0, 0.1), "eps"), ((1.0, 1.0, 1.0, -0.5), "shift")])
def test_bad_arguments_name_the_parameter(args, name):
    with pytest.raises(ValueError, match=name):
        delta_lower(*args)


def test_an_eps_beyond_double_precision_gives_the_trivial_bound():
    assert delta_lower(5000.0, 1.0, 2.0, 0.3) == 0.0
    assert 0 < delta_lower(600.0, 1.0, 40.0, 0.0)   # the wide law's tails still carry a loss above 600


def test_the_grid_is_refined_where_a_narrow_law_makes_the_profile_steep():
    # noise 0.006 against 0.57, means apart by up to 0.8: a grid of 17 points alone proves nothing (its slack is
    # ~1.7), the refinement proves most of the profile's least value
    eps, s1, s2, shift = 20.77, 0.00611797, 0.571803, 0.8
    coarse = delta_lower(eps, s1, s2, shift, grid=17, budget=17)
    fine = delta_lower(eps, s1, s2, shift)
    assert coarse == 0.0 and 0.9 < fine
    for k in range(0, 81):
        m = shift * k / 80
        at = max(float(hockey_stick(eps, (m, s1), (0.0, s2))), float(hockey_stick(eps, (m, s2), (0.0, s1))))
        assert fine <= at, (m, fine, at)


def test_a_target_stops_the_refinement_once_decided_and_never_overstates():
    eps, s1, s2, shift = 20.77, 0.00611797, 0.571803, 0.8
    full = delta_lower(eps, s1, s2, shift)
    proved = delta_lower(eps, s1, s2, shift, target=0.5)
    assert 0.5 < proved <= full
    hopeless = delta_lower(eps, s1, s2, shift, target=0.99)   # above the profile at m = 0: stops, still a bound
    assert hopeless <= float(hockey_stick(eps, (0.0, s2), (0.0, s1)))
