"""eps at delta and delta at eps for the Gaussian mechanism and composed sampled Gaussian mechanisms,
as a user writes them: a claims file in a temporary folder, checked by the CLI in a subprocess; and
the Gaussian root's bracket on hostile inputs (tiny delta, delta near delta(0), large and tiny mu)."""
from __future__ import annotations

import json
import subprocess
import sys
import textwrap

import mpmath
import pytest

from dpverify.privacy import gaussian_delta_exact, gaussian_eps_mp
from dpverify.scenarios import sampled_gaussian
from dpverify.scenarios import gaussian_eps_at

CLAIMS = textwrap.dedent('''
    import sympy as sp
    from dpverify import Claim, Domain, Int, Real, Source, SupBound
    from dpverify.scenarios import gaussian_mechanism, sampled_gaussian

    s, d, z, e, T = sp.symbols("s delta z e T")
    G = Domain(s=Real(gt=0, search=(0.5, 20), log=True), delta=Real(gt=0, lt=1, search=(1e-12, 1e-2), log=True))
    EPS = gaussian_mechanism(measure="eps_at_delta", sensitivity=1, noise_std=s, delta=d)
    S = Domain(z=Real(gt=0, search=(0.8, 10), log=True), e=Real(gt=0, search=(0.1, 5), log=True),
               T=Int(ge=1, search=(1, 10)))
    DELTA = sampled_gaussian(noise_multiplier=z, sampling_probability=1, steps=T, eps=e)
    CLAIMS = (
        Claim(id="ed/claim-zcdp", source=Source("Bun & Steinke 2016", "Prop. 1.3 with rho = 1/(2 s^2)"), domain=G,
              statements=(SupBound("eps(delta) <= rho + 2 sqrt(rho log(1/delta))", kind="privacy",
                                   bound=1 / (2 * s**2) + sp.sqrt(2 * sp.log(1 / d)) / s, scenario=EPS),)),
        Claim(id="ed/claim-zcdp-half", source=Source("planted", "the factor 2 dropped"), domain=G,
              expected="violated", reason="planted: sqrt(log(1/delta))/s is below the exact eps",
              statements=(SupBound("eps(delta) <= sqrt(log(1/delta))/s", kind="privacy",
                                   bound=sp.sqrt(sp.log(1 / d)) / s, scenario=EPS),)),
        Claim(id="ed/claim-zcdp-delta", source=Source("Bun & Steinke 2016", "Lemma 3.5, rho = T/(2 z^2)"),
              domain=S, statements=(SupBound("delta(e) <= exp(-(e - rho)^2 / (4 rho)) for e >= rho", kind="privacy",
                                             bound=sp.Piecewise((sp.exp(-(e - T / (2 * z**2))**2 / (2 * T / z**2)),
                                                                 e >= T / (2 * z**2)), (1, True)), scenario=DELTA),)),
        Claim(id="ed/claim-delta-planted", source=Source("planted", "delta at eps below 1e-3"), domain=S,
              expected="violated", reason="planted: few steps of little noise leak more",
              statements=(SupBound("delta(e) <= 1e-3", kind="privacy", bound=sp.Rational(1, 1000), scenario=DELTA),)),
    )
''')


def test_eps_at_delta_and_delta_at_eps_from_a_claims_file(tmp_path):
    path = tmp_path / "eps_delta.py"
    path.write_text(CLAIMS)
    res = subprocess.run([sys.executable, "-m", "dpverify", "check", "--module", str(path), "--all", "--json",
                          "--no-progress", "--no-timing", "--jobs", "1"], capture_output=True, text=True, cwd=tmp_path)
    got = {v["id"]: v["verdict"] for v in json.loads(res.stdout)}
    assert got == {"ed/claim-zcdp": "holds", "ed/claim-zcdp-half": "violated",
                   "ed/claim-zcdp-delta": "holds", "ed/claim-delta-planted": "violated"}, res.stderr[-2000:]
    assert res.returncode == 0


@pytest.mark.parametrize("delta, mu", [(1e-5, 1.0), (1e-30, 5.0), (1e-300, 40.0), (1e-12, 1e-3),
                                       (0.19741265, 0.5), (1e-8, 200.0)])
def test_the_gaussian_eps_interval_brackets_the_40_digit_root(delta, mu):
    m = gaussian_eps_at(delta, mu)
    with mpmath.workdps(40):
        root = gaussian_eps_mp(delta, mu, 40)
    assert m.lower <= root <= m.upper
    assert m.upper - m.lower <= 1e-9 * (1 + abs(m.value))        # and it is tight
    if m.value > 0:                                               # delta at the returned eps is delta again
        assert gaussian_delta_exact(m.value, mu) == pytest.approx(delta, rel=1e-6)


def test_delta_at_eps_is_bracketed_by_the_two_pld_estimates_and_the_gaussian_profile():
    # one step without sampling is the Gaussian mechanism: the PLD bracket contains its exact delta
    from dpverify.privacy.composition import subsampled_gaussian_delta_pld
    hi = subsampled_gaussian_delta_pld(1.5, 1.0, 1, 0.5, 1e-4, pessimistic=True)
    lo = subsampled_gaussian_delta_pld(1.5, 1.0, 1, 0.5, 1e-4, pessimistic=False)
    exact = gaussian_delta_exact(0.5, 1 / 1.5)
    assert lo <= exact <= hi and hi - lo < 1e-3
    # far in the tail the optimistic estimate would exceed the truth (misplaced mass): the slack keeps it below
    tail = gaussian_delta_exact(4.48, 1 / 4.48)
    assert subsampled_gaussian_delta_pld(4.48, 1.0, 1, 4.48, pessimistic=False) <= tail


def test_eps_and_delta_together_or_neither_are_refused_naming_them():
    with pytest.raises(TypeError, match="exactly one of delta= .* and eps="):
        sampled_gaussian(noise_multiplier=1, sampling_probability=0.1, steps=3, delta=1e-5, eps=1.0)
    with pytest.raises(TypeError, match="neither"):
        sampled_gaussian(noise_multiplier=1, sampling_probability=0.1, steps=3)


@pytest.mark.parametrize("mu", [5e-324, 1e-300, 1e-200, 1e300])
def test_the_gaussian_profile_survives_denormal_and_huge_mu(mu):
    # mpmath's erfc overflows for arguments near 1e300 and the double formula takes logs of 0 at denormal mu:
    # the profile stays a finite exact value with a bracket containing the truth (0 for tiny mu, 1 for huge mu)
    from dpverify.scenarios.measuring import gaussian_profile
    m = gaussian_profile(0.5, mu)
    truth = 0.0 if mu < 1 else 1.0
    assert m.lower <= truth <= m.upper and m.upper - m.lower < 1e-15


def test_additive_gaussian_noise_eps_at_delta_over_every_shift():
    # eps at delta of q(x) + N(0, b^2 I) over shifts on the l1 sphere of radius Delta: the worst shift is along an
    # axis (||a||_2 = Delta), so the zCDP bound at rho = Delta^2/(2 b^2) holds; the planted twin takes ||a||_2 as
    # Delta/sqrt(k) (the smallest l2 norm on the l1 sphere) and fails at an axis shift
    import sympy as sp

    from dpverify import Claim, Domain, Int, Real, Source, SupBound, check
    from dpverify.scenarios import additive_noise

    D, b, k, d = sp.symbols("Delta b k delta")
    dom = Domain(Delta=Real(gt=0, search=(0.1, 2.0), log=True), b=Real(gt=0, search=(0.5, 5.0), log=True),
                 k=Int(ge=1, search=(1, 4)), delta=Real(gt=0, lt=1, search=(1e-9, 1e-2), log=True))
    sc = additive_noise(noise="gaussian", norm="l1", sensitivity=D, scale=b, dim=k, delta=d)

    def claim(name, mu, expected):
        rho = mu**2 / 2
        return Claim(id=f"mine/{name}", source=Source("Bun & Steinke 2016", "Prop. 1.3"), domain=dom,
                     expected=expected, reason="" if expected == "holds" else "planted",
                     statements=(SupBound("eps(delta) <= rho + 2 sqrt(rho log(1/delta))", kind="privacy",
                                          bound=rho + 2 * sp.sqrt(rho * sp.log(1 / d)), scenario=sc),))

    assert check(claim("claim-l1-gauss", D / b, "holds"), seed=0).verdict == "holds"
    bad = check(claim("claim-l1-gauss-planted", D / (b * sp.sqrt(k)), "violated"), seed=0)
    assert bad.verdict == "violated" and bad.counterexample["params"]["k"] >= 2
    with pytest.raises(TypeError, match="exactly one of them"):
        additive_noise(noise="gaussian", sensitivity=D, scale=b, dim=k, delta=d, eps=1)
    with pytest.raises(TypeError, match="delta= is for noise='gaussian'"):
        additive_noise(noise="laplace", sensitivity=D, scale=b, dim=k, delta=d)
