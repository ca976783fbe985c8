"""Paper-specific pins of [pur] (seed 001_8c6e002b41f68e78): hand computations of the encoded formulas at
the witnesses, a check that must reject the other OCR reading of Proposition 3(a)'s schedule, the audit of
Proposition 4(c)'s budget, the exact step counts, the experiment. (The engine pieces written for it, the
adaptive simulator, the losses, the schedule's privacy: tests/engine/.)

Statistical tolerances are derived from the run counts (a two-sided normal bound at level 1e-6 on the
standard error measured by the simulator itself); every seed is fixed.
"""
from __future__ import annotations

import math

import numpy as np
import pytest
import sympy as sp
from scipy import stats

import dpverify
from dpverify import privacy
from dpverify.checks import Config
from dpverify.checks import sampled as sampled_check
from dpverify.numeric import evaluate
from dpverify.scenarios import bind
from dpverify.claims import Claim, Identity
from theorems.pur import claims as C
from theorems.pur import data, proofs
from theorems.pur.experiments import constants, run_task, schedules

Z6 = stats.norm.isf(0.5e-6)     # two-sided 1e-6


# ----------------------------------------------------------------------------- hand computations
def test_prop_3a_witness_by_hand():
    """M = 10, d = 1, T = 2, F(theta_0) - F* = 1 on F = (M/2) x^2: sigma_1^2 = 16 M^2, sigma_2^2 = 4 M^2,
    x_1 = x_0/2 - zeta_1/(2M): E x_1^2 = x_0^2/4 + 4; (g_0^2 + E g_1^2 + E g_2^2)/2 = 313.125 > 45.198."""
    M, D0 = 10.0, 1.0
    x0 = math.sqrt(2 * D0 / M)
    Ex1 = x0**2 / 4 + 16 * M**2 * D0 / (4 * M**2)
    Ex2 = Ex1 / 4 + 4 * M**2 * D0 / (4 * M**2)
    by_hand = (M**2 * x0**2 + M**2 * Ex1 + M**2 * Ex2) / 2
    assert by_hand == pytest.approx(313.125)
    sc = bind(C.PROP_3A.statements[-1].scenario, C.PROP_3A)
    assert sc.exact(sc.instance_at(C.PROP_3A.witness)) == pytest.approx(by_hand, rel=1e-12)
    printed = float(evaluate(C.BOUND_3A, C.PROP_3A, C.PROP_3A.witness))
    assert printed == pytest.approx(8 * (math.pi**2 * M / 3 + 1) / 6)
    assert float(evaluate(C.BOUND_3A_C, C.PROP_3A, C.PROP_3A.witness)) == pytest.approx(10 * printed)


def test_prop_4c_witness_by_hand():
    """kappa = 1, T = 1: one step of (2) with eta = 1/(2M), sigma_1^2 = 2 mu Delta0 (1/2)/d: E F(theta_1) - F* =
    Delta0/4 + Delta0/8 = 0.375 Delta0, and (11) at the printed T is Delta0 (1 - 1/(2kappa))^T / 2 = 0.25."""
    w = C.PROP_4C.witness
    sc = bind(C.PROP_4C.statements[-1].scenario, C.PROP_4C)
    assert sc.exact(sc.instance_at(w)) == pytest.approx(0.375, rel=1e-12)
    assert float(evaluate(C.BOUND_11, C.PROP_4C, w)) == pytest.approx(0.25, rel=1e-12)
    # the privacy slip: at the printed T the schedule spends kappa (rho - 2dL^2/(N^2 mu Delta0))
    pt = {"T": 5, "M": 4.0, "mu": 1.0, "d": 1, "Delta0": 1.0, "L": 3.0, "N": 1, "delta": 1e-5}
    rho = float(evaluate(C.RHO_4C, C.PROP_4C, pt))
    spent = privacy.schedule_zcdp([math.sqrt(2 * 1.0 * 1.0 * (1 - 1 / 8) ** t) for t in range(1, 6)], 2 * 3.0)[-1]
    assert spent == pytest.approx(4 * (rho - 2 * 9.0), rel=1e-12) and spent > rho


def test_prop_4b_printed_bound_is_16MR_over_3T_at_its_T():
    pt = {"M": 2.0, "d": 3, "T": 4, "R": 5.0, "u0": 1.0, "Rp": 5.0, "L": 10.0, "N": 7, "delta": 1e-5}
    assert float(evaluate(C.FINAL_4B, C.PROP_4B, pt)) == pytest.approx(16 * 2.0 * 5.0 / (3 * 4))
    assert float(evaluate(C.FINAL_4B_C, C.PROP_4B, pt)) == pytest.approx(16 * 2.0 * 25.0 / (3 * 4))


def test_the_other_ocr_reading_of_3a_schedule_is_rejected():
    """4(a) and the proofs print sigma_t = 4M sqrt(F(theta_0) - F*)/sqrt(dt); with that reading the noise term of
    the proof would be 2M(F(theta_0) - F*)/t, not the printed 2M(F(theta_0) - F*)/t^2: the check must reject it."""
    sigma_dt = 4 * C.M * sp.sqrt(C.Delta0) / sp.sqrt(C.d * C.t)
    stmt = Identity("noise term with sqrt(dt)", lhs=(C.M / 2 * (1 / (2 * C.M)) ** 2 * C.d * sigma_dt**2).subs(C.t, C.T),
                    rhs=2 * C.M * C.Delta0 / C.T**2)
    claim = Claim(id="pur/claim-ocr-probe", source=C.PROP_3A.source, domain=C.PROP_3A.domain, statements=(stmt,))
    assert sampled_check.check(stmt, claim, Config(samples=30)).verdict == "violated"
    stmt_ok = C.PROP_3A.statements[0]
    assert sampled_check.check(stmt_ok, C.PROP_3A, Config(samples=30)).verdict == "holds"


def test_proof_radius_is_the_smallest_radius_of_15():
    sc = bind(C.PROP_3B.statements[-2].scenario, C.PROP_3B)      # the exact statement (observable R15)
    pt = {"M": 1.0, "d": 1, "T": 6, "R": 1.0, "u0": 1.0, "Rp": 1.0}
    inst = sc.instance_at(pt)
    r15 = sc.observe(inst)["R15"]
    pm = sc.path_moments(inst)
    ratios = [e / math.sqrt(g) for e, g in zip(pm["excess"][:-1], pm["grad_norm_sq"][:-1])]
    assert max(ratios) == pytest.approx(r15, rel=1e-14)
    assert r15 == pytest.approx(math.sqrt(4.25) / 2, rel=1e-12)   # 3(b)'s first step: E x_1^2 = 4.25 R^2 > (2R)^2 (R15 > R)


# ----------------------------------------------------------------------------- privacy
def test_audit_refutes_the_printed_4c_budget_and_not_a_correct_one():
    """kappa = 4, T = 20, N = 30, delta = 0.05: the printed T spends 3.7 rho (0.29 claimed, 1.08 spent), exact delta
    0.11 at the claimed eps = 2.15; the audit of the iterates must see it. With the budget the schedule really spends,
    the same audit must not refute."""
    pt = {"T": 20, "M": 4.0, "mu": 1.0, "d": 1, "Delta0": 1.0, "L": 3.0, "N": 30, "delta": 0.05}
    stmt = next(s for s in C.PROP_4C.statements if getattr(s, "audit", None) is not None)
    aud = bind(stmt.audit, C.PROP_4C)
    lower = aud.measure(pt, 20000, 11)
    assert lower.kind == "lower" and lower.value > pt["delta"]
    spent = bind(stmt.scenario, C.PROP_4C).measure(pt, 2, 0).value
    rho = float(evaluate(C.RHO_4C, C.PROP_4C, pt))
    assert spent > 3 * rho
    from dpverify.privacy import audit

    sd = np.array([math.sqrt(2 * 1.0 * (1 - 1 / 8) ** t) for t in range(1, 21)])
    mu_shift = 2 * 3.0 / 30 / sd
    eps_true = privacy.zcdp_to_dp(spent, 0.05)     # the eps the spent budget really gives
    res = audit(lambda n, g: g.standard_normal((n, 20)) + mu_shift, lambda n, g: g.standard_normal((n, 20)),
                eps=eps_true, delta=0.05, n=20000, seed=4)
    assert not res.violated


def test_steps_a_budget_allows_closed_forms_equal_the_step_by_step_count():
    rng = np.random.default_rng(5)
    for _ in range(40):
        p = {"rho": 10 ** rng.uniform(-1, 2), "L": 10 ** rng.uniform(-1, 1), "N": int(rng.integers(1, 50)),
             "M": 10 ** rng.uniform(-1, 1), "Delta0": 10 ** rng.uniform(-1, 1), "d": int(rng.integers(1, 5)),
             "R": 10 ** rng.uniform(-1, 1), "mu": 0.3, "kappa": 10 ** rng.uniform(0, 1.5)}
        for s in "abc":
            assert proofs.steps_allowed_closed(s, p) == proofs.steps_allowed(s, p)


def test_lemma_2_worst_sequence_dominates_random_admissible_sequences():
    rng = np.random.default_rng(6)
    for _ in range(200):
        q = 10 ** rng.uniform(-2, 2)
        r, V0, T = rng.uniform(0, 1) / q, rng.uniform(0, 1) / q, 30
        S = [float(v) for v in proofs.lemma2_worst(q, r, V0, T)]
        V = V0 * rng.uniform()
        for t in range(T):
            V = rng.uniform(0, 1) * (V - q * V * V + r / (t + 1) ** 2)
            assert V <= S[t + 1] * (1 + 1e-12) and V <= 2 / (q * (t + 1)) * (1 + 1e-12)
        assert proofs.lemma2_ratio(q, r, V0, T) <= 1


# ----------------------------------------------------------------------------- verdicts at the witnesses
@pytest.mark.parametrize("cid", ["pur/prop-3a", "pur/prop-4b", "pur/prop-4c", "pur/claim-gaussian-zcdp"])
def test_witness_replays(cid):
    from dpverify import registry

    c = registry.get(cid)
    assert dpverify.check(c, at=dict(c.witness)).verdict == "violated"


# ----------------------------------------------------------------------------- the experiment
def test_experiment_constants_and_a_schedule_that_cannot_step():
    c = constants("iris", 0.1)
    assert c["M"] == pytest.approx(0.1 + data.feature_bound("iris") ** 2 / 4)
    assert c["L"] == pytest.approx(0.1 * c["R"] + data.feature_bound("iris"))
    assert set(schedules(c)) >= {"constant sigma=0.01", "Ours (Prop. 3c)", "data-dependent (6), oracle"}
    # sigma = 0.01 on Iris: the first step already costs eps > 20, so the risk at eps = 20 is F(theta_0) = log 2
    r = run_task(("iris", 0.1, "constant sigma=0.01", 6, 50, 0))
    assert r["T"] == 1 and np.allclose(r["risk_at"][20.0][0], math.log(2))
