"""How many check processes this machine can run at once: its CPUs and its memory, as this process sees
them -- the CPUs it may be scheduled on, a container's CPU quota, the memory the system has available
and a container's memory limit (Linux cgroups v1 and v2). Everything is read from files whose paths are
parameters, so that the tests can give it any machine; a file that is missing or unreadable imposes no
limit.
"""
from __future__ import annotations

import math
import os

#: memory set aside per check process: the largest resident set of one process of ``dpverify check --all``
#: was 440-466 MB (``benchmarks/gc_threshold.py``, peak over the command and its workers).
MB_PER_JOB = 512

_NO_LIMIT = 1 << 60     # cgroup v1 writes "no limit" as a huge number (9223372036854771712)


def _read(path: str) -> str | None:
    try:
        with open(path) as f:
            return f.read().strip()
    except (OSError, UnicodeDecodeError):
        return None


def _number(text: str | None) -> int | None:
    try:
        return int(text) if text is not None else None
    except ValueError:
        return None


def cgroup_dirs(controller: str, proc_cgroup: str = "/proc/self/cgroup", root: str = "/sys/fs/cgroup") -> list[str]:
    """The folders that may hold this process's cgroup files for ``controller`` (``"cpu"`` or ``"memory"``):
    its own cgroup's, named in ``proc_cgroup``, under cgroup v1's ``root/controller`` and v2's ``root``,
    then those mounts' roots (a container usually sees its own cgroup there)."""
    j = os.path.join
    own = []
    for line in (_read(proc_cgroup) or "").splitlines():
        parts = line.split(":", 2)
        if len(parts) != 3:
            continue
        _, controllers, path = parts
        rel = path.lstrip("/")
        if controllers == "":                                   # v2: "0::/path"
            own.append(j(root, rel))
        elif controller in controllers.split(","):              # v1: "4:memory:/path", "1:cpu,cpuacct:/path"
            own += [j(root, controllers, rel), j(root, controller, rel)]
    out = []
    for d in own + [j(root, controller), root]:
        d = os.path.normpath(d)
        if d not in out:
            out.append(d)
    return out


def cpu_quota(dirs: list[str]) -> float | None:
    """The CPUs a cgroup quota allows (e.g. 1.5), or None without a quota."""
    limits = []
    for d in dirs:
        v2 = (_read(os.path.join(d, "cpu.max")) or "").split()
        if len(v2) == 2 and v2[0] != "max" and _number(v2[0]) and _number(v2[1]):
            limits.append(int(v2[0]) / int(v2[1]))
        quota = _number(_read(os.path.join(d, "cpu.cfs_quota_us")))
        period = _number(_read(os.path.join(d, "cpu.cfs_period_us")))
        if quota is not None and quota > 0 and period:
            limits.append(quota / period)
    return min(limits) if limits else None


def memory_headroom_bytes(dirs: list[str]) -> int | None:
    """The bytes a cgroup memory limit still allows (its limit less its usage), or None without a limit."""
    room = []
    for d in dirs:
        for limit_file, usage_file in (("memory.max", "memory.current"),
                                       ("memory.limit_in_bytes", "memory.usage_in_bytes")):
            limit = _number(_read(os.path.join(d, limit_file)))
            if limit is not None and limit < _NO_LIMIT:
                room.append(max(0, limit - (_number(_read(os.path.join(d, usage_file))) or 0)))
    return min(room) if room else None


def available_bytes(meminfo: str = "/proc/meminfo") -> int | None:
    """``MemAvailable`` of ``meminfo`` in bytes (None where the system has none)."""
    for line in (_read(meminfo) or "").splitlines():
        if line.startswith("MemAvailable:"):
            kb = _number(line.split()[1]) if len(line.split()) > 1 else None
            return None if kb is None else kb * 1024
    return None


def usable_cpus(proc_cgroup: str = "/proc/self/cgroup", root: str = "/sys/fs/cgroup") -> int:
    """The CPUs this process may run on, fewer under a cgroup CPU quota (rounded up); at least 1."""
    try:
        cpus = len(os.sched_getaffinity(0))
    except (AttributeError, OSError):    # not Linux
        cpus = os.cpu_count() or 1
    quota = cpu_quota(cgroup_dirs("cpu", proc_cgroup, root))
    if quota is not None:
        cpus = min(cpus, math.ceil(quota))
    return max(1, cpus)


def default_jobs(meminfo: str = "/proc/meminfo", proc_cgroup: str = "/proc/self/cgroup",
                 root: str = "/sys/fs/cgroup") -> int:
    """Check processes to run at once: :func:`usable_cpus`, but no more than the memory at hand (the
    system's available memory, and a cgroup limit's headroom) holds at :data:`MB_PER_JOB` each; at least 1."""
    cpus = usable_cpus(proc_cgroup, root)
    budgets = [b for b in (available_bytes(meminfo), memory_headroom_bytes(cgroup_dirs("memory", proc_cgroup, root)))
               if b is not None]
    if not budgets:
        return cpus
    return max(1, min(cpus, min(budgets) // (MB_PER_JOB * 2**20)))
