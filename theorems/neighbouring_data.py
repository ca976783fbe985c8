"""The neighbouring-data check (:mod:`dpverify.checks.neighbours`) on every privacy claim of the papers, with the
declarations each paper keeps beside its claims (``theorems/<key>/inputs.py``: ``INPUTS``, claim id ->
``ReleaseInputs``; ``NOT_DECLARED``, claim id -> why; ``FINDINGS``, claim id -> the line of the text a refutation
rests on).

    python -m theorems.neighbouring_data            # the table, one row per privacy statement
    python -m theorems.neighbouring_data pur/prop-4a --witness   # one claim, with its witness
"""
from __future__ import annotations

import argparse
import importlib
import json
import sys

from dpverify import registry
from dpverify.checks import Config
from dpverify.checks import neighbours as nbr
from dpverify.claims import SupBound

PAPERS = ("dni", "erm", "hdp", "pur", "stage")


def declarations(key: str):
    """The paper ``key``'s ``inputs`` module."""
    return importlib.import_module(f"theorems.{key}.inputs")


def privacy_claims(key: str) -> list:
    """The claims of paper ``key`` with a privacy statement, in printed order."""
    return [c for c in registry.paper_module(key).CLAIMS
            if any(isinstance(s, SupBound) and s.kind == "privacy" for s in c.statements)]


def _declared(decl) -> str:
    derived = ", ".join(f"{k} ({d.note})" if d.note else k for k, d in decl.derived)
    return f"derived: {derived}" if derived else "none (all public)"


def _declared_claim(claim, decl):
    """``claim`` with ``decl`` on its privacy statements (as it is, where it already carries ``decl``)."""
    carried = [s.inputs for s in claim.statements if isinstance(s, SupBound) and s.kind == "privacy"]
    return claim if carried and all(c is decl for c in carried) else nbr.with_inputs(claim, decl)


def rows(ids=None, config: Config | None = None) -> list[dict]:
    """One row per privacy statement: claim id, statement, the derived inputs, the check's verdict and detail."""
    cfg = config or Config()
    out = []
    for key in PAPERS:
        mod = declarations(key)
        for claim in privacy_claims(key):
            if ids and claim.id not in ids:
                continue
            decl = mod.INPUTS.get(claim.id)
            stmts = [s for s in claim.statements if isinstance(s, SupBound) and s.kind == "privacy"]
            if decl is None:
                why = mod.NOT_DECLARED.get(claim.id, "MISSING: no declaration")
                out += [{"id": claim.id, "statement": s.name, "derived": "-", "verdict": "not declared",
                         "detail": why, "witness": None} for s in stmts]
                continue
            declared = _declared_claim(claim, decl)
            for s in declared.statements:
                if isinstance(s, SupBound) and s.kind == "privacy":
                    ev = nbr.check(s, declared, cfg)
                    out.append({"id": claim.id, "statement": s.name, "derived": _declared(decl),
                                "verdict": ev.verdict, "detail": ev.detail,
                                "witness": ev.data.get("witness"), "text": mod.FINDINGS.get(claim.id, "")})
    return out


def noise_only_rows(config: Config | None = None) -> list[dict]:
    """The papers' second readings (``NOISE_ONLY``: the number of iterations given, the noise schedule still derived)."""
    cfg = config or Config()
    out = []
    for key in PAPERS:
        for cid, decl in getattr(declarations(key), "NOISE_ONLY", {}).items():
            declared = nbr.with_inputs(registry.get(cid), decl)
            for s in declared.statements:
                if isinstance(s, SupBound) and s.kind == "privacy":
                    ev = nbr.check(s, declared, cfg)
                    out.append({"id": f"{cid} (T given)", "statement": s.name, "derived": _declared(decl),
                                "verdict": ev.verdict, "detail": ev.detail, "witness": ev.data.get("witness")})
    return out


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(prog="python -m theorems.neighbouring_data", description=__doc__.splitlines()[0])
    ap.add_argument("ids", nargs="*", help="claim ids (default: every privacy claim of the papers)")
    ap.add_argument("--witness", action="store_true", help="print each refutation's witness")
    ap.add_argument("--json", action="store_true", help="the rows as JSON")
    ap.add_argument("--seed", type=int, default=Config().seed, help="the run's seed")
    args = ap.parse_args(argv)
    out = rows(set(args.ids) or None, Config(seed=args.seed))
    if not args.ids:
        out += noise_only_rows(Config(seed=args.seed))
    if args.json:
        print(json.dumps(out, indent=1, default=str))
        return 0
    print("| claim | derived inputs | result |\n|---|---|---|")
    for r in out:
        print(f"| {r['id']} ({r['statement'][:40]}...) | {r['derived']} | {r['verdict']}: {r['detail'][:160]} |")
        if args.witness and r["witness"]:
            print(json.dumps(r["witness"], default=str))
    return 0


if __name__ == "__main__":
    sys.exit(main())
