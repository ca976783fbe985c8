"""dpverify.claims: building a claim; every error names the claim, the field and the value. (Moved from
tests/test_registry.py.)"""
import re

import pytest
import sympy as sp

from dpverify.scenarios import noisy_gd
from dpverify.claims import (Claim, ClaimError, Domain, DomainError, ExpectationBound, Identity, Inequality, Int, Real,
                           Relation, Source)


x, y = sp.symbols("x y")
SRC = Source("a textbook", "Lemma 1")


def test_domain_errors_name_hypothesis_and_value():
    d = Domain(kappa=Real(ge=1))
    with pytest.raises(DomainError, match=r"kappa = 0.5 violates kappa >= 1"):
        d.validate({"kappa": 0.5})
    with pytest.raises(DomainError, match="missing parameter 'kappa'"):
        d.validate({})
    with pytest.raises(DomainError, match="unknown parameter 'nu'"):
        d.validate({"kappa": 2, "nu": 1})


def test_claim_fields_are_keyword_only():
    with pytest.raises(TypeError):
        Claim("p/thm-1", SRC, Domain(x=Real()), (Identity("i", lhs=x, rhs=x),))  # type: ignore[misc]


@pytest.mark.parametrize("kwargs, message", [
    (dict(expected="violated"), "gives no reason"),
    (dict(expected="true"), "expected: must be one of"),
    (dict(id="Thm 1"), "claim id must look like"),
    (dict(statements=()), "statements: must be a non-empty tuple"),
    (dict(statements=(Inequality("uses y", lhs=x, rhs=y),)),
     r"claim 'p/thm-1': statement 'uses y': rhs: symbol\(s\) y are neither domain parameters"),
    (dict(witness={"x": -1.0}, expected="violated", reason="r"), "witness: x = -1 violates x > 0"),
    (dict(source="a book"), "source: must be a Source"),
    (dict(definitions={x: y}), "x is both a domain parameter and a definition"),
])
def test_claim_validation_names_claim_field_and_value(kwargs, message):
    base = dict(id="p/thm-1", source=SRC, domain=Domain(x=Real(gt=0)), statements=(Identity("i", lhs=x, rhs=x),))
    with pytest.raises(ClaimError, match=message):
        Claim(**{**base, **kwargs})


def test_statement_rejects_a_relation_as_a_side():
    with pytest.raises(ClaimError, match="lhs is a relation"):
        Inequality("oops", lhs=x <= y, rhs=sp.Integer(0))
    with pytest.raises(ClaimError, match="rhs is missing"):
        Identity("half", lhs=x)


def test_relations_must_use_domain_parameters():
    with pytest.raises(ClaimError, match="uses z, which is not a parameter"):
        Domain(Relation(sp.Lt(x, sp.Symbol("z"))), x=Real())


def test_scenario_parameters_must_be_claim_symbols():
    M, s = sp.symbols("M s")
    sc = noisy_gd(problem="pl", smooth=M, curvature=M / 2, step=1 / M, noise_std=s, dim=1, horizon=3, init_gap=1)
    with pytest.raises(ClaimError, match=r"noise_std = s uses s, which are not parameters"):
        Claim(id="p/thm-1", source=SRC, domain=Domain(M=Real(gt=0)),
              statements=(ExpectationBound("b", bound=M, scenario=sc),))
    with pytest.raises(TypeError, match=r"missing parameter\(s\) step, noise_std, dim, horizon"):
        noisy_gd(smooth=M, curvature=M)
    with pytest.raises(TypeError, match="unknown parameter"):
        noisy_gd(smooth=M, curvature=M, step=1, noise_std=s, dim=1, horizon=3, init_gap=1, lr=1)


# ------------------------------------------------------------------ refused where the claim is written
@pytest.mark.parametrize("make, words", [
    (lambda: Real(gt=5, lt=1), "Real(gt=5, lt=1) is empty"),
    (lambda: Real(gt=1, le=1), "is empty"),
    (lambda: Int(ge=3, le=2), "Int(ge=3, le=2) is empty"),
    (lambda: Int(ge=1.5), "must be an integer"),
])
def test_an_empty_or_malformed_parameter_is_refused(make, words):
    with pytest.raises(ClaimError, match=re.escape(words)):
        make()


@pytest.mark.parametrize("field", ["scenario", "audit"])
def test_a_statement_refuses_a_scenario_that_is_not_one(field):
    from dpverify import ExpectationBound, SupBound
    from dpverify.scenarios import gaussian_mechanism

    s, d = sp.symbols("s_f Delta_f")
    with pytest.raises(ClaimError, match=f"{field} must be a scenario .* got 42"):
        if field == "scenario":
            ExpectationBound("b", bound=s, scenario=42)
        else:
            SupBound("b", bound=s, scenario=gaussian_mechanism(sensitivity=d, noise_std=s, order=2, measure="renyi_over_order"), audit=42)


def test_contains_decides_as_validate_does():
    """``Domain.contains`` (no messages) accepts exactly the points ``validate`` accepts: in-domain points,
    each hypothesis broken in turn, a relation decided at its boundary in mpmath, missing and unknown names."""
    import sympy as sp

    from dpverify.claims import Domain, Int, Real, Relation, Seq

    a, b = sp.symbols("a b")
    dom = Domain(Relation(sp.Lt(a, b)), a=Real(gt=0), b=Real(ge=0, le=1), T=Int(ge=1), s=Seq("T", Real(gt=0)))

    def by_validate(pt):
        try:
            dom.validate(pt)
            return True
        except DomainError:
            return False

    good = {"a": 0.25, "b": 0.5, "T": 2, "s": [0.1, 0.2]}
    cases = [good, {**good, "a": 0.0}, {**good, "b": 1.5}, {**good, "a": 0.5}, {**good, "a": 0.5 - 1e-17},
             {**good, "a": 0.5 * (1 - 1e-12)}, {**good, "T": 0}, {**good, "T": 1.5}, {**good, "s": [0.1]},
             {**good, "s": [0.1, -0.2]}, {**good, "a": float("nan")}, {**good, "a": "x"},
             {k: v for k, v in good.items() if k != "b"}, {**good, "c": 1.0}]
    got = [dom.contains(pt) for pt in cases]
    assert got == [by_validate(pt) for pt in cases]
    assert got[0] and got[5] and not any(got[1:5]) and not any(got[6:])
