"""A results file arriving over the web (the officer's upload, the HTTP POST with an upload
token): read with the one reader of untrusted JSON (``ledger.web.jsonin.load_json_safely``:
size, depth, numbers, bytes), then the file's schema and references
(``ledger.federation.engine.results.read_results``), before any service sees it.

``results_import`` itself then recomputes the rounds and refuses a file that disagrees; its
refusal is a ``LedgerError``. Both are shown as every refusal is
(``ledger.web.refusals``).
"""

from __future__ import annotations

from ledger.federation.engine.results import read_results
from ledger.web.jsonin import MAX_BYTES, load_json_safely

__all__ = ["MAX_BYTES", "read_results_bytes"]


def read_results_bytes(data: bytes, field: str = "file") -> dict:
    """Return the results file in ``data`` (bytes of at most ``MAX_BYTES``). Raise
    ``RulesError`` naming every problem found (``file`` for what is not JSON within the
    limits; the field's path for what breaks the schema)."""
    document = load_json_safely(data, field)
    return read_results(document)
