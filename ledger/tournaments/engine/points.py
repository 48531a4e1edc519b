"""From table scores to places, firsts and tournament points (spec sections 6, 7 and 9).

Players with equal scores share the places they occupy and each gets the mean of those places'
points (7.1); a player's place is the first of his group's places; the group with the table's
highest score counts a first. Sum formats take the table score itself as points (7.2).

A player who left the table during the round (section 9) takes the last place at his table:
the players who stayed are placed first, the leavers after them. Choice for the case the spec
does not name, two or more leavers at one table: they share the last places among themselves
by their table scores, as any tied players do.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from fractions import Fraction

from ledger.games.errors import Problems, _

from .errors import TournamentError
from .model import RoundPoints, SeatResult
from .rules import FORMATS, PLACEMENT, bye_points, placement_points


def table_points(
    format_code: str,
    seats: Sequence[str],
    scores: Mapping[str, int],
    *,
    table: int = 1,
    leavers: Collection[str] = (),
) -> tuple[SeatResult, ...]:
    """Return the round result of every seat of one table, in seat order."""
    placement = FORMATS[format_code].scoring == PLACEMENT
    points_by_place = placement_points(format_code, len(seats)) if placement else ()
    stayed = sorted((p for p in seats if p not in leavers), key=lambda p: -scores[p])
    left = sorted((p for p in seats if p in leavers), key=lambda p: -scores[p])
    results: dict[str, SeatResult] = {}
    position = 0
    for block in (stayed, left):
        i = 0
        while i < len(block):
            j = i
            while j < len(block) and scores[block[j]] == scores[block[i]]:
                j += 1
            first_place, last_place = position + i + 1, position + j
            shared = points_by_place[first_place - 1 : last_place]
            mean = sum(shared, Fraction(0)) / len(shared) if placement else Fraction(0)
            for player in block[i:j]:
                results[player] = SeatResult(
                    player=player,
                    table=table,
                    score=scores[player],
                    place=first_place,
                    points=mean if placement else Fraction(scores[player]),
                    first=first_place == 1,
                    left=player in leavers,
                )
            i = j
        position += len(block)
    return tuple(results[p] for p in seats)


def round_points(
    format_code: str,
    game: str,
    tables: Sequence[Sequence[str]],
    scores: Mapping[str, int],
    *,
    byes: Sequence[str] = (),
    leavers: Collection[str] = (),
) -> RoundPoints:
    """Return the round's results: each seat's place, points and first, and the byes' points.

    ``scores`` holds the table score (in the format's basis) of exactly the seated players;
    raise TournamentError naming ``scores.<id>`` for a missing, extra or non-integer score.
    """
    problems = Problems()
    seated = [p for table in tables for p in table]
    for p in seated:
        if p not in scores:
            problems.add(f"scores.{p}", _("{player} is seated but has no table score"), player=p)
        elif not isinstance(scores[p], int) or isinstance(scores[p], bool):
            problems.add(f"scores.{p}", _("a table score must be a whole number"))
    seated_set = set(seated)
    for p in scores:
        if p not in seated_set:
            problems.add(f"scores.{p}", _("{player} is not seated in this round"), player=p)
    problems.raise_if_any(TournamentError)
    seats = tuple(
        result
        for number, table in enumerate(tables, 1)
        for result in table_points(format_code, table, scores, table=number, leavers=leavers)
    )
    return RoundPoints(seats, tuple(byes), bye_points(format_code, game))
