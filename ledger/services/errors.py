"""Errors of the ledger's services (the games' engines have their own, in ``games/errors.py``)."""

from django.utils.translation import gettext_lazy as _


class LedgerError(Exception):
    """Raised when a service refuses a write; names the field and the rule, and writes nothing."""

    def __init__(self, message, field: str = "__all__"):
        self.message = message
        self.field = field
        super().__init__(str(message))


class EveningClosedError(LedgerError):
    """Raised on any write to a closed evening (or a closed table)."""

    def __init__(self, field: str = "__all__"):
        super().__init__(_("the evening is closed; a treasurer must reopen it first"), field)


class TournamentEveningError(LedgerError):
    """Raised when a club role's service (open a table, seat, count jetons, adjust, close,
    reopen, file under a season) is asked to change a tournament's evening: its tables are
    opened and closed only by the tournament's round services."""


class SeatingError(LedgerError):
    """Raised when seating or leaving breaks the table's rules (3 to 5, each once)."""


class CupNegativeError(LedgerError):
    """Raised when a posting would take a cup below zero."""


class JetonDifferenceError(LedgerError):
    """Raised when an evening with unconfirmed jeton differences is closed."""


class StaleFormError(LedgerError):
    """Raised when a form was previewed against a slot or table state that has moved on: the
    hand number was taken from another device, the table changed, or a hand was corrected
    meanwhile. ``hand_number`` names the hand to look at."""

    def __init__(self, message, field: str = "__all__", *, hand_number: int | None = None):
        super().__init__(message, field)
        self.hand_number = hand_number


class BusyError(LedgerError):
    """Raised when a service could not have its locks in time (another write held them past
    ``TAROK_LOCK_TIMEOUT``) or a statement ran past ``TAROK_STATEMENT_TIMEOUT``: nothing is
    written, and the same write may be sent again after ``retry_after`` seconds."""

    def __init__(self, field: str = "__all__", *, retry_after: int = 2):
        super().__init__(_("another save is under way; try again in a moment"), field)
        self.retry_after = retry_after
