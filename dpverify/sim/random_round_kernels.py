"""Compiled kernel of random-round noisy SGD on a diagonal quadratic (:mod:`dpverify.sim.random_round`):
each run draws its round ``R`` first, then stops updating after ``R`` steps (its noise is still drawn,
so every run's stream is the NumPy path's).  Calling convention and random numbers: :mod:`dpverify.sim.draws`.
"""

from __future__ import annotations

import numpy as np

from .jit import numba
from .rng import BLOCK

__all__ = ["random_round_quadratic"]

if numba is not None:
    from .draws import fill_scaled as _fill_scaled
    from .draws import sfc64_next as _next
    from .draws import to_unit as _unit
    from .jit import jit as _jit

    _BLOCK = int(BLOCK)

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

