"""Claims of [stage], Section 3.2 (privacy analysis): the switch between sampling schemes in Theorem 3.1's proof.

Theorem 3.1 follows "the moments accountant analysis in Theorem 3.1 from [Abadi et al., 2016]", which is proved for
Poisson sampling at rate q with add-or-remove neighbours, and "the privacy amplification result in [Balle et al.,
2018] that the amplification ratio is the same under the uniform sampling without replacement and under the
Poisson sampling when B/n = q". Algorithm 2 draws batches of exactly B of the n samples without replacement, and
Definition 2.1's neighbours replace one sample. ``stage/claim-amplification`` checks that Balle et al.'s two
formulas agree; ``stage/claim-sampling-switch`` checks whether the bound proved for the one scheme holds for the
scheme Algorithm 2 runs. Units as in :mod:`theorems.stage.proofs`: a step's mini-batch gradient moves by 1 (L/B)
when sample 1 is in the batch, the noise N(0, pi^2) on the mean gradient has standard deviation s = pi B/L.
"""
from __future__ import annotations

import sympy as sp
from sympy.utilities.lambdify import implemented_function

from dpverify.scenarios import PointScenario
from dpverify.claims import Claim, Domain, Int, Real, Relation, SupBound

from .. import proofs
from .common import B, _src, delta, eps, n

s_noise = sp.Symbol("s")
_SWITCH_TEXT = (
    "'The following theorem provides the privacy guarantee of Algorithm 1, which follows 1) the moments accountant "
    "analysis in Theorem 3.1 from [Abadi et al., 2016]; and 2) the privacy amplification result in [Balle et al., "
    "2018] that the amplification ratio is the same under the uniform sampling without replacement and under the "
    "Poisson sampling when B/n = q.' Algorithm 2, line 2: 'Draw mini-batch with index I_t in {n} uniformly random, "
    "where |I_t| = B'; Definition 2.1: neighbours 'differ in exactly one data sample' [Abadi et al.'s accountant: "
    "Poisson sampling at rate q, add-or-remove neighbours; here at q = B/n and the same noise multiplier s = pi B/L]")
_SWITCH_DOMAIN = Domain(Relation(sp.Le(B, n), "B <= n"),
                        n=Int(ge=1, search=(1, 1000)), B=Int(ge=1, search=(1, 1000)),
                        s=Real(gt=0, search=(0.3, 10.0), log=True), T=Int(ge=1, search=(1, 50)),
                        delta=Real(gt=0, lt=1, search=(1e-8, 0.1), log=True))
CLAIM_SAMPLING_SWITCH = Claim(
    id="stage/claim-sampling-switch",
    error_in="proof-step", statement_survives=True,
    source=_src("Theorem 3.1", "(4)", _SWITCH_TEXT),
    kind="privacy bound",
    about="algorithm",
    summary=("The privacy the moments accountant proves for Poisson sampling at rate q = B/n (add-or-remove "
             "neighbours) holds for Algorithm 2's batches of B drawn without replacement (Definition 2.1's "
             "replace-one neighbours) at the same noise."),
    domain=_SWITCH_DOMAIN,
    statements=(
        SupBound("delta of Algorithm 2's T noisy gradients at the accountant's eps (Poisson, rate B/n, add-or-remove, "
                 "dp-accounting PLD: an upper bound on that scheme's eps) <= delta (best half-line of the run's sum: "
                 "a lower bound)", bound=delta, kind="privacy",
                 scenario=PointScenario(proofs.run_delta_at_accountant_eps,
                                        "Algorithm 2 on the linear-loss pair, batches without replacement, replace-one: "
                                        "best half-line of the exact law of the summed increments", optimise=0,
                                        ball=proofs.RUN_DELTA_BALL, record=proofs.record_accountant_eps)),
    ),
    expected="violated",
    reason=("Balle et al.'s ratio is the same, but for different neighbours: replacing a sample moves the batch "
            "gradient by 2L/B where adding or removing one moves it by L/B, so the scheme run leaks more than the "
            "accountant's (n = 10, B = 1, s = 1, T = 1, delta = 0.002: the accountant's eps = 0.503, the run's delta "
            "there >= 0.0033)"),
    witness={"n": 10, "B": 1, "s": 1.0, "T": 1, "delta": 0.002},
)
POISSON_DELTA_HALF = implemented_function("delta_poisson_half_noise", proofs.one_step_poisson_delta_half_noise)
CLAIM_SAMPLING_SWITCH_CORRECTED = CLAIM_SAMPLING_SWITCH.corrected(
    summary=("With the noise multiplier halved (s/2: the replace-one sensitivity 2L), the Poisson add-or-remove "
             "accountant bounds Algorithm 2's scheme: one step's delta(eps) is at most the Poisson step's at every "
             "eps, so the T-fold compositions are ordered alike (checked for B < n; at B = n the two are equal)."),
    # The search box keeps both profiles above 1e-9 (further out the best half-line underflows to 0 on both sides and
    # the two cannot be told apart).
    domain=Domain(Relation(sp.Le(B, n - 1), "B < n"),
                  n=Int(ge=2, search=(2, 100)), B=Int(ge=1, search=(1, 100)),
                  s=Real(gt=0, search=(0.3, 3.0), log=True), epsilon=Real(gt=0, search=(0.01, 2.0), log=True)),
    statements=(
        SupBound("one step of Algorithm 2 (without replacement, replace-one): delta(eps) <= the Poisson add-or-remove "
                 "step's at noise s/2 (both exact: monotone likelihood ratios, best half-line)",
                 bound=POISSON_DELTA_HALF(s_noise, B, n, eps), kind="privacy",
                 scenario=PointScenario(proofs.one_step_run_delta, "one step of Algorithm 2 on the linear-loss pair, "
                                        "exact delta(eps)", optimise=0)),
    ),
)

__all__ = ["CLAIM_SAMPLING_SWITCH", "CLAIM_SAMPLING_SWITCH_CORRECTED"]
