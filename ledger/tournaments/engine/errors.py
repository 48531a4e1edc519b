"""The error a tournament's rules raise: every problem names its field, as the games do."""

from __future__ import annotations

from ledger.games.errors import RulesError


class TournamentError(RulesError):
    """Raised when a tournament, a round, a draw or a file breaks a rule of ``tournament.md``."""
