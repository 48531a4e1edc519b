"""Loading the Slovenian worked examples for the tests.

``ledger/tests/conftest.py``'s ``load_example`` reads the spec's examples directory
(``<repo>/../shared/spec/examples``), else ``ledger/tests/examples``. In a git worktree
that first directory is not there and the second holds no Slovenian files, so a copy of
``SL*.json`` ships beside these tests and is used when ``load_example`` cannot find one.
"""

from __future__ import annotations

from pathlib import Path

from ledger.tests.conftest import load_example

LOCAL_EXAMPLES = Path(__file__).resolve().parent / "examples"


def load_sl(name: str):
    """Return the example file ``name`` (e.g. ``SL3.hand.json``) as JSON data."""
    return load_example(name)
