"""Contract over every registered claim (as Hypothesis does over its strategies), and the rules a
claim is built by."""
import re
from pathlib import Path

import pytest

import dpverify
from dpverify import registry, report
from dpverify.checks import checks_for
from dpverify.claims import VERDICTS, Source
from dpverify.testing import claim_tests, verdict_of

CLAIMS = registry.all_claims()
IDS = [c.id for c in CLAIMS]
REPO = Path(__file__).resolve().parents[2]
SEEDS = REPO.parent / "shared" / "seeds"
ID_RE = re.compile(r"^[a-z]+/(thm|lemma|prop|eq|claim|alg|fig|table|remark|sec|footnote)-[a-z0-9.\-]+$")


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
        assert _correction(claim.id) is not None, "a wrong claim has a correction"
    base = re.sub(r"-corrected(-\d+)?$", "", claim.id)
    if base != claim.id:
        registry.get(base)


def _correction(claim_id: str):
    """The claim that corrects ``claim_id``: the first of ``<base>-corrected``, ``<base>-corrected-2``, ...
    after it that is not violated (a correction found wrong in its turn keeps its id, ``expected="violated"``,
    and the next one corrects it)."""
    base = re.sub(r"-corrected(-\d+)?$", "", claim_id)
    chain = [base, base + "-corrected"] + [f"{base}-corrected-{k}" for k in range(2, 10)]
    for cid in chain[chain.index(claim_id) + 1:]:
        if cid in IDS and registry.get(cid).expected != "violated":
            return cid
    return None


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


def test_errata_page_table_is_the_generated_one():
    """docs/errata.md holds the errata table between its markers, equal to what the claims generate."""
    text = (REPO / "docs" / "errata.md").read_text()
    assert report.ERRATA_BEGIN in text and report.ERRATA_END in text
    inside = text.split(report.ERRATA_BEGIN, 1)[1].split(report.ERRATA_END, 1)[0].strip("\n")
    assert inside == report.errata_markdown(CLAIMS).strip("\n"), \
        "docs/errata.md differs from the claims; regenerate: dpverify report --errata --format md --update docs/errata.md"


def test_readme_papers_table_counts_the_registry():
    """The README's table of papers: each paper's number of claims and of printed errors (claims expected
    violated) is the registry's, and the README links the full errata."""
    text = (REPO / "README.md").read_text()
    rows = re.findall(r"^\| `(\w+)` \|[^|\n]*\| (\d+) \| (\d+) \|", text, flags=re.M)
    papers = sorted({c.id.split("/")[0] for c in CLAIMS})
    assert sorted(r[0] for r in rows) == papers, rows
    for key, n_claims, n_errors in rows:
        mine = [c for c in CLAIMS if c.id.split("/")[0] == key]
        assert (int(n_claims), int(n_errors)) == (len(mine), sum(c.expected == "violated" for c in mine)), key
    assert report.ERRATA_BEGIN not in text, "the full errata table lives in docs/errata.md, not in the README"
    assert "(docs/errata.md)" in text
