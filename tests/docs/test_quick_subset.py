"""The documented quick test subset (``python -m pytest -m quick``, README "Run the tests") selects a
nonempty set of short tests: every module its list names exists and contributes tests, it leaves out the
long units (the documentation site, notebooks, the papers' registry, command lines started as processes,
Dask) and it is a small part of the suite."""
from __future__ import annotations

import importlib.util
import pathlib
import re
import subprocess
import sys

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[2]
# Modules whose tests build the site, execute notebooks, check every registered claim or start clusters:
# the long units a small machine should not meet in its first run.
LONG = ("tests/docs/", "tests/papers/", "tests/contract/", "engine/test_distributed.py", "engine/test_cli.py",
        "engine/test_cli_faults.py", "engine/test_statistics.py", "engine/test_benchmark_simulator.py")


def _collect(*args) -> list[str]:
    res = subprocess.run([sys.executable, "-m", "pytest", "--collect-only", "-q", "-n", "0", "-p", "no:cacheprovider",
                          *args], cwd=ROOT, capture_output=True, text=True)
    assert res.returncode == 0, res.stdout[-2000:] + res.stderr[-2000:]
    return [line for line in res.stdout.splitlines() if "::" in line]


@pytest.fixture(scope="module")
def quick():
    return _collect("-m", "quick")


def test_the_quick_subset_is_nonempty_and_every_listed_module_contributes(quick):
    spec = importlib.util.spec_from_file_location("quick_conftest", ROOT / "tests" / "conftest.py")
    conftest = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(conftest)
    QUICK = conftest.QUICK

    assert len(quick) >= 50, quick
    modules = {line.split("::", 1)[0] for line in quick}
    for name in QUICK:
        assert (ROOT / "tests" / name).is_file(), f"the quick list names a missing module: {name}"
        assert f"tests/{name}" in modules, f"{name} contributes no test to the quick subset"
    assert modules == {f"tests/{name}" for name in QUICK}, modules


def test_the_quick_subset_leaves_out_the_long_units_and_is_small(quick):
    assert [t for t in quick if any(part in t.split("::", 1)[0] for part in LONG)] == []
    everything = _collect()
    assert set(quick) < set(everything)
    assert len(quick) * 10 <= len(everything), (len(quick), len(everything))


def test_the_readme_documents_the_quick_subset():
    readme = (ROOT / "README.md").read_text()
    assert re.search(r"python -m pytest -m quick", readme), "the README does not say how to run the quick subset"
