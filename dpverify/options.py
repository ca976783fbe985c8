"""The command line's input, read and validated before any work: ``--at`` points and the options of the
checks, one flag per option of a run as :mod:`dpverify.config` declares it (every number finite, every
integer below 2^63, every message one short line naming the option and its value).
:mod:`dpverify.cli` re-exports :func:`parse_at` and :class:`UsageError`."""
from __future__ import annotations

import argparse
import math
import re
from typing import Any

from . import config
from .resources import MB_PER_JOB
from .config import Option

__all__ = ["UsageError", "add_check_options", "config_kwargs", "int_at_least", "nonneg_int", "parse_at", "positive_int"]


class UsageError(Exception):
    pass


_INT = re.compile(r"^[+-]?\d+$")


def _at_number(name: str, value: str):
    """An integer literal as an int (exactly, never through a float), else a float, else None; a number
    that is not finite, or an integer too large for a float, is refused naming ``name``."""
    shown = value if len(value) <= 24 else f"{value[:12]}...{value[-4:]} ({len(value)} characters)"
    if _INT.match(value):
        if len(value.lstrip("+-")) > 308:     # beyond every float: no check can evaluate it
            raise UsageError(f"--at: {name} = {shown} is too large (at most 308 digits)")
        return int(value)
    try:
        v = float(value)
    except ValueError:
        return None
    if not math.isfinite(v):
        raise UsageError(f"--at: {name} = {shown} is not a finite number")
    return v


def _cut(text: str) -> str:
    """``repr(text)``, cut to a readable length (an error message stays one short line)."""
    return repr(text) if len(text) <= 60 else f"{text[:40]!r}... ({len(text)} characters)"


def parse_at(text: str) -> dict[str, Any]:
    """Parse ``name=value,...``; a sequence is ``[v1,v2,...]`` or ``v1;v2;...``. Integers are read
    exactly; a repeated name, an unbalanced bracket or a non-numeric sequence is refused."""
    out: dict[str, Any] = {}
    if not text or not text.strip():
        raise UsageError("--at needs name=value pairs, e.g. --at kappa=2,alpha=0.1,T=5")
    parts, depth, cur = [], 0, ""
    for ch in text:
        if ch == "[":
            depth += 1
            if depth > 1:
                raise UsageError(f"--at {_cut(text)}: nested brackets (a sequence is [v1,v2,...])")
        elif ch == "]":
            depth -= 1
            if depth < 0:
                raise UsageError(f"--at {_cut(text)}: ']' without '['")
        if ch == "," and depth == 0:
            parts.append(cur)
            cur = ""
        else:
            cur += ch
    if depth:
        raise UsageError(f"--at {_cut(text)}: '[' without ']'")
    parts.append(cur)
    for part in parts:
        if "=" not in part:
            raise UsageError(f"--at: {_cut(part.strip())} is not name=value")
        name, value = (s.strip() for s in part.split("=", 1))
        if not name:
            raise UsageError(f"--at: missing name in {_cut(part.strip())}")
        if name in out:
            raise UsageError(f"--at: {name} is given twice")
        if not value:
            raise UsageError(f"--at: {name} has no value")
        if value.startswith("[") or ";" in value:
            if value.startswith("[") != value.endswith("]"):
                raise UsageError(f"--at: {name} = {_cut(value)} is not a sequence [v1,v2,...]")
            items = [v.strip() for v in value[1 if value.startswith("[") else 0:
                                              -1 if value.endswith("]") else None].replace(";", ",").split(",")]
            nums = [_at_number(name, v) for v in items if v]
            if any(v is None for v in nums) or any(not v for v in items[:-1]):
                raise UsageError(f"--at: {name} = {_cut(value)} is not a list of numbers")
            out[name] = [float(v) for v in nums]
            continue
        num = _at_number(name, value)
        out[name] = value if num is None else num  # not a number: a choice, e.g. adjacency=replace
    return out


def _converter(opt: Option):
    """An argparse converter for ``opt``'s flag: its value, or the option's one-line message."""
    def conv(text):
        try:
            return opt.parse(text)
        except ValueError as exc:
            raise argparse.ArgumentTypeError(str(exc)) from None
    conv.__name__ = opt.name
    return conv


def int_at_least(name: str, minimum: int):
    """An argparse converter for integers >= ``minimum`` (below 2^63) whose error names the option."""
    return _converter(Option(name, None, "", config.int_at_least(minimum), f"--{name}"))


def positive_int(name):
    return int_at_least(name, 1)


def nonneg_int(name):
    return int_at_least(name, 0)


def _with_default(opt: Option) -> str:
    """The option's help with its default: ``... (default 1)``, or inside a closing parenthesis."""
    value = f"{opt.default:g}" if isinstance(opt.default, float) else str(opt.default)
    if opt.help.endswith(")"):
        return f"{opt.help[:-1]}; default {value})"
    return f"{opt.help} (default {value})"


def add_check_options(parser, *, at: bool = False) -> None:
    """The options of the checks -- one flag per option of a run (:data:`dpverify.config.OPTIONS`, with its
    help, default and validation; ``--at`` only where ``at``: a command that pins one claim) -- and how the
    command runs them (workers, progress bar, verdict cache, Dask scheduler)."""
    checks = parser.add_argument_group("options of the checks (dpverify.check takes the same, as keywords)")
    for opt in config.OPTIONS:
        if opt.name == "at":
            if at:
                checks.add_argument(opt.flag, help=opt.help)
        elif opt.rule.type is bool:
            assert opt.default is False, opt        # a flag switches an option on
            checks.add_argument(opt.flag, action="store_true", help=opt.help)
        else:
            checks.add_argument(opt.flag, type=_converter(opt), default=opt.default, help=_with_default(opt))
    running = parser.add_argument_group("how the command runs them (results do not depend on it)")
    running.add_argument("--jobs", type=positive_int("jobs"), default=None,
                         help="worker processes (default: the CPUs this process may use, within a container's CPU "
                              f"quota, fewer where the memory at hand holds fewer at {MB_PER_JOB} MB each)")
    running.add_argument("--no-progress", action="store_true",
                         help="no progress on standard error (otherwise a bar on a terminal, and one line per "
                              "finished claim -- id, verdict, seconds, done/total, time left -- elsewhere)")
    running.add_argument("--no-cache", action="store_true",
                         help="neither replay nor store verdicts in the verdict cache (./.dpverify_cache, or "
                              "$DPVERIFY_CACHE_DIR; an unchanged claim checked with the same options replays its "
                              "verdict)")
    running.add_argument("--scheduler", metavar="ADDRESS",
                         help="send the claims to a Dask cluster (tcp://host:8786, or 'local' for a LocalCluster "
                              "of --jobs workers); results are the same as a local run")


def config_kwargs(ns, at: dict | None = None) -> dict:
    """The options of a run (every option of :data:`dpverify.config.OPTIONS`, by name) from the parsed command
    line ``ns``, ``at`` the point ``--at`` was read into."""
    return {opt.name: at if opt.name == "at" else getattr(ns, opt.dest) for opt in config.OPTIONS}
