"""The algorithm-rate check (dpverify.checks.algorate) and its statement (AlgorithmRate): refused where it is
written when malformed; its basis is not algebraic; the tail decision reads the side each verdict needs."""
from __future__ import annotations

import math

import pytest
import sympy as sp

from dpverify import AlgorithmRate, LimitPath
from dpverify.checks import BY_NAME
from dpverify.checks.algorate import tail_slope
from dpverify.mathtex import statement_tex
from dpverify.scenarios import noisy_gd
from dpverify.claims import ClaimError
from dpverify.verdict import ALGEBRAIC, BASIS_KINDS

mu, s, T = sp.symbols("mu s T")
t = sp.Symbol("t")
SC = noisy_gd(problem="strongly_convex", smooth=mu, curvature=mu, step=1 / (mu * t), noise_std=s, dim=1, horizon=T,
              init_dist=1)


def test_the_basis_is_declared_not_algebraic_and_the_kind_can_refute():
    assert "algorithm-rate" in BASIS_KINDS and "algorithm-rate" not in ALGEBRAIC
    kind = BY_NAME["algorithm-rate"]
    assert kind.can_refute and kind.can_support and not kind.can_prove and not kind.algebraic


@pytest.mark.parametrize("fields, word", [
    (dict(scenario=None), "scenario"), (dict(scenario=object()), "scenario"), (dict(kind="Omega"), "kind"),
    (dict(paths=()), "paths"), (dict(decades=2), "decades"), (dict(runs=10), "runs"), (dict(decades=True), "decades")])
def test_a_malformed_statement_is_refused_naming_the_field(fields, word):
    base = dict(rate=s**2 / (mu * T), paths=(LimitPath("T", "inf"),), scenario=SC)
    with pytest.raises(ClaimError, match=word):
        AlgorithmRate("r", **{**base, **fields})


def test_its_tex_is_the_expectation_of_the_statistic():
    st = AlgorithmRate("r", rate=s**2 / (mu * T), kind="Theta", paths=(LimitPath("T", "inf"),), scenario=SC)
    tex = statement_tex(st)
    assert tex.startswith(r"\operatorname{E}[\text{statistic}] = \Theta")


def test_the_tail_slope_is_per_decade_over_the_last_third():
    logs = [0.5 * k for k in range(9)]           # two points a decade, one decade per decade
    slope, monotone, moved = tail_slope(logs)
    assert slope == pytest.approx(1.0) and monotone and moved == pytest.approx(4.0)
    assert tail_slope([0.0, 1.0, -math.inf, 0.0, 0.0, 0.0])[0] == pytest.approx(0.0)
    assert tail_slope([0.0, 0.0, 0.0, -math.inf, 1.0, 2.0])[0] is None   # a lower bound at 0 decides nothing


def test_a_corrected_claim_found_wrong_is_corrected_by_the_next_number():
    from dpverify.report import corrected_id
    assert corrected_id("p/thm-1") == "p/thm-1-corrected"
    assert corrected_id("p/thm-1-corrected") == "p/thm-1-corrected-2"
    assert corrected_id("p/thm-1-corrected-2") == "p/thm-1-corrected-3"



def test_a_path_beyond_the_step_budget_is_cut_there_and_says_so(monkeypatch):
    """A sweep from T = 1e4 over four decades would run 1e8 steps at its last point (an mpmath recursion of
    ~15 min and ~20 GB): the sweep stops before the first point over the budget, the planted O(1/T^2) is then
    left undecided with the budget as its reason; from T = 10 the same claim is decided within the budget."""
    import dpverify
    from dpverify import Claim, Domain, Int, Real, Source
    from dpverify.checks import algorate

    measured = []
    real_measure = algorate.measure

    def spy(sc, inst, *a, **k):
        measured.append(sc.steps(inst))
        return real_measure(sc, inst, *a, **k)

    monkeypatch.setattr(algorate, "measure", spy)
    dom = Domain(mu=Real(gt=0, search=(0.5, 2.0)), s=Real(gt=0, search=(0.5, 2.0)), T=Int(ge=1, search=(2, 20)))
    claim = Claim(id="textbook/planted-budget", source=Source("test", "budget"), domain=dom, about="algorithm",
                  kind="rate", summary="planted", statements=(
                      AlgorithmRate("E f - f* = O(s^2/(mu T^2))", rate=s**2 / (mu * T**2), kind="O",
                                    paths=(LimitPath("T", "inf"),), decades=4, scenario=SC),))
    far = dpverify.check(claim, at={"mu": 1.0, "s": 1.0, "T": 10000})
    ev = next(e for e in far.evidence if e.check == "algorithm-rate")
    assert ev.verdict == "inconclusive" and "step budget" in ev.detail
    assert measured and max(measured) <= algorate.STEP_BUDGET
    near = dpverify.check(claim, at={"mu": 1.0, "s": 1.0, "T": 10})
    assert next(e for e in near.evidence if e.check == "algorithm-rate").verdict == "violated"


class _TwoPrecisions:
    """An exact route whose double-precision value has lost its digits (1.0 against 2.0)."""
    supports_exact = True

    def __init__(self, settled: bool):
        self.settled = settled

    def exact_available(self, inst):
        return True

    def exact(self, inst, dps=None):
        if dps is None:
            return 1.0
        return 2.0 if self.settled else 2.0 + 10.0 ** (-dps / 10)


def test_an_exact_point_the_double_recursion_lost_stands_where_twice_the_digits_agree():
    """stage/claim-eer-rate's witness: at n = 1e7 a run of 43 doubling phases loses the double-precision
    recursion's digits (3.331e-11 against mpmath's 3.338e-11); the point is kept on mpmath's value where
    mpmath at twice the digits gives it again, and dropped where the digits still move."""
    from dpverify.checks.algorate import measure
    from dpverify.config import Config

    cfg = Config()
    assert measure(_TwoPrecisions(True), {}, None, cfg, 0.01, 0) == (2.0, 2.0, "exact")
    assert measure(_TwoPrecisions(False), {}, None, cfg, 0.01, 0) is None
