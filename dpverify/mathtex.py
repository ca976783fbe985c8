"""Statements as LaTeX maths, for the LaTeX errata and the HTML report (rendered there by KaTeX).

* :func:`tex_math`: one SymPy expression by ``sympy.latex``, when every name in it is plain (letters,
  digits, subscripts); an expression with any other name (a symbol named ``\\input{...}``) is shown
  as escaped text in ``\\text{\\texttt{...}}`` instead (LaTeX: amsmath's ``\\text``; KaTeX knows no ``\\mbox``), so that no name read from a claim reaches LaTeX or KaTeX as
  markup;
* :func:`statement_tex`: a statement (``Identity``, ``Inequality``, ``Rate``, ``Limit``,
  ``ExpectationBound``, ``SupBound``, ``Minimiser``) as one relation, by duck typing (the fields
  its ``expressions()`` names);
* :func:`prose_tex`: a claim's summary (prose with ASCII maths, ``rho <= R/2``) as LaTeX text whose
  relations, arrows and Greek letters are maths (``$\\rho$ $\\le$ R/2``), every other character
  escaped by :func:`dpverify.escape.tex_text`.
"""
from __future__ import annotations

import re

from .escape import tex_text

__all__ = ["prose_tex", "statement_tex", "tex_math"]

#: names that ``sympy.latex`` prints as themselves (letters, digits, subscripts)
TEX_NAME = re.compile(r"[A-Za-z][A-Za-z0-9]*(?:_(?:[A-Za-z0-9]+|\{[A-Za-z0-9]+\}))*'*")


def tex_math(expr) -> str:
    """``expr`` as LaTeX maths (without ``$``): ``sympy.latex`` when every name in it is plain and SymPy
    can print it (its printer raises on some expressions, e.g. ``Max`` of ``zoo``), else its text,
    escaped, in ``\\texttt``."""
    import sympy as sp
    from sympy.core.function import AppliedUndef

    try:
        expr = sp.sympify(expr)
        names = {str(a) for a in expr.atoms(sp.Symbol, sp.IndexedBase)} | \
            {type(f).__name__ for f in expr.atoms(AppliedUndef)}
        if all(TEX_NAME.fullmatch(n) for n in names):
            return sp.latex(expr)
    except Exception:  # noqa: BLE001 - SymPy's printer failing on an expression is not the report's failure
        pass
    try:
        text = sp.sstr(expr)
    except Exception:  # noqa: BLE001
        text = str(expr)
    return r"\text{\texttt{" + tex_text(text) + "}}"


def _word(value, default: str) -> str:
    """A short word (a statement's kind: "privacy") for ``\\text{...}``: letters, digits, spaces and
    ``-`` only, else ``default``."""
    return value if isinstance(value, str) and re.fullmatch(r"[A-Za-z0-9 \-]{1,40}", value) else default


def statement_tex(st) -> str | None:
    """The statement ``st`` as one LaTeX relation (no ``$``), or None when it has no expressions to show."""
    ex = st.expressions()
    exists = tuple(getattr(st, "exists", ()) or ())
    head = "".join(r"\exists\, " + tex_math(q) + r":\ " for q in exists)
    if {"lhs", "rhs"} <= set(ex):
        rel = r"<" if getattr(st, "strict", False) else (r"=" if type(st).__name__ == "Identity" else r"\le")
        return f"{head}{tex_math(ex['lhs'])} {rel} {tex_math(ex['rhs'])}"
    if {"expr", "rate"} <= set(ex):
        op = r"\Theta" if getattr(st, "kind", "") == "Theta" else r"\mathcal{O}"
        return f"{tex_math(ex['expr'])} = {op}\\left({tex_math(ex['rate'])}\\right)"
    if {"expr", "value"} <= set(ex) and getattr(st, "path", None) is not None:
        path = st.path
        to = r"\infty" if path.to == "inf" else "0^{+}"
        return rf"\lim_{{{tex_math(path.param)} \to {to}}} {tex_math(ex['expr'])} = {tex_math(ex['value'])}"
    if set(ex) == {"rate"} and getattr(st, "scenario", None) is not None:   # an AlgorithmRate
        op = r"\Theta" if getattr(st, "kind", "") == "Theta" else r"\mathcal{O}"
        return rf"\operatorname{{E}}[\text{{statistic}}] = {op}\left({tex_math(ex['rate'])}\right)"
    if {"objective", "value"} <= set(ex):
        return rf"\min\ {tex_math(ex['objective'])} = {tex_math(ex['value'])}"
    if "bound" in ex:
        if type(st).__name__ == "ExpectationBound":
            lhs = r"\operatorname{E}[\text{statistic}]"
        else:
            lhs = r"\sup\ \text{" + _word(getattr(st, "kind", ""), "measured") + "}"
        return f"{head}{lhs} \\le {tex_math(ex['bound'])}"
    return None


_GREEK = ("alpha beta gamma delta epsilon varepsilon zeta eta theta vartheta iota kappa lambda mu nu xi pi rho "
          "sigma tau upsilon phi varphi chi psi omega Gamma Delta Theta Lambda Xi Pi Sigma Upsilon Phi Psi "
          "Omega").split()
_PROSE = re.compile(
    r"(?P<rel><=|>=|!=|->|<-|<|>)"
    r"|\b(?P<greek>" + "|".join(sorted(_GREEK, key=len, reverse=True)) + r")(?P<gsub>\d+|_[A-Za-z0-9]+)?\b")
_REL = {"<=": r"\le", ">=": r"\ge", "!=": r"\ne", "->": r"\to", "<-": r"\gets", "<": "<", ">": ">"}


def prose_tex(text) -> str:
    """``text`` (prose with ASCII maths) as LaTeX text: ``<=``, ``>=``, ``!=``, ``<``, ``>``, ``->`` and
    Greek letters' names (with a numeric or ``_x`` subscript: ``eta0``, ``sigma_t``) become maths;
    everything else is escaped (:func:`dpverify.escape.tex_text`)."""
    text = str(text)
    out, at = [], 0
    for m in _PROSE.finditer(text):
        out.append(tex_text(text[at:m.start()]))
        if m.group("rel"):
            out.append(f"${_REL[m.group('rel')]}$")
        else:
            sub = (m.group("gsub") or "").lstrip("_")
            out.append(f"$\\{m.group('greek')}" + (f"_{{{sub}}}" if sub else "") + "$")
        at = m.end()
    out.append(tex_text(text[at:]))
    return "".join(out)
