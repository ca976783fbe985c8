"""The command line's garbage-collector thresholds (dpverify.gc_threshold): set for the command, restored after,
overridable by DPVERIFY_GC_THRESHOLD, refused clearly when malformed, and without effect on any result."""
import gc
import json
import os
import subprocess
import sys

import pytest

from dpverify import cli
from dpverify.gc_threshold import THRESHOLD, fewer_collections, threshold_from_env


@pytest.fixture
def restore_gc():
    before = gc.get_threshold()
    yield
    gc.set_threshold(*before)


def test_block_runs_with_the_thresholds_and_restores_them_even_on_error(restore_gc):
    gc.set_threshold(700, 10, 10)
    with fewer_collections((1234, 5, 6)):
        assert gc.get_threshold() == (1234, 5, 6)
    assert gc.get_threshold() == (700, 10, 10)
    with pytest.raises(RuntimeError):
        with fewer_collections((99, 9, 9)):
            raise RuntimeError("boom")
    assert gc.get_threshold() == (700, 10, 10)


@pytest.mark.parametrize("raw, expected", [(None, THRESHOLD), ("", THRESHOLD), ("700,10,10", (700, 10, 10)),
                                           ("0", (0,)), (" 2000 , 5 ", (2000, 5))])
def test_threshold_from_env_reads_the_variable(raw, expected):
    env = {} if raw is None else {"DPVERIFY_GC_THRESHOLD": raw}
    assert threshold_from_env(env) == expected


@pytest.mark.parametrize("raw", ["fast", "1,2,3,4", "-1", "700,,10", "1.5", "2147483648", "700,99999999999"])
def test_malformed_threshold_is_refused_naming_the_variable_and_value(raw):
    with pytest.raises(ValueError, match=rf"DPVERIFY_GC_THRESHOLD .*{raw!r}".replace("(", r"\(")):
        threshold_from_env({"DPVERIFY_GC_THRESHOLD": raw})


def test_cli_runs_its_command_with_the_thresholds_and_restores_them(monkeypatch, restore_gc):
    seen = []
    monkeypatch.setattr(cli, "cmd_list", lambda ns: seen.append(gc.get_threshold()) or 0)
    monkeypatch.delenv("DPVERIFY_GC_THRESHOLD", raising=False)
    gc.set_threshold(700, 10, 10)
    assert cli.main(["list"]) == 0
    monkeypatch.setenv("DPVERIFY_GC_THRESHOLD", "4321,3,2")
    assert cli.main(["list"]) == 0
    assert seen == [THRESHOLD, (4321, 3, 2)]
    assert gc.get_threshold() == (700, 10, 10)


def test_cli_refuses_a_malformed_variable_with_a_usage_error(monkeypatch, capsys):
    monkeypatch.setenv("DPVERIFY_GC_THRESHOLD", "lots")
    assert cli.main(["list"]) == 2
    err = capsys.readouterr().err
    assert "DPVERIFY_GC_THRESHOLD" in err and "'lots'" in err and "Traceback" not in err


# claims whose checks allocate heavily (Hypothesis, mpmath, SymPy, dp-accounting, audits, Monte Carlo)
CLAIMS = ["hdp/eq-2", "dni/lemma-b.3", "erm/thm-3b-corrected", "dni/thm-4.8"]


def _json(threshold):
    env = {**os.environ, "DPVERIFY_GC_THRESHOLD": threshold, "DPVERIFY_CACHE": "0"}
    r = subprocess.run([sys.executable, "-m", "dpverify", "check", *CLAIMS, "--json", "--no-timing",
                        "--no-progress", "--jobs", "2"], capture_output=True, text=True, env=env)
    assert r.returncode == 0, r.stderr[-2000:]
    return json.loads(r.stdout)


def test_results_do_not_depend_on_when_cycles_are_collected():
    """CPython's default thresholds, the command line's, and no automatic collection at all: the same
    JSON, every verdict and number (in forked workers, which inherit the thresholds)."""
    default, tuned, never = _json("700,10,10"), _json(",".join(map(str, THRESHOLD))), _json("0")
    assert [v["id"] for v in default] == CLAIMS
    assert default == tuned == never


def _thresholds_here(_):
    return gc.get_threshold()


def test_forked_check_workers_inherit_the_thresholds(restore_gc):
    """The command's worker processes (dpverify.distributed.process_map, forked) collect as the command does."""
    from dpverify.distributed import process_map

    gc.set_threshold(700, 10, 10)
    with fewer_collections((4321, 3, 2)):
        assert process_map(_thresholds_here, [0, 1, 2], workers=2) == [(4321, 3, 2)] * 3
    assert process_map(_thresholds_here, [0], workers=1) == [(700, 10, 10)]
