"""How many check processes this machine can run at once: its CPUs and its memory, as this process sees
them -- the CPUs it may be scheduled on (the affinity mask, a system call), a container's CPU quota, the
memory the system has available and a container's memory limit (Linux cgroups v1 and v2, the process's
own cgroup and every cgroup above it). The files are read from paths that are parameters, so that the
tests can give it any machine; a file that is missing, unreadable or garbled imposes no limit.
"""
from __future__ import annotations

import functools
import math
import os

#: memory set aside per check process: the largest resident set of one process of ``dpverify check --all``
#: was 440-466 MB (``benchmarks/gc_threshold.py``, peak over the command and its workers).
MB_PER_JOB = 512


def _read(path: str) -> str | None:
    try:
        with open(path) as f:
            return f.read().strip()
    except (OSError, UnicodeDecodeError, ValueError):    # ValueError: a NUL in the path
        return None


def _number(text: str | None) -> int | None:
    """A non-negative integer, or None (missing, "max", garbled, negative)."""
    try:
        n = int(text) if text is not None else None
    except ValueError:
        return None
    return n if n is not None and n >= 0 else None


def _stat(path: str, name: str) -> int | None:
    """The value of ``name`` in a ``memory.stat`` file."""
    for line in (_read(path) or "").splitlines():
        parts = line.split()
        if len(parts) == 2 and parts[0] == name:
            return _number(parts[1])
    return None


def cgroup_dirs(controller: str, proc_cgroup: str = "/proc/self/cgroup", root: str = "/sys/fs/cgroup") -> list[str]:
    """The folders that may hold cgroup files for ``controller`` (``"cpu"`` or ``"memory"``) limiting this
    process: its own cgroup's, named in ``proc_cgroup``, and every cgroup above it up to the mount's root,
    under cgroup v1's ``root/controller`` and v2's ``root`` (a container usually sees its own cgroup at
    the root). A path that would leave ``root`` (``..``, under a cgroup namespace) is ignored."""
    j = os.path.join
    mounts = []
    for line in (_read(proc_cgroup) or "").splitlines():
        parts = line.split(":", 2)
        if len(parts) != 3:
            continue
        _, controllers, path = parts
        rel = os.path.normpath(path.lstrip("/") or ".")
        if rel == ".." or rel.startswith(".." + os.sep) or os.path.isabs(rel):
            continue
        if controllers == "":                                   # v2: "0::/path"
            mounts.append((root, rel))
        elif controller in controllers.split(","):              # v1: "4:memory:/path", "1:cpu,cpuacct:/path"
            mounts += [(j(root, controllers), rel), (j(root, controller), rel)]
    mounts += [(j(root, controller), "."), (root, ".")]
    out = []
    for mount, rel in mounts:
        while True:                                             # the cgroup, then each one above it
            d = os.path.normpath(j(mount, rel))
            if d not in out:
                out.append(d)
            if rel in (".", ""):
                break
            rel = os.path.dirname(rel) or "."
    return out


def cpu_quota(dirs: list[str]) -> float | None:
    """The CPUs the tightest cgroup quota among ``dirs`` allows (e.g. 1.5), or None without a quota."""
    limits = []
    for d in dirs:
        v2 = (_read(os.path.join(d, "cpu.max")) or "").split()
        pairs = [(_number(v2[0]), _number(v2[1]))] if len(v2) == 2 else []
        pairs.append((_number(_read(os.path.join(d, "cpu.cfs_quota_us"))),
                      _number(_read(os.path.join(d, "cpu.cfs_period_us")))))
        for quota, period in pairs:
            if quota and period:
                try:
                    limits.append(quota / period)
                except OverflowError:    # a quota no machine has: no limit
                    pass
    return min(limits) if limits else None


def memory_headroom_bytes(dirs: list[str]) -> int | None:
    """The bytes the tightest cgroup memory limit among ``dirs`` still allows -- its limit less its usage,
    the usage without the inactive file cache the kernel reclaims first (as ``docker stats`` counts it) --
    or None without a limit. v1's "no limit" (a number near 2**63) leaves room for any machine."""
    room = []
    for d in dirs:
        for limit_file, usage_file, inactive in (("memory.max", "memory.current", "inactive_file"),
                                                 ("memory.limit_in_bytes", "memory.usage_in_bytes",
                                                  "total_inactive_file")):
            limit = _number(_read(os.path.join(d, limit_file)))
            if limit is None:
                continue
            usage = _number(_read(os.path.join(d, usage_file))) or 0
            cache = _stat(os.path.join(d, "memory.stat"), inactive) or 0
            room.append(max(0, limit - max(0, usage - cache)))
    return min(room) if room else None


def available_bytes(meminfo: str = "/proc/meminfo") -> int | None:
    """``MemAvailable`` of ``meminfo`` in bytes (None where the system has none)."""
    for line in (_read(meminfo) or "").splitlines():
        parts = line.split()
        if len(parts) >= 2 and parts[0] == "MemAvailable:":
            kb = _number(parts[1])
            return None if kb is None else kb * 1024
    return None


@functools.lru_cache(maxsize=8)
def _quota(proc_cgroup: str, root: str) -> float | None:
    """:func:`cpu_quota` of this process's cgroups, read once per process (the simulators ask for the
    CPUs at every call; a quota is set when a container starts)."""
    return cpu_quota(cgroup_dirs("cpu", proc_cgroup, root))


def usable_cpus(proc_cgroup: str = "/proc/self/cgroup", root: str = "/sys/fs/cgroup") -> int:
    """The CPUs this process may run on, fewer under a cgroup CPU quota (rounded up); at least 1."""
    try:
        cpus = len(os.sched_getaffinity(0))
    except (AttributeError, OSError):    # not Linux
        cpus = os.cpu_count() or 1
    quota = _quota(proc_cgroup, root)
    if quota is not None:
        cpus = min(cpus, math.ceil(quota))
    return max(1, cpus)


def default_jobs(meminfo: str = "/proc/meminfo", proc_cgroup: str = "/proc/self/cgroup",
                 root: str = "/sys/fs/cgroup") -> int:
    """Check processes to run at once: :func:`usable_cpus`, but no more than the memory at hand (the
    system's available memory, and the tightest cgroup limit's headroom) holds at :data:`MB_PER_JOB`
    each; at least 1."""
    cpus = usable_cpus(proc_cgroup, root)
    budgets = [b for b in (available_bytes(meminfo), memory_headroom_bytes(cgroup_dirs("memory", proc_cgroup, root)))
               if b is not None]
    if not budgets:
        return cpus
    return max(1, min(cpus, min(budgets) // (MB_PER_JOB * 2**20)))
