"""Monte Carlo points and the data problems' shared fields: :class:`MCPoint` (a problem and claim
parameters, completed to a point of the claim by :mod:`.montecarlo`), :class:`SyntheticData` (what every
generated data problem shares) and the diagonal quadratic instances' spectrum
(:func:`spectrum_and_direction`)."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable, Mapping

__all__ = ["MC_POINT_LABEL", "MCPoint", "SyntheticData", "fit_dimension", "spectrum_and_direction"]


#: the label of every Monte Carlo point's seed: point k of a claim draws its free parameters from
#: ``derive_seed(seed, claim id, MC_POINT_LABEL, k)``
MC_POINT_LABEL = "mc-point"


@dataclass(frozen=True, kw_only=True)
class SyntheticData:
    """What every generated data problem of a Monte Carlo point shares: ``n`` samples in ``d``
    dimensions (rows of maximum norm ``scale``), a ridge ``lam``, and the seed of the data."""

    n: int = 200
    d: int = 5
    lam: float = 0.1
    data_seed: int = 0
    scale: float = 1.0

    def to_json(self) -> dict:
        return {"family": self.family, "n": self.n, "d": self.d, "lam": self.lam, "data_seed": self.data_seed,
                "scale": self.scale}


@dataclass(frozen=True)
class MCPoint:
    """One Monte Carlo parameter point: a problem (``"quadratic"`` or a data problem such as
    :class:`~dpverify.scenarios.LogisticData`) and claim parameters.

    The point is assembled in order: ``params`` (a dict of claim parameters); then, for a data
    problem, the claim parameters its measured constants determine (through the scenario's map);
    then ``then(point)`` (a callable returning more parameters, e.g. a schedule computed from the
    measured constants); whatever is left is drawn from the claim's domain with a seed derived
    from the run's (:data:`MC_POINT_LABEL`), spread over the domain's search box (uniform,
    log-uniform where declared; :func:`~dpverify.scenarios.sampling.spread_point`), so that
    different seeds and different points check different parts of the domain. The point must
    satisfy every hypothesis of the claim, or it is skipped.
    """

    problem: Any = "quadratic"
    params: Mapping[str, Any] = field(default_factory=dict)
    then: Callable[[dict], Mapping[str, Any]] | None = None


def spectrum_and_direction(inst: Mapping, lo, hi, num=float):
    """Eigenvalues ``lo + u_i (hi - lo)`` of a diagonal quadratic instance (fractions ``inst["u"]``)
    and its direction ``inst["dir"]``, in ``num`` (``float`` or ``mpmath.mpf``)."""
    lo, hi = num(lo), num(hi)
    return [lo + num(u) * (hi - lo) for u in inst["u"]], [num(x) for x in inst["dir"]]


def fit_dimension(inst: dict, D: int) -> dict:
    """A quadratic instance (spectrum fractions ``u``, direction ``dir``) with ``D`` coordinates: the
    search moves the point, and when the dimension it maps to changes, the spectrum keeps its ends
    (padded with its top fraction, or cut inside) and the direction is cut or padded with zeros."""
    u, d = list(inst["u"]), list(inst["dir"])
    if len(u) == D:
        return inst
    if D == 1:
        u = [u[-1]]
    elif len(u) > D:
        u = u[:D - 1] + [u[-1]]
    else:
        u = u[:-1] + [u[-1]] * (D - len(u) + 1)
    d = d[:D] + [0.0] * max(0, D - len(d))
    if not any(d):
        d[-1] = 1.0
    return {**inst, "u": u, "dir": d}
