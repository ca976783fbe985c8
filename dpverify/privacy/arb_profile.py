"""The Gaussian mechanism's exact privacy profile in ball arithmetic (python-flint ``arb``), with a
relative error at any magnitude.

``delta(eps) = Phi(-eps/mu + mu/2) - e^eps Phi(-eps/mu - mu/2)`` [Balle & Wang 2018, Thm. 8] with
``Phi(x) = erfc(-x / sqrt 2) / 2``: arb's ``erfc`` has a relative error at every magnitude (no
underflow: a ball's exponent is unbounded), and the difference of the two terms, which cancel in the
tail, is evaluated at a precision doubled until the ball's relative radius is below ``2^-rel_bits``.
A value of ``1e-229`` is then known to 60 bits, where double precision knew it only to an absolute
``1e-20`` (:func:`dpverify.privacy.gaussian_delta_exact`'s log-space form loses the difference's digits).

The ball is an enclosure: every rounding (arb's) is in its radius. Inputs are exact (a double is its
exact binary value, a ``Fraction`` an exact rational); an ``arb`` input is taken with its radius.

``delta`` increases with ``mu`` and decreases with ``eps`` (``d delta/d mu = phi(-eps/mu + mu/2) > 0``,
``d delta/d eps = -e^eps Phi(-eps/mu - mu/2) < 0``), so :func:`gaussian_delta_enclosure` encloses it
over a box ``[eps_lo, eps_hi] x [mu_lo, mu_hi]`` by its two corners, without the dependency blow-up of
a ball argument.
"""
from __future__ import annotations

from fractions import Fraction

#: the relative accuracy asked of a profile's ball, in bits
REL_BITS = 60
#: the largest working precision tried (bits)
MAX_PREC = 1 << 14


def _arb(x):
    from flint import arb, fmpq

    if isinstance(x, arb):
        return x
    f = Fraction(x)
    return arb(fmpq(f.numerator, f.denominator))


def _profile_at_current_prec(eps, mu):
    from flint import arb

    e, m = _arb(eps), _arb(mu)
    r2 = arb(2).sqrt()
    first = (-(-e / m + m / 2) / r2).erfc() / 2
    second = e.exp() * ((-(-e / m - m / 2) / r2).erfc() / 2)
    return first - second


def gaussian_delta_ball(eps, mu, rel_bits: int = REL_BITS, max_prec: int = MAX_PREC):
    """``delta(eps)`` of the Gaussian mechanism with ``mu = Delta / s`` as an ``arb`` ball whose
    relative radius is below ``2^-rel_bits`` (the working precision doubled from 128 bits until it is, up
    to ``max_prec``; the last ball is returned either way: it is an enclosure, only wider).

    >>> b = gaussian_delta_ball(60.0, 1.0)
    >>> b > 0 and b.rel_accuracy_bits() >= 60 and b < 1e-700
    True
    """
    from flint import ctx

    if not mu > 0:
        raise ValueError(f"mu must be > 0. Found {mu!r}.")
    old, prec = ctx.prec, 128
    try:
        while True:
            ctx.prec = prec
            ball = _profile_at_current_prec(eps, mu)
            if ball.rel_accuracy_bits() >= rel_bits or prec >= max_prec:
                return ball
            prec *= 2
    finally:
        ctx.prec = old


def gaussian_delta_enclosure(eps_lo, eps_hi, mu_lo, mu_hi, rel_bits: int = REL_BITS):
    """A ball holding ``delta(eps)`` for every ``eps`` in ``[eps_lo, eps_hi]`` and ``mu`` in
    ``[mu_lo, mu_hi]`` (``mu_lo > 0``): the union of the balls at the corners ``(eps_hi, mu_lo)`` (the
    least) and ``(eps_lo, mu_hi)`` (the largest), by the profile's monotonicity (module docstring)."""
    low = gaussian_delta_ball(eps_hi, mu_lo, rel_bits)
    high = gaussian_delta_ball(eps_lo, mu_hi, rel_bits)
    return low.union(high)


def ball_bounds(ball) -> tuple[float, float, float]:
    """``(lower, mid, upper)`` of a ball as doubles rounded outwards (the mid rounded to nearest)."""
    import math

    lo, hi = ball.lower(), ball.upper()
    flo, fhi = float(lo), float(hi)
    if flo > lo:         # float() rounds to nearest: move outwards when it went inside
        flo = math.nextafter(flo, -math.inf)
    if fhi < hi:
        fhi = math.nextafter(fhi, math.inf)
    mid = min(max(float(ball.mid()), flo), fhi)
    return flo, mid, fhi


__all__ = ["MAX_PREC", "REL_BITS", "ball_bounds", "gaussian_delta_ball", "gaussian_delta_enclosure"]
