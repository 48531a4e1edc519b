"""Play a round: start it (every table opened) and close it (every table closed and its
results written), each in one transaction."""

from __future__ import annotations

from collections.abc import Sequence

from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from ledger.games.registry import get_game
from ledger.models import (
    Entry,
    Evening,
    Round,
    RoundTable,
    Seat,
    Table,
    Tournament,
)
from ledger.services import tables as table_services
from ledger.services.errors import LedgerError
from ledger.services.ledger import lock_evening, lock_table, writing
from ledger.services.targets import hands_played, tournament_params
from ledger.services.tournaments.common import lock_round, lock_tournament, log_act
from ledger.services.tournaments.results import round_results, table_ended_by
from ledger.tournaments import engine


def _frozen_card(tournament: Tournament) -> dict:
    """The rate card the tournament plays: its own once started, else the club's when it
    plays this game, else the game's defaults."""
    if tournament.rate_card is not None:
        return tournament.rate_card
    game = get_game(tournament.game)
    card = tournament.club.rate_card if tournament.club.game == tournament.game else {}
    return game.rate_card(card or {}).as_dict()


def _evening_of_day(tournament: Tournament, day) -> int | None:
    """Return the id of the tournament's evening of ``day`` (its first evening, or the one of
    a round of that day), None before a round of that day starts."""
    return (
        Evening.objects.filter(
            Q(tournaments=tournament) | Q(rounds__tournament=tournament), date=day
        )
        .order_by("pk")
        .values_list("pk", flat=True)
        .first()
    )


def _open_day(tournament: Tournament, day, by) -> int:
    """Return the tournament's evening of ``day`` (call it inside the round start's
    transaction, the tournament locked), opened (of kind tournament: no club role touches it,
    with the tournament's frozen rate card) when no round of that day has started yet. The
    first one opened starts the tournament: its rate card frozen, it running."""
    evening_id = _evening_of_day(tournament, day)
    if evening_id is not None:
        return evening_id
    frozen = _frozen_card(tournament)
    evening = table_services.evening_open(
        club=tournament.club,
        date=day,
        by=by,
        game_code=tournament.game,
        card=frozen,
        kind=Evening.Kind.TOURNAMENT,
        durable=False,
    )
    if tournament.evening_id is None:
        tournament.rate_card = frozen
        tournament.evening = evening
        tournament.status = Tournament.Status.RUNNING
        tournament.save(update_fields=["rate_card", "evening", "status"])
    return evening.pk


def round_start(*, round_: Round, by=None) -> Round:
    """Start a published round: open each round table as an ordinary table of the
    tournament's evening of the round's day (opened with the day's first round; seats in draw
    order, seat 1 deals first) and start the clock, in one transaction (the day's evening,
    every table and the round, or nothing)."""
    round_ = Round.objects.select_related("tournament__club").get(pk=round_.pk)
    tournament = round_.tournament
    if round_.status != Round.Status.PUBLISHED:
        raise LedgerError(_("only a published round that has not started can start"), "__all__")
    entries = {e.code: e for e in tournament.entries.select_related("member")}
    with writing():
        # The lock order of the round services: the tournament, the round, the evening, then
        # its tables by id.
        tournament = lock_tournament(tournament)
        round_ = lock_round(round_.pk)
        if round_.status != Round.Status.PUBLISHED:
            raise LedgerError(_("only a published round that has not started can start"), "__all__")
        evening = lock_evening(_open_day(tournament, round_.day, by))
        for rt in round_.round_tables.filter(table__isnull=True).order_by("number"):
            members = [entries[c].member for c in rt.seats]
            table = table_services.round_table_open(
                evening=evening, members=members, first_dealer=members[0], by=by
            )
            RoundTable.objects.filter(pk=rt.pk).update(table=table)
        round_.status = Round.Status.PLAYING
        round_.started_at = timezone.now()
        round_.evening = evening
        log_act(round_, "start", by)
        round_.save(update_fields=["status", "started_at", "evening", "log"])
    return round_


def _check_seating(tournament: Tournament, round_tables: Sequence[RoundTable]) -> None:
    """Refuse a round whose tables do not seat the draw: a tournament player at a table the
    draw did not seat him at, or a drawn player who has no seat at his table."""
    entries = {e.member_id: e for e in tournament.entries.all()}
    at: dict[int, set[str]] = {rt.table_pk: set() for rt in round_tables}
    numbers = {rt.table_id: rt for rt in round_tables}
    for seat in Seat.objects.filter(table_id__in=list(at)).order_by("table_id", "position"):
        entry = entries.get(seat.member_id)
        if entry is None:
            continue  # a substitute
        rt = numbers[seat.table_id]
        if entry.code not in rt.seats:
            raise LedgerError(
                _("{name} has a result at table {number} but is not seated there"),
                "__all__",
                name=entry.name,
                number=rt.number,
            )
        at[seat.table_id].add(entry.code)
    names = {e.code: e.name for e in entries.values()}
    for rt in round_tables:
        for code in rt.seats:
            if code not in at[rt.table_pk]:
                raise LedgerError(
                    _("{name} is drawn at table {number} but has no seat there"),
                    "__all__",
                    name=names.get(code, code),
                    number=rt.number,
                )


def round_close(*, round_: Round, by=None) -> Round:
    """Close a playing round in one transaction: close every table still open (the game's
    close), take each seated player's table score in the format's basis and store places and
    points; every table and the round, or nothing (a crash or a retry never half-closes it).

    Refused, writing nothing: a tournament player at a table the draw did not seat him at, or
    a drawn player missing from his table. A substitute (not an entry of the table) plays for
    the table and his result counts for no one (section 9).
    """
    round_ = Round.objects.select_related("tournament").get(pk=round_.pk)
    tournament = round_.tournament
    if round_.status != Round.Status.PLAYING:
        raise LedgerError(_("only a round being played can close"), "__all__")
    with writing():
        # The lock order of the round services: the tournament, the round, the evening, then
        # its tables by id (a hand being saved holds its table: the close waits for it).
        locked_t = lock_tournament(tournament)
        round_ = lock_round(round_.pk)
        if round_.status != Round.Status.PLAYING:
            raise LedgerError(_("only a round being played can close"), "__all__")
        round_tables = list(round_.round_tables.select_related("table").order_by("number"))
        for rt in round_tables:
            if rt.table is None:
                raise LedgerError(_("table {number} was never opened"), "__all__", number=rt.number)
        _check_seating(locked_t, round_tables)
        evening = lock_evening(round_.evening_pk)
        for rt in sorted(round_tables, key=lambda r: r.table_pk):
            table = lock_table(rt.table_pk)
            table.evening = evening
            if table.status == Table.Status.OPEN:
                table_services.close_locked(table, by=by)
            rt.table = table
        results, bye_points, leavers = round_results(round_, round_tables)
        params = tournament_params(locked_t)
        now = timezone.now()
        for rt in round_tables:
            rt.results = results[rt.pk]
            rt.hands_played = hands_played(rt.table_pk)
            rt.ended_by = table_ended_by(rt, params, locked_t.game, closed_at=now)
            rt.save(update_fields=["results", "hands_played", "ended_by"])
        round_.bye_rows.update(points=bye_points)
        for code in leavers:
            Entry.objects.filter(tournament=locked_t, code=code).update(
                withdrawn_after=round_.number
            )
        round_.status = Round.Status.CLOSED
        round_.closed_at = now
        log_act(round_, "close", by)
        round_.save(update_fields=["status", "closed_at", "log"])
        last = engine.FORMATS[locked_t.tournament_format].last_round(params.rounds)
        if round_.number >= last:
            locked_t.status = Tournament.Status.PROVISIONAL
            locked_t.save(update_fields=["status"])
    return round_


def round_reopen(*, round_: Round, reason: str, by=None) -> Round:
    """Reopen a closed round by the director, with a reason, while no later round exists (its
    draw would rest on this round's results): every table's close is reversed and the table
    opened again, the round's results, byes' points and withdrawals after it cleared, the
    round playing again (its clock where it was) and the tournament running; logged. A final
    tournament is reopened first (``tournament_reopen``)."""
    if not reason or not reason.strip():
        raise LedgerError(_("reopening a round needs a reason"), "reason")
    round_ = Round.objects.select_related("tournament").get(pk=round_.pk)
    with writing():
        tournament = lock_tournament(round_.tournament)
        round_ = lock_round(round_.pk)
        if round_.status != Round.Status.CLOSED:
            raise LedgerError(_("only a closed round can be reopened"), "__all__")
        if tournament.status == Tournament.Status.FINAL:
            raise LedgerError(_("the tournament is final: reopen the tournament first"), "__all__")
        later = tournament.rounds.filter(number__gt=round_.number).order_by("number").first()
        if later is not None:
            raise LedgerError(
                _(
                    "round {number} is drawn already: withdraw its draw first, or correct "
                    "the hand instead"
                ),
                "__all__",
                number=later.number,
            )
        evening = lock_evening(round_.evening_pk)
        round_tables = list(round_.round_tables.order_by("number"))
        leavers = [c for rt in round_tables for c, r in rt.results.items() if r.get("left")]
        for rt in sorted(round_tables, key=lambda r: r.table_pk):
            table = lock_table(rt.table_pk)
            table.evening = evening
            table_services.reopen_locked(table, by=by, note=reason)
        RoundTable.objects.filter(round=round_).update(results={}, hands_played=None, ended_by="")
        round_.bye_rows.update(points="")
        Entry.objects.filter(
            tournament=tournament, withdrawn_after=round_.number, code__in=leavers
        ).update(withdrawn_after=None)
        round_.status = Round.Status.PLAYING
        round_.closed_at = None
        log_act(round_, "reopen", by, reason=reason.strip())
        round_.save(update_fields=["status", "closed_at", "log"])
        if tournament.status == Tournament.Status.PROVISIONAL:
            tournament.status = Tournament.Status.RUNNING
            tournament.save(update_fields=["status"])
    return round_
