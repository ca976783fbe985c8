"""Every registered claim, collected from the modules of the ``theorems`` package.

A paper module exposes ``CLAIMS``: a tuple of :class:`~dpverify.spec.Claim`. Adding a paper is
adding a module and naming it in ``PAPERS``.
"""
from __future__ import annotations

import importlib

from .spec import Claim

PAPERS = ("dni",)


def _modules():
    for key in PAPERS:
        yield importlib.import_module(f"theorems.{key}")


def all_claims(paper: str | None = None) -> list[Claim]:
    if paper is not None and paper not in PAPERS:
        raise ValueError(f"unknown paper {paper!r}; registered papers: {', '.join(PAPERS)}")
    out: list[Claim] = []
    for mod in _modules():
        out.extend(mod.CLAIMS)
    if paper is not None:
        out = [c for c in out if c.paper == paper]
    return out


def get(claim_id: str) -> Claim:
    for c in all_claims():
        if c.id == claim_id:
            return c
    known = [c.id for c in all_claims()]
    close = [k for k in known if claim_id.split("/")[-1] in k]
    hint = f" Did you mean {', '.join(close[:3])}?" if close else ""
    raise KeyError(f"unknown claim id {claim_id!r}.{hint} See `dpverify list`.")
