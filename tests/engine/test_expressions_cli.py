"""The expressions a new user could not write (issue 20), used as the user does: a claims file in a
temporary folder, ``dpverify check ... --module FILE --json`` in a subprocess (in this process through
``dpverify.cli.main`` for a refusal or a check at one point), the verdicts read from the JSON. ``exists=`` on expectations and suprema (and its refusal where a statement kind cannot take
it), Polyak's heavy ball beside bias-corrected momentum, and the missing direction of privacy measures;
the claims are the textbook battery's (``tests/textbook/expression_claims.py``), copied out of the
repository as a user's file."""
from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from test_cli_faults import claims_file, dpverify, dpverify_here, one_line_error, strict_json

BATTERY = Path(__file__).resolve().parents[1] / "textbook" / "expression_claims.py"
FAST = ["--no-progress", "--no-timing", "--seed", "0"]


def _user_copy(tmp_path) -> str:
    dest = tmp_path / "my_claims.py"
    shutil.copy(BATTERY, dest)
    return str(dest)


def _verdicts(tmp_path, *ids):
    path = _user_copy(tmp_path)
    r = dpverify("check", *ids, "--module", path, "--json", *FAST)
    assert r.returncode == 0, (r.returncode, r.stderr[-2000:])
    return {v["id"]: v for v in strict_json(r.stdout)}


@pytest.fixture(scope="module")
def verdicts_of(tmp_path_factory):
    """``_verdicts`` of a tuple of ids, run once in this module (the tests that read one run share a worker)."""
    runs = {}

    def get(*ids):
        if ids not in runs:
            runs[ids] = _verdicts(tmp_path_factory.mktemp("user"), *ids)
        return runs[ids]
    return get


# exists= on an ExpectationBound (an Int horizon: every value tried) and on SupBounds (Int and Real noise)
EXISTS = ("textbook/thm-noisy-gd-exists-horizon", "textbook/thm-noisy-gd-exists-horizon-floor",
          "textbook/thm-gaussian-exists-integer-noise", "textbook/thm-gaussian-exists-integer-noise-half",
          "textbook/thm-gaussian-exists-noise", "textbook/thm-gaussian-exists-noise-half")
EXISTS_RUN = pytest.mark.xdist_group("expressions-exists-run")


@pytest.mark.parametrize("ids", [
    pytest.param(EXISTS, marks=EXISTS_RUN),
    # Polyak's heavy ball at its optimal parameters, and the rate without its factor linear in T
    ("textbook/thm-heavy-ball-quadratic", "textbook/thm-heavy-ball-quadratic-no-factor"),
    # delta at a target eps (subsampling), eps at a target delta (a budget filter)
    ("textbook/thm-subsampling-delta-at-eps", "textbook/thm-subsampling-delta-at-eps-linear",
     "textbook/thm-budget-filter-eps-at-delta", "textbook/thm-budget-filter-eps-at-delta-sqrt"),
], ids=["exists", "heavy-ball", "privacy-directions"])
def test_true_results_hold_and_planted_errors_are_found(verdicts_of, ids):
    got = verdicts_of(*ids)
    assert set(got) == set(ids)
    for cid, v in got.items():
        assert v["verdict"] == v["expected"], (cid, v["verdict"], [e.get("detail") for e in v["evidence"]])


@EXISTS_RUN
def test_a_grid_never_refutes_an_existential_over_a_real_parameter(verdicts_of):
    """The planted Real-noise claim fails at eps = 0.5, delta = 1e-5 for every sigma, but a grid cannot
    show it: the verdict is inconclusive and the evidence says why, never violated. (Its verdict in the
    run of every exists= claim: the same seed and sizes as a run of it alone.)"""
    v = verdicts_of(*EXISTS)["textbook/thm-gaussian-exists-noise-half"]
    assert v["verdict"] == "inconclusive"
    assert "a grid cannot show that no value does" in v["evidence"][0]["detail"]


def test_an_existential_parameter_may_be_left_out_of_at_on_an_expectation(tmp_path):
    path = _user_copy(tmp_path)
    r = dpverify_here("check", "textbook/thm-noisy-gd-exists-horizon-floor", "--module", path, "--json", *FAST,
                      "--at", "M=1,kappa=1,Delta=1,D=2,s=1,acc=0.2")
    assert r.returncode == 0, r.stderr
    (v,) = strict_json(r.stdout)
    assert v["verdict"] == "violated" and "T" not in v["at"]
    ok = dpverify_here("check", "textbook/thm-noisy-gd-exists-horizon", "--module", path, "--json", *FAST,
                       "--at", "M=1,kappa=2,Delta=1,D=2,s=0.5,acc=0.2")
    assert ok.returncode == 0 and strict_json(ok.stdout)[0]["verdict"] == "holds", ok.stderr


@pytest.mark.parametrize("statement, words", [
    ('Identity("x = a", lhs=x, rhs=a, exists=("a",))', ("Identity 'x = a'", "exists=('a',)", "cannot quantify a")),
    ('Inequality("two", lhs=x, rhs=a + d, exists=("a", "d"))', ("Inequality 'two'", "one existentially quantified")),
    ('Inequality("seq", lhs=x, rhs=a, exists=("y",))', ("statement 'seq': exists", "'y' is not a parameter")),
])
def test_exists_where_it_cannot_work_is_refused_in_one_line(tmp_path, statement, words):
    path = claims_file(tmp_path, f'''
        from dpverify import Identity
        CLAIMS = [Claim(id="mine/ex", source=_src("Lemma 2"), domain=Domain(x=Real(gt=0, le=4), a=Real(ge=0, le=10),
                                                                          d=Real(gt=0, le=2)),
                        statements=({statement},))]
        ''')
    r = dpverify_here("check", "mine/ex", "--module", path, "--no-progress")
    one_line_error(r, 2, *words)
