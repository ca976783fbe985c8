"""The hostile Monte Carlo battery (tests/textbook/hostile_mc.py) decided right at seeds 0..9, the
re-test of a Monte Carlo violation, and a Monte Carlo counterexample's printed replay command
replaying as ``violated`` in a fresh process."""
from __future__ import annotations

import json
import math
import os
import shlex
import subprocess
import sys
from pathlib import Path

import pytest
import sympy as sp

import dpverify
from dpverify import Claim, Domain, ExpectationBound, Real, Source, registry
from dpverify.checks import monte_carlo
from dpverify.checks.base import Config
from dpverify.scenarios import Scenario
from dpverify.stats import binomial_bounds

HOSTILE = Path(__file__).resolve().parent / "hostile_mc.py"
ROOT = Path(__file__).resolve().parents[2]
SEEDS = range(10)
CLAIMS = {c.id.removeprefix("textbook/hostile-mc-"): c for c in registry.load_module(str(HOSTILE)).CLAIMS}
#: the Monte Carlo evidence each claim must give at every seed (the mathematical truth, or
#: ``inconclusive`` where 20000 runs cannot decide)
MC_VERDICTS = {
    "tight": {"holds", "inconclusive"},          # E = bound: never violated
    "tight-planted": {"violated"},
    "rare-event": {"inconclusive"},              # P = 2e-5 > 1e-5: never holds; 20000 runs cannot refute
    "rare-event-true": {"holds"},                # P = 2e-5 <= 1e-3
    "event-planted": {"violated"},               # P = 0.02 > 0.01
    "spread-true": {"holds", "inconclusive"},
    "spread-planted": {"violated"},              # false wherever s > 0: found once points spread
}


@pytest.mark.parametrize("name", sorted(MC_VERDICTS))
def test_hostile_claims_decided_right_at_seeds_0_to_9(name):
    claim = CLAIMS[name]
    for seed in SEEDS:
        v = dpverify.check(claim, seed=seed, samples=40)
        mc = [e for e in v.evidence if e.check == "monte_carlo"]
        assert mc, (name, seed)
        got = {e.verdict for e in mc}
        assert got <= MC_VERDICTS[name], (name, seed, [(e.verdict, e.detail, e.data) for e in mc])
        assert v.verdict == claim.expected, (name, seed, v.verdict, [(e.check, e.verdict, e.detail) for e in v.evidence])


def test_default_points_spread_over_the_domain():
    """Every default Monte Carlo point used to be Hypothesis's minimal example (s = 0 here): now the
    points of one seed differ from each other and from the other seeds', inside the search box."""
    claim = CLAIMS["spread-planted"]
    sc = claim.statements[0].scenario.bind(claim)
    points = [sc.point(i) for seed in range(5) for i in sc.mc_instances(seed)]
    assert len(points) == 15
    assert len({json.dumps(p, sort_keys=True) for p in points}) == 15
    assert sum(p["s"] > 0 for p in points) >= 12
    assert all(claim.domain.contains(p) and claim.domain.in_box(p) for p in points)


def test_an_indicator_never_seen_has_a_positive_upper_bound():
    b = binomial_bounds(0, 20000, 0.01)
    assert b.lower == 0 and b.upper == pytest.approx(1 - 0.01 ** (1 / 20000), rel=1e-9)
    b = binomial_bounds(20000, 20000, 0.01)
    assert b.upper == 1 and b.lower == pytest.approx(0.01 ** (1 / 20000), rel=1e-9)
    # agrees with the two-sided textbook interval at half the level: 3 of 100 -> [0.0062, 0.0852] at 95%
    b = binomial_bounds(3, 100, 0.025)
    assert (round(b.lower, 4), round(b.upper, 4)) == (0.0062, 0.0852)
    for bad in (dict(successes=-1, runs=10, level=0.1), dict(successes=11, runs=10, level=0.1),
                dict(successes=1, runs=10, level=0.6), dict(successes=1.5, runs=10, level=0.1)):
        with pytest.raises(ValueError):
            binomial_bounds(**bad)


def test_a_zero_sample_variance_is_not_a_deterministic_run():
    """decide() treats a point as deterministic only when told; an indicator never observed gets the
    Clopper-Pearson bound, and a zero-variance normal statistic is no longer exact unless deterministic."""
    verdict, rows = monte_carlo.decide([(0.0, 0.0, 1e-5)], 20000, 0.99, indicator=True)
    assert verdict == "inconclusive" and rows[0]["upper"] > 1e-4
    verdict, _ = monte_carlo.decide([(0.0, 0.0, 1e-5)], 20000, 0.99, [0.0], [True], indicator=True)
    assert verdict == "holds"


# ------------------------------------------------------------------------- the re-test
class _Fluke(Scenario):
    """A Monte Carlo whose first ``runs`` give ``first`` and whose re-test (4x the runs) gives ``again``."""

    supports_monte_carlo = True
    algorithm = mc_name = name = "a planted fluke"

    def __init__(self, first: float, again: float):
        self.first, self.again = first, again

    def mc_instances(self, seed):
        return [{"x": 1.0}]

    def monte_carlo(self, inst, runs, seed, chunk_runs):
        return (self.first if runs == Config().runs else self.again), 0.01


def _fluke_claim(first, again):
    return Claim(id="textbook/hostile-mc-fluke", source=Source("a planted fluke", "none"),
                 domain=Domain(x=Real(gt=0, search=(0.5, 2.0))),
                 statements=(ExpectationBound("E <= x", bound=sp.Symbol("x"), scenario=_Fluke(first, again)),))


def test_a_violation_its_retest_does_not_confirm_is_inconclusive():
    claim = _fluke_claim(1.1, 1.0)
    e = monte_carlo.check(claim.statements[0], claim, Config())
    assert e.verdict == "inconclusive" and e.counterexample is None
    row = e.data["points"][0]
    assert row["retest"]["runs"] == monte_carlo.RETEST_FACTOR * Config().runs
    assert row["retest"]["verdict"] != "violated" and row["lower"] > row["bound"]
    assert "re-tested" in e.detail and "0 confirmed" in e.detail


def test_a_violation_its_retest_confirms_is_reported_with_both_seeds():
    claim = _fluke_claim(1.1, 1.1)
    e = monte_carlo.check(claim.statements[0], claim, Config(seed=4))
    assert e.verdict == "violated"
    ce = e.counterexample
    assert ce["seed"] == 4 and ce["retest_seed"] == Config(seed=4).seed_for(claim.id, "E <= x",
                                                                             monte_carlo.RETEST_LABEL, 0)
    assert e.data["points"][0]["retest"]["verdict"] == "violated"


# ------------------------------------------------------------------------- replay
def _cli(args: list[str]) -> subprocess.CompletedProcess:
    env = {**os.environ, "PYTHONPATH": str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", "")}
    return subprocess.run([sys.executable, "-m", "dpverify", *args], capture_output=True, text=True, env=env,
                          cwd=str(ROOT), timeout=600)


def test_printed_replay_of_a_monte_carlo_counterexample_replays_violated():
    cid = "textbook/hostile-mc-event-planted"
    out = _cli(["check", cid, "--module", str(HOSTILE), "--seed", "3", "--no-progress", "--verbose"])
    assert out.returncode == 0, out.stderr
    lines = [ln.strip() for ln in out.stdout.splitlines() if ln.strip().startswith("replay: ")]
    assert len(lines) == 1, out.stdout
    cmd = shlex.split(lines[0].removeprefix("replay: "))
    assert cmd[:3] == ["dpverify", "check", cid] and cmd[-2:] == ["--seed", "3"]
    again = _cli(cmd[1:] + ["--json", "--no-timing", "--no-progress"])
    assert again.returncode == 0, again.stderr
    (v,) = json.loads(again.stdout)
    assert v["verdict"] == "violated" and v["seed"] == 3
    (e,) = [e for e in v["evidence"] if e["kind"] == "monte_carlo"]
    assert e["verdict"] == "violated"
    # the replay reruns the same point with the same runs: the same mean as the check at seed 3 reported
    (first,) = [e for e in dpverify.check(CLAIMS["event-planted"], seed=3).evidence if e.check == "monte_carlo"]
    assert e["counterexample"]["run_seed"] == first.counterexample["run_seed"]
    assert math.isclose(e["value"], first.value, rel_tol=1e-12)
