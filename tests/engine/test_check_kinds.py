"""The check kinds' contract, over the one table (``dpverify.checks.KINDS``): every kind's ``applies`` is total
on every statement class; its evidence carries only the basis kinds and verdicts it declares (and anything
else becomes ``error``); a kind that refutes only never supports a verdict alone; a kind that names a
certificate route writes a checker that passes, one that does not says why; and a new kind is one module
plus its line in the table."""
from __future__ import annotations

import importlib
import pkgutil
import textwrap

import pytest
import sympy as sp

import dpverify.checks as checks
from dpverify import Claim, Domain, Identity, Inequality, Limit, LimitPath, Rate, Real, Source, registry
from dpverify.certify import ROUTES, certify, run_checker
from dpverify.checks import KINDS, Config, kind_of, run
from dpverify.checks.kind import CheckKind, kinds_of
from dpverify.claims.statements import Statement
from dpverify.verdict import BASIS_KINDS, Basis, Evidence, Verdict, statement_verdict

TEXTBOOK = "tests/textbook/claims.py"
x, c = sp.symbols("x c")
_SRC = Source("check kinds test", "Lemma")
_X = dict(x=Real(gt=0, le=1, search=(1e-3, 1.0)))


def _claim(cid, *statements, domain=None, builds_on=(), expected="holds"):
    return Claim(id=cid, source=_SRC, domain=Domain(**(domain or _X)), statements=statements, builds_on=builds_on,
                 expected=expected, reason="" if expected == "holds" else "planted")


def _chain():
    """A claim whose hypotheses do not meet those of the lemma it builds on (c < 1/4 against c >= 1/2)."""
    lemma = _claim("kinds/lemma-1-corrected", Inequality("x <= x + 1", lhs=x, rhs=x + 1),
                   domain={**_X, "c": Real(gt=0, lt=0.25)})
    thm = _claim("kinds/thm-2-corrected", Inequality("x <= x + 1", lhs=x, rhs=x + 1),
                 domain={**_X, "c": Real(ge=0.5, lt=2)}, builds_on=(lemma.id,), expected="violated")
    for k in (lemma, thm):
        k.resolve({lemma.id: lemma, thm.id: thm})
    return thm


def _registered(cid, module=None):
    claim = registry.get(cid, [module] if module else [])
    registry.resolve(claim)
    return claim


# For each kind, a claim it applies to; for a kind that names a certificate route, one it refutes.
EXAMPLES = {
    "symbolic": lambda: _claim("kinds/square", Identity("(x + 1)^2", lhs=(x + 1) ** 2, rhs=x ** 2 + 2 * x + 1)),
    "sampled": lambda: _registered("textbook/claim-cauchy-schwarz-no-t", TEXTBOOK),
    "minimiser-symbolic": lambda: _registered("dni/lemma-4.1"),
    "minimiser-sampled": lambda: _registered("dni/lemma-4.1"),
    "rate": lambda: _claim("kinds/rate", Rate("1/x + 1/x^2 = O(1/x^2) as x -> 0+", expr=1 / x + 1 / x ** 2,
                                              rate=1 / x ** 2, kind="O", paths=(LimitPath("x", "0+"),))),
    "rate-proof": lambda: _claim("kinds/rate-proof", Rate("1/x + 1/x^2 = O(1/x) as x -> 0+", expr=1 / x + 1 / x ** 2,
                                                          rate=1 / x, kind="O", paths=(LimitPath("x", "0+"),)),
                                 expected="violated"),
    "limit-symbolic": lambda: _claim("kinds/limit", Limit("x/(1 + x) -> 0", expr=x / (1 + x), value=sp.Integer(0),
                                                          path=LimitPath("x", "0+"))),
    "limit": lambda: _claim("kinds/limit", Limit("x/(1 + x) -> 0", expr=x / (1 + x), value=sp.Integer(0),
                                                 path=LimitPath("x", "0+"))),
    "algorithm-rate": lambda: _registered("textbook/claim-sgd-one-over-t-squared", "tests/textbook/algorithm_rates.py"),
    "exact": lambda: _registered("textbook/thm-noisy-gd-pl-no-dimension", TEXTBOOK),
    "monte_carlo": lambda: _registered("textbook/thm-noisy-gd-pl-no-dimension", TEXTBOOK),
    "quadratics": lambda: _registered("textbook/thm-noisy-gd-pl", TEXTBOOK),
    "sup": lambda: _registered("textbook/claim-gaussian-zcdp-half", TEXTBOOK),
    "audit": lambda: _registered("erm/lemma-1"),
    # the number of iterations chosen from the data's optimum: neighbours release different numbers of iterates
    "neighbouring-data": lambda: _registered("textbook/thm-noisy-gd-steps-from-optimum", TEXTBOOK),
    "scaling": lambda: _claim("kinds/square", Identity("(x + 1)^2", lhs=(x + 1) ** 2, rhs=x ** 2 + 2 * x + 1)),
    # (x - 1/3)^2 >= 1e-8 fails only within 1e-4 of 1/3: the box proof finds the boxes there
    "boxproof": lambda: _claim("kinds/narrow", Inequality("(x - 1/3)^2 >= 1e-8", lhs=sp.Rational(1, 10 ** 8),
                                                          rhs=(x - sp.Rational(1, 3)) ** 2), expected="violated"),
    # x = x (1 + 1e-40): the sampled check's tolerance passes it; the domain proof refutes it at a point
    "domainproof": lambda: _claim("kinds/off-by-1e-40", Identity("x = x (1 + 1e-40)", lhs=x,
                                                                 rhs=x * (1 + sp.Rational(1, 10 ** 40))),
                                  expected="violated"),
    "chain": _chain,
    # the exact profile at eps = mu sqrt(2 ln(1/delta)) (mu^2/2 dropped) exceeds delta: refuted at an exact point
    "privacyproof": lambda: _registered("textbook/hostile-privacy-profile-false", "tests/textbook/hostile_privacy.py"),
}
# what the evidence checks of the examples may spend (the certificates use the defaults)
SMALL = Config(samples=20, runs=2000, box_budget=4000)


def _statement_of(kind, claim):
    return next(s for s in claim.statements if kind.applies(s))


def _evidence(kind, claim, cfg):
    return kind.check(claim, cfg) if kind.stage == "claim" else kind.check(_statement_of(kind, claim), claim, cfg)


def _all_subclasses(cls):
    out = []
    for sub in cls.__subclasses__():
        out += [sub, *_all_subclasses(sub)]
    return out


def _sample_statements() -> list:
    """Every statement of the examples (and of a textbook claim with an audit)."""
    pool = [f() for f in EXAMPLES.values() if f is not _chain] + [_registered("textbook/thm-noisy-gd-dp", TEXTBOOK)]
    return [s for claim in pool for s in claim.statements]


IDS = [k.name for k in KINDS]


def test_the_table_lists_every_kind_the_check_modules_declare():
    declared = []
    for info in pkgutil.iter_modules(checks.__path__):
        mod = importlib.import_module(f"dpverify.checks.{info.name}")
        if hasattr(mod, "KIND") or hasattr(mod, "KINDS"):
            declared += kinds_of(mod)
    assert sorted(k.name for k in declared) == sorted(IDS)
    assert len(set(IDS)) == len(IDS)
    assert set(EXAMPLES) == set(IDS), "give every kind an example claim in EXAMPLES"


def test_every_basis_kind_is_produced_by_some_kind():
    assert {b for k in KINDS for b in k.basis_kinds} == set(BASIS_KINDS)


@pytest.mark.parametrize("name", IDS)
def test_applies_is_total_on_every_statement_class(name):
    kind = checks.BY_NAME[name]
    if kind.stage == "claim":
        assert kind.applies(_chain()) is True and kind.applies(EXAMPLES["symbolic"]()) is False
        return
    samples = _sample_statements()
    missing = [cls.__name__ for cls in _all_subclasses(Statement) if not any(type(s) is cls for s in samples)]
    assert not missing, f"no sample statement of {missing}: add a claim with one to EXAMPLES"
    answers = [kind.applies(s) for s in samples]
    assert all(isinstance(a, bool) for a in answers), answers
    assert any(answers), f"{name} applies to no sample statement"


@pytest.mark.parametrize("name", IDS)
def test_evidence_says_only_what_the_kind_declares(name):
    kind = checks.BY_NAME[name]
    claim = EXAMPLES[name]()
    ev = _evidence(kind, claim, SMALL)
    stmt = None if kind.stage == "claim" else _statement_of(kind, claim)
    assert ev.check == kind.label_for(stmt)
    assert ev.basis is not None and ev.basis.kind in kind.basis_kinds, (ev.basis, kind.basis_kinds)
    assert ev.verdict in kind.verdicts(), ev.verdict
    assert ev.verdict != "verified" or BASIS_KINDS[ev.basis.kind].proof
    assert kind.vet(ev, claim.id, ev.statement, ev.check) is ev
    assert kind_of(claim, ev) is kind


@pytest.mark.parametrize("name", IDS)
def test_a_refute_only_kind_never_supports_alone(name):
    kind = checks.BY_NAME[name]
    alone = [Evidence(name, "s", "holds", basis=Basis(b)) for b in kind.basis_kinds]
    assert statement_verdict(alone) == ("holds" if kind.can_support else "inconclusive")
    if kind.can_refute:
        assert statement_verdict(alone + [Evidence(name, "s", "violated", basis=Basis(kind.basis_kinds[0]))]) \
            == "violated"
    supported = alone + [Evidence("sampled", "s", "holds", basis=Basis("algebra"))]
    assert statement_verdict(supported) == "holds"
    assert kind.can_support == all(BASIS_KINDS[b].supports for b in kind.basis_kinds), \
        "a kind's basis kinds either all support or all refute only"


def test_every_route_is_named_by_a_kind_and_every_named_route_exists():
    named = {k.certificate for k in KINDS if k.certificate}
    assert named == set(ROUTES)


@pytest.mark.parametrize("name", [k.name for k in KINDS if k.certificate])
def test_a_certifiable_kind_writes_a_checker_that_runs(name, tmp_path):
    kind = checks.BY_NAME[name]
    claim = EXAMPLES[name]()
    ev = _evidence(kind, claim, Config())
    assert ev.verdict == "violated", f"EXAMPLES[{name!r}] must be a claim the kind refutes ({ev.detail})"
    verdict = Verdict(id=claim.id, label=claim.label, verdict="violated", expected=claim.expected, evidence=[ev])
    out = certify(claim, verdict, str(tmp_path))
    assert out.status == "certified", out.line()
    ok, line = run_checker(out.folder)
    assert ok and line.startswith(f"CERTIFIED {claim.id}"), line


@pytest.mark.parametrize("name", [k.name for k in KINDS if k.can_refute and not k.certificate])
def test_an_uncertifiable_kind_says_why(name, tmp_path):
    kind = checks.BY_NAME[name]
    claim = EXAMPLES[name]()
    stmt = "(claim)" if kind.stage == "claim" else _statement_of(kind, claim).name
    label = kind.label_for(None if kind.stage == "claim" else _statement_of(kind, claim))
    ev = Evidence(label, stmt, "violated", basis=Basis(kind.basis_kinds[0]), counterexample={"params": {}, "seed": 0})
    verdict = Verdict(id=claim.id, label=claim.label, verdict="violated", expected=claim.expected, evidence=[ev])
    out = certify(claim, verdict, str(tmp_path))
    assert out.status == "no certificate" and kind.no_certificate in out.reason, out.line()


# --------------------------------------------------------------------------- a kind that breaks its word

def _liar(**kw):
    def check(stmt, claim, cfg):
        return Evidence("liar", stmt.name, kw.pop("verdict", "holds"), basis=Basis(kw.pop("basis", "algebra")))
    return CheckKind(name="liar", applies=lambda s: isinstance(s, Inequality), check=check, basis_kinds=("algebra",),
                     can_refute=False, summary="a check that says what it does not declare")


@pytest.mark.parametrize("says, why", [(dict(basis="monte-carlo"), "basis 'monte-carlo' is not among"),
                                       (dict(verdict="violated"), "it said 'violated'"),
                                       (dict(verdict="verified"), "it said 'verified'")])
def test_evidence_beyond_the_declaration_is_an_error_naming_the_kind(monkeypatch, says, why):
    monkeypatch.setattr(checks, "KINDS", (*KINDS, _liar(**says)))
    v = run(_claim("kinds/x-le-1", Inequality("x <= 1", lhs=x, rhs=sp.Integer(1))), SMALL)
    err = [e for e in v.evidence if e.check == "liar"]
    assert v.verdict == "error" and len(err) == 1 and err[0].verdict == "error"
    assert "check kind 'liar'" in err[0].detail and why in err[0].detail, err[0].detail


# --------------------------------------------------------------------------- a new kind: one module, one line

NEW_KIND = '''
"""A new check kind: the inequality at x = 1/2, exactly."""
import sympy as sp

from dpverify import Inequality
from dpverify.checks.kind import CheckKind
from dpverify.verdict import Basis, Evidence


def applies(stmt) -> bool:
    return isinstance(stmt, Inequality)


def check(stmt, claim, cfg) -> Evidence:
    at = {s: sp.Rational(1, 2) for s in (stmt.lhs - stmt.rhs).free_symbols}
    ok = bool(stmt.lhs.subs(at) <= stmt.rhs.subs(at))
    return Evidence("at-one-half", stmt.name, "holds" if ok else "violated", basis=Basis("algebra", "x = 1/2"),
                    counterexample=None if ok else {"params": {"x": 0.5}, "seed": cfg.seed})


KIND = CheckKind(name="at-one-half", applies=applies, check=check, basis_kinds=("algebra",), can_refute=True,
                 certificate="analytic", summary="the inequality at x = 1/2, exactly")
'''


def test_a_new_kind_is_one_module_and_its_line_in_the_table(tmp_path, monkeypatch):
    (tmp_path / "at_one_half.py").write_text(textwrap.dedent(NEW_KIND))
    monkeypatch.syspath_prepend(str(tmp_path))
    mod = importlib.import_module("at_one_half")
    monkeypatch.setattr(checks, "KINDS", KINDS + kinds_of(mod))      # the line in the table
    claim = _claim("kinds/x-le-0.4", Inequality("x <= 0.4", lhs=x, rhs=sp.Rational(2, 5)), expected="violated")
    assert checks.checks_for(claim.statements[0])[-1] == "at-one-half"
    v = run(claim, SMALL)
    mine = [e for e in v.evidence if e.check == "at-one-half"]
    assert v.verdict == "violated" and len(mine) == 1 and mine[0].verdict == "violated"
    assert kind_of(claim, mine[0]) is mod.KIND
    verdict = Verdict(id=claim.id, label=claim.label, verdict="violated", expected=claim.expected, evidence=mine)
    out = certify(claim, verdict, str(tmp_path / "certs"))
    assert out.status == "certified" and out.kind == "analytic", out.line()
