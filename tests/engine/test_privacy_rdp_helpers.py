"""dpverify.privacy.rdp_helpers: dp-accounting's RDP accountant with the two faster helpers gives the
numbers it gives without them, bit for bit (whole RDP curves and epsilons, hostile orders and rates);
install refuses helpers it does not know; the memo stays bounded."""
from __future__ import annotations

import contextlib
import math

import numpy as np
import pytest
from dp_accounting import dp_event
from dp_accounting.rdp import rdp_privacy_accountant as rdp

from dpverify.privacy import rdp_helpers as H
from dpverify.privacy import event_epsilon

ORDERS = rdp.RdpAccountant()._orders     # dp-accounting's default orders: fractional and integer, up to 512


@contextlib.contextmanager
def _originals():
    """dp-accounting's own helpers, for the length of the block."""
    assert H.install()
    fast = rdp._log_comb, rdp._log_add
    rdp._log_comb, rdp._log_add = H._ORIGINAL["_log_comb"], H._ORIGINAL["_log_add"]
    try:
        yield
    finally:
        rdp._log_comb, rdp._log_add = fast


def _same_array(a, b):
    a, b = np.asarray(a), np.asarray(b)
    return a.dtype == b.dtype and a.shape == b.shape and a.tobytes() == b.tobytes()


def test_installed_here_and_the_helpers_are_ours():
    assert H.install() and H.installed()
    assert rdp._log_add is H._log_add and hasattr(rdp._log_comb, "memo")


# rates from tiny to one, noise multipliers from under 1 (where the fractional series is long) to large
POISSON = [(1e-6, 0.5), (0.001, 0.8), (0.01, 1.1), (0.05, 4.0), (0.3, 0.6), (0.5, 25.0), (0.999, 2.0),
           (1.0, 1.3), (0.2, 1e-3), (0.02703, 2526.0)]


@pytest.mark.parametrize("q,sigma", POISSON)
def test_poisson_subsampled_gaussian_curves_equal_bit_for_bit(q, sigma):
    orders = list(ORDERS) + [1.001, 2.0000001, 700.5, 1024]
    assert H.install() and rdp._log_add is H._log_add
    fast = rdp._compute_rdp_poisson_subsampled_gaussian(q, sigma, orders)
    again = rdp._compute_rdp_poisson_subsampled_gaussian(q, sigma, orders)      # from the memo
    with _originals():
        slow = rdp._compute_rdp_poisson_subsampled_gaussian(q, sigma, orders)
    assert _same_array(fast, slow) and _same_array(again, slow)


@pytest.mark.parametrize("q,sigma", [(0.01, 1.0), (0.1, 0.7), (0.5, 3.0), (0.9, 10.0)])
def test_sampled_without_replacement_curves_equal_bit_for_bit(q, sigma):
    orders = [1.5, 2, 3, 7, 64, 256, 300]
    fast = rdp._compute_rdp_sample_wor_gaussian(q, sigma, orders)
    with _originals():
        slow = rdp._compute_rdp_sample_wor_gaussian(q, sigma, orders)
    assert _same_array(fast, slow)


def test_epsilons_of_composed_events_equal():
    import dp_accounting

    events = [dp_event.SelfComposedDpEvent(dp_event.PoissonSampledDpEvent(0.02, dp_event.GaussianDpEvent(1.3)), 500),
              dp_event.SelfComposedDpEvent(
                  dp_event.SampledWithoutReplacementDpEvent(1000, 50, dp_event.GaussianDpEvent(2.0)), 40)]
    for ev in events:
        relation = (dp_accounting.NeighboringRelation.REPLACE_ONE
                    if isinstance(ev.event, dp_event.SampledWithoutReplacementDpEvent) else None)
        fast = event_epsilon(ev, 1e-6, neighboring_relation=relation, orders=[1.5, 2, 4, 8, 16, 33.3, 64])
        with _originals():
            acc = rdp.RdpAccountant(orders=[1.5, 2, 4, 8, 16, 33.3, 64],
                                    neighboring_relation=relation or dp_accounting.NeighboringRelation.ADD_OR_REMOVE_ONE)
            acc.compose(ev)
            slow = acc.get_epsilon(1e-6)
        assert fast == slow


def test_log_add_equals_dp_accountings_on_hostile_pairs():
    rng = np.random.default_rng(5)
    special = [0.0, -0.0, math.inf, -math.inf, math.nan, 5e-324, -1e308, 1e308, 709.78, -745.2]
    xs = list(rng.standard_normal(400) * 10.0 ** rng.integers(-3, 4, 400)) + special
    xs += [np.float64(v) for v in special] + [float(v) for v in rng.uniform(-50, 50, 100)]
    original = H._ORIGINAL["_log_add"] if H.install() else rdp._log_add
    pairs = [(x, y) for x in xs[::3] for y in xs[::2]] + [(x, x) for x in xs]
    with np.errstate(all="ignore"):
        for x, y in pairs:
            assert H._same(H._log_add(x, y), original(x, y)), (x, y)


def test_install_refuses_helpers_it_does_not_know(monkeypatch):
    def _log_add(x, y):                      # someone else's helper (another module): left alone
        return max(x, y)

    H.install()
    monkeypatch.setattr(rdp, "_log_comb", H._ORIGINAL["_log_comb"])
    monkeypatch.setattr(rdp, "_log_add", _log_add)
    monkeypatch.setattr(H, "_STATE", {"installed": False, "tried": False})
    monkeypatch.setattr(H, "_ORIGINAL", {})
    assert not H.install()
    assert rdp._log_add is _log_add


def test_install_refuses_a_helper_that_computes_otherwise(monkeypatch):
    H.install()
    original = H._ORIGINAL["_log_add"]
    changed = type(original)(original.__code__, {**original.__globals__, "math": _ShiftedMath()}, "_log_add")
    changed.__module__ = rdp.__name__
    monkeypatch.setattr(rdp, "_log_comb", H._ORIGINAL["_log_comb"])   # a helper install knows
    monkeypatch.setattr(rdp, "_log_add", changed)
    monkeypatch.setattr(H, "_STATE", {"installed": False, "tried": False})
    monkeypatch.setattr(H, "_ORIGINAL", {})
    assert not H.install()                   # the battery finds the difference
    assert rdp._log_add is changed and H._ORIGINAL["_log_add"] is changed     # it looked, and refused


class _ShiftedMath:
    """``math`` with a ``log1p`` one ulp off: a helper that no longer computes what the stand-in does."""

    def __getattr__(self, name):
        return getattr(math, name)

    @staticmethod
    def log1p(x):
        return math.nextafter(math.log1p(x), math.inf)


def test_the_memo_is_bounded(monkeypatch):
    assert H.install()
    comb = rdp._log_comb
    monkeypatch.setattr(H, "MEMO_LIMIT", 50)
    comb.memo.clear()
    for n in range(200):
        comb(n, 3)
    assert 0 < len(comb.memo) <= 50
    assert comb(150, 3) == H._ORIGINAL["_log_comb"](150, 3)
