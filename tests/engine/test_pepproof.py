"""Worst-case statements proved, refuted and certified in the supremum check (``checks/pepproof.py``), their scope,
``SupBound(tight=True)``, and the standalone checkers (``certify/pep.py``) run in a fresh interpreter."""
import json
import os

import pytest
import sympy as sp

from dpverify import Claim, Domain, Int, Real, Source, SupBound, check
from dpverify.certify import certify, run_checker
from dpverify.certify.pep import write_proof
from dpverify.scenarios import worst_case

L, R, T, k = sp.symbols("L R T kappa", positive=True)
_DOM = Domain(L=Real(gt=0, search=(0.1, 10.0), log=True), R=Real(gt=0, search=(0.1, 10.0), log=True),
              T=Int(ge=1, search=(1, 6)))


def _claim(bound, tight=False, method="gd", proof_horizons=None, **extra):
    sc = worst_case(method=method, function_class="smooth_convex", statistic="excess", smooth=L, step=1 / L,
                    horizon=T, init_dist=R, proof_horizons=proof_horizons, max_horizon=6, samples=12, **extra)
    return Claim(id="me/gd", source=Source("notes", "GD"), domain=_DOM,
                 statements=(SupBound("f(x_T) - f*", bound=bound, kind="performance", tight=tight, scenario=sc),))


DT = L * R**2 / (4 * T + 2)


def test_an_attained_bound_is_verified_on_the_whole_domain():
    v = check(_claim(DT, tight=True))
    (e,) = v.evidence
    assert v.verdict == "verified" and v.scope == "domain" and e.basis.kind == "proof"
    pp = e.data["pep_proof"]
    assert pp["kind"] == "per-horizon" and pp["every"]["proved"] and pp["every"]["tight"]
    assert "closed form in (k, N)" in e.basis.on and "Huber-like" in pp["every"]["how"]


def test_horizons_only_when_no_argument_covers_every_horizon():
    # heavy-ball with momentum 0 is gradient descent, but no potential or closed form is sought for it
    v = check(_claim(DT, method="heavy_ball", momentum=0, proof_horizons=3))
    (e,) = v.evidence
    assert v.verdict == "verified" and e.basis.kind == "proof-horizons"
    assert v.scope.startswith("horizons: T = 1..3")


def test_a_tight_claim_that_is_not_attained_is_violated():
    v = check(_claim(L * R**2 / (4 * T + 1), tight=True, proof_horizons=2))
    (e,) = v.evidence
    assert v.verdict == "violated" and "not attained" in e.detail
    assert e.counterexample is not None


def test_a_bound_measured_without_proof_stays_holds_and_tight_is_not_shown_by_a_measurement():
    # no horizon may be certified (proof_horizons=0): the measurement alone decides
    v = check(_claim(DT * 2, proof_horizons=0))
    assert v.verdict == "holds"
    v = check(_claim(DT * 2, tight=True, proof_horizons=0))
    assert v.verdict == "inconclusive" and "attained (tight=True) is not shown" in v.evidence[0].detail


def test_checkers_pass_alone_and_fail_when_edited(tmp_path):
    claim = _claim(DT, tight=True, proof_horizons=3)
    v = check(claim)
    (folder,) = write_proof(claim, v, str(tmp_path))
    ok, line = run_checker(folder)
    assert ok and line.startswith("CERTIFIED me/gd [f(x_T) - f*]: verified (3 problem(s)"), line
    path = os.path.join(folder, "certificate.json")
    cert = json.load(open(path))
    good = json.dumps(cert)
    up = cert["problems"][1]["upper"]["multipliers"]
    key = next(k for k in up if k != "init")
    up[key] = str(sp.Rational(up[key]) * sp.Rational(101, 100))
    json.dump(cert, open(path, "w"))
    ok, line = run_checker(folder)
    assert not ok and line.startswith("NOT CERTIFIED"), line
    cert = json.loads(good)
    cert["problems"][2]["lower"]["values"][0] = "1"
    json.dump(cert, open(path, "w"))
    assert not run_checker(folder)[0]
    cert = json.loads(good)
    cert["problems"][0]["bound"] = "__import__('os')"
    json.dump(cert, open(path, "w"))
    ok, line = run_checker(folder)
    assert not ok and "not an exact rational" in line


def test_a_certified_violation_has_a_checker(tmp_path):
    claim = _claim(DT / 2)
    v = check(claim)
    assert v.verdict == "violated" and "certified" in v.evidence[0].detail
    (folder,) = write_proof(claim, v, str(tmp_path))
    ok, line = run_checker(folder)
    assert ok and "violated" in line, line
    # the same violation through dpverify's certificate routes (certify.ROUTES, the supremum check's)
    out = certify(claim, v, str(tmp_path / "routed"))
    assert out.status == "certified" and out.kind == "worst-function", out.line()
    ok, line = run_checker(out.folder)
    assert ok and line.startswith("CERTIFIED me/gd") and "violated" in line, line
    cert = json.load(open(os.path.join(out.folder, "certificate.json")))
    cert["problems"][0]["lower"]["values"][0] = "1"
    json.dump(cert, open(os.path.join(out.folder, "certificate.json"), "w"))
    assert not run_checker(out.folder)[0]


def test_scope_names_the_horizons():
    from dpverify.verdict import Basis, Evidence, Verdict

    e = Evidence("sup", "s", "verified", basis=Basis("proof-horizons", "T = 1..4 (each horizon certified)"))
    v = Verdict("me/x", "x", "verified", "holds", [e])
    assert v.scope == "horizons: T = 1..4 (each horizon certified)"
