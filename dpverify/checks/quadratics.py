"""Expectations proved on quadratics: a claim's inequality over every quadratic of its class, as a sign.

On a quadratic the exact expectation of noisy gradient descent (and of the variants :mod:`.spectral` reads)
is a closed form in the spectrum (:mod:`.spectralforms`, each closed form checked against the recursion that
defines it before it is used), and the claim's inequality over every quadratic with Hessian spectrum in
``[lo, hi]`` -- every dimension's split of the start included -- is ``F(lam, lam') >= 0`` for every ``lam,
lam'`` in ``[lo, hi]`` and every parameter in its hypotheses (:func:`.spectral.reduce`). :mod:`.signsearch`
finds a certificate of that sign (sums of non-negative terms, then the coefficients' signs after every range is
written through a variable ``s >= 0`` and every non-rational part bounded by a rule) and :mod:`.signproof` checks it before the
check reports it.

What the proof covers is the claim's class **restricted to quadratics**: where the claim's class is wider
(smooth, PL, strongly convex, convex functions) the evidence is ``holds`` on the basis ``proof-on-quadratics``
("proved on quadratics"), never ``verified``; only a claim stated on quadratics may become ``verified``.
A failed search is no refutation (the relaxations lose proofs): the evidence is then ``inconclusive`` with the
reason. The check never refutes, and does not search at a pinned point (``--at``): a proof is over the domain.
"""
from __future__ import annotations

import sympy as sp

from ..scenarios import bind
from ..claims import ExpectationBound
from ..verdict import Basis, Evidence
from . import signproof, signsearch, spectral, spectralforms
from .base import Clock, Config
from .kind import CheckKind

#: the scenarios :func:`.spectral.reduce` reads (by class name: deciding ``applies`` imports no scenario)
REDUCIBLE = ("NoisyGD", "AdaptiveGD", "RandomRoundSGD", "OutputPerturbationGD")
#: coefficient tests one statement's search may spend (a count, not a clock: the verdict is reproducible)
TESTS = 60
NAME = "quadratics"


def applies(stmt) -> bool:
    return isinstance(stmt, ExpectationBound) and type(stmt.scenario).__name__ in REDUCIBLE


def prove(stmt, claim):
    """``(reduction, certificate)`` of the statement on quadratics; raises :class:`.spectral.NotApplicable` or
    :class:`.signproof.ProofError` naming why there is none. The certificate is checked
    (:func:`.signproof.verify`) and the closed forms against their recursions before it is returned."""
    sc = bind(stmt.scenario, claim)
    red = spectral.reduce(stmt, claim, sc)
    try:
        spectralforms.check_identities(red.model, spectral.LAM1)
    except spectralforms.ModelError as exc:
        raise spectral.NotApplicable(f"a closed form does not check: {exc}") from None
    cert = signsearch.find(red.F, red.ranges, red.seq_bounds, budget=signsearch.Budget(TESTS))
    signproof.verify(cert, red.seq_bounds)
    return red, cert


def _ranges_text(ranges) -> str:
    def end(e):
        return "-oo" if e is None else str(e)
    return ", ".join(f"{x} in [{end(lo)}, {'oo' if hi is None else hi}]" for x, lo, hi in ranges)


def check(stmt, claim, cfg: Config) -> Evidence:
    clock = Clock()
    sc = bind(stmt.scenario, claim)
    on = f"{getattr(sc, 'algorithm', '') or type(sc).__name__} on quadratics"
    if cfg.at is not None:
        return Evidence(NAME, stmt.name, "inconclusive", seconds=clock.seconds, basis=Basis("proof-on-quadratics", on),
                        detail="no proof on quadratics at a pinned point (--at): a proof is over the domain")
    try:
        red, _ = prove(stmt, claim)
    except spectral.NotApplicable as exc:
        return Evidence(NAME, stmt.name, "inconclusive", seconds=clock.seconds, basis=Basis("proof-on-quadratics", on),
                        detail=f"no proof on quadratics: {exc}")
    except signproof.ProofError as exc:
        return Evidence(NAME, stmt.name, "inconclusive", seconds=clock.seconds, basis=Basis("proof-on-quadratics", on),
                        detail=f"no proof on quadratics: {str(exc)[:300]}")
    scope = red.scope()
    verdict = "verified" if red.class_is_quadratic else "holds"
    wider = "" if red.class_is_quadratic else " (the claim's class is wider than quadratics: this proves its " \
                                              "quadratics only)"
    return Evidence(NAME, stmt.name, verdict, seconds=clock.seconds, basis=Basis("proof-on-quadratics", on),
                    detail=f"proved on quadratics: the exact expectation is a closed form in the spectrum, and "
                           f"the bound minus its supremum over {scope} is >= 0 by a sign certificate{wider}",
                    data={"proved": "quadratics", "obligation": sp.sstr(red.F), "ranges": _ranges_text(red.ranges),
                          "class_is_quadratic": red.class_is_quadratic})


KIND = CheckKind(
    name=NAME, applies=applies, check=check, basis_kinds=("proof-on-quadratics",), can_refute=False,
    summary="the expectation's closed form on quadratics, the claim's inequality proved over the spectrum's "
            "interval by a sign certificate (holds where the claim's class is wider, verified on quadratics)")

__all__ = ["KIND", "applies", "check", "prove"]
