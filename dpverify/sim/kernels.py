"""Fused per-block simulation kernels (numba), with their random number source.

Why
---
A NumPy simulation of noisy gradient descent pays one ufunc call per array
operation and writes every noise draw to memory before using it; for small
``D`` the per-call overhead dominates.  The kernels here run all ``T`` steps of
a *task* (a few consecutive blocks of :data:`~dpverify.sim.rng.BLOCK` runs) in
one compiled loop that releases the GIL, so the worker threads of
:mod:`dpverify.sim.parallel` use every core, and no noise array is ever
materialised: each draw is used while still in registers or in L1 (the
quadratic kernels draw ~512 values into a small buffer, then apply a
vectorised update to those coordinates).

Random numbers
--------------
Block ``b`` draws from ``block_rng(seed, b)``, an ``SFC64`` generator.  The
kernels take its four state words (:func:`~dpverify.sim.rng.sfc64_state`) and
advance them in local variables with the SFC64 algorithm; standard normals use
the same 256-layer ziggurat as NumPy's ``Generator.standard_normal`` (same
tables, same use of the bits, same tail and wedge rejection steps), and
mini-batch indices the same bounded-integer rejection method as NumPy's
``Generator.integers`` for ranges below ``2**32`` (32-bit halves of each 64-bit
draw, low half first).  So a kernel sees exactly the values NumPy would draw
from the same generator, in the same order: step ``t``, then run, then
coordinate (``(rows, D)`` per step and block, as the NumPy paths draw them).
The block states themselves (``SeedSequence`` -> ``SFC64``) are computed here
too, for every block of a task in one call (:func:`sfc64_block_states`), and so
are step-decay's output indices, drawn by NumPy from a ``PCG64`` stream per block
(:func:`pcg64_block_integers`: the 128-bit LCG in 64-bit halves): in Python each
generator cost 9-19 us (with its ``Generator.integers`` calls, 36 us a block of
step-decay's output indices), a tenth of what the kernels spend on a block's draws.
:func:`self_check` verifies all this at first use; if it ever fails (e.g. a
NumPy release changes its algorithms) the fused path is switched off with a
warning and the NumPy paths run.

Kernels
-------
``quadratic_delta``   noisy GD on a diagonal quadratic,
                      ``delta_{t+1} = a_t * delta_t - c_t z_t`` with
                      ``a_t = 1 - eta_t * eigs`` and ``c_t = eta_t s_t``
                      (``delta = theta - theta*``); per-run excess risk fused.
``quadratic_theta``   ``K >= 1`` diagonal quadratics sharing the noise, in the
                      form ``theta <- theta - eta_t m`` with
                      ``g = s_t z + eigs (theta - theta*)``, plain (``m = g``)
                      or with bias-corrected momentum
                      (``v <- beta v + (1 - beta) g``, ``m = v / (1 - beta^t)``).
``linear_gd``         the same two updates for ``K >= 1`` linear models
                      (least squares, logistic, linear loss; L2 ridge;
                      optional per-sample clipping) with full-batch gradients.
``linear_sgd``        mini-batch SGD on one linear model: every step each run
                      draws ``batch`` sample indices uniformly with replacement
                      from its block's second stream (``block_rng(seed, b,
                      child=0)``), then the update of ``linear_gd`` with the
                      mini-batch gradient.
``random_round_quadratic``  random-round noisy GD on a diagonal quadratic: each run
                      draws its round ``R`` first, then stops updating after ``R`` steps
                      (its noise is still drawn).
``step_decay_separable``  step-decay SGD with early momentum on ``P`` separable losses
                      sharing the draws (full gradients or Floyd mini-batches; output
                      indices drawn by the caller, the runs grouped by them once a phase so
                      that each step copies only its picked rows); one compiled variant per
                      loss shape, and inside it one loop per combination of the terms the
                      gradient has.
``adaptive_quadratic``  noisy GD on a diagonal quadratic (or a separable cosine sum) whose noise
                      level is a schedule or proportional to each run's gradient norm (a declared rule).
``adaptive_linear``   the same on a logistic or least-squares model (full-batch gradients in BLAS's
                      order of summation).
``gated_ls1``         gated SGD (one sample a step, noise unless an influence test passes) on
                      one-dimensional least squares, the steps of one round.
``gated_ls``          the same on least squares in 2..``GATED_MAX_DIM`` dimensions.

Loops over a slice indexed from 0 (``seg = th[j0:j0 + m]``, ``for j in range(m)``) vectorise; the
same loop indexing ``th[j0 + j]`` with an offset numba cannot prove non-negative keeps a
negative-index wrap per access and does not (measured: the adaptive kernel's square roots ran
4x slower).

Every kernel has the same calling convention: ``states`` (``(nb, 4)`` uint64,
one row per block of the task, updated in place), ``n`` (runs of the task;
block ``i`` holds rows ``i*BLOCK .. min(n, (i+1)*BLOCK) - 1``), the
algorithm's parameters, and output arrays for the final iterates (and, where
fused, the per-run statistic).  Within a block the loops run step, run,
coordinate; a block's state stays in cache for all ``T`` steps.  The hot loop
over one block's steps lives in its own ``@njit`` function (e.g.
``_quadratic_delta_block``) taking and returning the generator state, so that
LLVM optimises it in isolation (measurably faster than inlining it into the
loop over blocks).  For the same reason a buffer of normals is drawn by
``_fill_scaled`` (``_fill_rows_scaled`` with a level per row), which is kept out
of line in every kernel (see the comment above it): draw with it rather than
with a loop of ``_normal`` calls inside a large kernel.

Adding an algorithm
-------------------
A new algorithm is one more kernel with that convention, plus a few lines in
the Python simulator that builds its arguments and calls
``_run_mc``/``ordered_map`` (see :func:`dpverify.sim.algorithms.pgd`).  Inside
the kernel, per block ``i``: load ``a, b, c, k = states[i]``; draw normals with
``z, a, b, c, k = _normal(a, b, c, k)`` (and indices with ``_index``) in the
order the NumPy reference path draws them; store the state back.  Then add it
to :data:`dpverify.sim.algorithms.FUSED_PATHS` (the benchmark prints that) and
test it like the others (``tests/engine/test_sim_fused.py``: bit-identity over
``workers`` and ``chunk_runs``, agreement with the NumPy path, ``sigma = 0``
against a reference loop).  Examples:

* *random stopping* (each run stops at its own round ``tau``): draw ``tau`` per
  run from a child stream at the start, keep drawing the noise of stopped runs
  (so the stream stays aligned with the NumPy path) but stop updating them;
* *output perturbation*: run the noiseless iteration, then draw one ``D``-vector
  of normals per run and add it to the final iterate;
* *stagewise momentum with halving steps*: already expressible as a step-size
  schedule ``etas`` (halve ``eta_t`` at each stage) for ``quadratic_theta``
  or ``linear_gd``; a stage-dependent ``beta`` is one more ``(T,)`` argument.

Why one module; the per-sample gradient
---------------------------------------
The kernels share the generator (``_normal``, ``_index``), the loss
derivatives, the momentum update and the (clipped) per-sample gradient sum of
a linear model (``_per_sample_sum``: all samples for ``linear_gd``, a drawn
mini-batch for ``linear_sgd``), and numba compiles what one kernel calls
together with it, so they live in one module.  The two linear kernels run each
block in a function compiled without reference counting (``_nrt=False``; it
allocates nothing): an inlined helper taking arrays costs, in a kernel with
reference counting, one atomic increment and decrement per array and call, in
the innermost loop (10-60 % with small batches).

Without numba
-------------
If numba is not installed (or :func:`set_fused` ``(False)`` / the environment
variable ``DPVERIFY_FUSED=0``), :func:`fused_enabled` is ``False`` and every
simulator runs its NumPy path with the same noise.  See
:mod:`dpverify.sim.algorithms` for which results are bit-identical between the
two paths and which agree to rounding.
"""

from __future__ import annotations

import os
import warnings

import numpy as np

from .rng import BLOCK

__all__ = ["numba_available", "fused_enabled", "set_fused", "self_check", "chunk_width"]


def chunk_width(dim: int) -> int:
    """Values per chunk of the quadratic kernels: whole rows, about 512 values."""
    return dim * max(1, 512 // dim)


try:  # pragma: no cover - exercised by the environment, not by a test branch
    import numba
    import numba.extending
    from numba import int64, uint32, uint64
    from numba.np.random._constants import (fi_double, ki_double, wi_double, ziggurat_nor_inv_r,
                                            ziggurat_nor_r)
except Exception:  # noqa: BLE001 - any failure means: no fused path
    numba = None

_FUSED: bool | None = None        # set_fused() override
_CHECKED: bool | None = None      # result of self_check()


def numba_available() -> bool:
    """Whether numba (with the ziggurat tables the kernels need) could be imported."""
    return numba is not None


def set_fused(enabled: bool | None) -> None:
    """Force the fused kernels on (``True``, if numba is available) or off (``False``).

    ``None`` restores the default: on when numba is available, unless the
    environment variable ``DPVERIFY_FUSED`` is ``0``.
    """
    global _FUSED
    if enabled is not None and not isinstance(enabled, bool):
        raise ValueError(f"enabled must be True, False or None, got {enabled!r}")
    _FUSED = enabled


def fused_enabled() -> bool:
    """Whether the simulators use the fused kernels (numba present, check passed, not disabled)."""
    if numba is None:
        return False
    if _FUSED is False:
        return False
    if _FUSED is None and os.environ.get("DPVERIFY_FUSED", "").strip() == "0":
        return False
    return self_check()


# --------------------------------------------------------------------------- #
# Kernels (defined only when numba is importable)
# --------------------------------------------------------------------------- #

def _cache_dir() -> str:
    """Where numba caches the compiled kernels (outside the source tree).

    ``DPVERIFY_NUMBA_CACHE`` if set, else ``$XDG_CACHE_HOME/dpverify/numba``
    (``~/.cache/dpverify/numba``).  A ``NUMBA_CACHE_DIR`` set by the user takes
    precedence (numba's own setting).  If the directory cannot be written,
    numba falls back to its default locations.  Inside it the kernels live in a
    folder named by the content of their sources (:func:`_source_key`), not by
    the checkout's path: see :class:`_ContentKeyedLocator`.
    """
    env = os.environ.get("DPVERIFY_NUMBA_CACHE", "").strip()
    if env:
        return env
    base = os.environ.get("XDG_CACHE_HOME", "").strip() or os.path.join(
        os.path.expanduser("~"), ".cache")
    return os.path.join(base, "dpverify", "numba")


def seed_entropy(seed: int) -> np.ndarray:
    """The 32-bit words ``SeedSequence(seed, spawn_key=...)`` mixes first: the non-negative integer
    *seed*'s words, lowest first (``[0]`` for 0), padded with zeros to the pool size of 4 (NumPy pads
    them so when there is a spawn key).  The argument of :func:`sfc64_block_states` and
    :func:`pcg64_block_integers`."""
    n = int(seed)
    if n < 0 or n != seed:
        raise ValueError(f"seed must be a non-negative integer, got {seed!r}")
    words = [0] if n == 0 else []
    while n > 0:
        words.append(n & 0xFFFFFFFF)
        n >>= 32
    words += [0] * (4 - len(words))
    return np.array(words, dtype=np.uint32)


_SOURCE_KEY: str | None = None


def _source_key() -> str:
    """A name for the compiled kernels made of what they are compiled from: the SHA-256 of this
    module's source and of :mod:`.rng`'s (whose ``BLOCK`` the kernels freeze as a constant), the
    numba and NumPy versions, and this module's import name.  Two checkouts with the same sources
    share one compiled copy; a change to either file, or another numba or NumPy, compiles afresh.

    The import name is part of it because numba's cached code names the module whose globals it
    uses and imports it by that name when loaded: a copy of the package imported under another
    name (vendored, or copied for an A/B timing) would otherwise load the other's kernels and fail
    with ``ModuleNotFoundError``, or silently run the other copy's module."""
    global _SOURCE_KEY
    if _SOURCE_KEY is None:
        import hashlib

        h = hashlib.sha256()
        here = os.path.dirname(os.path.abspath(__file__))
        for name in ("kernels.py", "rng.py"):
            with open(os.path.join(here, name), "rb") as f:
                h.update(f.read())
        h.update(f"numba {numba.__version__} numpy {np.__version__} module {__name__}".encode())
        _SOURCE_KEY = "kernels_" + h.hexdigest()[:40]
    return _SOURCE_KEY


if numba is not None:
    from numba.core import caching as _caching

    # numba's locator for a user-given folder: public under this name in the releases that let a
    # locator be named (``CACHE_LOCATOR_CLASSES``; 0.68 here); older ones call it
    # ``_UserProvidedCacheLocator`` and keep their path-keyed folders (``_compiled`` names no locator).
    _LOCATOR_BASE = getattr(_caching, "UserProvidedCacheLocator", None) or getattr(
        _caching, "_UserProvidedCacheLocator", object)

    class _ContentKeyedLocator(_LOCATOR_BASE):
        """numba's cache locator for a user-given cache folder, with the kernels' subfolder named by
        :func:`_source_key` instead of by the hash of the source file's path.

        numba's own locators put a file's compiled functions in a folder named after the file's
        absolute path, so every fresh clone, copy or virtual environment of dpverify compiled every
        kernel again (about 70 s of CPU for all of them) although the code was the same. Inside the
        folder numba's index still checks its own version, the function's signature, the machine's
        CPU and the source file's stamp; the stamp here is the content key (numba 0.68's is a hash of
        the file; a modification time, which a clone does not keep, would not do)."""

        def __init__(self, py_func, py_file):
            super().__init__(py_func, py_file)
            self._cache_path = os.path.join(numba.config.CACHE_DIR, _source_key())

        def get_source_stamp(self):
            return _source_key()

    def _compiled(**options):
        """``numba.njit(cache=True, **options)`` caching under :func:`_cache_dir`, in the folder of
        :class:`_ContentKeyedLocator` where this numba lets a locator be named
        (``numba.config.CACHE_LOCATOR_CLASSES``) and the user named none; numba's path-keyed folders
        otherwise."""
        def decorate(fn):
            saved = numba.config.CACHE_DIR
            saved_loc = getattr(numba.config, "CACHE_LOCATOR_CLASSES", None)
            if not saved:
                numba.config.CACHE_DIR = _cache_dir()
            if saved_loc == "" and hasattr(_caching, "UserProvidedCacheLocator"):
                numba.config.CACHE_LOCATOR_CLASSES = f"{__name__}._ContentKeyedLocator"
            try:
                return numba.njit(cache=True, **options)(fn)
            finally:
                numba.config.CACHE_DIR = saved
                if saved_loc is not None:
                    numba.config.CACHE_LOCATOR_CLASSES = saved_loc
        return decorate

    _jit = _compiled(nogil=True)
    _inline = _compiled(inline="always")
    # Hot loops that only read and write arrays given to them: no reference counting.
    _borrow = _compiled(nogil=True, _nrt=False)

    _WI = np.ascontiguousarray(wi_double, dtype=np.float64)
    _KI = np.ascontiguousarray(ki_double, dtype=np.uint64)
    _FI = np.ascontiguousarray(fi_double, dtype=np.float64)
    _ZIG_R = float(ziggurat_nor_r)
    _ZIG_INV_R = float(ziggurat_nor_inv_r)
    _MASK52 = np.uint64(0x000FFFFFFFFFFFFF)
    _MASK32 = np.uint64(0xFFFFFFFF)
    _TO_UNIT = 1.0 / 9007199254740992.0  # 2**-53
    _TINY = float(np.finfo(np.float64).tiny)
    _BLOCK = int(BLOCK)

    # -- SFC64 ------------------------------------------------------------
    @_inline
    def _next(a, b, c, k):
        """One SFC64 step: returns ``(output, a, b, c, counter)``."""
        out = a + b + k
        return (out, b ^ (b >> uint64(11)), c + (c << uint64(3)),
                ((c << uint64(24)) | (c >> uint64(40))) + out, k + uint64(1))

    @_inline
    def _unit(u):
        """float64 in [0, 1) from a 64-bit draw (top 53 bits), as NumPy's next_double."""
        return float(u >> uint64(11)) * _TO_UNIT

    # -- standard normal: 256-layer ziggurat ---------------------------------
    @_inline
    def _layer(r0):
        """One 64-bit draw read as a ziggurat candidate: ``(x, layer, |r|, accepted at once)``."""
        idx = int64(r0 & uint64(0xFF))
        r = r0 >> uint64(8)
        rabs = (r >> uint64(1)) & _MASK52
        x = float(rabs) * _WI[idx]
        if r & uint64(1):
            x = -x
        return x, idx, rabs, rabs < _KI[idx]

    @_jit
    def _normal_rare(r0, a, b, c, k):
        """Rejection branch of :func:`_normal`, entered with the rejected draw *r0*."""
        while True:
            x, idx, rabs, accepted = _layer(r0)
            if accepted:
                return x, a, b, c, k
            if idx == 0:                       # tail beyond the base layer
                while True:
                    u, a, b, c, k = _next(a, b, c, k)
                    xx = -_ZIG_INV_R * np.log1p(-_unit(u))
                    u, a, b, c, k = _next(a, b, c, k)
                    yy = -np.log1p(-_unit(u))
                    if yy + yy > xx * xx:
                        if (rabs >> uint64(8)) & uint64(1):
                            return -(_ZIG_R + xx), a, b, c, k
                        return _ZIG_R + xx, a, b, c, k
            else:                              # wedge
                u, a, b, c, k = _next(a, b, c, k)
                if (_FI[idx - 1] - _FI[idx]) * _unit(u) + _FI[idx] < np.exp(-0.5 * x * x):
                    return x, a, b, c, k
            r0, a, b, c, k = _next(a, b, c, k)

    # The draw loops below are compiled as functions of their own, never inlined into a kernel: LLVM
    # does not inline a function that calls itself, hence the self-call on a branch never taken (numba
    # has no ``noinline``).  Inlined into a large kernel, the loop lost registers to the kernel around
    # it and reloaded its pointers on every draw; on its own it keeps the generator state, the buffer
    # and the scale in registers, as the fill limit's loop does.  The kernels calling them run 5-7 %
    # faster (A/B, one thread, CPU), with the same draws in the same order.  They allocate nothing, so
    # they are compiled without reference counting, like the kernels' block loops.
    @_borrow
    def _fill_scaled(buf, m, scale, a, b, c, k):
        """``buf[:m]`` = ``scale`` times standard normals (``scale = 1`` is exact: ``z * 1.0 == z``)."""
        if m < 0:                              # never: keeps the loop out of its callers (above)
            return _fill_scaled(buf, -m, scale, a, b, c, k)
        for j in range(m):
            z, a, b, c, k = _normal(a, b, c, k)
            buf[j] = z * scale
        return a, b, c, k

    @_borrow
    def _fill_rows_scaled(buf, rows, D, levels, a, b, c, k):
        """``buf[r D + d]`` = ``levels[r]`` times a standard normal, ``r < rows``, ``d < D`` (row-major)."""
        if rows < 0:                           # never: keeps the loop out of its callers (above)
            return _fill_rows_scaled(buf, -rows, D, levels, a, b, c, k)
        for r in range(rows):
            sv = levels[r]
            for d in range(D):
                z, a, b, c, k = _normal(a, b, c, k)
                buf[r * D + d] = z * sv
        return a, b, c, k

    @_borrow
    def _fill_rows_rooted(buf, rows, D, sq, nt, a, b, c, k):
        """:func:`_fill_rows_scaled` with the levels ``nt * sqrt(sq[r])`` computed as each row's normals
        are drawn: for ``D >= 2`` the root then costs nothing (the draws leave the floating-point units
        idle), where a pass of its own cost 6 %; with one normal a row the pass (four roots an
        instruction) is faster (1.24 times slower here)."""
        if rows < 0:                           # never: keeps the loop out of its callers (above)
            return _fill_rows_rooted(buf, -rows, D, sq, nt, a, b, c, k)
        for r in range(rows):
            sv = nt * np.sqrt(sq[r])
            for d in range(D):
                z, a, b, c, k = _normal(a, b, c, k)
                buf[r * D + d] = z * sv
        return a, b, c, k

    #: the bits of 1e300, less one
    _BELOW_1E300 = np.uint64(np.float64(1e300).view(np.uint64) - np.uint64(1))

    @_inline
    def _levels_surely_finite(sq_bits, nt):
        """Whether every level ``nt * sqrt(q)`` of the rows' ``q = ||g||^2`` (``sq_bits``: their bits, a
        ``uint64`` view) is surely finite and ``>= 0``: ``0 <= nt < 1e150`` and every ``q`` in ``[+0, 1e300)``
        (then ``sqrt(q) < 1e150``, the product below 1e300).  ``q`` is in that range when its bits
        ``u`` are below those of 1e300, i.e. neither ``u`` (a sign bit: -0.0, a negative NaN) nor
        ``(bits of 1e300) - 1 - u`` (wrapping: ``u`` at or above 1e300, inf, a NaN) has its top bit
        set: an OR of integers over the rows vectorises, where a float maximum would not (NaN)
        and an unsigned one did not.  ``False`` does not mean a bad level: :func:`_bad_row_level`
        then looks at each."""
        if not (nt >= 0.0 and nt < 1e150):
            return False
        acc = uint64(0)
        for r in range(sq_bits.shape[0]):
            u = sq_bits[r]
            acc |= u | (_BELOW_1E300 - u)
        return (acc >> uint64(63)) == uint64(0)

    @_inline
    def _normal(a, b, c, k):
        """One standard normal: returns ``(z, a, b, c, counter)``."""
        r0, a, b, c, k = _next(a, b, c, k)
        x, _, _, accepted = _layer(r0)
        if accepted:
            return x, a, b, c, k
        return _normal_rare(r0, a, b, c, k)

    # -- bounded integers (ranges below 2**32) -------------------------------
    @_inline
    def _next32(a, b, c, k, has, buf):
        """32-bit draw, low half of a 64-bit draw first (NumPy's buffered next_uint32)."""
        if has:
            return buf, a, b, c, k, False, buf
        u, a, b, c, k = _next(a, b, c, k)
        return u & _MASK32, a, b, c, k, True, u >> uint64(32)

    @_inline
    def _lemire(u, hi):
        """One try of Lemire's method (NumPy's bounded 32-bit draws) with the 32-bit draw ``u`` for ``[0, hi]``:
        ``(accepted, value)``; the rejection threshold is computed only when the product's low word is
        below ``hi + 1``, as NumPy computes it."""
        excl = hi + uint64(1)
        m = u * excl
        left = m & _MASK32
        return left >= excl or left >= (_MASK32 - hi) % excl, int64(m >> uint64(32))

    @_inline
    def _index(a, b, c, k, has, buf, hi):
        """Uniform integer in ``[0, hi]`` (``hi < 2**32 - 1``), Lemire's rejection method."""
        if hi == uint64(0):
            return int64(0), a, b, c, k, has, buf
        while True:
            u, a, b, c, k, has, buf = _next32(a, b, c, k, has, buf)
            ok, v = _lemire(u, hi)
            if ok:
                return v, a, b, c, k, has, buf

    # -- seeding: SeedSequence, and the SFC64 and PCG64 states it seeds ------------
    # The simulators' generators are NumPy's, seeded by ``SeedSequence(seed, spawn_key=key)``: built in
    # Python, that costs 9-19 us a generator (a block's noise stream, its index stream, step-decay's
    # output indices), and the GIL is handed over around each call.  The functions here compute the same
    # states from the seed's 32-bit words, for every block of a task in one call; :func:`self_check`
    # compares them with NumPy's before any is used.  Only single-word spawn-key entries (block and
    # child indices below 2**32) are handled here; the callers fall back to NumPy beyond.
    _SS_INIT_A = uint32(0x43B0D7E5)
    _SS_MULT_A = uint32(0x931E8875)
    _SS_INIT_B = uint32(0x8B51F9DD)
    _SS_MULT_B = uint32(0x58F38DED)
    _SS_MIX_L = uint32(0xCA01F9DD)
    _SS_MIX_R = uint32(0x4973F715)
    _SS_POOL = 4

    @_inline
    def _ss_hash(value, h):
        """One step of SeedSequence's hash: ``(hashed value, next hash constant)`` (32-bit words)."""
        value = uint32(value ^ h)
        h = uint32(h * _SS_MULT_A)
        value = uint32(value * h)
        return uint32(value ^ (value >> uint32(16))), h

    @_inline
    def _ss_mix(x, y):
        r = uint32(uint32(_SS_MIX_L * x) - uint32(_SS_MIX_R * y))
        return uint32(r ^ (r >> uint32(16)))

    @_inline
    def _ss_words(entropy, key, nkey, pool, out64, n64):
        """``out64[:n64]`` = ``SeedSequence(entropy, spawn_key=key[:nkey]).generate_state(n64, uint64)``,
        ``entropy`` the seed's 32-bit words already padded with zeros to the pool size (as NumPy pads
        them when there is a spawn key); ``pool`` a scratch array of 4 words."""
        ne = entropy.shape[0]
        n = ne + nkey
        h = _SS_INIT_A
        for i in range(_SS_POOL):           # the entropy words into the pool, hashed in order
            w = entropy[i] if i < ne else (key[i - ne] if i < n else uint32(0))
            pool[i], h = _ss_hash(w, h)
        for i_src in range(_SS_POOL):       # every pool word into every other
            for i_dst in range(_SS_POOL):
                if i_src != i_dst:
                    hv, h = _ss_hash(pool[i_src], h)
                    pool[i_dst] = _ss_mix(pool[i_dst], hv)
        for i_src in range(_SS_POOL, n):    # the words past the pool size into every pool word
            w = entropy[i_src] if i_src < ne else key[i_src - ne]
            for i_dst in range(_SS_POOL):
                hv, h = _ss_hash(w, h)
                pool[i_dst] = _ss_mix(pool[i_dst], hv)
        hb = _SS_INIT_B
        for i in range(2 * n64):            # the output: 32-bit words, two to a 64-bit word, low first
            v = uint32(pool[i % _SS_POOL] ^ hb)
            hb = uint32(hb * _SS_MULT_B)
            v = uint32(v * hb)
            v = uint32(v ^ (v >> uint32(16)))
            if i % 2 == 0:
                out64[i // 2] = uint64(v)
            else:
                out64[i // 2] |= uint64(v) << uint64(32)

    @_jit
    def sfc64_block_states(entropy, b0, b1, child, out):
        """``out[i]`` = the four SFC64 state words of :func:`~dpverify.sim.rng.block_rng` ``(seed, b0 + i,
        child)`` (``child < 0``: none), ``entropy`` the seed's words padded to the pool size
        (:func:`seed_entropy`).  Only for ``0 <= b0 <= b1 <= 2**32`` and ``child < 2**32`` (one-word
        spawn-key entries); the caller checks (``_fused._block_states``)."""
        key = np.empty(2, dtype=np.uint32)
        pool = np.empty(_SS_POOL, dtype=np.uint32)
        words = np.empty(3, dtype=np.uint64)
        nkey = 1 if child < 0 else 2
        if child >= 0:
            key[1] = uint32(child)
        for i in range(b1 - b0):
            key[0] = uint32(b0 + i)
            _ss_words(entropy, key, nkey, pool, words, 3)
            a, b, c, k = words[0], words[1], words[2], uint64(1)
            for _ in range(12):             # SFC64's seeding discards its first 12 outputs
                _, a, b, c, k = _next(a, b, c, k)
            out[i, 0], out[i, 1], out[i, 2], out[i, 3] = a, b, c, k

    # PCG64 (NumPy's default bit generator: a 128-bit LCG with the XSL-RR output) in 64-bit halves.
    _PCG_MULT_HI = uint64(0x2360ED051FC65DA4)
    _PCG_MULT_LO = uint64(0x4385DF649FCCF645)

    @_inline
    def _mulhi64(x, y):
        """The high 64 bits of the 128-bit product ``x y``."""
        xl, xh, yl, yh = x & _MASK32, x >> uint64(32), y & _MASK32, y >> uint64(32)
        ll, lh, hl = xl * yl, xl * yh, xh * yl
        mid = (ll >> uint64(32)) + (lh & _MASK32) + (hl & _MASK32)
        return xh * yh + (lh >> uint64(32)) + (hl >> uint64(32)) + (mid >> uint64(32))

    @_inline
    def _pcg_step(sh, sl, ih, il):
        """``state * MULT + inc`` modulo 2**128: the new ``(high, low)``."""
        lo = sl * _PCG_MULT_LO
        hi = _mulhi64(sl, _PCG_MULT_LO) + sl * _PCG_MULT_HI + sh * _PCG_MULT_LO
        lo2 = lo + il
        return hi + ih + (uint64(1) if lo2 < lo else uint64(0)), lo2

    @_inline
    def _pcg_next(sh, sl, ih, il):
        """One 64-bit PCG64 output (step, then XSL-RR of the new state): ``(output, high, low)``."""
        sh, sl = _pcg_step(sh, sl, ih, il)
        x = sh ^ sl
        rot = sh >> uint64(58)
        return (x >> rot) | (x << ((uint64(64) - rot) & uint64(63))), sh, sl

    @_inline
    def _pcg_index(sh, sl, ih, il, has, half, hi):
        """:func:`_index` on a PCG64 stream: uniform in ``[0, hi]`` (``hi < 2**32 - 1``), 32-bit halves of
        each 64-bit output, low first, the unused half kept in ``(has, half)`` as NumPy keeps it."""
        if hi == uint64(0):
            return int64(0), sh, sl, has, half
        while True:
            if has:
                u, has = half, False
            else:
                r, sh, sl = _pcg_next(sh, sl, ih, il)
                u, half, has = r & _MASK32, r >> uint64(32), True
            ok, v = _lemire(u, hi)
            if ok:
                return v, sh, sl, has, half

    @_jit
    def pcg64_block_integers(entropy, b0, tag, lows, spans, rows, out):
        """For each block ``b0 + i`` (``rows[i]`` runs), its generator
        ``Generator(PCG64(SeedSequence(seed, spawn_key=(b0 + i, tag))))``, from which
        ``integers(lows[k], lows[k] + spans[k] + 1, size=rows[i])`` for ``k = 0, 1, ...`` in turn fill
        ``out[k, off_i:off_i + rows[i]]`` (the blocks' rows consecutive), as NumPy draws them.  Only for
        ``0 <= spans[k] < 2**32 - 1`` (NumPy draws wider ranges otherwise) and block indices below
        ``2**32``; the caller checks (``step_decay._fused_phases``)."""
        key = np.empty(2, dtype=np.uint32)
        key[1] = uint32(tag)
        pool = np.empty(_SS_POOL, dtype=np.uint32)
        words = np.empty(4, dtype=np.uint64)
        off = 0
        for i in range(rows.shape[0]):
            key[0] = uint32(b0 + i)
            _ss_words(entropy, key, 2, pool, words, 4)
            # PCG64's seeding: inc = (seq << 1) | 1, state 0; step; state += init; step
            ih = (words[2] << uint64(1)) | (words[3] >> uint64(63))
            il = (words[3] << uint64(1)) | uint64(1)
            sh, sl = _pcg_step(uint64(0), uint64(0), ih, il)
            lo = sl + words[1]
            sh = sh + words[0] + (uint64(1) if lo < sl else uint64(0))
            sh, sl = _pcg_step(sh, lo, ih, il)
            has, half = False, uint64(0)
            for kk in range(lows.shape[0]):
                hi = uint64(spans[kk])
                for j in range(rows[i]):
                    v, sh, sl, has, half = _pcg_index(sh, sl, ih, il, has, half, hi)
                    out[kk, off + j] = lows[kk] + v
            off += rows[i]

    # -- fills (self-check and benchmark) ------------------------------------
    @_jit
    def fill_normal(states, out):
        """Fill ``out[i]`` (any trailing shape) with standard normals of block state ``states[i]``."""
        for i in range(states.shape[0]):
            a, b, c, k = states[i, 0], states[i, 1], states[i, 2], states[i, 3]
            row = out[i].ravel()
            for j in range(row.size):
                z, a, b, c, k = _normal(a, b, c, k)
                row[j] = z
            states[i, 0], states[i, 1], states[i, 2], states[i, 3] = a, b, c, k

    @_jit
    def fill_repeat(states, buf, repeats):
        """For each block state: fill the 1-d *buf* with normals *repeats* times (benchmark limit).

        What a simulation must at least do: draw every value and write it to
        memory (a buffer that stays in cache).
        """
        for i in range(states.shape[0]):
            a, b, c, k = states[i, 0], states[i, 1], states[i, 2], states[i, 3]
            a, b, c, k = _fill_block(a, b, c, k, buf, repeats)
            states[i, 0], states[i, 1], states[i, 2], states[i, 3] = a, b, c, k

    @_jit
    def _fill_block(a, b, c, k, buf, repeats):
        for _ in range(repeats):
            for j in range(buf.shape[0]):
                z, a, b, c, k = _normal(a, b, c, k)
                buf[j] = z
        return a, b, c, k

    @_jit
    def fill_index(state, hi, out):
        """Fill *out* (int64) with integers in ``[0, hi]`` from one fresh block state."""
        a, b, c, k = state[0], state[1], state[2], state[3]
        has, buf = False, uint64(0)
        uhi = uint64(hi)
        for j in range(out.size):
            v, a, b, c, k, has, buf = _index(a, b, c, k, has, buf, uhi)
            out[j] = v
        state[0], state[1], state[2], state[3] = a, b, c, k

    # -- shared pieces --------------------------------------------------------
    @_jit
    def _block_moments(x, n, out):
        """Per block of *x* (rows ``i*BLOCK ..``): ``(rows, sum, sum of squares, centred M2)``."""
        nb = out.shape[0]
        for i in range(nb):
            lo = i * _BLOCK
            hi = min(n, lo + _BLOCK)
            s = 0.0
            s2 = 0.0
            for r in range(lo, hi):
                s += x[r]
                s2 += x[r] * x[r]
            mean = s / (hi - lo)
            m2 = 0.0
            for r in range(lo, hi):
                d = x[r] - mean
                m2 += d * d
            out[i, 0] = hi - lo
            out[i, 1] = s
            out[i, 2] = s2
            out[i, 3] = m2

    @_inline
    def _dloss(kind, m, y):
        """``phi'(m)``: least squares ``m - y``, logistic ``-y expit(-y m)``, linear ``1``."""
        if kind == 0:
            return m - y
        if kind == 1:
            return -y * (1.0 / (1.0 + np.exp(y * m)))
        return 1.0

    @_inline
    def _momentum(v, g, beta, corr):
        """``v' = beta v + (1 - beta) g`` and ``m = v' / corr`` (NumPy path's operation order)."""
        v = v * beta + g * (1.0 - beta)
        return v, v / corr

    # -- diagonal quadratics ----------------------------------------------------
    # Within a step, a block's rows are processed in chunks of ``CH`` values
    # (whole rows, ``CH = D * max(1, 512 // D)``): the chunk's normals are drawn
    # into a small buffer that stays in L1, then a contiguous loop applies the
    # update to the chunk, with per-coordinate constants tiled to length ``CH``
    # (see :func:`chunk_width`), so that the update vectorises.  The operations
    # per element are the same as in the element-by-element form.

    @_jit
    def _quadratic_delta_block(a, b, c, k, flat, Atile, ct, buf):
        """All ``T`` steps of one block (``flat``: its ``rows * D`` values); returns the state."""
        n = flat.shape[0]
        CH = Atile.shape[1]
        for t in range(Atile.shape[0]):
            c_t = ct[t]
            At = Atile[t]
            for j0 in range(0, n, CH):
                m = min(CH, n - j0)
                a, b, c, k = _fill_scaled(buf, m, 1.0, a, b, c, k)
                seg = flat[j0:j0 + m]
                for j in range(m):
                    seg[j] = seg[j] * At[j] - buf[j] * c_t
        return a, b, c, k

    @_jit
    def quadratic_delta(states, n, delta1, Atile, c, shift, has_shift, eigs, out, x, want_x):
        """Noisy GD on a diagonal quadratic; ``out`` gets ``theta_{T+1}``, ``x`` its excess risk.

        ``Atile[t]`` is ``A[t] = 1 - eta_t eigs`` tiled to the chunk width and
        ``c[t] = eta_t s_t``; per step ``delta <- delta * A[t] - z * c[t]`` (the
        NumPy fast path's operations).
        """
        D = out.shape[1]
        buf = np.empty(Atile.shape[1])
        for i in range(states.shape[0]):
            lo = i * _BLOCK
            hi = min(n, lo + _BLOCK)
            for r in range(lo, hi):
                for d in range(D):
                    out[r, d] = delta1[d]
            a, b, cc, k = _quadratic_delta_block(states[i, 0], states[i, 1], states[i, 2],
                                                 states[i, 3], out[lo:hi].ravel(), Atile, c, buf)
            states[i, 0], states[i, 1], states[i, 2], states[i, 3] = a, b, cc, k
            for r in range(lo, hi):
                if want_x:
                    e = 0.0
                    for d in range(D):
                        e += eigs[d] * (out[r, d] * out[r, d])
                    x[r] = 0.5 * e
                if has_shift:
                    for d in range(D):
                        out[r, d] += shift[d]

    @_jit
    def _quadratic_theta_block(a, b, c, k, flat, v, eigs, star, etas, scales, beta, corr,
                               momentum, buf):
        """All ``T`` steps of one block (``flat``/``v``: ``(K, rows * D)``); returns the state."""
        K, n = flat.shape
        CH = eigs.shape[1]
        for t in range(etas.shape[0]):
            eta = etas[t]
            s = scales[t]
            cr = corr[t]
            for j0 in range(0, n, CH):
                m = min(CH, n - j0)
                a, b, c, k = _fill_scaled(buf, m, s, a, b, c, k)
                for p in range(K):
                    seg = flat[p, j0:j0 + m]
                    ev = eigs[p]
                    sv = star[p]
                    if momentum:
                        vs = v[p, j0:j0 + m]
                        for j in range(m):
                            th = seg[j]
                            g = buf[j] + ev[j] * (th - sv[j])
                            vv = vs[j] * beta + g * (1.0 - beta)
                            vs[j] = vv
                            seg[j] = th - (vv / cr) * eta
                    else:
                        for j in range(m):
                            th = seg[j]
                            seg[j] = th - (buf[j] + ev[j] * (th - sv[j])) * eta
        return a, b, c, k

    @_jit
    def quadratic_theta(states, n, theta1, eigs, star, etas, scales, beta, corr,
                        momentum, out, x, want_x):
        """``K`` quadratics sharing the noise, in theta form, plain or with momentum.

        ``eigs``/``star`` ``(K, CH)``: eigenvalues and minimisers tiled to the
        chunk width.  ``g = z s_t + eigs (theta - theta*)``; plain
        ``theta -= g eta_t`` or momentum ``v = v beta + g (1 - beta)``,
        ``theta -= (v / corr[t]) eta_t`` (the NumPy generic path's operations).
        ``out`` has shape ``(K, n, D)``; ``x`` gets the excess risk of problem 0.
        """
        K, _, D = out.shape
        v = np.zeros((K, _BLOCK * D))
        flat = np.empty((K, _BLOCK * D))
        buf = np.empty(eigs.shape[1])
        for i in range(states.shape[0]):
            lo = i * _BLOCK
            hi = min(n, lo + _BLOCK)
            m = (hi - lo) * D
            for p in range(K):
                for j in range(m):
                    flat[p, j] = theta1[j % D]
                    v[p, j] = 0.0
            a, b, cc, k = _quadratic_theta_block(states[i, 0], states[i, 1], states[i, 2],
                                                 states[i, 3], flat[:, :m], v[:, :m], eigs, star,
                                                 etas, scales, beta, corr, momentum, buf)
            states[i, 0], states[i, 1], states[i, 2], states[i, 3] = a, b, cc, k
            for p in range(K):
                for r in range(lo, hi):
                    for d in range(D):
                        out[p, r, d] = flat[p, (r - lo) * D + d]
            if want_x:
                for r in range(lo, hi):
                    e = 0.0
                    for d in range(D):
                        dd = out[0, r, d] - star[0, d]
                        e += eigs[0, d] * (dd * dd)
                    x[r] = 0.5 * e

    # -- linear models ----------------------------------------------------------
    @_inline
    def _per_sample_sum(th, X, rows, count, y, sqn, kind, lam, clip, g, m, rr):
        """Sum of the (clipped) per-sample gradients of a linear model at ``th``.

        Sample ``j < count`` is row ``rows[j]`` of ``X`` (``y``, ``sqn``), or row
        ``j`` when ``rows`` is ``None`` (full batch; numba compiles that case
        without the index).  Fills ``m`` (margins) and ``rr`` (``phi'``),
        writes ``sum_j sc_j rr_j x_j`` into ``g`` (``sc_j = 1`` without clipping,
        ``clip <= 0``) and returns ``sum_j sc_j`` (``0.0`` without clipping); the
        caller scales ``g`` and adds the ridge term.
        """
        D = th.shape[0]
        for j in range(count):
            q = j if rows is None else rows[j]
            acc = 0.0
            for d in range(D):
                acc += X[q, d] * th[d]
            m[j] = acc
            rr[j] = _dloss(kind, acc, y[q])
        for d in range(D):
            g[d] = 0.0
        total = 0.0
        if clip <= 0.0:
            for j in range(count):
                q = j if rows is None else rows[j]
                rj = rr[j]
                for d in range(D):
                    g[d] += rj * X[q, d]
        else:
            tt = 0.0
            if lam != 0.0:
                for d in range(D):
                    tt += th[d] * th[d]
            for j in range(count):
                q = j if rows is None else rows[j]
                rj = rr[j]
                sq = rj * rj * sqn[q]
                if lam != 0.0:
                    sq = sq + 2.0 * lam * rj * m[j] + (lam * lam) * tt
                norm = np.sqrt(max(sq, 0.0))
                sc = min(1.0, clip / max(norm, _TINY))
                total += sc
                w = sc * rj
                for d in range(D):
                    g[d] += w * X[q, d]
        return total

    @_inline
    def _linear_grad(th, X, y, sqn, N, kind, lam, normaliser, ridge, clip, g, m, rr):
        """Full-batch gradient of a linear model at ``th`` into ``g`` (``problems._LinearModel.grad``)."""
        total = _per_sample_sum(th, X, None, N, y, sqn, kind, lam, clip, g, m, rr)
        D = th.shape[0]
        if clip <= 0.0:
            for d in range(D):
                g[d] = g[d] / normaliser
                if ridge != 0.0:
                    g[d] += ridge * th[d]
        else:
            for d in range(D):
                g[d] = g[d] / normaliser
                if lam != 0.0:
                    g[d] += ((lam / normaliser) * total) * th[d]

    @_borrow
    def _linear_gd_block(states, i, n, theta1, X, y, sqn, nsamp, kind, lam, normaliser, ridge,
                         clip, etas, scales, beta, corr, momentum, out, v, g, z, m, rr):
        """Block ``i`` of :func:`linear_gd` (all ``T`` steps), its state updated in place."""
        K, _, D = out.shape
        T = etas.shape[0]
        lo = i * _BLOCK
        hi = min(n, lo + _BLOCK)
        a, b, cc, k = states[i, 0], states[i, 1], states[i, 2], states[i, 3]
        for p in range(K):
            for r in range(lo, hi):
                for d in range(D):
                    out[p, r, d] = theta1[d]
                    v[p, r - lo, d] = 0.0
        for t in range(T):
            eta = etas[t]
            s = scales[t]
            for r in range(lo, hi):
                for d in range(D):
                    zz, a, b, cc, k = _normal(a, b, cc, k)
                    z[d] = zz
                for p in range(K):
                    th = out[p, r]
                    _linear_grad(th, X[p], y[p], sqn[p], nsamp[p], kind[p], lam[p],
                                 normaliser[p], ridge[p], clip, g, m, rr)
                    for d in range(D):
                        gd = z[d] * s + g[d]
                        if momentum:
                            vv, gd = _momentum(v[p, r - lo, d], gd, beta, corr[t])
                            v[p, r - lo, d] = vv
                        th[d] = th[d] - gd * eta
        states[i, 0], states[i, 1], states[i, 2], states[i, 3] = a, b, cc, k

    @_jit
    def linear_gd(states, n, theta1, X, y, sqn, nsamp, kind, lam, normaliser, ridge, clip,
                  etas, scales, beta, corr, momentum, out):
        """Noisy (momentum) GD with full-batch gradients on ``K`` linear models sharing the noise.

        ``X`` ``(K, Nmax, D)``, ``y``/``sqn`` ``(K, Nmax)`` (problem ``p`` uses its
        first ``nsamp[p]`` rows), ``kind``/``lam``/``normaliser``/``ridge`` ``(K,)``;
        ``clip <= 0`` means no clipping.  ``out`` has shape ``(K, n, D)``.
        """
        K, _, D = out.shape
        Nmax = X.shape[1]
        v = np.zeros((K, _BLOCK, D))
        g = np.empty(D)
        z = np.empty(D)
        m = np.empty(Nmax)
        rr = np.empty(Nmax)
        for i in range(states.shape[0]):
            _linear_gd_block(states, i, n, theta1, X, y, sqn, nsamp, kind, lam, normaliser,
                             ridge, clip, etas, scales, beta, corr, momentum, out, v, g, z, m, rr)

    @_borrow
    def _linear_sgd_block(states, istates, i, n, theta1, X, y, sqn, hi_index, kind, lam, ridge,
                          clip, etas, scales, batch, factor, beta, corr, momentum, out, v, g,
                          idx, m, rr):
        """Block ``i`` of :func:`linear_sgd` (all ``T`` steps), its states updated in place."""
        D = out.shape[1]
        T = etas.shape[0]
        lo = i * _BLOCK
        hi = min(n, lo + _BLOCK)
        a, b, cc, k = states[i, 0], states[i, 1], states[i, 2], states[i, 3]
        ia, ib, ic, ik = istates[i, 0], istates[i, 1], istates[i, 2], istates[i, 3]
        has, buf = False, uint64(0)
        for r in range(lo, hi):
            for d in range(D):
                out[r, d] = theta1[d]
                v[r - lo, d] = 0.0
        for t in range(T):
            eta = etas[t]
            s = scales[t]
            for r in range(lo, hi):
                th = out[r]
                for j in range(batch):
                    q, ia, ib, ic, ik, has, buf = _index(ia, ib, ic, ik, has, buf, hi_index)
                    idx[j] = q
                total = _per_sample_sum(th, X, idx, batch, y, sqn, kind, lam, clip, g, m, rr)
                if clip <= 0.0:
                    for d in range(D):
                        g[d] = g[d] * factor
                        if lam != 0.0:
                            g[d] += ridge * th[d]
                else:
                    for d in range(D):
                        if lam != 0.0:
                            g[d] += (lam * total) * th[d]
                        g[d] = g[d] * factor
                for d in range(D):
                    zz, a, b, cc, k = _normal(a, b, cc, k)
                    gd = zz * s + g[d]
                    if momentum:
                        vv, gd = _momentum(v[r - lo, d], gd, beta, corr[t])
                        v[r - lo, d] = vv
                    th[d] = th[d] - gd * eta
        states[i, 0], states[i, 1], states[i, 2], states[i, 3] = a, b, cc, k
        istates[i, 0], istates[i, 1], istates[i, 2], istates[i, 3] = ia, ib, ic, ik

    @_jit
    def linear_sgd(states, istates, n, theta1, X, y, sqn, nsamp, kind, lam, normaliser, ridge,
                   clip, etas, scales, batch, beta, corr, momentum, out):
        """Noisy (momentum) mini-batch SGD, batches drawn with replacement, on one linear model.

        ``istates`` ``(nb, 4)``: the index streams' states (fresh generators).
        Mini-batch gradient as ``sgd._batch_grad``: ``factor = nsamp / (normaliser
        * batch)`` times the (clipped) sum of the batch's per-sample gradients.
        """
        _, D = out.shape
        v = np.zeros((_BLOCK, D))
        g = np.empty(D)
        idx = np.empty(batch, dtype=np.int64)
        m = np.empty(batch)
        rr = np.empty(batch)
        hi_index = uint64(nsamp - 1)
        factor = nsamp / (normaliser * batch)
        for i in range(states.shape[0]):
            _linear_sgd_block(states, istates, i, n, theta1, X, y, sqn, hi_index, kind, lam,
                              ridge, clip, etas, scales, batch, factor, beta, corr, momentum,
                              out, v, g, idx, m, rr)

    # -- random-round SGD on a diagonal quadratic --------------------------------
    @_jit
    def _random_round_block(a, b, c, k, flat, Rt, rmax, eigs, star, etas, scales, buf):
        """Steps ``0 .. rmax - 1`` of one block (``flat``: its ``rows * D`` values, ``Rt`` each
        value's round), in chunks as :func:`_quadratic_theta_block`; returns the state."""
        n = flat.shape[0]
        CH = eigs.shape[0]
        for t in range(rmax):
            eta = etas[t]
            s = scales[t]
            for j0 in range(0, n, CH):
                m = min(CH, n - j0)
                a, b, c, k = _fill_scaled(buf, m, s, a, b, c, k)
                seg = flat[j0:j0 + m]
                rs = Rt[j0:j0 + m]
                for j in range(m):
                    th = seg[j]
                    g = (eigs[j] * (th - star[j]) + buf[j]) * eta
                    seg[j] = th - g if rs[j] > t else th
        return a, b, c, k

    @_jit
    def random_round_quadratic(states, n, cdf, theta0, eigs, star, etas, scales, out):
        """Random-round noisy GD on a diagonal quadratic; ``out`` gets each run's ``w_R``.

        Per block, first ``R`` for every run (one uniform draw each, inverted through
        ``cdf`` as ``numpy.searchsorted(..., side="right")``), then steps
        ``t = 0 .. max R - 1``: every run draws its ``D`` normals (frozen ones too),
        ``g = (eigs (w - star) + s_t z) eta_t`` and ``w -= g`` while ``t < R`` (the NumPy
        path's operations, :func:`dpverify.sim.random_round.random_round_sgd`).
        ``eigs``/``star`` are tiled to the chunk width (:func:`chunk_width`), as for
        :func:`quadratic_theta`: the update runs over whole chunks of a block, vectorised.
        """
        D = out.shape[1]
        T = etas.shape[0]
        flat = np.empty(_BLOCK * D)
        Rt = np.empty(_BLOCK * D, dtype=np.int64)
        buf = np.empty(eigs.shape[0])
        for i in range(states.shape[0]):
            lo = i * _BLOCK
            hi = min(n, lo + _BLOCK)
            a, b, cc, k = states[i, 0], states[i, 1], states[i, 2], states[i, 3]
            rmax = 0
            for r in range(lo, hi):
                u, a, b, cc, k = _next(a, b, cc, k)
                x = _unit(u)
                left, right = 0, T
                while left < right:
                    mid = (left + right) >> 1
                    if cdf[mid] <= x:
                        left = mid + 1
                    else:
                        right = mid
                rr = 1 + min(left, T - 1)
                rmax = max(rmax, rr)
                for d in range(D):
                    flat[(r - lo) * D + d] = theta0[d]
                    Rt[(r - lo) * D + d] = rr
            m = (hi - lo) * D
            a, b, cc, k = _random_round_block(a, b, cc, k, flat[:m], Rt[:m], rmax, eigs, star, etas,
                                              scales, buf)
            states[i, 0], states[i, 1], states[i, 2], states[i, 3] = a, b, cc, k
            for r in range(lo, hi):
                for d in range(D):
                    out[r, d] = flat[(r - lo) * D + d]

    # -- step-decay SGD with early momentum on separable losses ------------------
    # One block function per loss shape (``KIND``: 0 quadratic, 1 sine, 2 huber), a constant in
    # each of the three compiled variants, so that the per-coordinate update has no branch on the
    # shape; the runs of a block are stored flat (``rows * D`` values per problem) and updated in
    # chunks of whole rows whose normals were just drawn into a small buffer, with the
    # per-coordinate constants tiled to the chunk width (the layout of :func:`quadratic_theta`).
    @_inline
    def _half_sin2(x):
        """``sin(2 x) / 2``: the derivative of ``sin(x)^2 / 2``."""
        return np.sin(2.0 * x) / 2.0

    @_inline
    def _separable_grad(x, sn, kind, p0, p1, w):
        """``w phi'(x)`` of :class:`~dpverify.sim.separable.SeparableLoss` (``sn = sin(2 x)``, sine only).

        ``w = 1`` is exact (``g * 1.0 == g``), so unit weights need no branch.
        """
        if kind == 0:
            g = p0 * x
        elif kind == 1:
            g = x + p0 * sn / 2.0
        else:
            if abs(x) <= p1:
                g = p0 * x
            else:
                sg = 1.0 if x > 0.0 else (-1.0 if x < 0.0 else x)
                g = (p0 * p1) * sg
        return g * w

    @_jit
    def half_sin2(x, out):
        """``out = sin(2 x) / 2`` as the kernels compute it (for the check against NumPy)."""
        for j in range(x.shape[0]):
            out[j] = _half_sin2(x[j])

    @_inline
    def _sd_full_grad(KIND, SIN, HAM, NOISE, x, w, am, z, q0, q1, bm):
        """Full gradient at ``x`` (``SeparableLoss.grad``'s operations) plus the noise ``z``."""
        sn = np.sin(2.0 * x) if SIN else 0.0
        g = _separable_grad(x, sn, KIND, q0, q1, w)
        if HAM:
            g = g + am
        if SIN and bm != 0.0:
            g = g + bm * (sn / 2.0)
        if NOISE:
            g = g + z
        return g

    @_inline
    def _sd_full_loop(KIND, SIN, HAM, NOISE, PLAIN, fl):
        """One chunk of one problem, full gradients; ``SIN`` (``sin(2 x)`` is used) is a constant at
        every call site, as are ``HAM``/``NOISE`` (the mean of ``a`` and the noise are added) in the
        usual case, so that the loop compiles without those branches (a ``sin`` under a run-time
        branch would be computed anyway: LLVM speculates it); one loop with momentum, one without.
        ``PLAIN`` (a constant): unit weights and a centre of +0.0, the centre and weights not loaded
        (``x - 0.0`` is ``x`` and ``g * 1.0`` is ``g``, bit for bit, signed zeros included; which of two
        NaN operands a later operation keeps is LLVM's choice in either loop); the pass is bound by
        its loads.

        Only the loop with momentum keeps the iterate as the next step's previous iterate: a step
        without momentum has ``rho = 0`` (the previous iterate is never read) or comes after the
        phase's momentum steps (the next phase starts afresh), so no later step reads it; the pass is
        bound by its loads and stores, and most steps have no momentum."""
        seg, pvs, cs, ws, ams, buf, q0, q1, bm, eta, r_t = fl
        if r_t != 0.0:
            for j in range(seg.shape[0]):
                th = seg[j]
                x, w = (th, 1.0) if PLAIN else (th - cs[j], ws[j])
                g = _sd_full_grad(KIND, SIN, HAM, NOISE, x, w, ams[j], buf[j], q0, q1, bm)
                seg[j] = (th - eta * g) + r_t * (th - pvs[j])
                pvs[j] = th
        else:
            for j in range(seg.shape[0]):
                th = seg[j]
                x, w = (th, 1.0) if PLAIN else (th - cs[j], ws[j])
                g = _sd_full_grad(KIND, SIN, HAM, NOISE, x, w, ams[j], buf[j], q0, q1, bm)
                seg[j] = th - eta * g

    @_inline
    def _sd_batch_loop(KIND, SIN, seg, pvs, cs, ws, buf, A, idx, bbs, hb, j0, D, batch, q0, q1, s, eta, r_t):
        """One chunk (whole rows) of one problem, mini-batch gradients (``SeparableLoss.batch_grad``'s
        operations plus the noise ``buf``); ``SIN`` a constant at every call site."""
        for rr in range(seg.shape[0] // D):
            rl = j0 // D + rr
            bb = bbs[rl]
            rows = idx[rl]
            for d in range(D):
                j = rr * D + d
                th = seg[j]
                x = th - cs[j]
                sn = np.sin(2.0 * x) if SIN else 0.0
                g = _separable_grad(x, sn, KIND, q0, q1, ws[j])
                acc = A[rows[0], d]
                for q in range(1, batch):
                    acc += A[rows[q], d]
                g = g + acc / batch
                if hb:
                    g = g + bb * (sn / 2.0)
                if s != 0.0:
                    g = g + buf[j]
                seg[j], pvs[j] = _sd_step(th, pvs[j], g, eta, r_t)

    @_inline
    def _sd_step(th, prev, g, eta, r_t):
        """Heavy-ball step ``th - eta g + r_t (th - prev)`` (NumPy path's order): ``(new, new prev)``."""
        if r_t != 0.0:
            step = th - prev
            return (th - eta * g) + r_t * step, th
        return th - eta * g, th

    @_inline
    def _bucket_rows(pick, T, order, ends):
        """Rows ``0 .. len(pick) - 1`` grouped by their output step (``pick[r]`` in ``0 .. T``): the rows
        picked at step ``t`` are ``order[ends[t - 1]:ends[t]]`` (``order[:ends[0]]`` for ``t = 0``), so
        each step copies its picked rows without a pass over every row (a counting sort)."""
        for t in range(T + 1):
            ends[t] = 0
        for r in range(pick.shape[0]):
            ends[pick[r]] += 1
        acc = 0
        for t in range(T + 1):
            acc += ends[t]
            ends[t] = acc - ends[t]     # start of bucket t
        for r in range(pick.shape[0]):
            q = pick[r]
            order[ends[q]] = r
            ends[q] += 1                # ends[t]: end of bucket t once every row is placed

    @_inline
    def _copy_rows(out, off, ot, order, q0, q1, D):
        """``ot[p, row] = out[p, off + row]`` (rows of ``D`` values) for the rows ``order[q0:q1]``, every problem."""
        for p in range(out.shape[0]):
            for q in range(q0, q1):
                j = order[q] * D
                for d in range(D):
                    ot[p, j + d] = out[p, off + j + d]

    @_inline
    def _step_decay_block(KIND, states, istates, i, n, args):
        """Block ``i`` of :func:`step_decay_separable` (every phase), its states updated in place."""
        (picks, etas, lengths, mons, rho, s, batch, nsamp, output, p0, p1, ct, wt, A, Bv, amt, has_amean,
         bmean, has_b, plain, trk, box, out, pv, ot, buf, idx, bbs, dist, order, ends) = args
        P = out.shape[0]
        D = A.shape[2]
        CH = ct.shape[1]
        lo = i * _BLOCK
        hi = min(n, lo + _BLOCK)
        rows = hi - lo
        nv = rows * D
        off = lo * D
        a, b, cc, k = states[i, 0], states[i, 1], states[i, 2], states[i, 3]
        ia, ib, ic, ik = istates[i, 0], istates[i, 1], istates[i, 2], istates[i, 3]
        has, hbuf = False, uint64(0)    # SFC64's buffered 32-bit half, kept across calls as NumPy does
        best = dist[i]
        for ph in range(etas.shape[0]):
            eta = etas[ph]
            T = lengths[ph]
            mm = mons[ph]
            _bucket_rows(picks[ph, lo:hi], T, order, ends)
            for p in range(P):
                for j in range(nv):
                    pv[p, j] = out[p, off + j]
            if output == 1:
                _copy_rows(out, off, ot, order, 0, ends[0], D)
            for t in range(1, T + 1):
                r_t = rho if t <= mm else 0.0
                if batch > 0:
                    for kk in range(batch):
                        jmax = nsamp - batch + kk
                        for r in range(rows):
                            v, ia, ib, ic, ik, has, hbuf = _index(ia, ib, ic, ik, has, hbuf, uint64(jmax))
                            for q in range(kk):
                                if idx[r, q] == v:
                                    v = jmax
                                    break
                            idx[r, kk] = v
                    for p in range(P):
                        if has_b[p]:
                            for r in range(rows):
                                bb = Bv[p, idx[r, 0]]
                                for q in range(1, batch):
                                    bb = bb + Bv[p, idx[r, q]]
                                bbs[p, r] = bb / batch
                for j0 in range(0, nv, CH):
                    m = min(CH, nv - j0)
                    a, b, cc, k = _fill_scaled(buf, m, s, a, b, cc, k)
                    for p in range(P):
                        seg = out[p, off + j0:off + j0 + m]
                        pvs = pv[p, j0:j0 + m]
                        cs, ws, ams = ct[p], wt[p], amt[p]
                        q0, q1 = p0[p], p1[p]
                        if batch > 0:
                            hb = has_b[p]
                            if KIND == 1 or hb:
                                _sd_batch_loop(KIND, True, seg, pvs, cs, ws, buf, A[p], idx, bbs[p], hb, j0, D,
                                               batch, q0, q1, s, eta, r_t)
                            else:
                                _sd_batch_loop(KIND, False, seg, pvs, cs, ws, buf, A[p], idx, bbs[p], hb, j0, D,
                                               batch, q0, q1, s, eta, r_t)
                        else:
                            ham, bm = has_amean[p], bmean[p]
                            fl = (seg, pvs, cs, ws, ams, buf, q0, q1, bm, eta, r_t)
                            full = ham and s != 0.0     # the usual case: compiled without the term branches
                            if KIND == 1 or bm != 0.0:
                                _sd_full_loop(KIND, True, ham, s != 0.0, False, fl)     # the sin dominates
                            elif full and plain[p]:
                                _sd_full_loop(KIND, False, True, True, True, fl)
                            elif full:
                                _sd_full_loop(KIND, False, True, True, False, fl)
                            else:
                                _sd_full_loop(KIND, False, ham, s != 0.0, False, fl)
                        if box:
                            for j in range(m):
                                dev = abs(seg[j] - trk[j])
                                if dev > best:
                                    best = dev
                if output != 1 or t < T:
                    _copy_rows(out, off, ot, order, ends[t - 1], ends[t], D)
            for p in range(P):
                for j in range(nv):
                    out[p, off + j] = ot[p, j]
        dist[i] = best
        states[i, 0], states[i, 1], states[i, 2], states[i, 3] = a, b, cc, k
        istates[i, 0], istates[i, 1], istates[i, 2], istates[i, 3] = ia, ib, ic, ik

    @_borrow
    def _step_decay_quadratic(states, istates, n, args):
        for i in range(states.shape[0]):
            _step_decay_block(0, states, istates, i, n, args)

    @_borrow
    def _step_decay_sine(states, istates, n, args):
        for i in range(states.shape[0]):
            _step_decay_block(1, states, istates, i, n, args)

    @_borrow
    def _step_decay_huber(states, istates, n, args):
        for i in range(states.shape[0]):
            _step_decay_block(2, states, istates, i, n, args)

    _STEP_DECAY_KINDS = (_step_decay_quadratic, _step_decay_sine, _step_decay_huber)

    def step_decay_separable(states, istates, n, picks, etas, lengths, mons, rho, s, batch, nsamp,
                             output, kind, p0, p1, ct, wt, A, Bv, amt, has_amean, bmean, has_b, plain,
                             trk, box, out, dist):
        """Step-decay SGD with early momentum on ``P`` separable losses of one shape sharing every draw.

        ``picks`` ``(phases, n)``: each run's output index per phase (drawn by the
        caller from :func:`~dpverify.sim.step_decay.output_rng`); ``batch = 0``:
        full gradients, else Floyd's sampling without replacement from the index
        streams ``istates`` (as ``sample_without_replacement``: one draw per batch
        slot and run, slot-major); ``output`` 0 after, 1 before, 2 last.  ``kind``
        (0 quadratic, 1 sine, 2 huber) selects the compiled variant.  Per problem
        ``p``: ``p0``/``p1`` its parameters, ``ct``/``wt``/``amt`` ``(P, CH)`` the
        centre, weights and mean of ``a`` tiled to the chunk width ``CH``
        (:func:`chunk_width`), ``A`` ``(P, nsamp, D)``, ``Bv`` ``(P, nsamp)``,
        ``bmean`` the mean of ``b`` (full gradients), ``plain`` whether its weights are one and its
        centre zero (then neither is read).  ``out`` ``(P, n * D)`` holds
        the start on entry and the outputs on return; ``dist[i]`` gets block ``i``'s
        largest ``|theta_j - track_j|`` over every iterate (``trk`` tiled as ``ct``).
        A Python function: it allocates the scratch arrays and calls the variant.
        """
        P = out.shape[0]
        pv = np.empty((P, _BLOCK * A.shape[2]))
        ot = np.empty((P, _BLOCK * A.shape[2]))
        buf = np.empty(ct.shape[1])
        idx = np.zeros((_BLOCK, max(batch, 1)), dtype=np.int64)
        bbs = np.zeros((P, _BLOCK))
        order = np.empty(_BLOCK, dtype=np.int64)
        ends = np.empty(int(np.max(lengths)) + 1, dtype=np.int64)
        _STEP_DECAY_KINDS[kind](states, istates, n, (picks, etas, lengths, mons, rho, s, batch, nsamp, output,
                                                     p0, p1, ct, wt, A, Bv, amt, has_amean, bmean, has_b,
                                                     plain, trk, box, out, pv, ot, buf, idx, bbs, dist, order,
                                                     ends))

    # -- noisy GD with a gradient-norm rule on a diagonal quadratic -------------
    @_inline
    def _sq_norm(x, o, D):
        """``sum_d x[o + d]^2`` in the order of NumPy's ``einsum("ij,ij->i")`` on SIMD lanes:
        squares in lanes ``d mod 4``, then ``(l0 + l2) + (l1 + l3)`` (``D <= 4``; in order beyond,
        where :func:`sq_norms_agree` tells whether it is still ``einsum``'s order)."""
        if D == 1:
            return x[o] * x[o]
        if D == 2:
            return x[o] * x[o] + x[o + 1] * x[o + 1]
        if D == 3:
            return (x[o] * x[o] + x[o + 2] * x[o + 2]) + x[o + 1] * x[o + 1]
        if D == 4:
            return (x[o] * x[o] + x[o + 2] * x[o + 2]) + (x[o + 1] * x[o + 1] + x[o + 3] * x[o + 3])
        acc = x[o] * x[o]
        for d in range(1, D):
            acc = acc + x[o + d] * x[o + d]
        return acc

    @_jit
    def sq_norms(x, out):
        """``out[r]`` = squared norm of row ``r`` of the 2-d ``x``, as the kernels sum it."""
        D = x.shape[1]
        flat = x.ravel()
        for r in range(x.shape[0]):
            out[r] = _sq_norm(flat, r * D, D)

    @_inline
    def _adaptive_level(t, r0, nr, lo, noise, proportional, th, star, gtrack, want_g, dtrack, want_d, sr, dv,
                        bad, i):
        """Rows ``r0 .. r0 + nr - 1`` of a block at iterate ``t`` (0-based), ``sr[r]`` holding their
        ``||g||^2``: the tracks (``||g||^2``, ``||theta - star||``), then (``t < T``) a bad noise level
        of step ``t`` recorded in ``bad``: ``noise[t]`` itself; the levels proportional to ``||g||``
        are computed, and checked, as step ``t`` draws its normals (:func:`_levels_surely_finite`,
        :func:`_bad_row_level`, :func:`_fill_rows_rooted`).  The loops index slices from 0, so that numba needs no negative-index
        wrap and LLVM vectorises them."""
        D = dv.shape[0]
        srs = sr[r0:r0 + nr]
        if want_g or want_d:
            for rr in range(nr):
                if want_g:
                    gtrack[lo + r0 + rr, t] = srs[rr]
                if want_d:
                    o = (r0 + rr) * D
                    for d in range(D):
                        dv[d] = th[o + d] - star[d]
                    dtrack[lo + r0 + rr, t] = np.sqrt(_sq_norm(dv, 0, D))
        if t < noise.shape[0] and not proportional:
            nt = noise[t]
            if not (np.isfinite(nt) and nt >= 0.0) and bad[0] < 0:
                bad[0], bad[1], bad[2], bad[3] = i, t + 1, 1.0, nt

    @_inline
    def _bad_row_level(srs, nt, t, bad, i):
        """Record in ``bad`` the first row of ``srs`` (``||g||^2``) whose level ``nt * sqrt(.)`` for step
        ``t`` (0-based) is not finite and ``>= 0``; whether there is one.  (A level is ``sqrt(.) >= 0``,
        ``-0.0`` or NaN times ``nt``: with every level finite it is negative only where ``nt < 0``.)"""
        for rr in range(srs.shape[0]):
            sv = nt * np.sqrt(srs[rr])
            if not (np.isfinite(sv) and sv >= 0.0):
                bad[0], bad[1], bad[2], bad[3] = i, t + 1, 1.0, sv
                return True
        return False

    @_inline
    def _adaptive_block(D, cosine, states, i, n, theta1, eigs, star, etas, noise, proportional, gtrack, want_g,
                        dtrack, want_d, out, th, g, sr, dv, buf, bad):
        """Block ``i`` of :func:`adaptive_quadratic` (``D`` a constant in the compiled variants for
        ``D <= 4``); ``False`` if it stopped on a bad value.

        Per step and chunk of whole rows: its normals times each row's noise level into ``buf`` (a
        level proportional to ``||g||`` computed from ``sr`` as the row's normals are drawn), the
        update and the gradient at the new iterate (``eigs``/``star`` tiled to the chunk width), the
        rows' squared gradient norms (``sr``), then the tracks and checks (:func:`_adaptive_level`)."""
        T = etas.shape[0]
        CH = buf.shape[0]
        lo = i * _BLOCK
        hi = min(n, lo + _BLOCK)
        nv = (hi - lo) * D
        a, b, cc, k = states[i, 0], states[i, 1], states[i, 2], states[i, 3]
        sr_bits = sr.view(np.uint64)
        for j0 in range(0, nv, CH):
            m = min(CH, nv - j0)
            seg = th[j0:j0 + m]
            gs = g[j0:j0 + m]
            for j in range(m):
                x = theta1[j % D]
                seg[j] = x
                if cosine:
                    gs[j] = eigs[j] * np.sin(x)
                else:
                    gs[j] = eigs[j] * (x - star[j])
            srs = sr[j0 // D:(j0 + m) // D]
            for rr in range(m // D):
                srs[rr] = _sq_norm(gs, rr * D, D)
            _adaptive_level(0, j0 // D, m // D, lo, noise, proportional, th, star, gtrack, want_g, dtrack, want_d,
                            sr, dv, bad, i)
        for t in range(T):
            eta = etas[t]
            if not (np.isfinite(eta) and eta >= 0.0):
                bad[0], bad[1], bad[2], bad[3] = i, t + 1, 0.0, eta
            if bad[0] >= 0:
                return False
            s = noise[t]
            for j0 in range(0, nv, CH):
                m = min(CH, nv - j0)
                nr = m // D
                seg = th[j0:j0 + m]
                gs = g[j0:j0 + m]
                srs = sr[j0 // D:j0 // D + nr]
                if proportional:                # each row's normals times its noise level s ||g||, as drawn
                    if not _levels_surely_finite(sr_bits[j0 // D:j0 // D + nr], s) and _bad_row_level(
                            srs, s, t, bad, i):
                        return False
                    if D == 1:                  # the levels in a pass of their own (_fill_rows_rooted)
                        for rr in range(nr):
                            srs[rr] = s * np.sqrt(srs[rr])
                        a, b, cc, k = _fill_rows_scaled(buf, nr, D, srs, a, b, cc, k)
                    else:
                        a, b, cc, k = _fill_rows_rooted(buf, nr, D, srs, s, a, b, cc, k)
                else:
                    a, b, cc, k = _fill_scaled(buf, m, s, a, b, cc, k)
                for j in range(m):
                    x = seg[j] - (buf[j] + gs[j]) * eta
                    seg[j] = x
                    if cosine:
                        gs[j] = eigs[j] * np.sin(x)
                    else:
                        gs[j] = eigs[j] * (x - star[j])
                for rr in range(nr):
                    srs[rr] = _sq_norm(gs, rr * D, D)
                _adaptive_level(t + 1, j0 // D, nr, lo, noise, proportional, th, star, gtrack, want_g, dtrack,
                                want_d, sr, dv, bad, i)
        for r in range(hi - lo):
            for d in range(D):
                out[lo + r, d] = th[r * D + d]
        states[i, 0], states[i, 1], states[i, 2], states[i, 3] = a, b, cc, k
        return True

    def _adaptive_variant(D, cosine=False):
        """The loop over blocks of :func:`adaptive_quadratic` with the dimension ``D`` compiled in
        (``None``: read from ``out``), on the quadratic or (``cosine``) on ``sum_i a_i (1 - cos theta_i)``."""
        def run(states, n, theta1, eigs, star, etas, noise, proportional, gtrack, want_g, dtrack, want_d, out,
                th, g, sr, dv, buf, bad):
            dim = out.shape[1] if D is None else D
            for i in range(states.shape[0]):
                if not _adaptive_block(dim, cosine, states, i, n, theta1, eigs, star, etas, noise, proportional,
                                       gtrack, want_g, dtrack, want_d, out, th, g, sr, dv, buf, bad):
                    return
        return run

    _ADAPTIVE_VARIANTS = [_borrow(_adaptive_variant(D)) for D in (None, 1, 2, 3, 4)]
    _ADAPTIVE_COSINE_VARIANTS = [_borrow(_adaptive_variant(D, True)) for D in (None, 1, 2, 3, 4)]

    @_jit
    def scaled_sines(a, x, out):
        """``out[j] = a[j] * sin(x[j])``, the cosine sum's gradient as :func:`adaptive_quadratic` computes
        it (libm's ``sin``)."""
        for j in range(x.shape[0]):
            out[j] = a[j] * np.sin(x[j])

    def adaptive_quadratic(states, n, theta1, eigs, star, etas, noise, proportional, gtrack, want_g,
                           dtrack, want_d, out, bad, cosine=False):
        """Noisy GD whose noise is ``s_t = noise_t`` or ``s_t = noise_t ||g_t||`` (``proportional``).

        Per step ``t``, as :func:`dpverify.sim.adaptive.adaptive_gd`'s NumPy path: every run's
        gradient ``g = eigs (theta - star)`` and ``||g||^2`` (summed as ``einsum`` sums, :func:`_sq_norm`),
        its ``s_t``, then ``D`` normals per run and ``theta -= (z s_t + g) eta_t`` (``eigs``/``star``
        tiled to the chunk width, :func:`chunk_width`; ``theta1``, ``star``'s first ``D`` values: the
        point and minimiser).  With
        ``want_g``/``want_d``, ``gtrack``/``dtrack`` ``(n, T + 1)`` get ``||g||^2`` and
        ``||theta - star||`` at every iterate.  A step size or noise level that is not finite and
        ``>= 0`` stops the task: ``bad`` gets ``(block, t, 0 for eta / 1 for the noise, value)`` (the
        caller raises).  With ``cosine``, the objective is ``sum_i a_i (1 - cos theta_i)`` (``eigs`` the
        ``a_i``): the gradient is ``a sin(theta)`` with libm's ``sin`` (:func:`scaled_sines`).  A Python
        function: it allocates the scratch arrays and calls the variant compiled for ``D`` (``D <= 4``) or
        the generic one.
        """
        D = out.shape[1]
        run = (_ADAPTIVE_COSINE_VARIANTS if cosine else _ADAPTIVE_VARIANTS)[D if D <= 4 else 0]
        run(states, n, theta1, eigs, star, etas, noise, proportional, gtrack, want_g, dtrack, want_d, out,
            np.empty(_BLOCK * D), np.empty(_BLOCK * D), np.empty(_BLOCK), np.empty(D), np.empty(eigs.shape[0]), bad)



    # -- noisy GD with a gradient-norm rule on a linear model (logistic or least squares) ----
    # The gradient of a block's row ``theta`` is computed as the NumPy path computes it with BLAS:
    # margins ``m_n = x_n . theta`` (``theta @ X.T``) and the sum ``sum_n r_n x_n`` (``r @ X``) as chains
    # of fused multiply-adds over the inner index from ``0.0``, the order OpenBLAS's ``dgemm`` takes
    # for these shapes (each element one accumulator, one FMA per term); the logistic derivative
    # ``r_n = -y_n expit(-y_n m_n)`` as SciPy's ``expit``, ``1 / (1 + exp(-z))`` with libm's ``exp``.
    # Whether a machine's BLAS and libm do take that order is not assumed:
    # :func:`dpverify.sim.adaptive._linear_grads_agree` compares :func:`linear_model_grads` with the
    # problem's own ``grad`` at first use, for the problem and each row count of a block, and the
    # NumPy path runs wherever they differ.
    @numba.extending.intrinsic
    def _fma(typingctx, x, y, z):
        """``x * y + z`` rounded once (LLVM's ``llvm.fma.f64``)."""
        sig = numba.types.float64(numba.types.float64, numba.types.float64, numba.types.float64)

        def codegen(context, builder, signature, args):
            return builder.fma(*args)
        return sig, codegen

    def _linear_scratch(D, N):
        """Scratch arrays of :func:`_linear_grads` for chunks of ``chunk_width(D)`` values: ``thT``,
        ``mT``, ``accT`` (``mT`` holds the margins of at most 65536 / N rows of a chunk at a time: 512 kB)."""
        CH = chunk_width(D)
        return np.empty(CH), np.empty(max(1, min(CH // D, 65536 // N)) * N), np.empty(CH)

    @_inline
    def _linear_grads(seg, nr, D, X, ny, yv, logistic, fN, ridge, gs, thT, mT, accT):
        """``gs[r D + d]`` = the gradient at row ``r < nr`` of ``seg`` (row-major ``(nr, D)``) of
        ``(1/fN) sum_n phi_n(x_n . theta) + (ridge/2)||theta||^2``, ``phi_n'`` the logistic
        ``-y_n expit(-y_n m)`` (``ny = -y``) or least squares' ``m - y_n`` (section comment above),
        in groups of as many rows as ``mT`` holds margins of (:func:`_linear_scratch`)."""
        step = mT.shape[0] // X.shape[0]
        for q0 in range(0, nr, step):
            q = min(step, nr - q0)
            _linear_grads_rows(seg[q0 * D:(q0 + q) * D], q, D, X, ny, yv, logistic, fN, ridge,
                               gs[q0 * D:(q0 + q) * D], thT, mT, accT)

    @_inline
    def _linear_grads_rows(seg, nr, D, X, ny, yv, logistic, fN, ridge, gs, thT, mT, accT):
        """:func:`_linear_grads` for ``nr`` rows whose margins ``mT`` holds.

        Each element's sums are chains over the inner index as BLAS takes them; the loops run across
        rows (``thT``, ``accT``: ``nr * D`` scratch values, ``mT``: ``nr * N``, transposed), so that
        they vectorise and every chain has others beside it.  The margins' and the sums' loops are twins;
        one helper for both (with the features transposed for the sums) ran the adaptive job 3-4 % slower
        (A/B, 80,000 runs of N = 60, D = 3: 0.315 against 0.302 s of CPU), so both stay written out."""
        N = X.shape[0]
        for r in range(nr):
            for d in range(D):
                thT[d * nr + r] = seg[r * D + d]
        for nn in range(N):
            mr = mT[nn * nr:(nn + 1) * nr]
            for r in range(nr):
                mr[r] = 0.0
            for d in range(D):
                x = X[nn, d]
                td = thT[d * nr:(d + 1) * nr]
                for r in range(nr):
                    mr[r] = _fma(td[r], x, mr[r])
            if logistic:
                c = ny[nn]
                for r in range(nr):
                    mr[r] = c * (1.0 / (1.0 + np.exp(-(c * mr[r]))))
            else:
                c = yv[nn]
                for r in range(nr):
                    mr[r] = mr[r] - c
        for d in range(D):
            ad = accT[d * nr:(d + 1) * nr]
            for r in range(nr):
                ad[r] = 0.0
            for nn in range(N):
                x = X[nn, d]
                mr = mT[nn * nr:(nn + 1) * nr]
                for r in range(nr):
                    ad[r] = _fma(mr[r], x, ad[r])
        for r in range(nr):
            for d in range(D):
                v = accT[d * nr + r] / fN
                if ridge != 0.0:
                    v = v + ridge * seg[r * D + d]
                gs[r * D + d] = v

    def linear_model_grads(theta, X, ny, yv, logistic, fN, ridge, out):
        """``out[r]`` = the gradient at row ``r`` of ``theta`` (2-d), as :func:`adaptive_linear` computes
        it (:func:`_linear_grads`, in its chunks of rows)."""
        _linear_model_grads(theta, X, ny, yv, logistic, fN, ridge, out, *_linear_scratch(theta.shape[1], X.shape[0]))

    @_borrow
    def _linear_model_grads(theta, X, ny, yv, logistic, fN, ridge, out, thT, mT, accT):
        """:func:`linear_model_grads` with its scratch arrays."""
        D = theta.shape[1]
        flat = theta.reshape(-1)
        g = out.reshape(-1)
        CH = thT.shape[0]
        nv = theta.shape[0] * D
        for j0 in range(0, nv, CH):
            m = min(CH, nv - j0)
            _linear_grads(flat[j0:j0 + m], m // D, D, X, ny, yv, logistic, fN, ridge, g[j0:j0 + m], thT, mT, accT)

    @_borrow
    def _adaptive_linear_run(states, n, theta1, X, ny, yv, logistic, fN, ridge, star, etas, noise, proportional,
                             gtrack, want_g, dtrack, want_d, out, th, g, sr, dv, buf, thT, mT, accT, bad):
        """The loop over blocks of :func:`adaptive_linear`."""
        D = out.shape[1]
        T = etas.shape[0]
        CH = buf.shape[0]
        sr_bits = sr.view(np.uint64)
        for i in range(states.shape[0]):
            lo = i * _BLOCK
            hi = min(n, lo + _BLOCK)
            nv = (hi - lo) * D
            a, b, cc, k = states[i, 0], states[i, 1], states[i, 2], states[i, 3]
            for j0 in range(0, nv, CH):
                m = min(CH, nv - j0)
                nr = m // D
                seg = th[j0:j0 + m]
                gs = g[j0:j0 + m]
                srs = sr[j0 // D:j0 // D + nr]
                for j in range(m):
                    seg[j] = theta1[j % D]
                _linear_grads(seg, nr, D, X, ny, yv, logistic, fN, ridge, gs, thT, mT, accT)
                for rr in range(nr):
                    srs[rr] = _sq_norm(gs, rr * D, D)
                _adaptive_level(0, j0 // D, nr, lo, noise, proportional, th, star, gtrack, want_g, dtrack, want_d,
                                sr, dv, bad, i)
            for t in range(T):
                eta = etas[t]
                if not (np.isfinite(eta) and eta >= 0.0):
                    bad[0], bad[1], bad[2], bad[3] = i, t + 1, 0.0, eta
                if bad[0] >= 0:
                    return
                s = noise[t]
                for j0 in range(0, nv, CH):
                    m = min(CH, nv - j0)
                    nr = m // D
                    seg = th[j0:j0 + m]
                    gs = g[j0:j0 + m]
                    srs = sr[j0 // D:j0 // D + nr]
                    if proportional:
                        if not _levels_surely_finite(sr_bits[j0 // D:j0 // D + nr], s) and _bad_row_level(
                                srs, s, t, bad, i):
                            return
                        a, b, cc, k = _fill_rows_rooted(buf, nr, D, srs, s, a, b, cc, k)
                    else:
                        a, b, cc, k = _fill_scaled(buf, m, s, a, b, cc, k)
                    for j in range(m):
                        seg[j] = seg[j] - (buf[j] + gs[j]) * eta
                    _linear_grads(seg, nr, D, X, ny, yv, logistic, fN, ridge, gs, thT, mT, accT)
                    for rr in range(nr):
                        srs[rr] = _sq_norm(gs, rr * D, D)
                    _adaptive_level(t + 1, j0 // D, nr, lo, noise, proportional, th, star, gtrack, want_g, dtrack,
                                    want_d, sr, dv, bad, i)
            for r in range(hi - lo):
                for d in range(D):
                    out[lo + r, d] = th[r * D + d]
            states[i, 0], states[i, 1], states[i, 2], states[i, 3] = a, b, cc, k

    def adaptive_linear(states, n, theta1, X, ny, yv, logistic, fN, ridge, star, etas, noise, proportional,
                        gtrack, want_g, dtrack, want_d, out, bad):
        """:func:`adaptive_quadratic` on a linear model: the gradient of a row is
        ``(1/fN) sum_n phi_n'(x_n . theta) x_n + ridge theta`` (``X`` ``(N, D)``; logistic with
        ``ny = -y``, or least squares with labels ``yv``), computed as the NumPy path's BLAS and libm
        compute it (section comment above).  A Python function: it allocates the scratch arrays."""
        D = out.shape[1]
        _adaptive_linear_run(states, n, theta1, X, ny, yv, logistic, fN, ridge, star, etas, noise, proportional,
                             gtrack, want_g, dtrack, want_d, out, np.empty(_BLOCK * D), np.empty(_BLOCK * D),
                             np.empty(_BLOCK), np.empty(D), np.empty(chunk_width(D)), *_linear_scratch(D, X.shape[0]),
                             bad)


    # -- gated SGD, one sample per step, least squares in one dimension -------------------
    # The three streams of a block are drawn stream by stream for a chunk of up to ``_GATED_CHUNK``
    # consecutive runs of one step, each into its own buffer (four state words live at a time, not
    # twelve), then loops with no draw, no gather and no branch in them (the test's outcome is a
    # select) apply the chunk's update, and vectorise.  Each stream keeps its order of draws (step,
    # then run), so every run sees the values the NumPy path draws; every run's arithmetic is the
    # scalar form's, operation for operation.
    _GATED_CHUNK = 512

    @_jit
    def _fill_samples(xb, yb, m, X, y, hi_index, a, b, c, k, has, half):
        """``xb[:m]``, ``yb[:m]`` = feature and label of ``m`` samples drawn uniformly (:func:`_index`
        on ``[0, hi_index]``); returns the state and the buffered 32-bit half."""
        for j in range(m):
            q, a, b, c, k, has, half = _index(a, b, c, k, has, half, hi_index)
            xb[j] = X[q]
            yb[j] = y[q]
        return a, b, c, k, has, half

    @_inline
    def _gated_ls1_passes(x, yq, g, h, xi, lam, fN, test_std, threshold, offset, scale):
        """Whether the influence test of one run passes (sample ``(x, yq)``, round start ``g``, ``h``
        its inverse Hessian): one-term sums computed as ``0.0 + a * b``, as ``einsum``/``matmul`` do."""
        gg = (0.0 + x * g - yq) * x + lam * g
        cc = (0.0 + gg * h) / fN + offset
        return abs(scale * cc + test_std * xi) <= threshold

    @_jit
    def _gated_ls1_test(wb, esc, tg, hv, shared, xb, yb, xib, lam, fN, sigma, test_std, threshold, offset,
                        scale):
        """The tests of the ``m = tg.shape[0]`` runs of a chunk: ``wb[j]`` = the factor of run ``j``'s
        noise (``0.0`` if its test passes, else ``sigma``), ``esc[j]`` counts the passes."""
        m = tg.shape[0]
        if shared:
            h = hv[0]
            for j in range(m):
                ok = _gated_ls1_passes(xb[j], yb[j], tg[j], h, xib[j], lam, fN, test_std, threshold, offset, scale)
                wb[j] = 0.0 if ok else sigma
                esc[j] += int64(ok)
        else:
            for j in range(m):
                ok = _gated_ls1_passes(xb[j], yb[j], tg[j], hv[j], xib[j], lam, fN, test_std, threshold, offset,
                                       scale)
                wb[j] = 0.0 if ok else sigma
                esc[j] += int64(ok)

    @_jit
    def _gated_ls1_step(th, xb, yb, wb, nub, lam, eta, watch, wx, wy, mat):
        """The step of the ``m = th.shape[0]`` runs of a chunk, noise factors ``wb``, noise ``nub``;
        with ``watch``, ``mat[j]`` counts run ``j``'s steps equal to the watched point's noise-free step."""
        m = th.shape[0]
        if watch:
            for j in range(m):
                t = th[j]
                step = ((0.0 + xb[j] * t - yb[j]) * xb[j] + lam * t + wb[j] * nub[j]) * eta
                target = eta * ((0.0 + t * wx - wy) * wx + lam * t)
                mat[j] += int64(abs(step - target) <= 1e-12 * (1.0 + abs(target)))
                th[j] = t - step
        else:
            for j in range(m):
                t = th[j]
                th[j] = t - ((0.0 + xb[j] * t - yb[j]) * xb[j] + lam * t + wb[j] * nub[j]) * eta

    @_jit
    def gated_ls1(states, istates, tstates, ibuf, n, steps, theta, theta_g, hinv, X, y, lam, eta, sigma, gate,
                  test_std, threshold, offset, scale, watch, wx, wy, esc, mat):
        """``steps`` steps of :func:`dpverify.sim.gated_sgd.gated_sgd` on a one-dimensional
        :class:`~dpverify.sim.LeastSquares` (``X``, ``y`` its single column and labels), for the
        ``n`` runs of a chunk (block ``i`` = rows ``i*BLOCK ..``), in place on ``theta``, ``esc``
        and ``mat``.

        Per block and step, as the NumPy path: each run's sample index from the index stream
        ``istates`` (its buffered 32-bit half in ``ibuf[i] = (has, half)``, kept between calls as
        the generator keeps it), its noise from ``states``, its test noise from ``tstates`` (when
        ``gate``); the round's ``hinv`` (``(1,)`` when every run shares it, else ``(n,)``) and start
        ``theta_g`` come from the caller.  Every product is a one-term ``einsum``/``matmul``,
        computed as ``0.0 + a * b`` as those sums start from zero (``-0.0`` becomes ``0.0``).
        Each step of a block goes chunk by chunk of ``_GATED_CHUNK`` runs: the three streams' draws
        into buffers, then the tests, then the steps (section comment above).
        """
        N = X.shape[0]
        fN = float(N)
        hi_index = uint64(N - 1)
        shared = hinv.shape[0] == 1
        xb = np.empty(_GATED_CHUNK)
        yb = np.empty(_GATED_CHUNK)
        nub = np.empty(_GATED_CHUNK)
        xib = np.empty(_GATED_CHUNK)
        wb = np.full(_GATED_CHUNK, sigma)     # the noise's factor: sigma, unless a test passes
        for i in range(states.shape[0]):
            lo = i * _BLOCK
            hi = min(n, lo + _BLOCK)
            a, b, c, k = states[i, 0], states[i, 1], states[i, 2], states[i, 3]
            ia, ib, ic, ik = istates[i, 0], istates[i, 1], istates[i, 2], istates[i, 3]
            ta, tb, tc, tk = tstates[i, 0], tstates[i, 1], tstates[i, 2], tstates[i, 3]
            has, half = ibuf[i, 0] != uint64(0), ibuf[i, 1]
            for _ in range(steps):
                for s in range(lo, hi, _GATED_CHUNK):
                    e = min(hi, s + _GATED_CHUNK)
                    m = e - s
                    ia, ib, ic, ik, has, half = _fill_samples(xb, yb, m, X, y, hi_index, ia, ib, ic, ik, has, half)
                    a, b, c, k = _fill_scaled(nub, m, 1.0, a, b, c, k)
                    if gate:
                        ta, tb, tc, tk = _fill_scaled(xib, m, 1.0, ta, tb, tc, tk)
                        _gated_ls1_test(wb, esc[s:e], theta_g[s:e], hinv if shared else hinv[s:e], shared, xb, yb,
                                        xib, lam, fN, sigma, test_std, threshold, offset, scale)
                    _gated_ls1_step(theta[s:e], xb, yb, wb, nub, lam, eta, watch, wx, wy, mat[s:e])
            states[i, 0], states[i, 1], states[i, 2], states[i, 3] = a, b, c, k
            istates[i, 0], istates[i, 1], istates[i, 2], istates[i, 3] = ia, ib, ic, ik
            tstates[i, 0], tstates[i, 1], tstates[i, 2], tstates[i, 3] = ta, tb, tc, tk
            ibuf[i, 0], ibuf[i, 1] = uint64(1) if has else uint64(0), half

    # -- gated SGD, one sample per step, least squares in 2..GATED_MAX_DIM dimensions -----------
    # As gated_ls1, stream by stream for a chunk of runs of one step, then the chunk's tests and steps.
    # The NumPy path sums these models' dot products in index order from 0.0 (gated_sgd._dot_rows: one
    # multiply and one add a term), so every run's arithmetic below is its arithmetic, term for term.
    GATED_MAX_DIM = 8

    @_jit
    def _fill_sample_rows(xb, yb, m, D, X, y, hi_index, a, b, c, k, has, half):
        """``xb[j D : (j + 1) D]``, ``yb[j]`` = features and label of ``m`` samples drawn uniformly
        (:func:`_index` on ``[0, hi_index]``); returns the state and the buffered 32-bit half."""
        for j in range(m):
            q, a, b, c, k, has, half = _index(a, b, c, k, has, half, hi_index)
            for d in range(D):
                xb[j * D + d] = X[q, d]
            yb[j] = y[q]
        return a, b, c, k, has, half

    @_jit
    def _gated_ls_test(wb, esc, tg, hv, shared, xb, yb, xib, D, lam, fN, sigma, test_std, threshold, offset,
                       scale, gbuf):
        """The tests of the ``m = esc.shape[0]`` runs of a chunk (``tg`` their round starts, row-major): the
        round start's sample gradient ``g``, ``c = H^-1 g / N + offset`` (``hv`` one ``D x D`` inverse, or
        one a run), and ``wb[j]`` = ``0.0`` if every ``|scale c_i + test_std xi_i| <= threshold`` (a NaN
        fails, as NumPy's ``max`` propagates it), else ``sigma``; ``esc[j]`` counts the passes. (Offsets into
        the chunk's buffers, not a slice a run: slices made per run measured 35 % slower here.)"""
        m = esc.shape[0]
        for j in range(m):
            o = j * D
            s = 0.0
            for d in range(D):
                s = s + xb[o + d] * tg[o + d]
            r = s - yb[j]
            for d in range(D):
                gbuf[d] = r * xb[o + d] + lam * tg[o + d]
            base = 0 if shared else j * D * D
            ok = True
            for i in range(D):
                cc = 0.0
                for kk in range(D):
                    cc = cc + gbuf[kk] * hv[base + i * D + kk]
                v = abs(scale * (cc / fN + offset) + test_std * xib[o + i])
                if not v <= threshold:
                    ok = False
            wb[j] = 0.0 if ok else sigma
            esc[j] += int64(ok)

    @_jit
    def _gated_ls_step(th, xb, yb, wb, nub, D, lam, eta, watch, wx, wy, mat, sbuf):
        """The step of the ``m = mat.shape[0]`` runs of a chunk (``th`` row-major), noise factors ``wb``,
        noise ``nub``; with ``watch``, ``mat[j]`` counts run ``j``'s steps equal (to NumPy's tolerance) to
        the watched point's noise-free step."""
        m = mat.shape[0]
        for j in range(m):
            o = j * D
            s = 0.0
            for d in range(D):
                s = s + xb[o + d] * th[o + d]
            r = s - yb[j]
            for d in range(D):
                sbuf[d] = (r * xb[o + d] + lam * th[o + d] + wb[j] * nub[o + d]) * eta
            if watch:
                sw = 0.0
                for d in range(D):
                    sw = sw + th[o + d] * wx[d]
                rw = sw - wy
                tmax = 0.0
                nan = False
                for d in range(D):
                    t = abs(eta * (rw * wx[d] + lam * th[o + d]))
                    if t != t:
                        nan = True
                    elif t > tmax:
                        tmax = t
                tol = 1e-12 * (1.0 + tmax)
                ok = not nan
                for d in range(D):
                    if not abs(sbuf[d] - eta * (rw * wx[d] + lam * th[o + d])) <= tol:
                        ok = False
                mat[j] += int64(ok)
            for d in range(D):
                th[o + d] = th[o + d] - sbuf[d]

    @_jit
    def gated_ls(states, istates, tstates, ibuf, n, steps, D, theta, theta_g, hinv, X, y, lam, eta, sigma, gate,
                 test_std, threshold, offset, scale, watch, wx, wy, esc, mat):
        """``steps`` steps of :func:`dpverify.sim.gated_sgd.gated_sgd` on a :class:`~dpverify.sim.LeastSquares`
        in ``D`` = 2..``GATED_MAX_DIM`` dimensions (``X`` ``(N, D)``, ``theta``/``theta_g`` the chunk's iterates
        and round starts, row-major), for its ``n`` runs, in place on ``theta``, ``esc`` and ``mat``; the
        streams and blocks as :func:`gated_ls1` (``D`` noise and ``D`` test-noise values a run and step, in
        the order NumPy fills a block's ``(runs, D)`` array); ``hinv`` ``(D * D,)`` when every run shares the
        round's inverse Hessian, else ``(n * D * D,)``."""
        N = X.shape[0]
        fN = float(N)
        hi_index = uint64(N - 1)
        shared = hinv.shape[0] == D * D
        xb = np.empty(_GATED_CHUNK * D)
        yb = np.empty(_GATED_CHUNK)
        nub = np.empty(_GATED_CHUNK * D)
        xib = np.empty(_GATED_CHUNK * D)
        wb = np.full(_GATED_CHUNK, sigma)     # the noise's factor: sigma, unless a test passes
        gbuf = np.empty(D)
        sbuf = np.empty(D)
        for i in range(states.shape[0]):
            lo = i * _BLOCK
            hi = min(n, lo + _BLOCK)
            a, b, c, k = states[i, 0], states[i, 1], states[i, 2], states[i, 3]
            ia, ib, ic, ik = istates[i, 0], istates[i, 1], istates[i, 2], istates[i, 3]
            ta, tb, tc, tk = tstates[i, 0], tstates[i, 1], tstates[i, 2], tstates[i, 3]
            has, half = ibuf[i, 0] != uint64(0), ibuf[i, 1]
            for _ in range(steps):
                for s in range(lo, hi, _GATED_CHUNK):
                    e = min(hi, s + _GATED_CHUNK)
                    m = e - s
                    ia, ib, ic, ik, has, half = _fill_sample_rows(xb, yb, m, D, X, y, hi_index, ia, ib, ic, ik,
                                                                  has, half)
                    a, b, c, k = _fill_scaled(nub, m * D, 1.0, a, b, c, k)
                    if gate:
                        ta, tb, tc, tk = _fill_scaled(xib, m * D, 1.0, ta, tb, tc, tk)
                        _gated_ls_test(wb, esc[s:e], theta_g[s * D:e * D], hinv if shared else hinv[s * D * D:e * D * D],
                                       shared, xb, yb, xib, D, lam, fN, sigma, test_std, threshold, offset, scale,
                                       gbuf)
                    _gated_ls_step(theta[s * D:e * D], xb, yb, wb, nub, D, lam, eta, watch, wx, wy, mat[s:e], sbuf)
            states[i, 0], states[i, 1], states[i, 2], states[i, 3] = a, b, c, k
            istates[i, 0], istates[i, 1], istates[i, 2], istates[i, 3] = ia, ib, ic, ik
            tstates[i, 0], tstates[i, 1], tstates[i, 2], tstates[i, 3] = ta, tb, tc, tk
            ibuf[i, 0], ibuf[i, 1] = uint64(1) if has else uint64(0), half


def self_check() -> bool:
    """Check (once per process) that the fused generator reproduces NumPy's draws.

    Compares 2**16 standard normals (about 600 of them from the rejection
    branches) and 4096 bounded integers with ``Generator.standard_normal`` and
    ``Generator.integers`` of an ``SFC64`` generator, and the seeding
    (:func:`sfc64_block_states`, :func:`pcg64_block_integers`) with NumPy's
    ``SeedSequence``, ``SFC64`` and ``PCG64``.  On a mismatch, warns and
    returns ``False`` (the simulators then use their NumPy paths).
    """
    global _CHECKED
    if _CHECKED is not None:
        return _CHECKED
    if numba is None:
        _CHECKED = False
        return False
    from .rng import block_rng, sfc64_state

    ok = True
    rng = block_rng(12345, 6)
    states = sfc64_state(rng)[None, :].copy()
    got = np.empty((1, 1 << 16))
    fill_normal(states, got)
    ok &= bool(np.array_equal(got[0], rng.standard_normal(1 << 16)))
    ok &= bool(np.array_equal(states[0], sfc64_state(rng)))
    for hi in (0, 1, 6, 39, 1000, 2**31 + 3):
        rng = block_rng(12345, 7)
        state = sfc64_state(rng)
        idx = np.empty(4096, dtype=np.int64)
        fill_index(state, hi, idx)
        ok &= bool(np.array_equal(idx, rng.integers(0, hi + 1, size=4096)))
    # the seeding: block states and PCG64 streams as NumPy derives them (one- to three-word seeds)
    for seed in (0, 7, 2**32 + 5, 2**70 + 3):
        for child in (-1, 0, 3):
            got = np.empty((3, 4), dtype=np.uint64)
            sfc64_block_states(seed_entropy(seed), 2**32 - 3, 2**32, child, got)
            want = [sfc64_state(block_rng(seed, b, None if child < 0 else child)) for b in range(2**32 - 3, 2**32)]
            ok &= bool(np.array_equal(got, np.stack(want)))
        lows, spans, rows = np.array([1, 0]), np.array([49, 0]), np.array([5, 3])
        got = np.empty((2, 8), dtype=np.int64)
        pcg64_block_integers(seed_entropy(seed), 11, 1, lows, spans, rows, got)
        for i, b in enumerate((11, 12)):
            g = np.random.Generator(np.random.PCG64(np.random.SeedSequence(seed, spawn_key=(b, 1))))
            for k in range(2):
                ok &= bool(np.array_equal(got[k, 5 * i:5 * i + rows[i]],
                                          g.integers(lows[k], lows[k] + spans[k] + 1, size=rows[i])))
    if not ok:  # pragma: no cover - only if NumPy changes its generator algorithms
        warnings.warn("dpverify.sim: the fused kernels' random numbers differ from NumPy's; "
                      "using the NumPy paths", RuntimeWarning, stacklevel=2)
    _CHECKED = ok
    return ok
