"""The command line's input, read and validated before any work: ``--at`` points and the numeric
options (every number finite, every integer below 2^63, every message one short line naming the
option and its value). :mod:`dpverify.cli` re-exports :func:`parse_at` and :class:`UsageError`."""
from __future__ import annotations

import argparse
import math
import re
from typing import Any

__all__ = ["UsageError", "confidence", "int_at_least", "nonneg_float", "nonneg_int", "parse_at", "positive_int"]


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


def int_at_least(name: str, minimum: int):
    """An argparse converter for integers >= ``minimum`` whose error names the option."""
    what = "a positive integer" if minimum == 1 else "a non-negative integer" if minimum == 0 else \
        f"an integer >= {minimum}"

    def conv(s):
        try:
            v = int(s)
        except ValueError:
            raise argparse.ArgumentTypeError(f"{name} must be {what}, got {s!r}") from None
        if v < minimum:
            raise argparse.ArgumentTypeError(f"{name} must be {what}, got {s!r}")
        if v >= 2**63:                   # what a 64-bit integer holds (NumPy, seeds, counts)
            raise argparse.ArgumentTypeError(f"{name} must be below 2^63, got {s[:24]!r}... ({len(s)} digits)")
        return v
    return conv


def positive_int(name):
    return int_at_least(name, 1)


def nonneg_int(name):
    return int_at_least(name, 0)


def nonneg_float(name):
    def parse(s):
        try:
            v = float(s)
        except ValueError:
            raise argparse.ArgumentTypeError(f"{name} must be a number >= 0, got {s!r}") from None
        if not (v >= 0 and math.isfinite(v)):
            raise argparse.ArgumentTypeError(f"{name} must be a finite number >= 0, got {s!r}")
        return v
    return parse


def confidence(s):
    try:
        v = float(s)
    except ValueError:
        raise argparse.ArgumentTypeError(f"confidence must be a number in [0.5, 1), got {s!r}") from None
    if not (0.5 <= v < 1):
        raise argparse.ArgumentTypeError(f"confidence must be in [0.5, 1), got {s!r}")
    return v
