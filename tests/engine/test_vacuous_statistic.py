"""A check whose every instance makes the statistic identically zero says so (coverage 0, a note) instead of
counting the instances as evidence; and a convex quadratic with the start on its eigenvalue 0 is never drawn with
an initial gap (it has none: no ZeroDivisionError)."""
import sympy as sp

from dpverify import Claim, Domain, ExpectationBound, Int, Real, Source, check
from dpverify.checks.base import VACUOUS_NOTE, ZERO_STATISTIC, vacuous_statistic
from dpverify.scenarios import bind, noisy_gd

M, D, T = sp.symbols("M Delta T", positive=True)
_DOM = Domain(M=Real(gt=0, search=(0.5, 2.0)), Delta=Real(gt=0, search=(0.5, 2.0)), T=Int(ge=1, search=(1, 5)))


def _claim(**scenario):
    return Claim(id="me/gd", source=Source("notes", "GD"), domain=_DOM,
                 statements=(ExpectationBound("f(x_T) - f* <= Delta/T", bound=D / T,
                                              scenario=noisy_gd(smooth=M, step=1 / M, noise_std=0, horizon=T,
                                                                init_gap=D, **scenario)),))


def test_convex_quadratics_with_an_initial_gap_are_drawn_off_the_eigenvalue_zero():
    claim = _claim(problem="convex", dim=1)
    v = check(claim, samples=30, runs=200)
    assert v.verdict == "holds", [e.detail for e in v.evidence]
    sc = bind(claim.statements[0].scenario, claim)
    inst = {"point": {"M": 1.0, "Delta": 1.0, "T": 2}, "u": [0.0], "dir": [1.0]}
    assert not sc._usable(inst)       # the start on the eigenvalue 0: no gap Delta > 0 can be met there


def test_every_instance_solved_in_one_step_is_reported_as_vacuous():
    # every eigenvalue is M (curvature = smooth): GD with step 1/M lands on the minimiser in one step
    claim = _claim(problem="strongly_convex", curvature=M, dim=2)
    v = check(claim, samples=20, runs=200)
    assert v.verdict == "holds"
    measured = [e for e in v.evidence if e.check in ("exact", "monte_carlo")]   # the checks that evaluate instances
    assert len(measured) == 2
    for e in measured:
        assert e.coverage == 0.0 and VACUOUS_NOTE in e.detail, (e.check, e.coverage, e.detail)
    assert "mostly vacuous" in v.flags


def test_a_statistic_that_moves_is_not_vacuous():
    v = check(_claim(problem="strongly_convex", curvature=M / 4, dim=2), samples=20, runs=200)
    assert v.verdict == "holds" and all(VACUOUS_NOTE not in e.detail for e in v.evidence)


def test_the_rule_counts_only_nonzero_bounds():
    assert vacuous_statistic([(0.0, 1.0), (ZERO_STATISTIC / 2, 1.0)])
    assert not vacuous_statistic([(0.0, 1.0), (1e-6, 1.0)])
    assert not vacuous_statistic([(0.0, 0.0)]) and not vacuous_statistic([])
