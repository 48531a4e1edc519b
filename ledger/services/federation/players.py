"""Players across clubs: a member's player, a guest's player, and the merge of two records of
one person (``federation.md`` section 1)."""

from __future__ import annotations

from django.db.models import Q
from django.utils.translation import gettext_lazy as _

from ledger.models import (
    Club,
    Entry,
    Federation,
    FederationLog,
    ImportedPlacing,
    Member,
    Player,
    text_limit,
)
from ledger.services.errors import LedgerError
from ledger.services.ledger import in_transaction, writing

MAX_LICENCE = text_limit(Player, "licence")


def federation_of_club(club: Club) -> Federation | None:
    """The federation of the club's game it belongs to (the first by id), or None."""
    return club.federations.filter(game=club.game).order_by("pk").first()


def _check_licence(licence: str, field: str) -> str:
    licence = (licence or "").strip()
    if len(licence) > MAX_LICENCE:
        raise LedgerError(_("a licence is at most {limit} characters"), field, limit=MAX_LICENCE)
    return licence


def link_member(member: Member) -> Player:
    """Return the member's player, inside the caller's transaction: his own, else the player
    of another membership of his log-in, else a new player of his club."""
    in_transaction()
    if member.player is not None:
        return member.player
    player = None
    if member.user_id is not None:
        player = Player.objects.filter(memberships__user_id=member.user_id).order_by("pk").first()
    if player is None:
        player = Player.objects.create(name=member.name, home_club=member.club)
    Member.objects.filter(pk=member.pk).update(player=player)
    member.player = player
    return player


def player_for_member(member: Member) -> Player:
    """The member's player (created, or shared with his other memberships, when missing)."""
    with writing():
        return link_member(member)


def match_guest(club: Club, name: str, club_name: str, licence: str = "") -> Player:
    """Return a guest's player, inside the caller's transaction: by licence in the club's
    federation first, else by name and club (case and spaces aside), else a new player."""
    in_transaction()
    licence = _check_licence(licence, "licence")
    federation = federation_of_club(club)
    if licence and federation is not None:
        found = Player.objects.filter(federation=federation, licence=licence).first()
        if found is not None:
            return found
    name, club_name = (name or "").strip(), (club_name or "").strip()
    same_club = Q(club_name__iexact=club_name) | Q(home_club__name__iexact=club_name)
    candidates = Player.objects.filter(name__iexact=name).filter(same_club)
    if federation is not None:
        candidates = candidates.filter(Q(federation=federation) | Q(federation__isnull=True))
    if licence:
        candidates = candidates.filter(licence="")
    found = candidates.order_by("pk").first()
    if found is not None:
        if licence and federation is not None:
            found.federation, found.licence = federation, licence
            found.save(update_fields=["federation", "licence"])
        return found
    return Player.objects.create(
        name=name,
        club_name=club_name,
        federation=federation if licence else None,
        licence=licence if federation is not None else "",
    )


def player_match_guest(*, club: Club, name: str, club_name: str = "", licence: str = "") -> Player:
    """A guest's player for a tournament of ``club`` (see ``match_guest``)."""
    with writing():
        return match_guest(club, name, club_name, licence)


def _event_of_both(kept: Player, merged: Player) -> str | None:
    """The name of a tournament (or an imported event) both records played in, if any."""
    return (
        Entry.objects.filter(player=kept)
        .filter(tournament__entries__player=merged)
        .values_list("tournament__name", flat=True)
        .first()
    ) or (
        ImportedPlacing.objects.filter(player=kept)
        .filter(event__placings__player=merged)
        .values_list("event__name", flat=True)
        .first()
    )


def player_merge(*, kept: Player, merged: Player, by=None) -> Player:
    """Merge two records of one person: every membership and entry of ``merged`` (and so every
    result) follows ``kept``, which takes the other's licence when it has none; ``merged`` is
    deleted and the merge logged. Refused: a player merged into himself, two different
    licences, two records entered in one tournament."""
    if kept.pk == merged.pk:
        raise LedgerError(_("a player cannot be merged into himself"), "merged")
    with writing():
        players = {
            p.pk: p for p in Player.objects.select_for_update().filter(pk__in=[kept.pk, merged.pk])
        }
        kept, merged = players[kept.pk], players[merged.pk]
        if (
            kept.licence
            and merged.licence
            and (kept.licence, kept.federation_id)
            != (
                merged.licence,
                merged.federation_id,
            )
        ):
            raise LedgerError(
                _("the two records have different licences ({kept} and {merged})"),
                "licence",
                kept=kept.licence,
                merged=merged.licence,
            )
        both = _event_of_both(kept, merged)
        if both is not None:
            raise LedgerError(
                _("both records are entered in the tournament {name}"), "merged", name=both
            )
        details = {
            "kept": {"id": kept.pk, "name": kept.name, "licence": kept.licence},
            "merged": {"id": merged.pk, "name": merged.name, "licence": merged.licence},
            "members": list(merged.memberships.order_by("pk").values_list("pk", flat=True)),
            "entries": list(merged.entries.order_by("pk").values_list("pk", flat=True)),
        }
        details["placings"] = list(merged.placings.order_by("pk").values_list("pk", flat=True))
        Member.objects.filter(player=merged).update(player=kept)
        Entry.objects.filter(player=merged).update(player=kept)
        ImportedPlacing.objects.filter(player=merged).update(player=kept)
        licence, federation = merged.licence, merged.federation
        merged.delete()
        if not kept.licence and licence:
            kept.licence, kept.federation = licence, federation
        if kept.home_club_id is None and not kept.club_name:
            kept.home_club_id, kept.club_name = merged.home_club_id, merged.club_name
        kept.save()
        FederationLog.objects.create(
            federation=kept.federation, action="merge", details=details, by=by
        )
    return kept


def player_set_licence(*, player: Player, federation: Federation, licence: str, by=None) -> Player:
    """Give a player the federation's licence (blank clears it); a licence already held by
    another player of the federation is refused."""
    licence = _check_licence(licence, "licence")
    with writing():
        player = Player.objects.select_for_update().get(pk=player.pk)
        if licence and (
            Player.objects.filter(federation=federation, licence=licence)
            .exclude(pk=player.pk)
            .exists()
        ):
            raise LedgerError(
                _("the licence {licence} is already a player's of {federation}"),
                "licence",
                licence=licence,
                federation=federation.name,
            )
        player.licence = licence
        player.federation = federation if licence else player.federation
        player.save(update_fields=["licence", "federation"])
        FederationLog.objects.create(
            federation=federation,
            action="licence",
            details={"player": player.pk, "licence": licence},
            by=by,
        )
    return player
