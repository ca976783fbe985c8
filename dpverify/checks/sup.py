"""Supremum checks: sensitivity, stability (coupled runs) and privacy (accounting).

The scenario draws instances (neighbouring datasets, schedules, mechanisms) and measures the
quantity the claim bounds: a sensitivity, a stability gap from coupled runs on neighbouring
datasets with shared noise, or the zCDP / (eps, delta) of a mechanism. A Hypothesis search (then a
local optimiser where the scenario exposes real coordinates) looks for the instance with the
largest measured value relative to the bound.

Every measurement carries its direction (:class:`~dpverify.measured.Measured`): a scenario's
``measure`` returns a ``Measured`` (exact with its error, a lower bound such as an audit's or an
optimistic accountant's, an upper bound such as an RDP or pessimistic PLD accountant's, or an
estimate with its confidence interval), or the legacy ``(value, variance)`` pair, read as exact
when the variance is 0 and as a Monte Carlo mean with a normal confidence interval otherwise. The
worst instance is measured again with the check's ``runs`` and decided by
:meth:`Measured.decide`: ``violated`` only from a valid lower bound above the bound, ``holds``
only from a valid upper bound at or below it (both up to ``REL_TOL`` of the bound, the tolerance
of an equality met exactly), else ``inconclusive``. When that cannot decide, the scenario may
sharpen the measurement (:meth:`~dpverify.scenarios.Scenario.refine`).

A Monte Carlo violation is re-tested with fresh seeds and ``RETEST_FACTOR`` times the runs before
it is reported; both tests must refute. When the confirmation at the search's (shrunk, simplest)
counterexample does not refute, the worst instance the search met (largest measured/bound ratio)
is confirmed instead: shrinking never throws a counterexample away. The evidence reports the worst
instance beside the simplest one (``data["worst"]``, replayable with ``--at`` and the seed). When
neither is confirmed (the search's measurement was cruder than the confirmation's), a second search
with a fresh seed measures as the confirmation does, on a quarter of the samples (not for Monte
Carlo estimates, whose re-test already guards the error).
"""
from __future__ import annotations

import math

from ..measured import Measured
from ..numeric import Compiled, jsonable
from ..scenarios import bind
from ..search import EvaluationError, Margin, search
from ..claims import SupBound
from ..stats import mean_bounds
from ..verdict import Basis, Evidence
from . import pepproof
from .base import (ADVERSARY_MOVE_TOL, VACUOUS_NOTE, Clock, Config, Triviality, adversarial_search, inside_points,
                   recording, scenario_on, vacuous_statistic)
from .exists import existential
from .kind import CheckKind

REL_TOL = 1e-9
#: a Monte Carlo violation is re-tested with this many times the check's runs (fresh seeds)
RETEST_FACTOR = 4
#: a second search, when the first one's failures are not confirmed, draws 1/RESEARCH_FRACTION of the samples
RESEARCH_FRACTION = 4


def applies(stmt) -> bool:
    return isinstance(stmt, SupBound)


def as_measured(result, runs: int, confidence: float) -> Measured:
    """A scenario's measurement as a :class:`Measured`: itself, or a legacy ``(value, variance)``
    pair (exact when the variance is 0, else a mean of ``runs`` runs with a one-sided normal
    interval at ``confidence`` on each side)."""
    if isinstance(result, Measured):
        return result
    value, var = result
    value = float(value)
    if var and var > 0:
        mb = mean_bounds(value, float(var), int(runs), 1 - confidence)
        return Measured.estimate(value, mb.lower, mb.upper, confidence)
    return Measured.exact(value)


def _decide(meas: Measured, b: float) -> str:
    """``meas.decide`` against ``b`` widened by ``REL_TOL`` of its scale (an equality met exactly holds)."""
    return meas.decide(b + REL_TOL * abs(b))


def _finite(x):
    """``x`` with infinities as ``None`` (strict JSON)."""
    return None if isinstance(x, float) and not math.isfinite(x) else x


def _describe(meas: Measured) -> str:
    if meas.kind == "estimate":
        lo, hi = meas.lower, meas.upper
        conf = f" at {meas.confidence:g}" if meas.confidence else ""
        return f"{meas.value:.6g} [{lo:.6g}, {hi:.6g}]{conf} (estimate)"
    if meas.kind == "upper" and math.isfinite(meas.lower):
        return f"<= {meas.upper:.6g} (upper bound), >= {meas.lower:.6g} (lower bound)"
    if meas.kind == "lower" and math.isfinite(meas.upper):
        return f">= {meas.lower:.6g} (lower bound), <= {meas.upper:.6g} (upper bound)"
    return meas.describe()


def _samples(sc, cfg: Config) -> int:
    """The points a search draws: the check's ``samples``, capped by the scenario's ``search_samples``."""
    return cfg.samples if sc.search_samples is None else max(1, min(cfg.samples, int(sc.search_samples)))


def _search_confirming(sc, claim, stmt, cfg: Config, bound_at):
    """The first instance of a second search (``RESEARCH_FRACTION`` of the samples, no shrinking, fresh
    seed) that fails with the confirmation's measurement (``cfg.runs``), or ``None``."""
    runs = cfg.runs
    mseed = cfg.seed_for(claim.id, stmt.name, "confirm")

    def margin(inst):
        b = bound_at(inst)
        meas = as_measured(sc.measure(inst, runs, mseed), runs, cfg.confidence)
        scale = max(abs(b), abs(meas.value), 1e-300)
        return Margin((b - meas.value) / scale + REL_TOL, meas.value, b)

    strategy = sc.strategy()
    if strategy is None:
        strategy = claim.domain.strategy()
    res = search(strategy, margin, max(10, _samples(sc, cfg) // RESEARCH_FRACTION),
                 cfg.seed_for(claim.id, stmt.name, "second search"), optimise=0, shrink=False)
    return res.counterexample


def _basis(stmt: SupBound, sc, meas: Measured | None = None, inst=None) -> Basis:
    """A privacy statement's basis is the direction of its confirmed measurement (privacy-exact,
    -upper, -lower, -estimate); a scenario that declares its ``basis_kind`` (the worst case over a
    whole class) gives that kind; any other supremum, or one never measured, is a worst case over the
    scenario's instances."""
    on = scenario_on(sc, inst)
    if stmt.kind == "privacy" and meas is not None:
        return Basis(f"privacy-{meas.kind}", on)
    if sc.basis_kind is not None:
        return Basis(sc.basis_kind, f"{on} ({stmt.kind})" if on else stmt.kind)
    return Basis("worst-case", f"{on} ({stmt.kind})" if on else stmt.kind)


def check(stmt: SupBound, claim, cfg: Config) -> Evidence:
    clock = Clock()
    sc = bind(stmt.scenario, claim)
    bound = Compiled(stmt.bound, claim)
    search_runs = max(2, min(cfg.runs, sc.search_runs))
    worst_inst, worst_mg = None, None   # the largest measured/bound ratio the search met (search.py tracks it)
    seen: list = []                     # every (value, bound) measured: a statistic identically 0 is no evidence
    triv, unmeasured = Triviality(stmt, claim), _basis(stmt, sc)

    def bound_at(inst) -> float:
        pt = sc.point(inst)
        if not claim.domain.contains(pt):
            raise EvaluationError("instance maps outside the claim's domain")
        return float(bound(pt, cfg.dps))

    def margin(inst):
        b = bound_at(inst)
        meas = as_measured(sc.measure(inst, search_runs, cfg.seed_for(claim.id, stmt.name, "search")), search_runs,
                           cfg.confidence)
        value = meas.value
        scale = max(abs(b), abs(value), 1e-300)
        return Margin((b - value) / scale + REL_TOL, value, b)

    ex = existential(claim, stmt)
    if ex is not None:
        one_margin = margin
        pool = ex.pool(sc, cfg.seed_for(claim.id, stmt.name, "exists-pool"))

        def group_margin(group):   # a value serves its group when it serves the worst instance of it
            return min((one_margin(i) for i in group), key=lambda mg: mg.m)

        def margin(inst):   # the best value of the existential parameter at this instance
            results = []
            for group in ex.groups(sc, inst, pool):
                try:
                    results.append(group_margin(group))
                except EvaluationError:
                    continue
            if not results:
                raise EvaluationError(f"no value of {ex.name} could be measured here")
            return max(results, key=lambda mg: mg.m)

    if cfg.at is not None:
        at = cfg.at if ex is None else ex.complete(cfg.at)
        cov = triv.coverage([at])
        inst = sc.instance_at(at)
        if inst is None:
            return Evidence(stmt.kind, stmt.name, "inconclusive", seconds=clock.seconds, basis=unmeasured, coverage=cov,
                            detail="the scenario cannot build an instance at the pinned point")
        cand, samples, found_by = inst, 1, "pinned point"
    else:
        seed = cfg.seed_for(claim.id, stmt.name, stmt.kind)
        strategy, domain = sc.strategy(), sc.search_domain
        if strategy is None:  # the instance is the claim's point
            strategy, domain = claim.domain.strategy(), claim.domain
        res = search(strategy, recording(margin, seen), _samples(sc, cfg), seed, domain=domain,
                     optimise=sc.optimise)
        samples = res.samples
        cov = triv.coverage(inside_points(sc, claim, res.drawn))
        if res.samples == 0:
            return Evidence(stmt.kind, stmt.name, "inconclusive", seconds=clock.seconds, basis=unmeasured, coverage=cov,
                            detail=f"no instance could be measured ({res.errors} errors)")
        cand = res.counterexample if res.counterexample is not None else res.best_point
        if cand is None:
            return Evidence(stmt.kind, stmt.name, "inconclusive", samples=res.samples, seconds=clock.seconds,
                            basis=unmeasured, coverage=cov,
                            detail=f"no instance could be measured ({res.errors} errors)")
        found_by = res.found_by or "closest instance"
        worst_inst, worst_mg = ((res.worst_point, res.worst) if res.worst_point is not None
                                else (res.best_point, res.best))

    def confirm(inst):
        """(verdict, measurement, bound, notes) of ``inst`` measured with the check's runs."""
        b = bound_at(inst)
        meas = as_measured(sc.measure(inst, cfg.runs, cfg.seed_for(claim.id, stmt.name, "confirm")), cfg.runs,
                           cfg.confidence)
        notes = []
        verdict = _decide(meas, b)
        if verdict == "inconclusive":
            sharper = sc.refine(inst, b)
            if sharper is not None:
                notes.append(f"first measured {_describe(meas)}, refined")
                meas = sharper
                verdict = _decide(meas, b)
        if verdict == "violated" and meas.kind == "estimate":
            runs2 = cfg.runs * RETEST_FACTOR
            again = as_measured(sc.measure(inst, runs2, cfg.seed_for(claim.id, stmt.name, "retest")), runs2,
                                cfg.confidence)
            second = _decide(again, b)
            notes.append(f"re-tested with {runs2} runs at a fresh seed: {_describe(again)}, {second}")
            if second != "violated":
                verdict = "inconclusive"
                notes.append("the two Monte Carlo tests disagree")
        return verdict, meas, b, notes, inst

    if ex is not None:
        confirm_one = confirm

        def confirm(inst):
            """The values tried at ``inst``, closest to holding first: the first that holds decides;
            ``violated`` only when every value of an exhaustive list is refuted, else inconclusive."""
            groups = list(ex.groups(sc, inst, pool))
            if not groups:
                raise EvaluationError(f"no value of {ex.name} satisfies the hypotheses at this instance")
            ranked = []
            for g in groups:
                try:
                    ranked.append((group_margin(g).m, g))
                except EvaluationError:
                    ranked.append((-math.inf, g))
            ranked.sort(key=lambda r: -r[0])
            tried = []
            for _, g in ranked if ex.exhaustive else ranked[:3]:
                outs = [confirm_one(i) for i in g]
                bad = [o for o in outs if o[0] != "holds"]
                if not bad:   # the value holds on every problem of its group: report the tightest
                    out = min(outs, key=lambda o: (o[2] - o[1].upper) / max(abs(o[2]), 1e-300))
                    return out[:3] + (out[3] + [f"{ex.name} = {sc.point(out[4])[ex.name]:.6g} serves all "
                                                f"{len(g)} problems of its group"], out[4])
                tried.append(next((o for o in bad if o[0] == "violated"), bad[0]))
            verdict = "violated" if ex.exhaustive and all(t[0] == "violated" for t in tried) else "inconclusive"
            v, meas, b, notes, c = max(tried, key=lambda t: (t[2] - t[1].value) / max(abs(t[2]), 1e-300))
            notes = notes + [f"{ex.describe()}; no value held "
                             + ("(every one refuted)" if verdict == "violated" else
                                f"among the {len(tried)} closest: {ex.unresolved()}")]
            return verdict, meas, b, notes, c

    verdict, meas, b, notes, inst = confirm(cand)
    searched_failure = cfg.at is None and worst_mg is not None and worst_mg.m < 0
    if verdict != "violated" and searched_failure and jsonable(worst_inst) != jsonable(cand):
        w_verdict, w_meas, w_b, w_notes, w_inst = confirm(worst_inst)
        if w_verdict == "violated":
            notes = [f"the confirmation at the {found_by} instance gave {_describe(meas)} vs bound {b:.6g} "
                     f"({verdict}); the worst instance found was confirmed instead"] + w_notes
            verdict, meas, b, inst = w_verdict, w_meas, w_b, w_inst
            found_by = "worst instance found (largest measured/bound ratio)"
    if verdict != "violated" and searched_failure and meas.kind != "estimate" and (ex is None or ex.exhaustive):
        # the search's failure was not confirmed anywhere: search again, measuring as the confirmation does
        again = _search_confirming(sc, claim, stmt, cfg, bound_at)
        if again is not None:
            a_verdict, a_meas, a_b, a_notes, a_inst = confirm(again)
            if a_verdict == "violated":
                notes = [f"the search's failures were not confirmed ({_describe(meas)} vs bound {b:.6g}); a second "
                         "search measuring as the confirmation does found this instance"] + a_notes
                verdict, meas, b, inst = a_verdict, a_meas, a_b, a_inst
                found_by = "second search, confirming measurements"
    adversary = None
    if cfg.at is None and verdict != "violated" and sc.adversary_budget and cfg.adversary > 0:
        starts = [i for k, i in enumerate((worst_inst, cand))
                  if i is not None and (k == 0 or jsonable(i) != jsonable(worst_inst))]
        adversary = _adversary(sc, claim, stmt, cfg, margin, search_runs, starts)
        chosen = adversary["instance"] if adversary is not None else None
        if adversary is not None and chosen is None:
            adversary["text"] += "; no move improved on it"
        if chosen is not None:
            c_verdict, c_meas, c_b, c_notes, c_inst = confirm(chosen)
            adversary["confirmed"] = c_verdict
            if c_verdict == "violated" or _rel_margin(c_meas, c_b) < _rel_margin(meas, b) - ADVERSARY_MOVE_TOL:
                notes = [f"the confirmation at the {found_by} gave {_describe(meas)} vs bound {b:.6g} ({verdict}); the "
                         "adversarial search's instance, confirmed at a fresh seed, is worse"] + c_notes
                verdict, meas, b, inst = c_verdict, c_meas, c_b, c_inst
                found_by = "adversarial search from the worst instance found"
                adversary["replaced"] = True
            else:
                adversary["replaced"] = False
                adversary["text"] += "; at a fresh seed it was no worse than the search's"
    proof = None
    if pepproof.applies(sc) and ex is None:      # a worst case over a class: certificates (checks/pepproof.py)
        proof = pepproof.upgrade(sc, claim, stmt, verdict, jsonable(sc.point(inst)))
        if proof is not None:
            verdict = proof.verdict
            notes.append(proof.detail)
    if stmt.tight and verdict == "holds":
        verdict = "inconclusive"
        notes.append("attained (tight=True) is not shown: a measurement bounds the worst case, it does not prove it "
                     "equals the bound" + ("" if pepproof.applies(sc) else " (only worst_case proves attainment)"))
    if cfg.at is None and verdict != "violated" and stmt.kind != "privacy" and vacuous_statistic(seen):
        # (a privacy loss of 0 is a finding about the mechanism, not a problem solved in one step)
        cov = 0.0
        notes.append(VACUOUS_NOTE)
    value, upper = meas.value, meas.upper
    conf = meas.confidence if meas.kind == "estimate" else None
    scale = max(abs(b), 1e-300)
    m = (b - (upper if math.isfinite(upper) else value)) / scale
    ce = None
    if verdict == "violated":
        ce = {"params": jsonable(sc.point(inst)), "seed": cfg.seed, "instance": jsonable(inst)}
        if proof is not None and proof.point:          # refuted at a horizon the search did not draw
            ce["params"] = {**ce["params"], **proof.point}
    what = {"sensitivity": "sensitivity", "stability": "stability gap",
            "privacy": "privacy loss"}.get(stmt.kind, stmt.kind)
    detail = (f"worst {what} found ({found_by}): measured {_describe(meas)}"
              + f" vs bound {b:.6g} on {sc.describe(inst)}"
              + "".join(f"; {n}" for n in notes))
    data = {"measured": value, "bound": b, "ratio": value / b if b else None,
            "measurement": {k: _finite(v) for k, v in meas.to_json().items()}}
    if worst_inst is not None and worst_mg is not None and cfg.at is None:
        data["worst"] = {"params": jsonable(sc.point(worst_inst)), "seed": cfg.seed, "instance": jsonable(worst_inst),
                         "measured": worst_mg.value, "bound": worst_mg.bound,
                         "ratio": worst_mg.value / worst_mg.bound if worst_mg.bound else None}
        data["simplest"] = jsonable(sc.point(cand))
    basis = _basis(stmt, sc, meas, inst)
    if proof is not None:
        data.update(proof.data)
        basis = proof.basis or basis
    if adversary is not None:
        detail += f"; {adversary['text']}"
        data["adversary"] = {k: v for k, v in adversary.items() if k not in ("instance", "text")}
        basis = Basis(basis.kind, f"{basis.on}; {ADVERSARY_ON}" if basis.on else ADVERSARY_ON)
    return Evidence(stmt.kind, stmt.name, verdict, samples=samples, confidence=conf, min_margin=m,
                    value=value, bound=b, point=jsonable(sc.point(inst)), counterexample=ce,
                    seconds=clock.seconds, detail=detail, data=data, basis=basis, coverage=cov)


#: what the evidence's basis adds when an adversarial search ran from the search's worst instance
ADVERSARY_ON = "plus an adversarial search over the data and the replaced sample (its instance confirmed afresh)"


def _rel_margin(meas: Measured, b: float) -> float:
    """``(b - upper) / |b|`` (the value where the upper end is unknown): below 0 the bound is not shown."""
    upper = meas.upper if math.isfinite(meas.upper) else meas.value
    return (b - upper) / max(abs(b), 1e-300)


def _adversary(sc, claim, stmt, cfg: Config, margin, runs: int, starts: list) -> dict | None:
    """The adversarial search (:func:`.base.adversarial_search`) from the search's worst instance and
    its simplest one, each candidate scored by ``margin`` (measured as the search measures: its runs,
    its seed, so common random numbers); the instance it reaches is then confirmed by the caller at the
    confirmation's seed (the search's own numbers decide nothing)."""
    return adversarial_search(sc, claim, stmt, cfg, starts, lambda inst: margin(inst).m, runs=runs,
                              over="the data and the replaced sample", at="the search's worst instance")


KIND = CheckKind(
    name="sup", label=lambda stmt: stmt.kind, applies=applies, check=check,
    basis_kinds=("privacy-exact", "privacy-upper", "worst-over-class", "worst-case", "privacy-estimate",
                 "privacy-lower", "proof", "proof-horizons"),
    can_refute=True, certificate="supremum",
    summary="a measured quantity (privacy loss, sensitivity, stability, a worst case over a function class) "
            "searched for its worst instance, then confirmed in its own direction; a worst case over a class is "
            "then proved or refuted by exact certificates (checks/pepproof.py)")
