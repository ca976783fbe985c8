"""The scenario contract catches each broken promise: a toy scenario (noisy point in R^D, statistic
||x0 + s z||^2, exact value D a^2 + D s^2) with one planted bug at a time, and without bugs."""
import numpy as np
import pytest
import sympy as sp

from dpverify import Claim, Domain, ExpectationBound, Int, Real, Source
from dpverify.contract import scenario_contract
from dpverify.scenarios import MappedScenario

a, s, D = sp.symbols("a s D")


class Toy(MappedScenario):
    REQUIRED = ("start", "noise_std", "dim")
    NOISE = ("noise_std",)
    supports_exact = True
    supports_monte_carlo = True
    name = "toy"

    def __init__(self, params, *, bugs=()):
        super().__init__(params)
        self.bugs = frozenset(bugs)
        self._set_mc_points("toy", (), 2)

    def _v(self, pt):
        return (float(self.map.scalar("start", pt)), float(self.map.scalar("noise_std", pt)),
                int(round(float(self.map.scalar("dim", pt)))))

    def make_instance(self, point):
        return {"point": dict(point), "u": [1.0] * self._v(point)[2]}

    def instance_at(self, point):
        if "accepts_outside" in self.bugs:
            return self.make_instance(point)
        return super().instance_at(point)

    def strategy(self):
        return self.instances_from(lambda pt, draw: self.make_instance(pt))

    def point(self, inst):
        return inst["point"]

    def with_point(self, inst, point):
        if "stale_dimension" in self.bugs:
            return {**inst, "point": point}
        return self.instance_at(point)

    def exact_available(self, inst):
        return True

    def exact(self, inst, dps=None):
        x0, sd, d = self._v(inst["point"])
        return d * x0 * x0 + d * sd * sd + (1.0 if "wrong_exact" in self.bugs else 0.0)

    def monte_carlo(self, inst, runs, seed, chunk_runs):
        x0, sd, d = self._v(inst["point"])
        rng = np.random.default_rng(None if "unseeded" in self.bugs else seed)
        if "noise_without_noise" in self.bugs:
            sd = sd + 0.1
        vals = ((x0 + sd * rng.standard_normal((runs, d))) ** 2).sum(axis=1)
        return float(vals.mean()), float(vals.var(ddof=1))


def _claim(bugs=()):
    return Claim(id="toy/contract", source=Source("tests", "toy"),
                 domain=Domain(a=Real(gt=0, search=(0.1, 2.0)), s=Real(ge=0, search=(0.2, 1.0)),
                               D=Int(ge=1, search=(1, 6))),
                 statements=(ExpectationBound("toy", bound=D * a**2 + D * s**2 + 1,
                                              scenario=Toy(dict(start=a, noise_std=s, dim=D), bugs=bugs)),))


def test_a_sound_scenario_keeps_every_promise():
    assert scenario_contract(_claim()) == []


@pytest.mark.parametrize("bug, promise", [
    ("accepts_outside", "a point outside the hypotheses is refused"),
    ("stale_dimension", "a moved instance takes its new dimension"),
    ("wrong_exact", "exact and Monte Carlo agree"),
    ("unseeded", "same seed, bit-identical Monte Carlo"),
    ("noise_without_noise", "no noise gives the deterministic algorithm"),
])
def test_each_planted_bug_is_caught(bug, promise):
    breaches = scenario_contract(_claim((bug,)))
    assert promise in {b.promise for b in breaches}, breaches


def test_scenarios_are_immutable_and_bind_returns_a_copy():
    sc = _claim().statements[0].scenario
    bound = sc.bind(_claim())
    assert bound is not sc and sc.claim is None and bound.claim is not None
    with pytest.raises(AttributeError, match="immutable"):
        bound.name = "other"
    with pytest.raises(AttributeError, match="immutable"):
        sc.bugs = frozenset()
    assert sc.evolve(name="other").name == "other" and sc.name == "toy"
