"""Certificates symbolic in one parameter, proved on a whole interval with SymPy.

A rational certificate (:mod:`.pep_rational`) proves a bound at one rational value of the curvature
``q = mu/L`` (or of the step). For a claim about every ``q`` of an interval, :func:`prove` writes the same
problem with ``q`` a symbol (:mod:`.pep_exact` is written over any exact number type) and

1. finds which constraints carry the certificate: those with a positive multiplier in the exact certificates
   at a few rational sample values;
2. solves for the multipliers as rational functions of ``q``: the dual's equalities (no term in ``F`` or
   ``t`` may remain) and, where an extreme quadratic of the class (curvature ``mu`` or ``L``, one dimension)
   attains the certified bound at every sample, complementary slackness at it (``S v(q) = 0``) and the bound
   equal to its value; a multiplier the equations leave free is set to 0;
3. proves, for every ``q`` of the interval: each multiplier ``>= 0`` and every principal minor of ``S(q) >= 0``
   (a symmetric matrix is PSD iff all its principal minors are), by :func:`nonneg_on`: the numerator and
   denominator factored into square-free parts, each factor of odd multiplicity shown root-free on the open
   interval by Sturm counting (``Poly.count_roots``, exact), and the sign read at one rational point.

What comes out is the certified value ``c(q)`` (a rational function) valid on the whole interval -- and, with
the worst quadratic, attained there: tight.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction
from itertools import combinations

import sympy as sp

from . import pep_exact as E


# ------------------------------------------------------------------------------------------ signs on an interval
def _points(lo, hi):
    """Rational test points strictly inside ``(lo, hi)`` (``hi`` may be ``oo``)."""
    if hi == sp.oo:
        base = lo if lo != -sp.oo else sp.Integer(0)
        return [base + sp.Rational(1, 7), base + 1, base + sp.Rational(13, 3), base + 101]
    return [lo + (hi - lo) * sp.Rational(k, 17) for k in (1, 5, 8, 11, 16)]


def _factor_sign_ok(poly: sp.Poly, lo, hi) -> bool | None:
    """``True`` when ``poly`` (one variable) keeps one sign on the open interval ``(lo, hi)`` and that sign is
    >= 0, ``False`` when it is negative somewhere there; exact."""
    if poly.is_zero:
        return True
    c, factors = poly.sqf_list()
    sign = sp.sign(c)
    odd = [f for f, m in factors if m % 2 == 1]
    for f in odd:
        if f.degree() == 0:
            sign *= sp.sign(f.as_expr())
            continue
        inside = f.count_roots(lo, None if hi == sp.oo else hi)
        for end in (lo, hi):
            if end not in (sp.oo, -sp.oo) and f.eval(end) == 0:
                inside -= 1
        if inside > 0:
            return False              # a root of odd multiplicity inside: the sign changes
    for x in _points(lo, hi):
        vals = [f.eval(x) for f in odd if f.degree() > 0]
        if all(v != 0 for v in vals):
            s = sign
            for v in vals:
                s *= sp.sign(v)
            return bool(s >= 0)
    return None


def nonneg_on(expr, x: sp.Symbol, lo, hi) -> bool:
    """Whether the rational function ``expr`` of ``x`` is defined and ``>= 0`` on the open interval ``(lo, hi)``
    (so, by continuity, on its closure where defined); exact, ``False`` when not shown."""
    expr = sp.together(sp.sympify(expr))
    if not expr.free_symbols:
        return bool(expr >= 0)
    if expr.free_symbols != {x}:
        return False
    num, den = sp.fraction(expr)
    try:
        pn, pd = sp.Poly(sp.expand(num), x, domain="QQ"), sp.Poly(sp.expand(den), x, domain="QQ")
    except (sp.PolynomialError, sp.GeneratorsNeeded, ValueError):
        return False
    # the denominator must not vanish inside; its sign there is constant
    if pd.degree() > 0:
        inside = pd.count_roots(lo, None if hi == sp.oo else hi)
        for end in (lo, hi):
            if end not in (sp.oo, -sp.oo) and pd.eval(end) == 0:
                inside -= 1
        if inside > 0:
            return False
    d_ok = _factor_sign_ok(pd, lo, hi)
    neg_d = _factor_sign_ok(-pd, lo, hi)
    if d_ok:
        return bool(_factor_sign_ok(pn, lo, hi))
    if neg_d:
        return bool(_factor_sign_ok(-pn, lo, hi))
    return False


# ------------------------------------------------------------------------------------------ the certificate
@dataclass
class SymbolicCertificate:
    """Multipliers as rational functions of ``x`` proving ``objective <= value(x)`` for every ``x`` in ``(lo, hi)``;
    ``tight``: an extreme quadratic attains ``value`` there."""

    x: sp.Symbol
    lo: object
    hi: object
    multipliers: dict
    value: sp.Expr
    tight: bool
    witness: str = ""
    checks: list = field(default_factory=list)

    def describe(self) -> str:
        where = f"{self.lo} < {self.x} < {self.hi}"
        return (f"multipliers rational in {self.x} ({len(self.multipliers)} constraints), proved for every {where}: "
                f"worst case <= {sp.simplify(self.value)}" + (f", attained by {self.witness}" if self.tight else ""))

    def to_json(self) -> dict:
        return {"variable": str(self.x), "interval": [str(self.lo), str(self.hi)],
                "multipliers": {k: sp.sstr(v) for k, v in self.multipliers.items()}, "value": sp.sstr(self.value),
                "tight": self.tight, "witness": self.witness}


def _extreme_witness(spec_sym, x):
    """The quadratics of the class's extreme curvatures, symbolic, from ``x_0 - x* = 1`` (one dimension; by
    homogeneity the value is the statistic over the initial quantity): ``(name, vector over the basis, value,
    constraints at it)``."""
    cls = spec_sym["function_class"]
    if cls not in ("smooth_convex", "smooth_strongly_convex"):
        return []
    q = spec_sym.get("q", 0) if cls == "smooth_strongly_convex" else 0
    out = []
    for name, a in (("the quadratic of curvature mu", q), ("the quadratic of curvature L", sp.Integer(1))):
        if a == 0:
            continue
        sym = E.Symbolic(True)
        E.constraints(spec_sym, sym, only=set())
        grads = []
        k = [0]

        class Oracle:
            points = []

            def __call__(self, xv):
                i = sym.calls[k[0]]
                k[0] += 1
                if i == len(grads):
                    grads.append(E.WVec([sp.expand(a * xv[0])]))
                return grads[i], None

        E.run(spec_sym["method"], spec_sym["steps"], spec_sym.get("beta", 0), E.WVec([sp.Integer(1)]), Oracle())
        values = [sp.expand(g[0] ** 2 / (2 * a)) for g in grads]
        wit = E.Witness([sp.Integer(1)], [list(g) for g in grads], values, sym.calls)
        _, _, cons, obj = E.constraints(spec_sym, wit)
        init = sp.Integer(1) if spec_sym["init"] == "dist" else a / 2
        out.append((name, [sp.Integer(1)] + [g[0] for g in grads], sp.simplify(obj / init),
                    [(key, e) for key, e in cons if key[0] != "init"]))
    return out


def fit_rational(points, x, max_degree: int = 4):
    """The rational function ``P(x)/Q(x)`` of least total degree (numerator and denominator each at most
    ``max_degree``) through every ``(x_i, y_i)`` (exact), using at most all but one point to fit and the rest to
    confirm; ``None`` when none fits."""
    import flint

    pts = [(sp.Rational(a.numerator, a.denominator), sp.Rational(b.numerator, b.denominator)) for a, b in points]
    for total in range(0, 2 * max_degree + 1):
        for dq in range(0, min(total, max_degree) + 1):
            dp = total - dq
            if dp > max_degree or dp + dq + 2 > len(pts):
                continue
            # unknowns p_0..p_dp, q_0..q_dq with q_dq = 1 (monic denominator): P(x_i) - y_i Q(x_i) = 0
            rows = []
            for xi, yi in pts:
                rows.append([xi**j for j in range(dp + 1)] + [-yi * xi**j for j in range(dq)] + [yi * xi**dq])
            M = flint.fmpq_mat(len(rows), dp + dq + 2, [flint.fmpq(int(sp.numer(v)), int(sp.denom(v)))
                                                          for r in rows for v in r])
            R, rank = M.rref()
            m = dp + dq + 1
            piv = []
            ok = True
            for i in range(rank):
                j = next(j for j in range(m + 1) if R[i, j] != 0)
                if j == m:
                    ok = False
                    break
                piv.append(j)
            if not ok or len(piv) < m:
                continue
            sol = [sp.Rational(int(R[i, m].p), int(R[i, m].q)) for i in range(m)]
            P = sum(sol[j] * x**j for j in range(dp + 1))
            Qd = sum(sol[dp + 1 + j] * x**j for j in range(dq)) + x**dq
            f = sp.cancel(P / Qd)
            if all(Qd.subs(x, xi) != 0 and f.subs(x, xi) == yi for xi, yi in pts):
                return f
    return None


def prove(spec_sym: dict, x: sp.Symbol, lo, hi, samples: list, exact_specs) -> SymbolicCertificate | None:
    """The symbolic certificate of ``spec_sym`` (its ``q`` and steps SymPy expressions in ``x``) on ``(lo, hi)``
    (module docstring). ``samples``: rational values of ``x`` inside; ``exact_specs(v)``: the exact spec at
    ``x = v`` (Fractions). ``None`` when no certificate is proved."""
    from .pep_proof import certify

    active, values, sample_mults = set(), [], []
    for v in samples:
        proof = certify(exact_specs(v), None)
        if proof.upper is None:
            return None
        active |= {k for k, m in proof.upper["multipliers"].items() if Fraction(m) != 0}
        values.append((v, proof.upper_bound))
        sample_mults.append((v, {k: Fraction(m) for k, m in proof.upper["multipliers"].items()}))
    has_star = spec_sym["function_class"] != "smooth"
    sym = E.Symbolic(has_star)
    _, _, listed, _ = E.constraints(spec_sym, E.Symbolic(has_star), only=set())
    by_text = {E.key_text(k): k for k, _ in listed}
    keys = sorted(active, key=lambda k: (k != "init", k))
    _, _, cons, obj = E.constraints(spec_sym, sym, only={by_text[k] for k in keys})
    exprs = {E.key_text(k): e for k, e in cons if e is not None}
    lam = {k: sp.Symbol(f"lam_{i}") for i, k in enumerate(keys)}
    rest = obj
    for k in keys:
        rest = rest - exprs[k] * lam[k]
    eqs = [sp.together(v) for v in rest.lin.values()]
    n = sym.n
    S = [[-v for v in row] for row in E.gram_matrix(rest.quad, n)]
    tight, witness = False, ""
    for name, vec, wval, wcons in _extreme_witness(spec_sym, x):
        if all(sp.Rational(int(b.numerator), int(b.denominator)) == wval.subs(x, sp.Rational(v.numerator, v.denominator))
               for v, b in values):
            # complementary slackness: S v = 0; and the multipliers of constraints slack at the quadratic vanish
            kern = [sum(S[a][b] * vec[b] for b in range(n)) for a in range(n)]
            slack = {E.key_text(k) for k, e in wcons if E.key_text(k) in lam and sp.simplify(e) != 0}
            eqs += [sp.together(v) for v in kern] + [lam[k] for k in slack] + [sp.together(rest.const - wval)]
            tight, witness = True, name
            break
    eqs = [sp.expand(sp.numer(sp.together(e))) for e in eqs]
    try:
        sol = sp.linsolve([e for e in eqs if e != 0], list(lam.values()))
    except (ZeroDivisionError, ValueError, sp.PolynomialError):
        return None
    if not sol:
        return None
    (values_sol,) = list(sol)
    free = sorted(set().union(*[sp.sympify(v).free_symbols for v in values_sol]) & set(lam.values()), key=str)
    choices = [{f: 0 for f in free}]
    if free:                      # or each free multiplier as the samples' values, fitted by a rational function
        key_of = {s: k for k, s in lam.items()}
        fitted = {f: fit_rational([(v, m.get(key_of[f], Fraction(0))) for v, m in sample_mults], x) for f in free}
        if all(v is not None for v in fitted.values()):
            choices.append(fitted)
    best = None
    for subs in choices:
        mult = {k: sp.factor(sp.sympify(v).subs(subs)) for k, v in zip(lam, values_sol)}
        cert = verify(spec_sym, mult, x, lo, hi)
        if cert is None:
            continue
        value, checks = cert
        # the smallest certified value (summed over the samples) wins: the samples' own bounds where it meets them
        score = sum(value.subs(x, sp.Rational(v.numerator, v.denominator)) for v, _ in values)
        if best is None or score < best[0]:
            best = (score, SymbolicCertificate(x, lo, hi, {k: v for k, v in mult.items() if v != 0}, value, tight,
                                               witness, checks))
    return None if best is None else best[1]


def verify(spec_sym: dict, multipliers: dict, x: sp.Symbol, lo, hi):
    """``(value, checks)`` when ``multipliers`` (key text -> rational function of ``x``) certify ``objective <=
    value`` for every ``x`` in ``(lo, hi)``, else ``None``: the equalities as identities, then every multiplier
    and every principal minor of ``S`` non-negative on the interval (:func:`nonneg_on`)."""
    has_star = spec_sym["function_class"] != "smooth"
    _, _, listed, _ = E.constraints(spec_sym, E.Symbolic(has_star), only=set())
    by_text = {E.key_text(k): k for k, _ in listed}
    if set(multipliers) - set(by_text):
        return None
    sym = E.Symbolic(has_star)
    _, _, cons, obj = E.constraints(spec_sym, sym, only={by_text[k] for k in multipliers})
    exprs = {E.key_text(k): e for k, e in cons if e is not None}
    rest = obj
    for k, v in multipliers.items():
        rest = rest - exprs[k] * v
    checks = []
    for j, v in rest.lin.items():
        if sp.simplify(v) != 0:
            return None
    checks.append("every function value and t cancel (identities in the parameter)")
    for k, v in multipliers.items():
        if not nonneg_on(v, x, lo, hi):
            return None
    checks.append("every multiplier >= 0 on the interval")
    n = sym.n
    S = sp.Matrix([[sp.together(-v) for v in row] for row in E.gram_matrix(rest.quad, n)])
    for size in range(1, n + 1):
        for idx in combinations(range(n), size):
            minor = sp.factor(S.extract(list(idx), list(idx)).det(method="berkowitz"))
            if not nonneg_on(minor, x, lo, hi):
                return None
    checks.append(f"all {2 ** n - 1} principal minors of S >= 0 on the interval (S is PSD there)")
    return sp.factor(rest.const), checks


__all__ = ["SymbolicCertificate", "nonneg_on", "prove", "verify"]
