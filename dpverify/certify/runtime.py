"""The standalone checker's fixed part: the source text every ``check.py`` starts with.

It needs the standard library and python-flint (``arb`` ball arithmetic), never dpverify. The part
generated from a claim (see :mod:`dpverify.certify.writer`) defines ``CLAIM_ID``, ``STATEMENT``,
``PARAMS`` (each parameter's kind and hypotheses, checked exactly with ``fractions.Fraction``),
``RELATIONS`` (hypotheses between parameters, decided in ball arithmetic) and ``VERDICT(P, cert)``,
which returns ``(True, message)`` when the certificate's inequality is decided in its favour at the
current precision, ``(None, message)`` when it is decided against it, and raises ``Undecided`` (or an
arithmetic error) when the balls overlap. ``main`` tries the precisions in turn. The functions that
printed expressions call (``q``, ``_cmp``, ``_sum``, ...) are :data:`dpverify.arb_source.HELPERS`, which
dpverify also runs in-process (:func:`dpverify.arb_source.evaluator`).
"""
from ..arb_source import HELPERS

RUNTIME = r'''
import json
import os
import sys
from fractions import Fraction

try:
    from flint import arb, ctx, fmpq
except ImportError:  # pragma: no cover - the reader's environment
    print("NOT CHECKED: python-flint is not installed (pip install python-flint)")
    sys.exit(1)

PRECISIONS = (64, 128, 256, 512, 1024, 2048, 4096)
HERE = os.path.dirname(os.path.abspath(__file__))


''' + HELPERS + r'''
def _fraction(text, name):
    if not isinstance(text, str):
        raise ValueError(f"{name} = {text!r} is not an exact rational 'p/q'")
    return Fraction(text)


def witness(cert):
    """The witness of certificate.json, exactly: Fractions, ints, lists of Fractions, choices."""
    raw = cert["witness"]
    W = {}
    for name, (kind, spec) in PARAMS.items():
        if name not in raw:
            raise ValueError(f"the witness has no value for {name}")
        v = raw[name]
        if kind == "real":
            W[name] = _fraction(v, name)
        elif kind == "int":
            f = _fraction(v, name)
            if f.denominator != 1:
                raise ValueError(f"{name} = {v} is not an integer")
            W[name] = int(f)
        elif kind == "seq":
            if not isinstance(v, list):
                raise ValueError(f"{name} = {v!r} is not a list")
            W[name] = [_fraction(x, f"{name}_{i}") for i, x in enumerate(v, 1)]
        else:
            W[name] = v
    return W


def _bound_problems(name, v, spec):
    out = []
    for key, op in (("gt", ">"), ("ge", ">="), ("lt", "<"), ("le", "<=")):
        if key in spec:
            b = Fraction(spec[key])
            ok = {"gt": v > b, "ge": v >= b, "lt": v < b, "le": v <= b}[key]
            if not ok:
                out.append(f"{name} = {v} violates {name} {op} {b}")
    return out


def domain_problems(W):
    """Every hypothesis on a single parameter that the witness violates (exact rational arithmetic)."""
    out = []
    for name, (kind, spec) in PARAMS.items():
        v = W[name]
        if kind in ("real", "int"):
            out += _bound_problems(name, v, spec)
        elif kind == "seq":
            n = W[spec["length"]]
            if len(v) != n:
                out.append(f"{name} has {len(v)} entries but {spec['length']} = {n}")
            for i, x in enumerate(v, 1):
                out += _bound_problems(f"{name}_{i}", x, spec["elem"])
        elif v not in spec["values"]:
            out.append(f"{name} = {v!r} is not one of {spec['values']}")
    return out


def env(W):
    """The point at the current precision: real parameters as balls, integers as ints."""
    P = {}
    for name, (kind, _) in PARAMS.items():
        v = W[name]
        if kind == "real":
            P[name] = ball(v)
        elif kind == "seq":
            P[name] = [None] + [ball(x) for x in v]
        elif kind == "choice" and isinstance(v, (int, float)) and not isinstance(v, bool):
            P[name] = ball(Fraction(v))      # a numeric choice: its exact binary value
        else:
            P[name] = v
    return P


def above(value, bound, yes, no):
    """The verdict of "value > bound" for VERDICT: (True, yes) when the balls decide it, (None, no) when
    value <= bound is decided, Undecided when they overlap."""
    if value > bound:
        return True, yes
    if value <= bound:
        return None, no
    raise Undecided(f"{value} and {bound} overlap")


def decide(W, cert):
    last = "not decided"
    for prec in PRECISIONS:
        ctx.prec = prec
        try:
            P = env(W)
            for text, relation in RELATIONS:
                if not relation(P):
                    return False, f"the witness violates the hypothesis {text}"
            ok, msg = VERDICT(P, cert)
        except (Undecided, ArithmeticError, ValueError, IndexError, OverflowError) as exc:
            last = f"undecided at {prec} bits: {exc}"
            continue
        if ok:
            return True, f"{msg} (ball arithmetic, {prec} bits)"
        if ok is None:
            return False, f"{msg} ({prec} bits)"
        last = f"undecided at {prec} bits: {msg}"
    return False, last


def main():
    try:
        with open(os.path.join(HERE, "certificate.json")) as fh:
            cert = json.load(fh)
    except (OSError, ValueError) as exc:
        print(f"NOT CERTIFIED {CLAIM_ID}: cannot read certificate.json ({exc})")
        return 1
    if cert.get("claim") != CLAIM_ID:
        print(f"NOT CERTIFIED {CLAIM_ID}: certificate.json is for {cert.get('claim')!r}")
        return 1
    try:
        W = witness(cert)
    except (KeyError, ValueError, TypeError, ZeroDivisionError) as exc:
        print(f"NOT CERTIFIED {CLAIM_ID}: bad witness in certificate.json ({exc})")
        return 1
    problems = domain_problems(W)
    if problems:
        print(f"NOT CERTIFIED {CLAIM_ID}: the witness is outside the claim's hypotheses: {problems[0]}")
        return 1
    ok, msg = decide(W, cert)
    print(f"{'CERTIFIED' if ok else 'NOT CERTIFIED'} {CLAIM_ID} [{STATEMENT}]: {msg}")
    return 0 if ok else 1
'''

# Statement kinds: the verdict function's source. ``lhs``/``rhs``/``sensitivity``/... are generated.
INEQUALITY = r'''
def VERDICT(P, cert):
    a, b = LHS(P), RHS(P)
    if a > b:
        return True, f"lhs {a.str(12, radius=False)} > rhs {b.str(12, radius=False)} (disjoint balls: lhs {a}, rhs {b})"
    if a <= b:
        return None, f"the statement holds at the witness: lhs {a} <= rhs {b}"
    raise Undecided(f"lhs {a} and rhs {b} overlap")
'''

IDENTITY = r'''
def VERDICT(P, cert):
    a, b = LHS(P), RHS(P)
    if a != b:
        return True, f"lhs {a.str(12, radius=False)} != rhs {b.str(12, radius=False)} (disjoint balls: lhs {a}, rhs {b})"
    raise Undecided(f"lhs {a} and rhs {b} overlap")
'''

#: Privacy helpers in ball arithmetic shared by the privacy kinds (and by a ``PointScenario``'s ball
#: definition, :mod:`dpverify.certify.point`): the Gaussian CDF, the Gaussian mechanism's exact profile, the
#: canonical (eps, delta)-DP pair and its k-fold product, hockey-stick divergences and half-line tests.
PRIVACY = r'''
def normal_cdf(x):
    """Phi(x), the standard normal CDF, as a ball: erfc(-x/sqrt 2)/2."""
    return (-x / arb(2).sqrt()).erfc() / 2


def gaussian_delta(eps, sensitivity, std):
    """Exact privacy profile of the Gaussian mechanism (Balle & Wang 2018, Thm. 8):
    delta(eps) = Phi(mu/2 - eps/mu) - e^eps Phi(-mu/2 - eps/mu), mu = sensitivity/std."""
    mu = sensitivity / std
    return normal_cdf(mu / 2 - eps / mu) - eps.exp() * normal_cdf(-mu / 2 - eps / mu)


def canonical_pair(eps, delta):
    """The canonical (eps, delta)-DP pair P, Q (Kairouz, Oh & Viswanath 2015): a delta leak on each side,
    randomised response between; four atoms each."""
    e = (-eps).exp()
    hi, lo, zero = (1 - delta) / (1 + e), (1 - delta) * e / (1 + e), arb(0)
    return [delta, hi, lo, zero], [zero, lo, hi, delta]


def hockey_stick(x, y, eps, side):
    """A lower (side "lower") or upper bound on sum_i max(x_i - e^eps y_i, 0), term by term."""
    w, total = eps.exp(), arb(0)
    for xi, yi in zip(x, y):
        t = xi - w * yi
        end = t.lower() if side == "lower" else t.upper()
        if end > 0:
            total += end
    return total


def composed_canonical_delta(eps, delta, k, eps_total):
    """delta at eps_total of the k-fold product of the canonical (eps, delta) pair, which every k-fold
    (adaptive) composition of (eps, delta)-DP mechanisms post-processes (Kairouz, Oh & Viswanath 2015,
    Thm. 3.3): 1 - (1 - delta)^k + (1 - delta)^k sum_l C(k, l) [e^((k-l) eps) - e^eps_total e^(l eps)]_+
    / (1 + e^eps)^k, as a ball (exact: the product's atoms summed in closed form)."""
    if not isinstance(k, int) or k < 1:
        raise ValueError(f"the number of compositions must be a positive integer, got {k!r}")
    total, binom = arb(0), 1
    for l in range(k + 1):
        total += binom * _max(((k - l) * eps).exp() - (eps_total + l * eps).exp(), arb(0))
        binom = binom * (k - l) // (l + 1)
    keep = (1 - delta) ** k
    return 1 - keep + keep * total / (1 + eps.exp()) ** k


def mixture_tail(means, weights, std, tau):
    """P(X > tau) for X ~ sum_i w_i N(means_i, std^2), as a ball."""
    return sum((w * normal_cdf((m - tau) / std) for m, w in zip(means, weights)), arb(0))


def best_threshold(gap, lo, hi, grid=401, steps=100):
    """(gap(tau), tau) at the best rational threshold tau in [lo, hi] found by a grid and a golden-section
    refinement on the balls' midpoints; ``gap`` is a lower bound on delta(eps) at every tau (a test's
    hockey-stick value), so the search only makes the bound good, never wrong."""
    ends = [lo + (hi - lo) * i / (grid - 1) for i in range(grid)]
    vals = [float(gap(ball(Fraction(t))).mid()) for t in ends]
    k = max(range(grid), key=vals.__getitem__)
    a, b = ends[max(k - 1, 0)], ends[min(k + 1, grid - 1)]
    g = (5 ** 0.5 - 1) / 2
    for _ in range(steps):
        c, d = b - g * (b - a), a + g * (b - a)
        if float(gap(ball(Fraction(c))).mid()) >= float(gap(ball(Fraction(d))).mid()):
            b = d
        else:
            a = c
    best = max((ends[k], (a + b) / 2), key=lambda t: float(gap(ball(Fraction(t))).lower()))
    return gap(ball(Fraction(best))), best


def best_halfline(p_means, q_means, weights, std, eps):
    """A lower bound on delta(eps) of the pair P = sum_i w_i N(p_i, std^2), Q = sum_i w_i N(q_i, std^2):
    P(X > tau) - e^eps Q(X > tau) at the best rational threshold tau (best_threshold). Returns (ball, tau)."""
    w = eps.exp()
    lo = min(float(m) for m in list(p_means) + list(q_means)) - 12 * float(std)
    hi = max(float(m) for m in list(p_means) + list(q_means)) + 12 * float(std)
    return best_threshold(lambda tau: mixture_tail(p_means, weights, std, tau) - w * mixture_tail(q_means, weights,
                                                                                                  std, tau), lo, hi)
'''

GAUSSIAN = PRIVACY + r'''
def VERDICT(P, cert):
    sens, std, eps, claimed = SENSITIVITY(P), NOISE_STD(P), EPS(P), BOUND(P)
    if not (_cmp(sens, ">", 0) and _cmp(std, ">", 0)):
        return None, f"the mechanism needs sensitivity > 0 and noise std > 0, got {sens}, {std}"
    d = gaussian_delta(eps, sens, std)
    if d > claimed:
        return True, (f"delta(eps) >= {d.lower().str(12, radius=False)} > claimed {claimed.str(12, radius=False)} "
                      f"(eps {eps.str(12, radius=False)}, sensitivity/std {(sens / std).str(12, radius=False)})")
    if d <= claimed:
        return None, f"delta(eps) {d} <= claimed {claimed}: the mechanism meets the claim at the witness"
    raise Undecided(f"delta(eps) {d} and the claimed {claimed} overlap")
'''

SUBSAMPLED_PAIR = PRIVACY + r'''
def subsampled_pair(eps, delta, a):
    """The canonical (eps, delta)-DP pair P, Q behind a uniformly random subsample of rate a: ((1 - a) P + a Q, P)."""
    P, Q = canonical_pair(eps, delta)
    return [(1 - a) * p + a * q for p, q in zip(P, Q)], P


def VERDICT(P, cert):
    eps, delta, a, target, claimed = EPS(P), DELTA(P), SAMPLING(P), TARGET(P), BOUND(P)
    if not (_cmp(eps, ">=", 0) and _cmp(delta, ">=", 0) and _cmp(delta, "<", 1) and _cmp(a, ">", 0)
            and _cmp(a, "<=", 1) and _cmp(claimed, ">=", 0)):
        return None, f"need eps >= 0, 0 <= delta < 1, 0 < a <= 1, claimed eps' >= 0; got {eps}, {delta}, {a}, {claimed}"
    x, y = subsampled_pair(eps, delta, a)
    # delta(eps) of the pair is non-increasing and continuous in eps, so delta(claimed) > target means the
    # smallest eps' with delta(eps') <= target is larger than the claimed eps'
    low = max(hockey_stick(x, y, claimed, "lower"), hockey_stick(y, x, claimed, "lower"))
    if low > target:
        return True, (f"delta of the subsampled pair at the claimed eps' {claimed.str(12, radius=False)} is >= "
                      f"{low.str(12, radius=False)} > target delta {target.str(12, radius=False)}: its eps' exceeds "
                      f"the claim")
    high = max(hockey_stick(x, y, claimed, "upper"), hockey_stick(y, x, claimed, "upper"))
    if high <= target:
        return None, f"delta at the claimed eps' is <= {high} <= target {target}: the claim holds at the witness"
    raise Undecided(f"delta at the claimed eps' in [{low}, {high}] and the target {target} overlap")
'''

ONE_SAMPLE_SGD = PRIVACY + r'''
def one_sample_sgd_lower(eps, std, G, n, T):
    """A lower bound on delta(eps) of T steps of noisy SGD with one uniformly drawn sample per step
    (replace-one neighbours, G-Lipschitz losses, noise N(0, std^2)), on the attained pair: the linear loss
    l(theta; x) = x theta, D' = (G, ..., G), D = (-G, G, ..., G); the released increments Y_t are N(G, std^2)
    on D' and (1 - 1/n) N(G, std^2) + (1/n) N(-G, std^2) on D, independent across steps. The event
    {min_t Y_t < tau} has P_D = 1 - (1 - p_D)^T, P_D' = 1 - (1 - p_D')^T; P_D - e^eps P_D' at the best tau."""
    w, a = eps.exp(), arb(1) / n

    def gap(tau):
        pp = normal_cdf((tau - G) / std)
        pd = (1 - a) * pp + a * normal_cdf((tau + G) / std)
        return (1 - (1 - pd) ** T) - w * (1 - (1 - pp) ** T)

    g, s = float(G), float(std)
    return best_threshold(gap, -g - 12 * s - 2 * g * T ** 0.5, g + 12 * s)


def VERDICT(P, cert):
    std, G, eps, claimed = NOISE_STD(P), LIPSCHITZ(P), EPS(P), BOUND(P)
    n, T = _integer(N_SAMPLES(P)), _integer(HORIZON(P))
    if not (_cmp(std, ">", 0) and _cmp(G, ">", 0) and n >= 1 and T >= 1):
        return None, f"need noise std > 0, G > 0, n >= 1, T >= 1; got {std}, {G}, {n}, {T}"
    d, tau = one_sample_sgd_lower(eps, std, G, n, T)
    return above(d, claimed, f"delta(eps) >= {d.lower().str(12, radius=False)} > claimed "
                 f"{claimed.upper().str(12, radius=False)} (event min_t Y_t < {tau:.6g}; n = {n}, T = {T}, "
                 f"eps {eps.str(12, radius=False)})", f"the attained pair's delta {d} is within the claimed {claimed}")
'''

RENYI = r'''
from flint import acb

WINDOW = 40   # standard deviations either side: the integrand is positive, so a finite window bounds below


def renyi_lower(sensitivity, std, order):
    """A lower bound on D_order(N(0, std^2) || N(sensitivity, std^2)) from its definition
    1/(order - 1) log int p^order q^(1 - order): the integral over a finite window, enclosed by
    rigorous quadrature (acb.integral), is at most the whole integral (order > 1)."""
    m1, a, s = acb(sensitivity), acb(order), acb(std)
    centre = -(a - 1) * m1
    lognorm = -(s * (2 * acb.pi()).sqrt()).log()

    def integrand(t, analytic):
        x = centre + s * t
        return s * (a * (lognorm - x ** 2 / (2 * s ** 2)) + (1 - a) * (lognorm - (x - m1) ** 2 / (2 * s ** 2))).exp()

    window = acb.integral(integrand, -WINDOW, WINDOW).real
    return window.log() / (order - 1)


def VERDICT(P, cert):
    sens, std, order, claimed = SENSITIVITY(P), NOISE_STD(P), ORDER(P), BOUND(P)
    if not (_cmp(std, ">", 0) and _cmp(order, ">", 1)):
        return None, f"the check needs noise std > 0 and order > 1, got {std}, {order}"
    value = renyi_lower(sens, std, order) / order
    if value > claimed:
        return True, (f"D_a/a >= {value.lower().str(12, radius=False)} > claimed {claimed.str(12, radius=False)} "
                      f"(order {order.str(12, radius=False)}; rigorous quadrature over +-{WINDOW} std)")
    raise Undecided(f"the lower bound {value} on D_a/a does not exceed the claimed {claimed}")
'''

AUDIT = r'''
BISECTIONS = 64


def cp_lower(k, n, level):
    """A rational p at most the one-sided Clopper-Pearson lower bound: P(X >= k; p) < level, decided."""
    if k == 0:
        return Fraction(0)
    lo, hi = Fraction(0), Fraction(1)
    for _ in range(BISECTIONS):
        mid = (lo + hi) / 2
        tail = ball(mid).beta_lower(k, n - k + 1, 1)      # P(X >= k; p) = I_p(k, n - k + 1)
        if tail < ball(level):
            lo = mid
        else:
            hi = mid
    return lo


def cp_upper(k, n, level):
    """A rational p at least the one-sided Clopper-Pearson upper bound: P(X <= k; p) < level, decided."""
    if k == n:
        return Fraction(1)
    lo, hi = Fraction(0), Fraction(1)
    for _ in range(BISECTIONS):
        mid = (lo + hi) / 2
        cdf = 1 - ball(mid).beta_lower(k + 1, n - k, 1)   # P(X <= k; p) = 1 - I_p(k + 1, n - k)
        if cdf < ball(level):
            hi = mid
        else:
            lo = mid
    return hi


def VERDICT(P, cert):
    a = cert["audit"]
    k1, k2, n = int(a["k_first"]), int(a["k_second"]), int(a["n"])
    if not (n >= 1 and 0 <= k1 <= n and 0 <= k2 <= n):
        return None, f"bad counts {k1}, {k2} of {n}"
    level = (1 - Fraction(a["confidence"])) / 2
    p1, p2 = cp_lower(k1, n, level), cp_upper(k2, n, level)
    eps, claimed = EPS(P), BOUND(P)
    lower = ball(p1) - eps.exp() * ball(p2)
    if lower > claimed:
        return True, (f"counts {k1}/{n} vs {k2}/{n}: Clopper-Pearson (each side at level {float(level):g}) gives "
                      f"delta(eps) >= {lower.lower().str(12, radius=False)} > claimed {claimed.str(12, radius=False)} "
                      f"at eps {eps.str(12, radius=False)}, at confidence {float(1 - 2 * level):g}")
    if lower <= claimed:
        return None, f"the counts' delta lower bound {lower} does not exceed the claimed {claimed}"
    raise Undecided(f"delta lower bound {lower} and the claimed {claimed} overlap")
'''

FOOTER = r'''

if __name__ == "__main__":
    sys.exit(main())
'''

__all__ = ["AUDIT", "FOOTER", "GAUSSIAN", "IDENTITY", "INEQUALITY", "ONE_SAMPLE_SGD", "PRIVACY", "RENYI", "RUNTIME", "SUBSAMPLED_PAIR"]
