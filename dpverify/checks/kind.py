"""A check kind, declared once: what it applies to, how it checks, what its evidence may say.

Each check module declares its kind (``KIND = CheckKind(...)``, or ``KINDS = (...)`` for a module with two
routes), and :data:`dpverify.checks.KINDS` lists the modules in the order their checks run on a statement.
Everything that needs to know about a kind reads the declaration: :func:`dpverify.checks.run` (which
kinds run, in what order, when, and what their evidence may say), :mod:`dpverify.certify` (which
certificate a violation gets, or why none), the documentation (the kinds' table) and the contract test
``tests/engine/test_check_kinds.py``. What the verdict needs of a kind -- whether its evidence may support
a verdict, whether a ``verified`` is a proof, whether it tests only the printed expressions -- is a
property of the basis kinds it declares (:data:`dpverify.verdict.BASIS_KINDS`), which every evidence
carries, so that a verdict read back from JSON is combined exactly as the run combined it.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable

from ..verdict import BASIS_KINDS, ERROR, Evidence, error_evidence

#: When a kind runs: on every statement it applies to, in the table's order; as a ``fallback`` after the
#: statement's other kinds, only when none of them proved or refuted it; or once per ``claim``.
STAGES = ("statement", "fallback", "claim")


class DeclarationError(ValueError):
    """A check's evidence says what its kind does not declare (a bug of that check)."""


@dataclass(frozen=True)
class CheckKind:
    """One way of checking a statement, declared once.

    ``name``: unique, the name ``Statement.skip`` and the documentation use; ``applies(statement) -> bool``
    (``applies(claim)`` for a ``claim`` stage kind); ``check(statement, claim, config) -> Evidence``
    (``check(claim, config)`` for a ``claim`` stage kind); ``basis_kinds``: the
    :data:`~dpverify.verdict.BASIS_KINDS` its evidence may carry (every evidence carries one of them);
    ``can_refute``: it may say ``violated``; ``certificate``: the name of the route in
    :data:`dpverify.certify.ROUTES` that writes a standalone checker for its violations, or ``""`` with
    ``no_certificate``, the reason in one phrase (a kind that never refutes needs neither);
    ``proof_certificate``: the name of the route in :data:`dpverify.certify.PROOF_ROUTES` that writes a standalone
    checker for its proofs (its ``verified`` evidence), ``""`` when none does; ``label``: the
    name its evidence carries (``Evidence.check``) when not ``name`` -- a string, or a function of the
    statement (the supremum check's evidence is named after the quantity measured); ``stage`` (see
    :data:`STAGES`); ``enabled(config) -> bool``: whether it runs at all under the run's options
    (None: always); ``summary``: one phrase for the documentation.

    Derived from the basis kinds: :attr:`can_support` (a ``holds`` of it counts), :attr:`can_prove` (it may
    say ``verified``), :attr:`proof_only` (all it can add is a proof), :attr:`algebraic` (it tests the printed
    expressions only)."""

    name: str
    applies: Callable[[Any], bool]
    check: Callable[..., Evidence]
    basis_kinds: tuple[str, ...]
    can_refute: bool
    summary: str
    certificate: str = ""
    no_certificate: str = ""
    proof_certificate: str = ""
    label: str | Callable[[Any], str] = ""
    stage: str = "statement"
    enabled: Callable[[Any], bool] | None = None

    def __post_init__(self):
        where = f"check kind {self.name!r}"
        if not self.basis_kinds or not isinstance(self.basis_kinds, tuple):
            raise ValueError(f"{where}: basis_kinds must be a non-empty tuple of basis kinds, got {self.basis_kinds!r}")
        unknown = [k for k in self.basis_kinds if k not in BASIS_KINDS]
        if unknown:
            raise ValueError(f"{where}: unknown basis kinds {unknown} (declare them in dpverify.verdict.BASIS_KINDS)")
        if self.stage not in STAGES:
            raise ValueError(f"{where}: stage must be one of {STAGES}, got {self.stage!r}")
        if self.proof_certificate and not self.can_prove:
            raise ValueError(f"{where}: a proof certificate route for a kind that proves nothing")
        if self.can_refute and bool(self.certificate) == bool(self.no_certificate):
            raise ValueError(f"{where}: a kind that refutes names its certificate route or why it has none "
                             "(exactly one of certificate, no_certificate)")

    @property
    def can_support(self) -> bool:
        """Whether its ``holds``/``verified`` can support a verdict (False: it refutes only)."""
        return any(BASIS_KINDS[k].supports for k in self.basis_kinds)

    @property
    def can_prove(self) -> bool:
        """Whether it may say ``verified`` (one of its basis kinds is a proof)."""
        return any(BASIS_KINDS[k].proof for k in self.basis_kinds)

    @property
    def proof_only(self) -> bool:
        """Whether all it can add is a proof: every basis kind it declares is a proof and it never refutes (after a
        rigorous refutation of the statement its attempt can only end inconclusive, or in a proof contradicted)."""
        return not self.can_refute and all(BASIS_KINDS[k].proof for k in self.basis_kinds)

    @property
    def algebraic(self) -> bool:
        """Whether it tests only the printed expressions, never what an algorithm attains."""
        return all(BASIS_KINDS[k].algebraic for k in self.basis_kinds)

    def label_for(self, stmt=None) -> str:
        """The name its evidence on ``stmt`` carries."""
        if callable(self.label):
            return self.label(stmt)
        return self.label or self.name

    def skipped(self, stmt) -> bool:
        """Whether ``stmt.skip`` names this kind (by its name or by its evidence's name)."""
        return self.name in stmt.skip or self.label_for(stmt) in stmt.skip

    def verdicts(self) -> tuple[str, ...]:
        """The verdicts its evidence may carry (``error`` aside)."""
        return (("verified",) if self.can_prove else ()) + ("holds", "inconclusive") + \
            (("violated",) if self.can_refute else ())

    def vet(self, ev: Evidence, claim_id: str, statement: str, label: str) -> Evidence:
        """``ev`` if it says only what this kind declares (its name, a declared basis kind, a verdict it may
        give, ``verified`` on a proof only); otherwise the evidence ``error`` naming what it broke."""
        if ev.verdict == ERROR:
            return ev
        if ev.check != label:
            why = f"its evidence is named {ev.check!r}, not {label!r}"
        elif ev.basis is None:
            why = "its evidence names no basis"
        elif ev.basis.kind not in self.basis_kinds:
            why = f"its evidence's basis {ev.basis.kind!r} is not among those it declares {self.basis_kinds}"
        elif ev.verdict not in self.verdicts():
            why = f"it said {ev.verdict!r}, which it does not declare (can_refute={self.can_refute})"
        elif ev.verdict == "verified" and not BASIS_KINDS[ev.basis.kind].proof:
            why = f"it said 'verified' on the basis {ev.basis.kind!r}, which is not a proof"
        else:
            return ev
        return error_evidence(claim_id, statement, label, DeclarationError(f"check kind {self.name!r}: {why}"))


def kinds_of(*modules) -> tuple[CheckKind, ...]:
    """The kinds the check ``modules`` declare (each its ``KINDS``, or its ``KIND``), in order; a name
    declared twice is refused."""
    out: list[CheckKind] = []
    for m in modules:
        declared = getattr(m, "KINDS", None) or (getattr(m, "KIND"),)
        for k in declared:
            if not isinstance(k, CheckKind):
                raise TypeError(f"{m.__name__} declares {k!r}, not a CheckKind")
            if any(k.name == o.name for o in out):
                raise ValueError(f"check kind {k.name!r} is declared twice (again in {m.__name__})")
            out.append(k)
    return tuple(out)


__all__ = ["CheckKind", "DeclarationError", "STAGES", "kinds_of"]
