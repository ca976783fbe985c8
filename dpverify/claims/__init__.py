"""Claims as data: where a claim was printed, its hypotheses, and what it states.

A :class:`Claim` is an immutable value, validated when it is built: every field is keyword-only,
every free symbol of a statement must be a parameter of the domain, a definition, a scenario
observable or a bound variable, and every mistake raises :class:`ClaimError` naming the claim, the
field and the value, at the line where the claim is written. A claim never runs anything itself:
the checks in :mod:`dpverify.checks` read its statements and decide what applies.

Example (a textbook result, in a user's own symbols)::

    import sympy as sp
    from dpverify import Claim, Domain, Inequality, Real, Source

    x, y = sp.symbols("x y")
    AM_GM = Claim(
        id="mine/claim-am-gm",
        source=Source("any algebra text", "AM-GM inequality"),
        domain=Domain(x=Real(gt=0), y=Real(gt=0)),
        statements=(Inequality("sqrt(xy) <= (x + y)/2", lhs=sp.sqrt(x * y), rhs=(x + y) / 2),),
    )
"""
from .claim import ABOUT, ID_RE, VERDICTS, Claim, Reading, Source
from .latex import Latex, LatexError, latex
from .domain import Choice, ClaimError, Domain, DomainError, Int, Real, Relation, Seq, relation_holds
from .statements import (AlgorithmRate, Constant, ExpectationBound, Identity, Inequality, Limit, LimitPath, Minimiser, Rate,
                         Statement, SupBound, expand_definitions, symbol_names)

__all__ = ["ABOUT", "AlgorithmRate", "Latex", "LatexError", "latex", "Choice", "Claim", "Reading", "ClaimError", "Constant", "Domain", "DomainError", "ExpectationBound", "ID_RE",
           "Identity", "Inequality", "Int", "Limit", "LimitPath", "Minimiser", "Rate", "Real", "Relation", "Seq",
           "Source", "Statement", "SupBound", "VERDICTS", "expand_definitions", "relation_holds", "symbol_names"]
