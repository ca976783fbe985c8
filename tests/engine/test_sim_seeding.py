"""The kernels' seeding equals NumPy's: ``SeedSequence`` -> ``SFC64`` block states, and ``PCG64``
streams with their bounded integers (step-decay's output indices), for every seed size and index.

:func:`draws.sfc64_block_states` and :func:`draws.pcg64_block_integers` compute in one compiled
call what ``np.random.SeedSequence``, ``SFC64``, ``PCG64`` and ``Generator.integers`` compute per
block in Python; a simulation must draw the same numbers either way.
"""
import numpy as np
import pytest

from dpverify.sim import block_rng, draws
from dpverify.sim.fused import block_states
from dpverify.sim.rng import sfc64_state
from dpverify.sim.step_decay import output_rng

pytestmark = pytest.mark.skipif(not draws.numba_available(), reason="numba not installed")

# one, two, three and five 32-bit words; zero; words at the edges of their range
SEEDS = [0, 1, 12345, 2**32 - 1, 2**32, 2**63 + 11, 2**64 - 1, 2**96 + 2**33 + 7, 2**130 + 5]


@pytest.mark.parametrize("seed", SEEDS)
@pytest.mark.parametrize("child", [None, 0, 1, 2**32 - 1])
def test_block_states_equal_numpy_for_every_seed_size_block_and_child(seed, child):
    for b0, b1 in ((0, 3), (1023, 1026), (2**32 - 2, 2**32)):
        got = np.empty((b1 - b0, 4), dtype=np.uint64)
        draws.sfc64_block_states(draws.seed_entropy(seed), b0, b1, -1 if child is None else child, got)
        want = np.stack([sfc64_state(block_rng(seed, b, child)) for b in range(b0, b1)])
        assert np.array_equal(got, want), (seed, child, b0)


def test_the_simulators_block_states_take_the_compiled_path_and_numpys_beyond_it():
    # within 32-bit indices: the compiled path, the same states as NumPy's generators
    assert np.array_equal(block_states(99, 5, 9, child=0),
                          np.stack([sfc64_state(block_rng(99, b, 0)) for b in range(5, 9)]))
    # a block index past 2**32 - 1 takes two words of the spawn key: NumPy's own path, still equal
    states = block_states(99, 2**32 - 1, 2**32 + 1)
    assert np.array_equal(states, np.stack([sfc64_state(block_rng(99, b)) for b in (2**32 - 1, 2**32)]))


@pytest.mark.parametrize("seed", SEEDS)
def test_pcg64_integers_equal_output_rng_draws_phase_after_phase(seed):
    # spans: no draw (0), one bit, odd ranges, and 2**31 + 3, where about half the draws are rejected;
    # the buffered 32-bit half carries over from one phase to the next, as in one Generator
    lows = np.array([1, 0, 1, 0, 1], dtype=np.int64)
    spans = np.array([49, 0, 1, 2**31 + 3, 6], dtype=np.int64)
    rows = np.array([1024, 3, 1, 700], dtype=np.int64)
    got = np.empty((len(lows), int(rows.sum())), dtype=np.int64)
    draws.pcg64_block_integers(draws.seed_entropy(seed), 40, 1, lows, spans, rows, got)
    off = 0
    for i, n in enumerate(rows):
        rng = output_rng(seed, 40 + i)
        for k in range(len(lows)):
            want = rng.integers(lows[k], lows[k] + spans[k] + 1, size=int(n))
            assert np.array_equal(got[k, off:off + n], want), (seed, i, k)
        off += n


def test_seed_entropy_is_numpys_word_split_padded_to_the_pool():
    assert draws.seed_entropy(0).tolist() == [0, 0, 0, 0]
    assert draws.seed_entropy(2**32 + 5).tolist() == [5, 1, 0, 0]
    assert draws.seed_entropy(2**130 + 5).tolist() == [5, 0, 0, 0, 4]
    assert draws.seed_entropy(7).dtype == np.uint32


@pytest.mark.parametrize("output", ["after", "before", "last"])
def test_step_decay_output_indices_are_the_numpy_paths(output):
    """The fused step-decay path, whose output indices now come from the compiled PCG64, returns the
    NumPy path's outputs bit for bit (a run's output index decides which iterate it returns)."""
    from dpverify.sim import set_fused
    from dpverify.sim import SeparableLoss, step_decay_sgd

    rng = np.random.default_rng(3)
    a = rng.standard_normal((20, 2))
    p = SeparableLoss("quadratic", (1.5,), np.zeros(2), a - a.mean(axis=0))
    args = (p, np.ones(2), [0.2, 0.1, 0.05], [7, 1, 13], [2, 0, 3], 0.5, 0.3, None, 2500, 2**40 + 9)
    fused = step_decay_sgd(*args, output=output, return_outputs=True, chunk_runs=1024)
    set_fused(False)
    try:
        ref = step_decay_sgd(*args, output=output, return_outputs=True)
    finally:
        set_fused(None)
    assert np.array_equal(fused.outputs, ref.outputs)
    assert fused.mean == ref.mean


def test_seed_entropy_refuses_what_numpy_refuses():
    for bad in (-1, 2.5):
        with pytest.raises(ValueError, match="seed"):
            draws.seed_entropy(bad)


def test_the_compiled_seeding_is_the_path_taken(monkeypatch):
    """The simulators call the compiled functions (a spy counts the calls), so the equalities above
    are about the numbers the simulations use, not about a path they bypass."""
    from dpverify.sim import SeparableLoss, step_decay_sgd

    calls = {"sfc64": 0, "pcg64": 0}
    sfc, pcg = draws.sfc64_block_states, draws.pcg64_block_integers

    def spy_sfc(*a):
        calls["sfc64"] += 1
        return sfc(*a)

    def spy_pcg(*a):
        calls["pcg64"] += 1
        return pcg(*a)

    monkeypatch.setattr(draws, "sfc64_block_states", spy_sfc)
    monkeypatch.setattr(draws, "pcg64_block_integers", spy_pcg)
    a = np.random.default_rng(0).standard_normal((10, 2))
    p = SeparableLoss("quadratic", (1.0,), np.zeros(2), a - a.mean(axis=0))
    step_decay_sgd(p, np.ones(2), [0.1], [5], [1], 0.5, 0.3, None, 3000, 1)
    assert calls["sfc64"] >= 1 and calls["pcg64"] >= 1, calls


@pytest.mark.parametrize("b0", [2**32 - 2, 2**32 - 1])
def test_step_decay_blocks_at_the_32_bit_edge_equal_the_numpy_path(b0):
    """Blocks ``2**32 - 2 .. 2**32 - 1`` take the compiled seeding; a task reaching block ``2**32``
    (a two-word spawn key) takes NumPy's. Either way the task's outputs equal the NumPy path's."""
    from dpverify.sim.rng import BLOCK
    from dpverify.sim import SeparableLoss
    from dpverify.sim.step_decay import _check_common, _fused_phases, _phase_kernel

    a = np.random.default_rng(1).standard_normal((10, 2))
    p = SeparableLoss("quadratic", (1.0,), np.zeros(2), a - a.mean(axis=0))
    theta0, etas, lengths, mons, rho, s, batch, output = _check_common(
        p, np.ones(2), [0.2, 0.1], [4, 6], [1, 2], 0.5, 0.3, None, "after")
    task = _fused_phases([p], theta0, etas, lengths, mons, rho, s, batch, output, 77, None, False)
    start, stop = b0 * BLOCK, (b0 + 2) * BLOCK
    outs = np.empty((1, stop - start, 2))
    task(b0, b0 + 2, start, stop, outs)
    ref = np.empty((stop - start, 2))
    ref[...] = theta0
    _phase_kernel([p], [ref], etas, lengths, mons, rho, s, batch, output, 77, start, [b0, b0 + 1], None)
    assert np.array_equal(outs[0], ref)
