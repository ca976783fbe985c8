"""A user's claims file of privacy numbers that are not what a double says: a negative eps at delta and
an exact profile of 1e-229 (issue 38, item 3). Loaded the way a user's file is, never imported as part of
the project. Every claim's ``expected`` is the mathematical truth:

* ``negative-eps-true``: for ``delta`` above ``delta(0) = TV = erf(mu / (2 sqrt 2))`` the Gaussian
  mechanism's eps at delta is negative, and at most ``ln(1 + TV - delta) < 0`` (every pair has
  ``delta(eps) <= TV + 1 - e^eps`` for ``eps <= 0``: ``P(S) - e^eps Q(S) = P(S) - Q(S) + (1 - e^eps) Q(S)``).
  True; an eps clamped at 0 and taken as exact calls it violated at every point;
* ``negative-eps-planted``: at most ``ln(1 - delta)``, which every pair of distinct distributions exceeds
  (false);
* ``profile-1e-229``: Balle & Wang's formula as its own bound, where the profile is 1e-196..1e-267
  (``eps = z mu``, ``z`` in [30, 35]): the bound is the quantity, ``verified`` (double precision knew
  the profile only to an absolute 1e-20);
* ``profile-1e-229-planted-6`` / ``-12``: the same bound times ``1 - 1e-6`` / ``1 - 1e-12``: false at
  every point (the profile is positive); the first is refuted by the measurement, the second only by
  ball arithmetic at an exact point (it is inside the supremum check's tolerance of 1e-9).
"""
import sympy as sp

from dpverify import Claim, Domain, Real, Relation, Source, SupBound
from dpverify.scenarios import gaussian_mechanism

BOOK = "privacy numbers beyond double precision (Balle & Wang 2018, Thm. 8; total variation)"
mu, delta, z = sp.symbols("mu delta z")


def _claim(id, label, summary, domain, statements, expected="holds", reason="", witness=None):
    return Claim(id=f"textbook/privacy-{id}", source=Source(BOOK, label), summary=summary, domain=domain,
                 statements=tuple(statements), expected=expected, reason=reason, witness=witness)


def _phi(x):
    return sp.erfc(-x / sp.sqrt(2)) / 2


# ------------------------------------------------------------------------- eps at delta below 0
TV = sp.erf(mu / (2 * sp.sqrt(2)))      # delta(0) of the Gaussian mechanism: its total variation
_neg = Domain(Relation(sp.Gt(delta, TV), "delta > delta(0) = erf(mu / (2 sqrt 2))"),
              mu=Real(gt=0, search=(0.05, 3.0), log=True), delta=Real(gt=0, lt=1, search=(0.3, 0.99)))
_EPS_AT = gaussian_mechanism(sensitivity=mu, noise_std=1, delta=delta, measure="eps_at_delta")
NEGATIVE_TRUE = _claim(
    "negative-eps-true", "eps at delta above delta(0)",
    "Above delta(0) the Gaussian mechanism's eps at delta is at most ln(1 + TV - delta) < 0.", _neg,
    [SupBound("eps at delta <= ln(1 + TV - delta)", bound=sp.log(1 + TV - delta), kind="privacy", scenario=_EPS_AT)])
NEGATIVE_PLANTED = _claim(
    "negative-eps-planted", "eps at delta above delta(0)",
    "PLANTED: above delta(0) the Gaussian mechanism's eps at delta is at most ln(1 - delta).", _neg,
    [SupBound("eps at delta <= ln(1 - delta)", bound=sp.log(1 - delta), kind="privacy", scenario=_EPS_AT)],
    expected="violated", reason="planted: every pair of distinct distributions has eps at delta > ln(1 - delta)",
    witness={"mu": 2.0, "delta": 0.9})

# ------------------------------------------------------------------------- the exact profile at 1e-229
_tail = Domain(mu=Real(ge=0.5, le=2), z=Real(ge=30, le=35))
_EPS = z * mu
BALLE_WANG = _phi(-_EPS / mu + mu / 2) - sp.exp(_EPS) * _phi(-_EPS / mu - mu / 2)
_PROFILE = gaussian_mechanism(sensitivity=mu, noise_std=1, eps=_EPS, measure="delta_at_eps")


def _profile_claim(id, scale, expected, reason=""):
    what = "" if scale == 1 else f" times {sp.sstr(scale)}"
    return _claim(id, "Theorem 8 (Balle & Wang), in the tail",
                  ("" if scale == 1 else "PLANTED: ") + f"delta(z mu) <= Balle & Wang's formula{what}, mu in [0.5, 2], "
                  "z in [30, 35] (profiles of 1e-196 to 1e-267).", _tail,
                  [SupBound(f"exact delta at eps = z mu <= Balle & Wang's formula{what}", bound=scale * BALLE_WANG,
                            kind="privacy", scenario=_PROFILE)],
                  expected=expected, reason=reason, witness=None if scale == 1 else {"mu": 1.0, "z": 32.5})


PROFILE_EXACT = _profile_claim("profile-1e-229", sp.Integer(1), "verified")
PROFILE_PLANTED_6 = _profile_claim("profile-1e-229-planted-6", 1 - sp.Rational(1, 10**6), "violated",
                                   "planted: the profile is positive, so 1 - 1e-6 of it is below it")
PROFILE_PLANTED_12 = _profile_claim("profile-1e-229-planted-12", 1 - sp.Rational(1, 10**12), "violated",
                                    "planted: the profile is positive, so 1 - 1e-12 of it is below it")

CLAIMS = (NEGATIVE_TRUE, NEGATIVE_PLANTED, PROFILE_EXACT, PROFILE_PLANTED_6, PROFILE_PLANTED_12)
