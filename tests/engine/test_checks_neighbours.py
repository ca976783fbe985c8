"""The neighbouring-data check (dpverify.checks.neighbours) and the declarations it reads
(dpverify.privacy.neighbours): each route of the check on a small claim built here, and the pieces on their own."""
from __future__ import annotations

import math

import numpy as np
import pytest
import sympy as sp

from dpverify import Claim, ClaimError, Domain, Int, Real, Source, SupBound
from dpverify.checks import Config, run
from dpverify.checks import neighbours as nbr
from dpverify.privacy.neighbours import (Derived, Examples, GaussianRelease, ReleaseInputs, dp, neighbours, zcdp)
from dpverify.scenarios import gaussian_mechanism
from dpverify.verdict import BASIS_KINDS

n, eps, delta, G, c, x, xbar, xmax, s_d, T = sp.symbols("n epsilon delta G c x xbar xmax s_d T")
_SRC = Source("neighbouring-data test", "Lemma")
_DOMAIN = Domain(n=Int(ge=2, search=(4, 40)), epsilon=Real(gt=0, le=1, search=(0.2, 1.0)),
                 delta=Real(gt=0, lt=1, search=(1e-8, 1e-4), log=True), G=Real(gt=0, search=(0.5, 2.0)),
                 c=Real(gt=0, search=(1.0, 3.0)))
_EX = Examples({"x": (-1.0, 1.0)}, rows="n")
SMALL = Config(samples=6)


def _claim(inputs, cid="nbr/claim", expected="holds"):
    stmt = SupBound("exact delta(eps)", bound=delta, kind="privacy", inputs=inputs,
                    scenario=gaussian_mechanism(measure="delta_at_eps", sensitivity=2 * G / n, noise_std=c * G / n,
                                                eps=eps))
    return Claim(id=cid, source=_SRC, domain=_DOMAIN, statements=(stmt,), expected=expected,
                 reason="" if expected == "holds" else "planted")


def _inputs(noise, derived=None, public=("n", "epsilon", "delta", "G", "c"), count=1, sensitivity=None,
            adjacency="replace"):
    return ReleaseInputs(public=public, derived=derived or {}, examples=_EX,
                         release=GaussianRelease(count=count, noise_std=noise, sensitivity=sensitivity or 2 * G / n),
                         guarantee=dp(eps, delta), adjacency=adjacency)


def _evidence(claim, cfg=SMALL):
    return nbr.check(claim.statements[0], claim, cfg)


# --------------------------------------------------------------------------- routes of the check

def test_an_undeclared_input_is_named_and_never_assumed_public():
    ev = _evidence(_claim(_inputs(c * G / n, public=("n", "epsilon", "delta", "G"))))
    assert ev.verdict == "inconclusive" and "undeclared" in ev.detail and ": c" in ev.detail, ev.detail


def test_every_input_public_holds_and_says_it_checks_nothing_else():
    ev = _evidence(_claim(_inputs(c * G / n)))
    assert ev.verdict == "holds" and "every input is declared public" in ev.detail
    assert ev.basis.kind == "neighbouring-data" and not BASIS_KINDS["neighbouring-data"].supports


def test_a_derived_input_the_release_ignores_leaves_it_unmoved():
    derived = {"s_d": Derived(xbar, aggregates={xbar: ("mean", x)}, note="the data's mean, released nowhere")}
    ev = _evidence(_claim(_inputs(c * G / n, derived)))
    assert ev.verdict == "holds" and "did not move" in ev.detail, ev.detail


def test_a_count_from_the_data_is_violated_with_both_counts_in_the_witness():
    derived = {"T": Derived(sp.Max(1, sp.ceiling(20 * xbar ** 2 / 2 * 100)), aggregates={xbar: ("mean", x)})}
    ev = _evidence(_claim(_inputs(c * G / n, derived, count=T), expected="violated"))
    assert ev.verdict == "violated", ev.detail
    w = ev.data["witness"]
    assert w["release_D"]["count"] != w["release_D_prime"]["count"]
    assert w["derived_D"]["T"] == w["release_D"]["count"] and w["derived_D_prime"]["T"] == w["release_D_prime"]["count"]
    assert "different supports" in ev.detail and ev.counterexample["params"] == w["point"]


def test_a_noise_level_from_the_data_is_refuted_by_the_exact_profile_of_the_two_gaussians():
    # noise c G (0.1 + max|x|)/n: the sparse data set's one example against its removal moves it by a factor ~6
    derived = {"s_d": Derived(0.1 + xmax, aggregates={xmax: ("max", sp.Abs(x))})}
    ev = _evidence(_claim(_inputs(c * G * s_d / n, derived), expected="violated"))
    assert ev.verdict == "violated" and "exact delta at eps" in ev.detail, ev.detail
    w = ev.data["witness"]
    s1, s2 = w["release_D"]["noise_std"], w["release_D_prime"]["noise_std"]
    assert s1 != s2 and s1 > 0 and s2 > 0


def test_a_small_move_of_the_noise_level_is_reported_not_refuted():
    derived = {"s_d": Derived(1000 + xbar, aggregates={xbar: ("mean", x)})}
    ev = _evidence(_claim(_inputs(c * G * s_d / 1000 / n, derived)))
    assert ev.verdict == "inconclusive" and "not refuted" in ev.detail, ev.detail


def test_remove_one_neighbours_are_tried_only_under_remove_adjacency():
    # noise c G (0.1 + max|x|)/n: on the sparse data set, removing its one example moves it by a factor ~6
    derived = {"s_d": Derived(0.1 + xmax, aggregates={xmax: ("max", sp.Abs(x))})}
    ev = _evidence(_claim(_inputs(c * G * s_d / n, derived, adjacency="remove"), expected="violated"))
    assert ev.verdict == "violated" and ev.data["witness"]["neighbour"].startswith("remove"), ev.detail


def test_only_the_sensitivity_moving_is_inconclusive():
    derived = {"s_d": Derived(1 + xmax, aggregates={xmax: ("max", sp.Abs(x))})}
    ev = _evidence(_claim(_inputs(c * G / n, derived, sensitivity=2 * G * s_d / n)))
    assert ev.verdict == "inconclusive" and "only the sensitivity" in ev.detail, ev.detail


def test_the_verdict_of_a_claim_uses_the_refutation_and_never_the_pass_alone():
    derived = {"T": Derived(sp.Max(1, sp.ceiling(1000 * xbar ** 2)), aggregates={xbar: ("mean", x)})}
    v = run(_claim(_inputs(c * G / n, derived, count=T), expected="violated"), Config(samples=6, proof_budget=0))
    assert v.verdict == "violated"
    assert [e.verdict for e in v.evidence if e.check == "neighbouring-data"] == ["violated"]


def test_a_pinned_point_replays_the_same_witness():
    derived = {"T": Derived(sp.Max(1, sp.ceiling(1000 * xbar ** 2)), aggregates={xbar: ("mean", x)})}
    claim = _claim(_inputs(c * G / n, derived, count=T), expected="violated")
    first = _evidence(claim)
    at = first.counterexample["params"]
    again = [_evidence(claim, Config(samples=6, at=at)) for _ in range(2)]
    assert all(e.verdict == "violated" for e in again)
    assert again[0].data["witness"] == again[1].data["witness"]


def test_inputs_are_refused_on_a_statement_that_is_not_about_privacy():
    with pytest.raises(ClaimError, match="privacy statement"):
        SupBound("s", bound=G, kind="sensitivity", inputs=_inputs(c * G / n),
                 scenario=gaussian_mechanism(measure="delta_at_eps", sensitivity=G, noise_std=c, eps=eps))
    with pytest.raises(ClaimError, match="inputs must declare"):
        SupBound("s", bound=G, kind="privacy", inputs={"n": "public"},
                 scenario=gaussian_mechanism(measure="delta_at_eps", sensitivity=G, noise_std=c, eps=eps))


# --------------------------------------------------------------------------- the declarations and the neighbours

def test_declarations_refuse_what_is_not_declared_one_way():
    with pytest.raises(TypeError, match="both public and derived"):
        _inputs(c, {"c": Derived(xbar, aggregates={xbar: ("mean", x)})}, public=("n", "c"))
    with pytest.raises(TypeError, match="exactly one of expr"):
        Derived()
    with pytest.raises(TypeError, match="aggregates"):
        Derived(xbar, aggregates={xbar: ("median", x)})
    with pytest.raises(TypeError, match="must be declared public"):
        ReleaseInputs(public=("G",), derived={"s_d": Derived(xbar, aggregates={xbar: ("mean", x)})}, examples=_EX,
                      release=GaussianRelease(count=1, noise_std=G, sensitivity=G), guarantee=dp(eps, delta),
                      adjacency="replace")
    with pytest.raises(ValueError, match="lo <= hi"):
        Examples({"x": (1.0, -1.0)}, rows="n")
    with pytest.raises(TypeError, match="adjacency"):
        _inputs(c, {"s_d": Derived(xbar, aggregates={xbar: ("mean", x)})}, adjacency=None)


def test_derived_values_by_expression_and_by_code_agree_with_numpy():
    data = {"x": np.array([0.5, -0.25, 1.0, 0.0])}
    mean_sq = Derived(G * xbar ** 2, aggregates={xbar: ("mean", x)})
    assert mean_sq.value(data, {"G": 2.0}) == pytest.approx(2.0 * np.mean(data["x"]) ** 2, rel=1e-14)
    top = Derived(xmax, aggregates={xmax: ("max", sp.Abs(x) * G)})
    assert top.value(data, {"G": 3.0}) == pytest.approx(3.0, rel=1e-14)
    # an empirical optimum found by code: min_w mean (w - x_i)^2/2 is the variance / 2
    opt = Derived(code=lambda d, v: float(np.var(d["x"]) / 2))
    assert opt.value(data, {}) == pytest.approx(np.var(data["x"]) / 2)


def test_neighbours_replace_remove_and_find_the_extreme_replacement():
    rng = np.random.default_rng(3)
    data = _EX.draw(10, np.random.default_rng(1))
    # the score: how far the mean moves; the extreme replacement is a corner of [-1, 1]
    score = lambda d: abs(np.mean(d["x"]) - np.mean(data["x"]))   # noqa: E731
    out = list(neighbours(data, _EX, rng, score=score, adjacency="replace"))
    assert {nb.op for nb in out} == {"replace", "extreme replace"}
    removed = list(neighbours(data, _EX, rng, score=score, adjacency="remove"))
    assert {nb.op for nb in removed} == {"remove"} and all(len(nb.data["x"]) == 9 for nb in removed)
    out += removed
    with pytest.raises(ValueError, match="adjacency"):
        list(neighbours(data, _EX, rng, adjacency="add"))
    for nb in out:
        size = len(nb.data["x"])
        assert size == (9 if nb.op == "remove" else 10)
        if nb.op != "remove":
            assert np.sum(nb.data["x"] != data["x"]) <= 1 and nb.data["x"][nb.index] == nb.row["x"]
        if nb.op == "extreme replace":
            # the farther corner from the replaced value moves the mean most
            old = data["x"][nb.index]
            assert nb.row["x"] == (-1.0 if old > 0 else 1.0)


def test_a_zcdp_promise_is_every_conversion_to_eps_delta():
    pairs = zcdp(sp.Symbol("rho")).pairs({"rho": 0.5})
    assert len(pairs) == 12 and all(e == pytest.approx(0.5 + 2 * math.sqrt(0.5 * math.log(1 / d))) for e, d in pairs)


def test_the_sparse_data_set_has_one_example_off_centre():
    d = _EX.draw(6, np.random.default_rng(0), "sparse")["x"]
    assert np.all(d[1:] == 0.0) and d[0] != 0.0
    with pytest.raises(ValueError, match="shape"):
        _EX.draw(6, np.random.default_rng(0), "dense")


def test_the_guide_s_example_builds_a_claim_the_check_refutes():
    import pathlib
    import re
    page = pathlib.Path(__file__).resolve().parents[2] / "docs" / "guide" / "neighbouring-data.md"
    block = re.search(r"```python\n(.*?)```", page.read_text(), flags=re.S).group(1)
    scope: dict = {}
    exec(compile(block, str(page), "exec"), scope)   # noqa: S102 - the project's own documentation
    claim = scope["claim"]
    ev = nbr.check(claim.statements[0], claim, SMALL)
    assert ev.verdict == "violated" and "released vectors" in ev.detail, ev.detail


def test_a_statement_with_inputs_and_an_audit_runs_both_checks():
    """The audit check probes the statement as kind 'audit' (a copy of it): the copy must not carry the privacy
    statement's inputs (which only a privacy statement may declare), or the audit raised and the claim errored."""
    from dataclasses import replace as _replace

    from dpverify.scenarios import noisy_gd_audit

    claim = _claim(_inputs(c * G / n))
    stmt = _replace(claim.statements[0], audit=noisy_gd_audit(eps=eps, delta=delta, noise_std=c * G / n, lipschitz=G,
                                                              n_samples=n, horizon=1))
    v = run(_replace(claim, statements=(stmt,)), Config(samples=2, proof_budget=0))
    checks = {e.check: e for e in v.evidence}
    assert "neighbouring-data" in checks and "audit" in checks, sorted(checks)
    assert all("raised" not in (e.detail or "") for e in v.evidence), [e.detail for e in v.evidence]
    assert checks["neighbouring-data"].verdict == "holds"        # every input public
    assert checks["audit"].verdict in ("holds", "violated", "inconclusive")
