"""Contract over every registered claim (as Hypothesis does over its strategies)."""
import re
from pathlib import Path

import pytest
import sympy as sp

import dpverify
from dpverify import registry
from dpverify.checks import checks_for, run
from dpverify.spec import VERDICTS, Claim, Domain, DomainError, Identity, Real, Source

CLAIMS = registry.all_claims()
IDS = [c.id for c in CLAIMS]
SEEDS = Path(__file__).resolve().parents[2] / "shared" / "seeds"
ID_RE = re.compile(r"^[a-z]+/(thm|lemma|prop|eq|claim|fig|table|remark)-[a-z0-9.\-]+$")


def test_ids_are_unique_and_well_formed():
    assert len(IDS) == len(set(IDS))
    for i in IDS:
        assert ID_RE.match(i), i


@pytest.mark.parametrize("claim", CLAIMS, ids=IDS)
def test_claim_contract(claim):
    assert isinstance(claim.source, Source) and claim.source.seed.endswith(".txt") and claim.source.label
    assert claim.domain.hypotheses(), "a claim states its hypotheses"
    for stmt in claim.statements:
        assert checks_for(stmt), f"no check applies to {stmt.name!r}"
    assert claim.expected in VERDICTS
    if claim.expected == "violated":
        assert claim.reason
        assert registry.get(claim.id + "-corrected").expected != "violated", "a wrong claim has a correction"
    if claim.id.endswith("-corrected"):
        registry.get(claim.id[: -len("-corrected")])


@pytest.mark.skipif(not SEEDS.is_dir(), reason="shared/seeds not beside the repository")
@pytest.mark.parametrize("claim", CLAIMS, ids=IDS)
def test_source_label_is_printed_in_the_seed(claim):
    text = (SEEDS / claim.source.seed).read_text(errors="replace")
    refs = re.findall(r"(?:Theorem|Lemma|Algorithm|Appendix|Definition) [A-Z]?[\d.]*\d|[Ss]ection \d[\d.]*",
                      claim.source.label)
    assert refs, f"label {claim.source.label!r} names no theorem, lemma or section"
    for ref in refs:
        assert ref.split()[-1] in text and (ref.split()[0].lower() == "section" or ref in text), ref


@pytest.mark.parametrize("claim", CLAIMS, ids=IDS)
def test_verdict_equals_expected(claim):
    v = run(claim)
    assert v.verdict == v.expected, [(e.check, e.statement, e.verdict, e.detail) for e in v.evidence]
    if v.verdict == "violated":
        ce = v.counterexample
        assert ce is not None and "params" in ce and "seed" in ce
        claim.domain.validate(ce["params"]) if set(ce["params"]) == set(claim.domain.params) else None


@pytest.mark.parametrize("claim_id", [c.id for c in CLAIMS if c.expected == "violated"])
def test_counterexample_replays_with_at(claim_id):
    """The printed counterexample, pinned with `at`, is violated again (what --at does)."""
    v = dpverify.check(claim_id)
    ce = v.counterexample
    if set(ce["params"]) != set(registry.get(claim_id).domain.params):
        pytest.skip("counterexample is an instance, not a point of the domain")
    again = dpverify.check(claim_id, at=ce["params"])
    assert again.verdict == "violated"


def test_domain_errors_name_hypothesis_and_value():
    d = Domain(kappa=Real(ge=1))
    with pytest.raises(DomainError, match=r"kappa = 0.5 violates kappa >= 1"):
        d.validate({"kappa": 0.5})
    with pytest.raises(DomainError, match="missing parameter 'kappa'"):
        d.validate({})
    with pytest.raises(DomainError, match="unknown parameter 'nu'"):
        d.validate({"kappa": 2, "nu": 1})


def test_claim_rejects_violated_without_reason():
    x = sp.Symbol("x")
    with pytest.raises(ValueError, match="gives no reason"):
        Claim("p/thm-1", Source("s.txt", "Theorem 1"), Domain(x=Real()), (Identity("i", lhs=x, rhs=x),),
              expected="violated")
    with pytest.raises(ValueError, match="expected must be one of"):
        Claim("p/thm-1", Source("s.txt", "Theorem 1"), Domain(x=Real()), (Identity("i", lhs=x, rhs=x),),
              expected="true")


def test_check_rejects_bad_input():
    with pytest.raises(TypeError, match="claim must be"):
        dpverify.check(42)
    with pytest.raises(KeyError, match="unknown claim id"):
        dpverify.check("dni/thm-9.9")
    with pytest.raises(ValueError, match="runs must be"):
        dpverify.check("dni/eq-25", runs=0)
    with pytest.raises(ValueError, match="confidence must be"):
        dpverify.check("dni/eq-25", confidence=1.5)
    with pytest.raises(DomainError, match="kappa = 0.5 violates kappa >= 1"):
        dpverify.check("dni/thm-4.3", at={"kappa": 0.5, "alpha": 0.1, "alpha0": 1, "R": 1, "T": 3, "t": 1})


def test_verdict_renders_html():
    v = dpverify.check("dni/claim-zcdp-inversion", samples=20)
    html = v._repr_html_()
    assert "<table>" in html and "dni/claim-zcdp-inversion" in html and "violated" in html
    assert "dni/claim-zcdp-inversion" in str(v)
