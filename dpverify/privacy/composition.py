"""Composition and amplification of (eps, delta)-DP, exactly, to test lemmas that compose or subsample.

A composition or amplification lemma bounds the privacy of a combination of (eps, delta)-DP
algorithms. It is tested here against the *optimal* (tight) privacy of what it combines:

* **k-fold composition** of arbitrary (eps, delta)-DP algorithms: the exact optimal delta at any
  total eps' is attained by the k-fold product of the canonical (eps, delta) pair (randomised
  response with a delta leak) [Kairouz, Oh & Viswanath 2015, Thm. 3.3; Murtagh & Vadhan 2016],
  :func:`optimal_composition_delta`; compare e.g. the advanced composition bound
  :func:`advanced_composition_eps` [Dwork, Rothblum & Vadhan 2010, Thm. III.3];
* **amplification by subsampling** (an algorithm run on ``m = alpha n`` entries drawn uniformly
  without replacement, replace-one neighbours): the canonical pair run behind the subsample gives
  the pair ``((1 - alpha) P + alpha Q, P)`` (:func:`subsampled_pair`) whose profile attains the
  tight bound ``(ln(1 + alpha (e^eps - 1)), alpha delta)`` [Balle, Barthe & Gaboardi 2018, Thm. 9]
  (:func:`amplified_eps`);
* **noisy SGD drawing one sample per step** (or any fixed-size sample, replace-one neighbours, a
  per-sample gradient bound ``C``): every step is dominated by the Poisson-subsampled Gaussian
  mechanism with noise multiplier ``std / (2C)`` (the replace-one sensitivity is ``2C``) under
  add-or-remove adjacency [Balle et al. 2018, advanced joint convexity; Zhu, Dong & Wang 2022],
  whose composition dp-accounting's RDP and PLD accountants bound from above
  (:func:`subsampled_gaussian_epsilon`).

Discrete pairs are probability vectors over the same atoms; :func:`hockey_stick` is
``sum_x max(P(x) - e^eps Q(x), 0)`` and :func:`pair_delta` takes both directions; :func:`pair_epsilon`
solves the pair in mpmath (the pair may be built in mpmath too, ``dps=``). The rest is in
double precision with log-space sums where terms span many orders of magnitude; invalid arguments
raise ``ValueError`` naming the parameter and the value.
"""
from __future__ import annotations

import math
from functools import lru_cache

import mpmath
import numpy as np
import scipy  # its submodules load on first use (scipy's lazy loading), not at start-up

from .accountants import event_epsilon
from .mechanisms import poisson_sampled_gaussian_event
from .validation import check_delta, check_nonnegative, check_positive


def _check_prob(name: str, x, *, allow_zero: bool = True, allow_one: bool = False) -> float:
    check_nonnegative(name, x)
    x = float(x)
    lo_ok = x >= 0 if allow_zero else x > 0
    hi_ok = x <= 1 if allow_one else x < 1
    if not (lo_ok and hi_ok):
        lo = "[0" if allow_zero else "(0"
        hi = "1]" if allow_one else "1)"
        raise ValueError(f"{name} must be in {lo}, {hi}. Found {x}.")
    return x


def _check_int(name: str, k, minimum: int = 1) -> int:
    if isinstance(k, bool) or not isinstance(k, (int, np.integer)) or k < minimum:
        raise ValueError(f"{name} must be an integer >= {minimum}. Found {k!r}.")
    return int(k)


def _check_pmf(name: str, p) -> np.ndarray:
    p = np.asarray(p, dtype=float)
    if p.ndim != 1 or p.size == 0 or np.any(p < 0) or not np.all(np.isfinite(p)) or abs(p.sum() - 1) > 1e-9:
        raise ValueError(f"{name} must be a probability vector (non-negative, summing to 1). Found {p!r}.")
    return p


# ----------------------------------------------------------------------------- discrete pairs
def hockey_stick(p, q, eps: float) -> float:
    """``sum_x max(p(x) - e^eps q(x), 0)``: the delta of the pair (p, q) at eps, one direction."""
    p, q = _check_pmf("p", p), _check_pmf("q", q)
    if p.shape != q.shape:
        raise ValueError(f"p and q must have the same atoms. Found shapes {p.shape} and {q.shape}.")
    if not math.isfinite(float(eps)):
        raise ValueError(f"eps must be finite. Found {eps}.")
    with np.errstate(over="ignore"):
        d = p - math.exp(eps) * q if eps < 700 else np.where(q > 0, -np.inf, p)
    return float(np.sum(np.maximum(d, 0.0)))


def pair_delta(p, q, eps: float) -> float:
    """The privacy profile of the pair at eps: the larger delta of the two directions."""
    return max(hockey_stick(p, q, eps), hockey_stick(q, p, eps))


def pair_delta_mp(p, q, eps, *, dps: int = 30):
    """The privacy profile of the pair at ``eps`` (both directions, the larger delta), exactly in mpmath
    at ``dps`` digits from the atoms as given (lists of mpmath numbers keep their precision):
    ``max(sum_x max(p(x) - e^eps q(x), 0), sum_x max(q(x) - e^eps p(x), 0))``. Returns an mpmath number.

    >>> float(pair_delta_mp(*canonical_pair(1.0, 1e-3, dps=30), 1.0))      # the canonical pair's own delta
    0.001
    """
    dps = _check_int("dps", dps)
    p, q = _mp_pmf("p", p, dps), _mp_pmf("q", q, dps)
    if len(p) != len(q):
        raise ValueError(f"p and q must have the same atoms. Found {len(p)} and {len(q)} atoms.")
    with mpmath.workdps(dps):
        e = mpmath.exp(mpmath.mpf(eps))
        if not mpmath.isfinite(e):
            raise ValueError(f"eps must be finite. Found {eps}.")
        return max(mpmath.fsum(max(x - e * y, 0) for x, y in zip(p, q)),
                   mpmath.fsum(max(y - e * x, 0) for x, y in zip(p, q)))


def _direction_epsilon(a, b, delta):
    """Smallest eps >= 0 with hockey_stick(a, b, eps) <= delta, one direction, in mpmath at the working
    precision: on each interval between consecutive likelihood ratios the hockey stick is
    ``A_k - e^eps B_k`` (the k atoms of largest ratio), solved for e^eps; the breakpoints are compared
    as they are (no tolerance absorbs a cancellation)."""
    inf_mass = mpmath.fsum(x for x, y in zip(a, b) if y == 0 and x > 0)
    if inf_mass > delta:
        return mpmath.inf
    atoms = sorted(((x / y, x, y) for x, y in zip(a, b) if x > 0 and y > 0), key=lambda t: -t[0])
    A = B = mpmath.mpf(0)
    for k, (r, x, y) in enumerate(atoms):
        # on [r_{k+1}, r_k] (r_{m+1} = 0) the top k+1 atoms count: delta(x) = inf_mass + A_k - x B_k
        A, B = A + x, B + y
        xk = (inf_mass + A - delta) / B
        if xk >= (atoms[k + 1][0] if k + 1 < len(atoms) else 0):
            return max(mpmath.mpf(0), mpmath.log(min(xk, r))) if xk > 0 else mpmath.mpf(0)
    return mpmath.mpf(0)


def _mp_pmf(name: str, p, dps: int) -> list:
    """``p`` as mpmath numbers (entries converted exactly; ``dps`` digits for the sum check)."""
    with mpmath.workdps(dps):
        v = [mpmath.mpf(x) for x in (p.tolist() if isinstance(p, np.ndarray) else p)]
        if not v or any(x < 0 or not mpmath.isfinite(x) for x in v) or abs(mpmath.fsum(v) - 1) > 1e-9:
            raise ValueError(f"{name} must be a probability vector (non-negative, summing to 1). Found {p!r}.")
    return v


#: digits of :func:`pair_epsilon` when none are asked for (its answer is then rounded to a double)
PAIR_DPS = 30


def pair_epsilon(p, q, delta, *, dps: int | None = None):
    """The smallest ``eps >= 0`` with ``pair_delta(p, q, eps) <= delta`` (``inf`` when none), exactly
    (piecewise in e^eps between consecutive likelihood ratios), both directions, from the atoms as
    given (a double converts exactly).

    Computed in mpmath at ``dps`` digits and returned as an mpmath number; without ``dps``, at
    ``PAIR_DPS`` digits and returned as a float. The atoms and ``delta`` should carry the precision
    the question needs: where ``delta`` cancels against an atom (``alpha -> 1`` in
    :func:`subsampled_pair`), build the pair with ``dps`` too, or a double-precision pair's rounding
    makes the answer wrong in its first digit."""
    as_float = dps is None
    dps = PAIR_DPS if as_float else _check_int("dps", dps)
    p, q = _mp_pmf("p", p, dps), _mp_pmf("q", q, dps)
    if len(p) != len(q):
        raise ValueError(f"p and q must have the same atoms. Found {len(p)} and {len(q)} atoms.")
    with mpmath.workdps(dps):
        delta = mpmath.mpf(delta)
        if not delta >= 0:
            raise ValueError(f"delta must be >= 0. Found {delta}.")
        out = max(_direction_epsilon(p, q, delta), _direction_epsilon(q, p, delta))
    return float(out) if as_float else out


def canonical_pair(eps: float, delta: float, *, dps: int | None = None):
    """The (eps, delta)-DP pair every (eps, delta)-DP algorithm is a post-processing of
    [Kairouz, Oh & Viswanath 2015, Thm. 2.1]: four atoms, a delta leak on each side and randomised
    response in between. ``pair_delta(P, Q, eps) == delta``. Two arrays of doubles; with ``dps``,
    two lists of mpmath numbers computed at ``dps`` digits (for :func:`pair_epsilon` with ``dps``)."""
    check_nonnegative("eps", eps)
    delta = _check_prob("delta", delta)
    if dps is None:
        return tuple(np.array(v) for v in _canonical(float(eps), delta, math.exp, float))
    with mpmath.workdps(_check_int("dps", dps)):
        return _canonical(mpmath.mpf(eps), mpmath.mpf(delta), mpmath.exp, mpmath.mpf)


def _canonical(eps, delta, exp, num):
    e = exp(-eps)  # (1 - delta) e^eps/(1 + e^eps) = (1 - delta)/(1 + e^-eps)
    hi, lo, zero = (1 - delta) / (1 + e), (1 - delta) * e / (1 + e), num(0)
    return [delta, hi, lo, zero], [zero, lo, hi, delta]


def subsampled_pair(p, q, alpha: float, *, dps: int | None = None):
    """The outputs of an algorithm whose neighbouring pair is (q, p) when the differing entry is in
    its input and p otherwise, run on a uniformly random ``alpha`` fraction of the data set: the
    entry is drawn with probability ``alpha``, so the pair is ``((1 - alpha) p + alpha q, p)``.
    With ``dps``, in mpmath at ``dps`` digits (``1 - alpha`` is then exact for a double alpha)."""
    alpha = _check_prob("alpha", alpha, allow_zero=False, allow_one=True)
    if dps is None:
        p, q = _check_pmf("p", p), _check_pmf("q", q)
        return (1 - alpha) * p + alpha * q, p
    dps = _check_int("dps", dps)
    p, q = _mp_pmf("p", p, dps), _mp_pmf("q", q, dps)
    with mpmath.workdps(dps):
        a = mpmath.mpf(alpha)
        return [(1 - a) * x + a * y for x, y in zip(p, q)], p


def amplified_eps(eps: float, alpha: float) -> float:
    """``ln(1 + alpha (e^eps - 1))``: the tight eps of an eps-DP algorithm on a uniformly random
    alpha fraction of the data (replace-one) [Balle, Barthe & Gaboardi 2018, Thm. 9]."""
    check_nonnegative("eps", eps)
    alpha = _check_prob("alpha", alpha, allow_zero=False, allow_one=True)
    return float(math.log1p(alpha * math.expm1(eps)))


# ----------------------------------------------------------------------------- k-fold composition
def optimal_composition_delta(eps: float, delta: float, k: int, eps_total: float) -> float:
    """The smallest delta' such that every k-fold adaptive composition of (eps, delta)-DP algorithms
    is (eps_total, delta')-DP [Kairouz, Oh & Viswanath 2015, Thm. 3.3]:

    ``1 - (1 - delta)^k + (1 - delta)^k sum_l C(k, l) [e^((k-l) eps) - e^eps_total e^(l eps)]_+ / (1 + e^eps)^k``,

    evaluated in log space (exact up to rounding for every k)."""
    check_nonnegative("eps", eps)
    delta = _check_prob("delta", delta)
    k = _check_int("k", k)
    if not math.isfinite(float(eps_total)):
        raise ValueError(f"eps_total must be finite. Found {eps_total}.")
    eps, eps_total = float(eps), float(eps_total)
    leak = -math.expm1(k * math.log1p(-delta)) if delta > 0 else 0.0
    if eps == 0.0:
        rr = max(0.0, -math.expm1(eps_total))
    else:
        ls = np.arange(k + 1)
        keep = (k - 2 * ls) * eps > eps_total
        if not np.any(keep):
            rr = 0.0
        else:
            ls = ls[keep]
            logc = scipy.special.gammaln(k + 1) - scipy.special.gammaln(ls + 1) - scipy.special.gammaln(k - ls + 1)
            # C(k,l) e^((k-l) eps) (1 - e^(eps_total - (k - 2l) eps)) / (1 + e^eps)^k
            terms = logc + (k - ls) * eps + np.log(-np.expm1(eps_total - (k - 2 * ls) * eps))
            rr = float(np.exp(scipy.special.logsumexp(terms) - k * np.logaddexp(0.0, eps)))
    return float(min(1.0, leak + (1 - leak) * rr))


def optimal_composition_eps(eps: float, delta: float, k: int, delta_total: float) -> float:
    """The smallest eps_total with ``optimal_composition_delta(eps, delta, k, eps_total) <= delta_total``
    (bisection to 1e-12 relative); ``inf`` when no eps_total reaches ``delta_total``."""
    check_delta(delta_total, "delta_total")
    hi = k * float(eps)
    if optimal_composition_delta(eps, delta, k, hi) > delta_total:
        return math.inf
    lo = 0.0
    if optimal_composition_delta(eps, delta, k, lo) <= delta_total:
        return 0.0
    for _ in range(200):
        mid = (lo + hi) / 2
        if optimal_composition_delta(eps, delta, k, mid) <= delta_total:
            hi = mid
        else:
            lo = mid
        if hi - lo <= 1e-12 * max(hi, 1e-300):
            break
    return hi


def advanced_composition_eps(eps: float, k: int, delta_prime: float) -> float:
    """``sqrt(2 k ln(1/delta')) eps + k eps (e^eps - 1)`` [Dwork, Rothblum & Vadhan 2010, Thm. III.3]:
    k-fold composition of (eps, delta)-DP algorithms is (this, k delta + delta')-DP."""
    check_nonnegative("eps", eps)
    k = _check_int("k", k)
    check_delta(delta_prime, "delta_prime")
    return float(math.sqrt(2 * k * math.log(1 / delta_prime)) * eps + k * eps * math.expm1(eps))


def pld_composition_delta(eps: float, delta: float, k: int, eps_total: float,
                          value_discretization_interval: float = 1e-4) -> float:
    """dp-accounting's PLD of k (eps, delta)-DP algorithms composed, at eps_total (pessimistic; a
    cross-check of :func:`optimal_composition_delta`)."""
    from dp_accounting.pld import privacy_loss_distribution as pld
    from dp_accounting.pld.common import DifferentialPrivacyParameters

    k = _check_int("k", k)
    base = pld.from_privacy_parameters(DifferentialPrivacyParameters(float(eps), float(delta)),
                                       value_discretization_interval=value_discretization_interval)
    return float(base.self_compose(k).get_delta_for_epsilon(float(eps_total)))


# ----------------------------------------------------------------------------- subsampled Gaussian
def subsampled_gaussian_epsilon(noise_multiplier: float, sampling_probability: float, steps: int,
                                delta: float, accountant: str = "best",
                                value_discretization_interval: float = 1e-3) -> float:
    """An upper bound on eps at ``delta`` for ``steps`` compositions of the sampled Gaussian
    mechanism (noise std = ``noise_multiplier`` x the sensitivity, each sample used with
    probability ``sampling_probability``), via dp-accounting (Poisson sampling, add-or-remove).

    This bounds noisy SGD drawing a fixed number of samples per step under replace-one
    neighbours too, with the multiplier taken relative to the replace-one sensitivity (module
    docstring). ``accountant``: ``"rdp"`` (fast), ``"pld"`` (near-exact, pessimistic) or ``"best"``
    (the smaller of the two, both upper bounds).
    """
    check_positive("noise_multiplier", noise_multiplier)
    q = _check_prob("sampling_probability", sampling_probability, allow_zero=False, allow_one=True)
    steps = _check_int("steps", steps)
    check_delta(delta)
    event = poisson_sampled_gaussian_event(noise_multiplier, q, steps)
    return event_epsilon(event, delta, accountant=accountant,
                         value_discretization_interval=value_discretization_interval)


#: mass the composed PLD may misplace: ``self_compose`` moves up to 1e-15 of tail mass to the infinite
#: loss (in the optimistic estimate too) and the FFT convolution errs by ~1e-16 absolute; an optimistic
#: estimate is a lower bound only after this slack (delta minus it; eps at delta plus it)
PLD_MASS_SLACK = 1e-14


def _sampled_gaussian_pld(noise_multiplier, sampling_probability, steps, value_discretization_interval, pessimistic):
    """dp-accounting's PLD of ``steps`` compositions of the sampled Gaussian mechanism (validated inputs)."""
    check_positive("noise_multiplier", noise_multiplier)
    q = _check_prob("sampling_probability", sampling_probability, allow_zero=False, allow_one=True)
    steps = _check_int("steps", steps)
    check_positive("value_discretization_interval", value_discretization_interval)
    return _composed_pld(float(noise_multiplier), float(q), int(steps), float(value_discretization_interval),
                         bool(pessimistic))


@lru_cache(maxsize=16)
def _composed_pld(noise_multiplier: float, q: float, steps: int, value_discretization_interval: float,
                  pessimistic: bool):
    """The composed PLD, memoised: a pure function of its (validated, exact) arguments, which a
    check's search, refinement and confirmation often ask for again at the same point."""
    import logging

    from dp_accounting.pld import privacy_loss_distribution as pld

    root = logging.getLogger()
    level = root.level
    root.setLevel(logging.ERROR)   # dp-accounting logs a warning for every optimistic estimate
    try:
        one = pld.from_gaussian_mechanism(float(noise_multiplier), sampling_prob=q, pessimistic_estimate=pessimistic,
                                          use_connect_dots=pessimistic,
                                          value_discretization_interval=float(value_discretization_interval))
        return one.self_compose(steps)
    finally:
        root.setLevel(level)


def subsampled_gaussian_epsilon_pld(noise_multiplier: float, sampling_probability: float, steps: int, delta: float,
                                    value_discretization_interval: float = 1e-3, pessimistic: bool = True) -> float:
    """dp-accounting's PLD of ``steps`` compositions of the sampled Gaussian mechanism (Poisson
    sampling, add-or-remove) at ``delta``: with ``pessimistic`` an upper bound on eps, else the
    optimistic estimate, a lower bound (losses rounded down to the grid, truncated mass dropped;
    the privacy buckets discretisation, which dp-accounting uses for optimistic estimates), read at
    ``delta + PLD_MASS_SLACK`` so that misplaced mass cannot raise it."""
    check_delta(delta)
    composed = _sampled_gaussian_pld(noise_multiplier, sampling_probability, steps, value_discretization_interval,
                                     pessimistic)
    return float(composed.get_epsilon_for_delta(float(delta) + (0.0 if pessimistic else PLD_MASS_SLACK)))


def subsampled_gaussian_delta_pld(noise_multiplier: float, sampling_probability: float, steps: int, eps: float,
                                  value_discretization_interval: float = 1e-3, pessimistic: bool = True) -> float:
    """The delta at ``eps`` of the same composition (dp-accounting's PLD): with ``pessimistic`` an
    upper bound on delta, else the optimistic estimate less ``PLD_MASS_SLACK`` (at least 0), a lower bound."""
    if not (isinstance(eps, (int, float)) and math.isfinite(float(eps)) and float(eps) >= 0):
        raise ValueError(f"eps must be a finite number >= 0. Found {eps!r}.")
    composed = _sampled_gaussian_pld(noise_multiplier, sampling_probability, steps, value_discretization_interval,
                                     pessimistic)
    value = float(composed.get_delta_for_epsilon(float(eps)))
    return value if pessimistic else max(0.0, value - PLD_MASS_SLACK)


__all__ = [
    "advanced_composition_eps", "amplified_eps", "canonical_pair", "hockey_stick", "optimal_composition_delta",
    "optimal_composition_eps", "pair_delta", "pair_epsilon", "pld_composition_delta", "subsampled_gaussian_epsilon",
    "subsampled_gaussian_epsilon_pld", "subsampled_gaussian_delta_pld",
    "subsampled_pair",
]
