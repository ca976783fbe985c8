"""Identities proved under the hypotheses (dpverify.checks.radicals, through the domain proof): true textbook
identities that need a sign SymPy cannot see (an atom ``log(1/delta) > 0``, an absolute value, a nested root's
nonnegative branch) are ``verified`` with a standalone checker; each has a planted twin (the other branch, a domain
where the sign fails) that is never ``verified``; a tampered certificate is rejected."""
from __future__ import annotations

import os

import pytest
import sympy as sp

from dpverify import Claim, Domain, Identity, Real, Source, check
from dpverify.certify import certify_proofs, run_checker
from dpverify.checks import Config, domainproof, radicals

x, eps, delta = sp.symbols("x epsilon delta")
L = sp.log(1 / delta)
BOOK = Source("textbook identities", "radicals")
ZCDP = dict(epsilon=Real(gt=0, search=(1e-2, 10.0), log=True), delta=Real(gt=0, lt=1, search=(1e-10, 0.5), log=True))
NESTED = sp.sqrt(eps + 2 * L - 2 * sp.sqrt((eps + L) * L))


def _claim(cid, domain, lhs, rhs):
    return Claim(id=f"test/{cid}", source=BOOK, domain=domain, statements=(Identity("s", lhs=lhs, rhs=rhs),))


def _proof(claim):
    return domainproof.check(claim.statements[0], claim, Config(samples=30))


# (true identity, its planted twin): the twin differs by a branch or by a domain where the needed sign fails
PAIRS = {
    "atom": (_claim("zcdp-rho", Domain(**ZCDP), (sp.sqrt(L + eps) - sp.sqrt(L)) ** 2,
                    eps + 2 * L - 2 * sp.sqrt((eps + L) * L)),
             _claim("zcdp-rho-plus", Domain(**ZCDP), (sp.sqrt(L + eps) + sp.sqrt(L)) ** 2,
                    eps + 2 * L - 2 * sp.sqrt((eps + L) * L))),
    "abs": (_claim("abs", Domain(x=Real(gt=1, lt=3, search=(1.01, 2.99))), sp.sqrt((x - 1) ** 2), x - 1),
            _claim("abs-twin", Domain(x=Real(gt=0, lt=3, search=(0.01, 2.99))), sp.sqrt((x - 1) ** 2), x - 1)),
    "nested": (_claim("nested", Domain(**ZCDP), NESTED, sp.sqrt(eps + L) - sp.sqrt(L)),
               _claim("nested-twin", Domain(**ZCDP), NESTED, sp.sqrt(L) - sp.sqrt(eps + L))),
    # an atom negative on the domain (log(x) for x < 1/2): its symbol stands for -log(x), and the absolute
    # value's sign must be proved of log(x) + 1, which is negative below 1/e (found by a referee: the symbol
    # was written back as +log(x), so 1 - log(x) >= 0 was proved instead, and the twin was verified)
    "negative-atom": (_claim("log-shift", Domain(x=Real(gt=0.5, lt=1, search=(0.51, 0.99))),
                             sp.Abs(sp.log(x) + 1), sp.log(x) + 1),
                      _claim("log-shift-twin", Domain(x=Real(gt=0, lt=0.5, search=(0.4, 0.49))),
                             sp.Abs(sp.log(x) + 1), sp.log(x) + 1)),
    "atom-sign": (_claim("log-square", Domain(delta=Real(gt=0, lt=1, search=(1e-3, 0.99))), sp.sqrt(L**2), L),
                  _claim("log-square-twin", Domain(delta=Real(gt=0, lt=2, search=(1e-3, 1.99))), sp.sqrt(L**2), L)),
}


@pytest.mark.parametrize("route", sorted(PAIRS))
def test_a_true_identity_is_proved_and_its_planted_twin_is_not(route):
    true, twin = PAIRS[route]
    ev = _proof(true)
    assert ev.verdict == "verified", ev.detail
    assert ev.basis.kind == "proof" and "whole domain" in ev.basis.on
    assert ev.data["steps"], ev.data
    bad = _proof(twin)
    assert bad.verdict != "verified", bad.detail


def test_the_steps_say_which_sign_each_replacement_needed():
    ev = _proof(PAIRS["nested"][0])
    steps = " ".join(ev.data["steps"])
    assert "log(1/delta)" in steps and "nonnegative root" in steps, steps


def test_a_sign_by_squares_needs_both_parts_and_the_difference():
    p, q, d = radicals.squares(sp.sqrt(eps + L) - sp.sqrt(L))
    assert sp.simplify(p - q - (sp.sqrt(eps + L) - sp.sqrt(L))) == 0
    assert sp.expand(d) == eps
    assert radicals.squares(eps + L) is None            # no root, nothing to gain
    assert radicals.squares(sp.sqrt(eps) + sp.sqrt(L)) is None   # no negative part


def test_every_replacement_is_an_equality_at_a_point_of_the_domain():
    # the recorded steps, applied to the difference, leave an expression that is 0, and each step's target and
    # replacement agree numerically at a point of the domain (a check of the bookkeeping, not of the proof)
    claim = PAIRS["nested"][0]
    stmt = claim.statements[0]
    from dpverify.checks.reduction import Budget

    diff, steps = domainproof.identity_steps(stmt, claim, Config(), Budget(500))
    assert steps and radicals.reduces_to_zero(radicals.replay(diff, steps))
    atoms = {s.symbol: s.sign for s in steps if s.kind == "atom"}    # by = +-symbol, so symbol = +-target = sign
    point = {sp.Symbol("epsilon", positive=True): sp.Rational(3, 7), sp.Symbol("delta", positive=True): sp.Rational(1, 5)}
    for s in steps:
        a = s.target.xreplace(atoms).xreplace(point)
        b = s.by.xreplace(atoms).xreplace(point)
        assert abs(sp.N(a - b, 40)) < 1e-30, (s, sp.N(a, 20), sp.N(b, 20))


def test_the_proof_is_certified_standalone_and_a_tampered_step_is_rejected(tmp_path):
    claim = PAIRS["nested"][0]
    v = check(claim, samples=40)
    assert v.verdict == "verified", v
    outs = [o for o in certify_proofs(claim, v, str(tmp_path)) if o.status == "certified"]
    assert outs and outs[0].kind == "domain-proof", [o.line() for o in certify_proofs(claim, v, str(tmp_path))]
    folder = outs[0].folder
    ok, line = run_checker(folder)
    assert ok and line.startswith(f"CERTIFIED {claim.id}: ") and "lhs - rhs = 0" in line, line
    path = os.path.join(folder, "check.py")
    src = open(path).read()
    assert "import dpverify" not in src
    # the atom's symbol made positive although only >= 0 was proved
    tampered = src.replace("Symbol('a0_', nonnegative=True)", "Symbol('a0_', positive=True)")
    assert tampered != src
    open(path, "w").write(tampered.replace("'strict': False, 'proof': {'by': 'bnb'", "'strict': True, 'proof': {'by': 'bnb'", 1))
    ok, line = run_checker(folder)
    assert not ok and line.startswith("NOT CERTIFIED"), line
    # the atom's symbol with an assumption more than the sign proved (an integer: SymPy would then reduce
    # sin(pi a0_) to 0)
    open(path, "w").write(src.replace("Symbol('a0_', nonnegative=True)", "Symbol('a0_', integer=True, nonnegative=True)"))
    ok, line = run_checker(folder)
    assert not ok and "exactly the sign" in line, line
    # the root's other branch: -(sqrt(a) - sqrt(a + eps)); its square is the argument, its sign is not proved
    open(path, "w").write(src)
    assert run_checker(folder)[0]
    i = src.index("'kind': 'sqrt'")
    j = src.index("'by': ", i) + len("'by': ")
    k = src.index(", 'strict'", j)
    open(path, "w").write(src[:j] + "Mul(Integer(-1), " + src[j:k] + ")" + src[k:])
    ok, line = run_checker(folder)
    assert not ok and line.startswith("NOT CERTIFIED"), line
