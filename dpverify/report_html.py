"""The HTML report: one standalone page (no network at view time) a referee can attach.

* **Maths** by KaTeX, shipped inside the package (``dpverify/vendor/katex``, MIT): its script and its
  stylesheet, with the fonts as ``data:`` URLs, are inlined into the page; every statement is written
  as LaTeX by :func:`dpverify.mathtex.statement_tex` (``sympy.latex``) into an element of class ``tex``
  (HTML-escaped; shown as its source where scripts are off) and KaTeX renders it with ``trust: false``.
  The page's only scripts are KaTeX's and :data:`RENDER_JS`, fixed texts: nothing read from a claim or a
  run reaches a script.
* **Provenance** (:func:`provenance`): dpverify's version, the git commit of its source (when it is a
  checkout), the date (UTC; ``SOURCE_DATE_EPOCH`` when set), the command or the options of the run, the
  seeds, Python's and the key dependencies' versions.
* **Measured vs bound** per statement (the evidence's value and bound at its worst point), verdicts as
  coloured badges that also say it in words, a table that fits the column or scrolls inside it.
* **Plots** (:mod:`dpverify.plots`, inline SVG): for an inequality, both sides along one parameter
  through the worst point (or the counterexample); for a rate, ``log10(expr/rate)`` along its path; for a
  limit, the expression and its claimed value along the path.
* **One document per paper**: :func:`write_papers` writes ``<paper>.html`` for each paper and an
  ``index.html`` linking them; ``python -m dpverify.report_html --from RUN.json --out-dir DIR`` does it
  from a saved ``dpverify check --all --json`` (``dpverify report --paper KEY --format html`` gives one
  paper's page).

Every field goes through :func:`dpverify.escape.html_text`, whatever its origin.
"""
from __future__ import annotations

import base64
import functools
import os
import re
import sys
import time
from pathlib import Path

from .escape import html_text as esc
from .escape import shell_line
from .mathtex import statement_tex
from .plots import svg_lines
from .tables import margin_cell

KATEX_DIR = Path(__file__).resolve().parent / "vendor" / "katex"
#: renders every element of class ``tex`` (its text is the LaTeX) with KaTeX; untrusted commands off
RENDER_JS = ("document.querySelectorAll('.tex').forEach(function(el){try{katex.render(el.textContent,el,"
             "{throwOnError:false,trust:false,strict:'ignore',displayMode:el.classList.contains('display')});}"
             "catch(e){el.classList.add('tex-failed');}});")
VERDICTS = ("verified", "holds", "violated", "inconclusive", "error")
DEPENDENCIES = ("sympy", "numpy", "scipy", "mpmath", "dp-accounting", "python-flint", "matplotlib")
#: points along a parameter in a plot of an inequality's two sides
PLOT_POINTS = 41

CSS = """
:root{--fg:#1d2330;--muted:#5b6475;--line:#d8dce4;--bg:#fff;--head:#f3f5f8}
*{box-sizing:border-box}
body{font:15px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;color:var(--fg);background:var(--bg);
 max-width:62rem;margin:0 auto;padding:1.5rem 1rem 4rem}
h1{font-size:1.6rem;margin:.2rem 0 .6rem}h2{font-size:1.25rem;margin:2rem 0 .6rem;border-bottom:1px solid var(--line)}
h3{font-size:1.05rem;margin:0 0 .4rem;overflow-wrap:anywhere}
code{font:13px/1.4 ui-monospace,SFMono-Regular,Menlo,monospace;overflow-wrap:anywhere}
.scroll{overflow-x:auto;max-width:100%;margin:.5rem 0}
table{border-collapse:collapse;width:100%;font-size:13px}
th,td{border:1px solid var(--line);padding:4px 6px;vertical-align:top;text-align:left;overflow-wrap:anywhere}
th{background:var(--head);font-weight:600;white-space:nowrap}
tr.st th{background:#e8ecf2;white-space:normal;font-weight:600}
td.id{min-width:9.5rem}td.id code{overflow-wrap:normal}td.where{min-width:9.5rem}td.check{white-space:nowrap}table.errata{min-width:50rem}table.evidence{min-width:46rem}td.basis{min-width:7.5rem}td.detail{min-width:12rem}
td.where code{font-size:12px}td.wide{min-width:6.5rem}td.wrong{min-width:14rem}td.replay{min-width:13rem}td.replay code{font-size:12px}
td.num{white-space:nowrap;font-variant-numeric:tabular-nums}
.badge{display:inline-block;white-space:nowrap;padding:0 .45em;border-radius:.3em;font-weight:600;font-size:.85em;color:#fff}
.v-verified{background:#1b5e20}.v-holds{background:#2e7d32}.v-violated{background:#b71c1c}
.v-inconclusive{background:#8d6e00}.v-error{background:#4a148c}
.ok{color:#2e7d32}.differs{color:#b71c1c;font-weight:600}
.claim{border:1px solid var(--line);border-radius:6px;padding:.8rem 1rem;margin:1rem 0}
.claim.differs-box{border-color:#e0a0a0}
.cite,.muted{color:var(--muted);font-size:.9em}
.stmt{margin:.3rem 0;overflow-x:auto;max-width:100%}td .stmt{max-width:24rem}.stmt .sname{display:block;color:var(--muted);font-size:.85em}
.tex-failed{font-family:monospace}
.plots{display:flex;flex-wrap:wrap;gap:.5rem}.plots figure{margin:0;flex:1 1 24rem;max-width:min(100%,34rem)}
.plots figcaption{font-size:.8em;color:var(--muted)}
svg.plot{width:100%;height:auto}
dl.prov{display:grid;grid-template-columns:max-content 1fr;gap:.1rem 1rem;font-size:.9em;margin:.5rem 0}
dl.prov dt{color:var(--muted)}dl.prov dd{margin:0;overflow-wrap:anywhere}
nav.papers a{margin-right:1em}
"""


# --------------------------------------------------------------------------- KaTeX, inlined
@functools.lru_cache(maxsize=1)
def katex_assets() -> tuple[str, str, str]:
    """(stylesheet with every font as a ``data:`` URL of its woff2, script, version line) of the vendored KaTeX."""
    css = (KATEX_DIR / "katex.min.css").read_text(encoding="utf-8")

    def font(m):
        name = m.group(1)
        data = base64.b64encode((KATEX_DIR / "fonts" / f"{name}.woff2").read_bytes()).decode()
        return f'src:url(data:font/woff2;base64,{data}) format("woff2")'

    css = re.sub(r"src:url\(fonts/([A-Za-z0-9_\-]+)\.woff2\) format\(\"woff2\"\)(?:,url\([^)]*\) format\(\"[a-z]+\"\))*",
                 font, css)
    js = (KATEX_DIR / "katex.min.js").read_text(encoding="utf-8")
    version = (KATEX_DIR / "VERSION").read_text(encoding="utf-8").splitlines()[0]
    for text in (css, js):
        if "</script" in text.lower() or "</style" in text.lower():   # pragma: no cover - the vendored files
            raise ValueError("the vendored KaTeX files would end the element they are inlined in")
    return css, js, version


def head(title: str) -> str:
    css, js, _ = katex_assets()
    return (f"<!doctype html><html lang='en'><head><meta charset='utf-8'>"
            f"<meta name='viewport' content='width=device-width,initial-scale=1'><title>{esc(title)}</title>"
            f"<style>{css}</style><style>{CSS}</style><script>{js}</script></head><body>")


def tail() -> str:
    return f"<script>{RENDER_JS}</script></body></html>\n"


# --------------------------------------------------------------------------- provenance
def _version(dist: str) -> str:
    from importlib import metadata

    try:
        return metadata.version(dist)
    except metadata.PackageNotFoundError:
        return "not installed"


def _git_commit() -> str:
    """The commit of dpverify's source when it is a git checkout (``+ changes`` when the tree differs), else ''."""
    import subprocess

    root = Path(__file__).resolve().parent.parent
    if not (root / ".git").exists():
        return ""
    try:
        rev = subprocess.run(["git", "-C", str(root), "rev-parse", "HEAD"], capture_output=True, text=True, timeout=10)
        if rev.returncode != 0:
            return ""
        dirty = subprocess.run(["git", "-C", str(root), "status", "--porcelain", "--untracked-files=no"],
                               capture_output=True, text=True, timeout=10)
        return rev.stdout.strip()[:40] + (" + uncommitted changes" if dirty.stdout.strip() else "")
    except (OSError, subprocess.SubprocessError):
        return ""


def provenance(options: dict | None = None, verdicts=()) -> list[tuple[str, str]]:
    """(name, value) rows saying what made the report. ``options``: the run's options (name -> value); without
    them, the command line this process was started with."""
    stamp = os.environ.get("SOURCE_DATE_EPOCH", "")
    when = time.gmtime(int(stamp)) if stamp.isdigit() else time.gmtime()
    rows = [("dpverify", _version("dpverify")), ("git commit", _git_commit() or "(not a git checkout)"),
            ("date", time.strftime("%Y-%m-%d %H:%M:%S UTC", when))]
    if options:
        rows.append(("options", ", ".join(f"{k}={v}" for k, v in sorted(options.items()))))
    else:
        rows.append(("command", shell_line(os.path.basename(sys.argv[0] or "python"), *sys.argv[1:])))
    seeds = sorted({v.seed for v in verdicts})
    if seeds:
        rows.append(("seeds", ", ".join(str(s) for s in seeds[:10]) + (" ..." if len(seeds) > 10 else "")))
    rows.append(("Python", sys.version.split()[0]))
    rows.append(("dependencies", ", ".join(f"{d} {_version(d)}" for d in DEPENDENCIES)))
    rows.append(("maths", f"{katex_assets()[2]} (inlined)"))
    return rows


def provenance_html(options=None, verdicts=()) -> str:
    return "<dl class='prov'>" + "".join(f"<dt>{esc(k)}</dt><dd>{esc(v)}</dd>"
                                         for k, v in provenance(options, verdicts)) + "</dl>"


# --------------------------------------------------------------------------- pieces
def badge(verdict) -> str:
    v = str(verdict)
    cls = f"v-{v}" if v in VERDICTS else "v-error"
    return f"<span class='badge {cls}'>{esc(v)}</span>"


def expected_html(ok: bool, expected) -> str:
    return (f"<span class='ok'>as expected ({esc(expected)})</span>" if ok
            else f"<span class='differs'>differs: expected {esc(expected)}</span>")


def _num(x) -> str:
    try:
        return f"{float(x):.6g}"
    except (TypeError, ValueError, OverflowError):
        return ""


def _point(p, limit: int = 200) -> str:
    """A point as ``name=value, ...`` (numbers to 6 significant digits: the replay line has them all)."""
    if not p:
        return ""
    if not isinstance(p, dict):
        text = str(p)
    else:
        def one(v):
            if isinstance(v, float):
                return f"{v:.6g}"
            if isinstance(v, (list, tuple)):
                return "[" + ", ".join(one(x) for x in v[:6]) + (", ..." if len(v) > 6 else "") + "]"
            return str(v)
        text = ", ".join(f"{k}={one(v)}" for k, v in p.items())
    return text if len(text) <= limit else text[: limit - 3] + "..."


def evidence_table(evidence) -> str:
    """The evidence grouped by statement (a header row each): check, verdict, measured, bound, margin, where
    (the worst point or the counterexample), basis, detail."""
    rows, shown = [], None
    for e in evidence:
        if e.statement != shown:
            rows.append(f"<tr class='st'><th colspan='8'>{esc(e.statement)}</th></tr>")
            shown = e.statement
        worst = (e.data or {}).get("worst") if isinstance(e.data, dict) else None
        ce = e.counterexample if isinstance(e.counterexample, dict) else {}
        where = e.point or ce.get("params") or (worst.get("params") if isinstance(worst, dict) else None)
        rows.append(
            f"<tr><td class='check'>{esc(e.check)}</td><td>{badge(e.verdict)}</td>"
            f"<td class='num'>{esc(_num(e.value))}</td><td class='num'>{esc(_num(e.bound))}</td>"
            f"<td class='num'>{esc(margin_cell(e.verdict, e.min_margin))}</td>"
            f"<td class='where'><code>{esc(_point(where))}</code></td><td class='basis'>{esc('' if e.basis is None else e.basis)}</td>"
            f"<td class='detail'>{esc(e.detail)}</td></tr>")
    return ("<div class='scroll'><table class='evidence'><thead><tr><th>check</th><th>verdict</th><th>measured</th>"
            "<th>bound</th><th>margin</th><th>where</th><th>basis</th><th>detail</th></tr></thead>"
            f"<tbody>{''.join(rows)}</tbody></table></div>")


def statements_html(claim) -> str:
    out = []
    for st in claim.statements:
        tex = statement_tex(st)
        if tex:
            out.append(f"<div class='stmt'><span class='sname'>{esc(st.name)}</span>"
                       f"<span class='tex'>{esc(tex)}</span></div>")
    return "".join(out)


# --------------------------------------------------------------------------- plots
def rate_path_plot(e) -> str | None:
    """A violated rate's ``log10(expr/rate)`` along its path (``data["log10_ratio"]``), from the evidence alone."""
    logs = (e.data or {}).get("log10_ratio") if e.check == "rate" else None
    if not isinstance(logs, list) or len(logs) < 2:
        return None
    from .checks.rate import STEPS_PER_DECADE

    path = (e.counterexample or {}).get("path", "the path")
    return svg_lines([("log10(expr / rate)", [k / STEPS_PER_DECADE for k in range(len(logs))], logs)],
                     xlabel=f"decades along {path}", ylabel="log10(expr / rate)")


def _rate_sweep_plot(claim, st, cfg) -> str | None:
    """A rate that was not refuted: the ratio along each of its paths (at most three) from the first base
    point the rate check would draw that gives a sweep."""
    from .checks.rate import BASE_POINTS, STEPS_PER_DECADE, sweep
    from .numeric import Compiled
    from .search import sample_points

    num, den = Compiled(st.expr, claim), Compiled(st.rate, claim)
    bases = sample_points(claim.domain.strategy(), 6 * BASE_POINTS, cfg.seed_for(claim.id, st.name, "rate"))
    series = []
    for path in st.paths[:3]:
        for base in bases[:8]:
            pts, vals = sweep(claim, path, base, cfg, (num, den))
            ratios = [float(a / b) if b else float("nan") for a, b in vals]
            if len(ratios) >= 6:
                series.append((f"{path.param} -> {path.to}", [k / STEPS_PER_DECADE for k in range(len(ratios))],
                               ratios))
                break
    if not series:
        return None
    return svg_lines(series, xlabel="decades along the path", ylabel="expr / rate", logy=True)


def _limit_plot(claim, st, evs, cfg) -> str | None:
    """A limit's expression and its claimed value along the path, from the counterexample's base point (or
    the first base point the limit check draws that gives a sweep)."""
    from .checks.rate import STEPS_PER_DECADE, sweep
    from .numeric import Compiled
    from .search import sample_points

    f, g = Compiled(st.expr, claim), Compiled(st.value, claim)
    ce = next((e.counterexample for e in evs if isinstance(e.counterexample, dict) and
               isinstance(e.counterexample.get("base"), dict)), None)
    bases = [ce["base"]] if ce else sample_points(claim.domain.strategy(), 8,
                                                  cfg.seed_for(claim.id, st.name, "limit"))
    for base in bases:
        pts, vals = sweep(claim, st.path, base, cfg, (f, g))
        if len(vals) >= 6:
            xs = [k / STEPS_PER_DECADE for k in range(len(vals))]
            return svg_lines([("expression", xs, [float(a) for a, _ in vals]),
                              ("claimed limit", xs, [float(b) for _, b in vals])],
                             xlabel=f"decades along {st.path.param} -> {st.path.to}", ylabel="value")
    return None


def _inequality_plot(claim, st, base) -> str | None:
    """Both sides of an inequality along one of its real parameters (the first with a box of positive width),
    the others at ``base`` (the worst point or the counterexample)."""
    import sympy as sp

    from .numeric import Compiled

    if not isinstance(base, dict):
        return None
    names = {str(s) for s in claim.expand(sp.sympify(st.lhs - st.rhs)).free_symbols}
    params = dict(claim.domain.params) if hasattr(claim.domain, "params") else {}
    choice = None
    for name, spec in params.items():
        if name in names and type(spec).__name__ == "Real" and name in base:
            lo, hi = (float(v) for v in spec.box())
            if hi > lo:
                choice = (name, spec, lo, hi)
                break
    if choice is None:
        return None
    name, spec, lo, hi = choice
    logx = lo > 0 and hi / lo >= 100
    n = PLOT_POINTS
    xs = [lo * (hi / lo) ** (k / (n - 1)) if logx else lo + (hi - lo) * k / (n - 1) for k in range(n)]
    pts = [{**base, name: x} for x in xs]
    pts = [p for p in pts if claim.domain.contains(p)]
    if len(pts) < 2:
        return None
    lhs, rhs = Compiled(st.lhs, claim), Compiled(st.rhs, claim)

    def values(f):
        vals = list(f.batch(pts))
        for k, v in enumerate(vals):
            if v != v:
                try:
                    vals[k] = float(f(pts[k], 20))
                except Exception:  # noqa: BLE001 - a point the expression cannot be evaluated at is left out
                    vals[k] = float("nan")
        return vals

    x = [p[name] for p in pts]
    try:
        mark = float(base[name])
    except (TypeError, ValueError):
        mark = None
    return svg_lines([("lhs (measured side)", x, values(lhs)), ("rhs (bound)", x, values(rhs))],
                     xlabel=name, ylabel="value", logx=logx, mark_x=mark, mark_label="worst point")


def claim_plots(claim, verdict, cfg=None) -> list[tuple[str, str]]:
    """The (caption, SVG) plots of ``claim``'s verdict: each inequality's sides along a parameter, each rate's path.
    A statement whose plot cannot be made (an expression SymPy or NumPy cannot evaluate) has none."""
    from .config import Config

    cfg = cfg or Config(seed=verdict.seed)
    out = []
    by_stmt = {}
    for e in verdict.evidence:
        by_stmt.setdefault(e.statement, []).append(e)
    for st in claim.statements:
        evs = by_stmt.get(st.name, [])
        try:
            kind = type(st).__name__
            caption = ""
            if kind == "Inequality" and not st.exists:
                caption = f"{st.name}: both sides along one parameter, the others at the worst point"
                base = next((e.counterexample.get("params") for e in evs if e.counterexample), None) or \
                    next((e.point for e in evs if e.point), None) or (dict(claim.witness) if claim.witness else None)
                svg = _inequality_plot(claim, st, base)
            elif kind == "Rate":
                caption = f"{st.name}: expr / rate along its path" + ("s" if len(st.paths) > 1 else "")
                svg = next((p for p in (rate_path_plot(e) for e in evs) if p), None) or _rate_sweep_plot(claim, st, cfg)
            elif kind == "Limit":
                caption = f"{st.name}: the expression and its claimed limit along the path"
                svg = _limit_plot(claim, st, evs, cfg)
            else:
                svg = None
        except Exception:  # noqa: BLE001 - a plot is an aid: no plot rather than no report
            svg = None
        if svg:
            out.append((caption, svg))
    return out


class ClaimFigures:
    """A verdict's :attr:`~dpverify.verdict.Verdict.figures` that knows its claim: the plots of
    :func:`claim_plots`, made on the first call (in a notebook, when the verdict is shown). A pickled
    verdict carries none (the claim is not sent along)."""

    def __init__(self, claim, cfg=None):
        self.claim, self.cfg, self._made = claim, cfg, None

    def __call__(self, verdict) -> list[tuple[str, str]]:
        if self._made is None:
            self._made = claim_plots(self.claim, verdict, self.cfg)
        return self._made

    def __reduce__(self):
        return (list, ())


def claim_section(claim, v, plots: bool = True) -> str:
    """One claim's section: verdict, statements as maths, evidence with measured vs bound, plots."""
    box = "" if v.ok else " differs-box"
    flags = "".join(f" <span class='badge v-inconclusive'>{esc(f)}</span>" for f in v.flags)
    parts = [f"<section class='claim{box}' id='{esc('claim-' + v.id)}'>",
             f"<h3><code>{esc(v.id)}</code> &mdash; {esc(claim.label)} {badge(v.verdict)}{flags} "
             f"{expected_html(v.ok, v.expected)}</h3>",
             f"<p class='cite'>{esc(claim.source.cite())} {esc(claim.summary)}</p>", statements_html(claim)]
    if v.reason and v.reason != claim.reason:
        parts.append(f"<p><b>Why:</b> {esc(v.reason)}</p>")
    if claim.reason:
        parts.append(f"<p><b>Why it fails as printed:</b> {esc(claim.reason)}</p>")
    if "algebra-only" in v.flags and v.algebra_why:
        parts.append(f"<p><b>Algebra-only because:</b> {esc(v.algebra_why)}</p>")
    for r in claim.readings:
        got = v.readings.get(r.name, {}).get("verdict", "not checked")
        parts.append(f"<p><b>Reading '{esc(r.name)}'</b> ({esc(r.summary)}): {badge(got)} (expected "
                     f"{esc(r.expected)}){'. ' + esc(r.reason) if r.reason else ''}</p>")
    if v.basis:
        parts.append(f"<p class='muted'>Basis: {esc(', '.join(v.basis))}"
                     + ("" if v.coverage is None else f"; coverage {v.coverage:.0%}") + "</p>")
    parts.append(evidence_table(v.evidence))
    if plots:
        figs = claim_plots(claim, v)
        if figs:
            parts.append("<div class='plots'>" + "".join(f"<figure>{f}<figcaption>{esc(c)}</figcaption></figure>"
                                                        for c, f in figs) + "</div>")
    parts.append("</section>")
    return "\n".join(parts)


def _tex_list(texs) -> str:
    return "".join(f"<div class='stmt'><span class='tex'>{esc(t)}</span></div>" for t in texs or () if isinstance(t, str))


def errata_table(rows, certificates=None) -> str:
    """The errata rows (``printed``, ``holds``, ``replay`` already filled; ``link``: a certificate's link or '';
    ``tex``, ``holds_tex``: the printed and the corrected statements as LaTeX)."""
    out = []
    for r in rows:
        cert = ""
        if certificates is not None:
            cert = (f"<td><a href='{esc(r['link'])}'>{esc(r['certificate'])}</a></td>" if r.get("link")
                    else "<td>(none)</td>")
        out.append(f"<tr><td class='id'><code>{esc(r['id'])}</code></td><td>{esc(r['printed'])}{_tex_list(r.get('tex'))}</td><td class='wrong'>{esc(r['reason'])}</td>"
                   f"<td class='wide'>{esc(r.get('error') or '-')}</td><td>{esc(r['holds'])}{_tex_list(r.get('holds_tex'))}</td>"
                   f"<td class='replay'><code>{esc(r['replay'])}</code></td>{cert}</tr>")
    return ("<div class='scroll'><table class='errata'><thead><tr><th>claim</th><th>printed</th><th>what is wrong</th><th>where</th>"
            "<th>what holds</th><th>replay</th>" + ("<th>certificate</th>" if certificates is not None else "")
            + f"</tr></thead><tbody>{''.join(out)}</tbody></table></div>")


def page(*, title, summary, errata, unreproduced, errors, verdicts, claims, certificates=None, options=None,
         plots: bool = True) -> str:
    """The whole standalone page."""
    by_id = {c.id: c for c in claims}
    papers = sorted({v.id.split("/")[0] for v in verdicts})
    parts = [head(title), f"<h1>{esc(title)}</h1>", provenance_html(options, verdicts), f"<p><b>{esc(summary)}</b></p>"]
    if len(papers) > 1:
        parts.append("<nav class='papers'>" + "".join(f"<a href='#{esc('paper-' + p)}'>{esc(p)}</a>" for p in papers)
                     + "</nav>")
    parts += [f"<p class='differs'>{esc(e)}</p>" for e in errors]
    if unreproduced:
        parts.append(f"<p>Expected violated, but not found violated by this run: {esc('; '.join(unreproduced))}</p>")
    parts += ["<h2>Errata (printed claims found wrong)</h2>", errata_table(errata, certificates)]
    if verdicts:
        parts.append("<h2>Every claim</h2>")
    shown = None
    for v in verdicts:
        paper = v.id.split("/")[0]
        if paper != shown and len(papers) > 1:
            parts.append(f"<h2 id='{esc('paper-' + paper)}'>{esc(paper)}</h2>")
            shown = paper
        parts.append(claim_section(by_id[v.id], v, plots))
    parts.append(tail())
    return "\n".join(parts)
