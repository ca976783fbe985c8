"""Profile view of the main job: where ``dpverify check --all`` spends its time.

Usage::

    python benchmarks/check_all.py [--paper KEY] [--jobs N] [--samples S] [--runs R]

Runs every registered claim (of one paper with ``--paper``) the way ``dpverify check --all`` does
(``--jobs`` worker processes, default 2), then prints the wall time, the time split by check kind
and by claim, the share of each paper, and ``wall_seconds=X`` / ``claims=N`` / ``as_expected=K`` as
``key=value`` lines. Timings are of this run on this machine; re-run on a quiet machine.
"""
from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path
from types import SimpleNamespace

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from dpverify import cli, registry  # noqa: E402
from dpverify.report import profile_table  # noqa: E402


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--paper", default=None)
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--samples", type=int, default=150)
    ap.add_argument("--runs", type=int, default=20000)
    args = ap.parse_args(argv)
    claims = registry.all_claims(args.paper)
    ns = SimpleNamespace(seed=0, runs=args.runs, samples=args.samples, confidence=0.99, chunk=65536,
                         jobs=args.jobs, module=[], no_progress=True)
    t0 = time.perf_counter()
    verdicts = cli._run_checks(claims, ns)
    wall = time.perf_counter() - t0
    print(profile_table(verdicts))
    by_paper: dict[str, float] = {}
    for v in verdicts:
        key = v.id.split("/")[0]
        by_paper[key] = by_paper.get(key, 0.0) + v.seconds
    total = sum(by_paper.values()) or 1e-12
    print("\ntime by paper:")
    for key, sec in sorted(by_paper.items(), key=lambda kv: -kv[1]):
        print(f"  {key}: {sec:.1f} s of work ({100 * sec / total:.0f}%), about {wall * sec / total:.1f} s of the wall time")
    for key, sec in sorted(by_paper.items()):
        print(f"paper_{key}_seconds={wall * sec / total:.1f}")
    print(f"claims={len(verdicts)}")
    print(f"as_expected={sum(v.ok for v in verdicts)}")
    print(f"jobs={args.jobs}")
    print(f"wall_seconds={wall:.1f}")
    return 0 if all(v.ok for v in verdicts) else 1


if __name__ == "__main__":
    sys.exit(main())
