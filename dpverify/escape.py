"""One escaping rule per output format: every field dpverify writes into HTML, Markdown, LaTeX, a
shell command line or Python source goes through the function of that format here, whatever it holds
(a verdict, an id, a number, a path, a witness value, a claim's text). Nothing printed for a browser, a
shell or an interpreter is trusted to be free of markup because of where it came from: a verdict may
come from a saved JSON file, a witness value from a claims file, a link target from a folder on disk.

* HTML (:func:`html_text`): ``& < > " '`` as entities (safe in text and in quoted attributes);
* Markdown (:func:`md_text`, :func:`md_code`): raw HTML shown as text (a tag's ``<``, an entity's
  ``&``), backslashes and backticks escaped, links neutralised (``](``, ``][`` and ``]:`` escaped), ``|``
  escaped and line breaks joined (a table cell stays one cell); a code span is fenced by more backticks
  than any run inside it;
* LaTeX (:func:`tex_text`): the ten special characters and ``< >`` as commands, control characters
  dropped;
* shell (:func:`shell_line`): every token through ``shlex.quote``;
* Python source (:func:`py_identifier`, :func:`py_literal`, :func:`py_docstring`): a name only when it is
  an ASCII identifier that is not a keyword, a value only as a literal that ``ast.literal_eval`` reads
  back equal, a docstring with every quote and backslash escaped;
* a link target (:func:`relative_link`): a relative path inside a given folder, percent-encoded.
"""
from __future__ import annotations

import ast
import html
import keyword
import os
import re
import shlex
from urllib.parse import quote

__all__ = ["html_text", "md_code", "md_text", "py_docstring", "py_identifier", "py_literal", "relative_link",
           "shell_line", "tex_text"]

#: control characters (C0 but tab and line feed, DEL, C1) and Unicode's line and paragraph separators
_CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f\u2028\u2029]")


def html_text(value) -> str:
    """``value`` as HTML text or a quoted attribute's value."""
    return html.escape(_CONTROL.sub("\ufffd", str(value)), quote=True)


_MD_TAG = re.compile(r"<(?=[A-Za-z/!?])")             # what would open a tag, a comment or a declaration
_MD_ENTITY = re.compile(r"&(?=#?\w+;)")               # what would read as an entity
_MD_LINK = re.compile(r"\](?=[(\[:])")                # what closes a link's text: ](url), ][ref], [ref]: url


def md_text(value) -> str:
    """``value`` as Markdown text (a table cell, a line): shown as written, never as markup that
    changes the page -- raw HTML is shown as text (``<=`` and ``a < b`` stay as they are), no link is
    formed, a backtick opens no code span, ``|`` ends no cell, a line break ends no line."""
    s = _CONTROL.sub(" ", str(value)).replace("\\", "\\\\").replace("`", "\\`")
    s = _MD_LINK.sub("\\\\]", _MD_TAG.sub("&lt;", _MD_ENTITY.sub("&amp;", s)))
    return s.replace("|", "\\|").replace("\r\n", " ").replace("\n", " ").replace("\r", " ")


def md_code(value, table: bool = True) -> str:
    """``value`` as a Markdown code span: fenced by one backtick more than its longest run of
    backticks (a backtick inside never closes it); in a table (``table``) ``|`` is escaped, which GFM
    removes again inside the span."""
    s = re.sub(r"[\r\n]+", " ", _CONTROL.sub(" ", str(value)))
    if table:
        s = s.replace("|", "\\|")
    fence = "`" * (max((len(r) for r in re.findall(r"`+", s)), default=0) + 1)
    if s.startswith("`") or s.endswith("`") or (s.startswith(" ") and s.endswith(" ") and s.strip()):
        s = f" {s} "
    return f"{fence}{s}{fence}"


_TEX = {"\\": r"\textbackslash{}", "&": r"\&", "%": r"\%", "$": r"\$", "#": r"\#", "_": r"\_", "{": r"\{",
        "}": r"\}", "~": r"\textasciitilde{}", "^": r"\textasciicircum{}", "<": r"\textless{}", ">": r"\textgreater{}",
        "\n": " ", "\r": " ", "\t": " "}


def tex_text(value) -> str:
    """``value`` as LaTeX text (safe in a table cell, in ``\\texttt`` and in ``\\mbox``)."""
    return "".join(_TEX.get(ch, ch) for ch in _CONTROL.sub("", str(value)))


def shell_line(*tokens) -> str:
    """A command line whose every token a POSIX shell reads back as given (``shlex.quote``)."""
    return " ".join(shlex.quote(str(t)) for t in tokens)


def py_identifier(name, what: str = "name") -> str:
    """``name`` if it is an ASCII Python identifier and not a keyword (so it can be written into
    generated source as a name); otherwise ``ValueError`` naming ``what`` and the value."""
    if not isinstance(name, str) or not name.isascii() or not name.isidentifier() or keyword.iskeyword(name) \
            or keyword.issoftkeyword(name):
        raise ValueError(f"{what} {name!r} is not a Python identifier (ASCII letters, digits and '_', not a keyword)")
    return name


def py_literal(value, what: str = "value") -> str:
    """``repr(value)`` when Python reads it back, as a literal, equal to ``value`` (strings, numbers,
    booleans, None, and tuples, lists, dicts and sets of them); otherwise ``ValueError`` naming ``what``."""
    text = repr(value)
    try:
        back = ast.literal_eval(text)
    except (ValueError, SyntaxError, TypeError, MemoryError, RecursionError):
        raise ValueError(f"{what} {text[:80]} is not a Python literal") from None
    if back != value or type(back) is not type(value):
        raise ValueError(f"{what} {text[:80]} does not read back as itself")
    return text


def py_docstring(text: str) -> str:
    """A triple-quoted string literal holding ``text`` exactly (line breaks kept; quotes, backslashes
    and other control characters escaped), for the head of a generated module."""
    out = []
    for ch in str(text):
        if ch == "\\":
            out.append("\\\\")
        elif ch == '"':
            out.append('\\"')
        elif ch == "\n" or ch == "\t" or (" " <= ch and ch != "\x7f"):
            out.append(ch)
        else:
            out.append(f"\\x{ord(ch):02x}" if ord(ch) < 256 else f"\\u{ord(ch):04x}")
    literal = '"""' + "".join(out) + '"""'
    if ast.literal_eval(literal) != str(text):   # pragma: no cover - the rule above is complete
        raise ValueError("py_docstring: the text does not read back as itself")
    return literal


def relative_link(folder: str, target: str, relative_to: str = ".") -> str | None:
    """The link, from the folder ``relative_to``, to ``target`` given relative to ``folder`` -- or
    None when ``target`` is not a plain relative path inside ``folder`` (absolute, with ``..``, a URL
    such as ``javascript:...``, a control character). Percent-encoded: safe in an ``href`` and in a
    Markdown link."""
    if not isinstance(target, str) or not target or _CONTROL.search(target) or "\\" in target \
            or os.path.isabs(target) or ":" in target:
        return None
    parts = [p for p in target.split("/") if p not in ("", ".")]
    if not parts or ".." in parts:
        return None
    full = os.path.join(os.path.abspath(folder), *parts)
    rel = os.path.relpath(full, os.path.abspath(relative_to)).replace(os.sep, "/")
    return quote(rel, safe="/")
