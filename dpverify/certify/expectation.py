"""Certificates for exact expectations: moment propagation on the witness's quadratic, in ball arithmetic.

An :class:`~dpverify.claims.ExpectationBound` decided by the ``exact`` check is violated when the exact
``E[statistic]`` on a drawn diagonal quadratic exceeds the claimed bound. The ``exact-expectation``
certificate records that quadratic (the spectrum as fractions of ``[lower curvature, M]`` and the start's
direction, both exact rationals) and ``check.py`` rebuilds everything else from the claim's own expressions
at the witness (``M``, the lower curvature, the start's size, the dimension, the horizon, the steps, the
noise, the momentum -- the same rebuilding as the Monte Carlo replay, :data:`runtime_mc.QUADRATIC`). It
then propagates the first and second moments of every coordinate in ball arithmetic (python-flint
``arb``; every coordinate of ``theta - theta*`` is an independent linear recursion with Gaussian noise):

* noisy gradient descent ``d <- (1 - eta_t lam) d - eta_t s_t z``: mean and variance;
* bias-corrected momentum ``v <- beta v + (1 - beta)(lam d + s_t z)``, ``d <- d - eta_t v/(1 - beta^t)``:
  the mean and the 2x2 covariance of ``(d, v)``;
* Polyak's heavy ball ``d_{t+1} = (1 + beta_t - eta_t lam) d_t - beta_t d_{t-1} - eta_t s_t z`` from
  ``d_0 = d_1``: the mean and the 2x2 covariance of ``(d_t, d_{t-1})``;
* random-round SGD: the statistic at every round ``1..T`` averaged with ``P(R = t)`` proportional to
  ``2 eta_t - M eta_t^2``;

and certifies when the ball of the expectation lies strictly above the ball of the claim's bound at the
witness (the bound printed by :mod:`dpverify.arb_source`, as the analytic kind does). Scenarios:
:class:`~dpverify.scenarios.NoisyGD` (no mini-batch, no observable in the bound) and
:class:`~dpverify.scenarios.RandomRoundSGD` (where the instance writes its ``F(w_0) - F*``
into a claim's symbol, ``check.py`` puts the rebuilt problem's exact value there, checked against that
parameter's bounds). Statistics: ``excess``, ``normalised_excess``, ``dist_sq``, ``grad_norm_sq``.
"""
from __future__ import annotations

import inspect

from ..scenarios import bind
from ..sim.moments_mp import momentum_coordinate_step
from .replay import quadratic_functions
from .writer import NoCertificate, Plan, exact_witness

#: the longest horizon a checker propagates step by step
MAX_STEPS = 200_000

EXACT = "\n\n" + inspect.getsource(momentum_coordinate_step) + r'''

def with_gap(P, rep, eigs, th1):
    """The point with the problem's exact F(theta_1) - F* in the claim's symbol that receives it (the
    recorded witness holds its rounded float): checked against that parameter's bounds in ball arithmetic."""
    name = rep.get("gap_symbol")
    if name is None:
        return P
    gap = sum((l * x * x for l, x in zip(eigs, th1)), arb(0)) / 2
    for key, op in (("gt", ">"), ("ge", ">="), ("lt", "<"), ("le", "<=")):
        if key in PARAMS[name][1] and not _cmp(gap, op, ball(Fraction(PARAMS[name][1][key]))):
            raise ValueError(f"the problem's F(theta_1) - F* = {gap} violates {name} {op} {PARAMS[name][1][key]}")
    return {**P, name: gap}


def moments(P, rep):
    """(point, eigenvalues, theta_1 - theta*, per-round (mean, variance) lists) of every coordinate; the rounds
    are t = 2..T+1 (the iterates the steps produce)."""
    T, eigs, th1 = problem(P, rep)
    P = with_gap(P, rep, eigs, th1)
    etas, stds = schedule_balls(P, T)
    rounds = []
    if MOMENTUM is not None and rep.get("update") == "heavy_ball":
        return P, eigs, th1, heavy_ball_rounds(P, eigs, th1, etas, stds)
    if MOMENTUM is None:
        m, s2 = list(th1), [arb(0)] * len(th1)
        for eta, s in zip(etas, stds):
            a = [1 - eta * l for l in eigs]
            m = [x * y for x, y in zip(a, m)]
            s2 = [y * y * x + (eta * s) ** 2 for x, y in zip(s2, a)]
            rounds.append((m, s2))
        return P, eigs, th1, rounds
    b = MOMENTUM(P)
    if not (_cmp(b, ">=", 0) and _cmp(b, "<", 1)):
        raise ValueError(f"the momentum must lie in [0, 1), got {b}")
    n = len(th1)
    mx, mv = list(th1), [arb(0)] * n
    sxx, sxv, svv = [arb(0)] * n, [arb(0)] * n, [arb(0)] * n
    for t, (eta, s) in enumerate(zip(etas, stds), start=1):
        k = eta / (1 - b ** t)
        b2 = (1 - b) * s
        b1 = -k * b2
        for i, li in enumerate(eigs):
            mx[i], mv[i], sxx[i], sxv[i], svv[i] = momentum_coordinate_step(li, k, b, b1, b2, mx[i], mv[i], sxx[i],
                                                                            sxv[i], svv[i])
        rounds.append((list(mx), list(sxx)))
    return P, eigs, th1, rounds


def heavy_ball_rounds(P, eigs, th1, etas, stds):
    """Per-round (mean, variance) of every coordinate under heavy ball: the state (d_t, d_{t-1}) moves by
    [[1 + b - eta lam, -b], [1, 0]] plus the noise (-eta s, 0), from d_0 = d_1 (no push at the first step)."""
    n = len(th1)
    mx, mp = list(th1), list(th1)
    sxx, sxp, spp = [arb(0)] * n, [arb(0)] * n, [arb(0)] * n
    rounds = []
    for t, (eta, s) in enumerate(zip(etas, stds), start=1):
        Q = dict(P)
        Q[INDEX] = t
        b = MOMENTUM(Q)
        if not (_cmp(b, ">=", 0) and _cmp(b, "<", 1)):
            raise ValueError(f"the momentum must lie in [0, 1), got {b} at step {t}")
        for i, li in enumerate(eigs):
            a11 = 1 + b - eta * li
            mx[i], mp[i] = a11 * mx[i] - b * mp[i], mx[i]
            sxx[i], sxp[i], spp[i] = (a11 * a11 * sxx[i] - 2 * a11 * b * sxp[i] + b * b * spp[i] + (eta * s) ** 2,
                                      a11 * sxx[i] - b * sxp[i], sxx[i])
        rounds.append((list(mx), list(sxx)))
    return rounds


def statistic(stat, eigs, th1, m, s2):
    e2 = [x * x + y for x, y in zip(m, s2)]
    if stat == "excess":
        return sum((l * e for l, e in zip(eigs, e2)), arb(0)) / 2
    if stat == "normalised_excess":
        return sum((l * e for l, e in zip(eigs, e2)), arb(0)) / sum((l * x * x for l, x in zip(eigs, th1)), arb(0))
    if stat == "dist_sq":
        return sum(e2, arb(0))
    if stat == "grad_norm_sq":
        return sum((l * l * e for l, e in zip(eigs, e2)), arb(0))
    raise ValueError(f"unknown statistic {stat!r}")


def expectation(P, rep):
    """The exact E[statistic] as a ball (at theta_{T+1}, or averaged over the random round), and the point."""
    P, eigs, th1, rounds = moments(P, rep)
    stat = rep["statistic"]
    if rep["round"] == "last":
        return statistic(stat, eigs, th1, *rounds[-1]), P
    M = SMOOTH(P)
    etas, _ = schedule_balls(P, len(rounds))
    w = [2 * e - M * e * e for e in etas]
    if not all(_cmp(x, ">", 0) for x in w):
        raise ValueError("the random round needs every step below 2/M")
    total = sum(w, arb(0))
    return sum((x / total * statistic(stat, eigs, th1, *r) for x, r in zip(w, rounds)), arb(0)), P


def VERDICT(P, cert):
    rep = cert["expectation"]
    value, P = expectation(P, rep)
    bound = BOUND(P)
    return above(value, bound, f"E[{rep['statistic']}] >= {value.lower().str(12, radius=False)} > bound "
                 f"{bound.upper().str(12, radius=False)} (exact moments: expectation {value}, bound {bound})",
                 f"the expectation {value} is within the bound {bound} at the witness")
'''


def exact_plan(claim, stmt, evidence) -> Plan:
    """The ``exact-expectation`` certificate of an exact check's violation (module docstring)."""
    from ..arb_source import rational_text
    from ..scenarios import NoisyGD, RandomRoundSGD
    from ..sim import updates
    from . import runtime_mc

    sc = bind(stmt.scenario, claim)
    if not isinstance(sc, (NoisyGD, RandomRoundSGD)):
        raise NoCertificate(f"the exact expectation of {type(sc).__name__} ({sc.algorithm}) has no standalone "
                            "checker (only noisy gradient descent, with or without momentum, and random-round "
                            "SGD on diagonal quadratics)")
    inst = (evidence.counterexample or {}).get("instance")
    if not isinstance(inst, dict) or "u" not in inst or "problem" in inst:
        raise NoCertificate("the counterexample is not a diagonal quadratic instance")
    rule = getattr(sc, "update", None)
    update = {updates.Plain: "plain", updates.BiasCorrectedMomentum: "bias_corrected",
              updates.HeavyBall: "heavy_ball", type(None): "plain"}.get(type(rule))
    if update is None:
        raise NoCertificate(f"the update rule {rule.name} has no standalone moment recursion")
    if "batch" in sc.params.exprs:
        raise NoCertificate("mini-batches have no exact standalone checker")
    if getattr(sc, "observe_map", None):
        raise NoCertificate(f"the bound uses an observable of the run ({', '.join(sc.observe_map)}), which the "
                            "standalone checker does not compute")
    pt = sc.point(inst)
    witness = exact_witness(claim.domain, pt)
    T = int(round(float(sc.map.scalar("horizon", pt))))
    if T > MAX_STEPS:
        raise NoCertificate(f"the horizon T = {T} is longer than a standalone checker propagates ({MAX_STEPS})")
    fns, start = quadratic_functions(claim, sc)
    fns.pop("EXCEEDS", None)
    rep = {"scenario": type(sc).__name__, "algorithm": sc.algorithm, "statistic": sc.statistic, "start": start,
           "round": "random" if isinstance(sc, RandomRoundSGD) else "last", "update": update,
           "u": [rational_text(x) for x in inst["u"]], "dir": [rational_text(x) for x in inst["dir"]],
           "gap_symbol": getattr(sc, "gap_symbol", None), "value_dpverify": float(evidence.value) if evidence.value is not None else None}
    head = f"INDEX = {str(sc.params.index)!r}\n" + ("" if "MOMENTUM" in fns else "MOMENTUM = None\n")
    note = ("\nExact expectation: check.py rebuilds the quadratic from the claim's expressions at the witness and "
            "the recorded\nspectrum fractions and start direction, propagates every coordinate's mean and "
            "variance in ball\narithmetic, and compares the expectation with the claim's bound.\n")
    return Plan("exact-expectation", f"{stmt.name}: exact E[{sc.statistic}] on a diagonal quadratic <= bound",
                witness, {**fns, "BOUND": stmt.bound}, head + runtime_mc.QUADRATIC + EXACT, {"expectation": rep},
                note, extra_ints=(str(sc.params.index),))


__all__ = ["EXACT", "MAX_STEPS", "exact_plan"]
