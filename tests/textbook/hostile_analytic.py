"""A user's claims file: hostile cases for the analytic (deterministic) checks.

Each case is a failure a verifier can make with finite precision, stated as a TRUE twin (a true
statement the checker must not call ``violated``) and a FALSE twin (a false statement it must not
call ``holds``), every expected verdict being the mathematical truth:

* strict inequalities at denormal points (``x = 5e-324``), where both sides agree to every
  precision that ignores the point's own scale;
* a statement SymPy proves (its numeric check must then agree);
* Bernoulli's inequality with ``x`` down to ``1e-150`` (``1 + x`` rounds to ``1`` at 50 and 100
  digits);
* values far below any absolute floor (``e^-1000``) and a pass at 50 digits that is a failure at
  the point's own scale;
* a rate along a path where a fixed precision turns into noise (``1 - sqrt(1 - 1/k)`` at k = 1e27 has
  no correct digit at 50 digits, and the noise read as a drift), with its false twin that really drifts;
* a rate whose hidden constant depends on a parameter the statement quantifies over (the sup over it
  at each point of the path, ``LimitPath(worst_over=...)``), with the fixed-parameter reading beside it;
* a false inequality whose violation is large at some points and at rounding level near the point
  Hypothesis shrinks to (the worst violation must be reported beside the simplest one), and one
  whose shrunk point is no counterexample at all (a double-precision artefact: the check must fall
  back to the worst point it found).

Loaded the way a user's file is (``dpverify check --module tests/textbook/hostile_analytic.py``).
"""
import sympy as sp

from dpverify import Claim, Domain, Inequality, Int, Limit, LimitPath, Rate, Real, Source

BOOK = "elementary inequalities (exp, log, sin, Bernoulli), at the edges of floating point"
x, N = sp.symbols("x N")
EXP_TAYLOR_5 = sum(x**k / sp.factorial(k) for k in range(6))


def _claim(id, label, summary, domain, lhs, rhs, strict=False, expected="holds", reason="", witness=None):
    return Claim(id=f"textbook/hostile-{id}", source=Source(BOOK, label), summary=summary, domain=domain,
                 statements=(Inequality(summary, lhs=lhs, rhs=rhs, strict=strict),), expected=expected,
                 reason=reason, witness=witness)


# ------------------------------------------------------------------------- strict inequalities at denormals
_pos = Domain(x=Real(gt=0))  # searched on (0, 100]: Hypothesis draws 5e-324
_tiny = Domain(x=Real(gt=0, le=1e-300))  # every point is at or below 1e-300
_nonneg = Domain(x=Real(ge=0))
EXP_BELOW_ONE = _claim("exp-below-one", "exp", "e^-x < 1 for x > 0 (the domain proof proves it).", _pos, sp.exp(-x), 1,
                       strict=True, expected="verified")
LOG_BELOW_X = _claim("log-below-x", "log", "log(1 + x) < x for x > 0.", _pos, sp.log(1 + x), x, strict=True)
SIN_BELOW_X = _claim("sin-below-x", "sin", "sin x < x for x > 0.", _pos, sp.sin(x), x, strict=True)
RECIPROCAL_BELOW_ONE = _claim("reciprocal-below-one", "1/(1+x)", "1/(1 + x) < 1 for x > 0 (SymPy proves it).",
                              _pos, 1 / (1 + x), 1, strict=True, expected="verified")
EXP_BELOW_CHORD_TINY = _claim("exp-below-half-chord-tiny", "exp", "e^-x < 1 - x/2 for 0 < x <= 1e-300.", _tiny,
                              sp.exp(-x), 1 - x / 2, strict=True)
EXP_ABOVE_CHORD_TINY = _claim(
    "exp-above-half-chord-tiny", "exp", "PLANTED: 1 - x/2 < e^-x for 0 < x <= 1e-300.", _tiny, 1 - x / 2, sp.exp(-x),
    strict=True, expected="violated",
    reason="planted: e^-x = 1 - x + O(x^2) < 1 - x/2; the sides differ by x/2, at the point's own scale",
    witness={"x": 1e-300})
EXP_BELOW_ONE_AT_ZERO = _claim(
    "exp-below-one-at-zero", "exp", "PLANTED: e^-x < 1 for x >= 0.", _nonneg, sp.exp(-x), 1, strict=True,
    expected="violated", reason="planted: at x = 0 both sides are exactly 1 (a strict inequality fails at a tie)",
    witness={"x": 0.0})
RECIPROCAL_ABOVE_ONE = _claim(
    "reciprocal-above-one", "1/(1+x)", "PLANTED: 1 < 1/(1 + x) for x > 0.", _pos, 1, 1 / (1 + x), strict=True,
    expected="violated", reason="planted: 1/(1 + x) < 1 for every x > 0", witness={"x": 1.0})

# ------------------------------------------------------------------------- Bernoulli's inequality, x down to 1e-150
_bern = Domain(x=Real(gt=0, search=(1e-150, 1.0), log=True), N=Int(ge=1, search=(1, 50)))
_bern_tiny = Domain(x=Real(gt=0, search=(1e-150, 1e-60), log=True), N=Int(ge=1, search=(1, 50)))
BERNOULLI = _claim("bernoulli", "Bernoulli's inequality", "N <= ((1 + x)^N - 1)/x for x > 0, N >= 1.", _bern,
                   N, ((1 + x) ** N - 1) / x)
BERNOULLI_REVERSED = _claim(
    "bernoulli-reversed", "Bernoulli's inequality", "PLANTED: ((1 + x)^N - 1)/x <= N for x > 0, N >= 1.", _bern,
    ((1 + x) ** N - 1) / x, N, expected="violated",
    reason="planted: (1 + x)^N > 1 + N x for N >= 2 and x > 0", witness={"x": 0.5, "N": 2})
BERNOULLI_TINY = _claim("bernoulli-tiny", "Bernoulli's inequality", "N/2 <= ((1 + x)^N - 1)/x for 1e-150 <= x <= 1e-60.",
                        _bern_tiny, N / 2, ((1 + x) ** N - 1) / x)
BERNOULLI_HALF_TINY = _claim(
    "bernoulli-half-tiny", "Bernoulli's inequality",
    "PLANTED: ((1 + x)^N - 1)/x <= N/2 for 1e-150 <= x <= 1e-60.", _bern_tiny, ((1 + x) ** N - 1) / x, N / 2,
    expected="violated",
    reason="planted: ((1 + x)^N - 1)/x >= N; in double precision (and at 50 digits) it evaluates to 0",
    witness={"x": 1e-100, "N": 2})

# ------------------------------------------------------------------------- values far below any absolute floor
_far = Domain(x=Real(ge=200, le=1000))
HALF_EXP = _claim("exp-below-twice", "exp", "e^-x <= 2 e^-x for 200 <= x <= 1000.", _far, sp.exp(-x),
                  2 * sp.exp(-x), expected="verified")
TWICE_EXP = _claim(
    "twice-exp-below-exp", "exp", "PLANTED: 2 e^-x <= e^-x for 200 <= x <= 1000.", _far, 2 * sp.exp(-x), sp.exp(-x),
    expected="violated", reason="planted: the left side is twice the right one, at any scale (e^-1000 ~ 1e-435)",
    witness={"x": 1000.0})

# ------------------------------------------------------------------------- a violation large far away, marginal where shrunk
EXP_TAYLOR = _claim(
    "exp-below-taylor-5", "exp", "PLANTED: e^x <= sum_{k<=5} x^k/k! for x > 0.", _pos, sp.exp(x), EXP_TAYLOR_5,
    expected="violated",
    reason="planted: the remainder x^6/720 + ... is positive; e^x is 15 times the sum at x = 10, and the violation "
           "is about x^6/720 (rounding level) near x = 0",
    witness={"x": 10.0})
SINE_BELOW_DECAYING_PARABOLA = _claim(
    "sine-below-decaying-parabola", "sin", "PLANTED: sin(pi x)^2 <= pi^2 (x - 1)^2 e^(-4 (x - 1)^2) for x > 0.",
    _pos, sp.sin(sp.pi * x) ** 2, sp.pi**2 * (x - 1) ** 2 * sp.exp(-4 * (x - 1) ** 2), expected="violated",
    reason="planted: at x = 10.5 the left side is 1 and the right one 1e-154; near x = 1 the violation is "
           "marginal (relative 0.7 (x - 1)^2), and at x = 1 both sides are 0, where double precision finds "
           "sin(pi)^2 = 1.5e-32 > 0 (a rounding artefact Hypothesis shrinks to)",
    witness={"x": 10.5})
SINE_BELOW_PARABOLA = _claim("sine-below-parabola", "sin", "sin(pi x)^2 <= pi^2 (x - 1)^2 for x > 0.", _pos,
                             sp.sin(sp.pi * x) ** 2, sp.pi**2 * (x - 1) ** 2)
EXP_ABOVE_TAYLOR = _claim("exp-above-taylor-5", "exp", "sum_{k<=5} x^k/k! <= e^x for x > 0.", _pos, EXP_TAYLOR_5,
                          sp.exp(x))

# ------------------------------------------------------------------------- a rate whose path outruns a fixed precision
k, a = sp.symbols("k a")
_T_STATIONARY = 2 * sp.log(1 + (1 - sp.sqrt(1 - 1 / k)) ** 2 / a) / -sp.log(1 - 1 / k)
_rate_domain = Domain(k=Real(ge=1, search=(1.0, 1e4), log=True), a=Real(gt=0, search=(1e-8, 10.0), log=True))


def _rate_claim(id, summary, rate, expected, reason="", witness=None):
    return Claim(id=f"textbook/hostile-{id}", source=Source(BOOK, "rate"), summary=summary, domain=_rate_domain,
                 statements=(Rate(summary, expr=_T_STATIONARY, rate=rate, kind="O",
                                  paths=(LimitPath("a", "0+"), LimitPath("k", "inf"))),),
                 expected=expected, reason=reason, witness=witness)


RATE_THROUGH_CANCELLATION = _rate_claim(
    "rate-through-cancellation", "2 ln(1 + (1 - sqrt(1 - 1/k))^2/a)/ln(1/(1 - 1/k)) = O(2 k ln(1 + 1/(k^2 a))).",
    2 * k * sp.log(1 + 1 / (k**2 * a)), "verified")
RATE_MISSING_K = _rate_claim(
    "rate-missing-k", "PLANTED: 2 ln(1 + (1 - sqrt(1 - 1/k))^2/a)/ln(1/(1 - 1/k)) = O(2 ln(1 + 1/(k^2 a))).",
    2 * sp.log(1 + 1 / (k**2 * a)), "violated",
    reason="planted: the factor k is dropped; as k -> inf the ratio grows like k/4",
    witness={"k": 1e6, "a": 1.0})

# ------------------------------------------------------------------------- a rate whose constant hides a parameter
# 1/sqrt(n) + e^(-1/(D n))/(D n) is O(1/sqrt n) for each fixed D, but its sup over D (at D = 1/n) is 1/e: a
# step rule or radius chosen against n defeats the rate. The same with one more 1/sqrt(n) stays O(1/sqrt n).
nn, DD = sp.symbols("n D", positive=True)
_hidden = Domain(n=Real(gt=0, search=(1.0, 100.0), log=True), D=Real(gt=0, search=(1e-2, 1e2), log=True))


def _hidden_claim(id, summary, expr, worst_over, expected, reason="", witness=None):
    return Claim(id=f"textbook/hostile-{id}", source=Source(BOOK, "rate"), summary=summary, domain=_hidden,
                 statements=(Rate(summary, expr=expr, rate=1 / sp.sqrt(nn), kind="O",
                                  paths=(LimitPath("n", "inf", worst_over=worst_over,
                                                   label="D adversarial" if worst_over else "D fixed"),)),),
                 expected=expected, reason=reason, witness=witness)


_HIDDEN = 1 / sp.sqrt(nn) + sp.exp(-1 / (DD * nn)) / (DD * nn)
RATE_D_FIXED = _hidden_claim("rate-hidden-d-fixed", "1/sqrt(n) + e^(-1/(D n))/(D n) = O(1/sqrt n), D fixed.",
                             _HIDDEN, (), "verified")
RATE_D_ADVERSARIAL = _hidden_claim(
    "rate-hidden-d-adversarial", "PLANTED: 1/sqrt(n) + e^(-1/(D n))/(D n) = O(1/sqrt n) uniformly in D.", _HIDDEN,
    ("D",), "violated", reason="planted: at D = 1/n the second term is 1/e, so the ratio grows like sqrt(n)/e",
    witness={"n": 1e6, "D": 1e-6})
RATE_D_ADVERSARIAL_TRUE = _hidden_claim(
    "rate-hidden-d-adversarial-true", "1/sqrt(n) + e^(-1/(D n))/(D n^1.5) = O(1/sqrt n) uniformly in D.",
    1 / sp.sqrt(nn) + sp.exp(-1 / (DD * nn)) / (DD * nn ** sp.Rational(3, 2)), ("D",), "holds")

# ------------------------------------------------------------------------- a rate that drops a log factor (issue 38)
# T = 2 kappa ln n steps: (1 - 1/kappa)^T <= 1/n^2, but the second term d T/n^2 = 2 kappa d ln(n)/n^2 keeps the log.
kk, dd, n2 = sp.symbols("kappa d n", positive=True)
_T_LOG = 2 * kk * sp.log(n2)
_LOG_EXPR = (1 - 1 / kk) ** _T_LOG + dd * _T_LOG / n2**2
_log_domain = Domain(kappa=Real(gt=1, search=(1.5, 100.0), log=True), d=Real(ge=1, search=(1.0, 100.0), log=True),
                     n=Real(ge=3, search=(10.0, 1e4), log=True))


def _log_claim(id, summary, rate, expected, reason="", witness=None):
    return Claim(id=f"textbook/hostile-{id}", source=Source(BOOK, "rate"), summary=summary, domain=_log_domain,
                 statements=(Rate(summary, expr=_LOG_EXPR, rate=rate, kind="O",
                                  paths=(LimitPath("n", "inf", label="kappa, d fixed"),)),),
                 expected=expected, reason=reason, witness=witness)


RATE_LOG_FACTOR_DROPPED = _log_claim(
    "rate-log-factor-dropped", "PLANTED: (1 - 1/kappa)^T + d T/n^2 with T = 2 kappa ln n is O(1/n^2).", 1 / n2**2,
    "violated", reason="planted: d T/n^2 = 2 kappa d ln(n)/n^2, so the ratio to 1/n^2 grows like 2 kappa d ln n",
    witness={"kappa": 2.0, "d": 1.0, "n": 1e200})
# True (the ratio tends to 2), but SymPy 1.14's limit of the ratio, with kappa = 1 + u (u > 0), is oo: the
# refutation is not confirmed in mpmath (the ratio settles at 2), so the proof's verdict is inconclusive and the
# sweep's holds stands -- a limit SymPy gets wrong never decides.
RATE_LOG_FACTOR_KEPT = _log_claim(
    "rate-log-factor-kept", "(1 - 1/kappa)^T + d T/n^2 with T = 2 kappa ln n is O(kappa d ln(n)/n^2).",
    kk * dd * sp.log(n2) / n2**2, "holds")

# ------------------------------------------------------------------------- a limit, and a planted wrong value
_lim_domain = Domain(a=Real(gt=0, le=10, search=(0.1, 10.0), log=True),
                     n=Real(ge=1, search=(1.0, 100.0), log=True))
aa = sp.Symbol("a", positive=True)
LIMIT_COMPOUND = Claim(
    id="textbook/hostile-limit-compound", source=Source(BOOK, "limit"), summary="(1 + a/n)^n -> e^a as n -> inf.",
    domain=_lim_domain, statements=(Limit("(1 + a/n)^n -> e^a", expr=(1 + aa / n2) ** n2, value=sp.exp(aa),
                                          path=LimitPath("n", "inf")),), expected="verified")
LIMIT_COMPOUND_WRONG = Claim(
    id="textbook/hostile-limit-compound-wrong", source=Source(BOOK, "limit"),
    summary="PLANTED: (1 + a/n)^n -> e^(a/2) as n -> inf.", domain=_lim_domain,
    statements=(Limit("(1 + a/n)^n -> e^(a/2)", expr=(1 + aa / n2) ** n2, value=sp.exp(aa / 2),
                      path=LimitPath("n", "inf")),),
    expected="violated", reason="planted: the limit is e^a", witness={"a": 1.0, "n": 1e30})

CLAIMS = (EXP_BELOW_ONE, LOG_BELOW_X, SIN_BELOW_X, RECIPROCAL_BELOW_ONE, EXP_BELOW_CHORD_TINY, EXP_ABOVE_CHORD_TINY,
          EXP_BELOW_ONE_AT_ZERO, RECIPROCAL_ABOVE_ONE, BERNOULLI, BERNOULLI_REVERSED, BERNOULLI_TINY,
          BERNOULLI_HALF_TINY, HALF_EXP, TWICE_EXP, EXP_TAYLOR, EXP_ABOVE_TAYLOR,
          SINE_BELOW_DECAYING_PARABOLA, SINE_BELOW_PARABOLA, RATE_THROUGH_CANCELLATION, RATE_MISSING_K,
          RATE_D_FIXED, RATE_D_ADVERSARIAL, RATE_D_ADVERSARIAL_TRUE, RATE_LOG_FACTOR_DROPPED, RATE_LOG_FACTOR_KEPT,
          LIMIT_COMPOUND, LIMIT_COMPOUND_WRONG)
