"""Finding sign certificates (:mod:`.signproof` states and checks them): :func:`find` tries, for a goal
``F >= 0`` on its ranges, the ``sums`` rule where ``F`` holds a ``Sum`` and otherwise one atom assignment
after another (:func:`_choices`, most promising first), each screened on sampled points
(:func:`plausible`) before its coefficient test spends the :class:`Budget`.

A certificate found here proves nothing until :func:`.signproof.verify` has checked it.
"""
import random

import sympy as sp

from .signproof import (FIXED, ProofError, atom_goals, coefficient_sign, entry_ranges, non_rational, power_parts, same,
                        split_sums, substitute_ranges)


def _sample(ranges, rng, n=24):
    """Points of the ranges (floats), drawn in order (an end may depend on the earlier symbols)."""
    pts = []
    for _ in range(n):
        pt = {}
        ok = True
        for x, lo, hi in ranges:
            lo_v = None if lo is None else _num(lo, pt)
            hi_v = None if hi is None else _num(hi, pt)
            if (lo is not None and lo_v is None) or (hi is not None and hi_v is None):
                ok = False
                break
            if lo_v is not None and hi_v is not None:
                if hi_v < lo_v:
                    ok = False
                    break
                u = rng.random() if rng.random() > 0.25 else rng.choice([0.0, 1.0])
                v = lo_v + (hi_v - lo_v) * u
            elif lo_v is not None:
                v = lo_v + (10 ** rng.uniform(-3, 3) if rng.random() > 0.2 else 0.0)
            else:
                v = hi_v - 10 ** rng.uniform(-3, 3)
            pt[x] = v
        if ok:
            pts.append(pt)
    return pts


def _num(e, pt):
    try:
        v = complex(sp.N(e.xreplace({k: sp.Float(v, 30) for k, v in pt.items()}), 30))
    except (TypeError, ValueError, ZeroDivisionError, OverflowError):
        return None
    if abs(v.imag) > 1e-9 * max(1.0, abs(v.real)) or v.real != v.real or abs(v.real) == float("inf"):
        return None
    return v.real


def plausible(G, ranges, rng, strict=False) -> bool:
    """No sampled point of the ranges where ``G`` is clearly negative (a cheap screen before a proof)."""
    f = sp.lambdify([r[0] for r in ranges], G, modules="mpmath") if all(
        isinstance(r[0], sp.Symbol) for r in ranges) else None
    for pt in _sample(ranges, rng):
        try:
            if f is not None:
                v = float(f(*[pt[r[0]] for r in ranges]).real)
            else:
                v = _num(G, pt)
        except (TypeError, ValueError, ZeroDivisionError, OverflowError, AttributeError):
            continue
        if v is None:
            continue
        if v < -1e-9 * (1 + abs(v)):
            return False
    return True


class Budget:
    """A number of coefficient tests a search may spend."""

    def __init__(self, tests=60):
        self.left = tests

    def spend(self):
        if self.left <= 0:
            raise ProofError("search budget spent")
        self.left -= 1


def _readings(lit):
    """The ``(k, m)`` to read a power ``p**(c e)`` as ``((p**k)**n)**m``: ``(c, 1)``, and ``(1, c)`` for an
    integer ``c > 1``."""
    coeff, _ = sp.factor_terms(lit.exp).as_coeff_Mul()
    if not (coeff.is_Rational and coeff > 0):
        return [(sp.Integer(1), 1)]
    out = [(coeff, 1)]
    if coeff.is_integer and coeff > 1:
        out.append((sp.Integer(1), int(coeff)))
    return out


def _atom_options(lit):
    """The atom specifications to try for one literal."""
    if isinstance(lit, sp.exp):
        return [{"rule": "exp"}]
    if isinstance(lit, sp.log):
        return [{"rule": "log"}]
    return [{"rule": r, "k": k, "m": m} for k, m in _readings(lit) for r in ("pow01", "bernoulli", "bernoulli2")]


def find(F, ranges, seq_bounds, strict=False, budget=None, rng=None, depth=0):
    """A certificate of ``F >= 0`` (``> 0``) on ``ranges``, or raise :class:`ProofError`."""
    budget = budget or Budget()
    rng = rng or random.Random(0)
    if depth > 6:
        raise ProofError("side goals nested too deeply")
    goal = {"F": F, "strict": strict, "ranges": list(ranges)}
    split = split_sums(F) if F.has(sp.Sum) else None
    if split is not None:
        R, H, (t, a, b) = split
        t_new = sp.Symbol(f"t{depth}", integer=True)
        H = H.xreplace({t: t_new})
        rest = find(R, ranges, seq_bounds, budget=budget, rng=rng, depth=depth + 1)
        term_ranges = list(ranges) + [(t_new, a, b)] + entry_ranges(H, t_new, seq_bounds)
        term = find(H, term_ranges, seq_bounds, budget=budget, rng=rng, depth=depth + 1)
        goal["how"] = {"rule": "sums", "index": t_new, "rest": rest, "term": term}
        return goal
    lits = sorted(non_rational(F), key=lambda e: (sp.count_ops(e), sp.srepr(e)))
    bad = [e for e in lits if not isinstance(e, (sp.Pow, sp.exp, sp.log))]
    if bad:
        raise ProofError(f"cannot make rational: {bad[0]}")
    for choice in _choices(lits, ranges, rng):
        cert = _try(F, strict, ranges, choice, seq_bounds, budget, rng, depth)
        if cert is not None:
            goal["how"] = {"rule": "coefficients", "atoms": cert}
            return goal
    raise ProofError(f"no certificate for {F} {'>' if strict else '>='} 0")


def _choices(lits, ranges, rng):
    """Atom assignments to try, most promising first: every literal on its own rule, then each power
    over another of the same exponent (ratio) or over an exp (expbound)."""
    if not lits:
        yield []
        return
    options = [_atom_options(lit) for lit in lits]
    # every literal alone, the same rule and reading for all
    for r in ("pow01", "bernoulli", "bernoulli2"):
        for reading in (0, 1):
            pick = []
            for lit, o in zip(lits, options):
                if o[0]["rule"] in FIXED:
                    pick.append((lit, dict(o[0])))
                    continue
                cands = [x for x in o if x["rule"] == r]
                pick.append((lit, dict(cands[min(reading, len(cands) - 1)])))
            if reading == 0 or any(len([x for x in o if x["rule"] == r]) > 1 for o in options if o[0]["rule"] not in FIXED):
                yield pick
    # pairs: a power over another power / exp with the same exponent
    pows = [lit for lit in lits if isinstance(lit, sp.Pow)]
    exps = [lit for lit in lits if isinstance(lit, sp.exp)]
    pairs = []
    for u in pows:
        ku, _ = _readings(u)[0]
        _, nu = power_parts(u, ku)
        for v in pows:
            if v is u:
                continue
            kv, _ = _readings(v)[0]
            _, nv = power_parts(v, kv)
            if same(nu, nv):
                pairs.append((u, v, "ratio", ku, kv))
        for e in exps:
            c = sp.cancel(-e.args[0] / nu)
            if not c.has(*nu.free_symbols):
                pairs.append((u, e, "expbound", ku, None))
    for under in ("pow01", "bernoulli"):
        for u, v, kind, ku, kv in pairs:
            out = []
            for lit in [v] + [x for x in lits if x is not v and x is not u] + [u]:
                if lit is u:
                    spec = {"rule": kind, "k": ku, "m": 1, "over_literal": v}
                    if kind == "ratio":
                        spec["over_k"], spec["over_m"] = kv, 1
                elif lit is v and kind == "ratio":
                    spec = {"rule": under, "k": kv, "m": 1}
                else:
                    o = _atom_options(lit)
                    spec = dict(o[0] if o[0]["rule"] in FIXED else next(x for x in o if x["rule"] == under))
                out.append((lit, spec))
            yield out
    # groups: every power with the exponent of one power (or exp) written over it at once
    for under in ("pow01", "bernoulli"):
        for v in dict.fromkeys(p[1] for p in pairs):
            group = [p for p in pairs if p[1] is v and p[0] is not v]
            if len(group) < 2:
                continue
            over = {p[0]: p for p in group}
            out = []
            for lit in [v] + [x for x in lits if x is not v and x not in over] + list(over):
                if lit in over:
                    u, _, kind, ku, kv = over[lit]
                    spec = {"rule": kind, "k": ku, "m": 1, "over_literal": v}
                    if kind == "ratio":
                        spec["over_k"], spec["over_m"] = kv, 1
                elif lit is v and isinstance(v, sp.Pow):
                    spec = {"rule": under, "k": _readings(v)[0][0], "m": 1}
                else:
                    o = _atom_options(lit)
                    spec = dict(o[0] if o[0]["rule"] in FIXED else next(x for x in o if x["rule"] == under))
                out.append((lit, spec))
            yield out


def _try(F, strict, ranges, choice, seq_bounds, budget, rng, depth):
    """The certificate of one atom assignment, or None."""
    syms = {}
    G = F
    atom_ranges, atoms = [], []
    for j, (lit, spec) in enumerate(choice):
        spec = dict(spec)
        spec["symbol"] = sp.Symbol(f"A{depth}_{j}")
        if spec["rule"] in ("ratio", "expbound"):
            spec["over"] = syms.get(spec["over_literal"])
            if spec["over"] is None:
                return None
        try:
            goals, rep, rng_ = atom_goals(lit, spec, ranges)
        except ProofError:
            return None
        syms[lit] = spec["symbol"]
        G = G.xreplace({lit: rep})
        atom_ranges.append(rng_)
        atoms.append((lit, spec, goals))
    if non_rational(G):
        return None
    all_ranges = list(ranges) + atom_ranges
    if not plausible(G, all_ranges, rng, strict):
        return None
    budget.spend()
    expr, svars = substitute_ranges(G, all_ranges)
    if not coefficient_sign(expr, svars, strict):
        return None
    out = []
    for lit, spec, goals in atoms:
        spec["goals"] = {}
        for sub_F, sub_strict in goals:
            try:
                spec["goals"][sp.srepr(sub_F)] = find(sub_F, ranges, seq_bounds, strict=sub_strict, budget=budget,
                                                      rng=rng, depth=depth + 1)
            except ProofError:
                return None
        out.append((lit, spec))
    return out
