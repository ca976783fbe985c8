"""Alternative readings of a claim (dpverify.spec.Reading): each reading gets its verdict from its own
statements plus the claim's unlabelled ones; ``ok`` needs every reading to meet its expected verdict;
the errata list a reading that fails while the default one holds; bad readings are refused."""
from __future__ import annotations

import json

import pytest
import sympy as sp

import dpverify
from dpverify import Claim, Domain, Inequality, Reading, Real, Source
from dpverify.report import errata_markdown, errata_rows
from dpverify.spec import ClaimError
from dpverify.tables import table
from dpverify.verdict import Verdict

x = sp.Symbol("x")
DOM = Domain(x=Real(gt=0, search=(1e-2, 10.0), log=True))
SRC = Source("readings tests", "Claim 1")
COMMON = Inequality("x <= x^2 + 1/4", lhs=x, rhs=x**2 + sp.Rational(1, 4))
NARROW = Inequality("x^2 <= x (read: for every x > 0)", lhs=x**2, rhs=x, reading="every x")
WIDE = Inequality("x/2 <= x^2 + 1 (read: a weaker form)", lhs=x / 2, rhs=x**2 + 1, reading="weaker")


def _claim(readings, statements=(COMMON, NARROW, WIDE), **kw):
    return Claim(id="readtest/claim", source=SRC, domain=DOM, statements=statements, readings=readings, **kw)


READINGS = (Reading("every x", "violated", summary="x^2 <= x for every x > 0", reason="fails for x > 1",
                    witness={"x": 2.0}),
            Reading("weaker", "holds", summary="x/2 <= x^2 + 1"))


def test_each_reading_gets_its_own_verdict_and_ok_needs_all_of_them():
    v = dpverify.check(_claim(READINGS))
    assert v.verdict in ("holds", "verified")     # the default reading: the unlabelled statement only
    assert v.readings["every x"] == {"verdict": "violated", "expected": "violated"}
    assert v.readings["weaker"]["verdict"] in ("holds", "verified") and v.readings["weaker"]["expected"] == "holds"
    assert v.ok
    wrong = (READINGS[0], Reading("weaker", "violated", reason="planted: expected wrongly"))
    assert not dpverify.check(_claim(wrong)).ok
    text = table([v])
    assert "under the reading 'every x': violated (expected violated)" in text and "differs" not in text


def test_a_failing_common_statement_fails_every_reading():
    bad = Inequality("x^2 <= x + 1/4", lhs=x**2, rhs=x + sp.Rational(1, 4))
    claim = _claim((Reading("every x", "violated", reason="r"), Reading("weaker", "violated", reason="r")),
                   statements=(bad, NARROW, WIDE), expected="violated", reason="fails for large x", witness={"x": 3.0})
    v = dpverify.check(claim)
    assert v.verdict == "violated" and {r["verdict"] for r in v.readings.values()} == {"violated"}


def test_readings_survive_the_json_round_trip():
    v = dpverify.check(_claim(READINGS))
    back = Verdict.from_json(json.loads(json.dumps(v.to_json())))
    assert back.readings == v.readings and back.ok == v.ok


def test_errata_list_a_reading_that_fails_beside_a_default_that_holds():
    claim = _claim(READINGS, summary="x <= x^2 + 1/4 for x > 0")
    rows = errata_rows([claim])
    assert len(rows) == 1 and rows[0]["reading"] == "every x" and rows[0]["reason"] == "fails for x > 1"
    assert "--at x=2.0" in rows[0]["replay"]
    assert "reading 'every x'" in errata_markdown([claim])


@pytest.mark.parametrize("readings, statements, match", [
    ((), (COMMON, NARROW), "does not declare"),
    ((Reading("every x", "violated", reason="r"), Reading("other", "holds")), (COMMON, NARROW), "has no statement"),
    ((Reading("every x", "violated", reason="r"),), (NARROW,), "default reading needs at least one"),
    ((Reading("every x", "violated", reason="r"), Reading("every x", "holds")), (COMMON, NARROW), "share a name"),
    (("every x",), (COMMON, NARROW), "tuple of Reading"),
])
def test_bad_readings_are_refused_naming_them(readings, statements, match):
    with pytest.raises(ClaimError, match=match):
        _claim(readings, statements=statements)


def test_a_reading_is_validated_itself():
    with pytest.raises(ClaimError, match="gives no reason"):
        Reading("r", "violated")
    with pytest.raises(ClaimError, match="expected must be one of"):
        Reading("r", "true")
    with pytest.raises(ClaimError, match="reading must be the name"):
        Inequality("s", lhs=x, rhs=x, reading=3)
    with pytest.raises(ClaimError, match="witness"):
        _claim((Reading("every x", "violated", reason="r", witness={"x": -1.0}), READINGS[1]))


def test_corrected_claim_drops_the_printed_readings_with_its_statements():
    printed = _claim(READINGS, expected="holds")
    corr = printed.corrected(statements=(COMMON,))
    assert corr.readings == () and corr.id == "readtest/claim-corrected"
    assert printed.corrected(summary="same statements").readings == READINGS
