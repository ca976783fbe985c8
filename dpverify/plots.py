"""Small line plots as inline SVG (matplotlib figures made without pyplot), for the HTML report and a verdict's notebook display.

Every label is reduced to a plain alphabet (letters, digits, spaces and ``_ . , ( ) / + - = : * ^ < >``),
other characters replaced by ``?``, and drawn as paths (matplotlib's default ``svg.fonttype``), with
mathtext off: a symbol name or a value read from a claim or a saved run reaches the SVG as glyph
outlines, never as markup. Numbers are taken only when they are finite floats. The SVG carries no
date and fixed ids (``svg.hashsalt``), so the same data give the same bytes.
"""
from __future__ import annotations

import hashlib
import io
import math
import re

__all__ = ["clean_label", "finite_series", "svg_lines"]

_UNSAFE = re.compile(r"[^A-Za-z0-9 _.,()/+\-=:*^<>']")
COLOURS = ("#1f5fa8", "#c0392b", "#2e7d32", "#6a1b9a")
STYLES = ("-", "--", "-.", ":")


def clean_label(text, limit: int = 60) -> str:
    """``text`` in the plain alphabet (others as ``?``), at most ``limit`` characters."""
    s = _UNSAFE.sub("?", str(text))
    return s if len(s) <= limit else s[: limit - 3] + "..."


def finite_series(xs, ys) -> tuple[list[float], list[float]]:
    """The pairs of ``xs`` and ``ys`` that are both finite real numbers (anything else dropped)."""
    out_x, out_y = [], []
    for x, y in zip(xs, ys):
        try:
            fx, fy = float(x), float(y)
        except (TypeError, ValueError, OverflowError):
            continue
        if isinstance(x, (bool, str)) or isinstance(y, (bool, str)) or not (math.isfinite(fx) and math.isfinite(fy)):
            continue
        out_x.append(fx)
        out_y.append(fy)
    return out_x, out_y


def svg_lines(series, *, xlabel: str, ylabel: str, title: str = "", logx: bool = False, logy: bool = False,
              mark_x: float | None = None, mark_label: str = "", width: float = 5.6, height: float = 2.8) -> str | None:
    """An inline ``<svg>`` of ``series`` (``[(label, xs, ys), ...]``; non-finite pairs dropped), or None
    when no series has two points. ``logx``/``logy``: logarithmic axes (then only positive values);
    ``mark_x``: a dotted vertical line at that x (e.g. the worst point), labelled ``mark_label``."""
    import matplotlib
    from matplotlib.figure import Figure      # a bare Figure saves itself: no pyplot, the backend left alone

    kept = []
    for label, xs, ys in series:
        fx, fy = finite_series(xs, ys)
        pairs = [(a, b) for a, b in zip(fx, fy) if (not logx or a > 0) and (not logy or b > 0)]
        if len(pairs) >= 2:
            kept.append((clean_label(label), [a for a, _ in pairs], [b for _, b in pairs]))
    if not kept:
        return None
    with matplotlib.rc_context({"svg.hashsalt": "dpverify", "svg.fonttype": "path", "text.usetex": False,
                                "font.size": 8}):
        fig = Figure(figsize=(width, height))
        ax = fig.add_subplot()
        for k, (label, xs, ys) in enumerate(kept):
            ax.plot(xs, ys, STYLES[k % len(STYLES)], color=COLOURS[k % len(COLOURS)], lw=1.5, label=label)
        if mark_x is not None and math.isfinite(mark_x) and (not logx or mark_x > 0):
            ax.axvline(mark_x, color="#555", lw=1, ls=":", label=clean_label(mark_label) if mark_label else None)
        if logx:
            ax.set_xscale("log")
        if logy:
            ax.set_yscale("log")
        ax.set_xlabel(clean_label(xlabel), parse_math=False)
        ax.set_ylabel(clean_label(ylabel), parse_math=False)
        if title:
            ax.set_title(clean_label(title, 90), parse_math=False)
        ax.grid(True, lw=0.3, alpha=0.6)
        leg = ax.legend(fontsize=7, frameon=False)
        for t in leg.get_texts():
            t.set_parse_math(False)
        fig.tight_layout()
        buf = io.StringIO()
        fig.savefig(buf, format="svg", metadata={"Date": None, "Creator": None})
    svg = buf.getvalue()
    start = svg.find("<svg")
    svg = svg[start:]
    # matplotlib's <metadata> says nothing the reader needs; its <style> (``*{stroke-linejoin: round}``) would
    # apply to the whole page once the SVG is inline
    svg = re.sub(r"\s*<metadata>.*?</metadata>", "", svg, flags=re.S)
    svg = re.sub(r"\s*<defs>\s*<style[^>]*>.*?</style>\s*</defs>", "", svg, flags=re.S)
    svg = re.sub(r"<!--.*?-->", "", svg, flags=re.S)         # matplotlib's comments repeat each label's text
    # drop the fixed width/height (in pt) so that CSS scales the plot to the column
    svg = re.sub(r'^<svg([^>]*?) width="[^"]*" height="[^"]*"', r'<svg\1 role="img" class="plot"', svg, count=1)
    # ids unique to this plot (matplotlib's repeat from plot to plot: a page with several inline SVGs would
    # clip one plot by another's clip path)
    tag = hashlib.sha1(svg.encode()).hexdigest()[:8]
    svg = re.sub(r'(\bid="|xlink:href="#|\bhref="#|url\(#)([A-Za-z0-9_\-]+)', rf"\1\2-{tag}", svg)
    return svg
