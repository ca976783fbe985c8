"""The worst case over a function class (``dpverify.sim.pep`` and ``scenarios.worst_case``) against known closed
forms, within the interval the measurement itself reports (the solver's error folded in), and that interval no
wider than the solver's accuracy allows (Clarabel's default tolerances are 1e-8: a width below 1e-6 of the value)."""
import math

import pytest
import sympy as sp

from dpverify import Claim, Domain, Int, Real, Source, SupBound, check
from dpverify.measured import Measured
from dpverify.scenarios import bind, worst_case
from dpverify.sim import pep

#: the widest interval accepted, relative to the value's scale (100x Clarabel's tolerance)
WIDTH = 1e-6


def _within(res, exact):
    assert res.lower <= exact <= res.upper, (res.lower, exact, res.upper)
    assert res.upper - res.lower <= WIDTH * max(1.0, abs(exact)), res.upper - res.lower


@pytest.mark.parametrize("T", [1, 2, 3, 5, 8])
def test_gd_on_smooth_convex_is_drori_teboulle(T):
    """GD with step 1/L from distance R: the worst f(x_T) - f* is L R^2/(4T + 2) (Drori & Teboulle 2014)."""
    L, R = 2.5, 0.7
    res = pep.worst_case("gd", "smooth_convex", "excess", "dist", smooth=L, steps=[1 / L] * T, init_value=R)
    assert res.exact
    _within(res, L * R**2 / (4 * T + 2))


@pytest.mark.parametrize("T,h", [(1, 0.5), (3, 1.0), (4, 1.8), (6, 1.2)])
def test_gd_on_smooth_strongly_convex_contracts_the_distance(T, h):
    """||x_T - x*||^2 <= max(|1 - eta mu|, |1 - eta L|)^(2T) R^2, attained (by a quadratic)."""
    L, mu, R = 3.0, 0.3, 2.0
    res = pep.worst_case("gd", "smooth_strongly_convex", "dist_sq", "dist", smooth=L, curvature=mu,
                         steps=[h / L] * T, init_value=R)
    _within(res, max(abs(1 - h * mu / L), abs(1 - h)) ** (2 * T) * R**2)


@pytest.mark.parametrize("T", [1, 3, 6])
def test_pl_upper_bound_is_below_the_pl_rate(T):
    """Under PL, GD with step 1/L contracts f - f* by 1 - mu/L a step (Karimi et al. 2016): the PEP's upper bound
    (necessary conditions only) is at most (1 - mu/L)^T Delta, and it is not exact."""
    L, mu, gap = 2.0, 0.4, 3.0
    res = pep.worst_case("gd", "pl", "excess", "gap", smooth=L, curvature=mu, steps=[1 / L] * T, init_value=gap)
    assert not res.exact and res.upper <= (1 - mu / L) ** T * gap


def test_momentum_zero_is_gd_and_scaling_is_exact():
    kw = dict(smooth=1.5, curvature=0.2, steps=[0.6] * 4, init_value=1.3)
    gd = pep.worst_case("gd", "smooth_strongly_convex", "excess", "dist", **kw)
    for m in ("heavy_ball", "nesterov", "bias_corrected"):
        r = pep.worst_case(m, "smooth_strongly_convex", "excess", "dist", momentum=0.0, **kw)
        assert abs(r.value - gd.value) <= (gd.upper - gd.lower) + (r.upper - r.lower)
    # the class is invariant under f(x) -> f(c x)/c^2 ...: L R^2 and step L are what matter
    a = pep.worst_case("gd", "smooth_convex", "excess", "dist", smooth=1.0, steps=[1.0] * 3, init_value=1.0)
    b = pep.worst_case("gd", "smooth_convex", "excess", "dist", smooth=4.0, steps=[0.25] * 3, init_value=3.0)
    assert b.value == pytest.approx(36 * a.value, rel=1e-12)


def test_bias_corrected_first_step_is_a_gradient_step():
    """m_1/(1 - beta) = g_0: one bias-corrected step is one GD step, whatever beta."""
    kw = dict(smooth=1.0, steps=[0.9], init_value=1.0)
    a = pep.worst_case("gd", "smooth_convex", "dist_sq", "dist", **kw)
    b = pep.worst_case("bias_corrected", "smooth_convex", "dist_sq", "dist", momentum=0.7, **kw)
    assert abs(a.value - b.value) <= (a.upper - a.lower) + (b.upper - b.lower)


def test_combinations_the_pep_cannot_state_are_refused():
    with pytest.raises(TypeError, match="smooth"):
        worst_case(function_class="smooth", statistic="excess", smooth=1, step=1, horizon=1, init_gap=1)
    with pytest.raises(TypeError, match="exactly one"):
        worst_case(function_class="smooth_convex", statistic="excess", smooth=1, step=1, horizon=1)
    with pytest.raises(TypeError, match="momentum"):
        worst_case(method="nesterov", function_class="smooth_convex", statistic="excess", smooth=1, step=1,
                   horizon=1, init_dist=1)
    with pytest.raises(pep.PEPError, match="degenerate"):
        pep.worst_case("gd", "pl", "excess", "gap", smooth=1.0, curvature=1.0, steps=[1.0], init_value=1.0)


L, R, T = sp.symbols("L R T", positive=True)
_CLAIM = Claim(id="me/gd-convex", source=Source("notes", "GD"),
               domain=Domain(L=Real(gt=0, search=(0.1, 10.0), log=True), R=Real(gt=0, search=(0.1, 10.0), log=True),
                             T=Int(ge=1, search=(1, 200))),
               statements=(SupBound("f(x_T) - f* <= L R^2/(8T)", bound=L * R**2 / (8 * T), kind="performance",
                                    scenario=worst_case(function_class="smooth_convex", statistic="excess", smooth=L,
                                                        step=1 / L, horizon=T, init_dist=R)),))


def test_scenario_measures_exactly_reports_the_worst_function_and_draws_small_horizons():
    sc = bind(_CLAIM.statements[0].scenario, _CLAIM)
    pt = {"L": 2.0, "R": 1.0, "T": 2}
    m = sc.measure(sc.instance_at(pt), 1, 0)
    assert isinstance(m, Measured) and m.kind == "exact" and m.lower <= 2.0 / 10 <= m.upper
    text = sc.describe(pt)
    assert "CLARABEL" in text and "dual residual" in text and "t=2:" in text
    assert sc.instance_at({"L": 2.0, "R": 1.0, "T": 50}) is None   # beyond max_horizon: not measured
    from dpverify.search import sample_points
    assert all(1 <= p["T"] <= 10 for p in sample_points(sc.strategy(), 20, 3))


def test_a_bound_quadratics_satisfy_is_violated_on_the_class_with_the_worst_function_in_the_evidence():
    v = check(_CLAIM, at={"L": 1.0, "R": 1.0, "T": 3})
    (e,) = v.evidence
    assert v.verdict == "violated" and e.basis.kind == "worst-over-class"
    assert e.value == pytest.approx(1 / 14, rel=1e-6) and "worst function" in e.detail
    assert math.isclose(e.bound, 1 / 24)


@pytest.mark.parametrize("T", [1, 3])
def test_random_round_gradient_on_smooth_functions_is_the_descent_lemma(T):
    """Step 1/L, R drawn uniformly from 0..T-1: the descent lemma sums to E||grad f(x_R)||^2 <= 2 L Delta/T, which the
    (upper-bound) PEP of L-smooth functions with f(x_0) - inf f <= Delta attains; on convex functions at T = 1 the
    worst ||grad f(x_0)||^2 is 2 L Delta as well (f - f* >= ||grad f||^2/(2L), attained)."""
    L, gap = 2.0, 0.7
    res = pep.worst_case("gd", "smooth", "random_round_grad_norm_sq", "gap", smooth=L, steps=[1 / L] * T,
                         init_value=gap)
    assert not res.exact
    _within(res, 2 * L * gap / T)
    if T == 1:
        cvx = pep.worst_case("gd", "smooth_convex", "random_round_grad_norm_sq", "gap", smooth=L, steps=[0.3 / L],
                             init_value=gap)
        assert cvx.exact
        _within(cvx, 2 * L * gap)


def test_random_round_and_mean_excess_average_the_right_iterates():
    """A random round of one step is x_0 (worst f(x_0) - f* = L R^2/2 from distance R); the mean over the iterates
    x_1..x_T of one step is f(x_1) - f*; a random round needs steps in (0, 2/L)."""
    L, R = 3.0, 0.5
    rr = pep.worst_case("gd", "smooth_convex", "random_round_excess", "dist", smooth=L, steps=[1 / L], init_value=R)
    _within(rr, L * R**2 / 2)
    mean = pep.worst_case("gd", "smooth_convex", "mean_excess", "dist", smooth=L, steps=[1 / L], init_value=R)
    last = pep.worst_case("gd", "smooth_convex", "excess", "dist", smooth=L, steps=[1 / L], init_value=R)
    _within(mean, L * R**2 / 6)
    assert abs(mean.value - last.value) <= (mean.upper - mean.lower) + (last.upper - last.lower)
    with pytest.raises(pep.PEPError, match="2/smooth"):
        pep.worst_case("gd", "smooth_convex", "random_round_excess", "dist", smooth=L, steps=[2 / L], init_value=R)
    with pytest.raises(pep.PEPError, match="horizon"):
        pep.worst_case("gd", "smooth_convex", "mean_excess", "dist", smooth=L, steps=[], init_value=R)


def test_a_horizon_in_a_claims_integer_draws_the_integers_it_admits():
    """horizon = 2 S with S in 1..40: the search draws S <= max_horizon/2 only."""
    S, L = sp.symbols("S L", positive=True)
    claim = Claim(id="me/two-s", source=Source("notes", "GD"),
                  domain=Domain(L=Real(gt=0, search=(0.1, 10.0), log=True), S=Int(ge=1, search=(1, 40))),
                  statements=(SupBound("x", bound=L, kind="performance",
                                       scenario=worst_case(function_class="smooth_convex", statistic="mean_excess",
                                                           smooth=L, step=1 / L, horizon=2 * S, init_dist=1)),))
    sc = bind(claim.statements[0].scenario, claim)
    from dpverify.search import sample_points
    drawn = {p["S"] for p in sample_points(sc.strategy(), 30, 1)}
    assert drawn and drawn <= {1, 2, 3, 4, 5}
