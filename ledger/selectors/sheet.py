"""Reads of an evening's sheet: every live posting of its tables with running totals, the
split, the settlement, who pays whom and the log (a fixed number of queries)."""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field
from decimal import Decimal
from typing import TYPE_CHECKING, Any, TypedDict

from django.db.models import (
    Count,
    OuterRef,
    Q,
    Subquery,
)

from ledger.games.money import to_money
from ledger.games.registry import get_game, get_web
from ledger.models import (
    Club,
    Evening,
    EveningLog,
    EveningResult,
    Hand,
    HandRevision,
    Member,
    Posting,
    Seat,
    Table,
    Transfer,
)
from ledger.selectors.privacy import shown
from ledger.selectors.settleup import Payment, fewest_payments

if TYPE_CHECKING:
    from django_stubs_ext import WithAnnotations

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
    # An erased member's name as seated -> his label (``selectors.privacy.shown``).
    names: dict[str, str] = field(default_factory=dict)

    @property
    def outcome(self) -> dict:
        return shown((self.posting.outcome if self.posting else None) or {}, self.names)


@dataclass
class SheetTable:
    """One table of the evening: seats, postings in order, balances before and after the split."""

    table: Table
    seats: list[str]
    postings: list[SheetPosting] = field(default_factory=list)
    before_split: dict[str, int] = field(default_factory=dict)
    cups_before_split: dict[str, int] = field(default_factory=dict)
    split: dict[str, int] = field(default_factory=dict)
    # The close's moves per member by reason (the Slovenian ``radelc`` then ``split``), signed.
    close: dict[str, dict[str, int]] = field(default_factory=dict)
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
    # What the close moved for him by reason (``GameWeb.close_columns``), signed.
    close: dict[str, int] = field(default_factory=dict)


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


def evening_for_club(*, club: Club, pk: int) -> Evening | None:
    """Return the club's evening ``pk`` (with its season and club); None for another club's."""
    return Evening.objects.filter(club=club, pk=pk).select_related("season", "club").first()


class _VoidReason(TypedDict):
    reason: str | None


def _insert_voided(sheet: SheetTable, hand: WithAnnotations[Hand, _VoidReason]) -> None:
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
    # Read as plain values (an evening has thousands of transfers): each account's name as
    # ``Account.name`` gives it, the member's name or the pool's code. Put in order here, not
    # by the query: ordered by posting, SQLite walked every transfer of the ledger in the
    # order of its posting index instead of reading the evening's tables' transfers.
    rows = (
        Transfer.objects.live()
        .filter(where)
        .order_by()
        .values_list(
            "posting_id",
            "pk",
            "source__member__name",
            "source__code",
            "target__member__name",
            "target__code",
            "points",
            "reason",
        )
    )
    transfers = defaultdict(list)
    for posting_id, _pk, source, source_code, target, target_code, points, reason in sorted(
        rows, key=lambda row: (row[0], row[1])
    ):
        transfers[posting_id].append(
            (
                source if source is not None else source_code,
                target if target is not None else target_code,
                points,
                reason,
            )
        )
    postings = (
        Posting.objects.live()
        .filter(where)
        .select_related("hand__dealer")
        .annotate(revisions=Count("hand__revisions"))
        .order_by("table__number", "pk")
    )
    members = {s.member.name: s.member_id for s in seats}
    seated_as = {(s.table_id, s.name): s.member.name for s in seats}  # records name the seat
    erased: dict[int, dict[str, str]] = defaultdict(dict)  # what the outcomes' words name
    for s in seats:
        if s.member.erased_at is not None:
            erased[s.table_id][s.name] = s.member.name
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
            for source, target, points, reason in transfers[posting.pk]:
                part = sheet.close.setdefault(reason, {})
                part[source] = part.get(source, 0) - points
                part[target] = part.get(target, 0) + points
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
                names=erased.get(posting.table_id, {}),
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
    closes: dict[str, dict[str, int]] = defaultdict(dict)
    for sheet in sheets.values():
        for name in sheet.seats:
            before, split, points = totals.setdefault(name, [0, 0, 0])
            totals[name] = [
                before + sheet.before_split[name],
                split + sheet.split[name],
                points + sheet.balances[name],
            ]
            for reason, part in sheet.close.items():
                closes[name][reason] = closes[name].get(reason, 0) + part.get(name, 0)
    settlement = sorted(
        (
            SheetSettlement(
                name=name,
                member_id=members[name],
                before_split=before,
                split=split,
                points=points,
                money=to_money(points, evening.price_per_point),
                close=closes[name],
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
    # Any: each entry gains ``who`` and ``differences`` (read by the template), no model field.
    log: list[Any] = list(
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
