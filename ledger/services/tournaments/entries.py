"""Entries: members and guests entered, the pasted ladder list, withdrawals (section 2)."""

from __future__ import annotations

import csv
import io
from collections.abc import Iterable
from dataclasses import dataclass

from django.core.exceptions import ValidationError
from django.db.models import Max
from django.utils.translation import gettext_lazy as _

from ledger.games.registry import is_reserved_name
from ledger.models import (
    Entry,
    Member,
    Round,
    Seat,
    Tournament,
    text_limit,
    validate_member_name,
)
from ledger.services import people
from ledger.services.errors import LedgerError
from ledger.services.federation.players import link_member, match_guest
from ledger.services.ledger import writing
from ledger.services.tournaments.common import (
    MAX_IMPORT_LINES,
    check_not_over,
    check_text,
    lock_tournament,
)


def _next_round(tournament: Tournament) -> int:
    """Return the first round not yet drawn (late entries play from there)."""
    return (tournament.rounds.aggregate(n=Max("number"))["n"] or 0) + 1


# What the entry's columns hold (a rank is a PositiveIntegerField: below 2**31 on every
# database; a ladder has far fewer players).
MAX_RANK = 100_000
MAX_CODE = text_limit(Entry, "code")
MAX_CLUB = text_limit(Entry, "club_name")


def _check_rank(rank, field: str) -> int | None:
    if rank in (None, ""):
        return None
    try:
        value = int(str(rank).strip()) if len(str(rank)) <= 12 else 0
    except (TypeError, ValueError):
        value = 0
    if not 1 <= value <= MAX_RANK:
        raise LedgerError(
            _("a ladder rank is a whole number from 1 to {limit}"), field, limit=MAX_RANK
        )
    return value


def _entry_for(tournament, member, *, code, club_name, rank, guest, from_round) -> Entry:
    """Enter a member of the club (a guest's inactive row included) as his player."""
    code = check_text(code, "code", limit=MAX_CODE, what=_("an id")) or str(member.pk)
    club_name = check_text(club_name, "club_name", limit=MAX_CLUB, what=_("a club's name"))
    if tournament.entries.filter(member=member).exists():
        raise LedgerError(_("{name} is already entered"), "members", name=member.name)
    if tournament.entries.filter(code=code).exists():
        raise LedgerError(_("the id {code} is already entered"), "code", code=code)
    return Entry.objects.create(
        tournament=tournament,
        member=member,
        code=code,
        name=member.name,
        club_name=club_name,
        guest=guest,
        ladder_rank=rank,
        from_round=from_round,
        player=link_member(member),
    )


def entries_add(*, tournament: Tournament, members: Iterable[Member], by=None) -> list[Entry]:
    """Enter members of the club (a late entry plays from the next round not yet drawn)."""
    members = list(members)
    with writing():
        tournament = lock_tournament(tournament)
        check_not_over(tournament)
        start = _next_round(tournament)
        entries = []
        for member in members:
            if member.club_id != tournament.club_id:
                raise LedgerError(_("every member must belong to the tournament's club"), "members")
            entries.append(
                _entry_for(
                    tournament,
                    member,
                    code="",
                    club_name=tournament.club.name,
                    rank=None,
                    guest=False,
                    from_round=start,
                )
            )
    return entries


def guest_member(tournament: Tournament, name: str, field: str, *, by=None) -> Member:
    """A new inactive member of the tournament's club for a guest named ``name`` (refused
    naming ``field``), logged and sealed (``services.people``)."""
    name = (name or "").strip()
    if not name:
        raise LedgerError(_("a guest needs a name"), field)
    if is_reserved_name(name):
        raise LedgerError(
            _("{name} is the name of a table's account; choose another name"), field, name=name
        )
    try:
        validate_member_name(name)
    except ValidationError as error:
        raise LedgerError.of_validation(error, field=field) from error
    if len(name) > text_limit(Member, "name"):
        raise LedgerError(_("the name is too long"), field)
    if Member.objects.filter(club=tournament.club, name=name).exists():
        raise LedgerError(
            _(
                "{name} is already a member's name in this club; enter the member, or add the "
                "guest's club to the name"
            ),
            field,
            name=name,
        )
    member = Member.objects.create(club=tournament.club, name=name, active=False)
    people.record(
        member.club_id,
        [people.Entry("added", member, new={"name": name, "role": member.role, "active": False})],
        by=by,
    )
    return member


def guest_for(
    tournament: Tournament, name: str, club_name: str, licence: str, field: str, *, by=None
):
    """A guest's inactive member row, linked to his player (matched by licence, else by name
    and club, else new: ``federation.players.match_guest``)."""
    # The club and the licence are checked before any row is written: a player's club name
    # and licence have the entry's limits (a longer one is refused, never cut or a 500).
    club_name = check_text(club_name, "club_name", limit=MAX_CLUB, what=_("a club's name"))
    licence = check_text(licence, "code", limit=MAX_CODE, what=_("an id"))
    member = guest_member(tournament, name, field, by=by)
    member.player = match_guest(tournament.club, member.name, club_name, licence)
    member.save(update_fields=["player"])
    return member


def entry_add_guest(
    *,
    tournament: Tournament,
    name: str,
    club_name: str = "",
    ladder_rank=None,
    code: str = "",
    licence: str = "",
    by=None,
) -> Entry:
    """Enter a guest from another club (refused: a pool's name, a member's name) as his
    player: matched by licence (``licence``, else the id, a federation's number when the
    ladder gives one), else by name and club, else a new player."""
    rank = _check_rank(ladder_rank, "ladder_rank")
    with writing():
        tournament = lock_tournament(tournament)
        check_not_over(tournament)
        member = guest_for(tournament, name, club_name, licence or code, "name", by=by)
        return _entry_for(
            tournament,
            member,
            code=code,
            club_name=club_name or "",
            rank=rank,
            guest=True,
            from_round=_next_round(tournament),
        )


@dataclass(frozen=True)
class LadderRow:
    line: int
    name: str
    club: str
    rank: int | None
    code: str


def parse_ladder(text: str) -> list[LadderRow]:
    """Read a ladder or entry list: one player a line, ``name[,club[,ladder rank[,id]]]``
    (comma, semicolon or tab; a first line ``name,...`` is a header). A bad row raises a
    LedgerError naming its line."""
    # Any line break (a lone carriage return from an old spreadsheet included) ends a line.
    lines = text.splitlines()
    text = "\n".join(lines)
    if len(lines) > MAX_IMPORT_LINES:
        raise LedgerError(_("a list has at most {n} lines"), "ladder", n=MAX_IMPORT_LINES)
    sample = "\n".join(lines[:5])
    delimiter = next((d for d in ("\t", ";", ",") if d in sample), ",")
    rows, seen = [], set()
    if "\x00" in text:
        raise LedgerError(_("the list holds a NUL character; paste it as plain text"), "ladder")
    for number, fields in enumerate(csv.reader(io.StringIO(text), delimiter=delimiter), 1):
        fields = [f.strip() for f in fields]
        if not any(fields):
            continue
        if number == 1 and fields[0].lower() in ("name", "navn", "ime", "név"):
            continue
        if len(fields) > 4:
            raise LedgerError(
                _("line {line}: at most four columns: name, club, ladder rank, id"),
                "ladder",
                line=number,
            )
        name, club, rank, code = [*fields, "", "", "", ""][:4]
        if not name:
            raise LedgerError(_("line {line}: the name is missing"), "ladder", line=number)
        if name in seen:
            raise LedgerError(
                _("line {line}: {name} is on the list twice"), "ladder", line=number, name=name
            )
        seen.add(name)
        try:
            value = _check_rank(rank, "ladder")
        except LedgerError as error:
            raise LedgerError(
                _("line {line}: {problem}"), "ladder", line=number, problem=error.shown()
            ) from error
        rows.append(LadderRow(number, name, club, value, code))
    return rows


def entries_import(*, tournament: Tournament, text: str, by=None) -> list[Entry]:
    """Enter every player of a pasted or uploaded list (``parse_ladder``): a name of a member
    of the club enters him (with the rank), any other name a guest; an entered player gets his
    rank updated. All or nothing: a bad line names its line and nothing is written."""
    rows = parse_ladder(text)
    if not rows:
        raise LedgerError(_("the list has no player"), "ladder")
    with writing():
        tournament = lock_tournament(tournament)
        check_not_over(tournament)
        start = _next_round(tournament)
        members = {m.name: m for m in Member.objects.filter(club=tournament.club)}
        entered = {e.member_id: e for e in tournament.entries.all()}
        entries = []
        for row in rows:
            member = members.get(row.name)
            try:
                if member is not None and member.pk in entered:
                    entry = entered[member.pk]
                    entry.ladder_rank = row.rank
                    club = check_text(
                        row.club, "club_name", limit=MAX_CLUB, what=_("a club's name")
                    )
                    entry.club_name = club or entry.club_name
                    entry.save(update_fields=["ladder_rank", "club_name"])
                elif member is not None:
                    entry = _entry_for(
                        tournament,
                        member,
                        code=row.code,
                        club_name=row.club or tournament.club.name,
                        rank=row.rank,
                        guest=not member.active,
                        from_round=start,
                    )
                else:
                    entry = _entry_for(
                        tournament,
                        guest_for(tournament, row.name, row.club, row.code, "ladder", by=by),
                        code=row.code,
                        club_name=row.club,
                        rank=row.rank,
                        guest=True,
                        from_round=start,
                    )
            except LedgerError as error:
                raise LedgerError(
                    _("line {line}: {problem}"), "ladder", line=row.line, problem=error.shown()
                ) from error
            entries.append(entry)
    return entries


def entry_withdraw(*, entry: Entry, by=None) -> Entry:
    """Withdraw a player after the last round drawn (he keeps what he scored, section 9).

    A round drawn but not yet published should be drawn again (``round_redraw``)."""
    with writing():
        tournament = lock_tournament(entry.tournament)
        check_not_over(tournament)
        entry = Entry.objects.select_for_update(of=("self",)).get(pk=entry.pk)
        if entry.withdrawn_after is not None:
            raise LedgerError(_("{name} has already withdrawn"), "entry", name=entry.name)
        last = tournament.rounds.exclude(status=Round.Status.DRAFTED).aggregate(n=Max("number"))[
            "n"
        ]
        if not last or last < entry.from_round:
            raise LedgerError(
                _("before {name} has played, remove the entry instead"), "entry", name=entry.name
            )
        entry.withdrawn_after = last
        entry.save(update_fields=["withdrawn_after"])
    return entry


def entry_remove(*, entry: Entry, by=None) -> None:
    """Remove an entry that is in no published round (a typing mistake, a no-show before
    round 1); a round drafted with him must be drawn again before it is published."""
    with writing():
        tournament = lock_tournament(entry.tournament)
        code = entry.code
        for r in tournament.rounds.exclude(status=Round.Status.DRAFTED):
            if code in r.byes or any(code in t for t in r.tables):
                raise LedgerError(
                    _("{name} is in a drawn round; withdraw him instead"), "entry", name=entry.name
                )
        member = entry.member
        entry.delete()
        if member.active is False and not Seat.objects.filter(member=member).exists():
            if not Entry.objects.filter(member=member).exists():
                people.remove_member(member, by=by)
