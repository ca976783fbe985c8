"""The hostile battery of the analytic checks (tests/textbook/hostile_analytic.py): every claim at
seeds 0-9 must get its expected verdict, which is the mathematical truth (a true statement is never
``violated`` because of rounding, a false one never ``holds`` because of an absolute floor or a
precision too low for the point's scale). Also: the worst violation is reported beside the
simplest counterexample and replays; a counterexample to a proof is a bug of ours, not a finding."""
from __future__ import annotations

from pathlib import Path

import pytest

import dpverify
from dpverify import registry
from dpverify.verdict import Evidence, statement_verdict

HOSTILE = Path(__file__).resolve().parent / "hostile_analytic.py"
CLAIMS = list(registry.load_module(str(HOSTILE)).CLAIMS)
SEEDS = range(10)


def _claim(cid):
    return next(c for c in CLAIMS if c.id == f"textbook/hostile-{cid}")


def _sampled(v):
    return next(e for e in v.evidence if e.check == "sampled")


@pytest.mark.parametrize("claim", CLAIMS, ids=[c.id for c in CLAIMS])
def test_hostile_claim_gets_its_expected_verdict_at_every_seed(claim):
    wrong = {}
    for seed in SEEDS:
        v = dpverify.check(claim, seed=seed)
        if v.verdict != claim.expected:
            wrong[seed] = (v.verdict, [(e.check, e.verdict, e.detail[:160], e.counterexample) for e in v.evidence])
    assert not wrong, wrong


def test_battery_has_a_true_and_a_false_twin_of_each_case():
    expected = [c.expected for c in CLAIMS]
    assert expected.count("violated") >= 7 and expected.count("holds") + expected.count("verified") >= 9
    assert all(c.reason and c.witness for c in CLAIMS if c.expected == "violated")


@pytest.mark.parametrize("cid", ["exp-below-one", "log-below-x", "sin-below-x", "reciprocal-below-one"])
def test_strict_inequality_holds_at_the_smallest_denormal(cid):
    v = dpverify.check(_claim(cid), at={"x": 5e-324})
    e = _sampled(v)
    assert e.verdict == "holds" and e.min_margin > 0, (e.detail, e.min_margin)


@pytest.mark.parametrize("cid", ["exp-above-half-chord-tiny", "exp-below-one-at-zero", "bernoulli-half-tiny",
                                 "twice-exp-below-exp", "exp-below-taylor-5", "sine-below-decaying-parabola"])
def test_planted_witness_replays_as_a_violation(cid):
    claim = _claim(cid)
    assert _sampled(dpverify.check(claim, at=claim.witness)).verdict == "violated"


def test_bernoulli_at_a_point_where_one_plus_x_rounds_to_one_at_100_digits():
    v = dpverify.check(_claim("bernoulli"), at={"x": 1.7e-118, "N": 7})
    assert _sampled(v).verdict == "holds"
    v = dpverify.check(_claim("bernoulli-reversed"), at={"x": 1.7e-118, "N": 7})
    assert _sampled(v).verdict == "violated"  # the excess is 3 x N (N - 1) relative: 1e-117, at its own scale


@pytest.mark.parametrize("cid", ["exp-below-taylor-5", "sine-below-decaying-parabola"])
def test_worst_violation_is_reported_beside_the_simplest_and_replays(cid):
    claim = _claim(cid)
    for seed in (0, 1):
        e = _sampled(dpverify.check(claim, seed=seed))
        worst = e.data["worst"]
        assert worst["margin"] <= -0.5, worst  # far larger than the marginal violation near the shrunk point
        assert worst["seed"] == seed
        replay = dpverify.check(claim, at=worst["params"])
        assert _sampled(replay).verdict == "violated"
        replay = dpverify.check(claim, at=e.counterexample["params"])
        assert _sampled(replay).verdict == "violated"


def test_a_shrunk_point_that_does_not_confirm_falls_back_to_the_worst_point():
    """At x = 1 double precision finds sin(pi)^2 = 1.5e-32 > 0 = the bound; Hypothesis shrinks to it;
    in mpmath both sides are 0 there, so the counterexample is the worst point found instead."""
    claim = _claim("sine-below-decaying-parabola")
    assert _sampled(dpverify.check(claim, at={"x": 1.0})).verdict == "holds"
    e = _sampled(dpverify.check(claim, seed=0))
    assert e.verdict == "violated" and e.counterexample["params"] != {"x": 1.0}
    assert e.counterexample["params"] == e.data["worst"]["params"]


def test_a_counterexample_to_a_proof_is_a_bug_of_ours_not_a_violation():
    proof = Evidence("symbolic", "s", "verified", detail="SymPy proved rhs - lhs > 0")
    numeric = Evidence("sampled", "s", "violated", counterexample={"params": {"x": 5e-324}, "seed": 0},
                       detail="counterexample found by hypothesis")
    assert statement_verdict([proof, numeric]) == "inconclusive"
    assert numeric.verdict == "inconclusive" and numeric.counterexample is None
    assert numeric.detail.startswith("SymPy proved rhs - lhs > 0 but a numeric point disagrees: bug in dpverify")
    assert numeric.data["disputed_counterexample"] == {"params": {"x": 5e-324}, "seed": 0}
    assert statement_verdict([proof, numeric]) == "inconclusive"  # the verdict does not depend on re-reading
    assert statement_verdict([Evidence("sampled", "s", "violated")]) == "violated"
    assert statement_verdict([proof, Evidence("sampled", "s", "holds")]) == "verified"
