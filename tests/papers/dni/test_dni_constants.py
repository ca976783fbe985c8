"""Regression pins for every constant the dni claims print, recomputed from their derivations."""
import math

import pytest

from dpverify import constants, privacy, registry

ROWS = {(r["claim"], r["name"]): r for r in constants.rows(registry.all_claims("dni"))}


def test_appendix_d_budget():
    rho = privacy.dp_to_zcdp(4.0, 1e-8)
    assert rho == pytest.approx(0.19635185340, abs=1e-10)
    assert 2 * rho == pytest.approx(0.39270370681, abs=1e-10)
    r = ROWS[("dni/claim-zcdp-inversion-corrected", "rho of (4, 1e-8)-DP")]
    assert r["status"] == "match (truncated; rounds to 0.1964)"
    assert ROWS[("dni/claim-zcdp-inversion-corrected", "R = 2 rho for (4, 1e-8)-DP")]["status"] == "match"


def test_printed_inversion_formula_gives_81_not_0_1963():
    r = ROWS[("dni/claim-zcdp-inversion", "rho of (4, 1e-8)-DP from the printed formula")]
    assert float(r["derived"]) == pytest.approx(81.48637112, rel=1e-9)
    assert r["status"] == "differs"
    L = math.log(1e8)
    assert float(r["derived"]) == pytest.approx(4 + 2 * L + 2 * math.sqrt(L * (4 + L)), rel=1e-9)


def test_theorem_4_3_constants():
    assert ROWS[("dni/thm-4.3", "upper constant 4 of (8)")]["status"] == "match"
    assert float(ROWS[("dni/thm-4.3", "upper constant 4 of (8)")]["derived"]) == 4
    low = ROWS[("dni/thm-4.3", "lower constant 1/4 of (8)")]
    assert low["status"] == "valid, not tight" and float(low["derived"]) == 1
    assert ROWS[("dni/thm-4.3", "kappa <= (1 - sqrt gamma)^-1: constant 1")]["status"] == "match"
    assert ROWS[("dni/thm-4.3", "(1 - sqrt gamma)^-1 <= 2 kappa: constant 2")]["status"] == "match"
