"""The inputs of [erm]'s privacy statements, declared public or derived from the data as the paper's text computes
them, for the neighbouring-data check (:mod:`dpverify.checks.neighbours`); kept beside the claims.

What the text says (seed ``002_83aa5496eb291d00.txt``): ``mu``, ``beta``, ``L`` are the class's constants ("f is
mu-strongly convex, beta-smooth ... L-Lipschitz for all {w: ||w|| <= 2D}", line 158); ``D`` is an assumed bound
("Assume ||w_hat|| <= D", line 158), so ``T = Theta([(mu^2 + beta^2)/(mu beta)] log(mu^2 n^2 eps^2 D^2/(L^2 d^2)))``
(lines 162, 167) and ``T = Theta([beta^2 n^2 eps^2 D^2/(L^2 d^2)]^(1/3))`` (lines 200, 205) are functions of public
constants; the step ``1/beta`` or ``1/(mu + beta)`` and the noise scale ``Delta/eps`` likewise. Lemmas 1, 9, 10 and
Theorem 4 are about mechanisms with given parameters. All public.
"""
from __future__ import annotations

from dpverify.privacy.neighbours import ReleaseInputs


def _public(*names):
    return ReleaseInputs(public=names)


_THM1 = ("L", "T", "beta", "delta", "epsilon", "mu", "n")
INPUTS = {
    "erm/lemma-1": _public("Delta1", "Delta2", "delta", "epsilon", "k"),
    "erm/lemma-1-corrected": _public("Delta1", "Delta2", "delta", "epsilon", "k"),
    "erm/thm-1": _public(*_THM1),
    "erm/thm-1-corrected": _public(*_THM1),
    "erm/thm-4": _public("delta", "epsilon", "n"),
    "erm/lemma-9": _public("alpha", "delta", "epsilon"),
    "erm/lemma-9-corrected": _public("alpha", "delta", "epsilon"),
    "erm/lemma-10": _public("T", "delta", "delta_p", "epsilon"),
}
NOT_DECLARED: dict = {}
FINDINGS: dict = {}
