"""Chunk-invariant random number generation for Monte Carlo runs.

Runs are grouped in fixed *blocks* of :data:`BLOCK` consecutive runs.  Block
``b`` (runs ``b*BLOCK`` .. ``(b+1)*BLOCK - 1``) draws all of its noise, step
after step, from its own generator :func:`block_rng` ``(seed, b)``.  A
simulation may process any number of whole blocks at a time (a *chunk*, see
:func:`iter_chunks`), but the draws of a block never depend on which other
blocks share its chunk.  Per-run statistics are reduced per block, and the
block sums are combined in block order with :func:`math.fsum`
(:func:`combine_blocks`), so every simulation result is bit-identical
whatever ``chunk_runs`` is.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Iterator

import numpy as np

from ._validate import check_int, check_seed

__all__ = ["BLOCK", "block_rng", "iter_chunks", "block_slices", "n_blocks", "combine_blocks"]

#: Number of Monte Carlo runs sharing one random generator.
BLOCK = 1024


def block_rng(seed: int, block: int) -> np.random.Generator:
    """Return the generator of block *block* for master seed *seed*.

    Parameters
    ----------
    seed : int
        Non-negative master seed of the simulation.
    block : int
        Non-negative block index; block ``b`` holds runs
        ``b*BLOCK .. (b+1)*BLOCK - 1``.

    Returns
    -------
    numpy.random.Generator
        A PCG64 generator seeded by ``SeedSequence(seed, spawn_key=(block,))``,
        i.e. the ``block``-th child of ``SeedSequence(seed)``.
    """
    seed = check_seed(seed)
    block = check_int("block", block, minimum=0)
    return np.random.Generator(np.random.PCG64(np.random.SeedSequence(seed, spawn_key=(block,))))


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


def combine_blocks(block_values: Iterable[float]) -> float:
    """Combine per-block partial sums, given in block order, with ``math.fsum``.

    ``math.fsum`` is exactly rounded, so the result depends only on the
    multiset of block values, not on how they were grouped into chunks.
    """
    return math.fsum(block_values)
