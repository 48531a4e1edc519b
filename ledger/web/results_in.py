"""A results file arriving over the web (the officer's upload, the HTTP POST with an upload
token): read with the one reader of untrusted JSON (``ledger.web.jsonin.load_json_safely``:
size, depth, numbers, bytes), then the file's schema and references
(``ledger.federation.engine.results.read_results``), before any service sees it.

``results_import`` itself then recomputes the rounds and refuses a file that disagrees; its
refusal is a ``LedgerError``. Both kinds of refusal come out of ``refusal_rows`` as
``[{"field", "message"}]``, translated, the first row first.
"""

from __future__ import annotations

from django.utils.translation import gettext

from ledger.federation.engine.results import read_results
from ledger.games.errors import RulesError
from ledger.services.errors import LedgerError
from ledger.web.jsonin import MAX_BYTES, load_json_safely

__all__ = ["MAX_BYTES", "read_results_bytes", "refusal_rows"]


def read_results_bytes(data: bytes, field: str = "file") -> dict:
    """Return the results file in ``data`` (bytes of at most ``MAX_BYTES``). Raise
    ``RulesError`` naming every problem found (``file`` for what is not JSON within the
    limits; the field's path for what breaks the schema)."""
    document = load_json_safely(data, field)
    return read_results(document)


def refusal_rows(error: RulesError | LedgerError) -> list[dict]:
    """Return a refusal as ``[{"field": ..., "message": ...}]``, translated."""
    if isinstance(error, RulesError):
        return [
            {"field": p.field, "message": gettext(p.template).format(**p.params)}
            for p in error.problems
        ]
    return [{"field": error.field, "message": str(error.message)}]
