"""checks/existsproof.py: an existential inequality over a Real parameter fails at a point only when interval
arithmetic proves that no value in the parameter's whole domain works there; the sampled check calls it
``violated`` only then."""
from __future__ import annotations

from fractions import Fraction

import sympy as sp
from sympy.utilities.lambdify import implemented_function

from dpverify import Claim, Domain, Inequality, Real, Relation, Source
from dpverify.checks.base import Config
from dpverify.checks.existsproof import check_sampled, prove_no_value

x, t, c = sp.symbols("x t c")
CFG = Config()


def _claim(stmt, *relations, **params):
    return Claim(id="mine/exists", source=Source("notes", "Lemma 1"), domain=Domain(*relations, **params),
                 statements=(stmt,))


def _scale(factor):
    """Some t > 0 has x t + 1/t <= factor sqrt(x); t's search box [1, 10] holds no minimiser 1/sqrt(x) <= 1/4."""
    return _claim(Inequality("some t", lhs=x * t + 1 / t, rhs=factor * sp.sqrt(x), exists=("t",)),
                  x=Real(ge=16, le=100, search=(16, 100)), t=Real(gt=0, search=(1.0, 10.0), log=True))


def test_no_value_on_an_unbounded_domain_is_proved_with_both_tails():
    claim = _scale(1)    # min over t of x t + 1/t is 2 sqrt(x) > sqrt(x)
    out = prove_no_value(claim.statements[0], claim, {"x": 16.0, "t": 3.0}, CFG)
    assert out.proved, out.describe()
    rec = out.record()
    assert rec["outer"] == {"x": "16/1"} and rec["domain"] == "(0, inf)" and rec["boxes"] == out.boxes > 0
    tails = [p["tail"] for p in rec["pieces"] if "tail" in p]
    assert ["10", "inf"] in tails and any(end == "0" for _, end in tails)
    assert "no value of t in (0, inf) satisfies it at this point: proved by interval arithmetic over" in out.describe()


def test_a_value_outside_the_search_box_is_found_not_refuted():
    claim = _scale(3)    # t = 1/sqrt(x) works, below the box
    out = prove_no_value(claim.statements[0], claim, {"x": 16.0}, CFG)
    assert out.status == "witness" and not out.proved
    lo, hi = out.witness["t"]
    assert hi < 1 and 16 * hi + 1 / hi <= 12 and 16 * lo + 1 / lo <= 12


def test_a_bounded_domain_is_covered_to_its_closed_ends():
    # p (1 - p) <= 1/4 on [0, 1]: no p reaches 0.3; p = 1/2 reaches 0.2. The search box [0.4, 0.6] is widened.
    p = sp.Symbol("p")
    claim = _claim(Inequality("some p", lhs=x, rhs=p * (1 - p), exists=("p",)),
                   x=Real(ge=0, le=1), p=Real(ge=0, le=1, search=(0.4, 0.6)))
    out = prove_no_value(claim.statements[0], claim, {"x": 0.3}, CFG)
    assert out.proved and out.domain == "[0, 1]"
    assert [tuple(q["interval"]) for q in out.pieces] == [("2/5", "3/5"), ("0", "2/5"), ("3/5", "1")]
    assert prove_no_value(claim.statements[0], claim, {"x": 0.2}, CFG).status == "witness"


def test_a_tie_at_the_end_is_proved_only_for_a_strict_inequality():
    strict = _claim(Inequality("some c", lhs=c, rhs=0, strict=True, exists=("c",)), c=Real(ge=0, le=1), x=Real())
    assert prove_no_value(strict.statements[0], strict, {}, CFG).proved      # c < 0 fails on all of [0, 1]
    loose = _claim(Inequality("some c", lhs=c, rhs=0, exists=("c",)), c=Real(ge=0, le=1), x=Real())
    out = prove_no_value(loose.statements[0], loose, {}, Config(box_budget=300))
    assert not out.proved                                                    # c <= 0 holds at c = 0


def test_relations_discard_the_values_outside_the_hypotheses():
    # some c in [0, 10] with c <= x... but the hypothesis c >= 2 x excludes every such c at x = 1
    claim = _claim(Inequality("some c", lhs=c, rhs=x, exists=("c",)), Relation(sp.Ge(c, 2 * x), "c >= 2x"),
                   x=Real(gt=0, search=(0.5, 2)), c=Real(ge=0, le=10))
    out = prove_no_value(claim.statements[0], claim, {"x": 1.0}, CFG)
    assert out.proved, out.describe()
    free = _claim(Inequality("some c", lhs=c, rhs=x, exists=("c",)), x=Real(gt=0, search=(0.5, 2)),
                  c=Real(ge=0, le=10))
    assert prove_no_value(free.statements[0], free, {"x": 1.0}, CFG).status == "witness"


def test_an_undecidable_tail_gives_up_with_the_reason():
    # 2 <= sin(c) for no c, but the tail's terms have no sign: the method is incomplete, never wrong
    claim = _claim(Inequality("some c", lhs=2 + x, rhs=sp.sin(c), exists=("c",)), x=Real(ge=0, le=1),
                   c=Real(gt=0, search=(1, 3)))
    out = prove_no_value(claim.statements[0], claim, {"x": 0.0}, CFG)
    assert out.status == "gave-up" and "could not be bounded after 8 slabs" in out.why


def test_a_function_computed_in_python_is_out_of_reach():
    f = implemented_function("f_py", lambda a: a)
    claim = _claim(Inequality("some c", lhs=x, rhs=f(c), exists=("c",)), x=Real(ge=2, le=3), c=Real(ge=0, le=1))
    out = prove_no_value(claim.statements[0], claim, {"x": 2.5}, CFG)
    assert out.status == "gave-up" and "no ball-arithmetic form" in out.why


def test_the_outer_point_is_read_as_written():
    claim = _scale(1)
    assert prove_no_value(claim.statements[0], claim, {"x": 16.1}, CFG).outer == {"x": Fraction(161, 10)}


def _sampled(claim, at=None):
    return check_sampled(claim.statements[0], claim, Config(samples=30, at=at))


def test_the_sampled_check_calls_a_grid_failure_violated_only_when_proved():
    ev = _sampled(_scale(1))
    assert ev.verdict == "violated" and ev.data["exists_proof"]["status"] == "proved"
    assert "proved by interval arithmetic" in ev.detail
    ev = _sampled(_scale(3))
    assert ev.verdict == "inconclusive" and "a grid cannot show that no value does" in ev.detail
    assert all(r["status"] == "witness" for r in ev.data["exists_proof"])


def test_a_pinned_point_needs_the_proof_too():
    assert _sampled(_scale(1), at={"x": 16.0}).verdict == "violated"
    assert _sampled(_scale(3), at={"x": 16.0}).verdict == "inconclusive"
