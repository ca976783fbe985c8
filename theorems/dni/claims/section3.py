"""Claims of [dni], Section 3: the privacy of Algorithm 1's budget accounting (Theorem 3.1)."""
from __future__ import annotations

import math

from dpverify.scenarios import budget_filter_gd
from dpverify.claims import Claim, Domain, Int, Real, Seq, SupBound

from .common import G, N, R, T, _src, sigma, t

# ----------------------------------------------------------------------------- Theorem 3.1
_privacy_domain = Domain(
    T=Int(ge=1, search=(1, 20)),
    sigma=Seq("T", Real(gt=0, search=(0.05, 50.0), log=True)),
    R=Real(gt=0, search=(1e-2, 1e2), log=True),
    G=Real(gt=0, search=(1e-2, 1e2), log=True),
    N=Int(ge=2, search=(2, 1000)),
)
# Algorithm 1: PGD whose steps a zCDP budget filter admits (request 1/sigma_t^2 of the residual budget).
_ALG1 = dict(noise_multiplier=sigma[t], budget=R, clip=G, n_samples=N, horizon=T)
ALGORITHM1_REPLACE = budget_filter_gd(adjacency="replace", **_ALG1)
ALGORITHM1_REMOVE = budget_filter_gd(adjacency="remove", **_ALG1)
THM_3_1 = Claim(
    id="dni/thm-3.1",
    source=_src("Theorem 3.1", None,
                "PGD with privatized gradients defined by Algorithm 1, stops at step T ... satisfies rho-zCDP "
                "where rho <= R/2 (Definition 3.4: adjacent datasets d, d' in D^n differ in one sample)"),
    kind="privacy bound",
    summary="PGD with Algorithm 1's budget accounting is rho-zCDP with rho <= R/2, for any schedule (neighbours of Def. 3.4).",
    domain=_privacy_domain,
    statements=(
        SupBound("rho <= R/2 under Definition 3.4's neighbours (same size, one sample replaced)",
                 bound=R / 2, scenario=ALGORITHM1_REPLACE, kind="privacy"),
    ),
    expected="violated",
    reason=("the proof uses Def. B.1's remove-one sensitivity G/N, but Def. 3.4's neighbours d, d' in D^n "
            "differ by a replaced sample: sensitivity 2G/N, so rho = 2 sum sigma_t^-2 < 2R, not R/2"),
    witness={"T": 1, "R": math.e, "G": 1.0, "N": 2, "sigma": [1.0]},
    error_in="statement", statement_survives=False,
)
THM_3_1_CORRECTED = THM_3_1.corrected(
    summary="rho < 2R for replace-one neighbours (Def. 3.4); rho < R/2 for remove-one with fixed N (Def. B.1).",
    statements=(
        SupBound("rho <= 2R for replace-one neighbours (Def. 3.4)", bound=2 * R,
                 scenario=ALGORITHM1_REPLACE, kind="privacy"),
        SupBound("rho <= R/2 for remove-one neighbours with fixed normaliser N (Def. B.1)", bound=R / 2,
                 scenario=ALGORITHM1_REMOVE, kind="privacy"),
    ),
)
