"""Who deals, who sits out and who leads, for Hungarian tables of 4 and 5 seats.

Seats are listed in the direction of play. The dealer moves one seat each hand; with
5 seats the dealer sits out and the other four play; forehand is the first active seat
after the dealer (hungarian-tarokk.md section 1). The shared rotation is
``ledger/games/rotation.py``; this module adds the Hungarian seat counts.
"""

from __future__ import annotations

from ledger.games.base import Schedule
from ledger.games.rotation import (
    active_players,
    forehand,
    next_dealer,
    next_dealer_of,
    schedule_of,
    sitting_out,
)

__all__ = [
    "SEAT_COUNTS",
    "active_players",
    "dealer_of",
    "forehand",
    "in_order_from",
    "next_dealer",
    "schedule",
    "sitting_out",
]

SEAT_COUNTS = (4, 5)


def in_order_from(seats, start: str, members) -> list[str]:
    """Return ``members`` in the direction of play, beginning after ``start``."""
    n = len(seats)
    s = list(seats).index(start)
    wanted = set(members)
    return [seats[(s + step) % n] for step in range(1, n) if seats[(s + step) % n] in wanted]


def dealer_of(seats, first_dealer: str, hand_number: int) -> str:
    """Return the dealer of hand ``hand_number`` (1 = first, dealt by ``first_dealer``)."""
    seats = list(seats)
    if hand_number < 1:
        raise ValueError("hand numbers start at 1")
    if len(seats) not in SEAT_COUNTS:
        raise ValueError("a Hungarian table seats 4 or 5 members")
    if first_dealer not in seats:
        raise ValueError("the first dealer is not seated")
    return seats[(seats.index(first_dealer) + hand_number - 1) % len(seats)]


def schedule(seats, previous, first: str) -> Schedule:
    """Return the Schedule of the next hand of a table: the seat after the last hand's dealer
    deals (``first`` before any hand).

    ``roles`` maps every seat to ``out`` (the sitting-out dealer), ``dealer`` (a dealer
    who plays, at 4 seats), ``forehand`` or ``player``.
    """
    seats = tuple(seats)
    if len(seats) not in SEAT_COUNTS:
        raise ValueError("a Hungarian table seats 4 or 5 members")
    return schedule_of(seats, next_dealer_of(seats, previous, first))
