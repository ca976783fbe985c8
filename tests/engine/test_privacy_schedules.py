"""dpverify.privacy.schedules: the zCDP and the exact delta of a schedule of noise levels on a known case,
against the closed form and dp-accounting. (Moved from tests/test_pur.py.)"""
from __future__ import annotations

import pytest

from dpverify import privacy
from dpverify.privacy.schedules import exact_delta, schedule_zcdp
from dpverify.scenarios import measured_sensitivity


def test_sensitivity_and_zcdp_of_a_schedule_on_the_known_case():
    assert measured_sensitivity(3.0, 100, "replace") == pytest.approx(0.06, rel=1e-12)
    assert measured_sensitivity(3.0, 100, "remove") == pytest.approx(0.03, rel=1e-12)
    sig = [0.5, 1.0, 2.0]
    rho = schedule_zcdp(sig, 0.06)[-1]
    assert rho == pytest.approx(2 * 3.0**2 / 100**2 * sum(s**-2 for s in sig), rel=1e-14)     # (21)
    event = privacy.noisy_gd_event([s / 0.03 for s in sig], adjacency="replace")
    eps_acc = privacy.event_epsilon(event, 1e-5, accountant="pld")
    assert eps_acc <= privacy.zcdp_to_dp(rho, 1e-5)
    assert exact_delta(sig, 0.06, privacy.zcdp_to_dp(rho, 1e-5)) <= 1e-5
