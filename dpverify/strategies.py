"""Hypothesis strategies for a claim's hypotheses, for users who test their own functions.

Every strategy draws only points that satisfy every hypothesis (parameter bounds and relations),
inside the parameters' search boxes (log-uniform where ``log=True``)::

    from hypothesis import given
    from dpverify import strategies
    from mypaper import MY_CLAIM

    @given(strategies.points(MY_CLAIM))
    def test_my_closed_form(pt):
        assert my_closed_form(**pt) <= my_bound(**pt)

* :func:`points` -- dicts ``{parameter: value}`` of a :class:`~dpverify.claims.Claim` or a
  :class:`~dpverify.claims.Domain` (``fixed=`` pins some parameters);
* :func:`parameter` -- values of one parameter (``Real``, ``Int``, ``Choice``);
* :func:`instances` -- the instances a statement's scenario draws (problems, data sets, schedules),
  each carrying the claim's point.
"""
from __future__ import annotations

from typing import Any, Mapping

from hypothesis import strategies as st

from .claims import Choice, Claim, ClaimError, Domain, Int, Real


def _domain(obj) -> Domain:
    if isinstance(obj, Claim):
        return obj.domain
    if isinstance(obj, Domain):
        return obj
    raise ClaimError(f"strategies: expected a Claim or a Domain, got {obj!r}")


def points(claim_or_domain, fixed: Mapping[str, Any] | None = None) -> st.SearchStrategy:
    """Points satisfying every hypothesis of a claim (or domain); ``fixed`` pins parameters."""
    d = _domain(claim_or_domain)
    if fixed:
        unknown = sorted(set(fixed) - set(d.params))
        if unknown:
            raise ClaimError(f"strategies.points: unknown parameter {unknown[0]!r}; the domain's are "
                             f"{', '.join(d.params)}")
        try:
            d.validate_partial(dict(fixed))
        except ValueError as exc:
            raise ClaimError(f"strategies.points: fixed {exc}") from None
    return d.strategy(fixed)


def parameter(param) -> st.SearchStrategy:
    """Values of one scalar parameter (its bounds and search box)."""
    if isinstance(param, (Real, Int, Choice)):
        return param.strategy()
    raise ClaimError(f"strategies.parameter: expected Real, Int or Choice, got {param!r}")


def instances(claim: Claim, statement: str | None = None) -> st.SearchStrategy:
    """Instances of the scenario of one of ``claim``'s statements (by name; the first with a
    scenario by default), bound to the claim."""
    from .scenarios import bind

    stmts = [s for s in claim.statements if getattr(s, "scenario", None) is not None]
    if statement is not None:
        stmts = [s for s in stmts if s.name == statement]
    if not stmts:
        raise ClaimError(f"claim {claim.id!r}: no statement with a scenario"
                         + (f" named {statement!r}" if statement else ""))
    strategy = bind(stmts[0].scenario, claim).strategy()
    return strategy if strategy is not None else claim.domain.strategy()


__all__ = ["instances", "parameter", "points"]
