"""The privacy fast paths and memos give the numbers of the slow paths they replace, bit for bit; a changed
input recomputes, the same input returns an equal value, and no caller can change a memoised value.

* the Renyi divergence by quadrature (:func:`dpverify.privacy.renyi_divergence_gaussians`) against the same
  integrand written with mpmath's operators;
* the measured sensitivity of the schedule audits and their steering's normal tails.
"""
from __future__ import annotations

import mpmath
import numpy as np
import pytest

from dpverify.privacy import gaussian as G
from dpverify.scenarios.privacy import gd as SP


def _renyi_with_operators(mu0, mu1, s, alpha, dps):
    """The quadrature's integrand as written with mpmath's operators (the implementation before the
    raw-value integrand), on the same rule (:func:`G._trapezoid`)."""
    with mpmath.workdps(int(dps) + 10):
        prec, rnd = mpmath.mp._prec_rounding
        m0, m1, sd, a = (mpmath.mpf(v) for v in (mu0, mu1, s, alpha))
        log_norm = -mpmath.log(sd * mpmath.sqrt(2 * mpmath.pi))

        def logp(x):
            return log_norm - (x - m0) ** 2 / (2 * sd * sd)

        def logq(x):
            return log_norm - (x - m1) ** 2 / (2 * sd * sd)

        if a == 1:
            def integrand(t):
                x = m0 + sd * mpmath.mpf(t)
                lp = logp(x)
                return (sd * mpmath.exp(lp) * (lp - logq(x)))._mpf_

            value = mpmath.mpf(G._trapezoid(integrand, dps, prec, rnd))
        else:
            centre = a * m0 + (1 - a) * m1

            def integrand(t):
                x = centre + sd * mpmath.mpf(t)
                return (sd * mpmath.exp(a * logp(x) + (1 - a) * logq(x)))._mpf_

            value = mpmath.log(mpmath.mpf(G._trapezoid(integrand, dps, prec, rnd))) / (a - 1)
    return +value


@pytest.mark.parametrize("mu0,mu1,s,alpha,dps", [(0.0, 1.0, 0.1353352832366127, 3.7, 25), (0.3, -1.2, 0.7, 1, 25),
                                                 (0.0, 2.5, 40.0, 57.25, 15), (-1.0, 0.5, 1.0, 2, 40)])
def test_renyi_quadrature_is_the_operator_integrands_bit_for_bit(mu0, mu1, s, alpha, dps):
    G._renyi_quadrature.cache_clear()
    for prec in (53, 90):
        with mpmath.workprec(prec):
            assert G.renyi_divergence_gaussians(mu0, mu1, s, alpha, dps=dps)._mpf_ == \
                _renyi_with_operators(mu0, mu1, s, alpha, dps)._mpf_


def test_the_renyi_memo_recomputes_on_a_changed_input():
    G._renyi_quadrature.cache_clear()
    base = dict(mu0=0.0, mu1=1.0, s=0.8, alpha=2.5, dps=20)
    first = G.renyi_divergence_gaussians(**base)
    assert G.renyi_divergence_gaussians(**base) == first and G._renyi_quadrature.cache_info().hits == 1
    for name, value in (("mu0", 0.1), ("mu1", 1.1), ("s", 0.9), ("alpha", 3.0)):
        assert G.renyi_divergence_gaussians(**{**base, name: value}) != first
    G.renyi_divergence_gaussians(**{**base, "dps": 30})           # more digits: another entry
    with mpmath.workprec(120):                                    # the caller's precision: another entry, more bits
        fine = G.renyi_divergence_gaussians(**base)
    assert G._renyi_quadrature.cache_info().misses == 7
    assert fine != first and abs(fine - first) < 1e-14
    assert G._renyi_quadrature.cache_info().hits == 1


def test_measured_sensitivity_is_memoised_on_its_inputs():
    SP._measured_sensitivity.cache_clear()
    v = SP.measured_sensitivity(2.0, 10, "replace")
    assert v == pytest.approx(2 * 2.0 / 10) and SP.measured_sensitivity(2.0, 10.0, "replace") == v
    assert SP._measured_sensitivity.cache_info().hits == 1
    assert SP.measured_sensitivity(2.0, 10, "remove") == pytest.approx(2.0 / 10)
    assert SP.measured_sensitivity(3.0, 10, "replace") == pytest.approx(0.6)
    assert SP.measured_sensitivity(2.0, 20, "replace") == pytest.approx(0.2)
    assert SP._measured_sensitivity.cache_info().misses == 4


def test_the_steering_tails_are_scipy_stats_bit_for_bit():
    from scipy.special import ndtr
    from scipy.stats import norm

    for mu in (1e-6, 0.3, 2.0, 37.5, 900.0):
        c = np.linspace(-4.0, mu + 4.0, 64)
        assert ndtr(-(c - mu)).tobytes() == norm.sf(c - mu).tobytes() and ndtr(-c).tobytes() == norm.sf(c).tobytes()


def test_composed_accountants_are_memoised_and_give_the_unmemoised_numbers(monkeypatch):
    """``event_epsilon`` / ``event_delta`` compose an event once per process and options: the same
    numbers as a fresh composition, another event or option composes afresh, the memo stays bounded, and
    bad options are refused as before."""
    import dp_accounting

    from dpverify.privacy import accountants as A

    composed = []
    real = A._compose

    def counting(*args):
        composed.append(args[0])
        return real(*args)

    monkeypatch.setattr(A, "_compose", counting)
    A._COMPOSED.clear()
    ev = dp_accounting.SelfComposedDpEvent(
        dp_accounting.PoissonSampledDpEvent(0.01, dp_accounting.GaussianDpEvent(1.1)), 300)
    for accountant in ("rdp", "pld", "best"):
        first = A.event_epsilon(ev, 1e-5, accountant=accountant)
        again = A.event_epsilon(ev, 1e-5, accountant=accountant)
        delta = A.event_delta(ev, 2.0, accountant=accountant)
        fresh = min(float(acc.get_epsilon(1e-5)) for acc in real(ev, accountant, None, 1e-4, None))
        fresh_delta = min(float(acc.get_delta(2.0)) for acc in real(ev, accountant, None, 1e-4, None))
        assert first == again == fresh and delta == fresh_delta
    assert len(composed) == 3                        # one composition per accountant, not per query
    other = dp_accounting.SelfComposedDpEvent(
        dp_accounting.PoissonSampledDpEvent(0.01, dp_accounting.GaussianDpEvent(1.2)), 300)
    assert A.event_epsilon(other, 1e-5) < A.event_epsilon(ev, 1e-5)
    assert len(composed) == 4
    A.event_epsilon(ev, 1e-5, orders=[2, 4, 8])      # other options: composed again
    assert len(composed) == 5
    for k in range(A._COMPOSED_SIZE + 3):
        A.event_epsilon(dp_accounting.GaussianDpEvent(1.0 + k), 1e-5)
    assert len(A._COMPOSED) == A._COMPOSED_SIZE
    with pytest.raises(ValueError, match="accountant must be one of"):
        A.event_epsilon(ev, 1e-5, accountant="moments")
    with pytest.raises((ValueError, TypeError)):
        A.event_epsilon(ev, 1e-5, orders=[0.5])
