"""Identities proved under the hypotheses: the signs SymPy's rewritings need, proved on the domain first.

SymPy reduces ``sqrt(x**2)`` to ``x`` only when it knows ``x >= 0``, and it knows a sign only from a symbol's
assumptions (``positive``): it cannot use that ``log(1/delta) > 0`` when ``delta < 1``, nor that
``sqrt(a + b) - sqrt(a) >= 0``. So a true identity such as ``rho = (sqrt(L + eps) - sqrt(L))**2`` with
``L = log(1/delta)`` stays unproved. :func:`prove_zero` supplies those signs, each by a proof on the domain
(the ``signed`` callable: a goal ``g >= 0`` or ``g > 0`` over the claim's parameters), and asks the rewritings
again after each kind of step:

1. **absolute values**: ``Abs(a)`` (``a`` real) becomes ``a`` where ``a >= 0`` is proved, ``-a`` where
   ``-a >= 0`` is;
2. **square roots**: ``sqrt(b)`` becomes ``c`` where ``c**2 - b`` reduces to 0 and ``c >= 0`` is proved.
   The candidates: ``sqrt(factor(b))`` (SymPy takes squares out, as absolute values: step 1 signs them) and,
   for ``b = p + q m`` with ``m`` a product of square roots, ``r = m**2`` and ``p**2 - q**2 r`` a square
   ``s**2``, the denesting ``sqrt((p + s)/2) +- sqrt((p - s)/2)``;
3. **atoms**: each transcendental part (a function such as ``log`` or ``exp``, or a power with a symbolic
   exponent) proved ``> 0`` (or ``< 0``) on the domain becomes a fresh positive symbol (or minus one; where
   only ``>= 0`` is proved, as an open end of a range is taken closed, a nonnegative one), and steps 1-2 run
   again.

Soundness: every replacement is an equality at every point of the domain (an atom's value there is a
positive number; ``c`` is there the nonnegative root of ``b``; ``|a| = a`` where ``a >= 0``), so an expression
that then reduces to 0 was 0 on the whole domain. Each sign goal is stated in the claim's own parameters
(atoms written back), so its proof is an ordinary domain proof, or three of them by :func:`squares`
(``p - q >= 0`` from ``p, q >= 0`` and ``p**2 - q**2 >= 0``, which a difference of roots needs: interval
arithmetic overestimates ``sqrt(a + b) - sqrt(a)`` where it is tight). The steps are recorded (:class:`Step`);
``dpverify certify`` replays them standalone: each replacement's algebra by SymPy, each sign by its proof.
"""
from __future__ import annotations

from dataclasses import dataclass

import sympy as sp

from .symbolic import is_zero

#: replacements tried at most per identity, and sign proofs asked at most
MAX_STEPS = 12
MAX_SIGNS = 24
#: a difference with more nodes than this is not attempted
MAX_NODES = 600
HALF = sp.Rational(1, 2)


@dataclass(frozen=True)
class Step:
    """One replacement: ``target`` (in the working symbols) became ``by``; ``kind`` ``abs``, ``sqrt`` or
    ``atom``; ``sign`` the expression proved ``>= 0`` (``> 0`` where ``strict``) in the claim's parameters, and
    its ``proof`` (a domain-proof node); ``symbol`` the fresh symbol of an atom (``by`` is it or minus it):
    positive where its sign is proved strict, else nonnegative."""

    kind: str
    target: sp.Basic
    by: sp.Basic
    sign: sp.Basic
    proof: dict
    symbol: sp.Symbol | None = None
    strict: bool = False

    def describe(self) -> str:
        what = {"abs": "since", "sqrt": "the nonnegative root, since", "atom": "since"}[self.kind]
        rel = "> 0" if self.strict else ">= 0"
        return f"{sp.sstr(self.target)} = {sp.sstr(self.by)} ({what} {sp.sstr(self.sign)} {rel})"


def _radsimp_expanded(e):
    return sp.cancel(sp.radsimp(sp.expand(e)))


def reduces_to_zero(e) -> bool:
    """Whether one of the symbolic check's rewritings of ``e`` (:func:`.symbolic.is_zero`), or ``cancel(radsimp(
    expand(e)))`` (which a sum of products of roots needs), is 0: an equality SymPy proves, never a numeric test.
    The certificate's checker tries all of these."""
    return is_zero(e, extra=(_radsimp_expanded,)) is True


def _size(e) -> int:
    return sum(1 for _ in sp.preorder_traversal(e))


class _Work:
    """The state of one attempt: the expression, the atoms' symbols (and what they stand for), the steps."""

    def __init__(self, expr, signed):
        self.expr, self.signed, self.steps, self.back, self.asked = expr, signed, [], {}, 0

    def claim_form(self, e):
        """``e`` with every atom's symbol written back as the atom: the claim's own parameters."""
        return e.xreplace(self.back) if self.back else e

    def sign(self, g, strict=False):
        """A proof that ``g`` (working symbols) is ``>= 0`` (``> 0``) on the domain, or None: directly, or (``>= 0``
        only) by :func:`squares`."""
        if self.asked >= MAX_SIGNS or g.has(sp.I, sp.zoo, sp.nan):
            return None
        self.asked += 1
        g = self.claim_form(g)
        parts = None if strict else squares(g)
        if parts is not None:   # first: a branch-and-bound on the difference of roots would spend the budget
            proofs = []
            for part in parts:
                self.asked += 1
                q = self.signed(part, False) if self.asked <= MAX_SIGNS else None
                if q is None:
                    break
                proofs.append(q)
            else:
                return {"by": "squares", "positive": proofs[0], "negative": proofs[1], "difference": proofs[2]}
        return self.signed(g, strict)

    def replace(self, step: Step) -> None:
        self.steps.append(step)
        self.expr = replay(self.expr, [step])


def squares(g):
    """``(p, q, p**2 - q**2)`` for ``g = p - q`` split into its terms with a positive and a negative sign (SymPy's
    ``could_extract_minus_sign``), when both are there and some term has a square root: ``g >= 0`` follows from
    ``p >= 0``, ``q >= 0`` and ``p**2 - q**2 >= 0`` (where ``p, q >= 0``, ``p >= q`` iff ``p**2 >= q**2``), which
    often has fewer roots (``sqrt(a + b) - sqrt(a)``: ``b``). None otherwise."""
    terms = sp.Add.make_args(g)
    neg = [t for t in terms if t.could_extract_minus_sign()]
    pos = [t for t in terms if not t.could_extract_minus_sign()]
    if not neg or not pos or not _roots(g):
        return None
    p, q = sp.Add(*pos), -sp.Add(*neg)
    return p, q, sp.expand(p**2 - q**2)


def _abs_steps(work: _Work) -> bool:
    """Each ``Abs(a)`` with ``a`` real replaced by ``a`` or ``-a`` where that is proved ``>= 0``."""
    changed = False
    for a in sorted(work.expr.atoms(sp.Abs), key=_size):
        if a not in work.expr.atoms(sp.Abs) or a.args[0].is_real is not True:
            continue
        for cand in (a.args[0], -a.args[0]):
            proof = work.sign(cand)
            if proof is not None:
                work.replace(Step("abs", a, cand, work.claim_form(cand), proof))
                changed = True
                break
    return changed


def _roots(e):
    """The square-root powers of ``e`` (``b**(k/2)``, ``k`` odd), innermost first."""
    return sorted((p for p in e.atoms(sp.Pow) if p.exp.is_Rational and p.exp.q == 2), key=_size)


def _radical_part(term):
    """``(rest, m)``: a term as ``rest * m`` with ``m`` its product of square roots (1 when none)."""
    rest, m = sp.Integer(1), sp.Integer(1)
    for f in sp.Mul.make_args(term):
        if isinstance(f, sp.Pow) and f.exp == HALF:
            m *= f
        else:
            rest *= f
    return rest, m


def _candidates(b):
    """Expressions ``c`` that may be ``sqrt(b)`` (each is checked: ``c**2 - b`` reduces to 0, ``c >= 0``)."""
    out = []
    try:
        out.append(sp.sqrt(sp.factor(b)))
    except (sp.PolynomialError, TypeError, ValueError, NotImplementedError, RecursionError):
        pass
    groups: dict = {}
    for t in sp.Add.make_args(sp.expand(b)):
        rest, m = _radical_part(t)
        groups[m] = groups.get(m, 0) + rest
    if len(groups) == 2 and 1 in groups:
        (m, q), = [(k, v) for k, v in groups.items() if k != 1]
        p, r = groups[1], sp.expand(m**2)
        try:
            s2 = sp.factor(sp.expand(p**2 - q**2 * r))
        except (sp.PolynomialError, TypeError, ValueError, NotImplementedError, RecursionError):
            s2 = None
        if s2 is not None:
            s = sp.sqrt(s2).replace(sp.Abs, lambda x: x)   # s and -s give the same two candidates
            if not any(x.exp.q == 2 for x in s.atoms(sp.Pow) if x.exp.is_Rational):
                for sg in (1, -1):
                    out.append(sp.sqrt((p + s) / 2) + sg * sp.sqrt((p - s) / 2))
    return out


def replace_root(e, root, c):
    """``e`` with every ``b**(k/2)`` (``b`` the base of ``root = sqrt(b)``) written ``c**k``: equal wherever
    ``c = sqrt(b)`` (a principal power ``b**(k/2)`` is ``sqrt(b)**k``)."""
    b = root.base
    return e.replace(lambda x: isinstance(x, sp.Pow) and x.base == b and x.exp.is_Rational and x.exp.q == 2,
                     lambda x: c ** (2 * x.exp))


def _only_roots(c) -> bool:
    """Whether ``c`` is a product of numbers and square roots: a root only split, no progress."""
    return all(f.is_number or (isinstance(f, sp.Pow) and f.exp == HALF) for f in sp.Mul.make_args(c))


def _sqrt_steps(work: _Work) -> bool:
    """A square root replaced by a candidate proved to be its nonnegative root (the first that is)."""
    for p in _roots(work.expr):
        b = p.base
        root = sp.sqrt(b)
        for c in _candidates(b):
            if c == root or c.has(sp.I) or _only_roots(c):
                continue
            if not reduces_to_zero(c**2 - b):
                continue
            proof = work.sign(c)
            if proof is None:
                continue
            work.replace(Step("sqrt", root, c, work.claim_form(c), proof))
            return True
    return False


def _atoms(e):
    """The transcendental parts of ``e`` with parameters, outermost only: applied functions (but ``Abs``)
    and powers whose exponent has parameters."""
    out = set()

    def walk(x):
        if not x.free_symbols:
            return
        if (isinstance(x, sp.Function) and not isinstance(x, sp.Abs)) or (
                isinstance(x, sp.Pow) and x.exp.free_symbols):
            out.add(x)
            return
        for a in x.args:
            walk(a)

    walk(e)
    return sorted(out, key=sp.default_sort_key)


def _atom_steps(work: _Work) -> bool:
    changed = False
    taken = {s.name for s in work.expr.free_symbols}
    for k, g in enumerate(_atoms(work.expr)):
        if g not in work.expr.atoms(type(g)):
            continue
        name = f"a{k}_"
        while name in taken:
            name += "_"
        for strict, sg in ((True, 1), (True, -1), (False, 1), (False, -1)):
            proof = work.sign(sg * g, strict=strict)
            if proof is not None:
                a = sp.Symbol(name, **({"positive": True} if strict else {"nonnegative": True}))
                taken.add(name)
                step = Step("atom", g, sg * a, work.claim_form(sg * g), proof, symbol=a, strict=strict)
                work.replace(step)
                work.back[a] = step.sign     # a = sg * g, which is the sign proved
                changed = True
                break
    return changed


def prove_zero(expr, signed) -> list[Step] | None:
    """The steps after which ``expr`` reduces to 0 (see the module), or None. ``signed(g, strict)`` returns a
    proof that ``g`` (in the claim's parameters) is ``>= 0`` (``> 0``) on the domain, or None."""
    if _size(expr) > MAX_NODES:
        return None
    work = _Work(expr, signed)
    for phase in (False, True):
        if phase and not _atom_steps(work):
            return None
        while len(work.steps) < MAX_STEPS:
            if reduces_to_zero(work.expr):
                return work.steps
            if not (_abs_steps(work) or _sqrt_steps(work)):
                break
        if reduces_to_zero(work.expr):
            return work.steps
    return None


def replay(expr, steps) -> sp.Basic:
    """``expr`` after the recorded replacements (what the certificate's checker does again, with its own
    checks of each step)."""
    for s in steps:
        expr = replace_root(expr, s.target, s.by) if s.kind == "sqrt" else expr.xreplace({s.target: s.by})
    return expr


__all__ = ["MAX_STEPS", "Step", "prove_zero", "reduces_to_zero", "replay", "squares"]
