"""Compiled kernels of gated SGD (:mod:`dpverify.sim.gated_sgd`): one sample a step, noise unless an
influence test passes, on least squares in one dimension (``gated_ls1``) and in
2..``GATED_MAX_DIM`` dimensions (``gated_ls``), the steps of one round.  Calling convention and
random numbers: :mod:`dpverify.sim.draws`.
"""

from __future__ import annotations

import numpy as np

from .jit import numba
from .rng import BLOCK

__all__ = ["GATED_MAX_DIM", "gated_ls", "gated_ls1"]

if numba is not None:
    from numba import int64, uint64

    from .draws import bounded_index as _index
    from .draws import fill_scaled as _fill_scaled
    from .jit import inline as _inline
    from .jit import jit as _jit

    _BLOCK = int(BLOCK)

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
        ctx = (theta, theta_g, hinv, hinv.shape[0] == 1, X, y, uint64(N - 1), lam, float(N), eta, sigma, gate, test_std,
               threshold, offset, scale, watch, wx, wy, esc, mat, np.empty(_GATED_CHUNK), np.empty(_GATED_CHUNK),
               np.empty(_GATED_CHUNK), np.empty(_GATED_CHUNK),
               np.full(_GATED_CHUNK, sigma))      # the noise's factor: sigma, unless a test passes
        _gated_blocks(states, istates, tstates, ibuf, n, steps, _gated_ls1_chunk, ctx)

    @_inline
    def _gated_ls1_chunk(s, e, st, ctx):
        """Runs ``s .. e - 1`` of one step of :func:`gated_ls1`: the three streams' draws into the chunk's
        buffers, the tests, the steps; returns the streams' states ``st`` (:func:`_gated_blocks`)."""
        a, b, c, k, ia, ib, ic, ik, ta, tb, tc, tk, has, half = st
        (theta, theta_g, hinv, shared, X, y, hi_index, lam, fN, eta, sigma, gate, test_std, threshold, offset, scale,
         watch, wx, wy, esc, mat, xb, yb, nub, xib, wb) = ctx
        m = e - s
        ia, ib, ic, ik, has, half = _fill_samples(xb, yb, m, X, y, hi_index, ia, ib, ic, ik, has, half)
        a, b, c, k = _fill_scaled(nub, m, 1.0, a, b, c, k)
        if gate:
            ta, tb, tc, tk = _fill_scaled(xib, m, 1.0, ta, tb, tc, tk)
            _gated_ls1_test(wb, esc[s:e], theta_g[s:e], hinv if shared else hinv[s:e], shared, xb, yb,
                            xib, lam, fN, sigma, test_std, threshold, offset, scale)
        _gated_ls1_step(theta[s:e], xb, yb, wb, nub, lam, eta, watch, wx, wy, mat[s:e])
        return a, b, c, k, ia, ib, ic, ik, ta, tb, tc, tk, has, half

    @_inline
    def _gated_blocks(states, istates, tstates, ibuf, n, steps, chunk, ctx):
        """The loop of both gated kernels: per block, its three streams' states (and the index stream's
        buffered 32-bit half) loaded, ``steps`` steps of its runs in chunks of ``_GATED_CHUNK`` runs
        (``chunk(s, e, st, ctx)`` runs ``s .. e - 1`` with the streams' states ``st`` and returns them), the
        states stored back."""
        for i in range(states.shape[0]):
            lo = i * _BLOCK
            hi = min(n, lo + _BLOCK)
            st = (states[i, 0], states[i, 1], states[i, 2], states[i, 3],
                  istates[i, 0], istates[i, 1], istates[i, 2], istates[i, 3],
                  tstates[i, 0], tstates[i, 1], tstates[i, 2], tstates[i, 3], ibuf[i, 0] != uint64(0), ibuf[i, 1])
            for _ in range(steps):
                for s in range(lo, hi, _GATED_CHUNK):
                    st = chunk(s, min(hi, s + _GATED_CHUNK), st, ctx)
            a, b, c, k, ia, ib, ic, ik, ta, tb, tc, tk, has, half = st
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

    @_inline
    def _dot(a, oa, b, ob, D):
        """``sum_d a[oa + d] * b[ob + d]`` in index order from ``0.0``, one multiply and one add a term (the
        NumPy loop's ``gated_sgd._dot_rows``)."""
        s = 0.0
        for d in range(D):
            s = s + a[oa + d] * b[ob + d]
        return s

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
            r = _dot(xb, o, tg, o, D) - yb[j]
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
            r = _dot(xb, o, th, o, D) - yb[j]
            for d in range(D):
                sbuf[d] = (r * xb[o + d] + lam * th[o + d] + wb[j] * nub[o + d]) * eta
            if watch:
                rw = _dot(th, o, wx, 0, D) - wy
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
        ctx = (theta, theta_g, hinv, hinv.shape[0] == D * D, X, y, uint64(N - 1), lam, float(N), eta, sigma, gate,
               test_std, threshold, offset, scale, watch, wx, wy, esc, mat, D, np.empty(_GATED_CHUNK * D),
               np.empty(_GATED_CHUNK), np.empty(_GATED_CHUNK * D), np.empty(_GATED_CHUNK * D),
               np.full(_GATED_CHUNK, sigma), np.empty(D), np.empty(D))
        _gated_blocks(states, istates, tstates, ibuf, n, steps, _gated_ls_chunk, ctx)

    @_inline
    def _gated_ls_chunk(s, e, st, ctx):
        """Runs ``s .. e - 1`` of one step of :func:`gated_ls` (as :func:`_gated_ls1_chunk`)."""
        a, b, c, k, ia, ib, ic, ik, ta, tb, tc, tk, has, half = st
        (theta, theta_g, hinv, shared, X, y, hi_index, lam, fN, eta, sigma, gate, test_std, threshold, offset, scale,
         watch, wx, wy, esc, mat, D, xb, yb, nub, xib, wb, gbuf, sbuf) = ctx
        m = e - s
        ia, ib, ic, ik, has, half = _fill_sample_rows(xb, yb, m, D, X, y, hi_index, ia, ib, ic, ik, has, half)
        a, b, c, k = _fill_scaled(nub, m * D, 1.0, a, b, c, k)
        if gate:
            ta, tb, tc, tk = _fill_scaled(xib, m * D, 1.0, ta, tb, tc, tk)
            _gated_ls_test(wb, esc[s:e], theta_g[s * D:e * D], hinv if shared else hinv[s * D * D:e * D * D],
                           shared, xb, yb, xib, D, lam, fN, sigma, test_std, threshold, offset, scale, gbuf)
        _gated_ls_step(theta[s * D:e * D], xb, yb, wb, nub, D, lam, eta, watch, wx, wy, mat[s:e], sbuf)
        return a, b, c, k, ia, ib, ic, ik, ta, tb, tc, tk, has, half
