"""Scenarios moved to a new point take its dimension: dpverify.scenarios.expectations.random_round (and the output
perturbation scenario alongside). (Moved from tests/test_erm.py; Theorems 2(b) and 5 of theorems.erm are
only fixtures.)"""
from __future__ import annotations

import math

from dpverify.numeric import evaluate
from dpverify.scenarios import bind
from theorems.erm import claims as erm


def test_moved_quadratic_instances_take_the_dimension_of_their_new_point():
    """The search moves an instance to a nearby point; when d changes, the quadratic must change with it
    (a 4-dimensional problem judged against the bound for d = 3 was a false violation of Theorem 5)."""
    sc = bind(erm._ALG2_UTIL, erm.THM_5)
    pt = {"beta": 1.0, "L": 1.0, "Delta0": 0.2, "n": 3.0, "d": 4.0, "epsilon": 1.0, "delta": 1e-7, "eta": 1.0,
          "D": 1.0}
    inst = {"point": pt, "u": [1.0] * 4, "dir": [1.0, -0.1, 1.9, -0.5]}
    moved = sc.with_point(inst, {**pt, "d": 3.0})
    eigs, _ = sc.problem_at(moved)
    assert len(eigs) == 3 and moved["dir"] == [1.0, -0.1, 1.9]
    assert sc.exact(moved) <= float(evaluate(erm.EXPLICIT_5, erm.THM_5, sc.point(moved)))
    grown = sc.with_point(inst, {**pt, "d": 6.0})
    assert len(sc.problem_at(grown)[0]) == 6 and grown["dir"][4:] == [0.0, 0.0]
    op = bind(erm._UTIL_2B, erm.THM_2B)
    w = dict(erm.THM_2B.witness)
    base = {"point": {**w, "d": 3}, "u": [0.0, 0.5, 1.0], "dir": [0.0, 0.0, 1.0], "r": 1.0}
    assert len(op.problem_at(op.with_point(base, {**w, "d": 1}))[0]) == 1
    assert len(op.problem_at(op.with_point(base, {**w, "d": 5}))[0]) == 5
    # a pinned point whose quadratic would need a larger Lipschitz constant than the point's: no instance
    # (the exact check reports it inconclusive instead of judging a point outside the hypotheses)
    pinned = {"beta": 1.0, "mu": 1.0, "L": 1.0, "D": 1.0, "n": 1.0, "d": 1, "epsilon": math.e, "T": 0,
              "delta": math.exp(-4)}
    assert op.instance_at(pinned) is None and op.instance_at(w) is not None
