"""The privacy numbers beyond double precision (tests/textbook/privacy_profiles.py), loaded the way a user's
file is: a true conversion bound below 0 is never violated (eps at delta is not clamped at 0), Balle &
Wang's formula as its own bound at 1e-229 is verified with a checker that needs python-flint alone, and
the planted twins (below the truth by ln, by 1e-6 and by 1e-12 relative) are violated, at seeds 0..2."""
from __future__ import annotations

import ast
from fractions import Fraction
import subprocess
import sys
from pathlib import Path

import pytest

import dpverify
from dpverify import registry

FILE = Path(__file__).resolve().parent / "privacy_profiles.py"
CLAIMS = {c.id: c for c in registry.load_module(str(FILE)).CLAIMS}
SEEDS = range(3)


def _evidence(v):
    return [(e.check, e.verdict, e.detail) for e in v.evidence]


@pytest.mark.parametrize("seed", SEEDS)
@pytest.mark.parametrize("cid", sorted(CLAIMS))
def test_every_claim_gets_its_mathematical_verdict(cid, seed):
    claim = CLAIMS[cid]
    v = dpverify.check(claim, seed=seed)
    assert v.verdict == claim.expected, _evidence(v)


def test_the_negative_eps_is_measured_below_zero_and_below_the_true_bound():
    v = dpverify.check(CLAIMS["textbook/privacy-negative-eps-true"], seed=0)
    e = next(e for e in v.evidence if e.check == "privacy")
    m = e.data["measurement"]
    assert m["kind"] == "exact" and m["upper"] < 0 and m["upper"] <= e.bound < 0


def _verified_proof():
    v = dpverify.check(CLAIMS["textbook/privacy-profile-1e-229"], seed=0)
    proof = next(e for e in v.evidence if e.check == "privacy-proof")
    return v, proof


def test_the_exact_profile_at_1e229_is_proved_on_the_whole_domain():
    v, proof = _verified_proof()
    assert proof.verdict == "verified" and proof.basis.kind == "privacy-proof" and v.scope == "domain"
    sup = next(e for e in v.evidence if e.check == "privacy")
    meas = sup.data["measurement"]
    assert 0 < meas["lower"] <= meas["upper"] < 1e-190            # the profile's scale, not an absolute 1e-20
    assert (meas["upper"] - meas["lower"]) <= 1e-9 * meas["value"]   # its relative error


def test_the_checker_needs_python_flint_alone_and_fails_when_tampered():
    _, proof = _verified_proof()
    source = proof.data["checker"]
    imported = {a.name.split(".")[0] for node in ast.walk(ast.parse(source)) if isinstance(node, ast.Import)
                for a in node.names}
    imported |= {node.module.split(".")[0] for node in ast.walk(ast.parse(source)) if isinstance(node, ast.ImportFrom)}
    assert imported <= {"flint", "sys"}
    ok = subprocess.run([sys.executable, "-I", "-c", source], capture_output=True, text=True)
    assert ok.returncode == 0 and ok.stdout.strip().endswith("ok"), ok.stderr
    # the bound moved by 2^-40 relative (above the checker's 2^-50): it must fail
    tampered = source.replace("def bound(P): return ", "def bound(P): return (1 - arb(2) ** -40) * ")
    assert tampered != source
    bad = subprocess.run([sys.executable, "-I", "-c", tampered], capture_output=True, text=True)
    assert bad.returncode == 1 and "disagree" in bad.stdout


def test_the_1e12_twin_is_refuted_by_ball_arithmetic_at_an_exact_point_inside_the_tolerance():
    v = dpverify.check(CLAIMS["textbook/privacy-profile-1e-229-planted-12"], seed=0)
    sup = next(e for e in v.evidence if e.check == "privacy")
    proof = next(e for e in v.evidence if e.check == "privacy-proof")
    assert sup.verdict == "holds"          # within the supremum check's tolerance of 1e-9
    assert proof.verdict == "violated"
    point = proof.counterexample["params"]
    # the refutation, checked independently: the claim's bound in mpmath at 80 digits against the ball
    import mpmath

    from dpverify.privacy.arb_profile import gaussian_delta_ball
    eps = Fraction(point["z"]) * Fraction(point["mu"])          # exact, as the claim's eps = z mu
    ball = gaussian_delta_ball(eps, point["mu"])
    with mpmath.workdps(80):
        m, e = mpmath.mpf(point["mu"]), mpmath.mpf(eps.numerator) / eps.denominator
        phi = lambda x: mpmath.erfc(-x / mpmath.sqrt(2)) / 2   # noqa: E731
        bound = (1 - mpmath.mpf(10) ** -12) * (phi(-e / m + m / 2) - mpmath.exp(e) * phi(-e / m - m / 2))
        assert mpmath.mpf(ball.lower().str(40, radius=False)) > bound
