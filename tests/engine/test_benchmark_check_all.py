"""benchmarks/check_all.py: the split of a ``--json`` run's time by check kind, by paper and by claim (loaded by
path, as test_benchmark_simulator.py loads its benchmark)."""
from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest


@pytest.fixture(scope="module")
def bench():
    spec = importlib.util.spec_from_file_location(
        "dpverify_benchmark_check_all", Path(__file__).resolve().parents[2] / "benchmarks" / "check_all.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_split_sums_the_evidence_by_kind_and_the_claims_by_paper(bench):
    rows = [
        {"id": "a/x", "verdict": "holds", "seconds": 3.0,
         "evidence": [{"kind": "sampled", "seconds": 1.0}, {"kind": "symbolic", "seconds": 2.0}]},
        {"id": "a/y", "verdict": "violated", "seconds": 0.5, "evidence": [{"kind": "sampled", "seconds": 0.5}]},
        {"id": "b/z", "verdict": "verified", "seconds": 6.0,
         "evidence": [{"kind": "symbolic", "seconds": 6.0}, {"kind": "chain", "seconds": None}]},
    ]
    s = bench.split(rows)
    assert s["kind"] == {"sampled": 1.5, "symbolic": 8.0, "chain": 0.0}
    assert s["paper"] == {"a": 3.5, "b": 6.0}
    assert [c[0] for c in s["claims"]] == ["b/z", "a/x", "a/y"] and s["total"] == 9.5
    text = bench.table("t", sorted(s["kind"].items(), key=lambda kv: -kv[1]), s["total"], wall=19.0)
    assert text.splitlines()[1].split()[:3] == ["symbolic", "8.0", "s"] and "about  16.0 s" in text
