"""A user's claims file: the domain proof's battery (dpverify.checks.domainproof), each route with a true
twin it must prove on the WHOLE domain (unbounded directions included) and a planted false twin whose proof
must fail: a bound tight where both sides vanish, a failure only far out in an unbounded direction, a
cancellation at a double root, a constant at denormal scale, an integer parameter that fails only past
the search box, an identity false by 1e-40 relative. Every expected verdict is the mathematical truth.

Loaded the way a user's file is (``dpverify check --module tests/textbook/domain_proof.py``).
"""
import sympy as sp

from dpverify import Claim, Domain, Identity, Inequality, Int, Real, Source

BOOK = "elementary inequalities on unbounded domains"
x, y, n = sp.symbols("x y n")
_pos = Domain(x=Real(gt=0, search=(1e-3, 1e3), log=True))


def _claim(id, summary, domain, lhs, rhs, strict=False, expected="verified", reason="", cls=Inequality):
    kw = {"strict": strict} if cls is Inequality else {}
    return Claim(id=f"textbook/domain-{id}", source=Source(BOOK, id), summary=summary, domain=domain,
                 statements=(cls(summary, lhs=lhs, rhs=rhs, **kw),), expected=expected, reason=reason)


# branch-and-bound on [0, inf): tight at 0, where both sides vanish
LOG_LOWER = _claim("log-lower", "x/(1+x) <= log(1+x) for x > 0.", _pos, x / (1 + x), sp.log(1 + x))
LOG_LOWER_SHIFTED = _claim(
    "log-lower-shifted", "PLANTED: x/(1+x) + 1e-300 <= log(1+x) for x > 0.", _pos,
    x / (1 + x) + sp.Rational(1, 10**300), sp.log(1 + x), expected="violated",
    reason="planted: both sides tend to 0 as x -> 0, so a constant at denormal scale breaks it near 0")
# a monotone comparison on [0, inf)
EXP_RECIPROCAL = _claim("exp-reciprocal", "e^-x <= 1/(1+x) for x > 0.", _pos, sp.exp(-x), 1 / (1 + x))
EXP_RECIPROCAL_SHORT = _claim(
    "exp-reciprocal-short", "PLANTED: e^-x <= 1/(1+x) - 1e-9/(1+x^2) for x > 0.", _pos, sp.exp(-x),
    1 / (1 + x) - sp.Rational(1, 10**9) / (1 + x**2), expected="violated",
    reason="planted: 1/(1+x) - e^-x is about x^2/2 near 0, below 1e-9 for x < 4e-5 (a tight bound cancelling)")
# factors with proved signs; a double root that a constant cancels
CUBIC = _claim("cubic", "(x-1)^2 (x+2) >= 0 for x >= -2.", Domain(x=Real(ge=-2, search=(-2, 10))), 0,
               (x - 1) ** 2 * (x + 2))
CUBIC_CANCEL = _claim(
    "cubic-cancel", "PLANTED: (x-1)^2 (x+2) >= 1e-20 x for x >= -2.", Domain(x=Real(ge=-2, search=(-2, 10))),
    x / 10**20, (x - 1) ** 2 * (x + 2), expected="violated",
    reason="planted: at x = 1 the left side is 1e-20 and the right 0 (the double root cancels the cubic)")
# an integer parameter, unbounded
LOG_INT = _claim("log-int", "log n <= n - 1 for integers n >= 1.", Domain(n=Int(ge=1, search=(1, 100))), sp.log(n),
                 n - 1)
POWER_INT = _claim(
    "power-int", "PLANTED: 2^n <= n^40 for integers n >= 2.", Domain(n=Int(ge=2, search=(2, 100))), 2**n, n**40,
    expected="violated", reason="planted: 2^n passes n^40 for n beyond about 377, outside the search box")
# two unbounded parameters
HARMONIC = _claim("harmonic", "x y/(x + y) <= (x + y)/4 for x, y > 0.",
                  Domain(x=Real(gt=0, search=(1e-3, 1e3), log=True), y=Real(gt=0, search=(1e-3, 1e3), log=True)),
                  x * y / (x + y), (x + y) / 4)
PRODUCT_FAR = _claim(
    "product-far", "PLANTED: x y <= x + y + 1e8 for x, y > 0.",
    Domain(x=Real(gt=0, search=(1e-3, 1e3), log=True), y=Real(gt=0, search=(1e-3, 1e3), log=True)),
    x * y, x + y + 10**8, expected="violated", reason="planted: fails only where x y passes 1e8, outside the search box")
# identities: one SymPy proves, one false by 1e-40 relative
IDENTITY = _claim("identity", "x (1 + 1e-40) = x + x/10^40.", _pos, x * (1 + sp.Rational(1, 10**40)),
                  x + x / 10**40, cls=Identity)
IDENTITY_OFF = _claim(
    "identity-off", "PLANTED: x = x (1 + 1e-40).", _pos, x, x * (1 + sp.Rational(1, 10**40)), cls=Identity,
    expected="violated", reason="planted: the sides differ by x/10^40, far below any sampling tolerance")

CLAIMS = (LOG_LOWER, LOG_LOWER_SHIFTED, EXP_RECIPROCAL, EXP_RECIPROCAL_SHORT, CUBIC, CUBIC_CANCEL, LOG_INT, POWER_INT,
          HARMONIC, PRODUCT_FAR, IDENTITY, IDENTITY_OFF)
#: planted twins the checks do not refute (the failure is below the sampled box's reach and the domain proof's
#: enclosures): their proof must fail all the same; their verdict is a known gap, not asserted
UNREACHED = ("textbook/domain-log-lower-shifted", "textbook/domain-exp-reciprocal-short")
