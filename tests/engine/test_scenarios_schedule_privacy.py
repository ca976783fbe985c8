"""dpverify.scenarios.privacy.gd: the Renyi quadrature of a Gaussian against its closed form, and the
audit scenario's refutability and steering. (Moved from tests/test_pur.py; Proposition 4(c) of
theorems.pur is only a fixture.)"""
from __future__ import annotations

import numpy as np
import pytest

from dpverify.scenarios import bind
from dpverify.scenarios import GaussianRenyi
from theorems.pur import claims as C


def test_renyi_quadrature_matches_the_closed_form():
    rng = np.random.default_rng(3)
    for _ in range(300):
        D, s, a = 10 ** rng.uniform(-3, 3), 10 ** rng.uniform(-3, 2), 10 ** rng.uniform(0.005, 1.8)
        assert GaussianRenyi.renyi_over_order(D, s, a) == pytest.approx(D * D / (2 * s * s), rel=1e-9)


def test_audit_search_is_steered_to_refutable_points_of_4c():
    """The exact profile says where an audit of 1000 runs can refute: at the known overspending point
    refutability is positive and at a correct budget (T = 1, kappa = 1) negative; steering a point of the
    domain never lowers it and keeps it in the domain."""
    stmt = next(s for s in C.PROP_4C.statements if getattr(s, "audit", None) is not None)
    aud = bind(stmt.audit, C.PROP_4C)
    assert aud.refutability({"T": 20, "M": 4.0, "mu": 1.0, "d": 1, "Delta0": 1.0, "L": 3.0, "N": 30,
                             "delta": 0.05}, n=20000) > 0
    assert aud.refutability({"T": 1, "M": 1.0, "mu": 1.0, "d": 1, "Delta0": 1.0, "L": 1.5, "N": 1,
                             "delta": 1e-5}) < 0
    pt = {"T": 5, "M": 2.0, "mu": 1.0, "d": 2, "Delta0": 0.5, "L": 2.0, "N": 100, "delta": 1e-5}
    moved = aud.steer(pt)
    assert C.PROP_4C.domain.contains(moved) and aud.refutability(moved) >= aud.refutability(pt)
