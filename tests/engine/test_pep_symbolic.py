"""Proofs beyond one rational point: certificates symbolic in a parameter (``sim/pep_symbolic``), potentials
composed over any horizon (``sim/pep_potential``), closed forms in the horizon (``sim/pep_horizon``) and the
smooth class's explicit witness function (``sim/pep_smooth``)."""
from fractions import Fraction as Q

import pytest
import sympy as sp

from dpverify.sim import pep_exact as E
from dpverify.sim import pep_horizon as H
from dpverify.sim import pep_potential as Pt
from dpverify.sim import pep_proof as P
from dpverify.sim import pep_smooth as Sm
from dpverify.sim import pep_symbolic as S

q = sp.Symbol("q", positive=True)
SAMPLES = [Q(1, 10), Q(1, 4), Q(1, 3), Q(1, 2), Q(2, 3), Q(4, 5)]


def _spec(cls, stat, init, N=1, h=1, qv=Q(0)):
    return dict(method="gd", function_class=cls, statistic=stat, init=init, steps=[h] * N, q=qv, beta=Q(0))


# ------------------------------------------------------------------------------------------ signs
@pytest.mark.parametrize("expr,lo,hi,expected", [
    ((1 - q) ** 2 / (1 + q), 0, 1, True), (q - sp.Rational(1, 2), 0, 1, False), ((2 * q - 1) ** 2, 0, 1, True),
    (1 / (q - sp.Rational(1, 2)), 0, 1, False), ((q - 2) * (q - 3), 0, 1, True), ((q - 2) * (q - 3), 0, sp.oo, False),
    (q**3 - q, 1, sp.oo, True), (-(q - 1) ** 3, 0, 1, True), (sp.Integer(0), 0, 1, True)])
def test_nonneg_on_an_interval_is_decided_exactly(expr, lo, hi, expected):
    assert S.nonneg_on(expr, q, sp.Integer(lo), hi if hi == sp.oo else sp.Integer(hi)) is expected


def test_a_sign_change_below_any_sampling_grid_is_found():
    eps = sp.Rational(1, 10**12)
    expr = (q - sp.Rational(1, 3)) ** 2 - eps**2          # negative on a window of width 2e-12 around 1/3
    assert not S.nonneg_on(expr, q, sp.Integer(0), sp.Integer(1))
    assert S.nonneg_on((q - sp.Rational(1, 3)) ** 2, q, sp.Integer(0), sp.Integer(1))


def test_rational_fit_recovers_a_rational_function_and_refuses_noise():
    f = 2 * q / (q + 2)
    pts = [(v, Q(str(f.subs(q, sp.Rational(v.numerator, v.denominator))))) for v in SAMPLES]
    assert sp.simplify(S.fit_rational(pts, q) - f) == 0
    bad = pts[:-1] + [(pts[-1][0], pts[-1][1] + Q(1, 10**6))]
    assert S.fit_rational(bad, q, max_degree=1) is None


# ------------------------------------------------------------------------------------------ symbolic certificates
def _prove(cls, stat, init, N=1):
    spec_sym = dict(method="gd", function_class=cls, statistic=stat, init=init, steps=[sp.Integer(1)] * N, q=q)
    return S.prove(spec_sym, q, sp.Integer(0), sp.Integer(1), SAMPLES,
                   lambda v: _spec(cls, stat, init, N, Q(1), v))


def test_the_distance_contraction_is_proved_for_every_curvature():
    cert = _prove("smooth_strongly_convex", "dist_sq", "dist")
    assert cert is not None and cert.tight and sp.simplify(cert.value - (1 - q) ** 2) == 0
    # the same multipliers checked on their own, and a tampered one refused
    assert S.verify(dict(method="gd", function_class="smooth_strongly_convex", statistic="dist_sq", init="dist",
                         steps=[sp.Integer(1)], q=q), cert.multipliers, q, 0, 1) is not None
    bad = {**cert.multipliers, "init": cert.multipliers["init"] - q / 100}
    assert S.verify(dict(method="gd", function_class="smooth_strongly_convex", statistic="dist_sq", init="dist",
                         steps=[sp.Integer(1)], q=q), bad, q, 0, 1) is None


def test_one_pl_step_is_proved_below_karimis_rate():
    cert = _prove("pl", "excess", "gap")
    assert cert is not None and not cert.tight
    assert sp.simplify(cert.value - 2 * (1 - q) / (2 + q)) == 0
    assert S.nonneg_on((1 - q) - cert.value, q, 0, 1)      # below Karimi et al.'s 1 - mu/L


# ------------------------------------------------------------------------------------------ potentials composed
@pytest.mark.parametrize("T", [1, 7, 30])
def test_a_one_step_contraction_composes_into_an_exact_T_step_certificate(T):
    spec = _spec("smooth_strongly_convex", "dist_sq", "dist", N=T, qv=Q(1, 10))
    r = Pt.rate(spec, "dist")
    assert r.rho == Q(81, 100) and r.tight
    value, _ = E.check_upper(spec, Pt.compose(r, T), field=P.fmpq_field)
    assert value == Q(81, 100) ** T
    bad = Pt.compose(r, T)
    bad["init"] = bad["init"] * Q(99, 100)                   # claims a smaller bound than the pieces prove
    with pytest.raises(ValueError):
        E.check_upper(spec, bad)


def test_a_potential_with_final_and_initial_pieces():
    spec = _spec("smooth_strongly_convex", "excess", "dist", N=5, qv=Q(1, 4))
    r = Pt.rate(spec, "dist")
    assert r.c_final == Q(1, 2)                                 # f - f* <= L/2 ||x - x*||^2
    value, _ = E.check_upper(spec, Pt.compose(r, 5), field=P.fmpq_field)
    assert value == r.bound(5) == Q(1, 2) * Q(9, 16) ** 5


# ------------------------------------------------------------------------------------------ every horizon
BASE = dict(method="gd", function_class="smooth_convex", statistic="excess", init="dist", q=Q(0), beta=Q(0), h=Q(1))


def test_drori_teboulle_is_proved_for_every_horizon_and_attained():
    proof = H.prove(BASE)
    assert proof is not None and sp.simplify(proof.value - 1 / (4 * H.N_ + 2)) == 0
    assert H.prove(BASE, 1 / (4 * H.N_ + 1)) is None            # a bound it does not prove is refused
    assert H.attained(BASE, proof.value) is not None
    assert H.attained(BASE, 1 / (4 * H.N_ + 1)) is None


def test_bivariate_fit():
    k, N = H.k_, H.N_
    f = (k + 1) / (2 * N - k)
    pts = [((kk, NN), Q(str(f.subs({k: kk, N: NN})))) for NN in range(2, 9) for kk in range(NN)]
    assert sp.simplify(H.fit2(pts, k, N) - f) == 0


# ------------------------------------------------------------------------------------------ the smooth class
def test_a_smooth_witness_function_is_built_and_checked():
    spec = _spec("smooth", "random_round_grad_norm_sq", "gap", N=3)
    proof = P.certify(spec, None)
    lo = proof.lower
    assert lo is not None and "function" in lo
    value = E.check_smooth(spec, lo["x0"], lo["grads"], lo["values"], lo["function"])
    assert Q(lo["value"]) == value and value <= proof.upper_bound
    assert float(value) == pytest.approx(float(proof.upper_bound), rel=1e-3)
    # tampering: a curvature above L, a point off the function, a deeper dip than the initial gap allows
    fn = {"start": list(lo["function"]["start"]), "knots": [list(k) for k in lo["function"]["knots"]]}
    steep = {**fn, "knots": [[fn["knots"][0][0], "3/2"]] + fn["knots"][1:]}
    with pytest.raises(ValueError):
        E.check_smooth(spec, lo["x0"], lo["grads"], lo["values"], steep)
    with pytest.raises(ValueError):
        E.check_smooth(spec, lo["x0"], lo["grads"], [str(Q(v) + 1) if i == 1 else v
                                                      for i, v in enumerate(lo["values"])], fn)
    with pytest.raises(ValueError, match="initial gap"):
        E.check_smooth(spec, lo["x0"], lo["grads"], lo["values"], fn, delta=Q(1, 100))


def test_the_bridge_meets_both_ends():
    L = Q(1)
    for xa, fa, ga, xb, fb, gb in ((Q(0), Q(0), Q(1), Q(1), Q(1, 2), Q(0)), (Q(0), Q(0), Q(0), Q(2), Q(-1), Q(-1))):
        knots = Sm.bridge(xa, fa, ga, xb, fb, gb, L)
        f, g, x = fa, ga, xa
        for i, (k, c) in enumerate(knots):
            end = knots[i + 1][0] if i + 1 < len(knots) else xb
            w = end - k
            f, g, x = f + g * w + c * w * w / 2, g + c * w, end
            assert abs(c) <= L
        assert (x, f, g) == (xb, fb, gb)
