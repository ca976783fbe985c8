"""Claims of [dni]: "On Dynamic Noise Influence in Differential Private Learning" (ICLR 2021 submission).

Seed file ``000_155fea93f75f24eb.txt``. Every claim is encoded as printed; where OCR garbled a
formula the surrounding derivation decides (and the ``Source.text`` quotes what was read). Where
the paper is wrong the printed claim is kept with ``expected="violated"`` and a ``-corrected``
claim that holds sits next to it.

Notation (eq. (2)): kappa = M/mu, gamma = 1 - 1/kappa, 1/alpha = 2 R M N^2 (f(theta_1) - f*)/(D G^2),
q_t = gamma^(T-t) alpha (eq. (3)).

The claims are split by the paper's section (``common`` holds what the sections share); ``CLAIMS`` below
lists them in printed order."""
from __future__ import annotations

from .common import *  # noqa: F401,F403
from .section3 import *  # noqa: F401,F403
from .section4_1 import *  # noqa: F401,F403
from .section4_2 import *  # noqa: F401,F403
from .appendix_a import *  # noqa: F401,F403
from .appendix_b import *  # noqa: F401,F403
from .common import _PGD  # noqa: F401 (used by the tests and notebooks)
from .appendix_a import _TER_PATHS  # noqa: F401 (used by the tests and notebooks)

CLAIMS = (
    THM_3_1, THM_3_1_CORRECTED,
    ERUB, THM_4_2, CLAIM_T_LIMIT, CLAIM_T_LIMIT_CORRECTED, LEMMA_4_1, EQ_25, THM_4_3,
    THM_4_4, THM_4_4_CORRECTED, MOMENTUM_EXAMPLE, MOMENTUM_EXAMPLE_CORRECTED, THM_4_5, THM_4_5_CORRECTED, THM_4_6, THM_4_6_CORRECTED, THM_4_7, THM_4_8, THM_4_8_CORRECTED,
    EQ_17, EQ_18, MARKOV_REPETITION, THM_A_3, THM_A_3_CORRECTED,
    LEMMA_B_2, LEMMA_B_3, ZCDP_INVERSION, ZCDP_INVERSION_CORRECTED, R_COMPARISON, R_COMPARISON_CORRECTED,
    LEMMA_B_4, LEMMA_B_4_CORRECTED, LEMMA_B_5, LEMMA_B_6, LEMMA_B_7,
)
