"""Assemble a certificate: the claim's hypotheses and expressions as ball-arithmetic source, the witness
as exact rationals, and the files ``certificate.json`` and ``check.py`` of its folder."""
from __future__ import annotations

import json
import os
from dataclasses import dataclass, field

import sympy as sp

from ..claims import Choice, Int, Real, Seq
from . import runtime
from ..arb_source import ArbSource, Unprintable, printer_for, rational_text
from ..escape import py_docstring, py_identifier, py_literal
from ..files import write_atomic


class NoCertificate(Exception):
    """A violation that this module cannot certify; the message is the reason."""


@dataclass
class Plan:
    """What one certificate checks: ``functions`` (name -> SymPy expression, printed as ``NAME(P)``),
    the ``verdict`` source (from :mod:`dpverify.certify.runtime`) and extra ``data`` for the JSON."""

    kind: str
    statement: str
    witness: dict
    functions: dict
    verdict: str
    data: dict = field(default_factory=dict)
    note: str = ""
    extra_ints: tuple = ()      # integer symbols that are not parameters (a step index), set by the verdict
    source: str = ""            # a whole check.py of its own (not the ball-arithmetic one), e.g. a limit replayed


def folder_name(claim_id: str) -> str:
    return claim_id.replace("/", "__")


def _bounds(p: Real | Int) -> dict:
    keys = ("gt", "ge", "lt", "le") if isinstance(p, Real) else ("ge", "le")
    return {k: rational_text(getattr(p, k)) for k in keys if getattr(p, k) is not None}


def params_spec(domain) -> dict:
    """Each parameter's kind and single-parameter hypotheses, as exact rationals."""
    out = {}
    for name, p in domain.params.items():
        if isinstance(p, Real):
            out[name] = ("real", _bounds(p))
        elif isinstance(p, Int):
            out[name] = ("int", _bounds(p))
        elif isinstance(p, Seq):
            out[name] = ("seq", {"length": p.length, "elem": _bounds(p.elem)})
        elif isinstance(p, Choice):
            out[name] = ("choice", {"values": list(p.values)})
        else:  # pragma: no cover - Domain refuses other kinds
            raise NoCertificate(f"parameter {name} of kind {type(p).__name__} has no exact check")
    return out


def exact_witness(domain, point: dict) -> dict:
    """The point's values as exact rationals ``"p/q"`` (a float's exact binary value)."""
    out = {}
    for name, p in domain.params.items():
        if name not in point:
            raise NoCertificate(f"the counterexample gives no value for {name}")
        v = point[name]
        try:
            if isinstance(p, Seq):
                out[name] = [rational_text(x) for x in v]
            elif isinstance(p, Int):
                out[name] = str(int(v))
            elif isinstance(p, Choice):
                py_literal(v, f"the value of {name}")       # a string, number or boolean: JSON and Python alike
                if not isinstance(v, (str, int, float, bool)) or (isinstance(v, float) and v != v):
                    raise ValueError(f"{v!r} is not a string, number or boolean")
                out[name] = v
            else:
                out[name] = rational_text(v)
        except (TypeError, ValueError, OverflowError) as exc:
            raise NoCertificate(f"{name} = {v!r} is not a finite number ({exc})") from None
    return out


def relations_source(domain, printer: ArbSource) -> list[tuple[str, str]]:
    out = []
    for r in domain.relations:
        try:
            src = printer.cond(r.rel, {})
        except Unprintable as exc:
            raise NoCertificate(f"the hypothesis {r.describe()} cannot be checked in ball arithmetic: {exc}") from None
        out.append((r.describe(), src))
    return out


def check_source(claim, plan: Plan) -> str:
    """The text of ``check.py`` for ``plan``.

    What comes from the claim enters the source only as a validated identifier (a function's name), as a
    ``repr()`` literal that reads back equal (ids, statement names, parameter specifications, hypotheses)
    or as text in the docstring with every quote escaped; expressions are printed by
    :class:`~dpverify.arb_source.ArbSource`, which names symbols only inside string literals. The one
    exception is the ball-arithmetic definition a claims module gives a function
    (:func:`~dpverify.arb_source.ball_function`): its source is copied, for the reader to read."""
    if plan.source:
        return plan.source
    printer = printer_for(claim.domain, plan.extra_ints, defined=True)
    lines = []
    for name, expr in plan.functions.items():
        py_identifier(name, "a certificate function")
        try:
            src = printer(claim.expand(expr))
        except Unprintable as exc:
            raise NoCertificate(f"{name.lower()} cannot be printed in ball arithmetic: {exc}") from None
        lines.append(f"def {name}(P):\n    return {src}\n")
    rels = relations_source(claim.domain, printer)
    doc = (f"Standalone check of a certificate that claim {claim.id} is violated ({plan.kind}).\n\nRun `python "
           "check.py` (needs python-flint, not dpverify): it reads certificate.json beside it, checks\nthat the witness "
           "satisfies every hypothesis of the claim exactly, and decides the statement's\nfailure in ball arithmetic "
           "(python-flint arb) at increasing precision. Prints one line; exit status 0\nwhen the certificate holds, 1 "
           f"otherwise.\n{plan.note}")
    head = "#!/usr/bin/env python3\n" + py_docstring(doc) + "\n"
    try:
        gen = [f"CLAIM_ID = {py_literal(claim.id)}", f"STATEMENT = {py_literal(plan.statement)}",
               f"PARAMS = {py_literal(params_spec(claim.domain), 'the parameters')}",
               "RELATIONS = [\n" + "".join(f"    ({py_literal(t)}, lambda P: {s}),\n" for t, s in rels) + "]", ""]
    except ValueError as exc:
        raise NoCertificate(f"check.py cannot state it: {exc}") from None
    defs = "".join(f"\n# ---- a function of the claim, defined in ball arithmetic\n{src.strip()}\n\n"
                   for src in printer.definitions.values())
    return (head + runtime.RUNTIME + defs + "\n\n# ---- generated from the claim\n" + "\n".join(gen) + "\n"
            + "\n\n".join(lines) + runtime_verdict(plan) + runtime.FOOTER)


def runtime_verdict(plan: Plan) -> str:
    return "\n" + plan.verdict


def write(claim, plan: Plan, out_dir: str, folder: str = "") -> str:
    """Write ``certificate.json`` and ``check.py`` for ``plan`` under ``out_dir`` (in ``folder`` when given, else
    the claim's folder); returns the folder."""
    source = check_source(claim, plan)
    folder = os.path.join(out_dir, folder or folder_name(claim.id))
    os.makedirs(folder, exist_ok=True)
    cert = {"claim": claim.id, "label": claim.label, "source": claim.source.cite(), "kind": plan.kind,
            "statement": plan.statement, "reason": claim.reason,
            "hypotheses": claim.domain.hypotheses(), "witness": plan.witness,
            "expressions": {k: sp.sstr(claim.expand(v)) for k, v in plan.functions.items()},
            **plan.data}
    if plan.note:
        cert["note"] = plan.note.strip()
    write_atomic(os.path.join(folder, "certificate.json"), json.dumps(cert, indent=2) + "\n")
    write_atomic(os.path.join(folder, "check.py"), source)
    return folder


__all__ = ["NoCertificate", "Plan", "check_source", "exact_witness", "folder_name", "params_spec", "write"]
