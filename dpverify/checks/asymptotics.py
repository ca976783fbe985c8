"""Limits of closed forms along a path, by SymPy's limit (Gruntz's algorithm), with the steps recorded.

The rate and limit proofs (:mod:`.rateproof`) ask one question: what does an expression tend to as one
parameter ``x`` goes to 0+ or infinity, the others fixed at ANY value of their domain (or tied to ``x``)?

* **The other parameters** become SymPy symbols that carry what the domain says of them
  (:func:`setting`): a parameter with a lower bound >= 0 is ``positive``, an integer an ``integer``;
  at the second level (:data:`LEVELS`) every bound that positivity does not say is written into the
  symbol: ``p > a`` as ``p = a + u``, ``0 < p < b`` as ``p = b/(1 + u)``, ``a < p < b`` as
  ``p = a + (b - a)/(1 + u)`` with ``u > 0`` (a closed end ``p >= a`` adds the case ``p = a``; a choice
  of a few values is one case per value). Relations between parameters are left out: the proof is on
  a larger set, so it covers the domain.
* **Min and Max** (:func:`branches`): at every point ``Min(a, b)`` IS ``a`` or ``b``, so the
  expression is one of the expressions with each Min/Max replaced by one of its arguments; an argument
  that is eventually never the minimum (the limit of its ratio to another is above 1) is dropped. Every
  value of the expression along the path lies between the smallest and the largest of its branches'.
* **floor and ceiling** (:func:`sandwich`): ``u <= ceiling(u) < u + 1`` and ``u - 1 < floor(u) <= u``;
  where every term is monotone in the rounded value (SymPy's sign of its derivative) the expression lies
  between two closed forms, a lower and an upper one, whose limits bound its lim inf and lim sup.
* anything else SymPy cannot limit (a function computed in Python, an unevaluated sum, a sequence)
  raises :class:`Unsupported` with the reason in one phrase: the numeric sweep stays for it.

Every limit is cached by its expression (the same ratio recurs in a printed claim and its correction).
"""
from __future__ import annotations

import itertools
from dataclasses import dataclass, field

import sympy as sp

from ..claims import Choice, Int, Real, Seq
from ..claims.statements import START_SUFFIX
from .base import time_limit
from .signs import is_finite, is_infinite, is_positive

#: levels of what the symbols carry: "sign" (positive, integer), then "bounds" (every bound of the domain)
LEVELS = ("sign", "bounds")
#: at most this many branches (Min/Max choices) or cases per statement
MAX_BRANCHES = 16
MAX_CASES = 8


class Unsupported(Exception):
    """The expression has a part SymPy's limit cannot take here; the message says which, in one phrase."""


@dataclass
class Setting:
    """The symbols of one case: ``subs`` maps each claim symbol to its expression in the new symbols,
    ``back`` each new symbol to its expression in the claim's (for printing), ``case`` the values fixed
    by this case (a choice, or at the level "bounds" a closed end), ``x`` the path's variable (positive),
    ``to`` 0 or oo, ``covers`` the hypotheses the symbols carry (for the evidence).

    ``pieces`` (level "sign" only): substitutions of the new symbols that together cover the domain's
    bounds (the interior written as ``p = a + u`` ..., and each closed end): a closed form proved
    positive (finite) after each of them is positive (finite) at every point of the domain.
    """

    x: sp.Symbol
    to: sp.Basic
    subs: dict
    back: dict
    case: dict = field(default_factory=dict)
    covers: list = field(default_factory=list)
    pieces: list = field(default_factory=lambda: [{}])

    def apply(self, expr) -> sp.Basic:
        return sp.sympify(expr).xreplace(self.subs)

    def show(self, expr) -> sp.Basic:
        """``expr`` in the claim's own symbols."""
        return sp.sympify(expr).xreplace(self.back)


def _bounds(p: Real):
    lo = p.gt if p.gt is not None else p.ge
    hi = p.lt if p.lt is not None else p.le
    return lo, hi


def _exact(v) -> sp.Rational:
    """A bound as an exact number (a float's exact binary value: the domain compares with that)."""
    return sp.Integer(v) if isinstance(v, int) else sp.Rational(v)


def _informative(p: Real) -> bool:
    """Whether ``p``'s bounds say more than its sign."""
    lo, hi = _bounds(p)
    return hi is not None or (lo is not None and lo != 0)


def _pieces(name: str, p: Real) -> list:
    """``(expression, fresh symbol, its value from p)`` whose values together are exactly ``p``'s interval
    (the symbol ``u > 0``, or ``u >= 0`` where an end is closed): one, or two for an interval closed at
    both ends (the second, its lower end, has no symbol)."""
    lo, hi = _bounds(p)
    closed_lo, closed_hi = p.ge is not None, p.le is not None
    s = sp.Symbol(name)
    lo_, hi_ = (None if lo is None else _exact(lo)), (None if hi is None else _exact(hi))
    if hi_ is None or lo_ is None:
        closed = closed_lo if hi_ is None else closed_hi
        u = sp.Symbol(f"{name}'", **({"nonnegative": True} if closed else {"positive": True}))
        return [(lo_ + u, u, s - lo_)] if hi_ is None else [(hi_ - u, u, hi_ - s)]
    w = sp.Symbol(f"{name}'", nonnegative=True)
    u = sp.Symbol(f"{name}'", positive=True)
    if closed_lo and closed_hi:
        return [(lo_ + (hi_ - lo_) / (1 + w), w, (hi_ - lo_) / (s - lo_) - 1), (lo_, None, None)]
    if closed_lo:
        return [(hi_ - (hi_ - lo_) / (1 + w), w, (hi_ - lo_) / (hi_ - s) - 1)]
    v = w if closed_hi else u
    return [(lo_ + (hi_ - lo_) / (1 + v), v, (hi_ - lo_) / (s - lo_) - 1)]


def _spec(claim, name):
    return claim.domain.params.get(name[:-len(START_SUFFIX)] if name.endswith(START_SUFFIX) else name)


def setting(claim, names: set[str], param: str, to: str, level: str) -> list[Setting]:
    """The cases (one :class:`Setting` each) in which the parameters ``names`` (the path's ``param``
    excluded) carry what the domain says of them at ``level`` (see the module docstring)."""
    x = sp.Symbol(param, positive=True)
    lim = sp.oo if to == "inf" else sp.Integer(0)
    subs, back, covers = {sp.Symbol(param): x}, {x: sp.Symbol(param)}, []
    alternatives: list[list[tuple]] = []
    pieces: list[list[dict]] = []
    for name in sorted(names - {param}):
        p = _spec(claim, name)
        s = sp.Symbol(name)
        if p is None:
            raise Unsupported(f"{name} is not a parameter of the domain")
        if isinstance(p, Seq):
            raise Unsupported(f"the sequence {name} has no closed form")
        if isinstance(p, Choice):
            vals = [v for v in p.values if isinstance(v, (int, float)) and not isinstance(v, bool)]
            if len(vals) != len(p.values):
                raise Unsupported(f"the choice {name} is not numeric")
            alternatives.append([(s, _exact(v), f"{name} = {v}") for v in vals])
            continue
        if isinstance(p, Int):
            lo, hi = p.ge, p.le
            if lo is not None and hi is not None and hi - lo < MAX_CASES:
                alternatives.append([(s, sp.Integer(v), f"{name} = {v}") for v in range(lo, hi + 1)])
                continue
            if lo is not None and lo >= 1:
                new = sp.Symbol(name, integer=True, positive=True)
            elif lo is not None and lo >= 0:
                new = sp.Symbol(name, integer=True, nonnegative=True)
            else:
                new = sp.Symbol(name, integer=True)
            subs[s], back[new] = new, s
            covers.append(" and ".join(p.hypotheses(name)) or f"{name} an integer")
            if lo is not None and lo > 1:
                pieces.append([{new: lo + sp.Symbol(f"{name}'", integer=True, nonnegative=True)}])
            continue
        lo, _ = _bounds(p)
        covers.append(" and ".join(p.hypotheses(name)) or f"{name} real")
        if level == "sign" or not _informative(p):
            if lo is not None and lo >= 0 and not (lo == 0 and p.ge is not None):
                new = sp.Symbol(name, positive=True)
            elif lo is not None and lo >= 0:
                new = sp.Symbol(name, nonnegative=True)
            else:
                new = sp.Symbol(name, real=True)
            subs[s], back[new] = new, s
            if _informative(p):
                pieces.append([{new: e} for e, _, _ in _pieces(name, p)])
            continue
        (expr, u, inverse), *rest = _pieces(name, p)
        subs[s], back[u] = expr, inverse
        if rest:
            alternatives.append([None] + [(s, e, f"{name} = {e}") for e, _, _ in rest])
    merged = [{}]
    for alts in pieces:
        merged = [{**m, **a} for m in merged for a in alts]
        if len(merged) > MAX_CASES:
            raise Unsupported(f"more than {MAX_CASES} pieces of the domain's intervals")
    out = []
    for combo in itertools.product(*alternatives) if alternatives else [()]:
        case_subs = dict(subs)
        case = {}
        for item in combo:
            if item is None:
                continue
            s, v, text = item
            case_subs[s] = v
            case[str(s)] = text
        out.append(Setting(x, lim, case_subs, back, case, covers, merged))
        if len(out) > MAX_CASES:
            raise Unsupported(f"more than {MAX_CASES} cases (closed ends and choices)")
    return out


# --------------------------------------------------------------------------- what SymPy can limit
def prepare(expr: sp.Basic) -> sp.Basic:
    """``expr`` with finite sums and products evaluated; :class:`Unsupported` for what has no closed form."""
    from sympy.core.function import AppliedUndef

    if expr.has(sp.Sum, sp.Product, sp.Integral):
        expr = expr.doit()
        if expr.has(sp.Sum, sp.Product, sp.Integral):
            raise Unsupported("a sum, product or integral SymPy leaves unevaluated")
    if expr.atoms(sp.Indexed):
        raise Unsupported("an indexed sequence has no closed form")
    fns = [f for f in expr.atoms(AppliedUndef)]
    if fns:
        raise Unsupported(f"{type(fns[0]).__name__} is a function computed in Python")
    if expr.has(sp.Piecewise):
        raise Unsupported("a piecewise expression")
    return expr


_CACHE: dict = {}
#: CPU seconds one limit may take (Gruntz can run for minutes); the statement's own limit
#: (``Config.symbolic_timeout``) bounds them all
LIMIT_SECONDS = 3.0


class LimitTimeout(Exception):
    """One limit ran out of :data:`LIMIT_SECONDS` (distinct from the statement's ``SymbolicTimeout``)."""
_ERRORS = (NotImplementedError, ValueError, TypeError, AttributeError, RecursionError, ZeroDivisionError,
           sp.PoleError, MemoryError, OverflowError)


def sympy_limit(expr, x, to):
    """SymPy's limit of ``expr`` as ``x -> to`` (from above at 0), uncached; ``ValueError`` when it is not a
    value (an unevaluated ``Limit``, a bounded oscillation, NaN, a complex number)."""
    val = sp.limit(expr, x, to, "+") if to == 0 else sp.limit(expr, x, to)
    if val.has(sp.Limit, sp.AccumBounds, sp.nan, sp.zoo, sp.sign) or (val.is_number and not val.is_extended_real):
        raise ValueError(f"SymPy's limit is {sp.sstr(val)[:60]}, not a value")
    return val


def limit(expr: sp.Basic, st: Setting) -> sp.Basic:
    """SymPy's limit of ``expr`` as ``st.x -> st.to`` (from above at 0), cached; raises ``Unsupported``
    when SymPy cannot take it within :data:`LIMIT_SECONDS` of CPU time or gives something that is not a
    limit (a bounded oscillation, an unevaluated ``Limit``, NaN). Gruntz's algorithm decides signs of
    expressions in the parameters, and SymPy sometimes decides them wrongly: a proof that uses the limit
    is cross-checked in mpmath along the path (:mod:`.limitcheck`) before it counts."""
    x, to = st.x, st.to
    key = (expr, x, to)
    if key not in _CACHE:
        try:
            with time_limit(LIMIT_SECONDS, raises=LimitTimeout):
                val = sympy_limit(expr, x, to)
        except LimitTimeout:
            val = Unsupported(f"SymPy's limit took more than {LIMIT_SECONDS:g} s of CPU time")
        except _ERRORS as exc:
            val = Unsupported(f"SymPy's limit fails ({type(exc).__name__}: {str(exc)[:60]})")
        _CACHE[key] = val
    val = _CACHE[key]
    if isinstance(val, Unsupported):
        raise val
    return val


def clear_cache() -> None:
    _CACHE.clear()


# --------------------------------------------------------------------------- Min and Max
def _eventually_below(a, b, st) -> bool | None:
    """Whether ``a < b`` eventually along the path (None: not decided)."""
    if is_positive(a, st) and is_positive(b, st):
        try:
            q = limit(a / b, st)
        except Unsupported:
            return None
        if q == 0 or (not is_infinite(q) and is_positive(1 - q, st)):
            return True
        if is_infinite(q) or is_positive(q - 1, st):
            return False
        return None
    try:
        dlim = limit(a - b, st)
    except Unsupported:
        return None
    if dlim == -sp.oo or (not is_infinite(dlim) and is_positive(-dlim, st)):
        return True
    if dlim == sp.oo or (not is_infinite(dlim) and is_positive(dlim, st)):
        return False
    return None


def branches(expr: sp.Basic, st: Setting, steps: list) -> list[sp.Basic]:
    """The expressions ``expr`` equals, point by point along the path, with every Min/Max replaced by
    one of its arguments (those eventually never chosen dropped); ``steps`` records each choice."""
    nodes = [m for m in expr.atoms(sp.Min, sp.Max) if not any(a.has(sp.Min, sp.Max) for a in m.args)]
    if not nodes:
        return [expr]
    node = sorted(nodes, key=sp.default_sort_key)[0]
    args = list(node.args)
    keep = []
    for i, a in enumerate(args):
        dominated = False
        for j, b in enumerate(args):
            if i == j:
                continue
            # Min: a is never chosen when eventually b < a; Max: when eventually a < b
            below = _eventually_below(b, a, st) if isinstance(node, sp.Min) else _eventually_below(a, b, st)
            if below:
                dominated = True
                break
        if not dominated:
            keep.append(a)
    if not keep:  # pragma: no cover - a strict order cannot drop every argument
        keep = args
    steps.append({"step": "branch", "node": node, "kept": keep})
    out = []
    for a in keep:
        out.extend(branches(expr.xreplace({node: a}), st, steps))
        if len(out) > MAX_BRANCHES:
            raise Unsupported(f"more than {MAX_BRANCHES} branches of Min/Max")
    return list(dict.fromkeys(out))


# --------------------------------------------------------------------------- floor and ceiling
def sandwich(expr: sp.Basic, st: Setting, steps: list) -> tuple[sp.Basic, sp.Basic]:
    """``(lower, upper)`` closed forms with ``lower <= expr <= upper`` eventually along the path, from
    ``u <= ceiling(u) < u + 1`` and ``u - 1 < floor(u) <= u`` and the monotonicity of each term in the
    rounded value; ``(expr, expr)`` when there is nothing to round."""
    nodes = sorted(expr.atoms(sp.floor, sp.ceiling), key=sp.default_sort_key)
    if not nodes:
        return expr, expr
    if any(n.args[0].has(sp.floor, sp.ceiling) for n in nodes):
        raise Unsupported("a floor or ceiling nested in another")
    cs = [sp.Dummy(f"c{k}", positive=True) for k in range(len(nodes))]
    for n in nodes:
        if limit(n.args[0], st) != sp.oo:
            raise Unsupported(f"{sp.sstr(n)[:40]} does not grow without bound along the path")
    e = expr.xreplace(dict(zip(nodes, cs)))
    lo_terms, hi_terms = [], []
    for term in sp.Add.make_args(sp.expand(e, deep=False, mul=True, power_exp=False, power_base=False, log=False,
                                           multinomial=False)):
        lo_t, hi_t = term, term
        for n, c in zip(nodes, cs):
            if not term.has(c):
                continue
            u = n.args[0]
            small, large = (u, u + 1) if isinstance(n, sp.ceiling) else (u - 1, u)
            dt = sp.diff(term, c)
            if is_positive(dt, st):
                lo_t, hi_t = lo_t.xreplace({c: small}), hi_t.xreplace({c: large})
            elif is_positive(-dt, st):
                lo_t, hi_t = lo_t.xreplace({c: large}), hi_t.xreplace({c: small})
            else:
                raise Unsupported(f"a term is not monotone in {sp.sstr(n)[:40]} (SymPy's sign of its derivative)")
        lo_terms.append(lo_t)
        hi_terms.append(hi_t)
    lo, hi = sp.Add(*lo_terms), sp.Add(*hi_terms)
    steps.append({"step": "sandwich", "nodes": nodes, "lower": lo, "upper": hi})
    return lo, hi


# --------------------------------------------------------------------------- the limits of an expression
@dataclass
class Bounds:
    """What the branches and the sandwich give for one case: ``low`` and ``high`` are the smallest and
    largest limits (lim inf >= low, lim sup <= high); ``limits`` every (lower, upper) limit pair;
    ``single`` the one limit when every pair agrees (else None)."""

    limits: list
    steps: list

    @property
    def values(self) -> list:
        return [v for pair in self.limits for v in pair]

    @property
    def single(self):
        vals = self.values
        first = vals[0]
        for v in vals[1:]:
            if v != first and not (not is_infinite(v) and not is_infinite(first) and sp.simplify(v - first) == 0):
                return None
        return first


def limits(expr: sp.Basic, st: Setting) -> Bounds:
    """The limits of the branches and sandwiches of ``expr`` along ``st``'s path (see :class:`Bounds`)."""
    steps: list = []
    pairs = []
    for b in branches(expr, st, steps):
        lo, hi = sandwich(b, st, steps)
        lo_lim = limit(lo, st)
        hi_lim = lo_lim if hi == lo else limit(hi, st)
        steps.append({"step": "limit", "expr": lo, "value": lo_lim})
        if hi != lo:
            steps.append({"step": "limit", "expr": hi, "value": hi_lim})
        pairs.append((lo_lim, hi_lim))
    return Bounds(pairs, steps)


def leading_term(expr: sp.Basic, x, to) -> sp.Basic | None:
    """The leading term of ``expr``'s expansion as ``x -> to`` (SymPy's series), or None."""
    try:
        s = sp.series(expr, x, to, n=1, dir="+") if to == 0 else sp.series(expr, x, sp.oo, n=1)
        s = s.removeO()
    except (NotImplementedError, ValueError, TypeError, AttributeError, RecursionError, sp.PoleError):
        return None
    if s == 0 or s.has(sp.Order):
        return None
    return s


__all__ = ["Bounds", "LEVELS", "LIMIT_SECONDS", "Setting", "Unsupported", "branches", "clear_cache", "sympy_limit", "is_finite", "is_infinite",
           "is_positive", "leading_term", "limit", "limits", "prepare", "sandwich", "setting"]
