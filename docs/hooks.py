"""MkDocs hooks: pages generated from the code, so that they cannot go stale.

* ``reference/scenarios.md``: every ready-made scenario of :mod:`dpverify.scenarios` -- its signature,
  the parameters it requires and accepts (the scenario class's ``REQUIRED``/``OPTIONAL``), its module's
  documentation (algorithm, problem classes, statistics) and the basis its evidence can carry
  (from the methods the class implements).
* ``guide/how-checks-decide.md``: the check kinds' table (:data:`dpverify.checks.KINDS`: what each applies to
  and tests, whether it refutes, supports or proves, its certificate or why none) and each kind's module
  documentation, in the order the kinds run;
* ``errata.md``: the errata table of the five papers, the README's generated block (``dpverify report
  --errata --update README.md`` writes it; a test keeps it equal to the claims).
"""
from __future__ import annotations

import dataclasses
import importlib
import inspect
import pathlib
import re
import textwrap

SCENARIOS_MARK = "<!-- generated: scenarios -->"
ERRATA_MARK = "<!-- generated: errata -->"
CLI_MARK = "<!-- generated: cli -->"
KINDS_MARK = "<!-- generated: check-kinds -->"
API_RE = re.compile(r"<!-- generated: api ([\w. ]+) -->")
MODULES_RE = re.compile(r"<!-- generated: modules ([\w. ]+) -->")
ROOT = pathlib.Path(__file__).resolve().parent.parent


def _overrides(cls, name: str) -> bool:
    from dpverify.scenarios import Scenario
    mine = getattr(cls, name, None)
    return mine is not None and mine is not getattr(Scenario, name, None)


def _basis(cls) -> list[str]:
    kinds = []
    if _overrides(cls, "exact"):
        kinds.append("`exact-expectation` (an `ExpectationBound`: the algorithm's expectation computed exactly)")
    if _overrides(cls, "monte_carlo"):
        kinds.append("`monte-carlo` (an `ExpectationBound`: runs with one-sided confidence bounds)")
    if _overrides(cls, "measure"):
        kinds.append("`worst-case`, or `privacy-exact` / `privacy-upper` / `privacy-lower` / `privacy-estimate` "
                     "by the direction of the `Measured` it returns (a `SupBound`)")
    return kinds or ["(the statement's own check)"]


def _plain(doc: str | None) -> str:
    """A docstring as Markdown: reST's ``x`` becomes `x`; literal blocks after '::' become code blocks."""
    doc = inspect.cleandoc(doc or "")
    out, in_code = [], False
    for line in doc.splitlines():
        if in_code and line and not line.startswith(" "):
            out.append("```")
            in_code = False
        if line.rstrip().endswith("::") and not in_code:
            out.append(line.rstrip()[:-1])
            out.append("")
            out.append("```python")
            in_code = True
            continue
        if line.startswith(">>> ") and not in_code:
            out.append("```python")
            in_code = True
        out.append(textwrap.dedent(line) if in_code else line)
    if in_code:
        out.append("```")
    text = "\n".join(out).replace("``", "`")
    return text.replace(":class:", "").replace(":mod:", "").replace(":data:", "").replace(":func:", "")


def scenarios_markdown() -> str:
    import dpverify.scenarios as sc

    parts = []
    for name in sorted(n for n in sc.__all__ if n[0].islower() and inspect.isfunction(getattr(sc, n))):
        fn = getattr(sc, name)
        ret = inspect.signature(fn).return_annotation
        cls = getattr(sc, ret, None) if isinstance(ret, str) else ret
        if not (inspect.isclass(cls) and issubclass(cls, sc.Scenario)):
            continue
        sig = str(inspect.signature(fn)).replace("'", "")
        parts.append(f"## `{name}`\n")
        parts.append(f"```python\n{name}{sig}\n```\n")
        parts.append(_plain(fn.__doc__) + "\n")
        req, opt = getattr(cls, "REQUIRED", ()), getattr(cls, "OPTIONAL", ())
        if req or opt:
            parts.append("| parameter | |\n|---|---|")
            parts.extend(f"| `{p}` | required |" for p in req)
            parts.extend(f"| `{p}` | optional |" for p in opt)
            parts.append("\nEach parameter is an expression in the claim's own symbols.\n")
        parts.append("**Basis of its evidence:** " + "; ".join(_basis(cls)) + ".\n")
        mod = inspect.getmodule(cls)
        if mod is not None and mod.__doc__:
            parts.append(f"??? note \"The algorithm, its problem classes and statistics (`{mod.__name__}`)\"\n")
            parts.append(textwrap.indent(_plain(mod.__doc__), "    ") + "\n")
    return "\n".join(parts)


def _yes(flag: bool) -> str:
    return "yes" if flag else "no"


def check_kinds_markdown() -> str:
    """The check kinds' table, from their declarations, then each kind's module documentation."""
    from dpverify.checks import KINDS
    from dpverify.verdict import BASIS_KINDS

    rows = ["| kind | what it does | evidence named | runs | basis kinds | refutes | supports | proves | tests only the printed "
            "expressions | certificate of a violation |", "|---|---|---|---|---|---|---|---|---|---|"]
    for k in KINDS:
        label = "the statement's `kind`" if callable(k.label) else f"`{k.label_for(None)}`"
        runs = {"statement": "on each statement", "fallback": "after the others, where none decided",
                "claim": "once per claim"}[k.stage] + (" (opt-in)" if k.enabled is not None else "")
        cert = f"`{k.certificate}`" if k.certificate else (k.no_certificate or "(never refutes)")
        rows.append(f"| `{k.name}` | {k.summary} | {label} | {runs} | {', '.join(f'`{b}`' for b in k.basis_kinds)} | "
                    f"{_yes(k.can_refute)} | {_yes(k.can_support)} | {_yes(k.can_prove)} | {_yes(k.algebraic)} | "
                    f"{cert} |")
    parts = ["\n".join(rows) + "\n", "Basis kinds, strongest first:\n"]
    parts += [f"* `{b.name}`: {b.text}" + ("" if b.supports else " -- never supports a verdict alone")
              for b in BASIS_KINDS.values()]
    parts.append("")
    modules = {}     # a kind's modules: where its applies and its check live
    for k in KINDS:
        for m in (k.applies.__module__, k.check.__module__):
            modules.setdefault(m, []).append(k.name)
    for name, kinds in modules.items():
        mod = importlib.import_module(name)
        kinds = ", ".join(f"`{n}`" for n in dict.fromkeys(kinds))
        parts.append(f"## `{name.rpartition('.')[2]}` ({kinds})\n")
        parts.append(_plain(mod.__doc__) + "\n")
    return "\n".join(parts)


def errata_markdown() -> str:
    from dpverify import report

    readme = (ROOT / "README.md").read_text()
    if report.ERRATA_BEGIN not in readme:
        raise RuntimeError("README.md has no errata block")
    return readme.split(report.ERRATA_BEGIN, 1)[1].split(report.ERRATA_END, 1)[0]


def _resolve(dotted: str):
    mod, _, name = dotted.rpartition(".")
    try:
        return getattr(importlib.import_module(mod), name)
    except (ImportError, AttributeError):
        return importlib.import_module(dotted)


def _signature(name: str, obj) -> str:
    if dataclasses.is_dataclass(obj):
        fields = []
        for f in dataclasses.fields(obj):
            if f.name.startswith("_"):
                continue
            default = "" if f.default is dataclasses.MISSING and f.default_factory is dataclasses.MISSING else (
                f" = {f.default!r}" if f.default is not dataclasses.MISSING else " = ...")
            fields.append(f"{f.name}{default}")
        return f"{name}(" + ", ".join(fields) + ")"
    try:
        return f"{name}{inspect.signature(obj)}".replace("'", "")
    except (TypeError, ValueError):
        return name


def api_markdown(names: list[str]) -> str:
    """One section per public name: its signature (a dataclass's fields) and its docstring."""
    parts = []
    for dotted in names:
        obj = _resolve(dotted)
        short = dotted.rpartition(".")[2]
        parts.append(f"### `{short}`\n")
        if callable(obj):
            parts.append(f"```python\n{_signature(short, obj)}\n```\n")
        parts.append(_plain(obj.__doc__) + "\n")
        if inspect.isclass(obj):
            for meth, fn in vars(obj).items():
                if meth.startswith("_") or not (inspect.isfunction(fn) or isinstance(fn, (classmethod, property))):
                    continue
                fn = fn.__func__ if isinstance(fn, classmethod) else fn
                doc = fn.__doc__ if not isinstance(fn, property) else fn.fget.__doc__
                if doc:
                    parts.append(f"**`{short}.{meth}`** -- " + _plain(doc).split("\n\n")[0] + "\n")
    return "\n".join(parts)


def modules_markdown(names: list[str]) -> str:
    parts = []
    for dotted in names:
        mod = importlib.import_module(dotted)
        parts.append(f"## `{dotted.rpartition('.')[2]}`\n")
        parts.append(_plain(mod.__doc__) + "\n")
    return "\n".join(parts)


def cli_markdown() -> str:
    """Every subcommand's ``--help``, from the parser the command line uses."""
    import argparse

    from dpverify.cli import build_parser

    parser = build_parser()
    sub = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    parts = [f"```text\n{parser.format_help()}```\n"]
    for name, p in sub.choices.items():
        parts.append(f"## `dpverify {name}`\n\n```text\n{p.format_help()}```\n")
    return "\n".join(parts)


def on_page_markdown(markdown, page, config, files):
    markdown = markdown.replace(CLI_MARK, cli_markdown()) if CLI_MARK in markdown else markdown
    markdown = API_RE.sub(lambda m: api_markdown(m.group(1).split()), markdown)
    markdown = MODULES_RE.sub(lambda m: modules_markdown(m.group(1).split()), markdown)
    if SCENARIOS_MARK in markdown:
        markdown = markdown.replace(SCENARIOS_MARK, scenarios_markdown())
    if KINDS_MARK in markdown:
        markdown = markdown.replace(KINDS_MARK, check_kinds_markdown())
    if ERRATA_MARK in markdown:
        markdown = markdown.replace(ERRATA_MARK, errata_markdown())
    return markdown
