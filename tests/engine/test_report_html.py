"""Issue 40, the report a referee can attach and the notebook display: the LaTeX errata write statements as
maths; the HTML report is one standalone page (KaTeX inlined, no network), with provenance, measured vs
bound and plots; one document per paper and an index; a claim's repr and HTML, a verdict's HTML with its
plots. (The page in a real browser: tests/engine/test_report_browser.py.)"""
from __future__ import annotations

import json
import pickle
import re
import subprocess
import sys
import xml.etree.ElementTree as ET

import pytest
import sympy as sp

import dpverify
from dpverify import Claim, Domain, Inequality, LimitPath, Rate, Real, Source, SupBound
from dpverify.scenarios import gaussian_mechanism
from test_cli_faults import without_own_scripts

x, rho, R = sp.symbols("x rho R", positive=True)
_src = Source.for_document("my notes")
FAST = {"samples": 20, "runs": 2000}


def _claims():
    wrong = Claim(id="mine/wrong", source=_src("Lemma 1"), domain=Domain(x=Real(gt=0, le=4, search=(0.01, 4))),
                  statements=(Inequality("x <= x^2", lhs=x, rhs=x ** 2),), expected="violated",
                  summary="rho <= R/2 and x <= x^2 <script>alert(1)</script>", reason="fails for x < 1 & more",
                  witness={"x": 0.5})
    fixed = wrong.corrected(statements=(Inequality("x <= x^2 + 1/4", lhs=x, rhs=x ** 2 + sp.Rational(1, 4)),),
                            summary="x <= x^2 + 1/4")
    rate = Claim(id="other/rate", source=_src("Theorem 2"),
                 domain=Domain(x=Real(gt=0, search=(1, 10)), rho=Real(gt=0, search=(1, 2))),
                 statements=(Rate("x^2 + rho x = Theta(x^2)", expr=x ** 2 + rho * x, rate=x ** 2,
                                  paths=(LimitPath("x", "inf"),)),),
                 summary="x^2 + rho x = Theta(x^2) as x -> inf")
    grows = Claim(id="other/grows", source=_src("Theorem 3"), domain=Domain(x=Real(gt=0, search=(1, 10))),
                  statements=(Rate("x^3 = O(x^2)", expr=x ** 3, rate=x ** 2, kind="O", paths=(LimitPath("x", "inf"),)),),
                  expected="violated", reason="x^3 / x^2 = x grows", witness={"x": 2.0})
    return [wrong, fixed, rate, grows]


@pytest.fixture(scope="module")
def run():
    claims = _claims()
    return claims, [dpverify.check(c, **FAST) for c in claims]


# --------------------------------------------------------------------------- LaTeX errata
def test_latex_errata_write_statements_as_maths():
    from dpverify.report import errata_latex, errata_rows

    claims = _claims()
    tex = errata_latex(errata_rows(claims), claims)
    assert r"\textless{}=" not in tex                       # the ASCII maths escaped, as issue 40 found it
    assert r"$\rho$ $\le$ R/2" in tex                        # the summary's relations and Greek letters as maths
    assert r"$x \le x^{2}$" in tex and r"$x \le x^{2} + \frac{1}{4}$" in tex   # printed and corrected statements
    assert r"\& more" in tex and r"\textless{}script" not in tex.replace("$<$script", "")


def test_a_name_sympy_would_print_raw_is_escaped_text_in_the_maths():
    from dpverify.mathtex import prose_tex, statement_tex

    evil = sp.Symbol(r"\input{/etc/passwd}")
    tex = statement_tex(Inequality("s", lhs=evil, rhs=1))
    assert r"\input" not in tex.replace(r"\textbackslash{}input", "")
    assert tex.startswith(r"\text{\texttt{") and r"\textbackslash{}input\{/etc/passwd\}" in tex
    assert prose_tex("eta0 -> 0, sigma_t >= 1, % & \\x") == \
        r"$\eta_{0}$ $\to$ 0, $\sigma_{t}$ $\ge$ 1, \% \& \textbackslash{}x"
    assert prose_tex("beta, theta and zeta") == r"$\beta$, $\theta$ and $\zeta$"    # whole words only


# --------------------------------------------------------------------------- the HTML page
def test_the_page_is_standalone_with_katex_inlined_and_every_statement_as_maths(run):
    from dpverify.report import render
    from dpverify.report_html import katex_assets

    claims, verdicts = run
    page = render(verdicts, claims, "html")
    css, js, version = katex_assets()
    assert js in page and "katex 0.19.1" == version
    fonts = re.findall(r"url\(([^)#]*)\)", page)                  # (url(#id): a clip path of an inline plot)
    assert len(fonts) >= 20 and all(u.startswith("data:font/woff2;base64,") for u in fonts)   # inside the page
    rest = without_own_scripts(page)                          # KaTeX's script and the renderer, fixed texts
    assert not re.search(r"<(link|img|iframe|object|embed)\b", rest) and not re.search(r"\bsrc=", rest)
    # every statement as LaTeX in an element KaTeX renders (HTML-escaped, no $ delimiters)
    tex = [m for m in re.findall(r"<span class='tex'>(.*?)</span>", page)]
    assert "x \\le x^{2}" in tex and "x^{3} = \\mathcal{O}\\left(x^{2}\\right)" in tex
    assert "<script>alert(1)" not in page and "&lt;script&gt;alert(1)" in page


def test_the_provenance_header_says_what_made_the_report(run, monkeypatch):
    from dpverify.report_html import provenance

    claims, verdicts = run
    monkeypatch.setenv("SOURCE_DATE_EPOCH", "86400")
    rows = dict(provenance({"samples": 20, "seed": 7}, verdicts))
    assert rows["dpverify"] == dpverify.__version__ and rows["date"] == "1970-01-02 00:00:00 UTC"
    assert rows["options"] == "samples=20, seed=7" and rows["Python"] == sys.version.split()[0]
    assert f"sympy {sp.__version__}" in rows["dependencies"] and "katex 0.19.1" in rows["maths"]
    assert rows["git commit"] == "(not a git checkout)" or re.fullmatch(r"[0-9a-f]{40}( \+ uncommitted changes)?",
                                                                       rows["git commit"])
    monkeypatch.setattr(sys, "argv", ["/usr/bin/dpverify", "report", "--at", "x=1;rm -rf /"])
    assert dict(provenance(None, verdicts))["command"] == "dpverify report --at 'x=1;rm -rf /'"


def test_measured_vs_bound_and_verdicts_in_words(run):
    from dpverify.report import render

    claims, verdicts = run
    page = render(verdicts, claims, "html")
    section = page.split("id='claim-mine/wrong-corrected'")[1].split("</section>")[0]
    v = next(v for v in verdicts if v.id == "mine/wrong-corrected")
    e = next(e for e in v.evidence if e.check == "sampled")
    assert e.value is not None and e.bound is not None
    cells = re.findall(r"<td class='num'>([^<]*)</td>", section)
    assert f"{e.value:.6g}" in cells and f"{e.bound:.6g}" in cells
    assert "<span class='badge v-holds'>holds</span>" in section and "as expected (holds)" in section


def _svg_ok(svg: str) -> ET.Element:
    root = ET.fromstring(svg)                                  # well-formed XML
    tags = {el.tag.split("}")[-1] for el in root.iter()}
    assert not tags & {"script", "style", "foreignObject", "a", "image"}, tags
    return root


def test_plots_an_inequality_along_a_parameter_and_a_rates_path(run):
    from dpverify.report_html import claim_plots

    claims, verdicts = run
    figs = {c.id: claim_plots(c, v) for c, v in zip(claims, verdicts)}
    assert [len(figs[i]) for i in ("mine/wrong", "mine/wrong-corrected", "other/rate", "other/grows")] == [1, 1, 1, 1]
    ids = []
    for caption, svg in (f for fs in figs.values() for f in fs):
        root = _svg_ok(svg)
        ids += [el.get("id") for el in root.iter() if el.get("id")]
    assert len(ids) == len(set(ids))                           # no id shared between two inline plots
    # the rate that grows: its plot is the evidence's own ratio along the path, which rises
    grows = next(v for v in verdicts if v.id == "other/grows")
    logs = next(e.data["log10_ratio"] for e in grows.evidence if e.check == "rate")
    assert logs[-1] > logs[0] + 5


def test_a_limit_is_plotted_with_its_claimed_value_along_the_path():
    from dpverify import Limit
    from dpverify.report_html import claim_plots

    c = Claim(id="mine/limit", source=_src("Lemma 4"), domain=Domain(x=Real(gt=0, search=(1, 10))),
              statements=(Limit("x/(x+1) -> 0", expr=x / (x + 1), value=sp.Integer(0), path=LimitPath("x", "inf")),),
              expected="violated", reason="it tends to 1", witness={"x": 2.0})
    v = dpverify.check(c, samples=20)
    ((caption, svg),) = claim_plots(c, v)
    _svg_ok(svg)
    assert caption.startswith("x/(x+1) -> 0") and "claimed limit" in caption


def test_a_plot_leaves_pyplots_backend_alone():
    """A verdict shown in a notebook after ``%matplotlib inline`` made no plot: the plots switched pyplot's
    backend to Agg. They are made without pyplot now."""
    import matplotlib
    import matplotlib.pyplot as plt

    from dpverify.plots import svg_lines

    before = matplotlib.get_backend()
    plt.switch_backend("svg")
    try:
        assert svg_lines([("a", [1, 2], [1, 2])], xlabel="x", ylabel="y").startswith("<svg")
        assert matplotlib.get_backend() == "svg"
    finally:
        plt.switch_backend(before)


def test_plot_labels_and_numbers_read_from_a_run_are_inert():
    from dpverify.plots import clean_label, finite_series, svg_lines

    assert clean_label("<script>&$x$") == "<script>?$x$".replace("$", "?")
    assert finite_series([1, 2, "3", True, 4, 5], [1, float("nan"), 3, 4, float("inf"), "x"]) == ([1.0], [1.0])
    assert svg_lines([("a", [1, "x"], [1, 2])], xlabel="x", ylabel="y") is None
    svg = svg_lines([("</svg><script>", [1, 2, 3], [3, 1, 2])], xlabel="$\\input{x}$", ylabel="y")
    _svg_ok(svg)
    assert "script" not in svg and "input" not in svg


# --------------------------------------------------------------------------- one document per paper
def test_one_document_per_paper_and_an_index(run, tmp_path):
    from dpverify.report import write_papers

    claims, verdicts = run
    paths = write_papers(verdicts, claims, str(tmp_path), options={"seed": 0})
    assert sorted(p.rsplit("/", 1)[1] for p in paths) == ["index.html", "mine.html", "other.html"]
    mine, other = (tmp_path / "mine.html").read_text(), (tmp_path / "other.html").read_text()
    assert "id='claim-mine/wrong'" in mine and "claim-other/" not in mine
    assert "id='claim-other/rate'" in other and "claim-mine/" not in other
    index = (tmp_path / "index.html").read_text()
    assert re.findall(r"href='([^']+)'", index) == ["mine.html", "other.html"]
    assert "dpverify report: mine" in mine


def test_python_m_dpverify_report_refuses_a_file_that_is_not_a_run(tmp_path):
    bad = tmp_path / "run.json"
    bad.write_text(json.dumps([{"id": "dni/thm-4.2", "verdict": "<b>"}]))
    r = subprocess.run([sys.executable, "-m", "dpverify.report", "--from", str(bad), "--out-dir", str(tmp_path / "o"),
                        "--paper", "dni"], capture_output=True, text=True, timeout=300)
    assert r.returncode == 2 and r.stderr.count("\n") == 1 and "--from" in r.stderr and "Traceback" not in r.stderr
    assert not (tmp_path / "o").exists()


# --------------------------------------------------------------------------- notebooks
def test_a_claims_repr_names_it_without_object_addresses():
    s = sp.Symbol("s", positive=True)
    c = Claim(id="mine/priv", source=_src("Lemma 2"), domain=Domain(s=Real(ge=1, le=2)),
              statements=(SupBound("rdp", scenario=gaussian_mechanism(sensitivity=1, noise_std=s, order=2,
                                   measure="renyi_over_order"), bound=sp.Rational(1, 100)),),
              summary="<b>bold</b>")
    text = repr(c)
    assert " object at 0x" not in text and "id='mine/priv'" in text and "SupBound('rdp')" in text
    html = c._repr_html_()
    assert "<b>bold</b>" not in html and "&lt;b&gt;bold" in html
    assert r"\(\sup\ \text{sensitivity} \le \frac{1}{100}\)" in html


def test_a_verdicts_html_has_measured_vs_bound_and_its_plots(run):
    claims, verdicts = run
    v = next(v for v in verdicts if v.id == "mine/wrong-corrected")
    html = v._repr_html_()
    assert html.count("<svg") == 1 and "as expected" in html
    e = next(e for e in v.evidence if e.check == "sampled")
    assert f"{e.value:.6g}" in html and f"{e.bound:.6g}" in html
    back = pickle.loads(pickle.dumps(v))                      # the plots are not sent along
    assert back.figures == [] and back._repr_html_().count("<svg") == 0
    # from the evidence alone (a verdict read back from JSON): a rate's path
    from dpverify.verdict import Verdict

    grows = Verdict.from_json(next(v for v in verdicts if v.id == "other/grows").to_json())
    assert grows.figures is None and grows._repr_html_().count("<svg") == 1
    hostile = Verdict.from_json({**grows.to_json(), "evidence": [
        {**grows.to_json()["evidence"][0], "data": {"log10_ratio": ["<script>", "x"]}}]})
    assert "<svg" not in hostile._repr_html_()
