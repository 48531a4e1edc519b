"""Web wording of refused input and writes: one helper shows every refusal (``refuse``: on a
form, each problem on its field; to a script, ``{"errors": [...]}``), the rules' problems as
one sentence, the "busy, try again" answer to the tablet's script, and the log line of every
refusal."""

from __future__ import annotations

import logging

from django.http import JsonResponse
from django.utils.translation import gettext

from ledger.games.errors import RulesError
from ledger.services.errors import BusyError, LedgerError

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


def form_errors_text(form) -> str:
    """A refused form's errors in one line (for a message or a refusal of its own)."""
    return " ".join(str(e) for errors in form.errors.values() for e in errors)


def form_field(form, field: str) -> str | None:
    """The form's field a problem's ``field`` names: itself, or the head of a path
    (``rate_card.fee``: ``rate_card``), else None (the whole form)."""
    head = field.replace("[", ".").split(".", 1)[0]
    for name in (field, head):
        if name in form.fields:
            return name
    return None


def refuse(request, error: LedgerError | RulesError, form=None, *, status: int = 400, **objects):
    """Show a service's (or an engine's) refusal: logged (``log_refusal``, with ``objects``);
    on ``form``, each problem on its field (the whole form's when it names none of them), and
    None returned for the view to render the form again; without a form, the JSON answer
    ``{"errors": [{"field", "message"}, ...]}`` with ``status`` (a busy refusal: 409 with
    ``Retry-After``)."""
    if isinstance(error, RulesError):
        error = LedgerError.of_rules(error)
    log_refusal(request, error, **objects)
    if form is not None:
        for field, message in error.messages():
            form.add_error(form_field(form, field), message)
        return None
    if isinstance(error, BusyError):
        return busy_response(error)
    return JsonResponse(error.as_json(), status=status)
