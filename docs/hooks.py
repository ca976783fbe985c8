"""MkDocs hook: the command line's full help, from the parser it uses, at build time.

The reference pages' API detail is rendered from the docstrings by mkdocstrings (``::: name`` lines,
docstrings read through ``docs/griffe_rest.py``); the parts written into the pages that are generated from
the code (the errata table, the ready-made scenarios) are rewritten by ``dpverify report --errata --update``
and ``python docs/generate.py`` and kept equal to the code by tests. What remains here is the command
line's ``--help`` of every subcommand (``<!-- generated: cli -->`` in ``guide/cli.md``): argparse's layout
changes with the Python version, so it is made at build time rather than stored.
"""
from __future__ import annotations

import argparse

CLI_MARK = "<!-- generated: cli -->"


def cli_markdown() -> str:
    """Every subcommand's ``--help``, from the parser the command line uses."""
    from dpverify.cli import build_parser

    parser = build_parser()
    sub = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    parts = [f"```text\n{parser.format_help()}```\n"]
    for name, p in sub.choices.items():
        parts.append(f"## `dpverify {name}`\n\n```text\n{p.format_help()}```\n")
    return "\n".join(parts)


def on_page_markdown(markdown, page, config, files):
    return markdown.replace(CLI_MARK, cli_markdown()) if CLI_MARK in markdown else markdown
