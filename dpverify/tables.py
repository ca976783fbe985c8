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


def plural(n: int, word: str) -> str:
    """``1 claim``, ``2 claims``."""
    return f"{n} {word}" if n == 1 else f"{n} {word}s"


def width() -> int:
    """The terminal's width (``COLUMNS``, else the terminal's, else 100 for a file or a pipe)."""
    import shutil

    return max(40, shutil.get_terminal_size((100, 24)).columns)


def _num(x) -> str:
    return "?" if x is None else f"{x:.3g}"


#: the largest magnitude below which a nonzero double is subnormal (it has lost precision)
SUBNORMAL = 2.2250738585072014e-308
#: a parameter this small (or the inverse this large) makes a product of two such numbers underflow to 0
#: (or overflow): a point there tests the float arithmetic, not the claim
TINY = 1e-150


def degenerate(e) -> str:
    """Why the worst point of evidence ``e`` is degenerate, or "": a parameter that is subnormal, or so small
    (below :data:`TINY`) or large (above ``1/TINY``) that a bound rounds to 0 or overflows there -- what the
    bound and the measured value then are is said too. Such a point tests the float arithmetic, not the
    claim: give the parameter a ``search=`` box. (A bound that is exactly 0 or infinite at an ordinary point
    is the claim's own, not degenerate.)"""
    import math

    point = e.point if isinstance(e.point, dict) else {}
    for name, x in point.items():
        if not isinstance(x, (int, float)) or isinstance(x, bool) or x == 0 or not math.isfinite(x):
            continue
        if abs(x) < SUBNORMAL:
            what = f"{name} = {x:g} is subnormal"
        elif abs(x) < TINY or abs(x) > 1 / TINY:
            what = f"{name} = {x:g}"
        else:
            continue
        rounded = [f"the {side} is {v:g}" for side, v in (("bound", e.bound), ("measured value", e.value))
                   if v is not None and (v == 0 or math.isinf(v))]
        return what + (f" ({', '.join(rounded)})" if rounded else "")
    return ""


def _point(point: dict) -> str:
    return ", ".join(f"{k}={v:.3g}" if isinstance(v, float) else f"{k}={v}" for k, v in list(point.items())[:4]) + \
        (", ..." if len(point) > 4 else "")


def _first_clause(text: str, limit: int = 90) -> str:
    """The first clause of a check's detail, cut to ``limit`` characters (one short phrase)."""
    text = " ".join(str(text).split())
    for stop in ("; ", ". "):
        if stop in text:
            text = text.split(stop, 1)[0]
    return text if len(text) <= limit else text[: limit - 3].rstrip() + "..."


def why(v) -> str:
    """Why a verdict is what it is, in one short phrase with the measured value against the bound (the
    evidence's ``value`` and ``bound``): for an ``inconclusive``, a verdict differing from its expected one,
    an ``error``, and any verdict whose worst point is degenerate (:func:`degenerate`); "" otherwise."""
    if v.verdict == "error":
        return _first_clause(v.error or "a check raised", 120)
    ev = [e for e in v.evidence if e.verdict == v.verdict] or list(v.evidence)
    bad = [d for d in (degenerate(e) for e in v.evidence) if d]
    if v.verdict != "inconclusive" and v.ok and not bad:
        return ""
    if not ev:
        return "no evidence" if not bad else f"degenerate point: {bad[0]}"
    e = min(ev, key=lambda e: (e.value is None or e.bound is None, e.min_margin if e.min_margin is not None else 0))
    phrase = f"{e.check}: {_first_clause(e.detail) or e.verdict}"
    if e.value is not None or e.bound is not None:
        phrase += f" (measured {_num(e.value)} vs bound {_num(e.bound)})"
    if v.verdict == "holds" and not v.ok and v.expected == "violated":
        phrase = f"no counterexample found; {phrase}"
    if bad:
        phrase += f"; degenerate point: {bad[0]}"
    return phrase


def summary(verdicts) -> str:
    """The run in one line: how many claims, how many as expected, how many differ (and flagged, cached)."""
    bad = sum(not v.ok for v in verdicts)
    out = f"{plural(len(verdicts), 'claim')}: {len(verdicts) - bad} as expected, {bad} differ."
    flagged = sum(bool(v.flags) for v in verdicts)
    if flagged:
        out += f" {flagged} flagged (a holds that is mostly vacuous or algebra-only)."
    cached = sum(v.cached for v in verdicts)
    if cached:
        out += (f" {cached} replayed from the verdict cache (seconds as first computed; `--no-cache` "
                "recomputes).")
    quick = sum(bool(getattr(v, "quick", False)) for v in verdicts)
    if quick:
        out += " QUICK run (--quick: fewer runs and samples): a first look, not the full check."
    return out


def compact_table(verdicts, cols: int | None = None) -> str:
    """The command line's table: id, verdict, expected, basis, seconds, and under a row that needs one
    the reason (:func:`why`); wrapped to ``cols`` (the terminal's width: the basis wraps within its
    column, a reason under its row), the summary first and last."""
    import textwrap

    cols = width() if cols is None else cols
    headers = ["id", "verdict", "expected", "basis", "seconds"]
    rows = [[v.id, v.verdict, v.expected + ("" if v.ok else "  <-- differs"), basis_cell(v).replace(",", ", "),
             f"{v.seconds:.1f}" + (" (cached)" if v.cached else "")] for v in verdicts]
    widths = [max(len(h), *(len(r[i]) for r in rows)) if rows else len(h) for i, h in enumerate(headers)]
    room = max(12, cols - sum(w for i, w in enumerate(widths) if i != 3) - 2 * (len(headers) - 1))
    widths[3] = min(widths[3], room)

    def line(cells):
        return "  ".join(c.ljust(w) for c, w in zip(cells, widths)).rstrip()

    lines = [line(headers), line(["-" * w for w in widths])]
    for v, r in zip(verdicts, rows):
        parts = textwrap.wrap(r[3], widths[3], break_on_hyphens=False) or [""]
        lines.append(line([*r[:3], parts[0], r[4]]))
        lines.extend(line(["", "", "", p, ""]) for p in parts[1:])
        reason = why(v)
        if reason:
            lines.extend(textwrap.wrap(reason, cols, initial_indent="    why: ", subsequent_indent="         ",
                                       break_on_hyphens=False))
    return summary(verdicts) + "\n\n" + "\n".join(lines) + _notes(verdicts, cols) + "\n\n" + summary(verdicts)


def _notes(verdicts, cols: int | None = None) -> str:
    """The notes under a table (alternative readings, why algebra-only, errors), each wrapped to ``cols``
    (None: not wrapped)."""
    import textwrap

    def wrap(lines):
        if cols is None:
            return "\n".join(lines)
        return "\n".join(w for ln in lines for w in textwrap.wrap(ln, cols, subsequent_indent="    ",
                                                                   break_on_hyphens=False) or [""])
    out = ""
    lines = [f"  {v.id} under the reading '{name}': {r['verdict']} (expected {r['expected']})"
             + ("" if v.reading_ok(name) else "  <-- differs")
             for v in verdicts for name, r in v.readings.items()]
    if lines:
        out += "\n\nAlternative readings:\n" + wrap(lines)
    why_alg = [f"  {v.id}: {v.algebra_why}" for v in verdicts if "algebra-only" in v.flags and v.algebra_why]
    if why_alg:
        out += "\n\nAlgebra-only, and why the algorithm is not run:\n" + wrap(why_alg)
    errors = [v.error for v in verdicts if v.verdict == "error"]
    if errors:
        out += "\n\nErrors (a check raised; the claim could not be checked):\n" + wrap([f"  {e}" for e in errors])
    return out


def table(verdicts) -> str:
    """The wide table (``--verbose``, a verdict's ``str``): label, checks and tightness too, and the reason
    of every row that needs one."""
    rows = []
    for v in verdicts:
        mark = "" if v.ok else "  <-- differs"
        rows.append([v.id, v.label, ",".join(v.checks), v.verdict, basis_cell(v), v.expected + mark,
                     fmt3(v.tightness), f"{v.seconds:.1f}" + (" (cached)" if v.cached else "")])
    out = text_table(["id", "label", "checks", "verdict", "basis", "expected", "tightness", "seconds"], rows)
    reasons = [f"  {v.id}: {why(v)}" for v in verdicts if why(v)]
    if reasons:
        out += "\n\nWhy:\n" + "\n".join(reasons)
    out += _notes(verdicts)
    return out + "\n\n" + summary(verdicts)


__all__ = ["SUBNORMAL", "TINY", "basis_cell", "compact_table", "degenerate", "fmt3", "margin_cell", "plural", "summary", "table",
           "text_table", "why", "width"]
