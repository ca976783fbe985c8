"""The exact shape of JSON that dpverify reads back from disk (a cache entry, the listing index, a
certificate folder's ``index.json``): :func:`problem` says where a value departs from its shape, so
that a file of another shape is refused in one line instead of failing somewhere later.

A shape is one of: a type (``str``, ``int``, ``float``, ``bool``, ``NUMBER``), a tuple of allowed
values (``("holds", "violated")``), :class:`Optional`, :class:`ListOf`, :class:`DictOf` (string keys),
:class:`Record` (exactly these keys, some optional) or :data:`JSON` (any JSON value, nested at most
:data:`MAX_DEPTH` deep).
"""
from __future__ import annotations

import math
from dataclasses import dataclass

__all__ = ["JSON", "NUMBER", "DictOf", "ListOf", "Optional", "Record", "problem"]

MAX_DEPTH = 40


class _Number:
    """A JSON number (not a boolean), or one of the strings ``"inf"``, ``"-inf"``, ``"nan"`` that strict
    JSON writes for non-finite floats (``dpverify.jsonnum.json_safe``)."""

    def __repr__(self) -> str:
        return "a number"


class _Json:
    def __repr__(self) -> str:
        return "a JSON value"


NUMBER, JSON = _Number(), _Json()


@dataclass(frozen=True)
class _Of:
    """A shape made of one other shape (equal only to the same kind over an equal shape)."""
    shape: object


class Optional(_Of):
    """``shape``, or null."""


class ListOf(_Of):
    """A list of ``shape``."""


class DictOf(_Of):
    """A dict from strings to ``shape``."""


@dataclass(frozen=True)
class Record:
    fields: dict
    optional: frozenset = frozenset()


def _json_problem(value, where: str, depth: int) -> str | None:
    if depth > MAX_DEPTH:
        return f"{where}: nested deeper than {MAX_DEPTH}"
    if value is None or isinstance(value, (bool, int, str)):
        return None
    if isinstance(value, float):
        return None if math.isfinite(value) else f"{where}: a non-finite number"
    if isinstance(value, list):
        for i, v in enumerate(value):
            p = _json_problem(v, f"{where}[{i}]", depth + 1)
            if p:
                return p
        return None
    if isinstance(value, dict):
        for k, v in value.items():
            if not isinstance(k, str):
                return f"{where}: a key that is not a string"
            p = _json_problem(v, f"{where}.{k}", depth + 1)
            if p:
                return p
        return None
    return f"{where}: {type(value).__name__} is not JSON"


def problem(value, shape, where: str = "$") -> str | None:  # noqa: C901 - one case per kind of shape
    """Where ``value`` departs from ``shape`` (``"$.evidence[0].verdict: expected one of ..."``), or None."""
    if shape is JSON:
        return _json_problem(value, where, 0)
    if shape is NUMBER:
        ok = (isinstance(value, (int, float)) and not isinstance(value, bool)) or value in ("inf", "-inf", "nan")
        return None if ok else f"{where}: expected a number, got {type(value).__name__}"
    if isinstance(shape, Optional):
        return None if value is None else problem(value, shape.shape, where)
    if isinstance(shape, tuple):
        return None if isinstance(value, str) and value in shape else \
            f"{where}: expected one of {', '.join(map(repr, shape))}, got {str(value)[:40]!r}"
    if isinstance(shape, type):
        ok = isinstance(value, shape) and not (isinstance(value, bool) and shape is not bool)
        return None if ok else f"{where}: expected {shape.__name__}, got {type(value).__name__}"
    if isinstance(shape, ListOf):
        if not isinstance(value, list):
            return f"{where}: expected a list, got {type(value).__name__}"
        for i, v in enumerate(value):
            p = problem(v, shape.shape, f"{where}[{i}]")
            if p:
                return p
        return None
    if isinstance(shape, (DictOf, Record)):
        if not isinstance(value, dict):
            return f"{where}: expected an object, got {type(value).__name__}"
        if isinstance(shape, Record):
            missing = sorted(set(shape.fields) - set(value) - set(shape.optional))
            extra = sorted(set(value) - set(shape.fields))
            if missing or extra:
                return f"{where}: " + ("; ".join(filter(None, [missing and f"missing {', '.join(missing)}",
                                                             extra and f"unknown {', '.join(map(str, extra))[:60]}"])))
            items = [(k, value[k], shape.fields[k]) for k in shape.fields if k in value]
        else:
            items = [(k, v, shape.shape) for k, v in value.items()]
        for k, v, s in items:
            if not isinstance(k, str):
                return f"{where}: a key that is not a string"
            p = problem(v, s, f"{where}.{k}")
            if p:
                return p
        return None
    raise TypeError(f"shape.problem: unknown shape {shape!r}")   # pragma: no cover - a bug of the caller
