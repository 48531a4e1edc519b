"""The federation engine words its refusals in English; each reads in Danish, Slovenian and
Hungarian (the catalogues hold a translation of every one)."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

import ledger.federation.engine
from ledger.tests.test_i18n import CATALOGUES, messages, po_of, read_po


def engine_messages() -> list[tuple[str, str]]:
    """Return (file, message) for every refusal the federation engine marks with ``_("...")``."""
    root = Path(ledger.federation.engine.__file__).parent
    found = []
    for path in sorted(root.glob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if (
                isinstance(node, ast.Call)
                and isinstance(node.func, ast.Name)
                and node.func.id == "_"
                and node.args
                and isinstance(node.args[0], ast.Constant)
            ):
                message = node.args[0].value
                assert isinstance(message, str), (path, message)
                found.append((path.name, message))
    return found


@pytest.mark.parametrize("code", sorted(CATALOGUES))
def test_every_refusal_of_the_federation_engine_is_translated(code):
    """Each message of the federation engine has a translation in the language's catalogue."""
    found = engine_messages()
    assert len(found) > 15  # the walk found the engine
    translated = {
        e["strings"]["msgid"] for e in messages(read_po(po_of(code))) if e["strings"].get("msgstr")
    }
    assert [(where, text) for where, text in found if text not in translated] == []
