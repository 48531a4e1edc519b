"""The admin of the ledger app: its core (clubs, members, the ledger) and its events
(tournaments, the federation); importing both registers every model."""

from ledger.admin import core, events
from ledger.admin.core import reason_words

__all__ = ["core", "events", "reason_words"]
