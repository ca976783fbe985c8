"""Plain-text tables (of verdicts, claims, constants): no dependency, so that every layer can print."""
from __future__ import annotations

from typing import Iterable, Sequence


def text_table(headers: Sequence[str], rows: Iterable[Sequence[str]]) -> str:
    rows = [[str(c) for c in r] for r in rows]
    widths = [max(len(h), *(len(r[i]) for r in rows)) if rows else len(h) for i, h in enumerate(headers)]
    line = "  ".join(h.ljust(w) for h, w in zip(headers, widths))
    sep = "  ".join("-" * w for w in widths)
    body = ["  ".join(c.ljust(w) for c, w in zip(r, widths)) for r in rows]
    return "\n".join([line, sep, *body])


def fmt3(x) -> str:
    return "" if x is None else f"{x:.3g}"


def table(verdicts) -> str:
    rows = []
    for v in verdicts:
        mark = "" if v.ok else "  <-- differs"
        rows.append([v.id, v.label, ",".join(v.checks), v.verdict, v.expected + mark,
                     fmt3(v.tightness), f"{v.seconds:.1f}"])
    out = text_table(["id", "label", "checks", "verdict", "expected", "tightness", "seconds"], rows)
    bad = sum(not v.ok for v in verdicts)
    out += f"\n\n{len(verdicts)} claims: {len(verdicts) - bad} as expected, {bad} differ."
    return out


__all__ = ["fmt3", "table", "text_table"]
