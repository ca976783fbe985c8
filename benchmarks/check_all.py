"""Profile view of the main job: where ``dpverify check --all`` spends its time.

Usage::

    python benchmarks/check_all.py [--paper KEY] [--jobs N] [--samples S] [--runs R] [--page PATH]

Runs every registered claim (of one paper with ``--paper``) the way ``dpverify check --all`` does
(``--jobs`` worker processes, default 2; the verdict cache is not used), then prints the wall time, the time split by check kind
and by claim, the share of each paper, and ``wall_seconds=X`` / ``cpu_seconds=C`` (this process and its
worker processes, user + system) / ``load_average=L`` (the 1-minute load when the run ended) / ``claims=N`` /
``as_expected=K`` as ``key=value`` lines. The split by kind and by claim is of the evidence's wall seconds:
on a loaded machine they grow with the load, so compare their shares, and compare runs by ``cpu_seconds``.
Timings are of this run on this machine; re-run on a quiet machine.
"""
from __future__ import annotations

import argparse
import os
import resource
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from dpverify import cli, registry  # noqa: E402
from dpverify.report import profile_table  # noqa: E402


def _cpu() -> float:
    """User + system CPU seconds of this process and of its finished children (the worker processes)."""
    own, kids = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + kids.ru_utime + kids.ru_stime


# the page --page writes (benchmarks/mdpage.py)
PAGE = dict(
    title='The main job: where `dpverify check --all` spends its time',
    about=(
        'Every registered claim checked as `dpverify check --all --no-cache` does, with the time '
        'split by check kind, by claim and by paper, the wall and CPU seconds (compare runs on a '
        'loaded machine by their CPU).'
    ),
    goals=[
    ('wall_seconds', '<=', 120.0, 'uncached `check --all` within 120 s'),
    ],
)


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--paper", default=None)
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--samples", type=int, default=150)
    ap.add_argument("--runs", type=int, default=20000)
    ap.add_argument("--page", metavar="PATH", help="also write the result as a Markdown page (docs/measurements/check-all.md)")
    args = ap.parse_args(argv)
    from mdpage import recording          # benchmarks/ is the script's folder
    with recording(args.page, **PAGE):
        claims = registry.all_claims(args.paper)
        # the options of `dpverify check --all --no-cache`, with the check command's own defaults
        ns = cli.build_parser().parse_args(["check", "--all", "--no-cache", "--no-progress", "--jobs", str(args.jobs),
                                            "--runs", str(args.runs), "--samples", str(args.samples)])
        t0, c0 = time.perf_counter(), _cpu()
        verdicts = cli._run_checks(claims, ns)
        wall, cpu = time.perf_counter() - t0, _cpu() - c0
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
        print(f"cpu_seconds={cpu:.1f}")
        print(f"load_average={os.getloadavg()[0]:.2f}")
        return 0 if all(v.ok for v in verdicts) else 1


if __name__ == "__main__":
    sys.exit(main())
