"""Start-up and the verdict cache, each figure a ratio measured in this one run.

Usage::

    python benchmarks/startup_cache.py [--repeats 5] [--skip-all] [--claim ID] [--jobs N] [--page PATH]

**Start-up** (median of ``--repeats`` runs of each command, in a fresh folder, as a user starts it):
``python -c "import sympy"`` is the reference; then ``dpverify --help``, ``dpverify list`` from the
listing index, ``dpverify list --no-cache`` (every paper's claims built), and ``dpverify check ID``
of a fast claim, whose start-up is its wall time minus the seconds its checks report (the work), and
the pytest plugin on a claims file of one fast claim, whose start-up is its wall time minus pytest's
own (one empty test) minus the claim's work.

**Cache** (unless ``--skip-all``; in a temporary folder holding a copy of ``theorems/``, which comes
first on ``PYTHONPATH``): ``dpverify check --all`` into an empty cache (uncached: every claim checked,
and stored), the same again (every verdict replayed), and again after editing one claim of the copy
(one claim checked). Prints each wall time, the ratios to the uncached run, and ``key=value`` lines.
"""
from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def _med(values) -> float:
    """The median (benchmarks/statistics.py shadows the standard library's module here)."""
    v = sorted(values)
    return 0.5 * (v[(len(v) - 1) // 2] + v[len(v) // 2])


def _run(argv, cwd, env, check=True):
    t0 = time.perf_counter()
    r = subprocess.run(argv, cwd=cwd, env=env, capture_output=True, text=True)
    wall = time.perf_counter() - t0
    if check and r.returncode not in (0, 1):
        raise SystemExit(f"{' '.join(argv)} failed ({r.returncode}): {r.stderr[-2000:]}")
    return wall, r


def _median(argv, cwd, env, repeats):
    return _med(_run(argv, cwd, env)[0] for _ in range(repeats))


def startup(repeats: int, claim: str) -> dict:
    py = sys.executable
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    env.pop("DPVERIFY_CACHE", None)
    env.pop("DPVERIFY_CACHE_DIR", None)
    with tempfile.TemporaryDirectory() as cwd:
        _run([py, "-m", "dpverify", "list"], cwd, env)          # builds the listing index once
        ref = _median([py, "-c", "import sympy"], cwd, env, repeats)
        out = {"import_sympy": ref,
               "help": _median([py, "-m", "dpverify", "--help"], cwd, env, repeats),
               "list_index": _median([py, "-m", "dpverify", "list"], cwd, env, repeats),
               "list_built": _median([py, "-m", "dpverify", "list", "--no-cache"], cwd, env, repeats)}
        starts, works = [], []
        for _ in range(repeats):
            wall, r = _run([py, "-m", "dpverify", "check", claim, "--json", "--no-progress", "--no-cache"], cwd, env)
            work = sum(v["seconds"] for v in json.loads(r.stdout))
            starts.append(wall - work)
            works.append(work)
        out["check_fast_startup"] = _med(starts)
        out["check_fast_work"] = _med(works)
        out.update(plugin_startup(Path(cwd), env, repeats))
    print(f"start-up (median of {repeats}; reference: python -c 'import sympy' = {ref:.2f} s)")
    for key, label in [("help", "dpverify --help"), ("list_index", "dpverify list (listing index)"),
                       ("list_built", "dpverify list --no-cache (claims built)"),
                       ("check_fast_startup", f"dpverify check {claim}: start-up (wall minus its checks' work)")]:
        print(f"  {label:62s} {out[key]:6.2f} s   {out[key] / ref:5.1f}x import sympy")
    print(f"  ({claim}'s checks themselves: {out['check_fast_work']:.2f} s)")
    print(f"  {'pytest --dpverify-claims claims.py: start-up beyond pytest':62s} {out['plugin_startup']:6.2f} s   "
          f"{out['plugin_startup'] / ref:5.1f}x import sympy")
    print(f"  (pytest on one empty test: {out['pytest_empty']:.2f} s; the claim's checks: {out['plugin_work']:.2f} s)")
    return out


PLUGIN_CLAIMS = """import sympy as sp
from dpverify import Claim, Domain, Inequality, Real, Source
x, y = sp.symbols("x y")
CLAIMS = (Claim(id="mine/amgm", source=Source("a textbook", "AM-GM"),
                domain=Domain(x=Real(ge=0, search=(0, 10)), y=Real(ge=0, search=(0, 10))),
                statements=(Inequality("AM-GM", lhs=sp.sqrt(x * y), rhs=(x + y) / 2),)),)
"""


def plugin_startup(cwd: Path, env: dict, repeats: int) -> dict:
    """The pytest plugin's start-up, as a user runs it on a claims file of one fast claim:
    ``pytest --dpverify-claims claims.py`` minus ``pytest`` on one empty test (pytest's own start-up
    with the installed plugins) minus the claim's checks (their seconds in ``dpverify check --json``)."""
    py = sys.executable
    (cwd / "claims.py").write_text(PLUGIN_CLAIMS)
    (cwd / "test_empty.py").write_text("def test_empty():\n    pass\n")
    quiet = ["-q", "-p", "no:cacheprovider", "-p", "no:randomly"]
    walls, empties, works = [], [], []
    for _ in range(repeats):
        empties.append(_run([py, "-m", "pytest", *quiet, "test_empty.py"], cwd, env)[0])
        walls.append(_run([py, "-m", "pytest", *quiet, "--dpverify-claims", "claims.py"], cwd, env)[0])
        _, r = _run([py, "-m", "dpverify", "check", "mine/amgm", "--module", "claims.py", "--json", "--no-progress",
                     "--no-cache"], cwd, env)
        works.append(sum(v["seconds"] for v in json.loads(r.stdout)))
    starts = [w - e - k for w, e, k in zip(walls, empties, works)]
    return {"plugin_startup": _med(starts), "pytest_empty": _med(empties), "plugin_work": _med(works)}


def _edit_one_claim(theorems: Path) -> str:
    """Change one claim of the copy (hdp's first claim with a summary gets another summary); its id."""
    path = theorems / "hdp" / "claims" / "section4.py"
    text = path.read_text()
    i = text.index('summary="')
    path.write_text(text[:i] + 'summary="(edited) ' + text[i + len('summary="'):])
    return str(path.relative_to(theorems.parent))


def cache(jobs: int) -> dict:
    py = sys.executable
    with tempfile.TemporaryDirectory() as tmp:
        src = Path(tmp) / "src"
        shutil.copytree(ROOT / "theorems", src / "theorems", ignore=shutil.ignore_patterns("__pycache__"))
        cwd = Path(tmp) / "work"
        cwd.mkdir()
        env = {**os.environ, "PYTHONPATH": f"{src}{os.pathsep}{ROOT}"}
        env.pop("DPVERIFY_CACHE", None)
        env.pop("DPVERIFY_CACHE_DIR", None)
        argv = [py, "-m", "dpverify", "check", "--all", "--json", "--no-timing", "--no-progress", "--jobs", str(jobs)]
        runs = {}
        for name in ("uncached", "cached", "edited"):
            if name == "edited":
                edited = _edit_one_claim(src / "theorems")
            wall, r = _run(argv, cwd, env)
            rows = json.loads(r.stdout)
            runs[name] = (wall, sum(1 for d in rows if not d.get("cached")), len(rows),
                          [d["id"] for d in rows if not d.get("cached")],
                          {d["id"]: {k: v for k, v in d.items() if k != "cached"} for d in rows})
        same = runs["uncached"][4] == runs["cached"][4]
    u = runs["uncached"][0]
    print(f"\nverdict cache (dpverify check --all, --jobs {jobs})")
    for name in ("uncached", "cached", "edited"):
        wall, checked, n, ids, _ = runs[name]
        extra = f" ({', '.join(ids)})" if name == "edited" else ""
        print(f"  {name:9s} {wall:7.1f} s   {wall / u:6.3f} of uncached   {checked} of {n} claims checked{extra}")
    print(f"  edited file: {edited}; the replayed JSON is the computed JSON (but the 'cached' mark): {same}")
    return {"uncached": u, "cached": runs["cached"][0], "edited": runs["edited"][0],
            "edited_checked": runs["edited"][1], "same": same}


# the page --page writes (benchmarks/mdpage.py)
PAGE = dict(
    title='Start-up and the verdict cache',
    about=(
        'How long a command takes before it does any work, against `python -c "import sympy"` (the '
        'reference: every check needs SymPy), and what the verdict cache saves: `dpverify check '
        '--all` into an empty cache, again (every verdict replayed) and after editing one claim '
        '(one claim checked).'
    ),
    goals=[
    ('help_seconds', '<=', 1.0, '`dpverify --help` within 1 s'),
    ('list_index_seconds', '<=', 1.0, '`dpverify list` within 1 s'),
    ('check_fast_startup_seconds', '<=', 1.0, "`dpverify check ID`'s start-up within 1 s"),
    ('plugin_startup_seconds', '<=', 1.0, "the pytest plugin's start-up within 1 s"),
    ('uncached_seconds', '<=', 120.0, 'uncached `check --all` within 120 s'),
    ('cached_seconds', '<=', 5.0, 'cached `check --all` within 5 s'),
    ],
)


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeats", type=int, default=5)
    ap.add_argument("--claim", default="hdp/lemma-2", help="the fast claim of the start-up figure")
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--skip-all", action="store_true", help="start-up only (no check --all runs)")
    ap.add_argument("--page", metavar="PATH", help="also write the result as a Markdown page (docs/measurements/startup-cache.md)")
    args = ap.parse_args(argv)
    from mdpage import recording          # benchmarks/ is the script's folder
    with recording(args.page, **PAGE):
        s = startup(args.repeats, args.claim)
        for k, v in s.items():
            print(f"{k}_seconds={v:.3f}")
        print(f"check_fast_startup_over_import_sympy={s['check_fast_startup'] / s['import_sympy']:.2f}")
        if not args.skip_all:
            c = cache(args.jobs)
            print(f"uncached_seconds={c['uncached']:.1f}")
            print(f"cached_seconds={c['cached']:.1f}")
            print(f"edited_seconds={c['edited']:.1f}")
            print(f"cached_over_uncached={c['cached'] / c['uncached']:.4f}")
            print(f"edited_over_uncached={c['edited'] / c['uncached']:.4f}")
        print(f"load_average_1min={os.getloadavg()[0]:.1f}")
        return 0


if __name__ == "__main__":
    sys.exit(main())
