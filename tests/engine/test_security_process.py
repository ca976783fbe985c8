"""Issue 36, signals, full disks and crashes below Python: every fault leaves the output whole.

SIGTERM (``kill``, ``docker stop``; ``timeout`` sends it to the whole process group) is handled as Ctrl-C:
the workers end, the verdicts finished so far are written as JSON marked incomplete, exit 143. A full disk
while a report is written leaves the previous report whole and is a usage error naming the file (exit 2);
a file larger than the limit is refused by the kernel (RLIMIT_FSIZE) exactly as on a full disk, and
``/dev/full`` gives ENOSPC itself. A claim whose arithmetic aborts the process (GMP's "overflow in mpz
type" under mpmath) costs only that claim, with ``--jobs 1`` too."""
from __future__ import annotations

import errno
import os
import resource
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from test_cli_faults import FAST, GOOD, ROOT, claims_file, dpverify, one_line_error, strict_json

SLOW = GOOD + '''
def _stall(v):
    """In a worker: say which process it is, then take (much) longer than the test waits."""
    if os.getpid() != PARENT:
        marker = os.environ["SLOW_MARKER"]
        if not os.path.exists(marker):
            with open(marker + ".tmp", "w") as fh:
                fh.write(str(os.getpid()))
            os.replace(marker + ".tmp", marker)
        import time
        time.sleep(120)
    return v
stall = implemented_function("stall", _stall)
SLOW = Claim(id="mine/slow", source=_src("Lemma 2"), domain=Domain(x=Real(gt=0, le=4)),
             statements=(Inequality("stall(x) <= x + 1", lhs=stall(x), rhs=x + 1),))
CLAIMS = [GOOD, SLOW]
'''


def _alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except (OSError, IndexError):
        return False
    return state not in ("Z", "X")


def _start_and_signal(tmp_path, jobs: str, group: bool):
    path = claims_file(tmp_path, SLOW)
    marker = tmp_path / "slow.pid"
    env = {**os.environ, "PYTHONPATH": str(ROOT), "SLOW_MARKER": str(marker)}
    env.pop("DPVERIFY_TRACEBACK", None)
    proc = subprocess.Popen([sys.executable, "-m", "dpverify", "check", "--all", "--module", path, "--json",
                             "--no-timing", "--jobs", jobs, *FAST], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            text=True, env=env, cwd=tmp_path, start_new_session=True)
    worker = None
    try:
        deadline = time.monotonic() + 300
        while not marker.exists() and time.monotonic() < deadline and proc.poll() is None:
            time.sleep(0.1)
        assert marker.exists(), "the slow claim never started"
        worker = int(marker.read_text())
        if group:                       # as `timeout` does: the whole process group
            os.killpg(proc.pid, signal.SIGTERM)
        else:                           # as `kill` and `docker stop` do: the main process
            os.kill(proc.pid, signal.SIGTERM)
        out, err = proc.communicate(timeout=120)
        for _ in range(100):
            if not _alive(worker):
                break
            time.sleep(0.1)
        return proc.returncode, out, err, _alive(worker)
    finally:                            # never leave the processes this test started
        if proc.poll() is None:
            proc.kill()
            proc.wait()
        if worker is not None and _alive(worker):
            os.kill(worker, signal.SIGKILL)


@pytest.mark.parametrize("jobs, group", [("2", False), ("1", True), ("2", True)],
                         ids=["kill-main-jobs-2", "timeout-group-jobs-1", "timeout-group-jobs-2"])
def test_sigterm_ends_the_workers_and_writes_the_partial_json(tmp_path, jobs, group):
    """SIGTERM to the main process exited 143 with no output and left the pool workers running forever;
    SIGTERM to the process group (as `timeout` sends) wrote no partial JSON."""
    code, out, err, worker_alive = _start_and_signal(tmp_path, jobs, group)
    assert code == 143, (code, err[-2000:])
    assert "Traceback" not in err and "terminated" in err
    *verdicts, mark = strict_json(out)
    assert mark["incomplete"] is True and "mine/slow" in mark["missing"]
    assert sorted([v["id"] for v in verdicts] + mark["missing"]) == ["mine/good", "mine/slow"]
    assert not worker_alive, "a worker outlived dpverify"


REPORT = GOOD + '''
WRONG = Claim(id="mine/wrong", source=_src("Lemma 2"), domain=Domain(x=Real(gt=0, le=4)),
              statements=(Inequality("x^2 <= 15", lhs=x**2, rhs=15),), expected="violated",
              reason="fails at x = 4 (a reason long enough for the errata to pass the file size limit)",
              witness={"x": 4})
CLAIMS = [GOOD, WRONG]
'''


def test_a_full_disk_during_report_out_keeps_the_previous_report(tmp_path):
    """A full disk during `report --out` replaced the previous good report with a truncated file and
    called it a bug of dpverify."""
    path = claims_file(tmp_path, REPORT)
    out_dir = tmp_path / "out"
    out_dir.mkdir()
    report = out_dir / "report.md"
    report.write_text("the previous report\n")

    def limit():
        resource.setrlimit(resource.RLIMIT_FSIZE, (100, 100))
    env = {**os.environ, "PYTHONPATH": str(ROOT), "PYTHONDONTWRITEBYTECODE": "1"}
    env.pop("DPVERIFY_TRACEBACK", None)
    r = subprocess.run([sys.executable, "-m", "dpverify", "report", "--errata", "--module", path, "--out", str(report)],
                       capture_output=True, text=True, env=env, preexec_fn=limit, timeout=600)
    one_line_error(r, 2, "--out", "report.md", "File too large")
    assert report.read_text() == "the previous report\n"
    assert sorted(p.name for p in out_dir.iterdir()) == ["report.md"]      # no temporary file left


@pytest.mark.skipif(not os.path.exists("/dev/full"), reason="needs /dev/full")
def test_no_space_left_is_a_usage_error_naming_the_file(tmp_path):
    path = claims_file(tmp_path, REPORT)
    r = dpverify("report", "--errata", "--module", path, "--out", "/dev/full")
    one_line_error(r, 2, "/dev/full", "No space left on device")


# --------------------------------------------------------------------------- a crash below Python
GMP = GOOD + '''
BUMP = Claim(id="mine/bump", source=_src("Lemma 2"), domain=Domain(x=Real(gt=0, lt=10)),
             statements=(Inequality("exp(-((x - 37/10) 10^6)^2) <= 1/2",
                                    lhs=sp.exp(-((x - sp.Rational(37, 10)) * 10**6)**2), rhs=sp.Rational(1, 2)),))
CLAIMS = [GOOD, BUMP]
'''


def test_a_claim_that_aborts_the_process_costs_only_itself_with_one_job(tmp_path):
    """`exp(-((x - 37/10) 10^6)^2) <= 1/2` on (0, 10) at `--seed 100` aborted the process with "gmp:
    overflow in mpz type" (mpmath on gmpy2): no verdict, no JSON, and with `--jobs 1` every other claim's
    result lost too."""
    path = claims_file(tmp_path, GMP)
    r = dpverify("check", "--all", "--module", path, "--seed", "100", "--jobs", "1", "--json", "--no-timing", *FAST)
    assert r.returncode == 3, r.stderr[-2000:]
    good, bump = strict_json(r.stdout)          # the JSON whole: nothing the worker printed got into it
    assert good["id"] == "mine/good" and good["verdict"] == "verified"
    assert bump["verdict"] == "error" and "signal 6 (SIGABRT)" in bump["evidence"][0]["detail"]
    assert "gmp: overflow" in r.stderr


ABORT = GOOD + '''
def _abort(v):
    os.abort()
boom = implemented_function("boom", _abort)
BOOM = Claim(id="mine/boom", source=_src("Lemma 2"), domain=Domain(x=Real(gt=0, le=4)),
             statements=(Inequality("boom(x) <= 1", lhs=boom(x), rhs=1),))
CLAIMS = [BOOM, GOOD]
'''


@pytest.mark.parametrize("jobs", ["1", "2"])
def test_a_check_that_aborts_gets_error_naming_the_signal_and_the_others_are_checked(tmp_path, jobs):
    path = claims_file(tmp_path, ABORT)
    r = dpverify("check", "--all", "--module", path, "--jobs", jobs, "--json", "--no-timing", *FAST)
    assert r.returncode == 3, r.stderr[-2000:]
    boom, good = strict_json(r.stdout)
    assert good["verdict"] == "verified" and boom["verdict"] == "error"
    assert "worker died: signal 6 (SIGABRT)" in boom["evidence"][0]["detail"]


# --------------------------------------------------------------------------- fuzz: a write that fails
class _FailingOs:
    """``os`` for dpverify.files, with a write that fails after ``after`` bytes (ENOSPC, as a full disk)
    or an ``os.replace`` that fails (EXDEV, EACCES)."""

    def __init__(self, after: int | None, replace_errno: int | None):
        self.after, self.replace_errno = after, replace_errno

    def __getattr__(self, name):
        return getattr(os, name)

    def fdopen(self, fd, mode="r", *args, **kwargs):
        real = os.fdopen(fd, mode, *args, **kwargs)
        if self.after is None:
            return real
        after = self.after

        class Full:
            def __enter__(self):
                return self

            def __exit__(self, *exc):
                real.close()
                return False

            def write(self, data):
                real.write(data[:after])
                raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))
        return Full()

    def replace(self, src, dst):
        if self.replace_errno is not None:
            raise OSError(self.replace_errno, os.strerror(self.replace_errno))
        return os.replace(src, dst)


@settings(max_examples=60, derandomize=True, deadline=None, database=None)
@given(old=st.one_of(st.none(), st.binary(max_size=200)), new=st.binary(max_size=400) | st.text(max_size=200),
       fault=st.one_of(st.none(), st.tuples(st.integers(0, 400), st.none()),
                       st.tuples(st.none(), st.sampled_from([errno.EXDEV, errno.EACCES, errno.EROFS]))))
def test_fuzz_a_failed_write_leaves_the_previous_file_whole(tmp_path_factory, old, new, fault):
    """Whatever the content and wherever the write fails (a full disk after k bytes, a rename refused),
    the target is the old file or the new one, whole; a failure is a WriteError naming the target; no
    temporary file is left."""
    from dpverify import files

    folder = tmp_path_factory.mktemp("w")
    target = folder / "out.txt"
    if old is not None:
        target.write_bytes(old)
    saved = files.os
    files.os = _FailingOs(*fault) if fault is not None else os
    try:
        files.write_atomic(target, new)
        failed = None
    except files.WriteError as exc:
        failed = exc
    finally:
        files.os = saved
    want = new.encode() if isinstance(new, str) else new
    if failed is None:
        assert fault is None and target.read_bytes() == want
    else:
        assert fault is not None and failed.filename == str(target) and str(target) in str(failed)
        assert (target.read_bytes() if target.exists() else None) == old
    assert [p.name for p in folder.iterdir()] == (["out.txt"] if target.exists() else [])
