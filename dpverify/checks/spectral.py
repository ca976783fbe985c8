"""An expectation claim on quadratics as an inequality over the spectrum (:mod:`.spectralforms`).

:func:`reduce` reads an :class:`~dpverify.claims.ExpectationBound`'s scenario -- noisy gradient descent
(plain steps, full gradients), its gradient-norm-free variant (``adaptive_gd`` with schedules), random-round
SGD with a constant step and noise, output-perturbed gradient descent -- and writes it as a *model*
(:mod:`.spectralforms`: the step, the noise, the statistic, the start, the spectrum's interval, the bound,
all in the claim's symbols) together with the *ranges* of every symbol of the obligation ``F >= 0``: the
claim's parameters from their hypotheses (bounds, and relations ``x <= f(others)`` where ``x`` has no
bound of its own on that side; other relations are left out, which proves the claim on more points, not
fewer), then the two eigenvalues in ``[lo, hi]`` and, when the start's size is an upper bound, the size in
``[0, S]``. A scenario outside this reach raises :class:`NotApplicable` naming why.

The class a claim states may be wider than quadratics (smooth, PL, strongly convex, convex): a proof
then covers its quadratics only, and says so (:attr:`Reduction.class_is_quadratic`).
"""
from __future__ import annotations

from dataclasses import dataclass, field

import sympy as sp

from ..claims import Choice, Int, Real, Seq
from . import spectralforms

LAM1, LAM2, SIZE = sp.Symbol("lam_1"), sp.Symbol("lam_2"), sp.Symbol("S_0")


class NotApplicable(Exception):
    """The statement is outside the reduction's reach; the message says why in one phrase."""


@dataclass
class Reduction:
    """A statement as ``F >= 0`` over ``ranges`` (see the module docstring)."""

    model: dict
    F: sp.Expr
    ranges: list
    seq_bounds: dict
    class_is_quadratic: bool
    family: str
    left_out: list = field(default_factory=list)

    def scope(self) -> str:
        """What a proof of ``F >= 0`` covers, in words."""
        lo, hi = self.model["lo"], self.model["hi"]
        what = f"every quadratic with Hessian spectrum in [{lo}, {hi}] (any dimension's split of the start)"
        if self.left_out:
            what += "; hypotheses left out (a proof covers more points): " + "; ".join(self.left_out)
        return what


def _number(v):
    return sp.Integer(v) if isinstance(v, int) else sp.Rational(v)


def symbols_of(claim) -> dict:
    """Each parameter's symbol as the reduction writes it (integers with ``integer=True``)."""
    out = {}
    for name, p in claim.domain.params.items():
        out[name] = sp.Symbol(name, integer=True) if isinstance(p, Int) else sp.Symbol(name)
    return out


def in_claim(expr, claim, extra_integers=(), index=None):
    """``expr`` with the claim's definitions and its parameters' symbols (an integer's with ``integer=True``);
    ``index`` (the step index) becomes an integer symbol too."""
    e = claim.expand(sp.sympify(expr))
    syms = symbols_of(claim)
    for n in extra_integers:
        syms[n] = sp.Symbol(n, integer=True)
    rep = {sp.Symbol(n): s for n, s in syms.items() if sp.Symbol(n) != s}
    if index is not None:
        rep[sp.Symbol(str(index))] = sp.Symbol(str(index), integer=True)
    return e.xreplace(rep) if rep else e


def _bounds(p) -> tuple:
    if isinstance(p, Real):
        lo = max([_number(b) for b in (p.gt, p.ge) if b is not None], default=None)
        hi = min([_number(b) for b in (p.lt, p.le) if b is not None], default=None)
        return lo, hi
    if isinstance(p, Int):
        return (None if p.ge is None else sp.Integer(p.ge)), (None if p.le is None else sp.Integer(p.le))
    return None, None


def param_ranges(claim, needed: set, extra_integers=()):
    """``(ranges, left_out)``: the ranges of the parameters in ``needed`` (and of those their ranges use),
    ordered so that an end uses only earlier symbols."""
    syms = symbols_of(claim)
    for n in extra_integers:
        syms[n] = sp.Symbol(n, integer=True)
    by_symbol = {s: n for n, s in syms.items()}
    ends = {}
    for name, p in claim.domain.params.items():
        if isinstance(p, Choice):
            continue
        if isinstance(p, Seq):
            continue
        ends[syms[name]] = list(_bounds(p))
    left_out, deps = [], {s: set() for s in ends}
    for r in claim.domain.relations:
        rel = in_claim(r.rel, claim, extra_integers)
        used = False
        if isinstance(rel, (sp.Le, sp.Lt, sp.Ge, sp.Gt)):
            lhs, rhs = rel.lhs, rel.rhs
            upper = isinstance(rel, (sp.Le, sp.Lt))
            for x, f, is_hi in ((lhs, rhs, upper), (rhs, lhs, not upper)):
                if x in ends and not f.has(x) and f.free_symbols <= set(ends) and ends[x][1 if is_hi else 0] is None:
                    trial = {**deps, x: deps[x] | f.free_symbols}
                    if not _cyclic(trial):
                        ends[x][1 if is_hi else 0] = f
                        deps = trial
                        used = True
                        break
        if not used:
            left_out.append(r.describe())
    order, seen = [], set()

    def visit(s):
        if s in seen:
            return
        seen.add(s)
        for d in sorted(deps[s], key=str):
            visit(d)
        order.append(s)

    closure = set()
    todo = [s for s in needed if s in ends]
    while todo:
        s = todo.pop()
        if s in closure:
            continue
        closure.add(s)
        todo.extend(deps[s])
    for s in sorted(closure, key=str):
        visit(s)
    ranges = [(s, ends[s][0], ends[s][1]) for s in order if s in closure]
    missing = sorted(str(s) for s in needed if s not in ends and isinstance(s, sp.Symbol) and str(s) in by_symbol
                     and not isinstance(claim.domain.params.get(str(s)), Seq))
    if missing:
        raise NotApplicable(f"parameter(s) {', '.join(missing)} have no range (a Choice)")
    return ranges, left_out


def _cyclic(deps) -> bool:
    state = {}

    def visit(s):
        if state.get(s) == 1:
            return True
        if state.get(s) == 2:
            return False
        state[s] = 1
        if any(visit(d) for d in deps.get(s, ()) if d in deps):
            return True
        state[s] = 2
        return False

    return any(visit(s) for s in deps)


def seq_bounds(claim) -> dict:
    out = {}
    for name, p in claim.domain.params.items():
        if isinstance(p, Seq):
            out[name] = _bounds(p.elem)
    return out


# ----------------------------------------------------------------------------- scenarios -> models
def _need(sc, key):
    if key not in sc.params.exprs:
        raise NotApplicable(f"the scenario gives no {key}")
    return sc.params.exprs[key]


def _start(sc, keys):
    present = [k for k in keys if k in sc.params.exprs]
    return present


def model_of(stmt, claim, sc) -> tuple[dict, bool, list]:
    """``(model, class_is_quadratic, extra_integers)`` of a bound scenario (module docstring)."""
    kind = type(sc).__name__
    ints: tuple = ()
    index = getattr(sc.params, "index", sp.Symbol("t"))
    ex = sc.params.exprs
    if stmt.exists:
        raise NotApplicable("an existential parameter (the proof would need a value of it for every point)")
    if getattr(sc, "exceeds", None) is not None or getattr(sc, "indicator", False):
        raise NotApplicable("a probability of exceeding a threshold is not an expectation of moments")
    if getattr(sc, "observe_map", None):
        raise NotApplicable(f"the bound uses an observable of the run ({', '.join(sc.observe_map)})")
    model = {"rounds": "last", "extra": sp.Integer(0), "upto": False}
    quadratic = False
    if kind == "NoisyGD":
        from ..sim import gradients, updates

        if not isinstance(sc.update, updates.Plain):
            raise NotApplicable(f"the update rule is {sc.update.name}: no closed form per direction here "
                                "(plain steps only)")
        if not isinstance(sc.gradient, gradients.FullGradient) or sc.gradient.samples:
            raise NotApplicable("mini-batch gradients: the sampling noise depends on the data, not the spectrum alone")
        if sc.problem == "logistic":
            raise NotApplicable("ridge logistic regression on data has no spectral closed form")
        lo = sp.Integer(0) if sc.problem == "convex" else _need(sc, "curvature")
        quadratic = sc.problem == "quadratic"
        stat = sc.statistic
        if "init_gap" in ex:
            start, size = "gap", ex["init_gap"]
        elif "init_dist" in ex:
            start, size = "dist", ex["init_dist"] ** 2
        else:
            start, size = "gap", sp.Integer(1)
        model.update(stat=stat, start=start, size=size, lo=lo, hi=_need(sc, "smooth"), step=_need(sc, "step"),
                     noise=_need(sc, "noise_std"), horizon=_need(sc, "horizon"), dim=_need(sc, "dim"))
    elif kind == "AdaptiveGD":
        grad = sc.grad
        if any(grad in sc.params.exprs[k].free_symbols for k in ("step", "noise_std")):
            raise NotApplicable("the step or noise follows the gradient norm: the directions are coupled")
        if sc.statistic not in ("excess", "increase", "dist_sq", "grad_norm_sq", "avg_grad_norm_sq"):
            raise NotApplicable(f"the statistic {sc.statistic} is not a moment of the iterates")
        lo = _need(sc, "curvature") if sc.problem == "strongly_convex" else sp.Integer(0)
        start = {"init_gap": "gap", "init_dist": "dist", "init_grad": "grad"}[sc.start]
        size = ex[sc.start] if start == "gap" else ex[sc.start] ** 2
        rounds = "last"
        if sc.statistic == "avg_grad_norm_sq":
            rounds = {"after": "uniform", "steps": "steps", "all": "all"}[sc.average]
        model.update(stat=sc.statistic, start=start, size=size, lo=lo, hi=_need(sc, "smooth"), rounds=rounds,
                     step=_need(sc, "step"), noise=_need(sc, "noise_std"), horizon=_need(sc, "horizon"),
                     dim=_need(sc, "dim"))
    elif kind == "RandomRoundSGD":
        if sc.trajectory:
            raise NotApplicable("a conditional expectation given the trajectory is a random variable, not a moment")
        ints = tuple(sc.integers)
        start = "dist" if sc.geometry == "init_dist" else "gap"
        size = ex["init_dist"] ** 2 if start == "dist" else ex["init_gap"]
        model.update(stat=sc.statistic, start=start, size=size, lo=sp.Integer(0), hi=_need(sc, "smooth"),
                     rounds="uniform", step=_need(sc, "step"), noise=_need(sc, "noise_std"),
                     horizon=_need(sc, "horizon"), dim=_need(sc, "dim"))
        if model["step"].has(index) or model["noise"].has(index):
            raise NotApplicable("a step or noise that changes with the step: the random round is not uniform")
    elif kind == "OutputPerturbationGD":
        b, D = _need(sc, "noise_scale"), _need(sc, "dim")
        extra = b ** 2 if sc.noise == "gaussian" else (D + 1) * b ** 2   # E z_i^2 per coordinate
        lo = sp.Integer(0) if sc.convex_only else _need(sc, "curvature")
        model.update(stat="excess", start="dist", size=_need(sc, "init_dist") ** 2, upto=True, lo=lo,
                     hi=_need(sc, "smooth"), step=_need(sc, "step"), noise=sp.Integer(0), extra=extra,
                     horizon=_need(sc, "horizon"), dim=D)
    else:
        raise NotApplicable(f"{kind} has no closed form per eigen-direction here")
    if model["step"].has(index):
        raise NotApplicable("the step changes with the step index: no closed form per direction")
    model["bound"] = stmt.bound
    model["index"] = index
    return model, quadratic, list(ints)


def reduce(stmt, claim, sc) -> Reduction:
    """The statement as ``F >= 0`` over ranges (module docstring), or raise :class:`NotApplicable`."""
    model, quadratic, ints = model_of(stmt, claim, sc)
    idx = model["index"]
    for key in ("size", "lo", "hi", "step", "noise", "horizon", "dim", "bound", "extra"):
        model[key] = in_claim(model[key], claim, ints, index=idx)
    model["index"] = sp.Symbol(str(idx), integer=True)
    model["lams"] = (LAM1, LAM2)
    model["size_symbol"] = SIZE
    names = set(map(str, claim.domain.params)) | set(ints)
    taken = {LAM1, LAM2, SIZE} & {sp.Symbol(n) for n in names}
    if taken:
        raise NotApplicable(f"the claim uses the reduction's own symbol(s) {', '.join(map(str, taken))}")
    for key in ("size", "lo", "hi", "step", "horizon", "dim", "extra"):
        if model[key].has(sp.Sum) or model[key].atoms(sp.Indexed):
            raise NotApplicable(f"the scenario's {key} holds a sum or a sequence entry")
    unknown = {str(s) for s in sp.Add(*[model[k] for k in ("size", "lo", "hi", "step", "horizon", "dim", "bound",
                                                             "extra", "noise")]).free_symbols
               if isinstance(s, sp.Symbol)} - names - {str(model["index"])} - set(seq_bounds(claim))
    if unknown:
        raise NotApplicable(f"symbols without a hypothesis: {', '.join(sorted(unknown))}")
    try:
        F = spectralforms.obligation(model)
    except spectralforms.ModelError as exc:
        raise NotApplicable(str(exc)) from None
    needed = {s for s in F.free_symbols if isinstance(s, sp.Symbol)} | model["lo"].free_symbols | \
        model["hi"].free_symbols | model["size"].free_symbols
    needed -= {LAM1, LAM2, SIZE}
    ranges, left_out = param_ranges(claim, needed, ints)
    lam_ranges = [(LAM1, model["lo"], model["hi"])]
    if F.has(LAM2):
        lam_ranges.append((LAM2, model["lo"], model["hi"]))
    if model["upto"]:
        lam_ranges.append((SIZE, sp.Integer(0), model["size"]))
    return Reduction(model, F, ranges + lam_ranges, seq_bounds(claim), quadratic, getattr(sc, "name", ""), left_out)


def closed_form_value(red: Reduction, values: dict, eigs, theta) -> float:
    """The model's ``E[statistic]`` on one diagonal quadratic (eigenvalues ``eigs``, ``theta_1 - theta* =
    theta``) at the parameter values ``values`` (name -> number), from the closed forms: what the reduction
    takes the algorithm to attain, for comparing with the scenario's own exact moments (a test of the
    reading, not of the algebra, which :func:`.spectralforms.check_identities` checks)."""
    m = red.model
    nums = {k: sp.Integer(v) if isinstance(v, int) else sp.Float(v, 30) for k, v in values.items()
            if not isinstance(v, (list, tuple))}
    total = sp.Integer(0)
    for lam, th in zip(eigs, theta):
        lam_v, th2 = sp.Float(lam, 30), sp.Float(th, 30) ** 2
        a, b = spectralforms.per_direction(m, LAM1)
        energy = {"gap": lam_v * th2 / 2, "dist": th2, "grad": lam_v ** 2 * th2}[m["start"]]
        total += (a * energy + b).xreplace({LAM1: lam_v})
    if m["stat"] == "normalised_excess":
        total = total / m["size"]
    total = total.doit()
    total = total.xreplace({x: nums[str(x)] for x in total.free_symbols if str(x) in nums})
    return float(sp.N(total, 30))
