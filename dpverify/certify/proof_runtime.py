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
* the domain proof's ``main`` is :data:`dpverify.certify.domain_runtime.DOMAIN`.
"""
from __future__ import annotations

def head(imports: str, need: str) -> str:
    """The head of a standalone checker: the standard library it uses, then ``imports`` (the third-party
    modules), or the line ``NOT CHECKED: <need>`` and exit status 1 where the reader lacks them."""
    body = "".join(f"    {line}\n" for line in imports.strip().splitlines())
    return ("\nimport itertools\nimport math\nimport sys\nfrom fractions import Fraction\n\ntry:\n" + body
            + "except ImportError:  # pragma: no cover - the reader's environment\n"
            + f"    print({need!r})\n    sys.exit(1)\n\n")


SYMPY_IMPORTS = "from sympy import *  # noqa: F401,F403 - the expressions below are SymPy's srepr"
HEAD = head("import mpmath\nfrom mpmath import iv\n" + SYMPY_IMPORTS,
            "NOT CHECKED: SymPy and mpmath are needed (pip install sympy)")

#: a recorded box tree walked again: ``walk_tree(tree, box, names, kinds, leaf)`` checks every split (a
#: parameter's index, a rational point strictly inside its range -- an integer for an integer parameter, the
#: upper half then starting at m + 1; an end None is unbounded) and hands every leaf to ``leaf(tag, box)``
TREE = r'''

class Rejected(Exception):
    pass


def split_ok(kind, a, b, m):
    if kind == "int":
        return (a is None or a <= m) and (b is None or m < b) and m.denominator == 1
    return (a is None or a < m) and (b is None or m < b)


def walk_tree(tree, box, names, kinds, leaf):
    stack = [(tree, tuple(box))]
    while stack:
        node, box = stack.pop()
        if not isinstance(node, list) or not node:
            raise Rejected("a node of the tree is not a list")
        if node[0] != "split":
            leaf(node[0], box)
            continue
        if len(node) != 5:
            raise Rejected("a split is not [\"split\", index, point, low, high]")
        _, i, m, low, high = node
        if not (isinstance(i, int) and not isinstance(i, bool) and 0 <= i < len(names)):
            raise Rejected("a split names no parameter")
        if not isinstance(m, (int, str)) or isinstance(m, bool):
            raise Rejected("a split point is not an integer or a fraction's text")
        try:
            m = Fraction(m)
        except (ValueError, ZeroDivisionError):
            raise Rejected(f"a split point {m!r} is not a number") from None
        a, b = box[i]
        if not split_ok(kinds[i], a, b, m):
            raise Rejected(f"a split point {m} of {names[i]} is outside its box")
        stack.append((low, box[:i] + ((a, m),) + box[i + 1:]))
        stack.append((high, box[:i] + ((m + 1 if kinds[i] == "int" else m, b),) + box[i + 1:]))
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


def reduces_to_zero(d):
    """Whether one of SymPy's rewritings takes ``d`` to 0 (a rewriting SymPy cannot do proves nothing)."""
    if d == 0:
        return True
    for f in (expand, cancel, lambda e: cancel(powsimp(expand(e), force=False)), together, simplify, powsimp,
              radsimp, lambda e: simplify(expand(e)), lambda e: cancel(radsimp(expand(e)))):
        try:
            if f(d) == 0:
                return True
        except Exception:  # noqa: BLE001
            continue
    return False

'''

INTERVALS = r'''

iv.prec = 128


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
    if REPARAM:   # in turn, as SymPy's subs does (a later target may appear in an earlier replacement)
        d = d.subs({Symbol(k.name): v for k, v in REPARAM.items()})
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
        done = reduces_to_zero(d)
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

__all__ = ["COMMON", "HEAD", "INTERVALS", "SYMBOLIC"]
