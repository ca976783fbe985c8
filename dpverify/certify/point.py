"""Certificates for a privacy loss computed by a function of a proof (a ``PointScenario`` with a ball definition).

A :class:`~dpverify.scenarios.PointScenario` measures a quantity that a paper's proof defines at the claim's
point (the exact leak of a noise-free step, a composition of the proof's guarantees, a pair of output laws);
its Python function is dpverify's. When the scenario also carries ``ball`` -- the same quantity written in ball
arithmetic as ``def point_lower(P, data)``, returning a ball whose lower end bounds the quantity from below --
the ``privacy-point`` certificate copies that definition into ``check.py`` with the privacy helpers of
:data:`dpverify.certify.runtime.PRIVACY` (Gaussian CDF and profile, canonical pairs and their composition,
half-line tests of Gaussian mixtures), evaluates it at the witness (exact rationals) with the claim's bound,
and certifies when the quantity's lower end lies above the bound's ball. What ``record(point)`` returns (an
accountant's output, say) is written into ``certificate.json`` and passed as ``data``.

:func:`point_lower` evaluates a scenario's ball definition in dpverify's own process (the tests compare it with
the Python function).
"""
from __future__ import annotations

from ..arb_source import HELPERS
from . import runtime
from .writer import NoCertificate, Plan, exact_witness

POINT = r'''

def VERDICT(P, cert):
    value, bound = point_lower(P, cert["point"]), BOUND(P)
    return above(value, bound, f"the proof's quantity >= {value.lower().str(12, radius=False)} > claimed "
                 f"{bound.upper().str(12, radius=False)} (quantity {value}, bound {bound})",
                 f"the quantity {value} is within the claimed {bound} at the witness")
'''


def point_plan(claim, stmt, evidence) -> Plan:
    """The ``privacy-point`` certificate of a ``PointScenario`` with a ball definition (module docstring)."""
    sc = stmt.scenario
    if sc.ball is None:
        raise NoCertificate(f"the privacy loss is computed by a function of the proof ({sc.what}) that has no ball "
                            "definition (PointScenario(ball=...))")
    ce = evidence.counterexample or {}
    point = ce.get("params")
    if not isinstance(point, dict) or not claim.domain.contains(point):
        raise NoCertificate("the counterexample is not a point of the claim's domain")
    witness = exact_witness(claim.domain, point)
    try:
        data = dict(sc.record(point)) if sc.record is not None else {}
    except (ArithmeticError, ValueError) as exc:
        raise NoCertificate(f"the scenario's record failed at the witness ({exc})") from None
    note = (f"\nThe quantity is a function of the proof ({sc.what}); its ball-arithmetic definition, point_lower, "
            "is\ncopied below from the claim's scenario and evaluated at the exact witness.\n")
    verdict = runtime.PRIVACY + "\n\n# ---- the proof's quantity, defined in ball arithmetic\n" + sc.ball.strip() \
        + "\n" + POINT
    return Plan("privacy-point", f"{stmt.name}: the proof's privacy loss <= claimed bound", witness,
                {"BOUND": stmt.bound}, verdict, {"point": data, "what": sc.what}, note)


_NAMESPACE: dict = {}


def point_lower(scenario, P: dict, data: dict | None = None):
    """``scenario``'s ball definition evaluated in this process at ``P`` (real parameters as python-flint
    ``arb`` balls, integers as ints), at the current ``flint.ctx.prec``."""
    if scenario.ball is None:
        raise ValueError("the scenario has no ball definition")
    if not _NAMESPACE:
        ns = {"__name__": "dpverify_point_helpers"}
        exec("from fractions import Fraction\nfrom flint import arb, fmpq\n" + HELPERS + runtime.PRIVACY, ns)  # noqa: S102
        _NAMESPACE.update(ns)
    ns = dict(_NAMESPACE)
    exec(scenario.ball, ns)  # noqa: S102 - the claim's own definition
    return ns["point_lower"](P, data or {})


__all__ = ["POINT", "point_lower", "point_plan"]
