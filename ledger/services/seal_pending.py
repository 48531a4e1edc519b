"""The seals a service's transaction holds until it commits (``services.seals``).

Inside a service's transaction (``services.ledger.writing``, which opens ``pending``) the seals
of its postings and hand revisions wait here, in the order they were computed (each chained to
the one before it in memory), with the contents the service already holds of the hands and
table heads it wrote (``hold``); ``seals.seal_heads`` writes them all with the heads, in one
statement, before the transaction commits. Outside one they are written at once.
"""

from __future__ import annotations

import contextlib
import contextvars


class Pending:
    """The seals a service's transaction has computed but not yet written (kept in order), and
    the contents it holds of what ``seal_heads`` seals (by (kind, id)), so it reads them not."""

    def __init__(self):
        self.rows: list = []
        self.contents: dict[tuple[str, int], list] = {}

    def last(self, kind: str, scope: int) -> str | None:
        """Return the newest pending seal of ``kind`` in ``scope``, or None."""
        for row in reversed(self.rows):
            if row.kind == kind and row.scope == scope:
                return row.digest
        return None

    def digest_of(self, kind: str, object_id: int) -> str | None:
        """Return the pending seal of ``kind`` of ``object_id``, or None."""
        for row in reversed(self.rows):
            if row.kind == kind and row.object_id == object_id:
                return row.digest
        return None


_PENDING: contextvars.ContextVar[Pending | None] = contextvars.ContextVar("seals", default=None)


def current() -> Pending | None:
    """Return the current transaction's pending seals (None outside ``pending``)."""
    return _PENDING.get()


@contextlib.contextmanager
def pending():
    """Keep the seals written inside the block for ``seal_heads`` (``writing`` opens it)."""
    token = _PENDING.set(Pending())
    try:
        yield
    finally:
        _PENDING.reset(token)


def waiting_seal(kind: str, scope: int) -> str | None:
    """Return the newest seal of ``kind`` in ``scope`` still pending in the current
    transaction, or None."""
    batch = _PENDING.get()
    return batch.last(kind, scope) if batch is not None else None


def hold(kind: str, object_id: int, content) -> None:
    """Note the content of a hand (``seals.HAND_FIELDS``) or a table's head
    (``seals.table_head``) as the current service's transaction leaves it, so ``seal_heads``
    seals it without reading it. Only what nothing changes after the note (a hand just saved,
    its table's head after its posting) is held; outside a transaction this does nothing."""
    batch = _PENDING.get()
    if batch is not None:
        batch.contents[(kind, object_id)] = content
