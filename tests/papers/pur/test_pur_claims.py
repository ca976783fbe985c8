"""Paper-specific pins of [pur] (seed 001_8c6e002b41f68e78): the simulator of the data-dependent schedule,
hand computations of the encoded formulas at the witnesses, a check that must reject the other OCR reading
of Proposition 3(a)'s schedule, the audit and the sensitivity on known cases, the exact step counts.

Statistical tolerances are derived from the run counts (a two-sided normal bound at level 1e-6 on the
standard error measured by the simulator itself); every seed is fixed.
"""
from __future__ import annotations

import math

import mpmath
import numpy as np
import pytest
import sympy as sp
from scipy import stats

import dpverify
from dpverify import privacy
from dpverify.checks import Config
from dpverify.checks import sampled as sampled_check
from dpverify.numeric import evaluate
from dpverify.privacy.schedules import exact_delta, schedule_zcdp
from dpverify.scenarios import bind
from dpverify.scenarios.schedule_privacy import GaussianRenyi, measured_sensitivity
from dpverify.sim import Quadratic, gd
from dpverify.sim.adaptive import adaptive_gd, adaptive_moments, quadratic_path_moments
from dpverify.sim.losses import CosineSum, Logistic
from dpverify.spec import Claim, Identity
from theorems.pur import claims as C
from theorems.pur import data, proofs
from theorems.pur.experiments import constants, run_task, schedules

Z6 = stats.norm.isf(0.5e-6)     # two-sided 1e-6


# ----------------------------------------------------------------------------- the simulator
def test_no_noise_is_exact_gd():
    q = Quadratic([0.1, 0.7, 2.0], theta_star=[1.0, -1.0, 0.5])
    th1 = np.array([3.0, 2.0, -1.0])
    res = adaptive_gd(q, th1, lambda t, g: (0.4, 0.0), 25, 3, 0, return_thetas=True)
    assert np.allclose(res.thetas, gd(q, th1, 0.4, 25)[None, :], rtol=0, atol=1e-14)
    p = CosineSum([1.0, 0.3])
    res = adaptive_gd(p, np.array([2.0, -1.0]), lambda t, g: (0.5, 0.0), 10, 2, 0, return_thetas=True)
    assert np.allclose(res.thetas, gd(p, [2.0, -1.0], 0.5, 10)[None, :], rtol=0, atol=1e-14)


def test_monte_carlo_of_the_data_dependent_rule_agrees_with_exact_moments():
    """sigma_t = ||grad F||/sqrt(d), eta = 1/(2M): the noise variance is ||g||^2/d, so the second moments are
    exact (linear recursion); the Monte Carlo mean must be within Z6 standard errors of them."""
    eigs, th1, T, M = np.array([0.05, 0.4, 1.0, 1.0]), np.array([1.0, -2.0, 0.5, 1.5]), 15, 1.0
    d = len(eigs)
    q = Quadratic(eigs)
    S = adaptive_moments(eigs, th1, [1 / (2 * M)] * T, [0.0] * T, [1 / d] * T)
    exact = quadratic_path_moments(eigs, S)
    res = adaptive_gd(q, th1, lambda t, g: (1 / (2 * M), g / math.sqrt(d)), T, 40000, 7, track=("grad_norm_sq",),
                      statistic=lambda th, tr: tr["grad_norm_sq"][:, 1:].mean(axis=1))
    want = float(np.mean(exact["grad_norm_sq"][1:]))
    assert abs(res.mean - want) <= Z6 * res.stderr
    res = adaptive_gd(q, th1, lambda t, g: (1 / (2 * M), g / math.sqrt(d)), T, 40000, 8)
    assert abs(res.mean - exact["excess"][-1]) <= Z6 * res.stderr
    # the mpmath route gives the same numbers
    Sm = adaptive_moments(eigs, th1, [1 / (2 * M)] * T, [0] * T, [mpmath.mpf(1) / d] * T, dps=40)
    assert float(quadratic_path_moments(eigs, Sm, dps=40)["excess"][-1]) == pytest.approx(exact["excess"][-1], rel=1e-12)


def test_results_do_not_depend_on_chunk_size():
    q = Quadratic([0.3, 1.0])
    rule = lambda t, g: (0.5, 0.2 * g + 0.1)  # noqa: E731
    a = adaptive_gd(q, [1.0, 1.0], rule, 12, 3000, 3, chunk_runs=1024)
    b = adaptive_gd(q, [1.0, 1.0], rule, 12, 3000, 3, chunk_runs=4096)
    assert a.mean == b.mean and a.var == b.var


def test_logistic_value_and_grad_and_cosine_gradient():
    X, y = data.load("iris")
    p = Logistic(X, y, 0.1)
    th = np.random.default_rng(0).normal(size=(5, p.dim))
    f, g = p.value_and_grad(th)
    assert np.allclose(f, p.value(th)) and np.allclose(g, p.grad(th))
    h = 1e-6
    fd = np.array([(p.value(th + h * e) - p.value(th - h * e)) / (2 * h) for e in np.eye(p.dim)]).T
    assert np.allclose(fd, g, atol=1e-7)
    c = CosineSum([1.0, 0.5, 0.25])
    th = np.array([[2.0, -1.0, 0.5]])
    fd = np.array([(c.value(th + h * e) - c.value(th - h * e)) / (2 * h) for e in np.eye(3)]).T
    assert np.allclose(fd, c.grad(th), atol=1e-8)
    assert c.M == 1.0 and c.f_star == 0.0


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
def test_sensitivity_and_zcdp_of_a_schedule_on_the_known_case():
    assert measured_sensitivity(3.0, 100, "replace") == pytest.approx(0.06, rel=1e-12)
    assert measured_sensitivity(3.0, 100, "remove") == pytest.approx(0.03, rel=1e-12)
    sig = [0.5, 1.0, 2.0]
    rho = schedule_zcdp(sig, 0.06)[-1]
    assert rho == pytest.approx(2 * 3.0**2 / 100**2 * sum(s**-2 for s in sig), rel=1e-14)     # (21)
    event = privacy.noisy_gd_event([s / 0.03 for s in sig], adjacency="replace")
    eps_acc = privacy.event_epsilon(event, 1e-5, accountant="pld")
    assert eps_acc <= privacy.zcdp_to_dp(rho, 1e-5)
    assert exact_delta(sig, 0.06, privacy.zcdp_to_dp(rho, 1e-5)) <= 1e-5


def test_renyi_quadrature_matches_the_closed_form():
    rng = np.random.default_rng(3)
    for _ in range(300):
        D, s, a = 10 ** rng.uniform(-3, 3), 10 ** rng.uniform(-3, 2), 10 ** rng.uniform(0.005, 1.8)
        assert GaussianRenyi.renyi_over_order(D, s, a) == pytest.approx(D * D / (2 * s * s), rel=1e-9)


def test_audit_refutes_the_printed_4c_budget_and_not_a_correct_one():
    """kappa = 4, T = 20, N = 30, delta = 0.05: the printed T spends 3.7 rho (0.29 claimed, 1.08 spent), exact delta
    0.11 at the claimed eps = 2.15; the audit of the iterates must see it. With the budget the schedule really spends,
    the same audit must not refute."""
    pt = {"T": 20, "M": 4.0, "mu": 1.0, "d": 1, "Delta0": 1.0, "L": 3.0, "N": 30, "delta": 0.05}
    stmt = next(s for s in C.PROP_4C.statements if getattr(s, "audit", None) is not None)
    aud = bind(stmt.audit, C.PROP_4C)
    lower, _ = aud.measure(pt, 20000, 11)
    assert lower > pt["delta"]
    spent = bind(stmt.scenario, C.PROP_4C).measure(pt, 2, 0)[0]
    rho = float(evaluate(C.RHO_4C, C.PROP_4C, pt))
    assert spent > 3 * rho
    from dpverify.privacy import audit

    sd = np.array([math.sqrt(2 * 1.0 * (1 - 1 / 8) ** t) for t in range(1, 21)])
    mu_shift = 2 * 3.0 / 30 / sd
    eps_true = privacy.zcdp_to_dp(spent, 0.05)     # the eps the spent budget really gives
    res = audit(lambda n, g: g.standard_normal((n, 20)) + mu_shift, lambda n, g: g.standard_normal((n, 20)),
                eps=eps_true, delta=0.05, n=20000, seed=4)
    assert not res.violated


def test_audit_search_is_steered_to_refutable_points_of_4c():
    """The exact profile says where an audit of 1000 runs can refute: at the known overspending point
    refutability is positive and at a correct budget (T = 1, kappa = 1) negative; steering a point of the
    domain never lowers it and keeps it in the domain."""
    stmt = next(s for s in C.PROP_4C.statements if getattr(s, "audit", None) is not None)
    aud = bind(stmt.audit, C.PROP_4C)
    assert aud.refutability({"T": 20, "M": 4.0, "mu": 1.0, "d": 1, "Delta0": 1.0, "L": 3.0, "N": 30,
                             "delta": 0.05}, n=20000) > 0
    assert aud.refutability({"T": 1, "M": 1.0, "mu": 1.0, "d": 1, "Delta0": 1.0, "L": 1.5, "N": 1,
                             "delta": 1e-5}) < 0
    pt = {"T": 5, "M": 2.0, "mu": 1.0, "d": 2, "Delta0": 0.5, "L": 2.0, "N": 100, "delta": 1e-5}
    moved = aud.steer(pt)
    assert C.PROP_4C.domain.contains(moved) and aud.refutability(moved) >= aud.refutability(pt)


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
