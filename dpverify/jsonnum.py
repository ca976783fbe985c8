"""Numbers in dpverify's JSON: how a verdict writes them and reads them back.

A report rounds every measured number to 10 significant digits (:func:`round10`); the verdict cache
keeps them exact (:func:`exact_number`); :func:`number_writer` picks one. JSON has no infinity nor NaN,
so :func:`json_safe` writes them as the strings ``"inf"``, ``"-inf"`` and ``"nan"`` (:func:`dumps`: strict
JSON) and :func:`read_number` turns those strings back into floats.
"""
from __future__ import annotations

import json
import math


def round10(x):
    """``x`` as a float rounded to 10 significant digits; None for None or what is not a number."""
    if x is None:
        return None
    try:
        return float(f"{float(x):.10g}")
    except (TypeError, ValueError, OverflowError):
        return None


def exact_number(x):
    """``x`` as a float, unrounded; None for None or what is not a number."""
    if x is None:
        return None
    try:
        return float(x)
    except (TypeError, ValueError, OverflowError):
        return None


def number_writer(exact: bool):
    """:func:`exact_number` when ``exact`` (the verdict cache), else :func:`round10` (``--json``)."""
    return exact_number if exact else round10


NONFINITE = {"inf": math.inf, "-inf": -math.inf, "nan": math.nan}


def json_safe(obj):
    """``obj`` with every non-finite float replaced by the string ``"inf"``, ``"-inf"`` or ``"nan"``
    (recursively through dicts, lists and tuples), so that ``json.dumps(..., allow_nan=False)``
    writes strict JSON."""
    if isinstance(obj, float):
        if math.isfinite(obj):
            return obj
        return "nan" if obj != obj else ("inf" if obj > 0 else "-inf")
    if isinstance(obj, dict):
        return {k: json_safe(v) for k, v in obj.items()}
    if isinstance(obj, (list, tuple)):
        return [json_safe(v) for v in obj]
    return obj


def dumps(obj, **kw) -> str:
    """Strict JSON of ``obj`` (non-finite numbers as strings, see :func:`json_safe`)."""
    return json.dumps(json_safe(obj), allow_nan=False, **kw)


def read_number(x):
    """A number read back from JSON: the strings of :func:`json_safe` become floats again."""
    return NONFINITE.get(x, x) if isinstance(x, str) else x
