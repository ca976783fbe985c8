"""The inputs of [stage]'s privacy statements, declared public or derived from the data as the paper's text computes
them, for the neighbouring-data check (:mod:`dpverify.checks.neighbours`); kept beside the claims.

What the text says (seed ``003_5052799caee6efc5.txt``): Algorithm 1's inputs are "step-size series {eta^k}, number
of inner iterations {T^k}, number of iterations with momentum on {t_Mon^k}, momentum parameter rho, DP noise
parameter pi, batch size B, initialization omega^0" (line 129), all given before the data are read; the noise
``xi_t ~ N(0, pi^2 I_d)`` (line 146) is fixed by ``pi``; Theorem 2.1's and 3.1's noise constants ``c1``, ``c2`` and
the budgets are constants. All public.
"""
from __future__ import annotations

from dpverify.privacy.neighbours import ReleaseInputs


def _public(*names):
    return ReleaseInputs(public=names)


INPUTS = {
    "stage/thm-2.1": _public("T", "c2", "delta", "epsilon"),
    "stage/thm-2.1-corrected": _public("B", "T", "delta", "epsilon", "n"),
    "stage/claim-sampling-switch": _public("B", "T", "delta", "n", "s"),
    "stage/claim-sampling-switch-corrected": _public("B", "epsilon", "n", "s"),
    "stage/thm-3.1": _public("T0", "c1", "c2", "delta", "epsilon", "rho", "t0"),
    "stage/thm-3.1-corrected": _public("B", "K", "T0", "delta", "epsilon", "n", "rho", "t0"),
}
NOT_DECLARED: dict = {}
FINDINGS: dict = {}
