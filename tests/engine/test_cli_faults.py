"""What a new user meets when things go wrong (issue 20): each test writes a claims file in a temporary
folder and runs the command line on it, as the user did. Nothing ends a run: a check that
raises gives the verdict ``error`` (exit 3), a killed worker is replaced, Ctrl-C writes the verdicts
finished so far; every bad input is refused at once with one line naming it (exit 2), never a traceback.

Where the process is what a test is about (worker processes killed or started, Ctrl-C, the exit code of
the interpreter, ``sys.exit`` in a user's module, the pytest plugin, a replay from another folder) the
command runs in a subprocess (:func:`dpverify`); elsewhere :func:`dpverify_here` runs the same command line
through ``dpverify.cli.main`` in this process (no start-up of a second interpreter), with the same exit
code, standard output and standard error."""
from __future__ import annotations

import contextlib
import io
import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
FAST = ["--no-progress", "--samples", "20", "--runs", "2000"]

HEAD = '''
import os, signal
import sympy as sp
from sympy.utilities.lambdify import implemented_function
from dpverify import Claim, Domain, ExpectationBound, Inequality, Real, Source, SupBound
from dpverify.quantifiers import Infimum
from dpverify.scenarios import gaussian_mechanism
PARENT = os.getpid()   # the dpverify process: the module is imported before any worker starts
x, d, s, a, rho, delta = sp.symbols("x d s a rho delta", positive=True)
_src = Source.for_document("my notes")
'''

GOOD = '''
GOOD = Claim(id="mine/good", source=_src("Lemma 1"), domain=Domain(x=Real(gt=0, le=4)),
             statements=(Inequality("x <= x + 1", lhs=x, rhs=x + 1),))
'''


def claims_file(tmp_path, body: str, name: str = "claims.py") -> str:
    p = tmp_path / name
    p.write_text(HEAD + textwrap.dedent(body))
    return str(p)


def dpverify(*argv, cwd=None, env=None) -> subprocess.CompletedProcess:
    full_env = {**os.environ, "PYTHONPATH": str(ROOT), **(env or {})}
    full_env.pop("DPVERIFY_TRACEBACK", None)
    return subprocess.run([sys.executable, "-m", "dpverify", *argv], capture_output=True, text=True,
                          cwd=cwd, env=full_env, timeout=600)


def dpverify_here(*argv, env=None) -> subprocess.CompletedProcess:
    """``dpverify ARGV`` through ``dpverify.cli.main`` in this process: its exit code (an argparse refusal's
    too), standard output and standard error, as :func:`dpverify` returns them; ``env`` is set meanwhile."""
    from dpverify.cli import main

    saved = {k: os.environ.get(k) for k in [*(env or {}), "DPVERIFY_TRACEBACK"]}
    os.environ.pop("DPVERIFY_TRACEBACK", None)
    os.environ.update(env or {})
    out, err = io.StringIO(), io.StringIO()
    try:
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            try:
                code = main([str(a) for a in argv])
            except SystemExit as exc:
                code = exc.code
    finally:
        for k, v in saved.items():
            if v is None:
                os.environ.pop(k, None)
            else:
                os.environ[k] = v
    return subprocess.CompletedProcess(["dpverify", *argv], code, out.getvalue(), err.getvalue())


def without_own_scripts(page: str) -> str:
    """The HTML report ``page`` without its own two scripts (KaTeX's, vendored, and the renderer), which
    must be exactly those fixed texts: what is left must carry no script at all."""
    from dpverify.report_html import RENDER_JS, katex_assets

    js = katex_assets()[1]
    assert page.count("<script") == 2, page.count("<script")
    assert f"<script>{js}</script>" in page and f"<script>{RENDER_JS}</script>" in page
    return page.replace(f"<script>{js}</script>", "").replace(f"<script>{RENDER_JS}</script>", "")


def one_line_error(r, code: int, *words):
    assert r.returncode == code, (r.returncode, r.stdout[-2000:], r.stderr[-2000:])
    assert "Traceback" not in r.stderr, r.stderr
    lines = [ln for ln in r.stderr.splitlines() if ln.startswith("dpverify: error:")]
    assert len(lines) == 1, r.stderr
    for w in words:
        assert w in lines[0], (w, lines[0])
    return lines[0]


def strict_json(text: str):
    def refuse(name):
        raise ValueError(f"not strict JSON: {name}")
    return json.loads(text, parse_constant=refuse)


# --------------------------------------------------------------------------- construction refused
@pytest.mark.parametrize("body, words", [
    # a quantifier where a scenario parameter needs a number (the user's 46 s and NameError)
    ('''
     EPS = Infimum(rho * a + sp.log(1 / delta) / (a - 1), a, 1, sp.oo)
     CLAIMS = [Claim(id="mine/gauss", source=_src("Lemma 1"),
                     domain=Domain(d=Real(gt=0, le=2), s=Real(gt=0.5, le=5), rho=Real(gt=0, le=1),
                                   delta=Real(gt=0, lt=0.1)),
                     statements=(SupBound("priv", bound=delta, kind="privacy",
                                          scenario=gaussian_mechanism(sensitivity=d, noise_std=s, eps=EPS,
                                                                      measure="delta_at_eps")),))]
     ''', ["eps", "Infimum"]),
    ('''
     gaussian_mechanism(sensitivity=d, noise_std=s, eps=1, epsilon=2, measure="delta_at_eps")
     ''', ["epsilon"]),
    ('''
     Domain(x=Real(gt=5, lt=1))
     ''', ["Real(gt=5, lt=1) is empty"]),
    ('''
     Domain(x=Real(gt=5, search=(0, 3)))
     ''', ["search=(0, 3)", "outside the hypotheses"]),
    ('''
     ExpectationBound("e", bound=1, scenario=42)
     ''', ["scenario must be a scenario", "42"]),
    ('''
     import sys
     sys.exit(0)
     ''', ["sys.exit(0)"]),
    ('''
     CLAIMS = [Claim(id="dni/thm-4.1", source=_src("Lemma 1"), domain=Domain(x=Real(gt=0, le=4)),
                     statements=(Inequality("x <= x + 1", lhs=x, rhs=x + 1),))]
     ''', ["'dni/thm-4.1'", "registered paper"]),
])
def test_a_construction_that_cannot_work_is_refused_naming_it(tmp_path, body, words):
    path = claims_file(tmp_path, GOOD + textwrap.dedent(body) + ("\nCLAIMS = [GOOD]\n" if "CLAIMS" not in body else ""))
    run = dpverify if "sys.exit" in body else dpverify_here   # sys.exit: the process's own exit code
    r = run("check", "--all", "--module", path, "--json", *FAST)
    one_line_error(r, 2, *words)
    assert r.stdout == ""


# --------------------------------------------------------------------------- a check that raises
BROKEN = GOOD + '''
def _boom(v):
    raise RuntimeError("the user's function failed")
f = implemented_function("f", _boom)
BROKEN = Claim(id="mine/broken", source=_src("Lemma 2"), domain=Domain(x=Real(gt=0, le=4)),
               statements=(Inequality("f(x) <= 1", lhs=f(x), rhs=1),))
CLAIMS = [BROKEN, GOOD]
'''


@pytest.mark.parametrize("jobs", ["1", "2"])
def test_a_check_that_raises_is_an_error_verdict_and_the_run_goes_on(tmp_path, jobs):
    path = claims_file(tmp_path, BROKEN)
    run = dpverify if jobs == "2" else dpverify_here   # --jobs 2: worker processes of a dpverify process
    r = run("check", "--all", "--module", path, "--json", "--jobs", jobs, *FAST)
    assert r.returncode == 3 and "Traceback" not in r.stderr, r.stderr
    got = {v["id"]: v for v in strict_json(r.stdout)}
    assert got["mine/broken"]["verdict"] == "error" and got["mine/broken"]["ok"] is False
    assert got["mine/good"]["verdict"] in ("holds", "verified") and got["mine/good"]["ok"]
    (line,) = [ln for ln in r.stderr.splitlines() if ln.startswith("dpverify: error:")]
    for word in ("mine/broken", "'f(x) <= 1'", "'sampled'", "RuntimeError", "the user's function failed"):
        assert word in line
    table = run("check", "--all", "--module", path, "--jobs", jobs, *FAST)
    assert table.returncode == 3 and "mine/broken" in table.stdout and "error" in table.stdout


def test_exit_one_not_three_when_a_verdict_only_differs(tmp_path):
    path = claims_file(tmp_path, '''
        WRONG = Claim(id="mine/wrong", source=_src("Lemma 1"), domain=Domain(x=Real(gt=0, le=4)),
                      statements=(Inequality("x <= x + 1", lhs=x, rhs=x + 1),), expected="violated", reason="wrong")
        CLAIMS = [WRONG]
        ''')
    r = dpverify("check", "--all", "--module", path, *FAST)
    assert r.returncode == 1 and "differs" in r.stdout


# --------------------------------------------------------------------------- workers and Ctrl-C
KILLED = '''
def _die_once(v):
    """The first call in a worker process kills that process (SIGKILL), once per run."""
    marker = os.environ["FAULTS_MARKER"]
    if os.getpid() != PARENT and not os.path.exists(marker):
        open(marker, "w").close()
        os.kill(os.getpid(), signal.SIGKILL)
    return v
g = implemented_function("g", _die_once)
CLAIMS = [Claim(id=f"mine/c{k}", source=_src(f"Lemma {k}"), domain=Domain(x=Real(gt=0, le=4)),
                statements=(Inequality("g(x) <= x + k", lhs=g(x), rhs=x + k),)) for k in (1, 2, 3)]
'''


def test_a_killed_worker_is_replaced_and_its_claim_rerun(tmp_path):
    path = claims_file(tmp_path, KILLED)
    marker = tmp_path / "killed"
    args = ["check", "--all", "--module", path, "--json", "--no-timing", *FAST]
    pooled = dpverify(*args, "--jobs", "2", env={"FAULTS_MARKER": str(marker)})
    assert marker.exists(), "a worker was killed"
    assert pooled.returncode == 0, pooled.stderr
    alone = dpverify_here(*args, "--jobs", "1", env={"FAULTS_MARKER": str(tmp_path / "alone")})
    assert (tmp_path / "alone").exists()         # --jobs 1 checks in a worker process too (issue 36): it
    assert alone.returncode == 0, alone.stderr   # was killed, replaced, and its claim checked again
    assert strict_json(pooled.stdout) == strict_json(alone.stdout)


def test_a_task_that_always_kills_its_worker_gets_error_not_a_hang():
    from dpverify.distributed import process_map

    out = process_map(_kill_self_on_two, [1, 2, 3], workers=2, on_lost=lambda i, exc: f"lost: {exc}", retries=1)
    assert out[0] == 1 and out[2] == 3
    assert out[1].startswith("lost: its worker process died 2 times")


def _kill_self_on_two(v):
    if v == 2:
        os.kill(os.getpid(), 9)
    return v


INTERRUPT = '''
def _ctrl_c(v):
    os.kill(PARENT, signal.SIGINT)     # Ctrl-C, while the second claim is checked
    return v
h = implemented_function("h", _ctrl_c)
CLAIMS = [Claim(id=f"mine/c{k}", source=_src(f"Lemma {k}"), domain=Domain(x=Real(gt=0, le=4)),
                statements=(Inequality("x <= x + k", lhs=(h(x) if k == 2 else x), rhs=x + k),)) for k in (1, 2, 3)]
'''


@pytest.mark.parametrize("jobs", ["1", "2"])
def test_ctrl_c_writes_the_verdicts_finished_so_far_marked_incomplete(tmp_path, jobs):
    path = claims_file(tmp_path, INTERRUPT)
    r = dpverify("check", "--all", "--module", path, "--json", "--jobs", jobs, *FAST)
    assert r.returncode == 130 and "Traceback" not in r.stderr, r.stderr
    data = strict_json(r.stdout)
    *verdicts, mark = data
    assert mark["incomplete"] is True and "mine/c2" in mark["missing"]
    assert sorted([v["id"] for v in verdicts] + mark["missing"]) == ["mine/c1", "mine/c2", "mine/c3"]
    if jobs == "1":
        assert [v["id"] for v in verdicts] == ["mine/c1"]
    rep = dpverify_here("report", "--from", str(_write(tmp_path / "run.json", r.stdout)), "--module", path)
    one_line_error(rep, 2, "incomplete")


def _write(p: Path, text: str) -> Path:
    p.write_text(text)
    return p


# --------------------------------------------------------------------------- bad input, refused at once
SPY = GOOD + '''
def _spy(v):
    open(os.environ["FAULTS_SPY"], "w").close()
    return v
k = implemented_function("k", _spy)
SPIED = Claim(id="mine/spied", source=_src("Lemma 2"), domain=Domain(x=Real(gt=0, le=4)),
              statements=(Inequality("k(x) <= x + 1", lhs=k(x), rhs=x + 1),))
CLAIMS = [GOOD, SPIED]
'''


@pytest.mark.parametrize("extra, words", [
    (["report", "--out", "{tmp}/missing/report.md"], ["--out", "does not exist"]),
    (["check", "--scheduler", "bogus"], ["--scheduler 'bogus'", "not a scheduler address"]),
    (["check", "--scheduler", ""], ["--scheduler ''", "empty"]),
    (["report", "--scheduler", "bogus"], ["--scheduler 'bogus'"]),
])
def test_bad_options_are_refused_before_any_check_runs(tmp_path, extra, words):
    path = claims_file(tmp_path, SPY)
    spy = tmp_path / "checked"
    cmd, *rest = [e.replace("{tmp}", str(tmp_path)) for e in extra]
    args = [cmd, *(["--all"] if cmd == "check" else []), "--module", path, *rest, *FAST]
    r = dpverify_here(*args, env={"FAULTS_SPY": str(spy)})
    one_line_error(r, 2, *words)
    assert not spy.exists(), "no check ran"


@pytest.mark.parametrize("at, words", [
    ("x=1,x=2", ["x is given twice"]),
    ("x=[1.0", ["'[' without ']'"]),
    ("x=1.0]", ["']' without '['"]),
    ("x=", ["x has no value"]),
])
def test_bad_at_is_refused_naming_it(tmp_path, at, words):
    path = claims_file(tmp_path, GOOD + "CLAIMS = [GOOD]\n")
    one_line_error(dpverify_here("check", "mine/good", "--module", path, "--at", at, *FAST), 2, *words)


def test_at_reads_integers_exactly():
    from dpverify.cli import parse_at

    big = 2**53 + 1
    assert parse_at(f"T={big},q=[1,2.5]") == {"T": big, "q": [1.0, 2.5]}
    assert type(parse_at("T=3")["T"]) is int and type(parse_at("T=3.0")["T"]) is float


def test_an_existential_parameter_may_be_left_out_of_at(tmp_path):
    path = claims_file(tmp_path, '''
        EX = Claim(id="mine/exists", source=_src("Lemma 3"), domain=Domain(x=Real(gt=0, le=4), a=Real(ge=0, le=10)),
                   statements=(Inequality("some a >= x", lhs=x, rhs=a, exists=("a",)),))
        CLAIMS = [EX]
        ''')
    r = dpverify_here("check", "mine/exists", "--module", path, "--at", "x=3", "--json", *FAST)
    assert r.returncode == 0, r.stderr
    (v,) = strict_json(r.stdout)
    assert v["verdict"] == "holds" and v["at"] == {"x": 3}
    given = dpverify_here("check", "mine/exists", "--module", path, "--at", "x=3,a=0", *FAST)
    assert given.returncode == 0 and "a is existentially quantified" in given.stderr


def test_json_is_strict_with_non_finite_numbers_as_strings():
    from dpverify.cli import _verdicts_json
    from dpverify.verdict import Verdict

    v = _verdict("mine/inf", "violated", "violated", value=float("inf"), bound=1.0, min_margin=float("-inf"),
                 data={"ratio": float("nan")})
    text = _verdicts_json([v], timing=False)
    assert "Infinity" not in text and "NaN" not in text
    (row,) = strict_json(text)
    ev = row["evidence"][0]
    assert (ev["value"], ev["min_margin"], ev["data"]["ratio"]) == ("inf", "-inf", "nan")
    back = Verdict.from_json(row).evidence[0]
    assert back.value == float("inf") and back.min_margin == float("-inf")


# --------------------------------------------------------------------------- reports
def test_report_from_a_run_needs_its_module(tmp_path):
    path = claims_file(tmp_path, GOOD + "CLAIMS = [GOOD]\n")
    run = dpverify_here("check", "--all", "--module", path, "--json", *FAST)
    saved = _write(tmp_path / "run.json", run.stdout)
    one_line_error(dpverify_here("report", "--from", str(saved)), 2, "mine/good", "--module")
    ok = dpverify_here("report", "--from", str(saved), "--module", path)
    assert ok.returncode == 0 and "1 claims checked" in ok.stdout and "mine/good" in ok.stdout


def _verdict(claim_id, verdict, expected, **kw):
    from dpverify.verdict import Evidence, Verdict

    return Verdict(id=claim_id, label="L", verdict=verdict, expected=expected,
                   evidence=[Evidence(check="sampled", statement="s", verdict=verdict, **kw)])


def _claims(tmp_path, body):
    from dpverify import registry

    return list(registry.load_module(claims_file(tmp_path, body, name=f"c{abs(hash(body))}.py")).CLAIMS)


def test_errata_come_from_verdicts_and_cells_are_never_empty(tmp_path):
    from dpverify.report import render

    claims = _claims(tmp_path, '''
        WRONG = Claim(id="mine/wrong", source=_src("Lemma 5"), domain=Domain(x=Real(gt=0, le=4)),
                      statements=(Inequality("x <= 1", lhs=x, rhs=1),), expected="violated",
                      reason="fails for x > 1 <b>bold</b>", summary="x <= 1 <script>alert(1)</script>")
        FINE = Claim(id="mine/fine", source=_src("Lemma 6"), domain=Domain(x=Real(gt=0, le=4)),
                     statements=(Inequality("x <= 5", lhs=x, rhs=5),))
        CLAIMS = [WRONG, FINE]
        ''')
    # the run finds the claim expected violated holding, and the other one violated
    verdicts = [_verdict("mine/wrong", "holds", "violated"),
                _verdict("mine/fine", "violated", "holds", counterexample={"params": {"x": 4.5}, "seed": 0})]
    md = render(verdicts, claims, "md")
    errata = md.split("## Errata")[1].split("## Every claim")[0]
    table = [ln for ln in errata.splitlines() if ln.startswith("| `mine/")]
    assert [ln.split("`")[1] for ln in table] == ["mine/fine"]
    assert "not found violated by this run" in errata and "mine/wrong" in errata
    assert "| |" not in table[0] and "||" not in table[0].replace("\\|", "")
    assert "<script>" not in md and "&lt;script>" in md and "<b>" not in md
    assert "--module" in table[0]
    html = without_own_scripts(render(verdicts, claims, "html"))
    assert "<td></td>" not in html.split("<h2>Every claim")[0] and "<script" not in html


def test_a_holds_never_shows_a_negative_margin():
    from dpverify.tables import margin_cell

    v = _verdict("mine/x", "holds", "holds", min_margin=-1.5e-11, value=1.0, bound=1.0)
    assert "0 (rounding: -1.5e-11)" in v._repr_html_()
    assert margin_cell("violated", -0.5) == "-0.5" and margin_cell("holds", 0.25) == "0.25"


def test_report_tex_is_a_latex_errata_table(tmp_path):
    path = claims_file(tmp_path, '''
        WRONG = Claim(id="mine/wrong_1", source=_src("Lemma 5"), domain=Domain(x=Real(gt=0, le=4)),
                      statements=(Inequality("x <= 1", lhs=x**2, rhs=1),), expected="violated",
                      reason="fails for x > 1 & 100% of x_2", summary="x^2 <= 1", witness={"x": 2})
        CLAIMS = [WRONG, WRONG.corrected(statements=(Inequality("x^2 <= 16", lhs=x**2, rhs=16),),
                                         summary="x^2 <= 16")]
        ''')
    r = dpverify_here("report", "--errata", "--format", "tex", "--module", path)
    assert r.returncode == 0, r.stderr
    tex = r.stdout
    assert tex.startswith(r"\begin{longtable}") and tex.rstrip().endswith(r"\end{longtable}")
    assert r"mine/wrong\_1" in tex and r"\& 100\% of x\_2" in tex and "x^2 <= 1" not in tex
    assert r"$x^{2} \le 1$" in tex and r"mine/wrong\_1-corrected" in tex and r"--module" in tex


# --------------------------------------------------------------------------- replay lines
def test_pytest_replay_names_the_module_and_node_ids_select_one_claim(tmp_path):
    path = claims_file(tmp_path, '''
        A = Claim(id="mine/a", source=_src("Lemma 7"), domain=Domain(x=Real(gt=0, le=4)),
                  statements=(Inequality("x <= 1", lhs=x, rhs=1),))
        B = Claim(id="mine/b", source=_src("Lemma 8"), domain=Domain(x=Real(gt=0, le=4)),
                  statements=(Inequality("x <= 5", lhs=x, rhs=5),))
        CLAIMS = [A, B]
        ''')
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    base = [sys.executable, "-m", "pytest", "-q", "-n", "0", "-p", "no:cacheprovider",
            "--rootdir", str(tmp_path), "--dpverify-claims", path]
    r = subprocess.run([*base, path], capture_output=True, text=True, cwd=tmp_path, env=env, timeout=600)
    assert "1 failed, 1 passed" in r.stdout, r.stdout[-3000:]
    (line,) = {ln.strip() for ln in r.stdout.splitlines() if "replay: dpverify check mine/a" in ln}
    assert f"--module {path}" in line
    cmd = line.split("replay: ", 1)[1].split()
    again = dpverify(*cmd[1:], *FAST, cwd="/")
    assert again.returncode == 1 and "violated" in again.stdout, again.stderr   # it replays, from anywhere
    one = subprocess.run([*base, f"{path}::mine/b"], capture_output=True, text=True, cwd=tmp_path, env=env,
                         timeout=600)
    assert "1 passed" in one.stdout and "failed" not in one.stdout, one.stdout[-3000:]


def _pause(x):
    import time

    time.sleep(x)
    return x


def test_an_interrupted_pool_leaves_no_manager_thread_running():
    """Ctrl-C while process_map waits: its workers are ended and the executor's manager thread has finished
    when the KeyboardInterrupt reaches the caller. A manager thread still running at interpreter exit races
    with concurrent.futures' exit handler, which then writes to a pipe the thread has just closed
    (CPython gh-125451, in 3.11: "OSError: [Errno 9] Bad file descriptor" printed after `dpverify: interrupted`)."""
    import threading

    from dpverify.distributed import process_map

    def interrupt(i, result):
        raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        process_map(_pause, [0.0, 0.5, 0.5, 0.5], workers=2, on_result=interrupt)
    running = [t for t in threading.enumerate() if type(t).__name__ == "_ExecutorManagerThread" and t.is_alive()]
    assert running == []


def _kill_self_once(task):
    """Kill this worker the first time task 1 runs (a marker file remembers it), return the task's square."""
    v, marker = task
    if v == 1 and not os.path.exists(marker):
        open(marker, "w").close()
        os.kill(os.getpid(), 9)
    return v * v


def test_a_figure_s_tasks_survive_a_killed_worker(tmp_path):
    """A reproduced figure's worker that is killed (out of memory, say) is replaced and its task run again;
    multiprocessing.Pool, which parallel_map used before, waited for ever on the dead worker's task (a CI run
    stalled for an hour in `dpverify reproduce` under pytest). A task that kills every worker it meets is an
    error naming how its worker died."""
    from dpverify.experiments import parallel_map

    marker = str(tmp_path / "killed")
    out = parallel_map(_kill_self_once, [(v, marker) for v in range(4)], jobs=2, progress=False)
    assert os.path.exists(marker), "the worker was killed"
    assert out == [0, 1, 4, 9]
    with pytest.raises(RuntimeError, match=r"worker process died 3 times .*signal 9 \(SIGKILL\)"):
        parallel_map(_kill_self_on_two, [1, 2, 3], jobs=2, progress=False)
