"""Expectations proved on quadratics (``dpverify.checks.quadratics``), with their planted twins: each true textbook
bound below is proved on quadratics ("holds", basis ``proof-on-quadratics``: its class is wider than quadratics, so
never ``verified``), and the planted twin of each -- false on quadratics -- gets no proof."""
from __future__ import annotations

from pathlib import Path

import pytest

from dpverify import registry
from dpverify.checks import Config, quadratics, signproof

TEXTBOOK = str(Path(__file__).resolve().parent / "claims.py")
# (true claim, its planted twin)
TWINS = [("thm-gd-pl", "thm-gd-pl-no-square"),
         ("thm-output-perturbation-utility", "thm-output-perturbation-utility-no-dimension"),
         ("thm-random-round-sgd", "thm-random-round-sgd-noise-averaged")]


def _claim(cid):
    return registry.get(f"textbook/{cid}", [TEXTBOOK])


def _evidence(cid):
    claim = _claim(cid)
    stmt = next(s for s in claim.statements if quadratics.applies(s))
    return claim, stmt, quadratics.check(stmt, claim, Config())


@pytest.mark.parametrize("true_id, planted_id", TWINS)
def test_the_true_bound_is_proved_on_quadratics_and_its_planted_twin_is_not(true_id, planted_id):
    claim, _, ev = _evidence(true_id)
    assert claim.expected == "holds"
    assert ev.verdict == "holds" and ev.basis.kind == "proof-on-quadratics", ev.detail
    assert ev.detail.startswith("proved on quadratics") and "wider than quadratics" in ev.detail
    assert ev.data["proved"] == "quadratics" and "lam_1" in ev.data["obligation"]
    twin, _, bad = _evidence(planted_id)
    assert twin.expected == "violated"
    assert bad.verdict == "inconclusive" and bad.detail.startswith("no proof on quadratics"), bad.detail


@pytest.mark.parametrize("true_id, planted_id", TWINS)
def test_the_true_certificate_does_not_check_for_the_twin(true_id, planted_id):
    """The certificate of the true bound, moved onto the twin's obligation, is refused by the checker."""
    _, stmt, _ = _evidence(true_id)
    red, cert = quadratics.prove(stmt, _claim(true_id))
    twin = _claim(planted_id)
    tstmt = next(s for s in twin.statements if quadratics.applies(s))
    from dpverify.checks import spectral
    from dpverify.scenarios import bind

    tred = spectral.reduce(tstmt, twin, bind(tstmt.scenario, twin))
    moved = {**cert, "F": tred.F}
    if cert["how"]["rule"] == "sums":
        pytest.skip("a sums certificate names its parts: moved, its first check is the parts' identity")
    with pytest.raises(signproof.ProofError):
        signproof.verify(moved, tred.seq_bounds)
