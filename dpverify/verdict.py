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

A claim's ``expected`` verdict is what is true of it: ``expected="holds"`` is met by ``holds`` and by
``verified`` (a proof is not a failure), ``expected="verified"`` demands a proof (a ``holds`` then
differs), ``violated`` and ``inconclusive`` are met only by themselves (:func:`as_expected`, the one
place where ``Verdict.ok``, the report's "differs" and the command line's exit status are decided).

**What was tested.** Every evidence carries a :class:`Basis`: a ``kind`` from :data:`BASIS_KINDS`
(what the check tested) and a free ``on`` text (which family, algorithm, problems or mechanism, from
the scenario's ``describe``). A statement may declare when it is trivially true (``trivial=``, a
SymPy relation in the claim's symbols); the checks that evaluate points report ``coverage``, the
share of the points they evaluated where it is not trivially true (``None`` when nothing is
declared). A claim's :attr:`Verdict.basis` lists, per statement, the strongest kind of the evidence
that supports its verdict; :attr:`Verdict.flags` marks a ``holds`` that is *mostly vacuous*
(coverage below :data:`VACUOUS_BELOW`) or *algebra-only* (a claim ``about="algorithm"`` whose
``holds`` rests only on :data:`ALGEBRAIC` kinds). Whether an evidence may support a verdict at all is
its basis kind's too (:attr:`BasisKind.supports`: an audit and the scaling check refute only), so a
verdict read back from JSON is combined, ranked and flagged exactly as the run that made it.
"""
from __future__ import annotations

import html
import json
from dataclasses import dataclass, field
from typing import Any

from .errors import VERDICTS
from .jsonnum import dumps, json_safe  # noqa: F401  (re-exported: the services write their JSON with them)
from .jsonnum import number_writer, read_number

#: The verdict of a check that raised (and of its claim): a fault of the check or of the claim's
#: construction, never a finding about the claim.
ERROR = "error"
#: Every verdict a check or a claim can get: the claims' vocabulary, and ``error``.
RESULTS = VERDICTS + (ERROR,)
#: Exit codes of the command line (see :func:`exit_status`).
EXIT_OK, EXIT_DIFFERS, EXIT_USAGE, EXIT_ERROR = 0, 1, 2, 3

@dataclass(frozen=True)
class BasisKind:
    """One kind of what a check tested (:class:`Basis`): ``name``; ``text``, what it is; ``algebraic``:
    it tests the printed expressions, not what an algorithm attains (:attr:`Verdict.flags`'s
    "algebra-only"); ``supports``: its ``holds``/``verified`` can support a verdict (False: it refutes
    only, :func:`statement_verdict`); ``proof``: a ``verified`` on it is a proof (the only basis a
    ``verified`` may have)."""

    name: str
    text: str
    algebraic: bool
    supports: bool = True
    proof: bool = False


def _vocabulary(*kinds: BasisKind) -> dict:
    return {k.name: k for k in kinds}


#: What a check tested, strongest support first (the order :attr:`Verdict.basis` ranks by): name ->
#: :class:`BasisKind`. Each check kind (:mod:`dpverify.checks`) declares which of these its evidence carries.
BASIS_KINDS = _vocabulary(
    BasisKind("proof", "a symbolic proof on the whole domain (SymPy: an identity, a sign, a limit)",
              algebraic=True, proof=True),
    BasisKind("proof-on-box", "a proof on the claim's search box only (interval branch-and-bound in ball arithmetic)",
              algebraic=True, proof=True),
    BasisKind("proof-on-quadratics", "a proof on the claim's quadratics only: the exact expectation's closed form in the "
              "spectrum, the inequality proved over the spectrum's interval (a 'holds' where the class is wider)",
              algebraic=False, proof=True),
    BasisKind("proof-horizons", "a proof for the horizons listed only (an exact rational certificate of the worst case "
              "over the function class at each, every other parameter covered)", algebraic=False, proof=True),
    BasisKind("asymptotics", "a proof of a rate or limit along its paths: SymPy's limit (Gruntz) with every other "
              "parameter a symbol carrying its domain's bounds, cross-checked in mpmath along the path",
              algebraic=True, proof=True),
    BasisKind("privacy-proof", "the privacy quantity's exact closed form (the mechanism's, not the claim's) proved "
              "equal to or below the bound symbolically on the whole domain", algebraic=False, proof=True),
    BasisKind("privacy-proof-on-box", "the privacy quantity's exact closed form proved below the bound on the claim's "
              "search box only (ball arithmetic, the profile's monotonicity in its parameters)", algebraic=False,
              proof=True),
    BasisKind("exact-cases", "exact symbolic computation for small cases only (e.g. every T = 1..6), no general proof",
              algebraic=True),
    BasisKind("privacy-exact", "the privacy loss of the mechanism computed exactly (with its error), worst over "
              "instances", algebraic=False),
    BasisKind("privacy-upper", "a valid upper bound on the privacy loss (a pessimistic accountant), worst over "
              "instances", algebraic=False),
    BasisKind("worst-over-class", "the worst case over a whole function class, by a performance-estimation SDP (exact "
              "with the solver's error where the class has interpolation conditions, else an upper bound)",
              algebraic=False),
    BasisKind("exact-expectation", "the algorithm's expectation computed exactly on problems of a family",
              algebraic=False),
    BasisKind("worst-case", "a measured quantity (sensitivity, stability, ...) maximised over a class of instances",
              algebraic=False),
    BasisKind("monte-carlo", "runs of the algorithm on problems, means with one-sided confidence bounds",
              algebraic=False),
    BasisKind("algorithm-rate", "what the algorithm attains (exact expectations on its instances, else Monte Carlo "
              "bounds) over a rate, swept along paths to a limit", algebraic=False),
    BasisKind("privacy-estimate", "a privacy loss estimated with a confidence interval, worst over instances",
              algebraic=False),
    BasisKind("privacy-lower", "a lower bound on the privacy loss (an optimistic accountant, a best half-line)",
              algebraic=False),
    BasisKind("algebra", "the printed expressions evaluated at points of the domain (mpmath)", algebraic=True),
    BasisKind("chain", "the hypotheses of a claim and of the claims it builds on intersected (intervals, then points)",
              algebraic=True),
    BasisKind("limit", "the printed expression swept towards its limit", algebraic=True),
    BasisKind("rate", "the ratio of the printed expression to its rate swept along paths to a limit", algebraic=True),
    BasisKind("audit", "an empirical privacy audit of the algorithm (refutes only)", algebraic=False, supports=False),
    BasisKind("neighbouring-data", "inputs derived from the data recomputed on neighbouring data sets, the two releases "
              "compared (refutes only)", algebraic=False, supports=False),
    BasisKind("scaling", "both sides' scaling in the loss and the parameters (refutes only)", algebraic=True,
              supports=False),
)
#: Kinds that test the printed expressions, not what an algorithm attains.
ALGEBRAIC = frozenset(k.name for k in BASIS_KINDS.values() if k.algebraic)
#: A ``holds`` whose coverage is below this share is flagged "mostly vacuous".
VACUOUS_BELOW = 0.5


@dataclass(frozen=True)
class Basis:
    """What one check tested: ``kind`` (one of :data:`BASIS_KINDS`) and ``on`` (which family,
    algorithm, problems or mechanism; free text)."""

    kind: str
    on: str = ""

    def __post_init__(self):
        if self.kind not in BASIS_KINDS:
            raise ValueError(f"Basis.kind must be one of {tuple(BASIS_KINDS)}, got {self.kind!r}")

    def __str__(self) -> str:
        return f"{self.kind} on {self.on}" if self.on else self.kind

    def to_json(self) -> dict:
        return {"kind": self.kind, "on": self.on}

    @classmethod
    def from_json(cls, d) -> "Basis | None":
        return None if not d else cls(kind=d["kind"], on=d.get("on", ""))


def as_expected(verdict: str, expected: str) -> bool:
    """Whether ``verdict`` meets ``expected``: ``holds`` is met by a proof too (``verified``);
    every other expected verdict only by itself."""
    return verdict == expected or (expected == "holds" and verdict == "verified")


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
    basis: Basis | None = None
    coverage: float | None = None

    def __post_init__(self):
        if self.verdict not in RESULTS:
            raise ValueError(f"verdict must be one of {RESULTS}, got {self.verdict!r}")
        if self.basis is not None and not isinstance(self.basis, Basis):
            raise ValueError(f"basis must be a Basis(kind, on), got {self.basis!r}")
        if self.tightness is None and self.verdict != "violated":
            from .search import tightness

            if self.value is not None and self.bound is not None:
                self.tightness = tightness(self.value, self.bound)

    def to_json(self, timing: bool = True, exact: bool = False) -> dict:
        """JSON-able dict (``--json``): numbers to 10 significant digits, or exact with ``exact``
        (the verdict cache)."""
        _round = number_writer(exact)
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
            "basis": None if self.basis is None else self.basis.to_json(),
            "coverage": _round(self.coverage),
            **({"data": self.data} if self.data else {}),
        }


#: a verdict's fields written as they are by ``Verdict.to_json`` (in this order, before its numbers and evidence)
_VERDICT_FIELDS = ("id", "label", "verdict", "expected", "ok", "reason", "seed", "at", "about", "algebra_why", "basis",
                   "scope")


def error_evidence(claim_id: str, statement: str, check: str, exc: BaseException) -> "Evidence":
    """The evidence of a check that raised ``exc``: verdict ``error``, one line naming the claim, the
    statement, the check and the cause."""
    cause = f"{type(exc).__name__}: {exc}".splitlines()[0] if str(exc) else type(exc).__name__
    return Evidence(check=check, statement=statement, verdict=ERROR,
                    detail=f"{claim_id}: statement {statement!r}, check {check!r} raised {cause}")


def exit_status(verdicts) -> int:
    """The command line's exit code: :data:`EXIT_ERROR` (3) when any claim's verdict is ``error``,
    else :data:`EXIT_DIFFERS` (1) when any verdict differs from its expected one, else 0 (usage errors,
    2, are decided before any check runs)."""
    verdicts = list(verdicts)
    if any(v.verdict == ERROR for v in verdicts):
        return EXIT_ERROR
    return EXIT_OK if all(v.ok for v in verdicts) else EXIT_DIFFERS


def supports(evidence: Evidence) -> bool:
    """Whether ``evidence`` may support a statement's verdict: its basis kind can (an audit and the
    scaling check refute only: :attr:`BasisKind.supports`). Evidence that names no basis (made by hand,
    or read from JSON older than the basis) is taken at its word."""
    return evidence.basis is None or BASIS_KINDS[evidence.basis.kind].supports


PROOF_CONTRADICTED = "a numeric point disagrees: bug in dpverify"


def statement_verdict(evidence: list[Evidence]) -> str:
    """The verdict of one statement from the evidence of its checks (see the module docstring).

    A numeric counterexample that contradicts a proof (a check said ``verified``) is a bug of ours,
    not a finding: the statement is ``inconclusive`` and the disputed evidence is rewritten to say
    so ("SymPy proved ... but a numeric point disagrees: bug in dpverify", its counterexample kept
    in ``data["disputed_counterexample"]``)."""
    if any(e.verdict == ERROR for e in evidence):
        return ERROR
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
    support = [e.verdict for e in evidence if supports(e)]
    if "verified" in support:
        return "verified"
    if "holds" in support:
        return "holds"
    return "inconclusive"


def algebra_only(evidence: list[Evidence]) -> bool:
    """Whether every piece of evidence that supports a pass rests on an :data:`ALGEBRAIC` basis kind (the
    printed expressions), so that nothing ran the algorithm a claim ``about="algorithm"`` is about."""
    kinds = {e.basis.kind for e in evidence
             if e.verdict in ("holds", "verified") and supports(e) and e.basis is not None}
    return kinds <= ALGEBRAIC


def claim_verdict(per_statement: list[str], algebra_of_an_algorithm: bool = False) -> str:
    """A claim's verdict from its statements' verdicts. ``algebra_of_an_algorithm``: the claim is about an
    algorithm and its passes rest only on the printed algebra -- a proof of the formula is not a proof of what
    the algorithm attains, so such a claim is at most ``holds`` (flagged "algebra-only"), never ``verified``."""
    verdict = _claim_verdict(per_statement)
    return "holds" if verdict == "verified" and algebra_of_an_algorithm else verdict


def _claim_verdict(per_statement: list[str]) -> str:
    if not per_statement:
        return "inconclusive"
    if ERROR in per_statement:
        return ERROR
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
    about: str | None = None
    #: why a claim about an algorithm is checked on its algebra only (``Claim.algebra_why``)
    algebra_why: str = ""
    #: per alternative reading of the claim: {"verdict": ..., "expected": ...} (the default reading
    #: is ``verdict``/``expected``); statements of the default reading belong to every reading that
    #: does not replace them (``Reading.replaces``)
    readings: dict = field(default_factory=dict)
    #: replayed from the verdict cache (:mod:`dpverify.cache`), not computed in this run
    cached: bool = False
    #: the plots shown with the verdict in a notebook: a list of (caption, inline SVG), or a callable
    #: that makes them from the verdict (``dpverify.check`` sets one that knows the claim); not saved
    figures: Any = field(default=None, repr=False, compare=False)
    #: checked by a quick run (``--quick``: fewer runs and samples), a first look only
    quick: bool = False

    @classmethod
    def errored(cls, claim_id: str, exc: BaseException, *, label: str = "", expected: str = "holds",
                statement: str = "(claim)", check: str = "(run)", seed: int = 0, at: dict | None = None) -> "Verdict":
        """The verdict ``error`` of a claim that could not be checked at all (its module failed to
        load in a worker, its worker process died, ...): one evidence naming the cause."""
        return cls(id=claim_id, label=label, verdict=ERROR, expected=expected,
                   evidence=[error_evidence(claim_id, statement, check, exc)], seed=seed, at=at)

    @property
    def error(self) -> str | None:
        """For a verdict ``error``: the one line naming the claim, the statement, the check and the cause."""
        for e in self.evidence:
            if e.verdict == ERROR:
                return e.detail
        return None if self.verdict != ERROR else f"{self.id}: error"

    @property
    def ok(self) -> bool:
        return as_expected(self.verdict, self.expected) and all(self.reading_ok(name) for name in self.readings)

    def reading_ok(self, name: str) -> bool:
        """Whether the alternative reading ``name`` got its expected verdict."""
        r = self.readings[name]
        return as_expected(r["verdict"], r["expected"])

    def _supporting(self) -> list[Evidence]:
        """The evidence that supports the verdict: the passes of supporting checks for ``holds`` and
        ``verified``, the counterexamples for ``violated``, nothing for ``inconclusive``."""
        if self.verdict in ("holds", "verified"):
            return [e for e in self.evidence if e.verdict in ("holds", "verified") and supports(e)]
        if self.verdict == "violated":
            return [e for e in self.evidence if e.verdict == "violated"]
        return []

    @property
    def basis(self) -> list[str]:
        """Per statement, the strongest basis kind of the evidence supporting the verdict (in
        :data:`BASIS_KINDS` order), each kind once, in the order of the statements."""
        rank = {k: i for i, k in enumerate(BASIS_KINDS)}
        best: dict[str, str] = {}
        for e in self._supporting():
            if e.basis is None:
                continue
            cur = best.get(e.statement)
            if cur is None or rank[e.basis.kind] < rank[cur]:
                best[e.statement] = e.basis.kind
        out: list[str] = []
        for k in best.values():
            if k not in out:
                out.append(k)
        return out

    @property
    def scope(self) -> str | None:
        """Where a ``verified`` is proved: ``"domain"`` (SymPy, on the whole domain), ``"box: ..."``
        naming the search box of each statement proved only there (``proof-on-box``, ``privacy-proof-on-box``),
        ``"horizons: ..."`` the horizons of each statement proved only for those (``proof-horizons``),
        ``"quadratics"`` where a statement is proved on its quadratics only (``proof-on-quadratics``, a claim
        stated on quadratics); parts joined by "; "; None otherwise."""
        if self.verdict != "verified":
            return None
        boxes, horizons, quadratics = [], [], False
        for stmt in dict.fromkeys(e.statement for e in self._supporting()):
            kinds = {e.basis.kind: e.basis.on for e in self._supporting()
                     if e.statement == stmt and e.basis is not None}
            if "proof" in kinds or "privacy-proof" in kinds:
                continue
            box = next((kinds[b] for b in ("proof-on-box", "privacy-proof-on-box") if b in kinds), None)
            if box is not None:
                if box not in boxes:
                    boxes.append(box)
                continue
            if "proof-horizons" in kinds:
                horizons.append(kinds["proof-horizons"])
                continue
            quadratics |= "proof-on-quadratics" in kinds
        parts = ((["box: " + "; ".join(boxes)] if boxes else []) + (["horizons: " + "; ".join(horizons)] if horizons
                                                                    else []) + (["quadratics"] if quadratics else []))
        return "; ".join(parts) if parts else "domain"

    @property
    def coverage(self) -> float | None:
        """The smallest coverage of the evidence (the share of checked points where a statement is
        not trivially true), or None when no statement declares when it is trivial."""
        vals = [e.coverage for e in self.evidence if e.coverage is not None]
        return min(vals) if vals else None

    @property
    def flags(self) -> list[str]:
        """``"mostly vacuous"`` (a ``holds`` with coverage below :data:`VACUOUS_BELOW`) and
        ``"algebra-only"`` (a ``holds`` of a claim about an algorithm resting only on
        :data:`ALGEBRAIC` kinds). Flags qualify a verdict; they never change it."""
        out = []
        if self.verdict != "holds":
            return out
        cov = self.coverage
        if cov is not None and cov < VACUOUS_BELOW:
            out.append("mostly vacuous")
        kinds = {e.basis.kind for e in self._supporting() if e.basis is not None}
        if self.about == "algorithm" and kinds <= ALGEBRAIC:
            out.append("algebra-only")
        return out

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
        if self.verdict in ("violated", ERROR):
            return None
        vals = [e.tightness for e in self.evidence if e.tightness is not None and e.verdict != "violated"]
        return min(vals) if vals else None

    @property
    def counterexample(self) -> dict | None:
        for e in self.evidence:
            if e.verdict == "violated" and e.counterexample is not None:
                return e.counterexample
        return None

    def to_json(self, timing: bool = True, exact: bool = False) -> dict:
        """JSON-able dict (``--json``); ``exact`` keeps every number exact (the verdict cache)."""
        _round = number_writer(exact)
        return {
            **{k: getattr(self, k) for k in _VERDICT_FIELDS},
            "coverage": _round(self.coverage),
            "flags": self.flags,
            "readings": {k: dict(v) for k, v in self.readings.items()},
            "tightness": _round(self.tightness),
            "seconds": round(self.seconds, 3) if timing else 0.0,
            "evidence": [e.to_json(timing, exact) for e in self.evidence],
            **({"cached": True} if self.cached else {}),
            **({"quick": True} if self.quick else {}),
        }

    @classmethod
    def from_json(cls, d: dict) -> "Verdict":
        """Rebuild a verdict from :meth:`to_json` output (e.g. ``dpverify check --json``)."""
        ev = []
        for e in d.get("evidence", []):
            ev.append(Evidence(check=e["kind"], statement=e["statement"], verdict=e["verdict"],
                               samples=e.get("samples", 0), confidence=e.get("confidence"),
                               min_margin=read_number(e.get("min_margin")), tightness=read_number(e.get("tightness")),
                               counterexample=e.get("counterexample"), seconds=e.get("seconds", 0.0),
                               detail=e.get("detail", ""), data=e.get("data", {}), value=read_number(e.get("value")),
                               bound=read_number(e.get("bound")), point=e.get("worst_point"),
                               basis=Basis.from_json(e.get("basis")), coverage=read_number(e.get("coverage"))))
        return cls(id=d["id"], label=d.get("label", ""), verdict=d["verdict"], expected=d["expected"],
                   evidence=ev, seconds=d.get("seconds", 0.0), reason=d.get("reason", ""),
                   seed=d.get("seed", 0), at=d.get("at"), about=d.get("about"), algebra_why=d.get("algebra_why", ""),
                   readings={k: dict(v) for k, v in (d.get("readings") or {}).items()},
                   cached=bool(d.get("cached", False)), quick=bool(d.get("quick", False)))

    def __str__(self) -> str:
        from .tables import table

        return table([self])

    def _repr_html_(self) -> str:
        """The verdict in a notebook: its verdict in colour and in words, why, and the evidence with
        measured vs bound per statement, then its plots (:attr:`figures`; else a rate's path from the
        evidence). Every field is escaped."""
        from .plots import svg_lines
        from .tables import margin_cell

        esc = html.escape

        def num(x):
            try:
                return f"{float(x):.6g}"
            except (TypeError, ValueError, OverflowError):
                return ""

        cell = "<td style='border-bottom:1px solid #ccc;padding:2px 6px;text-align:left;vertical-align:top;font-size:12px'>"
        rows = "".join(
            "<tr>" + "".join(f"{cell}{esc(str(c))}</td>" for c in (
                e.statement, e.check, e.verdict, num(e.value), num(e.bound), margin_cell(e.verdict, e.min_margin),
                "" if e.counterexample is None else json.dumps(e.counterexample, default=str)[:160],
                e.detail)) + "</tr>"
            for e in self.evidence)
        colour = {"verified": "#1b5e20", "holds": "#2e7d32", "violated": "#b71c1c",
                  "inconclusive": "#8d6e00"}.get(str(self.verdict), "#4a148c")
        head = "".join(f"<th style='border-bottom:1px solid #888;padding:2px 6px;text-align:left;font-size:12px'>{h}</th>"
                       for h in ("statement", "check", "verdict", "measured", "bound", "margin", "counterexample",
                                 "detail"))
        reason = f"<br><i>{esc(self.reason)}</i>" if self.reason else ""
        flags = "".join(f" <b style='color:#8d6e00'>[{esc(f)}]</b>" for f in self.flags)
        basis = f"; basis: {esc(', '.join(self.basis))}" if self.basis else ""
        ok = ("<b style='color:#2e7d32'>as expected</b>" if self.ok
              else "<b style='color:#b71c1c'>differs from expected</b>")
        figures = []
        try:
            figures = list(self.figures(self) if callable(self.figures) else (self.figures or []))
        except Exception:  # noqa: BLE001 - a plot is an aid: the table is shown without it
            figures = []
        if not figures:
            for e in self.evidence:
                logs = (e.data or {}).get("log10_ratio") if e.check == "rate" and isinstance(e.data, dict) else None
                if isinstance(logs, list) and len(logs) >= 2:
                    svg = svg_lines([("log10(expr / rate)", list(range(len(logs))), logs)],
                                    xlabel="point along the path (a fixed step per decade)",
                                    ylabel="log10(expr / rate)")
                    if svg:
                        figures.append((f"{e.statement}: expr / rate along the path", svg))
        figs = "".join(f"<div style='flex:1 1 24rem;max-width:34rem'>{svg}<div><i>{esc(str(cap))}</i></div></div>"
                       for cap, svg in figures if isinstance(svg, str) and svg.startswith("<svg"))
        figs = f"<div style='display:flex;flex-wrap:wrap;gap:8px'>{figs}</div>" if figs else ""
        return (f"<div><b>{esc(self.id)}</b> ({esc(self.label)}): "
                f"<b style='color:#fff;background:{colour};padding:0 .4em;border-radius:3px'>{esc(str(self.verdict))}</b>"
                f"{flags} {ok} (expected {esc(str(self.expected))}{basis}){reason}"
                f"<div style='overflow-x:auto'><table><thead><tr>{head}"
                f"</tr></thead><tbody>{rows}</tbody></table></div>{figs}</div>")
