"""The symbolic check skips SymPy's rewritings when a point its assumptions admit refutes the
statement (``checks.symbolic._witness``): the skip must never hide a proof SymPy would find (true
identities and inequalities, hostile cancellation, floating-point constants), and the witness must
obey every assumption on its symbols."""
import sympy as sp
from hypothesis import given, settings
from hypothesis import strategies as st

from dpverify.checks.symbolic import _admitted, _nonneg, _witness, is_zero as _is_zero

x, y = sp.symbols("x y", positive=True)
n = sp.Symbol("n", integer=True, positive=True)
k = sp.Symbol("k", integer=True)
z = sp.Symbol("z")          # no assumption: SymPy treats it as complex
w = sp.Symbol("w", negative=True)


def test_true_identities_have_no_witness_and_are_still_proved():
    for e in [(x + 1) ** 2 - x ** 2 - 2 * x - 1,
              sp.log(sp.exp(x) * sp.exp(y)) - x - y,
              sp.sqrt(x ** 2) - x,
              sp.Sum(k, (k, 1, n)).doit() - n * (n + 1) / 2]:
        assert _witness(e, "zero") is None, e
        assert _is_zero(e) is True, e


def test_true_inequalities_have_no_witness():
    for e in [x ** 2 + 1, (x - y) ** 2, x / y + y / x - 2, n - 1]:
        assert _witness(e, "nonneg") is None, e
        assert _nonneg(e, strict=False) is True, e
    # true, but beyond SymPy's sign reasoning: no witness either (the rewritings still run)
    assert _witness(sp.exp(x) - 1 - x, "nonneg") is None


def test_a_false_inequality_has_a_witness_that_is_really_negative():
    point, value = _witness(x - y, "nonneg")
    assert value < 0
    assert abs(float(point["x"] - point["y"]) - float(value)) < 1e-15


def test_a_false_identity_has_a_witness():
    point, value = _witness(sp.sqrt(x + y) - sp.sqrt(x) - sp.sqrt(y), "zero")
    exact = sp.sqrt(point["x"] + point["y"]) - sp.sqrt(point["x"]) - sp.sqrt(point["y"])
    assert abs(float(exact) - float(value)) < 1e-12 * abs(float(exact)) and exact != 0


def test_cancellation_below_rounding_is_not_a_witness():
    # nonzero, but 1e-25 relative: 30 digits cannot tell it from rounding, so the rewritings run
    assert _witness(x - x * (1 + sp.Rational(1, 10 ** 25)), "zero") is None
    # huge terms that cancel exactly: no witness at 30 or 60 digits
    assert _witness(sp.exp(100 * x) + 1 - (sp.exp(100 * x) + 1), "zero") is None
    assert _witness((sp.exp(60 * x) + 1) * (sp.exp(60 * x) - 1) - sp.exp(120 * x) + 1, "zero") is None


def test_float_constants_are_left_to_sympy():
    # SymPy compares a Float at its own 15 digits: 0.1*x - x/10 may be 0 to SymPy, not to mpmath
    assert _witness(sp.Float(0.1) * x - x / 10, "zero") is None


def test_sums_and_unknown_functions_are_left_to_sympy():
    f = sp.Function("f")
    assert _witness(f(x) - x, "zero") is None
    assert _witness(sp.Sum(x ** k, (k, 1, n)) - n, "zero") is None
    assert _witness(sp.Indexed(sp.IndexedBase("a"), 1) - x, "zero") is None


def test_witness_values_obey_the_assumptions():
    assert all(v > 0 for v in _admitted(x))
    assert all(v.is_integer and v > 0 for v in _admitted(n))
    assert all(v.is_integer for v in _admitted(k)) and any(v < 0 for v in _admitted(k))
    assert all(v < 0 for v in _admitted(w))
    assert _admitted(sp.Symbol("e", even=True, positive=True)) == [2]
    point, value = _witness(w + n, "nonneg")     # w < 0, n >= 1: w + n < 0 at w = -13/3, n = 2
    assert point["w"] < 0 and point["n"] >= 1 and value < 0
    assert _witness(-w, "nonneg") is None         # -w > 0 for every admitted w


@settings(max_examples=60, deadline=None, derandomize=True)
@given(st.lists(st.integers(-5, 5), min_size=1, max_size=4), st.lists(st.integers(-5, 5), min_size=1, max_size=4))
def test_expanded_products_never_have_a_witness(a, b):
    # p*q - expand(p*q) is identically 0: any witness would be a false skip
    p = sum(c * x ** i for i, c in enumerate(a))
    q = sum(c * z ** i for i, c in enumerate(b))
    e = sp.UnevaluatedExpr(p * q) - sp.expand(p * q)
    assert _witness(e.doit(), "zero") is None


def test_deep_proofs_add_the_slow_rewritings(monkeypatch):
    """By default an expression with symbols does not get ``Expr.equals`` nor ``simplify(expand(.))``;
    ``deep=True`` (``--deep-proofs``) tries both; a constant expression gets ``equals`` either way."""
    import dpverify.checks.symbolic as S

    calls = []
    real_equals = sp.Expr.equals
    monkeypatch.setattr(sp.Expr, "equals", lambda self, other, **kw: calls.append(self) or real_equals(self, other))
    monkeypatch.setattr(S, "_simplify_expanded", lambda e: calls.append("simplify(expand)") or sp.simplify(sp.expand(e)))
    hard = sp.sqrt(x + y) - sp.sqrt(x) - sp.sqrt(y)     # no rewriting makes it 0 (it is not 0)
    assert _is_zero(hard) is None and calls == []
    assert _is_zero(hard, deep=True) is None and calls[:2] == ["simplify(expand)", hard]
    calls.clear()
    const = sp.sqrt(2) + sp.sqrt(3) - sp.sqrt(5 + 2 * sp.sqrt(6))
    assert _is_zero(const) is True


def test_the_symbolic_detail_names_the_option_and_the_cache_key_reads_it():
    from dpverify.cache import verdict_key
    from dpverify.checks import Config
    from dpverify.checks.symbolic import check
    from dpverify.claims import Claim, Domain, Identity, Inequality, Real, Source

    a, b = sp.symbols("a b")
    claim = Claim(id="t/deep", source=Source("a textbook", "Claim 1"),
                  domain=Domain(a=Real(gt=0), b=Real(gt=0)),
                  statements=(Identity("hard", lhs=sp.sqrt(a + b), rhs=sp.sqrt(a) + sp.sqrt(b)),))
    shallow = check(claim.statements[0], claim, Config())
    deep = check(claim.statements[0], claim, Config(deep_proofs=True))
    # the witness decides before any rewriting, deep or not: a, b > 0 admit a point where they differ
    assert shallow.verdict == deep.verdict == "inconclusive" and "not a counterexample" in shallow.detail
    ineq = Inequality("exp", lhs=1 + a, rhs=sp.exp(a))     # true, beyond SymPy's sign reasoning, no witness
    claim2 = Claim(id="t/deep2", source=Source("a textbook", "Claim 2"), domain=Domain(a=Real(gt=0)),
                   statements=(ineq,))
    ev = check(ineq, claim2, Config())
    assert ev.verdict == "inconclusive" and "--deep-proofs" in ev.detail
    assert "--deep-proofs" not in check(ineq, claim2, Config(deep_proofs=True)).detail
    base = dict(seed=0, runs=20000, samples=150, confidence=0.99, at=None, chunk_runs=65536, prove_box=False,
                box_budget=20000, adversary=1.0)
    assert verdict_key(claim, {**base, "deep_proofs": False}) != verdict_key(claim, {**base, "deep_proofs": True})
