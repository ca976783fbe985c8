"""Testing users' claims with pytest: one test per claim, failing with the verdict's evidence.

Two ways, sharing this module's runner:

* the pytest plugin (:mod:`dpverify.pytest_plugin`, installed with dpverify): name claims files on
  the command line or in the ``dpverify_claims`` ini option and every claim becomes a test item::

      pytest --dpverify-claims path/to/claims.py
      # or, in pytest.ini / pyproject [tool.pytest.ini_options]:  dpverify_claims = ["claims/*.py"]

* in a test file, :func:`claim_tests` makes a parametrized test function::

      from dpverify.testing import claim_tests
      test_my_claims = claim_tests("path/to/claims.py")

A scenario of your own keeps the promises every ready-made one keeps (immutable, same seed same
result, no noise no randomness, exact and Monte Carlo agree, points outside the hypotheses refused,
a moved instance takes its new dimension)::

      from dpverify.testing import scenario_contract
      def test_my_scenario():
          assert scenario_contract(MY_CLAIM) == []

A claim's test fails when its verdict, or the verdict of one of its readings, differs from the
expected one (and, for a claim or reading expected ``violated`` with a ``witness``, when the witness
does not replay as violated); the failure message
is the verdict's evidence, with the ``dpverify check ... --at ...`` command that replays it.
"""
from __future__ import annotations

import json

from .claims import Claim
from .contract import Breach, scenario_contract  # noqa: F401  (a user's scenario runs the same contract)
from .replay import replay_counterexample
from .verdict import Verdict


_CACHE: dict[tuple, tuple[Claim, Verdict]] = {}


def verdict_of(claim: Claim, seed: int = 0, at: dict | None = None) -> Verdict:
    """The verdict of ``claim`` (computed once per process for a given claim, seed and point)."""
    from . import check

    key = (id(claim), seed, None if at is None else json.dumps(at, sort_keys=True))
    hit = _CACHE.get(key)
    if hit is None or hit[0] is not claim:
        hit = (claim, check(claim, seed=seed, at=at))
        _CACHE[key] = hit
    return hit[1]


def explain(claim: Claim, v: Verdict, module: str | None = None) -> str:
    """A failure message: verdict against expected, then every piece of evidence (each
    counterexample with the command that replays it at its seed; ``module``: the claims file to
    name in that command, for a claim that is not a registered paper's)."""
    lines = [f"{claim.id} ({claim.source.cite()}): verdict {v.verdict!r}, expected {claim.expected!r}"]
    if claim.reason:
        lines.append(f"  reason given for 'violated': {claim.reason}")
    for e in v.evidence:
        lines.append(f"  [{e.check}] {e.statement}: {e.verdict} -- {e.detail}")
        if e.value is not None or e.bound is not None:
            lines.append(f"      worst point: value {e.value!r}, bound {e.bound!r}, margin {e.min_margin!r}")
        if e.counterexample:
            lines.append(f"      counterexample: {json.dumps(e.counterexample)[:400]}")
            lines.append(f"      replay: {replay_counterexample(claim.id, e.counterexample, module)}")
    return "\n".join(lines)


def failure(claim: Claim, seed: int = 0, module: str | None = None) -> str | None:
    """``None`` when the claim's verdict (and witness) are as expected, else the message."""
    v = verdict_of(claim, seed)
    if not v.ok:
        bad = [f"reading {n!r}: {r['verdict']} (expected {r['expected']})" for n, r in v.readings.items()
               if not v.reading_ok(n)]
        return ("; ".join(bad) + "\n" if bad else "") + explain(claim, v, module)
    if claim.expected == "violated" and claim.witness is not None:
        w = verdict_of(claim, seed, dict(claim.witness))
        if w.verdict != "violated":
            return (f"{claim.id}: the witness {dict(claim.witness)} does not replay as violated "
                    f"(verdict {w.verdict!r})\n" + explain(claim, w, module))
    for r in claim.readings:
        if r.expected == "violated" and r.witness is not None:
            w = verdict_of(claim, seed, dict(r.witness))
            if w.readings[r.name]["verdict"] != "violated":
                return (f"{claim.id}: the witness {dict(r.witness)} of reading {r.name!r} does not replay as "
                        f"violated (verdict {w.readings[r.name]['verdict']!r})\n" + explain(claim, w, module))
    return None


def claim_tests(source, seed: int = 0):
    """A pytest test function parametrized over the claims of ``source``.

    ``source``: a path to a claims file, a module name, a module, or a sequence of claims.
    """
    import pytest

    from . import registry

    if isinstance(source, str):
        claims = list(registry.load_module(source).CLAIMS)
    elif hasattr(source, "CLAIMS"):
        claims = list(source.CLAIMS)
    else:
        claims = list(source)

    @pytest.mark.parametrize("claim", claims, ids=[c.id for c in claims])
    def test_claim(claim):
        msg = failure(claim, seed, source if isinstance(source, str) and source.endswith(".py") else None)
        if msg:
            pytest.fail(msg, pytrace=False)

    return test_claim
