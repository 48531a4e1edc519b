"""Invitation links: a one-time, expiring token per member, and its QR code.

The token is ``HMAC(secret key, nonce)``; the database keeps the nonce and the token's SHA-256
(looked up on use), never the token. A new invitation of a member cuts the older pending ones
short. ``services.invitation_create`` / ``invitation_accept`` write the rows.
"""

from __future__ import annotations

import datetime
import hashlib
import secrets

from django.utils import timezone
from django.utils.crypto import salted_hmac
from django.utils.translation import gettext_lazy as _

from ledger.models import Invitation

SALT = "ledger.invitation"
VALID_FOR = datetime.timedelta(days=7)


class InvitationRefused(Exception):
    """A link that is unknown, used or expired; ``message`` says so in the user's language."""

    MESSAGES = {
        "unknown": _("This link is not valid. Ask your club's admin for a new one."),
        "used": _("This link has already been used. Ask your club's admin for a new one."),
        "expired": _("This link has expired. Ask your club's admin for a new one."),
        "inactive": _("Your membership is not active. Ask your club's admin."),
        "has_login": _(
            "You already have a log-in. If you have forgotten its password, reset it from the "
            "log-in page."
        ),
    }

    def __init__(self, reason: str, *, club=None):
        self.reason = reason
        self.message = self.MESSAGES[reason]
        # The club of a known link: the refusal reads in its language, as the link would.
        self.club = club
        super().__init__(reason)


def new_nonce() -> str:
    return secrets.token_hex(16)


def token_of(nonce: str) -> str:
    return salted_hmac(SALT, nonce, algorithm="sha256").hexdigest()


def hash_of(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def find(token: str, *, for_update: bool = False) -> Invitation:
    """Return the invitation of ``token`` while it may be used; else raise InvitationRefused."""
    rows = Invitation.objects.select_related("member", "member__user", "member__club")
    if for_update:
        rows = rows.select_for_update(of=("self",))  # only the invitation row
    invitation = rows.filter(token_hash=hash_of(token)).first()
    if invitation is None:
        raise InvitationRefused("unknown")
    club = invitation.member.club
    if invitation.used_at is not None:
        raise InvitationRefused("used", club=club)
    if invitation.expires <= timezone.now():
        raise InvitationRefused("expired", club=club)
    if not invitation.member.active:
        raise InvitationRefused("inactive", club=club)
    if invitation.member.user_id is not None:
        raise InvitationRefused("has_login", club=club)
    return invitation
