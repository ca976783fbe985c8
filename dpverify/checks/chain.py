"""A claim checked together with the claims it builds on (``Claim.builds_on``): their hypotheses
must meet.

A ``-corrected`` claim whose proof uses another corrected claim holds only where both do. This
check intersects the domains of the claim and of every claim it builds on (transitively):

1. each parameter they share: the intersection of its intervals (``gt``/``ge``/``lt``/``le``); a
   shared parameter whose intervals do not meet empties the chain (exact);
2. where they meet, points of the intersection (the shared parameters in their common interval,
   the others in their own claim's search box) are drawn and tested against every claim's
   hypotheses, relations included. A point where all hold: ``holds``. None, while a shared
   parameter's values at the points each claim admits alone are separated (one claim's largest
   below another's smallest): ``violated``, saying which claim needs what ("A needs c4 <= 0.2499,
   B needs c4 >= 0.5011"), with a point of the claim that no completion satisfies a claim it
   builds on as the counterexample. Neither: ``inconclusive``.

With ``at`` (a point of the claim): ``violated`` when a claim it builds on admits no completion of
the point (its other parameters drawn in their search box), ``holds`` otherwise.
"""
from __future__ import annotations

import math

import numpy as np

from ..numeric import jsonable
from ..claims import Choice, Claim, DomainError, Int, Real, Seq
from ..verdict import Basis, Evidence
from .base import Clock, Config
from .kind import CheckKind

NAME = "chain"


def chain_of(claim: Claim) -> tuple[Claim, ...]:
    """The claims ``claim`` builds on, transitively, each once, in the order first met."""
    out: list[Claim] = []
    todo = list(claim.built_on)
    while todo:
        c = todo.pop(0)
        if c.id != claim.id and all(c.id != o.id for o in out):
            out.append(c)
            todo.extend(c.built_on)
    return tuple(out)


def _interval(p) -> tuple[float, bool, float, bool]:
    """(low, low strict, high, high strict) of a Real or Int parameter."""
    if isinstance(p, Int):
        return (-math.inf if p.ge is None else p.ge, False, math.inf if p.le is None else p.le, False)
    lo, lo_s = -math.inf, False
    for v, strict in ((p.ge, False), (p.gt, True)):
        if v is not None and (v > lo or (v == lo and strict)):
            lo, lo_s = v, strict
    hi, hi_s = math.inf, False
    for v, strict in ((p.le, False), (p.lt, True)):
        if v is not None and (v < hi or (v == hi and strict)):
            hi, hi_s = v, strict
    return lo, lo_s, hi, hi_s


def _side(claim: Claim, name: str, low: bool) -> str:
    lo, lo_s, hi, hi_s = _interval(claim.domain.params[name])
    return f"{name} {'>' if lo_s else '>='} {lo:g}" if low else f"{name} {'<' if hi_s else '<='} {hi:g}"


def _empty_interval(claims: tuple[Claim, ...], shared: list[str]) -> str | None:
    """Why the chain is empty on one shared parameter ("A needs p < a, B needs p >= b"), or None."""
    for name in shared:
        owners = [c for c in claims if isinstance(c.domain.params.get(name), (Real, Int))]
        if len(owners) < 2:
            continue
        lows = max(owners, key=lambda c: (_interval(c.domain.params[name])[0], _interval(c.domain.params[name])[1]))
        highs = min(owners, key=lambda c: (_interval(c.domain.params[name])[2], not _interval(c.domain.params[name])[3]))
        lo, lo_s, _, _ = _interval(lows.domain.params[name])
        _, _, hi, hi_s = _interval(highs.domain.params[name])
        if lo > hi or (lo == hi and (lo_s or hi_s)):
            return f"{highs.id} needs {_side(highs, name, False)}, {lows.id} needs {_side(lows, name, True)}"
    return None


class _Sampler:
    """Points of the union of the claims' parameters: a shared one in the intersection of its
    intervals (made finite by the hull of the claims' search boxes), the others in their box."""

    def __init__(self, claims: tuple[Claim, ...], rng: np.random.Generator, hull: tuple[Claim, ...] = ()):
        self.rng = rng
        self.params: dict[str, object] = {}
        self.boxes: dict[str, tuple[float, float]] = {}
        for c in claims:
            for name, p in c.domain.params.items():   # an integer in one claim is drawn as one
                if name not in self.params or (isinstance(p, Int) and isinstance(self.params[name], Real)):
                    self.params[name] = p
        for name in self.params:
            owners = [c.domain.params[name] for c in claims if name in c.domain.params]
            if not all(isinstance(p, (Real, Int)) for p in owners):
                continue
            boxes = [c.domain.params[name].box() for c in (*claims, *hull)
                     if isinstance(c.domain.params.get(name), (Real, Int))]
            lo = max(_interval(p)[0] for p in owners)
            hi = min(_interval(p)[2] for p in owners)
            lo, hi = max(lo, min(b[0] for b in boxes)), min(hi, max(b[1] for b in boxes))
            if lo <= hi:
                self.boxes[name] = (lo, hi)

    def draw(self, names, fixed=None) -> dict:
        pt = dict(fixed or {})
        for name in names:
            if name in pt:
                continue
            p = self.params[name]
            if isinstance(p, Choice):
                pt[name] = p.values[int(self.rng.integers(len(p.values)))]
            elif isinstance(p, Int):
                lo, hi = self.boxes.get(name, p.box())
                pt[name] = int(self.rng.integers(math.ceil(lo), math.floor(hi) + 1)) if lo <= hi else int(lo)
            elif isinstance(p, Real):
                lo, hi = self.boxes.get(name, p.box())
                log = p.log and lo > 0
                u = self.rng.uniform(math.log(lo), math.log(hi)) if log else self.rng.uniform(lo, hi)
                pt[name] = float(math.exp(u)) if log else float(u)
        for name in names:
            p = self.params[name]
            if isinstance(p, Seq) and name not in (fixed or {}):
                lo, hi = p.elem.box()
                pt[name] = [float(self.rng.uniform(lo, hi)) for _ in range(int(pt[p.length]))]
        return pt


def _admits(claim: Claim, pt: dict) -> bool:
    return claim.domain.contains({k: pt[k] for k in claim.domain.params})


def _completes(other: Claim, point: dict, sampler: _Sampler, tries: int) -> dict | None:
    """A completion of ``point`` (its parameters shared with ``other`` kept) in ``other``'s domain."""
    fixed = {k: v for k, v in point.items() if k in other.domain.params}
    try:
        other.domain.validate_partial(fixed)
    except DomainError:
        return None
    for _ in range(tries if len(fixed) < len(other.domain.params) else 1):
        pt = sampler.draw(other.domain.params, fixed)
        if _admits(other, pt):
            return pt
    return None


def check(claim: Claim, cfg: Config) -> Evidence:
    """The chain of ``claim`` and the claims it builds on: do their hypotheses meet?"""
    clock = Clock()
    others = chain_of(claim)
    claims = (claim, *others)
    basis = Basis(NAME, "the hypotheses of " + ", ".join(c.id for c in claims))
    label = f"chain: {claim.id} builds on {', '.join(o.id for o in others)}"
    shared = [n for n in claim.domain.params if any(n in o.domain.params for o in others)]
    shared += [n for i, o in enumerate(others) for n in o.domain.params
               if n not in shared and any(n in q.domain.params for q in others[i + 1:])]
    rng = np.random.default_rng(cfg.seed_for(claim.id, NAME))
    sampler = _Sampler(claims, rng)
    tries = max(20, cfg.samples)

    def evidence(verdict, detail, samples=0, counterexample=None, point=None):
        return Evidence(NAME, label, verdict, samples=samples, detail=detail, seconds=clock.seconds,
                        counterexample=counterexample, point=point, basis=basis)

    def refuting_point(points) -> tuple[dict, Claim] | None:
        for pt in points:
            own = {k: pt[k] for k in claim.domain.params}
            for o in others:
                if _completes(o, own, sampler, tries) is None:
                    return own, o
        return None

    if cfg.at is not None:
        hit = refuting_point([dict(cfg.at)])
        if hit is not None:
            return evidence("violated", f"no point of {hit[1].id}'s hypotheses extends this point of {claim.id}",
                            1, {"params": jsonable(dict(cfg.at)), "seed": cfg.seed}, jsonable(dict(cfg.at)))
        return evidence("holds", f"the point extends to a point of every claim {claim.id} builds on", 1)

    alone_samplers = {c.id: _Sampler((c,), rng, claims) for c in claims}
    own_points = []
    for _ in range(20 * cfg.samples):
        pt = alone_samplers[claim.id].draw(claim.domain.params)
        if _admits(claim, pt):
            own_points.append(pt)
            if len(own_points) >= 8:
                break
    why = _empty_interval(claims, shared)
    if why is not None:
        hit = refuting_point(own_points)
        return evidence("violated", f"the hypotheses do not meet: {why}", len(own_points),
                        None if hit is None else {"params": jsonable(hit[0]), "seed": cfg.seed})
    names = list(sampler.params)
    n = 20 * cfg.samples
    for k in range(n):
        pt = sampler.draw(names)
        if all(_admits(c, pt) for c in claims):
            return evidence("holds", "a point satisfies the hypotheses of every claim of the chain", k + 1,
                            point=jsonable(pt))
    alone = {c.id: [alone_samplers[c.id].draw(c.domain.params) for _ in range(n)] for c in claims}
    alone = {cid: [p for p in pts if _admits(c, p)] for c, (cid, pts) in zip(claims, alone.items())}
    for name in shared:
        ranges = {c.id: (min(p[name] for p in alone[c.id]), max(p[name] for p in alone[c.id]))
                  for c in claims if name in c.domain.params and alone[c.id]}
        if len(ranges) < 2:
            continue
        low_id = min(ranges, key=lambda i: ranges[i][1])
        high_id = max(ranges, key=lambda i: ranges[i][0])
        if ranges[low_id][1] < ranges[high_id][0]:
            hit = refuting_point(alone[claim.id])
            return evidence("violated", f"the hypotheses do not meet: {low_id} needs {name} <= "
                                        f"{ranges[low_id][1]:.4g}, {high_id} needs {name} >= {ranges[high_id][0]:.4g} "
                                        f"(at the points each admits alone; no point of {n} satisfies all)",
                            n, None if hit is None else {"params": jsonable(hit[0]), "seed": cfg.seed})
    return evidence("inconclusive", f"no point of {n} satisfies every claim's hypotheses, and no shared parameter "
                                    "separates them", n)


KIND = CheckKind(
    name=NAME, applies=lambda claim: bool(claim.builds_on), check=check, basis_kinds=("chain",), can_refute=True,
    stage="claim", no_certificate="hypotheses that do not meet (intervals, drawn points) have no standalone checker",
    summary="the hypotheses of a claim and of the claims it builds on must meet (intervals, then points)")


__all__ = ["NAME", "chain_of", "check"]
