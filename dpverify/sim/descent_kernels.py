"""Compiled kernels of noisy gradient descent (:mod:`dpverify.sim.algorithms`): one task of whole blocks
of runs, all ``T`` steps, in one compiled loop that releases the GIL.

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
vectorised update to those coordinates).  Their random numbers are NumPy's
(:mod:`dpverify.sim.draws`), in the order the NumPy paths draw them.

Kernels
-------
``quadratic_delta``   noisy GD on a diagonal quadratic,
                      ``delta_{t+1} = a_t * delta_t - c_t z_t`` with
                      ``a_t = 1 - eta_t * eigs`` and ``c_t = eta_t s_t``
                      (``delta = theta - theta*``); per-run excess risk fused.
``quadratic_theta``   ``K >= 1`` diagonal quadratics sharing the noise, in theta form:
                      ``g = s_t z + eigs (theta - theta*)``, then any update rule's step
                      (:func:`dpverify.sim.updates.compiled.update_step`: plain, bias-corrected
                      momentum, heavy ball), its state beside the iterate.
``linear_gd``         the same for ``K >= 1`` linear models
                      (least squares, logistic, linear loss; L2 ridge;
                      optional per-sample clipping) with full-batch gradients.
``linear_sgd``        mini-batch SGD on one linear model: every step each run
                      draws ``batch`` sample indices uniformly with replacement
                      from its block's second stream (``block_rng(seed, b,
                      child=0)``), then the update of ``linear_gd`` with the
                      mini-batch gradient.

Within a block the loops run step, run, coordinate; a block's state stays in cache for all ``T``
steps.  The hot loop over one block's steps lives in its own compiled function (e.g.
``_quadratic_delta_block``) taking and returning the generator state, so that LLVM optimises it in
isolation (measurably faster than inlining it into the loop over blocks).

Loops over a slice indexed from 0 (``seg = th[j0:j0 + m]``, ``for j in range(m)``) vectorise; the
same loop indexing ``th[j0 + j]`` with an offset numba cannot prove non-negative keeps a
negative-index wrap per access and does not (measured: the adaptive kernel's square roots ran
4x slower).

The per-sample gradient
-----------------------
The linear kernels share the loss derivatives, the update rules' steps and the (clipped) per-sample
gradient sum of a linear model (``_per_sample_sum``: all samples for ``linear_gd``, a drawn
mini-batch for ``linear_sgd``).  They run each block in a function compiled without reference
counting (:func:`~dpverify.sim.jit.borrow`; it allocates nothing): an inlined helper taking arrays
costs, in a kernel with reference counting, one atomic increment and decrement per array and call,
in the innermost loop (10-60 % with small batches).

Adding an algorithm
-------------------
A new algorithm is one more kernel with the calling convention of :mod:`dpverify.sim.draws`, in a
module beside the algorithm's (listed in :data:`dpverify.sim.jit.KERNEL_SOURCES`), plus a few lines
in the Python simulator that builds its arguments and calls ``run_mc``/``ordered_map`` (see
:func:`dpverify.sim.algorithms.pgd`).  Then add it to :data:`dpverify.sim.algorithms.FUSED_PATHS`
(the benchmark prints that) and test it like the others (``tests/engine/test_sim_fused.py``:
bit-identity over ``workers`` and ``chunk_runs``, agreement with the NumPy path, ``sigma = 0``
against a reference loop).
"""

from __future__ import annotations

import numpy as np

from .jit import numba
from .rng import BLOCK

__all__ = ["quadratic_delta", "quadratic_theta", "linear_gd", "linear_sgd"]

if numba is not None:
    from numba import uint64

    from .draws import bounded_index as _index
    from .draws import fill_scaled as _fill_scaled
    from .draws import normal as _normal
    from .jit import borrow as _borrow
    from .jit import inline as _inline
    from .jit import jit as _jit
    from .updates.compiled import update_step as _update_step

    _BLOCK = int(BLOCK)
    _TINY = float(np.finfo(np.float64).tiny)

    @_inline
    def _dloss(kind, m, y):
        """``phi'(m)``: least squares ``m - y``, logistic ``-y expit(-y m)``, linear ``1``."""
        if kind == 0:
            return m - y
        if kind == 1:
            return -y * (1.0 / (1.0 + np.exp(y * m)))
        return 1.0

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
    def _quadratic_theta_block(a, b, c, k, flat, v, eigs, star, etas, scales, code, pa, pb, buf):
        """All ``T`` steps of one block (``flat``/``v``: ``(K, rows * D)``, the iterates and the update
        rule's state); returns the generator state."""
        K, n = flat.shape
        CH = eigs.shape[1]
        for t in range(etas.shape[0]):
            eta = etas[t]
            s = scales[t]
            at = pa[t]
            bt = pb[t]
            for j0 in range(0, n, CH):
                m = min(CH, n - j0)
                a, b, c, k = _fill_scaled(buf, m, s, a, b, c, k)
                for p in range(K):
                    seg = flat[p, j0:j0 + m]
                    vs = v[p, j0:j0 + m]
                    ev = eigs[p]
                    sv = star[p]
                    for j in range(m):
                        th = seg[j]
                        g = buf[j] + ev[j] * (th - sv[j])
                        seg[j], vs[j] = _update_step(code, th, vs[j], g, eta, at, bt)
        return a, b, c, k

    @_jit
    def quadratic_theta(states, n, theta1, eigs, star, etas, scales, code, pa, pb, aux_from_theta,
                        out, x, want_x):
        """``K`` quadratics sharing the noise, in theta form, with any update rule.

        ``eigs``/``star`` ``(K, CH)``: eigenvalues and minimisers tiled to the
        chunk width.  ``g = z s_t + eigs (theta - theta*)``, then the step of the rule
        ``code`` with its parameters ``pa[t]``, ``pb[t]`` (:mod:`dpverify.sim.updates.compiled`;
        its state starts at ``theta1`` with ``aux_from_theta``, else at 0): the NumPy generic
        path's operations.
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
                    v[p, j] = theta1[j % D] if aux_from_theta else 0.0
            a, b, cc, k = _quadratic_theta_block(states[i, 0], states[i, 1], states[i, 2],
                                                 states[i, 3], flat[:, :m], v[:, :m], eigs, star,
                                                 etas, scales, code, pa, pb, buf)
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
        """Full-batch gradient of a linear model at ``th`` into ``g`` (``problems.LinearModel.grad``)."""
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
                         clip, etas, scales, code, pa, pb, aux_from_theta, out, v, g, z, m, rr):
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
                    v[p, r - lo, d] = theta1[d] if aux_from_theta else 0.0
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
                        th[d], v[p, r - lo, d] = _update_step(code, th[d], v[p, r - lo, d], gd, eta, pa[t], pb[t])
        states[i, 0], states[i, 1], states[i, 2], states[i, 3] = a, b, cc, k

    @_jit
    def linear_gd(states, n, theta1, X, y, sqn, nsamp, kind, lam, normaliser, ridge, clip,
                  etas, scales, code, pa, pb, aux_from_theta, out):
        """Noisy GD with full-batch gradients on ``K`` linear models sharing the noise, with the update
        rule ``code`` (as :func:`quadratic_theta`).

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
                             ridge, clip, etas, scales, code, pa, pb, aux_from_theta, out, v, g, z, m, rr)

    @_borrow
    def _linear_sgd_block(states, istates, i, n, theta1, X, y, sqn, hi_index, kind, lam, ridge,
                          clip, etas, scales, batch, factor, code, pa, pb, aux_from_theta, out, v, g,
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
                v[r - lo, d] = theta1[d] if aux_from_theta else 0.0
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
                    th[d], v[r - lo, d] = _update_step(code, th[d], v[r - lo, d], gd, eta, pa[t], pb[t])
        states[i, 0], states[i, 1], states[i, 2], states[i, 3] = a, b, cc, k
        istates[i, 0], istates[i, 1], istates[i, 2], istates[i, 3] = ia, ib, ic, ik

    @_jit
    def linear_sgd(states, istates, n, theta1, X, y, sqn, nsamp, kind, lam, normaliser, ridge,
                   clip, etas, scales, batch, code, pa, pb, aux_from_theta, out):
        """Noisy mini-batch SGD, batches drawn with replacement, on one linear model, with the update
        rule ``code`` (as :func:`quadratic_theta`).

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
                              ridge, clip, etas, scales, batch, factor, code, pa, pb, aux_from_theta,
                              out, v, g, idx, m, rr)

