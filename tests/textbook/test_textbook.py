"""The held-out battery: textbook results, true and with planted errors, in a user's claims file
(tests/textbook/claims.py) loaded the way a user's file is; every verdict must be right. Also the
edges: a bound equal to zero, deterministic (zero-variance) Monte Carlo, and the user-facing ways in
(``--module``, the pytest plugin on a file outside the repository)."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

import dpverify
from dpverify import registry
from dpverify.cli import main
from dpverify.testing import claim_tests, verdict_of

TEXTBOOK = Path(__file__).resolve().parent / "claims.py"

test_textbook_verdicts = claim_tests(str(TEXTBOOK))


def test_battery_has_true_and_planted_results_of_every_kind():
    claims = registry.load_module(str(TEXTBOOK)).CLAIMS
    planted = [c for c in claims if c.expected == "violated"]
    true = [c for c in claims if c.expected == "holds"]
    assert len(planted) >= 6 and len(true) >= 6
    kinds = {type(s).__name__ for c in claims for s in c.statements}
    assert {"SupBound", "ExpectationBound", "Inequality", "Identity"} <= kinds


def _textbook(cid):
    return registry.get(f"textbook/{cid}", [str(TEXTBOOK)])


def test_a_zero_bound_met_exactly_is_not_a_violation():
    """GD with step 1/M at mu = M (kappa = 1) lands on the minimiser in one step: the bound
    (1 - mu/M)^T Delta is exactly 0 and the float64 excess is 0 up to rounding. Neither the exact
    check nor the (zero-variance) Monte Carlo check may call that a violation."""
    claim = _textbook("thm-gd-pl")
    at = {"M": 3.0, "kappa": 1.0, "Delta": 7.0, "D": 3, "T": 4}
    v = dpverify.check(claim, at=at)
    assert v.verdict == "holds", [(e.check, e.verdict, e.detail, e.value, e.bound) for e in v.evidence]
    kinds = {e.check: e for e in v.evidence}
    assert kinds["exact"].bound == 0.0 and kinds["monte_carlo"].bound == 0.0
    assert kinds["monte_carlo"].verdict == "holds"


def test_a_planted_error_at_the_same_edge_is_still_found():
    v = dpverify.check(_textbook("thm-noisy-gd-pl-no-dimension"), at={"M": 1.0, "kappa": 1.0, "Delta": 1.0,
                                                                      "D": 4, "T": 1, "s": 1.0})
    assert v.verdict == "violated"


# The claim objects test_textbook_verdicts checks: verdict_of reuses its verdict (same worker, see conftest.py).
TEXTBOOK_CLAIMS = test_textbook_verdicts.pytestmark[0].args[1]


@pytest.mark.parametrize("claim", [c for c in TEXTBOOK_CLAIMS if c.expected == "holds"],
                         ids=[c.id for c in TEXTBOOK_CLAIMS if c.expected == "holds"])
def test_every_holds_has_no_negative_margin_and_reports_value_and_bound(claim):
    """At the default sizes (the verdict test_textbook_verdicts computed), every piece of evidence that holds
    has no negative margin and reports the value and the bound."""
    v = verdict_of(claim)
    for e in v.evidence:
        if e.verdict == "holds" and e.min_margin is not None:
            assert e.min_margin >= -1e-9, (claim.id, e.check, e.min_margin)
        if e.verdict == "holds" and e.check in ("sampled", "exact", "monte_carlo", "privacy", "stability"):
            assert e.value is not None and e.bound is not None, (claim.id, e.check)


def test_cli_lists_and_checks_a_users_module(capsys):
    assert main(["list", "--module", str(TEXTBOOK), "--json"]) == 0
    rows = json.loads(capsys.readouterr().out)
    assert {r["id"] for r in rows} == {c.id for c in registry.load_module(str(TEXTBOOK)).CLAIMS}
    assert main(["check", "textbook/claim-cauchy-schwarz-no-t", "--module", str(TEXTBOOK), "--no-progress"]) == 0
    out = capsys.readouterr().out       # an expected violation: its replay line only with --verbose
    assert "violated" in out and "replay:" not in out and "--verbose" in out
    assert main(["check", "textbook/claim-cauchy-schwarz-no-t", "--module", str(TEXTBOOK), "--no-progress",
                 "--verbose"]) == 0
    out = capsys.readouterr().out
    assert "violated" in out and "replay: dpverify check textbook/claim-cauchy-schwarz-no-t --module" in out


def test_cli_module_errors_are_usage_errors(tmp_path, capsys):
    bad = tmp_path / "bad.py"
    bad.write_text("import sympy as sp\nfrom dpverify import *\nx = sp.Symbol('x')\n"
                   "CLAIMS = (Claim(id='me/thm-1', source=Source('my notes', 'Lemma 1'), domain=Domain(x=Real()),"
                   " statements=(Inequality('i', lhs=x, rhs=sp.Symbol('y')),)),)\n")
    assert main(["list", "--module", str(bad)]) == 2
    err = capsys.readouterr().err
    assert "claim 'me/thm-1': statement 'i': rhs: symbol(s) y" in err and "Traceback" not in err
    assert main(["list", "--module", str(tmp_path / "missing.py")]) == 2
    assert "no such file" in capsys.readouterr().err
    empty = tmp_path / "empty.py"
    empty.write_text("x = 1\n")
    assert main(["check", "--all", "--module", str(empty)]) == 2
    assert "defines no CLAIMS" in capsys.readouterr().err


PLUGIN_CLAIMS = '''
import sympy as sp
from dpverify import Claim, Domain, Inequality, Real, Source

x, y = sp.symbols("x y")
D = Domain(x=Real(gt=0, search=(1e-3, 1e3), log=True), y=Real(gt=0, search=(1e-3, 1e3), log=True))
AM_GM = Claim(id="mine/claim-am-gm", source=Source("my notes", "AM-GM"), domain=D,
              statements=(Inequality("am-gm", lhs=sp.sqrt(x * y), rhs=(x + y) / 2),))
WRONG = Claim(id="mine/claim-wrong", source=Source("my notes", "a slip"), domain=D,
              statements=(Inequality("slip", lhs=x + y, rhs=2 * sp.sqrt(x * y)),))
CLAIMS = (AM_GM, WRONG)
'''


def test_pytest_plugin_turns_an_outside_claims_file_into_tests(pytester):
    path = pytester.path / "elsewhere" / "my_claims.py"
    path.parent.mkdir()
    path.write_text(PLUGIN_CLAIMS)
    result = pytester.runpytest("--dpverify-claims", str(path), "-p", "no:cacheprovider")
    result.assert_outcomes(passed=1, failed=1)
    out = result.stdout.str()
    assert "mine/claim-wrong" in out and "verdict 'violated', expected 'holds'" in out
    # the replay names the claims file (the claim is not a registered paper's) and the seed
    assert f"replay: dpverify check mine/claim-wrong --module {path} --at" in out.replace("\n", "")
    assert "--seed 0" in out


def test_the_box_proof_verifies_the_log_bound_on_its_box_and_keeps_the_planted_one_violated():
    true = dpverify.check(_textbook("claim-log-lower"), samples=40, prove_box=True)
    assert true.verdict == "verified" and true.ok and true.basis == ["proof-on-box"]
    assert true.scope == "box: y in [1e-06, 1000] (log)"
    planted = dpverify.check(_textbook("claim-log-lower-square"), samples=40, prove_box=True)
    assert planted.verdict == "violated" and planted.ok and planted.scope is None
