"""Expectations on quadratics as a sign over the spectrum (``dpverify.checks.spectralforms``, ``spectral``,
``signproof``, ``quadratics``): the closed forms agree with the scenarios' own exact moments on drawn quadratics,
a wrong closed form is refused by its recursion, sign certificates prove what is true and a tampered one fails."""
from __future__ import annotations

import numpy as np
import pytest
import sympy as sp

from dpverify import registry
from dpverify.checks import signproof, signsearch, spectral, spectralforms
from dpverify.scenarios import bind

# statements the reduction reads, one per scenario it reads (noisy GD, random-round SGD, output perturbation,
# the gradient-norm-free adaptive GD)
READ = [("erm/thm-2a", 0), ("erm/lemma-11-corrected", 0), ("erm/lemma-12-corrected", 1), ("pur/lemma-1", 0),
        ("pur/claim-gd-gradient-rates", 0), ("pur/claim-gd-gradient-rates", 1), ("pur/prop-3c", 0),
        ("erm/lemma-5", 0), ("erm/thm-5", 0)]


def _reducible(cid, k):
    claim = registry.get(cid)
    stmts = [s for s in claim.statements if type(s).__name__ == "ExpectationBound"]
    stmt = stmts[k]
    sc = bind(stmt.scenario, claim)
    return claim, sc, spectral.reduce(stmt, claim, sc)


@pytest.mark.parametrize("cid, k", READ)
def test_the_closed_form_is_the_scenarios_exact_expectation(cid, k):
    """At quadratics drawn in the claim's domain (the class's extreme one and random spectra and starts) the
    reduction's closed form equals the scenario's exact moment propagation in mpmath (an instance whose mapped
    point moved a parameter other than the start's gap is left out: output perturbation raises L to the
    instance's Lipschitz bound there, while its exact expectation keeps the noise of the drawn L)."""
    claim, sc, red = _reducible(cid, k)
    rng = np.random.default_rng(3)
    n = 0
    for j in range(16):
        pt = claim.domain.draw_point(rng)
        inst = sc.make_instance(pt) if pt is not None else None
        if inst is None or "u" not in inst:
            continue
        if j % 2:
            D = len(inst["u"])
            inst = {**inst, "u": [float(x) for x in rng.random(D)], "dir": [float(x) for x in rng.normal(size=D)]}
        mapped = sc.point(inst)
        if any(mapped[k] != v for k, v in inst["point"].items() if k != getattr(sc, "gap_symbol", None)):
            continue   # the point was moved (a Lipschitz constant raised to the instance's): its noise was not
        want = float(sc.exact(inst, dps=30))
        eigs, th = sc.problem_at(inst)
        got = spectral.closed_form_value(red, mapped, eigs, th)
        assert abs(got - want) <= 1e-12 * max(abs(want), abs(got), 1e-12), (inst, got, want)
        n += 1
    assert n >= 5


def test_a_wrong_closed_form_is_refused_by_its_recursion(monkeypatch):
    _, _, red = _reducible("erm/lemma-8", 0)
    spectralforms.check_identities(red.model, spectral.LAM1)
    real = spectralforms.closed_forms

    def off_by_one(model, lam, k):
        out = real(model, lam, k)
        return {**out, "P": out["q"] ** (2 * k + 2)}
    monkeypatch.setattr(spectralforms, "closed_forms", off_by_one)
    with pytest.raises(spectralforms.ModelError, match="P"):
        spectralforms.check_identities(red.model, spectral.LAM1)


x, n = sp.Symbol("x"), sp.Symbol("n", integer=True)
RANGES = [(x, sp.Integer(0), sp.Integer(1)), (n, sp.Integer(1), None)]


def test_a_true_sign_is_proved_and_checked():
    """(1 - x)^n <= exp(-n x) on [0, 1] for n >= 1 (1 - x <= exp(-x))."""
    F = sp.exp(-n * x) - (1 - x) ** n
    cert = signsearch.find(F, RANGES, {})
    signproof.verify(cert, {})


def test_a_false_sign_gets_no_certificate():
    """(1 - x)^n <= 1 - n x fails for n = 2 at x = 1: no certificate."""
    with pytest.raises(signproof.ProofError):
        signsearch.find((1 - n * x) - (1 - x) ** n, RANGES, {})


def test_a_tampered_certificate_fails_its_check():
    """The certificate of (1 - x)^n <= exp(-n x), its range of x widened to [0, 2] (where 1 - x < 0): refused."""
    cert = signsearch.find(sp.exp(-n * x) - (1 - x) ** n, RANGES, {})
    wide = [(x, sp.Integer(0), sp.Integer(2)), RANGES[1]]

    def widen(goal):
        out = {**goal, "ranges": [wide[0]] + list(goal["ranges"][1:]) if goal["ranges"] else goal["ranges"]}
        if goal["how"]["rule"] == "coefficients":
            out["how"] = {**goal["how"], "atoms": [(lit, {**spec, "goals": {k: widen(g) for k, g in spec["goals"].items()}})
                                                   for lit, spec in goal["how"]["atoms"]]}
        return out
    with pytest.raises(signproof.ProofError):
        signproof.verify(widen(cert), {})


def test_a_sum_over_steps_with_two_directions_is_proved_term_by_term():
    """sum_t D c^(T-t) s_t^2 >= (sum_t x1 (1-x1)^(2(T-t)) s_t^2 + (D-1) sum_t x2 (1-x2)^(2(T-t)) s_t^2) for
    x1, x2 in [y, 1], c = 1 - y, D >= 1 (the noise terms of a bound against two eigen-directions, normalised by
    a positive constant): the sums merge after distributing the normalisation, and each direction's power is
    written over c^(T-t); a summand with x1 allowed below y is refused."""
    t, T, D, y, x1, x2, K = sp.Symbol("t", integer=True), sp.Symbol("T", integer=True), *sp.symbols("D y x1 x2 K")
    s = sp.IndexedBase("s")
    term = lambda x: x * (1 - x) ** (2 * (T - t)) * s[t] ** 2  # noqa: E731
    F = sp.Sum(D * (1 - y) ** (T - t) * s[t] ** 2, (t, 1, T)) / K - (
        sp.Sum(term(x1), (t, 1, T)) + (D - 1) * sp.Sum(term(x2), (t, 1, T))) / K
    ranges = [(K, sp.Integer(1), None), (D, sp.Integer(1), None), (T, sp.Integer(1), None),
              (y, sp.Integer(0), sp.Integer(1)), (x1, y, sp.Integer(1)), (x2, y, sp.Integer(1))]
    cert = signsearch.find(F, ranges, {"s": (sp.Integer(0), None)})
    signproof.verify(cert, {"s": (sp.Integer(0), None)})
    assert cert["how"]["rule"] == "sums"
    with pytest.raises(signproof.ProofError):
        signsearch.find(F, ranges[:4] + [(x1, sp.Integer(0), sp.Integer(1)), ranges[5]], {"s": (sp.Integer(0), None)})
