"""Database hooks of the ledger.

On SQLite the append-only triggers ask ``ledger_locked()``, a function every connection of
this process registers (a connection that lacks it, such as the sqlite3 shell, fails closed:
its write is refused). ``ledger_unlocked()`` lifts the guard for two purposes only: the test
runner's flush of a test database, which deletes every row between transactional tests, and
``restore``, which loads postings of closed evenings from a backup. PostgreSQL's test flush
deletes every row with the triggers off for its own transaction (``session_replication_role``,
``ledger/tests/conftest.py``); its restore sets ``ledger.restoring`` locally.
"""

from __future__ import annotations

import contextlib
import threading

from django.db.backends.signals import connection_created
from django.dispatch import receiver

_state = {"unlocked": 0}
_lock = threading.Lock()


def _ledger_locked() -> int:
    return 0 if _state["unlocked"] else 1


@receiver(connection_created)
def register_sqlite_functions(sender, connection, **kwargs):
    if connection.vendor == "sqlite":
        connection.connection.create_function("ledger_locked", 0, _ledger_locked)


@contextlib.contextmanager
def ledger_unlocked():
    """Let the test flush or ``restore`` write what the guards refuse; never used otherwise."""
    with _lock:
        _state["unlocked"] += 1
    try:
        yield
    finally:
        with _lock:
            _state["unlocked"] -= 1
