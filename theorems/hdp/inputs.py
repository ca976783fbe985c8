"""The inputs of [hdp]'s privacy statements, declared public or derived from the data as the paper's text computes
them, for the neighbouring-data check (:mod:`dpverify.checks.neighbours`); kept beside the claims.

What the text says (seed ``004_9fced7ebb2318939.txt``): ``G`` (Lipschitz), ``n``, the budgets ``epsilon_i``,
``delta_i`` and the constants ``c``, ``c'`` are constants of the class; ``T = O(log n)`` (Theorem 1, line 115) is a
function of ``n`` alone; Algorithm 1's ``R``, ``T_local`` and ``r`` are its inputs ("Require: dataset D, learning
rate alpha, local iteration rounds T_local, global update rounds R", line 376); ``zeta`` bounds the Hessian by
hypothesis and is otherwise added to its diagonal ("we can add a small zeta > 0 to the diagonal elements", Remark 5,
line 401): a chosen constant. All public. ``x_i``, ``x_r``, ``x_o``, ``v`` of Theorem 5's claims are the examples of
the neighbouring pair the claims' scenario measures on: data, not inputs.

Not a claim, noted for the referee: "In all the experiments, total iteration rounds T is chosen by cross-validation"
(line 592) chooses T from the data; no claim of the registry is about the experiments' privacy.
Algorithm 1's test on ``c_t`` (lines 9-10) makes the noise of a step depend on the data (none when the test
passes); the registry already refutes that (``hdp/thm-5``, ``hdp/alg-1-release``, ``hdp/remark-7``) by the event of
a noise-free step.
"""
from __future__ import annotations

from dpverify.privacy.neighbours import ReleaseInputs

_THM5_PUBLIC = ("R", "T_local", "c", "delta1", "delta2", "epsilon1", "epsilon2", "n", "r")
_THM5_DATA = ("v", "x_i", "x_o", "x_r")


def _public(*names, data=()):
    return ReleaseInputs(public=names, data=data)


INPUTS = {
    "hdp/eq-2": _public("G", "T", "c", "delta", "epsilon", "n"),
    "hdp/eq-2-corrected": _public("G", "T", "delta", "epsilon", "n"),
    "hdp/lemma-3": _public("S", "c", "delta", "epsilon"),
    "hdp/lemma-3-corrected": _public("S", "c", "delta", "epsilon"),
    "hdp/thm-5": _public(*_THM5_PUBLIC, data=_THM5_DATA),
    "hdp/thm-5-corrected": _public("G", "T", "delta1", "delta2", "epsilon1", "epsilon2", "n"),
    "hdp/alg-1-release": _public(*_THM5_PUBLIC, data=_THM5_DATA),
    "hdp/alg-1-release-corrected": _public("G", "T", "delta1", "delta2", "epsilon1", "epsilon2", "n"),
    "hdp/thm-5-step-4": _public("R", "delta2", "epsilon2", "n", "r"),
    "hdp/thm-5-step-4-corrected": _public("R", "delta2", "epsilon2", "n", "r"),
    "hdp/alg-1-test-composition": _public("R", "T_local", "delta2", "epsilon2", "n", "r"),
    "hdp/alg-1-test-composition-corrected": _public("R", "T_local", "delta2", "epsilon2", "n", "r"),
    "hdp/thm-5-step-7": _public("epsilon", "m", "mu_g"),
    "hdp/thm-5-step-7-corrected": _public("epsilon", "m", "mu_g"),
    "hdp/thm-5-step-11": _public("T", "delta1", "epsilon1"),
    "hdp/thm-5-step-11-corrected": _public("T", "delta1", "epsilon1"),
    "hdp/thm-5-step-12": _public("delta1", "delta2", "epsilon1", "epsilon2"),
    "hdp/remark-7": _public(*_THM5_PUBLIC, data=_THM5_DATA),
    "hdp/remark-7-corrected": _public("G", "T", "delta1", "delta2", "epsilon1", "epsilon2", "n"),
    "hdp/remark-9": _public("G", "R", "T_local", "delta2", "epsilon2", "n", "zeta"),
    "hdp/remark-9-corrected": _public("G", "R", "T_local", "delta2", "epsilon2", "n", "zeta"),
}
NOT_DECLARED: dict = {}
FINDINGS: dict = {}
