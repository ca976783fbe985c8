"""The checker of a privacy bound proved on the search box against the Gaussian mechanism's exact profile.

The privacy proof (:mod:`dpverify.checks.privacyproof`, basis ``privacy-proof-on-box``) certifies every box of a
branch-and-bound over the search box: the bound's enclosure lies above the profile ``delta(eps; mu)`` at the
box's corner ``(eps_lo, mu_hi)``, its largest value there, by the profile's monotonicity (decreasing in ``eps``,
increasing in ``mu``: ``d delta/d mu = phi(-eps/mu + mu/2) > 0``, ``d delta/d eps = -e^eps Phi(-eps/mu - mu/2) <
0``). Its run stops at a CPU-time cap and records no tree, so :func:`plan` finds the proof again with the same
problem (:class:`~dpverify.checks.privacyproof.ProfileProblem`, its public ``boxes``, ``inside``, ``decide``,
``split``), depth first, within :data:`BUDGET` boxes and no clock, recording every split and leaf.

``check.py`` (python-flint only, never dpverify) starts from the search box (the recorded dimensions, each
choice's values combined), checks every split strictly inside its box (so the leaves cover the box), decides every
certified leaf again -- the bound, eps and mu in ``arb`` over the leaf (printed by dpverify's ball-arithmetic
printer, symbols named only inside string literals), the profile by Balle & Wang's formula with ``erfc`` at the
corner at a precision doubled until its relative radius is below ``2^-40`` -- bisecting a leaf it cannot decide
in one look (its own boxes), and shows every discarded leaf to break a hypothesis. The scope is the search box.
"""
from __future__ import annotations

from fractions import Fraction

from ..escape import py_docstring, py_literal
from .proof_runtime import TREE, head
from .writer import NoCertificate, Plan, relations_source

#: boxes the recording run may decide
BUDGET = 20000


def _text(q) -> str:
    q = Fraction(q)
    return f"{q.numerator}/{q.denominator}"


def _record(problem) -> list:
    """One tree per starting box (``["split", dim, point, low, high]``, ``["cert"]``, ``["out"]``); NoCertificate
    when a box is wrong-side, undecided at a point, or the budget is spent."""
    from flint import ctx

    from ..checks.boxproof import PREC

    trees, used = [], 0
    old = ctx.prec
    ctx.prec = PREC
    try:
        for start in problem.boxes():
            root = [None]
            stack = [(start, root, 0)]
            while stack:
                box, parent, slot = stack.pop()
                used += 1
                if used > BUDGET:
                    raise NoCertificate(f"the proof on the box is not found again within {BUDGET} boxes")
                inside = problem.inside(box)
                if inside is False:
                    parent[slot] = ["out"]
                    continue
                verdict = problem.decide(box)
                if verdict == "certified":
                    parent[slot] = ["cert"]
                    continue
                halves = problem.split(box, inside) if verdict == "split" else None
                if halves is None:
                    raise NoCertificate("the proof on the box is not found again (a box is not decided)")
                i = next(k for k, (a, b) in enumerate(zip(*halves)) if a != b)
                node = ["split", i, _text(halves[0][i][1]), None, None]
                parent[slot] = node
                stack.append((halves[1], node, 4))
                stack.append((halves[0], node, 3))
            trees.append(root[0])
    finally:
        ctx.prec = old
    return trees


def plan(claim, stmt, evidence) -> Plan:
    """The checker of a privacy bound proved on the search box (see the module docstring)."""
    from ..arb_source import HELPERS, Unprintable, printer_for
    from ..checks import privacyproof
    from ..checks.boxproof import NotApplicable, Problem, related
    from ..scenarios import bind
    from ..claims import Seq, symbol_names
    from .writer import params_spec

    form = bind(stmt.scenario, claim).proof_form()
    if form["kind"] != "gaussian-profile":
        raise NoCertificate("only a bound against the Gaussian mechanism's exact profile has a checker on the box")
    bound = claim.expand(stmt.bound)
    eps, mu = claim.expand(form["eps"]), claim.expand(form["mu"])
    quantity = privacyproof.gaussian_profile_expr(eps, mu)
    params = claim.domain.params
    names, rels = related(claim, set().union(*(symbol_names(e) for e in (bound, quantity))))
    if any(isinstance(params.get(n), Seq) for n in names):
        raise NoCertificate("the statement uses a sequence")
    try:
        dims = [Problem.dim(n, params[n]) for n in sorted(names)]
        problem = privacyproof.ProfileProblem.over(claim, bound, dims, [(r.describe(), r.rel) for r in rels])
        problem = problem.attach(claim, eps, mu)
        trees = _record(problem)
    except NotApplicable as exc:
        raise NoCertificate(f"the proof on the box is not found again: {exc}") from None
    printer = printer_for(claim.domain)
    try:
        fns = {"BOUND": printer(bound), "EPS": printer(eps), "MU": printer(mu)}
    except Unprintable as exc:
        raise NoCertificate(f"no ball-arithmetic form: {exc}") from None
    spec = [(d.name, d.kind, _text(d.lo) if d.kind != "choice" else "", _text(d.hi) if d.kind != "choice" else "",
             [_text(v) for v in d.values]) for d in dims]
    try:
        fields = {"CLAIM_ID": py_literal(claim.id), "STATEMENT": py_literal(stmt.name),
                  "PARAMS": py_literal(params_spec(claim.domain), "the parameters"),
                  "DIMS": py_literal(spec, "the search box"), "SCOPE": py_literal(problem.scope()),
                  "TREES": py_literal(trees, "the tree of boxes")}
    except ValueError as exc:
        raise NoCertificate(f"check.py cannot state it: {exc}") from None
    rel_src = relations_source(claim.domain, printer)
    doc = (f"Standalone check of the proof that claim {claim.id} holds on its search box: {stmt.name}\n\nRun "
           "`python check.py` (needs python-flint, not dpverify). It replays the tree of boxes\nover the search box "
           "(DIMS): every split inside its box, every leaf decided again in arb\n(the bound above the Gaussian "
           "profile at the leaf's corner (eps_lo, mu_hi), its largest value\nthere by its monotonicity), every "
           "discarded leaf outside a hypothesis. Prints one line; exit\nstatus 0 when the proof is re-derived, 1 "
           "otherwise.\n")
    source = ("#!/usr/bin/env python3\n" + py_docstring(doc) + "\n" + _HEAD + HELPERS + "\n\n"
              + "".join(f"{k} = {v}\n" for k, v in fields.items())
              + "RELATIONS = [\n" + "".join(f"    ({py_literal(t)}, lambda P: {s}),\n" for t, s in rel_src) + "]\n\n"
              + "".join(f"\ndef {k}(P):\n    return {v}\n\n" for k, v in fns.items()) + _BODY)
    return Plan("privacy-proof-on-box", f"{stmt.name}: delta(eps) <= bound on the search box {problem.scope()}", {},
                {}, "", data={"scope": problem.scope(), "boxes": sum(str(t).count("cert") for t in trees)},
                source=source)


_HEAD = head("from flint import arb, ctx, fmpq", "NOT CHECKED: python-flint is needed (pip install python-flint)")

_BODY = TREE + r'''

def exact(q):
    q = Fraction(q)
    return arb(fmpq(q.numerator, q.denominator))


def point(box):
    P = {}
    for (name, kind, _, _, _), (a, b) in zip(DIMS, box):
        if kind == "int" and a == b:
            P[name] = int(a)
        else:
            P[name] = exact(a) if a == b else exact(a).union(exact(b))
    return P


def profile(eps, mu):
    """delta(eps) of the Gaussian mechanism with mu = sensitivity/noise (Balle & Wang 2018, Thm. 8) at exact
    points, as a ball of relative radius below 2^-40 (precision doubled up to 2^14 bits)."""
    old, prec = ctx.prec, 128
    try:
        while True:
            ctx.prec = prec
            r2 = arb(2).sqrt()
            ball = (-(-eps / mu + mu / 2) / r2).erfc() / 2 - eps.exp() * ((-(-eps / mu - mu / 2) / r2).erfc() / 2)
            if ball.rel_accuracy_bits() >= 40 or prec >= 1 << 14:
                return ball
            prec *= 2
    finally:
        ctx.prec = old


def _value(fn, P):
    try:
        v = fn(P)
    except (Undecided, ArithmeticError, ValueError, TypeError, KeyError, IndexError, OverflowError):
        return None
    return v if isinstance(v, arb) else arb(v)


def decided(box):
    P = point(box)
    e, m, b = _value(EPS, P), _value(MU, P), _value(BOUND, P)
    if e is None or m is None or b is None or not (e.is_finite() and m.is_finite() and b.is_finite()) or not m > 0:
        return False
    largest = profile(arb(e.lower()), arb(m.upper()))
    return bool(largest <= b)


def outside(box):
    P = point(box)
    for _, rel in RELATIONS:
        try:
            if rel(P) is False:
                return True
        except (Undecided, ArithmeticError, ValueError, TypeError, KeyError, IndexError, OverflowError):
            continue
    return False


EXTRA = [2000]


def decide(box, depth=0):
    """The leaf decided here, bisected along its widest real side where one look does not (its own boxes)."""
    if decided(box):
        return True
    if depth >= 10 or EXTRA[0] <= 0:
        return False
    sides = [(float(b - a) / max(abs(float(a)), abs(float(b)), 1e-300), i) for i, ((_, kind, _, _, _), (a, b))
             in enumerate(zip(DIMS, box)) if kind == "real" and a != b]
    if not sides:
        return False
    i = max(sides)[1]
    a, b = box[i]
    m = (a + b) / 2
    EXTRA[0] -= 2
    return decide(box[:i] + ((a, m),) + box[i + 1:], depth + 1) and decide(box[:i] + ((m, b),) + box[i + 1:], depth + 1)


def starts():
    ranges = [[(Fraction(v), Fraction(v)) for v in values] if kind == "choice" else [(Fraction(lo), Fraction(hi))]
              for _, kind, lo, hi, values in DIMS]
    return [tuple(c) for c in itertools.product(*ranges)]


def within_hypotheses():
    """Every dimension's range lies within the claim's single-parameter hypotheses."""
    for name, kind, lo, hi, values in DIMS:
        pk, spec = PARAMS[name]
        if kind == "choice":
            if pk != "choice":
                return f"{name} is not a choice of the claim"
            continue
        lo, hi = Fraction(lo), Fraction(hi)
        for op, bound in spec.items():
            q = Fraction(bound)
            holds = {"gt": lo > q or (lo == q and kind == "real"), "ge": lo >= q,
                     "lt": hi < q or (hi == q and kind == "real"), "le": hi <= q}
            if not holds.get(op, True):
                return f"{name} in [{lo}, {hi}] reaches beyond {op} {bound}"
    return None


def main():
    why = within_hypotheses()
    if why:
        print(f"NOT CERTIFIED {CLAIM_ID}: {why}")
        return 1
    boxes = starts()
    if len(boxes) != len(TREES):
        print(f"NOT CERTIFIED {CLAIM_ID}: {len(TREES)} trees for {len(boxes)} starting boxes")
        return 1
    counts = {"cert": 0, "out": 0}

    def leaf(tag, box):
        if tag == "cert" and not decide(box):
            raise Rejected(f"a leaf is not decided here: {box}")
        if tag == "out" and not outside(box):
            raise Rejected(f"a leaf discarded as outside the hypotheses is not: {box}")
        if tag not in counts:
            raise Rejected(f"a leaf is {tag!r}, not decided")
        counts[tag] += 1

    try:
        for start, tree in zip(boxes, TREES):
            walk_tree(tree, start, [d[0] for d in DIMS], [d[1] for d in DIMS], leaf)
    except Rejected as exc:
        print(f"NOT CERTIFIED {CLAIM_ID}: {exc}")
        return 1
    print(f"CERTIFIED {CLAIM_ID}: {STATEMENT}: delta(eps) <= the bound on the search box {SCOPE} ({counts['cert']} "
          f"boxes decided again in arb, {2000 - EXTRA[0]} more of its own bisection, {counts['out']} outside the "
          "hypotheses)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
'''

__all__ = ["BUDGET", "plan"]
