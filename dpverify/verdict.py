"""Verdicts and the evidence behind them.

Every :class:`Evidence` records, at the worst point a check met, the measured value and the bound
(``value <= bound`` claimed), the relative margin ``(bound - value) / max(|bound|, |value|)`` and the
tightness ``bound / value`` (both positive; >= 1 where the bound holds), the same way in every check.

Every check returns an :class:`Evidence`; a claim's :class:`Verdict` combines them:

* a statement is ``inconclusive`` if a check found a counterexample to what another one proved
  (a bug of ours, flagged in the evidence), else ``violated`` if any of its checks found a
  counterexample, else ``verified`` if a symbolic proof succeeded, else ``holds`` if a numeric check found no counterexample, else
  ``inconclusive`` (the scaling check and privacy audits can refute a statement but never support
  it alone);
* a claim is ``violated`` if any statement is, else ``inconclusive`` if any statement is, else
  ``holds`` if any statement only holds, else ``verified``.
"""
from __future__ import annotations

import html
import json
from dataclasses import dataclass, field
from .spec import VERDICTS


@dataclass
class Evidence:
    """What one check did to one statement, enough to replay it."""

    check: str
    statement: str
    verdict: str
    samples: int = 0
    confidence: float | None = None
    min_margin: float | None = None
    tightness: float | None = None
    counterexample: dict | None = None
    seconds: float = 0.0
    detail: str = ""
    data: dict = field(default_factory=dict)
    value: float | None = None
    bound: float | None = None
    point: dict | None = None

    def __post_init__(self):
        if self.verdict not in VERDICTS:
            raise ValueError(f"verdict must be one of {VERDICTS}, got {self.verdict!r}")
        if self.tightness is None and self.verdict != "violated":
            from .search import tightness

            if self.value is not None and self.bound is not None:
                self.tightness = tightness(self.value, self.bound)

    def to_json(self, timing: bool = True) -> dict:
        return {
            "kind": self.check,
            "statement": self.statement,
            "verdict": self.verdict,
            "samples": self.samples,
            "confidence": self.confidence,
            "min_margin": _round(self.min_margin),
            "tightness": _round(self.tightness),
            "value": _round(self.value),
            "bound": _round(self.bound),
            "worst_point": self.point,
            "counterexample": self.counterexample,
            "seconds": round(self.seconds, 3) if timing else 0.0,
            "detail": self.detail,
            **({"data": self.data} if self.data else {}),
        }


def _round(x):
    if x is None:
        return None
    try:
        return float(f"{float(x):.10g}")
    except (TypeError, ValueError, OverflowError):
        return None


# Checks that can refute a statement but never support it on their own.
REFUTE_ONLY = frozenset({"scaling", "audit"})


PROOF_CONTRADICTED = "a numeric point disagrees: bug in dpverify"


def statement_verdict(evidence: list[Evidence]) -> str:
    """The verdict of one statement from the evidence of its checks (see the module docstring).

    A numeric counterexample that contradicts a proof (a check said ``verified``) is a bug of ours,
    not a finding: the statement is ``inconclusive`` and the disputed evidence is rewritten to say
    so ("SymPy proved ... but a numeric point disagrees: bug in dpverify", its counterexample kept
    in ``data["disputed_counterexample"]``)."""
    proofs = [e for e in evidence if e.verdict == "verified"]
    disputed = [e for e in evidence if e.verdict == "violated" or PROOF_CONTRADICTED in e.detail]
    if proofs and disputed:
        proof = proofs[0].detail or "a proof"
        for e in disputed:
            if e.verdict == "violated":
                e.verdict = "inconclusive"
                e.data = {**e.data, "disputed_counterexample": e.counterexample}
                e.counterexample = None
                e.detail = f"{proof} but {PROOF_CONTRADICTED} ({e.detail})"
        return "inconclusive"
    if any(e.verdict == "violated" for e in evidence):
        return "violated"
    support = [e.verdict for e in evidence if e.check not in REFUTE_ONLY]
    if "verified" in support:
        return "verified"
    if "holds" in support:
        return "holds"
    return "inconclusive"


def claim_verdict(per_statement: list[str]) -> str:
    if not per_statement:
        return "inconclusive"
    if "violated" in per_statement:
        return "violated"
    if "inconclusive" in per_statement:
        return "inconclusive"
    if "holds" in per_statement:
        return "holds"
    return "verified"


@dataclass
class Verdict:
    """A claim's verdict with all its evidence. Renders as a table in Jupyter."""

    id: str
    label: str
    verdict: str
    expected: str
    evidence: list[Evidence]
    seconds: float = 0.0
    reason: str = ""
    seed: int = 0
    at: dict | None = None

    @property
    def ok(self) -> bool:
        return self.verdict == self.expected

    @property
    def checks(self) -> list[str]:
        seen: list[str] = []
        for e in self.evidence:
            if e.check not in seen:
                seen.append(e.check)
        return seen

    @property
    def tightness(self) -> float | None:
        """Smallest bound-over-observed ratio of a claim that is not violated (None if violated)."""
        if self.verdict == "violated":
            return None
        vals = [e.tightness for e in self.evidence if e.tightness is not None and e.verdict != "violated"]
        return min(vals) if vals else None

    @property
    def counterexample(self) -> dict | None:
        for e in self.evidence:
            if e.verdict == "violated" and e.counterexample is not None:
                return e.counterexample
        return None

    def to_json(self, timing: bool = True) -> dict:
        return {
            "id": self.id,
            "label": self.label,
            "verdict": self.verdict,
            "expected": self.expected,
            "ok": self.ok,
            "reason": self.reason,
            "seed": self.seed,
            "at": self.at,
            "tightness": _round(self.tightness),
            "seconds": round(self.seconds, 3) if timing else 0.0,
            "evidence": [e.to_json(timing) for e in self.evidence],
        }

    @classmethod
    def from_json(cls, d: dict) -> "Verdict":
        """Rebuild a verdict from :meth:`to_json` output (e.g. ``dpverify check --json``)."""
        ev = []
        for e in d.get("evidence", []):
            ev.append(Evidence(check=e["kind"], statement=e["statement"], verdict=e["verdict"],
                               samples=e.get("samples", 0), confidence=e.get("confidence"),
                               min_margin=e.get("min_margin"), tightness=e.get("tightness"),
                               counterexample=e.get("counterexample"), seconds=e.get("seconds", 0.0),
                               detail=e.get("detail", ""), data=e.get("data", {}), value=e.get("value"),
                               bound=e.get("bound"), point=e.get("worst_point")))
        return cls(id=d["id"], label=d.get("label", ""), verdict=d["verdict"], expected=d["expected"],
                   evidence=ev, seconds=d.get("seconds", 0.0), reason=d.get("reason", ""),
                   seed=d.get("seed", 0), at=d.get("at"))

    def __str__(self) -> str:
        from .tables import table

        return table([self])

    def _repr_html_(self) -> str:
        rows = "".join(
            "<tr>" + "".join(f"<td>{html.escape(str(c))}</td>" for c in (
                e.statement, e.check, e.verdict, e.samples,
                "" if e.confidence is None else e.confidence,
                "" if e.min_margin is None else f"{e.min_margin:.3g}",
                "" if e.tightness is None else f"{e.tightness:.3g}",
                "" if e.counterexample is None else json.dumps(e.counterexample)[:120],
                f"{e.seconds:.2f}")) + "</tr>"
            for e in self.evidence)
        colour = "#2e7d32" if self.ok else "#c62828"
        head = "".join(f"<th>{h}</th>" for h in ("statement", "check", "verdict", "samples",
                                                 "confidence", "min margin", "tightness",
                                                 "counterexample", "s"))
        reason = f"<br><i>{html.escape(self.reason)}</i>" if self.reason else ""
        return (f"<div><b>{html.escape(self.id)}</b> ({html.escape(self.label)}): "
                f"<b style='color:{colour}'>{self.verdict}</b> (expected {self.expected}){reason}"
                f"<table><thead><tr>{head}</tr></thead><tbody>{rows}</tbody></table></div>")
