"""Proofs that ``f >= 0`` (or ``> 0``) on a whole domain, by steps a reader can re-derive.

A :class:`Goal` is an expression, the ranges of its parameters (:class:`~dpverify.checks.bnb.Var`,
bounded or not) and the relations that cut them. :func:`prove` tries, cheapest first, and returns a
proof (a JSON-able tree whose every node names its route) or None:

* ``number``: no parameter left; the number's enclosure in interval arithmetic, or SymPy's exact 0;
* ``sympy-sign``: SymPy's sign reasoning under the signs and integrality the ranges give each symbol,
  after writing each parameter with a finite lower end ``a`` as ``a + s``, ``s >= 0``;
* ``factors``: ``f``'s factors (SymPy's ``factor_list`` of its numerator and denominator), each with a
  sign proved as a goal of its own, whose product has the claimed sign;
* ``monotone``: a derivative ``df/dx`` with one sign on the domain (a goal of its own, over the ranges
  the argument needs) puts the minimum over ``x`` at an end of its range: a bound, a relation solved
  for ``x`` (``kappa >= 1/(1 - c)`` is ``c <= 1 - 1/kappa``) or an infinite end, where ``f``'s limit is
  read off ``f(1/u)`` at ``u = 0`` (accepted only where interval arithmetic shows that form meets no
  singularity on the rest of the domain: the value is then the limit by continuity). ``f`` at that end
  is the reduced goal, over the other parameters;
* ``bnb``: interval branch-and-bound (:class:`~dpverify.checks.bnb.Prover`), with the tree of boxes.

Every step's bookkeeping is deterministic and bounded by counts (boxes, SymPy's operation counts),
never by a clock. Soundness: each route's argument is stated in its node; the standalone checker
(:mod:`dpverify.certify.proofs`) re-derives the nodes it knows (``number``, ``sympy-sign``, ``factors``, ``bnb``)
from the expression.
"""
from __future__ import annotations

from dataclasses import dataclass, field, replace
from fractions import Fraction

import sympy as sp

from .. import proofforms, xinterval
from .bnb import Prover, Var

MAX_DEPTH = 3  # monotone reductions in a row
MAX_VARS = 8   # a branch-and-bound over more parameters is not attempted
SIGN_OPS = 200  # SymPy's sign reasoning only on expressions with at most this many nodes
FACTOR_NODES = 150  # nor factoring


@dataclass(frozen=True)
class Goal:
    """``f > 0`` (``strict``) or ``f >= 0`` for every point of ``vars`` satisfying ``relations``
    (``((text, SymPy relational), ...)``)."""

    f: sp.Basic
    vars: tuple
    relations: tuple = ()
    strict: bool = False

    def var(self, name: str) -> Var:
        return next(v for v in self.vars if v.name == name)

    def used(self) -> "Goal":
        """The goal over the parameters ``f`` uses, with the relations among only those."""
        names = {str(s) for s in self.f.free_symbols}
        rels = tuple((t, r) for t, r in self.relations if {str(s) for s in r.free_symbols} <= names)
        return replace(self, vars=tuple(v for v in self.vars if v.name in names), relations=rels)

    def describe(self) -> str:
        rel = "> 0" if self.strict else ">= 0"
        where = ", ".join(v.describe() for v in self.vars)
        cut = "; " + ", ".join(t for t, _ in self.relations) if self.relations else ""
        return f"{sp.sstr(self.f)[:160]} {rel} on {where or 'a point'}{cut}"


@dataclass
class Budget:
    """Boxes left for branch-and-bound, shared by a proof's sub-goals."""

    boxes: int
    used: int = 0
    notes: list = field(default_factory=list)

    def take(self, n: int) -> int:
        n = max(0, min(n, self.boxes - self.used))
        return n


def symbol(v: Var) -> sp.Symbol:
    """The symbol of a parameter, carrying the sign and integrality its range gives."""
    kw = {}
    if v.kind == "int":
        kw["integer"] = True
    if v.lo is not None and (v.lo > 0 or (v.lo == 0 and v.lo_open)):
        kw["positive"] = True
    elif v.lo is not None and v.lo >= 0:
        kw["nonnegative"] = True
    elif v.hi is not None and (v.hi < 0 or (v.hi == 0 and v.hi_open)):
        kw["negative"] = True
    elif v.hi is not None and v.hi <= 0:
        kw["nonpositive"] = True
    return sp.Symbol(v.name, real=True, **kw)


def plain(e):
    """``e`` with every symbol made plain (no assumptions): the form goals are stated in."""
    return e.xreplace({s: sp.Symbol(s.name) for s in e.free_symbols if isinstance(s, sp.Symbol)})


def sympy_sign(goal: Goal) -> dict | None:
    """SymPy's sign reasoning: ``f`` with each parameter ``x`` of finite lower end ``a != 0`` written
    ``a + s`` (``s >= 0``, ``> 0`` for an open end), every symbol carrying its sign; failing that, with
    each parameter of finite upper end ``b`` written ``b - s``."""
    f = goal.f
    if proofforms.size(f, SIGN_OPS) > SIGN_OPS or not proofforms.tame(f):
        return None
    for side in ("lo", "hi"):
        sub, shift = {}, {}
        for v in goal.vars:
            x = sp.Symbol(v.name)
            end, is_open = (v.lo, v.lo_open) if side == "lo" else (v.hi, v.hi_open)
            if end is not None and (end != 0 or side == "hi"):
                kw = {"positive": True} if is_open else {"nonnegative": True}
                if v.kind == "int":
                    kw["integer"] = True
                s = sp.Symbol(f"{v.name}_s_", real=True, **kw)
                e = sp.Rational(end.numerator, end.denominator)
                sub[x] = e + s if side == "lo" else e - s
                shift[v.name] = f"{side}:{end}"
            else:
                sub[x] = symbol(v)
        if side == "hi" and not shift:
            break
        try:
            e = f.xreplace(sub)
            for g in (e, sp.together(e), sp.factor_terms(e)):
                if proofforms.size(g, SIGN_OPS) > SIGN_OPS:
                    continue
                ok = g.is_positive if goal.strict else g.is_nonnegative
                if ok:
                    return {"by": "sympy-sign", "shift": shift}
        except (TypeError, ValueError, NotImplementedError, RecursionError, AttributeError):
            return None
    return None


def number(goal: Goal) -> dict | None:
    f = goal.f
    if f.free_symbols:
        return None
    if not goal.strict:
        try:
            if f == 0 or sp.simplify(f) == 0:
                return {"by": "number", "exact_zero": True}
        except (TypeError, ValueError, RecursionError):
            pass
    pv = Prover(f, [], (), goal.strict)
    e = pv.enclose(pv.forms, {})
    if pv.certifies(e):
        return {"by": "number", "exact_zero": False}
    return None


def bnb(goal: Goal, budget: Budget, boxes: int, certify_only: bool = False) -> dict | None:
    if len(goal.vars) > MAX_VARS:
        return None
    n = budget.take(boxes)
    if n <= 0:
        return None
    pv = Prover(goal.f, goal.vars, goal.relations, goal.strict)
    out = pv.run(n, certify_only=certify_only)
    budget.used += out.boxes
    if out.status == "certified":
        return {"by": "bnb", "boxes": out.boxes, "methods": out.methods, "tree": out.tree}
    budget.notes.append((goal, out, pv))
    return None


# ---------------------------------------------------------------------- factors
def factors(goal: Goal, budget: Budget, depth: int) -> dict | None:
    f = goal.f
    if proofforms.size(f, FACTOR_NODES) > FACTOR_NODES or not proofforms.tame(f):
        return None
    try:
        num, den = sp.fraction(sp.together(f))
        gens = [a for a in (num * den).atoms(sp.Function, sp.Pow) if not (isinstance(a, sp.Pow) and a.exp.is_Integer)]
        if len(gens) > 3:
            return None
        cn, fn = sp.factor_list(num)
        cd, fd = sp.factor_list(den)
    except (sp.PolynomialError, TypeError, ValueError, NotImplementedError, RecursionError):
        return None
    parts = [(b, e, 1) for b, e in fn] + [(b, e, -1) for b, e in fd]
    if sum(1 for b, _, _ in parts if b.free_symbols) < 2:
        return None
    const = cn / cd
    if not const.is_number or const == 0:
        return None
    sign = 1 if const > 0 else -1
    out = []
    for b, e, where in parts:
        if not b.free_symbols:
            if b.is_positive:
                continue
            return None
        if e % 2 == 0 and not goal.strict and where == 1:
            out.append({"factor": sp.srepr(b), "power": int(e), "sign": 0, "proof": {"by": "even-power"}})
            continue
        sub = Goal(b, goal.vars, goal.relations, strict=goal.strict or where == -1).used()
        p = prove(sub, budget, depth + 1, share=4)
        if p is not None:
            out.append({"factor": sp.srepr(b), "power": int(e), "sign": 1, "proof": p})
            continue
        sub = replace(sub, f=-b)
        p = prove(sub, budget, depth + 1, share=4)
        if p is None:
            return None
        out.append({"factor": sp.srepr(b), "power": int(e), "sign": -1, "proof": p})
        if e % 2:
            sign = -sign
    if sign < 0:
        return None
    return {"by": "factors", "constant": str(const), "factors": out}


# ---------------------------------------------------------------------- monotone reduction
def _bounds_from(rel, x: sp.Symbol, goal: Goal | None = None):
    """A relation as a bound on ``x``: ``(side, expression, strict)`` with side ``'hi'`` for ``x <= e``,
    or None when it is not one SymPy can solve uniquely with a slope of one sign (by SymPy's signs, or
    in interval arithmetic on ``goal``'s ranges)."""
    if not isinstance(rel, (sp.StrictLessThan, sp.LessThan, sp.StrictGreaterThan, sp.GreaterThan)):
        return None
    h = rel.lhs - rel.rhs  # h < 0, h <= 0, h > 0 or h >= 0
    if x not in h.free_symbols or proofforms.size(h, 60) > 60:
        return None
    try:
        dh = sp.diff(h, x)
        sol = sp.solve(h, x)
    except (NotImplementedError, TypeError, ValueError, RecursionError):
        return None
    if len(sol) != 1 or x in sol[0].free_symbols:
        return None
    if goal is None or not {str(s) for s in dh.free_symbols} <= {v.name for v in goal.vars}:
        return None

    def slope_on(variables) -> int:
        pv = Prover(dh, variables, (), False)
        e = pv.enclose(pv.forms, pv.point(pv.root()))
        return 0 if e is None else 1 if e > 0 else -1 if e < 0 else 0

    slope = slope_on(goal.vars)
    if slope == 0:
        return None
    below = isinstance(rel, (sp.StrictLessThan, sp.LessThan))  # h below 0
    strict = isinstance(rel, (sp.StrictLessThan, sp.StrictGreaterThan))
    side = "hi" if below == (slope > 0) else "lo"
    # the reduction walks x from the relation's end across the side of its range it opens: the slope must
    # keep its sign there too (else the relation need not be "x >= end" outside x's own range)
    opened = tuple((replace(v, lo=None, lo_open=False) if side == "lo" else replace(v, hi=None, hi_open=False))
                   if v.name == str(x) else v for v in goal.vars)
    if slope_on(opened) != slope:
        return None
    sol = sp.simplify(sol[0])
    if not sol.is_real and sol.is_real is not None or sol.has(sp.I):
        return None
    return side, sol, strict


def _limit(goal: Goal, x: Var, sign: int):
    """``f``'s limit as ``x -> sign * inf``: a form of ``f(sign/u)`` at ``u = 0`` that interval arithmetic
    evaluates on the rest of the domain without a singularity (so that the value is the limit by
    continuity), as a SymPy expression; or None."""
    sx = sp.Symbol(x.name)
    u = sp.Symbol("u_lim_")
    rest = tuple(v for v in goal.vars if v.name != x.name)
    for g in proofforms.at_infinity(goal.f, {sx: sign}, {sx: u}):
        if not proofforms.continuous(g):
            continue
        pv = Prover(g, rest + (Var("u_lim_", "real", Fraction(0), Fraction(0)),), (), False)
        before = xinterval.SINGULAR[0]
        e = pv.enclose(pv.forms[:1], pv.point(pv.root()))
        if e is None or xinterval.SINGULAR[0] != before:
            continue
        try:
            val = g.xreplace({u: 0})
        except (TypeError, ValueError, ZeroDivisionError):
            continue
        if val.has(sp.nan, sp.zoo, sp.oo, -sp.oo):
            continue
        return val, g
    return None


def _reduced(f, variables=()):
    """``f`` simplified (one fraction; powers combined under the signs the ranges give the symbols)."""
    assumed = {sp.Symbol(v.name): symbol(v) for v in variables}
    back = {b: a for a, b in assumed.items()}
    g = proofforms.one_fraction(f.xreplace(assumed))
    try:
        h = sp.powsimp(sp.powdenest(g))
        if proofforms.size(h, 200) <= 200:
            h = proofforms.one_fraction(sp.expand_power_base(h))
    except (TypeError, ValueError, RecursionError):
        h = g
    out = h if proofforms.size(h) <= proofforms.size(g) else g
    return plain(out.xreplace(back))


def quick(goal: Goal, budget: Budget, boxes: int = 40) -> dict | None:
    """The cheap routes only (a derivative's sign): a number, SymPy's signs, a small branch-and-bound (which stops
    as soon as it cannot certify within its boxes: only a certificate of a derivative's sign is used)."""
    goal = replace(goal, f=plain(sp.sympify(goal.f)))
    return number(goal) or sympy_sign(goal) or bnb(goal, budget, boxes, certify_only=True)


def _signed(goal: Goal, d, v: Var, rels, budget: Budget):
    """``(sign, proof)``: ``d`` (a derivative of ``goal.f`` in ``v``) >= 0 (sign 1) or <= 0 (-1) on ``goal``'s
    ranges with ``v``'s replaced and ``rels`` the relations, or None."""
    for sign in (1, -1):
        dgoal = Goal(sign * d, tuple(v if w.name == v.name else w for w in goal.vars), tuple(rels)).used()
        p = quick(dgoal, budget)
        if p is not None:
            return sign, p
    return None


def regular_on(goal: Goal) -> bool:
    """Whether some form of ``f`` evaluates on the goal's whole range (its closed box, relations aside) in interval
    arithmetic without meeting a singularity (``xinterval.SINGULAR``): ``f`` is then continuous there, as a
    reduction by a derivative's sign needs."""
    pv = Prover(goal.f, goal.vars, (), False)
    regular: list = []
    pv.enclose(pv.forms, pv.point(pv.root()), regular)
    return bool(regular)


def monotone(goal: Goal, budget: Budget, depth: int) -> dict | None:
    """A parameter in which ``f`` is monotone on the domain, reduced to the end of its range where ``f`` is
    least (see the module): the first that gives a proof of the reduced goal."""
    if depth >= MAX_DEPTH or not proofforms.continuous(goal.f):  # a derivative's sign says nothing across a jump
        return None
    if not regular_on(goal):  # nor across a pole (1/x on [-1, 1]: d/dx = -1/x^2 <= 0 wherever it is defined)
        return None
    for v in goal.vars:
        x = sp.Symbol(v.name)
        ds = proofforms.derivative_forms(goal.f, x)
        if not ds:
            continue
        d = ds[-1]
        own = [(t, r) for t, r in goal.relations if x not in r.free_symbols]
        mine = [(k, r) for k, (t, r) in enumerate(goal.relations) if x in r.free_symbols]
        tries = []  # (sign, end kind, relation index, end expression, proof of the derivative's sign)
        got = _signed(goal, d, v, own, budget)  # on x's own range: the ends at its bounds
        if got is not None:
            sign, dp = got
            end = v.lo if sign > 0 else v.hi
            tries.append((sign, "bound", None, None if end is None else sp.Rational(end.numerator, end.denominator), dp))
        for k, r in mine:  # a relation's end: x's range opened on that side, the relation kept
            b = _bounds_from(r, x, goal)
            if b is None:
                continue
            side, e, _ = b
            sign = 1 if side == "lo" else -1
            if got is not None and got[0] != sign:
                continue
            dv = replace(v, lo=None, lo_open=False) if side == "lo" else replace(v, hi=None, hi_open=False)
            dgoal = Goal(sign * d, tuple(dv if w.name == v.name else w for w in goal.vars),
                         tuple(own) + (goal.relations[k],)).used()
            dp = quick(dgoal, budget)
            if dp is not None:
                tries.insert(0, (sign, "relation", k, e, dp))
        for sign, kind, k, e, dp in tries:
            side = "lo" if sign > 0 else "hi"
            if e is None:
                lim = _limit(goal, v, -1 if side == "lo" else 1)
                if lim is None:
                    continue
                fr = lim[0]
            else:
                fr = goal.f.xreplace({x: e})
            fr = _reduced(fr, goal.vars)
            rest = tuple(w for w in goal.vars if w.name != v.name)
            extra = []
            if kind == "relation":  # the end lies in x's range: a point of the domain exists
                other = v.hi if side == "lo" else v.lo
                if other is not None:
                    o = sp.Rational(other.numerator, other.denominator)
                    extra.append((f"{v.name}'s end within its range", sp.Le(e, o) if side == "lo" else sp.Ge(e, o)))
            rgoal = Goal(fr, rest, tuple(own) + tuple(extra), goal.strict).used()
            rproof = prove(rgoal, budget, depth + 1, share=2)
            if rproof is None:
                continue
            return {"by": "monotone", "var": v.name, "sign": sign, "end": kind, "relation": k,
                    "at": "inf" if e is None else sp.srepr(e), "reduced": sp.srepr(fr),
                    "derivative": dp, "rest": rproof}
    return None


def relax_floor(goal: Goal, budget: Budget, depth: int) -> dict | None:
    """Each ``floor(g)`` written ``g - t`` and each ``ceiling(g)`` ``g + t``, with ``t`` a new parameter in
    ``[0, 1]`` (the fractional part, or its complement, let free: a wider set of points)."""
    atoms = sorted(goal.f.atoms(sp.floor, sp.ceiling), key=sp.default_sort_key)
    if not atoms or len(atoms) > 3 or any(a.args[0].has(sp.floor, sp.ceiling) for a in atoms):
        return None
    sub, new = {}, []
    for k, a in enumerate(atoms):
        t = sp.Symbol(f"frac{k}_")
        sub[a] = a.args[0] - t if isinstance(a, sp.floor) else a.args[0] + t
        new.append(Var(t.name, "real", Fraction(0), Fraction(1)))
    g = replace(goal, f=goal.f.xreplace(sub), vars=goal.vars + tuple(new))
    p = prove(g, budget, depth + 1, share=1)
    if p is None:
        return None
    return {"by": "relax-floor", "atoms": [sp.srepr(a) for a in atoms], "proof": p}


def exp_change(goal: Goal, budget: Budget, depth: int) -> dict | None:
    """A parameter ``x`` that ``f`` uses only through ``exp(k x + c)`` (``k`` rational) written as ``y =
    exp(x)``: ``exp(k x + c) = y^k exp(c)``, ``y`` over an interval holding ``exp`` of ``x``'s range."""
    for v in goal.vars:
        x = sp.Symbol(v.name)
        if v.kind != "real":
            continue
        uses = [a for a in goal.f.atoms(sp.exp) if x in a.free_symbols]
        if not uses:
            continue
        y = sp.Symbol(f"exp_{v.name}_")
        sub = {}
        for a in uses:
            k = sp.diff(a.args[0], x)
            if not k.is_Rational or k == 0 or x in (a.args[0] - k * x).free_symbols:
                sub = None
                break
            sub[a] = y ** k * sp.exp(sp.expand(a.args[0] - k * x))
        if not sub:
            continue
        g = goal.f.xreplace(sub)
        if x in g.free_symbols:
            continue
        lo = Fraction(0) if v.lo is None else _outward(v.lo, -1)
        hi = None if v.hi is None else _outward(v.hi, 1)
        w = Var(y.name, "real", lo, hi, log=lo > 0, scale=Fraction(1), lo_open=v.lo is None or v.lo_open,
                hi_open=v.hi_open)
        rels = tuple((t, r) for t, r in goal.relations if x not in r.free_symbols)
        if len(rels) != len(goal.relations):
            continue
        ng = Goal(g, tuple(w if u.name == v.name else u for u in goal.vars), rels, goal.strict)
        p = prove(ng, budget, depth + 1, share=1)
        if p is not None:
            return {"by": "exp-change", "var": v.name, "proof": p}
    return None


def _outward(a: Fraction, direction: int) -> Fraction:
    """A short rational below (``direction`` -1) or above (1) ``exp(a)``."""
    from flint import arb, ctx, fmpq

    old = ctx.prec
    ctx.prec = 64
    try:
        b = arb(fmpq(a.numerator, a.denominator)).exp()
        end = b.lower() if direction < 0 else b.upper()
        m, e = end.man_exp()
    finally:
        ctx.prec = old
    return Fraction(int(m)) * Fraction(2) ** int(e)


def prove(goal: Goal, budget: Budget, depth: int = 0, share: int = 1, reduce: bool = True) -> dict | None:
    """A proof of ``goal`` (see the module), spending at most ``1/share`` of the boxes left."""
    goal = replace(goal, f=plain(sp.sympify(goal.f)))
    if goal.f.has(sp.nan, sp.zoo, sp.oo, -sp.oo, sp.I):
        return None
    p = number(goal) or sympy_sign(goal)
    if p is not None:
        return p
    left = budget.boxes - budget.used
    p = bnb(goal, budget, min(8, left))  # one look: most easy goals end here
    if p is not None:
        return p
    p = factors(goal, budget, depth)
    if p is not None:
        return p
    if reduce:
        p = monotone(goal, budget, depth)
        if p is not None:
            return p
        if depth < MAX_DEPTH:
            p = relax_floor(goal, budget, depth) or exp_change(goal, budget, depth)
            if p is not None:
                return p
    left = budget.boxes - budget.used
    return bnb(goal, budget, left // share)


__all__ = ["Budget", "Goal", "MAX_VARS", "plain", "prove", "symbol"]
