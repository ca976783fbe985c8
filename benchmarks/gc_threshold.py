"""The command line's garbage-collector thresholds against CPython's default, on ``dpverify check --all``.

Usage::

    python benchmarks/gc_threshold.py [--repeats 3] [--jobs 2] [--page PATH] [-- CHECK ARGS...]

Runs ``dpverify check --all --json --no-timing --no-progress --jobs N`` (verdict cache off), taking turns:
``DPVERIFY_GC_THRESHOLD=700,10,10`` (CPython's default) and the command line's own thresholds
(``dpverify.gc_threshold.THRESHOLD``), ``--repeats`` times each. Prints each run's wall and CPU seconds, peak
memory (the largest resident set of the command and its workers, from ``wait4``) and the seconds the
collector itself took (``gc.callbacks``, timed from each collection's start to its stop in the command
and in each worker, summed), the medians, their ratios (tuned over default) as ``key=value`` lines, and
whether the runs' JSON agree.

On a shared machine whose speed drifts by several percent between runs, the collector's own seconds
are the figure to quote: the wall-clock saving is of the same size as the drift.
"""
from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from dpverify.gc_threshold import THRESHOLD  # noqa: E402


# The command, with the collector's time recorded: each process (the command, each forked worker) writes
# its running total to a file named after its pid after every claim and at the end.
DRIVER = """
import gc, os, sys, time
total, began = [0.0], [0.0]
def timed(phase, info):
    if phase == "start":
        began[0] = time.perf_counter()
    else:
        total[0] += time.perf_counter() - began[0]
gc.callbacks.append(timed)
os.register_at_fork(after_in_child=lambda: total.__setitem__(0, 0.0))   # a worker counts its own
out = sys.argv[1]
def dump():
    with open(os.path.join(out, str(os.getpid())), "w") as f:
        f.write(repr(total[0]))
from dpverify import cli
check_one = cli._check_one
def recorded(task):
    try:
        return check_one(task)
    finally:
        dump()
cli._check_one = recorded
try:
    code = cli.main(sys.argv[2:])
finally:
    dump()
sys.exit(code)
"""


def run(threshold: str, args: list[str], cwd: str) -> dict:
    env = {**os.environ, "DPVERIFY_GC_THRESHOLD": threshold, "DPVERIFY_CACHE": "0", "PYTHONPATH": str(ROOT)}
    with tempfile.TemporaryFile("w+") as out, tempfile.TemporaryDirectory() as gcdir:
        t0 = time.perf_counter()
        p = subprocess.Popen([sys.executable, "-c", DRIVER, gcdir, "check", *args], cwd=cwd, env=env, stdout=out,
                             stderr=subprocess.DEVNULL)
        _, status, usage = os.wait4(p.pid, 0)
        wall = time.perf_counter() - t0
        p.returncode = os.waitstatus_to_exitcode(status)
        if p.returncode not in (0, 1):
            raise SystemExit(f"check with DPVERIFY_GC_THRESHOLD={threshold} failed ({p.returncode})")
        out.seek(0)
        data = json.load(out)
        gc_s = sum(float(Path(gcdir, f).read_text()) for f in os.listdir(gcdir))
    return {"wall": wall, "cpu": usage.ru_utime + usage.ru_stime, "peak_mb": usage.ru_maxrss / 1024,  # KiB on Linux
            "gc": gc_s, "json": data}


# the page --page writes (benchmarks/mdpage.py)
PAGE = dict(
    title="The garbage collector's thresholds on the main job",
    about=(
        "`dpverify check --all` under CPython's default collector thresholds and under the command "
        "line's own, taking turns: wall and CPU seconds, peak memory, the collector's own seconds, "
        'and whether the JSON agree.'
    ),
)


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeats", type=int, default=3)
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("rest", nargs="*", help="check's arguments instead of --all (after --)")
    ap.add_argument("--page", metavar="PATH", help="also write the result as a Markdown page (docs/measurements/gc-threshold.md)")
    ns = ap.parse_args(argv)
    from mdpage import recording          # benchmarks/ is the script's folder
    with recording(ns.page, **PAGE):
        args = (ns.rest or ["--all"]) + ["--json", "--no-timing", "--no-progress", "--jobs", str(ns.jobs)]
        sides = {"default": "700,10,10", "tuned": ",".join(map(str, THRESHOLD))}
        runs: dict[str, list] = {k: [] for k in sides}
        with tempfile.TemporaryDirectory() as cwd:
            for i in range(ns.repeats):
                for name, threshold in sides.items():
                    r = run(threshold, args, cwd)
                    runs[name].append(r)
                    print(f"run {i + 1} {name:7s} (DPVERIFY_GC_THRESHOLD={threshold}): {r['wall']:.1f} s wall, "
                          f"{r['cpu']:.1f} s CPU, {r['peak_mb']:.0f} MB peak, {r['gc']:.2f} s collecting", flush=True)
        med = {k: {m: float(np.median([r[m] for r in v])) for m in ("wall", "cpu", "peak_mb", "gc")}
               for k, v in runs.items()}
        same = all(r["json"] == runs["default"][0]["json"] for v in runs.values() for r in v)
        for k, m in med.items():
            print(f"{k}_wall_s={m['wall']:.2f}\n{k}_cpu_s={m['cpu']:.2f}\n{k}_peak_mb={m['peak_mb']:.0f}\n"
                  f"{k}_gc_s={m['gc']:.2f}")
        print(f"gc_share_of_cpu_default={med['default']['gc'] / med['default']['cpu']:.3f}")
        print(f"gc_share_of_cpu_tuned={med['tuned']['gc'] / med['tuned']['cpu']:.3f}")
        for m in ("wall", "cpu", "peak_mb", "gc"):
            print(f"tuned_over_default_{m}={med['tuned'][m] / med['default'][m]:.3f}")
        print(f"same_json={same}")
        return 0 if same else 1


if __name__ == "__main__":
    sys.exit(main())
