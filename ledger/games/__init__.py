"""The games the ledger can settle. A hand names its game; Danish Tarok is the first.

A game is the pure rules package that parses a hand record, settles it and reads its
rate card. The ledger's tables do not assume any one game.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from ledger import rules


@dataclass(frozen=True)
class Game:
    code: str
    name: str
    rate_card: type
    parse_hand: Callable
    settle: Callable
    split_cups: Callable


DANISH_TAROK = Game(
    code="danish_tarok",
    name="Dansk tarok",
    rate_card=rules.RateCard,
    parse_hand=rules.parse_hand,
    settle=rules.settle,
    split_cups=rules.split_cups,
)

GAMES = {DANISH_TAROK.code: DANISH_TAROK}
GAME_CHOICES = [(g.code, g.name) for g in GAMES.values()]


def get_game(code: str) -> Game:
    """Return the game named ``code``."""
    return GAMES[code]
