"""The privacy fast paths and memos give the numbers of the slow paths they replace, bit for bit; a changed
input recomputes, the same input returns an equal value, and no caller can change a memoised value.

* the RDP of Poisson-sampled Gaussians (:mod:`dpverify.privacy.accountants`) against dp-accounting's
  ``RdpAccountant``;
* the Renyi divergence by quadrature (:func:`dpverify.privacy.renyi_divergence_gaussians`) against the same
  integrand written with mpmath's operators;
* the measured sensitivity of the schedule audits and their steering's normal tails.
"""
from __future__ import annotations

import logging

import dp_accounting
import mpmath
import numpy as np
import pytest
from dp_accounting import dp_event

from dpverify.privacy import accountants as A
from dpverify.privacy import (
    event_epsilon,
    event_rdp,
    noisy_gd_event,
    poisson_sampled_gaussian_event,
)
from dpverify.privacy import gaussian as G
from dpverify.scenarios import schedule_privacy as SP

ADD_REMOVE = dp_accounting.NeighboringRelation.ADD_OR_REMOVE_ONE

# (noise multiplier, sampling probability, steps): small and large multipliers, sampling rates down to 1e-5,
# a fractional order that does not converge (q = 0.6, z = 1.7: dp-accounting's inf), and no sampling
CASES = [(1.1, 0.01, 100), (20.4, 1 / 281, 1000), (2541.7, 1 / 300, 40), (0.8, 0.3, 7), (5.0, 1e-5, 10**5),
         (1.74, 0.61, 3), (1.3, 1.0, 10)]


def _accountant(event, orders=None):
    acc = dp_accounting.rdp.RdpAccountant(neighboring_relation=ADD_REMOVE,
                                          **({} if orders is None else {"orders": orders}))
    logging.getLogger("absl").setLevel(logging.ERROR)
    acc.compose(event)
    return acc


@pytest.mark.parametrize("z,q,steps", CASES)
def test_sampled_gaussian_rdp_is_the_accountants_bit_for_bit(z, q, steps):
    event = poisson_sampled_gaussian_event(z, q, steps)
    acc, fast = _accountant(event), A._rdp_curve(event, ADD_REMOVE)
    assert fast.rdp.tobytes() == acc.rdp.tobytes()
    for delta in (1e-5, 1e-9):
        assert fast.get_epsilon(delta) == acc.get_epsilon(delta)
    assert fast.get_delta(2.0) == acc.get_delta(2.0)
    assert event_epsilon(event, 1e-5) == acc.get_epsilon(1e-5)


def test_custom_orders_and_composed_events_are_the_accountants():
    for orders in ([1.5, 2.0, 3.25, 8.0, 32.0, 100.5], (2, 3, 4, 6, 8, 12, 16, 24, 32, 48, 64)):
        event = poisson_sampled_gaussian_event(3.0, 0.02, 50)
        assert event_rdp(event, orders).tobytes() == _accountant(event, orders).rdp.tobytes()
    composed = dp_event.ComposedDpEvent([poisson_sampled_gaussian_event(1.1, 0.01, 100), dp_event.GaussianDpEvent(4.0),
                                         dp_event.SelfComposedDpEvent(poisson_sampled_gaussian_event(0.9, 0.02, 3), 5),
                                         noisy_gd_event([0.7, 1.2, 0.7], adjacency="replace")])
    assert A._rdp_curve(composed, ADD_REMOVE).rdp.tobytes() == _accountant(composed).rdp.tobytes()


def test_an_event_outside_the_fast_path_goes_to_the_accountant():
    laplace = dp_event.LaplaceDpEvent(2.0)
    assert A._rdp_curve(laplace, ADD_REMOVE) is None
    assert event_epsilon(laplace, 1e-5) == _accountant(laplace).get_epsilon(1e-5)
    replace_one = dp_accounting.NeighboringRelation.REPLACE_ONE     # the accountant refuses Poisson sampling here
    assert A._rdp_curve(poisson_sampled_gaussian_event(1.0, 0.1, 2), replace_one) is None
    with pytest.raises(dp_accounting.UnsupportedEventError):
        event_epsilon(poisson_sampled_gaussian_event(1.0, 0.1, 2), 1e-5, neighboring_relation=replace_one)


def test_the_rdp_memo_recomputes_on_a_changed_input_and_shares_nothing_mutable():
    A._sampled_gaussian_rdp.cache_clear()
    key = (np.array([1.5, 2.0, 8.0]).tobytes(), "<f8")
    first = A._sampled_gaussian_rdp(0.01, 1.1, *key)
    again = A._sampled_gaussian_rdp(0.01, 1.1, *key)
    assert A._sampled_gaussian_rdp.cache_info().hits == 1 and np.array_equal(first, again)
    with pytest.raises(ValueError):
        first[0] = 0.0                                            # read-only
    for changed in [(0.02, 1.1, *key), (0.01, 1.2, *key), (0.01, 1.1, np.array([1.5, 2.0, 9.0]).tobytes(), "<f8")]:
        other = A._sampled_gaussian_rdp(*changed)
        assert not np.array_equal(other, first)
    assert A._sampled_gaussian_rdp.cache_info().misses == 4
    # a caller's curve is its own: mutating it leaves the next caller's curve as it was
    event = poisson_sampled_gaussian_event(1.1, 0.01, 3)
    curve = event_rdp(event, [1.5, 2.0, 8.0])
    curve[:] = -1.0
    assert event_rdp(event, [1.5, 2.0, 8.0]).tobytes() == (3 * first).tobytes()


def _renyi_with_operators(mu0, mu1, s, alpha, dps):
    """The quadrature as written with mpmath's operators (the implementation before the raw-value integrand)."""
    with mpmath.workdps(int(dps) + 10):
        m0, m1, sd, a = (mpmath.mpf(v) for v in (mu0, mu1, s, alpha))
        log_norm = -mpmath.log(sd * mpmath.sqrt(2 * mpmath.pi))

        def logp(x):
            return log_norm - (x - m0) ** 2 / (2 * sd * sd)

        def logq(x):
            return log_norm - (x - m1) ** 2 / (2 * sd * sd)

        if a == 1:
            def integrand(t):
                x = m0 + sd * t
                lp = logp(x)
                return sd * mpmath.exp(lp) * (lp - logq(x))

            value = mpmath.quad(integrand, [-mpmath.inf, -4, 0, 4, mpmath.inf])
        else:
            centre = a * m0 + (1 - a) * m1

            def integrand(t):
                x = centre + sd * t
                return sd * mpmath.exp(a * logp(x) + (1 - a) * logq(x))

            value = mpmath.log(mpmath.quad(integrand, [-mpmath.inf, -4, 0, 4, mpmath.inf])) / (a - 1)
    return +value


@pytest.mark.parametrize("mu0,mu1,s,alpha,dps", [(0.0, 1.0, 0.1353352832366127, 3.7, 25), (0.3, -1.2, 0.7, 1, 25),
                                                 (0.0, 2.5, 40.0, 57.25, 15), (-1.0, 0.5, 1.0, 2, 40)])
def test_renyi_quadrature_is_the_operator_integrands_bit_for_bit(mu0, mu1, s, alpha, dps):
    G._renyi_quadrature.cache_clear()
    for prec in (53, 90):
        with mpmath.workprec(prec):
            assert G.renyi_divergence_gaussians(mu0, mu1, s, alpha, dps=dps)._mpf_ == \
                _renyi_with_operators(mu0, mu1, s, alpha, dps)._mpf_


def test_the_renyi_memo_recomputes_on_a_changed_input():
    G._renyi_quadrature.cache_clear()
    base = dict(mu0=0.0, mu1=1.0, s=0.8, alpha=2.5, dps=20)
    first = G.renyi_divergence_gaussians(**base)
    assert G.renyi_divergence_gaussians(**base) == first and G._renyi_quadrature.cache_info().hits == 1
    for name, value in (("mu0", 0.1), ("mu1", 1.1), ("s", 0.9), ("alpha", 3.0)):
        assert G.renyi_divergence_gaussians(**{**base, name: value}) != first
    G.renyi_divergence_gaussians(**{**base, "dps": 30})           # more digits: another entry
    with mpmath.workprec(120):                                    # the caller's precision: another entry, more bits
        fine = G.renyi_divergence_gaussians(**base)
    assert G._renyi_quadrature.cache_info().misses == 7
    assert fine != first and abs(fine - first) < 1e-14
    assert G._renyi_quadrature.cache_info().hits == 1


def test_measured_sensitivity_is_memoised_on_its_inputs():
    SP._measured_sensitivity.cache_clear()
    v = SP.measured_sensitivity(2.0, 10, "replace")
    assert v == pytest.approx(2 * 2.0 / 10) and SP.measured_sensitivity(2.0, 10.0, "replace") == v
    assert SP._measured_sensitivity.cache_info().hits == 1
    assert SP.measured_sensitivity(2.0, 10, "remove") == pytest.approx(2.0 / 10)
    assert SP.measured_sensitivity(3.0, 10, "replace") == pytest.approx(0.6)
    assert SP.measured_sensitivity(2.0, 20, "replace") == pytest.approx(0.2)
    assert SP._measured_sensitivity.cache_info().misses == 4


def test_the_steering_tails_are_scipy_stats_bit_for_bit():
    from scipy.special import ndtr
    from scipy.stats import norm

    for mu in (1e-6, 0.3, 2.0, 37.5, 900.0):
        c = np.linspace(-4.0, mu + 4.0, 64)
        assert ndtr(-(c - mu)).tobytes() == norm.sf(c - mu).tobytes() and ndtr(-c).tobytes() == norm.sf(c).tobytes()
