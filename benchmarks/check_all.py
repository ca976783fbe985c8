"""The main job as a user runs it: ``dpverify check --all`` uncached, again from the cache, the start-up, and
where the uncached run spends its time.

Usage::

    python benchmarks/check_all.py [--paper KEY] [--jobs N] [--repeats R] [--page PATH] [--save RUN.json]

Every command runs in a fresh process, in a temporary folder, as a user types it (``python -m dpverify ...``):

* **start-up**: the median of ``--repeats`` runs of ``dpverify --help`` and of ``dpverify list``;
* **uncached**: ``dpverify check --all --json --no-progress --jobs N`` into an empty verdict cache (a temporary
  ``DPVERIFY_CACHE_DIR``): every claim is checked (and stored), as ``DPVERIFY_CACHE=0 dpverify check --all``
  does; its wall time, and its CPU seconds (user + system, of the command and its worker processes);
* **cached**: the same command again: every verdict replayed from the cache;
* **where the time goes**: the uncached run's evidence seconds summed by check kind, by paper and by claim (the
  slowest), each also as its share of the work. Evidence seconds are wall seconds of one worker: on a loaded
  machine they grow with the load, so compare shares, and compare runs by ``cpu_seconds``.

Prints ``key=value`` lines (``wall_seconds``, ``cached_seconds``, ``help_seconds``, ``list_seconds``,
``cpu_seconds``, ``kind_<name>_seconds``: a kind's seconds of work summed over claims ...), and the 1-minute load average at the start and the end.
The page (``--page``) says the load too: timings of a loaded machine are upper bounds of a quiet one's.
"""
from __future__ import annotations

import argparse
import json
import os
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def _children_cpu() -> float:
    r = resource.getrusage(resource.RUSAGE_CHILDREN)
    return r.ru_utime + r.ru_stime


def _run(argv, cwd, env) -> tuple[float, float, subprocess.CompletedProcess]:
    """Wall and CPU seconds of one command (its CPU: the command and every process it waited for)."""
    c0, t0 = _children_cpu(), time.perf_counter()
    r = subprocess.run(argv, cwd=cwd, env=env, capture_output=True, text=True)
    wall, cpu = time.perf_counter() - t0, _children_cpu() - c0
    if r.returncode not in (0, 1):
        raise SystemExit(f"check_all: {' '.join(argv)} exited {r.returncode}: {r.stderr[-2000:]}")
    return wall, cpu, r


def _median(values) -> float:
    v = sorted(values)
    return 0.5 * (v[(len(v) - 1) // 2] + v[len(v) // 2])


def split(rows: list[dict]) -> dict:
    """Seconds of work by check kind, by paper and by claim, from a ``--json`` run's evidence."""
    by_kind: dict[str, float] = {}
    by_paper: dict[str, float] = {}
    for v in rows:
        by_paper[v["id"].split("/")[0]] = by_paper.get(v["id"].split("/")[0], 0.0) + (v.get("seconds") or 0.0)
        for e in v.get("evidence", []):
            by_kind[e["kind"]] = by_kind.get(e["kind"], 0.0) + (e.get("seconds") or 0.0)
    claims = sorted(((v["id"], v.get("seconds") or 0.0, v["verdict"]) for v in rows), key=lambda t: -t[1])
    return {"kind": by_kind, "paper": by_paper, "claims": claims, "total": sum(c[1] for c in claims)}


def table(title: str, items, total: float, wall: float | None = None) -> str:
    lines = [title]
    for name, sec in items:
        extra = f", about {wall * sec / total:5.1f} s of the wall time" if wall is not None else ""
        lines.append(f"  {name:44s} {sec:7.1f} s  {100 * sec / total:4.0f}%{extra}")
    return "\n".join(lines)


# the page --page writes (benchmarks/mdpage.py)
PAGE = dict(
    title='The main job: `dpverify check --all`, uncached and cached, start-up, and where the time goes',
    about=(
        'Every registered claim checked as a user runs `dpverify check --all` (a fresh process, an empty verdict '
        'cache, `--jobs 2`), then the same command again from the cache, the start-up of `dpverify --help` and '
        '`dpverify list`, and the uncached run\'s time split by check kind, by paper and by claim (compare runs '
        'on a loaded machine by their CPU seconds and the shares).'
    ),
    goals=[
        ('wall_seconds', '<=', 120.0, 'uncached `check --all` within 120 s'),
        ('cached_seconds', '<=', 5.0, 'cached `check --all` within 5 s'),
        ('help_seconds', '<=', 1.0, '`dpverify --help` within 1 s'),
        ('list_seconds', '<=', 1.0, '`dpverify list` within 1 s'),
    ],
)


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--paper", default=None, help="only this paper's claims")
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--repeats", type=int, default=5, help="runs of each start-up command (their median)")
    ap.add_argument("--page", metavar="PATH", help="also write the result as a Markdown page (docs/measurements/check-all.md)")
    ap.add_argument("--save", metavar="PATH", help="also write the uncached run's JSON there (e.g. for "
                    "benchmarks/proof_coverage.py, or to compare verdicts)")
    args = ap.parse_args(argv)
    from mdpage import recording          # benchmarks/ is the script's folder
    with recording(args.page, **PAGE), tempfile.TemporaryDirectory() as tmp:
        py = sys.executable
        env = {**os.environ, "PYTHONPATH": str(ROOT), "DPVERIFY_CACHE_DIR": str(Path(tmp) / "cache")}
        env.pop("DPVERIFY_CACHE", None)
        cwd = Path(tmp) / "work"
        cwd.mkdir()
        print(f"load_average_start={os.getloadavg()[0]:.2f}")
        _run([py, "-m", "dpverify", "list"], cwd, env)          # builds the listing index once
        help_s = _median(_run([py, "-m", "dpverify", "--help"], cwd, env)[0] for _ in range(args.repeats))
        list_s = _median(_run([py, "-m", "dpverify", "list"], cwd, env)[0] for _ in range(args.repeats))
        check = [py, "-m", "dpverify", "check", "--all", "--json", "--no-progress", "--jobs", str(args.jobs)]
        if args.paper:
            check += ["--paper", args.paper]
        wall, cpu, r = _run(check, cwd, env)
        rows = json.loads(r.stdout)
        if args.save:
            Path(args.save).write_text(r.stdout)
        cached_wall, _, rc = _run(check, cwd, env)
        replayed = json.loads(rc.stdout)
        n_cached = sum(1 for v in replayed if v.get("cached"))
        s = split(rows)
        total = s["total"] or 1e-12
        print(table("time by check kind (evidence seconds, summed over claims):",
                    sorted(s["kind"].items(), key=lambda kv: -kv[1]), total, wall))
        print(table("\ntime by paper:", sorted(s["paper"].items(), key=lambda kv: -kv[1]), total, wall))
        print(table("\nthe 15 slowest claims:", [(f"{i} ({v})", sec) for i, sec, v in s["claims"][:15]], total))
        print(f"\nsum over claims: {total:.1f} s of work on {args.jobs} workers in {wall:.1f} s")
        for kind, sec in sorted(s["kind"].items()):     # seconds of work (one worker's), not of the wall
            print(f"kind_{kind}_seconds={sec:.1f}")
        for key, sec in sorted(s["paper"].items()):
            print(f"paper_{key}_seconds={wall * sec / total:.1f}")
        print(f"claims={len(rows)}")
        print(f"as_expected={sum(bool(v.get('ok')) for v in rows)}")
        print(f"jobs={args.jobs}")
        print(f"help_seconds={help_s:.3f}")
        print(f"list_seconds={list_s:.3f}")
        print(f"wall_seconds={wall:.1f}")
        print(f"cpu_seconds={cpu:.1f}")
        print(f"cached_seconds={cached_wall:.2f}")
        print(f"cached_claims={n_cached}")
        print(f"load_average_end={os.getloadavg()[0]:.2f}")
        return 0 if all(v.get("ok") for v in rows) and n_cached == len(rows) else 1


if __name__ == "__main__":
    sys.exit(main())
