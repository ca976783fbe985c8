"""A Griffe extension: dpverify's docstrings, plain text with a little reStructuredText, read as Markdown.

mkdocstrings renders the reference pages from the docstrings (``docstring_style: null``: a docstring is
Markdown). They are written as plain text in which ``code`` already reads as Markdown, but three pieces of
reST would show as written: roles (``:func:`x```, ``:class:`~a.B```), the ``::`` that ends the line before
a literal block (the indented block itself is a Markdown code block already), and doctest lines not so
introduced. This turns them into a code span, a ``:`` and a fenced Python block, and changes nothing else.
"""
from __future__ import annotations

import re

from griffe import Extension

ROLE = re.compile(r":(?:func|class|mod|meth|attr|data|exc|obj|const):`(~?)([^`]+)`")


def _role(m: re.Match) -> str:
    target = m.group(2)
    return f"`{target.rsplit('.', 1)[-1] if m.group(1) else target}`"


def markdown(text: str) -> str:
    """``text`` (a docstring) with reST roles, ``::`` markers and bare doctest runs as Markdown."""
    text = ROLE.sub(_role, text)
    out: list[str] = []
    in_doctest = False
    for line in text.splitlines():
        if line.rstrip().endswith("::"):
            head = line.rstrip()[:-2].rstrip()
            line = head + ":" if head else ""
        bare_prompt = line.startswith(">>> ")
        if bare_prompt and not in_doctest and not (out and out[-1].startswith("    ")):
            out.append("```python")
            in_doctest = True
        elif in_doctest and not line.strip():
            out.append("```")
            in_doctest = False
        out.append(line)
    if in_doctest:
        out.append("```")
    return "\n".join(out)


class ReSTMarkup(Extension):
    """Rewrite every docstring Griffe loads with :func:`markdown`."""

    def on_instance(self, *, obj, **kwargs) -> None:
        if obj.docstring is not None:
            obj.docstring.value = markdown(obj.docstring.value)
