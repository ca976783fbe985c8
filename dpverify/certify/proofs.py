"""Standalone checkers of proofs on the whole domain: symbolic, domain (interval) and privacy proofs.

Each builder returns a :class:`~dpverify.certify.writer.Plan` whose ``source`` is a whole ``check.py`` (SymPy and
mpmath; the privacy checker also python-flint; never dpverify). What comes from the claim enters it as data
only: expressions as SymPy's ``srepr`` checked to be calls of SymPy's public names on literals
(:func:`~dpverify.certify.asymptotic.sympy_code`), ids, names, the parameters' hypotheses and the proof's tree as
literals that read back equal (:func:`~dpverify.escape.py_literal`), text in the docstring escaped. The checker
re-derives the proof from the claim's own expressions; the recorded proof says only where to look:

* ``symbolic-proof`` (a statement the symbolic check proved): ``lhs - rhs`` (``rhs - lhs``) rebuilt, the claim's
  reparametrisation substituted, every parameter given the sign and integrality its hypotheses imply (derived in
  the checker from the hypotheses, not from the certificate's symbols), and SymPy's rewritings shown to reduce it
  to 0 (or to show its sign);
* ``domain-proof`` (an inequality the domain proof proved): ``rhs - lhs`` rebuilt for every case of the claim's
  numeric choices, and the proof's routes replayed -- SymPy's signs after shifting each parameter to an end of
  its range, factors whose product is checked to be the expression and whose signs are proved in turn, numbers,
  and the branch-and-bound tree: every split strictly inside its box (so the leaves cover the ranges the
  hypotheses give, unbounded ends included), every leaf decided again in ``mpmath.iv`` interval arithmetic
  (natural enclosure, monotone face -- an infinite end as the limit read at ``u = 0`` of ``f(end/u)`` where no
  operation meets a singularity -- or the mean-value form), every discarded leaf shown outside a hypothesis;
  a proof through a monotone reduction to a relation's end or a change of variable has no checker here; an
  identity proved by replacements with proved signs (:mod:`dpverify.checks.radicals`): each replacement checked
  (a fresh symbol with exactly the sign proved, an absolute value of a real expression, a root's replacement
  squared back to its argument), each sign's proof replayed as above, the result reduced to 0 by SymPy;
* ``privacy-proof`` (a bound equal to the exact privacy quantity): ``bound - quantity`` shown 0 by SymPy (the
  Gaussian profile rebuilt in the checker from the scenario's eps and mu by Balle & Wang's formula), then both
  evaluated in python-flint ``arb`` at the recorded points and checked to agree to a relative ``2^-50``; a bound
  proved on the search box against the Gaussian profile: :mod:`dpverify.certify.privacy_box`.
"""
from __future__ import annotations

import sympy as sp

from ..escape import py_docstring, py_literal
from . import proof_runtime as rt
from .domain_runtime import DOMAIN, IDENTITY
from .asymptotic import sympy_code
from .writer import NoCertificate, Plan, params_spec

#: routes of the domain proof a checker replays
REPLAYED = ("bnb", "number", "sympy-sign", "factors", "relax-floor", "monotone")


def _fields(claim, stmt, **more) -> str:
    try:
        base = {"CLAIM_ID": py_literal(claim.id), "STATEMENT": py_literal(stmt.name),
                "PARAMS": py_literal(params_spec(claim.domain), "the parameters")}
    except ValueError as exc:
        raise NoCertificate(f"check.py cannot state it: {exc}") from None
    return "".join(f"{k} = {v}\n" for k, v in {**base, **more}.items())


def _source(doc: str, fields: str, body: str, intervals: bool = True) -> str:
    return ("#!/usr/bin/env python3\n" + py_docstring(doc) + "\n" + rt.HEAD + fields + rt.COMMON
            + (rt.INTERVALS if intervals else "") + body)


def _doc(claim, stmt, what: str) -> str:
    return (f"Standalone check of the proof that claim {claim.id} holds: {stmt.name}\n\nRun `python check.py` "
            f"(needs SymPy and mpmath, not dpverify). {what}\nPrints one line; exit status 0 when the proof is "
            "re-derived, 1 otherwise.\n")


def symbolic_plan(claim, stmt, evidence) -> Plan:
    """The checker of a symbolic proof (see the module docstring)."""
    from ..claims import Identity, Inequality

    if not isinstance(stmt, (Identity, Inequality)) or evidence.check != "symbolic":
        raise NoCertificate("not a symbolic proof of an identity or an inequality")
    identity = isinstance(stmt, Identity)
    reparam = {sp.Symbol(str(k)) if not isinstance(k, sp.Symbol) else k: sp.sympify(v)
               for k, v in (stmt.reparam or {}).items()}
    fields = _fields(claim, stmt, KIND=py_literal("identity" if identity else "inequality"),
                     STRICT=py_literal(bool(getattr(stmt, "strict", False))),
                     LHS=sympy_code(claim.expand(stmt.lhs), "the left-hand side"),
                     RHS=sympy_code(claim.expand(stmt.rhs), "the right-hand side"),
                     REPARAM=sympy_code(reparam, "the reparametrisation") if reparam else "{}")
    doc = _doc(claim, stmt, "It rebuilds lhs - rhs (rhs - lhs for an inequality)\nfrom the claim's expressions, "
               "gives every parameter the sign and integrality its hypotheses\n(PARAMS) imply, and asks SymPy's "
               "rewritings to reduce it to 0 (or to show its sign).")
    rel = "lhs - rhs = 0" if identity else "rhs - lhs " + (">" if stmt.strict else ">=") + " 0"
    return Plan("symbolic-proof", f"{stmt.name}: {rel}", {}, {}, "", data={"proof": evidence.detail},
                source=_source(doc, fields, rt.SYMBOLIC, intervals=False))


def _signed_powers(f, recorded) -> list[int]:
    """The power of each recorded factor of ``f``, negative for a factor of the denominator: the factorisation
    the proof made (``factor_list`` of ``together(f)``'s numerator and denominator, constants left out), matched
    to the recorded factors in order."""
    num, den = sp.fraction(sp.together(f))
    parts = [(b, e) for b, e in sp.factor_list(num)[1]] + [(b, -e) for b, e in sp.factor_list(den)[1]]
    parts = [(b, e) for b, e in parts if b.free_symbols]
    if len(parts) != len(recorded) or any(sp.srepr(b) != r["factor"] for (b, _), r in zip(parts, recorded)):
        raise NoCertificate("the domain proof's factors are not reproduced")
    return [int(e) for _, e in parts]


def _node_source(node, f, depth: int = 0) -> str:
    """A proof node of ``f`` as Python source: its factors' expressions as checked srepr, everything else
    literals."""
    if depth > 12:
        raise NoCertificate("the domain proof is nested too deeply")
    by = node.get("by")
    if by not in REPLAYED:
        raise NoCertificate(f"a domain proof through the route '{by}' has no standalone checker")
    if by == "bnb":
        return "{'by': 'bnb', 'tree': " + py_literal(node["tree"], "the tree of boxes") + "}"
    if by == "number":
        return "{'by': 'number'}"
    if by == "sympy-sign":
        return "{'by': 'sympy-sign'}"
    if by == "relax-floor":
        return "{'by': 'relax-floor', 'proof': " + _node_source(node["proof"], _relaxed(f), depth + 1) + "}"
    if by == "monotone":
        if node.get("end") != "bound":
            raise NoCertificate("a domain proof through a monotone reduction to a relation's end has no standalone "
                                "checker")
        return ("{'by': 'monotone', 'var': " + py_literal(str(node["var"]))
                + ", 'sign': " + py_literal(int(node["sign"]))
                + ", 'end': 'bound', 'derivative': " + _node_source(node["derivative"], None, depth + 1)
                + ", 'rest': " + _node_source(node["rest"], _from_srepr(node["reduced"]), depth + 1) + "}")
    from ..checks.reduction import plain

    if f is None:
        raise NoCertificate("a factorisation inside a derivative's proof has no standalone checker")
    parts = []
    powers = _signed_powers(plain(sp.sympify(f)), node["factors"])
    for part, power in zip(node["factors"], powers):
        expr = _from_srepr(part["factor"])
        sub = expr if part["sign"] >= 0 else -expr
        proof = ("{'by': 'even-power'}" if part["proof"].get("by") == "even-power"
                 else _node_source(part["proof"], sub, depth + 1))
        parts.append("{'factor': " + sympy_code(expr, "a factor") + ", 'power': " + py_literal(power)
                     + ", 'sign': " + py_literal(int(part["sign"])) + ", 'proof': " + proof + "}")
    return ("{'by': 'factors', 'constant': " + py_literal(str(sp.nsimplify(node["constant"])))
            + ", 'factors': [" + ", ".join(parts) + "]}")


def _relaxed(f):
    """``f`` with each floor(g) written g - t and each ceiling(g) g + t (the relaxation's new parameters)."""
    if f is None:
        return None
    atoms = sorted(f.atoms(sp.floor, sp.ceiling), key=sp.default_sort_key)
    sub = {a: a.args[0] - sp.Symbol(f"frac{k}_") if isinstance(a, sp.floor) else a.args[0] + sp.Symbol(f"frac{k}_")
           for k, a in enumerate(atoms)}
    return f.xreplace(sub)


def _from_srepr(text: str):
    """A factor the proof recorded as ``srepr`` (made by the proof in this process, never read from disk)."""
    import ast

    sympy_names = {n for n in dir(sp) if not n.startswith("_")}
    allowed = (ast.Expression, ast.Call, ast.Name, ast.Load, ast.Constant, ast.keyword, ast.Tuple, ast.UnaryOp,
               ast.USub)
    tree = ast.parse(text, mode="eval")
    for node in ast.walk(tree):
        if not isinstance(node, allowed) or (isinstance(node, ast.Name) and node.id not in sympy_names):
            raise NoCertificate("a factor is not written with SymPy's names alone")
    return eval(compile(tree, "<factor>", "eval"), {n: getattr(sp, n) for n in sympy_names})  # noqa: S307


def domain_plan(claim, stmt, evidence) -> Plan:
    """The checker of a domain proof (see the module docstring): the proof is found again (it is deterministic:
    the same budget of boxes decides) with its trees, which the evidence leaves out."""
    from ..checks import domainproof
    from ..checks.base import Config
    from ..claims import Identity, Inequality

    if isinstance(stmt, Identity) and evidence.check == "domainproof":
        return identity_plan(claim, stmt, evidence)
    if not isinstance(stmt, Inequality) or evidence.check != "domainproof":
        raise NoCertificate("not a domain proof of an inequality")
    try:
        cases, _, _ = domainproof.prove_statement(stmt, claim, Config().proof_budget)
    except domainproof.NotApplicable as exc:
        raise NoCertificate(f"the domain proof is not reproduced: {exc}") from None
    if not cases or any(p is None for _, _, p in cases):
        raise NoCertificate("the domain proof is not reproduced")
    rows = []
    for values, goal, p in cases:
        rows.append("    (" + py_literal({k: v for k, v in values.items()}, "a case") + ", " + _node_source(p, goal.f)
                    + "),\n")
    rels = [sympy_code(r.rel, "a hypothesis") for r in claim.domain.relations]
    fields = _fields(claim, stmt, STRICT=py_literal(bool(stmt.strict)),
                     LHS=sympy_code(claim.expand(stmt.lhs), "the left-hand side"),
                     RHS=sympy_code(claim.expand(stmt.rhs), "the right-hand side"),
                     RELATIONS="[" + ", ".join(rels) + "]", CASES="[\n" + "".join(rows) + "]")
    doc = _doc(claim, stmt, "It rebuilds rhs - lhs from the claim's expressions, for every\ncase of its numeric "
               "choices, and replays the proof's routes (CASES): SymPy's signs, factors\nmultiplied back, and every "
               "box of the branch-and-bound tree decided again in mpmath's\ninterval arithmetic, each split inside "
               "its box so that the leaves cover the ranges the\nhypotheses give (unbounded ends included).")
    return Plan("domain-proof", f"{stmt.name}: rhs - lhs {'>' if stmt.strict else '>='} 0 on the whole domain", {}, {},
                "", data={"scope": (evidence.data or {}).get("scope", ""),
                          "routes": (evidence.data or {}).get("routes", [])},
                source=_source(doc, fields, DOMAIN))


def _sign_source(node, g) -> str:
    """A sign proof of ``g`` (a domain-proof node, or ``squares``: three of them) as Python source."""
    if node.get("by") != "squares":
        return _node_source(node, g)
    from ..checks.radicals import squares

    parts = squares(g)
    if parts is None:
        raise NoCertificate("a sign by squares is not a difference of two parts")
    return ("{'by': 'squares', " + ", ".join(f"'{k}': " + _node_source(node[k], part) for k, part in
                                             zip(("positive", "negative", "difference"), parts)) + "}")


def identity_plan(claim, stmt, evidence) -> Plan:
    """The checker of an identity proved by replacements with proved signs (:mod:`dpverify.checks.radicals`):
    the steps are found again (deterministic: the same budget of boxes decides) with their proofs' trees."""
    from ..checks import domainproof
    from ..checks.base import Config
    from ..checks.reduction import Budget

    try:
        _, steps = domainproof.identity_steps(stmt, claim, Config(), Budget(Config().proof_budget))
    except domainproof.NotApplicable as exc:
        raise NoCertificate(f"the identity's proof is not reproduced: {exc}") from None
    if not steps:
        raise NoCertificate("the identity's proof is not reproduced")
    rows = []
    for st in steps:
        row = {"kind": py_literal(st.kind), "target": sympy_code(st.target, "a replaced part"),
               "by": sympy_code(st.by, "a replacement"), "strict": py_literal(bool(st.strict)),
               "proof": _sign_source(st.proof, st.sign)}
        if st.symbol is not None:
            row["symbol"] = sympy_code(st.symbol, "an atom's symbol")
        rows.append("    {" + ", ".join(f"{py_literal(k)}: {v}" for k, v in row.items()) + "},\n")
    rels = [sympy_code(r.rel, "a hypothesis") for r in claim.domain.relations]
    fields = _fields(claim, stmt, LHS=sympy_code(claim.expand(stmt.lhs), "the left-hand side"),
                     RHS=sympy_code(claim.expand(stmt.rhs), "the right-hand side"),
                     RELATIONS="[" + ", ".join(rels) + "]", STEPS="[\n" + "".join(rows) + "]")
    doc = _doc(claim, stmt, "It rebuilds lhs - rhs from the claim's expressions, applies the\nrecorded "
               "replacements (STEPS) one by one, checking each: an atom's sign, an absolute value's\nsign, a square "
               "root's replacement squared back to its argument and its sign, every sign\nby its proof replayed "
               "(SymPy's signs, factors, boxes decided again in mpmath's interval\narithmetic), and asks SymPy's "
               "rewritings to reduce the result to 0.")
    return Plan("domain-proof", f"{stmt.name}: lhs - rhs = 0 on the whole domain", {}, {}, "",
                data={"scope": (evidence.data or {}).get("scope", ""),
                      "routes": (evidence.data or {}).get("routes", [])},
                source=_source(doc, fields, IDENTITY))


def privacy_plan(claim, stmt, evidence) -> Plan:
    """The checker of a privacy bound proved equal to the exact quantity (see the module docstring)."""
    from ..arb_source import HELPERS, Unprintable, printer_for
    from ..checks import privacyproof
    from ..scenarios import bind

    if evidence.check != privacyproof.LABEL or evidence.basis is None:
        raise NoCertificate("not a privacy proof")
    if evidence.basis.kind == "privacy-proof-on-box":
        from .privacy_box import plan

        return plan(claim, stmt, evidence)
    if evidence.basis.kind != "privacy-proof":
        raise NoCertificate("not a privacy proof on the whole domain or its search box")
    form = bind(stmt.scenario, claim).proof_form()
    bound = claim.expand(stmt.bound)
    if form["kind"] == "gaussian-profile":
        eps, mu = claim.expand(form["eps"]), claim.expand(form["mu"])
        quantity = privacyproof.gaussian_profile_expr(eps, mu)
        q_fields = {"EPS": sympy_code(eps, "eps"), "MU": sympy_code(mu, "mu"), "QUANTITY": "None"}
        what = "the Gaussian mechanism's exact profile (Balle & Wang), rebuilt here from eps and mu"
    else:
        quantity = claim.expand(form["expr"])
        q_fields = {"EPS": "None", "MU": "None", "QUANTITY": sympy_code(quantity, "the quantity")}
        what = f"the closed form of the quantity ({form.get('source', 'a closed form')})"
    points = [p for p in ((evidence.data or {}).get("points") or []) if isinstance(p, dict)]
    try:
        pts = py_literal([{str(k): (v if isinstance(v, int) else _ratio(v)) for k, v in p.items()} for p in points],
                         "the points")
    except (TypeError, ValueError) as exc:
        raise NoCertificate(f"the recorded points are not numbers: {exc}") from None
    printer = printer_for(claim.domain)
    try:
        arb_bound, arb_quantity = printer(bound), printer(quantity)
    except Unprintable as exc:
        raise NoCertificate(f"no ball-arithmetic form: {exc}") from None
    fields = _fields(claim, stmt, BOUND=sympy_code(bound, "the bound"), **q_fields, WHAT=py_literal(what),
                     POINTS=pts, AGREE_BITS=py_literal(privacyproof.AGREE_BITS))
    doc = _doc(claim, stmt, "It rebuilds bound - quantity (the quantity: " + what + ")\nand asks SymPy's rewritings "
               "to reduce it to 0 under the hypotheses' signs; then evaluates both\nin python-flint arb at the "
               "recorded points and checks that they agree.")
    arb_part = ("\n\ntry:\n    from flint import arb, fmpq, ctx\nexcept ImportError:  # pragma: no cover\n"
                "    print('NOT CHECKED: python-flint is needed (pip install python-flint)')\n    sys.exit(1)\n"
                + HELPERS + f"\n\ndef bound_ball(P):\n    return {arb_bound}\n\n\ndef quantity_ball(P):\n"
                f"    return {arb_quantity}\n")
    return Plan("privacy-proof", f"{stmt.name}: the bound equals {what}", {}, {}, "",
                data={"points": points}, source=_source(doc, fields, arb_part + _PRIVACY, intervals=False))


def _ratio(v):
    from fractions import Fraction

    f = Fraction(v)
    return (f.numerator, f.denominator)


_PRIVACY = r'''

def _phi(x):
    return erfc(-x / sqrt(2)) / 2


def main():
    if QUANTITY is None:
        q = _phi(-EPS / MU + MU / 2) - exp(EPS) * _phi(-EPS / MU - MU / 2)
    else:
        q = QUANTITY
    d = with_assumptions(plain(BOUND - q).xreplace(fixed_choices()))
    if not reduces_to_zero(d):
        print(f"NOT CERTIFIED {CLAIM_ID}: SymPy does not reduce bound - quantity to 0 ({d})")
        return 1
    ctx.prec = 512
    for raw in POINTS:
        P = {k: (v if isinstance(v, int) else arb(fmpq(*v))) for k, v in raw.items()}
        b, v = bound_ball(P), quantity_ball(P)
        if not (abs(b - v) < abs(v) * arb(2) ** -AGREE_BITS):
            print(f"NOT CERTIFIED {CLAIM_ID}: bound and quantity disagree in arb at {raw}")
            return 1
    print(f"CERTIFIED {CLAIM_ID}: {STATEMENT}: bound - quantity = 0 by SymPy ({WHAT}); arb agrees to "
          f"2^-{AGREE_BITS} at {len(POINTS)} points")
    return 0


if __name__ == "__main__":
    sys.exit(main())
'''

__all__ = ["REPLAYED", "domain_plan", "identity_plan", "privacy_plan", "symbolic_plan"]
