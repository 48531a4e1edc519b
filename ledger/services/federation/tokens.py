"""A federation's upload tokens (``federation.md`` section 5): a club's installation posts its
results files to ``/api/f/<federation>/results/`` with ``Authorization: Bearer <token>``.

- ``upload_token_create`` makes a token (``secrets.token_urlsafe(32)``, 43 characters) and
  returns it once: only its SHA-256 (``digest``) and its first 8 characters (``prefix``, to
  tell tokens apart) are stored, so the database never holds a usable token;
- ``upload_token_revoke`` ends a token (once; a revoked token is refused from then on);
- ``upload_token_federation`` answers which federation a presented token is for (None for an
  unknown or revoked one). It looks the token up by its digest: the comparison is of hashes
  in the database's index, never of the secret itself character by character;
- ``upload_token_used`` notes when a token last brought a file in.

Making and revoking are logged in the federation's log, with the label and prefix, never the
token.
"""

from __future__ import annotations

import hashlib
import secrets

from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from ledger.models import Federation, FederationLog, UploadToken, text_limit
from ledger.services.errors import LedgerError
from ledger.services.ledger import writing

MAX_LABEL = text_limit(UploadToken, "label")
PREFIX = 8
# A token is 43 characters; anything much longer is not one of ours (and is not hashed).
MAX_PRESENTED = 200


def token_digest(plain: str) -> str:
    """Return the SHA-256 (hex) of a token, as stored."""
    return hashlib.sha256(plain.encode("utf-8", "surrogatepass")).hexdigest()


def upload_token_create(*, federation: Federation, label: str, by=None) -> tuple[UploadToken, str]:
    """Make an upload token of the federation named ``label``; return (its row, the token).
    The token is in no row and no log: the caller shows it once."""
    label = (label or "").strip()
    if not label or len(label) > MAX_LABEL:
        raise LedgerError(
            _("a token's label has 1 to {limit} characters"), "label", limit=MAX_LABEL
        )
    plain = secrets.token_urlsafe(32)
    with writing():
        token = UploadToken.objects.create(
            federation=federation,
            label=label,
            digest=token_digest(plain),
            prefix=plain[:PREFIX],
            created_by=by,
        )
        FederationLog.objects.create(
            federation=federation,
            action="token_create",
            details={"token": token.pk, "label": label, "prefix": token.prefix},
            by=by,
        )
    return token, plain


def upload_token_revoke(*, token: UploadToken, by=None) -> UploadToken:
    """Revoke an upload token; a token already revoked is refused (naming ``token``)."""
    with writing():
        token = UploadToken.objects.select_for_update().get(pk=token.pk)
        if token.revoked_at is not None:
            raise LedgerError(_("the token is already revoked"), "token")
        token.revoked_at = timezone.now()
        token.save(update_fields=["revoked_at"])
        FederationLog.objects.create(
            federation_id=token.federation_id,
            action="token_revoke",
            details={"token": token.pk, "label": token.label, "prefix": token.prefix},
            by=by,
        )
    return token


def _live(plain: str):
    if not plain or len(plain) > MAX_PRESENTED:
        return UploadToken.objects.none()
    return UploadToken.objects.filter(digest=token_digest(plain), revoked_at=None)


def upload_token_federation(plain: str) -> Federation | None:
    """Return the federation of a live token (None for an unknown or revoked one)."""
    token = _live(plain).select_related("federation").first()
    return token.federation if token is not None else None


def upload_token_used(plain: str) -> None:
    """Note that the token ``plain`` just brought a file in (its ``last_used_at``)."""
    with writing():
        _live(plain).update(last_used_at=timezone.now())
