"""The compiled kernels' random numbers: NumPy's draws, value for value, in registers.

Block ``b`` draws from ``block_rng(seed, b)``, an ``SFC64`` generator.  The
kernels take its four state words (:func:`~dpverify.sim.rng.sfc64_state`) and
advance them in local variables with the SFC64 algorithm (:func:`sfc64_next`); standard normals
(:func:`normal`) use the same 256-layer ziggurat as NumPy's ``Generator.standard_normal`` (same
tables, same use of the bits, same tail and wedge rejection steps), and
mini-batch indices (:func:`bounded_index`) the same bounded-integer rejection method as NumPy's
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

:func:`self_check` verifies all this at first use; if it ever fails (e.g. a NumPy release changes
its algorithms) the fused path is switched off with a warning and the NumPy paths run.  The switch
itself is here too: :func:`fused_enabled` (numba present, the check passed, not turned off by
:func:`set_fused` ``(False)`` or the environment variable ``DPVERIFY_FUSED=0``).  See
:mod:`dpverify.sim.algorithms` for which results are bit-identical between the fused and NumPy
paths and which agree to rounding.

Drawing in a kernel
-------------------
Every kernel has the same calling convention: ``states`` (``(nb, 4)`` uint64,
one row per block of the task, updated in place), ``n`` (runs of the task;
block ``i`` holds rows ``i*BLOCK .. min(n, (i+1)*BLOCK) - 1``), the
algorithm's parameters, and output arrays for the final iterates (and, where
fused, the per-run statistic).  Per block ``i``: load ``a, b, c, k = states[i]``; draw normals with
``z, a, b, c, k = normal(a, b, c, k)`` (and indices with :func:`bounded_index`) in the
order the NumPy reference path draws them; store the state back.  A buffer of normals is drawn by
:func:`fill_scaled` (:func:`fill_rows_scaled` with a level per row), which is kept out
of line in every kernel (see the comment above it): draw with it rather than
with a loop of :func:`normal` calls inside a large kernel.
"""

from __future__ import annotations

import os
import warnings

import numpy as np

from .jit import numba
from .rng import BLOCK, block_rng, sfc64_state

__all__ = ["numba_available", "fused_enabled", "set_fused", "self_check", "seed_entropy"]

if numba is not None:
    from numba import int64, uint32, uint64
    from numba.np.random._constants import (fi_double, ki_double, wi_double, ziggurat_nor_inv_r,
                                            ziggurat_nor_r)

    from .jit import borrow as _borrow
    from .jit import inline as _inline
    from .jit import jit as _jit

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


if numba is not None:
    _WI = np.ascontiguousarray(wi_double, dtype=np.float64)
    _KI = np.ascontiguousarray(ki_double, dtype=np.uint64)
    _FI = np.ascontiguousarray(fi_double, dtype=np.float64)
    _ZIG_R = float(ziggurat_nor_r)
    _ZIG_INV_R = float(ziggurat_nor_inv_r)
    _MASK52 = np.uint64(0x000FFFFFFFFFFFFF)
    _MASK32 = np.uint64(0xFFFFFFFF)
    _TO_UNIT = 1.0 / 9007199254740992.0  # 2**-53
    _BLOCK = int(BLOCK)

    # -- SFC64 ------------------------------------------------------------
    @_inline
    def sfc64_next(a, b, c, k):
        """One SFC64 step: returns ``(output, a, b, c, counter)``."""
        out = a + b + k
        return (out, b ^ (b >> uint64(11)), c + (c << uint64(3)),
                ((c << uint64(24)) | (c >> uint64(40))) + out, k + uint64(1))

    @_inline
    def to_unit(u):
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
        """Rejection branch of :func:`normal`, entered with the rejected draw *r0*."""
        while True:
            x, idx, rabs, accepted = _layer(r0)
            if accepted:
                return x, a, b, c, k
            if idx == 0:                       # tail beyond the base layer
                while True:
                    u, a, b, c, k = sfc64_next(a, b, c, k)
                    xx = -_ZIG_INV_R * np.log1p(-to_unit(u))
                    u, a, b, c, k = sfc64_next(a, b, c, k)
                    yy = -np.log1p(-to_unit(u))
                    if yy + yy > xx * xx:
                        if (rabs >> uint64(8)) & uint64(1):
                            return -(_ZIG_R + xx), a, b, c, k
                        return _ZIG_R + xx, a, b, c, k
            else:                              # wedge
                u, a, b, c, k = sfc64_next(a, b, c, k)
                if (_FI[idx - 1] - _FI[idx]) * to_unit(u) + _FI[idx] < np.exp(-0.5 * x * x):
                    return x, a, b, c, k
            r0, a, b, c, k = sfc64_next(a, b, c, k)

    # The draw loops below are compiled as functions of their own, never inlined into a kernel: LLVM
    # does not inline a function that calls itself, hence the self-call on a branch never taken (numba
    # has no ``noinline``).  Inlined into a large kernel, the loop lost registers to the kernel around
    # it and reloaded its pointers on every draw; on its own it keeps the generator state, the buffer
    # and the scale in registers, as the fill limit's loop does.  The kernels calling them run 5-7 %
    # faster (A/B, one thread, CPU), with the same draws in the same order.  They allocate nothing, so
    # they are compiled without reference counting, like the kernels' block loops.
    @_borrow
    def fill_scaled(buf, m, scale, a, b, c, k):
        """``buf[:m]`` = ``scale`` times standard normals (``scale = 1`` is exact: ``z * 1.0 == z``)."""
        if m < 0:                              # never: keeps the loop out of its callers (above)
            return fill_scaled(buf, -m, scale, a, b, c, k)
        for j in range(m):
            z, a, b, c, k = normal(a, b, c, k)
            buf[j] = z * scale
        return a, b, c, k

    @_borrow
    def fill_rows_scaled(buf, rows, D, levels, a, b, c, k):
        """``buf[r D + d]`` = ``levels[r]`` times a standard normal, ``r < rows``, ``d < D`` (row-major)."""
        if rows < 0:                           # never: keeps the loop out of its callers (above)
            return fill_rows_scaled(buf, -rows, D, levels, a, b, c, k)
        for r in range(rows):
            sv = levels[r]
            for d in range(D):
                z, a, b, c, k = normal(a, b, c, k)
                buf[r * D + d] = z * sv
        return a, b, c, k

    @_borrow
    def fill_rows_rooted(buf, rows, D, sq, nt, a, b, c, k):
        """:func:`fill_rows_scaled` with the levels ``nt * sqrt(sq[r])`` computed as each row's normals
        are drawn: for ``D >= 2`` the root then costs nothing (the draws leave the floating-point units
        idle), where a pass of its own cost 6 %; with one normal a row the pass (four roots an
        instruction) is faster (1.24 times slower here)."""
        if rows < 0:                           # never: keeps the loop out of its callers (above)
            return fill_rows_rooted(buf, -rows, D, sq, nt, a, b, c, k)
        for r in range(rows):
            sv = nt * np.sqrt(sq[r])
            for d in range(D):
                z, a, b, c, k = normal(a, b, c, k)
                buf[r * D + d] = z * sv
        return a, b, c, k

    @_inline
    def normal(a, b, c, k):
        """One standard normal: returns ``(z, a, b, c, counter)``."""
        r0, a, b, c, k = sfc64_next(a, b, c, k)
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
        u, a, b, c, k = sfc64_next(a, b, c, k)
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
    def bounded_index(a, b, c, k, has, buf, hi):
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
        spawn-key entries); the caller checks (``fused.block_states``)."""
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
                _, a, b, c, k = sfc64_next(a, b, c, k)
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
        """:func:`bounded_index` on a PCG64 stream: uniform in ``[0, hi]`` (``hi < 2**32 - 1``), 32-bit halves of
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
                z, a, b, c, k = normal(a, b, c, k)
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
                z, a, b, c, k = normal(a, b, c, k)
                buf[j] = z
        return a, b, c, k

    @_jit
    def fill_index(state, hi, out):
        """Fill *out* (int64) with integers in ``[0, hi]`` from one fresh block state."""
        a, b, c, k = state[0], state[1], state[2], state[3]
        has, buf = False, uint64(0)
        uhi = uint64(hi)
        for j in range(out.size):
            v, a, b, c, k, has, buf = bounded_index(a, b, c, k, has, buf, uhi)
            out[j] = v
        state[0], state[1], state[2], state[3] = a, b, c, k

    # -- shared pieces --------------------------------------------------------
    @_jit
    def block_moments_into(x, n, out):
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
