"""Locks that answer: every service's transaction waits a bounded time for its row locks.

On PostgreSQL ``writing()`` sets ``lock_timeout`` and ``statement_timeout`` for its own
transaction only (``SET LOCAL``, through ``set_config(..., true)``): a row lock held past
``TAROK_LOCK_TIMEOUT`` seconds, or a statement running past ``TAROK_STATEMENT_TIMEOUT``,
ends the transaction (nothing is written) and the service raises ``BusyError``, which the web
answers as "busy, try again" (409 with ``Retry-After`` to the tablet's script). SQLite has no
row locks: its database lock waits the connection's ``timeout`` option, and a "database is
locked" at the end of it is the same refusal. Both bounds stay under gunicorn's worker timeout
(``scripts/serve-production.sh``), so a stuck lock is never a 500.
"""

from __future__ import annotations

import contextlib
import logging

from django.conf import settings
from django.db import DatabaseError, OperationalError, transaction

from ledger.models import Evening, Table
from ledger.services.errors import BusyError

logger = logging.getLogger(__name__)

# PostgreSQL's SQLSTATEs of a lock not had in time (lock_not_available) and of a statement
# cancelled by its timeout (query_canceled).
BUSY_SQLSTATES = {"55P03": "lock timeout", "57014": "statement timeout"}


def set_timeouts() -> None:
    """Bound the current transaction's lock waits and statements (PostgreSQL; a no-op where
    the database has no such settings)."""
    connection = transaction.get_connection()
    if connection.vendor != "postgresql":
        return
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT set_config('lock_timeout', %s, true),"
            " set_config('statement_timeout', %s, true)",
            [_ms(settings.TAROK_LOCK_TIMEOUT), _ms(settings.TAROK_STATEMENT_TIMEOUT)],
        )


def _ms(seconds: float) -> str:
    return f"{max(1, round(seconds * 1000))}ms"


def busy_reason(error: BaseException) -> str | None:
    """Return why ``error`` is a wait that ran out ("lock timeout", "statement timeout",
    "database locked"), or None when it is another database error."""
    if not isinstance(error, OperationalError):
        return None
    sqlstate = getattr(error.__cause__, "sqlstate", None)
    if sqlstate in BUSY_SQLSTATES:
        return BUSY_SQLSTATES[sqlstate]
    if "database is locked" in str(error):
        return "database locked"
    return None


@contextlib.contextmanager
def busy_refused(locked: dict | None = None):
    """Turn a lock or statement timeout inside the block into ``BusyError`` (after the block's
    transaction rolled back); ``locked`` (ids by kind) is what the service was locking, for
    the log line."""
    try:
        yield
    except OperationalError as error:
        reason = busy_reason(error)
        if reason is None:
            raise
        ids = {kind: sorted(ids) for kind, ids in (locked or {}).items() if ids}
        logger.warning(
            "write refused: %s",
            reason,
            extra={"event": "busy", "reason": reason, "club": _club_of(ids), **ids},
        )
        raise BusyError(retry_after=settings.TAROK_BUSY_RETRY_AFTER) from error


def _club_of(ids: dict) -> str | None:
    """Return the short name of the club of the first table or evening in ``ids``, for the
    log line (read after the refused transaction rolled back); None when it cannot be read."""
    try:
        if ids.get("tables"):
            tables = Table.objects.filter(pk=ids["tables"][0])
            return tables.values_list("evening__club__slug", flat=True).first()
        if ids.get("evenings"):
            evenings = Evening.objects.filter(pk=ids["evenings"][0])
            return evenings.values_list("club__slug", flat=True).first()
    except DatabaseError:
        return None
    return None
