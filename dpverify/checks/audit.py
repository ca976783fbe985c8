"""Audit check: an empirical privacy audit beside a privacy statement's accounting.

For a :class:`~dpverify.claims.SupBound` with ``audit=dp_audit(...)``, the audit scenario's
``(eps, delta)`` are evaluated at the claim's points; a search over the domain (``search_runs``
runs per side) finds the point whose audit comes closest to refuting, and a fresh audit with
``runs`` runs per side decides: ``violated`` when its Clopper-Pearson lower bound on delta exceeds
the claimed delta. It refutes only (see :data:`dpverify.verdict.REFUTE_ONLY`).
"""
from __future__ import annotations

from dataclasses import replace

from ..claims import SupBound
from ..verdict import Basis, Evidence
from . import sup
from .base import Config, scenario_on
from .kind import CheckKind


def applies(stmt) -> bool:
    return isinstance(stmt, SupBound) and stmt.audit is not None


def check(stmt: SupBound, claim, cfg: Config) -> Evidence:
    delta = stmt.audit.params.exprs["delta"]
    probe = replace(stmt, bound=delta, scenario=stmt.audit, kind="audit", audit=None, inputs=None)
    ev = sup.check(probe, claim, cfg)
    ev.basis = Basis("audit", scenario_on(stmt.audit))
    return ev


KIND = CheckKind(
    name="audit", applies=applies, check=check, basis_kinds=("audit",), can_refute=True, certificate="audit",
    summary="an empirical privacy audit: a Clopper-Pearson lower bound on delta above the claimed one (refutes only)")
