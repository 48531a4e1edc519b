"""Reads of the club set-up screens."""

from __future__ import annotations

from django.utils import timezone

from ledger.models import ClubLog, Invitation


def pending_invitations(club) -> list[Invitation]:
    """Return the club's invitations that may still be used (neither used nor expired, for an
    active member without a log-in), by member name (the sheet is read by name)."""
    rows = Invitation.objects.filter(
        member__club=club,
        member__user__isnull=True,
        member__active=True,
        used_at__isnull=True,
        expires__gt=timezone.now(),
    ).select_related("member")
    return sorted(rows, key=lambda i: (i.member.name.casefold(), i.member.name, -i.pk))


def people_log(club):
    """Return the club's people log (``ClubLog``), newest first, with who wrote each entry."""
    return ClubLog.objects.filter(club=club).select_related("by", "member").order_by("-pk")
