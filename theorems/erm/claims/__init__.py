"""Claims of [erm]: "Efficient Private ERM for Smooth Objectives" (Zhang, Zheng, Mou, Wang).

Seed file ``002_83aa5496eb291d00.txt``. Every claim is encoded as printed; where the text is garbled
the surrounding derivation decides (``Source.text`` quotes what was read). Where the paper is
wrong the printed claim is kept with ``expected="violated"`` and a ``-corrected`` claim that holds
sits next to it.

Notation: F(w, S) = (1/n) sum_i f(w, xi_i); f is L-Lipschitz, beta-smooth (mu-strongly convex
where stated); Algorithm 1 = gradient descent for T steps, then w_priv = w_T + z with z of density
proportional to exp(-eps ||z|| / Delta) (delta = 0) or exp(-eps^2 ||z||^2 / (4 log(2/delta) Delta^2))
(a Gaussian of std sqrt(2 log(2/delta)) Delta / eps); Algorithm 2 = random-round private SGD with
noise of density proportional to exp(-eps^2 ||z||^2 / (8 L^2 log(3n/delta) log(2/delta))) (std
2 L sqrt(log(3n/delta) log(2/delta)) / eps per coordinate) and R in [n^2].

The claims are split by the paper's section (``common`` holds what the sections share); ``CLAIMS`` below
lists them in printed order."""
from __future__ import annotations

from .common import *  # noqa: F401,F403
from .section1 import *  # noqa: F401,F403
from .section2 import *  # noqa: F401,F403
from .section3_1 import *  # noqa: F401,F403
from .section3_2 import *  # noqa: F401,F403
from .appendix_a import *  # noqa: F401,F403
from .section3_1 import _ALG1_GAU_T3, _GD_SENS, _SC_SENS, _UTIL_2B  # noqa: F401 (used by the tests and notebooks)
from .section3_2 import _ALG2_UTIL, _loss_tail  # noqa: F401 (used by the tests and notebooks)

CLAIMS = (
    TABLE_1, TABLE_1_CORRECTED,
    LEMMA_1, LEMMA_1_CORRECTED, LEMMA_2, LEMMA_3, LEMMA_3_INDUCTION, THM_1, THM_1_CORRECTED,
    THM_2A, THM_2B, THM_2B_CORRECTED, SEC_3_1_EXCESS_RISK, SEC_3_1_EXCESS_RISK_CORRECTED, FOOTNOTE_2,
    THM_3A, THM_3A_CORRECTED, THM_3B, THM_3B_CORRECTED, SEC_3_1_BELOW_GENERALIZATION,
    SEC_3_1_BELOW_GENERALIZATION_CORRECTED, SEC_3_1_CONVEX_REGULARIZED, SEC_3_1_CONVEX_REGULARIZED_CORRECTED,
    THM_4, THM_5, LEMMA_4, THM_6,
    LEMMA_5, LEMMA_6, LEMMA_7, LEMMA_8,
    STEP_LOSS, STEP_LOSS_CORRECTED, THM4_COMPOSITION, THM4_COMPOSITION_CORRECTED, LEMMA_9, LEMMA_9_CORRECTED, LEMMA_10,
    SGD_VARIANCE, SGD_VARIANCE_CORRECTED, LEMMA_11, LEMMA_11_CORRECTED, LEMMA_12, LEMMA_12_CORRECTED,
    MGF_Y, MGF_Y_CORRECTED,
)
