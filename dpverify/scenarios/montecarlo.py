"""The one Monte Carlo path of every mapped scenario (:class:`MonteCarloPath`, a part of
:class:`~dpverify.scenarios.MappedScenario`): ``mc`` points (:class:`~dpverify.scenarios.points.MCPoint`) are
completed to points of the claim (measured constants of a data problem, then ``then``, then the free
parameters drawn with ``derive_seed(seed, claim id, MC_POINT_LABEL, k)``, spread over the domain's search
box by NumPy, never Hypothesis's minimal example), checked against the hypotheses and realised.  A scenario
says only how a data problem's constants are measured (:meth:`MonteCarloPath.measured_constants`), which
points they admit (:meth:`MonteCarloPath.admits`) and how the algorithm runs (``monte_carlo``)."""
from __future__ import annotations

from typing import Mapping

from ..search import derive_seed, sample_points
from .points import MC_POINT_LABEL, MCPoint
from .sampling import spread_point

__all__ = ["MonteCarloPath"]


class MonteCarloPath:
    """The Monte Carlo path of a mapped scenario (module docstring); it reads the scenario's ``claim``,
    ``map`` and ``MEASURED_ORDER`` and sets its ``mc_spec`` and ``mc_name``."""

    def _set_mc_points(self, owner: str, mc=(), count: int = 0, quadratic: str = "diagonal quadratics",
                       also: tuple = ()) -> None:
        """Set ``mc_spec`` (the ``mc`` points, or ``count`` points drawn from the domain) and ``mc_name``."""
        spec = tuple(mc) if mc else tuple(MCPoint() for _ in range(int(count)))
        for m in spec:
            if not isinstance(m, MCPoint):
                raise TypeError(f"{owner}: mc entries must be MCPoint(...), got {m!r}")
        self.mc_spec = spec
        names = {m.problem.describe() if hasattr(m.problem, "describe") else quadratic for m in spec}
        self.mc_name = ", ".join(sorted(names | set(also))) or "none"

    def measured_constants(self, problem) -> dict:
        """The scenario parameters a data problem fixes (its measured constants)."""
        return dict(problem.measured())

    def admits(self, measured: Mapping[str, float], point: dict) -> bool:
        """Whether the claim's constants at ``point`` are valid for the ``measured`` ones."""
        return True

    def data_instance(self, point: dict, problem) -> dict:
        """The Monte Carlo instance of a data problem at a claim point."""
        return {"point": point, "problem": problem.to_json()}

    def mc_instances(self, seed: int) -> list:
        """The Monte Carlo instances: each :class:`MCPoint` completed to a point of the claim inside
        its hypotheses (free parameters drawn with ``derive_seed(seed, claim id, MC_POINT_LABEL, k)``),
        then realised (``instance_at`` for a quadratic, :meth:`data_instance` for data). A drawn
        point is spread over the claim's search box (see :class:`MCPoint`)."""
        self._require_bound()
        out = []
        for k, spec in enumerate(self.mc_spec):
            done = self.complete_mc_point(k, spec.problem, seed)
            if done is None:
                continue
            pt = done
            inst = self.instance_at(pt) if spec.problem == "quadratic" else self.data_instance(pt, spec.problem)
            if inst is not None:
                if spec.problem != "quadratic" and self.adversary_budget:
                    inst = {**inst, "mc": k}   # which MCPoint: the adversarial search completes its moves by it
                out.append(inst)
        return out

    def moved_data_instance(self, inst, spec, rng, scale: float):
        """The data instance ``inst`` (of :class:`MCPoint` ``inst["mc"]``) with its problem ``spec``
        moved by ``spec.moved(rng, scale)`` (the adversarial search's step inside the class), its
        constants measured again and its drawn parameters kept (:meth:`complete_mc_point`); ``None``
        when the problem has no moves or the moved point is outside the hypotheses."""
        if not hasattr(spec, "moved"):
            return None
        moved = spec.moved(rng, scale)
        pt = self.complete_mc_point(inst["mc"], moved, None, drawn=inst["point"])
        if pt is None:
            return None
        return {**self.data_instance(pt, moved), "mc": inst["mc"]}

    def complete_mc_point(self, k: int, problem, seed: int | None, drawn: Mapping | None = None):
        """The claim point of :class:`MCPoint` ``k`` on ``problem`` (its own, or a moved copy): its
        params, the measured constants, ``then``, and the free parameters drawn with ``seed`` (or,
        given ``drawn``, taken from that point: the adversarial search keeps them); ``None`` when the
        point is outside the hypotheses or not admitted."""
        spec = self.mc_spec[k]
        pt: dict = dict(spec.params)
        measured: dict = {}
        if problem != "quadratic":
            measured = self.measured_constants(problem)
            pt = self.map.solve(measured, pt, self.MEASURED_ORDER)
        if spec.then is not None:
            pt.update(spec.then(dict(pt)))
        if drawn is not None:
            pt = {**{n: v for n, v in drawn.items() if n in self.claim.domain.params}, **pt}
        if any(n not in pt for n in self.claim.domain.params):
            if seed is None:
                return None
            s = derive_seed(seed, self.claim.id, MC_POINT_LABEL, k)
            pt_drawn = spread_point(self.claim.domain, s, fixed=pt)
            if pt_drawn is None:   # relations too tight for rejection: Hypothesis's filtered draw
                pt_drawn = next(iter(sample_points(self.claim.domain.strategy(fixed=pt), 1, s)), None)
            if pt_drawn is None:
                return None
            pt = pt_drawn
        if not self.claim.domain.contains(pt) or not self.admits(measured, pt):
            return None
        return pt
