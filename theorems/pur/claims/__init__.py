"""Claims of [pur]: "Adaptive Hyperparameter Selection for Differentially Private Gradient Descent".

Seed file ``001_8c6e002b41f68e78.txt``. Every claim is encoded as printed, its hypotheses as the
domain; where the paper is wrong the printed claim is kept with ``expected="violated"``, a reason and
a witness, and a ``-corrected`` claim that holds sits next to it.

Notation (the paper's): DP-GD (2) ``theta_{t+1} = theta_t - eta_t (grad F(theta_t) + zeta_t)``,
``zeta_t ~ N(0, sigma_t^2 I_d)``; ``Delta0 = F(theta_0) - F*``; ``kappa = M/mu``; replace-one neighbours
(Section 2: "we take ~_X to be the replacement relation"), so the gradient's sensitivity is ``2L/N``
(Section 3.2 and the proof of Proposition 4) and ``rho_t = 2 L^2/(N^2 sigma_t^2)`` (21).

Indexing. Eq. (2) pairs sigma_t with the step taken *from* theta_t, which for the schedules of
Propositions 3(a), 3(b) (sigma_t proportional to 1/t) makes sigma_0 infinite; the privacy sums of the
proof of Proposition 4 run over t = 1..T and Lemma 2's r/(t+1)^2 is what the recursion of 3(b) must
match, so for Propositions 3 and 4 the steps are read as "step t = 1..T, from theta_{t-1} to theta_t,
with noise sigma_t" (the engine's theta_1 is the paper's theta_0; the paper's theta_T the engine's
theta_{T+1}). The data-dependent schedule of Propositions 1-2 is eq. (2) as printed.

Problem classes. "Possibly non-convex" M-smooth losses: exact moments on quadratics with spectrum in
[0, M] (members of the class) and Monte Carlo on the non-convex ``sum_i a_i (1 - cos theta_i)``;
convex: spectrum in [0, M], Monte Carlo on ridge logistic regression; strongly convex: spectrum in
[mu, M]. "The iterates satisfy ||theta_t - theta*|| <= R" cannot hold for (2) (Gaussian noise has full
support, see ``pur/claim-iterate-radius``): the checks of Propositions 2(b), 3(b), 4(b) keep only
``||theta_0 - theta*|| <= R``, which makes them stronger tests.

The claims are split by the paper's section (``common`` holds what the sections share); ``CLAIMS`` below
lists them in printed order."""
from __future__ import annotations

from .common import *  # noqa: F401,F403
from .section2 import *  # noqa: F401,F403
from .section3_2_3 import *  # noqa: F401,F403
from .section3_4 import *  # noqa: F401,F403
from .appendix_b import *  # noqa: F401,F403
from .section4_5 import *  # noqa: F401,F403

CLAIMS = (
    LIPSCHITZ_GRADIENT, LIPSCHITZ_GRADIENT_CORRECTED, SMOOTH_LIPSCHITZ, SMOOTH_LIPSCHITZ_CORRECTED, MEAN_SENSITIVITY,
    GAUSSIAN_ZCDP, GAUSSIAN_ZCDP_CORRECTED, GAUSSIAN_DP,
    EQ_4, LEMMA_1, PROP_1, PROP_1_CORRECTED, EQ_12, PROP_2A, PROP_2B, PROP_2C, TWICE,
    GD_RATES, PROP_3A, PROP_3A_CORRECTED, PROP_3B, PROP_3C, SAME_RATE, PER_STEP,
    PROP_4A, PROP_4A_CORRECTED, PROP_4B, PROP_4B_CORRECTED, PROP_4C, PROP_4C_CORRECTED, EPS_CLAIM, BUDGET_STEPS,
    CONVEX_SCALING, TABLE_1, TABLE_2,
    CONSTANTS, ITERATE_RADIUS, ITERATE_RADIUS_CORRECTED, ORACLE_LEAK,
    LEMMA_2, EQ_21,
)
