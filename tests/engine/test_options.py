"""The options of a run, declared once (dpverify.config.OPTIONS): every option reaches ``Config`` through both
front ends -- the command line's flag (check, report, certify) and ``dpverify.check``'s keyword -- with the same
default, and a value that is not valid is refused by both in one line naming it."""
from __future__ import annotations

import inspect
import re

import pytest

import dpverify
import dpverify.checks
import dpverify.runner
from dpverify.cli import build_parser, main
from dpverify.config import OPTIONS, Config

CLAIM = "dni/thm-4.3"
AT_TEXT, AT = "kappa=2,alpha=0.1,alpha0=1,R=1,T=3,t=1", {"kappa": 2, "alpha": 0.1, "alpha0": 1, "R": 1, "T": 3, "t": 1}
# a valid value other than the default, as the command line writes it and as Python does
OTHER = {"seed": ("7", 7), "runs": ("4000", 4000), "samples": ("30", 30), "confidence": ("0.95", 0.95),
         "at": (AT_TEXT, AT), "chunk_runs": ("1024", 1024), "symbolic_timeout": ("30", 30.0), "dps": ("60", 60),
         "prove_box": (None, True), "box_budget": ("10", 10), "box_seconds": ("60", 60.0),
         "adversary": ("2.5", 2.5), "deep_proofs": (None, True), "quick": (None, True)}
# a value that is not valid (bool flags take none)
BAD = {"seed": "-1", "runs": "1", "samples": "0", "confidence": "1", "chunk_runs": "0", "symbolic_timeout": "inf",
       "dps": "3", "box_budget": "0", "box_seconds": "0", "adversary": "nan"}
NAMES = [o.name for o in OPTIONS]


class Captured(Exception):
    pass


def _through_cli(monkeypatch, argv) -> Config:
    """The Config a command line would check with (the run itself replaced by a capture)."""
    seen = {}

    def run_checks(claims, cfg_kw, **kw):
        seen["cfg"] = Config(**cfg_kw)
        raise Captured()
    monkeypatch.setattr(dpverify.runner, "run_checks", run_checks)
    main(argv)
    return seen["cfg"]


def _through_api(monkeypatch, **options) -> Config:
    seen = {}

    def run(claim, cfg):
        seen["cfg"] = cfg
        raise Captured()
    monkeypatch.setattr(dpverify.checks, "run", run)
    with pytest.raises(Captured):
        dpverify.check(CLAIM, **options)
    return seen["cfg"]


def _argv(command, out, *flag):
    ids = ["--paper", "dni"] if command == "report" else [CLAIM]
    where = ["--out", str(out)] if command == "certify" else []
    return [command, *ids, *where, "--no-progress", *flag]


def test_every_option_has_an_example():
    assert set(OTHER) == set(NAMES) and set(BAD) <= set(NAMES)


@pytest.mark.parametrize("command", ["check", "report", "certify"])
@pytest.mark.parametrize("name", NAMES)
def test_every_option_reaches_config_through_the_command_line(monkeypatch, tmp_path, command, name):
    opt = next(o for o in OPTIONS if o.name == name)
    if name == "at" and command != "check":        # only `check` pins one claim
        with pytest.raises(SystemExit):
            build_parser().parse_args(_argv(command, tmp_path, opt.flag, AT_TEXT))
        return
    text, value = OTHER[name]
    flag = [opt.flag] if text is None else [opt.flag, text]
    assert getattr(_through_cli(monkeypatch, _argv(command, tmp_path, *flag)), name) == value != opt.default
    default = _through_cli(monkeypatch, _argv(command, tmp_path))
    assert getattr(default, name) == opt.default == getattr(Config(), name)


@pytest.mark.parametrize("name", NAMES)
def test_every_option_reaches_config_through_dpverify_check(monkeypatch, name):
    opt = next(o for o in OPTIONS if o.name == name)
    value = OTHER[name][1]
    assert getattr(_through_api(monkeypatch, **{name: value}), name) == value
    assert getattr(_through_api(monkeypatch), name) == opt.default
    param = inspect.signature(dpverify.check).parameters[name]
    assert param.kind is inspect.Parameter.KEYWORD_ONLY and param.default == opt.default
    assert opt.help in " ".join(dpverify.check.__doc__.split())


@pytest.mark.parametrize("name", sorted(BAD))
def test_a_value_that_is_not_valid_is_refused_by_both_naming_the_option(monkeypatch, capsys, name):
    opt = next(o for o in OPTIONS if o.name == name)
    with pytest.raises(SystemExit) as exc:
        main(["check", CLAIM, "--no-progress", f"{opt.flag}={BAD[name]}"])
    err = capsys.readouterr().err
    assert exc.value.code == 2 and f"{opt.flag.lstrip('-')} must be {opt.rule.what}" in err, err
    value = opt.rule.type(BAD[name])
    with pytest.raises(ValueError, match=re.escape(f"{name} must be {opt.rule.what}, got {value!r}")):
        dpverify.check(CLAIM, **{name: value})


def test_an_unknown_keyword_is_refused_naming_it():
    with pytest.raises(TypeError, match="unknown option 'sample'"):
        dpverify.check(CLAIM, sample=3)


def test_types_are_not_coerced():
    for name, value in [("runs", 2000.0), ("prove_box", 1), ("seed", True), ("confidence", "0.9"), ("at", [1])]:
        with pytest.raises(ValueError, match=f"{name} must be"):
            Config(**{name: value})


def test_every_options_help_is_in_the_command_lines_help():
    sub = build_parser()._subparsers._group_actions[0].choices
    for command in ("check", "report", "certify"):
        text = "".join(sub[command].format_help().split())     # argparse wraps lines, at hyphens too
        for opt in OPTIONS:
            if opt.name != "at" or command == "check":
                assert opt.flag in text and "".join(opt.help.rstrip(")").split()) in text, (command, opt.name)
