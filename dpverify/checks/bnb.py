"""Interval branch-and-bound over a whole domain: ``f >= 0`` (or ``> 0``) on every point of a product of
parameter ranges, bounded or not, cut by relations.

Boxes are products of closed ranges whose ends may be infinite (``[1, inf]`` stands for every real
``x >= 1``); ``f`` is enclosed on a box in the extended interval arithmetic of
:mod:`dpverify.xinterval` (ends are exact ``arb`` points). On a box, in this order:

* the **natural enclosures** of the forms of ``f`` (:func:`dpverify.proofforms.forms`): a lower end
  above 0 (at or above, for ``>=``) **certifies** the box;
* the **monotone face**: where a derivative of ``f`` (:func:`~dpverify.proofforms.derivative_forms`,
  the intersection of its forms' enclosures) has one sign on the whole box, ``f``'s minimum on the box
  lies on the face at that parameter's lower (``>= 0``) or upper end; the face, every such parameter at
  its end, is enclosed instead. A face at an infinite end is the limit there: the forms of
  :func:`~dpverify.proofforms.at_infinity` evaluated at ``u = 0``, accepted only when no operation met a
  singularity (:data:`dpverify.xinterval.SINGULAR`) and the form has no jump (floor, sign, piecewise), so
  that the value is the limit by continuity;
* the **mean-value form** ``f(c) + sum_i f_i(box) (x_i - c_i)`` on a bounded box.

A box whose upper enclosure lies on the wrong side, on which every relation is certainly true, is
**wrong-side**; one on which a relation is certainly false is discarded; otherwise it is split in two
along its widest parameter, widths measured in a compactified coordinate (a bounded range linearly or,
when positive and wide, logarithmically; an unbounded side ``[a, inf]`` by ``t = y/(1 + y)`` with ``y``
the distance from ``a`` in units of the parameter's scale, logarithmic for a positive range), so that an
unbounded side is cut at ``a + scale``, ``a + 3 scale``, ... (``a 16^1``, ``a 16^3``, ... on a log scale)
and its far tail is reached in a few cuts. The budget is a number of boxes: the same outcome on every
machine. The outcome records the tree (every split and how every leaf was decided), which a standalone
``check.py`` replays.
"""
from __future__ import annotations

import heapq
import itertools
import math
from dataclasses import dataclass, field
from fractions import Fraction

import sympy as sp

from .. import proofforms, xinterval
from ..arb_source import HELPERS, ArbSource, Unprintable

PREC = 128


@dataclass(frozen=True)
class Var:
    """One parameter's range: ``lo``/``hi`` exact (``None``: unbounded), ``kind`` ``real`` or ``int``
    (an ``int`` is split between integers and evaluated as an integer where it is a single one), ``log``:
    a positive range split logarithmically, ``scale``: the unit of an unbounded side's cuts."""

    name: str
    kind: str = "real"
    lo: Fraction | None = None
    hi: Fraction | None = None
    log: bool = False
    scale: Fraction = Fraction(1)
    lo_open: bool = False
    hi_open: bool = False

    def describe(self) -> str:
        lo = "-inf" if self.lo is None else _num(self.lo)
        hi = "inf" if self.hi is None else _num(self.hi)
        left = "(" if self.lo is None or self.lo_open else "["
        right = ")" if self.hi is None or self.hi_open else "]"
        return f"{self.name} in {left}{lo}, {hi}{right}" + (" (integers)" if self.kind == "int" else "")

    # ------------------------------------------------------------------ compactified coordinate
    def _t(self, x) -> float:
        """The coordinate in [0, 1] of a point (``None`` at the ends)."""
        if x is None:
            raise ValueError
        lo, hi = self.lo, self.hi
        if lo is not None and hi is not None:
            if self.log and lo > 0 and hi / lo > 16:
                return (_log(x) - _log(lo)) / (_log(hi) - _log(lo))
            return _float((x - lo) / (hi - lo))
        if lo is not None:
            y = self._dist(x - lo, lo)
            return y / (1 + y)
        if hi is not None:
            y = self._dist(hi - x, -hi)
            return 1 - y / (1 + y)
        y = _float(x / self.scale)
        return 0.5 + y / (2 * (1 + abs(y)))

    def _dist(self, d, end) -> float:
        if self.log and end > 0:
            return (_log(d + end) - _log(end)) / math.log(16)
        return _float(d / self.scale)

    def _x(self, t: float) -> Fraction:
        """A point of coordinate ``t`` (the inverse of :meth:`_t`), rounded to a short dyadic."""
        lo, hi = self.lo, self.hi
        if lo is not None and hi is not None:
            if self.log and lo > 0 and hi / lo > 16:
                x = float(lo) * math.exp(t * math.log(hi / lo))
            else:
                x = float(lo) + t * float(hi - lo)
        elif lo is not None:
            y = min(t / (1 - t), 200.0)
            x = float(lo) * 16 ** y if self.log and lo > 0 else float(lo) + y * float(self.scale)
        elif hi is not None:
            y = min((1 - t) / t, 200.0)
            x = float(hi) * 16 ** -y if self.log and hi < 0 else float(hi) - y * float(self.scale)
        else:
            z = 2 * t - 1
            x = max(min(z / max(1 - abs(z), 1e-200), 1e200), -1e200) * float(self.scale)
        return dyadic(x)

    def width(self, a, b) -> float:
        if self.kind == "int" and a is not None and b is not None and a == b:
            return 0.0
        ta = 0.0 if a is None else self._t(a)
        tb = 1.0 if b is None else self._t(b)
        return max(tb - ta, 0.0)

    def split(self, a, b):
        """A point strictly inside ``[a, b]`` (integers: the last one of the lower half), or None."""
        ta = 0.0 if a is None else self._t(a)
        tb = 1.0 if b is None else self._t(b)
        m = self._x((ta + tb) / 2)
        if self.kind == "int":
            if a is not None and b is not None:
                if b - a < 1:
                    return None
                m = (a + b) // 2
            m = Fraction(math.floor(m))
            if a is not None and m < a:
                m = a
            if b is not None and m >= b:
                m = b - 1
            return m
        if (a is not None and m <= a) or (b is not None and m >= b):
            if a is None or b is None:
                return None
            m = (a + b) / 2
            if not a < m < b:
                return None
        return m


def _log(q: Fraction) -> float:
    """``log`` of a positive Fraction of any size."""
    q = Fraction(q)
    return math.log(q.numerator) - math.log(q.denominator)


def _float(q) -> float:
    try:
        return float(q)
    except OverflowError:
        return math.copysign(1e308, q)


def _num(v) -> str:
    return f"{float(v):.6g}"


def dyadic(x: float) -> Fraction:
    """``x`` rounded to 4 significant bits (exact in binary, short to print)."""
    if x == 0 or not math.isfinite(x):
        return Fraction(0) if x == 0 else Fraction(int(math.copysign(2 ** 1000, x)))
    m, e = math.frexp(x)
    return Fraction(round(m * 16)) * Fraction(2) ** (e - 4)


@dataclass
class Outcome:
    """``status``: ``certified``, ``wrong-side`` or ``budget``; ``tree``: the decisions (see
    :meth:`Prover.run`)."""

    status: str
    boxes: int
    certified: int = 0
    discarded: int = 0
    wrong: list = field(default_factory=list)
    uncertified: list = field(default_factory=list)
    tree: list | None = None
    methods: dict = field(default_factory=dict)


class Prover:
    """``f > 0`` (``strict``) or ``f >= 0`` on boxes of ``variables``, with ``relations``
    ``[(text, SymPy relational)]`` cutting the domain; ``ints``: names of integer parameters the expression
    indexes with (they stay Python integers)."""

    def __init__(self, f, variables, relations=(), strict=False):
        self.f, self.vars, self.strict = sp.sympify(f), list(variables), strict
        self.index = {v.name: i for i, v in enumerate(self.vars)}
        self.syms = {v.name: sp.Symbol(v.name, real=True) for v in self.vars}
        names = [v.name for v in self.vars]
        self._u = {n: sp.Symbol(f"u{i}_", real=True) for i, n in enumerate(names)}
        self.printer = ArbSource(real=[v.name for v in self.vars if v.kind == "real"] + [str(s) for s in self._u.values()],
                                 ints=[v.name for v in self.vars if v.kind == "int"])
        self.ns = xinterval.namespace(HELPERS)
        self.Undecided = self.ns["Undecided"]
        free = {str(s) for s in self.f.free_symbols}
        self.f = self.f.xreplace({s: self.syms[str(s)] for s in self.f.free_symbols if str(s) in self.syms})
        self.forms = [self._compile(g) for g in proofforms.forms(self.f)]
        self.rels = [self._cond(r) for _, r in relations]
        self._grads = {}
        self._free = free
        self.continuous = proofforms.continuous(self.f)
        self._limits = {}
        self.calls = 0

    def grad(self, i):
        """The compiled forms of ``df/dx_i`` (computed on first use): ``[]`` where ``f`` does not depend
        on ``x_i``, None where SymPy cannot differentiate it."""
        if i not in self._grads:
            v = self.vars[i]
            if v.name not in self._free:
                self._grads[i] = []
            else:
                ds = proofforms.derivative_forms(self.f, self.syms[v.name])
                fns = [] if ds is None else [c for c in (self._compile(d) for d in ds) if c is not None]
                # [] only where the derivative is identically 0; no form at all is "unknown"
                self._grads[i] = [] if ds == [] else (fns or None)
        return self._grads[i]

    # ------------------------------------------------------------------ compiling
    def _compile(self, e):
        try:
            src = self.printer(e)
        except Unprintable:
            return None
        return eval(f"lambda P: {src}", self.ns)  # noqa: S307 - printed by ArbSource

    def _cond(self, rel):
        rel = rel.xreplace({s: self.syms[str(s)] for s in rel.free_symbols if str(s) in self.syms})
        try:
            src = self.printer.cond(rel, {})
        except Unprintable:
            return None
        return eval(f"lambda P: {src}", self.ns)  # noqa: S307 - printed by ArbSource

    def limit_forms(self, ends: tuple):
        """Compiled forms of ``f`` at the infinite ends ``((i, +-1), ...)``, in ``u``-variables."""
        if ends not in self._limits:
            sub = {self.syms[self.vars[i].name]: s for i, s in ends}
            u = {self.syms[self.vars[i].name]: self._u[self.vars[i].name] for i, _ in ends}
            fs = [g for g in proofforms.at_infinity(self.f, sub, u) if proofforms.continuous(g)]
            self._limits[ends] = [c for c in (self._compile(g) for g in fs) if c is not None]
        return self._limits[ends]

    # ------------------------------------------------------------------ evaluation
    def point(self, box) -> dict:
        P = {}
        for v, (a, b) in zip(self.vars, box):
            if v.kind == "int" and a is not None and a == b:
                P[v.name] = int(a)
            else:
                P[v.name] = xinterval.interval(-math.inf if a is None else a, math.inf if b is None else b)
        return P

    def _eval(self, fn, P):
        if fn is None:
            return None
        self.calls += 1
        try:
            out = fn(P)
        except (self.Undecided, ArithmeticError, ValueError, TypeError, IndexError, OverflowError, ZeroDivisionError):
            return None
        return out if type(out) is xinterval.Iv else xinterval.to_iv(out)

    def enclose(self, fns, P, regular: list | None = None):
        """The intersection of the enclosures of ``fns`` at ``P`` (None: none evaluates). ``regular``: a list
        told whether some form evaluated on the box without meeting a singularity (``xinterval.SINGULAR``
        unchanged): then ``f`` is continuous on the box, which the monotone face and the mean-value form need
        (a derivative's sign "where defined" says nothing across a pole: -1/x^2 <= 0 on [-1, 1] for 1/x)."""
        out = None
        for fn in fns:
            before = xinterval.SINGULAR[0]
            e = self._eval(fn, P)
            if e is not None:
                if regular is not None and xinterval.SINGULAR[0] == before:
                    regular.append(True)
                try:
                    out = e if out is None else out.intersection(e)
                except xinterval.Undefined:
                    return None
        return out

    def certifies(self, e) -> bool:
        """Whether the enclosure ``e`` of the goal lies above 0 (at or above, for ``>=``): it certifies its box."""
        return e is not None and ((e > 0) if self.strict else (e >= 0))

    def _bad(self, e) -> bool:
        return e is not None and ((e <= 0) if self.strict else (e < 0))

    def inside(self, P) -> bool | None:
        out = True
        for rel in self.rels:
            if rel is None:
                out = None
                continue
            try:
                v = rel(P)
            except (self.Undecided, ArithmeticError, ValueError, TypeError, IndexError):
                v = None
            if v is False:
                return False
            if v is not True:
                out = None
        return out

    def face_value(self, box, ends: dict):
        """Lower enclosures of ``f`` on the face of ``box`` with each parameter ``i`` of ``ends`` at
        ``ends[i]`` (``'lo'``/``'hi'``), as ``(form kind, enclosure)``."""
        face, inf = list(box), []
        for i, side in ends.items():
            a, b = box[i]
            end = a if side == "lo" else b
            if end is None:
                inf.append((i, -1 if side == "lo" else 1))
                face[i] = (None, None)
            else:
                face[i] = (end, end)
        P = self.point(face)
        if not inf:
            return self.enclose(self.forms, P)
        if not self.continuous:
            return None
        fns = self.limit_forms(tuple(sorted(inf)))
        for i, _ in inf:
            P[self._u[self.vars[i].name].name] = xinterval.interval(0, 0)
            del P[self.vars[i].name]
        before = xinterval.SINGULAR[0]
        e = self.enclose(fns, P)
        if xinterval.SINGULAR[0] != before:
            return None
        return e

    def _mean_value(self, box, P, grads):
        if any(a is None or b is None for a, b in box):
            return None
        centre = [(a, b) if a == b else ((a + b) / 2,) * 2 for a, b in box]
        C = self.point(centre)
        if any(self.vars[i].kind == "int" and box[i][0] != box[i][1] for i in range(len(box))):
            return None
        total = self.enclose(self.forms, C)
        for i, g in grads.items():
            if total is None or g is None:
                return None
            a, b = box[i]
            if a != b:
                total = total + g * (P[self.vars[i].name] - C[self.vars[i].name])
        return total

    def decide(self, box):
        """``('out',)``, ``('cert', method)``, ``('wrong',)`` or ``('split', inside)`` for one box."""
        P = self.point(box)
        inside = self.inside(P)
        if inside is False:
            return ("out",)
        regular = []
        nat = self.enclose(self.forms, P, regular)
        if self.certifies(nat):
            return ("cert", ("natural",))
        if self._bad(nat) and inside:
            return ("wrong",)
        if not self.continuous or not regular:  # a jump, or a possible pole on the box: no monotone face, no mean-value form
            return ("split", inside)
        grads, ends = {}, {}
        smooth = True
        for i in range(len(self.vars)):
            a, b = box[i]
            if a is not None and a == b:
                continue
            fns = self.grad(i)
            if fns == []:
                grads[i] = xinterval.to_iv(0)
                continue
            if not fns:
                smooth = False
                continue
            g = self.enclose(fns, P)
            grads[i] = g
            if g is not None and g >= 0:
                ends[i] = "lo"
            elif g is not None and g <= 0:
                ends[i] = "hi"
        if ends:
            fv = self.face_value(box, ends)
            if self.certifies(fv):
                return ("cert", ("face", tuple(sorted(ends.items()))))
        if smooth and len(grads) == sum(1 for a, b in box if not (a is not None and a == b)):
            mv = self._mean_value(box, P, grads)
            if self.certifies(mv):
                return ("cert", ("mean-value",))
        return ("split", inside)

    # ------------------------------------------------------------------ the search
    def widest(self, box, among=None) -> tuple[float, int]:
        best = (0.0, -1)
        for i, (v, (a, b)) in enumerate(zip(self.vars, box)):
            if among is not None and i not in among:
                continue
            w = v.width(a, b)
            if w > best[0]:
                best = (w, i)
        return best

    def split(self, box):
        order = sorted(((v.width(a, b), i) for i, (v, (a, b)) in enumerate(zip(self.vars, box))), reverse=True)
        for w, i in order:
            if w <= 0:
                break
            m = self.vars[i].split(*box[i])
            if m is None:
                continue
            a, b = box[i]
            lo_half = (a, m)
            hi_half = (m + 1 if self.vars[i].kind == "int" else m, b)
            return i, m, box[:i] + (lo_half,) + box[i + 1:], box[:i] + (hi_half,) + box[i + 1:]
        return None

    def root(self) -> tuple:
        return tuple((v.lo, v.hi) for v in self.vars)

    def run(self, budget: int, root=None, certify_only: bool = False) -> Outcome:
        """Decide boxes, widest first, until none is left or ``budget`` boxes are spent. The tree: a
        node is ``["split", i, point, low child, high child]``, ``["out", relation index]``, ``["cert",
        method]`` or ``["open"]`` (undecided when the budget ran out).

        ``certify_only``: the caller uses the outcome only if it is ``certified`` (a derivative's sign), so the
        search stops as soon as more boxes wait than the budget has left: every waiting box needs a decision, and
        each decision leaves at least as many waiting, so the search could only have ended by spending the whole
        budget uncertified. The outcome is then ``budget`` with ``boxes = budget`` (what the search would have
        spent, so that a shared budget is charged the same)."""
        from flint import ctx

        root = self.root() if root is None else root
        counter = itertools.count()
        nodes = {}
        top = [None]
        heap = [(-self.widest(root)[0], next(counter), root, (top, 0))]
        done = certified = discarded = 0
        wrong, stuck = [], []
        methods = {}
        old = ctx.prec
        ctx.prec = PREC
        try:
            while heap and done < budget:
                if certify_only and len(heap) > budget - done:
                    done = budget
                    break
                _, _, box, (parent, slot) = heapq.heappop(heap)
                done += 1
                verdict = self.decide(box)
                if verdict[0] == "out":
                    discarded += 1
                    parent[slot] = ["out"]
                    continue
                if verdict[0] == "cert":
                    certified += 1
                    methods[verdict[1][0]] = methods.get(verdict[1][0], 0) + 1
                    parent[slot] = ["cert", list(_jsonable(verdict[1]))]
                    continue
                if verdict[0] == "wrong":
                    wrong.append(box)
                    parent[slot] = ["wrong"]
                    continue
                cut = self.split(box)
                if cut is None:
                    stuck.append(box)
                    parent[slot] = ["open"]
                    continue
                i, m, lo_box, hi_box = cut
                node = ["split", i, _frac_text(m), None, None]
                parent[slot] = node
                for child, k in ((lo_box, 3), (hi_box, 4)):
                    heapq.heappush(heap, (-self.widest(child)[0], next(counter), child, (node, k)))
        finally:
            ctx.prec = old
        left = stuck + [b for _, _, b, _ in heap]
        for _, _, _, (parent, slot) in heap:
            parent[slot] = ["open"]
        status = "wrong-side" if wrong else "certified" if not left else "budget"
        del nodes
        return Outcome(status, done, certified, discarded, wrong, left, top[0], methods)

    def describe(self, box) -> dict:
        out = {}
        for v, (a, b) in zip(self.vars, box):
            lo = "-inf" if a is None else float(a)
            hi = "inf" if b is None else float(b)
            out[v.name] = lo if a is not None and a == b else [lo, hi]
        return out

    def centre(self, box) -> dict:
        """A point of the box (its centre in the compactified coordinate), as floats (integers rounded)."""
        out = {}
        for v, (a, b) in zip(self.vars, box):
            if a is not None and a == b:
                x = a
            else:
                ta = 0.0 if a is None else v._t(a)
                tb = 1.0 if b is None else v._t(b)
                x = v._x((ta + tb) / 2)
                if a is not None and x < a or b is not None and x > b:
                    x = a if a is not None else b
            out[v.name] = int(math.floor(x)) if v.kind == "int" else float(x)
        return out


def _frac_text(x: Fraction) -> str:
    return f"{x.numerator}/{x.denominator}"


def _jsonable(method):
    out = []
    for part in method:
        if isinstance(part, tuple):
            out.append([list(p) if isinstance(p, tuple) else p for p in part])
        else:
            out.append(part)
    return out


__all__ = ["Outcome", "Prover", "Var"]
