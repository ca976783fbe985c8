"""The neighbouring-data check on every privacy claim of the five papers, with the declarations each paper keeps
beside its claims (theorems/<key>/inputs.py, run by theorems/neighbouring_data.py): every privacy statement is
declared (or says why not), nothing is left undeclared, and the refutations are exactly the findings each paper's
module lists with the line of the text they rest on -- for a referee; the claims' expected verdicts are untouched."""
from __future__ import annotations

import pytest

from dpverify import registry
from dpverify.claims import SupBound
from theorems import neighbouring_data as nd


@pytest.fixture(scope="module")
def rows():
    return nd.rows()


def test_every_privacy_statement_of_the_papers_is_declared_or_says_why(rows):
    counted = sum(1 for key in nd.PAPERS for c in nd.privacy_claims(key) for s in c.statements
                  if isinstance(s, SupBound) and s.kind == "privacy")
    assert len(rows) == counted
    missing = [r["id"] for r in rows if r["detail"].startswith("MISSING")]
    assert missing == []
    undeclared = [(r["id"], r["detail"]) for r in rows if "undeclared" in r["detail"]]
    assert undeclared == []
    for key in nd.PAPERS:   # a declaration for a claim that does not exist is a typo
        mod = nd.declarations(key)
        ids = {c.id for c in nd.privacy_claims(key)}
        assert set(mod.INPUTS) | set(mod.NOT_DECLARED) == ids, key


def test_the_refutations_are_the_listed_findings_with_both_counts(rows):
    violated = {r["id"] for r in rows if r["verdict"] == "violated"}
    listed = {cid for key in nd.PAPERS for cid in nd.declarations(key).FINDINGS}
    assert violated == listed
    for r in rows:
        if r["verdict"] == "violated":
            w = r["witness"]
            assert w["release_D"]["count"] != w["release_D_prime"]["count"], r
            assert w["derived_D"]["Delta0"] != w["derived_D_prime"]["Delta0"], r
            assert r["text"], r["id"]


def test_all_public_declarations_hold_and_the_registry_claims_carry_none(rows):
    for r in rows:
        if r["derived"] == "none (all public)":
            assert r["verdict"] == "holds", r
    for key in nd.PAPERS:
        for c in nd.privacy_claims(key):
            assert all(getattr(s, "inputs", None) is None for s in c.statements), c.id


def test_with_the_number_of_iterations_given_the_noise_schedule_alone_is_refuted():
    out = nd.noise_only_rows()
    assert {r["id"] for r in out} == {"pur/prop-4a (T given)", "pur/prop-4c (T given)"}
    for r in out:
        w = r["witness"]
        assert r["verdict"] == "violated", r
        assert w["release_D"]["count"] == w["release_D_prime"]["count"]
        assert w["release_D"]["noise_std"] != w["release_D_prime"]["noise_std"]
