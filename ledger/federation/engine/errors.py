"""The error a federation's rules raise: every problem names its field, as the games do."""

from __future__ import annotations

from ledger.games.errors import RulesError


class FederationError(RulesError):
    """Raised when a series, its rule, an event, a rating list or a file breaks a rule of
    ``federation.md``."""
