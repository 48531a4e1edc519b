"""Evenings and tables: open an evening, open a table, seat a late arrival, let a member leave,
close a table."""

from __future__ import annotations

import datetime

from django.db import IntegrityError
from django.db.models import Max, Q
from django.utils import timezone
from django.utils.formats import date_format
from django.utils.translation import gettext_lazy as _

from ledger.games.registry import get_game, is_reserved_name
from ledger.models import (
    Account,
    Club,
    Evening,
    EveningLog,
    Member,
    Posting,
    Season,
    Seat,
    Table,
    Tournament,
)
from ledger.services import seals
from ledger.services.errors import (
    EveningClosedError,
    LedgerError,
    SeatingError,
    TournamentEveningError,
)
from ledger.services.ledger import (
    TableLedger,
    check_writable,
    live_postings,
    lock_evening,
    lock_table,
    next_hand_number,
    post_split,
    rate_card,
    touched,
    writing,
)

# --- evenings and tables -------------------------------------------------------------------


# An evening's date: from the first of these years to a year ahead of today (a typo such as
# 2062 or 0026 is refused rather than filed in a season nobody will find).
EARLIEST_EVENING_YEAR = 1990
EVENING_DAYS_AHEAD = 366


def check_evening_date(date: datetime.date) -> None:
    """Refuse an evening date before 1 January 1990 or more than a year ahead (LedgerError)."""
    latest = timezone.localdate() + datetime.timedelta(days=EVENING_DAYS_AHEAD)
    if not datetime.date(EARLIEST_EVENING_YEAR, 1, 1) <= date <= latest:
        raise LedgerError(
            _("the date must be from 1 January {year} to {latest}"),
            "date",
            year=EARLIEST_EVENING_YEAR,
            latest=date_format(latest, "SHORT_DATE_FORMAT"),
        )


def check_club_evening(evening: Evening) -> None:
    """Refuse a club role's change to a tournament's evening, naming the tournament."""
    if evening.kind != Evening.Kind.TOURNAMENT:
        return
    name = (
        Tournament.objects.filter(Q(evening=evening) | Q(rounds__evening=evening))
        .values_list("name", flat=True)
        .first()
    )
    raise TournamentEveningError(
        _(
            "this evening belongs to the tournament {name}: only its director's rounds open, "
            "close or settle its tables"
        ),
        "evening",
        name=name or "",
    )


def evening_open(
    *,
    club: Club,
    date: datetime.date,
    season: Season | None = None,
    by=None,
    game_code: str | None = None,
    card: dict | None = None,
    kind: str = Evening.Kind.CLUB,
    durable: bool = True,
):
    """Open an evening, copying the club's game, rate card and price per point onto it.
    ``durable=False`` only for a service that opens it inside its own transaction (a
    tournament's round start: the day's evening and the round's tables, or nothing).

    A tournament's evening (``kind``) passes its own game (``game_code``) and frozen rate
    card (``card``) instead of the club's, and is filed under no season; it never moves
    money (its price per point is 0). At most one club evening of a club is open per date
    (the database holds it too); any number of tournaments' evenings may be open beside it.
    """
    check_evening_date(date)
    tournament = kind == Evening.Kind.TOURNAMENT
    game = get_game(game_code or club.game)
    rates = game.rate_card(club.rate_card or {} if card is None else card)
    if tournament:
        season = None
    elif season is None:
        season = Season.objects.filter(club=club, starts_on__lte=date, ends_on__gte=date).first()
    elif season.club_id != club.pk:
        raise LedgerError(_("the season belongs to another club"), "season")
    if not tournament and open_club_evening(club, date):
        raise LedgerError(_("an evening of this date is already open"), "date")
    try:
        with writing(durable=durable):
            evening = Evening(
                club=club,
                season=season,
                date=date,
                kind=kind,
                game=game.code,
                rate_card=rates.as_dict(),
                price_per_point=0 if tournament else club.price_per_point,
                starting_jetons=club.starting_jetons,
            )
            evening.full_clean(validate_constraints=False)
            evening.save()
            touched(evening_id=evening.pk)
            seals.seal_log(EveningLog.objects.create(evening=evening, action="open", by=by))
    except IntegrityError as error:
        # Two requests raced past the check above: the partial unique index refused one.
        raise LedgerError(_("an evening of this date is already open"), "date") from error
    return evening


def open_club_evening(club: Club, date: datetime.date) -> Evening | None:
    """Return the club's open club evening of ``date`` (not a tournament's), if any."""
    return Evening.objects.filter(
        club=club, date=date, status=Evening.Status.OPEN, kind=Evening.Kind.CLUB
    ).first()


def evening_file_under(*, evening: Evening, season: Season | None, by=None) -> Evening:
    """File an evening under another season of its club (or none); logged. The admin calls it
    inside its own transaction."""
    if season is not None and season.club_id != evening.club_id:
        raise LedgerError(_("the season belongs to another club"), "season")
    with writing(durable=False):
        evening = lock_evening(evening.pk)
        check_club_evening(evening)
        if evening.season_id == (season.pk if season else None):
            return evening
        details = {"from": evening.season_id, "to": season.pk if season else None}
        evening.season = season
        evening.save(update_fields=["season"])
        seals.seal_log(
            EveningLog.objects.create(evening=evening, action="season", details=details, by=by)
        )
    return evening


def seated_elsewhere(evening: Evening, members, *, table: Table | None = None) -> list[str]:
    """Return the names of ``members`` already seated at another open table of the evening."""
    seats = Seat.objects.filter(
        member__in=members, left=False, table__status=Table.Status.OPEN, table__evening=evening
    )
    if table is not None:
        seats = seats.exclude(table=table)
    return sorted({s.member.name for s in seats.select_related("member")})


def check_seatable(game, members) -> None:
    for m in members:
        if is_reserved_name(m.name):
            raise SeatingError(
                _("{name} is the name of a table's account; rename the member first"),
                "members",
                name=m.name,
            )


def _check_table(evening: Evening, members: list, first_dealer: Member | None) -> Member:
    """Refuse a table that breaks the game's seating rules; return its first dealer."""
    game = get_game(evening.game)
    low, high = game.features.min_seats, game.features.max_seats
    if not low <= len(members) <= high:
        raise SeatingError(
            _("a table of this game seats {low} to {high} members, not {n}"),
            "members",
            low=low,
            high=high,
            n=len(members),
        )
    if len({m.pk for m in members}) != len(members):
        raise SeatingError(_("a member can have only one seat at a table"), "members")
    if any(m.club_id != evening.club_id for m in members):
        raise SeatingError(_("every member must belong to the evening's club"), "members")
    check_seatable(game, members)
    first_dealer = first_dealer or members[0]
    if first_dealer not in members:
        raise SeatingError(_("the first dealer must be seated at the table"), "first_dealer")
    return first_dealer


def table_open(*, evening: Evening, members, first_dealer: Member | None = None, by=None):
    """Open a table of members (in the direction of play) at a club evening; the game's
    opening moves post. A tournament's evening is refused (its round services open its
    tables: ``open_locked``)."""
    members = list(members)
    first_dealer = _check_table(evening, members, first_dealer)
    with writing():
        evening = lock_evening(evening.pk)
        check_club_evening(evening)
        return open_locked(evening, members, first_dealer, by=by)


def round_table_open(*, evening: Evening, members, first_dealer: Member, by=None) -> Table:
    """Open a round table at the tournament's ``evening``, locked by the caller's ``writing()``
    transaction (the round services' ``round_start``)."""
    if evening.kind != Evening.Kind.TOURNAMENT:
        raise LedgerError(_("a round table is opened only at its tournament's evening"), "evening")
    members = list(members)
    return open_locked(evening, members, _check_table(evening, members, first_dealer), by=by)


def open_locked(evening: Evening, members: list, first_dealer: Member, *, by=None) -> Table:
    """Open a checked table at the ``evening`` locked by the caller's transaction."""
    game = get_game(evening.game)
    if evening.status != Evening.Status.OPEN:
        raise EveningClosedError()
    busy = seated_elsewhere(evening, members)
    if busy:
        raise SeatingError(
            _("already seated at another open table: {names}"), "members", names=", ".join(busy)
        )
    number = (evening.tables.aggregate(n=Max("number"))["n"] or 0) + 1
    table = Table.objects.create(
        evening=evening, number=number, game=evening.game, first_dealer=first_dealer
    )
    Seat.objects.bulk_create(
        Seat(table=table, member=m, name=m.name, position=i + 1) for i, m in enumerate(members)
    )
    Account.objects.bulk_create(
        [Account(table=table, kind=Account.Kind.POOL, code=c) for c in game.features.pool_codes]
        + [Account(table=table, kind=Account.Kind.MEMBER, member=m, code=m.name) for m in members]
    )
    table = lock_table(table.pk)
    rates = rate_card(evening)
    _state, moves = game.initial_state([m.name for m in members], rates)
    if moves:
        TableLedger(table).post(Posting.Kind.FUNDING, moves, by=by)
    return table


def table_seat(*, table: Table, member: Member, position: int | None = None, by=None) -> Seat:
    """Seat a late arrival at ``position`` (0 = first; default last); he pays what the game
    asks of a late arrival."""
    with writing():
        evening = lock_evening(table.evening_id)
        check_club_evening(evening)
        table = lock_table(table.pk)
        check_writable(table)
        return _seat_locked(evening, table, member, position, by)


def table_substitute(*, table: Table, leaving: Member, joining: Member, by=None) -> Seat:
    """Let ``joining`` take the seat of ``leaving`` in one transaction (a tournament's
    substitute, ``tournament.md`` section 9): ``leaving`` leaves the table (he keeps his share
    of the close) and ``joining`` sits where he sat, paying what the game asks of a late
    arrival. The table never has one seat too few or too many in between."""
    with writing():
        return substitute_locked(table, leaving=leaving, joining=joining, by=by)


def substitute_locked(table: Table, *, leaving: Member, joining: Member, by=None) -> Seat:
    """Do ``table_substitute`` inside the caller's ``writing()`` transaction."""
    evening = lock_evening(table.evening_id)
    table = lock_table(table.pk)
    check_writable(table)
    seats = Seat.objects.of_table(table.pk)
    place = next((i for i, s in enumerate(seats) if s.member_id == leaving.pk), None)
    if place is None:
        raise SeatingError(_("{name} has no seat at this table"), "absent", name=leaving.name)
    Seat.objects.filter(pk=seats[place].pk).update(left=True)
    return _seat_locked(evening, table, joining, place, by)


def _seat_locked(evening: Evening, table: Table, member: Member, position, by) -> Seat:
    """Seat ``member`` at the locked, writable ``table`` (``table_seat``)."""
    game = get_game(table.game)
    if member.club_id != evening.club_id:
        raise SeatingError(_("every member must belong to the evening's club"), "member")
    check_seatable(game, [member])
    if Seat.objects.filter(table=table, member=member).exists():
        raise SeatingError(_("{name} already has a seat at this table"), "member", name=member.name)
    if seated_elsewhere(evening, [member], table=table):
        raise SeatingError(
            _("already seated at another open table: {names}"), "member", names=member.name
        )
    seats = Seat.objects.of_table(table.pk)
    if len(seats) >= game.features.max_seats:
        raise SeatingError(
            _("a table of this game seats at most {n} members"), "member", n=game.features.max_seats
        )
    if Account.objects.filter(table=table, code=member.name).exists():
        raise SeatingError(_("a member of this name already played at this table"), "member")
    position = len(seats) if position is None else max(0, min(position, len(seats)))
    all_seats = list(Seat.objects.filter(table=table).order_by("position"))
    before = seats[position - 1].position if position > 0 else 0
    for seat in all_seats:
        if seat.position > before:
            seat.position += 1
    Seat.objects.bulk_update(all_seats, ["position"])
    seat = Seat.objects.create(
        table=table,
        member=member,
        name=member.name,
        position=before + 1,
        joined_at_hand=next_hand_number(table.pk),
    )
    Account.objects.create(table=table, kind=Account.Kind.MEMBER, member=member, code=member.name)
    moves = game.seat_moves(member.name, rate_card(table.evening))
    if moves:
        TableLedger(table).post(Posting.Kind.FUNDING, moves, by=by, note=f"{member.name} seated")
    return seat


def table_leave(*, table: Table, member: Member, by=None) -> None:
    """Let a member leave the table early; he keeps his share of the close."""
    with writing():
        table = lock_table(table.pk)
        check_writable(table)
        updated = Seat.objects.filter(table=table, member=member, left=False).update(left=True)
        if not updated:
            raise SeatingError(_("{name} has no seat at this table"), "member", name=member.name)


def table_close(*, table: Table, by=None) -> Table:
    """Close a table of a club evening the game's way (Danish: split the cups), and lock it.
    A round table is closed by its round (``close_locked``)."""
    with writing():
        evening = lock_evening(table.evening_id)
        check_club_evening(evening)
        table = lock_table(table.pk)
        table.evening = evening
        return close_locked(table, by=by)


def reopen_locked(table: Table, *, by=None, note: str = "") -> Table:
    """Open again the closed ``table`` locked by the caller's transaction: its close's split
    is reversed (a reversal, never an edit) and it takes hands again."""
    if table.status != Table.Status.CLOSED:
        raise LedgerError(_("the table is not closed"), "table")
    ledger = TableLedger(table)
    for posting in live_postings(table):
        if posting.kind == Posting.Kind.SPLIT:
            ledger.reverse(posting, by=by, note=note)
    table.status = Table.Status.OPEN
    table.save(update_fields=["status"])
    return table


def close_locked(table: Table, *, by=None) -> Table:
    """Close the ``table`` locked by the caller's transaction (its evening read under it)."""
    check_writable(table)
    post_split(table, by)
    table.status = Table.Status.CLOSED
    table.save(update_fields=["status"])
    return table
