"""Pins of [hdp] Remarks 5-10 (theorems/hdp/claims/section5_remarks.py): the witnesses replay, the corrected claims
hold there, and the closed forms the claims use agree with the quantities computed from their definitions."""
from __future__ import annotations

import math

import numpy as np
import pytest
import sympy as sp

import dpverify
from dpverify.privacy import gaussian_delta_exact
from theorems.hdp import claims as C
from theorems.hdp import proofs as P
from theorems.hdp.claims import section5_remarks as R

_PRINTED = (C.REMARK_5, C.REMARK_6, C.REMARK_7, C.REMARK_8, C.REMARK_9)


def _value(expr, pt):
    return float(expr.subs({sp.Symbol(k): v for k, v in pt.items()}))


@pytest.mark.parametrize("claim", _PRINTED, ids=lambda c: c.id)
def test_witness_replays_as_violated(claim):
    assert dpverify.check(claim, at=claim.witness).verdict == "violated"


@pytest.mark.parametrize("claim", (C.REMARK_5, C.REMARK_6, C.REMARK_8, C.REMARK_9), ids=lambda c: c.id)
def test_corrected_claim_holds_at_the_printed_witness(claim):
    corrected = getattr(C, claim.id.split("/")[1].upper().replace("-", "_") + "_CORRECTED")
    assert corrected.id == claim.id + "-corrected"
    assert dpverify.check(corrected, at=claim.witness).verdict == "holds"


def test_remark_5_closed_forms_against_leave_one_out():
    """The 1-D errors of both readings from their definitions (mean of the data, leave-one-out minimisers solved
    numerically), and the witness: reading A's error is O(1/n) against a bound of O(1/n^2)."""
    rng = np.random.default_rng(3)
    for _ in range(20):
        n, a, zeta = int(rng.integers(2, 40)), 10 ** rng.uniform(-3, 0), 10 ** rng.uniform(-3, 1)
        xi, xo = rng.uniform(-1, 1, 2)
        x = np.array([xi] + [xo] * (n - 1))
        pt = {"n": n, "a": a, "zeta": zeta, "r": 1.0, "x_i": xi, "x_o": xo}
        for ridge, expr in ((0.0, R._ERR_A), (zeta, R._ERR_B)):
            # argmin sum a/2 (t - x_j)^2 + ridge/2 t^2 over the kept samples, by the normal equation
            fit = lambda xs: a * xs.sum() / (len(xs) * (a + ridge))  # noqa: E731
            th = fit(x)
            err = max(abs((fit(np.delete(x, j)) - th) - (a * (th - x[j]) + ridge * th) / (n * (a + zeta)))
                      for j in range(n))
            assert _value(expr, pt) == pytest.approx(err, rel=1e-9, abs=1e-15)
    w = C.REMARK_5.witness
    assert _value(R._ERR_A, w) == pytest.approx(1.98 * (1 / 99 - 0.1 / (100 * 0.6)), rel=1e-12)
    assert _value(R._ERR_A, w) > 1000 * _value(R._thm4_bound(R.a_h, R._G_A, R.zeta), w)


def test_remark_6_exchange_against_the_minimisers():
    w = dict(C.REMARK_6.witness)
    D = np.array([w["x_i"]] + [w["x_o"]] * (w["n"] - 1))
    Dp = D.copy()
    Dp[0] = w["x_r"]
    assert _value(R._EXCHANGE, w) == pytest.approx(abs(Dp.mean() - D.mean()), rel=1e-12)
    assert _value(R._EXCHANGE, w) == pytest.approx(0.1) and _value(2 * (R._C_I + R._E6), w) == pytest.approx(0.08)


def test_remark_7_leak_in_round_0_exceeds_the_budget():
    w = dict(C.REMARK_7.witness)
    leak = P.noise_free_leak(w).lower
    assert w["R"] == 2 and leak == pytest.approx(0.106, abs=1e-3) and leak > w["delta1"] + w["delta2"]


def test_remark_8_cost_outgrows_the_printed_order_only_with_m():
    """n = 10: cost/printed grows like m/n along m, stays bounded along n, R and T_local."""
    pt = dict(C.REMARK_8.witness)
    ratio = R._cost(R.N_, R.Md) / (R.Rc * R.N_ * R.Md**2 + R.Rc * R.Tc * R.Md)
    big_m = _value(ratio, {**pt, "M_d": 1e6})
    assert big_m == pytest.approx(1e6 / 10, rel=1e-3)
    for p in ("N", "R_c", "T_c"):
        assert _value(ratio, {**pt, p: 1e8}) <= 3.0


def test_remark_9_readings_measure_the_composed_gaussian():
    """Reading B at the witness: 30 releases of one value with fresh noise are the Gaussian mechanism with sensitivity
    sqrt(30) S, whose delta at eps2 = 1 is 0.300 (one release: below 1e-5)."""
    w = dict(C.REMARK_9.witness)
    sigma_c = 2.83 * w["G"] * math.sqrt(math.log(1.25 / w["delta2"])) / (w["n"] * w["zeta"] * w["epsilon2"])
    S = 2 * w["G"] / (w["n"] * w["zeta"])
    assert _value(R._sigma_c(R.R_), w) == pytest.approx(sigma_c, rel=1e-12)
    assert gaussian_delta_exact(1.0, math.sqrt(30) * S / sigma_c) == pytest.approx(0.3003, abs=1e-4)
    assert gaussian_delta_exact(1.0, S / sigma_c) < 1e-5


def test_remark_10_section_7_split():
    """eps1 = 3 eps/4: Theorem 6's bound grows by 16/9; Theorem 7's rate by a factor in [3/4, (4/3)^3]."""
    ratio = R._EER_6.subs(R.eps_r, R._EPS1) / R._EER_6
    assert sp.simplify(ratio.subs(R.eta, sp.Rational(1, 4)) - sp.Rational(16, 9)) == 0
    t7 = R._T7_RATE.subs(R.eps_r, 3 * R.eps_r / 4) / R._T7_RATE
    for N in (1e1, 1e4, 1e8):
        for e in (1e-3, 1.0, 1e3):
            v = _value(t7, {"N": N, "M_d": 10.0, "K": 5.0, "eps_r": e})
            assert 0.75 - 1e-12 <= v <= (4 / 3) ** 3 + 1e-12
