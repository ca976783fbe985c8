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
verdict differs. ``--out`` writes the summary as JSON, ``--page`` the docs page
(``docs/measurements/dependency-bounds.md``); ``--from-json SUMMARY --page PAGE`` remakes the page alone.

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
        rx = {name: r.get("verdict") for name, r in (x.get("readings") or {}).items()}
        ry = {name: r.get("verdict") for name, r in (y.get("readings") or {}).items()}
        if x["verdict"] != y["verdict"] or rx != ry:
            verdicts.append({"id": k, "oldest": x["verdict"], "newest": y["verdict"],
                             "readings_oldest": rx, "readings_newest": ry})
        elif json.dumps(x, sort_keys=True) != json.dumps(y, sort_keys=True):
            evidence.append(k)
    n = len(set(a) | set(b))
    return {"claims": n, "verdict_differences": verdicts, "evidence_differences": evidence}


def page(summary: dict) -> str:
    """The docs page (``docs/measurements/dependency-bounds.md``) made from a run's summary."""
    keys = ("numpy", "scipy", "sympy", "mpmath", "numba", "dp-accounting", "cvxpy", "clarabel", "PEPit",
            "python-flint", "scikit-learn")
    n, vd, ed = summary["claims"], summary["verdict_differences"], summary["evidence_differences"]
    rows = "\n".join(f"| {k} | {summary['versions_oldest'].get(k)} | {summary['versions_newest'].get(k)} |" for k in keys)
    verdict_lines = "\n".join(f"- `{d['id']}`: {d['oldest']} under the oldest, {d['newest']} under the newest"
                               for d in vd) or "None."
    return f"""# Verdicts under the oldest and the newest NumPy and SciPy

Generated by `python benchmarks/dependency_bounds.py --page docs/measurements/dependency-bounds.md` (issue 42):
two fresh virtual environments, one with NumPy and SciPy at the lower bounds of `pyproject.toml`
(NumPy {summary['pins']['numpy']}, SciPy {summary['pins']['scipy']}; pip resolves the rest), one with what a
newcomer's `pip install -e .` gets today; in each, `DPVERIFY_CACHE=0 dpverify check --all --json --no-timing`.

| package | oldest | newest |
|---|---|---|
{rows}

**Verdicts: {n - len(vd)} of {n} the same** (each claim's verdict and each reading's).

{verdict_lines}

**Evidence: {n - len(vd) - len(ed)} of {n} claims byte for byte the same.** The other {len(ed)} differ in
numbers, never in a verdict. Why they may: NumPy does not promise the same random streams across its
releases (NEP 19: a `Generator` method's algorithm may change), so the points a sampled search draws with
NumPy, the Monte Carlo and audit samples, and with them the worst point found and the measured values, can
differ; and special functions and reductions (SciPy's, NumPy's pairwise sums) may round differently in the
last digits. Every verdict carries its own error bound, which is why the verdicts agree. The claims whose
evidence differs: {", ".join(f"`{k}`" for k in ed) or "none"}.
"""


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", help="write the summary (versions and differences) as JSON here")
    ap.add_argument("--keep", help="build the venvs in this folder and keep them (with each side's run, "
                                   "which a later --keep of the same folder reuses)")
    ap.add_argument("--page", help="write the docs page (Markdown) here")
    ap.add_argument("--from-json", help="make --page from an earlier --out instead of running")
    ns = ap.parse_args(argv)
    if ns.from_json:
        Path(ns.page).write_text(page(json.loads(Path(ns.from_json).read_text())))
        return 0
    pins = lower_bounds()
    base = Path(ns.keep) if ns.keep else Path(tempfile.mkdtemp(prefix="dpverify-bounds-"))
    base.mkdir(parents=True, exist_ok=True)
    sides = {}
    for name, side_pins in (("oldest", pins), ("newest", {})):
        saved = base / f"{name}.json"
        if ns.keep and saved.exists() and (base / name / "bin" / "python").exists():   # --keep: reuse a side
            versions, run = json.loads(saved.read_text())
            sides[name] = (versions, run)
            print(f"{name}: reused {saved}", flush=True)
            continue
        versions = build(base / name, side_pins)
        print(f"{name}: " + ", ".join(f"{k} {versions.get(k, '?')}" for k in
                                      ("numpy", "scipy", "sympy", "numba", "dp-accounting", "cvxpy", "clarabel")),
              flush=True)
        # a working folder of its own: no verdict cache, no listing index shared between the sides
        work = base / f"{name}-work"
        work.mkdir(exist_ok=True)
        sides[name] = (versions, run_all(base / name, work))
        saved.write_text(json.dumps(sides[name]))
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
    if ns.page:
        Path(ns.page).write_text(page({"pins": pins, **{f"versions_{k}": v[0] for k, v in sides.items()}, **diff}))
    return 1 if diff["verdict_differences"] else 0


if __name__ == "__main__":
    sys.exit(main())
