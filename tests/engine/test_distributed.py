"""Dask: the same tasks on a real LocalCluster (loopback) give the same JSON as a local run, also
when a worker dies mid-run. (The symbolic time limit in worker threads: tests/engine/test_checks_time_limit.py.)"""
from __future__ import annotations

import contextlib
import io
import json
import os
import signal

import pytest

pytest.importorskip("distributed")

from dpverify.cli import _check_one, main  # noqa: E402
from dpverify.distributed import client, dask_map  # noqa: E402

IDS = ["dni/eq-25", "dni/lemma-b.4", "dni/claim-zcdp-inversion", "dni/claim-r-comparison-corrected",
       "dni/lemma-b.7", "dni/thm-a.3"]
CFG = dict(seed=3, runs=2000, samples=30, confidence=0.99, at=None, chunk_runs=65536)


LOCAL_ARGS = ["--json", "--no-timing", "--no-progress", "--samples", "30", "--runs", "2000", "--seed", "3"]


def _local_json(capsys, *extra):
    code = main(["check", *IDS, *LOCAL_ARGS, *extra])
    out = capsys.readouterr().out
    assert code == 0
    return out


# The two tests that compare with the local run share it (one worker runs both).
LOCAL = pytest.mark.xdist_group("distributed-local-json")


@pytest.fixture(scope="module")
def local_json():
    """``_local_json(capsys, "--jobs", "1")``, computed once in this module."""
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        code = main(["check", *IDS, *LOCAL_ARGS, "--jobs", "1"])
    assert code == 0
    return out.getvalue()


@LOCAL
def test_local_cluster_gives_the_local_json(capsys, local_json):
    dask = _local_json(capsys, "--scheduler", "local", "--jobs", "2")
    assert dask == local_json


@LOCAL
def test_a_worker_killed_mid_run_loses_nothing(local_json):
    local = json.loads(local_json)
    tasks = [(i, CFG, ()) for i in IDS]
    killed = []
    with client("local", workers=2) as c:
        def kill_one(index, result):
            if killed:
                return
            busy = {w: len(t) for w, t in c.processing().items() if t}
            if busy:
                victim = max(busy, key=busy.get)
                pid = c.run(os.getpid, workers=[victim])[victim]
                os.kill(pid, signal.SIGKILL)  # the worker process dies; its nanny starts a new one
                killed.append(victim)

        verdicts = dask_map(_check_one, tasks, scheduler="local", dask_client=c, progress=False,
                            on_result=kill_one)
    assert killed, "a worker was busy when the first result arrived, and was killed"
    got = [v.to_json(timing=False) for v in verdicts]
    assert got == local


def test_unreachable_scheduler_is_a_usage_error(capsys, monkeypatch):
    import dpverify.distributed

    # nothing listens on port 9: Dask retries the refused connection until the timeout, 20 s by default
    monkeypatch.setattr(dpverify.distributed, "CONNECT_TIMEOUT", "1s")
    code = main(["check", "dni/eq-25", "--scheduler", "tcp://127.0.0.1:9", "--no-progress", "--samples", "5"])
    assert code == 2 and "cannot connect" in capsys.readouterr().err


def test_reproduce_on_a_local_cluster_writes_the_same_csv(tmp_path):
    from dpverify.experiments import use_scheduler
    from theorems.dni import experiments as rep

    rep.reproduce("dni/fig-2", tmp_path / "local", quick=True, reps=4, jobs=1, seed=5, progress=False)
    with use_scheduler("local", workers=2):
        rep.reproduce("dni/fig-2", tmp_path / "dask", quick=True, reps=4, jobs=2, seed=5, progress=False)
    for name in ("digits35_squared_relative_loss.csv", "digits35_squared_influence.csv"):
        a = (tmp_path / "local" / name).read_text().split("\n", 3)[-1]
        b = (tmp_path / "dask" / name).read_text().split("\n", 3)[-1]
        assert a == b, name
