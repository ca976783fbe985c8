"""A scenario whose instance is the claim's point itself, measured by a function of the caller's."""
from __future__ import annotations

from typing import Callable

from ..measured import Measured
from .base import Scenario

__all__ = ["PointScenario"]


class PointScenario(Scenario):
    """The instance is the claim's point itself; ``fn(point) -> value`` measures it exactly
    (a quantity defined by a proof, computed by the caller's function).

    Parameters
    ----------
    fn : callable
        ``fn(point) -> float``: the quantity at a point of the claim's domain (exact), or a
        :class:`~dpverify.measured.Measured` (e.g. an accountant's upper bound).
    what : str
        One line describing it (shown in the evidence).
    optimise : int, default 3
        Local optimiser starts after the Hypothesis search (0: none, for functions that are
        expensive or not smooth).
    ball : str, optional
        The same quantity in ball arithmetic, for a violation's certificate
        (:mod:`dpverify.certify.point`): Python source defining ``def point_lower(P, data)``, which
        receives the point ``P`` (a real parameter as a python-flint ``arb`` ball, an integer as an
        ``int``) and ``data`` (what ``record`` returned, values as ``"p/q"`` strings) and returns a ball
        whose lower end is a rigorous lower bound on the quantity (raise ``ValueError`` when a premise
        of its derivation fails at the point). It may call python-flint, the standard library, the
        helpers of :data:`dpverify.arb_source.HELPERS` and the privacy helpers of
        :data:`dpverify.certify.runtime.PRIVACY` (``normal_cdf``, ``gaussian_delta``,
        ``composed_canonical_delta``, ``best_halfline``, ...). It is copied verbatim into the
        certificate's ``check.py``, so its docstring states the derivation for the reader.
    record : callable, optional
        ``record(point) -> dict`` of exact values (``"p/q"``) the ball definition needs that are not
        parameters (e.g. an accountant's output); written into ``certificate.json``.

    Example
    -------
    >>> sc = PointScenario(lambda p: p["x"] ** 2, "x squared")
    >>> sq = PointScenario(lambda p: p["x"] ** 2, "x squared",
    ...                    ball="def point_lower(P, data):\n    return P['x'] ** 2\n")
    """

    def __init__(self, fn: Callable[[dict], float], what: str, optimise: int = 3, ball: str | None = None,
                 record: Callable[[dict], dict] | None = None):
        if not callable(fn):
            raise TypeError(f"PointScenario: fn must be callable point -> value, got {fn!r}")
        if ball is not None:
            try:
                compile(ball, "<ball definition>", "exec")
            except SyntaxError as exc:
                raise ValueError(f"PointScenario: the ball definition is not Python ({exc})") from None
            if "def point_lower(P, data)" not in ball:
                raise ValueError("PointScenario: the ball definition must define def point_lower(P, data)")
        if record is not None and not callable(record):
            raise TypeError(f"PointScenario: record must be callable point -> dict, got {record!r}")
        self.fn, self.what, self.optimise, self.ball, self.record = fn, what, optimise, ball, record

    def measure(self, inst, runs, seed):
        v = self.fn(inst)   # a Measured declares its direction; a number is exact
        return v if isinstance(v, Measured) else (float(v), 0.0)

    def describe(self, inst):
        return self.what
