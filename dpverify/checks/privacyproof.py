"""Privacy statements proved on the domain: the measured privacy quantity's exact closed form against
the bound, symbolically or in ball arithmetic, not only at the points the supremum search measured.

Applies to a ``SupBound`` of kind ``privacy`` whose scenario gives its quantity as an exact closed form
in the claim's symbols (:meth:`dpverify.scenarios.Scenario.proof_form`): the Gaussian mechanism's exact
profile ``delta(eps; mu)`` [Balle & Wang 2018, Thm. 8], a closed form proved in the literature (the
Gaussian's Renyi divergence). It runs after the supremum check (a fallback: only where that neither
proved nor refuted). In order:

1. **Symbolic**: when SymPy reduces ``bound - quantity`` to 0, the bound *is* the quantity: ``verified``
   on the whole domain (basis ``privacy-proof``). The evidence carries a standalone checker
   (``data["checker"]``, Python with python-flint alone) that evaluates both in ball arithmetic at the
   probe points and checks that they agree to a relative ``2^-50`` -- at any magnitude (a profile of
   ``1e-229`` included, where double precision knows only an absolute ``1e-20``); the check runs it first.
2. **Probes**: the quantity and the bound at the centre and the corners of the search box, exact points
   (the binary value of each double): a point where the quantity's ball lies above the bound's is a
   rigorous violation, with no tolerance (``violated``, replayable with ``--at``).
3. **Branch and bound** over the search box (:func:`~dpverify.checks.boxproof.branch_and_bound`, the
   domain's relations decided on each box as there): the bound enclosed in ball arithmetic (natural and
   mean-value forms), the profile by its **monotonicity** -- decreasing in ``eps``, increasing in ``mu``
   -- at the corners ``(eps_lo, mu_hi)`` and ``(eps_hi, mu_lo)`` of the enclosures of ``eps`` and ``mu``
   (:mod:`dpverify.privacy.arb_profile`: a relative error at any magnitude, no cancellation blow-up); a
   closed form by ``bound - quantity`` as the box proof does. Every box certified: ``verified`` on the
   search box (basis ``privacy-proof-on-box``: the scope names the box; never the whole domain).
   Otherwise ``inconclusive`` with where it got stuck.
"""
from __future__ import annotations

from fractions import Fraction

import sympy as sp

from ..arb_source import HELPERS, Unprintable, evaluator, printer_for
from ..numeric import jsonable
from ..scenarios import bind
from ..claims import Seq, SupBound, symbol_names
from ..verdict import Basis, Evidence
from .base import Clock, Config, SymbolicTimeout, time_limit
from .boxproof import NotApplicable, Problem, branch_and_bound, completed, related
from .kind import CheckKind

#: boxes the branch-and-bound may decide per statement, and its CPU seconds (a safety cap)
BUDGET = 8000
SECONDS = 30.0
#: SymPy's seconds to reduce ``bound - quantity``
SYMBOLIC_SECONDS = 8.0
#: relative agreement the checker of a symbolic equality asks at each probe point
AGREE_BITS = 50
#: bits of the profile's balls in the branch-and-bound
PROFILE_BITS = 40
LABEL = "privacy-proof"


def _form(stmt):
    try:
        return stmt.scenario.proof_form()
    except Exception:  # noqa: BLE001 - a scenario without a closed form here has none
        return None


def applies(stmt) -> bool:
    return isinstance(stmt, SupBound) and stmt.kind == "privacy" and _form(stmt) is not None


def _phi(x):
    return sp.erfc(-x / sp.sqrt(2)) / 2


def gaussian_profile_expr(eps, mu):
    """The Gaussian mechanism's exact profile as a SymPy expression (``Phi(x) = erfc(-x/sqrt 2)/2``)."""
    return _phi(-eps / mu + mu / 2) - sp.exp(eps) * _phi(-eps / mu - mu / 2)


def _zero(diff) -> bool:
    """Whether SymPy reduces ``diff`` to 0 (within ``SYMBOLIC_SECONDS``)."""
    try:
        with time_limit(SYMBOLIC_SECONDS):
            if diff == 0:
                return True
            for d in (diff, diff.rewrite(sp.erfc)):
                if sp.expand(d) == 0 or sp.simplify(sp.expand(d)) == 0:
                    return True
    except (SymbolicTimeout, TypeError, ValueError, RecursionError, NotImplementedError):
        return False
    return False


class ProfileProblem(Problem):
    """The bound (the base :class:`Problem`'s ``diff``) against the Gaussian profile at ``eps``, ``mu``,
    enclosed on a box by the profile's monotonicity."""

    def attach(self, claim, eps, mu):
        printer = printer_for(claim.domain)
        try:
            self.eps_f, self.mu_f = evaluator(printer(eps)), evaluator(printer(mu))
        except Unprintable as exc:
            raise NotApplicable(f"no ball-arithmetic form of eps or mu: {exc}") from None
        self.own |= set(symbol_names(eps)) | set(symbol_names(mu))
        return self

    def quantity(self, box):
        """``(least, largest)``: balls holding the profile's least and largest value on the box, or None."""
        from ..privacy.arb_profile import gaussian_delta_ball

        P = self._point(box)
        e, m = self._eval(self.eps_f, P), self._eval(self.mu_f, P)
        if e is None or m is None or not (e.is_finite() and m.is_finite()) or not m > 0:
            return None
        return (gaussian_delta_ball(e.upper(), m.lower(), PROFILE_BITS),
                gaussian_delta_ball(e.lower(), m.upper(), PROFILE_BITS))

    def decide(self, box) -> str:
        q = self.quantity(box)
        if q is None:
            return "split"
        lower, upper = self.enclosures(box)     # of the bound
        if any(q[1] <= b for b in lower):
            return "certified"
        if any(q[0] > b for b in upper):
            return "wrong"
        return "split"


def _dims(claim, exprs):
    params = claim.domain.params
    names, relations = related(claim, set().union(*(symbol_names(e) for e in exprs)))   # as the box proof
    if any(isinstance(params.get(n), Seq) for n in names):
        raise NotApplicable("the statement uses a sequence")
    return [Problem.dim(n, params[n]) for n in sorted(names)], [(r.describe(), r.rel) for r in relations]


def _probe_points(problem) -> list[tuple]:
    """Degenerate boxes at the centre and the corners of the search box, each coordinate a double."""
    real = [d for d in problem.dims if d.kind != "choice"]
    out = []
    for start in problem.boxes():
        centre = problem.centre(start)
        pts = [centre]
        if len(real) <= 4:
            corners = [{}]
            for d, (lo, hi) in zip(problem.dims, start):
                vals = [lo] if d.kind == "choice" else [lo, hi]
                corners = [{**c, d.name: v} for c in corners for v in vals]
            pts += corners
        for p in pts:
            box = []
            for d, (lo, hi) in zip(problem.dims, start):
                v = p[d.name]
                if d.kind == "choice":
                    box.append((lo, hi))
                elif d.kind == "int":
                    box.append((int(v), int(v)))
                else:
                    f = Fraction(float(v))      # the double's exact value: the point replays with --at
                    box.append((f, f))
            out.append(tuple(box))
    return out


def _refuting_probe(problem, claim):
    """The first probe point of the claim at which the quantity is certainly above the bound, or None."""
    from flint import ctx

    old = ctx.prec
    ctx.prec = 256
    try:
        for box in _probe_points(problem):
            point = {d.name: (float(lo) if d.kind == "real" else lo) for d, (lo, _) in zip(problem.dims, box)}
            if problem.inside(box) is not True or not _contains(claim, point):
                continue
            if problem.decide(box) == "wrong":
                return point
    finally:
        ctx.prec = old
    return None


def _contains(claim, point) -> bool:
    """Whether ``point`` (completed with the middle of every other parameter's search box) is the claim's."""
    full = completed(claim, point, sequences=False)
    if full is None:
        return False
    try:
        return bool(claim.domain.contains(full))
    except Exception:  # noqa: BLE001 - a point the domain cannot judge is not used
        return False


def checker_source(claim, bound, quantity, points) -> str:
    """A standalone Python checker (python-flint alone) that evaluates ``bound`` and ``quantity`` in ball
    arithmetic at ``points`` (``{name: float}``) and asserts that they agree to a relative ``2^-AGREE_BITS``;
    it prints ``ok`` and exits 0, or names the first point where they do not and exits 1."""
    printer = printer_for(claim.domain)
    pts = [{k: (v if isinstance(v, int) else Fraction(v).as_integer_ratio()) for k, v in p.items()} for p in points]
    return "\n".join([
        "# Standalone checker written by dpverify: the bound equals the exact privacy quantity (needs python-flint)",
        "import sys",
        "from flint import arb, fmpq, ctx",
        HELPERS,
        "ctx.prec = 512",
        f"def bound(P): return {printer(bound)}",
        f"def quantity(P): return {printer(quantity)}",
        f"POINTS = {pts!r}",
        "for raw in POINTS:",
        "    P = {k: (v if isinstance(v, int) else arb(fmpq(*v))) for k, v in raw.items()}",
        "    b, v = bound(P), quantity(P)",
        "    if not (b > 0 and v > 0 and abs(b - v) < abs(v) * arb(2) ** -" + str(AGREE_BITS) + "):",
        "        print('disagree at', raw, b, v)",
        "        sys.exit(1)",
        "print('ok')",
    ])


def run_checker(source: str) -> bool:
    """Run a checker's source in this process (its own namespace); True when it says ``ok``."""
    import contextlib
    import io

    out = io.StringIO()
    try:
        with contextlib.redirect_stdout(out):
            exec(compile(source, "<privacy checker>", "exec"), {"__name__": "__checker__"})  # noqa: S102 - ours
    except (SystemExit, Exception):  # noqa: BLE001 - a checker that fails in any way does not pass
        return False
    return out.getvalue().strip().endswith("ok")


def check(stmt, claim, cfg: Config) -> Evidence:
    clock = Clock()
    name = stmt.name

    def result(verdict, basis, detail, **kw):
        return Evidence(LABEL, name, verdict, seconds=clock.seconds, basis=basis, detail=detail, **kw)

    not_tried = Basis("privacy-proof-on-box", "not attempted")
    form = bind(stmt.scenario, claim).proof_form()
    bound = claim.expand(stmt.bound)
    if getattr(stmt, "exists", ()):
        return result("inconclusive", not_tried, "privacy proof not attempted: a parameter is quantified existentially")
    if form["kind"] == "gaussian-profile":
        eps, mu = claim.expand(form["eps"]), claim.expand(form["mu"])
        quantity, what = gaussian_profile_expr(eps, mu), "the Gaussian mechanism's exact profile (Balle & Wang)"
    else:
        quantity, what = claim.expand(form["expr"]), form.get("source", "a closed form")
    if any(e.has(sp.Indexed) for e in (bound, quantity)):
        return result("inconclusive", not_tried, "privacy proof not attempted: the statement indexes a sequence")
    try:
        dims, relations = _dims(claim, [bound, quantity])
        if form["kind"] == "gaussian-profile":
            problem = ProfileProblem.over(claim, bound, dims, relations).attach(claim, eps, mu)
        else:
            problem = Problem.over(claim, bound - quantity, dims, relations)
        problem.boxes()
    except NotApplicable as exc:
        return result("inconclusive", not_tried, f"privacy proof not attempted: {exc}")
    scope = problem.scope()
    data = {"scope": scope, "quantity": what}
    # 1. symbolic: the bound is the quantity (tried only where ball arithmetic finds them equal at the probes)
    points = [{d.name: (int(lo) if d.kind == "int" else float(lo)) for d, (lo, _) in zip(problem.dims, box)}
              for box in _probe_points(problem)]
    points = [p for p in points if _contains(claim, p)][:8]
    source = checker_source(claim, bound, quantity, points) if points else ""
    if points and run_checker(source) and _zero(bound - quantity):
        data.update(checker=source, points=points, symbolic="bound - quantity = 0")
        return result("verified", Basis("privacy-proof", "the whole domain"), data=data,
                      detail=f"the bound is {what} itself (SymPy reduces their difference to 0) on the whole "
                             f"domain; ball arithmetic agrees to 2^-{AGREE_BITS} relative at {len(points)} points "
                             "(the checker in data['checker'], python-flint alone)")
    # 2. probes: a rigorous violation at a point
    point = _refuting_probe(problem, claim)
    basis = Basis("privacy-proof-on-box", scope)
    if point is not None:
        return result("violated", basis, data=data, point=jsonable(point),
                      counterexample={"params": jsonable(point), "seed": cfg.seed},
                      detail=f"{what} lies above the bound at {jsonable(point)} (ball arithmetic, exact point, no "
                             "tolerance); replay with --at")
    # 3. branch and bound on the search box
    # certify_only: a wrong-side box would leave the verdict inconclusive too (no probe confirmed one), so the
    # search ends as soon as it cannot certify the box within the budget
    out = branch_and_bound(problem, BUDGET, SECONDS, certify_only=True)
    data.update(boxes=out.boxes, certified=out.certified, discarded=out.discarded)
    if out.status == "certified":
        return result("verified", basis, samples=out.boxes, data=data,
                      detail=f"proved on the box {scope}: {what} <= the bound on each of {out.certified} boxes "
                             "(ball arithmetic; the profile by its monotonicity in eps and mu)")
    if out.status == "wrong-side":
        data["wrong_side"] = [problem.describe(b) for b in out.wrong[:3]]
        return result("inconclusive", basis, samples=out.boxes, data=data,
                      detail=f"{len(out.wrong)} box(es) where the quantity exceeds the bound, e.g. "
                             f"{data['wrong_side'][0]}, no probe point of the claim confirmed it")
    small = sorted(out.uncertified, key=lambda b: problem.widest(b)[0])[:3]
    data["uncertified"] = [problem.describe(b) for b in small]
    why = f"{SECONDS:g} s" if out.seconds_cap else f"{out.boxes} boxes: more left undecided than the " \
        f"{BUDGET}-box budget could decide" if out.hopeless else f"{BUDGET} boxes"
    return result("inconclusive", basis, samples=out.boxes, data=data,
                  detail=f"privacy proof gave up after {why}: {out.certified} boxes certified, "
                         f"{len(out.uncertified)} not" + (f", e.g. {data['uncertified'][0]}" if small else ""))


KIND = CheckKind(
    name="privacyproof", label=LABEL, applies=applies, check=check,
    basis_kinds=("privacy-proof", "privacy-proof-on-box"), can_refute=True, stage="fallback",
    proof_certificate="privacy-proof",
    enabled=lambda cfg: cfg.at is None,
    no_certificate="its refutation is one exact point in ball arithmetic, replayable with --at",
    summary="a privacy quantity with an exact closed form (the Gaussian profile, a proved Renyi divergence) against "
            "the bound: symbolically on the whole domain, at exact probe points, or by branch-and-bound in ball "
            "arithmetic with the profile's monotonicity over the search box")


__all__ = ["KIND", "ProfileProblem", "checker_source", "gaussian_profile_expr", "run_checker"]
