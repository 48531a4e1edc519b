"""The table's own link for one phone, late players and substitutes (sections 9 and 10)."""

from __future__ import annotations

import hashlib
import secrets
from collections.abc import Sequence

from django.contrib.auth import get_user_model
from django.contrib.auth.hashers import make_password
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from ledger.models import Member, Round, RoundTable
from ledger.services import tables as table_services
from ledger.services.errors import LedgerError
from ledger.services.ledger import writing
from ledger.services.targets import hands_entered
from ledger.services.tournaments.common import lock_round, log_act
from ledger.services.tournaments.entries import guest_member
from ledger.tournaments.web import LINK_AUTHOR


def new_link_token() -> str:
    """Return a new secret for a round table's own link (unguessable, URL-safe)."""
    return secrets.token_urlsafe(24)


LINK_ROUNDS = (Round.Status.PUBLISHED, Round.Status.PLAYING)


def device_digest(secret: str) -> str:
    """Return what a round table stores of the device holding its link: a digest of the
    device's secret (kept in that device's session), never the secret itself."""
    return hashlib.sha256(secret.encode()).hexdigest()


def round_table_claim(*, round_table: RoundTable, secret: str) -> bool:
    """Let the device with ``secret`` hold the table's link, if no other device holds it.

    Return whether it holds it now (it did already, or it took it); one conditional update,
    so two phones opening the link at once never both hold it. Refused once the round has
    closed: the link is for one round's hands.
    """
    digest = device_digest(secret)
    with writing():
        rt = RoundTable.objects.select_related("round").get(pk=round_table.pk)
        if rt.round.status not in LINK_ROUNDS:
            raise LedgerError(_("the round is over: this table's link is closed"), "token")
        if rt.device == digest:
            return True
        return bool(RoundTable.objects.filter(pk=rt.pk, device="").update(device=digest))


def round_table_release(*, round_table: RoundTable, by=None) -> RoundTable:
    """Hand the table's link over: the device that held it loses it and the next device to
    open the link takes it (a flat battery, another phone). Logged on the round."""
    with writing():
        round_ = lock_round(round_table.round_id)
        rt = RoundTable.objects.select_for_update(of=("self",)).get(pk=round_table.pk)
        if round_.status not in LINK_ROUNDS:
            raise LedgerError(_("the round is over: this table's link is closed"), "token")
        rt.device = ""
        rt.save(update_fields=["device"])
        log_act(round_, "release", by, table=rt.number)
        round_.save(update_fields=["log"])
    return rt


def round_table_report_missing(*, round_table: RoundTable, codes: Sequence[str]) -> RoundTable:
    """Record the players the table says are not there (from its own link), for the
    director's progress screen; an empty list says everyone is there."""
    with writing():
        rt = RoundTable.objects.select_for_update(of=("self",)).get(pk=round_table.pk)
        unknown = [c for c in codes if c not in rt.seats]
        if unknown:
            raise LedgerError(_("only a player drawn at this table can be missing"), "missing")
        rt.missing = [c for c in rt.seats if c in set(codes)]
        rt.save(update_fields=["missing"])
    return rt


def round_substitute(
    *,
    round_table: RoundTable,
    absent: str,
    member: Member | None = None,
    guest_name: str = "",
    by=None,
) -> RoundTable:
    """Seat a substitute in the place of a drawn player who is not there or has left
    (section 9): a member of the club or a new guest, who is not an entry of the tournament.
    His hands count for the table and his result for no one; the absent player keeps his
    seat's result from the close and takes the last place at his table (he is scored as one
    who left) and is withdrawn after the round. The round must be playing and the table open.
    """
    rt = RoundTable.objects.select_related("round__tournament", "table").get(pk=round_table.pk)
    round_, tournament = rt.round, rt.round.tournament
    if round_.status != Round.Status.PLAYING or rt.table is None:
        raise LedgerError(_("a substitute is seated at a table of a round being played"), "absent")
    entry = tournament.entries.select_related("member").filter(code=absent).first()
    if entry is None or absent not in rt.seats:
        raise LedgerError(_("choose a player drawn at this table"), "absent")
    if absent in rt.substitutes:
        raise LedgerError(_("{name} already has a substitute"), "absent", name=entry.name)
    if member is None and not (guest_name or "").strip():
        raise LedgerError(_("choose a member or type a guest's name"), "member")
    if member is not None:
        if member.club_id != tournament.club_id:
            raise LedgerError(_("every member must belong to the tournament's club"), "member")
        if tournament.entries.filter(member=member).exists():
            raise LedgerError(
                _("{name} is entered in the tournament; a substitute is not"),
                "member",
                name=member.name,
            )
    with writing():
        # The lock order of every tournament service: the round, then the evening and table.
        round_ = lock_round(rt.round_id)
        locked = RoundTable.objects.select_for_update(of=("self",)).get(pk=rt.pk)
        if round_.status != Round.Status.PLAYING:
            raise LedgerError(
                _("a substitute is seated at a table of a round being played"), "absent"
            )
        if absent in locked.substitutes:
            raise LedgerError(_("{name} already has a substitute"), "absent", name=entry.name)
        if member is None:
            member = guest_member(tournament, guest_name, "guest_name", by=by)
        table_services.substitute_locked(rt.table, leaving=entry.member, joining=member, by=by)
        locked.substitutes = {
            **locked.substitutes,
            absent: {
                "member": member.pk,
                "name": member.name,
                # Every hand entered before him, a hand still to confirm included.
                "at_hand": hands_entered(rt.table_pk),
                "by": getattr(by, "username", None),
                "at": timezone.now().isoformat(timespec="seconds"),
            },
        }
        locked.missing = [c for c in locked.missing if c != absent]
        locked.save(update_fields=["substitutes", "missing"])
        log_act(round_, "substitute", by, table=rt.number, absent=absent, substitute=member.name)
        round_.save(update_fields=["log"])
    return locked


def link_authors_create(round_: Round) -> None:
    """Make the log-in each round table's own link writes as (inside the caller's transaction,
    ``round_publish``): an inactive user without a usable password, so a hand, a correction or
    a void sent from the table's phone is signed by the table (the sealed author fields), never
    by nobody."""
    users = get_user_model()
    names = [
        LINK_AUTHOR.format(tournament=round_.tournament_id, round=round_.number, table=number)
        for number in round_.round_tables.order_by("number").values_list("number", flat=True)
    ]
    made = set(users.objects.filter(username__in=names).values_list("username", flat=True))
    users.objects.bulk_create(
        users(username=name, is_active=False, password=make_password(None))
        for name in names
        if name not in made
    )


def link_author(table_id: int):
    """Return the log-in a round table's link writes as for the ordinary table ``table_id``, or
    None (an ordinary table, or a draw published before links signed)."""
    rt = (
        RoundTable.objects.filter(table_id=table_id)
        .values_list("round__tournament_id", "round__number", "number")
        .first()
    )
    if rt is None:
        return None
    name = LINK_AUTHOR.format(tournament=rt[0], round=rt[1], table=rt[2])
    return get_user_model().objects.filter(username=name).first()
