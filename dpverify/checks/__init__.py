"""The checks, and which apply to which kind of statement.

Each check is a small module with ``applies(statement)`` and ``check(statement, claim, config)``
returning an :class:`~dpverify.verdict.Evidence` that says what it tested (``basis``, a
:class:`~dpverify.verdict.Basis`) and, where the statement declares when it is trivially true, on
what share of its points it is not (``coverage``). :func:`run` applies every check that fits
every statement of a claim and combines the evidence into a :class:`~dpverify.verdict.Verdict`;
a claim that builds on others (``Claim.builds_on``) is also checked with them (:mod:`.chain`: their
hypotheses must meet), a verdict of every reading.
The box proof (:mod:`~dpverify.checks.boxproof`) is opt-in (``Config(prove_box=True)``): it runs after
the others on an inequality they neither proved nor refuted, and never at a pinned point.
"""
from __future__ import annotations

from ..spec import Claim, DomainError
from ..verdict import Verdict, claim_verdict, error_evidence, statement_verdict
from . import (audit, boxproof, chain, exact, existsproof, limit, minimiser, monte_carlo, rate, sampled, scaling, sup,
               symbolic)
from .base import Clock, Config

# (name, applies, check) in the order they run for a statement.
CHECKS = (
    ("symbolic", symbolic.applies, symbolic.check),
    ("sampled", sampled.applies, existsproof.check_sampled),  # a grid's failure of "exists" must be proved
    ("symbolic", minimiser.applies, minimiser.check_symbolic),
    ("sampled", minimiser.applies, minimiser.check_numeric),
    ("rate", rate.applies, rate.check),
    ("symbolic", limit.applies, limit.check_symbolic),
    ("limit", limit.applies, limit.check_numeric),
    ("exact", exact.applies, exact.check),
    ("monte_carlo", monte_carlo.applies, monte_carlo.check),
    ("sup", sup.applies, sup.check),
    ("audit", audit.applies, audit.check),
    ("scaling", scaling.applies, scaling.check),
)


def checks_for(statement) -> list[str]:
    """Names of the checks that apply to ``statement``."""
    out = []
    for name, applies, _ in CHECKS:
        if applies(statement) and name not in statement.skip:
            out.append(getattr(statement, "kind", name) if name == "sup" else name)
    return out


def _guarded(chk, name, stmt, claim, cfg):
    """``chk(stmt, claim, cfg)``; a check that raises gives the evidence ``error`` naming the claim, the
    statement, the check and the cause, and the claim's other checks go on."""
    try:
        return chk(stmt, claim, cfg)
    except Exception as exc:  # noqa: BLE001 - any fault of a check becomes the verdict 'error', never a crash
        return error_evidence(claim.id, stmt.name, getattr(stmt, "kind", name) if name == "sup" else name, exc)


def run(claim: Claim, config: Config | None = None) -> Verdict:
    """Check every statement of ``claim`` every way that applies (a check that raises gives the
    verdict ``error``, see :func:`dpverify.verdict.error_evidence`)."""
    cfg = config or Config()
    if cfg.at is not None:
        claim.domain.validate(cfg.at, optional=claim.existential)
    clock = Clock()
    evidence, per_statement = [], []
    for stmt in claim.statements:
        ev = [_guarded(chk, name, stmt, claim, cfg) for name, applies, chk in CHECKS
              if applies(stmt) and name not in stmt.skip]
        if not ev:
            raise ValueError(f"no check applies to statement {stmt.name!r} of {claim.id}")
        if (cfg.prove_box and cfg.at is None and boxproof.applies(stmt) and "boxproof" not in stmt.skip
                and not any(e.verdict in ("verified", "violated") for e in ev)):
            ev.append(_guarded(boxproof.check, "boxproof", stmt, claim, cfg))
        evidence.extend(ev)
        per_statement.append(statement_verdict(ev))
    chained = []
    if claim.builds_on:
        ev = chain.check(claim, cfg)
        evidence.append(ev)
        chained = [statement_verdict([ev])]
    default = [v for s, v in zip(claim.statements, per_statement) if not s.reading] + chained
    readings = {r.name: {"verdict": claim_verdict([v for s, v in zip(claim.statements, per_statement)
                                                   if r.includes(s)] + chained),
                         "expected": r.expected} for r in claim.readings}
    return Verdict(id=claim.id, label=claim.label, verdict=claim_verdict(default),
                   expected=claim.expected, evidence=evidence, seconds=clock.seconds,
                   reason=claim.reason, seed=cfg.seed, at=cfg.at, about=claim.about, algebra_why=claim.algebra_why, readings=readings)


__all__ = ["CHECKS", "Config", "DomainError", "checks_for", "run"]
