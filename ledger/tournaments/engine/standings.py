"""Standings, tie-breaks and the final ranking (spec section 8).

Standings sort by points descending, then by the format's tie-breaks in order (``score_sum``,
``firsts``, ``best_round`` descending, a missing best round last), then the lot ascending; so no
two players are ever equal and positions are 1, 2, 3, … Every entry is listed: a withdrawn
player with what he made, a late entrant with 0 for the rounds he missed (8, 9).

``hu_kupa`` ranks its final stage group by group (table by table): by the final's table score,
equal scores by the preliminary standing; then the final's byes, then the players not in the
final, both in preliminary order. Choice for a case the spec leaves open: one who left his
final table takes the last place of his group, as he would at any table (section 9).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from fractions import Fraction
from itertools import pairwise

from .hashing import lot
from .model import Draw, Entry, RoundPoints, StandingRow
from .rules import BEST_ROUND, FINAL, FIRSTS, FORMATS, LOT, SCORE_SUM


@dataclass(frozen=True)
class PlayedRound:
    """A round that has been played: its draw and its results."""

    draw: Draw
    result: RoundPoints

    @property
    def number(self) -> int:
        return self.draw.number

    @property
    def kind(self) -> str:
        return self.draw.kind


def _criteria(row: StandingRow, tie_breaks: Sequence[str]) -> list:
    """Return what ranks ``row`` before the lot: its points, then the format's tie-breaks up
    to the lot, each so that the smaller sorts first."""
    key: list = [-row.points]
    for criterion in tie_breaks:
        if criterion == SCORE_SUM:
            key.append(-row.score_sum)
        elif criterion == FIRSTS:
            key.append(-row.firsts)
        elif criterion == BEST_ROUND:
            key.append((row.best_round is None, -(row.best_round or 0)))
        elif criterion == LOT:
            break
    return key


def _sort_key(row: StandingRow, tie_breaks: Sequence[str]):
    # The lot is the last tie-break everywhere, the id only guards against a hash collision.
    return [*_criteria(row, tie_breaks), row.lot, row.id]


def standings(
    *,
    format_code: str,
    seed: str,
    entries: Sequence[Entry],
    rounds: Sequence[PlayedRound],
) -> tuple[StandingRow, ...]:
    """Return the standings after ``rounds`` (a ``final`` round is left out), all entries ranked."""
    rules = FORMATS[format_code]
    counted = [r for r in rounds if r.kind != FINAL]
    seats_of = [{s.player: s for s in r.result.seats} for r in counted]
    points_of = [r.result.points for r in counted]
    byes_of = [frozenset(r.result.byes) for r in counted]
    rows = []
    for entry in entries:
        points, score_sum, firsts, played, byes = Fraction(0), 0, 0, 0, 0
        best: int | None = None
        per_round = []
        for seats, round_points, round_byes in zip(seats_of, points_of, byes_of, strict=True):
            got = round_points.get(entry.id, Fraction(0))
            per_round.append(got)
            points += got
            seat = seats.get(entry.id)
            if seat is not None:
                played += 1
                score_sum += seat.score
                firsts += seat.first
                best = seat.score if best is None else max(best, seat.score)
            elif entry.id in round_byes:
                byes += 1
        rows.append(
            StandingRow(
                rank=0,
                id=entry.id,
                points=points,
                score_sum=score_sum,
                firsts=firsts,
                best_round=best,
                rounds_played=played,
                byes=byes,
                status=entry.status,
                round_points=tuple(per_round),
                lot=lot(seed, entry.id),
            )
        )
    rows.sort(key=lambda row: _sort_key(row, rules.tie_breaks))
    return tuple(replace(row, rank=i) for i, row in enumerate(rows, 1))


def final_ranking(
    *,
    format_code: str,
    seed: str,
    entries: Sequence[Entry],
    rounds: Sequence[PlayedRound],
) -> tuple[StandingRow, ...]:
    """Return the ranking: the standings, or for a played ``hu_kupa`` final its groups first."""
    preliminary = standings(format_code=format_code, seed=seed, entries=entries, rounds=rounds)
    final = next((r for r in rounds if r.kind == FINAL), None)
    if final is None:
        return preliminary
    position = {row.id: row.rank for row in preliminary}
    by_id = {row.id: row for row in preliminary}
    ordered: list[StandingRow] = []
    for number, table in enumerate(final.draw.tables, 1):
        seats = {s.player: s for s in final.result.seats if s.table == number}
        group = sorted(table, key=lambda p: (seats[p].left, -seats[p].score, position[p]))
        ordered.extend(
            replace(by_id[p], final_group=number, final_score=seats[p].score) for p in group
        )
    placed = {row.id for row in ordered}
    ordered.extend(by_id[p] for p in sorted(final.draw.byes, key=position.__getitem__))
    placed.update(final.draw.byes)
    ordered.extend(row for row in preliminary if row.id not in placed)
    return tuple(replace(row, rank=i) for i, row in enumerate(ordered, 1))


def lot_decided(
    *,
    format_code: str,
    rows: Sequence[StandingRow],
    rounds: Sequence[PlayedRound],
) -> tuple[tuple[str, str], ...]:
    """Return the neighbours of a ranking (``rows`` in rank order, as ``final_ranking`` gives
    them after ``rounds``) whose order only the lot decided: equal on the points and on every
    tie-break of the format before the lot (section 8). In a played ``hu_kupa`` final, only
    two of one final group with the same final score (and neither having left), or two of the
    final's byes, or two players not in the final, can be so equal: the groups, the final's
    score and a seat left decide before the preliminary standing does."""
    rules = FORMATS[format_code]
    final = next((r for r in rounds if r.kind == FINAL), None)
    stage: dict[str, tuple] = {}
    if final is not None:
        stage.update(dict.fromkeys(final.draw.byes, (1,)))
        for seat in final.result.seats:
            stage[seat.player] = (0, seat.table, seat.left, -seat.score)

    def key(row: StandingRow) -> tuple:
        where = stage.get(row.id, (2,)) if final is not None else ()
        return (*where, *_criteria(row, rules.tie_breaks))

    return tuple((a.id, b.id) for a, b in pairwise(rows) if key(a) == key(b))
