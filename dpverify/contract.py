"""The scenario contract: what every scenario promises the checks, tested on a claim that uses it.

:func:`scenario_contract` runs, on the scenario of each statement of a claim (and its audit), the
promises of :class:`dpverify.scenarios.Scenario`:

* **immutable**: binding returns a new object and leaves the scenario as it was; setting an
  attribute raises;
* **same seed, same result**: instances drawn from the strategy, the Monte Carlo instances,
  a Monte Carlo estimate and a measurement are bit-identical when repeated with the same seed;
* **no noise, no randomness**: with its noise parameters set to 0 (``Scenario.NOISE``), a Monte
  Carlo estimate has variance 0 and does not depend on the seed, and equals the exact expectation
  up to the scenario's rounding tolerance;
* **exact and Monte Carlo agree** where both exist: ``|mean - exact| <= Z_TOL * stderr + rounding``,
  with ``Z_TOL = 5`` (a false failure has probability below 6e-7 per comparison);
* **a point outside the hypotheses is refused**: ``instance_at`` returns ``None``;
* **a moved instance takes its new point's dimension**: ``point(with_point(inst, p))`` has the
  dimension of ``p``.

A user checks a scenario of their own the same way (see :mod:`dpverify.testing`)::

    from dpverify.testing import scenario_contract
    assert scenario_contract(MY_CLAIM) == []
"""
from __future__ import annotations

import json
import math
from dataclasses import dataclass

import numpy as np

from .measured import Measured
from .scenarios.base import MappedScenario, Scenario
from .search import derive_seed, sample_points
from .claims import Claim, Int, Real

#: standard errors allowed between a Monte Carlo mean and the exact expectation
Z_TOL = 5.0


@dataclass(frozen=True)
class Breach:
    """One broken promise: the claim, the statement, the promise, and what was seen."""

    claim: str
    statement: str
    promise: str
    seen: str

    def __str__(self) -> str:
        return f"{self.claim} [{self.statement}] {self.promise}: {self.seen}"


def scenarios_of(claim: Claim) -> list[tuple[str, Scenario]]:
    """``(statement name, scenario)`` for every scenario (and audit) of ``claim``'s statements."""
    out = []
    for s in claim.statements:
        for role in ("scenario", "audit"):
            sc = getattr(s, role, None)
            if isinstance(sc, Scenario):
                out.append((s.name if role == "scenario" else f"{s.name} (audit)", sc))
    return out


def _same(a, b) -> bool:
    return json.dumps(a, sort_keys=True, default=repr) == json.dumps(b, sort_keys=True, default=repr)


def _bits(x) -> tuple:
    if isinstance(x, Measured):   # a measurement with its direction: every number of it
        return (x.kind, x.confidence) + _bits((x.value, x.lower, x.upper))
    return tuple(np.asarray(x, dtype=float).ravel().view(np.uint64).tolist())


def outside_point(claim: Claim, point: dict) -> dict | None:
    """``point`` with one scalar parameter moved outside the claim's hypotheses, or ``None``."""
    for name, p in claim.domain.params.items():
        if not isinstance(p, (Real, Int)):
            continue
        for bad in (-1e300, -1, 0, 1e300):
            q = dict(point)
            q[name] = bad if isinstance(p, Real) else int(bad) if abs(bad) < 1e18 else 10**18 * (1 if bad > 0 else -1)
            if not claim.domain.contains(q):
                return q
    return None


def _dimension_symbols(sc) -> list[str]:
    """The claim symbols mapped bare onto the scenario's dimension parameter."""
    if not isinstance(sc, MappedScenario):
        return []
    e = sc.params.exprs.get("dim")
    return [str(e)] if e is not None and e.is_Symbol else []


def scenario_contract(claim: Claim, *, seed: int = 0, runs: int = 2000, points: int = 2) -> list[Breach]:
    """Run the scenario contract (module docstring) on every scenario of ``claim``; the breaches.

    ``runs``: Monte Carlo runs for the agreement of exact and Monte Carlo; ``points``: instances
    drawn for each promise. Costs a few Monte Carlo estimates and measurements per scenario.
    """
    out: list[Breach] = []
    for stmt_name, raw in scenarios_of(claim):
        def breach(promise, seen, _s=stmt_name):
            out.append(Breach(claim.id, _s, promise, seen))

        try:
            _contract_one(claim, raw, seed, runs, points, breach)
        except Exception as exc:  # noqa: BLE001 - a crash is a broken promise, reported with its cause
            breach("runs without error", f"{type(exc).__name__}: {exc}")
    return out


def _instances(claim, sc, seed, n):
    strat = sc.strategy()
    if strat is None:
        return [sc.instance_at(p) for p in sample_points(claim.domain.strategy(), n, seed)]
    return sample_points(strat, n, seed)


def _contract_one(claim, raw, seed, runs, n, breach):
    # ---------------------------------------------------------------- immutable
    before = dict(raw.__dict__)
    sc = raw.bind(claim)
    if sc is raw and raw.claim is not claim:
        breach("bind returns a new object", "bind returned the unbound scenario itself")
    if set(before) != set(raw.__dict__) or any(before[k] is not raw.__dict__[k] for k in before):
        breach("bind leaves the scenario unchanged", "attributes of the unbound scenario changed")
    try:
        sc.name = "changed"
        breach("immutable", "setting an attribute of a bound scenario did not raise")
    except AttributeError:
        pass

    # ---------------------------------------------------------------- same seed, same result
    s1 = derive_seed(seed, claim.id, "contract")
    insts = _instances(claim, sc, s1, n)
    if not _same(insts, _instances(claim, sc, s1, n)):
        breach("same seed, same instances", "two draws with one seed differ")
    insts = [i for i in insts if i is not None and claim.domain.contains(sc.point(i))]
    if sc.supports_monte_carlo:
        mc = sc.mc_instances(seed)
        if not _same(mc, sc.mc_instances(seed)):
            breach("same seed, same Monte Carlo instances", "two calls with one seed differ")
        for inst in mc[:n]:
            a = sc.monte_carlo(inst, 64, s1, 32)
            b = sc.monte_carlo(inst, 64, s1, 32)
            if _bits(a) != _bits(b):
                breach("same seed, bit-identical Monte Carlo", f"{a} vs {b} on {sc.describe(inst)}")
    measurable = type(sc).measure is not Scenario.measure
    if measurable:
        for inst in insts[:1]:
            a = sc.measure(inst, sc.search_runs, s1)
            b = sc.measure(inst, sc.search_runs, s1)
            if _bits(a) != _bits(b):
                breach("same seed, bit-identical measurement", f"{a} vs {b}")

    # ---------------------------------------------------------------- outside the hypotheses
    base = sample_points(claim.domain.strategy(), 1, s1)
    if base:
        bad = outside_point(claim, base[0])
        if bad is not None and sc.instance_at(bad) is not None:
            breach("a point outside the hypotheses is refused", f"instance_at({bad}) returned an instance")

    # ---------------------------------------------------------------- moved instance
    dims = _dimension_symbols(sc)
    if dims and insts:
        others = sample_points(claim.domain.strategy(), 4, derive_seed(s1, "moved"))
        for p in others:
            moved = sc.with_point(insts[0], p)
            if moved is None:
                continue
            got = sc.point(moved)
            for d in dims:
                want = int(round(float(p[d])))
                has = sc.dimension(moved)
                if int(round(float(got[d]))) != want or (has is not None and has != want):
                    breach("a moved instance takes its new dimension",
                           f"{d}: point says {got[d]}, problem has {has}, after moving to {d} = {p[d]}")

    # ---------------------------------------------------------------- no noise; exact vs Monte Carlo
    if sc.supports_monte_carlo:
        quiet = raw.noise_free() if isinstance(raw, MappedScenario) else None
        if quiet is not None:
            q = quiet.bind(claim)
            for inst in q.mc_instances(seed)[:n]:
                a = q.monte_carlo(inst, 8, s1, 8)
                b = q.monte_carlo(inst, 8, s1 + 1, 8)
                if a[1] != 0 or _bits(a[0]) != _bits(b[0]):
                    breach("no noise gives the deterministic algorithm",
                           f"mean {a[0]!r} (var {a[1]!r}) at one seed, {b[0]!r} at another, on {q.describe(inst)}")
                elif q.supports_exact and q.exact_available(inst):
                    ex = float(q.exact(inst))
                    tol = q.rounding_tolerance(inst, a[0]) + 1e-12 * max(abs(ex), abs(a[0]))
                    if abs(a[0] - ex) > tol:
                        breach("no noise: Monte Carlo equals the exact value", f"{a[0]!r} vs exact {ex!r}")
        if sc.supports_exact:
            for inst in sc.mc_instances(seed)[:n]:
                if not sc.exact_available(inst):
                    continue
                mean, var = sc.monte_carlo(inst, runs, s1, runs)
                ex = float(sc.exact(inst))
                se = math.sqrt(max(var, 0.0) / runs)
                tol = Z_TOL * se + sc.rounding_tolerance(inst, mean) + 1e-9 * max(abs(ex), abs(mean))
                if not abs(mean - ex) <= tol:
                    breach("exact and Monte Carlo agree",
                           f"mean {mean:.6g} (stderr {se:.3g}, {runs} runs) vs exact {ex:.6g} on {sc.describe(inst)}")


__all__ = ["Breach", "Z_TOL", "outside_point", "scenario_contract", "scenarios_of"]
