"""The one-step privacy profiles behind stage/claim-sampling-switch, against quadrature computed here."""
import math

import numpy as np
import pytest
from scipy import integrate
from scipy.stats import norm

from theorems.stage import proofs


def _delta(p, q, eps):
    f = lambda x: max(0.0, p(x) - math.exp(eps) * q(x))  # noqa: E731
    return integrate.quad(f, -30, 30, points=list(np.linspace(-5, 5, 21)), limit=400)[0]


@pytest.mark.parametrize("B,n,s,eps", [(1, 10, 1.0, 0.5), (13, 20, math.e, math.exp(0.5)), (3, 4, 0.5, 1.0)])
def test_one_step_profiles_match_quadrature(B, n, s, eps):
    q = B / n
    run_p = lambda x: (1 - q) * norm.pdf(x, 0, s) + q * norm.pdf(x, 1, s)  # noqa: E731
    run_q = lambda x: (1 - q) * norm.pdf(x, 0, s) + q * norm.pdf(x, -1, s)  # noqa: E731
    pois_p = lambda x: (1 - q) * norm.pdf(x, 0, s / 2) + q * norm.pdf(x, 1, s / 2)  # noqa: E731
    pois_q = lambda x: norm.pdf(x, 0, s / 2)  # noqa: E731
    run = max(_delta(run_p, run_q, eps), _delta(run_q, run_p, eps))
    pois = max(_delta(pois_p, pois_q, eps), _delta(pois_q, pois_p, eps))
    # quad integrates across the kink of max(0, .) to about 1e-6 relative; the half-lines are exact to 1e-9
    assert proofs.one_step_run_delta({"B": B, "n": n, "s": s, "epsilon": eps}).value == pytest.approx(run, rel=1e-4)
    assert proofs.one_step_poisson_delta_half_noise(s, B, n, eps) == pytest.approx(pois, rel=1e-4)
    assert run <= pois


def test_the_run_leaks_more_than_the_accountant_at_the_witness():
    got = proofs.run_delta_at_accountant_eps({"n": 10, "B": 1, "s": 1.0, "T": 1, "delta": 0.002})
    assert got.kind == "lower" and got.value > 0.0032
