"""Certificates of violations (dpverify.certify): every generated check.py runs in a subprocess that
cannot import dpverify, passes on a real violation, and fails on a tampered witness."""
import json
import os
import subprocess
import sys
import textwrap
from fractions import Fraction
from pathlib import Path

import pytest
import sympy as sp

from dpverify import registry
from dpverify.certify import certify
from dpverify.arb_source import ArbSource, Unprintable
from dpverify.certify.runtime import AUDIT, RUNTIME
from dpverify.checks import Config, run
from dpverify.cli import main

TEXTBOOK = str(Path(__file__).resolve().parents[1] / "textbook" / "claims.py")

MODULE = textwrap.dedent('''
    import sympy as sp
    from dpverify import Claim, Domain, Inequality, Infimum, Real, Relation, Source, SupBound
    from dpverify.scenarios import gaussian_mechanism, subsampled_dp

    x, y, a, eps, delta, rate = sp.symbols("x y a epsilon delta rate")
    SRC = Source("certify tests", "planted")
    _xy = Domain(Relation(sp.Lt(y, x + 10), "y < x + 10"), x=Real(gt=0, search=(1e-3, 10.0), log=True),
                 y=Real(ge=0, search=(0.0, 1.0)))
    SQUARE = Claim(id="certtest/square", source=SRC, domain=_xy,
                   statements=(Inequality("x + y/100 <= x^2 + y/100", lhs=x + y / 100, rhs=x**2 + y / 100),),
                   expected="violated", reason="planted: fails for x < 1", witness={"x": 0.5, "y": 0.0})
    AM_GM = Claim(id="certtest/am-gm", source=SRC, domain=_xy,
                  statements=(Inequality("sqrt(x y) <= (x + y)/2", lhs=sp.sqrt(x * y), rhs=(x + y) / 2),))
    INF = Claim(id="certtest/inf", source=SRC, domain=_xy,
                statements=(Inequality("x <= inf_a (a + x^2/a)/4", lhs=x,
                                       rhs=Infimum((a + x**2 / a) / 4, a, 0, sp.oo)),),
                expected="violated", reason="planted: the infimum is x/2")
    CALIBRATION = Claim(
        id="certtest/calibration", source=SRC,
        domain=Domain(epsilon=Real(gt=0, le=50, search=(1e-3, 50.0), log=True),
                      delta=Real(gt=0, lt=1, search=(1e-10, 0.1), log=True)),
        statements=(SupBound("exact delta at eps", bound=delta, kind="privacy",
                             scenario=gaussian_mechanism(sensitivity=1, eps=eps, measure="delta_at_eps",
                                                         noise_std=sp.sqrt(2 * sp.log(sp.Rational(5, 4) / delta)) / eps)),),
        expected="violated", reason="planted: the classical calibration fails for large eps",
        witness={"epsilon": 20.0, "delta": 0.1})
    AMPLIFIED = Claim(
        id="certtest/amplified", source=SRC,
        domain=Domain(epsilon=Real(gt=0, search=(1e-2, 20.0), log=True), delta=Real(ge=0, lt=1, search=(0.0, 0.1)),
                      rate=Real(gt=0, le=1, search=(1e-2, 1.0), log=True)),
        statements=(SupBound("eps' at rate delta <= rate eps", bound=rate * eps, kind="privacy",
                             scenario=subsampled_dp(eps=eps, delta=delta, sampling=rate, target_delta=rate * delta)),),
        expected="violated", reason="planted: amplification is ln(1 + rate (e^eps - 1)), above rate eps",
        witness={"epsilon": 10.0, "delta": 0.0, "rate": 0.01})
    CLAIMS = (SQUARE, AM_GM, INF, CALIBRATION, AMPLIFIED)
''')

# Run check.py with the editable install's finder and every path holding a dpverify package removed,
# and refuse to run it when dpverify is still importable there (python-flint stays importable).
ISOLATED = textwrap.dedent('''
    import os, runpy, sys
    sys.meta_path[:] = [f for f in sys.meta_path if "editable" not in repr(f).lower()]
    sys.path[:] = [p for p in sys.path if not os.path.isdir(os.path.join(p or ".", "dpverify"))]
    try:
        import dpverify
    except ImportError:
        pass
    else:
        print("dpverify is importable"); sys.exit(3)
    sys.argv = ["check.py"]
    runpy.run_path("check.py", run_name="__main__")
''')


def run_isolated(folder):
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "PYTHONHOME", "PYTHONSTARTUP")}
    res = subprocess.run([sys.executable, "-I", "-c", ISOLATED], cwd=folder, env=env, capture_output=True,
                         text=True, timeout=300)
    assert res.returncode != 3, "the subprocess could import dpverify"
    return res.returncode, res.stdout.strip()


@pytest.fixture(scope="module")
def module_file(tmp_path_factory):
    path = tmp_path_factory.mktemp("claims") / "certtest_claims.py"
    path.write_text(MODULE)
    return str(path)


_PAPER_VERDICTS: dict = {}


def _certify(claim_id, modules, out, samples=40):
    claim = registry.get(claim_id, modules)
    if modules:
        verdict = run(claim, Config(seed=0, samples=samples))
    else:   # a registered paper's claim (one object per process): its verdict computed once per process
        key = (claim_id, samples)
        if key not in _PAPER_VERDICTS or _PAPER_VERDICTS[key][0] is not claim:
            _PAPER_VERDICTS[key] = (claim, run(claim, Config(seed=0, samples=samples)))
        verdict = _PAPER_VERDICTS[key][1]
    return claim, verdict, certify(claim, verdict, str(out))


# The tests that certify pur/claim-iterate-radius share its verdict (one worker runs them).
ITERATE_RADIUS = pytest.mark.xdist_group("certify-pur-iterate-radius")


def certified_then_tampered(claim_id, modules, tmp_path, kind, passes, witness, samples=40):
    """Certify ``claim_id`` (a ``kind`` certificate whose check line contains ``passes``), then move its
    witness by ``witness`` and return the tampered check's exit code and line."""
    _, verdict, out = _certify(claim_id, modules, tmp_path, samples)
    assert verdict.verdict == "violated"
    assert out.status == "certified" and out.kind == kind, out.line()
    code, line = run_isolated(out.folder)
    assert code == 0 and passes in line, line
    cert_path = Path(out.folder) / "certificate.json"
    cert = json.loads(cert_path.read_text())
    cert["witness"].update(witness)
    cert_path.write_text(json.dumps(cert))
    return run_isolated(out.folder)


def test_isolated_subprocess_cannot_import_dpverify(tmp_path):
    (tmp_path / "check.py").write_text("import flint, sys\nprint('flint', flint.__version__)\nsys.exit(0)\n")
    code, line = run_isolated(tmp_path)
    assert code == 0 and line.startswith("flint")


def test_planted_analytic_violation_is_certified_and_tampering_fails(module_file, tmp_path):
    claim, verdict, out = _certify("certtest/square", [module_file], tmp_path)
    assert verdict.verdict == "violated"
    assert out.status == "certified" and out.kind == "analytic", out.line()
    code, line = run_isolated(out.folder)
    assert code == 0 and line.startswith("CERTIFIED certtest/square"), line
    cert_path = Path(out.folder) / "certificate.json"
    cert = json.loads(cert_path.read_text())
    x = Fraction(cert["witness"]["x"])
    assert 0 < x < 1 and float(x) == verdict.counterexample["params"]["x"]   # the float, exactly
    for tampered, expect in (({"x": "2/1"}, "holds at the witness"),             # where the claim holds
                             ({"x": "-1/2"}, "outside the claim's hypotheses"),  # a bound violated
                             ({"x": "1/2", "y": "20/1"}, "violates the hypothesis y < x + 10"),
                             ({"x": 0.5}, "bad witness")):                       # a JSON float, not "p/q"
        cert["witness"].update(tampered)
        cert_path.write_text(json.dumps(cert))
        code, line = run_isolated(out.folder)
        assert code == 1 and line.startswith("NOT CERTIFIED") and expect in line, (tampered, line)
        cert["witness"].update({"x": str(x), "y": "0/1"})


def test_planted_gaussian_privacy_violation_is_certified(module_file, tmp_path):
    code, line = certified_then_tampered("certtest/calibration", [module_file], tmp_path, "gaussian-privacy",
                                         "delta(eps) >=", {"epsilon": "1/2", "delta": "1/10"})  # small eps: it holds
    assert code == 1 and "meets the claim" in line, line


def test_planted_subsampling_violation_is_certified_from_the_four_atoms(module_file, tmp_path):
    """eps' <= rate eps fails for every eps > 0 (ln(1 + r(e^eps - 1)) > r eps); the certificate computes the
    subsampled canonical pair's delta at the claimed eps' in ball arithmetic. Moved to rate = 1 the claim is
    tight (eps' = eps): the checker must not certify it (it cannot separate equal values)."""
    code, line = certified_then_tampered("certtest/amplified", [module_file], tmp_path, "subsampled-pair",
                                         "its eps' exceeds the claim", {"rate": "1/1"})
    assert code == 1 and line.startswith("NOT CERTIFIED"), line


def test_true_claim_is_not_certified(module_file, tmp_path):
    _, verdict, out = _certify("certtest/am-gm", [module_file], tmp_path)
    assert verdict.verdict != "violated"
    assert out.status == "not violated"
    assert not os.listdir(tmp_path)


def test_quantified_statement_gets_no_certificate_with_the_reason(module_file, tmp_path):
    _, verdict, out = _certify("certtest/inf", [module_file], tmp_path)
    assert verdict.verdict == "violated"
    assert out.status == "no certificate" and "Infimum" in out.reason
    assert not os.listdir(tmp_path)


@pytest.mark.parametrize("claim_id, kind", [("textbook/claim-cauchy-schwarz-no-t", "analytic"),
                                            ("textbook/claim-power-mean-reversed", "analytic"),
                                            ("textbook/claim-gaussian-calibration-any-eps", "gaussian-privacy"),
                                            ("textbook/claim-zcdp-to-dp-sqrt", "gaussian-privacy")])
def test_textbook_planted_violations_are_certified(claim_id, kind, tmp_path):
    _, verdict, out = _certify(claim_id, [TEXTBOOK], tmp_path)
    assert out.status == "certified" and out.kind == kind, out.line()
    code, line = run_isolated(out.folder)
    assert code == 0 and line.startswith(f"CERTIFIED {claim_id}"), line


def test_sequence_witness_tampered_to_a_holding_point_fails(tmp_path):
    _, _, out = _certify("textbook/claim-cauchy-schwarz-no-t", [TEXTBOOK], tmp_path)
    cert_path = Path(out.folder) / "certificate.json"
    cert = json.loads(cert_path.read_text())
    cert["witness"].update({"T": "1", "x": ["3/1"]})        # one term: (sum x)^2 = sum x^2
    cert_path.write_text(json.dumps(cert))
    code, line = run_isolated(out.folder)
    assert code == 1 and line.startswith("NOT CERTIFIED"), line
    cert["witness"].update({"T": "2", "x": ["3/1"]})        # length does not match T
    cert_path.write_text(json.dumps(cert))
    code, line = run_isolated(out.folder)
    assert code == 1 and "entries" in line, line


def test_clopper_pearson_in_ball_arithmetic_brackets_scipy():
    from dpverify.privacy.audit import clopper_pearson

    ns = {"__name__": "certify_runtime", "__file__": "check.py"}
    exec(RUNTIME + AUDIT, ns)  # noqa: S102 - the checker's own source
    ns["ctx"].prec = 128
    level = Fraction(1, 200)
    for k, n in ((4060, 20000), (0, 20000), (20000, 20000), (3, 10)):
        lo, hi = clopper_pearson(k, n, float(level))
        lo_c, hi_c = ns["cp_lower"](k, n, level), ns["cp_upper"](k, n, level)
        assert float(lo_c) <= lo + 1e-12 and lo - float(lo_c) < 1e-9
        assert float(hi_c) >= hi - 1e-12 and float(hi_c) - hi < 1e-9


def test_printer_is_exact_and_refuses_what_it_cannot_print():
    x, t, T = sp.Symbol("x"), sp.Symbol("t"), sp.Symbol("T")
    s = sp.IndexedBase("s")
    pr = ArbSource(real=["x"], ints=["T"], seqs=["s"])
    assert pr(sp.Float(0.1) * x) == f"(q({Fraction(0.1).numerator}, {Fraction(0.1).denominator}) * P['x'])"
    assert "_sum(lambda _t:" in pr(sp.Sum(s[t] ** 2, (t, 1, T)))
    with pytest.raises(Unprintable, match="integer"):
        pr(sp.Sum(s[t], (t, 1, x)))
    with pytest.raises(Unprintable, match="infinite"):
        pr(sp.Sum(1 / t**2, (t, 1, sp.oo)))
    with pytest.raises(Unprintable, match="not a real or integer parameter"):
        pr(sp.Symbol("z") + x)


def test_cli_certify_prints_each_claim_and_the_count(module_file, tmp_path, capsys):
    out = tmp_path / "certs"
    code = main(["certify", "certtest/square", "certtest/am-gm", "certtest/inf", "--module", module_file,
                 "--out", str(out), "--samples", "40", "--jobs", "1", "--no-progress"])
    text = capsys.readouterr().out
    assert code == 1                                       # certtest/inf is violated without a certificate
    assert "certtest/square: certified (analytic)" in text
    assert "certtest/inf: no certificate" in text and "am-gm" not in text
    assert "1 of 2 violated claims certified (analytic 1)" in text
    assert (out / "certtest__square" / "check.py").exists()
    assert [o["status"] for o in json.loads((out / "index.json").read_text())] == ["certified", "no certificate"]
    assert main(["certify", "--out", str(out)]) == 2        # neither ids nor --all


def test_gaussian_renyi_violation_is_certified_from_the_defining_integral(tmp_path):
    # the halved bound is violated everywhere; order = 1 is outside the hypothesis order > 1
    code, line = certified_then_tampered("textbook/claim-gaussian-zcdp-half", [TEXTBOOK], tmp_path,
                                         "gaussian-renyi", "D_a/a >=", {"order": "1/1"}, samples=20)
    assert code == 1 and "order > 1" in line, line


# ------------------------------------------------------------------ Monte Carlo certificates (replays)
def _tamper(folder, **replay):
    cert_path = Path(folder) / "certificate.json"
    cert = json.loads(cert_path.read_text())
    cert["replay"].update(replay)
    cert_path.write_text(json.dumps(cert))
    return cert


def test_planted_monte_carlo_violation_is_certified_by_a_standalone_replay(tmp_path):
    """The noisy-GD bound without its dimension factor: check.py rebuilds the quadratic from the claim and
    replays it at ten times the check's runs, at the seed derived from the claim id and "certificate"; the
    p-value uses the normal approximation with a Berry-Esseen term. Raising the bound in the certificate to
    far above the replayed mean (a weaker claim) must fail, and so must fewer runs than ten times the check's."""
    from dpverify.certify import replay as rp
    from dpverify.certify.replay import replay_seed
    from dpverify.certify.writer import write
    from dpverify.search import derive_seed

    claim, verdict, _ = _certify("textbook/thm-noisy-gd-pl-no-dimension", [TEXTBOOK], tmp_path / "first", samples=20)
    assert verdict.verdict == "violated"
    stmt = claim.statements[0]
    ev = next(e for e in verdict.evidence if e.verdict == "violated" and e.check == "monte_carlo")
    plans = rp.monte_carlo_plans(claim, stmt, ev)   # certify prefers the exact kind; build the replay directly
    plan = plans[0]()
    assert plan.kind == "monte-carlo-replay"

    class out:
        folder = write(claim, plan, str(tmp_path))
    code, line = run_isolated(out.folder)
    assert code == 0 and line.startswith("CERTIFIED textbook/thm-noisy-gd-pl-no-dimension") and "Berry-Esseen" in line
    cert = json.loads((Path(out.folder) / "certificate.json").read_text())
    rep = cert["replay"]
    assert rep["runs"] == 10 * rep["check_runs"] == 10 * 20000
    assert rep["seed"] == replay_seed(claim.id, "noisy GD") == derive_seed(claim.id, "noisy GD", "certificate")
    assert "Berry-Esseen" in rep["p_value"] and not rep["indicator"]
    _tamper(out.folder, bound="1000000000/1")
    code, line = run_isolated(out.folder)
    assert code == 1 and line.startswith("NOT CERTIFIED") and "not below" in line, line
    _tamper(out.folder, bound=rep["bound"], runs=rep["check_runs"])
    code, line = run_isolated(out.folder)
    assert code == 1 and "fewer than ten times" in line, line


@ITERATE_RADIUS
def test_indicator_replay_uses_the_exact_binomial_tail(tmp_path):
    """pur/claim-iterate-radius (a probability claimed to be 0): the replay on its quadratic point counts the
    runs that leave the ball; any count above 0 refutes probability 0 exactly. Moving the bound to 1 (the
    recorded bound raised) cannot be refuted by any count."""
    _, verdict, out = _certify("pur/claim-iterate-radius", [], tmp_path)
    assert out.status == "certified" and out.kind == "monte-carlo-replay", out.line()
    code, line = run_isolated(out.folder)
    assert code == 0 and "exact binomial tail" in line, line
    _tamper(out.folder, bound="1/1")
    code, line = run_isolated(out.folder)
    assert code == 1 and line.startswith("NOT CERTIFIED"), line


@ITERATE_RADIUS
def test_recorded_replay_rechecks_the_p_value_arithmetic(tmp_path):
    """A point that a standalone checker cannot rebuild (a data problem) gets dpverify's replay recorded;
    check.py recomputes the binomial tail from the recorded count, and the JSON says the simulation is not
    re-run. A count inconsistent with the recorded mean fails."""
    from dpverify.certify import replay as rp
    from dpverify.certify.writer import write

    claim, verdict, _ = _certify("pur/claim-iterate-radius", [], tmp_path / "first")
    stmt = claim.statements[0]
    ev = next(e for e in verdict.evidence if e.verdict == "violated")
    sc, insts = rp._candidates(claim, stmt, ev)
    data = [i for i in insts if "problem" in i]
    assert data, "the logistic point should violate too"
    plan = rp.recorded_plan(claim, stmt, ev, sc, data[0])
    assert plan.data["replay"]["simulated"].startswith("no:")
    folder = write(claim, plan, str(tmp_path / "rec"))
    code, line = run_isolated(folder)
    assert code == 0 and "recorded replay" in line, line
    _tamper(folder, count=0)
    code, line = run_isolated(folder)
    assert code == 1 and "does not match" in line, line


@ITERATE_RADIUS
def test_report_links_each_erratum_to_its_certificate(tmp_path):
    from dpverify import report

    claim, verdict, out = _certify("pur/claim-iterate-radius", [], tmp_path / "certs")
    (tmp_path / "certs" / "index.json").write_text(json.dumps([{"id": claim.id, "status": "certified",
                                                                "folder": out.folder}]))
    certs = report.load_certificates(str(tmp_path / "certs"), str(tmp_path))
    assert certs == {claim.id: os.path.join("certs", "pur__claim-iterate-radius")}
    md = report.errata_markdown([claim], certs)
    assert "| certificate |" in md and "(certs/pur__claim-iterate-radius/check.py)" in md
    assert "certificate" not in report.errata_markdown([claim])          # the README's table is unchanged
    assert report.errata_rows([claim], {})[0]["certificate"] == ""


# ------------------------------------------------------------------ exact expectations (moment propagation)
def _certify_at_witness(claim_id, modules, out):
    claim = registry.get(claim_id, modules)
    verdict = run(claim, Config(seed=0, at=claim.witness))
    return claim, verdict, certify(claim, verdict, str(out))


def _set(folder, part, **values):
    cert_path = Path(folder) / "certificate.json"
    cert = json.loads(cert_path.read_text())
    cert[part].update(values)
    cert_path.write_text(json.dumps(cert))
    return cert


def test_planted_exact_expectation_is_certified_by_moments_in_ball_arithmetic(tmp_path):
    """The noisy-GD bound without its dimension factor: its exact expectation on the witness's quadratic
    (D = 10) exceeds the bound; check.py rebuilds the quadratic and propagates the moments in arb. In one
    dimension the bound is the exact expectation (equality): the checker must not certify it."""
    claim, verdict, out = _certify_at_witness("textbook/thm-noisy-gd-pl-no-dimension", [TEXTBOOK], tmp_path)
    assert verdict.verdict == "violated"
    assert out.status == "certified" and out.kind == "exact-expectation", out.line()
    code, line = run_isolated(out.folder)
    assert code == 0 and line.startswith("CERTIFIED textbook/thm-noisy-gd-pl-no-dimension"), line
    assert "ball arithmetic" in line
    cert = json.loads((Path(out.folder) / "certificate.json").read_text())
    assert cert["expectation"]["statistic"] == "excess" and cert["witness"]["D"] == "10"
    _set(out.folder, "witness", D="1")
    _set(out.folder, "expectation", u=["0/1"], dir=["1/1"])
    code, line = run_isolated(out.folder)
    assert code == 1 and line.startswith("NOT CERTIFIED"), line
    _set(out.folder, "witness", D="10")
    _set(out.folder, "expectation", u=cert["expectation"]["u"], dir=["0/1"] * 10)
    code, line = run_isolated(out.folder)
    assert code == 1 and "must not be 0" in line, line


def test_exact_expectation_of_random_round_sgd_and_tampering(tmp_path):
    """erm/lemma-12 at its witness: the convex statement (the instance's F(w_0) - F* is put into Delta0
    exactly by check.py). A tiny noise level makes the claim hold there: not certified; a negative beta
    is outside the hypotheses."""
    _, verdict, out = _certify_at_witness("erm/lemma-12", [], tmp_path)
    assert verdict.verdict == "violated"
    assert out.status == "certified" and out.kind == "exact-expectation", out.line()
    code, line = run_isolated(out.folder)
    assert code == 0 and line.startswith("CERTIFIED erm/lemma-12"), line
    cert = json.loads((Path(out.folder) / "certificate.json").read_text())
    assert cert["expectation"]["round"] == "random" and cert["expectation"]["gap_symbol"] == "Delta0"
    _set(out.folder, "witness", sigma="1/1000000000")
    code, line = run_isolated(out.folder)
    assert code == 1 and "within the bound" in line, line
    _set(out.folder, "witness", sigma=cert["witness"]["sigma"], beta="-1/1")
    code, line = run_isolated(out.folder)
    assert code == 1 and "outside the claim's hypotheses" in line, line


def test_exact_expectation_with_momentum_and_a_ball_defined_function(tmp_path):
    """dni/thm-4.6: bias-corrected momentum, a bound that calls T_hat (a function with a ball definition,
    copied into check.py) and a sequence of noise levels. Moved to a much larger sigma_1, the bound's noise
    term grows faster than the expectation's and the claim holds: not certified."""
    _, verdict, out = _certify_at_witness("dni/thm-4.6", [], tmp_path)
    assert out.status == "certified" and out.kind == "exact-expectation", out.line()
    assert "def T_hat(beta, gamma):" in (Path(out.folder) / "check.py").read_text()
    code, line = run_isolated(out.folder)
    assert code == 0 and line.startswith("CERTIFIED dni/thm-4.6"), line
    _set(out.folder, "witness", sigma=["100/1"])
    code, line = run_isolated(out.folder)
    assert code == 1 and line.startswith("NOT CERTIFIED"), line


def test_exact_expectation_of_heavy_ball_is_replayed_as_heavy_ball(tmp_path):
    """Polyak's heavy ball (textbook, factor linear in T dropped) at its witness: check.py's expectation is the
    heavy-ball recursion's, the exact check's value, not bias-corrected momentum's (0.0026 there, against
    0.0343); the certificate records the update rule."""
    import re

    claim, verdict, out = _certify_at_witness("textbook/thm-heavy-ball-quadratic-no-factor", [TEXTBOOK], tmp_path)
    assert verdict.verdict == "violated"
    assert out.status == "certified" and out.kind == "exact-expectation", out.line()
    exact = next(e for e in verdict.evidence if e.check == "exact")
    code, line = run_isolated(out.folder)
    assert code == 0 and line.startswith("CERTIFIED textbook/thm-heavy-ball-quadratic-no-factor"), line
    mid, rad = re.search(r"expectation \[([0-9.e+-]+) \+/- ([0-9.e+-]+)\]", line).groups()
    assert abs(float(mid) - exact.value) <= float(rad) + 1e-12 * exact.value, (line, exact.value)
    cert = json.loads((Path(out.folder) / "certificate.json").read_text())
    assert cert["expectation"]["update"] == "heavy_ball"


def test_ball_function_is_printed_only_where_asked():
    from sympy.utilities.lambdify import implemented_function

    from dpverify.arb_source import ball_function, evaluator

    x = sp.Symbol("x")
    twice = ball_function(implemented_function("twice", lambda v: 2 * v), "def twice(v):\n    return 2 * v\n")
    with pytest.raises(Unprintable, match="computed numerically"):
        ArbSource(real=["x"])(twice(x))
    pr = ArbSource(real=["x"], defined=True)
    assert pr(twice(x) + 1) == "(arb(1) + twice(P['x']))" and "def twice" in pr.definitions["twice"]
    assert evaluator("arb(3)")({}) == 3
    with pytest.raises(ValueError, match="must define"):
        ball_function(implemented_function("thrice", lambda v: 3 * v), "def other(v):\n    return v\n")


# ------------------------------------------------------------------ a proof's quantity with a ball definition
_POINTS = {
    "hdp/alg-1-release": [{"n": 5, "R": 1, "T_local": 1, "r": 100.0, "delta1": 0.1, "delta2": 0.05, "epsilon1": 0.1,
                           "epsilon2": 5.0, "c": 1.0, "x_i": 0.0, "x_r": 1.0, "x_o": -1.0, "v": 0.0},
                          {"n": 3, "R": 1, "T_local": 7, "r": 2.5, "delta1": 0.02, "delta2": 0.3, "epsilon1": 0.7,
                           "epsilon2": 20.0, "c": 0.4, "x_i": -0.5, "x_r": 0.25, "x_o": 1.0, "v": 0.3}],
    "hdp/thm-5-step-11": [{"T": 2, "epsilon1": 1.0, "delta1": 0.01}, {"T": 37, "epsilon1": 0.05, "delta1": 1e-6},
                          {"T": 200, "epsilon1": 2.0, "delta1": 0.1}],
    "stage/claim-sampling-switch": [{"n": 10, "B": 1, "s": 1.0, "T": 1, "delta": 0.002},
                                    {"n": 7, "B": 3, "s": 2.0, "T": 5, "delta": 1e-4},
                                    {"n": 1, "B": 1, "s": 0.5, "T": 1, "delta": 0.05}],
}


@pytest.mark.parametrize("claim_id", sorted(_POINTS))
def test_ball_definition_agrees_with_the_proofs_python_function(claim_id):
    """The ball definition a certificate copies computes what dpverify's function does (within the float
    function's rounding, and the half-line search's for the stage claim)."""
    from flint import arb, ctx, fmpq

    from dpverify.certify.point import point_lower

    claim = registry.get(claim_id)
    sc = claim.statements[0].scenario
    ctx.prec = 128
    for pt in _POINTS[claim_id]:
        P = {k: v if isinstance(v, int) else arb(fmpq(*Fraction(v).as_integer_ratio())) for k, v in pt.items()}
        value = point_lower(sc, P, sc.record(pt) if sc.record else None)
        expect = sc.fn(pt)
        expect = expect.value if hasattr(expect, "value") else expect
        assert value.rad() < 1e-20 and abs(float(value.mid()) - expect) <= 1e-7 * max(expect, 1e-6), (pt, value, expect)


@pytest.mark.parametrize("claim_id, tampered, expect", [
    ("hdp/alg-1-release", {"x_i": "0/1", "x_r": "0/1"}, "violates the hypothesis x_i != x_r"),
    ("hdp/alg-1-release", {"delta1": "1/2", "delta2": "1/2"}, "within the claimed"),
    ("hdp/thm-5-step-11", {"T": "1"}, "outside the claim's hypotheses"),
    ("stage/claim-sampling-switch", {"delta": "1/2"}, "within the claimed"),
])
def test_privacy_point_certificates_of_the_papers_and_tampering(claim_id, tampered, expect, tmp_path):
    """A privacy loss computed by a function of the paper's proof (a PointScenario with a ball definition):
    check.py evaluates the definition at the exact witness; moved where the claim holds, or outside its
    hypotheses, it must fail."""
    code, line = certified_then_tampered(claim_id, [], tmp_path, "privacy-point", "the proof's quantity >=", tampered)
    assert code == 1 and line.startswith("NOT CERTIFIED") and expect in line, line


def test_privacy_point_checks_the_recorded_accountant_eps(tmp_path):
    """stage/claim-sampling-switch records dp-accounting's eps; at T = 1 check.py verifies it is a guarantee of
    the Poisson step (exact delta in closed form): an eps tampered below the Poisson scheme's fails."""
    _, _, out = _certify("stage/claim-sampling-switch", [], tmp_path)
    assert out.status == "certified" and out.kind == "privacy-point", out.line()
    cert = _set(out.folder, "point", accountant_eps="1/100")
    assert cert["witness"]["T"] == "1"
    code, line = run_isolated(out.folder)
    assert code == 1 and "not a guarantee of the Poisson step" in line, line


def test_textbook_composition_planted_is_certified_and_one_fold_is_not(tmp_path):
    """k (eps, delta)-DP mechanisms are not (eps, delta)-DP together: the k-fold product of the canonical pair in
    ball arithmetic exceeds delta. At k = 1 the product is the pair itself, with delta exactly: not certified."""
    code, line = certified_then_tampered("textbook/claim-composition-free", [TEXTBOOK], tmp_path, "privacy-point",
                                         "the proof's quantity >=", {"k": "1"}, samples=20)
    assert code == 1 and line.startswith("NOT CERTIFIED") and "overlap" in line, line


def test_point_scenario_ball_definition_is_validated():
    from dpverify.scenarios import PointScenario

    with pytest.raises(ValueError, match="must define"):
        PointScenario(lambda p: 0.0, "zero", ball="def other(P, data):\n    return 0\n")
    with pytest.raises(ValueError, match="not Python"):
        PointScenario(lambda p: 0.0, "zero", ball="def point_lower(P, data) return")


@pytest.mark.parametrize("claim_id, tampered", [("hdp/eq-2", {"c": "1000000/1"}),
                                                ("hdp/alg-1-test-composition", {"r": "1000000/1"})])
def test_one_sample_sgd_certificates_and_tampering(claim_id, tampered, tmp_path):
    """One-sample noisy SGD (replace-one) measured by its attained pair: check.py computes the event
    {min_t Y_t < tau} in closed form at the best rational tau. Moved to far more noise (a larger c, or a larger
    radius r in G = r + 1) the attained pair's delta falls below the claim: not certified."""
    code, line = certified_then_tampered(claim_id, [], tmp_path, "one-sample-sgd", "delta(eps) >=", tampered)
    assert code == 1 and line.startswith("NOT CERTIFIED") and "within the claimed" in line, line


def test_one_sample_sgd_ball_bound_matches_dpverifys():
    from dpverify.certify.runtime import ONE_SAMPLE_SGD
    from dpverify.privacy.single_sample_sgd import single_sample_sgd_delta_lower

    ns = {"__name__": "certify_runtime", "__file__": "check.py"}
    exec(RUNTIME + ONE_SAMPLE_SGD, ns)  # noqa: S102 - the checker's own source
    ns["ctx"].prec = 128
    arb = ns["arb"]
    for eps, s, G, n, T in ((1.0, 1.0, 1.0, 1, 1), (1.0, 2.5, 2.0, 2, 30), (0.3, 0.8, 1.0, 10, 200)):
        d, _ = ns["one_sample_sgd_lower"](arb(eps), arb(s), arb(G), n, T)
        ref = single_sample_sgd_delta_lower(eps, s, G, n, T)
        assert abs(float(d.mid()) - ref) <= 1e-6 * max(ref, 1e-9), (eps, s, G, n, T, d, ref)
