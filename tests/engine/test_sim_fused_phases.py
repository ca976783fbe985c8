"""Fused kernels of random-round SGD (quadratics) and step-decay SGD (separable losses).

Each fused path must give, for a seed, exactly (bit for bit) what its NumPy path gives: final
iterates, Monte Carlo moments and the tracked distance, over several shapes, chunk sizes and run
counts that end in a partial (odd-sized) block.  Fixed seeds; nothing is timed.
"""

from __future__ import annotations

import numpy as np
import pytest

from dpverify import sim
from dpverify.sim import adaptive_kernels as kernels
from dpverify.sim import draws
from dpverify.sim.random_round import random_round_probabilities, random_round_sgd
from dpverify.sim import SeparableLoss, coupled_step_decay_sgd, step_decay_sgd

pytestmark = pytest.mark.skipif(not draws.numba_available(), reason="numba not installed")


def _both(fn):
    """``fn()`` on the NumPy path, then on the fused path."""
    out = []
    for on in (False, True):
        sim.set_fused(on)
        try:
            out.append(fn())
        finally:
            sim.set_fused(None)
    return out


@pytest.mark.parametrize("D, T, runs, chunk", [(3, 20, 2500, 1024), (1, 7, 1025, 2048), (5, 40, 3001, 65536)])
@pytest.mark.parametrize("seed", [0, 11])
def test_random_round_fused_is_bit_identical(D, T, runs, chunk, seed):
    q = sim.Quadratic(np.linspace(0.2, 1.0, D), theta_star=np.arange(D) * 0.1)
    etas = np.linspace(0.5, 0.1, T)
    probs = random_round_probabilities(etas, 1.0)
    s = np.linspace(0.3, 1.0, T)
    ref, got = _both(lambda: random_round_sgd(q, np.ones(D), etas, probs, s, runs, seed, chunk_runs=chunk,
                                              return_thetas=True))
    assert np.array_equal(ref.thetas, got.thetas)
    assert (ref.mean, ref.var, ref.runs) == (got.mean, got.var, got.runs)


def _separable(phi, params, D, n, b_scale, weight, seed=0):
    rng = np.random.default_rng(seed)
    a = rng.standard_normal((n, D))
    a -= a.mean(axis=0)
    b = rng.standard_normal(n) * b_scale
    b -= b.mean()
    return SeparableLoss(phi, params, np.zeros(D), a, b, weights=np.full(D, weight))


CASES = [  # phi, params, D, n, b scale, weight, batch, output, runs, chunk_runs
    ("quadratic", (1.0,), 2, 20, 0.0, 1.0, 3, "after", 2500, 1024),
    ("sine", (2.0,), 3, 50, 0.3, 0.7, None, "before", 1030, 2048),
    ("huber", (1.0, 0.5), 1, 10, 0.0, 1.0, 4, "last", 3001, 8192),
    ("sine", (2.0,), 2, 100, 0.5, 1.0, 5, "after", 2049, 1024),
    ("quadratic", (0.5,), 4, 8, 0.2, 2.0, 8, "before", 1025, 1024),   # batch = n: full gradients
    ("huber", (1.0, 0.5), 2, 10, 0.0, 1.0, None, "after", 1500, 1024),
    ("sine", (1.5,), 1, 12, 0.0, 0.5, None, "last", 1030, 2048),
]


@pytest.mark.parametrize("case", CASES, ids=[f"{c[0]}-{c[7]}-B{c[6]}" for c in CASES])
@pytest.mark.parametrize("seed", [3, 8])
def test_step_decay_fused_is_bit_identical(case, seed):
    phi, params, D, n, bs, w, B, output, runs, chunk = case
    p = _separable(phi, params, D, n, bs, w)
    args = (np.full(D, 1.5), [0.3, 0.15], [8, 16], [4, 8], 0.5, 0.4, B, runs, seed)
    ref, got = _both(lambda: step_decay_sgd(p, *args, output=output, chunk_runs=chunk, track_from=np.zeros(D),
                                            box=True, return_outputs=True))
    assert np.array_equal(ref.outputs, got.outputs)
    assert (ref.mean, ref.var, ref.max_dist) == (got.mean, got.var, got.max_dist)
    pb = p.with_sample(0, -p.a[0], 0.1)
    ref, got = _both(lambda: coupled_step_decay_sgd(p, pb, *args, output=output, chunk_runs=chunk,
                                                    track_from=np.zeros(D), box=True))
    assert np.array_equal(ref[0], got[0]) and np.array_equal(ref[1], got[1])
    assert ref[2] == got[2]


def test_step_decay_fused_noise_free_is_gradient_descent():
    """sigma = 0, full gradients, no momentum, output "last": every run is the plain GD loop."""
    p = _separable("sine", (2.0,), 2, 6, 0.3, 1.0)
    sim.set_fused(True)
    try:
        res = step_decay_sgd(p, [1.0, -0.5], [0.2], [30], [0], 0.0, 0.0, None, 1030, 1, output="last",
                             return_outputs=True)
    finally:
        sim.set_fused(None)
    w = np.array([[1.0, -0.5]])
    for _ in range(30):
        w = w - 0.2 * p.grad(w)
    assert np.array_equal(res.outputs, np.repeat(w, 1030, axis=0))


@pytest.mark.parametrize("phi, params", [("quadratic", (1.5,)), ("huber", (1.0, 0.3)), ("sine", (2.0,))])
@pytest.mark.parametrize("noise", [0.0, 0.4])
def test_step_decay_fused_variants_without_data_terms(phi, params, noise):
    """The compiled variants without the mean-of-``a`` term (``a = 0``) and without noise (``s = 0``)."""
    p = SeparableLoss(phi, params, np.array([0.5, -0.5]), np.zeros((6, 2)))
    assert not np.any(p.a_mean) and not p.b_mean
    args = (np.array([1.5, -2.0]), [0.3, 0.15], [8, 16], [4, 8], 0.5, noise, None, 1100, 5)
    ref, got = _both(lambda: step_decay_sgd(p, *args, output="after", track_from=np.zeros(2), box=True,
                                            return_outputs=True))
    assert np.array_equal(ref.outputs, got.outputs)
    assert (ref.mean, ref.var, ref.max_dist) == (got.mean, got.var, got.max_dist)


@pytest.mark.parametrize("phi, params", [("quadratic", (1.5,)), ("huber", (1.0, 0.3))])
@pytest.mark.parametrize("center, weight", [(0.0, 1.0), (-0.0, 1.0), (0.25, 1.0), (0.0, 0.5)],
                         ids=["plain", "centre-minus-zero", "centre", "weights"])
def test_step_decay_fused_plain_variant_is_bit_identical(phi, params, center, weight):
    """Unit weights and a centre of +0.0 compile a variant that reads neither (``x - 0.0`` is ``x``,
    ``g * 1.0`` is ``g``); a centre of -0.0, another centre or weights take the general loop.  Each
    equals the NumPy path, the iterates started at -0.0 and +0.0, with momentum, for every output rule.
    (The variant runs only with noise and the mean of ``a`` on, where the sign of a zero ``x`` cannot
    reach an iterate, so that a centre of -0.0 is sent to the general loop by construction, not
    because a test could tell.)"""
    rng = np.random.default_rng(2)
    a = rng.standard_normal((9, 2))
    a -= a.mean(axis=0)
    p = SeparableLoss(phi, params, np.full(2, center), a, weights=np.full(2, weight))
    assert np.any(p.a_mean)       # the usual case: mean of a and noise both on
    for output in ("after", "before", "last"):
        args = (np.array([-0.0, 0.0]), [0.3, 0.2], [6, 9], [3, 4], 0.5, 0.4, None, 1500, 6)
        ref, got = _both(lambda: step_decay_sgd(p, *args, output=output, return_outputs=True))
        assert np.array_equal(ref.outputs, got.outputs)
        assert np.array_equal(np.signbit(ref.outputs), np.signbit(got.outputs))
        assert (ref.mean, ref.var) == (got.mean, got.var)


@pytest.mark.parametrize("phi, params", [("quadratic", (1.5,)), ("sine", (2.0,))])
@pytest.mark.parametrize("mons, rho", [([0, 0, 0], 0.5), ([5, 1, 9], 0.5), ([5, 1, 9], 0.0), ([2, 0, 9], 0.7)],
                         ids=["no-momentum", "momentum-to-the-end", "zero-rho", "mixed"])
def test_step_decay_fused_momentum_spans_are_bit_identical(phi, params, mons, rho):
    """With full gradients only momentum steps keep the previous iterate: momentum on no step, on every
    step of a phase (``momentum_steps = lengths``), on one step, with ``rho = 0``, over three phases,
    for every output rule (the previous iterate is reset at each phase's start)."""
    p = _separable(phi, params, 2, 30, 0.0, 1.0)
    for output in ("after", "before", "last"):
        args = (np.array([1.5, -2.0]), [0.3, 0.2, 0.1], [5, 3, 9], mons, rho, 0.4, None, 2100, 4)
        ref, got = _both(lambda: step_decay_sgd(p, *args, output=output, return_outputs=True))
        assert np.array_equal(ref.outputs, got.outputs)
        assert (ref.mean, ref.var) == (got.mean, got.var)
        pb = p.with_sample(0, -p.a[0])
        ref, got = _both(lambda: coupled_step_decay_sgd(p, pb, *args, output=output))
        assert np.array_equal(ref[0], got[0]) and np.array_equal(ref[1], got[1])


@pytest.mark.parametrize("D, T, runs, chunk", [(3, 12, 2500, 1024), (1, 5, 1025, 2048), (4, 20, 3001, 65536), (7, 6, 1100, 1024)])
@pytest.mark.parametrize("proportional", [False, True])
def test_adaptive_fused_is_bit_identical(D, T, runs, chunk, proportional):
    """A declared NormRule on a quadratic: fused kernel == NumPy path (iterates, moments, every track),
    and == the same rule given as a plain function (where the kernel's norms are not einsum's, in some
    dimension on some machine, the fused call runs the NumPy path: still equal)."""
    from dpverify.sim.adaptive import NormRule, adaptive_gd

    q = sim.Quadratic(np.linspace(0.2, 1.5, D), theta_star=np.arange(D) * 0.1)
    rule = NormRule(np.linspace(0.5, 0.2, T), np.linspace(0.3, 0.1, T) * (0.7 if proportional else 1.0),
                    proportional=proportional)
    track = ("grad_norm_sq", "dist", "noise_std", "step")

    def run(r):
        return adaptive_gd(q, np.linspace(1.0, -1.0, D), r, T, runs, 4, chunk_runs=chunk, track=track, record=True,
                           return_thetas=True, statistic=lambda th, tr: tr["grad_norm_sq"][:, 1:].sum(axis=1))

    ref, got = _both(lambda: run(rule))
    plain = run(lambda t, g: rule(t, g))
    for res in (got, plain):
        assert np.array_equal(ref.thetas, res.thetas)
        assert (ref.mean, ref.var) == (res.mean, res.var)
        for k in track:
            assert np.array_equal(ref.tracks[k], res.tracks[k]), k


def test_adaptive_fused_refuses_a_bad_noise_level_as_numpy_does():
    from dpverify.sim.adaptive import NormRule, adaptive_gd

    q = sim.Quadratic(np.array([1.0, 2.0]))
    rule = NormRule(np.full(4, 0.5), np.array([0.1, 0.1, -1.0, 0.1]))
    msgs = []
    for on in (False, True):
        sim.set_fused(on)
        try:
            with pytest.raises(ValueError) as err:
                adaptive_gd(q, np.ones(2), rule, 4, 1500, 0)
            msgs.append(str(err.value))
        finally:
            sim.set_fused(None)
    assert msgs[0] == msgs[1] and "t = 3" in msgs[0]


def _adaptive_both(eigs, theta1, etas, noise, runs=1100, star=None):
    """``adaptive_gd`` with a proportional NormRule on both paths: each an error message or the results."""
    from dpverify.sim.adaptive import NormRule, adaptive_gd

    eigs = np.asarray(eigs, float)
    q = sim.Quadratic(eigs, theta_star=star)
    rule = NormRule(np.asarray(etas, float), np.asarray(noise, float), proportional=True)
    out = []
    for on in (False, True):
        sim.set_fused(on)
        try:
            with np.errstate(all="ignore"):
                res = adaptive_gd(q, np.asarray(theta1, float), rule, len(etas), runs, 3, return_thetas=True,
                                  track=("grad_norm_sq",), record=True,
                                  statistic=lambda th, tr: tr["grad_norm_sq"][:, -1])
                bare = adaptive_gd(q, np.asarray(theta1, float), rule, len(etas), runs, 5)   # no track kept
            out.append((res.thetas, res.tracks["grad_norm_sq"], res.mean, res.var, bare.mean, bare.var))
        except ValueError as err:
            out.append(str(err))
        finally:
            sim.set_fused(None)
    return out


@pytest.mark.parametrize("D", [1, 2, 3])
@pytest.mark.parametrize("case", ["negative-level-at-rest", "negative-level", "overflowing-product", "infinite-norm",
                                  "nan-start", "huge-norm-finite-level", "infinite-level-at-rest", "nan-level",
                                  "bad-step-and-level"])
def test_adaptive_fused_proportional_levels_are_checked_as_numpy_does(D, case):
    """The fused kernel computes a proportional level ``s_t ||g||`` as it draws (checking first, and
    cheaply, whether every level of a chunk is surely finite and >= 0, else row by row): each hostile
    case gives the NumPy path's error, word for word, or its results, bit for bit.  At rest (``g = 0``)
    a negative ``s_t`` gives levels of -0.0, which are allowed; ``||g||^2`` of 1e302 with ``s_t = 1e-10``
    fails the quick test but is a finite level; ``s_t = 1e300`` overflows a finite ``||g||``."""
    eigs, theta1, star = np.linspace(1.0, 2.0, D), np.ones(D), None
    etas, noise = [0.5, 0.5, 0.5, 0.5], [0.1, 0.1, 0.1, 0.1]
    if case == "negative-level-at-rest":
        theta1, noise = np.zeros(D), [0.1, -1.0, 0.1, -0.0]
    elif case == "negative-level":
        noise = [0.1, 0.1, -1.0, 0.1]
    elif case == "overflowing-product":
        noise = [0.1, 1e300, 0.1, 0.1]
    elif case == "infinite-norm":
        eigs, theta1 = np.full(D, 1e200), np.full(D, 1e150)
    elif case == "nan-start":
        theta1 = np.full(D, np.nan)
    elif case == "huge-norm-finite-level":
        eigs, theta1, etas, noise = np.full(D, 1e150), np.full(D, 1.0), [0.0] * 4, [1e-10] * 4
    elif case == "infinite-level-at-rest":
        theta1, noise = np.zeros(D), [0.1, np.inf, 0.1, 0.1]
    elif case == "nan-level":
        noise = [0.1, 0.1, 0.1, np.nan]
    elif case == "bad-step-and-level":
        etas, noise = [0.5, 0.5, np.nan, 0.5], [0.1, 0.1, -1.0, 0.1]
    ref, got = _adaptive_both(eigs, theta1, etas, noise, star=star)
    if isinstance(ref, str) or isinstance(got, str):
        assert ref == got
        return
    for a, b in zip(ref, got):
        assert np.array_equal(a, b, equal_nan=True)
    if case in ("negative-level-at-rest", "huge-norm-finite-level"):
        assert np.all(np.isfinite(ref[0]))         # ran to the end: no level was refused


def test_kernel_squared_norms_are_einsums_in_low_dimension():
    """The fused path needs the kernel's squared norms to equal einsum's (checked at first use per D)."""
    from dpverify.sim.adaptive import _norms_agree

    x = np.random.default_rng(0).standard_normal((50, 2)) * 1e3
    got = np.empty(50)
    kernels.sq_norms(x, got)
    assert np.array_equal(got, np.einsum("ij,ij->i", x, x))      # D = 2: one addition, no order to choose
    assert _norms_agree(1) and _norms_agree(2)


@pytest.mark.parametrize("D, T, runs, chunk", [(3, 12, 2500, 1024), (1, 5, 1025, 2048), (4, 20, 3001, 65536),
                                               (2, 8, 1100, 1024)])
@pytest.mark.parametrize("proportional", [False, True])
@pytest.mark.parametrize("case", ["ordinary", "huge-start", "overflowing-noise"])
def test_adaptive_fused_cosine_sum_is_bit_identical(D, T, runs, chunk, proportional, case):
    """A declared NormRule on ``sum_i a_i (1 - cos theta_i)``: the fused kernel (gradient ``a sin(theta)``
    with libm's ``sin``) == the NumPy path in iterates, moments and every track, from an ordinary start,
    a huge one (``sin`` of 1e300), and with noise that overflows the iterates to inf (``sin`` NaN)."""
    from dpverify.sim.adaptive import NormRule, _fused_kernel, adaptive_gd
    from dpverify.sim.problems import CosineSum

    p = CosineSum(np.linspace(0.5, 2.0, D))
    noise = np.full(T, 1.7e308) if case == "overflowing-noise" else np.linspace(0.3, 0.1, T)
    rule = NormRule(np.linspace(0.5, 0.2, T), noise, proportional=proportional)
    start = 1e300 if case == "huge-start" else 2.5
    assert _fused_kernel(p, np.zeros(D), rule, T, runs, set()) is not None
    track = ("grad_norm_sq", "dist", "noise_std", "step")

    def run():
        try:
            with np.errstate(all="ignore"):
                return adaptive_gd(p, np.full(D, start), rule, T, runs, 4, chunk_runs=chunk, track=track,
                                   record=True, return_thetas=True,
                                   statistic=lambda th, tr: tr["grad_norm_sq"][:, 1:].sum(axis=1))
        except ValueError as err:              # a level gone inf or NaN (proportional noise)
            return str(err)

    ref, got = _both(run)
    if isinstance(ref, str) or isinstance(got, str):
        assert ref == got and "noise_std = " in ref and proportional
        return
    if case == "overflowing-noise":
        assert np.isinf(ref.thetas).any() or np.isnan(ref.thetas).any()
    assert np.array_equal(ref.thetas, got.thetas, equal_nan=True)
    assert np.array_equal([ref.mean, ref.var], [got.mean, got.var], equal_nan=True)
    for k in track:
        assert np.array_equal(ref.tracks[k], got.tracks[k], equal_nan=True), k


def test_adaptive_cosine_sum_runs_the_numpy_path_where_sines_differ(monkeypatch):
    """A kernel ``sin`` one unit in the last place off at one argument fails the first-use check; the run
    then does not call the fused kernel (and equals the NumPy path)."""
    from dpverify.sim import adaptive
    from dpverify.sim.adaptive import NormRule, adaptive_gd
    from dpverify.sim.problems import CosineSum

    real = kernels.scaled_sines

    def off(a, x, out):
        real(a, x, out)
        out[7] = np.nextafter(out[7], np.inf)

    monkeypatch.setattr(kernels, "scaled_sines", off)
    monkeypatch.setattr(adaptive, "_SINES_AGREE", [])
    assert not adaptive._sines_agree()
    calls = []
    monkeypatch.setattr(kernels, "adaptive_quadratic", lambda *a, **k: calls.append(a))
    p = CosineSum(np.array([1.0, 2.0]))
    rule = NormRule(np.full(4, 0.5), np.full(4, 0.2), proportional=True)
    ref, got = _both(lambda: adaptive_gd(p, np.ones(2), rule, 4, 1500, 0, return_thetas=True))
    assert np.array_equal(ref.thetas, got.thetas) and calls == []
