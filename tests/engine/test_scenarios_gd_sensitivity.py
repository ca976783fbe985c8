"""dpverify.scenarios.sensitivity.gd: the sensitivity search on its known worst case (the saturated Huber pair),
with and without ridge. (Moved from tests/test_erm.py; Lemmas 2 and 3 of theorems.erm are only fixtures.)"""
from __future__ import annotations

import pytest

import dpverify
from dpverify.numeric import evaluate
from dpverify.scenarios import bind
from theorems.erm import claims as erm


def test_sensitivity_search_reaches_two_thirds_of_lemma_2_on_the_saturated_huber_pair():
    """Every other sample without features, the differing one's Huber gradient saturated at +-u:
    ||w_T - w_T'|| = 2 T eta u/n exactly, 2/3 of Lemma 2's 3 L T eta/n with L = u."""
    sc = bind(erm._GD_SENS, erm.LEMMA_2)
    pt = {"beta": 4.0, "eta": 0.25, "T": 7, "n": 5, "L": 2.0, "t": 1}
    inst = sc.instance_at(pt)
    u = 2.0
    assert inst["L"] == pytest.approx(u) and inst["distance"] == pytest.approx(2 * 7 * 0.25 * u / 5, rel=1e-12)
    v = dpverify.check(erm.LEMMA_2, at=pt)
    sens = [e for e in v.evidence if e.check == "sensitivity"][0]
    assert sens.value / sens.bound == pytest.approx(2 / 3, rel=1e-12)


def test_lemma_3_distance_settles_near_its_fixed_point():
    """With ridge mu the saturated pair contracts: Delta_t -> 2u/(n mu) (1 - ...), below 5L(mu+beta)/(n mu beta)."""
    sc = bind(erm._SC_SENS, erm.LEMMA_3)
    pt = {"beta": 2.0, "mu": 0.5, "eta": 0.375, "T": 200, "n": 4, "L": 10.0}
    inst = sc.instance_at(pt)
    u = inst["X"][-1][0]
    assert inst["distance"] == pytest.approx(2 * u / (4 * 0.5), rel=1e-6)
    assert inst["distance"] < float(evaluate(erm.B_3, erm.LEMMA_3, sc.point(inst)))
