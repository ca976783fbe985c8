"""stage/claim-eer-rate-corrected's threshold, stated without W."""
import math


def test_the_stage_threshold_is_the_root_of_one_minus_exp_equals_half():
    """The corrected stage claim's relation 1 - e^(-a) < a/2 (a = 2/(c4 theta)) is c4 theta < 2/x*, x* = 2 + W(-2/e^2)."""
    from theorems.stage.claims.section3 import C4_THETA_MAX, X_STAR
    x = float(X_STAR)
    assert abs(1 - math.exp(-x) - x / 2) < 1e-12 and abs(float(C4_THETA_MAX) - 1.2550009749) < 1e-9


def test_the_corrected_domain_ends_at_the_threshold():
    from theorems.stage.claims.section3 import C4_THETA_MAX, CLAIM_EER_RATE_CORRECTED, _EER_WITNESS
    c = float(C4_THETA_MAX)
    pt = {**_EER_WITNESS, "n": 1000}
    for theta in (0.5, 1.0, 2.0):
        below = {**pt, "theta": theta, "c4": c / theta * (1 - 1e-9)}
        above = {**pt, "theta": theta, "c4": c / theta * (1 + 1e-9)}
        if below["c4"] < 2:
            assert CLAIM_EER_RATE_CORRECTED.domain.contains(below)
        assert not CLAIM_EER_RATE_CORRECTED.domain.contains(above)
