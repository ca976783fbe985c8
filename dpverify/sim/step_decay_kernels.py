"""Compiled kernel of step-decay SGD with early momentum on separable losses
(:mod:`dpverify.sim.step_decay`): ``P`` problems sharing every draw, full gradients or Floyd
mini-batches, output indices drawn by the caller, the runs grouped by them once a phase so that each
step copies only its picked rows; one compiled variant per loss shape, and inside it one loop per
combination of the terms the gradient has.  Calling convention and random numbers:
:mod:`dpverify.sim.draws`.
"""

from __future__ import annotations

import numpy as np

from .jit import numba
from .rng import BLOCK

__all__ = ["half_sin2", "step_decay_separable"]

if numba is not None:
    from numba import uint64

    from .draws import bounded_index as _index
    from .draws import fill_scaled as _fill_scaled
    from .jit import borrow as _borrow
    from .jit import inline as _inline
    from .jit import jit as _jit
    from .updates.compiled import heavy_ball_step as _sd_step

    _BLOCK = int(BLOCK)

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
        """``w phi'(x)`` of :class:`~dpverify.sim.problems.separable.SeparableLoss` (``sn = sin(2 x)``, sine only).

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
                seg[j], pvs[j] = _sd_step(th, pvs[j], g, eta, r_t, 0.0)
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
                seg[j], pvs[j] = _sd_step(th, pvs[j], g, eta, r_t, 0.0)

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

