"""Compiled kernels of noisy gradient descent whose noise level is a schedule or proportional to each
run's gradient norm (a declared rule, :mod:`dpverify.sim.adaptive`): on a diagonal quadratic or a
separable cosine sum (``adaptive_quadratic``) and on a logistic or least-squares model
(``adaptive_linear``, full-batch gradients in BLAS's order of summation).  Calling convention and
random numbers: :mod:`dpverify.sim.draws`.
"""

from __future__ import annotations

import numpy as np

from .jit import chunk_width, numba
from .rng import BLOCK

__all__ = ["adaptive_linear", "adaptive_quadratic", "linear_model_grads", "scaled_sines", "sq_norms"]

if numba is not None:
    from numba import uint64

    from .draws import fill_rows_rooted as _fill_rows_rooted
    from .draws import fill_rows_scaled as _fill_rows_scaled
    from .draws import fill_scaled as _fill_scaled
    from .jit import borrow as _borrow
    from .jit import inline as _inline
    from .jit import jit as _jit

    _BLOCK = int(BLOCK)

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
    def _chunk_levels(t, j0, nr, D, gs, srs, lo, noise, proportional, th, star, gtrack, want_g, dtrack, want_d, sr,
                      dv, bad, i):
        """A chunk's rows at iterate ``t`` once its gradients ``gs`` are in: their ``||g||^2`` into ``srs``, then
        the tracks and checks (:func:`_adaptive_level`)."""
        for rr in range(nr):
            srs[rr] = _sq_norm(gs, rr * D, D)
        _adaptive_level(t, j0 // D, nr, lo, noise, proportional, th, star, gtrack, want_g, dtrack, want_d, sr, dv,
                        bad, i)

    @_inline
    def _step_stops(etas, t, bad, i):
        """Whether the task stops before step ``t``: a bad value recorded (this step's size, checked here,
        or an earlier noise level)."""
        eta = etas[t]
        if not (np.isfinite(eta) and eta >= 0.0):
            bad[0], bad[1], bad[2], bad[3] = i, t + 1, 0.0, eta
        return bad[0] >= 0

    @_inline
    def _chunk_noise(buf, m, nr, D, srs, srs_bits, s, t, bad, i, proportional, own_pass, a, b, cc, k):
        """The normals of a chunk of ``m`` values (``nr`` rows) times its noise level into ``buf``: ``s``, or
        (``proportional``) each row's ``s ||g||`` from ``srs`` as its normals are drawn (``own_pass`` and
        ``D == 1``: the levels in a pass of their own, :func:`_fill_rows_scaled`). ``(ok, a, b, cc, k)``:
        ``ok`` False where a level is bad (recorded in ``bad``)."""
        if proportional:
            if not _levels_surely_finite(srs_bits, s) and _bad_row_level(srs, s, t, bad, i):
                return False, a, b, cc, k
            if own_pass and D == 1:
                for rr in range(nr):
                    srs[rr] = s * np.sqrt(srs[rr])
                a, b, cc, k = _fill_rows_scaled(buf, nr, D, srs, a, b, cc, k)
            else:
                a, b, cc, k = _fill_rows_rooted(buf, nr, D, srs, s, a, b, cc, k)
        else:
            a, b, cc, k = _fill_scaled(buf, m, s, a, b, cc, k)
        return True, a, b, cc, k

    @_inline
    def _store_block(out, th, lo, hi, D, states, i, a, b, cc, k):
        """A block's last iterates into ``out`` and its generator's state back into ``states``."""
        for r in range(hi - lo):
            for d in range(D):
                out[lo + r, d] = th[r * D + d]
        states[i, 0], states[i, 1], states[i, 2], states[i, 3] = a, b, cc, k

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
            _chunk_levels(0, j0, m // D, D, gs, srs, lo, noise, proportional, th, star, gtrack, want_g, dtrack,
                          want_d, sr, dv, bad, i)
        for t in range(T):
            if _step_stops(etas, t, bad, i):
                return False
            eta = etas[t]
            s = noise[t]
            for j0 in range(0, nv, CH):
                m = min(CH, nv - j0)
                nr = m // D
                seg = th[j0:j0 + m]
                gs = g[j0:j0 + m]
                srs = sr[j0 // D:j0 // D + nr]
                ok, a, b, cc, k = _chunk_noise(buf, m, nr, D, srs, sr_bits[j0 // D:j0 // D + nr], s, t, bad, i,
                                               proportional, True, a, b, cc, k)
                if not ok:
                    return False
                for j in range(m):
                    x = seg[j] - (buf[j] + gs[j]) * eta
                    seg[j] = x
                    if cosine:
                        gs[j] = eigs[j] * np.sin(x)
                    else:
                        gs[j] = eigs[j] * (x - star[j])
                _chunk_levels(t + 1, j0, nr, D, gs, srs, lo, noise, proportional, th, star, gtrack, want_g, dtrack,
                              want_d, sr, dv, bad, i)
        _store_block(out, th, lo, hi, D, states, i, a, b, cc, k)
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
    def _fma_chain(acc, rows, coef, K, nr):
        """``acc[r] = fma(rows[k nr + r], coef[k], ...)`` for ``k = 0..K-1`` from ``0.0``: one chain of fused
        multiply-adds over ``k`` for every ``r < nr`` (``rows`` holds ``K`` rows of ``nr`` values), the order
        BLAS takes for each element (section comment above).  The loop over ``r`` runs innermost, across the
        chains, so that it vectorises."""
        for r in range(nr):
            acc[r] = 0.0
        for k in range(K):
            x = coef[k]
            row = rows[k * nr:(k + 1) * nr]
            for r in range(nr):
                acc[r] = _fma(row[r], x, acc[r])

    @_inline
    def _linear_grads_rows(seg, nr, D, X, ny, yv, logistic, fN, ridge, gs, thT, mT, accT):
        """:func:`_linear_grads` for ``nr`` rows whose margins ``mT`` holds.

        Each element's sums are chains over the inner index as BLAS takes them; the loops run across
        rows (``thT``, ``accT``: ``nr * D`` scratch values, ``mT``: ``nr * N``, transposed), so that
        they vectorise and every chain has others beside it.  The margins and the sums are the same chains
        (:func:`_fma_chain`, inlined: the same loops as written out twice); a helper that transposed the
        features for the sums ran the adaptive job 3-4 % slower (A/B, 80,000 runs of N = 60, D = 3: 0.315
        against 0.302 s of CPU), so the sums read a column of ``X`` in place."""
        N = X.shape[0]
        for r in range(nr):
            for d in range(D):
                thT[d * nr + r] = seg[r * D + d]
        for nn in range(N):
            mr = mT[nn * nr:(nn + 1) * nr]
            _fma_chain(mr, thT, X[nn], D, nr)      # margins: chains over d of theta_d x_nd
            if logistic:
                c = ny[nn]
                for r in range(nr):
                    mr[r] = c * (1.0 / (1.0 + np.exp(-(c * mr[r]))))
            else:
                c = yv[nn]
                for r in range(nr):
                    mr[r] = mr[r] - c
        for d in range(D):
            _fma_chain(accT[d * nr:(d + 1) * nr], mT, X[:, d], N, nr)    # sums: chains over n of r_n x_nd
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
                _chunk_levels(0, j0, nr, D, gs, srs, lo, noise, proportional, th, star, gtrack, want_g, dtrack,
                              want_d, sr, dv, bad, i)
            for t in range(T):
                if _step_stops(etas, t, bad, i):
                    return
                eta = etas[t]
                s = noise[t]
                for j0 in range(0, nv, CH):
                    m = min(CH, nv - j0)
                    nr = m // D
                    seg = th[j0:j0 + m]
                    gs = g[j0:j0 + m]
                    srs = sr[j0 // D:j0 // D + nr]
                    ok, a, b, cc, k = _chunk_noise(buf, m, nr, D, srs, sr_bits[j0 // D:j0 // D + nr], s, t, bad, i,
                                                   proportional, False, a, b, cc, k)
                    if not ok:
                        return
                    for j in range(m):
                        seg[j] = seg[j] - (buf[j] + gs[j]) * eta
                    _linear_grads(seg, nr, D, X, ny, yv, logistic, fN, ridge, gs, thT, mT, accT)
                    _chunk_levels(t + 1, j0, nr, D, gs, srs, lo, noise, proportional, th, star, gtrack, want_g, dtrack,
                                  want_d, sr, dv, bad, i)
            _store_block(out, th, lo, hi, D, states, i, a, b, cc, k)

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


