"""Mechanisms as dp-accounting events, the accountants that consume them, and the sensitivity of a
mean gradient: the event route gives exactly the epsilons of events built by hand."""
import collections

import dp_accounting
import mpmath
import numpy as np
import pytest

from dpverify import privacy as P
from dpverify.privacy.composition import subsampled_gaussian_epsilon
from dpverify.privacy.sampled_gaussian import WOR_ORDERS

REL = dp_accounting.NeighboringRelation


def _hand_built_gd(zs, adjacency):
    """The composition as it was built by hand before the event builders (z/2 encodes replace)."""
    scale = 1.0 if adjacency == "remove" else 0.5
    counts = collections.Counter(scale * float(z) for z in zs)
    return dp_accounting.ComposedDpEvent(
        [dp_accounting.SelfComposedDpEvent(dp_accounting.GaussianDpEvent(z), n) for z, n in sorted(counts.items())])


SETTINGS = [([1.0], 1e-5), ([0.7, 1.3, 2.0, 2.0], 1e-6), ([5.0] * 20, 1e-8), ([0.5, 3.0, 0.5], 1e-3)]


@pytest.mark.parametrize("zs, delta", SETTINGS)
@pytest.mark.parametrize("adjacency", ["remove", "replace"])
def test_noisy_gd_event_gives_the_hand_built_epsilon(zs, delta, adjacency):
    event = P.noisy_gd_event(zs, adjacency=adjacency)
    assert event == _hand_built_gd(zs, adjacency)
    rdp = dp_accounting.rdp.RdpAccountant(neighboring_relation=REL.ADD_OR_REMOVE_ONE)
    rdp.compose(_hand_built_gd(zs, adjacency))
    assert P.event_epsilon(event, delta, accountant="rdp") == rdp.get_epsilon(delta)
    pld = dp_accounting.pld.PLDAccountant(neighboring_relation=REL.ADD_OR_REMOVE_ONE,
                                          value_discretization_interval=1e-4)
    pld.compose(_hand_built_gd(zs, adjacency))
    assert P.event_epsilon(event, delta, accountant="pld") == pld.get_epsilon(delta)
    assert P.event_epsilon(event, delta, accountant="best") == min(rdp.get_epsilon(delta), pld.get_epsilon(delta))
    orders = [2.0, 4.5, 16.0, 64.0]
    acc = dp_accounting.rdp.RdpAccountant(orders=orders, neighboring_relation=REL.ADD_OR_REMOVE_ONE)
    acc.compose(_hand_built_gd(zs, adjacency))
    np.testing.assert_array_equal(P.event_rdp(event, orders), acc.rdp)


def test_replace_is_the_halved_multiplier_and_four_times_the_rdp():
    zs, orders = [0.8, 1.7, 1.7], [2.0, 8.0, 32.0]
    rem = P.event_rdp(P.noisy_gd_event(zs, adjacency="remove"), orders)
    rep = P.event_rdp(P.noisy_gd_event(zs, adjacency="replace"), orders)
    np.testing.assert_allclose(rep, 4 * rem, rtol=1e-12)
    assert P.noisy_gd_event(zs, adjacency="replace") == P.noisy_gd_event([z / 2 for z in zs], adjacency="remove")


def test_no_step_is_a_no_op_event_with_zero_epsilon():
    event = P.noisy_gd_event([], adjacency="remove")
    assert isinstance(event, dp_accounting.NoOpDpEvent)
    for accountant in ("rdp", "pld", "best"):
        assert P.event_epsilon(event, 1e-5, accountant=accountant) == 0.0
    np.testing.assert_array_equal(P.event_rdp(event, [2.0, 3.0]), [0.0, 0.0])


@pytest.mark.parametrize("z, q, steps", [(1.0, 0.01, 100), (2.0, 0.1, 10), (0.8, 1.0, 3)])
def test_poisson_sampled_event_gives_the_hand_built_epsilon(z, q, steps):
    hand = dp_accounting.SelfComposedDpEvent(
        dp_accounting.PoissonSampledDpEvent(q, dp_accounting.GaussianDpEvent(z)), steps)
    assert P.poisson_sampled_gaussian_event(z, q, steps) == hand
    rdp = dp_accounting.rdp.RdpAccountant(neighboring_relation=REL.ADD_OR_REMOVE_ONE)
    rdp.compose(hand)
    pld = dp_accounting.pld.PLDAccountant(neighboring_relation=REL.ADD_OR_REMOVE_ONE, value_discretization_interval=1e-3)
    pld.compose(hand)
    assert subsampled_gaussian_epsilon(z, q, steps, 1e-5, accountant="rdp") == rdp.get_epsilon(1e-5)
    assert subsampled_gaussian_epsilon(z, q, steps, 1e-5, accountant="pld") == pld.get_epsilon(1e-5)
    assert subsampled_gaussian_epsilon(z, q, steps, 1e-5) == min(rdp.get_epsilon(1e-5), pld.get_epsilon(1e-5))


def test_sampled_without_replacement_event_gives_the_hand_built_rdp():
    size, sample, z = 10**9, 10**7, 1.3
    hand = dp_accounting.SampledWithoutReplacementDpEvent(size, sample, dp_accounting.GaussianDpEvent(z))
    event = P.sampled_without_replacement_gaussian_event(size, sample, z)
    assert event == hand
    acc = dp_accounting.rdp.RdpAccountant(orders=list(WOR_ORDERS), neighboring_relation=REL.REPLACE_ONE)
    acc.compose(hand)
    np.testing.assert_array_equal(P.event_rdp(event, list(WOR_ORDERS), neighboring_relation=REL.REPLACE_ONE), acc.rdp)
    with pytest.raises(ValueError, match="sample_size must be at most population_size"):
        P.sampled_without_replacement_gaussian_event(10, 11, z)


def test_accountants_refuse_what_is_not_an_event_or_a_relation():
    with pytest.raises(ValueError, match=r"^event must be a dp_accounting DpEvent\. Found \[1\.0\]"):
        P.event_epsilon([1.0], 1e-5)
    with pytest.raises(ValueError, match=r"^neighboring_relation must .*Found 'replace'"):
        P.event_rdp(dp_accounting.GaussianDpEvent(1.0), [2.0], neighboring_relation="replace")


# ----------------------------------------------------------------------------- sensitivity
def test_sensitivity_has_no_default_adjacency():
    with pytest.raises(TypeError, match="adjacency"):
        P.mean_gradient_sensitivity(1.0, 10)  # type: ignore[call-arg]


@pytest.mark.parametrize("bad", ["add", "Remove", None, "replace-one"])
def test_sensitivity_refuses_an_unknown_adjacency_naming_it(bad):
    with pytest.raises(ValueError, match=rf"^adjacency must be one of .*Found {bad!r}\."):
        P.mean_gradient_sensitivity(1.0, 10, adjacency=bad)


@pytest.mark.parametrize("bound, n", [(1.0, 1), (4.0, 1000), (0.3, 7), (123.456, 99991)])
def test_sensitivity_remove_is_bound_over_n_and_replace_twice_that(bound, n):
    rem = P.mean_gradient_sensitivity(bound, n, adjacency="remove")
    rep = P.mean_gradient_sensitivity(bound, n, adjacency="replace")
    assert rem == bound / n
    assert rep == 2 * bound / n
    assert rep == 2 * rem


def test_sensitivity_in_mpmath_for_an_mpf_bound():
    with mpmath.workdps(40):
        got = P.mean_gradient_sensitivity(mpmath.mpf(1) / 3, 7, adjacency="replace")
        assert isinstance(got, mpmath.mpf)
        assert abs(got - mpmath.mpf(2) / 21) < mpmath.mpf(10) ** -38


def test_budget_filter_uses_the_same_sensitivity():
    for adjacency in P.ADJACENCIES:
        res = P.budget_filter_privacy([2.0], 1.0, adjacency=adjacency, clip_or_G=4.0, N=1000)
        assert res.sensitivity == P.mean_gradient_sensitivity(4.0, 1000, adjacency=adjacency)
