"""A claim checked together with the claims it builds on (``Claim.builds_on``, ``checks.chain``)."""
from __future__ import annotations

import pytest
import sympy as sp

import dpverify
from dpverify import Claim, ClaimError, Domain, Inequality, Real, Source
from dpverify.checks import Config, run
from dpverify.registry import load_module
from dpverify.claims import Relation

x, c, m = sp.symbols("x c m")
_SRC = Source("chain test notes", "Lemma")
_TRUE = (Inequality("x <= x + 1", lhs=x, rhs=x + 1),)


def _claim(cid, domain, builds_on=()):
    return Claim(id=cid, source=_SRC, domain=domain, statements=_TRUE, builds_on=builds_on)


def _resolved(*claims):
    pool = {k.id: k for k in claims}
    for k in claims:
        k.resolve(pool)
    return claims


BASE = dict(x=Real(gt=0, search=(0.1, 10.0)), m=Real(gt=0, search=(0.1, 10.0), log=True))


def test_disjoint_intervals_are_violated_naming_both_claims():
    small = _claim("mine/lemma-1-corrected", Domain(**BASE, c=Real(gt=0, lt=0.25)))
    large = _claim("mine/thm-2-corrected", Domain(**BASE, c=Real(ge=0.5, lt=2)), ("mine/lemma-1-corrected",))
    _resolved(small, large)
    v = run(large, Config(seed=0))
    chain = [e for e in v.evidence if e.check == "chain"]
    assert v.verdict == "violated" and len(chain) == 1 and chain[0].basis.kind == "chain"
    assert "mine/lemma-1-corrected needs c < 0.25" in chain[0].detail
    assert "mine/thm-2-corrected needs c >= 0.5" in chain[0].detail
    ce = chain[0].counterexample
    assert ce is not None and ce["params"]["c"] >= 0.5
    assert run(large, Config(seed=0, at=ce["params"])).verdict == "violated"


def test_relations_that_cannot_meet_are_violated():
    """Intervals meet (0 < c < 2 and 0 < c < 1/4), the relations do not: m <= c m' forces c >= 1/2."""
    n = sp.Symbol("n")
    small = _claim("mine/lemma-1-corrected", Domain(**BASE, c=Real(gt=0, lt=0.25)))
    large = _claim("mine/thm-2-corrected",
                   Domain(Relation(sp.Le(n, 2 * c * m), "n <= 2 c m"), Relation(sp.Le(m, n), "m <= n"),
                          **BASE, n=Real(gt=0, search=(0.1, 10.0)), c=Real(gt=0, lt=2)),
                   ("mine/lemma-1-corrected",))
    _resolved(small, large)
    for seed in range(3):
        v = run(large, Config(seed=seed))
        assert v.verdict == "violated", v.evidence[-1].detail
        assert "mine/thm-2-corrected needs c >= 0.5" in v.evidence[-1].detail
        assert "mine/lemma-1-corrected needs c <= 0.2" in v.evidence[-1].detail


def test_consistent_chain_holds_with_a_common_point():
    first = _claim("mine/lemma-1-corrected", Domain(**BASE, c=Real(gt=0, lt=1)))
    second = _claim("mine/thm-2-corrected", Domain(Relation(sp.Le(m, 4 * c), "m <= 4 c"), **BASE, c=Real(gt=0.5, lt=2)),
                    ("mine/lemma-1-corrected",))
    _resolved(first, second)
    v = run(second, Config(seed=0))
    chain = v.evidence[-1]
    assert v.verdict == "holds" and chain.check == "chain" and chain.verdict == "holds"
    assert 0.5 < chain.point["c"] < 1 and chain.point["m"] <= 4 * chain.point["c"]


def test_an_unknown_id_is_refused_when_the_claims_are_loaded(tmp_path):
    path = tmp_path / "chain_claims.py"
    path.write_text(
        "import sympy as sp\n"
        "from dpverify import Claim, Domain, Inequality, Real, Source\n"
        "x = sp.Symbol('x')\n"
        "CLAIMS = (Claim(id='mine/thm-1-corrected', source=Source('notes', 'Theorem 1'),\n"
        "                domain=Domain(x=Real(gt=0)), statements=(Inequality('x <= x + 1', lhs=x, rhs=x + 1),),\n"
        "                builds_on=('mine/lemma-9-corrected',)),)\n")
    with pytest.raises(ClaimError, match=r"mine/thm-1-corrected.*builds_on.*unknown claim id 'mine/lemma-9-corrected'"):
        load_module(str(path))


def test_builds_on_is_validated_and_an_unresolved_chain_is_refused():
    with pytest.raises(ClaimError, match="not a claim id"):
        _claim("mine/thm-1", Domain(**BASE), ("Thm 2",))
    with pytest.raises(ClaimError, match="cannot build on itself"):
        _claim("mine/thm-1", Domain(**BASE), ("mine/thm-1",))
    lone = _claim("mine/thm-1", Domain(**BASE), ("mine/lemma-1",))
    with pytest.raises(ClaimError, match="mine/lemma-1.*not resolved"):
        run(lone, Config(seed=0))
    with pytest.raises(ClaimError, match="unknown claim id 'mine/lemma-1'"):
        dpverify.check(lone)


def test_corrected_keeps_builds_on_and_is_resolved_afresh():
    base = _claim("mine/lemma-1", Domain(**BASE, c=Real(gt=0, lt=1)))
    top = _claim("mine/thm-2", Domain(**BASE, c=Real(gt=0, lt=1)), ("mine/lemma-1",))
    _resolved(base, top)
    fixed = top.corrected(summary="the same")
    assert fixed.builds_on == ("mine/lemma-1",) and not fixed.resolved and top.resolved
