"""Claims of [stage]: "Private Stochastic Non-convex Optimization with Improved Utility Rates"
(Zhang, Ma, Lou, Xiong), seed file ``003_5052799caee6efc5.txt``.

Every claim is encoded as printed; where OCR garbled a formula the surrounding derivation decides
and ``Source.text`` quotes what was read. Wrong claims are kept with ``expected="violated"`` and a
``-corrected`` claim that holds sits next to each.

Notation (Section 2 and Theorem 3.2): f is L-Lipschitz and beta-smooth, the per-sample gradient
variance is at most sigma^2, F_S is mu-PL and one-point theta-weakly quasi-convex; Algorithm 1
(DpageEM) runs K stages, stage k = 1..K with step eta^k = eta^0/2^k, T^k = 2^k T^0 steps and
momentum rho for the first t^k_Mon = 2^k t^0_Mon of them, mini-batches of B of the n samples, noise
N(0, pi^2 I_d) on the mini-batch gradient, and outputs an iterate drawn uniformly from the stage.

Reading of the standing assumptions: |f| <= 1 on all of R^d sits badly with mu-PL (mu-PL gives quadratic
growth F_S(w) - F* >= (mu/2) dist(w, W*)^2, so every point would lie within 2/sqrt(mu) of a minimiser; the
losses the checks use would violate it globally), and Remark 1 says the
assumptions need only hold locally; every check therefore reads them on the region the iterates
visit (:mod:`dpverify.scenarios.expectations.step_decay`), with every constant measured there.

The claims are split by the paper's section (``common`` holds what the sections share); ``CLAIMS`` below
lists them in printed order."""
from __future__ import annotations

from .common import *  # noqa: F401,F403
from .section1 import *  # noqa: F401,F403
from .section2 import *  # noqa: F401,F403
from .section3 import *  # noqa: F401,F403
from .section3_sampling import *  # noqa: F401,F403
from .section1 import _GENERALISATION, _TESTING  # noqa: F401 (used by the tests and notebooks)

CLAIMS = (
    CLAIM_RISK_DECOMPOSITION, CLAIM_HIGH_DIM,
    THM_2_1, THM_2_1_CORRECTED, THM_2_2,
    CLAIM_AMPLIFICATION, CLAIM_SAMPLING_SWITCH, CLAIM_SAMPLING_SWITCH_CORRECTED, THM_3_1, THM_3_1_CORRECTED,
    THM_3_2, THM_3_2_CORRECTED, CLAIM_STAGE_CONDITIONS, CLAIM_DP_TERM, CLAIM_DP_TERM_CORRECTED, CLAIM_EER_RATE, CLAIM_EER_RATE_CORRECTED,
    REMARK_3, REMARK_4,
    THM_3_3, CLAIM_MOMENTUM_TRADEOFF,
    THM_3_4, THM_3_4_CORRECTED, CLAIM_IMPROVES, CLAIM_IMPROVES_CORRECTED,
)
