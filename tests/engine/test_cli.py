"""The command line: listing, checking, replaying, exit codes and usage errors."""
import json

import pytest

from dpverify.cli import main, parse_at, UsageError


def run(capsys, *argv):
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_list_table_and_json(capsys):
    code, out, _ = run(capsys, "list")
    assert code == 0 and "dni/thm-4.1" in out and "Theorem 4.1" in out
    code, out, _ = run(capsys, "list", "--paper", "dni", "--json")
    data = json.loads(out)
    assert code == 0 and data
    for row in data:
        assert {"id", "label", "source", "expected"} <= set(row)
        assert row["source"]["document"] == "000_155fea93f75f24eb.txt"


def test_check_table_exit_zero_when_as_expected(capsys):
    code, out, err = run(capsys, "check", "dni/claim-zcdp-inversion", "--samples", "30", "--no-progress")
    assert code == 0
    # an expected violation's replay line only with --verbose (issue 40: replay lines looked like failures)
    assert "violated" in out and "replay:" not in out and "--verbose" in out and "Traceback" not in err
    code, out, err = run(capsys, "check", "dni/claim-zcdp-inversion", "--samples", "30", "--no-progress", "--verbose")
    assert code == 0 and "counterexample" in out and "replay:" in out


def test_check_json_fields_and_replay(capsys):
    code, out, _ = run(capsys, "check", "dni/lemma-b.4", "--json", "--no-progress")
    (v,) = json.loads(out)
    assert code == 0 and v["verdict"] == "violated" == v["expected"]
    ev = v["evidence"][0]
    assert {"kind", "verdict", "samples", "confidence", "min_margin", "tightness", "counterexample",
            "seconds"} <= set(ev)
    params = ev["counterexample"]["params"]
    at = ",".join(f"{k}={val}" for k, val in params.items())
    code, out, _ = run(capsys, "check", "dni/lemma-b.4", "--json", "--no-progress", "--at", at)
    (again,) = json.loads(out)
    assert code == 0 and again["verdict"] == "violated"


def test_exit_one_when_verdict_differs(capsys):
    # Theorem 3.1 is wrong in general, but at this point (sum sigma^-2 = 0.01 < R/4) rho <= R/2 holds.
    code, out, _ = run(capsys, "check", "dni/thm-3.1", "--at", "T=1,R=1,G=1,N=2,sigma=[10]", "--no-progress")
    assert code == 1 and "differs" in out


@pytest.mark.parametrize("argv, message", [
    (["check"], "give at least one claim id"),
    (["check", "dni/thm-9.9"], "unknown claim id"),
    (["check", "dni/thm-4.1", "--all"], "not both"),
    (["check", "dni/thm-4.1", "--paper", "dni"], "--paper goes with --all"),
    (["check", "--all", "--paper", "nope"], "unknown paper 'nope'"),
    (["list", "--paper", "nope"], "unknown paper 'nope'"),
    (["check", "dni/thm-4.3", "--at", "kappa=0.5,alpha=0.1,alpha0=1,R=1,T=3,t=1"], "kappa = 0.5 violates kappa >= 1"),
    (["check", "dni/thm-4.3", "--at", "kappa=2,alpha=0.1,alpha0=1,R=1,T=3"], "missing parameter 't'"),
    (["check", "dni/thm-4.3", "--at", "kappa"], "is not name=value"),
    (["check", "dni/thm-4.3", "dni/eq-25", "--at", "T=1"], "exactly one id"),
    (["check", "dni/eq-25", "--at", "T=2,R=1,q=[1]"], "q has length 1 but T = 2"),
])
def test_usage_errors_exit_two_with_message(capsys, argv, message):
    code, out, err = run(capsys, *argv, *(["--no-progress"] if argv[0] == "check" else []))
    assert code == 2
    assert message in err and "Traceback" not in err


@pytest.mark.parametrize("option, value, message", [
    ("--runs", "1", "runs must be an integer >= 2"),     # one run has no variance: refused here, not in a worker
    ("--runs", "x", "runs must be an integer >= 2"),
    ("--samples", "-3", "samples must be a positive integer"),
    ("--seed", "-1", "seed must be a non-negative integer"),
    ("--confidence", "1.5", "confidence must be a number in [0.5, 1), got '1.5'"),
    ("--confidence", "abc", "confidence must be a number"),
    ("--jobs", "0", "jobs must be a positive integer"),
    ("--chunk", "0", "chunk must be a positive integer"),
])
def test_bad_option_values(capsys, option, value, message):
    with pytest.raises(SystemExit) as exc:
        main(["check", "dni/eq-25", option, value])
    assert exc.value.code == 2
    assert message in capsys.readouterr().err


def test_parse_at():
    assert parse_at("kappa=2,alpha=0.5,T=3,q=[1,2,3.5]") == {"kappa": 2, "alpha": 0.5, "T": 3, "q": [1.0, 2.0, 3.5]}
    assert parse_at("q=1;2") == {"q": [1.0, 2.0]}
    assert parse_at("adjacency=replace") == {"adjacency": "replace"}
    for bad in ("", "=3", "q=[a,b]"):
        with pytest.raises(UsageError):
            parse_at(bad)


def test_same_seed_same_json_whatever_chunk_and_workers(capsys):
    base = ["check", "dni/thm-4.1", "dni/eq-25", "--json", "--no-timing", "--no-progress",
            "--runs", "3000", "--samples", "20", "--seed", "7"]
    outs = []
    for extra in (["--chunk", "1024", "--jobs", "1"], ["--chunk", "65536", "--jobs", "2"]):
        code, out, _ = run(capsys, *base, *extra)
        assert code == 0
        outs.append(out)
    assert outs[0] == outs[1]
    code, other, _ = run(capsys, *base[:-1], "8", "--jobs", "1")
    assert other != outs[0], "a different seed draws different points"


def test_constants_command(capsys):
    code, out, _ = run(capsys, "constants", "--paper", "dni")
    assert code == 0 and "0.1963" in out and "0.3927" in out
    code, out, _ = run(capsys, "constants", "--json")
    rows = json.loads(out)
    assert {"claim", "name", "printed", "derived", "status"} <= set(rows[0])


# ---------------------------------------------------------------- the default number of check processes
# (dpverify.resources: tests/engine/test_resources.py)
def test_check_without_jobs_uses_the_default_and_with_jobs_the_given(monkeypatch, capsys):
    from dpverify import cli, distributed

    seen = []

    def fake_map(fn, tasks, *, workers, on_result, **kw):
        seen.append(workers)
        for i, t in enumerate(tasks):
            on_result(i, fn(t))

    monkeypatch.setattr(distributed, "process_map", fake_map)
    monkeypatch.setattr(cli, "default_jobs", lambda: 3)
    claims = ["dni/lemma-b.4", "dni/eq-25", "hdp/lemma-2", "erm/lemma-6"]
    assert run(capsys, "check", *claims, "--no-progress")[0] == 0
    assert run(capsys, "check", *claims, "--no-progress", "--jobs", "2")[0] == 0
    assert seen == [3, 2]
