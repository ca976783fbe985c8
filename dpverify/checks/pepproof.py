"""Proofs of a ``SupBound`` over ``worst_case(...)``: certificates that turn a measured worst case into a proof.

The supremum check (:mod:`.sup`) measures a worst case over a class by an SDP at drawn points; a measurement
is not a proof. :func:`upgrade` then tries, in turn (the evidence's scope says which one succeeded):

1. **the whole domain, symbolically**: where the normalised problem (``h L``, ``mu/L``, the momentum) and the
   normalised bound (bound / the statistic's units) depend on one real parameter ``p`` besides the horizon
   (``mu/L`` itself when it involves two symbols, on the class's range ``(0, 1)``), a certificate whose
   multipliers are rational functions of ``p``, proved on ``p``'s whole interval (:mod:`dpverify.sim.pep_symbolic`),
   for the claim's fixed horizon or, through a one-step contraction (:mod:`dpverify.sim.pep_potential`), for
   every horizon; the bound is then compared with the certified value by exact sign arguments. Basis ``proof``,
   scope ``domain``.
2. **every horizon, or horizon by horizon**: where everything depends on the horizon only (a step ``1/L`` on
   ``L``-smooth functions from distance ``R``: the bound's normalised form ``1/(4T + 2)``), every horizon at once
   first (a one-step potential, :mod:`dpverify.sim.pep_potential`, or multipliers in closed form in ``(k, N)``,
   :mod:`dpverify.sim.pep_horizon`), else an exact certificate for each horizon from the smallest up to the
   scenario's ``proof_horizons`` (a potential composed, or the SDP's rounded dual), every one checked in
   rationals; each covers every value of the other parameters (the class is invariant under
   ``f(x) -> f(c x)/(L c^2)``). Basis ``proof`` (scope ``domain``) when every horizon of the domain is covered,
   else ``proof-horizons`` (scope ``horizons: T = a..b``).
3. **the point**: where the search's worst point violates the claim, a worst function at that point, exact and
   checked against every interpolation condition, whose value lies above the bound: the violation is certified
   (``data["certificate"]``); no upgrade otherwise.

``SupBound(..., tight=True)`` ("attained") is ``verified`` only when the upper certificate and a worst function
meet *at the bound* on the whole scope, and ``violated`` when a certified upper bound lies strictly below the bound.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction

import sympy as sp

from ..scenarios.worst_case import WorstCase
from ..claims import Int, Real
from ..verdict import Basis

#: rational sample values a symbolic certificate is built from (inside the interval, spread over it)
SAMPLES = 6
#: a symbolic certificate is sought for horizons up to this (its S has 2^(T + 2) - 1 principal minors)
SYMBOLIC_MAX_HORIZON = 2


@dataclass
class Upgrade:
    """What the proofs established: the verdict, its basis, a phrase for the detail, data for the JSON."""

    verdict: str
    basis: Basis | None
    detail: str
    data: dict = field(default_factory=dict)
    #: the parameters a certified counterexample changes in the search's point (the horizon it was found at)
    point: dict = field(default_factory=dict)


def applies(sc) -> bool:
    return isinstance(sc, WorstCase)


def _frac(x) -> Fraction:
    x = sp.nsimplify(x) if not isinstance(x, sp.Basic) else x
    return Fraction(int(x.p), int(x.q))


def _le(a: Fraction, b) -> bool | None:
    """``a <= b`` for an exact rational ``a`` and an exact SymPy number ``b`` (``None`` when SymPy cannot tell)."""
    d = sp.nsimplify(b) - sp.Rational(a.numerator, a.denominator) if not isinstance(b, sp.Basic) else \
        b - sp.Rational(a.numerator, a.denominator)
    r = d.is_nonnegative
    return None if r is None else bool(r)


def _lt(a, b: Fraction) -> bool | None:
    """``a < b`` for an exact SymPy number ``a`` and a rational ``b``."""
    r = (sp.Rational(b.numerator, b.denominator) - a).is_positive
    return None if r is None else bool(r)


# ------------------------------------------------------------------------------------------ 3. the point
def exact_bound(claim, stmt, point: dict):
    """The claim's bound at ``point``, exactly (the point's floats as their exact binary values)."""
    from ..scenarios.worst_case import exact_value

    expr = claim.expand(stmt.bound)
    return expr.subs({s: exact_value(point[str(s)]) for s in expr.free_symbols if str(s) in point})


def certify_point(sc: WorstCase, claim, stmt, point: dict) -> dict | None:
    """A certified worst function at ``point`` whose value exceeds the claim's bound there (exact), or ``None``."""
    from ..sim.pep_proof import certify

    got = sc.exact_spec(point)
    if got is None:
        return None
    spec, scale = got
    b_n = sp.simplify(exact_bound(claim, stmt, point) / scale)
    proof = certify(spec, b_n if b_n.is_Rational else None)
    lo = proof.lower_bound
    if lo is None or not _lt(b_n, lo):
        return None
    return {"kind": "worst function", "value_normalised": str(lo), "bound_normalised": sp.sstr(b_n),
            "value": float(lo * Fraction(str(sp.Rational(scale))) if scale.is_Rational else float(lo) * float(scale)),
            "dimension": len(proof.lower["x0"]), "digest": proof.digest, "spec": _spec_text(spec)}


def _spec_text(spec) -> dict:
    from ..sim.pep_proof import spec_json

    return spec_json(spec)


# ------------------------------------------------------------------------------------------ 2. horizon by horizon
def _horizon_values(sc: WorstCase, claim):
    """``(symbol or None, [(value of the symbol, T)], whole)``: the horizons to certify one by one (from the
    smallest, at most ``proof_horizons``) and whether they are all of the domain's."""
    nf = sc.normal_form()
    free = sorted(nf.horizon.free_symbols, key=str)
    if sc.proof_horizons <= 0:
        return None, [], False
    if not free:
        T = nf.horizon
        return None, ([(None, int(T))] if T.is_Integer else []), True
    if len(free) != 1:
        return None, [], False
    s = free[0]
    p = claim.domain.params.get(str(s))
    if not isinstance(p, Int):
        return None, [], False
    lo = p.ge if p.ge is not None else p.box()[0]
    hi = p.le
    top = lo + sc.proof_horizons - 1 if hi is None else min(hi, lo + sc.proof_horizons - 1)
    vals = []
    for k in range(lo, top + 1):
        T = nf.horizon.subs(s, k)
        if T.is_Integer and int(T) >= 0:
            vals.append((k, int(T)))
    return s, vals, hi is not None and top >= hi


def _at(horizon_T: int, rate, spec, bT, tight_wanted: bool):
    """``(upper, lower)`` certified for one horizon: the potential composed where there is one, else (or where it
    does not reach the bound, or a tight claim needs a worst function) the SDP's rounded certificates."""
    from ..sim import pep_exact as E
    from ..sim import pep_potential as Pt
    from ..sim.pep_proof import certify, fmpq_field

    up = lo = None
    how = "a potential composed"
    if rate is not None and horizon_T > 0 and Pt.applies(spec) and all(h == rate.h for h in spec["steps"]):
        try:
            up, _ = E.check_upper(spec, Pt.compose(rate, horizon_T), field=fmpq_field)
        except ValueError:
            up = None
        if up is not None and rate.tight and _quadratic_attains(spec, up):
            lo = up
    need = up is None or not _le(up, bT) or (tight_wanted and lo is None)
    if need:
        proof = certify(spec, bT if bT.is_Rational else None)
        if proof.upper_bound is not None and (up is None or proof.upper_bound < up):
            up, how = proof.upper_bound, "the SDP's dual rounded"
        if lo is None:
            lo = proof.lower_bound
    return up, lo, how


def per_horizon(sc: WorstCase, claim, stmt, rows_too: bool = False) -> dict | None:
    """Certificates horizon by horizon (module docstring, 2.); ``None`` when the normalised problem depends on
    more than the horizon. ``rows_too``: certify the horizons one by one even where every horizon is proved at
    once (for the standalone checkers)."""
    from ..sim import pep_potential as Pt

    nf = sc.normal_form()
    b_n = sp.simplify(claim.expand(stmt.bound) / nf.scale)
    hsyms = nf.horizon.free_symbols
    free = (nf.step.free_symbols | nf.q.free_symbols | nf.beta.free_symbols | b_n.free_symbols) - {nf.index} - hsyms
    if free:
        return None
    s, horizons, whole = _horizon_values(sc, claim)
    if not horizons:
        return None
    if not whole and s is not None:
        # every horizon at once first (a potential, or closed forms in (k, N)): each is a whole proof, with its own
        # exact certificates for the smallest horizons; then the horizons one by one are not needed
        got = sc.exact_spec({str(s): horizons[0][0]})
        every = _every(sc, claim, stmt, b_n, s, nf, got[0]) if got is not None else None
        if every is not None and every["proved"] and (every["tight"] or not stmt.tight) and not rows_too:
            return {"symbol": str(s), "rows": [], "proved": True, "tight": every["tight"], "whole": False,
                    "refuted": None, "not_attained": None, "rate": every.get("rate"), "every": every}
    rows, rate, refuted, not_attained = [], None, None, None
    proved = tight = True
    for k, T in horizons:
        point = {} if s is None else {str(s): k}
        got = sc.exact_spec(point)
        if got is None:
            return None
        spec, _ = got
        bT = b_n if s is None else b_n.subs(s, k)
        if rate is None and T > 0 and Pt.applies(spec):
            rate = _best_rate(spec, T) or False
        up, lo, how = _at(T, rate or None, spec, bT, stmt.tight)
        rows.append({"T": T, "upper": None if up is None else str(up), "lower": None if lo is None else str(lo),
                     "bound": sp.sstr(bT), "how": how})
        ok = up is not None and bool(_le(up, bT))
        proved &= ok
        tight &= ok and lo is not None and lo == up and sp.Rational(lo.numerator, lo.denominator) == bT
        if refuted is None and lo is not None and _lt(bT, lo):
            refuted = {"T": T, "lower": str(lo), "bound": sp.sstr(bT), "point": point}
        if not_attained is None and up is not None and _lt(bT, up) is False and \
                (bT - sp.Rational(up.numerator, up.denominator)).is_positive:
            not_attained = {"T": T, "upper": str(up), "bound": sp.sstr(bT), "point": point}
    every = None
    return {"symbol": None if s is None else str(s), "rows": rows, "proved": proved, "tight": tight,
            "whole": whole, "refuted": refuted, "not_attained": not_attained, "rate": rate or None, "every": every}


def _every(sc, claim, stmt, b_n, s, nf, spec):
    """Every horizon of the domain by a one-step potential, else by closed forms in ``(k, N)``; ``None`` if neither."""
    from ..sim import pep_potential as Pt

    out = None
    if Pt.applies({**spec, "steps": spec["steps"][:1]}) and spec["steps"]:
        rate = _best_rate(spec, len(spec["steps"]))
        if rate is not None:
            out = _every_horizon(rate, b_n, s, nf.horizon, claim, stmt.tight)
            if out is not None:
                out["rate"] = rate
    if out is None or not out["proved"]:
        out = _every_horizon_closed_form(sc, claim, spec, b_n, s, nf.horizon, stmt.tight) or out
    return out


def _every_horizon_closed_form(sc, claim, spec, b_n, s, horizon, tight_wanted):
    """Every horizon by multipliers in closed form in ``(k, N)`` (:mod:`dpverify.sim.pep_horizon`): gradient descent
    with one constant step, the horizon the claim's integer parameter itself."""
    from ..sim import pep_horizon as H

    if horizon != s or sc.method != "gd" or len(set(spec["steps"])) != 1 or \
            sc.function_class not in ("smooth_convex", "smooth_strongly_convex"):
        return None
    base = {k: spec[k] for k in ("method", "function_class", "statistic", "init", "q", "beta")}
    base["h"] = spec["steps"][0]
    proof = H.prove(base)
    if proof is None:
        return None
    bN = sp.simplify(b_n.subs(s, H.N_))
    p = claim.domain.params.get(str(s))
    T0 = p.ge if isinstance(p, Int) and p.ge is not None else 1
    same = sp.simplify(bN - proof.value) == 0
    from ..sim.pep_symbolic import nonneg_on

    x = sp.Symbol("x", real=True)
    if not same and (tight_wanted or not nonneg_on(sp.together(bN - proof.value).subs(H.N_, x), x,
                                                  sp.Integer(max(T0, 1)) - sp.Rational(1, 2), sp.oo)):
        return None
    witness = H.attained(base, proof.value) if same and tight_wanted else None
    if tight_wanted and witness is None:
        return None
    return {"proved": True, "tight": witness is not None,
            "how": f"multipliers in closed form in (k, N), worst case <= {sp.sstr(proof.value)} for every N"
                   + (f"; attained: {witness}" if witness else "") + "; " + "; ".join(proof.checks)}


def _best_rate(spec, T):
    from ..sim import pep_potential as Pt

    best = None
    for V in ("dist", "gap"):
        r = Pt.rate(spec, V)
        if r is not None and (best is None or r.bound(T) < best.bound(T)):
            best = r
    return best


def _quadratic_attains(spec, value: Fraction) -> bool:
    """Whether an extreme quadratic of the class (one dimension, from the initial condition) reaches ``value``."""
    from ..sim import pep_exact as E
    from ..sim.pep_proof import extreme_quadratics

    sym = E.Symbolic(True)
    E.constraints(spec, sym, only=set())
    return any(c.value == value for c in extreme_quadratics(spec, sym))


def _geometric(expr, T):
    """``(A, a)`` with ``expr == A a^T`` identically (``A``, ``a`` free of ``T``), else ``None``."""
    A = sp.simplify(expr.subs(T, 0))
    if A == 0:
        return None
    a = sp.simplify(expr.subs(T, 1) / A)
    if sp.simplify(expr - A * a**T) != 0:
        return None
    return A, a


def _every_horizon(rate, b_n, s, horizon, claim, tight_wanted):
    """Whether the potential's ``c_f rho^T c_i`` lies below the normalised bound for every horizon of the
    domain (exact comparisons of a geometric sequence): ``{"proved", "tight", "how"}`` or ``None``."""
    p = claim.domain.params.get(str(s))
    lo = p.ge if p is not None and p.ge is not None else 0
    T = sp.Symbol("T_", integer=True, nonnegative=True)
    inv = sp.solve(sp.Eq(horizon, T), s)
    if len(inv) != 1:
        return None
    bT = sp.simplify(b_n.subs(s, inv[0]))
    rho = sp.Rational(rate.rho.numerator, rate.rho.denominator)
    C = sp.Rational(rate.c_final * rate.c_initial)
    B = C * rho**T
    T0 = int(horizon.subs(s, lo))
    if sp.simplify(bT - B) == 0:
        return {"proved": True, "tight": bool(rate.tight), "how": f"a one-step potential: the bound is {sp.sstr(B)} exactly"}
    if tight_wanted:
        return None
    g = _geometric(bT, T)
    if g is None:
        return None
    A, a = g
    # A a^T >= C rho^T for every T >= T0: a >= rho >= 0 and A a^T0 >= C rho^T0
    if (a - rho).is_nonnegative and rho >= 0 and (A * a**T0 - C * rho**T0).is_nonnegative:
        return {"proved": True, "tight": False, "how": f"a one-step potential: {sp.sstr(A)} ({sp.sstr(a)})^T >= {sp.sstr(C)} ({sp.sstr(rho)})^T "
                                                        f"for every T >= {T0}"}
    return None


# ------------------------------------------------------------------------------------------ 1. the whole domain
def _interval(p):
    lo = p.gt if p.gt is not None else p.ge
    hi = p.lt if p.lt is not None else p.le
    conv = lambda v, inf: inf if v is None else sp.Rational(Fraction(float(v))) if not isinstance(v, int) \
        else sp.Integer(v)  # noqa: E731
    return conv(lo, -sp.oo), conv(hi, sp.oo)


def _samples(lo, hi) -> list:
    if lo == -sp.oo:
        return []
    if hi == sp.oo:
        return [lo + d for d in (sp.Rational(1, 3), sp.Integer(1), sp.Integer(2), sp.Integer(5), sp.Rational(17, 2),
                                 sp.Integer(30))][:SAMPLES]
    return [lo + (hi - lo) * f for f in (sp.Rational(1, 10), sp.Rational(1, 4), sp.Rational(1, 3), sp.Rational(1, 2),
                                        sp.Rational(2, 3), sp.Rational(4, 5))][:SAMPLES]


def _variable(sc, claim, nf, b_n):
    """``(variable, lo, hi, step, q, b_n)``: the one real parameter the normalised problem depends on besides the
    horizon, with its interval (``mu/L`` itself on ``(0, 1)`` when it involves two symbols), or ``None``."""
    hsyms = nf.horizon.free_symbols
    step, q = nf.step, nf.q
    free = (step.free_symbols | q.free_symbols | b_n.free_symbols) - hsyms
    if len(q.free_symbols) >= 2:
        Q = sp.Symbol("q", positive=True)
        for x in sorted(q.free_symbols, key=str):
            sol = sp.solve(sp.Eq(q, Q), x)
            if len(sol) != 1:
                continue
            st, bn = sp.simplify(step.subs(x, sol[0])), sp.simplify(b_n.subs(x, sol[0]))
            if ((st.free_symbols | bn.free_symbols) - hsyms) <= {Q}:
                return Q, sp.Integer(0), sp.Integer(1), st, Q, bn
        return None
    if len(free) != 1:
        return None
    (x,) = free
    p = claim.domain.params.get(str(x))
    if not isinstance(p, Real):
        return None
    lo, hi = _interval(p)
    if sc.function_class in ("smooth_strongly_convex", "pl") and q.free_symbols:
        # the class needs 0 < q < 1: a proof needs the interval inside it, which the claim's domain ensures
        pass
    return x, lo, hi, step, q, b_n


def _symbolic_spec(sc, step, q, T):
    return {"method": sc.method, "function_class": sc.function_class, "statistic": sc.statistic, "init": sc.init,
            "steps": [step] * T, "q": q, "beta": sp.Integer(0)}


def _exact_at(spec_sym, x, v):
    out = dict(spec_sym)
    sub = lambda e: sp.sympify(e).subs(x, v)  # noqa: E731
    out["steps"] = [_frac(sub(h)) for h in spec_sym["steps"]]
    out["q"], out["beta"] = _frac(sub(spec_sym["q"])), Fraction(0)
    return out


def symbolic(sc: WorstCase, claim, stmt) -> dict | None:
    """A proof on the whole domain (module docstring, 1.), or ``None``."""
    from ..sim import pep_potential as Pt
    from ..sim.pep_symbolic import nonneg_on, prove

    if sc.method != "gd" or sc.statistic not in ("excess", "dist_sq", "grad_norm_sq") or \
            sc.function_class == "smooth":
        return None
    nf = sc.normal_form()
    if nf.index in nf.step.free_symbols or nf.beta != 0:
        return None
    b_n = sp.simplify(claim.expand(stmt.bound) / nf.scale)
    got = _variable(sc, claim, nf, b_n)
    if got is None:
        return None
    x, lo, hi, step, q, b_n = got
    samples = _samples(lo, hi)
    if len(samples) < 3:
        return None
    exact = lambda spec_sym: (lambda v: _exact_at(spec_sym, x, sp.Rational(v.numerator, v.denominator)))  # noqa: E731
    fr = [Fraction(int(v.p), int(v.q)) for v in samples]
    hsyms = nf.horizon.free_symbols
    if not hsyms:
        T0 = int(nf.horizon)
        if T0 > SYMBOLIC_MAX_HORIZON:
            return None
        spec_sym = _symbolic_spec(sc, step, q, T0)
        cert = prove(spec_sym, x, lo, hi, fr, exact(spec_sym))
        if cert is None:
            return None
        diff = sp.simplify(b_n - cert.value)
        proved = diff == 0 or nonneg_on(diff, x, lo, hi)
        return {"proved": bool(proved), "tight": bool(cert.tight and diff == 0), "variable": str(x),
                "interval": [sp.sstr(lo), sp.sstr(hi)], "value": sp.sstr(cert.value), "horizons": f"T = {T0}",
                "certificate": cert.to_json(), "checks": cert.checks, "witness": cert.witness}
    # every horizon: the potential's three pieces, symbolic
    (s,) = hsyms if len(hsyms) == 1 else (None,)
    if s is None:
        return None
    best = None
    spec1 = _symbolic_spec(sc, step, q, 1)
    for V in ("dist", "gap"):
        if (V == "dist" and sc.function_class == "pl") or (sc.init != V and not (
                sc.init == "gap" and V == "dist" and sc.function_class == "smooth_strongly_convex")
                and not (sc.init == "dist" and V == "gap")):
            continue
        parts, ok = {}, True
        for name, sub in Pt.pieces(spec1, V).items():
            if sub is None:
                parts[name] = None
                continue
            sub = {**sub, "beta": sp.Integer(0)}
            cert = prove(sub, x, lo, hi, fr, exact(sub))
            if cert is None:
                ok = False
                break
            parts[name] = cert
        if ok:
            best = best or (V, parts)
            break
    if best is None:
        return None
    V, parts = best
    one = sp.Integer(1)
    rho = parts["step"].value
    C = (parts["final"].value if parts["final"] else one) * (parts["initial"].value if parts["initial"] else one)
    T = sp.Symbol("T_", integer=True, nonnegative=True)
    inv = sp.solve(sp.Eq(nf.horizon, T), s)
    if len(inv) != 1:
        return None
    bT = sp.simplify(b_n.subs(s, inv[0]))
    B = C * rho**T
    pdom = claim.domain.params.get(str(s))
    T0 = int(nf.horizon.subs(s, pdom.ge if isinstance(pdom, Int) and pdom.ge is not None else 0))
    tight = parts["final"] is None and parts["initial"] is None and parts["step"].tight
    if sp.simplify(bT - B) == 0:
        proved, how = True, "identical"
    else:
        tight = False
        g = _geometric(bT, T)
        proved, how = False, ""
        if g is not None:
            A, a = g
            proved = (nonneg_on(a - rho, x, lo, hi) and nonneg_on(rho, x, lo, hi)
                      and nonneg_on(A * a**T0 - C * rho**T0, x, lo, hi))
            how = "geometric"
    return {"proved": bool(proved), "tight": bool(tight), "variable": str(x), "interval": [sp.sstr(lo), sp.sstr(hi)],
            "value": sp.sstr(B.subs(T, sp.Symbol("T"))), "horizons": "every T", "potential": V, "how": how,
            "certificate": {k: (None if v is None else v.to_json()) for k, v in parts.items()},
            "checks": parts["step"].checks, "witness": parts["step"].witness}


# ------------------------------------------------------------------------------------------ the verdict
def _refute_at_point(sc, claim, stmt, verdict, point):
    """Where a measurement could not decide (a class whose SDP gives only an upper bound), a certified worst
    function at the search's point that exceeds the bound."""
    if verdict != "inconclusive" or point is None:
        return None
    cert = certify_point(sc, claim, stmt, point)
    if cert is None:
        return None
    return _certified_violation(cert, "a function of the class (one-dimensional, L-smooth, bounded below as the "
                                      "initial gap requires, checked exactly)")


def _certified_violation(cert, function: str) -> Upgrade:
    """``violated`` by the certificate ``cert`` of a worst ``function`` (the words for it) above the bound."""
    return Upgrade("violated", None, f"certified: {function} has the statistic {cert['value_normalised']} "
                                     f"(normalised) > the bound's {cert['bound_normalised']}", {"certificate": cert})


def upgrade(sc: WorstCase, claim, stmt, verdict: str, point: dict | None) -> Upgrade | None:
    """The proofs' verdict for the statement (module docstring), or ``None`` when none applies. ``verdict``:
    the measured one; ``point``: the confirmed instance's point."""
    if not applies(sc):
        return None
    on = f"{sc.algorithm} on {sc.name}"
    try:
        if verdict == "violated":
            cert = certify_point(sc, claim, stmt, point) if point is not None else None
            if cert is None:
                return None
            return _certified_violation(cert, f"a worst function of dimension {cert['dimension']}, exact and "
                                              f"checked against every interpolation condition,")
        sym = symbolic(sc, claim, stmt)
        if sym is not None and sym["proved"] and (sym["tight"] or not stmt.tight):
            what = (f"proved for every {sym['variable']} in ({sym['interval'][0]}, {sym['interval'][1]}) and "
                    f"{sym['horizons']}: the worst case is at most {sym['value']} (normalised)"
                    + (f", attained by {sym['witness']}" if sym["tight"] else "")
                    + "; " + "; ".join(sym["checks"]))
            return Upgrade("verified", Basis("proof", f"{on}: certificates symbolic in {sym['variable']}"), what,
                           {"pep_proof": {"kind": "symbolic", **{k: v for k, v in sym.items() if k != "checks"}}})
        hz = per_horizon(sc, claim, stmt)
        if hz is None:
            return _refute_at_point(sc, claim, stmt, verdict, point)
        data = {"pep_proof": {"kind": "per-horizon", "symbol": hz["symbol"], "rows": hz["rows"],
                              "every": hz["every"]}}
        Ts = [r["T"] for r in hz["rows"]]
        span = "" if not Ts else f"T = {Ts[0]}" if len(Ts) == 1 else f"T = {Ts[0]}..{Ts[-1]}"
        if hz["refuted"] is not None:
            r = hz["refuted"]
            return Upgrade("violated", None, f"certified at T = {r['T']}: a worst function (exact, every interpolation "
                           f"condition checked) has the statistic {r['lower']} > the bound's {r['bound']} "
                           "(normalised; every value of the other parameters)", data, dict(r["point"]))
        if stmt.tight and hz["not_attained"] is not None:
            r = hz["not_attained"]
            return Upgrade("violated", None, f"not attained at T = {r['T']}: a certificate proves the worst case at "
                           f"most {r['upper']} < the bound's {r['bound']} (normalised)", data, dict(r["point"]))
        if not hz["proved"] or (stmt.tight and not hz["tight"]):
            return _refute_at_point(sc, claim, stmt, verdict, point)
        every = hz["every"]
        whole = hz["whole"] or (every is not None and every["proved"] and (every["tight"] or not stmt.tight))
        how = " or ".join(sorted({r["how"] for r in hz["rows"]}))
        parts = []
        if hz["rows"]:
            parts.append(f"proved for {span} ({how}; rational certificates checked exactly: multipliers >= 0, the "
                         "equalities, LDL^T of S)" + (", each attained by a worst function" if hz["tight"] else "")
                         + "; each covers every value of the other parameters (the normalised problem depends on "
                         "the horizon only)")
        if every is not None and every["proved"]:
            parts.append(f"proved for every horizon (every value of the other parameters): {every['how']}")
        what = "; ".join(parts)
        if whole:
            by = ("" if hz["whole"] else "every horizon by " + ("a one-step potential" if every["how"].startswith(
                "a one-step potential") else "multipliers in closed form in (k, N)"))
            return Upgrade("verified", Basis("proof", f"{on}: " + (by or "per-horizon certificates")), what, data)
        return Upgrade("verified", Basis("proof-horizons", f"{span} (each horizon certified; every other parameter)"),
                       what, data)
    except (ArithmeticError, ValueError, TypeError, KeyError, NotImplementedError, sp.PolynomialError):
        return None       # an expression the proofs cannot handle (a measured constant, a function of a proof)


__all__ = ["SAMPLES", "Upgrade", "applies", "certify_point", "per_horizon", "symbolic", "upgrade"]
