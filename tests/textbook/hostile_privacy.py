"""A user's claims file of hostile privacy cases: true and false twins that a checker which takes an
accountant's upper bound, or a search's shrunk point, as the measured value decides wrongly.

Loaded the way a user's file is (``dpverify check --module tests/textbook/hostile_privacy.py --all``),
never imported as part of the project. Every claim's ``expected`` is the mathematical truth:

* ``hostile-privacy-accountant-true``: eps of ``n^2`` steps of the sampled Gaussian (multiplier 2000,
  sampling probability ``1/n``, delta 5e-9) is at most 0.006. True: the PLD brackets it in about
  [0.0017, 0.0022]; but dp-accounting's RDP accountant on its default orders (which stop at 1024)
  gives about 0.011 and its PLD on a 1e-3 grid about 0.05, both upper bounds above the claim. It may
  be ``holds`` or ``inconclusive``, never ``violated``;
* ``hostile-privacy-accountant-false``: the same at most 0.0012: false, refuted by the PLD's
  optimistic estimate (a lower bound) on a fine grid;
* ``hostile-privacy-profile-true`` / ``-false``: the Gaussian mechanism's exact privacy profile at
  ``mu^2/2 + mu sqrt(2 ln(1/delta))`` (the zCDP conversion: true) and at ``mu sqrt(2 ln(1/delta))``
  (the ``mu^2/2`` dropped: false for large ``mu``);
* ``hostile-privacy-shrink-planted``: a planted supremum bound violated by 2.2x on most of its
  domain, measured while searching by a crude upper bound (2% loose) that also "fails" on a strip
  where the true value is just below the bound; the search's shrinking moves there, the exact
  confirmation disagrees, and only the worst instance found refutes the claim.
"""
import sympy as sp

from dpverify import Claim, Domain, Int, Real, Source, SupBound
from dpverify.measured import Measured
from dpverify.scenarios import Scenario, gaussian_mechanism, sampled_gaussian

BOOK = "hostile privacy cases (Balle & Wang 2018; Bun & Steinke 2016; dp-accounting's accountants)"
n, mu, delta, x = sp.symbols("n mu delta x")


def _claim(id, label, summary, domain, statements, expected="holds", reason="", witness=None):
    return Claim(id=f"textbook/hostile-privacy-{id}", source=Source(BOOK, label), summary=summary, domain=domain,
                 statements=tuple(statements), expected=expected, reason=reason, witness=witness)


# ------------------------------------------------------------------------- an accountant's upper bound
_sg = Domain(n=Int(ge=200, le=300, search=(200, 300)))
_SG = dict(noise_multiplier=2000, sampling_probability=1 / n, steps=n**2, delta=sp.Float(5e-9))
ACCOUNTANT_TRUE = _claim(
    "accountant-true", "sampled Gaussian, composed",
    "n^2 steps of the sampled Gaussian (multiplier 2000, sampling probability 1/n) are (0.006, 5e-9)-DP.", _sg,
    [SupBound("eps at delta = 5e-9", bound=sp.Float(0.006), kind="privacy", scenario=sampled_gaussian(**_SG))])
ACCOUNTANT_FALSE = _claim(
    "accountant-false", "sampled Gaussian, composed",
    "FALSE: n^2 steps of the sampled Gaussian (multiplier 2000, sampling probability 1/n) are (0.0012, 5e-9)-DP.",
    _sg, [SupBound("eps at delta = 5e-9", bound=sp.Float(0.0012), kind="privacy", scenario=sampled_gaussian(**_SG))],
    expected="violated", reason="the PLD's optimistic estimate (a lower bound) of eps is about 0.0017",
    witness={"n": 250})

# ------------------------------------------------------------------------- the exact privacy profile
_prof = Domain(mu=Real(gt=0, search=(0.1, 20.0), log=True), delta=Real(gt=0, lt=1, search=(1e-12, 0.1), log=True))
LN = sp.log(1 / delta)
PROFILE_TRUE = _claim(
    "profile-true", "Proposition 1.3 (Bun & Steinke)",
    "The Gaussian mechanism with mu = Delta/s is (mu^2/2 + mu sqrt(2 ln(1/delta)), delta)-DP.", _prof,
    [SupBound("exact delta at the converted eps", bound=delta, kind="privacy",
              scenario=gaussian_mechanism(sensitivity=mu, noise_std=1, eps=mu**2 / 2 + mu * sp.sqrt(2 * LN),
                                          measure="delta_at_eps"))])
PROFILE_FALSE = _claim(
    "profile-false", "Proposition 1.3 (Bun & Steinke)",
    "FALSE: the Gaussian mechanism with mu = Delta/s is (mu sqrt(2 ln(1/delta)), delta)-DP (mu^2/2 dropped).", _prof,
    [SupBound("exact delta at eps = mu sqrt(2 ln(1/delta))", bound=delta, kind="privacy",
              scenario=gaussian_mechanism(sensitivity=mu, noise_std=1, eps=mu * sp.sqrt(2 * LN),
                                          measure="delta_at_eps"))],
    expected="violated", reason="at mu = 10, delta = 1e-5 the exact delta at that eps is about 0.5",
    witness={"mu": 10.0, "delta": 1e-5})


# ------------------------------------------------------------------------- shrinking loses the counterexample
class CrudeWhileSearching(Scenario):
    """``f(x) = 2.2`` for ``x > 2`` and ``0.99`` for ``x <= 2`` (the instance is the claim's point): exact
    with the check's runs; while searching (``runs <= search_runs``) exact for ``x <= 1.5`` (where the
    search starts) and a 2%-loose upper bound above, which exceeds the bound 1 on (1.5, 2] too, where
    the true value is just below it: shrinking moves from a 2.2x draw down to that marginal region."""

    name = "planted step function, crude while searching"
    search_runs = 2
    optimise = 0

    def measure(self, inst, runs, seed):
        f = 2.2 if inst["x"] > 2 else 0.99
        if runs <= self.search_runs and inst["x"] > 1.5:
            return Measured.upper_bound(1.02 * f)
        return Measured.exact(f)

    def describe(self, inst):
        return self.name


SHRINK_PLANTED = _claim(
    "shrink-planted", "planted supremum",
    "PLANTED: sup_x f(x) <= 1 for a step function equal to 2.2 on (2, 10].",
    Domain(x=Real(ge=1, le=10, search=(1, 10))),
    [SupBound("f(x) <= 1", bound=sp.Integer(1), kind="supremum", scenario=CrudeWhileSearching())],
    expected="violated", reason="planted: f = 2.2 > 1 on (2, 10]", witness={"x": 5.0})

CLAIMS = (ACCOUNTANT_TRUE, ACCOUNTANT_FALSE, PROFILE_TRUE, PROFILE_FALSE, SHRINK_PLANTED)
