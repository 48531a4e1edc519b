"""A member's erasure (the GDPR's right to be forgotten): his name, e-mail and log-in go, his
figures stay.

``member_erase`` replaces the member's name by a neutral label ("former member 12", in the
club's language) wherever the site shows his current name (the member row, his tournament
entries, a substitute's name at a round table, his federation player when he is a member of
no other club, with the federation log's merges that name that player), cuts his log-in from
the club and, when the log-in belongs to no other club, empties it (user name a label, no
e-mail, no names, no password, inactive) and deletes its profile and pending invitations.
The user row itself stays: the ledger's rows name their author by it (who recorded a hand,
who closed an evening), and those rows never change.

What does not change is the ledger: a seat keeps the name it had when seated, which is the
key of his account in the table's hand records, postings and seals (append-only, and
refused by the database's triggers if edited), so ``verify_ledger`` stays OK and the club's
accounts and the federation's results keep every figure. Those keys are kept as the club's
accounting records (README, "Privacy").

An erasure is refused while the member has a seat at an open table (his account is still in
play), for a club admin (take the role away first) and for a site administrator's log-in
(only a superuser may). It is logged in the people log (``ClubLog``, action ``erased``) with
the member's id and label and who erased, never the erased data.
"""

from __future__ import annotations

from django.contrib.auth import get_user_model
from django.db.models import Q
from django.utils import timezone, translation
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from ledger.games.errors import Problem
from ledger.models import (
    Club,
    Entry,
    FederationLog,
    Invitation,
    Member,
    Profile,
    RoundTable,
    Table,
    Tournament,
)
from ledger.services import people
from ledger.services.errors import LedgerError, problem
from ledger.services.ledger import writing
from ledger.services.setup import protected_login
from ledger.services.tournaments.common import lock_tournament


class ErasureRefused(LedgerError):
    """Raised when a member may not be erased (now, or by this user)."""


def former_member_label(member: Member, language: str) -> str:
    """Return the neutral label that replaces an erased member's name ("former member 12")."""
    with translation.override(language):
        return gettext("former member {number}").format(number=member.pk)


def may_erase(*, member: Member, user, club: Club) -> bool:
    """Return whether ``user`` may erase ``member``: a club admin of the member's club, or the
    member himself when the club lets members erase themselves (``members_may_erase``)."""
    if user is None or not user.is_authenticated:
        return False
    if user.is_superuser:
        return True
    if member.user_id is not None and member.user_id == user.pk:
        return club.members_may_erase
    return Member.objects.filter(club=club, user=user, role=Member.Role.ADMIN, active=True).exists()


def erasure_refusal(member: Member, *, by) -> Problem | None:
    """Return why ``member`` may not be erased now, as a problem naming ``member`` (None when
    he may)."""
    if member.erased_at is not None:
        return problem("member", _("%(name)s is already erased."), name=member.name)
    if member.role == Member.Role.ADMIN:
        return problem(
            "member",
            _("%(name)s is a club admin: take the role away before erasing him."),
            name=member.name,
        )
    if (by is None or not by.is_superuser) and protected_login(member):
        return problem(
            "member",
            _("%(name)s's log-in is a site administrator's; only one may erase it."),
            name=member.name,
        )
    table = (
        Table.objects.filter(seats__member=member, status=Table.Status.OPEN)
        .select_related("evening")
        .order_by("pk")
        .first()
    )
    if table is not None:
        return problem(
            "member",
            _(
                "%(name)s is seated at table %(number)s of %(date)s, which is open: erase him "
                "once the table is closed."
            ),
            name=member.name,
            number=table.number,
            date=table.evening.date,
        )
    return None


def _free_username(base: str) -> str:
    users = get_user_model().objects
    name, n = base, 1
    while users.filter(username__iexact=name).exists():
        n += 1
        name = f"{base}-{n}"
    return name


def _label_federation_log(player_id: int, label: str) -> None:
    """Name an erased player by his label in the federation's log of merges (which names the
    two records it merged)."""
    rows = FederationLog.objects.filter(
        Q(details__kept__id=player_id) | Q(details__merged__id=player_id)
    ).select_for_update(of=("self",))
    for row in rows:
        for side in ("kept", "merged"):
            part = row.details.get(side)
            if isinstance(part, dict) and part.get("id") == player_id:
                part["name"] = label
        row.save(update_fields=["details"])


def member_erase(*, member: Member, by) -> Member:
    """Erase ``member``'s name, e-mail and log-in (see the module); return the member, now
    named by his label. ``by`` is the user asking: a club admin, or the member himself where
    the club allows it (``ErasureRefused`` naming ``member`` otherwise, nothing written)."""
    with writing():
        member = (
            Member.objects.select_for_update(of=("self",))
            .select_related("club", "user", "player")
            .get(pk=member.pk)
        )
        club = member.club
        if not may_erase(member=member, user=by, club=club):
            raise ErasureRefused(_("you may not erase this member"), "member")
        refusal = erasure_refusal(member, by=by)
        if refusal:
            raise ErasureRefused(problems=[refusal])
        label = former_member_label(member, club.language)
        user = member.user
        # His tournament entries and the substitutes' names at round tables: sealed in the
        # tournament's head, which is sealed again as it now stands, and its version raised
        # so that the standings kept by it are read afresh (``lock_tournament``).
        entries = list(Entry.objects.filter(member=member))
        substituted = []
        for round_table in RoundTable.objects.filter(
            round__tournament__club=club, table__seats__member=member
        ).select_related("round"):
            changed = False
            for sub in (round_table.substitutes or {}).values():
                if sub.get("member") == member.pk:
                    sub["name"] = label
                    changed = True
            if changed:
                substituted.append(round_table)
        tournaments = {e.tournament_id for e in entries}
        tournaments |= {rt.round.tournament_id for rt in substituted}
        for tournament_id in sorted(tournaments):
            lock_tournament(Tournament(pk=tournament_id))
        for entry in entries:
            entry.name = label
        Entry.objects.bulk_update(entries, ["name"])
        RoundTable.objects.bulk_update(substituted, ["substitutes"])
        player = member.player
        if (
            player is not None
            and not player.memberships.exclude(pk=member.pk).filter(erased_at=None).exists()
        ):
            player.name = label
            player.save(update_fields=["name"])
            _label_federation_log(player.pk, label)
        if user is not None and not Member.objects.filter(user=user).exclude(pk=member.pk):
            user.username = _free_username(f"former-member-{member.pk}")
            user.email = ""
            user.first_name = ""
            user.last_name = ""
            user.is_active = False
            user.set_unusable_password()
            user.save()
            Profile.objects.filter(user=user).delete()
        Invitation.objects.filter(member=member).delete()
        member.name = label
        member.user = None
        member.active = False
        member.role = Member.Role.MEMBER
        member.erased_at = timezone.now()
        member.save(update_fields=["name", "user", "active", "role", "erased_at"])
        # Logged in the club's people log (sealed, chained): his id and his label, never the
        # erased data; his member seal follows his new name and log-in.
        people.record(club.pk, [people.Entry("erased", member, extra={"member": member.pk})], by=by)
    return member
