"""Contract over every registered claim (as Hypothesis does over its strategies), and the rules a
claim is built by."""
import re
from pathlib import Path

import pytest
import sympy as sp

import dpverify
from dpverify import registry, report
from dpverify.checks import checks_for
from dpverify.scenarios import noisy_gd
from dpverify.spec import (VERDICTS, Claim, ClaimError, Domain, DomainError, ExpectationBound, Identity,
                           Inequality, Real, Relation, Source)
from dpverify.testing import claim_tests, verdict_of

CLAIMS = registry.all_claims()
IDS = [c.id for c in CLAIMS]
REPO = Path(__file__).resolve().parents[1]
SEEDS = REPO.parent / "shared" / "seeds"
ID_RE = re.compile(r"^[a-z]+/(thm|lemma|prop|eq|claim|fig|table|remark)-[a-z0-9.\-]+$")


def test_every_paper_registers_through_the_entry_point_group():
    assert "dni" in registry.papers()
    for key in registry.papers():
        mod = registry.paper_module(key)
        assert mod.CLAIMS and all(c.paper == key for c in mod.CLAIMS)


def test_ids_are_unique_and_well_formed():
    assert len(IDS) == len(set(IDS))
    for i in IDS:
        assert ID_RE.match(i), i


@pytest.mark.parametrize("claim", CLAIMS, ids=IDS)
def test_claim_contract(claim):
    assert isinstance(claim.source, Source) and claim.source.document.endswith(".txt") and claim.source.label
    assert claim.domain.hypotheses(), "a claim states its hypotheses"
    for stmt in claim.statements:
        assert checks_for(stmt), f"no check applies to {stmt.name!r}"
    assert claim.expected in VERDICTS
    if claim.expected == "violated":
        assert claim.reason
        assert claim.witness is not None, "a wrong claim carries the point that replays it (witness)"
        assert registry.get(claim.id + "-corrected").expected != "violated", "a wrong claim has a correction"
    if claim.id.endswith("-corrected"):
        registry.get(claim.id[: -len("-corrected")])


@pytest.mark.skipif(not SEEDS.is_dir(), reason="shared/seeds not beside the repository")
@pytest.mark.parametrize("claim", CLAIMS, ids=IDS)
def test_source_label_is_printed_in_the_seed(claim):
    text = (SEEDS / claim.source.document).read_text(errors="replace")
    refs = re.findall(r"(?:Theorem|Lemma|Algorithm|Appendix|Definition|Proposition) [A-Z]?[\d.]*\d|[Ss]ection \d[\d.]*",
                      claim.source.label)
    assert refs, f"label {claim.source.label!r} names no theorem, lemma or section"
    for ref in refs:
        assert ref.split()[-1] in text and (ref.split()[0].lower() == "section" or ref in text), ref


# One test per claim through the same helper users get (dpverify.testing / the pytest plugin): the
# verdict equals `expected`, and a wrong claim's witness replays as violated.
test_verdict_equals_expected = claim_tests(CLAIMS)


@pytest.mark.parametrize("claim", [c for c in CLAIMS if c.expected == "violated"],
                         ids=[c.id for c in CLAIMS if c.expected == "violated"])
def test_found_counterexample_replays_with_at(claim):
    """The counterexample the search found, pinned with `at`, is violated again (what --at does)."""
    v = verdict_of(claim)
    ce = v.counterexample
    assert ce is not None and "params" in ce and "seed" in ce
    claim.domain.validate(ce["params"])
    assert dpverify.check(claim, at=ce["params"]).verdict == "violated"


def test_readme_errata_table_is_the_generated_one():
    text = (REPO / "README.md").read_text()
    assert report.ERRATA_BEGIN in text and report.ERRATA_END in text
    inside = text.split(report.ERRATA_BEGIN, 1)[1].split(report.ERRATA_END, 1)[0].strip("\n")
    assert inside == report.errata_markdown(CLAIMS).strip("\n"), \
        "README errata differ from `dpverify report --errata --format md`; regenerate them"


# ------------------------------------------------------------------------------- building a claim
x, y = sp.symbols("x y")
SRC = Source("a textbook", "Lemma 1")


def test_domain_errors_name_hypothesis_and_value():
    d = Domain(kappa=Real(ge=1))
    with pytest.raises(DomainError, match=r"kappa = 0.5 violates kappa >= 1"):
        d.validate({"kappa": 0.5})
    with pytest.raises(DomainError, match="missing parameter 'kappa'"):
        d.validate({})
    with pytest.raises(DomainError, match="unknown parameter 'nu'"):
        d.validate({"kappa": 2, "nu": 1})


def test_claim_fields_are_keyword_only():
    with pytest.raises(TypeError):
        Claim("p/thm-1", SRC, Domain(x=Real()), (Identity("i", lhs=x, rhs=x),))  # type: ignore[misc]


@pytest.mark.parametrize("kwargs, message", [
    (dict(expected="violated"), "gives no reason"),
    (dict(expected="true"), "expected: must be one of"),
    (dict(id="Thm 1"), "claim id must look like"),
    (dict(statements=()), "statements: must be a non-empty tuple"),
    (dict(statements=(Inequality("uses y", lhs=x, rhs=y),)),
     r"claim 'p/thm-1': statement 'uses y': rhs: symbol\(s\) y are neither domain parameters"),
    (dict(witness={"x": -1.0}, expected="violated", reason="r"), "witness: x = -1 violates x > 0"),
    (dict(source="a book"), "source: must be a Source"),
    (dict(definitions={x: y}), "x is both a domain parameter and a definition"),
])
def test_claim_validation_names_claim_field_and_value(kwargs, message):
    base = dict(id="p/thm-1", source=SRC, domain=Domain(x=Real(gt=0)), statements=(Identity("i", lhs=x, rhs=x),))
    with pytest.raises(ClaimError, match=message):
        Claim(**{**base, **kwargs})


def test_statement_rejects_a_relation_as_a_side():
    with pytest.raises(ClaimError, match="lhs is a relation"):
        Inequality("oops", lhs=x <= y, rhs=sp.Integer(0))
    with pytest.raises(ClaimError, match="rhs is missing"):
        Identity("half", lhs=x)


def test_relations_must_use_domain_parameters():
    with pytest.raises(ClaimError, match="uses z, which is not a parameter"):
        Domain(Relation(sp.Lt(x, sp.Symbol("z"))), x=Real())


def test_scenario_parameters_must_be_claim_symbols():
    M, s = sp.symbols("M s")
    sc = noisy_gd(problem="pl", smooth=M, curvature=M / 2, step=1 / M, noise_std=s, dim=1, horizon=3, init_gap=1)
    with pytest.raises(ClaimError, match=r"noise_std = s uses s, which are not parameters"):
        Claim(id="p/thm-1", source=SRC, domain=Domain(M=Real(gt=0)),
              statements=(ExpectationBound("b", bound=M, scenario=sc),))
    with pytest.raises(TypeError, match=r"missing parameter\(s\) step, noise_std, dim, horizon"):
        noisy_gd(smooth=M, curvature=M)
    with pytest.raises(TypeError, match="unknown parameter"):
        noisy_gd(smooth=M, curvature=M, step=1, noise_std=s, dim=1, horizon=3, init_gap=1, lr=1)


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
