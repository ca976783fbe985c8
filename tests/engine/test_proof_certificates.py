"""Standalone checkers of proofs (dpverify.certify.proofs, routes named by CheckKind.proof_certificate): a true
textbook statement proved symbolically, on its whole domain by the domain proof, or a privacy bound equal to the
exact quantity gets a check.py that prints CERTIFIED under ``python -I`` (no dpverify importable); a tampered
certificate -- an expression altered, a leaf's box or a split moved, a factor's sign flipped -- is rejected with a
non-zero exit; hostile names and text are carried as data, never run."""
from __future__ import annotations

import os
import re

import pytest
import sympy as sp

from dpverify import Claim, Domain, Identity, Inequality, Real, Source, SupBound, check
from dpverify.certify import PROOF_ROUTES, certify_proofs, run_checker
from dpverify.checks import KINDS
from dpverify.scenarios import gaussian_mechanism

x, y, mu, eps = sp.symbols("x y mu eps")
BOOK = Source("textbook inequalities", "1")


def _claim(cid, domain, stmt):
    return Claim(id=f"test/{cid}", source=BOOK, domain=domain, statements=(stmt,))


def _certified(claim, tmp_path, kind):
    v = check(claim, samples=40)
    assert v.verdict == "verified", v
    outs = certify_proofs(claim, v, str(tmp_path))
    assert [o.status for o in outs] == ["certified"] and outs[0].kind == kind, [o.line() for o in outs]
    ok, line = run_checker(outs[0].folder)
    assert ok and line.startswith(f"CERTIFIED {claim.id}: "), line
    assert "import dpverify" not in open(os.path.join(outs[0].folder, "check.py")).read()
    return outs[0].folder


def _tamper(folder, old, new, count=1):
    path = os.path.join(folder, "check.py")
    src = open(path).read()
    assert src.count(old) >= 1, old
    with open(path, "w") as f:
        f.write(src.replace(old, new, count))
    return run_checker(folder)


def test_every_proof_route_a_kind_names_exists():
    named = {k.proof_certificate for k in KINDS if k.proof_certificate}
    assert named and named <= set(PROOF_ROUTES)
    assert {"symbolic-proof", "domain-proof", "privacy-proof", "asymptotics"} <= named
    assert all(k.can_prove for k in KINDS if k.proof_certificate)


def test_a_kind_that_proves_nothing_cannot_name_a_proof_route():
    from dpverify.checks.kind import CheckKind

    with pytest.raises(ValueError, match="proves nothing"):
        CheckKind(name="no-proof", applies=lambda s: True, check=lambda *a: None, basis_kinds=("algebra",),
                  can_refute=False, summary="x", proof_certificate="domain-proof")


def test_a_symbolic_identity_is_certified_and_an_altered_side_is_not(tmp_path):
    claim = _claim("square", Domain(x=Real(gt=0, search=(0.1, 10))),
                   Identity("(x+1)^2 = x^2 + 2x + 1", lhs=(x + 1) ** 2, rhs=x**2 + 2 * x + 1))
    folder = _certified(claim, tmp_path, "symbolic-proof")
    ok, line = _tamper(folder, "RHS = " + sp.srepr(x**2 + 2 * x + 1), "RHS = " + sp.srepr(x**2 + 2 * x + 2))
    assert not ok and line.startswith("NOT CERTIFIED test/square"), line


def test_a_symbolic_sign_needs_the_hypothesis_the_checker_derives(tmp_path):
    """x/(1+x) < 1 holds because x > 0; with the hypothesis widened in PARAMS (x > -1) the checker's own
    assumptions no longer prove the sign."""
    claim = _claim("ratio", Domain(x=Real(gt=0, search=(0.1, 10))), Inequality("x/(1+x) < 1", lhs=x / (1 + x),
                                                                               rhs=1, strict=True))
    folder = _certified(claim, tmp_path, "symbolic-proof")
    ok, line = _tamper(folder, "{'gt': '0/1'}", "{'gt': '-1/1'}")
    assert not ok and line.startswith("NOT CERTIFIED"), line


def test_a_domain_proof_replays_its_tree(tmp_path):
    claim = _claim("quadratic", Domain(x=Real(ge=-10, le=10, search=(-10.0, 10.0))),
                   Inequality("x <= x^2 + 1", lhs=x, rhs=x**2 + 1))
    folder = _certified(claim, tmp_path, "domain-proof")
    src = open(os.path.join(folder, "check.py")).read()
    assert "'by': 'bnb'" in src and "'split'" in src
    # a leaf's box changed: the first split point moved below the range's lower end (-10), outside its box
    first = re.search(r"\['split', 0, '([^']+)'", src).group(1)
    ok, line = _tamper(folder, f"['split', 0, '{first}'", "['split', 0, '-11/1'")
    assert not ok and "outside its box" in line, line
    # a leaf's verdict changed: a certified leaf marked as discarded (outside the hypotheses, which it is not)
    ok, line = _tamper(folder, "['split', 0, '-11/1'", f"['split', 0, '{first}'")
    assert ok, line
    ok, line = _tamper(folder, "['cert', ['natural']]", "['out']")
    assert not ok and "discarded" in line, line


def test_a_domain_proof_of_a_false_statement_is_rejected_leaf_by_leaf(tmp_path):
    """The true statement's certificate with the claim's expression altered (log(1+x) <= x becomes
    log(1+2x) <= x, false near 0): some leaf is no longer decided."""
    claim = _claim("log-x", Domain(x=Real(ge=0, search=(0.0, 10.0))),
                   Inequality("log(1+x) <= x", lhs=sp.log(1 + x), rhs=x))
    folder = _certified(claim, tmp_path, "domain-proof")
    ok, line = _tamper(folder, "LHS = " + sp.srepr(sp.log(1 + x)), "LHS = " + sp.srepr(sp.log(1 + 2 * x)))
    assert not ok and line.startswith("NOT CERTIFIED test/log-x") and "not decided" in line, line


def test_a_domain_proof_by_signs_is_certified_and_a_flipped_inequality_is_not(tmp_path):
    claim = _claim("signs", Domain(x=Real(ge=0, le=1, search=(0.0, 1.0)), y=Real(ge=1, search=(1.0, 10.0))),
                   Inequality("x y <= y + x^2 y", lhs=x * y, rhs=y + x**2 * y))
    folder = _certified(claim, tmp_path, "domain-proof")
    ok, line = _tamper(folder, "RHS = ", "RHS = -1 * ")   # the right side's sign flipped
    assert not ok and line.startswith("NOT CERTIFIED test/signs"), line


def _phi(t):
    return sp.erfc(-t / sp.sqrt(2)) / 2


def test_a_privacy_bound_equal_to_the_exact_profile_is_certified_and_a_changed_eps_is_not(tmp_path):
    """delta(eps) of the Gaussian mechanism written by the user as its bound; the checker rebuilds Balle & Wang's
    profile from the scenario's eps and mu and SymPy reduces the difference to 0."""
    profile = _phi(-eps / mu + mu / 2) - sp.exp(eps) * _phi(-eps / mu - mu / 2)
    claim = _claim("profile", Domain(mu=Real(gt=0, search=(0.2, 5.0), log=True), eps=Real(ge=0, search=(0.0, 5.0))),
                   SupBound("delta(eps) is the profile", bound=profile, kind="privacy",
                            scenario=gaussian_mechanism(sensitivity=mu, noise_std=1, eps=eps, measure="delta_at_eps")))
    folder = _certified(claim, tmp_path, "privacy-proof")
    ok, line = _tamper(folder, "EPS = " + sp.srepr(eps), "EPS = " + sp.srepr(2 * eps))
    assert not ok and line.startswith("NOT CERTIFIED test/profile"), line


@pytest.mark.parametrize("route", ["symbolic", "domain", "identity", "privacy"])
def test_hostile_names_and_text_are_data(tmp_path, route):
    """A parameter named as Python code and a statement name that closes a string literal: the proof's check.py
    certifies and runs nothing they spell."""
    mark = tmp_path / f"pwn-{route}"
    evil = sp.Symbol(f"__import__('os').system('touch {mark}')")
    name = "it holds \"); import os; os.system('touch " + str(mark) + "') # '''"
    dom = Domain(x=Real(ge=0, search=(0.0, 10.0)), **{evil.name: Real(ge=1, search=(1.0, 2.0))})
    if route == "symbolic":
        stmt = Identity(name, lhs=evil * (x + 1), rhs=evil * x + evil)
        kind = "symbolic-proof"
    elif route == "domain":
        stmt = Inequality(name, lhs=sp.log(1 + x), rhs=evil * x)
        kind = "domain-proof"
    elif route == "identity":   # an absolute value signed by a domain proof (dpverify.checks.radicals)
        stmt = Identity(name, lhs=sp.sqrt(sp.log(evil) ** 2), rhs=sp.log(evil))
        kind = "domain-proof"
    else:
        profile = _phi(-x / evil + evil / 2) - sp.exp(x) * _phi(-x / evil - evil / 2)
        stmt = SupBound(name, bound=profile, kind="privacy",
                        scenario=gaussian_mechanism(sensitivity=evil, noise_std=1, eps=x, measure="delta_at_eps"))
        kind = "privacy-proof"
    folder = _certified(Claim(id=f"mine/evil-{route}", source=BOOK, domain=dom, statements=(stmt,)), tmp_path, kind)
    assert not mark.exists()


def test_a_privacy_bound_proved_on_the_search_box_replays_its_tree(tmp_path):
    """The classical calibration (Dwork & Roth, Thm. A.1): sigma = sqrt(2 ln(1.25/delta)) Delta/eps with eps < 1
    gives (eps, delta)-DP; proved by branch-and-bound over the search box, its tree replayed in arb."""
    delta = sp.Symbol("delta")
    calib = sp.sqrt(2 * sp.log(sp.Rational(5, 4) / delta)) / eps
    dom = Domain(eps=Real(gt=0, lt=1, search=(0.01, 0.99), log=True),
                 delta=Real(gt=0, lt=1, search=(1e-10, 0.1), log=True))
    claim = _claim("calibration", dom, SupBound("delta(eps) <= delta", bound=delta, kind="privacy",
                                               scenario=gaussian_mechanism(sensitivity=1, noise_std=calib, eps=eps,
                                                                           measure="delta_at_eps")))
    folder = _certified(claim, tmp_path, "privacy-proof-on-box")
    src = open(os.path.join(folder, "check.py")).read()
    assert "'split'" in src and "import dpverify" not in src
    first = re.search(r"\['split', (\d), '([^']+)'", src)
    ok, line = _tamper(folder, first.group(0), f"['split', {first.group(1)}, '2/1'")   # beyond the box's end
    assert not ok and "outside its box" in line, line
    ok, line = _tamper(folder, f"['split', {first.group(1)}, '2/1'", first.group(0))
    assert ok, line
    ok, line = _tamper(folder, "['cert']", "['out']")                  # a certified leaf said to be discarded
    assert not ok and "discarded" in line, line


def test_a_monotone_reduction_is_replayed_and_a_flipped_sign_is_not(tmp_path):
    """1 - e^(-1/d) <= 1 - 1/e for d >= 1: factors, one of them monotone in d (least at d = 1); with the recorded
    direction flipped the derivative's sign is no longer shown."""
    d = sp.Symbol("d")
    claim = _claim("monotone", Domain(d=Real(ge=1, search=(1.0, 100.0))),
                   Inequality("1 - exp(-1/d) <= 1 - 1/e", lhs=1 - sp.exp(-1 / d), rhs=1 - sp.exp(-1)))
    folder = _certified(claim, tmp_path, "domain-proof")
    ok, line = _tamper(folder, "'by': 'monotone', 'var': 'd', 'sign': 1", "'by': 'monotone', 'var': 'd', 'sign': -1")
    assert not ok and line.startswith("NOT CERTIFIED test/monotone"), line


def test_a_relaxed_floor_is_replayed_and_a_ceiling_in_its_place_is_not(tmp_path):
    n = sp.Symbol("n")
    claim = _claim("floor", Domain(n=Real(ge=1, search=(1.0, 100.0))), Inequality("floor(n) <= n", lhs=sp.floor(n),
                                                                                   rhs=n))
    folder = _certified(claim, tmp_path, "domain-proof")
    ok, line = _tamper(folder, "LHS = " + sp.srepr(sp.floor(n)), "LHS = " + sp.srepr(sp.ceiling(n)))
    assert not ok and line.startswith("NOT CERTIFIED test/floor"), line


def test_a_domain_proof_never_crosses_a_singularity():
    """-2 <= 1/x on x in [-1, 1] is false (x = -1/4). The domain proof's monotone face took d(1/x)/dx = -1/x^2 <= 0
    "where it is defined" and read f at x = 1: a verified across the pole at 0. The face (and the mean-value form) now
    need f itself to evaluate on the box without a singularity; the same statement on [1/2, 1] is still proved."""
    from dpverify.checks import Config, domainproof

    def proof(lo):
        claim = Claim(id="test/pole", source=BOOK, domain=Domain(x=Real(ge=lo, le=1, search=(lo, 1.0))),
                      statements=(Inequality("-2 <= 1/x", lhs=-2, rhs=1 / x),))
        return domainproof.check(claim.statements[0], claim, Config())

    assert proof(-1).verdict != "verified", proof(-1).detail
    assert proof(sp.Rational(1, 2)).verdict == "verified"


@pytest.mark.parametrize("node", [["split", 0, "1/2", ["cert"]], ["split", True, "1/2", ["cert"], ["cert"]],
                                  ["split", 0, "nan", ["cert"], ["cert"]], ["split", 0, "1/0", ["cert"], ["cert"]],
                                  ["split", 0, 0.5, ["cert"], ["cert"]], ["split", 0, "5", ["cert"], ["cert"]], [],
                                  "cert"])
def test_a_hostile_tree_is_rejected_by_the_checkers_walker_not_raised(node):
    """The box-tree replay every checker embeds (certify.proof_runtime.TREE) meets a certificate folder's tree:
    a malformed split (its length, a bool index, a point that is no exact number, a float, a point outside the
    box) is a ``Rejected`` with its reason, never another exception."""
    from fractions import Fraction

    from dpverify.certify.proof_runtime import TREE

    ns = {"Fraction": Fraction}
    exec(TREE, ns)  # noqa: S102 - the checker's own source text, as check.py runs it
    with pytest.raises(ns["Rejected"]):
        ns["walk_tree"](node, [(Fraction(0), Fraction(1))], ["x"], ["real"], lambda tag, box: None)
