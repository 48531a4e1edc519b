"""Helpers shared by the games' tests."""

from __future__ import annotations

from ledger.games.base import Dealt


def schedule_in_turn(game, seats, first: str, number: int, rates):
    """Return the game's Schedule of hand ``number`` of a table whose earlier hands were all
    dealt as the game scheduled them, the first by ``first``."""
    if number < 1:
        raise ValueError("hand numbers start at 1")
    seats = tuple(seats)
    dealt: list[Dealt] = []
    while True:
        schedule = game.schedule(seats, dealt, rates, first=first)
        if len(dealt) + 1 == number:
            return schedule
        dealt.append(Dealt(seats, schedule.dealer, tuple(schedule.sitting_out)))
