"""Nothing outside the Danish game's packages names Danish Tarok's words.

Views, tables, selectors, templates and scripts ask the game (``get_game``, ``get_web``) for
its pools, labels, entry form and statistics; only ``ledger/games/danish/`` and its template
and static folders, the migrations, the tests and the translations may say ``kongekop``,
``pagatkop``, ``bagud``, ``nolo``, ``tout`` or ``meld``.
"""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
SCANNED = ("ledger", "templates", "static")
ALLOWED = (
    "ledger/games/danish/",
    "templates/ledger/games/danish/",
    "static/ledger/games/danish/",
    "ledger/migrations/",
    "ledger/tests/",
    "locale/",
)
DANISH_WORDS = re.compile(r"kongekop|pagatkop|bagud|nolo|tout|meld", re.IGNORECASE)


def scanned_files():
    for top in SCANNED:
        for path in sorted((ROOT / top).rglob("*")):
            relative = path.relative_to(ROOT).as_posix()
            if path.is_file() and "__pycache__" not in relative and not relative.endswith(".pyc"):
                if not relative.startswith(ALLOWED):
                    yield relative, path


def test_the_scan_sees_the_web_layer():
    """The scan covers the views, the templates and the static files it is meant to guard."""
    names = {relative for relative, _path in scanned_files()}
    assert {
        "ledger/views/scoring.py",
        "ledger/tables/__init__.py",
        "templates/ledger/hand_form.html",
    } <= names
    assert any(name.startswith("static/ledger/") for name in names)


def test_no_danish_word_outside_the_danish_package():
    """No file outside the Danish game's folders names a Danish Tarok word (case-insensitive)."""
    found = []
    for relative, path in scanned_files():
        text = path.read_bytes().decode("utf-8", errors="replace")
        for number, line in enumerate(text.splitlines(), start=1):
            for match in DANISH_WORDS.finditer(line):
                found.append(f"{relative}:{number}: {match.group(0)}")
    assert found == [], "Danish words outside ledger/games/danish/:\n" + "\n".join(found)
