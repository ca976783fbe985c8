"""Exact moments of adaptive noisy GD on a diagonal quadratic (the recursion is derived in
:mod:`dpverify.sim.adaptive`'s docstring, "Exact moments"): the whole ``(T + 1) x d`` second moments
(:func:`adaptive_moments`), or, in memory ``d + T``, each iterate's expected excess, squared gradient norm and
squared distance (:func:`adaptive_path_moments`) -- at ``dps`` digits in python-flint's ball arithmetic, an
enclosure of every sum, or in mpmath where a ball stays wide."""
from __future__ import annotations

import mpmath
import numpy as np

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


def _to_arb(x):
    """``x`` (an mpmath, int or float number) as a python-flint ``arb``: exactly where it fits the working
    precision, else a ball around it."""
    import flint

    if isinstance(x, mpmath.mpf):
        if not mpmath.isfinite(x):
            raise ValueError(f"not a finite number: {x}")
        man, exp = x.man_exp                  # mpmath's mantissa is unsigned
        return flint.arb(flint.arf((-int(man) if x < 0 else int(man), int(exp))))
    if isinstance(x, (int, float, np.integer, np.floating)):
        return flint.arb(x) if isinstance(x, (int, np.integer)) else flint.arb(float(x))
    return _to_arb(mpmath.mpf(x))


def _arf_mpf(x):
    """A python-flint ``arf`` (a ball's midpoint or radius) as an ``mpf``, exactly."""
    man, exp = x.man_exp()
    return mpmath.mpf((int(man), int(exp)))


def _arb_path_moments(eigs, delta1, etas, a, b, dps: int):
    """:func:`adaptive_path_moments` in ball arithmetic (python-flint's ``arb``, 5-8x mpmath's speed here): each
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
            lam = [_to_arb(x) for x in eigs]
            lam2 = [li * li for li in lam]
            S = [v * v for v in map(_to_arb, delta1)]     # a product: arb's ** 2 of a ball about 0 is nan
            zero = flint.arb(0)
            sums: dict = {"excess": [], "grad_norm_sq": [], "dist_sq": []}

            def keep(S):
                g2 = sum((l2 * si for l2, si in zip(lam2, S)), zero)
                sums["excess"].append(sum((li * si for li, si in zip(lam, S)), zero) / 2)
                sums["grad_norm_sq"].append(g2)
                sums["dist_sq"].append(sum(S, zero))
                return g2

            factors: dict = {}
            g2 = keep(S)
            for eta, at, bt in zip(etas, a, b):
                eta_a = _to_arb(eta)
                f = factors.get(eta)
                if f is None:
                    if len(factors) >= 4:
                        factors.clear()
                    f = factors[eta] = [c * c for c in (1 - eta_a * li for li in lam)]
                noise = eta_a * eta_a * (_to_arb(at) + _to_arb(bt) * g2)
                S = [fi * si + noise for fi, si in zip(f, S)]
                g2 = keep(S)
            if not all(v.is_finite() for vs in sums.values() for v in vs):
                continue
            with mpmath.workdps(dps + 10):
                mids = {k: [_arf_mpf(v.mid()) for v in vs] for k, vs in sums.items()}
                if all(_arf_mpf(v.rad()) <= target * abs(m) for k, vs in sums.items() for v, m in zip(vs, mids[k])):
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
    out: dict = {"excess": [], "grad_norm_sq": [], "dist_sq": []}
    if dps is not None:
        got = _arb_path_moments(eigs, delta1, etas, a, b, dps)
        if got is not None:
            return got
    if dps is None:
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
    with mpmath.workdps(dps):
        lam = [mpmath.mpf(x) for x in eigs]
        lam2 = [li * li for li in lam]
        S = [mpmath.mpf(x) ** 2 for x in delta1]

        def keep(S):
            g2 = mpmath.fdot(lam2, S)       # exact products, rounded once (fsum of products: 1.5x the time)
            out["excess"].append(mpmath.fdot(lam, S) / 2)
            out["grad_norm_sq"].append(g2)
            out["dist_sq"].append(mpmath.fsum(S))
            return g2

        # the contraction factors (1 - eta lam_i)^2 of a step size, kept while it repeats (a constant step: the
        # power was two thirds of the time in 1e3 dimensions)
        factors: dict = {}
        g2 = keep(S)
        for eta, at, bt in zip(etas, a, b):
            eta, at, bt = mpmath.mpf(eta), mpmath.mpf(at), mpmath.mpf(bt)
            noise = eta * eta * (at + bt * g2)
            f = factors.get(eta)
            if f is None:
                if len(factors) >= 4:
                    factors.clear()
                f = factors[eta] = [(1 - eta * li) ** 2 for li in lam]
            S = [fi * si + noise for fi, si in zip(f, S)]
            g2 = keep(S)
    return out


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
