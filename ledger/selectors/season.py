"""Reads of the treasurer and the season: standings, statistics, a member's season, an
evening's sheet and its jeton reconciliation.

Every function costs a fixed number of queries, whatever the size of the history. The standings
and a member's season read the two summaries, one row per member account (``AccountBalance``
and ``AccountStats``, see ``services.balances`` and ``services.stats``, which derive the statistics
with the SQL below); the sheet and the hands are SQL over one evening or one member's tables.
Python only merges the rows (one per member and evening at most) and converts points to money
through ``ledger.games.money.to_money``, the one rounding helper, once per member and evening,
exactly as ``services.evening_close`` does.

Definitions (docs/treasurer.md repeats them):

- A member's **net points for an evening** are the sum of his member-account balances over the
  evening's tables (after the split once the evening is closed); his **money** for the evening
  is ``to_money(points, evening.price_per_point)``; a season sums both over its evenings.
- Statistics count only **live** postings: not a reversal and not reversed.
- **Hands played**: live hand postings where the member was one of the three active players:
  his name is in the settled record's ``seats`` and not in its ``sitting_out`` (named in the
  record, or else the table's default rotation: with 4 seats the seat opposite the dealer sits
  out, with 5 the two seats not next to the dealer).
- Each game adds its own statistics (``get_web(code).stats_columns``): counts of hands read
  from the hand posting's ``outcome`` with JSON key transforms that SQLite and PostgreSQL both
  evaluate (``hand_annotations``, ``hand_counts``), and points received from live transfers
  of given reasons (``received_points``). A season shows the columns of its evenings' games.
"""

from __future__ import annotations

import datetime
from collections import defaultdict
from dataclasses import dataclass, field
from decimal import Decimal

from django.db.models import (
    Count,
    F,
    OuterRef,
    Subquery,
    Sum,
)
from django.db.models.fields.json import KeyTextTransform
from django.db.models.functions import Coalesce

from ledger.games.money import to_money
from ledger.games.web import stats_columns as game_stats_columns
from ledger.models import (
    Account,
    Club,
    Evening,
    Member,
    Posting,
    PostingSeat,
    Season,
    Table,
    Transfer,
)
from ledger.selectors.ranking import ranked
from ledger.services.stats import STAT_KEYS

# --- seasons -------------------------------------------------------------------------------


def seasons_for_club(*, club: Club) -> list[Season]:
    """Return the club's seasons, newest first."""
    return list(Season.objects.filter(club=club).order_by("-starts_on", "-pk"))


def season_pick(*, seasons: list[Season], value: str | None, today: datetime.date) -> Season | None:
    """Return the season whose id is ``value``, else the one running ``today``, else the newest.

    Return None when the club has no season; raise Season.DoesNotExist when ``value`` names
    none of them.
    """
    if value:
        for season in seasons:
            if str(season.pk) == str(value):
                return season
        raise Season.DoesNotExist(f"no season {value!r}")
    for season in seasons:
        if season.starts_on <= today <= season.ends_on:
            return season
    return seasons[0] if seasons else None


def season_resolve(*, club: Club, value: str) -> Season:
    """Return the club's season whose id or name is ``value``; raise Season.DoesNotExist."""
    seasons = Season.objects.filter(club=club)
    if value.isdigit():
        found = seasons.filter(pk=int(value)).first()
        if found is not None:
            return found
    return seasons.get(name=value)


# --- points per member and evening ---------------------------------------------------------


@dataclass
class Cell:
    """One member's result of one evening."""

    evening_id: int
    date: datetime.date
    closed: bool
    points: int = 0
    money: Decimal = Decimal("0.00")
    stats: dict = field(default_factory=dict)  # hands played and the games' statistics, by key


class Rows(list):
    """A list of rows that also names the statistics columns of its games."""

    def __init__(self, rows=(), *, stats_columns=(), games=()):
        super().__init__(rows)
        self.stats_columns = list(stats_columns)
        self.games = list(games)


def _points_matrix(
    *, season: Season, member: Member | None = None, closed_only: bool = False
) -> tuple[dict[int, list[Cell]], list[str]]:
    """Return each member's cells (one per evening he sat at), in date order, and the games of
    the season's evenings (two queries).

    Net points are read from the account balance summary (``AccountBalance``, exact: each is
    the sum of the account's transfers) and the statistics from the statistics summary
    (``AccountStats``, ``services.stats``): one row per member account of the season, whatever
    the number of hands or transfers."""
    rows = Evening.objects.filter(season=season)
    if closed_only:
        rows = rows.exclude(status=Evening.Status.OPEN)
    evenings = {e.pk: e for e in rows.only("pk", "date", "status", "price_per_point", "game")}
    games = sorted({e.game for e in evenings.values()})
    accounts = Account.objects.filter(kind=Account.Kind.MEMBER, table__evening__in=list(evenings))
    if member is not None:
        accounts = accounts.filter(member=member)
    cells: dict[tuple[int, int], Cell] = {}
    for member_id, evening_id, balance, stats in accounts.values_list(
        "member_id", "table__evening_id", "summary__balance", "stats_summary__stats"
    ).order_by():
        cell = cells.get((member_id, evening_id))
        if cell is None:
            evening = evenings[evening_id]
            cell = cells[(member_id, evening_id)] = Cell(
                evening_id=evening_id, date=evening.date, closed=not evening.is_open
            )
        cell.points += balance or 0
        for key, value in (stats or {}).items():
            cell.stats[key] = cell.stats.get(key, 0) + value
    by_member: dict[int, list[Cell]] = defaultdict(list)
    for (member_id, evening_id), cell in cells.items():
        cell.money = to_money(cell.points, evenings[evening_id].price_per_point)
        by_member[member_id].append(cell)
    for member_cells in by_member.values():
        member_cells.sort(key=lambda c: (c.date, c.evening_id))
    return by_member, games


# --- standings -----------------------------------------------------------------------------


@dataclass
class Standing:
    """A member's season: the figures of the standings table."""

    member_id: int
    name: str
    rank: int = 0
    points: int = 0
    money: Decimal = Decimal("0.00")
    evenings: int = 0
    played: int = 0
    average: Decimal | None = None
    best: int | None = None
    best_date: datetime.date | None = None
    cells: list[Cell] = field(default_factory=list)
    stats: dict = field(default_factory=dict)  # the games' statistics, by column key

    def __getattr__(self, name):
        # A game's statistic reads like a field (``row.<key>``); only ``stats`` holds it.
        stats = self.__dict__.get("stats") or {}
        if name in stats:
            return stats[name]
        raise AttributeError(name)


def _standing(member: Member, cells: list[Cell], columns) -> Standing:
    row = Standing(member_id=member.pk, name=member.name, cells=cells)
    row.points = sum(c.points for c in cells)
    row.money = sum((c.money for c in cells), Decimal("0.00"))
    row.evenings = len(cells)
    if cells:
        row.average = (Decimal(row.points) / row.evenings).quantize(Decimal("0.1"))
        best = max(cells, key=lambda c: (c.points, -c.date.toordinal()))
        row.best, row.best_date = best.points, best.date
    row.played = sum(c.stats.get("played", 0) for c in cells)
    for key, _label in columns:
        row.stats[key] = sum(c.stats.get(key, 0) for c in cells)
    return row


def standings_for_season(
    *, season: Season, closed_only: bool = False, active_only: bool = False
) -> Rows:
    """Return the season's standings, best first, naming its statistics columns (three
    queries, whatever the history: the summaries are read, not the transfers); with
    ``closed_only``, of its closed evenings only, and with ``active_only`` of the club's active
    members only (both for the public page: a member who left is not named there)."""
    matrix, games = _points_matrix(season=season, closed_only=closed_only)
    columns = game_stats_columns(games)
    members = Member.objects.filter(pk__in=list(matrix)).only("pk", "name")
    if active_only:
        members = members.filter(active=True)
    rows = ranked(
        (_standing(m, matrix[m.pk], columns) for m in members),
        points=lambda r: r.points,
        name=lambda r: r.name,
        set_rank=lambda r, rank: setattr(r, "rank", rank),
    )
    return Rows(rows, stats_columns=columns, games=games)


def season_evenings(*, season: Season):
    """Return the season's evenings with their numbers of tables and live hands, newest first."""
    hands = (
        Posting.objects.live()
        .filter(kind=Posting.Kind.HAND, table__evening=OuterRef("pk"))
        .order_by()
        .values("table__evening")
        .annotate(n=Count("pk"))
        .values("n")
    )
    tables = (
        Table.objects.filter(evening=OuterRef("pk"))
        .order_by()
        .values("evening")
        .annotate(n=Count("pk"))
        .values("n")
    )
    return (
        Evening.objects.filter(season=season)
        .annotate(
            n_tables=Coalesce(Subquery(tables), 0),
            n_hands=Coalesce(Subquery(hands), 0),
        )
        .order_by("-date", "-pk")
    )


# --- a member's season ---------------------------------------------------------------------


@dataclass
class MemberSeason:
    """A member's season: totals, one row per evening (with the running total), statistics."""

    member: Member
    season: Season
    standing: Standing
    evenings: list[dict]
    stats_columns: list = field(default_factory=list)
    games: list = field(default_factory=list)


def member_season(*, season: Season, member: Member) -> MemberSeason:
    """Return the member's season: totals and statistics, and each evening with its cumulative
    points (two queries)."""
    matrix, games = _points_matrix(season=season, member=member)
    cells = matrix.get(member.pk, [])
    columns = game_stats_columns(games)
    keys = [*STAT_KEYS, *(key for key, _label in columns)]
    standing = _standing(member, cells, columns)
    evenings, running = [], 0
    for cell in cells:
        running += cell.points
        stats = dict.fromkeys(keys, 0)
        stats.update({k: v for k, v in cell.stats.items() if k in stats})
        evenings.append(
            {
                "evening_id": cell.evening_id,
                "date": cell.date,
                "closed": cell.closed,
                "points": cell.points,
                "money": cell.money,
                "cumulative": running,
                **stats,
            }
        )
    return MemberSeason(
        member=member,
        season=season,
        standing=standing,
        evenings=evenings,
        stats_columns=columns,
        games=games,
    )


def member_hands(*, season: Season, member: Member):
    """Return the live hand postings of the season the member played, with his net points.

    A queryset (sortable and paginated by django-tables2 at a fixed cost): every row carries
    ``net`` (his points from the hand), ``evening_date``, ``table_number``, ``hand_number``,
    ``dealer_name`` and ``game``, and the posting's ``outcome``.
    """
    incoming = (
        Transfer.objects.filter(posting=OuterRef("pk"), target__member=member)
        .order_by()
        .values("posting")
        .annotate(s=Sum("points"))
        .values("s")
    )
    outgoing = (
        Transfer.objects.filter(posting=OuterRef("pk"), source__member=member)
        .order_by()
        .values("posting")
        .annotate(s=Sum("points"))
        .values("s")
    )
    return (
        Posting.objects.filter(
            pk__in=PostingSeat.objects.live()
            .filter(
                played=True,
                account__member=member,
                posting__table__evening__season=season,
            )
            .values("posting_id")
        )
        .annotate(
            net=Coalesce(Subquery(incoming), 0) - Coalesce(Subquery(outgoing), 0),
            evening_id=F("table__evening_id"),
            game=F("table__game"),
            evening_date=F("table__evening__date"),
            table_number=F("table__number"),
            hand_number=F("hand__number"),
            dealer_name=KeyTextTransform("dealer", "revision__record"),
        )
        .order_by("evening_date", "table_number", "hand_number")
    )
