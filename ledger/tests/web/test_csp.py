"""Content-Security-Policy: every page is sent a strict policy, and the templates keep to it.

No inline script and no inline style anywhere the browser renders; PDF templates
(``templates/ledger/pdf/``) are rendered by WeasyPrint, not a browser, and may keep their
``<style>``.
"""

import re

import pytest

from ledger.tests.conftest import ROOT

TEMPLATES = ROOT / "templates"


def directives(header: str) -> dict[str, list[str]]:
    parts = (p.strip().split() for p in header.split(";") if p.strip())
    return {p[0]: p[1:] for p in parts}


@pytest.mark.django_db
def test_pages_carry_a_strict_content_security_policy(client):
    """The log-in page is sent a CSP: script-src and style-src 'self' (no 'unsafe-inline'),
    default-src 'self', img-src 'self' data:, frame-ancestors 'none', form-action 'self'."""
    response = client.get("/login/")
    assert response.status_code == 200
    policy = directives(response["Content-Security-Policy"])
    assert policy["default-src"] == ["'self'"]
    assert policy["script-src"] == ["'self'"]
    assert policy["style-src"] == ["'self'"]
    assert policy["img-src"] == ["'self'", "data:"]
    assert policy["frame-ancestors"] == ["'none'"]
    assert policy["form-action"] == ["'self'"]
    assert "'unsafe-inline'" not in response["Content-Security-Policy"]


@pytest.mark.django_db
def test_htmx_is_served_from_static_and_injects_no_styles(client):
    """htmx comes from our own static files, and its indicator style injection is off."""
    html = client.get("/login/").content.decode()
    assert re.search(r'<script[^>]+src="/static/django_htmx/htmx[^"]*\.js"', html)
    assert '<meta name="htmx-config" content=\'{"includeIndicatorStyles": false}\'>' in html


def browser_templates():
    return sorted(
        p for p in TEMPLATES.rglob("*.html") if "pdf" not in p.relative_to(TEMPLATES).parts
    )


def test_no_inline_script_or_style_outside_the_pdf_templates():
    """No browser template has an inline <script> (one without src; JSON data blocks of
    type application/json are data, not script), a <style> block or a style= attribute."""
    assert browser_templates()
    offences = []
    for path in browser_templates():
        text = path.read_text(encoding="utf-8")
        for match in re.finditer(r"<script\b([^>]*)>", text, re.I):
            attrs = match.group(1)
            if "src=" not in attrs and "application/json" not in attrs:
                offences.append(f"{path.name}: inline <script{attrs}>")
        if re.search(r"<style\b", text, re.I):
            offences.append(f"{path.name}: <style> block")
        if re.search(r"\sstyle\s*=", text, re.I):
            offences.append(f"{path.name}: style= attribute")
        if re.search(r"\son[a-z]+\s*=", text):
            offences.append(f"{path.name}: inline event handler")
    assert offences == []


def test_python_rendered_html_has_no_inline_style():
    """The HTML built in Python (tables, charts) uses classes, never style= or <style>."""
    paths = [
        p
        for p in (ROOT / "ledger").rglob("*.py")
        if "tests" not in p.parts and "migrations" not in p.parts and p.name != "reports.py"
    ]  # reports.py renders PDFs (WeasyPrint), where no CSP applies
    assert ROOT / "ledger" / "web" / "charts.py" in paths
    for path in paths:
        text = path.read_text(encoding="utf-8")
        name = path.relative_to(ROOT).as_posix()
        assert not re.search(r"style\s*=\s*[\\\"']", text), name
        assert "<style" not in text, name
