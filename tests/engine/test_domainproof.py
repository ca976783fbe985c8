"""The domain proof (dpverify.checks.domainproof) and its interval arithmetic (dpverify.xinterval): sound
outward-rounded enclosures on the extended real line, and inequalities false only in a tiny region, only
far out in an unbounded direction, or only at denormal scale are never ``verified``."""
from __future__ import annotations

from fractions import Fraction

import sympy as sp
from flint import arb, fmpq

from dpverify import Claim, Domain, Inequality, Int, Real, Source
from dpverify.checks import Config, domainproof, run
from dpverify.xinterval import INF, Iv, Undefined, interval, to_iv

x, n = sp.symbols("x n")
CFG = Config(samples=30)
POS = Domain(x=Real(gt=0, search=(1e-3, 1e3), log=True))


def _claim(domain, lhs, rhs):
    return Claim(id="t/dp", source=Source("test", "domain proof"), domain=domain,
                 statements=(Inequality("s", lhs=lhs, rhs=rhs),))


def test_intervals_round_outwards_and_keep_signs():
    third = to_iv(fmpq(1, 3))
    assert _exact(third.lo) < Fraction(1, 3) < _exact(third.hi)   # 1/3 is not binary: strictly inside
    sq = interval(fmpq(-1, 5), fmpq(3, 5)) ** 2
    assert sq.lo == 0 and bool(sq.hi >= fmpq(9, 25))            # an even power keeps its sign
    assert (interval(0, 0) ** to_iv(fmpq(1, 2))).hi == 0        # 0 ** e = 0, no recursion
    lg = interval(0, 1).log()
    assert lg.lo == -INF and lg.hi == 0
    assert interval(1, INF).recip().lo == 0 and interval(1, INF).recip().hi == 1
    p = interval(0, 1) * interval(1, INF)                         # 0 * inf at an end is 0 (finite products)
    assert p.lo == 0 and p.hi == INF
    for bad in (lambda: interval(-1, 1).log(), lambda: interval(-1, 1).recip(), lambda: interval(-1, 0).sqrt()):
        try:
            bad()
        except Undefined:
            continue
        raise AssertionError("an operation outside its real domain must raise Undefined")
    ball = arb(2).exp()                                           # a ball's ends enclose it
    e = to_iv(ball)
    assert isinstance(e, Iv) and _exact(e.lo) <= _exact(ball.mid()) - _exact(ball.rad())
    assert _exact(e.hi) >= _exact(ball.mid()) + _exact(ball.rad())


def _exact(a) -> Fraction:
    m, e = a.mid().man_exp()
    return Fraction(int(m)) * Fraction(2) ** int(e)


def test_false_only_far_out_tiny_or_at_denormal_scale_is_never_verified():
    bump = (x - sp.Rational(1, 3)) ** 2 + sp.Rational(1, 10**30) \
        - sp.Rational(1, 10**29) * sp.exp(-(x - sp.Rational(1, 3)) ** 2 * 10**40)
    cases = [
        (POS, x / 10**9, sp.sqrt(x)),                                  # fails for x > 1e18
        (POS, x / (x + 1), 1 - sp.Rational(1, 10**12)),               # fails for x > 1e12
        (Domain(x=Real(search=(-5, 5))), 0, bump),                    # fails only within 1e-20 of 1/3
        (POS, x / (1 + x) + sp.Rational(1, 10**300), sp.log(1 + x)),  # fails below x ~ 1e-150
        (Domain(n=Int(ge=2, search=(2, 100))), 2**n, n**40),          # fails for n > 377
    ]
    for domain, lhs, rhs in cases:
        c = _claim(domain, lhs, rhs)
        ev = domainproof.check(c.statements[0], c, CFG)
        assert ev.verdict != "verified", (lhs, rhs, ev.detail)


def test_a_true_bound_is_proved_on_the_whole_unbounded_domain_and_says_so():
    c = _claim(POS, x / (1 + x), sp.log(1 + x))
    ev = domainproof.check(c.statements[0], c, CFG)
    assert ev.verdict == "verified" and ev.basis.kind == "proof"
    assert ev.data["scope"] == "the whole domain: x in (0, inf)" and ev.basis.on == ev.data["scope"]
    assert ev.data["boxes"] >= 1 and "bnb" in ev.data["routes"]


def test_a_budget_of_zero_turns_the_domain_proof_off():
    c = _claim(POS, x / (1 + x), sp.log(1 + x))
    on, off = run(c, CFG), run(c, Config(samples=30, proof_budget=0))
    assert on.verdict == "verified" and "domainproof" in on.checks
    assert off.verdict == "holds" and "domainproof" not in off.checks
