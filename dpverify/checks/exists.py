"""Existential parameters of statements decided on a scenario's instances (``ExpectationBound``,
``SupBound`` with ``exists=("q",)``): "for every value of the other parameters there is a value of q
at which the statement holds".

The values tried (:class:`Existential`) are every value of an ``Int`` parameter whose domain is
finite with at most :data:`EXHAUSTIVE` values (then the list is *exhaustive*), else a grid of
:data:`GRID` values over the parameter's search box (log-spaced where the domain is), each kept only
where the point satisfies every hypothesis. The direction rules are the checks' own:

* ``holds`` at an instance needs one value at which the statement holds (the exact expectation at
  most the bound, confirmed in mpmath where close; a measurement whose upper bound meets it);
* ``violated`` needs every value to fail, which only an exhaustive list shows: where a grid finds
  no value, the instance is unresolved and the statement at most ``inconclusive``.

A value must serve every problem at the point at once ("there is a step such that, on every
problem of the class, ..."): at each instance the check draws, a value is tried on a *group* of
problems moved to the point with that value -- the drawn problem, the scenario's own instance there
(:meth:`Scenario.instance_at`, the class's extreme problem for the ready-made scenarios) and
:data:`POOL` problems drawn once from the scenario's strategy -- and holds only when it holds on each.
"""
from __future__ import annotations

import math

import numpy as np

from ..numeric import jsonable
from ..search import sample_points
from ..claims import Int

#: an ``Int`` existential parameter with at most this many values in its domain is tried at every one
EXHAUSTIVE = 256
#: values of a ``Real`` existential parameter (or a wide ``Int`` one) tried, over its search box
GRID = 17
#: problems drawn once from the scenario's strategy that every value tried must also serve
POOL = 4


class Existential:
    """The values a check tries for the one existentially quantified parameter of ``stmt``.

    >>> ex = Existential(claim, stmt)            # doctest: +SKIP
    >>> ex.points({"M": 1.0, "T": 5})            # doctest: +SKIP  -- one point per admissible value
    """

    def __init__(self, claim, stmt):
        (self.name,) = stmt.exists
        self.claim = claim
        p = claim.domain.params[self.name]
        self.exhaustive = False
        if isinstance(p, Int):
            if p.ge is not None and p.le is not None and p.le - p.ge + 1 <= EXHAUSTIVE:
                values, self.exhaustive = list(range(p.ge, p.le + 1)), True
            else:
                lo, hi = p.box()
                values = sorted({int(round(v)) for v in np.linspace(lo, hi, min(GRID, hi - lo + 1))})
        else:
            lo, hi = p.box()
            grid = np.exp(np.linspace(math.log(lo), math.log(hi), GRID)) if p.log else np.linspace(lo, hi, GRID)
            values = [float(v) for v in grid]
        self.values = values

    def describe(self) -> str:
        """Which values are tried, for the evidence."""
        if self.exhaustive:
            return f"exists {self.name}: every value {self.values[0]}..{self.values[-1]} tried"
        return (f"exists {self.name}: {len(self.values)} values over [{self.values[0]:.4g}, {self.values[-1]:.4g}] "
                "tried (a grid: it can confirm, not refute)")

    def points(self, point) -> list[dict]:
        """``point`` with the parameter set to each value tried, those inside the hypotheses."""
        out = []
        for v in self.values:
            pt = {**point, self.name: v}
            if self.claim.domain.contains(pt):
                out.append(pt)
        return out

    def complete(self, point) -> dict:
        """A pinned point (``--at``) that may leave the parameter out, completed with the first
        admissible value (the check then tries them all)."""
        if self.name in point:
            return dict(point)
        pts = self.points(point)
        return pts[0] if pts else {**point, self.name: self.values[0]}

    def pool(self, sc, seed: int) -> list:
        """:data:`POOL` problems drawn once (``seed``) from the scenario's strategy (none when the
        instance is the claim's point)."""
        strategy = sc.strategy()
        return [] if strategy is None else sample_points(strategy, POOL, seed)

    def groups(self, sc, inst, pool=()):
        """For each value tried at ``inst``'s point (lazily, in the order of :attr:`values`): the
        problems it must serve there -- ``inst``, the scenario's instance at that point and each of
        ``pool``, moved to it (duplicates dropped)."""
        for pt in self.points(sc.point(inst)):
            group, seen = [], set()
            for i in [sc.with_point(inst, pt), sc.instance_at(pt)] + [sc.with_point(x, pt) for x in pool]:
                key = repr(jsonable(i))
                if i is not None and key not in seen:
                    seen.add(key)
                    group.append(i)
            if group:
                yield group

    def unresolved(self) -> str:
        """Why a grid that found no value decides nothing."""
        return (f"no value of {self.name} among the {len(self.values)} tried met the bound here; a grid cannot show "
                "that no value does")


def existential(claim, stmt) -> Existential | None:
    """The :class:`Existential` of ``stmt``, or ``None`` when it quantifies nothing existentially."""
    return Existential(claim, stmt) if getattr(stmt, "exists", ()) else None


__all__ = ["EXHAUSTIVE", "GRID", "Existential", "existential"]
