"""Paper-specific pins of [dni]: Theorems 4.5/4.6 (momentum ERUB), (17)/(18) (true risk), the spurious zCDP root.

These tests pin what the registry contract cannot: that the SymPy bounds equal the formulas of
the proofs when evaluated by hand, that the uniform-schedule scenario really fixes sigma_t^2 = T/R,
and that the rate check would reject the other OCR reading of (17) (a check that cannot fail
would prove nothing).
"""
from __future__ import annotations

import math

import sympy as sp

import mpmath
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from dpverify import privacy as P
from dpverify.checks import Config, run
from dpverify.numeric import evaluate
from dpverify.scenarios import bind, noisy_gd
from dpverify.claims import Claim, Rate
from theorems.dni import claims as dni
from theorems.dni import proofs
from theorems.dni.schedules import dynamic_pgd_closed_form

PT = {"kappa": 3.0, "M": 2.0, "G": 0.7, "N": 50.0, "D": 3, "Delta1": 0.8, "R": 0.5, "T": 9,
      "beta": 0.3, "eta0": 0.3}


def _t_hat_by_hand(beta, gamma):
    return max(t for t in range(1, 10_000) if gamma ** (t - 1) >= (1 - beta) / (1 - beta**t))


def test_t_hat_top_down_scan_equals_the_full_scan():
    """The top-down scan of T_hat computes what the scan of every t computes (and the definition by
    hand where that is affordable), over seeded (beta, gamma) from both ends of their ranges."""
    rng = np.random.default_rng(7)
    pairs = [(0.3, 0.9), (0.9, 0.99), (1e-6, 0.5), (1 - 1e-7, 1 - 1e-4)]
    pairs += [(float(rng.uniform(1e-6, 1 - 1e-6)), float(1 - 10 ** rng.uniform(-4.5, -0.05))) for _ in range(60)]
    for b, g in pairs:
        th = proofs.t_hat.__wrapped__(b, g)
        assert th == proofs._t_hat_full_scan(b, g), (b, g)
        if th < 5_000 and g < 0.999:
            assert th == _t_hat_by_hand(b, g), (b, g)


def test_uniform_momentum_scenario_fixes_the_schedule():
    scen = bind(dni.MOMENTUM_UNIFORM_ERUB, dni.THM_4_5)
    v = scen._values(PT)
    assert v["s"] == _list_close([PT["G"] * math.sqrt(PT["T"] / PT["R"]) / PT["N"]] * PT["T"])
    assert v["eta"] == _list_close([PT["eta0"] / (2 * PT["M"])] * PT["T"])
    assert float(v["momentum"]) == PT["beta"]
    inst = scen.instance_at(PT)
    assert scen.point(inst) == PT and dni.THM_4_5.domain.contains(PT)
    mom = bind(dni.MOMENTUM_ERUB, dni.THM_4_4)
    obs = mom.observe(mom.instance_at({**PT, "sigma": [1.0] * PT["T"]}))
    assert set(obs) == {"v2"} and len(obs["v2"]) == PT["T"] and all(x > 0 for x in obs["v2"])


def _list_close(xs, rel=1e-12):
    class _Approx:
        def __eq__(self, other):
            return len(other) == len(xs) and all(abs(a - b) <= rel * max(abs(b), 1e-300) for a, b in zip(other, xs))

        def __repr__(self):
            return f"~{xs!r}"
    return _Approx()


def test_thm_4_5_bound_is_the_proofs_formula():
    gamma = 1 - PT["eta0"] / PT["kappa"]
    th = _t_hat_by_hand(PT["beta"], gamma)
    assert th == proofs.t_hat(PT["beta"], gamma)
    alpha = PT["D"] * PT["G"] ** 2 / (2 * PT["R"] * PT["M"] * PT["N"] ** 2 * PT["Delta1"])
    T = PT["T"]
    by_hand = gamma**T * (1 + 2 * PT["eta0"] * alpha / gamma * T
                          * (min(T, th) + max((gamma ** (th - T) - 1) / (1 - gamma), 0)))
    assert float(evaluate(dni.ERUB_4_5, dni.THM_4_5, PT)) == _close(by_hand)


def test_thm_4_6_bound_is_the_proofs_formula_in_both_regimes():
    pt = {**PT, "T": 12, "sigma": [0.5 + 0.1 * i for i in range(12)]}
    gamma = 1 - pt["eta0"] / pt["kappa"]
    b, T = pt["beta"], pt["T"]
    th = _t_hat_by_hand(b, gamma)
    assert 1 <= th < T, "the point must exercise both regimes of Lemma B.7"
    alpha = pt["D"] * pt["G"] ** 2 / (2 * pt["R"] * pt["M"] * pt["N"] ** 2 * pt["Delta1"])
    q = [2 * gamma ** (T + t) / (gamma * (gamma - b**2)) if t <= th else
         gamma ** (2 * (th - 1)) * (gamma ** (T + 1 - t) - b ** (2 * (T + 1 - t))) / (gamma - b**2)
         for t in range(1, T + 1)]
    by_hand = gamma**T + 2 * pt["eta0"] * alpha * pt["R"] * sum(qt * s**2 for qt, s in zip(q, pt["sigma"]))
    assert float(evaluate(dni.ERUB_4_6, dni.THM_4_6, pt)) == _close(by_hand)


def test_corrected_claims_use_the_corrected_contraction_everywhere():
    """gamma' = 1 - (eta0/kappa)(1 - eta0/4) also in T_hat: the two bounds differ at the same point."""
    printed = float(evaluate(dni.ERUB_4_5, dni.THM_4_5, PT))
    corrected = float(evaluate(dni.ERUB_4_5, dni.THM_4_5_CORRECTED, PT))
    gc = 1 - PT["eta0"] / PT["kappa"] * (1 - PT["eta0"] / 4)
    assert corrected > printed
    assert corrected >= gc ** PT["T"]


TER_PT = {"kappa": 4.0, "M": 1.0, "G": 1.0, "N": 1000.0, "D": 10.0, "R": 0.4, "Delta1": 0.5, "p": 0.01}


def test_true_risk_chain_is_theorem_a1_with_repetitions():
    k = math.log2(1 / TER_PT["p"])
    mu = TER_PT["M"] / TER_PT["kappa"]
    gamma = 1 - 1 / TER_PT["kappa"]
    a = TER_PT["D"] * TER_PT["G"] ** 2 * k / (2 * TER_PT["R"] * TER_PT["M"] * TER_PT["N"] ** 2 * TER_PT["Delta1"])
    lg = math.log(1 / gamma)
    erub24 = (1 + TER_PT["kappa"] * math.log(1 + lg / a)) / (1 + lg / a)
    by_hand = (math.sqrt(2 * TER_PT["G"] ** 2 / mu * 2 * TER_PT["Delta1"] * erub24)
               + 4 * TER_PT["G"] ** 2 / (TER_PT["p"] * mu * TER_PT["N"]))
    assert float(evaluate(dni.TER_CHAIN_UNIFORM, dni.EQ_17, TER_PT)) == _close(by_hand)


def test_rate_check_rejects_the_sqrt_n_reading_of_17():
    """Reading the OCR's 'NR' literally, (17) would be sqrt(N) smaller; with D growing like N
    (the appendix assumes N >= D) the derivation's bound outgrows it and the check must say so."""
    N, D, R, p = sp.symbols("N D R p")
    mu = dni.M / dni.kappa
    literal = dni.G**2 / (mu * N) * (sp.sqrt(D * sp.log(N) * sp.log(1 / p) / (N * R)) + 1 / p)
    stmt = Rate("(17) read with N R under the root", expr=dni.TER_CHAIN_UNIFORM, rate=literal, kind="O",
                paths=dni._TER_PATHS)
    claim = Claim(id="dni/eq-17-literal", source=dni.EQ_17.source, domain=dni.EQ_17.domain,
                  statements=(stmt,), kind="rate", definitions=dni.EQ_17.definitions)
    v = run(claim, Config(seed=0))
    assert v.verdict == "violated"
    rate_ev = [e for e in v.evidence if e.check == "rate"][0]
    assert rate_ev.counterexample["path"].startswith("N -> inf")


def _close(x, rel=1e-12):
    class _Approx:
        def __eq__(self, other):
            return abs(other - x) <= rel * max(abs(x), 1e-300)

        def __repr__(self):
            return f"~{x!r}"
    return _Approx()


def test_exceedance_check_detects_a_threshold_below_the_mean():
    """Half the ERUB is exceeded with probability P(chi^2_50 > 25) ~ 0.998 on the D = 50 instance:
    the same check must call that violated."""
    half = noisy_gd(problem="pl", statistic="normalised_excess", exceeds=dni.ERUB_3 / 2, step=1 / dni.M,
                    noise_std=dni.G * dni.sigma[dni.t] / dni.N, mc=dni.PGD_EXCEEDS_ERUB.mc_spec, **dni._PGD)
    stmt = dni.MARKOV_REPETITION.statements[0]
    claim = Claim(id="dni/claim-half-erub", source=dni.MARKOV_REPETITION.source,
                  domain=dni.MARKOV_REPETITION.domain, definitions=dni.MARKOV_REPETITION.definitions,
                  kind="expectation bound",
                  statements=(type(stmt)(stmt.name, bound=stmt.bound, scenario=half),))
    v = run(claim, Config(seed=0, runs=4000))
    assert v.verdict == "violated"
    assert v.counterexample["params"]["D"] == 50


# --------------------------------------------------------------------------- the zCDP "inversion" below Lemma B.3
DET = settings(derandomize=True, deadline=None, database=None, max_examples=60)


def rel_close(a, b, rtol):
    return abs(a - b) <= rtol * max(abs(a), abs(b))


@DET
@given(eps=st.floats(1e-4, 50.0), delta=st.floats(1e-12, 0.5))
def test_paper_plus_root_is_spurious(eps, delta):
    L = math.log(1 / delta)
    rho_plus = proofs.dp_to_zcdp_spurious_root(eps, delta)
    assert rel_close(rho_plus, eps + 2 * L + 2 * math.sqrt(L * (eps + L)), 1e-14)
    # It satisfies the equation with a minus sign ...
    assert rel_close(rho_plus - 2 * math.sqrt(rho_plus * L), eps, 1e-9 * (1 + rho_plus / eps))
    # ... but not rho + 2 sqrt(rho L) = eps: it overshoots by exactly
    # 4 sqrt(rho_plus L) = 4 sqrt(L) (sqrt(L + eps) + sqrt(L)) >= 8 L > 0.
    overshoot = rho_plus + 2 * math.sqrt(rho_plus * L) - eps
    assert rel_close(overshoot, 4 * math.sqrt(rho_plus * L), 1e-9)
    assert overshoot >= 8 * L * (1 - 1e-12)
    assert P.zcdp_to_dp(rho_plus, delta) > eps
    with mpmath.workdps(50):
        e, d = mpmath.mpf(eps), mpmath.mpf(delta)
        rp = proofs.dp_to_zcdp_spurious_root(e, d)
        Lm = -mpmath.log(d)
        assert abs((rp - 2 * mpmath.sqrt(rp * Lm)) / e - 1) < mpmath.mpf("1e-35")


def test_paper_plus_root_at_appendix_D():
    assert abs(proofs.dp_to_zcdp_spurious_root(4.0, 1e-8) - 81.48637112236918) < 1e-9


def test_dynamic_pgd_matches_closed_form_eq7():
    from theorems.dni.schedules import dynamic_pgd

    for kappa, R, T in [(1.5, 0.4, 10), (10.0, 1.0, 50), (200.0, 3.0, 300)]:
        sig = dynamic_pgd(kappa, 0.37, R, T)
        np.testing.assert_allclose(sig, dynamic_pgd_closed_form(kappa, R, T), rtol=1e-12)
        assert np.sum(sig**-2.0) == pytest.approx(R, rel=1e-12)
        assert np.all(np.diff(sig) < 0)  # influence grows with t, noise shrinks


@pytest.mark.parametrize("args, name", [((1.0, 1.0, 3), "kappa"), ((2.0, 0.0, 3), "R"), ((2.0, 1.0, 0), "T")])
def test_dynamic_pgd_closed_form_rejects_bad_input(args, name):
    with pytest.raises(ValueError, match=rf"^{name} "):
        dynamic_pgd_closed_form(*args)
