"""The box proof (dpverify.checks.boxproof): interval branch-and-bound in ball arithmetic over a claim's
search box. It certifies tight true inequalities, reports the region where a false one fails and never
calls it verified, is not fooled by two sides equal to double precision, respects the hypotheses
between parameters, and reports its smallest uncertified boxes when it gives up."""
from __future__ import annotations

import json

import mpmath
import sympy as sp

import dpverify
from dpverify import Claim, Domain, Inequality, Int, Real, Relation, Source
from dpverify.checks import Config, boxproof, run
from dpverify.verdict import as_expected

x, y, n = sp.symbols("x y n")
SRC = Source("test", "box proof")
CFG = Config(prove_box=True, samples=30, proof_budget=0)  # the box proof alone (the domain proof runs first)


def _claim(cid, domain, stmt, expected="holds"):
    return Claim(id=f"box/{cid}", source=SRC, domain=domain, statements=(stmt,), expected=expected,
                 reason="" if expected == "holds" else "false on purpose")


LOG = _claim("log", Domain(x=Real(gt=0, search=(1e-6, 1e3), log=True)),
             Inequality("x/(1+x) <= log(1+x)", lhs=x / (1 + x), rhs=sp.log(1 + x)))
EXP = _claim("exp", Domain(n=Int(ge=1, search=(1, 10**4))),
             Inequality("(1-1/n)^n <= 1/e", lhs=(1 - sp.Integer(1) / n) ** n, rhs=sp.exp(-1)))


def test_tight_true_inequalities_are_verified_on_the_box_with_their_scope():
    for claim, scope in ((LOG, "x in [1e-06, 1000] (log)"), (EXP, "n in 1..10000 (integers)")):
        v = run(claim, CFG)
        assert v.verdict == "verified", [(e.check, e.verdict, e.detail) for e in v.evidence]
        assert v.basis == ["proof-on-box"] and v.scope == f"box: {scope}"
        assert as_expected(v.verdict, "holds")
        ev = [e for e in v.evidence if e.check == "boxproof"][0]
        assert ev.basis.on == scope and ev.data["scope"] == scope and ev.data["certified"] >= 1
        assert json.loads(json.dumps(v.to_json()))["scope"] == f"box: {scope}"


def test_without_the_option_nothing_changes():
    v = run(LOG, Config(samples=30, proof_budget=0))
    assert v.verdict == "holds" and "boxproof" not in v.checks and v.scope is None


def test_a_false_inequality_reports_its_violating_region_and_is_never_verified():
    # log(1 + x) <= x - x^2/3 fails for x > 3/2 roughly (and holds near 0)
    claim = _claim("bad", Domain(x=Real(gt=0, search=(1e-3, 10.0), log=True)),
                   Inequality("log(1+x) <= x - x^2/3", lhs=sp.log(1 + x), rhs=x - x**2 / 3), "violated")
    ev = boxproof.check(claim.statements[0], claim, CFG)
    assert ev.verdict == "violated" and ev.data["wrong_side_boxes"] >= 1
    for box in ev.data["wrong_side"]:
        lo, hi = box["x"]
        for t in (lo, hi):   # the whole box fails, checked independently in mpmath
            assert mpmath.log(1 + mpmath.mpf(t)) > t - mpmath.mpf(t) ** 2 / 3
    pt = ev.counterexample["params"]
    assert mpmath.log(1 + mpmath.mpf(pt["x"])) > pt["x"] - mpmath.mpf(pt["x"]) ** 2 / 3


def _hostile(true: bool, var=n, domain=None):
    """Two sides equal in double precision: v and sqrt(v^2 + 1e-30) differ by about 5e-31 / v."""
    far = sp.sqrt(var**2 + sp.Rational(1, 10**30))
    lhs, rhs = (var, far) if true else (far, var)
    return _claim("hostile", domain or Domain(n=Int(ge=1, search=(1, 8))), Inequality("near tie", lhs=lhs, rhs=rhs),
                  "holds" if true else "violated")


def test_cancellation_is_decided_by_the_balls_not_by_rounding(monkeypatch):
    true, false = _hostile(True), _hostile(False)
    assert 1.5 == float(sp.sqrt(sp.Float(1.5) ** 2 + 1e-30))  # doubles see a tie
    assert boxproof.check(true.statements[0], true, CFG).verdict == "verified"
    ev = boxproof.check(false.statements[0], false, CFG)
    assert ev.verdict == "violated" and ev.data["wrong_side_boxes"] == 8
    # on a real interval the dependency of the two sides is wider than the gap: no verdict, never verified
    dom = Domain(x=Real(gt=0, search=(1.0, 2.0)))
    for claim in (_hostile(True, x, dom), _hostile(False, x, dom)):
        ev = boxproof.check(claim.statements[0], claim, CFG.with_(box_budget=300))
        assert ev.verdict == "inconclusive" and ev.data["uncertified_boxes"] >= 1, ev.detail
    # at 53 bits the balls at each integer are wider than the gap: neither side is certified
    monkeypatch.setattr(boxproof, "PREC", 53)
    for claim in (true, false):
        ev = boxproof.check(claim.statements[0], claim, CFG)
        assert ev.verdict == "inconclusive" and ev.data["uncertified_boxes"] == 8, ev.detail


def test_it_gives_up_at_a_touching_point_and_reports_the_smallest_boxes_there():
    # 2x <= x^2 + 1 is tight at x = 1, inside the box: no finite cover certifies it
    claim = _claim("touch", Domain(x=Real(search=(0.0, 3.0))), Inequality("2x <= x^2 + 1", lhs=2 * x, rhs=x**2 + 1))
    ev = boxproof.check(claim.statements[0], claim, CFG.with_(box_budget=400))
    assert ev.verdict == "inconclusive" and "gave up after the budget of 400 boxes" in ev.detail
    assert 1 <= len(ev.data["uncertified"]) <= boxproof.REPORT
    for box in ev.data["uncertified"]:
        lo, hi = box["x"]
        assert lo <= 1 <= hi and hi - lo < 1e-3


def test_hypotheses_between_parameters_discard_boxes_outside_them():
    # x y <= 1/3 is false at (1, 1) but holds where x + y <= 1 (there x y <= 1/4)
    dom = Domain(Relation(sp.Le(x + y, 1)), x=Real(ge=0, le=1, search=(0.0, 1.0)), y=Real(ge=0, le=1, search=(0.0, 1.0)))
    claim = _claim("rel", dom, Inequality("x y <= 1/3", lhs=x * y, rhs=sp.Rational(1, 3)))
    ev = boxproof.check(claim.statements[0], claim, CFG)
    assert ev.verdict == "verified" and ev.data["discarded"] >= 1
    bare = _claim("bare", Domain(x=Real(ge=0, le=1, search=(0.0, 1.0)), y=Real(ge=0, le=1, search=(0.0, 1.0))),
                  claim.statements[0], "violated")
    assert boxproof.check(bare.statements[0], bare, CFG).verdict == "violated"


def test_statements_out_of_reach_say_why():
    many = sp.symbols("a0:7")
    claim = Claim(id="box/many", source=SRC, domain=Domain(**{str(s): Real(search=(1.0, 2.0)) for s in many}),
                  statements=(Inequality("sum", lhs=sum(many), rhs=2 * sum(many)),))
    ev = boxproof.check(claim.statements[0], claim, CFG)
    assert ev.verdict == "inconclusive" and "7 parameters" in ev.detail


def test_the_python_and_command_line_options(capsys):
    v = dpverify.check(LOG, samples=30, prove_box=True, proof_budget=0)
    assert v.verdict == "verified" and v.scope.startswith("box: ")
    from dpverify.cli import main
    from pathlib import Path

    module = str(Path(__file__).resolve().parents[1] / "textbook" / "claims.py")
    assert main(["check", "textbook/claim-log-lower", "--module", module, "--prove-box", "--proof-budget", "0",
                 "--json",
                 "--no-progress", "--samples", "30"]) == 0
    out = json.loads(capsys.readouterr().out)[0]
    assert out["verdict"] == "verified" and out["basis"] == ["proof-on-box"] and out["scope"] == "box: y in [1e-06, 1000] (log)"
    assert main(["check", "textbook/claim-log-lower", "--module", module, "--prove-box", "--proof-budget", "0",
                 "--no-progress",
                 "--samples", "30"]) == 0
    assert "proof-on-box" in capsys.readouterr().out


def test_certify_only_stops_when_the_budget_cannot_certify_and_changes_nothing_else():
    """``branch_and_bound(..., certify_only=True)`` (the privacy proof's search) stops as soon as more boxes wait
    than the budget has left, or a box cannot be split: the outcome is the same ``budget`` (never ``certified``)
    after fewer boxes; a box it certifies is certified with the same boxes as the full search."""
    touch = _claim("touch-c", Domain(x=Real(search=(0.0, 3.0))),
                   Inequality("2x <= x^2 + 1", lhs=2 * x, rhs=x**2 + 1))
    full = boxproof.branch_and_bound(boxproof.Problem(touch.statements[0], touch), 400, 60.0)
    short = boxproof.branch_and_bound(boxproof.Problem(touch.statements[0], touch), 400, 60.0, certify_only=True)
    assert full.status == short.status == "budget" and not full.hopeless and short.hopeless
    assert short.boxes < full.boxes and short.uncertified and short.certified <= full.certified
    for claim in (LOG, EXP):
        a = boxproof.branch_and_bound(boxproof.Problem(claim.statements[0], claim), 20000, 60.0)
        b = boxproof.branch_and_bound(boxproof.Problem(claim.statements[0], claim), 20000, 60.0, certify_only=True)
        assert a.status == b.status == "certified" and not b.hopeless
        assert (a.boxes, a.certified, a.discarded) == (b.boxes, b.certified, b.discarded)
