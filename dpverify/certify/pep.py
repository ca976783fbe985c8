"""Standalone checkers of worst cases over a function class: proofs (``verified``) and violations.

For a statement ``SupBound(..., scenario=worst_case(...))`` whose evidence carries a proof or a certified
violation (:mod:`dpverify.checks.pepproof`), :func:`write_proof` writes ``<out>/<claim id with / as __>--pep/``
with ``certificate.json`` and ``check.py``; a violation also takes the supremum check's certificate route
(:data:`dpverify.certify.ROUTES`, :func:`violation_plan`: kind ``worst-function``), so ``dpverify certify`` writes it. ``check.py`` is plain Python: the source of
:mod:`dpverify.sim.pep_exact` (the problem stated exactly, the exact LDL^T test; standard library only) copied
verbatim, then a ``main`` that reads ``certificate.json`` beside it. ``python check.py`` prints one line and exits
0 when every part holds:

* ``upper`` parts: the multipliers are checked exactly (non-negative, no function value left, ``S`` PSD by
  LDL^T) and the value they prove equals the recorded one, at most the claim's normalised bound;
* ``lower`` parts: the worst function is run through the method and checked against *every* constraint of the
  problem; its statistic equals the recorded value, above the bound (a violation) or equal to it (tight).

On the ``smooth`` class a worst function is checked with the function itself (``check_smooth``: one-dimensional,
``L``-smooth knot by knot, through every point, ``f(x_0) - inf f`` within the initial gap).

Not written as checkers (yet): the symbolic proofs (multipliers rational functions of one parameter on a whole
interval, and the closed forms in ``(k, N)`` that cover every horizon); their closed forms and the checks SymPy
passed are in the evidence (``data["pep_proof"]``), and every per-horizon row they cover has its own checker here.

What no checker re-derives: the normalisation (the class and the methods are invariant under
``f(x) -> f(c x)/(L c^2)``, so the problem with ``L = 1`` and a unit initial condition is the general one,
scaled) and the comparison with the claim's bound in its own units where that bound is not a rational number;
``certificate.json`` records both as dpverify computed them.
"""
from __future__ import annotations

import inspect
import json
import os
import re
from fractions import Fraction

import sympy as sp

from ..escape import py_docstring, py_literal
from ..files import write_atomic
from ..sim import pep_exact
from ..sim.pep_proof import certify, spec_json
from .writer import NoCertificate, Plan, exact_witness

HEADER = """Standalone check of a worst case over a function class ({kind}) for claim {claim}.

Run `python check.py` (standard library; not dpverify). It reads certificate.json beside it and checks
each problem's certificate exactly; prints one line; exit status 0 when every part holds, 1 otherwise. The
code below up to `main` is dpverify.sim.pep_exact, verbatim (sha256 {sha}).
"""

MAIN = r'''

# ---- the certificate's checks
import json as _json
import os as _os
import sys as _sys

CLAIM_ID = {claim}
STATEMENT = {statement}


def _rational(text, what):
    if not isinstance(text, str) or not all(c in "0123456789-/" for c in text):
        raise ValueError(f"{{what}} = {{text!r}} is not an exact rational 'p/q'")
    return Fraction(text)


def _spec(d):
    for k in ("method", "function_class", "statistic", "init"):
        if d.get(k) not in dict(method=METHODS, function_class=CLASSES, statistic=STATISTICS, init=INITS)[k]:
            raise ValueError(f"unknown {{k}} {{d.get(k)!r}}")
    return {{"method": d["method"], "function_class": d["function_class"], "statistic": d["statistic"],
            "init": d["init"], "steps": [_rational(h, "a step") for h in d["steps"]],
            "q": _rational(d["q"], "q"), "beta": _rational(d["beta"], "beta")}}


def _check(prob):
    spec = _spec(prob["spec"])
    bound = _rational(prob["bound"], "the bound")
    said = []
    if "upper" in prob:
        mult = {{str(k): _rational(v, k) for k, v in prob["upper"]["multipliers"].items()}}
        value, _ = check_upper(spec, mult)
        if value != _rational(prob["upper"]["bound"], "the upper bound"):
            return False, f"T = {{prob['T']}}: the multipliers prove {{value}}, not the recorded value"
        if value > bound:
            return False, f"T = {{prob['T']}}: the certified {{value}} is above the bound {{bound}}"
        said.append(f"<= {{value}}")
    if "lower" in prob:
        lo = prob["lower"]
        args = (spec, [_rational(v, "x0") for v in lo["x0"]], [[_rational(v, "g") for v in g] for g in lo["grads"]],
                [_rational(v, "f") for v in lo["values"]])
        if spec["function_class"] == "smooth":      # the function itself: L-smooth, bounded below, through the points
            fn = lo["function"]
            value = check_smooth(*args, {{"start": [_rational(v, "start") for v in fn["start"]],
                                         "knots": [[_rational(x, "knot"), _rational(c, "curvature")]
                                                   for x, c in fn["knots"]]}})
        else:
            value = check_lower(*args)
        if value != _rational(lo["value"], "the worst value"):
            return False, f"T = {{prob['T']}}: the worst function reaches {{value}}, not the recorded value"
        want = prob["lower"].get("relation", "above")
        if want == "above" and not value > bound:
            return False, f"T = {{prob['T']}}: the worst function's {{value}} is not above the bound {{bound}}"
        if want == "equal" and value != bound:
            return False, f"T = {{prob['T']}}: the worst function's {{value}} does not attain the bound {{bound}}"
        said.append(f">= {{value}}")
    return True, f"T = {{prob['T']}}: " + ", ".join(said)


def main():
    here = _os.path.dirname(_os.path.abspath(__file__))
    with open(_os.path.join(here, "certificate.json")) as fh:
        cert = _json.load(fh)
    if cert.get("claim") != CLAIM_ID:
        print(f"NOT CERTIFIED {{CLAIM_ID}}: certificate.json is for {{cert.get('claim')!r}}")
        return 1
    lines = []
    for prob in cert["problems"]:
        try:
            ok, line = _check(prob)
        except (ValueError, KeyError, TypeError, ZeroDivisionError, IndexError) as exc:
            ok, line = False, f"T = {{prob.get('T')}}: {{exc}}"
        if not ok:
            print(f"NOT CERTIFIED {{CLAIM_ID}} [{{STATEMENT}}]: {{line}}")
            return 1
        lines.append(line)
    print(f"CERTIFIED {{CLAIM_ID}} [{{STATEMENT}}]: {{cert['verdict']}} ({{len(lines)}} problem(s) checked exactly; "
          f"{{lines[0]}}{{'; ...' if len(lines) > 1 else ''}})")
    return 0


if __name__ == "__main__":
    _sys.exit(main())
'''


def exact_source() -> tuple[str, str]:
    """The text of :mod:`dpverify.sim.pep_exact` without its module docstring and future import, and its sha256."""
    import hashlib

    src = inspect.getsource(pep_exact)
    sha = hashlib.sha256(src.encode()).hexdigest()
    body = src.split('"""', 2)[2]                       # after the module docstring
    body = body.replace("from __future__ import annotations\n", "", 1)
    return body, sha


def _folder(out_dir: str, claim_id: str, stmt_index: int) -> str:
    if not re.fullmatch(r"[A-Za-z0-9_.\-/]+", claim_id):
        raise ValueError(f"claim id {claim_id!r} is not a plain identifier")
    return os.path.join(out_dir, claim_id.replace("/", "__") + f"--pep{stmt_index}")


def problems_for(sc, claim, stmt, evidence) -> tuple[str, list]:
    """``(verdict, problems)``: the exact problems and certificates behind ``evidence`` (recomputed: the
    certificates are deterministic, and kept by content), each as JSON."""
    from ..checks import pepproof

    data = evidence.data or {}
    out = []
    if "certificate" in data and evidence.verdict == "violated":          # a violation at the search's point
        point = (evidence.counterexample or {}).get("params") or {}
        got = sc.exact_spec(point)
        if got is None:
            return evidence.verdict, []
        spec, scale = got
        b_n = sp.simplify(pepproof.exact_bound(claim, stmt, point) / scale)
        proof = certify(spec, b_n if b_n.is_Rational else None)
        if proof.lower is None or not b_n.is_Rational:
            return evidence.verdict, []
        out.append({"T": len(spec["steps"]), "spec": spec_json(spec), "bound": sp.sstr(b_n),
                    "lower": {**proof.lower, "relation": "above"}})
        return "violated", out
    pp = data.get("pep_proof") or {}
    if pp.get("kind") != "per-horizon":
        return evidence.verdict, []
    hz = pepproof.per_horizon(sc, claim, stmt, rows_too=True)
    s = hz["symbol"] if hz else None
    for row in (hz or {}).get("rows", []):
        point = {} if s is None else {s: _symbol_value(sc, claim, s, row["T"])}
        spec, _ = sc.exact_spec(point)
        bT = sp.nsimplify(row["bound"]) if not isinstance(row["bound"], sp.Basic) else row["bound"]
        if not bT.is_Rational:
            return evidence.verdict, []
        prob = {"T": row["T"], "spec": spec_json(spec), "bound": row["bound"]}
        mult = _upper_multipliers(hz, spec, row)
        if mult is not None:
            prob["upper"] = {"multipliers": {k: str(v) for k, v in mult.items()}, "bound": row["upper"]}
        if evidence.verdict == "violated" and row.get("lower") is not None and Fraction(row["lower"]) > Fraction(str(bT)):
            proof = certify(spec, bT)
            prob = {k: v for k, v in prob.items() if k != "upper"}
            prob["lower"] = {**proof.lower, "relation": "above"}
            out.append(prob)
            return "violated", out
        if stmt.tight and row.get("lower") is not None:
            proof = certify(spec, bT)
            low = proof.lower if proof.lower is not None and proof.lower["value"] == row["lower"] else \
                _quadratic(spec, Fraction(row["lower"]))
            if low is not None:
                prob["lower"] = {**low, "relation": "equal"}
        out.append(prob)
    return evidence.verdict, out


def _symbol_value(sc, claim, s, T):
    nf = sc.normal_form()
    sym = next(x for x in nf.horizon.free_symbols if str(x) == s)
    sol = sp.solve(sp.Eq(nf.horizon, T), sym)
    return int(sol[0])


def _upper_multipliers(hz, spec, row):
    from ..sim import pep_potential as Pt

    if row["how"] == "a potential composed" and hz["rate"] is not None:
        return Pt.compose(hz["rate"], row["T"])
    proof = certify(spec, sp.nsimplify(row["bound"]) if sp.nsimplify(row["bound"]).is_Rational else None)
    if proof.upper is None or proof.upper["bound"] != row["upper"]:
        return None
    return {k: Fraction(v) for k, v in proof.upper["multipliers"].items()}


def _quadratic(spec, value):
    from ..sim.pep_proof import extreme_quadratics

    sym = pep_exact.Symbolic(True)
    pep_exact.constraints(spec, sym, only=set())
    for c in extreme_quadratics(spec, sym):
        if c.value == value:
            return c.to_json()
    return None


def checker(claim, stmt, what: str, probs: list) -> tuple[dict, str]:
    """``(certificate, check.py's text)`` for the exact ``probs`` behind ``stmt``'s verdict ``what``: what comes
    from the claim enters the source only as ``repr()`` literals that read back equal, or in the escaped
    docstring."""
    body, sha = exact_source()
    kind = "per-horizon" if len(probs) > 1 or what != "violated" else "worst function"
    cert = {"claim": claim.id, "statement": stmt.name, "verdict": what, "tight": bool(stmt.tight), "kind": kind,
            "normalisation": "L = 1 and a unit initial condition (the class is invariant under f(x) -> "
                             "f(c x)/(L c^2)); bounds are the claim's divided by the statistic's units",
            "problems": probs, "pep_exact_sha256": sha}
    text = ("#!/usr/bin/env python3\n" + py_docstring(HEADER.format(kind=kind, claim=claim.id, sha=sha))
            + "\nfrom __future__ import annotations\n" + body
            + MAIN.format(claim=py_literal(claim.id, "the claim id"), statement=py_literal(stmt.name, "the statement")))
    return cert, text


def violation_plan(claim, stmt, evidence) -> Plan:
    """The certificate route of a violated worst case over a class (:data:`dpverify.certify.ROUTES`'s
    ``supremum`` for a ``worst_case`` scenario): the worst function behind ``evidence`` (at the search's point, or
    at the horizon a per-horizon proof refuted), checked by ``check.py`` against every constraint of the problem."""
    from ..scenarios import bind

    sc = bind(stmt.scenario, claim)
    data = evidence.data or {}
    if not ({"pep_proof", "certificate"} & data.keys()):
        raise NoCertificate("the worst case over the class was measured, not certified (no exact worst function)")
    what, probs = problems_for(sc, claim, stmt, evidence)
    if what != "violated" or not probs or not all("lower" in p for p in probs):
        raise NoCertificate("no exact worst function above the bound could be rebuilt")
    cert, text = checker(claim, stmt, what, probs)
    point = (evidence.counterexample or {}).get("params") or {}
    witness = exact_witness(claim.domain, point) if claim.domain.contains(point) else {}
    return Plan("worst-function", f"{stmt.name}: the worst case over the class <= bound", witness, {}, "",
                data={k: v for k, v in cert.items() if k not in ("claim", "statement", "kind")}, source=text)


def write_proof(claim, verdict, out_dir: str) -> list[str]:
    """Write a checker for each worst-case statement of ``claim`` whose evidence in ``verdict`` is a per-horizon
    proof or a certified violation; returns the folders written (module docstring)."""
    from ..scenarios import bind
    from ..scenarios.worst_case import WorstCase

    folders = []
    for i, stmt in enumerate(claim.statements):
        if not isinstance(getattr(stmt, "scenario", None), WorstCase):
            continue
        ev = next((e for e in verdict.evidence if e.statement == stmt.name and (e.data or {}).keys() &
                   {"pep_proof", "certificate"}), None)
        if ev is None:
            continue
        sc = bind(stmt.scenario, claim)
        what, probs = problems_for(sc, claim, stmt, ev)
        if not probs:
            continue
        folder = _folder(out_dir, claim.id, i)
        os.makedirs(folder, exist_ok=True)
        cert, text = checker(claim, stmt, what, probs)
        write_atomic(os.path.join(folder, "certificate.json"), json.dumps(cert, indent=1) + "\n")
        write_atomic(os.path.join(folder, "check.py"), text)
        folders.append(folder)
    return folders


__all__ = ["checker", "exact_source", "problems_for", "violation_plan", "write_proof"]
