"""Issue 36, bad input: refused before any work, in one line naming it, exit 2 -- never an internal error
or a traceback -- and a run that checked no claim is not a pass. Where it matters that nothing ran, a
claim of the file records that it was checked (the SPY of tests/engine/test_cli_faults.py)."""
from __future__ import annotations

import math
import os
import subprocess
import sys

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from test_cli_faults import FAST, GOOD, ROOT, SPY, claims_file, dpverify_here, one_line_error

@pytest.mark.parametrize("claims, words", [
    ("(c for c in [GOOD])", ["CLAIMS must be a list or tuple", "generator"]),
    ("()", ["no claims to check"]),
    ("5", ["CLAIMS must be a list or tuple", "int"]),
], ids=["generator", "empty", "five"])
def test_claims_that_are_not_a_list_of_claims_are_refused(tmp_path, claims, words):
    """`CLAIMS` as a generator or `()` gave "0 claims" and exit 0 (a false pass); `CLAIMS = 5` ended in an
    internal error."""
    path = claims_file(tmp_path, GOOD + f"CLAIMS = {claims}\n")
    one_line_error(dpverify_here("check", "--all", "--module", path, *FAST), 2, *words)


def test_an_at_value_of_four_hundred_digits_is_refused_naming_it(tmp_path):
    path = claims_file(tmp_path, SPY)
    r = dpverify_here("check", "mine/spied", "--module", path, "--at", "x=" + "7" * 400, *FAST,
                      env={"FAULTS_SPY": str(tmp_path / "spy")})
    line = one_line_error(r, 2, "--at", "x = ", "400")
    assert len(line) < 200 and not (tmp_path / "spy").exists()


@pytest.mark.parametrize("value", ["inf", "nan", "-inf", "1e999"])
def test_an_adversary_budget_that_is_not_finite_is_refused(tmp_path, value):
    path = claims_file(tmp_path, SPY)
    r = dpverify_here("check", "mine/spied", "--module", path, f"--adversary={value}", *FAST,
                      env={"FAULTS_SPY": str(tmp_path / "spy")})
    assert r.returncode == 2 and "adversary must be a finite number" in r.stderr and "Traceback" not in r.stderr
    assert not (tmp_path / "spy").exists()


@pytest.mark.skipif(not os.path.exists("/proc/version"), reason="needs /proc")
def test_report_out_into_proc_is_refused_before_any_check_runs(tmp_path):
    """`report --out /proc/version` ran every check, then ended in an internal error."""
    path = claims_file(tmp_path, SPY)
    r = dpverify_here("report", "--module", path, "--out", "/proc/version", *FAST, env={"FAULTS_SPY": str(tmp_path / "spy")})
    one_line_error(r, 2, "--out", "/proc/version", "not writable")
    assert not (tmp_path / "spy").exists()


def test_a_closed_pipe_ends_the_output_quietly(tmp_path):
    """`dpverify list | head -1` ended in "internal error: BrokenPipeError"."""
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    env.pop("DPVERIFY_TRACEBACK", None)
    proc = subprocess.Popen([sys.executable, "-m", "dpverify", "list", "--json"], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, env=env, cwd=tmp_path)
    assert proc.stdout.readline() == b"[\n"
    proc.stdout.close()                  # as `head -1` does once it has its line
    err = proc.stderr.read().decode()
    proc.stderr.close()
    assert proc.wait(timeout=300) == 141
    assert err == "", err                # no traceback, no "internal error", no "Exception ignored"


def test_a_choice_parameter_no_statement_uses_is_refused_when_the_claim_is_built(tmp_path):
    path = claims_file(tmp_path, '''
        from dpverify import Choice
        CLAIMS = [Claim(id="mine/choice", source=_src("Lemma 1"), domain=Domain(x=Real(gt=0, le=4),
                                                                           c=Choice(("a", "b"))),
                        statements=(Inequality("x <= x + 1", lhs=x, rhs=x + 1),))]
        ''')
    one_line_error(dpverify_here("check", "--all", "--module", path, *FAST), 2, "mine/choice", "domain",
                   "'c'", "used by no statement")


def test_sys_exit_at_import_under_the_pytest_plugin_is_a_collection_error(tmp_path):
    """`sys.exit(0)` at import of a claims module collected by the pytest plugin ended in an internal
    error of pytest (the file was imported a second time, as a test module)."""
    (tmp_path / "test_claims.py").write_text("import sys\nsys.exit(0)\nCLAIMS = ()\n")
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    r = subprocess.run([sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "-p", "no:randomly", "-q",
                        "--dpverify-claims", "test_claims.py", "-o", "addopts="], cwd=tmp_path, capture_output=True,
                       text=True, env=env, timeout=600)
    assert "INTERNALERROR" not in r.stdout + r.stderr, r.stdout[-2000:]
    assert r.returncode == 2 and "claims file" in r.stdout and "sys.exit(0)" in r.stdout, r.stdout[-2000:]


def test_a_scheduler_port_out_of_range_is_refused_up_front(tmp_path):
    path = claims_file(tmp_path, SPY)
    r = dpverify_here("check", "--all", "--module", path, "--scheduler", "tcp://h:99999", *FAST,
                      env={"FAULTS_SPY": str(tmp_path / "spy")})
    one_line_error(r, 2, "--scheduler", "port 99999", "1..65535")
    assert not (tmp_path / "spy").exists()


# --------------------------------------------------------------------------- fuzz: random input
_AT_TEXT = st.lists(st.sampled_from(list("xyz=,;[]0123456789.-+eEinfa \t") + ["nan", "inf", "1" * 320]),
                    max_size=30).map("".join)


@settings(max_examples=200, derandomize=True, deadline=None, database=None)
@given(text=_AT_TEXT | st.text(max_size=30))
def test_fuzz_at_is_read_or_refused_in_one_line(text):
    """Any `--at` text is read into finite numbers (or choice strings), or refused in one line."""
    from dpverify.cli import UsageError, parse_at

    try:
        out = parse_at(text)
    except UsageError as exc:
        msg = str(exc)
        assert "\n" not in msg and msg.startswith("--at") and len(msg) < 400, msg
        return
    for name, v in out.items():
        assert name and "=" not in name
        values = v if isinstance(v, list) else [v]
        for u in values:
            assert isinstance(u, str) or math.isfinite(u), (name, v)


@settings(max_examples=120, derandomize=True, deadline=None, database=None)
@given(option=st.sampled_from(["--adversary", "--seed", "--runs", "--samples", "--confidence", "--jobs", "--chunk",
                               "--box-budget"]),
       value=st.sampled_from(["inf", "-inf", "nan", "1e999", "-1", "0", "0.5", "2", "1" * 400, "", "x", "1e-400"])
       | st.text(max_size=8))
def test_fuzz_numeric_options_are_finite_or_refused(option, value):
    from dpverify.cli import build_parser

    import contextlib
    import io

    with contextlib.redirect_stderr(io.StringIO()) as err:
        try:
            ns = build_parser().parse_args(["check", "mine/x", f"{option}={value}"])
        except SystemExit as exc:
            assert exc.code == 2 and option.lstrip("-") in err.getvalue().replace("_", "-")
            return
    got = getattr(ns, option.lstrip("-").replace("-", "_"))
    assert 0 <= got < 2**63 and math.isfinite(got), (option, value, got)


@settings(max_examples=200, derandomize=True, deadline=None, database=None)
@given(address=st.from_regex(r"((tcp|tls)://)?[a-z0-9.\-]{0,10}(:[0-9]{0,7})?", fullmatch=True) | st.text(max_size=20))
def test_fuzz_scheduler_addresses_are_checked_before_any_work(address):
    from dpverify.distributed import SchedulerError, check_address

    try:
        check_address(address)
    except SchedulerError as exc:
        assert "\n" not in str(exc) and "--scheduler" in str(exc)
        return
    assert address == "local" or 1 <= int(address.rsplit(":", 1)[1]) <= 65535

