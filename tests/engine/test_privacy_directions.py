"""Both directions of every privacy measure: the measures added beside the existing ones (delta at a
target eps of ``subsampled_dp``; eps at delta and delta at eps of ``budget_filter_gd`` and of Gaussian
``output_perturbation_privacy``; eps at delta of ``single_sample_sgd_privacy``), each against a closed form
or an independent computation in mpmath written here (Balle & Wang's profile, the hockey-stick divergence
of the four-atom canonical pair), never through the function under test."""
from __future__ import annotations

import math

import mpmath
import pytest
import sympy as sp

from dpverify import Claim, Domain, Int, Real, Seq, Source, SupBound
from dpverify.privacy import single_sample_sgd as ss
from dpverify.scenarios import bind, budget_filter_gd, output_perturbation_privacy, subsampled_dp
from dpverify.scenarios import eps_at_delta, single_sample_sgd_privacy


def _bound(sc, **params):
    """``sc`` bound to a throw-away claim over ``params`` (name -> Real/Int/Seq)."""
    claim = Claim(id="mine/p", source=Source("my notes", "Lemma 1"), domain=Domain(**params),
                  statements=(SupBound("s", bound=1, kind="privacy", scenario=sc),))
    return bind(sc, claim)


def _bw_delta(eps, mu):
    """Balle & Wang's exact profile of the Gaussian mechanism, in mpmath (60 digits)."""
    with mpmath.workdps(60):
        eps, mu = mpmath.mpf(eps), mpmath.mpf(mu)
        return mpmath.ncdf(-eps / mu + mu / 2) - mpmath.exp(eps) * mpmath.ncdf(-eps / mu - mu / 2)


def _bw_eps(delta, mu):
    """Its inverse: the eps with delta(eps) = delta (delta decreases in eps), by bisection in mpmath."""
    with mpmath.workdps(60):
        lo, hi = mpmath.mpf(0), mpmath.mpf(1)
        while _bw_delta(hi, mu) > delta:
            hi *= 2
        for _ in range(200):
            mid = (lo + hi) / 2
            lo, hi = (mid, hi) if _bw_delta(mid, mu) > delta else (lo, mid)
        return (lo + hi) / 2


def _contains(meas, x, rel=1e-9):
    return meas.lower - rel * abs(x) <= x <= meas.upper + rel * abs(x)


# --------------------------------------------------------------------------- subsampled_dp: delta at eps'
e, d, q, te = sp.symbols("e d q te")
_SUB = dict(e=Real(gt=0), d=Real(gt=0, lt=1), q=Real(gt=0, le=1), te=Real(ge=0))


@pytest.mark.parametrize("eps, delta, a", [(1.0, 1e-5, 0.1), (0.05, 1e-3, 0.5), (4.0, 1e-8, 0.01)])
def test_subsampled_delta_at_the_amplified_eps_is_q_delta(eps, delta, a):
    """Balle, Barthe & Gaboardi, Thm. 9: the tight delta' at eps' = ln(1 + q(e^eps - 1)) is q delta."""
    sc = _bound(subsampled_dp(eps=e, delta=d, sampling=q, target_eps=sp.log(1 + q * (sp.exp(e) - 1))), **_SUB)
    m = sc.measure({"e": eps, "d": delta, "q": a, "te": 0.0}, 1, 0)
    assert m.value == pytest.approx(a * delta, rel=1e-12)


@pytest.mark.parametrize("eps, delta, a, target", [(1.0, 1e-5, 0.1, 0.02), (2.0, 1e-3, 0.7, 0.5),
                                                   (0.3, 1e-6, 1.0, 0.1), (1.0, 1e-4, 0.3, 3.0)])
def test_subsampled_delta_at_any_eps_is_the_pairs_hockey_stick(eps, delta, a, target):
    """Against the hockey-stick divergence of ((1 - q) P + q Q, P), P and Q the canonical pair written out
    here (Kairouz, Oh & Viswanath): leak delta, randomised response in between."""
    with mpmath.workdps(60):
        E = mpmath.exp(mpmath.mpf(eps))
        hi, lo = (1 - mpmath.mpf(delta)) * E / (1 + E), (1 - mpmath.mpf(delta)) / (1 + E)
        P, Q = [mpmath.mpf(delta), hi, lo, 0], [0, lo, hi, mpmath.mpf(delta)]
        X = [(1 - mpmath.mpf(a)) * p + mpmath.mpf(a) * x for p, x in zip(P, Q)]
        et = mpmath.exp(mpmath.mpf(target))
        want = max(mpmath.fsum(max(u - et * v, 0) for u, v in zip(X, P)),
                   mpmath.fsum(max(v - et * u, 0) for u, v in zip(X, P)))
    sc = _bound(subsampled_dp(eps=e, delta=d, sampling=q, target_eps=te), **_SUB)
    m = sc.measure({"e": eps, "d": delta, "q": a, "te": target}, 1, 0)
    assert _contains(m, float(want), rel=1e-12), (m, want)


def test_subsampled_dp_needs_exactly_one_target():
    with pytest.raises(TypeError, match="exactly one of target_delta"):
        subsampled_dp(eps=e, delta=d, sampling=q)
    with pytest.raises(TypeError, match="exactly one of target_delta"):
        subsampled_dp(eps=e, delta=d, sampling=q, target_eps=te, target_delta=d)


# --------------------------------------------------------------------------- budget_filter_gd: both directions
sig, t, R, G, N, T = sp.IndexedBase("sigma"), sp.Symbol("t"), *sp.symbols("R G N T")
_BF = dict(T=Int(ge=1), sigma=Seq("T", Real(gt=0)), R=Real(gt=0), G=Real(gt=0), N=Int(ge=2), e=Real(gt=0),
           d=Real(gt=0, lt=1))
_ARGS = dict(adjacency="replace", noise_multiplier=sig[t], budget=R, clip=G, n_samples=N, horizon=T)


@pytest.mark.parametrize("pt", [{"T": 3, "sigma": [1.0, 2.0, 0.5], "R": 10.0, "G": 1.0, "N": 10, "e": 1.0, "d": 1e-5},
                                {"T": 2, "sigma": [4.0, 4.0], "R": 0.07, "G": 3.0, "N": 5, "e": 0.3, "d": 1e-3}])
def test_budget_filter_profile_is_the_composed_gaussians(pt):
    """The admitted steps compose to one Gaussian mechanism with mu = sqrt(2 rho), rho the scenario's
    own zCDP measure: its delta at eps and eps at delta are Balle & Wang's, computed here in mpmath."""
    rho = _bound(budget_filter_gd(**_ARGS), **_BF).measure(pt, 1, 0).value
    mu = math.sqrt(2 * rho)
    dm = _bound(budget_filter_gd(**_ARGS, measure="delta_at_eps", eps=e), **_BF).measure(pt, 1, 0)
    assert _contains(dm, float(_bw_delta(pt["e"], mu)), rel=1e-8), dm
    em = _bound(budget_filter_gd(**_ARGS, measure="eps_at_delta", delta=d), **_BF).measure(pt, 1, 0)
    assert _contains(em, float(_bw_eps(pt["d"], mu)), rel=1e-8), em


def test_budget_filter_measures_need_their_target():
    with pytest.raises(TypeError, match="needs delta="):
        budget_filter_gd(**_ARGS, measure="eps_at_delta")
    with pytest.raises(TypeError, match="measure must be one of"):
        budget_filter_gd(**_ARGS, measure="epsilon")


# --------------------------------------------------------------------------- output perturbation: eps at delta
M, mu_, L, n, b = sp.symbols("M mu L n b")
_OP = dict(M=Real(gt=0), mu=Real(gt=0), T=Int(ge=1), n=Int(ge=2), L=Real(gt=0), b=Real(gt=0), e=Real(gt=0),
           d=Real(gt=0, lt=1))
_OPA = dict(noise="gaussian", smooth=M, curvature=mu_, step=1 / M, horizon=T, n_samples=n, lipschitz=L, noise_scale=b)


def test_output_perturbation_eps_at_delta_inverts_the_profile_of_the_instance():
    """On one neighbouring pair (the scenario's instance), eps at delta is Balle & Wang's profile of the
    shift ||w_T - w_T'||/b inverted here in mpmath, and delta at that eps gives delta back."""
    pt = {"M": 2.0, "mu": 0.5, "T": 5, "n": 10, "L": 1.0, "b": 0.3, "e": 1.0, "d": 1e-4}
    sc = _bound(output_perturbation_privacy(**_OPA, delta=d), **_OP)
    inst = sc.instance_at(pt)
    mu = math.dist(inst["w_T"], inst["w_T_prime"]) / pt["b"]
    em = sc.measure(inst, 1, 0)
    assert _contains(em, float(_bw_eps(pt["d"], mu)), rel=1e-8), em
    moved = {**inst, "point": {**inst["point"], "e": em.value}}
    back = _bound(output_perturbation_privacy(**_OPA, eps=e), **_OP).measure(moved, 1, 0)
    assert back.value == pytest.approx(pt["d"], rel=1e-6)


def test_output_perturbation_gaussian_needs_one_target():
    with pytest.raises(TypeError, match="give exactly one"):
        output_perturbation_privacy(**_OPA)
    with pytest.raises(TypeError, match="delta= is for noise='gaussian'"):
        output_perturbation_privacy(**{**_OPA, "noise": "norm_laplace"}, eps=e, delta=d)


# --------------------------------------------------------------------------- one-sample SGD: eps at delta
def test_eps_at_delta_by_bisection_keeps_its_direction():
    """delta(eps) = e^-eps: the upper eps carries delta(eps) <= target, the lower one delta(eps) > target,
    and they bracket ln(1/target) within the bisection's width."""
    up, lo = eps_at_delta(lambda x: math.exp(-x), 1e-3, "upper"), eps_at_delta(lambda x: math.exp(-x), 1e-3, "lower")
    assert up.kind == "upper" and lo.kind == "lower"
    assert math.exp(-up.value) <= 1e-3 < math.exp(-lo.value)
    assert lo.value <= math.log(1e3) <= up.value and up.value - lo.value < 1e-12


@pytest.mark.parametrize("bound", ["upper", "lower"])
def test_one_sample_sgd_eps_at_delta_is_certified_by_its_delta(bound):
    s, G_, n_, T_, dl = sp.symbols("s G n T delta")
    sc = _bound(single_sample_sgd_privacy(noise_std=s, lipschitz=G_, n_samples=n_, horizon=T_, delta=dl, bound=bound),
                s=Real(gt=0), G=Real(gt=0), n=Int(ge=1), T=Int(ge=1), delta=Real(gt=0, lt=1))
    pt = {"s": 2.0, "G": 1.0, "n": 100, "T": 50, "delta": 1e-5}
    m = sc.measure(pt, 1, 0)
    f = ss.single_sample_sgd_delta if bound == "upper" else ss.single_sample_sgd_delta_lower
    at = float(f(m.value, 2.0, 1.0, 100, 50))
    assert (at <= 1e-5) if bound == "upper" else (at > 1e-5)
    assert m.kind == bound


def test_one_sample_sgd_lower_eps_is_below_the_upper_one():
    s, G_, n_, T_, dl = sp.symbols("s G n T delta")
    dom = dict(s=Real(gt=0), G=Real(gt=0), n=Int(ge=1), T=Int(ge=1), delta=Real(gt=0, lt=1))
    pt = {"s": 1.0, "G": 1.0, "n": 20, "T": 10, "delta": 1e-4}
    lo, up = (_bound(single_sample_sgd_privacy(noise_std=s, lipschitz=G_, n_samples=n_, horizon=T_, delta=dl,
                                               bound=k), **dom).measure(pt, 1, 0) for k in ("lower", "upper"))
    assert 0 < lo.value <= up.value
