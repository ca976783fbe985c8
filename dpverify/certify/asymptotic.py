"""The certificate of a rate refuted by its asymptotics: a ``check.py`` that replays the limit with SymPy alone.

The rate proof (:mod:`dpverify.checks.rateproof`) refutes ``expr = O(rate)`` along a path when SymPy's limit of
``expr/rate`` (the other parameters symbols carrying the domain's bounds) is infinite, and a sweep in mpmath
confirms it. ``check.py`` (SymPy and mpmath, never dpverify) rebuilds the ratio from the claim's expressions
(written in it as SymPy's own ``srepr``, each checked to be nothing but calls of SymPy's names on literals), the
path's tied parameters and the substitution of the symbols, takes the limit again, prints the leading term of
its expansion, checks every point of the confirming sweep against the claim's hypotheses (single-parameter
bounds exactly in fractions, relations exactly in rationals) and evaluates the ratio there in mpmath at two
precisions: it must move monotonically, by at least the recorded factor, the way the limit says.
"""
from __future__ import annotations

import ast

import sympy as sp

from ..escape import py_docstring, py_literal
from .proof_runtime import SYMPY_IMPORTS, head
from .writer import NoCertificate, Plan, exact_witness, params_spec

_SYMPY_NAMES = frozenset(n for n in dir(sp) if not n.startswith("_"))
_NODES = (ast.Expression, ast.Call, ast.Name, ast.Load, ast.Constant, ast.keyword, ast.Tuple, ast.List, ast.Dict,
          ast.UnaryOp, ast.USub)


def sympy_code(expr, what: str) -> str:
    """``srepr(expr)``, checked to be only calls of SymPy's public names on literals (so that ``check.py``
    runs nothing else), else NoCertificate naming ``what``."""
    text = sp.srepr(expr)
    try:
        tree = ast.parse(text, mode="eval")
    except SyntaxError:
        raise NoCertificate(f"{what} has no SymPy source") from None
    for node in ast.walk(tree):
        if not isinstance(node, _NODES) or (isinstance(node, ast.Name) and node.id not in _SYMPY_NAMES):
            raise NoCertificate(f"{what} is not written with SymPy's names alone")
    return text


def plan(claim, stmt, evidence) -> Plan:
    """The certificate of a rate-proof violation (see the module docstring)."""
    from ..checks import rateproof

    ce = evidence.counterexample or {}
    path = next((p for p in stmt.paths if rateproof.where(p) == ce.get("path")), None)
    if path is None:
        raise NoCertificate("the violation names no path of the statement")
    level = (evidence.data or {}).get("level")
    if level not in rateproof.LEVELS:
        raise NoCertificate("the violation records no level of the proof")
    out = rateproof.refuted_path(stmt, claim, path, level)
    if out is None:
        raise NoCertificate("the refutation is not reproduced")
    proof = out.proof
    st, ratio = proof["setting"], proof["ratio"]
    if "curve" in proof or ratio.has(sp.Min, sp.Max, sp.floor, sp.ceiling):
        raise NoCertificate("a refutation through Min/Max branches, roundings or a worst-case curve has no "
                            "standalone checker")
    points = [exact_witness(claim.domain, p) for p in ce.get("points") or []]
    if len(points) < 3:
        raise NoCertificate("the violation records no confirming sweep")
    want = sp.Integer(0) if out.text.endswith("-> 0") else sp.oo
    tied = {sp.Symbol(k): v for k, v in path.tied.items()}
    rels = [sympy_code(r.rel, "a hypothesis") for r in claim.domain.relations]
    fields = {
        "CLAIM_ID": py_literal(claim.id), "STATEMENT": py_literal(stmt.name), "PATH": py_literal(ce["path"]),
        "EXPR": sympy_code(claim.expand(stmt.expr), "the expression"),
        "RATE": sympy_code(claim.expand(stmt.rate), "the rate"),
        "TIED": sympy_code(tied, "the tied parameters") if tied else "{}",
        "SUBS": sympy_code(st.subs, "the symbols' substitution"),
        "PIECES": sympy_code([pc for pc in st.pieces if pc], "the pieces of the domain's intervals"),
        "LOWER": "None" if proof["lower"] == ratio else sympy_code(proof["lower"], "the growing term"),
        "X": sympy_code(st.x, "the path's variable"), "TO": sympy_code(st.to, "the limit point"),
        "WANT": sympy_code(want, "the limit"),
        "GROWTH": repr(float(rateproof.GROWTH)),
        "PARAMS": py_literal(params_spec(claim.domain), "the parameters"),
        "RELATIONS": "[" + ", ".join(rels) + "]",
        "POINTS": py_literal(points, "the sweep's points"),
    }
    doc = (f"Standalone check that claim {claim.id} is violated: {stmt.name}\n\nRun `python check.py` (needs SymPy "
           "and mpmath, not dpverify). It takes SymPy's limit of expr/rate along\nthe path again (the other parameters "
           "symbols with the assumptions written in SUBS), checks\nthe confirming sweep's points against the claim's "
           "hypotheses and the ratio's monotone growth\nthere in mpmath. Prints one line; exit status 0 when the "
           "certificate holds, 1 otherwise.\n")
    return Plan("asymptotics", f"{stmt.name}: expr/rate -> {want} along {ce['path']}", points[-1], {}, "",
                data={"limit": str(want), "path": ce["path"], "ratio": sp.sstr(st.show(ratio))},
                source=_checker(doc, fields, _BODY))


def proof_plan(claim, stmt, evidence) -> Plan:
    """The certificate of a rate or limit proved by its asymptotics: ``check.py`` takes every case's limit again
    and shows it finite (O), finite and positive (Theta) or equal to the claimed value (a limit) with SymPy's
    assumptions (after each piece of the domain's intervals), never dpverify's own sign proofs."""
    from ..checks import rateproof
    from ..claims import Rate

    levels = (evidence.data or {}).get("levels") or {}
    if "powers" in ((evidence.data or {}).get("routes") or ()):
        raise NoCertificate("a rate bounded term by term (powers by their exponents' signs, proved on the domain) "
                            "has no standalone checker yet")
    paths = stmt.paths if isinstance(stmt, Rate) else (stmt.path,)
    cases = []
    for path in paths:
        level = levels.get(rateproof.where(path))
        if level not in rateproof.LEVELS:
            raise NoCertificate(f"the proof along {rateproof.where(path)} is uniform in a parameter or not recorded")
        found = rateproof.proved_cases(stmt, claim, path, level)
        if not found:
            raise NoCertificate(f"the proof along {rateproof.where(path)} is not reproduced")
        tied = {sp.Symbol(k): v for k, v in path.tied.items()}
        for st, _, b in found:
            if len(set(b.values)) != 1 or any(step["step"] != "limit" for step in b.steps):
                raise NoCertificate("a proof through Min/Max branches or roundings has no standalone checker")
            cases.append("    (" + ", ".join([
                py_literal(rateproof.where(path)), sympy_code(tied, "the tied parameters") if tied else "{}",
                sympy_code(st.subs, "the symbols' substitution"), sympy_code(st.x, "the path's variable"),
                sympy_code(st.to, "the limit point"), sympy_code(b.values[0], "the limit"),
                sympy_code([pc for pc in st.pieces if pc], "the pieces")]) + "),\n")
    rate = isinstance(stmt, Rate)
    fields = {
        "CLAIM_ID": py_literal(claim.id), "STATEMENT": py_literal(stmt.name),
        "KIND": py_literal(stmt.kind if rate else "limit"),
        "EXPR": sympy_code(claim.expand(stmt.expr), "the expression"),
        "OTHER": sympy_code(claim.expand(stmt.rate if rate else stmt.value), "the rate or value"),
        "CASES": "[\n" + "".join(cases) + "]",
    }
    doc = (f"Standalone check of the proof that claim {claim.id} holds: {stmt.name}\n\nRun `python check.py` (needs "
           "SymPy, not dpverify). For every path and case (the other parameters\nsymbols with the assumptions written "
           "in SUBS, which cover the domain's bounds) it takes\nSymPy's limit again and shows it finite (O), finite "
           "and positive (Theta) or equal to the\nclaimed value (a limit) from SymPy's assumptions alone. Prints one "
           "line; exit status 0\nwhen the proof is replayed, 1 otherwise.\n")
    return Plan("asymptotics-proof", f"{stmt.name}: proved along {len(paths)} path(s)", {}, {}, "",
                data={"paths": [rateproof.where(p) for p in paths], "scope": (evidence.data or {}).get("scope", "")},
                source=_checker(doc, fields, _PROOF))


def _checker(doc: str, fields: dict, body: str) -> str:
    """A ``check.py``: its docstring ``doc``, the shared head, the ``fields`` as assignments, then ``body``."""
    return ("#!/usr/bin/env python3\n" + py_docstring(doc) + "\n" + _HEAD
            + "".join(f"{k} = {v}\n" for k, v in fields.items()) + body)


_HEAD = head("import mpmath\n" + SYMPY_IMPORTS, "NOT CHECKED: SymPy is not installed (pip install sympy)")

_BODY = r'''

def _in_domain(P):
    for name, (kind, spec) in PARAMS.items():
        v = Fraction(P[name]) if kind in ("real", "int") else None
        if v is None:
            continue
        for op, bound in spec.items():
            b = Fraction(bound)
            ok = {"gt": v > b, "ge": v >= b, "lt": v < b, "le": v <= b}[op]
            if not ok:
                return f"{name} = {P[name]} breaks {op} {bound}"
    exact = {Symbol(k): Rational(str(v)) for k, v in P.items() if isinstance(v, str)}
    for rel in RELATIONS:
        by_name = {s: exact[Symbol(s.name)] for s in rel.free_symbols}
        if rel.xreplace(by_name) is not true:
            return f"the hypothesis {rel} fails"
    return None


def _nonnegative(e):
    return e.is_nonnegative or factor(e, deep=True).is_nonnegative


def _eventually_nonnegative(t):
    """t >= 0 at every value of the symbols (after each of PIECES, which together cover the domain's intervals:
    a parameter p > a written p = a + u with u > 0, ...), or t's limit along the path is positive or oo."""
    if _nonnegative(t) or (PIECES and all(_nonnegative(t.xreplace(p)) for p in PIECES)):
        return True
    lim = limit(t, X, TO, "+") if TO == 0 else limit(t, X, TO)
    return lim == oo or lim.is_positive is True


def _ratio_at(f, names, P, digits):
    with mpmath.workdps(digits):
        return f(*(mpmath.mpf(Fraction(P[n]).numerator) / Fraction(P[n]).denominator for n in names))


def main():
    ratio = (EXPR / RATE).xreplace(TIED).xreplace(SUBS)
    grows = ratio
    if LOWER is not None:
        # a sum of non-negative terms is at least each of them: the growing term is a lower bound
        terms = Add.make_args(expand_mul(ratio))
        if LOWER not in terms or not all(_eventually_nonnegative(t) for t in terms):
            print(f"NOT CERTIFIED {CLAIM_ID}: the growing term is not a term of expr/rate beside non-negative ones")
            return 1
        grows = LOWER
    lim = limit(grows, X, TO, "+") if TO == 0 else limit(grows, X, TO)
    if lim != WANT:
        print(f"NOT CERTIFIED {CLAIM_ID}: SymPy's limit along {PATH} is {lim}, not {WANT}")
        return 1
    try:
        lead = series(grows, X, TO, n=1).removeO()
    except Exception:  # noqa: BLE001 - the leading term is shown, never decided on
        lead = None
    q = EXPR / RATE
    names = sorted({s.name for s in q.free_symbols})
    f = lambdify([Symbol(n) for n in names], q.xreplace({s: Symbol(s.name) for s in q.free_symbols}), "mpmath")
    logs = []
    for j, P in enumerate(POINTS):
        why = _in_domain(P)
        if why:
            print(f"NOT CERTIFIED {CLAIM_ID}: point {j} is outside the domain: {why}")
            return 1
        d = 60 + 2 * 2 ** j
        a, b = _ratio_at(f, names, P, d), _ratio_at(f, names, P, 2 * d)
        if not (mpmath.isfinite(b) and b > 0 and abs(a - b) <= mpmath.mpf(10) ** -12 * abs(b)):
            print(f"NOT CERTIFIED {CLAIM_ID}: the ratio at point {j} is not settled in mpmath ({a} against {b})")
            return 1
        logs.append(float(mpmath.log10(b)))
    sign = 1 if WANT == oo else -1
    steps = [sign * (y - x) for x, y in zip(logs, logs[1:])]
    if not (all(s > 0 for s in steps) and sign * (logs[-1] - logs[0]) >= math.log10(GROWTH)):
        print(f"NOT CERTIFIED {CLAIM_ID}: the ratio does not move monotonically by {GROWTH:g} along the sweep ({logs})")
        return 1
    print(f"CERTIFIED {CLAIM_ID}: {STATEMENT}: expr/rate -> {lim} as {PATH}"
          + (f", leading term {lead}" if lead is not None else "")
          + f"; log10 ratio {logs[0]:.3g} -> {logs[-1]:.3g} over {len(logs)} points of the domain")
    return 0


if __name__ == "__main__":
    sys.exit(main())
'''

_PROOF = r'''

def _holds(e, prop, pieces):
    """SymPy's assumptions say e has prop (is_finite, is_positive) -- as it is, factored, or after each piece."""
    def direct(v):
        return getattr(v, prop) is True or getattr(factor(v, deep=True), prop) is True
    return direct(e) or bool(pieces) and all(direct(e.xreplace(p)) for p in pieces)


def main():
    done = []
    for path, tied, subs, x, to, recorded, pieces in CASES:
        e = (EXPR / OTHER if KIND != "limit" else EXPR).xreplace(tied).xreplace(subs)
        lim = limit(e, x, to, "+") if to == 0 else limit(e, x, to)
        if not (lim == recorded or simplify(lim - recorded) == 0):
            print(f"NOT CERTIFIED {CLAIM_ID}: along {path} the limit is {lim}, not the recorded {recorded}")
            return 1
        if KIND == "limit":
            value = OTHER.xreplace(tied).xreplace(subs)
            value = limit(value, x, to, "+") if value.has(x) and to == 0 else limit(value, x, to) if value.has(x) else value
            ok, want = lim == value or simplify(lim - value) == 0, f"the claimed value {value}"
        else:
            ok = lim not in (oo, -oo) and _holds(lim, "is_finite", pieces)
            want = "finite"
            if KIND == "Theta":
                ok, want = ok and _holds(lim, "is_positive", pieces), "finite and positive"
        if not ok:
            print(f"NOT CERTIFIED {CLAIM_ID}: along {path} the limit {lim} is not shown {want} by SymPy's assumptions")
            return 1
        done.append(f"{path}: {lim}")
    print(f"CERTIFIED {CLAIM_ID}: {STATEMENT}: " + "; ".join(done))
    return 0


if __name__ == "__main__":
    sys.exit(main())
'''

__all__ = ["plan", "proof_plan", "sympy_code"]
