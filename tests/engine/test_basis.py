"""What a check tested (Evidence.basis), the share of its points where a statement is not trivially
true (Evidence.coverage), the flags of a holds ("mostly vacuous", "algebra-only"), and what an
expected verdict accepts (holds accepts verified; verified demands a proof)."""
import dataclasses
import math
import textwrap
from pathlib import Path

import pytest
import sympy as sp

import dpverify
from dpverify import Basis, Claim, ClaimError, Domain, Inequality, Real, Source, SupBound, Verdict, registry
from dpverify.checks import Config
from dpverify.cli import main
from dpverify.measured import Measured
from dpverify.scenarios import PointScenario
from dpverify.search import derive_seed, sample_points
from dpverify.testing import failure
from dpverify.verdict import ALGEBRAIC, BASIS_KINDS, Evidence, as_expected

TEXTBOOK = str(Path(__file__).resolve().parents[1] / "textbook" / "claims.py")
a, x, y, z = sp.symbols("a x y z")
SRC = Source("any probability text", "Markov's inequality")
# e^-a <= 1/a is true, and a proof of it would not be a sampled holds: the domain proof (which proves it) is skipped
NO_PROOF = ("domainproof",)


def _markov(**kw):
    """Markov's inequality for X ~ Exp(1): P(X >= a) = e^-a <= E[X]/a = 1/a. A probability is at most 1,
    so it says nothing where 1/a >= 1, i.e. on a <= 1: most of the search box (0.01, 1.5), log-uniform."""
    st = Inequality("P(X >= a) <= E[X]/a, X ~ Exp(1)", lhs=sp.exp(-a), rhs=1 / a, skip=NO_PROOF, trivial=sp.Ge(1 / a, 1))
    return Claim(id="mine/markov-exp", source=SRC, domain=Domain(a=Real(gt=0, search=(0.01, 1.5), log=True)),
                 statements=(st,), **kw)


def _proved(**kw):
    return Claim(id="mine/sum-above", source=Source("any algebra text", "x <= x + y"),
                 domain=Domain(x=Real(gt=0), y=Real(gt=0)), statements=(Inequality("x <= x + y", lhs=x, rhs=x + y),),
                 **kw)


# --------------------------------------------------------------------------- coverage and "mostly vacuous"
def test_a_mostly_vacuous_holds_has_its_coverage_counted_on_the_searched_points_and_is_flagged():
    claim = _markov()
    stmt = claim.statements[0]
    v = dpverify.check(claim, seed=0)
    assert v.verdict == "holds"
    (ev,) = [e for e in v.evidence if e.check == "sampled"]
    # the points the sampled check drew (Config().samples of them; its local optimiser's come on top),
    # drawn again; the share with a > 1 counted in plain Python
    n = Config().samples
    pts = sample_points(claim.domain.strategy(), n, derive_seed(0, claim.id, stmt.name, "sampled"))
    assert len(pts) == n <= ev.samples
    share = sum(p["a"] > 1 for p in pts) / len(pts)
    assert 0 < share < 0.5
    assert ev.coverage == pytest.approx(share, abs=1e-12)
    assert v.coverage == pytest.approx(share, abs=1e-12)
    assert "mostly vacuous" in v.flags and "mostly vacuous" in v.to_json()["flags"]
    assert v.ok  # a flag, not a verdict change


def test_coverage_is_none_without_trivial_and_high_coverage_is_not_flagged():
    no_decl = dataclasses.replace(_markov(), statements=(Inequality("e^-a <= 1/a", lhs=sp.exp(-a), rhs=1 / a, skip=NO_PROOF),))
    v = dpverify.check(no_decl, samples=30)
    assert v.coverage is None and all(e.coverage is None for e in v.evidence) and v.flags == []
    # on a >= 1 the bound 1/a is at most 1: no point is trivially true
    wide = dataclasses.replace(_markov(), domain=Domain(a=Real(ge=1, search=(1.0, 50.0), log=True)))
    v = dpverify.check(wide, samples=30)
    assert v.verdict == "holds" and v.coverage is not None
    pts = sample_points(wide.domain.strategy(), 30, derive_seed(0, wide.id, wide.statements[0].name, "sampled"))
    assert v.coverage == pytest.approx(sum(not (1 / p["a"] >= 1) for p in pts) / len(pts))
    assert "mostly vacuous" not in v.flags


def test_coverage_at_a_pinned_point_is_one_or_zero():
    assert dpverify.check(_markov(), at={"a": 0.5}).coverage == 0.0
    assert dpverify.check(_markov(), at={"a": 1.25}).coverage == 1.0


@pytest.mark.parametrize("bad, words", [
    (sp.Integer(2), "trivial must be a SymPy relation"),
    (1 / a, "trivial must be a SymPy relation"),
    (True, "trivial must be a SymPy relation"),
    (sp.Eq(a, 1), "trivial must be a SymPy relation"),
])
def test_a_trivial_that_is_not_a_relation_is_refused(bad, words):
    with pytest.raises(ClaimError, match=words):
        Inequality("e^-a <= 1/a", lhs=sp.exp(-a), rhs=1 / a, skip=NO_PROOF, trivial=bad)


def test_a_trivial_in_unknown_symbols_is_refused_naming_them():
    st = Inequality("e^-a <= 1/a", lhs=sp.exp(-a), rhs=1 / a, skip=NO_PROOF, trivial=sp.And(sp.Ge(1 / a, 1), sp.Gt(z, 0)))
    with pytest.raises(ValueError, match=r"trivial.*symbol\(s\) z"):
        dataclasses.replace(_markov(), statements=(st,))


# --------------------------------------------------------------------------- basis per check
def test_a_sympy_proof_has_basis_proof_and_the_claim_rests_on_it():
    v = dpverify.check(_proved(), samples=20)
    assert v.verdict == "verified"
    kinds = {e.check: e.basis.kind for e in v.evidence}
    assert kinds == {"symbolic": "proof", "sampled": "algebra", "scaling": "scaling"}
    assert v.basis == ["proof"] and v.flags == []


def test_an_expectation_bound_rests_on_exact_expectations_and_monte_carlo_of_its_algorithm():
    claim = registry.get("textbook/thm-gd-pl", [TEXTBOOK])
    v = dpverify.check(claim, samples=20, runs=2000)
    assert v.verdict == "holds"
    by = {e.check: e.basis for e in v.evidence}
    assert by["exact"].kind == "exact-expectation" and by["monte_carlo"].kind == "monte-carlo"
    sc = claim.statements[0].scenario
    assert sc.algorithm and sc.algorithm in by["exact"].on and sc.algorithm in by["monte_carlo"].on
    # its strongest support: the proof of the bound on the class's quadratics (a "holds": the class is wider)
    assert by["quadratics"].kind == "proof-on-quadratics" and v.basis == ["proof-on-quadratics"]
    # about an algorithm, but it rests on the algorithm: not algebra-only
    assert dpverify.check(dataclasses.replace(claim, about="algorithm"), samples=20, runs=2000).flags == []


def test_a_privacy_bound_rests_on_the_direction_of_its_measurement():
    v = dpverify.check(registry.get("textbook/claim-gaussian-calibration", [TEXTBOOK]), samples=20)
    ev, proof = v.evidence
    assert ev.data["measurement"]["kind"] == "exact" and ev.basis.kind == "privacy-exact" and ev.verdict == "holds"
    # the exact profile is then proved on the search box (checks/privacyproof.py), which the verdict rests on
    assert proof.check == "privacy-proof" and proof.basis.kind == "privacy-proof-on-box"
    assert v.verdict == "verified" and v.basis == ["privacy-proof-on-box"] and v.scope.startswith("box: ")
    # an accountant's upper bound is what a holds then rests on
    eps = sp.Symbol("epsilon")
    upper = Claim(id="mine/upper", source=SRC, domain=Domain(epsilon=Real(gt=0, search=(0.1, 10.0), log=True)),
                  statements=(SupBound("an accountant's delta", bound=sp.Integer(1), kind="privacy",
                                       scenario=PointScenario(lambda p: Measured.upper_bound(0.5 / p["epsilon"] ** 2
                                                                                             if p["epsilon"] > 1
                                                                                             else 0.5),
                                                              "a made-up accountant", optimise=0)),))
    v = dpverify.check(upper, samples=20)
    assert v.verdict == "holds" and v.evidence[0].basis == Basis("privacy-upper", "a made-up accountant")


def test_every_check_sets_a_basis_from_the_vocabulary():
    for cid in ("claim-zcdp-to-dp", "thm-gd-pl"):
        v = dpverify.check(registry.get(f"textbook/{cid}", [TEXTBOOK]), samples=20, runs=2000)
        assert all(e.basis is not None and e.basis.kind in BASIS_KINDS for e in v.evidence), v.evidence
    with pytest.raises(ValueError, match="Basis.kind"):
        Basis("hunch")


# --------------------------------------------------------------------------- "algebra-only"
def test_a_claim_about_an_algorithm_resting_on_algebra_is_flagged_algebra_only():
    v = dpverify.check(_markov(about="algorithm"), samples=30)
    assert v.verdict == "holds" and set(v.basis) <= ALGEBRAIC
    assert "algebra-only" in v.flags and "algebra-only" in v.to_json()["flags"]
    assert "algebra-only" not in dpverify.check(_markov(), samples=30).flags
    with pytest.raises(ClaimError, match="about"):
        _markov(about="algorithms")


def test_flags_qualify_holds_only():
    ev = Evidence("sampled", "s", "violated", coverage=0.1, basis=Basis("algebra"))
    v = Verdict(id="mine/x", label="x", verdict="violated", expected="violated", evidence=[ev], about="algorithm")
    assert v.flags == [] and v.basis == ["algebra"]


# --------------------------------------------------------------------------- expected verdicts
def test_expected_holds_accepts_a_proof_and_expected_verified_demands_one():
    assert as_expected("verified", "holds") and as_expected("holds", "holds")
    assert not as_expected("holds", "verified") and not as_expected("verified", "violated")
    proved = _proved()
    assert proved.expected == "holds"
    v = dpverify.check(proved, samples=20)
    assert v.verdict == "verified" and v.ok and v.to_json()["ok"] is True
    assert failure(proved) is None
    only_holds = _markov(expected="verified")
    v = dpverify.check(only_holds, samples=20)
    assert v.verdict == "holds" and not v.ok
    assert "expected 'verified'" in failure(only_holds)


def test_the_exit_status_follows_the_expected_semantics(tmp_path, capsys):
    path = tmp_path / "mine.py"
    path.write_text(textwrap.dedent('''
        import sympy as sp
        from dpverify import Claim, Domain, Inequality, Real, Source
        x, y, a = sp.symbols("x y a")
        CLAIMS = [
            Claim(id="mine/proved", source=Source("notes", "1"), domain=Domain(x=Real(gt=0), y=Real(gt=0)),
                  statements=(Inequality("x <= x + y", lhs=x, rhs=x + y),)),
            Claim(id="mine/unproved", source=Source("notes", "2"),
                  domain=Domain(a=Real(gt=0, search=(0.01, 1.5), log=True)),
                  statements=(Inequality("e^-a <= 1/a", lhs=sp.exp(-a), rhs=1 / a, skip=("domainproof",)),), expected="verified"),
        ]
    '''))
    assert main(["check", "mine/proved", "--module", str(path), "--no-progress", "--samples", "20"]) == 0
    out = capsys.readouterr().out
    assert "verified" in out and "differs" not in out
    assert main(["check", "mine/unproved", "--module", str(path), "--no-progress", "--samples", "20"]) == 1
    assert "<-- differs" in capsys.readouterr().out


# --------------------------------------------------------------------------- JSON
def test_json_round_trip_keeps_basis_coverage_and_about():
    v = dpverify.check(_markov(about="algorithm"), samples=30)
    d = v.to_json()
    assert d["about"] == "algorithm" and d["basis"] == v.basis and d["flags"] == v.flags
    w = Verdict.from_json(d)
    assert [e.basis for e in w.evidence] == [e.basis for e in v.evidence]
    assert all((e.coverage is None) == (f.coverage is None) for e, f in zip(w.evidence, v.evidence))
    assert all(math.isclose(e.coverage, f.coverage, rel_tol=1e-9)
               for e, f in zip(w.evidence, v.evidence) if e.coverage is not None)
    assert (w.basis, w.flags, w.about) == (v.basis, v.flags, "algorithm")
    assert w.to_json() == d


def test_json_without_the_new_fields_still_loads():
    old = {"id": "mine/old", "label": "old", "verdict": "holds", "expected": "holds",
           "evidence": [{"kind": "sampled", "statement": "s", "verdict": "holds"}]}
    v = Verdict.from_json(old)
    assert v.evidence[0].basis is None and v.evidence[0].coverage is None and v.about is None
    assert v.basis == [] and v.coverage is None and v.flags == [] and v.ok


def test_an_algebra_only_holds_says_why_the_algorithm_is_not_run():
    import sympy as sp
    import pytest as _pytest
    from dpverify import Claim, ClaimError, Domain, Inequality, Real, Source, check
    from dpverify.tables import table
    from dpverify.verdict import Verdict

    x = sp.Symbol("x")
    why = "an O-rate as n -> inf; the finite-n run is another claim's"
    c = Claim(id="mine/claim-why", source=Source("notes", "1"), domain=Domain(x=Real(gt=0, search=(0.1, 10))),
              about="algorithm", algebra_why=why,
              statements=(Inequality("x/(1+x) <= 1", lhs=x / (1 + x), rhs=1, skip=("symbolic", "domainproof")),))
    v = check(c, samples=20)
    assert v.verdict == "holds" and "algebra-only" in v.flags and why in table([v])
    assert Verdict.from_json(v.to_json()).algebra_why == why
    with _pytest.raises(ClaimError, match="algebra_why"):
        Claim(id="mine/claim-why-math", source=Source("notes", "1"), domain=Domain(x=Real(gt=0)), about="math",
              algebra_why=why, statements=(Inequality("x <= x + 1", lhs=x, rhs=x + 1),))


def test_a_proof_of_the_formula_is_not_a_proof_about_the_algorithm():
    """A claim about an algorithm whose every statement is proved from the printed algebra is at most
    ``holds`` [algebra-only]: the proof covers the formula, not what the algorithm attains. The same
    claim about mathematics is ``verified``."""
    import sympy as sp
    from dpverify import Claim, Domain, Inequality, Real, Source, check

    x = sp.Symbol("x")
    c = Claim(id="mine/formula-proved", source=Source("notes", "1"), domain=Domain(x=Real(gt=0, search=(0.1, 10))),
              statements=(Inequality("x/(1+x) <= 1", lhs=x / (1 + x), rhs=1),))
    assert check(c, samples=20).verdict == "verified"
    alg = dataclasses.replace(c, about="algorithm", algebra_why="the rate of a run no finite run decides")
    v = check(alg, samples=20)
    assert v.verdict == "holds" and "algebra-only" in v.flags
    assert any(e.verdict == "verified" for e in v.evidence)     # the proof is kept as evidence
