"""Rates and limits decided by their asymptotics: SymPy's limit (Gruntz) of ``expr / rate`` (a
:class:`~dpverify.claims.Rate`) or of ``expr`` (a :class:`~dpverify.claims.Limit`) along each path, the other
parameters fixed at any value of the domain (:mod:`.asymptotics` says how they become symbols, how Min/Max
and floor/ceiling are handled and what is left to the numeric sweeps).

* **A rate** ``expr = O(rate)`` along a path is proved when the limit of the ratio (every branch's and
  both sides of every sandwich) is finite for every value of the other parameters (SymPy's assumptions on
  the symbols), ``Theta`` when it is also positive; refuted when the ratio tends to infinity (``Theta``:
  or to 0) -- then the leading term of its expansion is the evidence, and the refutation stands only
  when the ratio, evaluated in mpmath along the path from a point of the domain, grows by at least
  :data:`GROWTH` and monotonically over the double-precision range (:func:`confirm`).
* **Uniformly in** ``worst_over`` (one parameter ``w``): the ratio is a sum of positive terms; each term's
  supremum over ``w`` (its limits at the ends of ``w``'s domain and its values where its derivative in
  ``w`` vanishes, SymPy's ``solve``) is a closed form in the path's parameter; their sum bounds the ratio
  for every ``w``, and a finite limit of it proves the O uniformly. A term whose value at a critical
  point ``w*(x)`` tends to infinity refutes it (the ratio at ``w = w*(x)`` is at least that term).
* **Powers with a symbolic exponent** (:mod:`.powerlaw`): for an ``O``, where a term of the ratio is ``C x**c``
  with ``c`` depending on other parameters (whose sign SymPy's limit may guess), every term is bounded along
  the path instead: each such power by the sign of ``c`` proved on the domain (a domain proof), a term without
  ``x`` as a constant, the others by SymPy's limit of their sum (finite, cross-checked in mpmath). This route
  has no standalone checker yet (``dpverify certify`` says so).
* **A limit** ``expr -> value`` is proved when every branch's limit simplifies to the value, refuted when
  they agree on a limit that differs from the value (provably, by its sign) and the expression, evaluated
  along the path at a point of the domain, approaches that limit rather than the value.

What the proof covers is said in the evidence: the path, the parameters fixed at any value of their
domain (with the hypotheses SymPy reasoned under), those it is uniform in. A proof never needs the
claim's relations between parameters (it holds on a larger set); a ``Piecewise``, a sum SymPy cannot
evaluate, a sequence or a function computed in Python is left to the sweeps, which the evidence says.
"""
from __future__ import annotations

from dataclasses import replace

import mpmath
import sympy as sp

from ..numeric import Compiled, jsonable
from ..search import sample_points
from ..claims import Limit, Rate
from ..claims.statements import START_SUFFIX
from ..verdict import Basis, Evidence
from . import asymptotics as asy
from . import powerlaw
from .domainproof import sign_prover
from .reduction import Budget
from .asymptotics import LEVELS, Unsupported
from .base import Clock, Config, SymbolicTimeout, based, time_limit
from .kind import CheckKind
from .limitcheck import cross_check, values_at

#: a refutation needs the ratio to grow (or, for Theta -> 0, shrink) by this factor along the path, in mpmath
GROWTH = 10.0
#: CPU seconds the proof of one statement may take at most (``Config.symbolic_timeout`` when smaller): a rate
#: whose limits SymPy does not find by then is left to the sweep. The registry's proofs take under 3 s (one of
#: 5 s is left to the sweep); at 8 s the failed attempts were 40 % of the uncached ``check --all``.
RATE_SECONDS = 3.0
#: the points of the confirmation: x0 * 10^(2^j), j = 0..DOUBLINGS (the double range: 10^256)
DOUBLINGS = 8
BASE_POINTS = 8
#: boxes the domain proof may spend on the signs of one case's power laws' exponents (:mod:`.powerlaw`)
SIGN_BOXES = 500


def _budget(cfg) -> float:
    return cfg.symbolic_timeout if cfg.symbolic_timeout == 0 else min(cfg.symbolic_timeout, RATE_SECONDS)


def applies_rate(stmt) -> bool:
    return isinstance(stmt, Rate)


def applies_limit(stmt) -> bool:
    return isinstance(stmt, Limit)


class PathOutcome:
    """What one path gave: ``status`` proved / refuted / open, ``text`` a phrase for the evidence,
    ``point`` (refuted: the confirming sweep), ``proof`` the steps (for a certificate)."""

    def __init__(self, status, text, proof=None, point=None):
        self.status, self.text, self.proof, self.point = status, text, proof, point


def where(path) -> str:
    return f"{path.param} -> {path.to}" + (f" ({path.label})" if path.label else "")


def _tied(path) -> dict:
    """The tied parameters as expressions in the moving parameter and the base values."""
    return {sp.Symbol(k): v for k, v in path.tied.items()}


def _names(expr) -> set[str]:
    return {str(s) for s in expr.free_symbols}


def _show(e) -> str:
    return sp.sstr(e, order="none")[:200]


def _fixed_text(setting_, path) -> str:
    covers = [c for c in setting_.covers]
    return ("for every " + ", ".join(covers)) if covers else "with no other parameter"


# --------------------------------------------------------------------------- the ratio along one path
def _path_cases(claim, exprs, path, level):
    """(setting, prepared expressions) per case, at ``level``."""
    tied = _tied(path)
    out = [claim.expand(e) for e in exprs]
    # the claim's symbols by name alone (a symbol declared positive in a claims file is the same parameter)
    out = [asy.prepare(e.xreplace({s: sp.Symbol(s.name) for s in e.free_symbols}).xreplace(tied)) for e in out]
    names = set().union(*(_names(e) for e in out)) | {path.param}
    return [(st, [st.apply(e) for e in out]) for st in asy.setting(claim, names, path.param, path.to, level)]


def _termwise(kind, ratio, st, exc):
    """When SymPy cannot limit the ratio whole: a sum of terms each eventually positive (positive at every
    value of the symbols, or with a positive or infinite limit) is eventually at least each term, so one term
    tending to infinity refutes an O (the refutation's ``lower`` is that term); else ``exc`` stands."""
    terms = sp.Add.make_args(sp.expand_mul(ratio))
    if len(terms) < 2:
        raise exc
    lims = []
    for t in terms:
        try:
            lims.append(asy.limit(t, st))
        except Unsupported:
            lims.append(None)
    eventually = [asy.is_positive(t, st) or (v is not None and (v == sp.oo or asy.is_positive(v, st)))
                  for t, v in zip(terms, lims)]
    if not all(eventually):
        raise exc
    for t, v in zip(terms, lims):
        if v == sp.oo:
            return "refuted", "a positive term of expr/rate -> oo", asy.Bounds([(sp.oo, sp.oo)], []), t
    raise exc


def _rate_case(kind, ratio, st):
    """proved / refuted / open for one case of a rate, with the limits' text and steps, and the expression
    whose limit refutes it (the ratio, or a positive term of it)."""
    try:
        b = asy.limits(ratio, st)
    except Unsupported as exc:
        return _termwise(kind, ratio, st, exc)
    lows, highs = [p[0] for p in b.limits], [p[1] for p in b.limits]
    shown = ", ".join(dict.fromkeys(_show(st.show(v)) for v in lows + highs))
    if all(v == sp.oo for v in lows):
        return "refuted", "expr/rate -> oo", b, ratio
    if kind == "Theta" and all(v == 0 for v in highs):
        return "refuted", "expr/rate -> 0", b, ratio
    finite = all(not asy.is_infinite(v) and asy.is_finite(v, st) for v in highs)
    if kind == "O" and finite:
        return "proved", f"expr/rate -> {shown}", b, ratio
    if kind == "Theta" and finite and all(not asy.is_infinite(v) and asy.is_positive(v, st) for v in lows):
        return "proved", f"expr/rate -> {shown}", b, ratio
    return "open", f"expr/rate -> {shown}, not shown {'finite' if kind == 'O' else 'finite and positive'} for " \
                   "every value of the other parameters", b, ratio


def refuted_path(stmt, claim, path, level: str = LEVELS[0]) -> PathOutcome | None:
    """The outcome of ``path`` from ``level`` on when SymPy's limits refute the rate along it (for a
    certificate), else None."""
    out = _rate_path(stmt, claim, path, LEVELS[LEVELS.index(level):])
    return out if out.status == "refuted" else None


def proved_cases(stmt, claim, path, level: str) -> list | None:
    """The cases of the proof of ``path`` at ``level`` (for a certificate): ``(setting, expression whose limit was
    taken, Bounds)`` each, or None when the proof is not reproduced there."""
    if isinstance(stmt, Rate):
        out = _rate_path(stmt, claim, path, (level,))
        if out.status != "proved" or "cases" not in out.proof or "powerlaw" in out.proof:
            return None     # a power law's exponent proved by the domain proof: no asymptotics checker for it
        return out.proof["cases"]
    cases = _path_cases(claim, (stmt.expr, stmt.value), path, level)
    results = [_limit_case(expr, value, st) for st, (expr, value) in cases]
    if not all(r[0] == "proved" for r in results):
        return None
    return [(st, expr, r[2]) for (st, (expr, _)), r in zip(cases, results)]


def _rate_path(stmt, claim, path, levels=LEVELS) -> PathOutcome:
    if not path.symbolic:
        return PathOutcome("open", "a tied parameter is a Python function (give it as a SymPy expression)")
    if path.worst_over:
        return _uniform_path(stmt, claim, path)
    reason = ""
    for level in levels:
        try:
            cases = _path_cases(claim, (stmt.expr / stmt.rate,), path, level)
            results, laws = [], []
            for st, (ratio,) in cases:
                law = (powerlaw.bounded(ratio, st, sign_prover(claim, Budget(SIGN_BOXES)))
                       if stmt.kind == "O" else None)
                if law is not None:   # before SymPy's limit, which may guess an exponent's sign
                    text, rest, lim, _ = law
                    laws.append((st, rest, lim))
                    results.append((st, "proved", text, None, ratio, None))
                    continue
                status, text, b, lower = _rate_case(stmt.kind, ratio, st)
                results.append((st, status, text, b, ratio, lower))
                if status == "refuted":
                    break
        except Unsupported as exc:
            reason = str(exc)
            continue    # SymPy could not take a limit: the next level's symbols say more
        refuted = [r for r in results if r[1] == "refuted"]
        if refuted:
            st, _, text, b, ratio, lower = refuted[0]
            return PathOutcome("refuted", text, proof={"setting": st, "ratio": ratio, "lower": lower, "bounds": b,
                                                       "level": level})
        if all(r[1] == "proved" for r in results):
            texts = "; ".join(dict.fromkeys(
                (f"{', '.join(r[0].case.values())}: " if r[0].case else "") + r[2] for r in results))
            proof = {"cases": [(r[0], r[4], r[3]) for r in results if r[3] is not None], "level": level}
            if laws:
                proof["powerlaw"] = laws
            return PathOutcome("proved", f"{texts} ({_fixed_text(results[0][0], path)})", proof=proof)
        reason = "; ".join(dict.fromkeys(r[2] for r in results if r[1] != "proved"))
        # open at this level: the next level's symbols say more
    return PathOutcome("open", reason or "SymPy could not decide")


def _uniform_path(stmt, claim, path) -> PathOutcome:
    """O uniformly in one ``worst_over`` parameter: the sum of the terms' suprema (module docstring)."""
    if len(path.worst_over) != 1 or stmt.kind != "O":
        return PathOutcome("open", "uniformity in several parameters, or a Theta's infimum, is left to the sweep")
    (wname,) = path.worst_over
    try:
        cases = _path_cases(claim, (stmt.expr / stmt.rate,), path, "bounds")
        if len(cases) != 1:
            return PathOutcome("open", "uniformity with several cases is left to the sweep")
        st, (ratio,) = cases[0]
        w = st.subs[sp.Symbol(wname)]
        if not isinstance(w, sp.Symbol) or ratio.has(sp.Min, sp.Max, sp.floor, sp.ceiling):
            return PathOutcome("open", f"the supremum over {wname} of a bounded parameter, a Min/Max or a rounding "
                                       "is left to the sweep")
        terms = sp.Add.make_args(sp.expand(ratio))
        sups = []
        for t in terms:
            if not asy.is_positive(t, st):
                return PathOutcome("open", f"a term of expr/rate is not shown positive ({_show(t)})")
            sup, at = _sup_over(t, w, st)
            lim = asy.limit(sup, st)
            if lim == sp.oo and at is not None:
                return PathOutcome("refuted", f"at {wname} = {_show(st.show(at))} a term of expr/rate -> oo",
                                   proof={"setting": st, "ratio": ratio, "curve": {sp.Symbol(wname): at},
                                          "level": "bounds"})
            sups.append(sup)
        total = sp.Add(*sups)
        lim = asy.limit(total, st)
    except Unsupported as exc:
        return PathOutcome("open", str(exc))
    if not asy.is_infinite(lim) and asy.is_finite(lim, st):
        return PathOutcome("proved", f"sup over {wname} of expr/rate <= {_show(st.show(total))} -> {_show(st.show(lim))}"
                                     f", uniformly in {wname} ({_fixed_text(st, path)})",
                           proof={"uniform": wname, "setting": st, "ratio": ratio, "sup": total, "limit": lim})
    return PathOutcome("open", f"the sum of the terms' suprema over {wname} tends to {_show(st.show(lim))}")


def _sup_over(term, w, st):
    """``(sup, at)``: the supremum over ``w > 0`` of a positive term as a closed form in the other symbols
    (max of the limits at 0+ and infinity and the values at the critical points), and the critical point
    where it is attained (None when at an end)."""
    ends = [asy.limit(term, replace(st, x=w, to=sp.Integer(0))), asy.limit(term, replace(st, x=w, to=sp.oo))]
    if any(e == sp.oo for e in ends):
        raise Unsupported(f"a term is unbounded in {w} at fixed {st.x}")
    dt = sp.diff(term, w)
    if asy.is_positive(dt, st) or asy.is_positive(-dt, st):
        return sp.Max(*ends), None
    try:
        crit = [c for c in sp.solve(sp.numer(sp.together(dt)), w) if asy.is_positive(c, st)]
    except (NotImplementedError, ValueError, TypeError):
        raise Unsupported(f"SymPy cannot solve for the critical points in {w}") from None
    if len(crit) != 1:
        raise Unsupported(f"{len(crit)} critical points in {w}")
    val = sp.simplify(term.xreplace({w: crit[0]}))
    if all(e == 0 for e in ends):
        return val, crit[0]
    return sp.Max(val, *ends), crit[0]


# --------------------------------------------------------------------------- a refutation confirmed in mpmath
def confirm(claim, stmt, path, cfg: Config, num, den, direction: int, points=None):
    """A point of the domain from which ``num/den`` evaluated in mpmath at ``x0 * 10^(+-2^j)`` grows
    (``direction = 1``) or shrinks (-1) monotonically by at least :data:`GROWTH`: ``(base, points,
    log10 ratios)``, or None. ``points``: a function ``(x, base) -> point`` (default: the path's own)."""
    bases = [cfg.at] if cfg.at is not None else sample_points(
        claim.domain.strategy(), BASE_POINTS, cfg.seed_for(claim.id, stmt.name, "rate-proof"))
    for base in bases:
        if base is None or not claim.domain.contains(base):
            continue
        x0 = float(base[path.param])
        pts, logs = [], []
        for j in range(DOUBLINGS + 1):
            try:
                x = x0 * 10.0 ** (2 ** j) if path.to == "inf" else x0 / 10.0 ** (2 ** j)
            except OverflowError:
                break
            if x == 0 or x == float("inf"):
                break
            pt = points(x, base) if points else {**base, path.param: x,
                                                 **{n: path.tied_value(n, x, base) for n in path.tied}}
            if not claim.domain.contains(pt):
                break
            vals = values_at((num, den), pt, j, cfg.dps)
            if vals is None or vals[1] == 0:
                break
            r = vals[0] / vals[1]
            if r <= 0:
                break
            pts.append(pt)
            logs.append(float(mpmath.log10(r)))
        steps = [direction * (b - a) for a, b in zip(logs, logs[1:])]
        if len(logs) >= 3 and all(s > 0 for s in steps) and direction * (logs[-1] - logs[0]) >= mpmath.log10(GROWTH):
            return base, pts, logs
    return None


# --------------------------------------------------------------------------- a proof cross-checked in mpmath
def _fixed(st) -> dict:
    """The values a case fixes (a choice, a closed end), by parameter name."""
    return {(str(k)[:-len(START_SUFFIX)] if str(k).endswith(START_SUFFIX) else str(k)): float(v)
            for k, v in st.subs.items() if v.is_number}


def _disagreement(stmt, claim, cfg, path, proof, exprs) -> str | None:
    """None when every limit the proof of ``path`` used agrees with mpmath along the path
    (:func:`.limitcheck.cross_check`), else the first disagreement. ``exprs``: (expr, rate) of a rate,
    (expr,) of a limit."""
    fns = tuple(Compiled(e, claim) for e in exprs)
    if "uniform" in proof:
        st = proof["setting"]
        return cross_check(claim, path, fns, [sp.Integer(0), st.show(proof["limit"])], cfg, stmt.name)
    for st, rest, lim in proof.get("powerlaw", ()):
        if rest != 0:   # the terms left to SymPy's limit
            why = cross_check(claim, path, (Compiled(st.show(rest), claim),), [st.show(lim)], cfg, stmt.name,
                              fixed=_fixed(st) or None)
            if why:
                return why
    for st, _, b in proof["cases"]:
        bounds = [st.show(v) for v in b.values]
        why = cross_check(claim, path, fns, bounds, cfg, stmt.name, fixed=_fixed(st) or None)
        if why:
            return (f"({', '.join(st.case.values())}) " if st.case else "") + why
    return None


# --------------------------------------------------------------------------- the checks
def _basis_rate(stmt, claim, ev) -> Basis:
    paths = ", ".join(where(p) for p in stmt.paths)
    how = "SymPy's limit (Gruntz), or a bound on every term," if "powers" in (ev.data or {}).get("routes", ()) \
        else "SymPy's limit (Gruntz)"
    return Basis("asymptotics", f"{how} of expr/rate along {paths}")


@based(_basis_rate)
def check_rate(stmt: Rate, claim, cfg: Config) -> Evidence:
    clock = Clock()
    if cfg.at is not None:
        return Evidence("symbolic", stmt.name, "inconclusive", seconds=clock.seconds,
                        detail="a proof of a rate is on the domain, not at a pinned point")
    texts, open_, levels_used, routes = [], [], {}, set()
    try:
        with time_limit(_budget(cfg)):
            for path in stmt.paths:
                levels, failed = LEVELS, []
                while True:
                    out = _rate_path(stmt, claim, path, levels)
                    if out.status == "refuted":
                        ev = _refutation(stmt, claim, cfg, path, out, clock)
                        if ev is not None:
                            return ev
                        failed.append(f"{out.text}, but the sweep in mpmath did not confirm it")
                    elif out.status == "proved":
                        why = _disagreement(stmt, claim, cfg, path, out.proof, (stmt.expr, stmt.rate))
                        if not why:
                            texts.append(f"{where(path)}: {out.text}")
                            routes.add("powers" if "powerlaw" in out.proof else "limit")
                            levels_used[where(path)] = out.proof.get("level", "uniform")
                            break
                        failed.append(f"{out.text}, not trusted: {why}")
                    else:
                        failed.append(out.text)
                    level = (out.proof or {}).get("level")
                    if level not in LEVELS[:-1] or out.status == "open":
                        open_.append(f"{where(path)}: " + "; then ".join(failed))
                        break
                    levels = LEVELS[LEVELS.index(level) + 1:]   # SymPy's symbols said too little: say more
    except SymbolicTimeout:
        return Evidence("symbolic", stmt.name, "inconclusive", seconds=clock.seconds,
                        detail=f"SymPy timed out after {_budget(cfg):g} s")
    if open_:
        return Evidence("symbolic", stmt.name, "inconclusive", seconds=clock.seconds,
                        detail="no proof of the rate: " + "; ".join(open_)
                               + (" (proved: " + "; ".join(texts) + ")" if texts else ""))
    scope = "; ".join(_scope(claim, p) for p in stmt.paths)
    how = "SymPy's limit (Gruntz)" if routes <= {"limit"} else (
        "bounding every term, powers by their exponent's sign proved on the domain" if routes == {"powers"} else
        "SymPy's limit (Gruntz) or bounding every term, powers by their exponent's sign proved on the domain")
    return Evidence("symbolic", stmt.name, "verified", seconds=clock.seconds,
                    detail=f"{stmt.kind} proved by {how} along every path: " + "; ".join(texts),
                    data={"scope": scope, "levels": levels_used, "routes": sorted(routes)})


def _scope(claim, path) -> str:
    fixed = "any values of the other parameters"
    uni = f", uniformly in {', '.join(path.worst_over)}" if path.worst_over else ""
    return f"the path {where(path)}, at {fixed} in the domain{uni}"


def _refutation(stmt, claim, cfg, path, out, clock):
    """The evidence of a refuted path, when the sweep in mpmath confirms it (None otherwise)."""
    st = out.proof["setting"]
    case = {k: v for k, v in st.subs.items() if v.is_number}
    num, den = Compiled(stmt.expr, claim), Compiled(stmt.rate, claim)
    direction = -1 if out.text.endswith("-> 0") else 1
    curve = out.proof.get("curve")
    points = None
    if curve:
        (wsym, wexpr), = curve.items()
        back = st.show(wexpr)
        f = sp.lambdify([sp.Symbol(n) for n in sorted(_names(back))], back, modules="mpmath")
        order = sorted(_names(back))

        def points(x, base):
            pt = {**base, path.param: x}
            return {**pt, str(wsym): float(f(*(pt[n] for n in order)))}
    if case:
        fixed = {(str(k)[:-len(START_SUFFIX)] if str(k).endswith(START_SUFFIX) else str(k)): float(v)
                 for k, v in case.items()}
        cf = _confirm_case(claim, stmt, path, cfg, num, den, direction, fixed, points)
    else:
        cf = confirm(claim, stmt, path, cfg, num, den, direction, points)
    if cf is None:
        return None
    base, pts, logs = cf
    lead = None
    if not curve:
        try:
            lead = asy.leading_term(out.proof["lower"], st.x, st.to)
        except Exception:  # noqa: BLE001 - the leading term is extra evidence, never the decision
            lead = None
    lead_text = f"; leading term {_show(st.show(lead))}" if lead is not None else ""
    return Evidence(
        "symbolic", stmt.name, "violated", seconds=clock.seconds, min_margin=None,
        counterexample={"params": jsonable(base), "seed": cfg.seed, "path": where(path), "base": jsonable(base),
                        "points": [jsonable(p) for p in pts]},
        detail=(f"{stmt.kind} refuted along {where(path)}: SymPy's limit (Gruntz): {out.text}"
                f"{' (' + ', '.join(st.case.values()) + ')' if st.case else ''}{lead_text}; in mpmath from the "
                f"point of the domain {_brief(base)} the ratio goes {'up' if direction > 0 else 'down'} "
                f"monotonically, log10 {logs[0]:.3g} -> {logs[-1]:.3g} over {len(logs)} points"),
        data={"log10_ratio": [round(v, 6) for v in logs], "level": out.proof["level"]})


def _confirm_case(claim, stmt, path, cfg, num, den, direction, fixed, points):
    """:func:`confirm` from base points with the case's values (a closed end, a choice) set."""
    bases = sample_points(claim.domain.strategy(fixed=fixed), BASE_POINTS,
                          cfg.seed_for(claim.id, stmt.name, "rate-proof"))
    for base in bases:
        cf = confirm(claim, stmt, path, cfg.with_(at=base), num, den, direction, points)
        if cf is not None:
            return cf
    return None


def _brief(pt) -> str:
    return "{" + ", ".join(f"{k}: {v:.4g}" if isinstance(v, float) else f"{k}: {v}" for k, v in pt.items()) + "}"


# --------------------------------------------------------------------------- limits
def _basis_limit(stmt, claim, ev) -> Basis:
    return Basis("asymptotics", f"SymPy's limit (Gruntz) as {where(stmt.path)}")


@based(_basis_limit)
def check_limit(stmt: Limit, claim, cfg: Config) -> Evidence:
    clock = Clock()
    path = stmt.path
    if not path.symbolic:
        return Evidence("symbolic", stmt.name, "inconclusive", seconds=clock.seconds,
                        detail="a tied parameter is a Python function: checked numerically only")
    reason = ""
    try:
        with time_limit(_budget(cfg)):
            for level in asy.LEVELS:
                try:
                    cases = _path_cases(claim, (stmt.expr, stmt.value), path, level)
                    results = [_limit_case(expr, value, st) for st, (expr, value) in cases]
                except Unsupported as exc:
                    reason = str(exc)
                    continue
                if all(r[0] == "proved" for r in results):
                    texts = "; ".join(dict.fromkeys(r[1] for r in results))
                    why = _disagreement(stmt, claim, cfg, path, {"cases": [(st, None, r[2]) for (st, _), r
                                                                           in zip(cases, results)]}, (stmt.expr,))
                    if why:
                        return Evidence("symbolic", stmt.name, "inconclusive", seconds=clock.seconds,
                                        detail=f"SymPy (Gruntz): as {where(path)}, {texts}; not trusted: {why}")
                    return Evidence("symbolic", stmt.name, "verified", seconds=clock.seconds,
                                    detail=f"SymPy (Gruntz): as {where(path)}, {texts} ({_fixed_text(cases[0][0], path)})",
                                    data={"scope": f"the path {where(path)}, at any values of the other parameters "
                                                   "in the domain", "levels": {where(path): level}})
                reason = "; ".join(r[1] for r in results if r[0] != "proved")
                break
    except SymbolicTimeout:
        return Evidence("symbolic", stmt.name, "inconclusive", seconds=clock.seconds,
                        detail=f"SymPy timed out after {_budget(cfg):g} s")
    return Evidence("symbolic", stmt.name, "inconclusive", seconds=clock.seconds,
                    detail=f"no proof of the limit: {reason or 'SymPy could not decide'} (decided numerically)")


def _limit_case(expr, value, st):
    b = asy.limits(expr, st)
    L = b.single
    if L is None:
        vals = ", ".join(dict.fromkeys(_show(st.show(v)) for v in b.values))
        return "open", f"the branches tend to different limits ({vals})", b
    V = asy.limit(value, st) if value.has(st.x) else value
    if L == V or (not asy.is_infinite(L) and not asy.is_infinite(V) and sp.simplify(L - V) == 0):
        return "proved", f"the limit is {_show(st.show(L))}", b
    return "open", f"SymPy finds the limit {_show(st.show(L))}, not {_show(st.show(V))}", b


KIND = CheckKind(
    name="rate-proof", label="symbolic", applies=applies_rate, check=check_rate, basis_kinds=("asymptotics",),
    can_refute=True, certificate="asymptotics", proof_certificate="asymptotics",
    summary="SymPy's limit (Gruntz) of expr/rate along each path, the other parameters symbols on their domain, "
            "cross-checked in mpmath: bounded (and positive) proves the rate, unbounded refutes it")


__all__ = ["GROWTH", "KIND", "proved_cases", "refuted_path", "where", "applies_limit", "applies_rate", "check_limit", "check_rate", "confirm"]
