"""A measured number decides a claim only in its direction (dpverify.measured)."""
import math

import pytest

from dpverify.measured import Measured


def test_a_lower_bound_can_refute_but_never_support():
    assert Measured.lower_bound(2.0).decide(1.0) == "violated"
    assert Measured.lower_bound(0.5).decide(1.0) == "inconclusive"


def test_an_upper_bound_can_support_but_never_refute():
    assert Measured.upper_bound(0.5).decide(1.0) == "holds"
    assert Measured.upper_bound(2.0).decide(1.0) == "inconclusive"


def test_a_difference_within_the_error_is_unresolved():
    assert Measured.exact(1.0 + 1e-12, error=1e-10).decide(1.0) == "inconclusive"
    assert Measured.exact(1.0 + 1e-9, error=1e-10).decide(1.0) == "violated"
    assert Measured.exact(1.0 - 1e-9, error=1e-10).decide(1.0) == "holds"


def test_strict_claims():
    assert Measured.exact(1.0).decide(1.0) == "holds"
    assert Measured.exact(1.0).decide(1.0, strict=True) == "violated"
    assert Measured.exact(1.0, error=1e-30).decide(1.0, strict=True) == "inconclusive"


def test_estimates_use_their_interval_and_nan_decides_nothing():
    assert Measured.estimate(1.0, 0.9, 1.1, 0.99).decide(1.05) == "inconclusive"
    assert Measured.estimate(1.0, 0.95, 1.04, 0.99).decide(1.05) == "holds"
    assert Measured.exact(math.nan).decide(1.0) == "inconclusive"


def test_bad_input_names_the_parameter():
    with pytest.raises(ValueError, match="kind"):
        Measured("guess", 1.0, 0.0, 2.0)
    with pytest.raises(ValueError, match="error"):
        Measured.exact(1.0, error=-1.0)
    with pytest.raises(ValueError, match="lower <= value <= upper"):
        Measured("estimate", 1.0, 2.0, 3.0)


def test_at_precision_carries_the_distance_between_two_precisions():
    import mpmath

    # 1 - cos(x) at x = 1e-9 cancels: the value is 5e-19 and both precisions agree to ~30 digits
    m = Measured.at_precision(lambda d: (lambda x: 1 - mpmath.cos(x))(mpmath.mpf("1e-9")), dps=30)
    assert m.kind == "exact" and m.lower <= 5e-19 <= m.upper and m.upper - m.lower < 1e-30
    # a quantity that is not stable between 30 and 60 digits gets that distance as its error
    m = Measured.at_precision(lambda d: mpmath.mpf(10) ** (-d // 2), dps=30)
    assert m.lower <= 1e-15 and m.upper >= 1e-15 and m.decide(0.0) == "inconclusive"
    with pytest.raises(ValueError, match="dps"):
        Measured.at_precision(lambda d: 1, dps=5)
