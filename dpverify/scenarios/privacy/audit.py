"""An empirical privacy audit of any algorithm in a claim's symbols.

``dp_audit(sampler=..., eps=..., delta=...)`` audits any algorithm empirically (a lower confidence
bound on delta at the claimed eps, :mod:`dpverify.privacy.audit`).
"""
from __future__ import annotations

from ...measured import Measured
from ..base import MappedScenario

__all__ = ["DPAudit", "dp_audit"]


class DPAudit(MappedScenario):
    """An empirical audit of an (eps, delta)-DP claim (:func:`dpverify.privacy.audit.audit`).

    ``sampler(point, side, n, rng)`` returns ``n`` outputs of the algorithm at the claim's point on
    the data set ``side`` ("D" or "D'"), vectorised over runs. ``measure`` returns the audit's
    lower confidence bound on the delta achieved at the claimed eps (deterministic for a seed), so
    a ``SupBound(kind="audit", bound=<claimed delta>)`` is violated only when that lower bound
    exceeds the claim. An audit refutes; it never supports a claim on its own (a privacy claim
    needs an accounting check beside it). ``n`` outputs per side in the final audit is ``runs``.
    The measurement is a :meth:`~dpverify.measured.Measured.lower_bound`.
    """

    REQUIRED = ("eps", "delta")
    search_runs = 4000
    optimise = 0

    def __init__(self, params, *, sampler, what: str, confidence: float = 0.99, search_runs: int | None = None):
        super().__init__(params)
        if search_runs is not None:
            if not isinstance(search_runs, int) or search_runs < 10:
                raise TypeError(f"dp_audit: search_runs must be an integer >= 10, got {search_runs!r}")
            self.search_runs = search_runs
        if not callable(sampler):
            raise TypeError(f"dp_audit: sampler must be callable (point, side, n, rng) -> outputs, got {sampler!r}")
        self.sampler, self.what, self.confidence = sampler, what, confidence
        self.name = f"privacy audit of {what}"
        self._last: dict = {}

    def measure(self, inst, runs, seed):
        from ...privacy.audit import audit

        eps, delta = self.map.scalar("eps", inst), self.map.scalar("delta", inst)
        res = audit(lambda n, rng: self.sampler(inst, "D", n, rng), lambda n, rng: self.sampler(inst, "D'", n, rng),
                    eps=float(eps), delta=float(delta), n=max(10, int(runs)), seed=int(seed) % (2**63),
                    confidence=self.confidence)
        self._last[id(inst)] = res
        return Measured.lower_bound(float(res.delta_lower))

    def describe(self, inst):
        res = self._last.get(id(inst))
        return f"{self.what}; " + (res.describe() if res is not None else "audit")


def dp_audit(*, sampler, what: str, confidence: float = 0.99, search_runs: int | None = None, **params) -> DPAudit:
    """An empirical privacy audit of the algorithm ``sampler`` runs, in a claim's own symbols
    (``search_runs``: runs per side while searching, default 4000; the deciding audit uses the
    check's runs)."""
    return DPAudit(params, sampler=sampler, what=what, confidence=confidence, search_runs=search_runs)
