"""The engine's value types: frozen, hashable where they can be, and free of Django.

A player is a stable string id (spec section 2). Tables are tuples of ids in seat order; seat 1
deals first (5.6). Tournament points are ``Fraction``s, never floats.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from fractions import Fraction
from types import MappingProxyType
from typing import Any

ACTIVE = "active"

SEARCH = "search"
FALLBACK = "fallback"
DIRECT = "direct"
MANUAL = "manual"
MODES = (SEARCH, FALLBACK, DIRECT, MANUAL)

ERROR = "error"
WARNING = "warning"


@dataclass(frozen=True)
class Entry:
    """A player entered in a tournament (section 2), with his late entry or withdrawal (9)."""

    id: str
    name: str | None = None
    club: str | None = None
    ladder_rank: int | None = None
    from_round: int = 1
    withdrawn_after: int | None = None

    def active_in(self, round_number: int) -> bool:
        """Return whether he takes part in round ``round_number``: entered, not withdrawn."""
        if self.from_round > round_number:
            return False
        return self.withdrawn_after is None or self.withdrawn_after >= round_number

    @property
    def status(self) -> str:
        """Return ``active``, ``entered_round_k`` or ``withdrawn_after_round_k`` (a withdrawal
        is the later fact, so it wins over a late entry)."""
        if self.withdrawn_after is not None:
            return f"withdrawn_after_round_{self.withdrawn_after}"
        if self.from_round > 1:
            return f"entered_round_{self.from_round}"
        return ACTIVE


@dataclass(frozen=True)
class Plan:
    """The tables of a round: their sizes in table order (base first) and the number of byes."""

    sizes: tuple[int, ...]
    byes: int

    @property
    def seated(self) -> int:
        return sum(self.sizes)

    def as_dict(self) -> dict:
        return {"sizes": list(self.sizes), "byes": self.byes}


@dataclass(frozen=True)
class PastRound:
    """An earlier round as the draw and the checker see it: who sat together, who had a bye."""

    number: int
    tables: tuple[tuple[str, ...], ...]
    byes: tuple[str, ...] = ()


def _plain(value: Any) -> Any:
    if isinstance(value, tuple):
        return [_plain(item) for item in value]
    return value


@dataclass(frozen=True)
class Violation:
    """One finding of the draw checker (section 13): a code, its fields in order, a severity.

    ``details`` is a tuple of (field, value) pairs, values being tuples, strings, numbers,
    booleans or None, so that a violation is hashable and the checker's result is a set.
    """

    code: str
    severity: str
    details: tuple[tuple[str, Any], ...] = ()

    def get(self, name: str, default: Any = None) -> Any:
        """Return the value of the field ``name`` (``default`` when it has none)."""
        return dict(self.details).get(name, default)

    def as_dict(self) -> dict:
        """Return ``{code, …fields…, severity}`` as the checker's file format prints it."""
        return {
            "code": self.code,
            **{name: _plain(value) for name, value in self.details},
            "severity": self.severity,
        }


@dataclass(frozen=True)
class Draw:
    """A round's draw: tables in number order (seats in seat order), byes, mode, checker findings.

    ``groups`` maps each seated player of a ``seeded_groups`` round to his letter (A, B, C, X);
    it is empty for the other kinds.
    """

    number: int
    kind: str
    mode: str
    tables: tuple[tuple[str, ...], ...]
    byes: tuple[str, ...]
    violations: tuple[Violation, ...] = ()
    groups: Mapping[str, str] = field(default_factory=lambda: MappingProxyType({}))

    @property
    def first_dealers(self) -> tuple[str, ...]:
        """Return the first dealer of each table: seat 1 (section 5.6)."""
        return tuple(table[0] for table in self.tables)

    @property
    def seated(self) -> tuple[str, ...]:
        return tuple(p for table in self.tables for p in table)

    @property
    def warnings(self) -> tuple[Violation, ...]:
        return tuple(v for v in self.violations if v.severity == WARNING)

    @property
    def errors(self) -> tuple[Violation, ...]:
        return tuple(v for v in self.violations if v.severity == ERROR)

    def as_past(self) -> PastRound:
        """Return the round as history for the draws after it."""
        return PastRound(self.number, self.tables, self.byes)


@dataclass(frozen=True)
class SeatResult:
    """A seated player's round result (section 2): table score, place, points, first."""

    player: str
    table: int
    score: int
    place: int
    points: Fraction
    first: bool
    left: bool = False


@dataclass(frozen=True)
class RoundPoints:
    """The round results of every table and bye of one round."""

    seats: tuple[SeatResult, ...]
    byes: tuple[str, ...]
    bye_points: Fraction

    @property
    def points(self) -> Mapping[str, Fraction]:
        """Return every player's tournament points of the round, byes included."""
        result = {s.player: s.points for s in self.seats}
        result.update(dict.fromkeys(self.byes, self.bye_points))
        return MappingProxyType(result)

    @property
    def places(self) -> Mapping[str, int]:
        return MappingProxyType({s.player: s.place for s in self.seats})

    @property
    def scores(self) -> Mapping[str, int]:
        return MappingProxyType({s.player: s.score for s in self.seats})

    @property
    def firsts(self) -> frozenset[str]:
        return frozenset(s.player for s in self.seats if s.first)


@dataclass(frozen=True)
class StandingRow:
    """A player's line of the standings or the ranking (sections 8 and 12).

    ``round_points`` holds his points per round in round order (0 for a round he missed);
    ``final_group`` and ``final_score`` are for ``hu_kupa``'s final stage (None elsewhere).
    """

    rank: int
    id: str
    points: Fraction
    score_sum: int
    firsts: int
    best_round: int | None
    rounds_played: int
    byes: int
    status: str
    round_points: tuple[Fraction, ...] = ()
    final_group: int | None = None
    final_score: int | None = None
    lot: str = ""

    def as_dict(self) -> dict:
        """Return the row as ``tournament_run`` prints it (points as an exact rational)."""
        return {
            "rank": self.rank,
            "id": self.id,
            "points": str(self.points),
            "score_sum": self.score_sum,
            "firsts": self.firsts,
            "best_round": self.best_round,
            "rounds_played": self.rounds_played,
            "byes": self.byes,
            "status": self.status,
            "final_score": self.final_score,
        }
