"""Constants printed inside claims, recomputed from their derivations.

``printed`` is the text in the paper; ``derived`` is computed at high precision from the
constant's SymPy expression (or callable). Status ``match`` means the derived value rounds to the
printed one at the printed number of significant digits (rule "truncate": the printed digits are
the derived ones cut short, and the status says what rounding would give); ``valid, not tight`` means a printed
lower (upper) constant is below (above) the tight one derived; ``differs`` is a paper error or
ours, to be explained in the claim's reason.
"""
from __future__ import annotations

import mpmath
import sympy as sp

from .claims import Constant


def derive(c: Constant, dps: int = 30):
    if callable(c.derive) and not isinstance(c.derive, sp.Basic):
        return mpmath.mpf(c.derive())
    with mpmath.workdps(dps):
        return mpmath.mpf(str(sp.N(c.derive, dps)))


def _sig(printed: str) -> int:
    digits = printed.replace("-", "").replace(".", "").lstrip("0")
    return max(1, len(digits))


def status(c: Constant, value) -> str:
    printed = mpmath.mpf(sp.N(sp.sympify(c.printed), 30).__str__())
    if c.match == "round":
        sig = _sig(c.printed)
        return "match" if float(f"{float(value):.{sig}g}") == float(printed) else "differs"
    if c.match == "truncate":  # printed digits are the derived value cut, not rounded
        sig = _sig(c.printed)
        cut = mpmath.mpf(mpmath.nstr(value, sig + 5, strip_zeros=False)[: len(c.printed)])
        rounded = float(f"{float(value):.{sig}g}")
        if float(cut) == float(printed):
            return "match" if rounded == float(printed) else f"match (truncated; rounds to {rounded:g})"
        return "differs"
    if c.match == "bound-le":  # printed is a valid lower constant when printed <= derived
        return ("match" if abs(printed - value) < 1e-20 else "valid, not tight") if printed <= value + 1e-20 else "differs"
    if c.match == "bound-ge":
        return ("match" if abs(printed - value) < 1e-20 else "valid, not tight") if printed >= value - 1e-20 else "differs"
    raise ValueError(f"unknown match rule {c.match!r} for constant {c.name!r}")


def rows(claims) -> list[dict]:
    out = []
    for claim in claims:
        for c in claim.constants:
            v = derive(c)
            out.append({"claim": claim.id, "name": c.name, "printed": c.printed,
                        "derived": mpmath.nstr(v, 10), "status": status(c, v), "note": c.note})
    return out
