"""The empirical privacy audit: exact Clopper-Pearson bounds, its false-violation rate on a
correctly calibrated Gaussian mechanism and its power on one calibrated for twice the eps, and the
audit as a refute-only check inside a claim."""
from __future__ import annotations

import importlib
import math
import sys
from fractions import Fraction
from pathlib import Path

import numpy as np
import pytest
import sympy as sp
from scipy import stats

import dpverify
from dpverify import Claim, Domain, Real, Source, SupBound
from dpverify.privacy import audit, clopper_pearson, gaussian_delta_exact, gaussian_noise_for
from dpverify.scenarios import dp_audit, gaussian_mechanism

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "benchmarks"))
from audit_calibration import rates  # noqa: E402


@pytest.mark.parametrize("n, p", [(20, 0.3), (50, 0.02), (200, 0.5)])
def test_clopper_pearson_bounds_cover_at_their_level(n, p):
    """Exact coverage: P(lower > p) and P(upper < p), summed over the binomial pmf, are <= level."""
    level = 0.05
    ks = np.arange(n + 1)
    pmf = stats.binom.pmf(ks, n, p)
    lo = np.array([clopper_pearson(int(k), n, level)[0] for k in ks])
    hi = np.array([clopper_pearson(int(k), n, level)[1] for k in ks])
    assert pmf[lo > p].sum() <= level + 1e-12
    assert pmf[hi < p].sum() <= level + 1e-12


def test_noise_calibration_is_exact():
    s = gaussian_noise_for(1.0, 1e-3)
    assert gaussian_delta_exact(1.0, 1 / s) == pytest.approx(1e-3, rel=1e-9)


def test_false_violation_rate_and_power():
    """200 audits each way (n = 20000 per side and phase, confidence 0.99). A false violation has
    probability <= 0.01 per audit, so over 200 the count exceeds 2 + 3 sd of Binomial(200, 0.01)
    (= 6.2) with probability < 2e-3; detection of the 2-eps mechanism (true delta 0.092 at eps 1,
    claimed 0.01) must be at least 95% (it is 100% measured)."""
    r = rates(reps=200, n=20000, eps=1.0, delta=0.01, seed=1)
    assert r["false_violations"] <= 2 + 3 * math.sqrt(200 * 0.01 * 0.99)
    assert r["power"] >= 0.95


def _gaussian_sampler(pt, side, n, rng):
    return (0.0 if side == "D" else 1.0) + pt["s"] * rng.standard_normal(n)


EPS, DELTA = sp.symbols("epsilon delta")


def _claim(calibration, expected, reason=""):
    """'The Gaussian mechanism with noise std s = calibration(eps, delta) is (eps, delta)-DP':
    its exact privacy profile, with an empirical audit beside it."""
    def sampler(pt, side, n, rng):
        return _gaussian_sampler({"s": float(calibration.subs({EPS: pt["epsilon"], DELTA: pt["delta"]}))}, side, n, rng)

    return Claim(id="audit/claim-gaussian", source=Source("a test", "Theorem A.1"),
                 domain=Domain(epsilon=Real(gt=0, search=(0.5, 2.0)),
                               delta=Real(gt=0, lt=1, search=(1e-3, 0.05), log=True)),
                 statements=(
                     SupBound("(eps, delta)-DP", bound=DELTA, kind="privacy",
                              scenario=gaussian_mechanism(sensitivity=1, noise_std=calibration, eps=EPS,
                                                          measure="delta_at_eps"),
                              audit=dp_audit(sampler=sampler, what="the Gaussian mechanism", eps=EPS, delta=DELTA)),),
                 expected=expected, reason=reason)


def test_audit_beside_the_accounting_refutes_a_wrong_calibration_and_only_refutes():
    right = sp.sqrt(2 * sp.log(sp.Rational(5, 4) / DELTA)) / EPS  # the classical calibration (eps < 1)
    v = dpverify.check(_claim(right, "holds"), at={"epsilon": 0.9, "delta": 0.01}, runs=20000)
    kinds = {e.check: e for e in v.evidence}
    assert set(kinds) == {"privacy", "audit"}
    # an audit's delta is a lower bound: below the claim it supports nothing; the exact profile supports it
    assert kinds["audit"].verdict == "inconclusive" and v.verdict == "holds"
    assert kinds["audit"].data["measurement"]["kind"] == "lower"
    assert "Clopper-Pearson" in kinds["audit"].detail
    wrong = sp.sqrt(2 * sp.log(sp.Rational(5, 4) / DELTA)) / (4 * EPS)   # a quarter of the noise
    v = dpverify.check(_claim(wrong, "violated", "quarter noise"), at={"epsilon": 1.0, "delta": 0.01}, runs=20000)
    kinds = {e.check: e for e in v.evidence}
    assert kinds["audit"].verdict == "violated" and kinds["audit"].value > 0.01 and v.verdict == "violated"


def test_an_audit_that_finds_nothing_supports_nothing():
    from dpverify.verdict import Basis, Evidence, statement_verdict

    ev = [Evidence("audit", "s", "holds", basis=Basis("audit", "an audit"))]
    assert statement_verdict(ev) == "inconclusive"
    assert statement_verdict(ev + [Evidence("privacy", "s", "holds", basis=Basis("privacy-exact"))]) == "holds"


def test_audit_rejects_bad_arguments():
    f = lambda n, rng: rng.standard_normal(n)  # noqa: E731
    with pytest.raises(ValueError, match="eps must be"):
        audit(f, f, eps=-1.0, delta=0.1)
    with pytest.raises(ValueError, match="n must be an integer >= 10"):
        audit(f, f, eps=1.0, delta=0.1, n=3)
    with pytest.raises(ValueError, match=r"shape \(n,\) or \(n, k\)"):
        audit(lambda n, rng: np.zeros((n, 2, 2)), f, eps=1.0, delta=0.1, n=20)


def _hostile_samples():
    rng = np.random.default_rng(3)
    return [(rng.normal(size=2000), rng.normal(0.4, size=1500)), (np.ones(300), rng.normal(size=500)),
            (np.round(rng.standard_cauchy(4000), 1), rng.integers(0, 5, 4000).astype(float)),
            (np.array([1.0]), np.array([2.0, 2.0])), (rng.normal(size=7) * 1e300, rng.normal(size=5) * 5e-324)]


def test_threshold_grid_is_the_quantiles_of_both_samples():
    """The audit's candidate thresholds are the linear-interpolation quantiles (NumPy's default
    definition) of the pooled scores: each lies between the two order statistics it interpolates, equals
    the order statistic where the position is whole, and agrees with ``np.quantile`` within the rounding
    of NumPy's own position (n ulps of the gap between the two order statistics) -- not bit for bit:
    NumPy promises the definition, not its arithmetic (issue 42: a NumPy release moved those bits)."""
    from dpverify.privacy.audit import GRID_POINTS, quantile_grid

    for sa, sb in _hostile_samples():
        both = np.sort(np.concatenate([sa, sb]))
        n = both.size
        grid = quantile_grid(both, GRID_POINTS)
        assert grid.shape == (GRID_POINTS,)
        pos = [Fraction(k * (n - 1), GRID_POINTS - 1) for k in range(GRID_POINTS)]
        lo = np.array([both[int(p)] for p in pos])
        hi = np.array([both[min(int(p) + 1, n - 1)] for p in pos])
        assert np.all((lo <= grid) & (grid <= hi))
        whole = np.array([p.denominator == 1 for p in pos])
        assert np.array_equal(grid[whole], lo[whole])
        ref = np.quantile(both, np.linspace(0.0, 1.0, GRID_POINTS))
        # NumPy computes the position n q - q in floating point (error ~ n ulps, times the gap
        # between the two order statistics); ours is exact; either interpolation rounds a few ulps
        eps = np.finfo(float).eps
        with np.errstate(over="ignore"):
            gap = hi - lo
            tol = 4 * eps * np.maximum(np.abs(lo), np.abs(hi)) + 4 * n * eps * gap + 5e-324
        assert np.all(np.abs(grid - ref) <= tol)


def test_threshold_grid_refuses_empty_input():
    from dpverify.privacy.audit import quantile_grid

    with pytest.raises(ValueError, match="non-empty"):
        quantile_grid(np.array([]), 201)


def test_audit_decision_does_not_depend_on_the_order_of_its_samples():
    """The chosen threshold set, and so the whole audit, is a function of the samples as multisets:
    reversing or shuffling each sampler's output changes nothing in the result."""
    audit_mod = importlib.import_module("dpverify.privacy.audit")

    for sa, sb in _hostile_samples()[:3]:
        a2, b2 = sa[:, None], sb[:, None]
        name, _, side, tau = audit_mod._best_set(a2, b2, eps=0.5)
        perm = np.random.default_rng(11)
        for a_p, b_p in ((a2[::-1], b2[::-1]), (a2[perm.permutation(len(a2))], b2[perm.permutation(len(b2))])):
            name_p, _, side_p, tau_p = audit_mod._best_set(a_p, b_p, eps=0.5)
            assert (name_p, side_p, tau_p) == (name, side, tau)

    def gauss(shift):
        return lambda n, rng: rng.normal(shift, 1.0, size=n)

    def shuffled(sampler):
        def draw(n, rng):
            x = sampler(n, rng)
            return x[np.random.default_rng(5).permutation(n)]
        return draw

    plain = audit(gauss(0.0), gauss(1.0), eps=0.5, delta=1e-3, n=4000, seed=2)
    mixed = audit(shuffled(gauss(0.0)), shuffled(gauss(1.0)), eps=0.5, delta=1e-3, n=4000, seed=2)
    assert mixed == plain
