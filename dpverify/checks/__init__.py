"""The checks, and which apply to which kind of statement.

Each check is a small module with ``applies(statement)`` and ``check(statement, claim, config)``, declared
once as a :class:`~dpverify.checks.kind.CheckKind` (its ``KIND``) and listed in :data:`KINDS`; ``check``
returns an :class:`~dpverify.verdict.Evidence` that says what it tested (``basis``, a
:class:`~dpverify.verdict.Basis`) and, where the statement declares when it is trivially true, on
what share of its points it is not (``coverage``). :func:`run` applies every check that fits
every statement of a claim and combines the evidence into a :class:`~dpverify.verdict.Verdict`;
a claim that builds on others (``Claim.builds_on``) is also checked with them (:mod:`.chain`: their
hypotheses must meet), a verdict of every reading.
The domain proof (:mod:`~dpverify.checks.domainproof`, on by default, ``Config(proof_budget=0)`` turns it
off) runs after the others on an inequality they neither proved nor refuted, never at a pinned point; the
box proof (:mod:`~dpverify.checks.boxproof`) is opt-in (``Config(prove_box=True)``) and runs after it on what
is still undecided. A kind that can only prove (:attr:`CheckKind.proof_only`, e.g. the proof on quadratics) is not
attempted on a statement an earlier check refuted rigorously (:func:`refutation`): its evidence says so.
"""
from __future__ import annotations

from ..claims import Claim, ClaimError, DomainError
from ..verdict import Basis, Evidence, Verdict, algebra_only, claim_verdict, error_evidence, statement_verdict
from . import (algorate, audit, boxproof, chain, domainproof, exact, existsproof, limit, minimiser, monte_carlo, neighbours,
               privacyproof, quadratics, rate, rateproof, scaling, sup, symbolic)
from .base import Clock, Config
from .kind import CheckKind, kinds_of

#: Every check kind, in the order they run on a statement: the one table (a new kind is its module, declaring
#: ``KIND = CheckKind(...)``, plus its line here).
KINDS: tuple[CheckKind, ...] = kinds_of(
    symbolic,
    existsproof,        # "sampled": the sampled check, a grid's failure of "exists" proved
    minimiser,
    rateproof,          # "rate-proof": a rate by SymPy's limit of expr/rate, cross-checked in mpmath
    rate,
    algorate,           # an algorithm's rate: its exact or Monte Carlo expectation along the paths
    limit,
    exact,
    quadratics,         # an expectation proved on quadratics (holds where the class is wider)
    monte_carlo,
    sup,
    audit,
    neighbours,         # a privacy statement's declared inputs recomputed on neighbouring data sets
    scaling,
    domainproof,        # a fallback: after the others, only where none proved or refuted (on by default)
    privacyproof,       # a fallback: a privacy quantity's closed form proved or refuted exactly
    boxproof,           # a fallback after those, opt-in (--prove-box): the search box only
    chain,              # once per claim that builds on others
)
BY_NAME = {k.name: k for k in KINDS}


def _on_statements(stage: str) -> list[CheckKind]:
    return [k for k in KINDS if k.stage == stage]


def checks_for(statement) -> list[str]:
    """Names of the checks that apply to ``statement`` (as its evidence names them; opt-in ones aside)."""
    return [k.label_for(statement) for k in _on_statements("statement")
            if k.applies(statement) and not k.skipped(statement)]


def kind_of(claim: Claim, evidence) -> CheckKind | None:
    """The kind that made ``evidence`` (one of ``claim``'s), or None: the kind whose evidence carries its name
    and basis and, for a statement's evidence, that applies to the statement."""
    basis = evidence.basis.kind if evidence.basis is not None else None
    stmt = next((s for s in claim.statements if s.name == evidence.statement), None)
    for k in KINDS:
        if basis is not None and basis not in k.basis_kinds:
            continue
        if k.stage == "claim":
            if k.label_for(None) == evidence.check:
                return k
        elif stmt is not None and k.applies(stmt) and k.label_for(stmt) == evidence.check:
            return k
    return None


def _guarded(kind: CheckKind, claim, stmt, cfg):
    """The kind's evidence on ``stmt``, vetted against its declaration; a check that raises gives the
    evidence ``error`` naming the claim, the statement, the check and the cause, and the claim's other
    checks go on."""
    label = kind.label_for(stmt)
    try:
        ev = kind.check(stmt, claim, cfg)
        if not isinstance(ev, Evidence):
            raise TypeError(f"the check returned {type(ev).__name__}, not an Evidence")
        return kind.vet(ev, claim.id, stmt.name, label)
    except Exception as exc:  # noqa: BLE001 - any fault of a check becomes the verdict 'error', never a crash
        return error_evidence(claim.id, stmt.name, label, exc)


def _on_claim(kind: CheckKind, claim, cfg):
    """A ``claim`` stage kind's evidence, vetted against its declaration (what it raises is the claim's own
    fault, e.g. a chain that was never resolved: :class:`~dpverify.claims.ClaimError`)."""
    try:
        ev = kind.check(claim, cfg)
        if not isinstance(ev, Evidence):
            raise TypeError(f"the check returned {type(ev).__name__}, not an Evidence")
    except ClaimError:
        raise
    except Exception as exc:  # noqa: BLE001 - the statements checked before keep their evidence
        return error_evidence(claim.id, "(claim)", kind.label_for(None), exc)
    return kind.vet(ev, claim.id, ev.statement, kind.label_for(None))


#: The basis kinds whose ``violated`` is a rigorous witness: an exact or ball-arithmetic or high-precision evaluation of
#: the statement at a point (or a proof), never a statistical decision (Monte Carlo, an estimate, an audit).
RIGOROUS_REFUTATIONS = frozenset({"proof", "proof-on-box", "asymptotics", "privacy-proof", "privacy-proof-on-box",
                                  "exact-cases", "exact-expectation", "privacy-exact", "algebra"})


def refutation(evidence):
    """The first evidence among ``evidence`` that refutes its statement rigorously (see
    :data:`RIGOROUS_REFUTATIONS`), or None."""
    return next((e for e in evidence if e.verdict == "violated" and e.basis is not None
                 and e.basis.kind in RIGOROUS_REFUTATIONS), None)


def not_attempted(kind: CheckKind, stmt, witness) -> Evidence:
    """The evidence of a proof-only kind (:attr:`CheckKind.proof_only`) not attempted on ``stmt`` because ``witness``
    already refuted it rigorously: its attempt could only end inconclusive (or in a proof the witness contradicts,
    a bug of ours), and the statement is ``violated`` either way."""
    return Evidence(kind.label_for(stmt), stmt.name, "inconclusive", basis=Basis(kind.basis_kinds[0], "not attempted"),
                    detail=f"not attempted: the check {witness.check!r} already refuted this statement "
                           f"({witness.basis.kind}), which no proof can change")


def _statement_evidence(kinds, claim, stmt, cfg) -> list:
    """The evidence of ``kinds`` on ``stmt`` in their order, a proof-only kind skipped after a rigorous refutation."""
    ev = []
    for k in kinds:
        witness = refutation(ev) if k.proof_only else None
        ev.append(_guarded(k, claim, stmt, cfg) if witness is None else not_attempted(k, stmt, witness))
    return ev


def _decided(evidence) -> bool:
    return any(e.verdict in ("verified", "violated") for e in evidence)


def run(claim: Claim, config: Config | None = None) -> Verdict:
    """Check every statement of ``claim`` every way that applies (a check that raises, or whose evidence
    says what its kind does not declare, gives the verdict ``error``, see
    :func:`dpverify.verdict.error_evidence`)."""
    cfg = config or Config()
    if cfg.at is not None:
        claim.domain.validate(cfg.at, optional=claim.existential)
    clock = Clock()
    evidence, per_statement = [], []
    for stmt in claim.statements:   # a fault on one statement is its 'error'; the others keep their evidence
        try:
            kinds = [k for k in _on_statements("statement")
                     if k.applies(stmt) and not k.skipped(stmt) and (k.enabled is None or k.enabled(cfg))]
        except Exception as exc:  # noqa: BLE001 - e.g. a statement whose expressions cannot be read
            kinds, ev = None, [error_evidence(claim.id, stmt.name, "(which checks apply)", exc)]
        if kinds is not None:
            if not kinds:
                raise ValueError(f"no check applies to statement {stmt.name!r} of {claim.id}")
            ev = _statement_evidence(kinds, claim, stmt, cfg)
            for k in _on_statements("fallback"):
                if (k.applies(stmt) and not k.skipped(stmt) and (k.enabled is None or k.enabled(cfg))
                        and not _decided(ev)):
                    ev.append(_guarded(k, claim, stmt, cfg))
        evidence.extend(ev)
        per_statement.append(statement_verdict(ev))
    chained = []
    for k in _on_statements("claim"):
        if k.applies(claim) and (k.enabled is None or k.enabled(cfg)):
            ev = _on_claim(k, claim, cfg)
            evidence.append(ev)
            chained.append(statement_verdict([ev]))
    default = [v for s, v in zip(claim.statements, per_statement) if not s.reading] + chained
    formula_only = claim.about == "algorithm" and algebra_only(evidence)
    readings = {r.name: {"verdict": claim_verdict([v for s, v in zip(claim.statements, per_statement)
                                                   if r.includes(s)] + chained, formula_only),
                         "expected": r.expected} for r in claim.readings}
    return Verdict(id=claim.id, label=claim.label, verdict=claim_verdict(default, formula_only),
                   expected=claim.expected, evidence=evidence, seconds=clock.seconds,
                   reason=claim.reason, seed=cfg.seed, at=cfg.at, about=claim.about, algebra_why=claim.algebra_why, readings=readings,
                   quick=cfg.quick)


__all__ = ["BY_NAME", "CheckKind", "Config", "DomainError", "KINDS", "RIGOROUS_REFUTATIONS", "checks_for", "kind_of",
           "not_attempted", "refutation", "run"]
