"""Statements from the paper's LaTeX: ``Latex(r"...")`` as a side, ``Inequality.from_latex`` for a relation.

The text is parsed by SymPy's LaTeX parser with its lark backend (``pip install lark``), then its
symbols are *bound*: a subscript's braces are dropped (``\\eta_{t}`` is ``eta_t``), every symbol
whose name is a parameter of the given domain (or a key of the given mapping) becomes that
parameter's symbol, and an unbound ``e`` is Euler's number. What the parser cannot read is refused
with a :class:`LatexError` naming the line, the column and the token::

    >>> from dpverify.claims.latex import latex
    >>> latex(r"\\left(1 - \\frac{1}{\\kappa}\\right)^{T} \\Delta")
    Delta*(1 - 1/kappa)**T

Symbols are matched to the claim's domain by name when the claim is built, like any other
expression; give ``symbols=`` (a :class:`~dpverify.claims.domain.Domain`, a mapping name -> symbol or
an iterable of symbols) to bind them at once, keeping their assumptions.
"""
from __future__ import annotations

import re
import warnings
from dataclasses import dataclass
from typing import Any, Iterable, Mapping

import sympy as sp

from .domain import ClaimError

_SUB = re.compile(r"_\{([^{}]*)\}")


class LatexError(ClaimError):
    """LaTeX the parser cannot read (or read into something that is not an expression)."""


@dataclass(frozen=True)
class Latex:
    """A side of a statement written as the paper's LaTeX: ``Inequality("(7)", lhs=..., rhs=Latex(r"\\frac{L R^2}{4T}"))``.

    ``symbols``: optional binding of names to symbols (see :func:`latex`)."""

    text: str
    symbols: Any = None

    def __post_init__(self):
        if not isinstance(self.text, str) or not self.text.strip():
            raise LatexError(f"Latex: text must be a non-empty string, got {self.text!r}")

    def parse(self) -> sp.Basic:
        return latex(self.text, symbols=self.symbols)


def _binding(symbols) -> dict[str, sp.Symbol]:
    if symbols is None:
        return {}
    params = getattr(symbols, "params", None)
    if params is not None:                       # a Domain: its parameters, matched by name
        return {name: sp.Symbol(name) for name in params}
    if isinstance(symbols, Mapping):
        return {str(k): v for k, v in symbols.items()}
    if isinstance(symbols, Iterable):
        return {s.name: s for s in symbols}
    raise LatexError(f"symbols must be a Domain, a mapping name -> symbol or symbols, got {symbols!r}")


def _where(text: str, line: int, column: int) -> tuple[int, int, str]:
    """(line, column, the line with a caret under the column); the end of the text at end of input."""
    rows = text.splitlines() or [text]
    if line < 1 or column < 1:                    # unexpected end of input
        line, column = len(rows), len(rows[-1]) + 1
    return line, column, f"{rows[line - 1]}\n{' ' * (column - 1)}^"


def latex(text: str, *, symbols=None) -> sp.Basic:
    """Parse ``text`` (one expression or one relation) and bind its symbols; see the module docstring."""
    if not isinstance(text, str) or not text.strip():
        raise LatexError(f"LaTeX must be a non-empty string, got {text!r}")
    try:
        from lark.exceptions import UnexpectedInput, VisitError
        from sympy.parsing.latex import parse_latex
    except ImportError:  # pragma: no cover - lark is a dependency
        raise LatexError("LaTeX statements need the lark parser: pip install lark") from None
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            parsed = parse_latex(text, backend="lark")
    except UnexpectedInput as exc:
        token = getattr(exc, "token", None) or getattr(exc, "char", None) or "end of input"
        line, column, caret = _where(text, exc.line, exc.column)
        raise LatexError(f"cannot parse LaTeX {text!r} at line {line}, column {column} "
                         f"(token {str(token)!r}):\n{caret}") from None
    except VisitError as exc:
        raise LatexError(f"cannot read LaTeX {text!r}: {type(exc.orig_exc).__name__}: {exc.orig_exc} "
                         f"(in the part {getattr(exc.obj, 'data', '?')!s}); write that part more explicitly, "
                         f"e.g. with \\cdot between factors") from None
    except Exception as exc:   # SymPy's own parser errors (LaTeXParsingError and others)
        raise LatexError(f"cannot read LaTeX {text!r}: {exc}") from None
    if isinstance(parsed, (tuple, sp.Tuple)) or not isinstance(parsed, sp.Basic) or parsed.has(sp.Tuple):
        raise LatexError(f"cannot read LaTeX {text!r}: two factors side by side before a function read as a "
                         f"pair ({parsed}); write the product with \\cdot (e.g. d \\cdot \\log(1/\\delta))")
    bound = _binding(symbols)
    subs = {}
    for s in parsed.free_symbols:
        name = _SUB.sub(r"_\1", str(s.name))
        if name in bound:
            subs[s] = bound[name]
        elif name == "e":
            subs[s] = sp.E
        elif name != s.name or type(s.name) is not str:
            subs[s] = sp.Symbol(name)
    return parsed.xreplace(subs) if subs else parsed


def relation_sides(text: str, *, symbols=None, allowed=("<=", "<", ">=", ">")) -> tuple[sp.Expr, sp.Expr, bool]:
    """``(lhs, rhs, strict)`` of a LaTeX relation read as ``lhs <= rhs`` (a ``\\ge`` is turned round)."""
    if allowed == ("==",):       # an identity: SymPy would evaluate Eq(a*b, b*a) to True, so read each side
        depth, cut = 0, []
        for i, ch in enumerate(text):
            depth += ch in "{(" and 1 or (ch in "})" and -1 or 0)
            if ch == "=" and depth == 0:
                cut.append(i)
        if len(cut) != 1:
            raise LatexError(f"LaTeX {text!r} is not one equation lhs = rhs ({len(cut)} top-level '=')")
        return (latex(text[:cut[0]], symbols=symbols), latex(text[cut[0] + 1:], symbols=symbols), False)
    rel = latex(text, symbols=symbols)
    if not isinstance(rel, sp.core.relational.Relational) or rel.rel_op not in allowed:
        raise LatexError(f"LaTeX {text!r} is not a relation with one of {', '.join(allowed)} "
                         f"(it reads as {rel})")
    if rel.rel_op in (">=", ">"):
        return rel.rhs, rel.lhs, rel.rel_op == ">"
    return rel.lhs, rel.rhs, rel.rel_op == "<"
