"""Reads of the treasurer and the season: standings, statistics, a member's season, an
evening's sheet and its jeton reconciliation.

Every function costs a fixed number of queries, whatever the size of the history. The standings
and a member's season read the two summaries, one row per member account (``AccountBalance``
and ``AccountStats``, see ``ledger.balances`` and ``ledger.stats``, which derive the statistics
with the SQL below); the sheet and the hands are SQL over one evening or one member's tables.
Python only merges the rows (one per member and evening at most) and converts points to money
through ``ledger.games.money.to_money``, the one rounding helper, once per member and evening,
exactly as ``services.evening_close`` does.

Definitions (the README repeats them):

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
import functools
from collections import defaultdict
from dataclasses import dataclass, field
from decimal import Decimal

from django.db import connection
from django.db.models import (
    Case,
    Count,
    ExpressionWrapper,
    F,
    IntegerField,
    Max,
    OuterRef,
    Q,
    Subquery,
    Sum,
    TextField,
    Value,
    When,
)
from django.db.models.expressions import RawSQL
from django.db.models.fields.json import KeyTextTransform, KeyTransform
from django.db.models.functions import Coalesce, NullIf
from django.http import Http404

from ledger import services
from ledger.games import GAMES, get_game
from ledger.games.money import to_money
from ledger.games.web import get_web
from ledger.games.web import stats_columns as game_stats_columns
from ledger.models import (
    Account,
    Club,
    Evening,
    EveningLog,
    EveningResult,
    Hand,
    HandRevision,
    JetonCount,
    Member,
    Posting,
    Season,
    Seat,
    Table,
    Transfer,
)
from ledger.selectors import CHANGES_THE_COUNT
from ledger.settleup import Payment, fewest_payments

MAX_SEATS = 5
STAT_KEYS = ("played",)  # every game's; each game adds its own (``stats_columns``)

# A posting counts in statistics when it is neither a reversal nor reversed.
LIVE_POSTING = Q(reversed_by__isnull=True) & ~Q(kind=Posting.Kind.REVERSAL)
LIVE_TRANSFER = Q(posting__reversed_by__isnull=True) & ~Q(posting__kind=Posting.Kind.REVERSAL)


# --- seasons -------------------------------------------------------------------------------


def seasons_for_club(*, club: Club) -> list[Season]:
    """Return the club's seasons, newest first."""
    return list(Season.objects.filter(club=club).order_by("-starts_on", "-pk"))


def season_pick(*, seasons: list[Season], value: str | None, today: datetime.date) -> Season | None:
    """Return the season whose id is ``value``, else the one running ``today``, else the newest.

    Return None when the club has no season; raise Http404 when ``value`` names none of them.
    """
    if value:
        for season in seasons:
            if str(season.pk) == str(value):
                return season
        raise Http404("No such season")
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
    (``AccountStats``, ``ledger.stats``): one row per member account of the season, whatever
    the number of hands or transfers."""
    evenings = Evening.objects.filter(season=season)
    if closed_only:
        evenings = evenings.exclude(status=Evening.Status.OPEN)
    evenings = {e.pk: e for e in evenings.only("pk", "date", "status", "price_per_point", "game")}
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


# --- statistics of hands -------------------------------------------------------------------


def _seat(i: int) -> str:
    return f"seat{i}"


def _text(transform: KeyTextTransform) -> NullIf:
    """Return a JSON key's text as a plain text expression, NULL when missing or null.

    Wrapped, it compares like any text column: a bare key transform would compare as JSON
    (SQLite would parse a member's name as JSON). SQLite reads a JSON ``null`` as the text
    'null' where PostgreSQL gives NULL; ``NULLIF`` makes both NULL (a member called "null"
    would be lost with it, a price worth paying for one meaning on both databases).
    """
    return NullIf(
        ExpressionWrapper(transform, output_field=TextField()),
        Value("null", output_field=TextField()),
        output_field=TextField(),
    )


def _record_text(*path) -> NullIf:
    """Return the text at ``path`` in the settled record (a JSON field across a relation)."""
    expression = "revision__record"
    for key in path[:-1]:
        expression = KeyTransform(str(key), expression)
    return _text(KeyTextTransform(str(path[-1]), expression))


def _hand_annotations() -> dict:
    """Return the annotations that read a hand posting's record and outcome in SQL."""
    annotations = {_seat(i): _record_text("seats", i) for i in range(MAX_SEATS)}
    annotations.update(
        out0=_record_text("sitting_out", 0),
        out1=_record_text("sitting_out", 1),
        dealer_name=_record_text("dealer"),
    )
    for code in GAMES:  # each game's fields of the outcome, NULL on another game's hands
        annotations.update(get_web(code).hand_annotations())
    return annotations


def _rotation_annotations() -> dict:
    """Return ``n_seats`` and ``dealer_slot`` (the dealer's index in the record's seats)."""
    return {
        "n_seats": Case(
            When(**{f"{_seat(4)}__isnull": False}, then=Value(5)),
            When(**{f"{_seat(3)}__isnull": False}, then=Value(4)),
            default=Value(3),
            output_field=IntegerField(),
        ),
        "dealer_slot": Case(
            *(When(**{_seat(i): F("dealer_name")}, then=Value(i)) for i in range(MAX_SEATS)),
            default=Value(-1),
            output_field=IntegerField(),
        ),
    }


def _plays_in_slot(i: int) -> Q:
    """Return the condition that the member in seat slot ``i`` plays the hand.

    A record that names ``sitting_out`` is taken at its word; otherwise the default rotation
    decides (the Danish engine's ``rotation.default_sitting_out``): 3 seats all play; 4 seats, the
    seat two on from the dealer sits out; 5 seats, only the dealer and his neighbours play.
    """
    slot = F(_seat(i))
    named = Q(out0__isnull=False) & ~Q(out0=slot) & (Q(out1__isnull=True) | ~Q(out1=slot))
    four = [d for d in range(4) if (i - d) % 4 != 2]
    five = [d for d in range(5) if (i - d) % 5 in (0, 1, 4)]
    default = Q(out0__isnull=True) & (
        Q(n_seats=3) | Q(n_seats=4, dealer_slot__in=four) | Q(n_seats=5, dealer_slot__in=five)
    )
    # A game whose web side has its own rule (``plays_in_slot(i)``) is read by that rule.
    own, ruled = Q(pk__in=[]), []
    for code in GAMES:
        rule = get_web(code).plays_in_slot
        if rule is not None:
            own |= Q(table__game=code) & rule(i)
            ruled.append(code)
    if not ruled:
        return named | default
    return ((named | default) & ~Q(table__game__in=ruled)) | own


def _played_by(name) -> Q:
    """Return the condition that the member called ``name`` (an expression) played the hand."""
    condition = Q(pk__in=[])
    for i in range(MAX_SEATS):
        condition |= Q(**{_seat(i): name}) & _plays_in_slot(i)
    return condition


def live_hand_postings():
    """Return live hand postings annotated with their record's seats and outcome fields."""
    return (
        Posting.objects.filter(LIVE_POSTING, kind=Posting.Kind.HAND)
        .annotate(**_hand_annotations())
        .annotate(**_rotation_annotations())
    )


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


def standings_for_season(*, season: Season, closed_only: bool = False) -> Rows:
    """Return the season's standings, best first, naming its statistics columns (three
    queries, whatever the history: the summaries are read, not the transfers); with
    ``closed_only``, of its closed evenings only (the public page)."""
    matrix, games = _points_matrix(season=season, closed_only=closed_only)
    columns = game_stats_columns(games)
    members = Member.objects.filter(pk__in=list(matrix)).only("pk", "name")
    rows = [_standing(m, matrix[m.pk], columns) for m in members]
    rows.sort(key=lambda r: (-r.points, r.name))
    for rank, row in enumerate(rows, start=1):
        row.rank = rank
    return Rows(rows, stats_columns=columns, games=games)


def season_evenings(*, season: Season):
    """Return the season's evenings with their numbers of tables and live hands, newest first."""
    hands = (
        Posting.objects.filter(LIVE_POSTING, kind=Posting.Kind.HAND, table__evening=OuterRef("pk"))
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


_SEASON, _MEMBER = -7_654_321, -7_654_322  # placeholders of the compiled query below


@functools.cache
def _played_sql(vendor: str) -> tuple[str, tuple]:
    """Return (sql, params) of the ids of the live hand postings a member played in a season,
    compiled once per database: the expression that reads who played from the records is
    large, and compiling it cost more than running it."""
    query = (
        live_hand_postings()
        # Only his tables (one join to his account there), matched by the name the records
        # use: the account's code, the seat's name as seated.
        .filter(
            _played_by(F("table__accounts__code")),
            table__evening__season_id=_SEASON,
            table__accounts__member_id=_MEMBER,
        )
        .values("pk")
        .order_by()
        .query
    )
    sql, params = query.sql_with_params()
    return sql, tuple(params)


def _played_postings(*, season: Season, member: Member) -> RawSQL:
    sql, params = _played_sql(connection.vendor)
    values = {_SEASON: season.pk, _MEMBER: member.pk}
    return RawSQL(sql, [values.get(p, p) if isinstance(p, int) else p for p in params])


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
        Posting.objects.filter(pk__in=_played_postings(season=season, member=member))
        .annotate(
            net=Coalesce(Subquery(incoming), 0) - Coalesce(Subquery(outgoing), 0),
            evening_id=F("table__evening_id"),
            game=F("table__game"),
            evening_date=F("table__evening__date"),
            table_number=F("table__number"),
            hand_number=F("hand__number"),
            dealer_name=_record_text("dealer"),
        )
        .order_by("evening_date", "table_number", "hand_number")
    )


# --- an evening's sheet --------------------------------------------------------------------


@dataclass
class SheetPosting:
    """A live posting of a table with its transfers, each member's net, each member's running
    total after it (``running``: his balance at the table, funding included) and the pools
    after it (``cups_after``: the pools by code, whatever the game)."""

    posting: Posting | None
    kind: str
    number: int | None
    dealer: str
    transfers: list[tuple[str, str, int, str]]
    net: dict[str, int]
    cups_after: dict[str, int]
    running: dict[str, int] = field(default_factory=dict)
    corrected: bool = False
    note: str = ""
    # Members not at the table for this posting: not yet arrived (``running`` is then
    # meaningless too: ``arrived`` says who had come), or not among a hand's seats.
    away: frozenset = frozenset()
    arrived: frozenset = frozenset()

    @property
    def outcome(self) -> dict:
        return (self.posting.outcome if self.posting else None) or {}


@dataclass
class SheetTable:
    """One table of the evening: seats, postings in order, balances before and after the split."""

    table: Table
    seats: list[str]
    postings: list[SheetPosting] = field(default_factory=list)
    before_split: dict[str, int] = field(default_factory=dict)
    cups_before_split: dict[str, int] = field(default_factory=dict)
    split: dict[str, int] = field(default_factory=dict)
    balances: dict[str, int] = field(default_factory=dict)

    @property
    def hands(self) -> list[SheetPosting]:
        return [p for p in self.postings if p.kind == Posting.Kind.HAND]


@dataclass
class SheetSettlement:
    """A member's result of the evening over all his tables."""

    name: str
    member_id: int
    before_split: int
    split: int
    points: int
    money: Decimal


@dataclass
class EveningSheet:
    evening: Evening
    tables: list[SheetTable]
    settlement: list[SheetSettlement]
    results: list[EveningResult]
    log: list[EveningLog]

    @property
    def closed(self) -> bool:
        return not self.evening.is_open

    @property
    def payments(self) -> list[Payment]:
        """The fewest payments that square the closed evening's money results."""
        if not self.closed or not self.results:
            return []
        return fewest_payments({r.member.name: r.money for r in self.results})


def evening_for_club(*, club: Club, pk: int) -> Evening:
    """Return the club's evening ``pk`` (with its season and club); Http404 for another club."""
    evening = Evening.objects.filter(club=club, pk=pk).select_related("season", "club").first()
    if evening is None:
        raise Http404("No such evening")
    return evening


def _insert_voided(sheet: SheetTable, hand: Hand) -> None:
    """Show a voided hand in its place among the hands: no transfers, pools unchanged."""
    at = next(
        (
            i
            for i, p in enumerate(sheet.postings)
            if p.kind != Posting.Kind.FUNDING and (p.number is None or p.number > hand.number)
        ),
        len(sheet.postings),
    )
    codes = get_game(sheet.table.game).features.pool_codes
    before = sheet.postings[at - 1] if at else None
    sheet.postings.insert(
        at,
        SheetPosting(
            posting=None,
            kind="voided",
            number=hand.number,
            dealer=hand.dealer.name,
            transfers=[],
            net=dict.fromkeys(sheet.seats, 0),
            cups_after=dict(before.cups_after) if before else dict.fromkeys(codes, 0),
            running=dict(before.running) if before else dict.fromkeys(sheet.seats, 0),
            note=hand.reason or "",
            away=before.away if before else frozenset(),
            arrived=before.arrived if before else frozenset(),
        ),
    )


def evening_sheet(*, evening: Evening, table: Table | None = None) -> EveningSheet:
    """Return every live posting of the evening's tables (and each voided hand in its place)
    with each member's running total, the split and the settlement (six queries, whatever
    the number of hands). With ``table``, that table of the evening alone: its settlement is
    each member's result at that table."""
    where = Q(table__evening=evening)
    if table is not None:
        where &= Q(table=table)
    seats = list(
        Seat.objects.filter(where)
        .select_related("member", "table")
        .order_by("table__number", "position")
    )
    sheets: dict[int, SheetTable] = {}
    for seat in seats:
        sheet = sheets.setdefault(seat.table_id, SheetTable(table=seat.table, seats=[]))
        sheet.seats.append(seat.member.name)
    transfers = defaultdict(list)
    for t in (
        Transfer.objects.filter(LIVE_TRANSFER, where)
        .select_related("source__member", "target__member")
        .order_by("posting_id", "pk")
    ):
        transfers[t.posting_id].append((t.source.name, t.target.name, t.points, t.reason))
    postings = (
        Posting.objects.filter(LIVE_POSTING, where)
        .select_related("hand__dealer")
        .annotate(revisions=Count("hand__revisions"))
        .order_by("table__number", "pk")
    )
    members = {s.member.name: s.member_id for s in seats}
    seated_as = {(s.table_id, s.name): s.member.name for s in seats}  # records name the seat
    arrived: dict[int, set] = defaultdict(set)
    for posting in postings:
        sheet = sheets[posting.table_id]
        codes = get_game(sheet.table.game).features.pool_codes
        balances = sheet.balances
        net: dict[str, int] = defaultdict(int)
        for source, target, points, _reason in transfers[posting.pk]:
            balances[source] = balances.get(source, 0) - points
            balances[target] = balances.get(target, 0) + points
            net[source] -= points
            net[target] += points
        here = arrived[posting.table_id]
        if posting.hand_id:
            at_table = {
                seated_as.get((posting.table_id, n), n) for n in posting.hand.record["seats"]
            }
        else:
            at_table = {n for n in sheet.seats if n in net} | here
        here |= at_table
        if posting.kind == Posting.Kind.SPLIT:
            sheet.before_split = {n: balances.get(n, 0) - net.get(n, 0) for n in sheet.seats}
            sheet.cups_before_split = {c: -net.get(c, 0) for c in codes}
            sheet.split = {n: net.get(n, 0) for n in sheet.seats}
        sheet.postings.append(
            SheetPosting(
                posting=posting,
                kind=posting.kind,
                number=posting.hand.number if posting.hand_id else None,
                dealer=posting.hand.dealer.name if posting.hand_id else "",
                transfers=transfers[posting.pk],
                net={n: net.get(n, 0) for n in sheet.seats},
                cups_after={c: balances.get(c, 0) for c in codes},
                running={n: balances.get(n, 0) for n in sheet.seats},
                corrected=(posting.revisions or 0) > 1,
                note=posting.note if posting.kind == Posting.Kind.ADJUSTMENT else "",
                away=frozenset(n for n in sheet.seats if n not in at_table),
                arrived=frozenset(here),
            )
        )
    void_reason = HandRevision.objects.filter(
        hand=OuterRef("pk"), action=HandRevision.Action.VOID
    ).order_by("-number")
    for hand in (
        Hand.objects.filter(where, status=Hand.Status.VOIDED)
        .select_related("dealer")
        .annotate(reason=Subquery(void_reason.values("reason")[:1]))
        .order_by("number")
    ):
        _insert_voided(sheets[hand.table_id], hand)
    for sheet in sheets.values():
        codes = get_game(sheet.table.game).features.pool_codes
        sheet.balances = {n: sheet.balances.get(n, 0) for n in (*sheet.seats, *codes)}
        if not sheet.split:
            sheet.before_split = {n: sheet.balances[n] for n in sheet.seats}
            sheet.cups_before_split = {c: sheet.balances[c] for c in codes}
            sheet.split = dict.fromkeys(sheet.seats, 0)
    totals: dict[str, list[int]] = {}
    for sheet in sheets.values():
        for name in sheet.seats:
            before, split, points = totals.setdefault(name, [0, 0, 0])
            totals[name] = [
                before + sheet.before_split[name],
                split + sheet.split[name],
                points + sheet.balances[name],
            ]
    settlement = sorted(
        (
            SheetSettlement(
                name=name,
                member_id=members[name],
                before_split=before,
                split=split,
                points=points,
                money=to_money(points, evening.price_per_point),
            )
            for name, (before, split, points) in totals.items()
        ),
        key=lambda s: (-s.points, s.name),
    )
    results = list(
        EveningResult.objects.filter(evening=evening)
        .select_related("member")
        .order_by("-closing", "-points", "member__name")
    )
    results = [r for r in results if r.closing == results[0].closing] if results else []
    log = _log_entries(evening)
    return EveningSheet(
        evening=evening,
        tables=sorted(sheets.values(), key=lambda s: s.table.number),
        settlement=settlement,
        results=results,
        log=log,
    )


def _log_entries(evening: Evening) -> list[EveningLog]:
    """Return the evening's log, each entry with ``who`` (the member's name in the club, else
    the username) and ``differences`` ((table number, account's name, points)) (one query)."""
    who = Member.objects.filter(club_id=evening.club_id, user=OuterRef("by")).values("name")[:1]
    log = list(
        EveningLog.objects.filter(evening=evening)
        .select_related("by")
        .annotate(member_name=Subquery(who))
    )
    web = get_web(evening.game)
    pools = get_game(evening.game).features.pool_codes
    for entry in log:
        entry.who = entry.member_name or (entry.by.get_username() if entry.by_id else "")
        entry.differences = [
            (
                d["table"],
                web.pool_label(d["account"]) if d["account"] in pools else d["account"],
                d["difference"],
            )
            for d in entry.details or []
        ]
    return log


def table_account_names(*, table: Table) -> list[str]:
    """Return the names of a table's accounts: members in seat order, then the game's pools."""
    members = list(
        Seat.objects.filter(table=table).order_by("position").values_list("member__name", flat=True)
    )
    return [*members, *get_game(table.game).features.pool_codes]


# --- jeton reconciliation ------------------------------------------------------------------


@dataclass
class JetonLine:
    """One account of a table: the jetons it should hold, the latest count, the difference."""

    account_id: int
    name: str
    is_cup: bool
    expected: int
    counted: int | None
    # The count was made before the table's latest change (a hand, a correction, an
    # adjustment): it needs a recount or an explicit confirmation.
    stale: bool = False

    @property
    def difference(self) -> int | None:
        return None if self.counted is None else self.counted - self.expected


@dataclass
class JetonTable:
    table: Table
    lines: list[JetonLine]

    @property
    def stale(self) -> bool:
        """Some count was made before the table's latest change."""
        return any(line.stale for line in self.lines)

    @property
    def counted(self) -> bool:
        return any(line.counted is not None for line in self.lines)

    @property
    def total_expected(self) -> int:
        return sum(line.expected for line in self.lines)

    @property
    def total_counted(self) -> int | None:
        counted = [line.counted for line in self.lines if line.counted is not None]
        return sum(counted) if counted else None

    @property
    def total_difference(self) -> int:
        return sum(line.difference or 0 for line in self.lines)

    @property
    def differences(self) -> dict[str, int]:
        return {line.name: line.difference for line in self.lines if line.difference}


def evening_jetons(*, evening: Evening) -> list[JetonTable]:
    """Return each table's expected and counted jetons per account (six queries).

    Expected is ``services.jeton_expected`` (a member's starting stack plus his balance, a
    cup its balance); counted is the latest ``JetonCount`` of each account, as in
    ``services.jeton_differences``. Once the evening is closed, expected is as it stood before
    the split, when the jetons were counted.
    """
    accounts = list(
        Account.objects.filter(table__evening=evening)
        .select_related("member", "table__evening")
        .order_by("table__number", "kind", "member__name")
    )
    balances: dict[int, int] = defaultdict(int)
    transfers = Transfer.objects.filter(table__evening=evening).order_by()
    if not evening.is_open:
        # The jetons were counted before the split: compare with the balances before it.
        transfers = transfers.exclude(
            posting__kind=Posting.Kind.SPLIT, posting__reversed_by__isnull=True
        )
    for row in transfers.values("target_id").annotate(s=Sum("points")):
        balances[row["target_id"]] += row["s"]
    for row in transfers.values("source_id").annotate(s=Sum("points")):
        balances[row["source_id"]] -= row["s"]
    latest = JetonCount.objects.filter(account=OuterRef("account")).order_by("-counted_at", "-pk")
    counted, counted_at = {}, {}
    for account_id, points, at in (
        JetonCount.objects.filter(table__evening=evening)
        .filter(pk=Subquery(latest.values("pk")[:1]))
        .values_list("account_id", "points", "counted_at")
    ):
        counted[account_id], counted_at[account_id] = points, at
    changed_at = dict(
        Posting.objects.filter(table__evening=evening)
        .filter(CHANGES_THE_COUNT)
        .values("table_id")
        .annotate(at=Max("created_at"))
        .values_list("table_id", "at")
    )
    seat_order = {
        (table_id, member_id): position
        for table_id, member_id, position in Seat.objects.filter(
            table__evening=evening
        ).values_list("table_id", "member_id", "position")
    }
    tables: dict[int, list[Account]] = defaultdict(list)
    for account in accounts:
        tables[account.table_id].append(account)
    result = []
    for table_accounts in tables.values():
        table = table_accounts[0].table
        members = sorted(
            (a for a in table_accounts if a.member_id),
            key=lambda a: seat_order.get((a.table_id, a.member_id), 0),
        )
        cups = sorted((a for a in table_accounts if not a.member_id), key=lambda a: a.code)
        ordered = members + cups
        expected = services.jeton_expected(table, {a.name: balances[a.pk] for a in ordered})
        lines = [
            JetonLine(
                account_id=a.pk,
                name=a.name,
                is_cup=not a.member_id,
                expected=expected[a.name],
                counted=counted.get(a.pk),
                stale=a.pk in counted_at
                and changed_at.get(a.table_id) is not None
                and counted_at[a.pk] < changed_at[a.table_id],
            )
            for a in ordered
        ]
        result.append(JetonTable(table=table, lines=lines))
    result.sort(key=lambda t: t.table.number)
    return result
