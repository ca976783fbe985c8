"""Sign certificates: ``F >= 0`` on a box of symbolic ranges, checked by polynomial coefficients.

A *goal* says ``F >= 0`` (``F > 0`` when strict) for every value of its ranges: an ordered list of
``(x, lo, hi)`` where ``x`` is a symbol (or a sequence entry ``sigma[t]``) and each end is ``None``
(unbounded) or an expression of the earlier ranges' symbols. A goal's *certificate* is one of two rules:

``sums``
    ``F`` is ``R + Sum(H, (t, a, b))``: every term of ``F`` holding a ``Sum`` is a factor free of the
    index times a ``Sum`` over the same limits, and they are merged into one summand ``H`` (the
    checker merges them itself). Then ``R >= 0`` and ``H >= 0`` for every ``t`` in ``[a, b]`` (and every
    sequence entry ``sigma[t]`` within its hypotheses) are goals of their own; a sum of non-negative
    terms is non-negative.

``coefficients``
    The non-rational parts of ``F`` (powers with symbolic exponents, ``exp``) are replaced by new
    variables, *atoms*, each with a range that a rule justifies by goals of its own:

    * ``pow01``: ``b**n`` with ``0 <= b <= 1``, ``n >= 0`` lies in ``[0, 1]``;
    * ``bernoulli``: the same lies in ``[0, 1/(1 + n (1 - b))]`` (``b**n <= exp(-n (1 - b))``);
    * ``bernoulli2``: with ``n >= 1`` also above ``1 - n (1 - b)`` (convexity);
    * ``exp``: ``exp(c)`` with ``c <= 0`` lies in ``(0, 1]``;
    * ``log``: ``log(c)`` with ``c >= 1`` lies in ``[0, c - 1]`` (``log c <= c - 1``);
    * ``ratio``: ``u**n`` with ``0 <= u <= v``, ``n >= 0``, where ``v**n`` is an earlier atom
      ``B``, is ``B W`` with ``W = (u/v)**n`` in ``[0, 1]``;
    * ``expbound``: ``u**n`` with ``0 <= u <= 1 - c``, ``n >= 0``, where ``exp(-c n)`` is an earlier atom
      ``E``, is ``E W`` with ``W`` in ``[0, 1]`` (``u <= 1 - c <= exp(-c)``).

    A power ``p**e`` is read as ``(p**k)**(e/k)`` for a number ``k`` the certificate names: when
    ``k`` is an even integer and ``e/k`` takes integer values (integer symbols, integer
    coefficients) for any real ``p``, otherwise with the goal ``p >= 0``.
    Then every range, in order, is written with a new variable ``s >= 0`` (``lo + (hi - lo) s/(1 + s)``,
    ``lo + s`` or ``hi - s``), which reaches every point of the range but its far end, and ``F``
    becomes a rational function of the ``s``; when its numerator and denominator, expanded, have
    coefficients of one sign (and, strict, positive constant terms), ``F >= 0`` (``> 0``) wherever it
    is defined on the ranges, their far ends included by continuity. Treating an atom as free in
    its range forgets how it depends on the other variables: a relaxation, which can only lose proofs.

This module checks certificates and imports SymPy alone, so that it can be embedded in a proof's
checker and re-check every certificate (:func:`verify`); :mod:`.signsearch` finds certificates
(:func:`.signsearch.find`), and dpverify verifies each with :func:`verify` before it reports a proof.
"""
import sympy as sp

#: the most terms an expanded numerator or denominator may have (a larger one is no certificate)
MAX_TERMS = 6000
#: the rules of a literal that has one reading only (no power to read)
FIXED = ("exp", "log")


class ProofError(Exception):
    """A certificate that does not check; the message says which step."""


# ----------------------------------------------------------------------------- the coefficient test
def substitute_ranges(expr, ranges):
    """``expr`` with every range's symbol written through a new variable ``s_k >= 0`` (the last range
    first: an end may use the earlier symbols), and the new variables."""
    svars = [sp.Dummy(f"s{k}", nonnegative=True) for k in range(len(ranges))]
    for k in reversed(range(len(ranges))):
        x, lo, hi = ranges[k]
        s = svars[k]
        if lo is not None and hi is not None:
            rep = lo + (hi - lo) * s / (1 + s)
        elif lo is not None:
            rep = lo + s
        elif hi is not None:
            rep = hi - s
        else:
            raise ProofError(f"{x} has no finite end: no variable s >= 0 reaches every value")
        expr = expr.xreplace({x: rep})
    return expr, svars


def term_bound(e) -> int:
    """An upper bound on the number of terms of ``e`` expanded (sums add, products multiply, a power ``n`` of
    ``m`` terms has at most ``C(m + n - 1, n)``); anything else counts 1."""
    if e.is_Add:
        return sum(term_bound(a) for a in e.args)
    if e.is_Mul:
        out = 1
        for a in e.args:
            out *= term_bound(a)
        return out
    if e.is_Pow and e.exp.is_Integer and e.exp > 0:
        from math import comb
        m = term_bound(e.base)
        return comb(m + int(e.exp) - 1, int(e.exp)) if m > 1 else 1
    return 1


#: the most terms :func:`term_bound` may promise before a polynomial is expanded (a larger one is no certificate)
MAX_EXPAND = 20_000
#: the most terms a rational function may promise for its other forms (cancelled, factored) to be tried
MAX_CANCEL = 5_000


def _one_signed(poly_expr, svars, strict):
    """+1 / -1 when every coefficient of the expanded polynomial has that sign (strict: and its constant
    term is nonzero), else 0."""
    if term_bound(poly_expr) > MAX_EXPAND:
        return 0
    try:   # dense arithmetic over the rationals first (far faster than expanding the expression), then any domain
        p = sp.Poly(poly_expr, *svars, domain="QQ")
    except (sp.PolynomialError, sp.GeneratorsNeeded, sp.CoercionFailed):
        try:
            p = sp.Poly(poly_expr, *svars)
        except (sp.PolynomialError, sp.GeneratorsNeeded):
            return 0
    if len(p.terms()) > MAX_TERMS:
        return 0
    coeffs = p.coeffs()
    if not coeffs or not all(c.is_number and c.is_real for c in coeffs) or p.is_zero:
        return 0
    const = p.coeff_monomial(1)
    if all(c >= 0 for c in coeffs) and (not strict or const > 0):
        return 1
    if all(c <= 0 for c in coeffs) and (not strict or const < 0):
        return -1
    return 0


def coefficient_sign(expr, svars, strict=False) -> bool:
    """Whether ``expr``, a rational function of ``svars >= 0``, is shown ``>= 0`` (``> 0``) by the signs of
    its numerator's and denominator's coefficients, in one of a few equal forms."""
    seen = []
    first = sp.together(expr)
    small = term_bound(first) <= MAX_CANCEL    # cancelling or factoring a large one costs more than it may win
    for form in (lambda e: first, lambda e: sp.cancel(first), lambda e: sp.factor(e)):
        if seen and not small:
            break
        try:
            f = form(expr)
        except (sp.PolynomialError, TypeError, ValueError, RecursionError):
            continue
        if f in seen:
            continue
        seen.append(f)
        if f.is_number:
            if f.is_real and (f > 0 or (not strict and f >= 0)):
                return True
            continue
        num, den = sp.fraction(f)
        factors = [num, den] if not isinstance(num, sp.Mul) else list(num.args) + [den]
        sign = 1
        for g in factors:
            sg = _one_signed(g, svars, strict)
            if sg == 0:
                sign = 0
                break
            sign *= sg
        if sign == 1:
            return True
    return False


# ----------------------------------------------------------------------------- atoms
def integer_valued(e) -> bool:
    """Whether ``e`` takes integer values: integer symbols combined with integer coefficients."""
    e = sp.expand(e)
    return all(t.is_integer for t in sp.Add.make_args(e))


def power_parts(lit, k, m=1):
    """``(base, n)`` with ``lit = p**e`` read as ``((p**k)**n)**m``, ``n = e/(k m)``."""
    if not isinstance(lit, sp.Pow):
        raise ProofError(f"{lit} is not a power")
    k, m = sp.nsimplify(k), sp.Integer(m)
    if not (m.is_integer and m >= 1):
        raise ProofError(f"the power m of {lit} must be a positive integer, got {m}")
    return lit.base ** k, sp.factor_terms(lit.exp / (k * m))


def atom_goals(lit, spec, ranges):
    """The goals that justify the atom ``spec`` of the literal ``lit``, its replacement in ``F`` and the
    range of its new variable: ``(goals, replacement, (W, lo, hi))``."""
    rule, W = spec["rule"], spec["symbol"]
    goals = []
    if rule == "exp":
        if not isinstance(lit, sp.exp):
            raise ProofError(f"exp rule on {lit}, which is not exp(.)")
        goals.append((-lit.args[0], False))
        return goals, W, (W, sp.Integer(0), sp.Integer(1))
    if rule == "log":
        if not isinstance(lit, sp.log):
            raise ProofError(f"log rule on {lit}, which is not log(.)")
        goals.append((lit.args[0] - 1, False))
        return goals, W, (W, sp.Integer(0), lit.args[0] - 1)
    m = spec.get("m", 1)
    base, n = power_parts(lit, spec["k"], m)
    k = sp.nsimplify(spec["k"])
    if not (k.is_integer and integer_valued(n)):
        goals.append((lit.base, False))          # ((p**k)**n)**m = p**e needs p >= 0 unless k, n are integers
    goals.append((n, False))
    if rule in ("pow01", "bernoulli", "bernoulli2"):
        goals += [(base, False), (1 - base, False)]
        lo, hi = sp.Integer(0), sp.Integer(1)
        if rule in ("bernoulli", "bernoulli2"):
            hi = 1 / (1 + n * (1 - base))
        if rule == "bernoulli2":
            goals.append((n - 1, False))
            lo = 1 - n * (1 - base)
        return goals, W ** m, (W, lo, hi)
    if rule == "ratio":
        B, other = spec["over"], spec["over_literal"]
        vbase, vn = power_parts(other, spec["over_k"], spec.get("over_m", 1))
        if not same(vn, n) or spec.get("over_m", 1) != m:
            raise ProofError(f"ratio of {lit} and {other}: different exponents {n} and {vn}")
        goals += [(base, False), (vbase - base, False)]
        return goals, B * W ** m, (W, sp.Integer(0), sp.Integer(1))
    if rule == "expbound":
        E, other = spec["over"], spec["over_literal"]
        if not isinstance(other, sp.exp):
            raise ProofError(f"expbound of {lit} over {other}, which is not exp(.)")
        if m != 1:
            raise ProofError(f"expbound of {lit}: a power m = {m} is not supported")
        c = sp.cancel(-other.args[0] / n)
        goals += [(base, False), (1 - c - base, False)]
        return goals, E * W, (W, sp.Integer(0), sp.Integer(1))
    raise ProofError(f"unknown atom rule {rule!r}")


def non_rational(expr):
    """The parts of ``expr`` that are not rational in its symbols: powers with a non-numeric exponent,
    exp, and any other function, sum or integral."""
    out = set()
    for node in sp.preorder_traversal(expr):
        if isinstance(node, sp.Pow) and not node.exp.is_number:
            out.add(node)
        elif isinstance(node, (sp.exp, sp.Sum, sp.Product, sp.Integral)) or (
                isinstance(node, sp.Function) and not isinstance(node, sp.exp)):
            out.add(node)
    return out


# ----------------------------------------------------------------------------- sums
def distribute(e):
    """``e`` with every product of a sum distributed over it, level by level, nothing expanded inside a power,
    a function or a Sum (``-(a + b Sum(..))/D`` becomes ``-a/D - b Sum(..)/D``)."""
    if e.is_Add:
        return sp.Add(*[distribute(x) for x in e.args])
    if e.is_Mul:
        adds = [x for x in e.args if x.is_Add]
        if adds:
            rest = sp.Mul(*[x for x in e.args if x is not adds[0]])
            return sp.Add(*[distribute(rest * x) for x in adds[0].args])
    return e


def split_sums(F):
    """``(R, H, (t, a, b))`` with ``F = R + Sum(H, (t, a, b))``, or None when ``F`` holds no Sum; raises
    ProofError when the sums do not merge (different limits, a factor with the index, nested sums)."""
    terms = sp.Add.make_args(distribute(F))
    rest, parts, limits = [], [], None
    t = sp.Dummy("t", integer=True)
    for term in terms:
        sums = [f for f in sp.Mul.make_args(term) if isinstance(f, sp.Sum)]
        if not sums:
            if term.has(sp.Sum):
                raise ProofError(f"a sum inside another expression: {term}")
            rest.append(term)
            continue
        if len(sums) != 1 or len(sums[0].limits) != 1:
            raise ProofError(f"a product of sums or a multiple sum: {term}")
        s = sums[0]
        i, a, b = s.limits[0]
        coeff = sp.Mul(*[f for f in sp.Mul.make_args(term) if f is not s])
        if coeff.has(i) or coeff.has(sp.Sum) or s.function.has(sp.Sum):
            raise ProofError(f"a nested sum, or a factor holding the index: {term}")
        if limits is None:
            limits = (a, b)
        elif sp.simplify(limits[0] - a) != 0 or sp.simplify(limits[1] - b) != 0:
            raise ProofError(f"sums over different ranges: {limits} and {(a, b)}")
        parts.append(coeff * s.function.xreplace({i: t}))
    if not parts:
        return None
    return sp.Add(*rest), sp.Add(*parts), (t, limits[0], limits[1])


def entry_ranges(H, t, seq_bounds):
    """The ranges of the sequence entries ``sigma[t]`` of a summand (from ``seq_bounds``: name -> (lo, hi))."""
    out = []
    for ind in sorted(H.atoms(sp.Indexed), key=sp.srepr):
        name = str(ind.base)
        if name not in seq_bounds:
            raise ProofError(f"{ind}: no hypotheses known for the sequence {name}")
        if ind.indices != (t,):
            raise ProofError(f"{ind}: an entry of {name} at another index than the sum's")
        lo, hi = seq_bounds[name]
        out.append((ind, lo, hi))
    return out


# ----------------------------------------------------------------------------- checking
def same(a, b) -> bool:
    """Whether two expressions are equal (structurally, or their difference simplifies to 0)."""
    return a == b or sp.expand(a - b) == 0 or sp.simplify(a - b) == 0


def verify(goal, seq_bounds, depth=0):
    """Check the certificate ``goal`` (a dict: ``F``, ``strict``, ``ranges``, ``how``; see the module
    docstring); raise :class:`ProofError` naming the first step that does not check."""
    if depth > 40:
        raise ProofError("certificate nested too deeply")
    F, strict, ranges, how = goal["F"], goal.get("strict", False), goal["ranges"], goal["how"]
    syms = {r[0] for r in ranges}
    if how["rule"] == "sums":
        split = split_sums(F)
        if split is None:
            raise ProofError("the sums rule on an expression without a sum")
        R, H, (t, a, b) = split
        t_new = how["index"]
        H = H.xreplace({t: t_new})
        for sub, expect in ((how["rest"], R), (how["term"], H)):
            if not same(sub["F"], expect):
                raise ProofError(f"the sums rule's parts are not those of F: {sub['F']} vs {expect}")
        if how["rest"]["ranges"] != ranges:
            raise ProofError("the rest of a sum must keep the goal's ranges")
        want = list(ranges) + [(t_new, a, b)] + entry_ranges(H, t_new, seq_bounds)
        if list(how["term"]["ranges"]) != want:
            raise ProofError(f"the summand's ranges must be the goal's, then {t_new} in [{a}, {b}], then its entries")
        if strict:
            raise ProofError("the sums rule proves F >= 0 only")
        verify(how["rest"], seq_bounds, depth + 1)
        verify(how["term"], seq_bounds, depth + 1)
        return
    if how["rule"] != "coefficients":
        raise ProofError(f"unknown rule {how['rule']!r}")
    G = F
    atom_ranges, symbol_of = [], {}
    for lit, spec in how["atoms"]:
        if spec["symbol"] in syms or any(spec["symbol"] == r[0] for r in atom_ranges):
            raise ProofError(f"atom symbol {spec['symbol']} is already in use")
        if not G.has(lit):
            raise ProofError(f"the atom {lit} does not occur in F")
        goals, rep, rng = atom_goals(lit, spec, ranges)
        for sub_F, sub_strict in goals:
            sub = spec["goals"].get(sp.srepr(sub_F))
            if sub is None:
                raise ProofError(f"no certificate for the side goal {sub_F} {'>' if sub_strict else '>='} 0 of {lit}")
            if not same(sub["F"], sub_F) or sub.get("strict", False) != sub_strict or sub["ranges"] != ranges:
                raise ProofError(f"the side goal of {lit} is not {sub_F} on the goal's ranges")
            verify(sub, seq_bounds, depth + 1)
        if spec["rule"] in ("ratio", "expbound") and symbol_of.get(spec["over_literal"]) != spec["over"]:
            raise ProofError(f"{lit} is written over {spec['over']}, which is not the atom of {spec['over_literal']}")
        G = G.xreplace({lit: rep})
        atom_ranges.append(rng)
        symbol_of[lit] = spec["symbol"]
    left = non_rational(G)
    if left:
        raise ProofError(f"not rational after the atoms: {sorted(map(str, left))[:3]}")
    allowed = syms | {r[0] for r in atom_ranges}
    plain = G.xreplace({i: sp.Dummy() for i in G.atoms(sp.Indexed) if i in allowed})   # an entry's base is no symbol
    extra = [s for s in plain.free_symbols if s not in allowed and not isinstance(s, sp.Dummy)]
    indexed = [i for i in G.atoms(sp.Indexed) if i not in allowed]
    if extra or indexed:
        raise ProofError(f"symbols without a range: {sorted(map(str, extra + indexed))}")
    expr, svars = substitute_ranges(G, list(ranges) + atom_ranges)
    if not coefficient_sign(expr, svars, strict):
        raise ProofError(f"the coefficients do not show {G} {'>' if strict else '>='} 0")
