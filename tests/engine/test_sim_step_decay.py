"""dpverify.sim.step_decay: the stagewise (step-decay, momentum, minibatch without replacement) simulator
against exact GD and exact moments (float and mpmath), chunk sizes, coupled runs and the batch sampler.
(Moved from tests/test_stage.py.)"""
from __future__ import annotations

import math

import numpy as np
import pytest

from dpverify.sim import Quadratic, SeparableLoss, coupled_step_decay_sgd, phase_schedule, step_decay_quadratic_moments
from dpverify.sim.problems import separable as _separable
from dpverify.sim import set_fused as sim_set_fused
from dpverify.sim import step_decay_sgd
from dpverify.sim.gradients import sample_without_replacement, wor_batch_variance

Z99 = 3.29  # two-sided 0.999 normal quantile: every Monte Carlo tolerance below is Z99 standard errors


def _deterministic(grad, w0, etas, lengths, mons, rho):
    w = np.array(w0, float)
    for eta, T, m in zip(etas, lengths, mons):
        prev = w.copy()
        for t in range(1, T + 1):
            new = w - eta * grad(w) + (rho * (w - prev) if t <= m else 0.0)
            prev, w = w, new
    return w


def test_no_noise_full_batch_is_deterministic_momentum_gd():
    q = Quadratic([0.5, 2.0])
    etas, lengths, mons = phase_schedule(0.3, 4, 2, 3)
    res = step_decay_sgd(q, [1.0, -2.0], etas, lengths, mons, 0.6, 0.0, None, 5, 1, output="last", return_outputs=True)
    want = _deterministic(q.grad, [1.0, -2.0], etas, lengths, mons, 0.6)
    assert np.allclose(res.outputs, want[None, :], rtol=1e-12, atol=1e-15)


@pytest.mark.parametrize("output", ["after", "before", "last"])
def test_monte_carlo_agrees_with_exact_moments(output):
    rng = np.random.default_rng(3)
    n, B, D = 30, 4, 2
    a = rng.normal(size=(n, D))
    a -= a.mean(axis=0)
    prob = SeparableLoss("quadratic", (1.0,), np.zeros(D), a, weights=[0.6, 1.3])
    etas, lengths, mons = phase_schedule(0.25, 5, 2, 2)
    runs = 40000
    res = step_decay_sgd(prob, [1.0, -0.5], etas, lengths, mons, 0.5, 0.2, B, runs, 7, output=output)
    noise = 0.04 + wor_batch_variance((a**2).mean(axis=0), n, B)
    _, second = step_decay_quadratic_moments([0.6, 1.3], [1.0, -0.5], etas, lengths, mons, 0.5, noise, output=output)
    exact = float(np.dot([0.6, 1.3], second) / 2)
    assert abs(res.mean - exact) <= Z99 * math.sqrt(res.var / runs)


def test_results_do_not_depend_on_chunk_size():
    prob = SeparableLoss("sine", (1.5,), np.zeros(2), 0.1 * np.array([[1.0, 0.0], [-1.0, 0.0], [0.0, 1.0], [0.0, -1.0]]))
    etas, lengths, mons = phase_schedule(0.2, 3, 1, 2)
    a = step_decay_sgd(prob, [1.0, 1.0], etas, lengths, mons, 0.5, 0.1, 2, 3000, 5, chunk_runs=1024)
    b = step_decay_sgd(prob, [1.0, 1.0], etas, lengths, mons, 0.5, 0.1, 2, 3000, 5, chunk_runs=65536)
    assert a.mean == b.mean and a.var == b.var


def test_coupled_runs_share_noise_batches_and_outputs():
    rng = np.random.default_rng(0)
    a = rng.normal(size=(20, 2))
    a -= a.mean(axis=0)
    p = SeparableLoss("quadratic", (1.0,), np.zeros(2), a)
    etas, lengths, mons = phase_schedule(0.2, 3, 1, 2)
    wa, wb, _ = coupled_step_decay_sgd(p, p, [1.0, 1.0], etas, lengths, mons, 0.5, 0.3, 3, 500, 2)
    assert np.array_equal(wa, wb)
    q = p.with_sample(0, -a[0])
    wa, wb, _ = coupled_step_decay_sgd(p, q, [1.0, 1.0], etas, lengths, mons, 0.5, 0.3, 3, 500, 2)
    assert not np.array_equal(wa, wb) and np.abs(wa - wb).max() < 1.0  # only sample 0's steps differ


def test_batches_without_replacement_are_uniform_subsets():
    rng = np.random.default_rng(1)
    n, B, rows = 9, 4, 60000
    idx = sample_without_replacement(rng, n, B, rows)
    assert all(len(set(r)) == B for r in idx[:2000].tolist())
    freq = np.bincount(idx.ravel(), minlength=n) / rows
    p = B / n   # inclusion probability of each index
    assert np.all(np.abs(freq - p) <= Z99 * math.sqrt(p * (1 - p) / rows))


def test_exact_moments_in_float_and_mpmath_agree():
    etas, lengths, mons = phase_schedule(0.3, 5, 2, 3)
    m, s = step_decay_quadratic_moments([0.7, 1.1], [1.0, -2.0], etas, lengths, mons, 0.4, [0.2, 0.1], [0.05, 0.0])
    mm, sm = step_decay_quadratic_moments([0.7, 1.1], [1.0, -2.0], etas, lengths, mons, 0.4, [0.2, 0.1], [0.05, 0.0],
                                         dps=40)
    assert np.allclose(s, [float(x) for x in sm], rtol=1e-12) and np.allclose(m, [float(x) for x in mm], rtol=1e-12)


# ------------------------------------------------------------------ row sums of the value


def _hostile_rows(rows, D, seed):
    """Rows mixing signed zeros, cancellation at 1e16, overflow to inf, infinities, NaN, subnormals."""
    rng = np.random.default_rng(seed)
    vals = np.array([0.0, -0.0, 1.0, -1.0, 1e16, -1e16, 1e308, np.inf, -np.inf, np.nan, 5e-324, -5e-324, 0.1])
    return vals[rng.integers(0, vals.size, size=(rows, D))] * rng.choice([1.0, 3.0, 0.7], size=(rows, D))


@pytest.mark.parametrize("D", [1, 2, 3, 4, 5, 9])
@pytest.mark.parametrize("rows", [1, 7, 1024, 3000])
def test_row_sums_equal_numpys_sum_bit_for_bit(D, rows):
    """``_row_sums`` (columns added one by one for D <= 4, else NumPy's) == ``sum(axis=-1)`` bit for bit,
    signs of zero and NaN's sign and payload included (rows mixing ``+nan`` and ``inf - inf``, whose
    default NaN has its sign bit set), on hostile rows and on 1-d, 3-d and non-contiguous inputs."""
    neg_nan = np.copysign(np.nan, -1.0)      # the sign bit of x86's default NaN (inf - inf)
    with np.errstate(all="ignore"):
        for seed in range(3):
            v = _hostile_rows(rows, D, seed)
            if D >= 2:      # NumPy's short loops and SIMD loops keep different operands' NaN
                v[0, :2] = (neg_nan, np.nan)
                v[-1, :2] = (np.nan, neg_nan)
            got, ref = _separable._row_sums(v), v.sum(axis=-1)
            assert np.array_equal(got.view(np.uint64), ref.view(np.uint64))
        clean = _hostile_rows(rows, D, 9)
        clean[~np.isfinite(clean)] = 1.5
        assert np.array_equal(_separable._row_sums(clean).view(np.uint64), clean.sum(axis=-1).view(np.uint64))
        rows_f = np.asfortranarray(_hostile_rows(rows, D, 7))          # not C-contiguous: NumPy's own sum
        for v in (np.array([1.0, -1e16, 1e16]), _hostile_rows(6, D, 5).reshape(2, 3, D), rows_f, rows_f[::2]):
            assert np.array_equal(_separable._row_sums(v), v.sum(axis=-1), equal_nan=True)


def test_row_sums_check_rejects_another_order(monkeypatch):
    """The first-use check catches an order that is not NumPy's: ``v0 + (v1 + v2)`` for D = 3
    (cancellation at 1e16 tells the orders apart), then ``_row_sums`` falls back to NumPy's sum."""
    def grouped(v):
        out = np.zeros(v.shape[0]) + v[:, 0]
        rest = v[:, 1].copy()
        for j in range(2, v.shape[1]):
            rest += v[:, j]
        return out + rest

    monkeypatch.setattr(_separable, "_column_sums", grouped)
    monkeypatch.setattr(_separable, "_ROW_SUM_OK", {})
    assert not _separable._row_sums_agree(3)
    v = np.array([[1.0, 1e16, -1e16]])
    assert _separable._row_sums(v)[0] == v.sum(axis=-1)[0] == 0.0     # NumPy's order: (1 + 1e16) - 1e16


def test_separable_value_and_excess_keep_their_bits():
    """``value``/``excess`` through ``_row_sums`` equal the direct NumPy expression (sum over the last
    axis, ``x @ a_mean``, the ``b`` term), for every shape and with a non-zero ``f_star`` (a neighbour
    has none: ``nan``); ``excess`` of a centred problem is ``value`` itself (``v - 0.0 == v``)."""
    rng = np.random.default_rng(4)
    a = rng.standard_normal((7, 3))
    a -= a.mean(axis=0)
    b = rng.standard_normal(7)
    b -= b.mean()
    for phi, params in (("quadratic", (2.0,)), ("sine", (2.0,)), ("huber", (1.0, 0.4))):
        p = SeparableLoss(phi, params, [0.1, -0.2, 0.0], a, b, weights=[1.0, 0.5, 2.0])
        th = rng.standard_normal((1500, 3)) * 3
        x = th - p.center
        ref = p._wphi(x).sum(axis=-1) + x @ p.a_mean + p.b_mean * p._psi(x).sum(axis=-1)
        assert np.array_equal(p.value(th), ref)
        assert np.array_equal(p.excess(th), ref)
        nb = p.with_sample(0, a[1], 0.3)
        assert np.isnan(nb.f_star) and np.all(np.isnan(nb.excess(th)))


@pytest.mark.parametrize("box", [True, False])
def test_tracked_distance_skips_nan_whatever_the_chunks(box):
    """Iterates that overflow to inf and then NaN in some runs (start 1e308, noise 4.5e307): the largest
    tracked distance skips NaN deviations, as the fused kernel does, so that it is the same for every
    ``chunk_runs`` (a chunk's NaN once hid that chunk's other rows: 0.0 in one chunk of 8192 runs, inf
    in chunks of 512 or 1024) and, with ``box``, on both paths."""
    p = SeparableLoss("quadratic", (2.0,), np.zeros(1), np.zeros((1, 1)))
    got = set()
    with np.errstate(all="ignore"):
        for fused in ((False, None) if box else (False,)):
            sim_set_fused(fused)
            try:
                for chunk in (512, 1024, 8192):
                    r = step_decay_sgd(p, np.array([1e308]), [1.0], [3], [0], 0.0, 4.5e307, None, 8192, 0,
                                       chunk_runs=chunk, track_from=np.zeros(1), box=box)
                    got.add(r.max_dist)
            finally:
                sim_set_fused(None)
    assert got == {np.inf}
