"""Ratings: multiplayer Elo by pairwise decomposition (spec ``federation.md`` section 3).

A table of n players is n(n − 1)/2 matches between its pairs, scored by the table's result.
For each player x with rating R_x before the table:

- expected E_x = (1 / (n − 1)) · Σ_{y ≠ x} 1 / (1 + 10^((R_y − R_x) / scale));
- actual S_x = (1 / (n − 1)) · Σ_{y ≠ x} (1 if s_x > s_y, ½ if equal, 0 otherwise);
- K_x = ``k_new`` while x has fewer than ``new_tables`` rated tables before this one, else ``k``;
- R'_x = R_x + K_x · (S_x − E_x).

Tables are rated in the order given, each with the ratings as they stood before it (the
updates of one table are simultaneous). Sums run in seat order in IEEE doubles, as every Elo
program computes them (the power of ten is not rational). Scores are compared exactly.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from fractions import Fraction
from types import MappingProxyType


@dataclass(frozen=True)
class RatingParams:
    """A rating list's parameters, with the spec's defaults (FIDE's K of 40, then 20)."""

    initial: float = 1500.0
    scale: float = 400.0
    k_new: float = 40.0
    k: float = 20.0
    new_tables: int = 20


@dataclass(frozen=True)
class Standing:
    """A player's rating and how many rated tables he has played."""

    rating: float
    tables: int = 0


@dataclass(frozen=True)
class RatedTable:
    """One table to rate: its id and each seated player's score, in seat order."""

    id: str
    scores: Mapping[str, Fraction]


@dataclass(frozen=True)
class SeatRating:
    """What one table did to one player's rating: the line a player's page explains."""

    player: str
    before: float
    expected: float
    actual: float
    k: float
    delta: float

    @property
    def after(self) -> float:
        return self.before + self.delta


@dataclass(frozen=True)
class TableRating:
    """A rated table: one line per seat, in seat order."""

    id: str
    seats: tuple[SeatRating, ...]

    def as_dict(self) -> dict:
        """Return the table as ``rating_run`` prints it."""
        return {
            "id": self.id,
            "expected": {s.player: s.expected for s in self.seats},
            "actual": {s.player: s.actual for s in self.seats},
            "delta": {s.player: s.delta for s in self.seats},
        }


@dataclass(frozen=True)
class RatingList:
    """Every player's standing after the tables, and each table's ratings."""

    players: Mapping[str, Standing] = field(default_factory=dict)
    tables: tuple[TableRating, ...] = ()

    def as_dict(self) -> dict:
        """Return ``{"ratings": {player: rating}, "tables": [...]}`` as ``rating_run`` prints it."""
        return {
            "ratings": {p: self.players[p].rating for p in sorted(self.players)},
            "tables": [t.as_dict() for t in self.tables],
        }


def rate_table(
    scores: Mapping[str, Fraction], ratings: Mapping[str, Standing], params: RatingParams
) -> tuple[SeatRating, ...]:
    """Rate one table of at least two players, in seat order (the order of ``scores``);
    ``ratings`` holds every seated player's standing before the table."""
    seats = list(scores)
    n = len(seats)
    if n < 2:
        raise ValueError("a rated table has at least 2 players")
    lines = []
    for x in seats:
        mine = ratings[x].rating
        expected = 0.0
        halves = 0  # the actual score in halves: 2 a win, 1 a tie (exact, in integers)
        for y in seats:
            if y == x:
                continue
            expected += 1.0 / (1.0 + 10.0 ** ((ratings[y].rating - mine) / params.scale))
            if scores[x] > scores[y]:
                halves += 2
            elif scores[x] == scores[y]:
                halves += 1
        expected /= n - 1
        # An integer quotient is correctly rounded, as float(Fraction(halves, 2 (n - 1))) is.
        actual_score = halves / (2 * (n - 1))
        k = params.k_new if ratings[x].tables < params.new_tables else params.k
        lines.append(SeatRating(x, mine, expected, actual_score, k, k * (actual_score - expected)))
    return tuple(lines)


def rate_tables(
    tables: Iterable[RatedTable],
    params: RatingParams | None = None,
    start: Mapping[str, Standing] | None = None,
) -> RatingList:
    """Rate ``tables`` in order from ``start`` (a player not in it begins at ``initial`` with no
    rated tables); return the list after them, with each table's lines."""
    params = params or RatingParams()
    players: dict[str, Standing] = dict(start or {})
    rated = []
    for table in tables:
        for player in table.scores:
            players.setdefault(player, Standing(float(params.initial)))
        seats = rate_table(table.scores, players, params)
        for seat in seats:
            players[seat.player] = Standing(seat.after, players[seat.player].tables + 1)
        rated.append(TableRating(table.id, seats))
    return RatingList(MappingProxyType(players), tuple(rated))
