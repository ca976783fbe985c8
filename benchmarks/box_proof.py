"""What the opt-in box proof (``--prove-box``) upgrades, and what it costs, paper by paper.

For each paper, the claims expected ``holds`` are checked once with ``--prove-box``; the script
prints how many become ``verified`` on the box (scope "box: ..."), how many inequality statements
the box proof ran on and proved, the seconds its evidence reports (the time it adds), and any
wrong-side box (a candidate counterexample: a paper error or a bug to look at).

    python benchmarks/box_proof.py [--paper KEY ...] [--jobs 2] [--page PATH]
"""
from __future__ import annotations

import argparse
import json
import subprocess
import sys
import time


def run(paper: str, jobs: int) -> dict:
    from dpverify import registry

    ids = [c.id for c in registry.all_claims(paper) if c.expected == "holds"]
    t0 = time.perf_counter()
    out = subprocess.run([sys.executable, "-m", "dpverify", "check", *ids, "--prove-box", "--json", "--no-progress",
                          "--jobs", str(jobs), "--no-cache"], capture_output=True, text=True)
    wall = time.perf_counter() - t0
    verdicts = [v for v in json.loads(out.stdout) if "id" in v]
    box = [e for v in verdicts for e in v["evidence"] if e["kind"] == "boxproof"]
    return {"paper": paper, "holds_claims": len(ids), "wall": wall,
            "upgraded": [v["id"] for v in verdicts if v["verdict"] == "verified"
                         and (v.get("scope") or "").startswith("box")],
            "tried": len(box), "proved": sum(e["verdict"] == "verified" for e in box),
            "box_seconds": sum(e["seconds"] for e in box),
            "wrong_side": [v["id"] for v in verdicts for e in v["evidence"]
                           if e["kind"] == "boxproof" and (e.get("data") or {}).get("wrong_side_boxes")],
            "not_ok": [v["id"] for v in verdicts if not v["ok"]]}


# the page --page writes (benchmarks/mdpage.py)
PAGE = dict(
    title='What the proofs on the search box upgrade',
    about=(
        "Each paper's claims expected `holds`, checked with `--prove-box`: how many become "
        '`verified` on the box, how many inequality statements the box proof ran on and proved, the '
        'seconds it adds, and any wrong-side box.'
    ),
)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--paper", nargs="*", default=["dni", "pur", "erm", "stage", "hdp"])
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--page", metavar="PATH", help="also write the result as a Markdown page (docs/measurements/box-proof.md)")
    ns = ap.parse_args()
    from mdpage import recording          # benchmarks/ is the script's folder
    with recording(ns.page, **PAGE):
        rows = [run(p, ns.jobs) for p in ns.paper]
        print(f"{'paper':6s} {'holds':>5s} {'upgraded':>8s} {'proved/tried':>12s} {'box s':>7s} {'wall s':>7s}  wrong-side")
        for r in rows:
            print(f"{r['paper']:6s} {r['holds_claims']:5d} {len(r['upgraded']):8d} {r['proved']:5d}/{r['tried']:<6d} "
                  f"{r['box_seconds']:7.1f} {r['wall']:7.1f}  {r['wrong_side'] or '-'}")
        total = sum(r["holds_claims"] for r in rows)
        print(f"upgraded {sum(len(r['upgraded']) for r in rows)} of {total} holds claims: "
              f"{[u for r in rows for u in r['upgraded']]}; box proof time {sum(r['box_seconds'] for r in rows):.0f} s")
        return 1 if any(r["not_ok"] for r in rows) else 0


if __name__ == "__main__":
    raise SystemExit(main())
