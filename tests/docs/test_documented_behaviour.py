"""What the reference pages say about the code's numbers holds of the code (issue 40, item 9).

* docs/reference/scenarios.md: ``subsampled_dp`` measures the pair whose amplification is
  ``eps' = ln(1 + a (e^eps - 1))`` at ``delta' = a delta`` (Poisson / add-remove and fixed-size without
  replacement / replace-one), tightly: that eps' holds and anything a little below it is refuted;
* docs/reference/scenarios.md: ``eps_at_delta`` is a bound, not a value: where delta >= delta(0) it is 0;
* docs/reference/claims.md: an ``Infimum`` is evaluated as an attained value, never below the infimum (a
  ``Supremum`` never above the supremum).
"""
from __future__ import annotations

import pathlib

import mpmath
import pytest
import sympy as sp

import dpverify
from dpverify import Claim, Domain, Infimum, Inequality, Real, Source, Supremum, SupBound
from dpverify.numeric import Compiled
from dpverify.scenarios import gaussian_mechanism, subsampled_dp

ROOT = pathlib.Path(__file__).resolve().parents[2]
e, d, a = sp.symbols("epsilon delta a")
DOMAIN = Domain(epsilon=Real(gt=0, le=5, search=(0.05, 5), log=True),
                delta=Real(gt=0, lt=1, search=(1e-8, 0.1), log=True),
                a=Real(gt=0, le=1, search=(1e-3, 1), log=True))
AMPLIFIED = sp.log(1 + a * (sp.exp(e) - 1))


def _subsampled(cid, factor):
    return Claim(id=cid, source=Source("docs", "subsampled_dp"), domain=DOMAIN,
                 expected="holds" if factor == 1 else "violated",
                 reason=None if factor == 1 else "below the tight amplified eps",
                 witness=None if factor == 1 else {"epsilon": 1.0, "delta": 1e-5, "a": 0.1},
                 statements=(SupBound("eps' at a delta", kind="privacy", bound=factor * AMPLIFIED,
                                      scenario=subsampled_dp(eps=e, delta=d, sampling=a, target_delta=a * d)),))


def test_subsampled_dp_measures_the_documented_amplification_tightly():
    assert "Poisson sampling" in (ROOT / "docs" / "reference" / "scenarios.md").read_text()
    holds = dpverify.check(_subsampled("docs/subsampled-amplification", 1), seed=0)
    assert holds.verdict in ("holds", "verified"), holds
    below = dpverify.check(_subsampled("docs/subsampled-below", 1 - 1e-6), seed=0)
    assert below.verdict == "violated", below


def test_eps_at_delta_is_negative_where_delta_exceeds_the_profile_at_zero():
    """With mu = 1/100 the Gaussian mechanism's delta(0) = 2 Phi(mu/2) - 1 is 0.004 < 0.1 <= delta: the
    mechanism's eps at delta is the root of its exact profile, below 0 (about ln(1 - delta)), exact with its
    error -- not clamped at 0 and taken as exact, which called true bounds below 0 violated (issue 38)."""
    s = sp.Symbol("s")
    mu = mpmath.mpf(1) / 100
    assert 2 * mpmath.ncdf(mu / 2) - 1 < mpmath.mpf("0.1")
    claim = Claim(id="docs/eps-at-delta-negative", source=Source("docs", "eps_at_delta"),
                  domain=Domain(delta=Real(ge=0.1, lt=1, search=(0.1, 0.9)), s=Real(ge=100, le=100)),
                  statements=(SupBound("eps at delta is below ln(0.95)", kind="privacy", bound=sp.log(sp.Rational(95, 100)),
                                       scenario=gaussian_mechanism(sensitivity=1, noise_std=s, measure="eps_at_delta",
                                                                   delta=d)),))
    v = dpverify.check(claim, seed=0)
    assert v.verdict in ("holds", "verified"), v
    (ev,) = v.evidence[:1]
    assert ev.value < 0 and ev.data["measurement"]["kind"] == "exact", ev
    text = (ROOT / "docs" / "reference" / "scenarios.md").read_text()
    assert "a bound, not a value" not in text and "below 0" in text


@pytest.mark.parametrize("rho, log_inv_delta", [(0.01, 5.0), (1.0, 20.0), (3.0, 0.5)])
def test_an_infimum_is_never_below_and_a_supremum_never_above(rho, log_inv_delta):
    """inf_{x > 1} rho x + L/(x - 1) = rho + 2 sqrt(rho L) (at x = 1 + sqrt(L/rho)); its negative's sup."""
    x, r, L = sp.symbols("x r L")
    claim = Claim(id="docs/infimum", source=Source("docs", "Infimum"),
                  domain=Domain(r=Real(gt=0, search=(1e-3, 10)), L=Real(gt=0, search=(0.1, 30))),
                  statements=(Inequality("closed form", lhs=Infimum(r * x + L / (x - 1), x, 1, sp.oo),
                                         rhs=r + 2 * sp.sqrt(r * L)),))
    point = {"r": rho, "L": log_inv_delta}
    inf = Compiled(Infimum(r * x + L / (x - 1), x, 1, sp.oo), claim)(point, 40)
    sup = Compiled(Supremum(-(r * x + L / (x - 1)), x, 1, sp.oo), claim)(point, 40)
    with mpmath.workdps(60):
        true = mpmath.mpf(rho) + 2 * mpmath.sqrt(mpmath.mpf(rho) * log_inv_delta)
        rounding = mpmath.mpf(10) ** -38 * true        # the last digits of the 40 the value was computed at
        assert inf >= true - rounding and sup <= -true + rounding
        assert inf - true <= mpmath.mpf(10) ** -30 * true   # and, at a smooth interior minimum, accurate
