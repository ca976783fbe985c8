"""dpverify.resources: the default number of check processes from the CPUs and memory at hand, on
machines written as files (the affinity mask, /proc/meminfo, /proc/self/cgroup, cgroup v1 and v2)."""
import os

import pytest

from dpverify import resources as R

MB = 2**20


@pytest.fixture
def machine(tmp_path, monkeypatch):
    """``make(cpus, available_mb, cgroup_lines, files)`` -> the keyword arguments of default_jobs, each
    call a machine of its own (a fresh folder: the CPU quota is read once per folder and process)."""
    calls = []

    def make(cpus=8, available_mb=100_000, cgroup="0::/\n", files=None):
        calls.append(None)
        base = tmp_path / f"machine{len(calls)}"
        base.mkdir()
        monkeypatch.setattr(R.os, "sched_getaffinity", lambda pid: set(range(cpus)))
        (base / "meminfo").write_text(
            "MemTotal: 999999999 kB\n" + ("" if available_mb is None else f"MemAvailable: {available_mb * 1024} kB\n"))
        (base / "cgroup").write_text(cgroup)
        root = base / "fs"
        for rel, text in (files or {}).items():
            (root / rel).parent.mkdir(parents=True, exist_ok=True)
            (root / rel).write_text(text)
        root.mkdir(exist_ok=True)
        return dict(meminfo=str(base / "meminfo"), proc_cgroup=str(base / "cgroup"), root=str(root))
    return make


@pytest.mark.parametrize("cpus, available_mb, expected", [
    (8, 100_000, 8),      # memory for all: one process per CPU
    (8, 2 * 512, 2),      # memory for two
    (8, 2 * 512 - 1, 1),  # not quite two
    (8, 10, 1),           # never fewer than one
    (1, 100_000, 1),
    (6, None, 6),         # no MemAvailable: the CPUs
])
def test_the_cpus_the_memory_holds(machine, cpus, available_mb, expected):
    assert R.MB_PER_JOB == 512
    assert R.default_jobs(**machine(cpus=cpus, available_mb=available_mb)) == expected


def test_cgroup_v2_quota_and_memory_limit_of_the_own_cgroup(machine):
    kw = machine(cgroup="0::/box/a\n", files={"box/a/cpu.max": "150000 100000\n",
                                               "box/a/memory.max": str(3 * 512 * MB),
                                               "box/a/memory.current": str(512 * MB)})
    assert R.usable_cpus(kw["proc_cgroup"], kw["root"]) == 2          # 1.5 CPUs, rounded up
    assert R.default_jobs(**kw) == 2                                  # 1024 MB of headroom
    kw = machine(cgroup="0::/\n", files={"cpu.max": "max 100000\n", "memory.max": "max\n"})
    assert R.default_jobs(**kw) == 8                                  # "max": no limit


def test_cgroup_v1_quota_and_memory_limit(machine):
    kw = machine(cgroup="4:memory:/p/q\n2:cpu,cpuacct:/p/q\n",
                 files={"cpu,cpuacct/p/q/cpu.cfs_quota_us": "300000", "cpu,cpuacct/p/q/cpu.cfs_period_us": "100000",
                        "memory/p/q/memory.limit_in_bytes": str(3 * 512 * MB),
                        "memory/p/q/memory.usage_in_bytes": str(512 * MB + 1)})
    assert R.usable_cpus(kw["proc_cgroup"], kw["root"]) == 3
    assert R.default_jobs(**kw) == 1                                  # 2 x 512 MB less a byte: 1
    kw = machine(cgroup="4:memory:/\n", files={"cpu/cpu.cfs_quota_us": "-1", "cpu/cpu.cfs_period_us": "100000",
                                               "memory/memory.limit_in_bytes": "9223372036854771712"})
    assert R.default_jobs(**kw) == 8                                  # v1's "no limit" values


def test_unreadable_or_garbled_files_impose_no_limit(machine):
    kw = machine(cgroup="garbage\n0::/x\n", files={"x/cpu.max": "lots\n", "x/memory.max": "12abc",
                                                   "x/memory.current": "?"})
    assert R.default_jobs(**kw) == 8
    for quota in ("9" * 400 + " 1", "-100000 100000", "100000 -100000", "100000 0"):   # overflow, negatives, zero
        kw = machine(cgroup="0::/x\n", files={"x/cpu.max": quota})
        assert R.default_jobs(**kw) == 8, quota
    kw = machine(cgroup="0::/a\x00b\n")                     # a NUL in the path: unreadable, no limit
    assert R.default_jobs(**kw) == 8
    kw = machine(available_mb=100_000)
    kw["proc_cgroup"] = kw["root"] = os.path.join(kw["root"], "missing")
    assert R.default_jobs(**kw) == 8


def test_the_tightest_of_system_memory_and_cgroup_headroom_wins(machine):
    kw = machine(available_mb=1024, files={"memory.max": str(100 * 512 * MB), "memory.current": "0"})
    assert R.default_jobs(**kw) == 2
    kw = machine(available_mb=100_000, files={"memory.max": str(512 * MB), "memory.current": str(600 * MB)})
    assert R.default_jobs(**kw) == 1                                  # over its limit: still one


def test_this_machine_gets_at_least_one_and_at_most_its_cpus():
    n = R.default_jobs()
    assert 1 <= n <= (len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count())


def test_the_simulators_default_threads_are_the_usable_cpus(monkeypatch):
    from dpverify.sim import parallel

    monkeypatch.delenv("DPVERIFY_WORKERS", raising=False)
    monkeypatch.setattr(parallel, "_WORKERS", None)
    monkeypatch.setattr(R, "usable_cpus", lambda *a, **k: 3)
    assert parallel.get_workers() == 3


def test_a_limit_on_a_parent_cgroup_counts(machine):
    kw = machine(cgroup="0::/limited.slice/job.scope\n",
                 files={"limited.slice/job.scope/cpu.max": "max 100000", "limited.slice/job.scope/memory.max": "max",
                        "limited.slice/cpu.max": "200000 100000", "limited.slice/memory.max": str(3 * 512 * MB)})
    assert R.usable_cpus(kw["proc_cgroup"], kw["root"]) == 2
    assert R.default_jobs(**kw) == 2
    kw = machine(cgroup="4:memory:/docker/abc\n",
                 files={"memory/docker/memory.limit_in_bytes": str(512 * MB)})
    assert R.default_jobs(**kw) == 1


def test_reclaimable_file_cache_is_not_counted_as_used(machine):
    kw = machine(cgroup="0::/c\n", files={"c/memory.max": str(16 * 512 * MB), "c/memory.current": str(15 * 512 * MB),
                                          "c/memory.stat": f"anon 1\ninactive_file {13 * 512 * MB}\nactive_file 5\n"})
    assert R.default_jobs(**kw) == 8                                  # 14 x 512 MB free once the cache is counted
    kw = machine(cgroup="4:memory:/c\n", files={"memory/c/memory.limit_in_bytes": str(4 * 512 * MB),
                                                "memory/c/memory.usage_in_bytes": str(4 * 512 * MB),
                                                "memory/c/memory.stat": f"total_inactive_file {3 * 512 * MB}\n"})
    assert R.default_jobs(**kw) == 3
    kw = machine(cgroup="0::/c\n", files={"c/memory.max": str(4 * 512 * MB), "c/memory.current": str(4 * 512 * MB)})
    assert R.default_jobs(**kw) == 1                                  # without memory.stat: all of it is used


def test_paths_that_leave_the_cgroup_mount_are_ignored(machine, tmp_path):
    (tmp_path / "evil").mkdir()
    (tmp_path / "evil" / "cpu.max").write_text("100000 100000")
    kw = machine(cgroup="0::/../../evil\n")     # root is tmp_path/machine1/fs
    assert R.usable_cpus(kw["proc_cgroup"], kw["root"]) == 8
    assert all(d.startswith(kw["root"]) for d in R.cgroup_dirs("cpu", kw["proc_cgroup"], kw["root"]))
