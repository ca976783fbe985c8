"""The inputs of [dni]'s privacy statements, declared public or derived from the data as the paper's text computes
them, for the neighbouring-data check (:mod:`dpverify.checks.neighbours`); kept beside the claims.

What the text says (seed ``000_155fea93f75f24eb.txt``): ``G/N`` bounds the per-sample gradient (line 143: clipping at
a constant ``G``), ``R`` is the zCDP budget, and the schedules ``sigma_t`` are functions of the budget and the
iteration ("where we use sigma_t = ..., gamma^T/R", line 242; Table 1's schedules in ``T``, ``R``, ``N``) with
``T = O(ln N ...)`` (line 54) and "T = max t s.t. ..." (line 382) of public constants only. The dynamic schedules are
dynamic in ``t``, not in the data. All public.
"""
from __future__ import annotations

from dpverify.privacy.neighbours import ReleaseInputs


def _public(*names):
    return ReleaseInputs(public=names)


INPUTS = {
    "dni/thm-3.1": _public("G", "N", "R", "T", "sigma"),
    "dni/thm-3.1-corrected": _public("G", "N", "R", "T", "sigma"),
    "dni/lemma-b.2": _public("Delta", "order", "sigma"),
    "dni/lemma-b.3": _public("delta", "rho"),
}
NOT_DECLARED: dict = {}
FINDINGS: dict = {}

# Not a claim, noted for the referee: the experiments estimate the influence q_t of each step's noise "by retraining
# the private learning algorithms" (Section 5) and fit the dynamic schedule to it ("fitting sigma_t = sigma_0 exp(-kt)
# using the least squares method", Appendix D): a schedule fitted on the training data is derived from it; no claim
# of the registry is about the experiments' privacy.
