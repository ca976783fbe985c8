"""Claims of [erm], Section 2.2 (Differential Privacy): Lemma 1, the Laplace and Gaussian mechanisms."""
from __future__ import annotations

import math

import sympy as sp

from dpverify.scenarios import additive_noise, dp_audit, gaussian_mechanism
from dpverify.claims import Claim, Domain, Int, Real, SupBound

from .. import proofs
from .common import DELTA, Delta1, Delta2, _src, delta, eps, k

# ============================================================================= Lemma 1
SIGMA_CLASSICAL = sp.sqrt(2 * sp.log(sp.Rational(5, 4) / delta)) * Delta2 / eps
_LAPLACE = additive_noise(noise="laplace", norm="l1", sensitivity=Delta1, scale=Delta1 / eps, dim=k)
_GAUSS_L1 = gaussian_mechanism(sensitivity=Delta2, noise_std=SIGMA_CLASSICAL, eps=eps, measure="delta_at_eps")
_GAUSS_L1_AUDIT = dp_audit(
    sampler=proofs.gaussian_mechanism_sampler(
        lambda pt: math.sqrt(2 * math.log(1.25 / pt["delta"])) * pt["Delta2"] / pt["epsilon"]),
    what="Lemma 1's Gaussian mechanism", eps=eps, delta=delta)


def _lemma1_domain(eps_range):
    return Domain(epsilon=eps_range, delta=DELTA,
                  Delta1=Real(gt=0, search=(1e-2, 1e2), log=True), Delta2=Real(gt=0, search=(1e-2, 1e2), log=True),
                  k=Int(ge=1, search=(1, 6)))


def _lemma1_statements():
    return (
        SupBound("Laplace: largest privacy loss of q + Lap(Delta_1/eps)^k over ||q(S) - q(S')||_1 = Delta_1 <= eps",
                 bound=eps, kind="privacy", scenario=_LAPLACE),
        SupBound("Gaussian: exact delta(eps) of q + N(0, sigma^2 I), sigma = sqrt(2 ln(1.25/delta)) Delta_2/eps, <= delta",
                 bound=delta, kind="privacy", scenario=_GAUSS_L1, audit=_GAUSS_L1_AUDIT),
    )


LEMMA_1 = Claim(
    id="erm/lemma-1",
    source=_src("Lemma 1", None,
                "Laplace mechanism: q(S) + (Y_1..Y_k), Y_i iid Lap(Delta_1(q)/eps), preserves eps-DP. Gaussian "
                "mechanism: Y_i iid N(0, sigma^2), sigma = sqrt(2 ln(1.25/delta)) Delta_2(q)/eps, preserves "
                "(eps, delta)-DP (no range of eps or delta printed)"),
    kind="privacy bound",
    summary=("Laplace mechanism with Lap(Delta_1/eps) noise is eps-DP; the Gaussian mechanism with "
             "sigma = sqrt(2 ln(1.25/delta)) Delta_2/eps is (eps, delta)-DP (for every eps > 0, delta in (0, 1))."),
    domain=_lemma1_domain(Real(gt=0, search=(1e-2, 50.0), log=True)),
    statements=_lemma1_statements(),
    expected="violated",
    reason=("the classical Gaussian calibration holds only for eps < 1 (Dwork & Roth, Thm A.1); the exact "
            "profile exceeds delta from eps ~ 3.8 on (e.g. eps = 20, delta = 0.01: delta(eps) = 0.48)"),
    witness={"epsilon": 20.0, "delta": 0.01, "Delta1": 1.0, "Delta2": 1.0, "k": 1},
    error_in="statement", statement_survives=False,
)
LEMMA_1_CORRECTED = LEMMA_1.corrected(
    summary=("Laplace: eps-DP for every eps; Gaussian with sigma = sqrt(2 ln(1.25/delta)) Delta_2/eps: "
             "(eps, delta)-DP for 0 < eps <= 1 (every delta in (0, 1); the exact profile first fails near eps = 3.8)."),
    domain=_lemma1_domain(Real(gt=0, le=1, search=(1e-2, 1.0), log=True)),
)
