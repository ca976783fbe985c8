"""Does any verdict change with the seed? Every registered claim and the textbook battery at seeds 0-9.

Usage::

    python benchmarks/seed_sweep.py [--seeds 0-9] [--jobs 2] [--paper KEY] [--no-textbook] [--out FILE] [--page PATH]

Runs ``dpverify check --all`` (and ``--module tests/textbook/claims.py`` and the hostile batteries
beside it) once per seed, the way a user does, and prints every claim (and every alternative reading of a claim) whose verdict
is not the same at every seed, with the verdict at each seed; then ``claims=N``, ``seeds=K``, ``seed_dependent=M``
and ``unexpected=U`` (claim-seed pairs whose verdict differs from the claim's expected one) as
``key=value`` lines. ``--out`` writes the whole table as JSON. Exit 1 when a verdict depends on the seed.
"""
from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
TEXTBOOK = [str(ROOT / "tests" / "textbook" / "claims.py")] + \
    sorted(str(p) for p in (ROOT / "tests" / "textbook").glob("hostile_*.py"))


def _seeds(text: str) -> list[int]:
    if "-" in text:
        a, b = text.split("-")
        return list(range(int(a), int(b) + 1))
    return [int(s) for s in text.split(",")]


def run(seed: int, jobs: int, paper: str | None, modules: list[str]) -> list[dict]:
    """The JSON of ``dpverify check --all`` at ``seed`` (papers, or the given claims files)."""
    cmd = [sys.executable, "-m", "dpverify", "check", "--all", "--json", "--no-timing", "--no-progress",
           "--seed", str(seed), "--jobs", str(jobs)]
    if paper:
        cmd += ["--paper", paper]
    for m in modules:
        cmd += ["--module", m]
    # every seed checked for real: the verdict cache neither read nor written
    out = subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True, env={**os.environ, "DPVERIFY_CACHE": "0"})
    if out.returncode not in (0, 1):
        raise SystemExit(f"seed {seed}: {' '.join(cmd)} failed ({out.returncode}):\n{out.stderr[-2000:]}")
    return json.loads(out.stdout)


# the page --page writes (benchmarks/mdpage.py)
PAGE = dict(
    title='Does a verdict change with the seed?',
    about=(
        'Every registered claim (and every alternative reading), and the textbook and hostile '
        'batteries, checked at several seeds as a user runs them; every verdict that is not the '
        'same at every seed is listed.'
    ),
    goals=[
    ('seed_dependent', '<=', 0, 'no verdict depends on the seed'),
    ('unexpected', '<=', 0, 'no verdict differs from its expected one'),
    ],
)


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seeds", default="0-9")
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--paper", default=None)
    ap.add_argument("--no-textbook", action="store_true")
    ap.add_argument("--out", default=None)
    ap.add_argument("--page", metavar="PATH", help="also write the result as a Markdown page (docs/measurements/seed-sweep.md)")
    args = ap.parse_args(argv)
    from mdpage import recording          # benchmarks/ is the script's folder
    with recording(args.page, **PAGE):
        seeds = _seeds(args.seeds)
        table: dict[str, dict] = {}
        t0 = time.perf_counter()
        batches = [(None, [])] if args.paper is None else [(args.paper, [])]
        if not args.no_textbook and args.paper is None:
            batches.append((None, [m for m in TEXTBOOK]))
        for seed in seeds:
            for paper, modules in batches:
                if modules:
                    rows = [r for r in run(seed, args.jobs, None, modules) if r["id"].startswith("textbook/")]
                else:
                    rows = run(seed, args.jobs, paper, [])
                for r in rows:
                    e = table.setdefault(r["id"], {"expected": r["expected"], "verdicts": {}})
                    e["verdicts"][seed] = r["verdict"]
                    for name, rd in (r.get("readings") or {}).items():   # a reading is a verdict of its own
                        e = table.setdefault(f"{r['id']} [reading: {name}]", {"expected": rd["expected"], "verdicts": {}})
                        e["verdicts"][seed] = rd["verdict"]
            print(f"seed {seed} done ({time.perf_counter() - t0:.0f} s)", file=sys.stderr, flush=True)
        moving = {k: v for k, v in table.items() if len(set(v["verdicts"].values())) > 1}
        unexpected = sum(1 for v in table.values() for s, vd in v["verdicts"].items()
                         if vd != v["expected"] and not (vd == "verified" and v["expected"] == "holds"))
        for cid, v in sorted(moving.items()):
            print(f"{cid}: expected {v['expected']}; " + ", ".join(f"seed {s}: {vd}" for s, vd in sorted(v["verdicts"].items())))
        print(f"claims={len(table)}")
        print(f"seeds={len(seeds)}")
        print(f"seed_dependent={len(moving)}")
        print(f"unexpected={unexpected}")
        print(f"wall_seconds={time.perf_counter() - t0:.0f}")
        if args.out:
            Path(args.out).write_text(json.dumps(table, indent=1, sort_keys=True))
        return 1 if moving else 0


if __name__ == "__main__":
    sys.exit(main())
