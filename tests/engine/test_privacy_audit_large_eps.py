"""dpverify.privacy.audit at an eps whose exponential overflows a double. (Moved from tests/test_erm.py; kept
apart from test_privacy_audit.py, which other branches are editing, until those edits have landed.)"""
from __future__ import annotations

import math

import pytest

from dpverify.privacy.audit import audit


def test_audit_at_an_eps_whose_exponential_overflows():
    """Theorem 1's search box reaches eps = 1e3 (e^eps overflows a double): the audit neither crashes nor
    refutes a mechanism that is private there; on one whose outputs never overlap it cannot refute eps = 1e3
    with finitely many samples (the upper confidence bound on P_D'(S) stays positive) but reports the eps it
    can refute, log((lower P_D(S) - delta)/upper P_D'(S))."""
    near = audit(lambda n, rng: rng.standard_normal(n), lambda n, rng: 1 + rng.standard_normal(n),
                 eps=1000.0, delta=1e-2, n=2000, seed=0)
    assert not near.violated and near.delta_lower == -math.inf
    apart = audit(lambda n, rng: rng.uniform(0, 1, n), lambda n, rng: rng.uniform(2, 3, n),
                  eps=1000.0, delta=1e-2, n=2000, seed=0)
    assert not apart.violated and apart.counts == (2000, 0)
    lo = 0.005 ** (1 / 2000)                  # Clopper-Pearson bounds at level 0.005 for 2000/2000 and 0/2000
    assert apart.eps_lower == pytest.approx(math.log((lo - 1e-2) / (1 - lo)), rel=1e-6)
