"""Claims of [hdp]: "Data Heterogeneity Differential Privacy: From Theory to Algorithm" (Kang, Li, Liu &
Wang).

Seed file ``004_9fced7ebb2318939.txt``. Every claim is encoded as printed, hypotheses read literally
(the norm printed, the parameter space stated); where the paper is wrong the printed claim is kept
with ``expected="violated"`` and a ``-corrected`` claim that holds sits next to it.

Notation: n samples, m the model dimension, L the smoothness of the per-sample loss, mu the PL
constant of L(theta; D), G the Lipschitz constant on the parameter space C (a ball of radius r),
alpha = 1/L the learning rate, sigma the noise of eq. (2), T the number of iterations.

The claims are split by the paper's section (``common`` holds what the sections share); ``CLAIMS`` below
lists them in printed order."""
from __future__ import annotations

from .common import *  # noqa: F401,F403
from .section3 import *  # noqa: F401,F403
from .section4 import *  # noqa: F401,F403
from .section5 import *  # noqa: F401,F403
from .section5_proof import *  # noqa: F401,F403
from .section5_remarks import *  # noqa: F401,F403
from .section6_7 import *  # noqa: F401,F403
from .section5 import _C_GAUSS, _C_MIN, _LEMMA3_PARAMS, _escape, _lemma3  # noqa: F401 (used by the tests and notebooks)

CLAIMS = (REMARK_1, EQ_2, EQ_2_CORRECTED, THM_1, THM_1_CORRECTED, REMARK_2, REMARK_2_CORRECTED, LEMMA_1,
          LEMMA_1_CORRECTED, LEMMA_2, LEMMA_2_CORRECTED, EQ_9, EQ_9_CORRECTED, THM_2, THM_2_CORRECTED, THM_3,
          THM_4, THM_4_CORRECTED, LEMMA_3, LEMMA_3_CORRECTED, CT_SENSITIVITY, CT_SENSITIVITY_CORRECTED, THM_5,
          THM_5_CORRECTED, ALG_1_RELEASE, ALG_1_RELEASE_CORRECTED, THM_5_STEP_4, THM_5_STEP_4_CORRECTED,
          ALG_1_TEST_COMPOSITION, ALG_1_TEST_COMPOSITION_CORRECTED, THM_5_STEP_6, THM_5_STEP_7, THM_5_STEP_7_CORRECTED,
          THM_5_STEP_8, THM_5_STEP_9, THM_5_STEP_9_CORRECTED, THM_5_STEP_10, THM_5_STEP_11, THM_5_STEP_11_CORRECTED,
          THM_5_STEP_12, ESCAPE, ESCAPE_CORRECTED, REMARK_5, REMARK_5_CORRECTED, REMARK_6, REMARK_6_CORRECTED,
          REMARK_7, REMARK_7_CORRECTED, REMARK_8, REMARK_8_CORRECTED, REMARK_9, REMARK_9_CORRECTED, REMARK_3, REMARK_4,
          REMARK_4_CORRECTED, REMARK_4_CORRECTED_2, THM_6, THM_6_CORRECTED, THM_7, THM_7_CORRECTED, THM_7_CORRECTED_2, REMARK_10, EER_FACTORS, EPR_COMPARISON,
          BUDGET_SPLIT)
