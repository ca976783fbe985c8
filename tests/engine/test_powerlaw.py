"""A rate whose ratio has a power of the path's variable with a symbolic exponent (dpverify.checks.powerlaw): SymPy's
limit guessed that exponent's sign and said ``oo`` for a bounded ratio (GD's excess risk at its printed horizon);
the ratio is now bounded term by term, each power by its exponent's sign proved on the domain. Planted twins whose
exponent changes sign on the domain are never ``verified``."""
from __future__ import annotations

import sympy as sp

from dpverify import Claim, Domain, LimitPath, Rate, Real, Relation, Source
from dpverify.certify import certify_proofs
from dpverify.checks import Config, powerlaw, rateproof

n, b, m, L, eps = sp.symbols("n beta mu L epsilon")
BOOK = Source("textbook rates", "powers")
POS = dict(beta=Real(gt=0, search=(0.1, 10.0), log=True), mu=Real(gt=0, search=(0.1, 10.0), log=True),
           n=Real(ge=1, search=(1.0, 1e6), log=True))
# GD's contraction exp(-2 mu beta T/(mu + beta)^2) at T = (mu^2 + beta^2)/(mu beta) log(n^2), over 1/n^2: the
# power n^(-2 (beta - mu)^2/(beta + mu)^2), bounded (constant at beta = mu); with log(n) in T (a planted
# slip) the power is n^(4 mu beta/(mu + beta)^2), unbounded
GAP = n**2 * sp.exp(-2 * m * b * ((m**2 + b**2) / (m * b) * sp.log(n**2)) / (m + b) ** 2)
GAP_SLIP = n**2 * sp.exp(-2 * m * b * ((m**2 + b**2) / (m * b) * sp.log(n)) / (m + b) ** 2)


def _claim(cid, expr, rate, domain, path=LimitPath("n", "inf")):
    return Claim(id=f"test/{cid}", source=BOOK, domain=domain,
                 statements=(Rate("r", expr=expr, rate=rate, kind="O", paths=(path,)),))


def _rate(claim):
    return rateproof.check_rate(claim.statements[0], claim, Config(samples=30))


def test_the_exponent_of_an_exact_power_is_read_off_and_anything_else_is_not():
    assert sp.simplify(powerlaw.exponent(3 * n ** (b / m) * L, n) - b / m) == 0
    assert sp.simplify(powerlaw.exponent(GAP, n) + 2 * (b - m) ** 2 / (b + m) ** 2) == 0
    assert powerlaw.exponent(n * sp.log(n), n) is None          # not a power
    assert powerlaw.exponent(n**n, n) is None                   # an exponent in the variable
    assert powerlaw.exponent(1 + n**b, n) is None               # a sum, not one power


def test_a_power_whose_exponent_is_never_positive_is_bounded():
    ev = _rate(_claim("gap", GAP + 1 / n, sp.Integer(1), Domain(**POS)))
    assert ev.verdict == "verified", ev.detail
    assert "bounding every term" in ev.detail and "proved on the domain" in ev.detail
    assert ev.data["routes"] == ["powers"] and "a bound on every term" in ev.basis.on
    slip = _rate(_claim("gap-slip", GAP_SLIP + 1 / n, sp.Integer(1), Domain(**POS)))
    assert slip.verdict == "violated", slip.detail     # SymPy's oo, confirmed in mpmath


def test_an_exponent_that_changes_sign_is_never_verified_and_a_relation_that_fixes_it_is_used():
    twin = _claim("sign-change", n ** ((m - b) / (m + b)), sp.Integer(1), Domain(**POS))
    assert _rate(twin).verdict != "verified"
    ok = _claim("sign-fixed", n ** ((m - b) / (m + b)), sp.Integer(1),
                Domain(Relation(sp.Le(m, b), "mu <= beta"), **POS))
    ev = _rate(ok)
    assert ev.verdict == "verified", ev.detail


def test_towards_zero_the_exponent_must_be_nonnegative():
    dom = dict(L=Real(gt=0, search=(1e-3, 1.0), log=True), beta=POS["beta"], mu=POS["mu"])
    path = LimitPath("L", "0+")
    good = _claim("to-zero", L ** ((m - b) ** 2 / (m + b) ** 2), sp.Integer(1), Domain(**dom), path)
    assert _rate(good).verdict == "verified"
    bad = _claim("to-zero-twin", L ** (-(m - b) ** 2 / (m + b) ** 2), sp.Integer(1), Domain(**dom), path)
    assert _rate(bad).verdict != "verified"


def test_certify_says_the_route_has_no_checker_yet(tmp_path):
    claim = _claim("gap-cert", GAP + 1 / n, sp.Integer(1), Domain(**POS))
    from dpverify import check

    v = check(claim, samples=30)
    outs = certify_proofs(claim, v, str(tmp_path))
    assert outs and all(o.status == "no certificate" for o in outs)
    assert any("no standalone checker yet" in o.line() for o in outs), [o.line() for o in outs]
