"""Web wording of refused input and writes: the rules' problems as one sentence, the "busy,
try again" answer to the tablet's script, and the log line of every refusal."""

from __future__ import annotations

import logging

from django.http import JsonResponse
from django.utils.translation import gettext

from ledger.games.errors import RulesError
from ledger.services.errors import BusyError

logger = logging.getLogger(__name__)


def refusal_text(error: RulesError, lead: str = "") -> str:
    """Return the problems of ``error`` as one translated sentence, after ``lead`` if given."""
    details = "; ".join(gettext(p.template).format(**p.params) for p in error.problems)
    return f"{lead}: {details}" if lead else details


def busy_response(error: BusyError) -> JsonResponse:
    """Answer a write refused for a lock not had in time to a script: 409 with
    ``{"busy": true, "message": ..., "retry_after": seconds}`` and ``Retry-After``; the
    script sends the same write again after that many seconds (nothing was written)."""
    response = JsonResponse(
        {"busy": True, "message": str(error.message), "retry_after": error.retry_after},
        status=409,
    )
    response["Retry-After"] = str(error.retry_after)
    return response


def log_refusal(request, error: Exception, **objects) -> None:
    """Write one INFO line for a refused write (a ``LedgerError`` or the rules' ``HandError``):
    the club, the user, the path, the field and the objects named (``table=7``)."""
    club = getattr(request, "club", None)
    user = getattr(request, "user", None)
    logger.info(
        "refused: %s",
        str(getattr(error, "message", error)),
        extra={
            "event": "busy" if isinstance(error, BusyError) else "refused",
            "club": getattr(club, "slug", None),
            "user": user.get_username() if user is not None and user.is_authenticated else None,
            "path": request.path,
            "field": getattr(error, "field", None),
            "error": type(error).__name__,
            **objects,
        },
    )
