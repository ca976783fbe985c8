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


def margin_cell(verdict: str, margin) -> str:
    """An evidence's smallest margin as shown: a ``holds`` or ``verified`` never shows a negative margin
    (one within the check's rounding tolerance, e.g. -1.5e-11, reads ``0 (rounding: -1.5e-11)``)."""
    if margin is None:
        return ""
    if margin < 0 and verdict in ("holds", "verified"):
        return f"0 (rounding: {margin:.2g})"
    return f"{margin:.3g}"


def basis_cell(v) -> str:
    """A verdict's basis kinds, then its flags in brackets: ``rate [algebra-only]``."""
    return ",".join(v.basis) + "".join(f" [{f}]" for f in v.flags)


def table(verdicts) -> str:
    rows = []
    for v in verdicts:
        mark = "" if v.ok else "  <-- differs"
        rows.append([v.id, v.label, ",".join(v.checks), v.verdict, basis_cell(v), v.expected + mark,
                     fmt3(v.tightness), f"{v.seconds:.1f}" + (" (cached)" if v.cached else "")])
    out = text_table(["id", "label", "checks", "verdict", "basis", "expected", "tightness", "seconds"], rows)
    lines = [f"  {v.id} under the reading '{name}': {r['verdict']} (expected {r['expected']})"
             + ("" if v.reading_ok(name) else "  <-- differs")
             for v in verdicts for name, r in v.readings.items()]
    if lines:
        out += "\n\nAlternative readings:\n" + "\n".join(lines)
    why = [f"  {v.id}: {v.algebra_why}" for v in verdicts if "algebra-only" in v.flags and v.algebra_why]
    if why:
        out += "\n\nAlgebra-only, and why the algorithm is not run:\n" + "\n".join(why)
    errors = [v.error for v in verdicts if v.verdict == "error"]
    if errors:
        out += "\n\nErrors (a check raised; the claim could not be checked):\n" + "\n".join(f"  {e}" for e in errors)
    bad = sum(not v.ok for v in verdicts)
    flagged = sum(bool(v.flags) for v in verdicts)
    out += f"\n\n{len(verdicts)} claims: {len(verdicts) - bad} as expected, {bad} differ."
    if flagged:
        out += f" {flagged} flagged (a holds that is mostly vacuous or algebra-only)."
    cached = sum(v.cached for v in verdicts)
    if cached:
        out += (f" {cached} replayed from the verdict cache (seconds as first computed; `--no-cache` "
                "recomputes).")
    return out


__all__ = ["basis_cell", "fmt3", "margin_cell", "table", "text_table"]
