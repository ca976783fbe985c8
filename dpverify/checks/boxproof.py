"""Box proof (opt-in, ``dpverify check --prove-box``): an inequality proved on the claim's search box
by interval branch-and-bound in ball arithmetic (python-flint ``arb``).

The statement's ``rhs - lhs`` (the claim's definitions substituted) is printed once as ball-arithmetic
source (:mod:`dpverify.arb_source`, the printer of the violation certificates) and evaluated on boxes
of its parameters: each real parameter over its search box (clipped to its bounds), each integer over
its integer range, each numeric choice at each of its values. On a box, the enclosure of ``rhs - lhs``
is the natural one (every operation on balls) and, where the expression is smooth (no piecewise,
``Abs``, ``Min``/``Max``, floor, sum), also the mean-value form ``f(m) + sum_i f_i(box) (x_i - m_i)``
(SymPy's derivatives, evaluated on the box): a box is **certified** when an enclosure lies on the
claimed side (``>= 0``, or ``> 0`` for a strict inequality), **wrong-side** when one lies entirely on
the other, and is split otherwise, along its widest dimension in the scaled coordinates (each
parameter's search box mapped to [0, 1], logarithmically where the domain samples it log-uniformly;
an integer range is split between two integers), the widest boxes first.

The domain's relations between parameters are decided on each box in ball arithmetic: a box on which
one is certainly false is discarded (it holds no point of the claim), one where it is uncertain is
kept (conservative: the proof then covers more than the claim's points). A relation with a parameter
the statement does not use is followed to that parameter (up to :data:`MAX_DIMS` parameters in all).

Outcomes (``Evidence``):

* every box certified: ``verified``, with :class:`~dpverify.verdict.Basis` ``proof-on-box`` whose
  ``on`` states the scope (``x in [0.001, 10] (log), n in [1, 30]``); the scope also in
  ``data["scope"]``. It is a proof on the search box only, never on the whole domain;
* a wrong-side box (on which every relation is certainly true; one where a relation is undecided is
  split further, so that the parts outside the hypotheses are discarded): its centre is checked as a point of the claim (the sampled check's mpmath
  decision, :func:`dpverify.checks.sampled.margin_function`); only a failure confirmed there makes the
  evidence ``violated`` (with the point as a replayable counterexample). The wrong-side boxes are
  reported (``data["wrong_side"]``) either way;
* the budget spent (``Config.box_budget`` boxes, deterministic; ``Config.box_seconds`` of the thread's
  CPU time, a safety cap): ``inconclusive``, with the smallest uncertified boxes in
  ``data["uncertified"]`` (where the proof got stuck: a touching point, a cancellation);
* a statement outside its reach (a sequence, an existential parameter, more than :data:`MAX_DIMS`
  parameters, an expression with no ball-arithmetic form): ``inconclusive``, saying why.

Sound by construction: arb's enclosures contain every value of the expression on the box, rounding
included, so two nearly equal sides are never certified by rounding; a box it cannot decide is split
or left uncertified, never counted.
"""
from __future__ import annotations

import heapq
import itertools
import math
import threading
from dataclasses import dataclass
from fractions import Fraction

import sympy as sp

from ..arb_source import Unprintable, evaluator, printer_for, undecided
from ..numeric import jsonable
from ..search import EvaluationError
from ..claims import Choice, Inequality, Int, Seq, symbol_names
from ..verdict import Basis, Evidence
from .base import Clock, Config, SymbolicTimeout, thread_cpu_clock, time_limit
from .kind import CheckKind

MAX_DIMS = 6
PREC = 128  # bits of the balls (their width comes from the boxes, not from rounding)
TINY = 2.0 ** -100  # a real interval narrower than this (relative) is a point at PREC bits
REPORT = 5  # boxes listed in the evidence (smallest uncertified, largest wrong-side)
MAX_CHOICES = 64  # combinations of choice values enumerated
DERIVATIVE_SECONDS = 10.0  # SymPy's CPU time for the derivatives of the mean-value form
_SMOOTH = (sp.Symbol, sp.Number, sp.NumberSymbol, sp.Add, sp.Mul, sp.Pow, sp.exp, sp.log, sp.sin, sp.cos, sp.tan,
           sp.atan, sp.asin, sp.acos, sp.sinh, sp.cosh, sp.tanh, sp.asinh, sp.acosh, sp.atanh, sp.erf, sp.erfc,
           sp.gamma, sp.loggamma, sp.LambertW)


def applies(stmt) -> bool:
    return isinstance(stmt, Inequality)


@dataclass(frozen=True)
class Dim:
    """One coordinate of the boxes: ``kind`` is ``real``, ``int`` or ``choice`` (``values``)."""

    name: str
    kind: str
    lo: Fraction | int = 0
    hi: Fraction | int = 0
    log: bool = False
    values: tuple = ()

    def describe(self) -> str:
        if self.kind == "choice":
            return f"{self.name} in {list(self.values)}"
        if self.kind == "int":
            return f"{self.name} in {self.lo}..{self.hi} (integers)"
        return f"{self.name} in [{_num(self.lo)}, {_num(self.hi)}]" + (" (log)" if self.log else "")

    def width(self, lo, hi) -> float:
        """The interval's share of the dimension, in the scaled coordinate (log where ``log``)."""
        if self.kind == "choice" or hi == lo:
            return 0.0
        if self.kind == "real" and float((hi - lo) / max(abs(lo), abs(hi))) < TINY:
            return 0.0  # narrower than the balls' precision: nothing left to split
        if self.log:
            return math.log1p(float((hi - lo) / lo)) / math.log(self.hi / self.lo)
        return float(hi - lo) / float(self.hi - self.lo)

    def split(self, lo, hi):
        """Two intervals covering ``[lo, hi]`` exactly (integers: two integer ranges)."""
        if self.kind == "int":
            m = (lo + hi) // 2
            return (lo, m), (m + 1, hi)
        m = None
        if self.log:
            g = Fraction(math.sqrt(float(lo)) * math.sqrt(float(hi)))
            m = g if lo < g < hi else None
        if m is None:
            m = (lo + hi) / 2
        return (lo, m), (m, hi)

    def shown(self, lo, hi):
        """``[lo, hi]`` as the evidence shows it: a choice's value, an integer range's single value as such."""
        if self.kind == "choice":
            return lo
        if self.kind == "int":
            return int(lo) if lo == hi else [int(lo), int(hi)]
        return [float(lo), float(hi)]

    def middle(self, lo, hi):
        """The centre of ``[lo, hi]`` as a value of the parameter (a float; an integer rounded down; a choice's
        value; geometric on a log scale)."""
        if self.kind == "int":
            return int((lo + hi) // 2)
        if self.kind == "real" and self.log and hi > lo:
            return math.sqrt(float(lo)) * math.sqrt(float(hi))
        return lo if self.kind == "choice" else float((lo + hi) / 2)


def _num(v) -> str:
    return f"{float(v):.6g}"


def written_fraction(v) -> Fraction:
    """A box end as written, exactly (``1e-3`` is 1/1000, not the double nearest it)."""
    return Fraction(repr(float(v))) if isinstance(v, float) else Fraction(v)


class NotApplicable(Exception):
    """The statement is outside the box proof's reach; the message says why."""


def related(claim, names: set) -> tuple[set, list]:
    """``names`` with every parameter a domain relation ties to them (followed transitively, relations on a
    sequence left out), and those relations, in the order found."""
    params = claim.domain.params
    names, relations = set(names), []
    while True:
        more = [r for r in claim.domain.relations if r not in relations and set(r.names) & names
                and not any(isinstance(params[n], Seq) for n in r.names)]
        if not more:
            return names, relations
        relations += more
        for r in more:
            names |= set(r.names)


class Problem:
    """The statement's ``rhs - lhs`` as ball-arithmetic functions on boxes of its parameters."""

    def __init__(self, stmt, claim):
        if stmt.exists:
            raise NotApplicable(f"{', '.join(stmt.exists)} is quantified existentially")
        diff = claim.expand(stmt.rhs) - claim.expand(stmt.lhs)
        if diff.has(sp.Indexed):
            raise NotApplicable("the statement indexes a sequence")
        params = claim.domain.params
        names, relations = related(claim, set(symbol_names(diff)))
        seqs = sorted(n for n in names if isinstance(params.get(n), Seq))
        if seqs:
            raise NotApplicable(f"the statement uses the sequence {seqs[0]}")
        if len(names) > MAX_DIMS:
            raise NotApplicable(f"{len(names)} parameters (the box proof takes at most {MAX_DIMS})")
        self._build(claim, diff, stmt.strict, [self._dim(n, params[n]) for n in sorted(names)],
                    [(r.describe(), r.rel) for r in relations])

    @classmethod
    def over(cls, claim, diff, dims, relations=(), strict=False) -> "Problem":
        """The problem ``diff > 0`` (``strict``) or ``diff >= 0`` on boxes of ``dims`` only, every other
        symbol already replaced by a number; ``relations``: ``[(description, SymPy relational)]`` in the
        dims' names. (:mod:`~dpverify.checks.existsproof` proves with it that no value of one parameter
        meets a statement at a fixed point.)"""
        self = cls.__new__(cls)
        self._build(claim, diff, strict, list(dims), list(relations))
        return self

    def _build(self, claim, diff, strict, dims, relations):
        self.claim, self.strict, self.dims = claim, strict, dims
        self.own = set(symbol_names(diff))
        printer = printer_for(claim.domain)
        try:
            self.f = evaluator(printer(diff))
            self.relations = [(text, evaluator(printer.cond(rel, {}))) for text, rel in relations]
        except Unprintable as exc:
            raise NotApplicable(f"no ball-arithmetic form: {exc}") from None
        self.gradient = self._gradient(diff, printer)
        self.Undecided = undecided()

    @staticmethod
    def dim(name, p) -> Dim:
        """The box coordinate of the claim's parameter ``p`` named ``name`` (its search box clipped to its
        bounds; :class:`NotApplicable` when they do not meet)."""
        return Problem._dim(name, p)

    @staticmethod
    def _dim(name, p) -> Dim:
        if isinstance(p, Choice):
            if not all(isinstance(v, (int, float)) and not isinstance(v, bool) for v in p.values):
                raise NotApplicable(f"{name} takes non-numeric values {list(p.values)}")
            return Dim(name, "choice", values=tuple(p.values))
        lo, hi = p.box()
        if isinstance(p, Int):
            lo = max(lo, p.ge) if p.ge is not None else lo
            hi = min(hi, p.le) if p.le is not None else hi
            if lo > hi:
                raise NotApplicable(f"{name}'s search range {p.box()} lies outside its bounds")
            return Dim(name, "int", int(lo), int(hi))
        lo, hi = written_fraction(lo), written_fraction(hi)
        for bound in (p.gt, p.ge):
            lo = max(lo, written_fraction(bound)) if bound is not None else lo
        for bound in (p.lt, p.le):
            hi = min(hi, written_fraction(bound)) if bound is not None else hi
        if lo >= hi:
            raise NotApplicable(f"{name}'s search range {p.box()} lies outside its bounds")
        return Dim(name, "real", lo, hi, bool(p.log) and lo > 0)

    def _gradient(self, diff, printer):
        """``[(dim index, d/dx_i as a function)]`` for the mean-value form, or None where the expression
        is not smooth (or SymPy is slow)."""
        if not all(isinstance(a, _SMOOTH) for a in sp.preorder_traversal(diff)):
            return None
        out = []
        try:
            with time_limit(DERIVATIVE_SECONDS):
                for i, d in enumerate(self.dims):
                    if d.kind != "choice":
                        g = sp.diff(diff, sp.Symbol(d.name))
                        if g == 0:
                            out.append((i, None))
                            continue
                        forms = {g, sp.cancel(sp.together(g))}
                        out.append((i, [evaluator(printer(h)) for h in forms]))
        except (SymbolicTimeout, Unprintable, TypeError, ValueError, RecursionError):
            return None
        return out

    def boxes(self):
        """The starting boxes: the search box at each combination of choice values."""
        ranges = [[(v, v) for v in d.values] if d.kind == "choice" else [(d.lo, d.hi)] for d in self.dims]
        combos = list(itertools.product(*ranges))
        if len(combos) > MAX_CHOICES:
            raise NotApplicable(f"{len(combos)} combinations of choice values (at most {MAX_CHOICES})")
        return [tuple(c) for c in combos]

    def scope(self) -> str:
        return ", ".join(d.describe() for d in self.dims) or "(no parameter)"

    # ------------------------------------------------------------------ ball arithmetic on a box
    def _ball(self, d: Dim, lo, hi, centre=False):
        from flint import arb, fmpq

        if d.kind == "int" and lo == hi:
            return int(lo)
        if d.kind == "choice":
            return arb(fmpq(*Fraction(lo).as_integer_ratio()))
        if centre or lo == hi:
            m = Fraction(lo + hi) / 2
            return arb(fmpq(m.numerator, m.denominator))
        a, b = Fraction(lo), Fraction(hi)
        return arb(fmpq(a.numerator, a.denominator)).union(arb(fmpq(b.numerator, b.denominator)))

    def _point(self, box, centre=False) -> dict:
        return {d.name: self._ball(d, lo, hi, centre) for d, (lo, hi) in zip(self.dims, box)}

    def _eval(self, fn, P):
        try:
            return fn(P)
        except (self.Undecided, ArithmeticError, ValueError, TypeError, IndexError, OverflowError):
            return None

    def inside(self, box) -> bool | None:
        """Whether the box holds points of the claim: False when a relation is certainly false on it,
        True when every one is certainly true, None when some is undecided."""
        P, out = self._point(box), True
        for _, rel in self.relations:
            v = self._eval(rel, P)
            if v is False:
                return False
            if v is not True:
                out = None
        return out

    def _derivative(self, forms, P):
        """The intersection of the enclosures of one derivative's forms (0: it vanishes identically)."""
        from flint import arb

        if forms is None:
            return arb(0)
        out = None
        for fn in forms:
            e = self._eval(fn, P)
            if e is not None and e.is_finite():
                out = e if out is None else out.intersection(e)
        return out

    def _mean_value(self, box, grads):
        """``f(m) + sum_i grads_i (box_i - m_i)`` (``grads``: enclosures of the derivatives on a box
        containing ``box``), or None."""
        total = self._eval(self.f, self._point(box, centre=True))
        for i, gi in grads.items():
            lo, hi = box[i]
            if total is None or gi is None:
                return None
            if lo != hi:
                d = self.dims[i]
                total = total + gi * (self._ball(d, lo, hi) - self._ball(d, lo, hi, centre=True))
        return total

    def enclosures(self, box):
        """``(lower, upper)``: enclosures of ``rhs - lhs`` whose lower ends bound its minimum on the box
        from below, and whose upper ends bound its maximum from above. Beside the natural one and the
        mean-value form: where a derivative has one sign on the whole box, the minimum (maximum) lies on
        the face at that dimension's lower or upper end, which is evaluated instead."""
        P = self._point(box)
        natural = self._eval(self.f, P)
        lower, upper = [natural], [natural]
        if self.gradient is not None and any(lo != hi for lo, hi in box):
            grads = {i: self._derivative(g, P) for i, g in self.gradient if box[i][0] != box[i][1]}
            mv = self._mean_value(box, grads)
            lower.append(mv)
            upper.append(mv)
            for out, sign in ((lower, 1), (upper, -1)):
                face = list(box)
                for i, gi in grads.items():
                    if gi is not None and (sign * gi >= 0 or sign * gi <= 0):
                        end = box[i][0] if sign * gi >= 0 else box[i][1]
                        face[i] = (end, end)
                if face != list(box):
                    face = tuple(face)
                    out.append(self._eval(self.f, self._point(face)))
                    out.append(self._mean_value(face, {i: g for i, g in grads.items() if face[i][0] != face[i][1]}))
        return [e for e in lower if e is not None], [e for e in upper if e is not None]

    def decide(self, box) -> str:
        """``certified``, ``wrong`` or ``split`` for one box."""
        lower, upper = self.enclosures(box)
        if any((e > 0) if self.strict else (e >= 0) for e in lower):
            return "certified"
        if any((e <= 0) if self.strict else (e < 0) for e in upper):
            return "wrong"
        return "split"

    def widest(self, box, dims=None) -> tuple[float, int]:
        return max(((d.width(lo, hi), i) for i, (d, (lo, hi)) in enumerate(zip(self.dims, box))
                    if dims is None or d.name in dims), default=(0.0, -1))

    def split(self, box, inside=True):
        """Two boxes covering ``box``, split along its widest dimension among the statement's own
        parameters (among all, when a relation is undecided on it and a wider one only it uses)."""
        every = self.widest(box)
        own = self.widest(box, self.own) if self.own else every
        w, i = own if inside is True or own[0] >= every[0] else every
        if w == 0:
            return None
        a, b = self.dims[i].split(*box[i])
        return box[:i] + (a,) + box[i + 1:], box[:i] + (b,) + box[i + 1:]

    def describe(self, box) -> dict:
        """The box as ``{name: [lo, hi]}`` (a choice's value, an integer range's single value as such)."""
        return {d.name: d.shown(lo, hi) for d, (lo, hi) in zip(self.dims, box)}

    def centre(self, box) -> dict:
        """The box's centre as a point of the claim's parameters (floats; integers rounded down)."""
        return {d.name: d.middle(lo, hi) for d, (lo, hi) in zip(self.dims, box)}


@dataclass
class Outcome:
    """What the branch-and-bound did: ``status`` ``certified``, ``wrong-side`` or ``budget``."""

    status: str
    boxes: int
    certified: int
    discarded: int
    uncertain_hypotheses: int
    wrong: list
    uncertified: list
    seconds_cap: bool = False
    hopeless: bool = False


def branch_and_bound(problem: Problem, budget: int, seconds: float, certify_only: bool = False) -> Outcome:
    """Decide boxes widest first until none is left or ``budget`` boxes (or ``seconds`` of this thread's
    CPU time) are spent. ``certify_only``: the caller needs a certificate of the whole box and nothing else (a
    wrong-side box would not change its verdict), so the search stops (``hopeless``) as soon as it cannot end
    certified within the budget: a box that cannot be split, or more boxes waiting than boxes left (each needs
    at least one more decision)."""
    from flint import ctx

    cpu = thread_cpu_clock(threading.get_ident())
    stop = cpu() + seconds
    counter = itertools.count()
    heap = [(-problem.widest(b)[0], next(counter), b) for b in problem.boxes()]
    heapq.heapify(heap)
    done = certified = discarded = uncertain = 0
    wrong, stuck, capped, hopeless = [], [], False, False
    old = ctx.prec
    ctx.prec = PREC
    try:
        while heap and done < budget:
            if done % 64 == 0 and cpu() > stop:
                capped = True
                break
            if certify_only and (stuck or len(heap) > budget - done):
                hopeless = True
                break
            _, _, box = heapq.heappop(heap)
            done += 1
            inside = problem.inside(box)
            if inside is False:
                discarded += 1
                continue
            verdict = problem.decide(box)
            if verdict == "certified":
                certified += 1
                uncertain += inside is None
            elif verdict == "wrong" and (inside is True or (halves := problem.split(box, None)) is None):
                wrong.append(box)  # points of the claim (every hypothesis certain on it) fail, or a point
            elif verdict == "wrong":  # split until the hypotheses decide which parts hold points of the claim
                for b in halves:
                    heapq.heappush(heap, (-problem.widest(b)[0], next(counter), b))
            elif (halves := problem.split(box, inside)) is None:  # a point (at the balls' precision)
                stuck.append(box)
            else:
                for b in halves:
                    heapq.heappush(heap, (-problem.widest(b)[0], next(counter), b))
    finally:
        ctx.prec = old
    left = stuck + [b for _, _, b in heap]
    status = "wrong-side" if wrong else "certified" if not left else "budget"
    return Outcome(status, done, certified, discarded, uncertain, wrong, left, capped, hopeless)


def box_middle(p):
    """The value a parameter the statement does not use takes beside a box's centre: its first choice, the
    lower end of an integer's search box, else the middle of its search box (geometric on a log scale)."""
    if isinstance(p, Choice):
        return p.values[0]
    if isinstance(p, Int):
        return int(p.box()[0])
    lo, hi = p.box()
    return math.sqrt(lo * hi) if p.log else (lo + hi) / 2


def completed(claim, point: dict, sequences: bool = True) -> dict | None:
    """``point`` completed with a value of every parameter the statement does not use (:func:`box_middle`;
    a sequence of its element's middles, or None when not ``sequences``), so that the claim's hypotheses can
    be checked at it."""
    out = dict(point)
    for name, p in claim.domain.params.items():
        if name in out:
            continue
        if isinstance(p, Seq):
            if not sequences:
                return None
            continue
        out[name] = box_middle(p)
    for name, p in claim.domain.params.items():
        if isinstance(p, Seq) and name not in out:
            out[name] = [box_middle(p.elem)] * int(out[p.length])
    return out


def first_confirmed(stmt, claim, cfg: Config, points, errors=(EvaluationError,)):
    """The first of the completed ``points`` that is a point of the claim where the sampled check's mpmath
    decision confirms the failure: ``(point, margin)``, or None (a point whose margin raises one of
    ``errors`` is passed over). The box proofs confirm a wrong-side box at its centre with it."""
    from .sampled import margin_function

    margin = margin_function(stmt, claim, cfg)
    for point in points:
        if not claim.domain.contains(point):
            continue
        try:
            mg = margin(point)
        except errors:
            continue
        if mg.m < 0 and not mg.unresolved:
            return point, mg
    return None


def check(stmt, claim, cfg: Config) -> Evidence:
    clock = Clock()
    name = stmt.name
    try:
        problem = Problem(stmt, claim)
        problem.boxes()
    except NotApplicable as exc:
        return Evidence("boxproof", name, "inconclusive", seconds=clock.seconds,
                        basis=Basis("proof-on-box", "not attempted"), detail=f"box proof not attempted: {exc}")
    scope = problem.scope()
    out = branch_and_bound(problem, cfg.box_budget, cfg.box_seconds)
    rel = ">" if stmt.strict else ">="
    data = {"scope": scope, "boxes": out.boxes, "certified": out.certified, "discarded": out.discarded,
            "mean_value_form": problem.gradient is not None}
    basis = Basis("proof-on-box", scope)
    hyp = (f"; {out.discarded} boxes outside the hypotheses discarded" if out.discarded else "") + (
        f"; on {out.uncertain_hypotheses} boxes a hypothesis was undecided (kept)" if out.uncertain_hypotheses else "")
    if out.status == "certified":
        return Evidence("boxproof", name, "verified", samples=out.boxes, seconds=clock.seconds, basis=basis, data=data,
                        detail=f"proved on the box {scope}: rhs - lhs {rel} 0 in ball arithmetic (arb, {PREC} bits) on "
                               f"each of {out.certified} boxes{hyp}")
    if out.status == "wrong-side":
        wrong = sorted(out.wrong, key=lambda b: -problem.widest(b)[0])
        data["wrong_side"] = [problem.describe(b) for b in wrong[:REPORT]]
        data["wrong_side_boxes"] = len(wrong)
        found = first_confirmed(stmt, claim, cfg, (completed(claim, problem.centre(b)) for b in wrong))
        where = f"{len(wrong)} box(es) where rhs - lhs {rel} 0 fails on the whole box, e.g. {data['wrong_side'][0]}"
        if found is not None:
            point, mg = found
            return Evidence("boxproof", name, "violated", samples=out.boxes, min_margin=mg.m, value=mg.value,
                            bound=mg.bound, point=jsonable(point),
                            counterexample={"params": jsonable(point), "seed": cfg.seed},
                            seconds=clock.seconds, basis=basis, data=data,
                            detail=f"{where}; its centre confirmed in mpmath; replay with --at")
        return Evidence("boxproof", name, "inconclusive", samples=out.boxes, seconds=clock.seconds, basis=basis,
                        data=data, detail=f"{where}; no centre confirmed as a point of the claim (candidates only)")
    small = sorted(out.uncertified, key=lambda b: problem.widest(b)[0])
    data["uncertified"] = [problem.describe(b) for b in small[:REPORT]]
    data["uncertified_boxes"] = len(small)
    why = f"{cfg.box_seconds:g} s of CPU time" if out.seconds_cap else f"the budget of {cfg.box_budget} boxes"
    return Evidence("boxproof", name, "inconclusive", samples=out.boxes, seconds=clock.seconds, basis=basis,
                    data=data, detail=f"box proof gave up after {why}: {out.certified} boxes certified, "
                                      f"{len(small)} uncertified, the smallest {data['uncertified'][0]}{hyp}")


KIND = CheckKind(
    name="boxproof", applies=applies, check=check, basis_kinds=("proof-on-box",), can_refute=True,
    certificate="analytic", stage="fallback", enabled=lambda cfg: cfg.prove_box and cfg.at is None,
    summary="interval branch-and-bound in ball arithmetic on the search box (opt-in: --prove-box), where no other "
            "check proved or refuted")
