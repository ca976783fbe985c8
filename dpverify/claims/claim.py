"""A claim: where it was printed (Source), its hypotheses (Domain) and its statements."""
from __future__ import annotations

import re
from dataclasses import KW_ONLY, dataclass, field, fields, replace
from typing import Any, Callable, Mapping

import sympy as sp
from .domain import Choice, ClaimError, Domain, DomainError, Int, Real
from .statements import Constant, Minimiser, Statement, set_field, expand_definitions, symbol_names
from ..errors import ID_PATTERN, VERDICTS

#: What a claim is about (``Claim.about``): a mathematical fact, or what an algorithm attains.
ABOUT = ("math", "algorithm")
#: Where the error of a claim found wrong lies (``Claim.error_in``): in what the claim states, or in
#: a step of a proof (the claim is a step of the paper's proof; the result it serves may survive).
ERROR_IN = ("statement", "proof-step")
#: A claim id: ``paper/name`` in lower case (matched whole: ``\Z``, so that no trailing newline passes).
ID_RE = re.compile(rf"^{ID_PATTERN}\Z")


def statement_kinds(statements) -> str:
    """The kinds of ``statements``, each once: ``"inequality"``, ``"identity, rate"``, ``"sensitivity bound"``."""
    out: list[str] = []
    for st in statements:
        name = type(st).__name__
        k = f"{st.kind} bound" if name == "SupBound" else re.sub(r"(?<!^)(?=[A-Z])", " ", name).lower()
        if k not in out:
            out.append(k)
    return ", ".join(out)


# --------------------------------------------------------------------------- source
@dataclass(frozen=True)
class Source:
    """Where a claim is printed: any document (a seed file, a paper, a book), the label as printed,
    the equation number and the text it was read from.

    >>> Source("Boyd & Vandenberghe, Convex Optimization (2004)", "Section 9.3", eq="(9.18)").cite()
    '[Boyd & Vandenberghe, Convex Optimization (2004), Section 9.3, eq. (9.18)]'
    """

    document: str
    label: str
    eq: str | None = None
    text: str = ""
    url: str | None = None

    def __post_init__(self):
        if not isinstance(self.document, str) or not self.document.strip():
            raise ClaimError(f"Source.document must name the document the claim is printed in, got {self.document!r}")
        if not isinstance(self.label, str) or not self.label.strip():
            raise ClaimError(f"Source.label must be the label as printed (e.g. 'Theorem 4.1'), got {self.label!r}")

    @classmethod
    def for_document(cls, document: str) -> Callable[..., "Source"]:
        """A function building the Sources of one document, so a paper names its file once.

        The function takes the other fields as :class:`Source` does (``label``, then ``eq`` and
        ``text`` positionally or by keyword, ``url`` by keyword):

        >>> src = Source.for_document("Boyd & Vandenberghe, Convex Optimization (2004)")
        >>> src("Section 9.3", "(9.18)").cite()
        '[Boyd & Vandenberghe, Convex Optimization (2004), Section 9.3, eq. (9.18)]'
        """
        cls(document, "any label")          # a bad document is refused here, where it is named

        def source(label: str, eq: str | None = None, text: str = "", *, url: str | None = None) -> "Source":
            return cls(document, label, eq, text, url)

        source.__doc__ = f"A Source printed in {document!r}: (label, eq=None, text='', *, url=None)."
        return source

    def cite(self) -> str:
        eq = f", eq. {self.eq}" if self.eq else ""
        return f"[{self.document}, {self.label}{eq}]"

    def to_json(self) -> dict:
        return {"document": self.document, "label": self.label, "eq": self.eq, "text": self.text,
                "url": self.url}



@dataclass(frozen=True)
class Reading:
    """An alternative reading of a claim: the text admits it beside the default one.

    Statements with ``reading=name`` belong to it; the claim's unlabelled statements belong to every
    reading. ``expected`` is its verdict (what is true under that reading), ``summary`` what it
    reads, and, when it fails, ``reason`` and a ``witness`` as for a claim. The claim's own
    ``expected`` stays the verdict of its default reading (the unlabelled statements).

    ``replaces``: names of unlabelled statements this reading reads otherwise (its own statements
    take their place): they belong to the default reading but not to this one. ``error_in`` and
    ``statement_survives``: as on :class:`Claim`, for a reading expected ``violated``."""

    name: str
    expected: str
    summary: str = ""
    reason: str = ""
    witness: Mapping[str, Any] | None = None
    replaces: tuple[str, ...] = ()
    error_in: str | None = None
    statement_survives: bool | None = None

    def __post_init__(self):
        if not isinstance(self.name, str) or not self.name.strip():
            raise ClaimError(f"Reading: name must be a non-empty string, got {self.name!r}")
        if self.expected not in VERDICTS:
            raise ClaimError(f"Reading {self.name!r}: expected must be one of {VERDICTS}, got {self.expected!r}")
        if self.expected == "violated" and not self.reason:
            raise ClaimError(f"Reading {self.name!r}: a reading expected 'violated' gives no reason")
        if isinstance(self.replaces, str) or not isinstance(self.replaces, (tuple, list)) \
                or not all(isinstance(n, str) for n in self.replaces):
            raise ClaimError(f"Reading {self.name!r}: replaces must be a tuple of statement names, got {self.replaces!r}")
        object.__setattr__(self, "replaces", tuple(self.replaces))
        problem = _error_fields_problem(self.error_in, self.statement_survives, self.expected)
        if problem:
            raise ClaimError(f"Reading {self.name!r}: {problem[0]}: {problem[1]}")

    def includes(self, statement: Statement) -> bool:
        """Whether ``statement`` belongs to this reading: its own, or an unlabelled one it does not replace."""
        return statement.reading == self.name or (not statement.reading and statement.name not in self.replaces)

    def to_json(self) -> dict:
        return {"name": self.name, "expected": self.expected, "summary": self.summary, "reason": self.reason,
                "witness": None if self.witness is None else dict(self.witness), "replaces": list(self.replaces),
                "error_in": self.error_in, "statement_survives": self.statement_survives}


def _error_fields_problem(error_in, survives, expected) -> tuple[str, str] | None:
    """(field, problem) for a bad ``error_in`` or ``statement_survives``, else None."""
    if expected != "violated" and (error_in is not None or survives is not None):
        name = "error_in" if error_in is not None else "statement_survives"
        return name, f"says where an error lies, but expected is {expected!r} (only a claim or reading expected 'violated' has one)"
    if error_in is not None and error_in not in ERROR_IN:
        return "error_in", f"must be one of {ERROR_IN} or None, got {error_in!r}"
    if survives is not None and not isinstance(survives, bool):
        return "statement_survives", f"must be True, False or None, got {survives!r}"
    return None


@dataclass(frozen=True)
class Claim:
    """One checkable claim, encoded as printed (every field keyword-only).

    ``witness``: for a claim expected ``violated``, a point of the domain where it fails; it is
    the replay command of the errata (``dpverify check ID --at witness``) and the contract tests
    replay it.

    ``expected``: what is true of the claim. ``"holds"`` is met by ``holds`` and by ``verified`` (a
    proof is not a failure); ``"verified"`` demands a proof.

    ``about``: ``"algorithm"`` for a claim about what an algorithm attains (its ``holds`` is flagged
    "algebra-only" when it rests only on the printed expressions), ``"math"`` or ``None`` otherwise;
    ``algebra_why``: for such a claim, why the algorithm itself is not run (e.g. an O-rate as n -> inf
    that no finite run decides, the finite-n behaviour being another claim's); the report shows it
    beside the flag.

    ``builds_on``: ids of the claims this one uses (a ``-corrected`` claim whose proof uses another
    corrected claim names it). They are resolved when the claims are loaded (the registry calls
    :meth:`resolve`; an id it does not know raises :class:`ClaimError` naming it), and the claim is
    checked together with them: their hypotheses must meet (``dpverify.checks.chain``).
    ``error_in``: for a claim found wrong, where the error lies: ``"statement"`` (what is stated is
    false) or ``"proof-step"`` (the claim is a step of the paper's proof); ``statement_survives``:
    whether the result the claim states (or, for a proof step, the result the proof serves) still
    holds (True), fails (False) or is not known (None). The errata show both.
    """

    _: KW_ONLY
    id: str
    source: Source
    domain: Domain
    statements: tuple[Statement, ...]
    #: what the claim is (``"privacy bound"``, ...); by default the kinds of its statements
    #: (``"inequality"``, ``"rate"``, ``"sensitivity bound"``, ...: :func:`statement_kinds`)
    kind: str | None = None
    definitions: Mapping = field(default_factory=dict)
    expected: str = "holds"
    reason: str = ""
    constants: tuple[Constant, ...] = ()
    summary: str = ""
    witness: Mapping[str, Any] | None = None
    about: str | None = None
    algebra_why: str = ""
    readings: tuple[Reading, ...] = ()
    builds_on: tuple[str, ...] = ()
    #: the claims ``builds_on`` names, once :meth:`resolve` found them (not a field a claim is built with)
    _built_on: tuple = field(default=(), init=False, repr=False, compare=False)
    error_in: str | None = None
    statement_survives: bool | None = None

    def _fail(self, fieldname: str, problem: str) -> None:
        raise ClaimError(f"claim {self.id!r}: {fieldname}: {problem}")

    def __repr__(self) -> str:
        """What the claim is, in one line: id, label, expected, hypotheses and its statements by kind and
        name (no scenario's ``<... object at 0x...>``)."""
        stmts = ", ".join(f"{type(s).__name__}({s.name!r})" for s in self.statements)
        return (f"Claim(id={self.id!r}, label={self.label!r}, expected={self.expected!r}, domain={self.domain!r}, "
                f"statements=({stmts}{',' if len(self.statements) == 1 else ''}))")

    def _repr_html_(self) -> str:
        """The claim in a notebook: id, where it is printed, what it says, its hypotheses, and each
        statement as maths (``sympy.latex`` between ``\\(`` and ``\\)``, typeset by the notebook's MathJax).
        Every field is escaped."""
        from html import escape as esc

        from ..mathtex import statement_tex

        items = []
        for st in self.statements:
            tex = statement_tex(st)
            items.append(f"<li>{esc(type(st).__name__)} <i>{esc(st.name)}</i>"
                         + (f": \\({esc(tex)}\\)" if tex else "") + "</li>")
        hyp = ", ".join(self.domain.hypotheses())
        return (f"<div><b>{esc(self.id)}</b> ({esc(self.label)}), expected <b>{esc(self.expected)}</b><br>"
                f"<i>{esc(self.source.cite())}</i> {esc(self.summary)}<br>hypotheses: {esc(hyp)}"
                f"<ul>{''.join(items)}</ul>"
                + (f"<i>why it fails: {esc(self.reason)}</i>" if self.reason else "") + "</div>")

    def __post_init__(self):
        if not isinstance(self.id, str) or not ID_RE.match(self.id):
            raise ClaimError(f"claim id must look like 'paper/thm-4.1' (lower case, one '/', no space or control "
                             f"character), got {self.id!r}")
        if not isinstance(self.source, Source):
            self._fail("source", f"must be a Source(document, label, ...), got {self.source!r}")
        if not isinstance(self.domain, Domain):
            self._fail("domain", f"must be a Domain(...), got {self.domain!r}")
        if self.domain.problems:
            self._fail("domain", "; ".join(self.domain.problems))
        if isinstance(self.statements, Statement):
            set_field(self, "statements", (self.statements,))
        if isinstance(self.statements, list):
            set_field(self, "statements", tuple(self.statements))
        if not isinstance(self.statements, tuple) or not self.statements:
            self._fail("statements", f"must be a non-empty tuple of statements, got {self.statements!r}")
        names = set()
        for s in self.statements:
            if not isinstance(s, Statement):
                self._fail("statements", f"{s!r} is not a statement (Identity, Inequality, Rate, ...)")
            if s.name in names:
                self._fail("statements", f"two statements are named {s.name!r}")
            names.add(s.name)
            for path in getattr(s, "paths", None) or ((s.path,) if getattr(s, "path", None) is not None else ()):
                unknown = sorted(set(path.worst_over) - set(self.domain.params))
                if unknown:
                    self._fail("statements", f"{s.name!r}: the path of {path.param} takes the worst over "
                                             f"{', '.join(unknown)}, which are not parameters of the domain")
        if self.kind is None:
            set_field(self, "kind", statement_kinds(self.statements))
        self._validate_readings()
        self._validate_builds_on()
        if self.expected not in VERDICTS:
            self._fail("expected", f"must be one of {VERDICTS}, got {self.expected!r}")
        if self.expected == "violated":
            if not self.reason:
                self._fail("reason", "a claim expected 'violated' gives no reason (say in one line what is wrong)")
        if self.about is not None and self.about not in ABOUT:
            self._fail("about", f"must be one of {ABOUT} or None, got {self.about!r}")
        if not isinstance(self.algebra_why, str):
            self._fail("algebra_why", f"must be a string, got {self.algebra_why!r}")
        if self.algebra_why and self.about != "algorithm":
            self._fail("algebra_why", "says why a claim about an algorithm is checked on its algebra only; "
                                      "it needs about='algorithm'")
        problem = _error_fields_problem(self.error_in, self.statement_survives, self.expected)
        if problem:
            self._fail(*problem)
        if not isinstance(self.definitions, Mapping):
            self._fail("definitions", f"must be a mapping symbol -> expression, got {self.definitions!r}")
        for k, v in self.definitions.items():
            if not isinstance(k, sp.Symbol):
                self._fail("definitions", f"key {k!r} is not a SymPy Symbol")
            if str(k) in self.domain.params:
                self._fail("definitions", f"{k} is both a domain parameter and a definition")
        self._check_witness("witness", self.witness)
        if not isinstance(self.constants, tuple) or not all(isinstance(c, Constant) for c in self.constants):
            self._fail("constants", f"must be a tuple of Constant, got {self.constants!r}")
        self._validate_symbols()

    @property
    def existential(self) -> tuple[str, ...]:
        """The parameters some statement quantifies existentially (``exists=`` on a statement): the
        check chooses them, so a pinned point (``--at``) may leave them out."""
        out: list[str] = []
        for s in self.statements:
            out.extend(q for q in getattr(s, "exists", ()) if q not in out)
        return tuple(out)

    def _check_witness(self, where: str, witness) -> None:
        if witness is not None:
            try:
                self.domain.validate(witness)
            except DomainError as exc:
                self._fail(where, f"{exc} (the witness must be a point of the domain)")

    def _validate_readings(self) -> None:
        if isinstance(self.readings, Reading):
            set_field(self, "readings", (self.readings,))
        if isinstance(self.readings, list):
            set_field(self, "readings", tuple(self.readings))
        if not isinstance(self.readings, tuple) or not all(isinstance(r, Reading) for r in self.readings):
            self._fail("readings", f"must be a tuple of Reading, got {self.readings!r}")
        names = [r.name for r in self.readings]
        if len(set(names)) != len(names):
            self._fail("readings", f"two readings share a name: {names}")
        for s in self.statements:
            if s.reading and s.reading not in names:
                self._fail("statements", f"{s.name!r} is under reading {s.reading!r}, which the claim does not "
                                         f"declare (readings: {names or 'none'})")
        unlabelled = {s.name for s in self.statements if not s.reading}
        for r in self.readings:
            if not any(s.reading == r.name for s in self.statements):
                self._fail("readings", f"reading {r.name!r} has no statement (give one reading={r.name!r})")
            unknown = sorted(set(r.replaces) - unlabelled)
            if unknown:
                self._fail("readings", f"reading {r.name!r} replaces {unknown}, which are not unlabelled statements "
                                       f"of the claim")
            self._check_witness(f"readings: {r.name!r}: witness", r.witness)
        if self.statements and all(s.reading for s in self.statements):
            self._fail("statements", "every statement is under an alternative reading: the default reading "
                                     "needs at least one")

    def _validate_builds_on(self) -> None:
        if isinstance(self.builds_on, str):
            set_field(self, "builds_on", (self.builds_on,))
        if isinstance(self.builds_on, list):
            set_field(self, "builds_on", tuple(self.builds_on))
        if not isinstance(self.builds_on, tuple):
            self._fail("builds_on", f"must be a tuple of claim ids, got {self.builds_on!r}")
        for ref in self.builds_on:
            if not isinstance(ref, str) or not ID_RE.match(ref):
                self._fail("builds_on", f"{ref!r} is not a claim id (like 'paper/thm-4.1')")
            if ref == self.id:
                self._fail("builds_on", "a claim cannot build on itself")
        if len(set(self.builds_on)) != len(self.builds_on):
            self._fail("builds_on", f"an id appears twice: {list(self.builds_on)}")

    def resolve(self, claims: Mapping[str, "Claim"]) -> None:
        """Find the claims ``builds_on`` names in ``claims`` (id -> Claim); an id that is not there
        raises :class:`ClaimError` naming it. Called by the registry when it loads claims."""
        missing = [ref for ref in self.builds_on if ref not in claims]
        if missing:
            self._fail("builds_on", f"unknown claim id {missing[0]!r} (no loaded claim has it; the claims it "
                                    f"builds on must be registered or in the same claims module)")
        set_field(self, "_built_on", tuple(claims[ref] for ref in self.builds_on))

    @property
    def resolved(self) -> bool:
        """Whether the claims ``builds_on`` names have been found (always, when it names none)."""
        return len(self._built_on) == len(self.builds_on)

    @property
    def built_on(self) -> tuple["Claim", ...]:
        """The claims ``builds_on`` names (resolved by :meth:`resolve`; refused while unresolved)."""
        if not self.resolved:
            self._fail("builds_on", f"{list(self.builds_on)} not resolved: load the claim through the registry "
                                    "(dpverify.check, dpverify check) or call claim.resolve({id: claim, ...})")
        return self._built_on

    def _validate_symbols(self) -> None:
        allowed = set(self.domain.params) | {str(k) for k in self.definitions}
        def_syms = set()
        for v in self.definitions.values():
            def_syms |= symbol_names(sp.sympify(v))
        used: set[str] = set()
        measured = False        # a statement measured by a scenario may read any parameter of the point
        for s in self.statements:
            extra = set()
            for sc in (getattr(s, "scenario", None), getattr(s, "audit", None)):
                if sc is None:
                    continue
                extra |= set(getattr(sc, "observables", lambda: ())())
                validate = getattr(sc, "validate_for", None)
                if validate is not None:
                    msg = validate(self)
                    if msg:
                        self._fail(f"statement {s.name!r}: scenario", msg)
            if isinstance(s, Minimiser):
                extra |= {s.var, str(s.index)}
            for q in s.exists:
                if q not in self.domain.params:
                    self._fail(f"statement {s.name!r}: exists", f"{q!r} is not a parameter of the domain")
                if not isinstance(self.domain.params[q], (Real, Int)):
                    self._fail(f"statement {s.name!r}: exists", f"{q!r} must be a Real or Int parameter to be "
                                                                "quantified existentially")
            paths = getattr(s, "paths", None) or ((s.path,) if getattr(s, "path", None) is not None else ())
            measured = measured or any(getattr(s, k, None) is not None for k in ("scenario", "audit")) \
                or any(not p.symbolic for p in paths)          # a tied function reads the point
            used |= set(s.exists) | {n for p in paths for n in (p.param, *p.worst_over)}
            for p in paths:
                for n in (p.param, *p.worst_over, *p.tied):
                    if n not in self.domain.params:
                        self._fail(f"statement {s.name!r}: path", f"{n!r} is not a parameter of the domain "
                                                                  f"({', '.join(self.domain.params)})")
                unknown = sorted(p.tied_symbols() - set(self.domain.params))
                if unknown:
                    self._fail(f"statement {s.name!r}: path {p.param} -> {p.to}: tied",
                               f"symbol(s) {', '.join(unknown)} are not domain parameters")
                used |= p.tied_symbols()
            for fname, expr in s.expressions().items():
                names = self.expanded_names(expr)
                used |= names
                unknown = sorted(names - allowed - extra)
                if unknown:
                    self._fail(f"statement {s.name!r}: {fname}",
                               f"symbol(s) {', '.join(unknown)} are neither domain parameters "
                               f"({', '.join(self.domain.params)}) nor definitions"
                               + (f" nor scenario observables ({', '.join(sorted(extra))})" if extra else ""))
            trivial = getattr(s, "trivial", None)
            if trivial is not None:  # in the claim's own symbols (a scenario's observables are not at its points)
                used |= self.expanded_names(trivial)
                unknown = sorted(self.expanded_names(trivial) - allowed)
                if unknown:
                    self._fail(f"statement {s.name!r}: trivial",
                               f"symbol(s) {', '.join(unknown)} of {trivial} are neither domain parameters "
                               f"({', '.join(self.domain.params)}) nor definitions")
        del def_syms
        for r in self.domain.relations:
            used |= {str(v) for v in r.rel.free_symbols}
        unread = [n for n, p in self.domain.params.items() if isinstance(p, Choice) and n not in used]
        if unread and not measured:
            self._fail("domain", f"the Choice parameter {unread[0]!r} is used by no statement (a choice nothing "
                                 "reads only repeats the same check); remove it or use it in a statement")

    def expanded_names(self, expr) -> set[str]:
        """The symbol names of ``expr`` with the definitions it uses (transitively) -- the names of
        ``self.expand(expr)`` and the definitions' own, without substituting (substitution costs
        most of a paper's import time); definitions keyed by other than symbols are substituted."""
        if not all(isinstance(k, (str, sp.Symbol)) for k in self.definitions):
            return symbol_names(self.expand(expr))
        defs = {str(k): v for k, v in self.definitions.items()}
        names = symbol_names(sp.sympify(expr))
        todo = [n for n in names if n in defs]
        seen: set[str] = set()
        while todo:
            n = todo.pop()
            if n in seen:
                continue
            seen.add(n)
            more = symbol_names(sp.sympify(defs[n]))
            names |= more
            todo.extend(m for m in more if m in defs and m not in seen)
        return names

    def corrected(self, **changes: Any) -> "Claim":
        """The ``-corrected`` claim of this (printed) claim: the same claim with ``changes`` applied.

        The new claim has id ``<this id>-corrected`` and this claim's source; every other field
        (domain, statements, kind, definitions, constants, summary) is kept unless given in
        ``changes``. ``expected`` is reset to ``"holds"``, and ``reason``, ``witness``, ``error_in``
        and ``statement_survives`` (which say why and where the printed claim fails) are cleared,
        unless given; so are ``readings``
        when new ``statements`` are given. The result is
        validated as any claim is; a name that is not a field of :class:`Claim`, or ``id`` /
        ``source``, raises :class:`ClaimError` naming it.

        Example (the printed bound is wrong; the corrected one differs in its statement)::

            BOUND = Claim(id="mine/thm-1", source=Source("my notes", "Theorem 1"),
                          domain=Domain(x=Real(gt=0)),
                          statements=(Inequality("x <= x^2", lhs=x, rhs=x**2),),
                          expected="violated", reason="fails for x < 1", witness={"x": 0.5})
            BOUND_CORRECTED = BOUND.corrected(
                summary="x <= x^2 + 1/4 for every x > 0.",
                statements=(Inequality("x <= x^2 + 1/4", lhs=x, rhs=x**2 + sp.Rational(1, 4)),))
        """
        names = {f.name for f in fields(self) if f.init}
        for name in changes:
            if name in ("id", "source"):
                self._fail(f"corrected({name}=...)", f"a corrected claim keeps the printed claim's {name} "
                           f"(its id is {self.id + '-corrected'!r}); build a Claim(...) to change it")
            if name not in names:
                self._fail(f"corrected({name}=...)", f"{name!r} is not a field of Claim "
                           f"(fields: {', '.join(sorted(names - {'id', 'source'}))})")
        reset = {"expected": "holds", "reason": "", "witness": None, "error_in": None, "statement_survives": None}
        if "statements" in changes:   # readings name statements of the printed claim
            reset["readings"] = ()
        return replace(self, id=self.id + "-corrected", **{**reset, **changes})

    @property
    def label(self) -> str:
        return self.source.label

    @property
    def paper(self) -> str:
        return self.id.split("/")[0]

    def expand(self, expr: sp.Basic) -> sp.Basic:
        """Substitute the claim's definitions (e.g. gamma = 1 - 1/kappa) until none is left."""
        return expand_definitions(expr, self.definitions)

    def to_json(self) -> dict:
        return {
            "id": self.id,
            "label": self.label,
            "source": self.source.to_json(),
            "kind": self.kind,
            "statements": [f"{type(s).__name__}: {s.name}" for s in self.statements],
            "hypotheses": self.domain.hypotheses(),
            "expected": self.expected,
            "reason": self.reason,
            "summary": self.summary,
            "witness": None if self.witness is None else dict(self.witness),
            "about": self.about,
            "algebra_why": self.algebra_why,
            "builds_on": list(self.builds_on),
            "error_in": self.error_in,
            "statement_survives": self.statement_survives,
            "readings": [r.to_json() for r in self.readings],
        }
