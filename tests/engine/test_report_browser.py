"""Issue 40: the HTML report in a real headless browser. KaTeX renders every statement (no LaTeX source
left), the page fits the window (the tables scroll inside it), verdicts are coloured and said in words,
and a screenshot is taken (kept in pytest's tmp_path for a look).

The browser: ``DPVERIFY_CHROMIUM`` if set, else the first of chromium, chromium-browser, google-chrome on
the PATH (Debian's ``apt-get install chromium`` is one); the page is driven by Playwright (PyPI) with that
executable. Skipped, saying which is missing, when there is no browser (or no Playwright, for the test
that measures the page).
"""
from __future__ import annotations

import os
import re
import shutil
import subprocess

import pytest
import sympy as sp

import dpverify
from dpverify import Claim, Domain, Inequality, LimitPath, Rate, Real, Source

x, rho = sp.symbols("x rho", positive=True)
_src = Source.for_document("my notes")


def _browser() -> str | None:
    given = os.environ.get("DPVERIFY_CHROMIUM")
    if given:
        return given if os.access(given, os.X_OK) else None
    for name in ("chromium", "chromium-browser", "google-chrome", "google-chrome-stable"):
        found = shutil.which(name)
        if found:
            return found
    return None


BROWSER = _browser()
needs_browser = pytest.mark.skipif(BROWSER is None, reason="no headless browser: install chromium (apt-get install "
                                                             "chromium) or set DPVERIFY_CHROMIUM to one")


@pytest.fixture(scope="module")
def page_file(tmp_path_factory):
    from dpverify.report import render

    long = "a very long statement name that a table cell must wrap " * 4
    wrong = Claim(id="mine/wrong-with-a-rather-long-identifier", source=_src("Lemma 1"),
                  domain=Domain(x=Real(gt=0, le=4, search=(0.01, 4))),
                  statements=(Inequality(long, lhs=x, rhs=x ** 2),), expected="violated",
                  summary="x <= x^2 for every x > 0 " * 6, reason="fails for x < 1", witness={"x": 0.5})
    fixed = wrong.corrected(statements=(Inequality("x <= x^2 + 1/4", lhs=x, rhs=x ** 2 + sp.Rational(1, 4)),),
                            summary="x <= x^2 + 1/4")
    rate = Claim(id="other/rate", source=_src("Theorem 2"),
                 domain=Domain(x=Real(gt=0, search=(1, 10)), rho=Real(gt=0, search=(1, 2))),
                 statements=(Rate("x^2 + rho x = Theta(x^2)", expr=x ** 2 + rho * x, rate=x ** 2,
                                  paths=(LimitPath("x", "inf"),)),))
    claims = [wrong, fixed, rate]
    verdicts = [dpverify.check(c, samples=20) for c in claims]
    path = tmp_path_factory.mktemp("report") / "report.html"
    path.write_text(render(verdicts, claims, "html"), encoding="utf-8")
    return path


@needs_browser
def test_katex_renders_every_statement_in_a_headless_browser(page_file):
    """The DOM after the page's scripts ran (``--dump-dom``): every ``.tex`` element holds KaTeX's
    rendering, none failed, none shows a parse error."""
    done = subprocess.run([BROWSER, "--headless", "--no-sandbox", "--disable-gpu", "--dump-dom",
                           page_file.as_uri()], capture_output=True, text=True, timeout=180)
    dom = done.stdout
    assert done.returncode == 0 and "</html>" in dom, done.stderr[-2000:]
    n_tex = dom.count('class="tex"')
    assert n_tex >= 4
    assert dom.count('class="katex"') == n_tex, (dom.count('class="katex"'), n_tex)
    assert not re.search(r'class="[^"]*\b(tex-failed|katex-error)\b', dom)


@needs_browser
def test_the_report_fits_the_window_and_says_verdicts_in_colour_and_words(page_file, tmp_path):
    sync_api = pytest.importorskip("playwright.sync_api", reason="the page is measured with Playwright "
                                                                 "(pip install playwright; its browser download "
                                                                 "is not needed)")
    with sync_api.sync_playwright() as p:
        browser = p.chromium.launch(executable_path=BROWSER, args=["--no-sandbox"])
        try:
            for width in (800, 1280):
                page = browser.new_page(viewport={"width": width, "height": 900})
                page.goto(page_file.as_uri())
                raw = page.evaluate("Array.from(document.querySelectorAll('.tex'))"
                                    ".filter(e => !e.querySelector('.katex')).length")
                assert raw == 0                              # no statement left as LaTeX source
                assert page.evaluate("document.body.innerText").count("\\le") == 0
                scroll, inner = page.evaluate("[document.documentElement.scrollWidth, window.innerWidth]")
                assert scroll <= inner, (width, scroll, inner)   # wide tables scroll inside their box
                badges = page.evaluate("Array.from(document.querySelectorAll('.badge')).map(b => "
                                       "[b.textContent, getComputedStyle(b).backgroundColor])")
                colour = {}
                for text, bg in badges:
                    colour.setdefault(text, set()).add(bg)
                assert {"holds", "violated"} <= set(colour)
                assert all(len(c) == 1 for c in colour.values()) and colour["holds"] != colour["violated"]
                shot = tmp_path / f"report-{width}.png"
                page.screenshot(path=str(shot), full_page=True)
                import matplotlib.image as mpimg

                pixels = mpimg.imread(str(shot))
                assert pixels.shape[1] == width and pixels.std() > 0.05     # a page, not a blank image
                page.close()
        finally:
            browser.close()
