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
