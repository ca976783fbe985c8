"""The domain proof's battery (tests/textbook/domain_proof.py): each route's true twin is ``verified`` on the
whole domain (its scope says so), each planted twin's proof fails -- no evidence of it is ``verified`` --
and the planted twins the checks can reach are ``violated`` with a point of the domain that replays."""
from __future__ import annotations

from pathlib import Path

import mpmath
import pytest
import sympy as sp

import dpverify
from dpverify import registry

BATTERY = registry.load_module(str(Path(__file__).resolve().parent / "domain_proof.py"))
CLAIMS = list(BATTERY.CLAIMS)
TRUE = [c for c in CLAIMS if c.expected == "verified"]
PLANTED = [c for c in CLAIMS if c.expected == "violated"]


def test_every_route_has_a_true_and_a_planted_twin():
    assert len(TRUE) == len(PLANTED) == len(CLAIMS) // 2
    assert all("PLANTED" in c.summary and c.reason for c in PLANTED)


@pytest.mark.parametrize("claim", TRUE, ids=[c.id for c in TRUE])
def test_true_twin_is_verified_on_the_whole_domain(claim):
    v = dpverify.check(claim, seed=0)
    assert v.verdict == "verified", [(e.check, e.verdict, e.detail) for e in v.evidence]
    assert v.scope == "domain"
    for e in v.evidence:
        if e.check == "domainproof" and e.verdict == "verified":
            assert e.basis.on.startswith("the whole domain: ") and "inf" in e.basis.on


@pytest.mark.parametrize("claim", PLANTED, ids=[c.id for c in PLANTED])
def test_planted_twin_is_never_proved_and_refuted_where_reached(claim):
    v = dpverify.check(claim, seed=0)
    assert not any(e.verdict == "verified" for e in v.evidence), [(e.check, e.detail) for e in v.evidence]
    if claim.id in BATTERY.UNREACHED:
        assert v.verdict != "verified"
        return
    assert v.verdict == "violated", [(e.check, e.verdict, e.detail) for e in v.evidence]
    stmt = claim.statements[0]
    ev = next(e for e in v.evidence if e.verdict == "violated")
    point = ev.counterexample["params"]
    assert claim.domain.contains(point)
    sub = {sp.Symbol(k): sp.Rational(mpmath.mpf(val).__float__()) if isinstance(val, float) else val
           for k, val in point.items()}
    lhs, rhs = (sp.N(stmt.lhs.xreplace(sub), 60), sp.N(stmt.rhs.xreplace(sub), 60))
    if type(stmt).__name__ == "Identity":
        assert lhs != rhs and abs(lhs - rhs) > 0
    else:
        assert lhs > rhs  # the point fails, checked independently at 60 digits
