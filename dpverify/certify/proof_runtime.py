"""The source text shared by the standalone checkers of proofs (symbolic, domain and privacy proofs).

Each piece is Python source that :mod:`dpverify.certify.proofs` writes into a ``check.py`` after the data of
one proof (the claim's expressions as SymPy's ``srepr``, checked to be SymPy's names on literals; ids and names
as literals). Nothing here imports dpverify: a ``check.py`` needs SymPy and mpmath (the privacy checker also
python-flint), and runs under ``python -I``.

* :data:`HEAD`: imports, the parameters' ranges and SymPy assumptions derived from the claim's single-parameter
  hypotheses (``PARAMS``: each bound an exact rational), never taken from the certificate's symbols;
* :data:`INTERVALS`: an evaluator of SymPy expressions in mpmath's interval arithmetic (``mpmath.iv``, outward
  rounded, ends may be infinite) that refuses an operation at a singularity (a division by an interval holding
  0, a logarithm of one reaching 0) instead of returning a wide interval, so that a finite value at an infinite
  end's ``u = 0`` is a limit by continuity;
* :data:`SYMBOLIC`: ``main`` of the symbolic proof's checker (the difference reduced to 0, or its sign shown,
  by SymPy's rewritings under the derived assumptions);
* :data:`DOMAIN`: ``main`` of the domain proof's checker (its tree of routes replayed, every leaf box decided
  again in interval arithmetic, every split inside its box so that the leaves cover the range).
"""
from __future__ import annotations

HEAD = r'''
import sys
from fractions import Fraction

try:
    import mpmath
    from mpmath import iv
    from sympy import *  # noqa: F401,F403 - the expressions below are SymPy's srepr
except ImportError:  # pragma: no cover - the reader's environment
    print("NOT CHECKED: SymPy and mpmath are needed (pip install sympy)")
    sys.exit(1)

'''

COMMON = r'''

def _q(text):
    f = Fraction(text)
    return Rational(f.numerator, f.denominator)


def assumed(name):
    """The SymPy symbol of a parameter with the sign and integrality its hypotheses (PARAMS) give it."""
    kind, spec = PARAMS[name]
    low = [Fraction(spec[k]) for k in ("gt", "ge") if k in spec]
    if kind == "real":
        pos = ("gt" in spec and Fraction(spec["gt"]) >= 0) or ("ge" in spec and Fraction(spec["ge"]) > 0)
        return Symbol(name, positive=True) if pos else Symbol(name)
    if kind == "int":
        if low and max(low) >= 1:
            return Symbol(name, integer=True, positive=True)
        return Symbol(name, integer=True)
    return Symbol(name)


def plain(e):
    """``e`` with every parameter's symbol made plain (assumptions dropped)."""
    return e.xreplace({s: Symbol(s.name) for s in e.free_symbols if s.name in PARAMS})


def with_assumptions(e):
    return plain(e).xreplace({Symbol(s.name): assumed(s.name) for s in e.free_symbols if s.name in PARAMS})


def fixed_choices():
    """A parameter with one numeric value is that value."""
    out = {}
    for name, (kind, spec) in PARAMS.items():
        vals = spec.get("values") if kind == "choice" else None
        if vals and len(vals) == 1 and isinstance(vals[0], (int, float)) and not isinstance(vals[0], bool):
            out[Symbol(name)] = nsimplify(vals[0])
    return out

'''

INTERVALS = r'''

class Singular(Exception):
    """An operation at (or reaching) a singularity, or one this evaluator does not know."""


def _iv(q):
    q = Rational(q)
    return iv.mpf(int(q.p)) / int(q.q)


def _monotone(fn, x, increasing=True):
    a, b = iv.mpf(x.a), iv.mpf(x.b)
    lo, hi = (fn(a), fn(b)) if increasing else (fn(b), fn(a))
    return iv.mpf([lo.a, hi.b])


def _recip(v, limit):
    """1/v over the points of v where it is defined (an end at 0 gives an infinite end); at a limit's point
    (``limit``) an interval reaching 0 is a singularity."""
    if v.a > 0 or v.b < 0:
        return 1 / v
    if limit or (v.a == 0 and v.b == 0):
        raise Singular("a division by an interval holding 0")
    if v.a == 0:
        return iv.mpf([(1 / iv.mpf(v.b)).a, "inf"])
    if v.b == 0:
        return iv.mpf(["-inf", (1 / iv.mpf(v.a)).b])
    return iv.mpf(["-inf", "inf"])


def ev(e, P, limit=False):
    """An interval holding every value of ``e`` with each symbol in its interval ``P[name]``, at the points
    where ``e`` is defined; ``limit``: refuse any operation whose argument reaches a singularity (then the
    value, finite, is the limit by continuity)."""
    if e.is_Symbol:
        return P[e.name]
    if e.is_Rational:
        return _iv(e)
    if e.is_Float:
        return _iv(Rational(e))
    if e == pi:
        return iv.pi
    if e == E:
        return iv.e
    if e.is_Add:
        out = iv.mpf(0)
        for a in e.args:
            out = out + ev(a, P, limit)
        return out
    if e.is_Mul:
        out = iv.mpf(1)
        for a in e.args:
            out = out * ev(a, P, limit)
        return out
    if e.is_Pow:
        b, x = e.args
        v = ev(b, P, limit)
        if x.is_Integer:
            n = int(x)
            return _recip(v ** (-n), limit) if n < 0 else v ** n
        if x == Rational(1, 2):
            if v.b < 0 or (limit and v.a < 0):
                raise Singular("a square root of a negative interval")
            return iv.sqrt(iv.mpf([max(v.a, 0), v.b]))
        if x.is_Rational and x < 0 and x.q == 2:
            return _recip(ev(sqrt(b) ** (-x.p), P, limit), limit)
        if v.a <= 0:
            raise Singular("a real power of an interval reaching 0")
        return iv.exp(ev(x, P, limit) * iv.log(v))
    if isinstance(e, exp):
        return iv.exp(ev(e.args[0], P, limit))
    if isinstance(e, log) and len(e.args) == 1:
        v = ev(e.args[0], P, limit)
        if v.b <= 0 or (limit and v.a <= 0):
            raise Singular("a logarithm of an interval reaching 0")
        if v.a <= 0:
            return iv.mpf(["-inf", iv.log(iv.mpf(v.b)).b])
        return iv.log(v)
    if isinstance(e, Abs):
        return abs(ev(e.args[0], P, limit))
    if isinstance(e, (Min, Max)):
        vs = [ev(a, P, limit) for a in e.args]
        pick = min if isinstance(e, Min) else max
        return iv.mpf([pick(v.a for v in vs), pick(v.b for v in vs)])
    if isinstance(e, erf):
        return _monotone(iv.erf, ev(e.args[0], P, limit))
    if isinstance(e, erfc):
        return _monotone(iv.erfc, ev(e.args[0], P, limit), increasing=False)
    if isinstance(e, (sin, cos)):
        return (iv.sin if isinstance(e, sin) else iv.cos)(ev(e.args[0], P, limit))
    if isinstance(e, atan):
        return _monotone(iv.atan, ev(e.args[0], P, limit))
    raise Singular(f"{type(e).__name__} is not evaluated in interval arithmetic here")


def enclose(e, P, limit=False):
    """``ev`` or None where it meets a singularity (the value is then unknown)."""
    try:
        v = ev(e, P, limit)
    except (Singular, ZeroDivisionError, ValueError, ArithmeticError, TypeError):
        return None
    if not (v.a == v.a and v.b == v.b):   # a NaN end
        return None
    return v


def positive(v, strict):
    return v is not None and (v.a > 0 if strict else v.a >= 0)

'''

SYMBOLIC = r'''

def _zero_rewritings():
    return (expand, cancel, lambda e: cancel(powsimp(expand(e), force=False)), together, simplify, powsimp,
            radsimp, lambda e: simplify(expand(e)))


def _sign_rewritings():
    return (lambda e: e, together, factor, simplify, lambda e: simplify(expand(e)))


def _one_sign_coefficients(e, strict):
    """A rational function of positive symbols whose numerator and denominator have coefficients of one sign."""
    syms = sorted(e.free_symbols, key=str)
    if not syms or not all(x.is_positive for x in syms):
        return False
    try:
        num, den = fraction(cancel(together(e)))
        cn, cd = Poly(expand(num), *syms).coeffs(), Poly(expand(den), *syms).coeffs()
    except Exception:  # noqa: BLE001 - not a polynomial ratio: this test says nothing
        return False
    if not cn or not cd or not all(c.is_number for c in cn + cd):
        return False
    up = all(c > 0 for c in cn) or (not strict and all(c >= 0 for c in cn))
    down = all(c < 0 for c in cn) or (not strict and all(c <= 0 for c in cn))
    return bool((up and all(c > 0 for c in cd)) or (down and all(c < 0 for c in cd)))


def difference():
    a, b = (LHS, RHS) if KIND == "identity" else (RHS, LHS)
    d = plain(a - b).xreplace(fixed_choices())
    if REPARAM:
        d = d.xreplace({Symbol(k.name): v for k, v in REPARAM.items()})
    d = with_assumptions(d)
    if d.has(Sum, Integral):
        d = d.doit()
    return d


def main():
    for k, v in REPARAM.items():
        if k.name not in PARAMS or not all(s.is_positive for s in v.free_symbols if s.name not in PARAMS):
            print(f"NOT CERTIFIED {CLAIM_ID}: the reparametrisation of {k} is not in fresh positive symbols")
            return 1
    d = difference()
    if KIND == "identity":
        done = d == 0
        for f in _zero_rewritings():
            if done:
                break
            try:
                done = f(d) == 0
            except Exception:  # noqa: BLE001 - a rewriting SymPy cannot do proves nothing
                continue
        if not done and not d.free_symbols:
            done = d.equals(0) is True
        what = "lhs - rhs = 0"
    else:
        done = _one_sign_coefficients(d, STRICT)
        for f in _sign_rewritings():
            if done:
                break
            try:
                g = f(d)
            except Exception:  # noqa: BLE001
                continue
            done = (g.is_positive if STRICT else g.is_nonnegative) is True
        what = "rhs - lhs " + (">" if STRICT else ">=") + " 0"
    if not done:
        print(f"NOT CERTIFIED {CLAIM_ID}: SymPy does not show {what} from the hypotheses ({d})")
        return 1
    where = f" with the claim's reparametrisation {REPARAM} (positive new symbols)" if REPARAM else ""
    print(f"CERTIFIED {CLAIM_ID}: {STATEMENT}: SymPy shows {what} under the hypotheses' signs{where}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
'''

DOMAIN = r'''

class Rejected(Exception):
    pass


def ranges(names):
    """Each parameter's range from its hypotheses, closed (an open end taken closed covers more points)."""
    out = []
    for name in names:
        kind, spec = PARAMS[name]
        if kind not in ("real", "int"):
            raise Rejected(f"{name} is not a real or integer parameter")
        low = [Fraction(spec[k]) for k in ("gt", "ge") if k in spec]
        high = [Fraction(spec[k]) for k in ("lt", "le") if k in spec]
        out.append((name, kind, max(low) if low else None, min(high) if high else None))
    return out


def point_of(variables, box):
    P = {}
    for (name, kind, _, _), (a, b) in zip(variables, box):
        lo = iv.mpf("-inf") if a is None else _iv(a)
        hi = iv.mpf("inf") if b is None else _iv(b)
        P[name] = iv.mpf([lo.a, hi.b])
    return P


def forms(f):
    out = [f]
    try:
        g = together(f)
        if g != f:
            out.append(g)
    except Exception:  # noqa: BLE001
        pass
    return out


def lower(exprs, P, limit=False):
    """The best lower end among the enclosures of ``exprs`` (each equal to f where defined)."""
    best = None
    for e in exprs:
        v = enclose(e, P, limit)
        if v is not None and (best is None or v.a > best.a):
            best = v
    return best


def _limit_forms(f, x, sign):
    u = Symbol("u_inf_", positive=True)
    g = f.xreplace({x: sign / u})
    out = []
    for h in (cancel(together(g)), together(g)):
        if h not in out:
            out.append(h)
    return u, out


def face_lower(f, variables, box, ends):
    """A lower enclosure of f on the face of ``box`` with each variable of ``ends`` at its end (an infinite end
    as the limit: f(end/u) at u = 0, accepted only when no operation meets a singularity)."""
    face = list(box)
    inf = []
    for i, side in ends.items():
        a, b = box[i]
        end = a if side == "lo" else b
        if end is None:
            inf.append((i, -1 if side == "lo" else 1))
            face[i] = (Fraction(0), Fraction(0))
        else:
            face[i] = (end, end)
    P = point_of(variables, face)
    g = [f]
    for i, s in inf:
        x = Symbol(variables[i][0])
        new = []
        for h in g:
            u, hs = _limit_forms(h, x, s)
            new += [k.xreplace({u: x}) for k in hs]
        g = new
    return lower(g, P, limit=True) if inf else lower(forms(f), P)


def decide_leaf(f, variables, box, strict, depth=0):
    syms = [Symbol(v[0]) for v in variables]
    P = point_of(variables, box)
    if positive(lower(forms(f), P), strict):
        return True
    grads, ends = {}, {}
    for i, x in enumerate(syms):
        a, b = box[i]
        if a is not None and a == b:
            continue
        d = diff(f, x)
        # the derivative with no singularity on the box (a monotone face, the mean-value form need f
        # differentiable on the whole box)
        g = lower(forms(d), P, limit=True) if d != 0 else iv.mpf(0)
        grads[i] = g
        if g is not None and g.a >= 0:
            ends[i] = "lo"
        elif g is not None and g.b <= 0:
            ends[i] = "hi"
    if ends and not f.has(floor, ceiling, sign, Piecewise, Heaviside, Mod, frac):
        if positive(face_lower(f, variables, box, ends), strict):
            return True
    bounded = all(a is not None and b is not None for a, b in box)
    if bounded and all(grads.get(i) is not None for i in range(len(box)) if box[i][0] != box[i][1]) \
            and not any(variables[i][1] == "int" and box[i][0] != box[i][1] for i in range(len(box))):
        centre = [(a, b) if a == b else ((a + b) / 2,) * 2 for a, b in box]
        C = point_of(variables, centre)
        total = lower(forms(f), C)
        if total is not None:
            for i, g in grads.items():
                total = total + g * (P[variables[i][0]] - C[variables[i][0]])
            if positive(total, strict):
                return True
    return False


def relation_false(rel, P):
    """Whether the relation ``rel`` (a SymPy relational) is certainly false on the box P."""
    d = enclose(rel.lhs - rel.rhs, P)
    if d is None:
        return False
    name = type(rel).__name__
    if name in ("StrictLessThan",):
        return d.a >= 0
    if name in ("LessThan",):
        return d.a > 0
    if name in ("StrictGreaterThan",):
        return d.b <= 0
    if name in ("GreaterThan",):
        return d.b < 0
    return False


def split_ok(kind, a, b, m):
    if kind == "int":
        return (a is None or a <= m) and (b is None or m < b) and m.denominator == 1
    return (a is None or a < m) and (b is None or m < b)


def replay_tree(f, variables, relations, strict, tree, counts):
    """Walk the recorded tree from the root box (the ranges); every split strictly inside its box, every
    leaf decided again here."""
    stack = [(tree, tuple((lo, hi) for _, _, lo, hi in variables))]
    while stack:
        node, box = stack.pop()
        if not isinstance(node, list) or not node:
            raise Rejected("a node of the tree is not a list")
        if node[0] == "split":
            _, i, m, low, high = node
            if not (isinstance(i, int) and 0 <= i < len(variables)):
                raise Rejected("a split names no parameter")
            m = Fraction(m)
            kind = variables[i][1]
            a, b = box[i]
            if not split_ok(kind, a, b, m):
                raise Rejected(f"a split point {m} of {variables[i][0]} is outside its box")
            stack.append((low, box[:i] + ((a, m),) + box[i + 1:]))
            stack.append((high, box[:i] + ((m + 1 if kind == "int" else m, b),) + box[i + 1:]))
        elif node[0] == "cert":
            if not decide_leaf(f, variables, box, strict):
                raise Rejected(f"a leaf is not decided here: {describe(variables, box)}")
            counts["leaves"] += 1
        elif node[0] == "out":
            P = point_of(variables, box)
            if not any(relation_false(r, P) for r in relations):
                raise Rejected(f"a leaf discarded as outside the hypotheses is not: {describe(variables, box)}")
            counts["out"] += 1
        else:
            raise Rejected(f"a leaf is {node[0]!r}, not decided")


def describe(variables, box):
    return ", ".join(f"{v[0]} in [{'-inf' if a is None else a}, {'inf' if b is None else b}]"
                     for v, (a, b) in zip(variables, box))


def goal(f, relations):
    names = sorted(s.name for s in f.free_symbols)
    for n in names:
        if n not in PARAMS:
            raise Rejected(f"{n} is not a parameter of the claim")
    rels = [r for r in relations if {s.name for s in r.free_symbols} <= set(names)]
    return ranges(names), rels


def prove(f, strict, node, relations, counts, depth=0):
    """Check one node of the proof of ``f > 0`` (strict) or ``f >= 0`` over its parameters' ranges."""
    if depth > 12:
        raise Rejected("the proof is nested too deeply")
    f = plain(f)
    variables, rels = goal(f, relations)
    by = node.get("by")
    counts["routes"].add(by)
    if by == "bnb":
        replay_tree(f, variables, rels, strict, node["tree"], counts)
    elif by == "number":
        if f.free_symbols:
            raise Rejected("a number has parameters")
        if not (not strict and simplify(f) == 0) and not positive(enclose(f, {}), strict):
            raise Rejected(f"the number {f} is not shown {'> 0' if strict else '>= 0'}")
    elif by == "sympy-sign":
        if not sympy_sign(f, variables, strict):
            raise Rejected(f"SymPy's signs do not show {f} {'> 0' if strict else '>= 0'}")
    elif by == "factors":
        check_factors(f, strict, node, relations, counts, depth)
    else:
        raise Rejected(f"the route {by!r} has no standalone replay")


def open_end(name, side):
    """Whether the parameter's range is open at that end (``x > a`` and no ``x >= a`` at or above a)."""
    kind, spec = PARAMS[name]
    strict_key, closed_key = ("gt", "ge") if side == "lo" else ("lt", "le")
    if strict_key not in spec:
        return False
    a = Fraction(spec[strict_key])
    if closed_key not in spec:
        return True
    b = Fraction(spec[closed_key])
    return b < a if side == "lo" else b > a


def sympy_sign(f, variables, strict):
    for side in ("lo", "hi"):
        sub = {}
        for name, kind, lo, hi in variables:
            end = lo if side == "lo" else hi
            kw = {"integer": True} if kind == "int" else {}
            if end is not None and (end != 0 or side == "hi"):
                opened = {"positive": True} if open_end(name, side) else {"nonnegative": True}
                s = Symbol(name + "_s_", real=True, **opened, **kw)
                sub[Symbol(name)] = _q(end) + s if side == "lo" else _q(end) - s
            else:
                sg = {}
                if lo is not None and (lo > 0 or lo == 0 and open_end(name, "lo")):
                    sg = {"positive": True}
                elif lo is not None and lo >= 0:
                    sg = {"nonnegative": True}
                elif hi is not None and (hi < 0 or hi == 0 and open_end(name, "hi")):
                    sg = {"negative": True}
                elif hi is not None and hi <= 0:
                    sg = {"nonpositive": True}
                sub[Symbol(name)] = Symbol(name, real=True, **kw, **sg)
        e = f.xreplace(sub)
        for g in (e, together(e), factor_terms(e)):
            if (g.is_positive if strict else g.is_nonnegative) is True:
                return True
    return False


def check_factors(f, strict, node, relations, counts, depth):
    const = _q(node["constant"]) if "/" in node["constant"] or node["constant"].lstrip("-").isdigit() \
        else None
    if const is None or const == 0:
        raise Rejected("the factors' constant is not a rational number")
    num, den = Integer(1), Integer(1)
    sign = 1 if const > 0 else -1
    for part in node["factors"]:
        b, power, s = plain(part["factor"]), part["power"], part["sign"]
        if not (isinstance(power, int) and power != 0):
            raise Rejected("a factor's power is not a nonzero integer")
        if power > 0:
            num *= b ** power
        else:
            den *= b ** (-power)
        if s == 0:
            if power % 2 or strict or power < 0:
                raise Rejected("an unsigned factor is not an even power of the numerator")
            continue
        sub_strict = strict or power < 0
        prove(b if s == 1 else -b, sub_strict, part["proof"], relations, counts, depth + 1)
        if s == -1 and power % 2:
            sign = -sign
    if sign < 0:
        raise Rejected("the factors' signs multiply to a negative number")
    if cancel(together(const * num / den - f)) != 0:
        raise Rejected("the factors do not multiply back to the expression")


def main():
    counts = {"leaves": 0, "out": 0, "routes": set()}
    base = plain(RHS - LHS)
    if base.has(Sum, Product):
        base = base.doit()
    try:
        for values, node in CASES:
            sub = {Symbol(k): _q(repr(v)) for k, v in values.items()}
            for k, v in values.items():
                kind, spec = PARAMS.get(k, ("", {}))
                if kind != "choice" or v not in spec.get("values", ()):
                    raise Rejected(f"the case {k} = {v} is not a value of the claim")
            prove(base.xreplace(sub), STRICT, node, RELATIONS, counts)
        want = {n: spec["values"] for n, (kind, spec) in PARAMS.items()
                if kind == "choice" and Symbol(n) in base.free_symbols}
        seen = {tuple(sorted(values.items())) for values, _ in CASES}
        import itertools
        every = {tuple(sorted(zip(want, combo))) for combo in itertools.product(*want.values())}
        if every != seen:
            raise Rejected("the cases do not cover every value of the claim's choices")
    except Rejected as exc:
        print(f"NOT CERTIFIED {CLAIM_ID}: {exc}")
        return 1
    rel = ">" if STRICT else ">="
    print(f"CERTIFIED {CLAIM_ID}: {STATEMENT}: rhs - lhs {rel} 0 on the whole domain ({', '.join(sorted(counts['routes']))}; "
          f"{counts['leaves']} boxes decided again in interval arithmetic, {counts['out']} outside the hypotheses)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
'''

__all__ = ["COMMON", "DOMAIN", "HEAD", "INTERVALS", "SYMBOLIC"]
