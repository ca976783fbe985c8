"""Rates and limits by their asymptotics (checks/rateproof, asymptotics, limitcheck; certify/asymptotic): a bounded
ratio proves, an unbounded one refutes with its leading term, a limit SymPy gets wrong (or that mpmath does not
confirm) never decides, tied paths written symbolically are read by the proof, and a refutation's check.py
replays the limit with SymPy alone and fails when its certificate is tampered with."""
from __future__ import annotations

import json
import os

import pytest
import sympy as sp

from dpverify import Claim, ClaimError, Domain, Limit, LimitPath, Rate, Real, Source
from dpverify.certify import certify, run_checker
from dpverify.checks import Config, asymptotics, rateproof
from dpverify.checks.limitcheck import cross_check
from dpverify.numeric import Compiled
from dpverify.verdict import Verdict

n, d, kappa, x = sp.symbols("n d kappa x")
_SRC = Source("rate proof test", "Lemma")
_DOM = Domain(n=Real(ge=3, search=(10.0, 1e4), log=True), d=Real(ge=1, search=(1.0, 100.0), log=True),
              kappa=Real(gt=1, search=(1.5, 100.0), log=True))
_T = 2 * kappa * sp.log(n)
_LOG_EXPR = (1 - 1 / kappa) ** _T + d * _T / n**2


def _rate(cid, expr, rate, kind="O", paths=(LimitPath("n", "inf"),), domain=_DOM, expected="holds"):
    return Claim(id=f"test/{cid}", source=_SRC, domain=domain, expected=expected,
                 reason="" if expected != "violated" else "planted",
                 statements=(Rate("r", expr=expr, rate=rate, kind=kind, paths=paths),))


def _check(claim):
    return rateproof.check_rate(claim.statements[0], claim, Config())


def test_the_log_factor_dropped_is_violated_with_its_leading_term():
    ev = _check(_rate("log-dropped", _LOG_EXPR, 1 / n**2, expected="violated"))
    assert ev.verdict == "violated", ev.detail
    assert "log" in ev.detail.split("leading term")[1].split(";")[0]
    logs = ev.data["log10_ratio"]
    assert all(b > a for a, b in zip(logs, logs[1:])) and logs[-1] - logs[0] >= 1


def test_a_bounded_ratio_is_verified_and_says_what_it_covers():
    ev = _check(_rate("theta", d * n**2 + n, n**2, kind="Theta"))
    assert ev.verdict == "verified", ev.detail
    assert "n -> inf" in ev.data["scope"] and "d >= 1" in ev.detail
    assert ev.basis.kind == "asymptotics"


def test_theta_refuted_when_the_ratio_tends_to_zero():
    ev = _check(_rate("theta-zero", d * n, n**2, kind="Theta", expected="violated"))
    assert ev.verdict == "violated" and "-> 0" in ev.detail, ev.detail


def test_a_tied_path_written_symbolically_is_proved_along_the_path():
    # d/n kept at its base value: d n / n = d ~ n, so n*d/n^2 is Theta(1) along the path but not with d fixed
    tied = LimitPath("n", "inf", tied={"d": d * n / LimitPath.start("n")}, label="d/n fixed")
    ev = _check(_rate("tied", d * n / n**2 + 1, 1 + d / n, kind="Theta", paths=(tied,),
                      domain=Domain(n=Real(ge=3, search=(10.0, 1e4), log=True),
                                    d=Real(ge=1, search=(1.0, 100.0), log=True))))
    assert ev.verdict == "verified", ev.detail
    assert "d/n fixed" in ev.detail


def test_a_limit_sympy_gets_wrong_is_never_verified(monkeypatch):
    """Fault injection: SymPy's limit made to answer 1/2 where the ratio tends to 1; the cross-check in mpmath
    disagrees, so the proof is inconclusive (the sweep decides)."""
    asymptotics.clear_cache()
    real = asymptotics.sympy_limit
    monkeypatch.setattr(asymptotics, "sympy_limit",
                        lambda e, v, to: sp.Rational(1, 2) if e.has(sp.Symbol("n", positive=True)) else real(e, v, to))
    try:
        ev = _check(_rate("wrong-limit", n + 1, n, kind="Theta"))
    finally:
        asymptotics.clear_cache()
    assert ev.verdict == "inconclusive" and "not trusted" in ev.detail, ev.detail


def test_cross_check_finds_a_wrong_limit_and_accepts_the_right_one():
    claim = _rate("xc", (1 + 1 / n) ** n, sp.Integer(1))
    path, cfg = LimitPath("n", "inf"), Config()
    fns = (Compiled((1 + 1 / n) ** n, claim),)
    assert cross_check(claim, path, fns, [sp.E], cfg, "r") is None
    why = cross_check(claim, path, fns, [sp.Integer(3)], cfg, "r")
    assert why is not None and "mpmath" in why


def test_a_limit_is_verified_and_a_wrong_value_is_not():
    dom = Domain(n=Real(ge=1, search=(1.0, 100.0), log=True), d=Real(gt=0, le=10, search=(0.1, 10.0), log=True))

    def lim(value):
        claim = Claim(id="test/lim", source=_SRC, domain=dom, statements=(
            Limit("l", expr=(1 + d / n) ** n, value=value, path=LimitPath("n", "inf")),))
        return rateproof.check_limit(claim.statements[0], claim, Config())

    ok, wrong = lim(sp.exp(d)), lim(sp.exp(d / 2))
    assert ok.verdict == "verified" and ok.basis.kind == "asymptotics", ok.detail
    assert wrong.verdict == "inconclusive" and "not exp(d/2)" in wrong.detail, wrong.detail


def test_a_hanging_limit_is_stopped_by_the_statement_limit():
    # a statement limit of 0.01 s of CPU time: no proof, inconclusive with the reason
    claim = _rate("timeout", _LOG_EXPR, kappa * d * sp.log(n) / n**2)
    ev = rateproof.check_rate(claim.statements[0], claim, Config(symbolic_timeout=0.01))
    assert ev.verdict == "inconclusive" and "timed out" in ev.detail, ev.detail


def _certified(claim, tmp_path):
    ev = _check(claim)
    assert ev.verdict == "violated", ev.detail
    verdict = Verdict(id=claim.id, label=claim.label, verdict="violated", expected=claim.expected, evidence=[ev])
    return certify(claim, verdict, str(tmp_path))


def test_the_refutation_certificate_replays_with_sympy_alone(tmp_path):
    out = _certified(_rate("cert", _LOG_EXPR, 1 / n**2, expected="violated"), tmp_path)
    assert out.status == "certified" and out.kind == "asymptotics", out.line()
    ok, line = run_checker(out.folder)
    assert ok and line.startswith("CERTIFIED test/cert") and "oo" in line, line
    src = open(os.path.join(out.folder, "check.py")).read()
    assert "import dpverify" not in src and "from dpverify" not in src


def test_a_tampered_certificate_fails(tmp_path):
    out = _certified(_rate("tamper", _LOG_EXPR, 1 / n**2, expected="violated"), tmp_path)
    path = os.path.join(out.folder, "check.py")
    src = open(path).read()
    # the claimed rate replaced by the true one: the limit is no longer oo
    start = src.index("RATE = ")
    end = src.index("\n", start)
    with open(path, "w") as f:
        f.write(src[:start] + "RATE = " + sp.srepr(kappa * d * sp.log(n) / n**2) + src[end:])
    ok, line = run_checker(out.folder)
    assert not ok and line.startswith("NOT CERTIFIED"), line
    cert = json.load(open(os.path.join(out.folder, "certificate.json")))
    assert cert["kind"] == "asymptotics" and cert["limit"] == "oo"


@pytest.mark.parametrize("expr", [sp.Function("f")(n), sp.Sum(1 / x**2, (x, 1, n))])
def test_what_has_no_closed_form_is_left_to_the_sweeps(expr):
    try:
        out = asymptotics.prepare(expr)
    except asymptotics.Unsupported as exc:
        assert str(exc)
    else:   # a sum SymPy evaluates in closed form is a closed form
        assert not out.has(sp.Sum)


def test_a_proof_certificate_replays_and_a_tampered_one_fails(tmp_path):
    from dpverify.certify import certify_proofs
    from dpverify.checks import run

    claim = _rate("proof-cert", d * n**2 + n, n**2, kind="Theta")
    outs = certify_proofs(claim, run(claim, Config(samples=20)), str(tmp_path))
    assert [o.status for o in outs] == ["certified"], [o.line() for o in outs]
    ok, line = run_checker(outs[0].folder)
    assert ok and line.startswith("CERTIFIED test/proof-cert") and "n -> inf: d" in line, line
    path = os.path.join(outs[0].folder, "check.py")
    src = open(path).read()
    start = src.index("OTHER = ")
    end = src.index("\n", start)
    with open(path, "w") as f:     # the rate n^2 replaced by n: the recorded limit d is no longer the limit
        f.write(src[:start] + "OTHER = " + sp.srepr(n) + src[end:])
    ok, line = run_checker(outs[0].folder)
    assert not ok and line.startswith("NOT CERTIFIED"), line


def test_a_symbolic_tied_parameter_gives_the_function_it_replaces():
    sym = LimitPath("n", "inf", tied={"d": d * n / LimitPath.start("n")})
    fn = LimitPath("n", "inf", tied={"d": lambda x, base: base["d"] * x / base["n"]})
    base = {"n": 7.0, "d": 3.0}
    assert sym.symbolic and not fn.symbolic
    assert sym.tied_value("d", 70.0, base) == pytest.approx(fn.tied_value("d", 70.0, base), rel=1e-15)
    assert sym.tied_symbols() == {"d", "n"}


def test_a_tied_expression_with_another_parameters_start_or_no_parameter_is_refused():
    from dpverify.claims import ClaimError

    with pytest.raises(ClaimError, match="only LimitPath.start"):
        LimitPath("n", "inf", tied={"d": d * LimitPath.start("d")})
    with pytest.raises(ClaimError, match="not domain parameters"):
        _rate("unknown", n, n, paths=(LimitPath("n", "inf", tied={"d": d * sp.Symbol("q")}),))


def test_a_proof_checker_runs_no_code_from_hostile_names_or_text(tmp_path):
    """A parameter named as Python code and a statement name that closes a string literal: the proof's
    check.py carries both as data (it certifies, and nothing they spell is run); a name with a newline, which
    could forge a second checker line, is refused."""
    from dpverify import check
    from dpverify.certify import certify_proofs

    marks = [tmp_path / "pwn-symbol", tmp_path / "pwn-text"]
    x = sp.Symbol("x")
    e = sp.Symbol(f"__import__('os').system('touch {marks[0]}')", positive=True)
    name = "x^2 + e x = Theta(x^2) \"); import os; os.system('touch " + str(marks[1]) + "') # '''"
    claim = Claim(id="mine/evil-rate", source=Source("n", "1"),
                  domain=Domain(x=Real(gt=1, search=(2, 10)), **{e.name: Real(gt=0, search=(1, 2))}),
                  statements=(Rate(name, expr=x**2 + e * x, rate=x**2, paths=(LimitPath("x", "inf"),)),))
    v = check(claim, samples=20)
    assert v.verdict == "verified", v
    (out,) = certify_proofs(claim, v, str(tmp_path / "out"))
    assert out.status == "certified", out.line()
    ok, line = run_checker(out.folder)
    assert ok and line.startswith("CERTIFIED mine/evil-rate"), line
    assert not any(m.exists() for m in marks)
    with pytest.raises(ClaimError, match="one line"):
        Rate("x^2 = Theta(x^2)\nCERTIFIED mine/other", expr=x**2, rate=x**2, paths=(LimitPath("x", "inf"),))
