"""Claim.corrected (a -corrected claim as the printed one with what changed) and Source.for_document."""
import pytest
import sympy as sp

from dpverify.claims import Claim, ClaimError, Constant, Domain, Inequality, Real, Source

x = sp.Symbol("x")
DOMAIN = Domain(x=Real(gt=0, search=(1e-3, 10.0), log=True))
PRINTED = Claim(
    id="mine/thm-1",
    source=Source("my notes", "Theorem 1", "(3)", "x <= x^2 for every x > 0"),
    kind="inequality",
    domain=DOMAIN,
    summary="x <= x^2 for every x > 0.",
    constants=(Constant("c", "1", sp.Integer(1)),),
    statements=(Inequality("x <= x^2", lhs=x, rhs=x**2),),
    expected="violated",
    reason="fails for x < 1",
    witness={"x": 0.5},
)
FIXED = (Inequality("x <= x^2 + 1/4", lhs=x, rhs=x**2 + sp.Rational(1, 4)),)


def test_corrected_id_source_and_inherited_fields():
    c = PRINTED.corrected(statements=FIXED, summary="x <= x^2 + 1/4.")
    assert c.id == "mine/thm-1-corrected"
    assert c.source is PRINTED.source and c.label == "Theorem 1"
    assert c.domain is DOMAIN and c.kind == "inequality" and c.constants == PRINTED.constants
    assert c.statements == FIXED and c.summary == "x <= x^2 + 1/4."
    assert PRINTED.statements[0].rhs == x**2          # the printed claim is unchanged


def test_corrected_resets_expected_reason_and_witness():
    c = PRINTED.corrected(statements=FIXED)
    assert (c.expected, c.reason, c.witness) == ("holds", "", None)
    v = PRINTED.corrected(expected="verified")
    assert v.expected == "verified" and v.reason == "" and v.statements == PRINTED.statements


def test_corrected_replaces_domain_and_is_validated():
    narrow = Domain(x=Real(ge=1, search=(1.0, 10.0)))
    assert PRINTED.corrected(domain=narrow).domain is narrow
    y = sp.Symbol("y")
    with pytest.raises(ClaimError, match=r"mine/thm-1-corrected.*symbol\(s\) y"):
        PRINTED.corrected(statements=(Inequality("x <= y", lhs=x, rhs=y),))
    with pytest.raises(ClaimError, match="no reason"):
        PRINTED.corrected(expected="violated")


@pytest.mark.parametrize("name", ["statement", "id", "source"])
def test_corrected_refuses_bad_field_names(name):
    with pytest.raises(ClaimError, match=rf"corrected\({name}=\.\.\.\)"):
        PRINTED.corrected(**{name: FIXED})


def test_source_for_document():
    src = Source.for_document("my notes")
    assert src("Lemma 2") == Source("my notes", "Lemma 2")
    assert src("Theorem 1", "(3)", "as printed", url="https://example.org") == Source(
        "my notes", "Theorem 1", "(3)", "as printed", "https://example.org")
    with pytest.raises(ClaimError, match="label"):
        src("")
    with pytest.raises(ClaimError, match="document"):
        Source.for_document(" ")
