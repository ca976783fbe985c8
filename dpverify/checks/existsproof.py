"""Proof that no value of an existential parameter meets an inequality at one point.

An ``Inequality(exists=("c",))`` fails at a point of the other parameters only when *every* value of
``c`` in its whole domain fails there; a grid over ``c``'s search box that finds none shows nothing of
the kind. :func:`prove_no_value` proves it, with the other parameters fixed at exact rationals (the
point as written: ``0.05`` is 1/20): the failing side ``lhs - rhs > 0`` (``>= 0`` for a strict
inequality) is covered over ``c``'s domain by

* **interval branch-and-bound** in ball arithmetic (:mod:`~dpverify.checks.boxproof`'s ``Problem`` and
  ``branch_and_bound``, python-flint ``arb``), first on ``c``'s search box clipped to its bounds, then on
  slabs that widen it towards each end of the domain: up to a closed end (``ge``/``le``) in one slab, a
  factor 4 further out towards an infinite end, a factor 4 closer to an open end (``gt``/``lt``), at most
  :data:`SLABS` times per end; the domain's relations that involve ``c`` discard the boxes where they
  are certainly false;
* a **tail argument** for what is left between the last slab's edge ``k`` and an infinite or open end:
  ``c`` is written as ``k + s`` (towards ``+inf``), ``k - s`` (``-inf``) or ``e + (k - e)/(1 + s)`` (an
  open end ``e``) with ``s > 0``, and the failing side, expanded (or as a fraction, its numerator and
  denominator), is a number decided positive in ball arithmetic plus terms SymPy's assumptions show
  non-negative for every ``s > 0``. Where that fails the next slab is covered and the tail tried again.

Outcomes (:class:`NoValue`): ``proved`` (every box of every slab fails, every tail proved); ``witness``
(a box on which the statement holds everywhere: a value works here, the point is no counterexample);
``gave-up`` with the reason (the budget of boxes, a tail that no slab closed -- with the failing side's
SymPy limit at that end when it can be computed --, or no ball-arithmetic form). The budget is
``Config.box_budget`` boxes in all (deterministic), ``Config.box_seconds`` of CPU time a safety cap.
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field
from fractions import Fraction

import sympy as sp

from ..arb_source import ArbSource, Unprintable, evaluator
from ..claims import Real
from ..verdict import Evidence
from .base import Clock, Config, SymbolicTimeout, time_limit
from . import sampled
from .boxproof import Dim, NotApplicable, Problem, written_fraction, branch_and_bound
from .kind import CheckKind

#: slabs added towards each end of the domain before giving up on its tail
SLABS = 8
#: SymPy's CPU seconds for one tail's sign (and for its limit, in the report)
TAIL_SECONDS = 10.0


@dataclass
class NoValue:
    """The outcome of :func:`prove_no_value`: ``status`` ``proved``, ``witness`` or ``gave-up``."""

    status: str
    name: str
    domain: str
    boxes: int = 0
    why: str = ""
    outer: dict = field(default_factory=dict)
    pieces: list = field(default_factory=list)
    witness: list | None = None

    @property
    def proved(self) -> bool:
        return self.status == "proved"

    def record(self) -> dict:
        """A certificate-friendly record: the outer point as exact rationals, the domain covered and how."""
        return {"status": self.status, "parameter": self.name, "domain": self.domain, "boxes": self.boxes,
                "outer": {k: f"{v.numerator}/{v.denominator}" for k, v in self.outer.items()},
                "pieces": self.pieces, **({"why": self.why} if self.why else {}),
                **({"witness_box": self.witness} if self.witness else {})}

    def describe(self) -> str:
        if self.proved:
            return (f"no value of {self.name} in {self.domain} satisfies it at this point: proved by interval "
                    f"arithmetic over {self.boxes} boxes ({'; '.join(p['how'] for p in self.pieces)})")
        if self.status == "witness":
            return f"a value of {self.name} satisfies it at this point: {self.why}"
        return f"the proof that no value of {self.name} in {self.domain} works gave up: {self.why}"


def _exact(v):
    if isinstance(v, bool):
        raise NotApplicable(f"{v!r} is not a number")
    if isinstance(v, int):
        return Fraction(v)
    if isinstance(v, float):
        if not math.isfinite(v):
            raise NotApplicable(f"{v} is not finite")
        return written_fraction(v)
    raise NotApplicable(f"{v!r} is not a number")


def _ends(p: Real):
    """``(lo, lo_closed, hi, hi_closed)``: the domain's ends (None: infinite) and whether each is included."""
    lo = hi = None
    lo_closed = hi_closed = False
    if p.ge is not None:
        lo, lo_closed = _exact(p.ge), True
    if p.gt is not None and (lo is None or _exact(p.gt) >= lo):
        lo, lo_closed = _exact(p.gt), False
    if p.le is not None:
        hi, hi_closed = _exact(p.le), True
    if p.lt is not None and (hi is None or _exact(p.lt) <= hi):
        hi, hi_closed = _exact(p.lt), False
    return lo, lo_closed, hi, hi_closed


def _interval(lo, lo_closed, hi, hi_closed) -> str:
    a = "(-inf" if lo is None else ("[" if lo_closed else "(") + f"{float(lo):.6g}"
    b = "inf)" if hi is None else f"{float(hi):.6g}" + ("]" if hi_closed else ")")
    return f"{a}, {b}"


class _Sides:
    """The failing side at the fixed point, as a function of the one parameter."""

    def __init__(self, stmt, claim, point, name):
        self.claim, self.name, self.sym = claim, name, sp.Symbol(name)
        fail = claim.expand(stmt.lhs) - claim.expand(stmt.rhs)
        names = {str(s) for s in fail.free_symbols} - {name}
        if fail.has(sp.Indexed):
            raise NotApplicable("the statement indexes a sequence")
        missing = sorted(n for n in names if n not in point)
        if missing:
            raise NotApplicable(f"the point gives no value of {', '.join(missing)}")
        self.outer = {n: _exact(point[n]) for n in sorted(names)}
        self.values = {sp.Symbol(n): sp.Rational(v.numerator, v.denominator) for n, v in self.outer.items()}
        self.fail = fail.xreplace(self.values)
        self.strict = not stmt.strict  # lhs <= rhs fails where lhs - rhs > 0; lhs < rhs where it is >= 0
        self.relations = []
        for r in claim.domain.relations:
            if name not in r.names:
                continue
            if any(n != name and n not in point for n in r.names):
                raise NotApplicable(f"the point gives no value for the relation {r.describe()}")
            others = {sp.Symbol(n): sp.Rational(*_exact(point[n]).as_integer_ratio()) for n in r.names if n != name}
            self.relations.append((r.describe(), r.rel.xreplace(others)))


def _cover(sides: _Sides, lo: Fraction, hi: Fraction, log: bool, budget: int, seconds: float):
    """Branch-and-bound over ``[lo, hi]``: the outcome of :func:`boxproof.branch_and_bound` and the problem."""
    problem = Problem.over(sides.claim, sides.fail, [Dim(sides.name, "real", lo, hi, log and lo > 0)],
                           sides.relations, strict=sides.strict)
    return branch_and_bound(problem, budget, seconds), problem


def _positive_number(e) -> bool:
    """Whether the number ``e`` (no free symbol) is certainly > 0, decided in ball arithmetic."""
    from flint import ctx

    old = ctx.prec
    ctx.prec = 128
    try:
        v = evaluator(ArbSource()(e))({})
        return bool(v > 0)
    except (Unprintable, ArithmeticError, ValueError, TypeError, OverflowError):
        return False
    finally:
        ctx.prec = old


def _positive_for_all(g, s) -> bool:
    """Whether ``g(s) > 0`` for every ``s > 0``: a number positive in ball arithmetic plus terms SymPy's
    assumptions show non-negative (``s`` carries ``positive=True``)."""
    g = sp.expand(g, power_base=False, power_exp=False, log=False)  # products and powers of sums only
    if g.is_Number:
        return bool(g > 0)
    terms = sp.Add.make_args(g)
    const = sp.Add(*[t for t in terms if not t.has(s)])
    rest = [t for t in terms if t.has(s)]
    if not all(t.is_nonnegative is True for t in rest):
        return False
    if const == 0:
        return any(t.is_positive is True for t in rest)
    return _positive_number(const)


def _tail(sides: _Sides, k: Fraction, end, upper: bool) -> bool:
    """Whether the failing side is positive on the tail from ``k`` to ``end`` (None: infinite), ``k``
    excluded (the slabs cover it)."""
    s = sp.Symbol("s_tail", positive=True)
    kk = sp.Rational(k.numerator, k.denominator)
    if end is None:
        sub = kk + s if upper else kk - s
    else:
        e = sp.Rational(end.numerator, end.denominator)
        sub = e + (kk - e) / (1 + s)
    g = sides.fail.xreplace({sides.sym: sub})
    try:
        with time_limit(TAIL_SECONDS):
            if _positive_for_all(g, s):
                return True
            num, den = sp.fraction(sp.together(g))
            return (_positive_for_all(num, s) and _positive_for_all(den, s)) or (
                _positive_for_all(-num, s) and _positive_for_all(-den, s))
    except (SymbolicTimeout, TypeError, ValueError, AttributeError, NotImplementedError, RecursionError):
        return False


def _limit(sides: _Sides, end, upper: bool) -> str:
    """The failing side's SymPy limit at an end, for the report ('' when SymPy cannot say)."""
    at = (sp.oo if upper else -sp.oo) if end is None else sp.Rational(end.numerator, end.denominator)
    try:
        with time_limit(TAIL_SECONDS):
            lim = sp.limit(sides.fail, sides.sym, at, "-" if upper else "+")
        return f"; lhs - rhs tends to {sp.sstr(lim if lim.is_infinite else sp.N(lim, 6))} there"
    except (SymbolicTimeout, TypeError, ValueError, AttributeError, NotImplementedError, RecursionError,
            ZeroDivisionError):
        return ""


def _next(k: Fraction, end, upper: bool) -> Fraction:
    """The next slab's far edge: 4 times as far out towards an infinite end, 4 times closer to a finite one."""
    if end is None:
        step = 3 * max(abs(k), Fraction(1))
        return k + step if upper else k - step
    return end + (k - end) / 4


def prove_no_value(stmt, claim, point: dict, cfg: Config) -> NoValue:
    """Prove that no value of ``stmt``'s existential parameter in its domain satisfies the inequality at
    ``point`` (the other parameters; a value of the parameter itself is ignored).

    Parameters
    ----------
    stmt : an ``Inequality`` with ``exists=(name,)``, ``name`` a ``Real`` parameter.
    claim : its claim (domain, definitions).
    point : the other parameters' values (floats are read as written: ``0.1`` is 1/10).
    cfg : ``box_budget`` (boxes in all) and ``box_seconds`` (CPU seconds, a safety cap).

    Returns a :class:`NoValue` (``.proved``, ``.describe()``, ``.record()``).

    Example
    -------
    >>> import sympy as sp
    >>> from dpverify import Claim, Domain, Inequality, Real, Source
    >>> x, t = sp.symbols("x t")
    >>> c = Claim(id="me/no-t", source=Source("notes", "1"), domain=Domain(x=Real(ge=4, search=(4, 9)),
    ...           t=Real(gt=0, search=(1, 10))), statements=(Inequality("some t", lhs=x * t + 1 / t,
    ...           rhs=sp.sqrt(x), exists=("t",)),))
    >>> prove_no_value(c.statements[0], c, {"x": 4.0}, Config()).proved
    True
    """
    (name,) = stmt.exists
    p = claim.domain.params[name]
    if not isinstance(p, Real):
        return NoValue("gave-up", name, f"{name}'s values", why=f"{name} is not a Real parameter")
    lo, lo_closed, hi, hi_closed = _ends(p)
    domain = _interval(lo, lo_closed, hi, hi_closed)
    try:
        sides = _Sides(stmt, claim, point, name)
        a, b = (_exact(v) for v in p.box())
        a = a if lo is None else max(a, lo)
        b = b if hi is None else min(b, hi)
        if a >= b:
            raise NotApplicable(f"{name}'s search box {p.box()} lies outside its bounds")
    except NotApplicable as exc:
        return NoValue("gave-up", name, domain, why=str(exc))
    log = bool(p.log)
    out = NoValue("gave-up", name, domain, outer=sides.outer)
    budget = cfg.box_budget

    def cover(x, y, label) -> bool:
        nonlocal budget
        try:
            res, problem = _cover(sides, x, y, log, budget, cfg.box_seconds)
        except NotApplicable as exc:
            out.why = str(exc)
            return False
        budget -= res.boxes
        out.boxes += res.boxes
        if res.status == "certified":
            out.pieces.append({"interval": [str(x), str(y)], "boxes": res.boxes,
                               "how": f"[{float(x):.6g}, {float(y):.6g}] in {res.boxes} boxes ({label})"})
            return True
        if res.status == "wrong-side":
            out.status, out.witness = "witness", problem.describe(res.wrong[0])
            out.why = (f"the inequality holds on the whole box {out.witness} ({label}), checked in ball arithmetic")
            return False
        small = sorted(res.uncertified, key=lambda bx: problem.widest(bx)[0])
        out.why = (f"the budget of {cfg.box_budget} boxes ran out on [{float(x):.6g}, {float(y):.6g}] ({label}); "
                   f"the smallest uncertified box {problem.describe(small[0]) if small else '?'}")
        return False

    if not cover(a, b, "the search box"):
        return out
    for upper, k, end, closed in ((False, a, lo, lo_closed), (True, b, hi, hi_closed)):
        if end is not None and end == k:
            continue
        if end is not None and closed:
            x, y = (k, end) if upper else (end, k)
            if not cover(x, y, "up to the closed end"):
                return out
            continue
        for _ in range(SLABS):
            if _tail(sides, k, end, upper):
                side = "inf" if end is None and upper else "-inf" if end is None else f"{float(end):.6g}"
                out.pieces.append({"tail": [str(k), "inf" if end is None and upper else
                                            "-inf" if end is None else str(end)],
                                   "how": f"the tail from {float(k):.6g} to {side} by the sign of its terms "
                                          "(SymPy, constants in ball arithmetic)"})
                break
            k2 = _next(k, end, upper)
            x, y = (k, k2) if upper else (k2, k)
            if not cover(x, y, "a slab towards " + ("+inf" if end is None and upper else "-inf" if end is None
                                                    else f"the open end {float(end):.6g}")):
                return out
            k = k2
        else:
            out.why = (f"the tail beyond {float(k):.6g} towards "
                       f"{'inf' if end is None and upper else '-inf' if end is None else f'{float(end):.6g}'} "
                       f"could not be bounded after {SLABS} slabs{_limit(sides, end, upper)}")
            return out
    out.status = "proved"
    return out


def settle(ev: Evidence, stmt, claim, cfg: Config) -> Evidence:
    """A failure of an existential inequality (``ev``, ``violated`` by the grid of the sampled check) kept
    ``violated`` only where :func:`prove_no_value` proves it at the point: the counterexample, then the
    worst failure (``ev.data["worst"]``); otherwise ``inconclusive``, saying where the grid found no
    value and why each proof gave up (``data["exists_proof"]``)."""
    clock = Clock()
    (name,) = stmt.exists
    worst = (ev.data.get("worst") or {}).get("params")
    seen, tried = set(), []
    for k, point in enumerate(p for p in (ev.point, worst) if p is not None):
        key = repr(sorted(point.items()))
        if key in seen:
            continue
        seen.add(key)
        proof = prove_no_value(stmt, claim, point, cfg)
        if proof.proved:
            if k:  # proved at the worst failure, not at the counterexample: report that point
                mg = sampled.margin_function(stmt, claim, cfg)(point)
                ev.point, ev.min_margin, ev.value, ev.bound = dict(point), mg.m, mg.value, mg.bound
                ev.counterexample = {"params": dict(point), "seed": cfg.seed}
            ev.data = {**ev.data, "exists_proof": proof.record()}
            ev.detail += f"; {proof.describe()}"
            ev.seconds += clock.seconds
            return ev
        tried.append(({n: v for n, v in point.items() if n != name}, proof))
    return Evidence("sampled", stmt.name, "inconclusive", samples=ev.samples, seconds=ev.seconds + clock.seconds,
                    coverage=ev.coverage, point=ev.point, basis=ev.basis,
                    data={"exists_proof": [{"at": at, **proof.record()} for at, proof in tried]},
                    detail=f"no value of {name} on a grid over its search box met the bound (best margin "
                           f"{ev.min_margin:.4g}), and a grid cannot show that no value does; "
                           + "; ".join(f"at {at}: {proof.describe()}" for at, proof in tried))


def check_sampled(stmt, claim, cfg: Config) -> Evidence:
    """The sampled check (:func:`dpverify.checks.sampled.check`), its failures of an existential inequality
    settled by :func:`settle`: the check the kind ``sampled`` runs (:data:`KIND`)."""
    ev = sampled.check(stmt, claim, cfg)
    if getattr(stmt, "exists", ()) and ev.verdict == "violated" and ev.point is not None:
        return settle(ev, stmt, claim, cfg)
    return ev


KIND = CheckKind(
    name="sampled", applies=sampled.applies, check=check_sampled, basis_kinds=("algebra",), can_refute=True,
    certificate="analytic",
    summary="the printed sides at points of the domain in mpmath, a failure of 'there is a value' proved in ball "
            "arithmetic")


__all__ = ["NoValue", "check_sampled", "prove_no_value", "settle"]
