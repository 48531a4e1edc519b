"""Series standings, the ladder (spec ``federation.md`` section 2).

Every event of a series gives each player of its final ranking one **result**, an exact
``Fraction``: his tournament points (``source: "points"``) or the points of his rank on the
rule's scale (``source: "placement"``: ``table``, ``linear`` or ``field``), times the event's
factor. A player's total sums his results, all of them, his ``best_of`` n highest, or all
but his ``strike_worst`` k lowest (an event he missed counting as 0). Standings sort by total,
wins, best single result (all descending), then the lot of ``tournament.md`` section 3 with
the series' seed, so positions are 1, 2, 3, … with none shared.

Events are taken in order of date, then id (Unicode code points), whatever order they are
listed in; every tie the rule has to break (equal results under ``best_of``, equal values
under ``strike_worst``) is broken by that order, so the standings never depend on the listing.
"""

from __future__ import annotations

import datetime
from collections import Counter
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from fractions import Fraction

from ledger.games.errors import Problems, _
from ledger.tournaments.engine.hashing import lot

from .errors import FederationError

POINTS = "points"
PLACEMENT = "placement"
SOURCES = (POINTS, PLACEMENT)

TABLE = "table"
LINEAR = "linear"
FIELD = "field"
SCALES = (TABLE, LINEAR, FIELD)

ZERO = Fraction(0)
ONE = Fraction(1)


@dataclass(frozen=True)
class Scale:
    """Points by rank among an event's N ranked players (section 2).

    ``table``: ``points[r - 1]`` for a rank within the list, ``beyond`` after it.
    ``linear``: N − r + 1. ``field``: ``base`` + N for the winner, the winner's points less
    ``gaps[r - 2]`` for ranks 2 … len(gaps) + 1, then one point below the rank before,
    never above N − r + 1 nor below 1.
    """

    kind: str
    points: tuple[Fraction, ...] = ()
    beyond: Fraction = ZERO
    base: Fraction = ZERO
    gaps: tuple[Fraction, ...] = ()

    def points_by_rank(self, size: int) -> tuple[Fraction, ...]:
        """Return the points of ranks 1 … ``size`` in a field of ``size`` ranked players."""
        if self.kind == TABLE:
            return tuple(
                self.points[r - 1] if r <= len(self.points) else self.beyond
                for r in range(1, size + 1)
            )
        if self.kind == LINEAR:
            return tuple(Fraction(size - r + 1) for r in range(1, size + 1))
        if self.kind == FIELD:
            winner = self.base + size
            points: list[Fraction] = []
            for r in range(1, size + 1):
                if r == 1:
                    points.append(winner)
                elif r - 2 < len(self.gaps):
                    points.append(winner - self.gaps[r - 2])
                else:
                    points.append(max(ONE, min(points[-1] - 1, Fraction(size - r + 1))))
            return tuple(points)
        raise ValueError(f"unknown scale {self.kind!r}")


@dataclass(frozen=True)
class SeriesRule:
    """How a series turns its events' final rankings into a ladder (section 2).

    ``best_of`` and ``strike_worst`` are never both set; a ``placement`` rule has a scale.
    """

    source: str = POINTS
    scale: Scale | None = None
    best_of: int | None = None
    strike_worst: int | None = None
    qualify: int | None = None

    def __post_init__(self):
        problems = Problems("rule.")
        if self.source not in SOURCES:
            problems.add(
                "source",
                _("unknown source {source}; choose one of {choices}"),
                source=self.source,
                choices=", ".join(SOURCES),
            )
        if self.source == PLACEMENT and self.scale is None:
            problems.add("scale", _("a rule by placement needs a scale"))
        if self.best_of is not None and self.strike_worst is not None:
            problems.add("strike_worst", _("a rule sets best_of or strike_worst, never both"))
        problems.raise_if_any(FederationError)


@dataclass(frozen=True)
class Placing:
    """One row of an event's final ranking: rank (1 … N, none shared), player, his points."""

    rank: int
    player: str
    points: Fraction | None = None


@dataclass(frozen=True)
class Event:
    """A tournament of a series (or an imported one): its date, factor and final ranking."""

    id: str
    date: datetime.date
    ranking: tuple[Placing, ...]
    factor: Fraction = ONE

    @property
    def order(self) -> tuple[datetime.date, str]:
        """Return the event's place in the series: by date, then id."""
        return (self.date, self.id)


@dataclass(frozen=True)
class SeriesRow:
    """A player's line of the standings (section 2); results after their event's factor."""

    position: int
    player: str
    total: Fraction
    counted: tuple[str, ...]
    struck: tuple[str, ...]
    wins: int
    best: Fraction
    events: int
    qualified: bool | None = None

    def as_dict(self) -> dict:
        """Return the row as ``series_run`` prints it (rationals in lowest terms, as text)."""
        row = {
            "position": self.position,
            "player": self.player,
            "total": str(self.total),
            "counted": list(self.counted),
            "struck": list(self.struck),
            "wins": self.wins,
            "best": str(self.best),
            "events": self.events,
        }
        if self.qualified is not None:
            row["qualified"] = self.qualified
        return row


def event_results(rule: SeriesRule, event: Event) -> dict[str, Fraction]:
    """Return each ranked player's result at ``event`` under ``rule``, after the factor."""
    ranking = sorted(event.ranking, key=lambda placing: placing.rank)
    if rule.source == POINTS:
        return {p.player: (p.points or ZERO) * event.factor for p in ranking}
    if rule.scale is None:  # pragma: no cover - SeriesRule refuses a placement rule without one
        raise ValueError("a rule by placement needs a scale")
    by_rank = rule.scale.points_by_rank(len(ranking))
    return {p.player: by_rank[p.rank - 1] * event.factor for p in ranking}


def series_standings(
    seed: str,
    rule: SeriesRule,
    events: Iterable[Event],
    as_of: datetime.date | None = None,
) -> tuple[SeriesRow, ...]:
    """Return the standings of a series over its events dated before ``as_of`` (all: None)."""
    season = sorted((e for e in events if as_of is None or e.date < as_of), key=lambda e: e.order)
    results: dict[str, dict[int, Fraction]] = {}
    wins: Counter[str] = Counter()
    for index, event in enumerate(season):
        for player, value in event_results(rule, event).items():
            results.setdefault(player, {})[index] = value
        wins.update(p.player for p in event.ranking if p.rank == 1)
    lines = []
    for player, mine in results.items():
        counted, struck = _counted_and_struck(rule, mine, len(season))
        lines.append(
            (
                sum((mine[i] for i in counted), ZERO),
                wins[player],
                max(mine.values()),
                player,
                counted,
                struck,
            )
        )
    lines.sort(key=lambda line: (-line[0], -line[1], -line[2], lot(seed, line[3]), line[3]))
    return tuple(
        SeriesRow(
            position=position,
            player=player,
            total=total,
            counted=tuple(season[i].id for i in sorted(counted)),
            struck=tuple(season[i].id for i in sorted(struck)),
            wins=won,
            best=best,
            events=len(results[player]),
            qualified=None if rule.qualify is None else position <= rule.qualify,
        )
        for position, (total, won, best, player, counted, struck) in enumerate(lines, start=1)
    )


def _counted_and_struck(
    rule: SeriesRule, mine: Mapping[int, Fraction], season: int
) -> tuple[list[int], list[int]]:
    """Return the indexes (in season order) of the events a player attended that count and
    those struck; a missed event struck under ``strike_worst`` is in neither."""
    attended = sorted(mine)
    if rule.best_of is not None:
        # His highest results count; of equal results the earlier event first.
        order = sorted(attended, key=lambda i: (-mine[i], i))
        return order[: rule.best_of], order[rule.best_of :]
    if rule.strike_worst is not None:
        # Every event so far, a missed one as 0; the lowest struck, a missed event before an
        # attended one of the same value, then the later event before the earlier.
        order = sorted(range(season), key=lambda i: (mine.get(i, ZERO), i in mine, -i))
        struck = [i for i in order[: rule.strike_worst] if i in mine]
        return [i for i in attended if i not in struck], struck
    return attended, []


def ladder_ranks(
    seed: str, rule: SeriesRule, events: Iterable[Event], before: datetime.date
) -> dict[str, int]:
    """Return each player's ladder rank at a tournament dated ``before``: his position in the
    standings over the events dated before it (a player not in them has none)."""
    return {row.player: row.position for row in series_standings(seed, rule, events, before)}
