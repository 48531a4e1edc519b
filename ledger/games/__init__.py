"""The games the ledger can settle, each a package behind one interface (``base.Game``).

A hand, a table and an evening name their game; callers ask ``get_game(code)`` and the
game's ``features``, never "is this Danish?".
"""

from __future__ import annotations

from ledger.games.danish import GAME as DANISH_TAROK
from ledger.games.hungarian import GAME as HUNGARIAN_TAROKK
from ledger.games.slovenian import GAME as SLOVENIAN_TAROK

GAMES = {game.code: game for game in (DANISH_TAROK, SLOVENIAN_TAROK, HUNGARIAN_TAROKK)}
GAME_CHOICES = [(g.code, g.name) for g in GAMES.values()]
DEFAULT_GAME = DANISH_TAROK.code


def get_game(code: str):
    """Return the game named ``code``; KeyError for an unknown one."""
    return GAMES[code]
