"""Pins for [stage] (DpageEM) that the registry contract cannot give: the stagewise simulator against
exact GD and exact moments, the hand computation of Theorem 3.2's counterexample, the privacy lower bounds
against closed forms and the audit, the rejection of the other OCR reading of Definition 1.1, and the
experiment's vectorised per-sample gradients."""
from __future__ import annotations

import math

import mpmath
import numpy as np
import pytest
import sympy as sp

import dpverify
from dpverify.privacy import audit, gaussian_delta_exact, mixture_delta_lower, wor_gaussian_epsilon
from dpverify.scenarios import bind
from dpverify.sim import Quadratic, SeparableLoss, coupled_step_decay_sgd, phase_schedule, step_decay_quadratic_moments
from dpverify.sim import step_decay_sgd
from dpverify.sim.step_decay import sample_without_replacement, wor_batch_variance
from dpverify.spec import Claim, Inequality
from theorems.stage import claims as C
from theorems.stage import experiments as E
from theorems.stage import proofs

Z99 = 3.29  # two-sided 0.999 normal quantile: every Monte Carlo tolerance below is Z99 standard errors


# ----------------------------------------------------------------------------- simulator
def _deterministic(grad, w0, etas, lengths, mons, rho):
    w = np.array(w0, float)
    for eta, T, m in zip(etas, lengths, mons):
        prev = w.copy()
        for t in range(1, T + 1):
            new = w - eta * grad(w) + (rho * (w - prev) if t <= m else 0.0)
            prev, w = w, new
    return w


def test_no_noise_full_batch_is_deterministic_momentum_gd():
    q = Quadratic([0.5, 2.0])
    etas, lengths, mons = phase_schedule(0.3, 4, 2, 3)
    res = step_decay_sgd(q, [1.0, -2.0], etas, lengths, mons, 0.6, 0.0, None, 5, 1, output="last", return_outputs=True)
    want = _deterministic(q.grad, [1.0, -2.0], etas, lengths, mons, 0.6)
    assert np.allclose(res.outputs, want[None, :], rtol=1e-12, atol=1e-15)


@pytest.mark.parametrize("output", ["after", "before", "last"])
def test_monte_carlo_agrees_with_exact_moments(output):
    rng = np.random.default_rng(3)
    n, B, D = 30, 4, 2
    a = rng.normal(size=(n, D))
    a -= a.mean(axis=0)
    prob = SeparableLoss("quadratic", (1.0,), np.zeros(D), a, weights=[0.6, 1.3])
    etas, lengths, mons = phase_schedule(0.25, 5, 2, 2)
    runs = 40000
    res = step_decay_sgd(prob, [1.0, -0.5], etas, lengths, mons, 0.5, 0.2, B, runs, 7, output=output)
    noise = 0.04 + wor_batch_variance((a**2).mean(axis=0), n, B)
    _, second = step_decay_quadratic_moments([0.6, 1.3], [1.0, -0.5], etas, lengths, mons, 0.5, noise, output=output)
    exact = float(np.dot([0.6, 1.3], second) / 2)
    assert abs(res.mean - exact) <= Z99 * math.sqrt(res.var / runs)


def test_results_do_not_depend_on_chunk_size():
    prob = SeparableLoss("sine", (1.5,), np.zeros(2), 0.1 * np.array([[1.0, 0.0], [-1.0, 0.0], [0.0, 1.0], [0.0, -1.0]]))
    etas, lengths, mons = phase_schedule(0.2, 3, 1, 2)
    a = step_decay_sgd(prob, [1.0, 1.0], etas, lengths, mons, 0.5, 0.1, 2, 3000, 5, chunk_runs=1024)
    b = step_decay_sgd(prob, [1.0, 1.0], etas, lengths, mons, 0.5, 0.1, 2, 3000, 5, chunk_runs=65536)
    assert a.mean == b.mean and a.var == b.var


def test_coupled_runs_share_noise_batches_and_outputs():
    rng = np.random.default_rng(0)
    a = rng.normal(size=(20, 2))
    a -= a.mean(axis=0)
    p = SeparableLoss("quadratic", (1.0,), np.zeros(2), a)
    etas, lengths, mons = phase_schedule(0.2, 3, 1, 2)
    wa, wb, _ = coupled_step_decay_sgd(p, p, [1.0, 1.0], etas, lengths, mons, 0.5, 0.3, 3, 500, 2)
    assert np.array_equal(wa, wb)
    q = p.with_sample(0, -a[0])
    wa, wb, _ = coupled_step_decay_sgd(p, q, [1.0, 1.0], etas, lengths, mons, 0.5, 0.3, 3, 500, 2)
    assert not np.array_equal(wa, wb) and np.abs(wa - wb).max() < 1.0  # only sample 0's steps differ


def test_batches_without_replacement_are_uniform_subsets():
    rng = np.random.default_rng(1)
    n, B, rows = 9, 4, 60000
    idx = sample_without_replacement(rng, n, B, rows)
    assert all(len(set(r)) == B for r in idx[:2000].tolist())
    freq = np.bincount(idx.ravel(), minlength=n) / rows
    p = B / n   # inclusion probability of each index
    assert np.all(np.abs(freq - p) <= Z99 * math.sqrt(p * (1 - p) / rows))


def test_exact_moments_in_float_and_mpmath_agree():
    etas, lengths, mons = phase_schedule(0.3, 5, 2, 3)
    m, s = step_decay_quadratic_moments([0.7, 1.1], [1.0, -2.0], etas, lengths, mons, 0.4, [0.2, 0.1], [0.05, 0.0])
    mm, sm = step_decay_quadratic_moments([0.7, 1.1], [1.0, -2.0], etas, lengths, mons, 0.4, [0.2, 0.1], [0.05, 0.0],
                                         dps=40)
    assert np.allclose(s, [float(x) for x in sm], rtol=1e-12) and np.allclose(m, [float(x) for x in mm], rtol=1e-12)


# ----------------------------------------------------------------------------- Theorem 3.2
def test_theorem_3_2_witness_by_hand():
    """At the witness (no noise in effect, one stage of 12 steps on w^2/2 from F(w0) = 0.05), the output's excess
    risk is 0.05 times the mean over t = 1..12 of (1 - eta)^(2t), eta = eta0/2, eta0 = 1/(c4 theta mu T0)."""
    w = C.THM_3_2.witness
    eta = 1 / (w["c4"] * w["theta"] * w["mu"] * w["T0"]) / 2
    by_hand = w["Delta0"] * np.mean([(1 - eta) ** (2 * t) for t in range(1, 13)])
    sc = bind(C.DPAGEEM_RISK, C.THM_3_2)
    exact = sc.exact(sc.instance_at(dict(w)))
    assert exact == pytest.approx(by_hand, rel=1e-6)     # the DP noise (std 2e-5) adds about 1e-10
    assert exact > 1.5 * w["Delta0"] / 2                  # (5) promises about Delta0/2


def test_printed_step_condition_admits_divergence():
    """eta0 <= max{theta(1 - rho)^2/(2 beta), 1} allows eta0 = 1 whatever beta: on a quadratic with curvature 100 the
    noiseless stages blow the excess risk up instead of halving it (the -corrected claim needs eta0 <= theta/(2 beta))."""
    etas, lengths, mons = phase_schedule(1.0, 5, 0, 2)
    _, second = step_decay_quadratic_moments([0.1, 100.0], [0.0, 1.0], etas, lengths, mons, 0.0, 0.0)
    assert float(np.dot([0.1, 100.0], second) / 2) / 50.0 > 1e10


def test_dp_term_ratio_is_the_printed_expressions_divided():
    pt = {"K": 2, "T0": 7, "t0": 2, "rho": 0.3, "c4": 1.2, "theta": 1.5, "mu": 0.4}
    eta0 = 1 / (pt["c4"] * pt["theta"] * pt["mu"] * ((pt["T0"] - pt["t0"]) + pt["t0"] / (2 * (1 - pt["rho"]))))
    T_tot = pt["T0"] * (2 ** (pt["K"] + 1) - 2)
    sampling_like = 0.5 ** pt["K"] * eta0 * T_tot / (2 * pt["theta"])     # per unit of d c2^2 L^2 log/(n eps)^2
    printed = 2 * eta0 / (pt["c4"] * pt["theta"] ** 2 * pt["mu"])
    got = float(C.DP_RATIO.subs({sp.Symbol(k): v for k, v in pt.items()}))
    assert got == pytest.approx(sampling_like / printed, rel=1e-12)


# ----------------------------------------------------------------------------- privacy
def test_mixture_lower_bound_is_exact_for_one_gaussian():
    for eps in (0.1, 1.0, 4.0):
        assert mixture_delta_lower([1.3], [0.0], 0.8, eps) == pytest.approx(gaussian_delta_exact(eps, 1.3 / 0.8),
                                                                            rel=1e-7)


def test_algorithm1_sampler_matches_its_exact_law():
    pt = {"c1": 1.0, "c2": 2.0, "T0": 3, "t0": 2, "rho": 0.6, "delta": 0.05, "epsilon": 4.0, "K": 1}
    means, sds = proofs.algorithm1_full_batch_laws(pt)
    x = proofs.algorithm1_sampler(pt, "D", 200000, np.random.default_rng(4))[:, 0]
    mean, second = means.mean(), np.mean(means**2 + sds**2)   # uniform mixture over the stage's iterates
    assert abs(x.mean() - mean) <= Z99 * x.std() / math.sqrt(len(x))
    assert abs(np.mean(x**2) - second) <= Z99 * np.std(x**2) / math.sqrt(len(x))


def test_audit_refutes_algorithm1_at_a_noiseless_point():
    pt = {"c1": 1.0, "c2": 0.05, "T0": 2, "t0": 0, "rho": 0.0, "delta": 0.05, "epsilon": 1.0, "K": 1}
    res = audit(lambda k, r: proofs.algorithm1_sampler(pt, "D", k, r), lambda k, r: proofs.algorithm1_sampler(pt, "D'", k, r),
                eps=1.0, delta=0.05, n=5000, seed=1)
    assert res.violated and res.delta_lower > 0.5
    assert proofs.algorithm1_delta_lower(pt) > 0.9


def test_no_constants_rescue_theorem_2_1():
    """For every (c1, c2) on a grid over four decades each, T* and eps* = c1 T*/2 < c1 T* break (eps, delta)-DP."""
    for c1 in np.geomspace(1e-2, 1e2, 7):
        for c2 in np.geomspace(1e-2, 1e2, 7):
            for delta in (1e-10, 1e-3, 0.4):
                eps, T, d = proofs.thm21_delta_at_tstar(c1, c2, delta)
                assert eps < c1 * T and d > 1 - 1e-12 > delta


def test_no_constants_rescue_theorem_3_1():
    """For every (c1, c2) on a grid, Algorithm 1 at T0*, eps* = c1 T0* < c1 sum_k T^k has delta(eps*) >= 0.93; the
    closed form never exceeds the exact best half-line of the output's law (where T0* is small enough to sum)."""
    for c1 in np.geomspace(1e-2, 1e2, 7):
        for c2 in np.geomspace(1e-2, 1e2, 7):
            for delta in (1e-10, 1e-3, 0.4):
                eps, T0, d = proofs.thm31_delta_at_t0star(c1, c2, delta)
                assert eps < c1 * 2 * T0 and d > 0.93
                if T0 <= 300:
                    pt = {"K": 1, "c1": c1, "c2": c2, "T0": T0, "t0": 0, "rho": 0.0, "delta": delta, "epsilon": eps}
                    assert d <= proofs.algorithm1_delta_lower(pt) + 1e-12


def test_wor_accountant_grid_only_loosens():
    import dp_accounting
    from dp_accounting import rdp

    from dpverify.privacy.sampled_gaussian import WOR_ORDERS

    n, B, z, T, delta = 1000, 37, 1.7, 300, 1e-5
    acc = rdp.RdpAccountant(orders=list(WOR_ORDERS), neighboring_relation=dp_accounting.NeighboringRelation.REPLACE_ONE)
    acc.compose(dp_accounting.SelfComposedDpEvent(
        dp_accounting.SampledWithoutReplacementDpEvent(n, B, dp_accounting.GaussianDpEvent(z)), T))
    exact = acc.get_epsilon(delta)
    got = wor_gaussian_epsilon(n, B, z, T, delta)
    assert exact <= got <= 1.3 * exact
    assert wor_gaussian_epsilon(n, n, z, T, delta) == pytest.approx(  # full batch: the Gaussian's RDP
        rdp.rdp_privacy_accountant.compute_epsilon(list(WOR_ORDERS),
                                                   [T * a / (2 * (10 ** (math.floor(20 * math.log10(z)) / 20)) ** 2)
                                                    for a in WOR_ORDERS], delta)[0])


# ----------------------------------------------------------------------------- Definition 1.1, Theorem 2.2
def test_other_reading_of_definition_1_1_is_rejected():
    """The OCR's first term E[F_E(w_S)] - E_S[F_S(w*_S)] (F_E where the label says excess *empirical* risk) fails for
    steps that overshoot (a = (1 - eta)^T > 3/2 makes the generalisation error negative); the read F_S holds."""
    other = Claim(id="stage/claim-risk-decomposition-other-reading", source=C.CLAIM_RISK_DECOMPOSITION.source,
                  domain=C.CLAIM_RISK_DECOMPOSITION.domain,
                  statements=(Inequality("F_E reading", lhs=C._TESTING,
                                         rhs=C._TESTING + C.s_**2 / (2 * C.n) + C._GENERALISATION),))
    assert dpverify.check(other, samples=60).verdict == "violated"
    assert dpverify.check(C.CLAIM_RISK_DECOMPOSITION, samples=60).verdict in ("verified", "holds")


def test_theorem_2_2_model_by_monte_carlo():
    pt = {"n": 7, "p": 0.3, "c": 1.4, "s": 0.5}
    gen, alpha = proofs.rademacher_generalization(pt)
    rng = np.random.default_rng(9)
    reps = 200000
    z = np.where(rng.random((reps, pt["n"])) < pt["p"], 1.0, -1.0)
    w = pt["c"] * z.mean(axis=1) + pt["s"] * rng.standard_normal(reps)
    Ez = 2 * pt["p"] - 1
    g = (w * w - 2 * w * Ez + 1) / 2 - ((w[:, None] - z) ** 2).mean(axis=1) / 2
    assert abs(g.mean() - gen) <= Z99 * g.std() / math.sqrt(reps)
    assert gen <= alpha


# ----------------------------------------------------------------------------- Theorem 3.3's scenario
def test_stability_gap_by_hand_on_a_deterministic_instance():
    """Full batches (B = n), no noise, no non-convex part and no momentum: the coupled iterates are deterministic, the
    output is either of the stage's two iterates with probability 1/2, and the gap at iterate t is the difference of
    the quadratic parts plus A |w_t - w'_t| (the universe's best z)."""
    sc = bind(C.THM_3_3.statements[0].scenario, C.THM_3_3)
    pt = {"K": 1, "T0": 1, "t0": 1, "rho": 0.5, "c4": 1.0, "theta": 2.0, "mu": 1.0, "beta": 1.0, "L": 1.0, "d": 1,
          "n": 4, "B": 4, "pi": 1e-300}
    inst = sc._complete({"point": pt, "lam": 1.0, "A": 0.5, "bmax": 0.0, "start": 0.5, "data_seed": 0, "D": 1, "n": 4})
    inst = {**inst, "point": {**inst["point"], "rho": 1e-300}}     # momentum has no effect
    eta = sc._sched(inst["point"])[0][0]
    pa, pb = sc._problems(inst)
    wa, wb, gaps = np.array([0.5]), np.array([0.5]), []
    for _ in range(2):   # T^1 = 2 steps
        wa, wb = wa - eta * pa.grad(wa[None])[0], wb - eta * pb.grad(wb[None])[0]
        gaps.append((wa[0] ** 2 - wb[0] ** 2) / 2 + 0.5 * abs(wa[0] - wb[0]))
    runs = 20000
    value, var = sc.measure(inst, runs, 3)
    assert abs(value - np.mean(gaps)) <= Z99 * abs(gaps[1] - gaps[0]) / 2 / math.sqrt(runs)
    assert var == pytest.approx((gaps[1] - gaps[0]) ** 2 / 4, rel=0.05)


# ----------------------------------------------------------------------------- Figure 1's network
def test_vectorised_clipped_gradient_equals_per_sample_loop():
    rng = np.random.default_rng(0)
    D, H, B = 5, 4, 6
    params = [rng.normal(size=(D, H)), rng.normal(size=H), rng.normal(size=(H, 10)), rng.normal(size=10)]
    X, y = rng.normal(size=(B, D)), rng.integers(0, 10, B)
    got = E._clipped_mean_grad([p.copy() for p in params], X, y, 0.7)

    def loss(flat, i):
        W1 = flat[:D * H].reshape(D, H)
        b1 = flat[D * H:D * H + H]
        W2 = flat[D * H + H:D * H + H + 10 * H].reshape(H, 10)
        b2 = flat[-10:]
        h = X[i] @ W1 + b1
        a = np.where(h > 0, h, np.expm1(np.minimum(h, 0)))
        lg = a @ W2 + b2
        return np.log(np.exp(lg - lg.max()).sum()) + lg.max() - lg[y[i]]

    flat = np.concatenate([p.ravel() for p in params])
    total = np.zeros_like(flat)
    for i in range(B):   # central differences, one sample at a time, clipped to norm 0.7
        g = np.array([(loss(flat + 1e-6 * e, i) - loss(flat - 1e-6 * e, i)) / 2e-6 for e in np.eye(len(flat))])
        total += g * min(1.0, 0.7 / np.linalg.norm(g))
    assert np.allclose(np.concatenate([x.ravel() for x in got]), total / B, atol=1e-6)


def test_noise_multiplier_is_certified():
    s = E.make_setup(quick=True)
    n = len(E.digits_data()[0])
    z = E.noise_multiplier(n, s.batch, s.iterations, s.eps, s.delta)
    assert wor_gaussian_epsilon(n, s.batch, z, s.iterations, s.delta) <= s.eps
    assert wor_gaussian_epsilon(n, s.batch, 0.9 * z, s.iterations, s.delta) > s.eps


def test_momentum_factor_is_increasing_at_small_rho_by_hand():
    f = lambda rho, t: math.exp(2 * rho * (t - 1)) * (math.log(1 + 1 / (2 * rho)) - math.log(1 + 1 / (rho * t)) / 2)  # noqa: E731
    vals = [f(1e-3, t) for t in range(1, 30)]
    assert all(b >= a for a, b in zip(vals, vals[1:])) and vals[0] >= 0
    assert mpmath.mpf(vals[0]) == pytest.approx(math.log(1 + 500) - math.log(1 + 1000) / 2)
