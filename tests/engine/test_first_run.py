"""A newcomer's first run (issue 40): progress off a terminal, --quick, a reason under every inconclusive or
differing row, default search boxes that draw no subnormal, a compact table, "did you mean", help without
markup, "1 claim", statement kinds in `list`, SymPy numbers as bounds, a violated claim without a witness,
and a claim ending in `error` keeping the statements that ran."""
from __future__ import annotations

import dataclasses
import json
import math
import re

import numpy as np
import pytest
import sympy as sp

from dpverify.claims import Claim, ClaimError, Domain, Inequality, Real, Source
from dpverify.verdict import Basis, Evidence, Verdict

from test_cli_faults import GOOD, claims_file, dpverify, dpverify_here

FAST = ["--samples", "20", "--runs", "2000"]

TWO = GOOD + '''
LOOSE = Claim(id="mine/loose", source=_src("Lemma 2"), domain=Domain(x=Real(gt=0, le=4)),
              statements=(Inequality("x <= 2 x + 1", lhs=x, rhs=2 * x + 1),))
CLAIMS = (GOOD, LOOSE)
'''

WRONG = '''
WRONG = Claim(id="mine/wrong", source=_src("Lemma 3"), domain=Domain(x=Real(gt=0, le=4)),
              statements=(Inequality("x^2 <= x", lhs=x**2, rhs=x),))
CLAIMS = (WRONG,)
'''


# --------------------------------------------------------------------------- progress
def test_progress_off_a_terminal_is_one_line_per_claim_on_stderr(tmp_path):
    """stderr a pipe (a run to a file, under `timeout`): the headline first, then one line per finished claim
    with its id, verdict, seconds, done/total and the time left, and the summary last."""
    f = claims_file(tmp_path, TWO)
    r = dpverify("check", "--module", f, "--all", "--no-cache", "--jobs", "1", *FAST)
    assert r.returncode == 0, r.stderr
    lines = r.stderr.strip().splitlines()
    assert lines[0].startswith("dpverify: checking 2 claims")
    done = [ln for ln in lines if re.match(r"dpverify: \[\d/2\] mine/\w+: (holds|verified) \(\d+\.\d s\); ", ln)]
    assert len(done) == 2, r.stderr
    assert {re.search(r"(mine/\w+)", ln).group(1) for ln in done} == {"mine/good", "mine/loose"}
    assert "[1/2]" in done[0] and ("left" in done[0]) and done[1].endswith("done")
    assert lines[-1] == "dpverify: 2 claims: 2 as expected, 0 differ."
    quiet = dpverify("check", "--module", f, "--all", "--no-cache", "--no-progress", *FAST)
    assert quiet.returncode == 0 and "[1/2]" not in quiet.stderr and "checking" not in quiet.stderr


# --------------------------------------------------------------------------- --quick
def test_quick_says_so_in_the_table_and_json_and_is_never_replayed_as_a_full_run(tmp_path):
    from dpverify.config import QUICK_RUNS, QUICK_SAMPLES, Config

    cfg = Config(quick=True)
    assert cfg.runs == QUICK_RUNS < Config().runs and cfg.samples == QUICK_SAMPLES < Config().samples
    f = claims_file(tmp_path, GOOD + "CLAIMS = (GOOD,)\n")
    env = {"DPVERIFY_CACHE_DIR": str(tmp_path / "cache"), "DPVERIFY_CACHE": "1"}
    r = dpverify_here("check", "--module", f, "--all", "--quick", "--json", "--no-progress", env=env)
    (v,) = json.loads(r.stdout)
    assert r.returncode == 0 and v["quick"] is True
    quick_samples = sum(e["samples"] for e in v["evidence"] if e["kind"] == "sampled")
    r = dpverify_here("check", "--module", f, "--all", "--quick", "--no-progress", env=env)
    assert "QUICK" in r.stdout and "(cached)" in r.stdout       # the quick run replays a quick run
    r = dpverify_here("check", "--module", f, "--all", "--json", "--no-progress", env=env)
    (full,) = json.loads(r.stdout)
    assert "quick" not in full and "cached" not in full        # but a full run is never a quick one replayed
    assert quick_samples < sum(e["samples"] for e in full["evidence"] if e["kind"] == "sampled")


# --------------------------------------------------------------------------- reasons in the table
def _ev(**kw):
    base = dict(check="sampled", statement="s", verdict="inconclusive", basis=Basis("algebra", "x"))
    return Evidence(**{**base, **kw})


def test_an_inconclusive_row_says_why_with_measured_against_bound():
    from dpverify.tables import SUBNORMAL, compact_table, degenerate, why  # noqa: F401 (new in issue 40)

    v = Verdict(id="mine/a", label="L", verdict="inconclusive", expected="holds",
                evidence=[_ev(detail="no counterexample, but 3 point(s) could not be decided; more", value=1.5,
                              bound=1.25)])
    phrase = why(v)
    assert "3 point(s) could not be decided" in phrase and "measured 1.5 vs bound 1.25" in phrase
    assert "more" not in phrase                              # one short phrase: the first clause
    out = compact_table([v], cols=80)
    assert "why: sampled: no counterexample" in out and all(len(ln) <= 80 for ln in out.splitlines())
    ok = Verdict(id="mine/b", label="L", verdict="holds", expected="holds",
                 evidence=[_ev(verdict="holds", value=1.0, bound=2.0, point={"x": 1.0})])
    assert why(ok) == "" and "why:" not in compact_table([ok])


def test_a_differing_row_in_the_cli_table_says_why(tmp_path):
    f = claims_file(tmp_path, WRONG)
    r = dpverify_here("check", "--module", f, "--all", "--no-progress", *FAST)
    assert r.returncode == 1
    row = " ".join(r.stdout.split("mine/wrong", 1)[1].split())      # the reason may wrap
    assert re.search(r"why: .*measured [\d.e+-]+ vs bound [\d.e+-]+", row), r.stdout
    assert "replay:" in r.stdout            # a violation not expected shows its replay line by default


def test_compact_table_wraps_to_the_width_and_counts_one_claim():
    from dpverify.tables import SUBNORMAL, compact_table, degenerate, why  # noqa: F401 (new in issue 40)

    v = Verdict(id="mine/b", label="L", verdict="holds", expected="holds",
                evidence=[_ev(verdict="holds", statement=f"s{i}", basis=Basis(k, "x"), value=1.0, bound=2.0)
                          for i, k in enumerate(("worst-case", "monte-carlo", "exact-cases", "algebra"))])
    out = compact_table([v], cols=60)
    assert all(len(ln) <= 60 for ln in out.splitlines()), out
    assert out.startswith("1 claim: 1 as expected") and out.endswith("1 claim: 1 as expected, 0 differ.")
    assert "1 claims" not in out


# --------------------------------------------------------------------------- default boxes
def test_default_boxes_draw_no_subnormal_and_no_point_a_rounding_from_an_open_bound():
    import sys

    from dpverify.search import sample_points

    floor = 1e-6        # dpverify.claims.domain.DEFAULT_FLOOR, relative to the bound (absolute below 1)
    dom = Domain(Delta=Real(gt=0), u=Real(gt=0, lt=1), w=Real(lt=0))
    rng = np.random.default_rng(0)
    pts = [dom.draw_point(rng, hostile=True) for _ in range(3000)]
    pts += sample_points(dom.strategy(), 200, seed=3)
    assert min(p["Delta"] for p in pts) >= floor and all(abs(p["w"]) >= floor for p in pts)
    assert min(min(p["u"], 1 - p["u"]) for p in pts) >= floor / 2
    assert not any(0 < abs(v) < sys.float_info.min for p in pts for v in p.values())
    assert Real(gt=0, search=(0.0, 1.0)).box() == (0.0, 1.0)      # an explicit box is the user's own
    assert Real(gt=0, log=True).box()[0] > 0                      # a default log box is valid now


def test_a_degenerate_point_is_named():
    from dpverify.tables import degenerate, why

    sub = _ev(verdict="holds", point={"Delta": 5e-324}, value=0.0, bound=0.0)
    assert "Delta = 4.94066e-324 is subnormal (the bound is 0" in degenerate(sub)
    tiny = _ev(verdict="holds", point={"Delta": 1e-200}, value=1e-3, bound=0.0)
    assert "Delta = 1e-200 (the bound is 0)" == degenerate(tiny)
    # a bound exactly 0 (an identity, a bound at its edge) at an ordinary point is the claim's own
    assert degenerate(_ev(verdict="holds", point={"Delta": 1.0, "n": 3}, value=0.0, bound=0.0)) == ""
    assert degenerate(_ev(verdict="holds", point={"Delta": 1.0}, value=1.0, bound=2.0)) == ""
    v = Verdict(id="mine/d", label="L", verdict="holds", expected="holds", evidence=[sub])
    assert "degenerate point" in why(v)


# --------------------------------------------------------------------------- ids, help, list
def test_did_you_mean_for_a_mistyped_id_and_module_in_the_hint(tmp_path):
    r = dpverify_here("check", "dni/thm4.2", "--no-progress")
    assert r.returncode == 2 and "Did you mean 'dni/thm-4.2'" in r.stderr
    f = claims_file(tmp_path, TWO)
    r = dpverify_here("check", "mine/lose", "--module", f, "--no-progress")
    assert r.returncode == 2 and "Did you mean 'mine/loose'" in r.stderr and f"dpverify list --module {f}" in r.stderr
    r = dpverify_here("check", "mine/loose", "--no-progress")       # forgot --module
    assert r.returncode == 2 and "--module FILE" in r.stderr


@pytest.mark.parametrize("command", ["", "list", "check", "report", "certify", "constants", "reproduce"])
def test_help_shows_no_markup(command):
    r = dpverify_here(*([command] if command else []), "--help")
    assert r.returncode == 0 and "usage: dpverify" in r.stdout
    assert "`" not in r.stdout and ":func:" not in r.stdout, r.stdout


def test_list_shows_each_claims_statement_kinds(tmp_path):
    f = claims_file(tmp_path, '''
from dpverify import Identity
IDENT = Claim(id="mine/ident", source=_src("Lemma 1"), domain=Domain(x=Real(gt=0, le=4)),
              statements=(Identity("x + x = 2 x", lhs=x + x, rhs=2 * x),))
CLAIMS = (IDENT,)
''')
    r = dpverify_here("list", "--module", f, "--json")
    (row,) = [c for c in json.loads(r.stdout) if c["id"] == "mine/ident"]
    assert row["kind"] == "identity"


# --------------------------------------------------------------------------- input (issue 40, item 9)
def test_a_sympy_rational_is_a_number_and_a_refusal_names_the_claim_and_parameter():
    assert Real(lt=sp.Rational(1, 1000)).lt == 0.001
    assert Real(gt=sp.Integer(0), search=(sp.Rational(1, 10), 1)).search == (0.1, 1.0)
    x = sp.Symbol("x")
    with pytest.raises(ClaimError) as info:
        Claim(id="mine/bad", source=Source("notes", "Lemma 1"), domain=Domain(x=Real(lt="one")),
              statements=(Inequality("x <= x", lhs=x, rhs=x),))
    msg = str(info.value)
    assert "mine/bad" in msg and "'x'" in msg and "lt" in msg and "'one'" in msg


def test_a_claim_expected_violated_without_a_witness_is_warned_about(tmp_path):
    f = claims_file(tmp_path, '''
NOWIT = Claim(id="mine/nowit", source=_src("Lemma 3"), domain=Domain(x=Real(gt=0, le=4)),
              statements=(Inequality("x^2 <= x", lhs=x**2, rhs=x),), expected="violated", reason="fails above 1")
CLAIMS = (NOWIT,)
''')
    r = dpverify_here("list", "--module", f, "--no-cache")
    assert r.returncode == 0 and "mine/nowit is expected 'violated' but gives no witness" in r.stderr


def test_a_claim_ending_in_error_keeps_the_statements_that_ran(monkeypatch):
    from dpverify import checks

    x = sp.Symbol("x", positive=True)
    claim = Claim(id="mine/two", source=Source("notes", "Lemma 1"), domain=Domain(x=Real(gt=0, le=4)),
                  statements=(Inequality("a", lhs=x, rhs=x + 1), Inequality("b", lhs=x, rhs=2 * x + 1)))
    sampled = checks.BY_NAME["sampled"]
    broken = dataclasses.replace(sampled, check=lambda st, c, cfg: None if st.name == "b" else sampled.check(st, c, cfg))
    monkeypatch.setattr(checks, "KINDS", tuple(broken if k is sampled else k for k in checks.KINDS))
    v = checks.run(claim, checks.Config(samples=20))
    assert v.verdict == "error" and "not an Evidence" in v.error
    kept = [e for e in v.evidence if e.statement == "a"]
    assert kept and all(e.verdict in ("holds", "verified") for e in kept)
    assert any(e.statement == "b" and e.verdict not in ("error",) for e in v.evidence)   # b's other checks ran
    assert math.isfinite(v.seconds)


def test_progress_on_a_terminal_is_a_bar_with_the_headline_above_it():
    import io

    from dpverify.runner import Progress

    v = Verdict(id="mine/a", label="L", verdict="holds", expected="holds", evidence=[], seconds=1.0)
    out = io.StringIO()
    bar = Progress(2, stream=out, tty=True)
    bar.note("dpverify: checking 2 claims")
    bar.cached(1)
    bar.finished(v)
    bar.close()
    text = out.getvalue()
    assert "dpverify: checking 2 claims" in text and "2/2" in text and "mine/a: holds" in text
    assert "[2/2]" not in text                       # a bar, not the lines of a pipe
    quiet = io.StringIO()
    off = Progress(2, stream=quiet, tty=False, enabled=False)
    off.note("x")
    off.finished(v)
    assert quiet.getvalue() == ""


def test_progress_under_a_pseudo_terminal_of_size_zero_is_a_bar(tmp_path):
    """`script -q -c`, CI runners: stderr a pty whose size is 0x0 -- tqdm took 0 rows and drew nothing."""
    import os
    import subprocess
    import sys

    from test_cli_faults import ROOT

    f = claims_file(tmp_path, GOOD + "CLAIMS = (GOOD,)\n")
    master, slave = os.openpty()            # a new pty: 0 columns, 0 rows
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    env.pop("COLUMNS", None)
    env.pop("LINES", None)
    proc = subprocess.Popen([sys.executable, "-m", "dpverify", "check", "--module", f, "--all", "--no-cache", *FAST],
                            stdout=subprocess.PIPE, stderr=slave, stdin=subprocess.DEVNULL, env=env, cwd=tmp_path)
    os.close(slave)
    chunks = []
    while True:
        try:
            data = os.read(master, 4096)
        except OSError:                     # EIO: the child closed its end
            break
        if not data:
            break
        chunks.append(data)
    proc.communicate(timeout=600)
    os.close(master)
    err = b"".join(chunks).decode("utf-8", "replace")
    assert proc.returncode == 0
    assert "dpverify: checking 1 claim" in err and "1/1" in err and "mine/good" in err, err
