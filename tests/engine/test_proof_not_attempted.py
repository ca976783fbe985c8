"""A proof-only check kind (``CheckKind.proof_only``) is not attempted on a statement an earlier check refuted
rigorously (``dpverify.checks.refutation``): the statement stays ``violated`` and the evidence names the witness;
a statistical refutation (Monte Carlo, an estimate, an audit) never stops a proof attempt."""
from __future__ import annotations

import pytest

from dpverify import registry
from dpverify.checks import BY_NAME, KINDS, RIGOROUS_REFUTATIONS, refutation, run
from dpverify.verdict import BASIS_KINDS, Basis, Evidence, statement_verdict


def _ev(check, verdict, basis):
    return Evidence(check, "s", verdict, basis=Basis(basis, "test"))


def test_a_proof_only_kind_can_neither_refute_nor_support_without_a_proof():
    """What skipping it can lose: nothing but a proof (which a rigorous refutation would contradict)."""
    only = [k for k in KINDS if k.proof_only]
    assert BY_NAME["quadratics"] in only
    for k in only:
        assert "violated" not in k.verdicts()
        assert all(BASIS_KINDS[b].proof for b in k.basis_kinds)
    assert not BY_NAME["domainproof"].proof_only      # a proof kind that can refute is always attempted


@pytest.mark.parametrize("basis", sorted(RIGOROUS_REFUTATIONS))
def test_a_rigorous_refutation_is_the_witness(basis):
    ev = [_ev("a", "holds", "monte-carlo"), _ev("b", "violated", basis), _ev("c", "violated", "algebra")]
    assert refutation(ev) is ev[1]


@pytest.mark.parametrize("basis", ["monte-carlo", "privacy-estimate", "audit", "privacy-lower", "scaling"])
def test_a_statistical_or_indirect_refutation_is_no_witness(basis):
    assert basis not in RIGOROUS_REFUTATIONS
    assert refutation([_ev("a", "violated", basis), _ev("b", "inconclusive", "algebra")]) is None


def test_the_quadratics_proof_is_not_attempted_after_the_exact_expectation_refutes():
    """dni/thm-4.6: the exact expectation refutes the statement, so its proof on quadratics is not attempted; the
    evidence says which check refuted it, and the statement's verdict is the refutation's."""
    claim = registry.get("dni/thm-4.6")
    v = run(claim)
    quad = [e for e in v.evidence if e.check == "quadratics"]
    assert quad, "the claim has a statement the proof on quadratics applies to"
    for q in quad:
        same = [e for e in v.evidence if e.statement == q.statement]
        witness = refutation(same[:same.index(q)])
        assert witness is not None and witness.check == "exact"
        assert q.verdict == "inconclusive" and q.basis.on == "not attempted"
        assert q.detail.startswith("not attempted") and repr(witness.check) in q.detail
        assert statement_verdict(same) == "violated"
    assert v.verdict == "violated"
