"""benchmarks/simulator.py: what ``--new-paths-only`` prints for a simulator drawing more than one value per
coordinate-step (gated SGD: the per-draw figures beside the unchanged per-step ones). The module is loaded by
path (the benchmarks folder is not put on sys.path, see conftest.py); the timings are stubbed."""
from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest


@pytest.fixture(scope="module")
def bench():
    spec = importlib.util.spec_from_file_location(
        "dpverify_benchmark_simulator", Path(__file__).resolve().parents[2] / "benchmarks" / "simulator.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_gated_job_declares_its_three_draws_a_step(bench):
    jobs = bench.new_path_jobs(quick=True)
    _, runs, D, T, draws = jobs["gated_sgd_ls1"]
    assert (D, T, draws) == (1, 100, 3)
    assert jobs["gated_sgd_ls3"][2:] == (3, 100, 7)          # an index, 3 noise and 3 test-noise values
    _, runs, D, T, draws, samples = jobs["adaptive_logistic"]
    assert (D, T, draws, samples) == (3, 10, None, 60)
    assert jobs["adaptive_cosine"][3:] == (25, None, 1)
    assert all(len(spec) == 4 for name, spec in jobs.items()
               if name not in ("gated_sgd_ls1", "gated_sgd_ls3", "adaptive_logistic", "adaptive_cosine"))


def test_per_draw_ratio_is_the_per_step_ratio_times_draws_over_dim(bench, monkeypatch):
    calls = []
    monkeypatch.setattr(bench, "new_path_jobs", lambda quick: {
        "gated_sgd_ls1": (lambda: calls.append(1), 1000, 1, 100, 3), "plain": (lambda: None, 1000, 2, 10)})

    def best_of(jobs, repeats, cpu):
        times = {"fused": 4.0, "numpy": 12.0, "fill_numpy": 1.5, "fill_fused": 1.0}
        cpu.update({k: times[k] for k in jobs})
        return {k: times[k] for k in jobs}

    monkeypatch.setattr(bench, "_best_of", best_of)
    lines = dict(bench.bench_new_paths(quick=True, repeats=1, workers=1))
    assert lines["gated_sgd_ls1_limit_ratio_cpu"] == "0.250"          # per coordinate-step, as before
    assert lines["gated_sgd_ls1_speedup_vs_numpy_cpu"] == "3.00"
    assert lines["gated_sgd_ls1_draws_per_step"] == 3
    assert lines["gated_sgd_ls1_limit_ratio_per_draw_cpu"] == "0.750"
    assert "plain_limit_ratio_cpu" in lines and "plain_draws_per_step" not in lines
    assert calls    # compiled (warmed up) before timing


def test_a_gradient_bound_job_is_compared_with_its_numpy_path_only(bench, monkeypatch):
    """A job that declares its samples ``N`` (a linear model's full gradient a step) times no fill and
    prints its CPU per sample-step of each path and the speedups, not a fraction of the fill limit."""
    monkeypatch.setattr(bench, "new_path_jobs", lambda quick: {"lin": (lambda: None, 1000, 3, 10, None, 50)})
    timed = []

    def best_of(jobs, repeats, cpu):
        timed.append(sorted(jobs))
        times = {"fused": 2.0, "numpy": 3.0}
        cpu.update({"fused": 4.0, "numpy": 5.0})
        return {k: times[k] for k in jobs}

    monkeypatch.setattr(bench, "_best_of", best_of)
    lines = dict(bench.bench_new_paths(quick=True, repeats=1, workers=1))
    assert timed == [["fused", "numpy"]]
    assert lines["lin_samples"] == 50
    assert lines["lin_fused_ns_per_sample_step_cpu"] == "8e+03"        # 4 s / (1000 * 10 * 50) in ns
    assert lines["lin_numpy_ns_per_sample_step_cpu"] == "1e+04"
    assert (lines["lin_speedup_vs_numpy"], lines["lin_speedup_vs_numpy_cpu"]) == ("1.50", "1.25")
    assert not any("limit_ratio" in k for k in lines)
