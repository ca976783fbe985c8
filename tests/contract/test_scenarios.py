"""The scenario contract (:mod:`dpverify.contract`) on every scenario the registry and the textbook
battery use, and coverage: every ready-made scenario class of :mod:`dpverify.scenarios` is exercised.

The tolerance of the exact-vs-Monte-Carlo promise is ``Z_TOL = 5`` standard errors of the
contract's runs (two-sided normal tail 5.7e-7 per comparison; a few hundred comparisons in all).
"""
import inspect
import os

import pytest

import dpverify.scenarios as scenarios
from dpverify import registry
from dpverify.contract import scenario_contract, scenarios_of
from dpverify.scenarios import Scenario

HERE = os.path.dirname(__file__)
TEXTBOOK = os.path.join(HERE, "..", "textbook", "claims.py")


def _claims():
    out = list(registry.all_claims(modules=[TEXTBOOK], include_papers=True))
    return [c for c in out if scenarios_of(c)]


CLAIMS = _claims()


@pytest.mark.parametrize("claim", CLAIMS, ids=[c.id for c in CLAIMS])
def test_contract(claim):
    breaches = scenario_contract(claim, runs=2000)
    assert not breaches, "\n".join(map(str, breaches))


def test_every_ready_made_scenario_class_is_covered():
    used = {type(sc) for c in CLAIMS for _, sc in scenarios_of(c)}
    ready = {obj for _, obj in inspect.getmembers(scenarios, inspect.isclass)
             if issubclass(obj, Scenario) and obj.__module__.startswith("dpverify.scenarios")}
    abstract = {scenarios.Scenario, scenarios.MappedScenario}
    missing = sorted(c.__name__ for c in ready - abstract - used
                     if not any(issubclass(u, c) for u in used))
    assert not missing, f"scenario classes no claim exercises: {missing}"
