"""search evaluates a margin once per distinct point, and the result is what it was without the memo."""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from hypothesis import strategies as st

from dpverify import search as S
from dpverify.search import EvaluationError, Margin, search


def test_a_repeated_point_is_evaluated_once_and_counted_every_time():
    calls = []

    def margin(pt):
        calls.append(pt["x"])
        if pt["x"] == 3:
            raise EvaluationError("not here")
        return Margin((10 - pt["x"]) / 10, pt["x"], 10.0)   # fails from x = 11 on

    strategy = st.fixed_dictionaries({"x": st.integers(0, 400)})
    res = search(strategy, margin, 40, 1, optimise=0)
    assert res.counterexample == {"x": 11}                  # shrunk, then evaluated again: a repeated point
    assert len(calls) == len(set(calls))                    # each distinct point evaluated once
    assert res.confirmed + res.errors > len(calls)          # ... and every evaluation still recorded


def test_a_counterexample_is_the_same_with_and_without_the_memo(monkeypatch):
    def margin(pt):
        return Margin(1.0 - pt["x"] ** 2, pt["x"] ** 2, 1.0)

    strategy = st.fixed_dictionaries({"x": st.floats(0, 3)})
    memo = search(strategy, margin, 80, 5)
    monkeypatch.setattr(S, "_Memo", lambda f: f)
    plain = search(strategy, margin, 80, 5)
    assert memo.counterexample == plain.counterexample and memo.counterexample["x"] > 1
    assert (memo.min_margin, memo.samples, memo.confirmed, memo.found_by) == \
        (plain.min_margin, plain.samples, plain.confirmed, plain.found_by)


@dataclass(frozen=True)
class _Inst:
    point: dict
    spectrum: np.ndarray


def test_keys_tell_apart_what_a_margin_could_tell_apart():
    key = S._key
    assert key({"x": 0.0}) != key({"x": -0.0}) != key({"x": 0})
    assert key({"x": 1.0, "s": [1.0, 2.0]}) == key({"x": 1.0, "s": [1.0, 2.0]})
    assert key({"x": 1.0, "s": [1.0, 2.0]}) != key({"x": 1.0, "s": (1.0, 2.0)})
    a = _Inst({"x": 1.0}, np.array([1.0, 2.0]))
    assert key(a) == key(_Inst({"x": 1.0}, np.array([1.0, 2.0])))
    assert key(a) != key(_Inst({"x": 1.0}, np.array([1.0, 2.5])))
    assert key(a) != key(_Inst({"x": 1.0}, np.array([1.0, 2.0], dtype=np.float32)))
    assert key({"f": lambda v: v}) is None and key(object()) is None


def test_compiled_expressions_share_one_lambdified_function_per_process():
    """numeric._lambdify prints an expression once per (args, expression, module): equal expressions get
    the same function, anything that differs (assumptions, a float's precision, the module) its own."""
    import sympy as sp

    from dpverify.numeric import _lambdify

    x, y = sp.symbols("x y")
    f = _lambdify([x, y], sp.exp(x) / (1 + y), "numpy")
    assert _lambdify([x, y], sp.exp(x) / (1 + y), "numpy") is f
    assert _lambdify([x, y], sp.exp(x) / (1 + y), "mpmath") is not f
    xp = sp.Symbol("x", positive=True)
    assert _lambdify([xp, y], sp.exp(xp) / (1 + y), "numpy") is not f
    g15, g30 = (_lambdify([x], sp.Float("0.1", n) * x, "mpmath") for n in (15, 30))
    assert g15 is not g30
    import mpmath
    with mpmath.workdps(40):
        assert g15(mpmath.mpf(1)) != g30(mpmath.mpf(1))      # 0.1 to 15 digits, and to 30
    assert f(1.0, 1.0) == sp.lambdify([x, y], sp.exp(x) / (1 + y), modules="numpy")(1.0, 1.0)
