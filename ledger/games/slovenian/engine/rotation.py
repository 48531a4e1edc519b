"""Who deals, who sits out and who is forehand at a Slovenian table of 3, 4 or 5 seats.

Seats are listed in the direction of play. The deal moves one seat on each hand. At 5
seats the dealer sits out and the other four play; at 3 and 4 seats everyone plays.
Forehand is the first active seat after the dealer (``slovenian-tarok.md`` section 1).
The rotation is the shared one of ``ledger/games/rotation.py``.
"""

from __future__ import annotations

from ledger.games.rotation import (
    active_players,
    dealer_of,
    forehand,
    next_dealer,
    schedule,
    schedule_roles,
    sitting_out,
)

__all__ = [
    "active_players",
    "dealer_of",
    "forehand",
    "next_dealer",
    "schedule",
    "schedule_roles",
    "sitting_out",
]
