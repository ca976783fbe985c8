"""Certificates for Monte Carlo violations: a replay at ten times the runs, at a fresh seed.

A Monte Carlo statement (:class:`~dpverify.claims.ExpectationBound` decided by simulation) is violated
when a mean's confidence bound lies above the claimed bound. Its certificate replays one violating
point with ``REPLAY_FACTOR`` times the runs of the check, at the seed
``derive_seed(claim id, statement, "certificate")`` (recorded), and holds when the one-sided p-value of
"mean <= bound" is below ``THRESHOLD``. Two kinds:

* ``monte-carlo-replay`` (standalone): noisy gradient descent with a step/noise schedule (not depending
  on the gradient) on a diagonal quadratic -- ``check.py`` rebuilds the problem from the claim's
  parameter map at the witness (the spectrum's fractions and the start's direction are recorded, the
  eigenvalues, the start's size, the steps, the noise and the bound are the claim's expressions in ball
  arithmetic), simulates every run with the standard library's ``random`` and computes the p-value;
* ``monte-carlo-recorded``: every other simulated algorithm or problem (a data problem, momentum,
  mini-batches, a gradient-dependent rule): dpverify replays it and records runs, seed, mean and
  variance (and the count for an indicator); ``check.py`` re-derives only the p-value from them and the
  JSON says that the simulation itself is not re-run.

p-values: an indicator statistic (a probability) takes the exact binomial tail ``P(Bin(n, b) >= k)``
(regularised incomplete beta in ball arithmetic); any other statistic the normal approximation with
a Berry-Esseen correction, the smaller of the uniform one (constant 0.4748, Shevtsova 2011) and the
non-uniform one (constant 31.935, Paditz 1989) at the observed z, with the sample's standard deviation
and third absolute central moment plugged in (standalone kind); the recorded kind, which has no third
moment, takes Cantelli's inequality with the recorded variance.
"""
from __future__ import annotations

import mpmath
import sympy as sp

from ..numeric import Compiled, jsonable
from ..scenarios import bind
from ..search import derive_seed
from ..arb_source import rational_text
from .writer import NoCertificate, Plan, exact_witness

REPLAY_FACTOR = 10
THRESHOLD = "1/1000000"
SEED_LABEL = "certificate"
CHUNK_RUNS = 65536


def replay_seed(claim_id: str, statement: str) -> int:
    """The certificate's fresh seed: ``derive_seed(claim id, statement, "certificate")``."""
    return derive_seed(claim_id, statement, SEED_LABEL)


def _standalone_reason(sc, inst) -> str | None:
    """Why this instance cannot be replayed by a standalone checker (None when it can)."""
    from ..scenarios import AdaptiveGD, NoisyGD

    if not isinstance(sc, (NoisyGD, AdaptiveGD)):
        return f"the algorithm of {type(sc).__name__} has no standalone replay"
    if "problem" in inst or "u" not in inst:
        return "the point is a data problem, which a standalone checker cannot rebuild"
    exprs = sc.params.exprs
    if any(k in exprs for k in ("momentum", "batch")):
        return "momentum and mini-batches have no standalone replay"
    if isinstance(sc, AdaptiveGD) and any(sc.grad in sp.sympify(exprs[k]).free_symbols for k in ("step", "noise_std")):
        return "a rule depending on the gradient norm has no standalone replay"
    return None


def quadratic_functions(claim, sc) -> tuple[dict, str]:
    """The expressions a standalone checker rebuilds a diagonal quadratic and its schedule from (``SMOOTH``,
    ``LOWER``, ``START``, ``DIM``, ``HORIZON``, ``STEP``, ``NOISE``, and ``MOMENTUM`` / ``EXCEEDS`` where the
    scenario maps them), and the start's kind (``init_dist``, ``init_gap``, ...)."""
    from ..scenarios import AdaptiveGD, RandomRoundSGD

    ex = sc.params.exprs
    if isinstance(sc, RandomRoundSGD):
        convex, start = True, sc.geometry
    else:
        convex = sc.problem in (("smooth", "convex") if isinstance(sc, AdaptiveGD) else ("convex",))
        start = sc.start if isinstance(sc, AdaptiveGD) else next((k for k in ("init_dist", "init_gap") if k in ex),
                                                                "init_gap")
    fns = {"SMOOTH": ex["smooth"], "LOWER": sp.Integer(0) if convex else ex["curvature"],
           "START": ex.get(start, sp.Integer(1)), "DIM": ex["dim"], "HORIZON": ex["horizon"],
           "STEP": ex["step"], "NOISE": ex["noise_std"]}
    if "momentum" in ex:
        fns["MOMENTUM"] = ex["momentum"]
    if getattr(sc, "exceeds", None) is not None:
        fns["EXCEEDS"] = sp.sympify(sc.exceeds)
    return {k: sp.sympify(v) for k, v in fns.items()}, start


def _candidates(claim, stmt, evidence):
    """(instance, point) of every violating point of the evidence, the counterexample's first."""
    ce = evidence.counterexample or {}
    sc = bind(stmt.scenario, claim)
    drawn = [i for i in sc.mc_instances(ce.get("seed", 0)) if claim.domain.contains(sc.point(i))]
    rows = (evidence.data or {}).get("points", [])
    if len(rows) != len(drawn):     # a pinned point (--at): the counterexample's instance only
        inst = ce.get("instance")
        return sc, ([inst] if isinstance(inst, dict) else [])
    bad = [i for i, r in zip(drawn, rows) if r.get("verdict") == "violated" or
           (r.get("lower", 0) > r.get("bound", 0) and r.get("how") != "deterministic")]
    first = [i for i in bad if jsonable(i) == ce.get("instance")]
    return sc, first + [i for i in bad if jsonable(i) != ce.get("instance")]


def _common(claim, stmt, evidence, sc, inst, kind) -> tuple[dict, dict]:
    if sc.deterministic(inst):
        raise NoCertificate("the run is deterministic (no noise): not a Monte Carlo statement")
    pt = sc.point(inst)
    rows = (evidence.data or {}).get("points", [{}])
    first_runs = int(max(r.get("runs", 0) for r in rows) or evidence.samples or 20000)
    bound = Compiled(stmt.bound, claim)(pt, 30)
    rep = {"statement": stmt.name, "kind": kind, "runs": REPLAY_FACTOR * first_runs, "check_runs": first_runs,
           "seed": replay_seed(claim.id, stmt.name), "seed_from": f"derive_seed({claim.id!r}, {stmt.name!r}, "
           f"{SEED_LABEL!r}) (SHA-256 of the names joined by '|')", "threshold": THRESHOLD,
           "bound": rational_text(float(mpmath.re(bound))), "indicator": bool(sc.indicator),
           "p_value": ("exact binomial tail P(Bin(n, bound) >= k) (the statistic is 0 or 1)" if sc.indicator else
                       "normal approximation + Berry-Esseen: min(uniform 0.4748 rho/(sd^3 sqrt n), non-uniform "
                       "31.935 rho/(sd^3 sqrt n (1 + z)^3)), sd and rho the sample's (plug-in)" if
                       kind == "monte-carlo-replay" else
                       "Cantelli's inequality var/(var + n (mean - bound)^2), var the recorded sample variance")}
    return exact_witness(claim.domain, pt), rep


def standalone_plan(claim, stmt, evidence, sc, inst) -> Plan:
    from . import runtime_mc

    witness, rep = _common(claim, stmt, evidence, sc, inst, "monte-carlo-replay")
    fns, start = quadratic_functions(claim, sc)
    rep.update(family=type(sc).__name__, statistic=sc.statistic, average=getattr(sc, "average", "after"),
               start=start, u=[rational_text(x) for x in inst["u"]], dir=[rational_text(x) for x in inst["dir"]],
               simulated="yes: check.py rebuilds the quadratic from the claim at the witness and draws every run "
                         "with Python's random.Random(seed).gauss (a statistic of the last iterate: theta_{T+1} drawn "
                         "from its exact Gaussian law per coordinate, run by run; a statistic of the path: every "
                         "step, in run, step, coordinate order)")
    note = ("\nMonte Carlo replay: check.py rebuilds the problem from the claim's expressions at the witness, simulates "
            "the\nalgorithm with Python's random at the recorded seed, and computes the p-value of 'mean <= bound' "
            "(see\ncertificate.json: replay.p_value). The refutation is statistical: it holds at that p-value.\n")
    index = str(sc.params.index)
    head = f"THRESHOLD = {THRESHOLD!r}\nINDEX = {index!r}\n" + ("" if "EXCEEDS" in fns else "EXCEEDS = None\n")
    return Plan("monte-carlo-replay", f"{stmt.name}: replay of {type(sc).__name__} on a quadratic",
                witness, {**fns, "BOUND": stmt.bound}, head + runtime_mc.REPLAY, {"replay": rep}, note,
                extra_ints=(index,))


def recorded_plan(claim, stmt, evidence, sc, inst) -> Plan:
    from . import runtime_mc

    witness, rep = _common(claim, stmt, evidence, sc, inst, "monte-carlo-recorded")
    mean, var = sc.monte_carlo(inst, rep["runs"], rep["seed"], CHUNK_RUNS)
    rep.update(mean=rational_text(float(mean)), variance=rational_text(float(var)), instance=sc.describe(inst),
               simulated="no: dpverify ran the replay (numpy/numba simulator) and recorded its mean and variance; "
                         "check.py re-derives only the p-value from them, the simulation itself is not re-run")
    if sc.indicator:
        rep["count"] = int(round(float(mean) * rep["runs"]))
    note = ("\nMonte Carlo replay recorded by dpverify: check.py re-derives the p-value of 'mean <= bound' from the "
            "recorded\nruns, mean and variance (the simulation itself is not re-run here).\n")
    return Plan("monte-carlo-recorded", f"{stmt.name}: recorded replay of {sc.algorithm}", witness,
                {"BOUND": stmt.bound}, f"THRESHOLD = {THRESHOLD!r}\n" + runtime_mc.RECORDED, {"replay": rep}, note)


def monte_carlo_plans(claim, stmt, evidence) -> list:
    """The certificates to try for a violated Monte Carlo evidence, standalone replays first: a list of
    functions, each building one :class:`Plan` when called."""
    sc, insts = _candidates(claim, stmt, evidence)
    if not insts:
        raise NoCertificate("the Monte Carlo evidence names no violating instance to replay")
    standalone = [i for i in insts if _standalone_reason(sc, i) is None]
    others = [i for i in insts if _standalone_reason(sc, i) is not None]
    # built when tried: a recorded replay runs the simulation
    return ([lambda i=i: standalone_plan(claim, stmt, evidence, sc, i) for i in standalone[:2]]
            + [lambda i=i: recorded_plan(claim, stmt, evidence, sc, i) for i in others[:1]])


__all__ = ["REPLAY_FACTOR", "THRESHOLD", "monte_carlo_plans", "replay_seed"]
