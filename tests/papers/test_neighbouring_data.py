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


#: the claims that carry their declaration (a refereed finding and its corrections); the others keep it beside them
ON_THE_CLAIMS = {"pur/prop-4a", "pur/prop-4a-corrected", "pur/prop-4c", "pur/prop-4c-corrected"}


def test_all_public_declarations_hold_and_only_the_refereed_claims_carry_theirs(rows):
    for r in rows:
        if r["derived"] == "none (all public)":
            assert r["verdict"] == "holds", r
    for key in nd.PAPERS:
        for c in nd.privacy_claims(key):
            carried = [s.inputs for s in c.statements if getattr(s, "inputs", None) is not None]
            assert bool(carried) == (c.id in ON_THE_CLAIMS), c.id
            if carried:    # the table runs the same declaration the claim carries
                assert carried == [nd.declarations(key).INPUTS[c.id]], c.id


def test_a_finding_on_the_claims_is_registered_the_paper_way():
    """The printed claims the check refutes are expected violated with the data-dependence in their reason; their
    corrections declare F(theta_0) - F* public and say so."""
    from dpverify import registry
    for cid in ("pur/prop-4a", "pur/prop-4c"):
        c = registry.get(cid)
        assert c.expected == "violated" and "minimal empirical risk" in c.reason, cid
        corrected = registry.get(cid + "-corrected")
        (decl,) = [s.inputs for s in corrected.statements if getattr(s, "inputs", None) is not None]
        assert "Delta0" in decl.public and "public bound on F(theta_0) - F*" in corrected.summary


def test_with_the_number_of_iterations_given_the_noise_schedule_alone_is_refuted():
    out = nd.noise_only_rows()
    assert {r["id"] for r in out} == {"pur/prop-4a (T given)", "pur/prop-4c (T given)"}
    for r in out:
        w = r["witness"]
        assert r["verdict"] == "violated", r
        assert w["release_D"]["count"] == w["release_D_prime"]["count"]
        assert w["release_D"]["noise_std"] != w["release_D_prime"]["noise_std"]
