"""An empirical privacy audit that can say no: a lower confidence bound on delta at a claimed eps.

Given a randomised algorithm run on two neighbouring data sets D and D' (``sample_d(n, rng)`` and
``sample_dprime(n, rng)`` return ``n`` outputs each, as an array of shape ``(n,)`` or ``(n, k)``),
an (eps, delta)-DP claim says ``P[A(D) in S] <= e^eps P[A(D') in S] + delta`` for every set ``S``
(and with D, D' swapped). The audit, in the manner of DP-Sniper and DP-Auditorium:

1. draws ``n`` outputs on each side to *choose* a rejection set: outputs are reduced to a score
   (the projection on the difference of the two means, or the output itself when scalar; for
   outputs whose means agree, the distance to the common mean), and ``S`` is a threshold set
   ``{score > tau}`` or ``{score < tau}`` in either direction (D vs D', D' vs D), the one with the
   largest empirical ``P_D(S) - e^eps P_D'(S)``;
2. draws ``n`` fresh outputs on each side and turns the counts in ``S`` into Clopper-Pearson
   bounds, each at level ``(1 - confidence) / 2``: ``delta_lower = lower(P_D(S)) - e^eps
   upper(P_D'(S))``, a lower confidence bound on the delta the algorithm achieves at eps.

The set is chosen on samples independent of those that evaluate it, so ``P[delta_lower > true
delta(eps)] <= 1 - confidence`` exactly (no normal approximation): the audit calls a claim
``violated`` only when ``delta_lower`` exceeds the claimed delta, which for a correctly calibrated
mechanism happens with probability at most ``1 - confidence``. It never proves privacy.
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Callable

import numpy as np
import scipy  # its submodules load on first use (scipy's lazy loading), not at start-up

Sampler = Callable[[int, np.random.Generator], np.ndarray]


def clopper_pearson(k: int, n: int, level: float) -> tuple[float, float]:
    """One-sided Clopper-Pearson bounds on a binomial proportion, each with error ``level``."""
    if n < 1 or not (0 <= k <= n):
        raise ValueError(f"need 0 <= k <= n and n >= 1. Found k={k!r}, n={n!r}.")
    if not (0 < level < 0.5):
        raise ValueError(f"level must be in (0, 0.5). Found {level!r}.")
    lo = 0.0 if k == 0 else float(scipy.stats.beta.ppf(level, k, n - k + 1))
    hi = 1.0 if k == n else float(scipy.stats.beta.isf(level, k + 1, n - k))
    return lo, hi


@dataclass(frozen=True)
class AuditResult:
    """What an audit found: the rejection set, the counts, and the bounds derived from them."""

    eps: float
    delta: float
    delta_lower: float
    eps_lower: float
    n: int
    confidence: float
    direction: str
    rule: str
    counts: tuple
    seed: int
    notes: tuple = field(default_factory=tuple)

    @property
    def violated(self) -> bool:
        """The claim (eps, delta) is refuted at the audit's confidence."""
        return self.delta_lower > self.delta

    def describe(self) -> str:
        k1, k2 = self.counts
        return (f"audit ({self.n} + {self.n} runs per side, seed {self.seed}): set {self.rule} ({self.direction}); "
                f"counts {k1}/{self.n} vs {k2}/{self.n}; delta lower bound {self.delta_lower:.4g} at eps "
                f"{self.eps:g} (claimed {self.delta:.4g}); eps lower bound {self.eps_lower:.4g} at the claimed delta "
                f"(Clopper-Pearson, confidence {self.confidence})")


def _as_2d(x) -> np.ndarray:
    x = np.asarray(x, dtype=float)
    if x.ndim == 1:
        return x[:, None]
    if x.ndim != 2:
        raise ValueError(f"a sampler must return shape (n,) or (n, k). Found shape {x.shape}.")
    return x


def _scores(a: np.ndarray, b: np.ndarray) -> list[tuple[str, Callable[[np.ndarray], np.ndarray]]]:
    """Candidate score functions, fitted on the selection samples."""
    ma, mb = a.mean(axis=0), b.mean(axis=0)
    diff = ma - mb
    out = []
    nrm = float(np.linalg.norm(diff))
    if a.shape[1] == 1:
        out.append(("output", lambda x: x[:, 0]))
    elif nrm > 0:
        w = diff / nrm
        out.append(("projection on the mean difference", lambda x, w=w: x @ w))
    centre = (ma + mb) / 2
    out.append(("distance to the mean", lambda x, c=centre: np.linalg.norm(x - c, axis=1)))
    return out


def _exp_times(eps: float, p):
    """``e^eps p``, with ``0`` where ``p == 0`` even when ``e^eps`` overflows (then ``inf`` elsewhere)."""
    with np.errstate(over="ignore", invalid="ignore"):
        return np.where(np.asarray(p) > 0, np.exp(float(eps)) * np.asarray(p, dtype=float), 0.0)


#: candidate thresholds per score function: the quantiles at 0, 1/200, ..., 1 of both samples
GRID_POINTS = 201


def quantile_grid(sorted_values: np.ndarray, points: int) -> np.ndarray:
    """The quantiles at ``k/(points - 1)``, ``k = 0..points-1``, of an ascending array: the linear
    interpolation between order statistics (Hyndman & Fan's definition 7, NumPy's default ``linear``)
    at the position ``k (n - 1)/(points - 1)``, computed here rather than by ``np.quantile`` so that
    the audit's thresholds are a function of the sorted values alone, the same bits under every NumPy
    release (NumPy promises the definition, not the rounding of its arithmetic). The position is an
    exact rational ``k (n - 1) / (points - 1)``: its integer part and remainder are integer arithmetic,
    and the value ``x[i] + (x[i+1] - x[i]) r`` lies between the two order statistics it interpolates
    (it is ``x[i]`` where ``r = 0``)."""
    x = np.asarray(sorted_values, dtype=float)
    n = x.size
    if n == 0 or points < 2:
        raise ValueError(f"quantile_grid needs a non-empty array and points >= 2. Found n={n}, points={points}.")
    num = np.arange(points, dtype=np.int64) * (n - 1)
    lo, rem = np.divmod(num, points - 1)
    hi = np.minimum(lo + 1, n - 1)
    frac = rem / (points - 1)
    a, b = x[lo], x[hi]
    with np.errstate(invalid="ignore"):
        out = np.where(rem == 0, a, a + (b - a) * frac)
    # an infinite neighbour makes b - a infinite or NaN: the order statistic's side decides
    return np.where(np.isnan(out) & (rem != 0), np.where(frac < 0.5, a, b), np.clip(out, a, b))


def _best_set(a_sel, b_sel, eps: float):
    """The threshold set with the largest empirical P_A(S) - e^eps P_B(S) on the selection samples."""
    best = (-math.inf, None)
    for name, score in _scores(a_sel, b_sel):
        sa, sb = score(a_sel), score(b_sel)
        sa_sorted, sb_sorted = np.sort(sa), np.sort(sb)
        both = np.concatenate([sa_sorted, sb_sorted])
        both.sort(kind="stable")
        grid = np.unique(quantile_grid(both, GRID_POINTS))
        na, nb = len(sa), len(sb)
        above_a = na - np.searchsorted(sa_sorted, grid, side="right")
        above_b = nb - np.searchsorted(sb_sorted, grid, side="right")
        for side, pa, pb in (("above", above_a / na, above_b / nb),
                             ("below", 1 - above_a / na, 1 - above_b / nb)):
            gap = pa - _exp_times(eps, pb)
            k = int(np.argmax(gap))
            if gap[k] > best[0]:
                best = (float(gap[k]), (name, score, side, float(grid[k])))
    return best[1]


def audit(sample_d: Sampler, sample_dprime: Sampler, *, eps: float, delta: float, n: int = 100_000,
          seed: int = 0, confidence: float = 0.99) -> AuditResult:
    """Audit an (eps, delta)-DP claim on one pair of neighbouring data sets (module docstring)."""
    for name, v in (("eps", eps), ("delta", delta)):
        if not isinstance(v, (int, float)) or isinstance(v, bool) or not math.isfinite(v) or v < 0:
            raise ValueError(f"{name} must be a non-negative number. Found {v!r}.")
    if isinstance(n, bool) or not isinstance(n, (int, np.integer)) or n < 10:
        raise ValueError(f"n must be an integer >= 10. Found {n!r}.")
    if not (0.5 <= confidence < 1):
        raise ValueError(f"confidence must be in [0.5, 1). Found {confidence!r}.")
    ss = np.random.SeedSequence(seed)
    r_sel_a, r_sel_b, r_ev_a, r_ev_b = (np.random.default_rng(s) for s in ss.spawn(4))
    sel_d, sel_p = _as_2d(sample_d(n, r_sel_a)), _as_2d(sample_dprime(n, r_sel_b))
    candidates = []
    for direction, a, b in (("D vs D'", sel_d, sel_p), ("D' vs D", sel_p, sel_d)):
        found = _best_set(a, b, eps)
        if found is not None:
            pa_minus = None
            name, score, side, tau = found
            sa, sb = score(a), score(b)
            pa = float(np.mean(sa > tau)) if side == "above" else float(np.mean(sa <= tau))
            pb = float(np.mean(sb > tau)) if side == "above" else float(np.mean(sb <= tau))
            pa_minus = pa - float(_exp_times(eps, pb))
            candidates.append((pa_minus, direction, name, score, side, tau))
    _, direction, name, score, side, tau = max(candidates, key=lambda c: c[0])
    ev_d, ev_p = _as_2d(sample_d(n, r_ev_a)), _as_2d(sample_dprime(n, r_ev_b))
    a, b = (ev_d, ev_p) if direction == "D vs D'" else (ev_p, ev_d)
    sa, sb = score(a), score(b)
    k1 = int(np.sum(sa > tau)) if side == "above" else int(np.sum(sa <= tau))
    k2 = int(np.sum(sb > tau)) if side == "above" else int(np.sum(sb <= tau))
    level = (1 - confidence) / 2
    p1_lo, _ = clopper_pearson(k1, n, level)
    _, p2_hi = clopper_pearson(k2, n, level)
    delta_lower = p1_lo - float(_exp_times(eps, p2_hi))
    # eps >= ln((p1 - delta)/p2) from the event, and >= ln(1 - delta) for every pair (the whole space):
    # the larger, never clamped to 0 (the true eps at delta may be negative)
    universal = math.log1p(-delta) if delta < 1 else -math.inf
    eps_lower = (max(math.log((p1_lo - delta) / p2_hi), universal) if p1_lo > delta and p2_hi > 0
                 else universal)
    rule = f"{{{name} {'>' if side == 'above' else '<='} {tau:.6g}}}"
    return AuditResult(eps=float(eps), delta=float(delta), delta_lower=float(delta_lower),
                       eps_lower=float(eps_lower), n=int(n), confidence=float(confidence),
                       direction=direction, rule=rule, counts=(k1, k2), seed=int(seed))


def gaussian_noise_for(eps: float, delta: float, sensitivity: float = 1.0) -> float:
    """The noise std of the Gaussian mechanism that is exactly (eps, delta)-DP (Balle & Wang's
    profile, solved for the std); used to calibrate audits of correctly and wrongly calibrated
    mechanisms."""
    from scipy.optimize import brentq

    from .gaussian import gaussian_delta_exact

    f = lambda s: gaussian_delta_exact(eps, sensitivity / s) - delta  # noqa: E731
    lo, hi = 1e-6 * sensitivity, 1e6 * sensitivity
    return float(brentq(f, lo, hi, xtol=1e-14, rtol=1e-12))


__all__ = ["AuditResult", "GRID_POINTS", "audit", "clopper_pearson", "gaussian_noise_for", "quantile_grid"]
