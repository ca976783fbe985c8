"""Statements from the paper's LaTeX: a claims file written in LaTeX checks like one written in SymPy,
and what the parser cannot read is refused when the claim is built, naming the position and the token."""
from __future__ import annotations

import json
import subprocess
import sys
import textwrap

import pytest
import sympy as sp

from dpverify import ClaimError, Identity, Inequality, Latex
from dpverify.claims.latex import LatexError, latex

CLAIMS_FILE = textwrap.dedent(r'''
    from dpverify import Claim, Domain, Inequality, Int, Latex, Real, Source

    DOMAIN = Domain(kappa=Real(gt=1, search=(1, 1e3), log=True), T=Int(ge=1, search=(1, 200)))
    CLAIMS = (
        Claim(id="tex/claim-exp", source=Source("any analysis text", "1 - x <= e^{-x}"), domain=DOMAIN,
              statements=(Inequality.from_latex("contraction",
                          r"\left(1 - \frac{1}{\kappa}\right)^{T} \le e^{-T/\kappa}"),)),
        Claim(id="tex/claim-planted", source=Source("a planted error", "the wrong side"), domain=DOMAIN,
              expected="violated", reason="planted: e^{-T/kappa} is an upper bound, not a lower one",
              statements=(Inequality("contraction, reversed", lhs=Latex(r"e^{-T/\kappa}"),
                                     rhs=Latex(r"\left(1 - \frac{1}{\kappa}\right)^{T}")),)),
    )
''')


def test_a_latex_claims_file_checks_from_the_cli(tmp_path):
    path = tmp_path / "tex_claims.py"
    path.write_text(CLAIMS_FILE)
    res = subprocess.run([sys.executable, "-m", "dpverify", "check", "--module", str(path), "--all", "--json",
                          "--no-progress", "--no-timing", "--jobs", "1"], capture_output=True, text=True, cwd=tmp_path)
    assert res.returncode == 0, res.stderr[-2000:]
    verdicts = {v["id"]: v["verdict"] for v in json.loads(res.stdout)}
    assert verdicts["tex/claim-exp"] in ("verified", "holds")
    assert verdicts["tex/claim-planted"] == "violated"


def test_symbols_bind_by_name_and_subscripts_lose_their_braces():
    kappa, T, eta_t = sp.symbols("kappa T eta_t")
    assert latex(r"\left(1-\frac{1}{\kappa}\right)^{T}") == (1 - 1 / kappa) ** T
    assert latex(r"\eta_{t} \cdot e^{T}") == eta_t * sp.exp(T)      # unbound e is Euler's number
    pos = sp.Symbol("kappa", positive=True)
    assert latex(r"\sqrt{\kappa^2}", symbols=[pos]) == pos          # bound to the caller's symbol, assumptions kept


def test_a_relation_is_turned_round_and_strictness_kept():
    a, b = sp.symbols("a b")
    ge = Inequality.from_latex("ge", r"a \geq b")
    assert (ge.lhs, ge.rhs, ge.strict) == (b, a, False)
    lt = Inequality.from_latex("lt", r"a < b")
    assert (lt.lhs, lt.rhs, lt.strict) == (a, b, True)
    assert Identity.from_latex("id", r"a \cdot b = b \cdot a").lhs == a * b


@pytest.mark.parametrize("text, where", [
    (r"\frac{a}{b + ", "column 14 (token 'end of input')"),
    (r"a \le \sigma_{t}^2", "column 7"),
])
def test_what_cannot_be_parsed_is_refused_with_position_and_token(text, where):
    with pytest.raises(LatexError) as info:
        Inequality.from_latex("bad", text)
    assert where in str(info.value) and "statement 'bad'" in str(info.value)
    assert isinstance(info.value, ClaimError)


def test_a_side_that_is_not_an_expression_or_a_relation_of_the_wrong_kind_is_refused():
    with pytest.raises(LatexError, match=r"\\cdot"):
        latex(r"d \log(1/\delta)")                    # implicit product before a function
    with pytest.raises(LatexError, match="not a relation"):
        Inequality.from_latex("eq", r"a = b")
    with pytest.raises(LatexError, match="lhs"):
        Inequality("side", lhs=Latex(r"\frac{1}{"), rhs=1)
