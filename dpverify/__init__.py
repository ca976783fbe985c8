"""dpverify: symbolic-and-numeric verification of theorems about DP noisy gradient descent.

>>> import sympy as sp
>>> import dpverify
>>> from dpverify import Claim, Domain, Inequality, Real, Source
>>> x, y = sp.symbols("x y")
>>> am_gm = Claim(id="mine/claim-am-gm", source=Source("my notes", "AM-GM"),
...               domain=Domain(x=Real(gt=0, search=(1e-3, 1e3), log=True), y=Real(gt=0, search=(1e-3, 1e3), log=True)),
...               statements=(Inequality("am-gm", lhs=sp.sqrt(x * y), rhs=(x + y) / 2),))
>>> dpverify.check(am_gm).verdict          # doctest: +SKIP
'holds'
"""
from __future__ import annotations

__version__ = "0.1.0"

from typing import TYPE_CHECKING  # noqa: E402

from .lazy import attach  # noqa: E402

if TYPE_CHECKING:  # the public names; each is imported on first use (dpverify.lazy): `dpverify list` needs no SymPy
    from .quantifiers import Infimum, Supremum
    from .claims import (
        AlgorithmRate, Choice, Claim, ClaimError, Constant, Domain, DomainError, ExpectationBound, Identity, Inequality, Int, Latex,
        Limit, LimitPath, Minimiser, Rate, Reading, Real, Relation, Seq, Source, SupBound,
    )
    from .verdict import Basis, Evidence, Verdict

__getattr__, __dir__, _EXPORTS = attach(__name__, __file__)


def check(claim, **options) -> Verdict:
    """Check ``claim`` (a :class:`Claim` or its id) every way that applies; return its Verdict.

    Each keyword is an option of the run, the same as the command line's flag of that name
    (:data:`dpverify.config.OPTIONS`; an unknown name is a TypeError, a value that is not valid a
    ValueError naming the option). ``at`` pins every parameter to one point (a point outside the claim's
    hypotheses raises :class:`DomainError` naming the hypothesis and the value); ``prove_box`` also tries
    to prove each inequality on the claim's search box (see :mod:`dpverify.checks.boxproof`): a success is
    ``verified`` with ``Verdict.scope`` naming the box.
    """
    from . import registry
    from .checks import run
    from .config import config_from
    from .claims import Claim

    cfg = config_from(options)
    if isinstance(claim, str):
        claim = registry.get(claim)
    if not isinstance(claim, Claim):
        raise TypeError(f"claim must be a dpverify Claim or a claim id, got {type(claim).__name__}")
    registry.resolve(claim)
    verdict = run(claim, cfg)
    from .report_html import ClaimFigures

    verdict.figures = ClaimFigures(claim, cfg)     # its plots, made when a notebook shows it
    return verdict


def _options_signature():
    """``check``'s signature and the options part of its docstring, from :data:`dpverify.config.OPTIONS`."""
    import inspect

    from .config import OPTIONS

    params = [inspect.Parameter("claim", inspect.Parameter.POSITIONAL_OR_KEYWORD)]
    params += [inspect.Parameter(o.name, inspect.Parameter.KEYWORD_ONLY, default=o.default) for o in OPTIONS]
    check.__signature__ = inspect.Signature(params, return_annotation="Verdict")
    check.__doc__ += "\n    Options:\n\n" + "\n".join(f"    * ``{o.name}`` (``{o.flag}``, default ``{o.default!r}``): {o.help}"
                                                for o in OPTIONS) + "\n"


_options_signature()


def list_claims(paper: str | None = None) -> list[Claim]:
    """Every registered claim (of one paper if given)."""
    from . import registry

    return registry.all_claims(paper)


__all__ = sorted(_EXPORTS + ["check", "list_claims", "__version__"])
