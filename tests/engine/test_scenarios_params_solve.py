"""``BoundMap.solve`` assigns the one unknown claim symbol of a scenario parameter from a measured value
(a positive real root, by SymPy). Its roots are memoised: the same point completed again gives the
same value without solving again; another value or map solves afresh; no root is still refused."""
from __future__ import annotations

import pytest
import sympy as sp

from dpverify.scenarios import noisy_gd
from dpverify.scenarios import params as P
from dpverify.claims import Claim, Domain, ExpectationBound, Real, Source


def _bound_map():
    M, s, n = sp.symbols("M s n", positive=True)
    sc = noisy_gd(problem="pl", smooth=M, curvature=M / 2, step=1 / M, noise_std=s / sp.sqrt(n) + s**2, dim=1,
                  horizon=3, init_gap=1)
    claim = Claim(id="p/thm-1", source=Source("a textbook", "Lemma 1"),
                  domain=Domain(M=Real(gt=0), s=Real(gt=0), n=Real(gt=0)),
                  statements=(ExpectationBound("b", bound=M, scenario=sc),))
    return sc.params.bind(claim)


def test_solve_finds_the_positive_root_and_memoises_it(monkeypatch):
    bm = _bound_map()
    calls = []
    real_solve = sp.solve

    def counted(eq, s, *a, **k):
        calls.append((eq, s))
        return real_solve(eq, s, *a, **k)

    P._positive_root.cache_clear()
    monkeypatch.setattr(P.sp, "solve", counted)
    pt = bm.solve({"noise_std": 0.75}, {"s": 0.5}, ["noise_std"])
    # 0.5 / sqrt(n) + 0.25 = 0.75  ->  n = 1
    assert pt["n"] == pytest.approx(1.0, rel=1e-14) and pt["s"] == 0.5
    assert len(calls) == 1
    again = bm.solve({"noise_std": 0.75}, {"s": 0.5}, ["noise_std"])
    assert again == pt and len(calls) == 1              # the same equation: no second solve
    other = bm.solve({"noise_std": 0.5}, {"s": 0.5}, ["noise_std"])
    assert other["n"] == pytest.approx(4.0, rel=1e-14) and len(calls) == 2
    with pytest.raises(ValueError, match="cannot solve noise_std"):
        bm.solve({"noise_std": 0.2}, {"s": 0.5}, ["noise_std"])   # 0.5/sqrt(n) = -0.05: no positive root


def test_memoised_root_is_the_uncached_one():
    x = sp.Symbol("x")
    for eq in (x**2 - sp.Float("2.0", 30), 3 / sp.sqrt(x) + sp.Float("0.1", 30) - 7, x**3 + x - 5):
        direct = [v for v in sp.solve(eq, x) if v.is_real and v > 0]
        assert P._positive_root(eq, x) == float(direct[0])
    assert P._positive_root(x + 1, x) is None
