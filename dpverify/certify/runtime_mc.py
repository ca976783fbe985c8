"""The standalone checker's verdicts for Monte Carlo certificates (see :mod:`dpverify.certify.replay`).

Source text appended to :data:`dpverify.certify.runtime.RUNTIME`: standard library (``random``,
``math``) and python-flint only. ``REPLAY`` rebuilds noisy gradient descent on a diagonal quadratic
from the claim's expressions and simulates it; ``RECORDED`` takes dpverify's recorded replay. Both
compute the one-sided p-value of "mean <= bound" and certify when it is below ``THRESHOLD``.
"""

COMMON = r'''
import math
import random

BE_UNIFORM = 0.4748      # Shevtsova (2011): sup_x |P(S_n <= x) - Phi(x)| <= 0.4748 rho / (sd^3 sqrt n)
BE_NONUNIFORM = 31.935   # Paditz (1989): |P(S_n <= x) - Phi(x)| <= 31.935 rho / (sd^3 sqrt n (1 + |x|)^3)


def _up(x):
    """A float at least the ball's upper end (the value itself for an exact ball that is a float)."""
    u = float(x.upper())
    return u if x.is_exact() and arb(u) == x else math.nextafter(u, math.inf)


def test_bound(P, rep):
    """The bound tested: the larger of the claim's bound at the witness (its ball's upper end) and the
    recorded one (refuting a larger bound refutes the claim's)."""
    claim = BOUND(P)
    return max(_up(claim), float(Fraction(rep["bound"]))), claim


def binomial_tail(k, n, b):
    """An upper bound on P(Bin(n, b) >= k) = I_b(k, n - k + 1), in ball arithmetic."""
    if k <= 0 or b >= 1:
        return 1.0
    if b <= 0:
        return 0.0
    return min(1.0, _up(ball(Fraction(b)).beta_lower(k, n - k + 1, 1)))


def normal_tail(z):
    return 0.5 * math.erfc(z / math.sqrt(2))


def berry_esseen(n, mean, sd, rho, b):
    """P(mean of n runs >= observed | true mean <= b) by the normal approximation plus the smaller
    Berry-Esseen error term at the observed z (sd and rho the sample's)."""
    if sd <= 0:
        return (0.0 if mean > b else 1.0), float("inf")
    z = (mean - b) * math.sqrt(n) / sd
    if z <= 0:
        return 1.0, z
    ratio = rho / (sd ** 3 * math.sqrt(n))
    return min(1.0, normal_tail(z) + min(BE_UNIFORM * ratio, BE_NONUNIFORM * ratio / (1 + z) ** 3)), z


def cantelli(n, mean, var, b):
    """Cantelli's one-sided Chebyshev bound on P(mean of n runs >= observed | true mean <= b)."""
    gap = mean - b
    if gap <= 0:
        return 1.0
    return min(1.0, var / (var + n * gap * gap))


def _threshold(rep):
    t = Fraction(THRESHOLD)
    if Fraction(rep.get("threshold", THRESHOLD)) != t:
        raise ValueError(f"the certificate's threshold {rep.get('threshold')} is not this checker's {THRESHOLD}")
    return float(t)


def _verdict_line(p, rep, thr, what):
    if p < thr:
        return True, f"{what}: one-sided p-value of 'mean <= bound' {p:.3g} < {thr:g} ({rep['runs']} runs, seed {rep['seed']})"
    return None, f"{what}: p-value {p:.3g} is not below {thr:g}"
'''

QUADRATIC = r'''

def problem(P, rep):
    """(T, eigenvalues, theta_1 - theta*) as balls: the quadratic of the recorded spectrum fractions and start
    direction, with the claim's smoothness, lower curvature, dimension, horizon and start size at the witness."""
    D, T = _integer(DIM(P)), _integer(HORIZON(P))
    u = [_fraction(x, "u") for x in rep["u"]]
    d = [_fraction(x, "dir") for x in rep["dir"]]
    if len(u) != D or len(d) != D:
        raise ValueError(f"the instance has {len(u)} eigenvalues and {len(d)} directions, the dimension is {D}")
    if any(not 0 <= x <= 1 for x in u) or not any(d):
        raise ValueError("the spectrum fractions must lie in [0, 1] and the direction must not be 0")
    M, lo = SMOOTH(P), LOWER(P)
    if not (_cmp(lo, ">=", 0) and _cmp(M, ">=", lo)):
        raise ValueError(f"need 0 <= lower curvature <= M, got {lo}, {M}")
    eigs = [lo + ball(x) * (M - lo) for x in u]
    dv = [ball(x) for x in d]
    size = START(P)
    if rep["start"] == "init_dist":
        norm, size2 = sum(x * x for x in dv), size * size
    elif rep["start"] == "init_gap":
        norm, size2 = sum(l * x * x for l, x in zip(eigs, dv)) / 2, size
    else:
        norm, size2 = sum(l * l * x * x for l, x in zip(eigs, dv)), size * size
    if not _cmp(norm, ">", 0):
        raise ValueError("the start direction has size 0 in this problem")
    r = (size2 / norm).sqrt()
    return T, eigs, [x * r for x in dv]


def schedule_balls(P, T):
    """The steps and noise standard deviations eta_t, s_t for t = 1..T as balls, from the claim's expressions."""
    etas, stds = [], []
    for t in range(1, T + 1):
        Q = dict(P)
        Q[INDEX] = t
        etas.append(STEP(Q))
        stds.append(NOISE(Q))
    if any(not x.is_finite() for x in etas + stds) or not all(_cmp(s, ">=", 0) for s in stds):
        raise ValueError("a step or a noise level is not finite, or a noise level is negative")
    return etas, stds
'''

REPLAY = COMMON + QUADRATIC + r'''

def schedule(P, T):
    """The steps and noise standard deviations eta_t, s_t for t = 1..T, as floats."""
    etas, stds = schedule_balls(P, T)
    return [float(x) for x in etas], [float(x) for x in stds]


def simulate(lam, th1, etas, stds, runs, seed, rep, thr):
    """Each run's statistic: theta_{t+1} = theta_t - eta_t (lam theta_t + s_t z_t), z_t ~ N(0, I)."""
    stat, average, T = rep["statistic"], rep.get("average", "after"), len(etas)
    gauss = random.Random(seed).gauss
    f1 = sum(l * x * x for l, x in zip(lam, th1)) / 2
    pick = {"after": range(2, T + 2), "steps": range(1, T + 1), "all": range(1, T + 2)}[average]
    out, path = [], stat in ("max_dist", "avg_grad_norm_sq")
    if not path:
        # the statistic needs only theta_{T+1}, which is Gaussian per coordinate: mean a_i theta_1,i and
        # variance v_i from the linear recursion; one draw per coordinate is the same law as T steps
        a, v = [1.0] * len(lam), [0.0] * len(lam)
        for e, s in zip(etas, stds):
            c = [1.0 - e * l for l in lam]
            a = [x * y for x, y in zip(a, c)]
            v = [y * y * x + (e * s) ** 2 for x, y in zip(v, c)]
        mean_t, sd_t = [x * y for x, y in zip(a, th1)], [math.sqrt(x) for x in v]
    for _ in range(runs):
        th = list(th1) if path else [m + s * gauss(0.0, 1.0) for m, s in zip(mean_t, sd_t)]
        top, gsum = 0.0, (sum(l * l * x * x for l, x in zip(lam, th)) if 1 in pick else 0.0)
        for t in range(T if path else 0):
            e, s = etas[t], stds[t]
            th = [x - e * (l * x + s * gauss(0.0, 1.0)) for x, l in zip(th, lam)]
            if stat == "max_dist":
                top = max(top, math.sqrt(sum(x * x for x in th)))
            elif stat == "avg_grad_norm_sq" and t + 2 in pick:
                gsum += sum(l * l * x * x for l, x in zip(lam, th))
        if stat == "excess":
            v = sum(l * x * x for l, x in zip(lam, th)) / 2
        elif stat == "normalised_excess":
            v = sum(l * x * x for l, x in zip(lam, th)) / 2 / f1
        elif stat == "increase":
            v = sum(l * x * x for l, x in zip(lam, th)) / 2 - f1
        elif stat == "dist_sq":
            v = sum(x * x for x in th)
        elif stat == "grad_norm_sq":
            v = sum(l * l * x * x for l, x in zip(lam, th))
        elif stat == "max_dist":
            v = top
        elif stat == "avg_grad_norm_sq":
            v = gsum / T
        else:
            raise ValueError(f"unknown statistic {stat!r}")
        out.append(float(v > thr) if thr is not None else v)
    return out


_DONE = {}


def VERDICT(P, cert):
    rep = cert["replay"]
    thr_p = _threshold(rep)
    runs, seed = int(rep["runs"]), int(rep["seed"])
    if runs < 10 * int(rep["check_runs"]):
        raise ValueError(f"the replay has {runs} runs, fewer than ten times the check's {rep['check_runs']}")
    T, eigs, th1 = problem(P, rep)
    etas, stds = schedule(P, T)
    b, claim = test_bound(P, rep)
    thr = float(EXCEEDS(P)) if EXCEEDS is not None else None
    key = (runs, seed, tuple(float(x) for x in eigs), tuple(float(x) for x in th1), tuple(etas), tuple(stds), thr)
    if key not in _DONE:
        _DONE[key] = simulate([float(x) for x in eigs], [float(x) for x in th1], etas, stds, runs, seed, rep, thr)
    xs = _DONE[key]
    n = len(xs)
    mean = math.fsum(xs) / n
    if rep["indicator"]:
        k = int(round(math.fsum(xs)))
        p = binomial_tail(k, n, b)
        what = f"replayed {k}/{n} runs above the threshold, bound {b:.6g}; exact binomial tail"
    else:
        var = math.fsum((x - mean) ** 2 for x in xs) / (n - 1)
        rho = math.fsum(abs(x - mean) ** 3 for x in xs) / n
        p, z = berry_esseen(n, mean, math.sqrt(var), rho, b)
        what = (f"replayed mean {mean:.6g} (sd {math.sqrt(var):.4g}, z = {z:.4g}) vs bound {b:.6g}; normal + "
                "Berry-Esseen")
    return _verdict_line(p, rep, thr_p, what)
'''

RECORDED = COMMON + r'''

def VERDICT(P, cert):
    rep = cert["replay"]
    thr_p = _threshold(rep)
    n = int(rep["runs"])
    if n < 10 * int(rep["check_runs"]):
        raise ValueError(f"the replay has {n} runs, fewer than ten times the check's {rep['check_runs']}")
    b, claim = test_bound(P, rep)
    mean, var = float(Fraction(rep["mean"])), float(Fraction(rep["variance"]))
    if rep["indicator"]:
        k = int(rep["count"])
        if not 0 <= k <= n or abs(k - mean * n) > 0.5:
            raise ValueError(f"the recorded count {k} does not match the mean {mean} of {n} runs")
        p = binomial_tail(k, n, b)
        what = f"recorded replay: {k}/{n} runs above the threshold, bound {b:.6g}; exact binomial tail"
    else:
        p = cantelli(n, mean, var, b)
        what = f"recorded replay: mean {mean:.6g} (variance {var:.4g}) vs bound {b:.6g}; Cantelli"
    return _verdict_line(p, rep, thr_p, what + " (the simulation is dpverify's, not re-run here)")
'''

__all__ = ["COMMON", "QUADRATIC", "RECORDED", "REPLAY"]
