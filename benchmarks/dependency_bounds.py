"""Every verdict under the oldest and the newest NumPy and SciPy that ``pyproject.toml`` allows.

Usage::

    python benchmarks/dependency_bounds.py [--out docs/dependency_bounds.json] [--keep DIR]

Builds two fresh virtual environments from this checkout: **oldest** (``pip install -e .`` with NumPy
and SciPy pinned at their lower bounds in ``pyproject.toml``; pip resolves everything else to what those
allow) and **newest** (``pip install -e .``, what a newcomer's pip gets today). In each it runs
``DPVERIFY_CACHE=0 dpverify check --all --json --no-timing`` and compares the two runs claim by claim:
the verdict, each reading's verdict, and whether the whole evidence (every number) is the same.

Prints the versions of each side, then one line per claim whose verdict differs (``VERDICT id: a -> b``)
or whose evidence differs (``evidence id``), then ``verdicts_same=N/M evidence_same=K/M``. Exit 1 when a
verdict differs. ``--out`` writes the summary as JSON for the docs page
(``docs/dependency_bounds.md``, whose explanation of any difference is written by hand).

Takes about 10 minutes on 2 cores (two installs, two uncached runs, numba's kernels compiled once per
NumPy version).
"""
from __future__ import annotations

import argparse
import json
import os
import re
import subprocess
import sys
import tempfile
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PINNED = ("numpy", "scipy")


def lower_bounds() -> dict[str, str]:
    """NumPy's and SciPy's lower bounds, read from ``pyproject.toml``'s dependencies."""
    deps = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["dependencies"]
    out = {}
    for d in deps:
        m = re.fullmatch(r"\s*([A-Za-z0-9_.-]+)\s*>=\s*([0-9][0-9A-Za-z.]*)\s*(,.*)?", d.split("#")[0])
        if m and m.group(1).lower() in PINNED:
            out[m.group(1).lower()] = m.group(2)
    missing = set(PINNED) - set(out)
    if missing:
        raise SystemExit(f"dependency_bounds: no '>=' lower bound for {sorted(missing)} in pyproject.toml")
    return out


def build(venv: Path, pins: dict[str, str]) -> dict[str, str]:
    """A fresh venv with this checkout installed (editable) and ``pins`` as exact versions; its versions."""
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True)
    py = str(venv / "bin" / "python")
    env = {**os.environ, "PIP_NO_CACHE_DIR": "1", "PIP_DISABLE_PIP_VERSION_CHECK": "1"}
    env.pop("PIP_CONSTRAINT", None)
    subprocess.run([py, "-m", "pip", "install", "-q", "--upgrade", "pip"], check=True, env=env)
    extra = [f"{k}=={v}" for k, v in pins.items()]
    subprocess.run([py, "-m", "pip", "install", "-q", "-e", str(ROOT), *extra], check=True, env=env)
    freeze = subprocess.run([py, "-m", "pip", "freeze", "--exclude-editable"], check=True, text=True,
                            capture_output=True, env=env).stdout
    return dict(line.split("==", 1) for line in freeze.splitlines() if "==" in line)


def run_all(venv: Path, cwd: Path) -> list[dict]:
    env = {**os.environ, "DPVERIFY_CACHE": "0"}
    proc = subprocess.run([str(venv / "bin" / "dpverify"), "check", "--all", "--json", "--no-timing",
                           "--no-progress"], cwd=cwd, text=True, capture_output=True, env=env)
    if proc.returncode not in (0, 1):
        raise SystemExit(f"dependency_bounds: check --all in {venv} exited {proc.returncode}:\n{proc.stderr[-2000:]}")
    return [c for c in json.loads(proc.stdout) if "id" in c]


def compare(old: list[dict], new: list[dict]) -> dict:
    a, b = {c["id"]: c for c in old}, {c["id"]: c for c in new}
    verdicts, evidence = [], []
    for k in sorted(set(a) | set(b)):
        x, y = a.get(k), b.get(k)
        if x is None or y is None:
            verdicts.append({"id": k, "oldest": x and x["verdict"], "newest": y and y["verdict"]})
            continue
        rx = {r.get("name"): r.get("verdict") for r in x.get("readings", [])}
        ry = {r.get("name"): r.get("verdict") for r in y.get("readings", [])}
        if x["verdict"] != y["verdict"] or rx != ry:
            verdicts.append({"id": k, "oldest": x["verdict"], "newest": y["verdict"],
                             "readings_oldest": rx, "readings_newest": ry})
        elif json.dumps(x, sort_keys=True) != json.dumps(y, sort_keys=True):
            evidence.append(k)
    n = len(set(a) | set(b))
    return {"claims": n, "verdict_differences": verdicts, "evidence_differences": evidence}


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", help="write the summary (versions and differences) as JSON here")
    ap.add_argument("--keep", help="build the venvs in this folder and keep them")
    ns = ap.parse_args(argv)
    pins = lower_bounds()
    base = Path(ns.keep) if ns.keep else Path(tempfile.mkdtemp(prefix="dpverify-bounds-"))
    base.mkdir(parents=True, exist_ok=True)
    sides = {}
    for name, side_pins in (("oldest", pins), ("newest", {})):
        versions = build(base / name, side_pins)
        print(f"{name}: " + ", ".join(f"{k} {versions.get(k, '?')}" for k in
                                      ("numpy", "scipy", "sympy", "numba", "dp-accounting", "cvxpy", "clarabel")),
              flush=True)
        # a working folder of its own: no verdict cache, no listing index shared between the sides
        work = base / f"{name}-work"
        work.mkdir(exist_ok=True)
        sides[name] = (versions, run_all(base / name, work))
    diff = compare(sides["oldest"][1], sides["newest"][1])
    for d in diff["verdict_differences"]:
        print(f"VERDICT {d['id']}: {d['oldest']} -> {d['newest']}")
    for k in diff["evidence_differences"]:
        print(f"evidence {k}")
    n = diff["claims"]
    print(f"verdicts_same={n - len(diff['verdict_differences'])}/{n} "
          f"evidence_same={n - len(diff['verdict_differences']) - len(diff['evidence_differences'])}/{n}")
    if ns.out:
        summary = {"pins": pins, **{f"versions_{k}": {p: v[0].get(p) for p in (
            "numpy", "scipy", "sympy", "mpmath", "numba", "dp-accounting", "cvxpy", "clarabel", "PEPit",
            "python-flint", "scikit-learn")} for k, v in sides.items()}, **diff}
        Path(ns.out).write_text(json.dumps(summary, indent=1, sort_keys=True) + "\n")
    return 1 if diff["verdict_differences"] else 0


if __name__ == "__main__":
    sys.exit(main())
