"""Exact performance-estimation certificates (``sim/pep_exact``, ``pep_direct``, ``pep_rational``, ``pep_proof``):
the exact problem agrees with PEPit's, the exact checks accept the known certificates and refuse tampered ones,
and the certificates built from Clarabel's numbers are exact and tight where the bound is attained."""
from fractions import Fraction as Q

import numpy as np
import pytest

from dpverify.sim import pep
from dpverify.sim import pep_direct as D
from dpverify.sim import pep_exact as E
from dpverify.sim import pep_proof as P


def _spec(cls="smooth_convex", stat="excess", init="dist", N=3, h=Q(1), q=Q(0), method="gd", beta=Q(0)):
    return dict(method=method, function_class=cls, statistic=stat, init=init, steps=[h] * N, q=q, beta=beta)


def drori_teboulle(N):
    """The multipliers of Drori & Teboulle's bound L R^2/(4N + 2) (step 1/L): the conditions between
    consecutive iterates and from each iterate to x*."""
    m = {"init": Q(1, 4 * N + 2), f"i:-1:{N}": Q(1, N + 1)}
    for i in range(N):
        m[f"i:{i}:{i + 1}"] = Q(i + 1, 2 * N - i)
        m[f"i:-1:{i}"] = Q(2 * N + 1, (2 * N - i) * (2 * N - i + 1))
    return m


def huber(N):
    """The worst function of that bound: slope c = 1/(2N + 1) from x_0 = 1 (a Huber function)."""
    c = Q(1, 2 * N + 1)
    xs = [1 - k * c for k in range(N + 1)]
    return [1], [[c]] * (N + 1), [c * x - c * c / 2 for x in xs]


# ------------------------------------------------------------------------------------------- exact checks
def test_psd_is_exact_and_handles_zero_pivots():
    assert E.psd([[Q(1), Q(1)], [Q(1), Q(1)]])[0]                    # singular, PSD
    assert not E.psd([[Q(1), Q(2)], [Q(2), Q(1)]])[0]                # indefinite
    assert not E.psd([[Q(0), Q(1)], [Q(1), Q(1)]])[0]                # a zero pivot with a nonzero in its row
    assert E.psd([[Q(0), Q(0)], [Q(0), Q(0)]])[0]
    eps = Q(1, 10**30)
    assert not E.psd([[Q(1), Q(1)], [Q(1), 1 - eps]])[0]             # below PSD by 1e-30: refused


@pytest.mark.parametrize("N", [1, 2, 5, 12])
def test_drori_teboulle_certificate_and_worst_function_are_exact(N):
    spec = _spec(N=N)
    bound, S = E.check_upper(spec, drori_teboulle(N))
    assert bound == Q(1, 4 * N + 2)
    assert E.check_lower(spec, *huber(N)) == Q(1, 4 * N + 2)


def test_tampered_certificates_are_refused():
    spec = _spec(N=4)
    m = drori_teboulle(4)
    m["i:1:2"] += Q(1, 10**9)                                       # a function value no longer cancels
    with pytest.raises(ValueError, match="keeps a term"):
        E.check_upper(spec, m)
    m = drori_teboulle(4)
    m["init"] -= Q(1, 10**9)                                         # S leaves the PSD cone
    with pytest.raises(ValueError, match="not positive semi-definite"):
        E.check_upper(spec, m)
    m = drori_teboulle(4)
    m["i:0:1"] = -m["i:0:1"]
    with pytest.raises(ValueError, match="negative"):
        E.check_upper(spec, m)
    x0, g, f = huber(4)
    f = list(f)
    f[2] += Q(1, 10**9)                                              # off the function: an interpolation fails
    with pytest.raises(ValueError, match="violates"):
        E.check_lower(spec, x0, g, f)
    c, x0 = Q(1, 9), Q(11, 10)                                       # a Huber function from ||x_0 - x*|| = 1.1 > 1
    with pytest.raises(ValueError, match="violates constraint init"):
        E.check_lower(spec, [x0], [[c]] * 5, [c * (x0 - k * c) - c * c / 2 for k in range(5)])


@pytest.mark.parametrize("cls,stat,init,method", [
    ("smooth_convex", "excess", "dist", "gd"), ("smooth_strongly_convex", "dist_sq", "dist", "heavy_ball"),
    ("smooth_strongly_convex", "grad_norm_sq", "gap", "nesterov"), ("smooth", "grad_norm_sq", "gap", "gd"),
    ("pl", "excess", "gap", "bias_corrected"), ("smooth_convex", "random_round_excess", "dist", "gd"),
    ("smooth", "random_round_grad_norm_sq", "gap", "gd")])
def test_the_vectorised_constraints_are_the_exact_ones(cls, stat, init, method):
    spec = _spec(cls, stat, init, N=3, h=Q(7, 10), q=Q(1, 5), method=method, beta=Q(3, 10))
    num = D.Numeric(spec)
    rng = np.random.default_rng(1)
    X = rng.integers(-4, 5, size=(num.n, 3))
    G = (X @ X.T).astype(float)
    F = rng.integers(-3, 4, size=num.m).astype(float)
    t = 0.5
    fast = num.evaluate(G, F, t)
    exprs = num.exprs(num.keys)
    for k, key in enumerate(num.keys):
        e = exprs[key]
        exact = float(sum(v * (G[a, b]) for (a, b), v in e.quad.items())
                      + sum(v * (t if j == "t" else F[j]) for j, v in e.lin.items()) + e.const)
        assert fast[k] == pytest.approx(exact, abs=1e-9), key


@pytest.mark.parametrize("cls,stat,init,method,N", [
    ("smooth_convex", "excess", "dist", "gd", 4), ("smooth_strongly_convex", "excess", "gap", "heavy_ball", 3),
    ("smooth_strongly_convex", "dist_sq", "dist", "nesterov", 3), ("smooth", "grad_norm_sq", "gap", "gd", 3),
    ("pl", "excess", "gap", "gd", 2), ("smooth_convex", "random_round_excess", "dist", "gd", 3),
    ("smooth_strongly_convex", "excess", "dist", "bias_corrected", 3)])
def test_the_direct_sdp_has_pepits_value(cls, stat, init, method, N):
    """The exact problem (written anew) and PEPit's: the same worst case, to the solvers' accuracy."""
    spec = _spec(cls, stat, init, N=N, h=Q(9, 10), q=Q(1, 5), method=method, beta=Q(3, 10))
    ours = D.Numeric(spec).solve()
    theirs = pep.worst_case(method, cls, stat, init, smooth=1.0, steps=[0.9] * N, init_value=1.0,
                            curvature=0.2 if cls in ("smooth_strongly_convex", "pl") else 0.0, momentum=0.3)
    assert ours.value == pytest.approx(theirs.value, rel=1e-6, abs=1e-8)
    assert ours.bound == pytest.approx(theirs.value, rel=1e-6, abs=1e-8)


# ------------------------------------------------------------------------------------------- built from numbers
@pytest.mark.parametrize("N", [1, 2, 3, 7, 15])
def test_tight_certificates_from_the_solver(N):
    """GD with step 1/L: L R^2/(4N + 2) on smooth convex, (1 - mu/L)^(2N) on the distance (mu = L/10): an exact
    dual certificate at the bound and a worst function attaining it."""
    for spec, b in ((_spec(N=N), Q(1, 4 * N + 2)),
                    (_spec("smooth_strongly_convex", "dist_sq", q=Q(1, 10), N=N), Q(9, 10) ** (2 * N))):
        proof = P.certify(spec, b)
        assert proof.upper_bound == b and proof.lower_bound == b, (N, spec["function_class"], proof.notes)
        again = P.recheck(spec, proof.to_json())          # what a store would give back, checked again
        assert again.upper_bound == b and again.lower_bound == b


def test_a_planted_bound_is_refuted_by_a_checked_worst_function():
    N = 3
    proof = P.certify(_spec(N=N), Q(1, 2 * (4 * N + 2)))
    assert proof.lower_bound is not None and proof.lower_bound > Q(1, 2 * (4 * N + 2))
    lo = proof.lower
    assert E.check_lower(_spec(N=N), lo["x0"], lo["grads"], lo["values"]) == proof.lower_bound


def test_classes_without_interpolation_conditions_still_get_upper_bounds():
    """PL (necessary conditions): one GD step with step 1/L contracts f - f* by (1 - mu/L) (Karimi et al.)."""
    spec = _spec("pl", "excess", "gap", N=1, q=Q(1, 4))
    proof = P.certify(spec, Q(3, 4))
    assert proof.upper_bound is not None and proof.upper_bound <= Q(3, 4)


def test_a_stored_certificate_that_was_edited_is_dropped():
    spec = _spec(N=2)
    good = P.certify(spec, Q(1, 10)).to_json()
    bad = {**good, "upper": {**good["upper"], "bound": "1/11"}}
    assert P.recheck(spec, bad).upper is None
    worse = {**good, "upper": {"multipliers": {**good["upper"]["multipliers"], "init": "1/20"}, "bound": "1/20"}}
    assert P.recheck(spec, worse).upper is None
