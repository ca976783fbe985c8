"""Alternative readings of a claim (dpverify.claims.Reading): each reading gets its verdict from its own
statements plus the claim's unlabelled ones; ``ok`` needs every reading to meet its expected verdict;
the errata list a reading that fails while the default one holds; bad readings are refused."""
from __future__ import annotations

import json

import pytest
import sympy as sp

import dpverify
from dpverify import Claim, Domain, Inequality, Reading, Real, Source
from dpverify.report import errata_markdown, errata_rows
from dpverify.claims import ClaimError
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


# ----------------------------------------------------------------------------- a reading that replaces a statement
PRINTED = Inequality("x^2 <= x (as printed, for every x > 0)", lhs=x**2, rhs=x)
BOUNDED = Inequality("x^2/(1 + x) <= x (read: on the bounded form)", lhs=x**2 / (1 + x), rhs=x, reading="bounded")


def test_a_reading_that_replaces_a_failing_statement_can_hold():
    claim = _claim((Reading("bounded", "holds", summary="x^2/(1 + x) <= x", replaces=(PRINTED.name,)),),
                   statements=(COMMON, PRINTED, BOUNDED), expected="violated", reason="fails for x > 1",
                   witness={"x": 2.0}, error_in="statement", statement_survives=False)
    v = dpverify.check(claim)
    assert v.verdict == "violated" and v.readings["bounded"]["verdict"] in ("holds", "verified") and v.ok
    # without `replaces` the failing default statement belongs to the reading too
    plain = _claim((Reading("bounded", "holds"),), statements=(COMMON, PRINTED, BOUNDED), expected="violated",
                   reason="fails for x > 1", witness={"x": 2.0})
    assert dpverify.check(plain).readings["bounded"]["verdict"] == "violated"
    with pytest.raises(ClaimError, match="replaces .*not unlabelled statements"):
        _claim((Reading("bounded", "holds", replaces=("no such statement",)),), statements=(COMMON, PRINTED, BOUNDED))
    with pytest.raises(ClaimError, match="replaces must be a tuple"):
        Reading("bounded", "holds", replaces=PRINTED.name)


# ----------------------------------------------------------------------------- where an error lies (errata)
def _wrong(id_, **kw):
    return Claim(id=id_, source=SRC, domain=DOM, statements=(PRINTED,), expected="violated", reason="fails for x > 1",
                 witness={"x": 2.0}, summary="x^2 <= x", **kw)


def test_errata_say_where_the_error_lies_and_whether_the_statement_survives():
    step = _wrong("readtest/claim-step", error_in="proof-step", statement_survives=True)
    stmt = _wrong("readtest/claim-stmt", error_in="statement", statement_survives=False)
    unsaid = _wrong("readtest/claim-unsaid")
    reading = _claim((Reading("every x", "violated", reason="fails for x > 1", witness={"x": 2.0},
                              error_in="statement", statement_survives=None), READINGS[1]))
    rows = {(r["id"], r["reading"]): r for r in errata_rows([step, stmt, unsaid, reading])}
    assert rows[("readtest/claim-step", None)]["error"] == "proof step; statement survives"
    assert rows[("readtest/claim-stmt", None)]["error"] == "statement; statement fails"
    assert rows[("readtest/claim-unsaid", None)]["error"] == ""
    assert rows[("readtest/claim", "every x")]["error"] == "statement"
    text = errata_markdown([step, stmt])
    assert "| where |" in text and "proof step; statement survives" in text and "statement; statement fails" in text
    back = json.loads(json.dumps(step.to_json()))
    assert back["error_in"] == "proof-step" and back["statement_survives"] is True
    assert json.loads(json.dumps(reading.to_json()))["readings"][0]["error_in"] == "statement"
    assert step.corrected(statements=(COMMON,)).error_in is None      # the corrected claim is not wrong


@pytest.mark.parametrize("kw, match", [
    ({"error_in": "proof"}, "error_in: must be one of"),
    ({"statement_survives": "yes"}, "statement_survives: must be True, False or None"),
])
def test_a_bad_error_field_is_refused_naming_it(kw, match):
    with pytest.raises(ClaimError, match=match):
        _wrong("readtest/claim-bad", **kw)
    with pytest.raises(ClaimError, match="Reading .r.: " + match):
        Reading("r", "violated", reason="r", **kw)
    with pytest.raises(ClaimError, match="only a claim or reading expected 'violated'"):
        Claim(id="readtest/claim-holds", source=SRC, domain=DOM, statements=(COMMON,), error_in="statement")


def test_errata_of_a_wrong_claim_name_the_readings_under_which_it_holds():
    claim = _claim((Reading("bounded", "holds", replaces=(PRINTED.name,)),), statements=(COMMON, PRINTED, BOUNDED),
                   expected="violated", reason="fails for x > 1", witness={"x": 2.0}, error_in="statement",
                   statement_survives=False)
    assert errata_rows([claim])[0]["error"] == "statement; statement fails; holds read as 'bounded'"
