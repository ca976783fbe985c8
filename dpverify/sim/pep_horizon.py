"""Every horizon at once for a bound that is not a contraction: multipliers in closed form in ``(k, N)``.

Drori & Teboulle's bound ``L R^2/(4N + 2)`` for gradient descent on smooth convex functions is not the
geometric sum of a one-step contraction (:mod:`.pep_potential`): its multipliers depend on the horizon ``N``
and on the step ``k``. :func:`prove` proves such a bound for *every* ``N >= 1``:

1. **exact certificates at small horizons** (``N = 2..9``) restricted to local constraints (between ``x_k`` and
   ``x_{k+1}``, and from ``x_k`` to ``x*``), tight where a worst function meets the bound
   (:mod:`.pep_rational`);
2. **closed forms**: each family of multipliers (one per kind of constraint) fitted by a rational function of
   ``(k, N)`` (exact linear algebra over the samples, confirmed on samples not used), the last step's
   separately in ``N``; likewise the pivots of ``S``'s LDL^T in the *iterate basis* ``(x_0, ..., x_N, g_N)``,
   where ``S`` is tridiagonal (each constraint involves consecutive iterates only);
3. **a proof for every N**, with SymPy: ``S``'s entries are written from *templates* (the contribution of one
   constraint at step ``k`` to the entries near ``k``, read off exactly at one horizon: gradient descent with a
   constant step is shift-invariant, so the same numbers hold at every interior step, and the last steps have
   their own); then (a) every function value cancels (an identity in ``(j, N)`` for the interior, the first and
   last points in ``N``); (b) the pivots satisfy ``d_{j+1} = a_{j+1} - b_j^2/d_j`` (an identity), start from
   ``S``'s first entry and end, through the last rows computed in ``N``, with non-negative pivots (a zero pivot
   only with a zero remainder); (c) multipliers and pivots are non-negative on ``0 <= k <= N - 1`` (written with
   ``N = k + c + m``, ``m >= 0``, a polynomial with non-negative coefficients). Horizons below the template's
   reach are checked by their own exact certificates.

The result: the bound holds for every ``N``, with the certificate that proves it written in closed form. Only
gradient descent with one constant rational step, on a class with interpolation conditions, is covered.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction

import sympy as sp

from . import pep_exact as E

FAMILIES = {"fwd": lambda k: f"i:{k}:{k + 1}", "star": lambda k: f"i:-1:{k}"}
SAMPLES = tuple(range(2, 10))
#: the horizon the templates are read at, and how many steps from each end count as boundary
TEMPLATE_N = 9

k_, N_, j_, m_ = sp.symbols("k N j m", integer=True, nonnegative=True)


@dataclass
class HorizonProof:
    """A proof of ``worst case <= value(N)`` for every ``N >= 1`` (module docstring)."""

    value: sp.Expr
    multipliers: dict
    pivots: sp.Expr
    checks: list = field(default_factory=list)
    tight: bool = False

    def describe(self) -> str:
        fam = "; ".join(f"{k}: {sp.sstr(v)}" for k, v in self.multipliers.items())
        return (f"for every N: worst case <= {sp.sstr(self.value)}, multipliers in closed form ({fam}), "
                f"LDL^T pivots {sp.sstr(self.pivots)}; " + "; ".join(self.checks))


def _spec(base, N):
    return {**base, "steps": [base["h"]] * N}


def _keys(N):
    return [FAMILIES["fwd"](k) for k in range(N)] + [FAMILIES["star"](k) for k in range(N + 1)] + ["init"]


def _sample(base, N, bound):
    """The exact tight certificate at horizon ``N`` restricted to the local families (multipliers by key)."""
    from . import pep_direct as D
    from . import pep_rational as R

    spec = _spec(base, N)
    num = D.Numeric(spec)
    by_text = {E.key_text(k): k for k in num.keys}
    sol = num.solve_keys([by_text[t] for t in _keys(N)])
    sym = E.Symbolic(True)
    E.constraints(spec, sym, only=set())
    target = Fraction(int(bound.p), int(bound.q)) if bound is not None and bound.is_Rational else None
    low = R.lower(spec, sym, sol.G, target, mix=False)
    if low is None or (target is not None and low.value != target) or \
            abs(float(low.value) - sol.bound) > 1e-6 * max(1.0, abs(sol.bound)):
        return None
    up = R.upper(spec, num, sol, kernel=R.kernel_of(spec, low, num.n), bound=low.value, witness=low)
    return None if up is None else (up.multipliers, up.bound, low)


def fit2(points, x, y, max_degree: int = 3):
    """A rational function ``P(x, y)/Q(x, y)`` (total degrees at most ``max_degree``) through every point
    ``((x_i, y_i), v_i)``, from a null vector of the exact linear system, confirmed on every point; or ``None``."""
    import flint

    pts = [(sp.Rational(a), sp.Rational(b), sp.Rational(v)) for (a, b), v in points]
    for d in range(0, max_degree + 1):
        mons = [(a, b) for a in range(d + 1) for b in range(d + 1 - a)]
        cols = 2 * len(mons)
        if len(pts) < cols + 2:
            continue
        rows = [[xi**a * yi**b for a, b in mons] + [-v * xi**a * yi**b for a, b in mons] for xi, yi, v in pts]
        M = flint.fmpq_mat(len(rows), cols, [flint.fmpq(int(sp.numer(c)), int(sp.denom(c))) for r in rows for c in r])
        R, rank = M.rref()
        if rank >= cols:
            continue
        piv = []
        for i in range(rank):
            piv.append(next(j for j in range(cols) if R[i, j] != 0))
        free = next(j for j in range(cols) if j not in piv)
        vec = [sp.Integer(0)] * cols
        vec[free] = sp.Integer(1)
        for i, j in enumerate(piv):
            vec[j] = -sp.Rational(int(R[i, free].p), int(R[i, free].q))
        P = sum(vec[i] * x**a * y**b for i, (a, b) in enumerate(mons))
        Q = sum(vec[len(mons) + i] * x**a * y**b for i, (a, b) in enumerate(mons))
        if Q == 0:
            continue
        f = sp.factor(sp.cancel(P / Q))
        if all(sp.fraction(sp.together(f))[1].subs({x: xi, y: yi}) != 0 and f.subs({x: xi, y: yi}) == v
               for xi, yi, v in pts):
            return f
    return None


def _coefficient_positive(expr, shift) -> bool:
    """``expr(k, N) >= 0`` for all integers ``k >= 0`` and ``N >= k + shift``: written in ``(k, m)`` with
    ``N = k + shift + m``, numerator and denominator polynomials whose coefficients all share one sign."""
    return _same_sign_coefficients(sp.sympify(expr).subs(N_, k_ + shift + m_), (k_, m_))


def _nonneg_in_N(expr, lo: int) -> bool:
    """``expr(N) >= 0`` for every integer ``N >= lo`` (a rational function of N alone)."""
    from .pep_symbolic import nonneg_on

    e = sp.together(expr)
    if not e.free_symbols:
        return bool(e >= 0)
    x = sp.Symbol("x", real=True)
    return nonneg_on(e.subs(N_, x), x, sp.Integer(lo) - sp.Rational(1, 2), sp.oo)


# ------------------------------------------------------------------------------------------ templates
def _iterate_basis(N: int, h: Fraction):
    """``T`` with ``b = T y``: the gradient basis ``(x_0 - x*, g_0..g_N)`` from the iterate basis
    ``(x_0..x_N, g_N)`` (``g_k = (x_k - x_{k+1})/h``)."""
    n = N + 2
    T = [[Fraction(0)] * n for _ in range(n)]
    T[0][0] = Fraction(1)
    for i in range(N):
        T[1 + i][i], T[1 + i][i + 1] = 1 / h, -1 / h
    T[N + 1][N + 1] = Fraction(1)
    return T


def _in_iterates(quad, T):
    n = len(T)
    A = E.gram_matrix(quad, n)
    AT = [[sum((A[a][c] * T[c][b] for c in range(n) if A[a][c] and T[c][b]), Fraction(0)) for b in range(n)]
          for a in range(n)]
    return [[sum((T[c][a] * AT[c][b] for c in range(n) if T[c][a] and AT[c][b]), Fraction(0)) for b in range(n)]
            for a in range(n)]


class Templates:
    """Each constraint's quadratic part in the iterate basis, and its function values, at horizon ``TEMPLATE_N``:
    ``W[t][k]`` is a dict ``(a, b) -> coefficient`` (absolute indices at that horizon)."""

    def __init__(self, base):
        from . import pep_direct as D

        self.N0 = N0 = TEMPLATE_N
        spec = _spec(base, N0)
        num = D.Numeric(spec)
        by_text = {E.key_text(k): k for k in num.keys}
        T = _iterate_basis(N0, Fraction(base["h"]))
        self.quad, self.lin = {}, {}
        for t, key in FAMILIES.items():
            for k in range(N0 + (1 if t == "star" else 0)):
                e = num.exprs([by_text[key(k)]])[by_text[key(k)]]
                M = _in_iterates(e.quad, T)
                self.quad[(t, k)] = {(a, b): v for a, row in enumerate(M) for b, v in enumerate(row) if v}
                self.lin[(t, k)] = dict(e.lin)
        for name, e in (("objective", num.obj), ("init", num.exprs([("init",)])[("init",)])):
            M = _in_iterates(e.quad, T)
            self.quad[name] = {(a, b): v for a, row in enumerate(M) for b, v in enumerate(row) if v}
            self.lin[name] = dict(e.lin)

    def shift_invariant(self) -> bool:
        """The interior templates are the same at every interior step (a check of the premise)."""
        mid = range(1, self.N0 - 3)
        for t in FAMILIES:
            ref = {(a - 1, b - 1): v for (a, b), v in self.quad[(t, 1)].items()}
            for k in mid:
                if {(a - k, b - k): v for (a, b), v in self.quad[(t, k)].items()} != ref:
                    return False
        return True

    def interior(self, t):
        """``{(o_a, o_b): v}``: the contribution of family ``t`` at step ``k`` to entry ``(k + o_a, k + o_b)``."""
        k = 1
        return {(a - k, b - k): v for (a, b), v in self.quad[(t, k)].items()}

    def end_special(self, t, k) -> bool:
        """Whether family ``t``'s constraint at step ``k`` (at ``TEMPLATE_N``) touches ``g_N``."""
        return any(self.N0 + 1 in ab for ab in self.quad[(t, k)])


# ------------------------------------------------------------------------------------------ the proof
def _ldl_pivots(S):
    """The pivots of ``S`` (exact) eliminated in the natural order (no pivoting); ``None`` past a zero pivot."""
    A = [list(r) for r in S]
    n, out = len(A), []
    for p in range(n):
        d = A[p][p]
        out.append(d)
        if d == 0:
            return out
        for i in range(p + 1, n):
            if A[i][p]:
                r = A[i][p] / d
                for j in range(p + 1, n):
                    A[i][j] -= r * A[p][j]
    return out


def prove(base: dict, bound=None) -> HorizonProof | None:
    """The proof for every horizon ``N >= 1`` of ``worst case <= value(N)``, or ``None`` (module docstring): the
    samples' worst cases are fitted by ``value(N)`` (a rational function), which must be ``bound`` (a SymPy
    expression in :data:`N_`) when one is given. ``base``: the spec without steps, with ``h`` the constant step."""
    from .pep_symbolic import fit_rational

    if base["method"] != "gd" or base["function_class"] not in ("smooth_convex", "smooth_strongly_convex"):
        return None
    Tm = Templates(base)
    if not Tm.shift_invariant():
        return None
    fams, ends, inits, pivs = {t: [] for t in FAMILIES}, {}, [], []
    for N in SAMPLES:
        got = _sample(base, N, None if bound is None else sp.sympify(bound).subs(N_, N))
        if got is None:
            return None
        mult, value, _ = got
        inits.append((Fraction(N), value))
        for t, key in FAMILIES.items():
            top = N if t == "star" else N - 1
            for k in range(top + 1):
                v = mult.get(key(k), Fraction(0))
                if k <= N - 2:
                    fams[t].append(((k, N), v))
                else:
                    ends.setdefault((t, N - k), []).append((Fraction(N), v))
        _, S = E.check_upper(_spec(base, N), mult)
        Sy = _in_iterates({(a, b): (S[a][b] if a == b else 2 * S[a][b]) for a in range(N + 2) for b in range(a, N + 2)},
                          _iterate_basis(N, Fraction(base["h"])))
        for jj, d in enumerate(_ldl_pivots(Sy)[: N - 1]):
            if 1 <= jj <= N - 2:
                pivs.append(((jj, N), d))
    lam = {t: fit2(pts, k_, N_) for t, pts in fams.items()}
    end = {key: fit_rational(pts, N_) for key, pts in ends.items()}
    init = fit_rational(inits, N_)
    D = fit2(pivs, j_, N_)
    if any(v is None for v in lam.values()) or any(v is None for v in end.values()) or init is None or D is None:
        return None
    checks = [f"closed forms fitted on N = {SAMPLES[0]}..{SAMPLES[-1]} and confirmed on every sample"]
    if bound is not None and sp.simplify(init - bound) != 0:
        return None
    bound = init
    checks.append(f"the initial condition's multiplier is {sp.sstr(init)}: the bound proved, for every N")

    def L(t, k):
        """The multiplier of family ``t`` at step ``k`` (an expression in N; ``k`` given as N - r near the end)."""
        r = sp.simplify(N_ - k)
        if r.is_Integer and (t, int(r)) in end:
            return end[(t, int(r))]
        return lam[t].subs(k_, k)

    # (a) every function value cancels
    lin = {t: {o - 1: v for o, v in Tm.lin[(t, 1)].items()} for t in FAMILIES}        # offsets from the step
    obj_lin = {TEMPLATE_N - o: v for o, v in Tm.lin["objective"].items()}              # N - r -> coefficient
    init_lin = dict(Tm.lin["init"])

    def fcoef(j, r=None):
        """obj.lin - sum lambda e.lin at point j (``r``: j = N - r near the end)."""
        tot = sp.Integer(0)
        for t in FAMILIES:
            for o, v in lin[t].items():
                k = j - o
                if (k.is_Integer and k < 0) if isinstance(k, sp.Basic) else k < 0:
                    continue
                top = N_ if t == "star" else N_ - 1
                if sp.simplify(top - k).is_negative:
                    continue
                tot += sp.Rational(v) * L(t, k)
        if r is not None and r in obj_lin:
            tot -= sp.Rational(obj_lin[r])
        if j == 0:
            tot += sum(sp.Rational(v) * init for o, v in init_lin.items() if o == 0)
        return sp.simplify(tot)

    for j in (sp.Integer(0), sp.Integer(1), j_):          # x_0, x_1, and every interior x_j (an identity)
        if fcoef(j) != 0:
            return None
    for r in (2, 1, 0):
        if fcoef(N_ - r, r) != 0:
            return None
    checks.append("every function value cancels: at x_0, x_1, every interior x_j (an identity in j, N) and the last three")
    # (b) S in the iterate basis: tridiagonal, pivots by the recurrence
    W = {t: Tm.interior(t) for t in FAMILIES}
    if any(abs(a - b) >= 2 for t in W for a, b in W[t]):
        return None

    def entry(a, b):
        """S_y[a][b] from the interior templates (rows whose constraints are all generic)."""
        tot = sp.Integer(0)
        for t in FAMILIES:
            for (oa, ob), v in W[t].items():
                if sp.simplify((a - oa) - (b - ob)) != 0:
                    continue
                k = a - oa
                if isinstance(k, sp.Basic) and k.is_Integer and k < 0:
                    continue
                tot += sp.Rational(v) * L(t, k)
        return tot

    alpha, beta = entry(j_, j_), entry(j_, j_ + 1)
    init_q = {ab: sp.Rational(v) for ab, v in Tm.quad["init"].items()}
    d0 = sp.simplify(entry(sp.Integer(0), sp.Integer(0)) + init * init_q.get((0, 0), 0))
    b0 = sp.simplify(entry(sp.Integer(0), sp.Integer(1)) + init * init_q.get((0, 1), 0))
    d1 = sp.simplify(entry(sp.Integer(1), sp.Integer(1)) - b0**2 / d0)
    if sp.simplify(D.subs(j_, 1) - d1) != 0:
        return None
    if sp.simplify(D.subs(j_, j_ + 1) - (alpha.subs(j_, j_ + 1) - beta**2 / D)) != 0:
        return None
    checks.append("S is tridiagonal in the iterate basis; its pivots satisfy d_(j+1) = a_(j+1) - b_j^2/d_j (an "
                  "identity in j, N) from d_0 and d_1")
    # the last rows: N-1, N and g_N (index N+1), with the constraints that touch g_N
    end_idx = [N_ - 1, N_, N_ + 1]

    def end_entry(a, b):
        tot = sp.Integer(0)
        for t in FAMILIES:
            top = 0 if t == "star" else 1
            for r in range(top, 5):
                k = N_ - r
                k0 = TEMPLATE_N - r
                if (t, k0) not in Tm.quad:
                    continue
                if Tm.end_special(t, k0):
                    a0 = TEMPLATE_N - int(N_ - a) if a != N_ + 1 else TEMPLATE_N + 1
                    b0_ = TEMPLATE_N - int(N_ - b) if b != N_ + 1 else TEMPLATE_N + 1
                    v = Tm.quad[(t, k0)].get((a0, b0_), 0)
                else:
                    v = W[t].get((int(sp.simplify(a - k)), int(sp.simplify(b - k))), 0)
                if v:
                    tot += sp.Rational(v) * L(t, k)
        ra = TEMPLATE_N - int(N_ - a) if a != N_ + 1 else TEMPLATE_N + 1
        rb = TEMPLATE_N - int(N_ - b) if b != N_ + 1 else TEMPLATE_N + 1
        tot -= sp.Rational(Tm.quad["objective"].get((ra, rb), 0))
        return sp.simplify(tot)

    Eb = [[end_entry(a, b) for b in end_idx] for a in end_idx]
    Eb[0][0] = sp.simplify(Eb[0][0] - beta.subs(j_, N_ - 2) ** 2 / D.subs(j_, N_ - 2))
    last = _ldl_pivots_sym(Eb)
    if last is None:
        return None
    n_min = SAMPLES[-1]
    if not all(_nonneg_in_N(p, n_min) for p in last):
        return None
    checks.append(f"the last three pivots ({', '.join(sp.sstr(sp.factor(p)) for p in last)}) are >= 0 for N >= {n_min}")
    # (c) signs
    if not all(_coefficient_positive(lam[t], 2) for t in FAMILIES):
        return None
    if not all(_nonneg_in_N(v, n_min) for v in end.values()) or not _nonneg_in_N(init, 1):
        return None
    if not (_coefficient_positive(D.subs(j_, k_), 2) and _strict(D.subs(j_, k_), 2) and _nonneg_in_N(d0, n_min)
            and sp.simplify(d0) != 0):
        return None
    checks.append("every multiplier and every pivot d_j (1 <= j <= N - 2) is >= 0 (N = k + 2 + m: coefficients "
                  f"of one sign; the pivots > 0), d_0 > 0")
    # the horizons below the symbolic argument's reach have their own exact certificates (the samples, and N = 1);
    # and, as a guard on the templates, the closed forms at two horizons beyond the samples pass the exact check
    from .pep_proof import certify

    one = certify(_spec(base, 1), sp.sympify(bound).subs(N_, 1))
    if one.upper_bound is None or not sp.Rational(one.upper_bound.numerator, one.upper_bound.denominator) <= \
            sp.sympify(bound).subs(N_, 1):
        return None
    for N in (n_min + 3, n_min + 6):
        at = lambda t, k: (end[(t, N - k)] if (t, N - k) in end else lam[t].subs(k_, k)).subs(N_, N)  # noqa: E731
        mult = {FAMILIES[t](k): _frac_of(at(t, k)) for t in FAMILIES for k in range(N + (1 if t == "star" else 0))}
        mult["init"] = _frac_of(init.subs(N_, N))
        value, _ = E.check_upper(_spec(base, N), {k: v for k, v in mult.items() if v})
        if value != _frac_of(sp.sympify(bound).subs(N_, N)):
            return None
    checks.append(f"N = 1..{n_min - 1}: exact certificates; the closed forms at N = {n_min + 3} and {n_min + 6} pass "
                  "the exact check too")
    return HorizonProof(bound, {**{t: lam[t] for t in FAMILIES}, **{f"{t}(N-{r})": v for (t, r), v in end.items()}},
                        D, checks, True)


def _frac_of(v) -> Fraction:
    v = sp.nsimplify(v)
    return Fraction(int(v.p), int(v.q))


def _strict(expr, shift) -> bool:
    """The numerator of ``expr`` (with ``N = k + shift + m``) is nonzero at ``k = m = 0`` (with coefficients of one
    sign, the expression is then nonzero everywhere on the range)."""
    num, _ = sp.fraction(sp.together(sp.sympify(expr).subs(N_, k_ + shift + m_)))
    return sp.expand(num).subs({k_: 0, m_: 0}) != 0


def _ldl_pivots_sym(A):
    """The pivots of a small symbolic matrix (natural order); a pivot identically 0 needs the rest of its row
    identically 0 (then it is skipped); ``None`` when that fails."""
    A = [[sp.together(v) for v in r] for r in A]
    n, out = len(A), []
    for p in range(n):
        d = sp.simplify(A[p][p])
        if d == 0:
            if any(sp.simplify(A[p][j]) != 0 for j in range(p + 1, n)):
                return None
            out.append(sp.Integer(0))
            continue
        out.append(d)
        for i in range(p + 1, n):
            r = A[i][p] / d
            for j in range(p + 1, n):
                A[i][j] = sp.together(A[i][j] - r * A[p][j])
    return out


__all__ = ["FAMILIES", "HorizonProof", "N_", "Templates", "fit2", "prove"]


def _same_sign_coefficients(expr, variables) -> bool:
    """``expr >= 0`` for all non-negative values of ``variables``: its numerator and denominator polynomials
    each have coefficients of one sign, the same for both (a zero numerator passes)."""
    num, den = sp.fraction(sp.together(expr))
    signs = []
    for part in (num, den):
        cs = [c for c in sp.Poly(sp.expand(part), *variables).coeffs() if c != 0]
        if not cs:
            return part is num     # a zero numerator is >= 0
        if all(c > 0 for c in cs):
            signs.append(1)
        elif all(c < 0 for c in cs):
            signs.append(-1)
        else:
            return False
    return signs[0] == signs[1]


def attained(base: dict, value) -> str | None:
    """A worst function for every horizon attaining ``value(N)``: one dimension, ``x_0 - x* = 1``, the same
    gradient ``c(N)`` at every iterate (a Huber-like function) and values ``f_k(N)``, fitted on the samples and
    then checked symbolically against every interpolation condition (``i < j``, ``i > j`` and with ``x*``, with
    the indices written as sums of non-negative integers) and the value; a description, or ``None``."""
    from . import pep_direct as D
    from . import pep_rational as R
    from .pep_symbolic import fit_rational

    if base["init"] != "dist":
        return None
    cs, fs = [], []
    for N in SAMPLES:
        spec = _spec(base, N)
        sol = D.Numeric(spec).solve()
        sym = E.Symbolic(True)
        E.constraints(spec, sym, only=set())
        target = sp.sympify(value).subs(N_, N)
        low = R.lower(spec, sym, sol.G, Fraction(int(target.p), int(target.q)) if target.is_Rational else None,
                      mix=False)
        if low is None or low.dimension != 1 or low.x0 != [1] or len({g[0] for g in low.grads}) != 1:
            return None
        cs.append((Fraction(N), low.grads[0][0]))
        fs.extend(((k, N), v) for k, v in enumerate(low.values))
    c, F = fit_rational(cs, N_), fit2(fs, k_, N_)
    if c is None or F is None:
        return None
    h, q = sp.Rational(base["h"]), sp.Rational(base.get("q", 0))
    i_, a_, b_ = sp.symbols("i a b", integer=True, nonnegative=True)
    x = lambda k: 1 - k * h * c  # noqa: E731
    P = lambda k: (E.WVec([x(k)]), E.WVec([c]), F.subs(k_, k))  # noqa: E731
    star = (E.WVec([sp.Integer(0)]), E.WVec([sp.Integer(0)]), sp.Integer(0))
    cls = "smooth_convex" if q == 0 else "smooth_strongly_convex"
    # i < j: j = i + 1 + a, N = j + b; i > j: i = j + 1 + a, N = i + b; with x*: N = i + b
    cases = [(E.interpolation(cls, q, P(i_), P(i_ + 1 + a_)), {N_: i_ + 1 + a_ + b_}),
             (E.interpolation(cls, q, P(i_ + 1 + a_), P(i_)), {N_: i_ + 1 + a_ + b_}),
             (E.interpolation(cls, q, P(i_), star), {N_: i_ + b_}),
             (E.interpolation(cls, q, star, P(i_)), {N_: i_ + b_})]
    for e, sub in cases:
        if not _same_sign_coefficients(-sp.sympify(e).subs(sub), (i_, a_, b_)):
            return None
    init = x(0) ** 2 - 1
    if sp.simplify(init) != 0 or sp.simplify(F.subs(k_, N_) - value) != 0:
        return None
    return (f"a Huber-like function for every N: x_0 - x* = 1, gradient {sp.sstr(c)} at every iterate, "
            f"f(x_k) - f* = {sp.sstr(F)}; every interpolation condition checked symbolically")
