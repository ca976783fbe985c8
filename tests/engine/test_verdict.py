"""dpverify.verdict: a Verdict renders as HTML and as text. (Moved from tests/test_registry.py.)"""
import dpverify


def test_verdict_renders_html():
    v = dpverify.check("dni/claim-zcdp-inversion", samples=20)
    html = v._repr_html_()
    assert "<table>" in html and "dni/claim-zcdp-inversion" in html and "violated" in html
    assert "dni/claim-zcdp-inversion" in str(v)
