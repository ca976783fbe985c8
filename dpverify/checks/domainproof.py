"""Domain proof (on by default): an inequality proved on its whole domain, not only on the search box.

The statement's ``rhs - lhs`` (the claim's definitions substituted, finite sums in closed form) is a
:class:`~dpverify.checks.reduction.Goal` over the ranges of its parameters as the hypotheses give them
(bounded or not: ``kappa > 1`` is ``[1, inf)``, an open end taken closed, which covers more points), cut
by the relations among those parameters (a relation with a parameter the statement does not use is left
out: the proof then covers more points than the claim's). A parameter with a few numeric values (a
``Choice``) is a case each. :func:`~dpverify.checks.reduction.prove` tries SymPy's signs, factors with
proved signs, reductions of a monotone parameter to the end of its range, and interval branch-and-bound
in extended ball arithmetic, within :attr:`Config.proof_budget` boxes (the budget that decides: the same
outcome on every machine).

An ``Identity`` is proved by :mod:`.radicals` (replacements of absolute values, square roots and
transcendental atoms whose signs are domain proofs, then SymPy's rewritings), else refuted at a point
(:mod:`.identityproof`), else ``inconclusive``.

Outcomes: every case proved is ``verified``, basis ``proof`` on "the whole domain" (``Verdict.scope``
``"domain"``), the route in the detail and the proof's summary in ``data["domain_proof"]``;
``dpverify certify`` writes it as a standalone ``check.py``. A box on which every relation is certainly
true and the statement certainly fails is reported, and makes the evidence ``violated`` only when a point
in it, checked as a point of the claim in mpmath, fails; otherwise (budget spent, no ball-arithmetic
form, a sequence, an existential parameter) ``inconclusive`` with the reason.
"""
from __future__ import annotations

import itertools
from fractions import Fraction

import sympy as sp

from .. import proofforms
from ..arb_source import ArbSource, Unprintable
from ..numeric import jsonable
from ..search import EvaluationError
from ..claims import Choice, Identity, Inequality, Int, Real, Seq, symbol_names
from ..verdict import Basis, Evidence
from .base import Clock, Config, SymbolicTimeout, time_limit
from . import identityproof, radicals, symbolic
from .kind import CheckKind
from .bnb import Var, dyadic
from .boxproof import completed, first_confirmed
from .reduction import MAX_VARS, Budget, Goal, plain, prove

MAX_CASES = 16
MAX_CONFIRM_INT = 10 ** 9  # an integer coordinate beyond this is not confirmed in mpmath
MAX_NODES = 1500  # an expression with more nodes than this is not attempted


class NotApplicable(Exception):
    """The statement is outside the domain proof's reach; the message says why."""


def applies(stmt) -> bool:
    return isinstance(stmt, (Inequality, Identity))


def _frac(v) -> Fraction:
    return Fraction(repr(float(v))) if isinstance(v, float) else Fraction(v)


def var_of(name: str, p) -> Var:
    """A parameter's range from its hypotheses (its search box only sets the unit of unbounded cuts)."""
    if isinstance(p, Real):
        lo = max([_frac(b) for b in (p.gt, p.ge) if b is not None], default=None)
        hi = min([_frac(b) for b in (p.lt, p.le) if b is not None], default=None)
        lo_open = lo is not None and p.gt is not None and _frac(p.gt) == lo and (p.ge is None or _frac(p.ge) < lo)
        hi_open = hi is not None and p.lt is not None and _frac(p.lt) == hi and (p.le is None or _frac(p.le) > hi)
        a, b = p.box()
        scale = dyadic(max(abs(a), abs(b))) or Fraction(1)
        return Var(name, "real", lo, hi, log=lo is not None and lo > 0, scale=scale, lo_open=lo_open, hi_open=hi_open)
    if isinstance(p, Int):
        a, b = p.box()
        return Var(name, "int", None if p.ge is None else Fraction(p.ge), None if p.le is None else Fraction(p.le),
                   log=p.ge is not None and p.ge > 0, scale=dyadic(max(abs(a), abs(b), 1)))
    raise NotApplicable(f"{name} is a {type(p).__name__}")


def goals(stmt, claim) -> tuple[list[tuple[dict, Goal]], list[str]]:
    """The goals of a statement, one per combination of its numeric choices: ``[(choice values,
    Goal)]``, and the relations left out (they use parameters the statement does not)."""
    if stmt.exists:
        raise NotApplicable(f"{', '.join(stmt.exists)} is quantified existentially")
    f = claim.expand(stmt.rhs) - claim.expand(stmt.lhs)
    if f.has(sp.Indexed, sp.IndexedBase):
        raise NotApplicable("the statement indexes a sequence")
    loops = list(f.atoms(sp.Sum, sp.Product))
    if any(a.function.has(sp.Sum, sp.Product) for a in loops):
        raise NotApplicable("the statement has a nested sum")
    if loops:
        f = f.doit()  # a single sum or product in closed form, where SymPy finds one
    if f.has(sp.Sum, sp.Product):
        raise NotApplicable("a sum of symbolic length has no closed form")
    if proofforms.size(f, MAX_NODES) > MAX_NODES:
        raise NotApplicable("the expression is large")
    params = claim.domain.params
    names = symbol_names(f)
    for n in sorted(names):
        if n not in params:
            raise NotApplicable(f"{n} is not a parameter of the claim")
        if isinstance(params[n], Seq):
            raise NotApplicable(f"the statement uses the sequence {n}")
    rels = [r for r in claim.domain.relations if set(r.names) <= names]
    left_out = [r.describe() for r in claim.domain.relations if set(r.names) & names and not set(r.names) <= names]
    choices = {n: params[n] for n in sorted(names) if isinstance(params[n], Choice)}
    for n, p in choices.items():
        if not all(isinstance(v, (int, float)) and not isinstance(v, bool) for v in p.values):
            raise NotApplicable(f"{n} takes non-numeric values")
    combos = list(itertools.product(*[p.values for p in choices.values()]))
    if len(combos) > MAX_CASES:
        raise NotApplicable(f"{len(combos)} combinations of choice values (at most {MAX_CASES})")
    variables = tuple(var_of(n, params[n]) for n in sorted(names) if n not in choices)
    if len(variables) > MAX_VARS + 4:
        raise NotApplicable(f"{len(variables)} parameters")
    out = []
    for combo in combos:
        values = dict(zip(choices, combo))
        sub = {sp.Symbol(n): sp.Rational(_frac(v).numerator, _frac(v).denominator) for n, v in values.items()}
        g = f.xreplace(sub)
        rr = tuple((r.describe(), r.rel.xreplace(sub)) for r in rels)
        _printable(g, variables, rr)
        out.append((values, Goal(g, variables, rr, stmt.strict)))
    return out, left_out


def _printable(f, variables, rels) -> None:
    """NotApplicable unless ``f`` and the relations have a ball-arithmetic form over ``variables``."""
    printer = ArbSource(real=[v.name for v in variables if v.kind == "real"],
                        ints=[v.name for v in variables if v.kind == "int"])
    try:
        printer(f)
        for _, r in rels:
            printer.cond(r, {})
    except Unprintable as exc:
        raise NotApplicable(f"no ball-arithmetic form: {exc}") from None


def ranges(f, claim) -> tuple[tuple, tuple]:
    """The ranges of ``f``'s parameters and the relations among only those (a sign goal's domain: a set at
    least as large as the claim's), or NotApplicable."""
    params = claim.domain.params
    names = symbol_names(f)
    for n in sorted(names):
        p = params.get(n)
        if p is None or isinstance(p, (Seq, Choice)):
            raise NotApplicable(f"{n} is not a real or integer parameter of the claim")
    variables = tuple(var_of(n, params[n]) for n in sorted(names))
    if len(variables) > MAX_VARS + 4:
        raise NotApplicable(f"{len(variables)} parameters")
    rels = tuple((r.describe(), r.rel) for r in claim.domain.relations if set(r.names) <= names)
    _printable(f, variables, rels)
    return variables, rels


def identity_steps(stmt, claim, cfg: Config, budget: Budget):
    """``(difference, steps)``: the radical and absolute-value steps (:mod:`.radicals`) after which the
    identity's ``lhs - rhs`` reduces to 0, each sign proved on the domain; ``steps`` None when there are none."""
    if stmt.reparam or stmt.exists:
        raise NotApplicable("the identity has a reparametrisation or an existential parameter")
    diff = symbolic.difference(stmt.lhs, stmt.rhs, stmt, claim, cfg)
    if diff.has(sp.Indexed, sp.IndexedBase, sp.Sum, sp.Product, sp.Integral):
        raise NotApplicable("the identity has a sequence or a sum")
    return diff, radicals.prove_zero(diff, sign_prover(claim, budget))


def sign_prover(claim, budget: Budget):
    """``signed(g, strict=False)``: a proof that ``g`` (an expression in the claim's parameters) is ``>= 0``
    (``> 0``) on the ranges of its parameters and the relations among them, within ``budget``; None where
    there is none (or ``g`` is outside the domain proof's reach)."""
    def signed(g, strict=False):
        f = plain(sp.sympify(g))
        try:
            variables, rels = ranges(f, claim)
        except NotApplicable:
            return None
        return prove(Goal(f, variables, rels, strict), budget)

    return signed


def _identity_proof(stmt, claim, cfg: Config, clock) -> Evidence | None:
    budget = Budget(cfg.proof_budget)
    try:
        diff, steps = identity_steps(stmt, claim, cfg, budget)
    except NotApplicable:
        return None
    if steps is None:
        return None
    try:
        variables, rels = ranges(plain(diff), claim)
    except NotApplicable:
        variables, rels = (), ()
    where = scope(Goal(diff, variables, rels), [])
    routes = sorted({r for s in steps for r in _routes(s.proof)})
    data = {"scope": where, "routes": ["radicals"] + routes, "boxes": budget.used,
            "steps": [s.describe() for s in steps]}
    return Evidence("domainproof", stmt.name, "verified", samples=budget.used, seconds=clock.seconds,
                    basis=Basis("proof", where), data=data,
                    detail=f"lhs - rhs reduces to 0 on {where} after {len(steps)} step(s) whose signs are "
                           f"proved there: " + "; ".join(data["steps"]))


def scope(goal: Goal, left_out) -> str:
    where = ", ".join(v.describe() for v in goal.vars) or "no parameter"
    cut = (", with " + ", ".join(t for t, _ in goal.relations)) if goal.relations else ""
    wider = f" (without {'; '.join(left_out)}: a wider set)" if left_out else ""
    return f"the whole domain: {where}{cut}{wider}"


def _parts(p):
    """A proof and every proof inside it (its derivative's, its rest's, its factors'), depth first."""
    yield p
    for key in ("derivative", "rest", "proof"):
        if isinstance(p.get(key), dict):
            yield from _parts(p[key])
    for f in p.get("factors", ()):
        yield from _parts(f["proof"])


def _routes(p) -> list[str]:
    return [q["by"] for q in _parts(p)]


def _boxes(p) -> int:
    return sum(q.get("boxes", 0) for q in _parts(p))


def summary(p) -> dict:
    """A proof without its trees: the routes, as nested dicts (for the evidence)."""
    out = {k: v for k, v in p.items() if k not in ("tree", "derivative", "rest", "factors")}
    for key in ("derivative", "rest"):
        if isinstance(p.get(key), dict):
            out[key] = summary(p[key])
    if "factors" in p:
        out["factors"] = [{**{k: v for k, v in f.items() if k != "proof"}, "proof": summary(f["proof"])}
                          for f in p["factors"]]
    return out


def prove_statement(stmt, claim, budget_boxes: int):
    """``(cases, left_out, budget)``: ``cases`` a list of ``(choice values, goal, proof or None)``, proved
    in order until one fails."""
    cases, left_out = goals(stmt, claim)
    budget = Budget(budget_boxes)
    out = []
    for values, goal in cases:
        p = prove(goal, budget)
        out.append((values, goal, p))
        if p is None:
            break
    return out, left_out, budget


def _confirm(stmt, claim, cfg, boxes, pv):
    """A point of a wrong-side box that is a point of the claim where the sampled check's mpmath
    decision confirms the failure: ``(point, margin)``, or None."""
    def points():
        for box in boxes[:8]:
            point = pv.centre(box)
            if any(isinstance(v, int) and abs(v) > MAX_CONFIRM_INT for v in point.values()):
                continue  # mpmath would compute 2**n exactly: a point too far out to confirm
            full = completed(claim, point, sequences=False)
            if full is None:    # a sequence the proof does not read: no point to confirm at
                return
            yield full

    # OverflowError: a point past a float's range
    return first_confirmed(stmt, claim, cfg, points(), errors=(EvaluationError, ArithmeticError, ValueError))


def check(stmt, claim, cfg: Config) -> Evidence:
    clock = Clock()
    name = stmt.name
    if isinstance(stmt, Identity):  # refuted by a point where lhs - rhs provably is not 0
        try:
            with time_limit(cfg.symbolic_timeout):
                return _identity_proof(stmt, claim, cfg, clock) or identityproof.check(stmt, claim, cfg, clock)
        except SymbolicTimeout:
            return Evidence("domainproof", name, "inconclusive", seconds=clock.seconds,
                            basis=Basis("proof", "not attempted"),
                            detail=f"domain proof: SymPy's steps took over {cfg.symbolic_timeout:g} s of CPU time")
    try:
        with time_limit(cfg.symbolic_timeout):  # a safety cap on SymPy's steps; the budget of boxes decides
            cases, left_out, budget = prove_statement(stmt, claim, cfg.proof_budget)
    except NotApplicable as exc:
        return Evidence("domainproof", name, "inconclusive", seconds=clock.seconds,
                        basis=Basis("proof", "not attempted"), detail=f"domain proof not attempted: {exc}")
    except SymbolicTimeout:
        return Evidence("domainproof", name, "inconclusive", seconds=clock.seconds,
                        basis=Basis("proof", "not attempted"),
                        detail=f"domain proof: SymPy's steps took over {cfg.symbolic_timeout:g} s of CPU time")
    rel = ">" if stmt.strict else ">="
    goal = cases[0][1]
    where = scope(goal, left_out)
    if all(p is not None for _, _, p in cases):
        routes = sorted({r for _, _, p in cases for r in _routes(p)})
        proofs = [{"case": jsonable(v), "proof": summary(p)} if v else summary(p) for v, _, p in cases]
        data = {"scope": where, "routes": routes, "boxes": sum(_boxes(p) for _, _, p in cases),
                "domain_proof": proofs if len(proofs) > 1 else proofs[0]}
        return Evidence("domainproof", name, "verified", samples=data["boxes"], seconds=clock.seconds,
                        basis=Basis("proof", where), data=data,
                        detail=f"proved rhs - lhs {rel} 0 on {where} ({', '.join(routes)})")
    values, goal, _ = cases[-1]
    case = f" (case {', '.join(f'{k} = {v}' for k, v in values.items())})" if values else ""
    data = {"scope": where, "boxes": budget.used}
    wrong = [(g, o, pv) for g, o, pv in budget.notes if o.wrong and g.f == goal.f]
    if wrong:
        g, o, pv = wrong[0]
        data["wrong_side"] = [pv.describe(b) for b in o.wrong[:5]]
        found = _confirm(stmt, claim, cfg, o.wrong, pv)
        if found is not None:
            point, mg = found
            return Evidence("domainproof", name, "violated", samples=budget.used, min_margin=mg.m, value=mg.value,
                            bound=mg.bound, point=jsonable(point),
                            counterexample={"params": jsonable(point), "seed": cfg.seed}, seconds=clock.seconds,
                            basis=Basis("proof", where), data=data,
                            detail=f"rhs - lhs {rel} 0 fails on a whole box{case}, e.g. {data['wrong_side'][0]}; "
                                   "a point of it confirmed in mpmath; replay with --at")
    stuck = [(g, o, pv) for g, o, pv in budget.notes if g.f == goal.f and o.uncertified]
    where_stuck = ""
    if stuck:
        g, o, pv = stuck[-1]
        small = sorted(o.uncertified, key=lambda b: pv.widest(b)[0])[:3]
        data["uncertified"] = [pv.describe(b) for b in small]
        where_stuck = f"; undecided near {data['uncertified'][0]}"
    return Evidence("domainproof", name, "inconclusive", samples=budget.used, seconds=clock.seconds,
                    basis=Basis("proof", where), data=data,
                    detail=f"no proof on the whole domain{case} within {cfg.proof_budget} boxes{where_stuck}")


KIND = CheckKind(
    name="domainproof", applies=applies, check=check, basis_kinds=("proof",), can_refute=True,
    certificate="analytic", proof_certificate="domain-proof",
    stage="fallback", enabled=lambda cfg: cfg.proof_budget > 0 and cfg.at is None,
    summary="an inequality (or an identity, by sign-proved replacements) proved on its whole domain (unbounded directions compactified): SymPy's signs, factors, "
            "monotone reductions, interval branch-and-bound in ball arithmetic; where no other check proved or refuted")
