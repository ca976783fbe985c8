"""How much of the registry is proved: per paper and per statement kind, of the claims that hold.

Usage::

    python benchmarks/proof_coverage.py [RUN.json] [--markdown] [--seed 0] [--page PATH]

Reads a run of ``dpverify check --all --json`` (or runs one, uncached, when no file is given) and the
registry's claims. Counts, over the claims whose expected verdict is ``holds`` or ``verified`` (the
claims that are true as printed or corrected), their statements by kind and how many a check proved
(some evidence of that statement with the verdict ``verified``), and the claims whose verdict is
``verified``. Kinds: ``analytic`` (Identity, Inequality, Minimiser), ``limit``, ``rate``,
``expectation`` (ExpectationBound), ``supremum`` (SupBound: privacy, sensitivity, stability, worst
case), ``chain`` (a claim that builds on others: its hypotheses chained). Each proof's scope
(``domain``, ``box: ...``, ``quadratics``, ...) is counted too: a proof on a box or on quadratics is
not one on the whole domain. The last column counts the expectation statements proved on their quadratics
(evidence on the basis ``proof-on-quadratics`` that holds: a ``holds``, not a ``verified``, where the claim's
class is wider), which the "proved" columns leave out.

Prints a table per paper and a total row; with ``--markdown``, Markdown tables for the docs page.
"""
from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
from collections import Counter, defaultdict
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

KINDS = ("analytic", "limit", "rate", "expectation", "supremum", "chain")
_OF_CLASS = {"Identity": "analytic", "Inequality": "analytic", "Minimiser": "analytic", "Limit": "limit",
             "Rate": "rate", "ExpectationBound": "expectation", "SupBound": "supremum"}


def _run(seed: int) -> list[dict]:
    env = {**os.environ, "DPVERIFY_CACHE": "0"}
    out = subprocess.run([sys.executable, "-m", "dpverify.cli", "check", "--all", "--json", "--no-timing",
                          "--no-progress", "--seed", str(seed)], capture_output=True, text=True, env=env)
    if out.returncode not in (0, 1):
        raise SystemExit(f"proof_coverage: check --all exited {out.returncode}: {out.stderr[-1000:]}")
    return json.loads(out.stdout)


def tally(run: list[dict]) -> dict:
    """Per paper: statements by kind (``total``/``proved``), proof scopes, and claims (``true``/``verified``)."""
    from dpverify import registry

    claims = {c.id: c for c in registry.all_claims()}
    table: dict = defaultdict(lambda: {"total": Counter(), "proved": Counter(), "quadratics": Counter(),
                                       "scopes": Counter(), "true": 0, "verified": 0})
    for v in run:
        cid = v.get("id")
        if cid not in claims or v.get("expected") not in ("holds", "verified"):
            continue
        claim, row = claims[cid], table[cid.split("/")[0]]
        row["true"] += 1
        row["verified"] += v.get("verdict") == "verified"
        proved = {e["statement"] for e in v.get("evidence", []) if e.get("verdict") == "verified"}
        on_quadratics = {e["statement"] for e in v.get("evidence", [])
                         if (e.get("basis") or {}).get("kind") == "proof-on-quadratics"
                         and e.get("verdict") in ("holds", "verified")}
        for s in claim.statements:
            kind = _OF_CLASS.get(type(s).__name__, type(s).__name__)
            row["total"][kind] += 1
            row["proved"][kind] += s.name in proved
            row["quadratics"][kind] += s.name in on_quadratics
        if claim.builds_on:
            row["total"]["chain"] += 1
            row["proved"]["chain"] += any(e.get("kind") == "chain" and e.get("verdict") == "verified"
                                          for e in v.get("evidence", []))
        if v.get("verdict") == "verified":
            row["scopes"][v.get("scope") or "domain"] += 1
    return table


def render(table: dict, markdown: bool) -> str:
    papers = sorted(table)
    total = {"total": Counter(), "proved": Counter(), "quadratics": Counter(), "scopes": Counter(), "true": 0,
             "verified": 0}
    for p in papers:
        for k in ("total", "proved", "quadratics", "scopes"):
            total[k].update(table[p][k])
        total["true"] += table[p]["true"]
        total["verified"] += table[p]["verified"]
    head = ["paper", "claims verified"] + [f"{k} proved" for k in KINDS] + ["statements proved",
                                                                            "expectation proved on quadratics"]
    rows = []
    for name, r in [(p, table[p]) for p in papers] + [("all", total)]:
        cells = [name, f"{r['verified']} of {r['true']}"]
        cells += [f"{r['proved'][k]} of {r['total'][k]}" for k in KINDS]
        cells.append(f"{sum(r['proved'].values())} of {sum(r['total'].values())}")
        cells.append(f"{r['quadratics']['expectation']} of {r['total']['expectation']}")
        rows.append(cells)
    if markdown:
        lines = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
        lines += ["| " + " | ".join(r) + " |" for r in rows]
    else:
        w = [max(len(h), *(len(r[i]) for r in rows)) for i, h in enumerate(head)]
        lines = ["  ".join(h.ljust(w[i]) for i, h in enumerate(head))]
        lines += ["  ".join(c.ljust(w[i]) for i, c in enumerate(r)) for r in rows]
    scopes = ", ".join(f"{n} {s}" for s, n in sorted(total["scopes"].items(), key=lambda x: -x[1]))
    lines.append("")
    lines.append(f"scopes of the verified claims: {scopes or 'none'}")
    return "\n".join(lines)


# the page --page writes (benchmarks/mdpage.py)
PAGE = dict(
    title='How much of the registry is proved',
    about=(
        'Per paper and per statement kind, over the claims that hold (as printed or corrected): the '
        "statements a check proved, with each proof's scope (the whole domain, a box, quadratics)."
    ),
)


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("run", nargs="?", help="a `dpverify check --all --json` output (default: run one)")
    ap.add_argument("--markdown", action="store_true")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--page", metavar="PATH", help="also write the result as a Markdown page (docs/measurements/proof-coverage.md)")
    ns = ap.parse_args(argv)
    from mdpage import recording          # benchmarks/ is the script's folder
    with recording(ns.page, **PAGE):
        run = json.loads(Path(ns.run).read_text()) if ns.run else _run(ns.seed)
        print(render(tally(run), ns.markdown))
        return 0


if __name__ == "__main__":
    sys.exit(main())
