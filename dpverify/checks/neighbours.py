"""Neighbouring-data check: a privacy statement's inputs recomputed on neighbouring data sets.

Applies to a privacy ``SupBound`` that declares its inputs (``inputs=ReleaseInputs(...)``,
:mod:`dpverify.privacy.neighbours`). In order:

1. **Undeclared inputs.** Every parameter of the claim that the statement's scenario, its bound or the declaration
   reads must be declared public or derived; otherwise ``inconclusive``, naming the undeclared ones (nothing is
   assumed public).
2. **Nothing derived.** Every input public: the release is the same function on every data set, so nothing changes
   between neighbours that the statement's accounting does not already see: ``holds`` (saying so; the rest of the
   statement is the other checks' business).
3. **Neighbours.** At points of the claim's domain (the pinned point under ``--at``) data sets are drawn from the
   declared examples, the derived inputs computed on each and on its neighbours under the declared adjacency
   (replace one, and the replacement that moves the release most; or remove one), and the two releases compared:

   * a different **number of released vectors**: the outputs have different supports (the event "as many vectors as
     on D" has probability 1 on D and 0 on D'), so delta is 1 at every eps: ``violated`` wherever the promised delta
     is below 1, with the two data sets and the two counts as witness;
   * a different **noise level**: the exact privacy profile of the first released coordinate on the two data sets
     (Gaussians with different variances, means apart by at most the sensitivity:
     :func:`dpverify.privacy.gaussian_pair.delta_lower`, a rigorous lower bound on the whole release's delta by
     post-processing) against the promised ``(eps, delta)`` (for zCDP, its ``(eps(delta), delta)`` at
     ``delta = 10^-1..10^-12``): ``violated`` when above;
   * only the **sensitivity** changes: ``inconclusive`` (the accounting at the larger one is the other checks');
   * nothing changes on any pair tried: ``holds``, saying that derived inputs were recomputed and the release did
     not move.

Its ``holds`` never supports a verdict alone (basis ``neighbouring-data`` refutes only): it checks one thing the
statement's accounting assumes, not the accounting.
"""
from __future__ import annotations

import math
from dataclasses import replace

import numpy as np

from ..numeric import jsonable
from ..privacy.gaussian_pair import delta_lower
from ..privacy.neighbours import SHAPES, neighbours
from ..claims import ClaimError, SupBound
from ..verdict import Basis, Evidence
from .base import Clock, Config
from .kind import CheckKind

LABEL = "neighbouring-data"
#: points of the domain tried, data sets drawn at each, and the largest data set drawn
POINTS = 12
MAX_ROWS = 20000
#: a relative change of a noise level below this is rounding, not a change
NOISE_RTOL = 1e-12


def applies(stmt) -> bool:
    return isinstance(stmt, SupBound) and stmt.kind == "privacy" and getattr(stmt, "inputs", None) is not None


def needed(stmt, claim) -> set[str]:
    """The claim's parameters the statement's scenario and bound read (every input of the release): a scenario that
    does not say which parameters it reads (no parameter map: a function of the point) reads them all."""
    names = set(claim.domain.names())
    syms = set(getattr(stmt.bound, "free_symbols", ()))
    params = getattr(stmt.scenario, "params", None)
    if not isinstance(getattr(params, "exprs", None), dict):
        return names
    for e in params.exprs.values():
        syms |= set(getattr(e, "free_symbols", ()))
    return {s.name for s in syms} & names


def _scalars(pt) -> dict:
    return {k: float(v) for k, v in pt.items() if isinstance(v, (int, float, np.floating, np.integer))}


def _points(claim, cfg: Config) -> list[dict]:
    if cfg.at is not None:
        return [dict(cfg.at)]
    rng = np.random.default_rng(cfg.seed_for(claim.id, "neighbouring-data", "points"))
    out = []
    for k in range(min(POINTS, max(1, cfg.samples))):
        p = claim.domain.draw_point(rng, hostile=k % 2 == 1)
        if p is not None:
            out.append(p)
    return out


def _compare(decl, r1, r2, values) -> tuple[str, float, str]:
    """``(verdict, score, what)`` of two releases at ``values`` (public and derived): a score of how far apart."""
    if r1.count != r2.count:
        if not all(isinstance(c, int) for c in (r1.count, r2.count)):
            return "inconclusive", 0.0, f"the number of released vectors is not finite ({r1.count} vs {r2.count})"
        deltas = [d for _, d in decl.guarantee.pairs(values)]
        if max(deltas) < 1:
            return ("violated", math.inf, f"{r1.count} vs {r2.count} released vectors: different supports, delta = 1 "
                    f"at every eps (the promise allows at most {max(deltas):.3g})")
        return "holds", 0.0, "the counts differ but the promised delta is 1"
    s1, s2 = r1.noise_std, r2.noise_std
    if abs(s1 - s2) > NOISE_RTOL * max(abs(s1), abs(s2)):
        if r1.count == 0:
            return "holds", 0.0, "nothing is released"
        if min(s1, s2) == 0 and max(s1, s2) > 0 and math.isfinite(max(s1, s2)):
            deltas = [d for _, d in decl.guarantee.pairs(values)]
            if max(deltas) < 1:
                return ("violated", math.inf, f"noise {s1:.6g} vs {s2:.6g}: one release is its mean exactly, the other "
                        f"a Gaussian (mutually singular: delta = 1 at every eps, the promise allows at most "
                        f"{max(deltas):.3g})")
        if not (s1 > 0 and s2 > 0 and math.isfinite(s1) and math.isfinite(s2)):
            return "inconclusive", 0.0, f"noise levels {s1:.6g} vs {s2:.6g} (not both positive and finite)"
        shift = max(r1.sensitivity, r2.sensitivity)
        # the profile at no shift bounds the least over the shifts from above: only the promise it exceeds most
        # is worth the rigorous lower bound over the shifts
        top, eps, delta = max((delta_lower(e, s1, s2, 0.0) / d, e, d) for e, d in decl.guarantee.pairs(values))
        if top <= 1:   # even with the means equal the two releases are within the promise: nothing to refute
            return ("inconclusive", top, f"noise {s1:.6g} vs {s2:.6g}: exact delta at eps = {eps:.6g} with equal "
                    f"means {top * delta:.6g}, within the promised {delta:.3g}")
        low = delta_lower(eps, s1, s2, shift, target=delta)
        ratio = low / delta
        what = (f"noise {s1:.6g} vs {s2:.6g} (means apart by <= {shift:.6g}): exact delta at eps = {eps:.6g} "
                f">= {low:.6g}, promised {delta:.3g}")
        return ("violated" if low > delta else "inconclusive"), ratio, what
    if abs(r1.sensitivity - r2.sensitivity) > NOISE_RTOL * max(abs(r1.sensitivity), abs(r2.sensitivity)):
        return ("inconclusive", 0.0, f"only the sensitivity moves ({r1.sensitivity:.6g} vs {r2.sensitivity:.6g}): the "
                "accounting at the larger one is not checked here")
    return "holds", 0.0, ""


def _on_domain(claim, pt, derived) -> dict:
    """The point ``pt`` with the derived inputs that are parameters of the claim set to their values on a data set."""
    names = set(claim.domain.names())
    return {**pt, **{k: v for k, v in derived.items() if k in names}}


def _dataset(data, limit: int = 12):
    n = len(next(iter(data.values())))
    if n > limit:
        return f"{n} rows"
    return [{c: float(v[i]) for c, v in data.items()} for i in range(n)]


def _release(decl, data, values):
    """``(derived inputs, release)`` on the data set ``data``, or None where they cannot be computed."""
    try:
        derived = decl.derive(data, values)
        return derived, decl.released({**values, **derived})
    except (ValueError, ZeroDivisionError, OverflowError, TypeError):
        return None


def check(stmt: SupBound, claim, cfg: Config) -> Evidence:
    clock = Clock()
    decl = stmt.inputs
    basis = Basis("neighbouring-data", ", ".join(f"{k}: {d.note or 'derived'}" for k, d in decl.derived)
                  or "every input public")

    def ev(verdict, detail, **kw):
        return Evidence(LABEL, stmt.name, verdict, seconds=clock.seconds, basis=basis, detail=detail, **kw)

    missing = decl.undeclared(needed(stmt, claim))
    if missing:
        return ev("inconclusive", f"inputs undeclared (neither public nor derived): {', '.join(missing)}")
    if not decl.derived:
        return ev("holds", "every input is declared public: the release is the same function on every data set "
                           "(the statement's accounting is the other checks')")
    ex = decl.examples
    rng = np.random.default_rng(cfg.seed_for(claim.id, stmt.name, "neighbouring-data"))
    tried = skipped = 0
    worst = None   # (score, verdict, what, witness)
    for pt in _points(claim, cfg):
        values = _scalars(pt)
        try:
            values.update(decl.fixed(values))
        except (ValueError, ZeroDivisionError, OverflowError, TypeError):
            skipped += 1
            continue
        n = int(round(values.get(ex.rows, 0)))
        if n < 2 or n > MAX_ROWS:
            skipped += 1
            continue
        for shape in SHAPES:
            seed = int(rng.integers(2 ** 31))
            data = ex.draw(n, np.random.default_rng(seed), shape)
            got = _release(decl, data, values)
            if got is None or not claim.domain.contains(_on_domain(claim, pt, got[0])):
                skipped += 1
                continue
            base, rel = got
            full = {**values, **base}

            def moved(other, rel=rel, values=values, base=base):
                """How far the release moves (a changed count first, then the noise level's log-ratio), and as a
                tie-break how far the derived inputs move (relative)."""
                got = _release(decl, other, values)
                if got is None:
                    return None
                d2, r2 = got
                drift = sum(abs(d2[k] - v) / (abs(v) + 1e-300) for k, v in base.items())
                if r2.count != rel.count:
                    return 1e300
                move = (abs(math.log(r2.noise_std / rel.noise_std)) if r2.noise_std > 0 and rel.noise_std > 0
                        else (1e299 if max(r2.noise_std, rel.noise_std) > 0 else 0.0))
                return move + 1e-9 * min(drift, 1e9)

            for nb in neighbours(data, ex, rng, score=moved, adjacency=decl.adjacency):
                got = _release(decl, nb.data, values)
                if got is None or not claim.domain.contains(_on_domain(claim, pt, got[0])):
                    skipped += 1
                    continue
                other, rel2 = got
                tried += 1
                verdict, score, what = _compare(decl, rel, rel2, full)
                if verdict == "holds" and not what:
                    continue
                witness = {"point": jsonable(pt), "data_seed": seed, "data_shape": shape, "D": _dataset(data),
                           "neighbour": nb.describe(), "derived_D": base, "derived_D_prime": other,
                           "release_D": rel.as_dict(), "release_D_prime": rel2.as_dict()}
                spread = (abs(math.log(rel2.noise_std / rel.noise_std))
                          if rel.noise_std > 0 and rel2.noise_std > 0 else 0.0)
                rank = (verdict == "violated", verdict == "inconclusive", score, spread)
                if worst is None or rank > worst[0]:
                    worst = (rank, verdict, what, witness)
            if worst is not None and worst[1] == "violated" and cfg.at is None:
                break
        if worst is not None and worst[1] == "violated":
            break
    note = f"{tried} neighbouring pairs" + (f", {skipped} draws outside the claim's hypotheses or unevaluable"
                                              if skipped else "")
    if worst is not None and worst[1] == "violated":
        _, _, what, wit = worst
        return ev("violated", f"derived inputs move the release on {wit['neighbour']}: {what}",
                  counterexample={"params": wit["point"], "seed": cfg.seed}, data={"witness": wit, "tried": tried})
    if tried == 0:
        return ev("inconclusive", f"no neighbouring pair inside the claim's hypotheses could be evaluated ({note})")
    if worst is not None and worst[1] == "inconclusive":
        return ev("inconclusive", f"derived inputs move the release, not refuted: {worst[2]} ({note})",
                  data={"witness": worst[3], "tried": tried})
    if worst is not None:   # the release moved, but the promise allows anything (delta = 1)
        return ev("holds", f"derived inputs move the release: {worst[2]} ({note})", data={"witness": worst[3]})
    return ev("holds", f"derived inputs {', '.join(k for k, _ in decl.derived)} recomputed on {note}: the release "
                       "did not move (the statement's accounting is the other checks')")


def with_inputs(claim, inputs):
    """``claim`` with ``inputs`` (a :class:`~dpverify.privacy.neighbours.ReleaseInputs`) declared on each of its privacy
    statements: how a declaration kept beside a claim (a paper's, before a referee has read it) is checked."""
    stmts = tuple(replace(s, inputs=inputs) if isinstance(s, SupBound) and s.kind == "privacy" else s
                  for s in claim.statements)
    if stmts == claim.statements:
        raise ClaimError(f"{claim.id}: no privacy statement to declare inputs on")
    return replace(claim, statements=stmts)


KIND = CheckKind(
    name=LABEL, applies=applies, check=check, basis_kinds=("neighbouring-data",), can_refute=True,
    no_certificate="a neighbouring pair's witness is replayed with --at and the data seed, no standalone checker yet",
    summary="inputs derived from the data recomputed on neighbouring data sets: a changed number of released vectors "
            "or noise level against the promised (eps, delta) (refutes only)")
