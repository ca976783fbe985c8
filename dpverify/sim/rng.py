"""Chunk- and worker-invariant random number generation for Monte Carlo runs.

Runs are grouped in fixed *blocks* of :data:`BLOCK` consecutive runs.  Block
``b`` (runs ``b*BLOCK`` .. ``(b+1)*BLOCK - 1``) draws all of its noise, step
after step, from its own generator :func:`block_rng` ``(seed, b)``.  A
simulation may process any number of whole blocks at a time (a *chunk*, see
:func:`iter_chunks`) on any worker thread, but the draws of a block never
depend on which other blocks share its chunk or its worker.  Per-run
statistics are reduced per block, and the block sums are combined in block
order with :func:`math.fsum` (:class:`~dpverify.sim.results.MCResult`), so every simulation
result is bit-identical whatever ``chunk_runs`` and ``workers`` are.

Generator
---------
Every block generator is NumPy's ``SFC64`` seeded by the block's child of
``SeedSequence(seed)``.  ``SFC64`` is the fastest float64 normal source among
NumPy's bit generators on the machines we measured (``PCG64``, ``PCG64DXSM``,
``Philox``, ``MT19937``; see ``benchmarks/simulator.py``), and its state is
four 64-bit words, small enough to live in registers inside the fused kernels
of :mod:`dpverify.sim.draws`.  Those kernels advance the same state with the
same algorithm, so a block's noise is the same value for value whether NumPy
(``Generator.standard_normal``) or a fused kernel draws it.  (Up to version
0.1 the generator was ``PCG64``: the same seed gave different numbers.)
"""

from __future__ import annotations

from collections.abc import Iterator

import numpy as np

from .validation import check_int, check_seed

__all__ = ["BLOCK", "block_rng", "index_rng", "sfc64_state", "iter_chunks", "block_slices", "n_blocks"]

#: Number of Monte Carlo runs sharing one random generator.
BLOCK = 1024


def block_rng(seed: int, block: int, child: int | None = None) -> np.random.Generator:
    """Return the generator of block *block* for master seed *seed*.

    The one place where the simulator makes random generators.

    Parameters
    ----------
    seed : int
        Non-negative master seed of the simulation.
    block : int
        Non-negative block index; block ``b`` holds runs
        ``b*BLOCK .. (b+1)*BLOCK - 1``.
    child : int, optional
        ``None`` (default) for the block's main stream (the noise); an index
        ``j >= 0`` for the block's ``j``-th auxiliary stream (e.g. the
        mini-batch indices of SGD), independent of the main one.

    Returns
    -------
    numpy.random.Generator
        An ``SFC64`` generator seeded by
        ``SeedSequence(seed, spawn_key=(block,))`` -- the ``block``-th child
        of ``SeedSequence(seed)`` -- or, with *child*, by
        ``SeedSequence(seed, spawn_key=(block, child))``, a child of that.
    """
    seed = check_seed(seed)
    block = check_int("block", block, minimum=0)
    key = (block,) if child is None else (block, check_int("child", child, minimum=0))
    return np.random.Generator(np.random.SFC64(np.random.SeedSequence(seed, spawn_key=key)))


def index_rng(seed: int, block: int) -> np.random.Generator:
    """Generator of the mini-batch indices of block *block*.

    ``block_rng(seed, block, child=0)``: an SFC64 generator seeded by
    ``SeedSequence(seed, spawn_key=(block, 0))``, the first child of the ``SeedSequence`` behind
    :func:`block_rng` ``(seed, block)``; independent of the privacy-noise stream.
    """
    return block_rng(seed, block, child=0)


def sfc64_state(rng: np.random.Generator) -> np.ndarray:
    """The four 64-bit state words ``(a, b, c, counter)`` of an ``SFC64`` generator.

    Raises ``ValueError`` if *rng* is not an ``SFC64`` generator, or if it holds
    a buffered 32-bit half (fused kernels start from whole 64-bit draws).
    """
    state = rng.bit_generator.state
    if state.get("bit_generator") != "SFC64":
        raise ValueError(f"rng must be an SFC64 generator, got {state.get('bit_generator')!r}")
    if state.get("has_uint32"):
        raise ValueError("rng must not hold a buffered 32-bit value, got has_uint32=1")
    return np.array(state["state"]["state"], dtype=np.uint64)


def n_blocks(runs: int) -> int:
    """Return the number of blocks covering *runs* runs (the last may be partial)."""
    runs = check_int("runs", runs)
    return -(-runs // BLOCK)


def _round_chunk(chunk_runs: int) -> int:
    """Round *chunk_runs* up to a positive multiple of :data:`BLOCK`."""
    chunk_runs = check_int("chunk_runs", chunk_runs)
    return -(-chunk_runs // BLOCK) * BLOCK


def iter_chunks(runs: int, chunk_runs: int) -> Iterator[tuple[int, int, list[int]]]:
    """Split ``range(runs)`` into chunks of whole blocks.

    Parameters
    ----------
    runs : int
        Total number of Monte Carlo runs (positive).
    chunk_runs : int
        Requested chunk size; rounded **up** to a multiple of :data:`BLOCK`.

    Yields
    ------
    start, stop : int
        The chunk covers runs ``start .. stop - 1``.
    blocks : list of int
        Indices of the blocks in the chunk, in increasing order.
    """
    runs = check_int("runs", runs)
    size = _round_chunk(chunk_runs)
    for start in range(0, runs, size):
        stop = min(start + size, runs)
        yield start, stop, list(range(start // BLOCK, -(-stop // BLOCK)))


def block_slices(start: int, stop: int) -> list[slice]:
    """Return the block slices of a chunk, relative to the chunk start.

    ``start`` must be a multiple of :data:`BLOCK` (as produced by
    :func:`iter_chunks`).
    """
    if start % BLOCK:
        raise ValueError(f"start must be a multiple of BLOCK={BLOCK}, got {start!r}")
    return [slice(lo - start, min(lo + BLOCK, stop) - start) for lo in range(start, stop, BLOCK)]
