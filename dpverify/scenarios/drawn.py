"""A quantity measured on instances drawn by a strategy of the caller's (data sets, neighbouring
pairs, loss functions), for ``SupBound`` statements: sup over the instances of the measurement.

``drawn(strategy=..., measure=..., point=..., canonical=...)``:

* ``strategy(domain_strategy)`` returns a Hypothesis strategy of instances (JSON-able dicts); it is
  given the claim's domain strategy so that an instance can carry a point of the claim;
* ``point(inst)`` is the claim's point at the instance (every instance must satisfy the claim's
  hypotheses, or it is not measured);
* ``measure(inst) -> float`` (deterministic) or ``-> (value, variance)`` (a Monte Carlo estimate
  over ``runs`` runs with ``seed``, when ``noisy=True``);
* ``canonical(point) -> inst`` builds the instance a pinned point stands for (``--at``, the
  witnesses of the errata); without it a pinned point cannot be replayed.

The search (Hypothesis, then the sup check's confirmation) is the sup check's; ``optimise`` local
optimiser starts move the claim's point inside an instance when ``with_point`` is given.
"""
from __future__ import annotations

from typing import Any, Callable

from .base import Scenario


class DrawnScenario(Scenario):
    """Instances from a caller's strategy; see the module docstring."""

    def __init__(self, *, strategy: Callable, measure: Callable, point: Callable, what: str,
                 canonical: Callable | None = None, noisy: bool = False, search_runs: int = 2,
                 describe: Callable | None = None):
        for name, f in (("strategy", strategy), ("measure", measure), ("point", point)):
            if not callable(f):
                raise TypeError(f"drawn: {name} must be callable, got {f!r}")
        self._strategy, self._measure, self._point = strategy, measure, point
        self._canonical, self._describe = canonical, describe
        self.noisy, self.what, self.name = noisy, what, what
        self.search_runs = search_runs
        self.optimise = 0
        self.claim = None
        self._bound: dict = {}

    def bind(self, claim):
        if self.claim is claim:
            return self
        key = id(claim)
        b = self._bound.get(key)
        if b is None:
            b = object.__new__(type(self))
            b.__dict__.update(self.__dict__)
            b._bound = {}
            b.claim = claim
            self._bound[key] = b
        return b

    def strategy(self):
        if self.claim is None:
            raise RuntimeError("drawn scenario must be bound to a claim first (dpverify.scenarios.bind)")
        return self._strategy(self.claim.domain.strategy())

    def point(self, inst) -> dict:
        return dict(self._point(inst))

    def instance_at(self, point) -> Any:
        return None if self._canonical is None else self._canonical(dict(point))

    def measure(self, inst, runs, seed):
        if self.noisy:
            value, var = self._measure(inst, runs, seed)
            return float(value), float(var)
        return float(self._measure(inst)), 0.0

    def describe(self, inst) -> str:
        return self._describe(inst) if self._describe is not None else self.what


def drawn(*, strategy, measure, point, what: str, canonical=None, noisy: bool = False, search_runs: int = 2,
          describe=None) -> DrawnScenario:
    """A quantity measured on drawn instances (module docstring)."""
    return DrawnScenario(strategy=strategy, measure=measure, point=point, what=what, canonical=canonical,
                         noisy=noisy, search_runs=search_runs, describe=describe)


__all__ = ["DrawnScenario", "drawn"]
