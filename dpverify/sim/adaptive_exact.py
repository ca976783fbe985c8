"""Exact moments of adaptive noisy GD on a diagonal quadratic (the recursion is derived in
:mod:`dpverify.sim.adaptive`'s docstring, "Exact moments"): the whole ``(T + 1) x d`` second moments
(:func:`adaptive_moments`), or, in memory ``d + T``, each iterate's expected excess, squared gradient norm and
squared distance (:func:`adaptive_path_moments`) -- at ``dps`` digits in python-flint's ball arithmetic, an
enclosure of every sum, or in mpmath where a ball stays wide."""
from __future__ import annotations

import mpmath
import numpy as np

from .balls import mpf_of, to_arb

__all__ = ["adaptive_moments", "adaptive_path_moments", "quadratic_path_moments"]


def adaptive_moments(eigs, delta1, etas, a, b, dps: int | None = None):
    """Second moments ``S[t][i] = E (theta_{t,i} - theta*_i)^2`` for ``t = 1..T+1`` (module docstring).

    ``eigs``: the diagonal Hessian ``lam_i >= 0``; ``delta1 = theta_1 - theta*``; ``etas``, ``a``, ``b``:
    sequences of length ``T`` (step sizes and the noise variance ``s_t^2 = a_t + b_t ||g_t||^2``).
    Returns a list of ``T + 1`` lists (floats, or ``mpf`` at ``dps`` digits when ``dps`` is given).
    """
    T = len(etas)
    if len(a) != T or len(b) != T:
        raise ValueError(f"etas, a and b must have the same length T, got {len(etas)}, {len(a)}, {len(b)}")
    if len(eigs) != len(delta1):
        raise ValueError(f"eigs and delta1 must have the same length, got {len(eigs)} and {len(delta1)}")
    if dps is None:
        # beyond double precision a moment is inf (or nan where 0 * inf): callers screening in double
        # precision send such points to the mpmath route (dps), so no warning is raised here
        with np.errstate(over="ignore", invalid="ignore"):
            lam = np.asarray(eigs, dtype=float)
            S = np.asarray(delta1, dtype=float) ** 2
            out = [S.copy()]
            lam2 = lam * lam
            for eta, at, bt in zip(etas, a, b):
                eta, at, bt = float(eta), float(at), float(bt)
                noise = eta * eta * (at + bt * float(lam2 @ S))
                S = (1.0 - eta * lam) ** 2 * S + noise
                out.append(S.copy())
        return [list(map(float, s)) for s in out]
    with mpmath.workdps(dps):
        lam = [mpmath.mpf(x) for x in eigs]
        S = [mpmath.mpf(x) ** 2 for x in delta1]
        out = [list(S)]
        for eta, at, bt in zip(etas, a, b):
            eta, at, bt = mpmath.mpf(eta), mpmath.mpf(at), mpmath.mpf(bt)
            g2 = mpmath.fsum(li * li * si for li, si in zip(lam, S))
            noise = eta * eta * (at + bt * g2)
            S = [(1 - eta * li) ** 2 * si + noise for li, si in zip(lam, S)]
            out.append(list(S))
        return out


def _stream(lam, S, etas, a, b, num, dot, total) -> dict:
    """The moment recursion over iterates, keeping each iterate's sums only: ``lam``, ``S`` (the first iterate's
    second moments) and the schedule in the number type of ``num`` (mpmath's ``mpf`` or python-flint's ``arb``),
    ``dot`` and ``total`` its inner product and sum."""
    lam2 = [li * li for li in lam]
    out: dict = {"excess": [], "grad_norm_sq": [], "dist_sq": []}

    def keep(S):
        g2 = dot(lam2, S)
        out["excess"].append(dot(lam, S) / 2)
        out["grad_norm_sq"].append(g2)
        out["dist_sq"].append(total(S))
        return g2

    # the contraction factors (1 - eta lam_i)^2 of a step size, kept while it repeats (a constant step: the power
    # was two thirds of the time in 1e3 dimensions); squares as products (arb's ** 2 of a ball about 0 is nan)
    factors: dict = {}
    g2 = keep(S)
    for eta, at, bt in zip(etas, a, b):
        e = num(eta)
        f = factors.get(eta)
        if f is None:
            if len(factors) >= 4:
                factors.clear()
            f = factors[eta] = [c * c for c in (1 - e * li for li in lam)]
        noise = e * e * (num(at) + num(bt) * g2)
        S = [fi * si + noise for fi, si in zip(f, S)]
        g2 = keep(S)
    return out


def _arb_path_moments(eigs, delta1, etas, a, b, dps: int):
    """:func:`adaptive_path_moments` in ball arithmetic (python-flint's ``arb``, 6-7x mpmath's speed here): each
    per-iterate sum is an enclosure; its midpoint is returned, as ``mpf``, where every enclosure is narrower than
    ``10^-dps`` of its midpoint, at the working precision or twice it (None where not, or without python-flint:
    the mpmath recursion then runs)."""
    try:
        import flint
    except ImportError:   # pragma: no cover - python-flint is a dependency
        return None
    target = mpmath.mpf(10) ** (-dps)
    saved = flint.ctx.prec
    try:
        for prec in (int(dps * 3.33) + 32, 2 * int(dps * 3.33) + 64):
            flint.ctx.prec = prec
            zero = flint.arb(0)
            sums = _stream([to_arb(x) for x in eigs], [v * v for v in map(to_arb, delta1)], etas, a, b, to_arb,
                           lambda u, v: sum((x * y for x, y in zip(u, v)), zero), lambda u: sum(u, zero))
            if not all(v.is_finite() for vs in sums.values() for v in vs):
                continue
            with mpmath.workdps(dps + 10):
                mids = {k: [mpf_of(v.mid()) for v in vs] for k, vs in sums.items()}
                if all(mpf_of(v.rad()) <= target * abs(m) for k, vs in sums.items() for v, m in zip(vs, mids[k])):
                    with mpmath.workdps(dps):
                        return {k: [+m for m in ms] for k, ms in mids.items()}
        return None
    finally:
        flint.ctx.prec = saved


def adaptive_path_moments(eigs, delta1, etas, a, b, dps: int | None = None) -> dict:
    """``quadratic_path_moments(eigs, adaptive_moments(eigs, delta1, etas, a, b, dps), dps)`` without keeping
    the ``(T + 1) x d`` moments: memory in ``d + T``, not ``d T``. An exact point of adaptive GD at ``T = 6e4``
    steps in ``d = 1e3`` kept 6e7 mpmath numbers (the process grew to 24 GB and was killed); the statistics
    need only each iterate's sums."""
    T = len(etas)
    if len(a) != T or len(b) != T:
        raise ValueError(f"etas, a and b must have the same length T, got {len(etas)}, {len(a)}, {len(b)}")
    if len(eigs) != len(delta1):
        raise ValueError(f"eigs and delta1 must have the same length, got {len(eigs)} and {len(delta1)}")
    if dps is None:   # vectorised: one step is a few array operations
        out: dict = {"excess": [], "grad_norm_sq": [], "dist_sq": []}
        with np.errstate(over="ignore", invalid="ignore"):
            lam = np.asarray(eigs, dtype=float)
            lam2 = lam * lam
            S = np.asarray(delta1, dtype=float) ** 2

            def keep(S):
                g2 = float(S @ lam2)
                out["excess"].append(0.5 * float(S @ lam))
                out["grad_norm_sq"].append(g2)
                out["dist_sq"].append(float(S.sum()))
                return g2

            g2 = keep(S)
            for eta, at, bt in zip(etas, a, b):
                eta, at, bt = float(eta), float(at), float(bt)
                S = (1.0 - eta * lam) ** 2 * S + eta * eta * (at + bt * g2)
                g2 = keep(S)
        return out
    got = _arb_path_moments(eigs, delta1, etas, a, b, dps)
    if got is not None:
        return got
    with mpmath.workdps(dps):
        return _stream([mpmath.mpf(x) for x in eigs], [mpmath.mpf(x) ** 2 for x in delta1], etas, a, b, mpmath.mpf,
                       mpmath.fdot, mpmath.fsum)


def quadratic_path_moments(eigs, moments, dps: int | None = None) -> dict:
    """Per-iterate expectations on the diagonal quadratic from :func:`adaptive_moments`:
    ``{"excess": [E F - F*], "grad_norm_sq": [E ||grad F||^2], "dist_sq": [E ||theta - theta*||^2]}``,
    each of length ``T + 1`` (iterates ``theta_1 .. theta_{T+1}``)."""
    if dps is None:
        lam = np.asarray(eigs, dtype=float)
        S = np.asarray(moments, dtype=float)
        with np.errstate(over="ignore", invalid="ignore"):
            return {"excess": list(0.5 * S @ lam), "grad_norm_sq": list(S @ (lam * lam)),
                    "dist_sq": list(S.sum(axis=1))}
    with mpmath.workdps(dps):
        lam = [mpmath.mpf(x) for x in eigs]
        return {"excess": [mpmath.fsum(li * si for li, si in zip(lam, s)) / 2 for s in moments],
                "grad_norm_sq": [mpmath.fsum(li * li * si for li, si in zip(lam, s)) for s in moments],
                "dist_sq": [mpmath.fsum(s) for s in moments]}
