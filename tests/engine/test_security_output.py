"""Issue 36, what dpverify prints for a browser, a shell or an interpreter: one escaping rule per format
(dpverify.escape), applied to every field whatever its origin. Each example of the issue is planted as
the reviewer planted it (a saved run edited, a witness value with a backtick, a `Choice` value with shell
syntax, a `Sum` index named like Python code, a certificate index with a `javascript:` folder, a link in
a claim's text, an id with a newline); a fuzz test sends random ids, symbols, witness values and text
through every output format and ``check.py``."""
from __future__ import annotations

import ast
import json
import os
import re
import shlex
import shutil
import subprocess
from html.parser import HTMLParser

import pytest
import sympy as sp
from hypothesis import given, settings
from hypothesis import strategies as st

from test_cli_faults import FAST, claims_file, dpverify, dpverify_here, one_line_error, strict_json, without_own_scripts

EVIL = "b;touch${IFS}PWNED;#`<img src=x onerror=alert(1)>`"
PRIV = f'''
EVIL = {EVIL!r}
from dpverify import Choice
PRIV = Claim(id="mine/priv", source=_src("Lemma 1"), domain=Domain(s=Real(ge=1, le=2), c=Choice((EVIL,))),
             statements=(SupBound("rdp", scenario=gaussian_mechanism(sensitivity=1, noise_std=s, order=2,
                                  measure="renyi_over_order"), bound=sp.Rational(1, 100)),),
             expected="violated", reason="far too small, see [the proof](https://evil.example/x)",
             witness={{"s": 1.5, "c": EVIL}})
CLAIMS = [PRIV]
'''


class Tags(HTMLParser):
    """The tags and attributes of an HTML text."""

    def __init__(self, text):
        super().__init__()
        self.tags, self.attrs, self.code = [], [], []
        self._in_code = False
        self.feed(text)

    def handle_starttag(self, tag, attrs):
        self.tags.append(tag)
        self.attrs.extend(attrs)
        self._in_code = tag == "code"
        if self._in_code:
            self.code.append("")

    def handle_endtag(self, tag):
        self._in_code = self._in_code and tag != "code"

    def handle_data(self, data):
        if self._in_code:
            self.code[-1] += data


def markdown_html(text: str) -> str:
    markdown_it = pytest.importorskip("markdown_it")
    return markdown_it.MarkdownIt("commonmark").enable("table").render(text)


def assert_inert_html(text: str, allowed=frozenset()) -> Tags:
    """No tag but ``allowed``, no link, no event handler, no script URL."""
    t = Tags(text)
    assert set(t.tags) <= allowed, sorted(set(t.tags) - allowed)
    for name, value in t.attrs:
        assert not name.startswith("on"), (name, value)
        assert not (value or "").strip().lower().startswith(("javascript:", "data:", "vbscript:")), (name, value)
    return t


MD_TAGS = frozenset({"table", "thead", "tbody", "tr", "th", "td", "code", "p", "em", "strong", "h1", "h2", "h3",
                     "ul", "li"})
PAGE_TAGS = frozenset({"html", "head", "meta", "title", "style", "body", "h1", "h2", "h3", "p", "table", "tr", "th",
                       "td", "code", "div", "b", "br", "i", "thead", "tbody", "span", "dl", "dt", "dd", "section", "nav",
                       "a", "figure", "figcaption"})


def assert_inert_page(page: str) -> Tags:
    """The HTML report: its own scripts (fixed texts) and nothing else that runs; links only to its own
    anchors and to certificate folders (relative paths)."""
    t = assert_inert_html(without_own_scripts(page), PAGE_TAGS)
    for name, value in t.attrs:
        if name == "href":
            assert value.startswith("#") or not re.match(r"[a-z][a-z0-9+.\-]*:", value, re.I), value
    return t


# --------------------------------------------------------------------------- the examples of issue 36
def test_html_report_never_carries_markup_from_a_saved_run(tmp_path):
    """`verdict` and `expected` were written into the HTML report unescaped (`report --from FILE`)."""
    path = claims_file(tmp_path, PRIV)
    run = dpverify_here("check", "--all", "--module", path, "--json", *FAST)
    data = strict_json(run.stdout)
    data[0]["verdict"], data[0]["expected"] = "<script>alert(1)</script>", "<img src=x onerror=alert(2)>"
    saved = tmp_path / "run.json"
    saved.write_text(json.dumps(data))
    r = dpverify_here("report", "--from", str(saved), "--module", path, "--format", "html")
    assert "<script" not in r.stdout and "<img" not in r.stdout
    one_line_error(r, 2, "--from", "verdict")         # not a saved run: refused, naming the field


def test_a_verdicts_html_escapes_every_field():
    from dpverify.verdict import Evidence, Verdict

    v = Verdict(id="<b>id</b>", label="<i>l</i>", verdict="<script>alert(1)</script>", expected="<img src=x>",
                evidence=[Evidence(check="<u>c</u>", statement="<s>", verdict="holds", detail="<a href=x>")],
                reason="<iframe>")
    assert_inert_html(v._repr_html_(), frozenset({"div", "b", "i", "br", "table", "thead", "tbody", "tr", "th",
                                                  "td"}))


def test_a_backtick_in_a_witness_value_does_not_close_the_code_span(tmp_path):
    """A witness value with a backtick closed the Markdown code span and passed raw HTML into the errata,
    and into `--update README.md`."""
    path = claims_file(tmp_path, PRIV)
    r = dpverify_here("report", "--errata", "--module", path)
    assert r.returncode == 0, r.stderr
    readme = tmp_path / "README.md"
    from dpverify.report import ERRATA_BEGIN, ERRATA_END

    readme.write_text(f"# notes\n\n{ERRATA_BEGIN}\nold\n{ERRATA_END}\n\nthe end\n")
    up = dpverify_here("report", "--errata", "--module", path, "--update", str(readme))
    assert up.returncode == 0, up.stderr
    for text in (r.stdout, readme.read_text()):
        t = assert_inert_html(markdown_html(text), MD_TAGS)
        (replay,) = [c for c in t.code if c.startswith("dpverify check")]
        assert shlex.split(replay)[-1] == f"s=1.5,c={EVIL}"   # the whole line inside one code span
    assert readme.read_text().endswith("\nthe end\n")


def _run_pasted(line: str, cwd) -> list[str]:
    """Paste ``line`` into bash, with ``dpverify`` a function that prints its arguments."""
    script = 'dpverify() { for a in "$@"; do printf "%s\\0" "$a"; done; }\n' + line + "\n"
    out = subprocess.run(["bash", "-c", script], cwd=cwd, capture_output=True, timeout=60)
    return out.stdout.decode().split("\0")[:-1]


@pytest.mark.skipif(shutil.which("bash") is None, reason="needs bash")
def test_the_printed_replay_line_runs_nothing_when_pasted(tmp_path):
    """The printed replay line was not shell-quoted: `--at ...,c=b;touch${IFS}X;#` ran `touch` when pasted."""
    path = claims_file(tmp_path, PRIV)
    r = dpverify_here("check", "mine/priv", "--module", path, "--verbose", *FAST)   # expected: its replay with --verbose
    (line,) = [ln.strip().removeprefix("replay: ") for ln in r.stdout.splitlines() if ln.strip().startswith("replay:")]
    errata = dpverify_here("report", "--errata", "--module", path, "--format", "json")
    (row,) = strict_json(errata.stdout)
    for pasted in (line, row["replay"]):
        args = _run_pasted(pasted, tmp_path)
        assert not (tmp_path / "PWNED").exists()
        assert args == shlex.split(pasted)[1:] and args[:2] == ["check", "mine/priv"]
        assert args[args.index("--at") + 1].endswith(f"c={EVIL}")
    again = dpverify_here(*shlex.split(line)[1:])    # replayed: the value is refused in one line, never run
    one_line_error(again, 2, "--at")


SUM = '''
N = sp.Symbol("N", integer=True, positive=True)
k = sp.Symbol("k=__import__('os').system('touch PWNED') or 1", integer=True)
from dpverify import Int
CLAIMS = [Claim(id="mine/sum", source=_src("Lemma 3"), domain=Domain(x=Real(gt=0, le=4), N=Int(ge=1, le=5)),
                statements=(Inequality("sum <= 1", lhs=sp.Sum(x, (k, 1, N)), rhs=1),),
                expected="violated", reason="grows with N", witness={"x": 4, "N": 5})]
'''


def _names(tree) -> set[str]:
    out = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Name):
            out.add(node.id)
        elif isinstance(node, ast.arg):
            out.add(node.arg)
        elif isinstance(node, (ast.FunctionDef, ast.ClassDef)):
            out.add(node.name)
    return out


def test_a_sum_index_named_like_code_never_runs_in_check_py(tmp_path):
    """A `Sum` index symbol whose name is Python code was printed raw into check.py, which ran it (under
    `dpverify certify` and a reader's `python -I check.py`) and still printed CERTIFIED."""
    path = claims_file(tmp_path, SUM)
    r = dpverify("certify", "--all", "--module", path, "--out", str(tmp_path / "certs"), *FAST, cwd=tmp_path)
    assert r.returncode == 0, r.stderr
    assert not list(tmp_path.rglob("PWNED"))
    (check_py,) = (tmp_path / "certs").rglob("check.py")
    tree = ast.parse(check_py.read_text())
    assert not any("import" in n or "system" in n for n in _names(tree))
    ran = subprocess.run(["python3", "-I", "check.py"], cwd=check_py.parent, capture_output=True, text=True,
                         timeout=300) if shutil.which("python3") else None
    assert not list(tmp_path.rglob("PWNED"))
    del ran     # (a system python3 may lack python-flint: only what it did not do matters here)


@pytest.mark.parametrize("folder", ["javascript:alert(1)", "/etc", "../../elsewhere", "mine__other"])
def test_a_certificate_index_cannot_point_links_outside_its_folder(tmp_path, folder):
    """`report --certificates DIR` trusted `DIR/index.json` for link targets (`javascript:` links)."""
    path = claims_file(tmp_path, PRIV)
    certs = tmp_path / "certs"
    certs.mkdir()
    (certs / "index.json").write_text(json.dumps([{"id": "mine/priv", "status": "certified", "folder": folder}]))
    out = certs / "report.html"
    r = dpverify_here("report", "--errata", "--module", path, "--format", "html", "--certificates", str(certs),
                      "--out", str(out))
    one_line_error(r, 2, "--certificates", "index.json")
    assert not out.exists()


def test_markdown_links_in_claim_text_are_not_live(tmp_path):
    path = claims_file(tmp_path, PRIV)
    text = dpverify_here("report", "--errata", "--module", path).stdout
    t = assert_inert_html(markdown_html(text), MD_TAGS)
    assert "a" not in t.tags and not any(name == "href" for name, _ in t.attrs)


@pytest.mark.parametrize("bad", ["mine/a\n", "mine/a\r\n", " mine/a", "mine/a ", "mine/a\x1b[31m", "mine/\u200ba"])
def test_a_claim_id_with_a_newline_or_control_character_is_refused_naming_it(bad):
    from dpverify import Claim, Domain, Inequality, Real, Source
    from dpverify.errors import ClaimError

    x = sp.Symbol("x", positive=True)
    with pytest.raises(ClaimError) as err:
        Claim(id=bad, source=Source("notes", "Lemma 1"), domain=Domain(x=Real(gt=0, le=1)),
              statements=(Inequality("x <= 1", lhs=x, rhs=1),))
    assert "claim id" in str(err.value) and repr(bad) in str(err.value) and "\n" not in str(err.value)


def test_registry_errata_as_latex_are_written_and_compile(tmp_path):
    """`dpverify report --errata --format tex` on the registry ended in "internal error: ValueError: The
    argument 'zoo' is not comparable"; with pdflatex installed, the table compiles in a document."""
    r = dpverify_here("report", "--errata", "--format", "tex", "--out", str(tmp_path / "errata.tex"))
    assert r.returncode == 0, r.stderr
    tex = (tmp_path / "errata.tex").read_text()
    assert tex.count(r"\begin{longtable}") == 1 and "stage/thm-3.4" in tex
    if shutil.which("pdflatex") is None:
        pytest.skip("pdflatex is not installed (the LaTeX was written; compiling it needs pdflatex)")
    (tmp_path / "doc.tex").write_text("\\documentclass{article}\n\\usepackage[T1]{fontenc}\n"
                                      "\\usepackage{longtable}\n\\usepackage{amsmath}\n\\begin{document}\n"
                                      "\\input{errata.tex}\n\\end{document}\n")
    done = subprocess.run(["pdflatex", "-interaction=nonstopmode", "-halt-on-error", "-no-shell-escape", "doc.tex"],
                          cwd=tmp_path, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stdout[-3000:]
    assert (tmp_path / "doc.pdf").stat().st_size > 0


# --------------------------------------------------------------------------- fuzz: every format
_TEXT = st.text(st.characters(codec="utf-8", exclude_categories=("Cs",)), max_size=30) | st.sampled_from([
    "`", "``x``", "<script>alert(1)</script>", "[a](javascript:alert(1))", "[a]: http://x", "]( ", "|", "\\",
    "\\|", "$(touch X)", "'; touch X; '", "\n# heading", "&lt;", "&#60;", "%", "}{", "\\input{/etc/passwd}",
    '"""', "\r\n", "\x00", "\x1b[31m"])
_IDS = st.from_regex(r"[a-z0-9_]{1,6}/[a-z0-9][a-z0-9.\-_]{0,8}", fullmatch=True)
_SYMBOLS = _TEXT.filter(lambda s: s.strip() != "") | st.sampled_from(["sum", "_index", "P", "k=__import__('os')",
                                                                      "lambda", "x", "q"])
_ALLOWED_TEX = {"begin", "end", "textbf", "texttt", "textbackslash", "textless", "textgreater", "textasciitilde",
                "textasciicircum", "hline", "endhead", "linewidth", "le", "frac", "mbox"}


def _tex_rows_are_whole(tex: str, rows: int) -> None:
    body = [ln for ln in tex.split("\n") if ln.endswith(r"\\")][1:]
    assert len(body) == rows
    for ln in body:
        plain = re.sub(r"\\.", "", ln)             # escaped characters (\&, \{, \\) are text
        assert plain.count("&") == 4 and plain.count("{") == plain.count("}"), ln
    commands = set(re.findall(r"\\([A-Za-z]+)", tex))
    assert commands <= _ALLOWED_TEX, commands - _ALLOWED_TEX


@settings(max_examples=40, derandomize=True, deadline=None, database=None)
@given(claim_id=_IDS, label=_TEXT.filter(lambda s: s.strip() != ""), text=_TEXT, value=_TEXT, symbol=_SYMBOLS,
       statement=_TEXT.filter(lambda s: s.strip() != "" and not any(ord(c) < 32 or ord(c) == 127 for c in s)))
# (a statement's name with a control character is refused where it is made: tests/engine/test_rateproof.py)
def test_fuzz_every_field_through_every_format(claim_id, label, text, value, symbol, statement):
    """Random ids, labels, claim text, witness values, statement names and Sum index symbols through the
    Markdown, HTML, LaTeX and JSON errata, the replay line and check.py: no markup, no link, no command,
    no code gets through; every table keeps its cells, every line its tokens, every literal its value."""
    from dpverify import Choice, Claim, Domain, Real, Source, SupBound
    from dpverify.certify import runtime
    from dpverify.certify.writer import Plan, check_source
    from dpverify.report import errata_latex, errata_markdown, errata_rows, render
    from dpverify.scenarios import gaussian_mechanism

    s = sp.Symbol("s", positive=True)
    claim = Claim(id=claim_id, source=Source("notes", label), domain=Domain(s=Real(ge=1, le=2), c=Choice((value,))),
                  statements=(SupBound(statement, scenario=gaussian_mechanism(sensitivity=1, noise_std=s, order=2,
                                       measure="renyi_over_order"), bound=sp.Rational(1, 100)),),
                  expected="violated", reason=text or "r", summary=text, witness={"s": 1.5, "c": value})
    claims = [claim, claim.corrected(summary=text)]
    (row,) = errata_rows(claims)
    # Markdown: one table row of six cells; no tag but the table's and emphasis; the replay whole
    html = markdown_html(errata_markdown(claims))
    t = assert_inert_html(html, MD_TAGS)
    assert t.tags.count("tr") == 2 and t.tags.count("td") == 6
    def norm(text):
        return re.sub(r"[\s\x00-\x1f\x7f-\x9f\u2028\u2029\ufffd]+", " ", text.replace("\\|", "|")).strip()
    assert norm(row["replay"]) in [norm(c) for c in t.code], (row["replay"], t.code)
    # HTML: the errata page's own tags only
    assert_inert_page(render([], claims, "html"))
    # LaTeX: four column separators per row, balanced braces, only the table's commands
    _tex_rows_are_whole(errata_latex(errata_rows(claims)), 1)
    # JSON: the values as given
    assert json.loads(render([], claims, "json"))["errata"][0]["witness"]["c"] == value
    # shell: every token back as given
    tokens = shlex.split(row["replay"])
    assert tokens[:3] == ["dpverify", "check", claim_id] and tokens[-2:] == ["--at", f"s=1.5,c={value}"]
    # check.py: parses; the id, statement and docstring read back; the symbol is never a name
    k = sp.Symbol(symbol, integer=True)
    plan = Plan("analytic", statement, {"s": "3/2", "c": value}, {"LHS": sp.Sum(s, (k, 1, 3)), "RHS": sp.Integer(1)},
                runtime.INEQUALITY)
    source = check_source(claim, plan)
    tree = ast.parse(source)
    assert claim_id in ast.get_docstring(tree)
    consts = {n.targets[0].id: ast.literal_eval(n.value) for n in tree.body
              if isinstance(n, ast.Assign) and isinstance(n.targets[0], ast.Name)
              and n.targets[0].id in ("CLAIM_ID", "STATEMENT", "PARAMS")}
    assert consts["CLAIM_ID"] == claim_id and consts["STATEMENT"] == statement
    assert consts["PARAMS"]["c"] == ("choice", {"values": [value]})
    (lhs,) = [n for n in tree.body if isinstance(n, ast.FunctionDef) and n.name == "LHS"]
    loop = _names(lhs) - {"LHS", "P", "_sum", "arb", "q"}
    assert len(loop) == 1, loop               # the sum's variable, and nothing else
    (var,) = loop
    plain = re.fullmatch(r"[A-Za-z][A-Za-z0-9]*", symbol) and f"_{symbol}" not in HELPERS
    assert var == f"_{symbol}" if plain else re.fullmatch(r"_i\d+_", var), (symbol, var)


HELPERS = {"_sum", "_index", "_min", "_max", "_cmp", "_pow", "_rpow", "_prod", "_floor", "_ceil", "_integer",
           "_piecewise"}
