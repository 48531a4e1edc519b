"""The engine's errors live in ``ledger.games.errors``, shared by every game."""

from ledger.games.errors import (  # noqa: F401
    EveningError,
    HandError,
    Problem,
    Problems,
    RateCardError,
    RulesError,
    _,
)
