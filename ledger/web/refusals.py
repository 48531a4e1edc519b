"""Web wording of refused input and writes: the one home of how a view shows a refusal (a
service's ``LedgerError``, an engine's ``RulesError`` such as the rules' ``HandError``).

- ``refuse``: on a form, each problem on its field (the whole form's when it names none of
  them); to a script, ``{"errors": [{"field", "message"}, ...]}`` (a busy refusal: 409 and
  ``Retry-After``);
- ``refuse_message``: each problem as a message of the next page (a view that redirects);
- ``logged_refusal``: the (field, message) pairs of a page that lays them out itself (the
  hand form's sections, a confirmation screen);
- ``refusal_messages``: those pairs unlogged (a preview refuses nothing: it shows why), and
  ``refusal_text`` them in one sentence.

Each of the first three logs the refusal once (``log_refusal``); every message is its
problem's template translated in the reader's language, then filled (``problem_text``).
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Mapping

from django.contrib import messages
from django.http import JsonResponse
from django.utils.text import capfirst

from ledger.games.errors import RulesError
from ledger.services.errors import ALL, BusyError, LedgerError, problem_text

logger = logging.getLogger(__name__)

Refusal = LedgerError | RulesError
# Where a problem's field lands on a form: a mapping (problem field → form field, the rest as
# ``form_field`` finds them), the form's own function (``SeriesForm.field_of``) or one field.
Fields = Mapping[str, str] | Callable[[str], str | None] | str | None


def refusal_messages(error: Refusal, *, named: bool = False) -> list[tuple[str, str]]:
    """Each problem of ``error`` as (field, message): its template translated, then filled;
    with ``named`` the message begins with its field (``rounds[2].table: ...``) unless the
    problem is the whole form's."""
    pairs = [(p.field, problem_text(p)) for p in error.problems]
    if named:
        pairs = [(f, m if f in ("", ALL) else f"{f}: {m}") for f, m in pairs]
    return pairs


def refusal_text(error: Refusal, lead: str = "") -> str:
    """Return the problems of ``error`` as one translated sentence, after ``lead`` if given."""
    details = "; ".join(message for _field, message in refusal_messages(error))
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
    field = getattr(error, "field", None)
    if field is None and isinstance(error, RulesError) and error.problems:
        field = error.problems[0].field
    logger.info(
        "refused: %s",
        str(getattr(error, "message", error)),
        extra={
            "event": "busy" if isinstance(error, BusyError) else "refused",
            "club": getattr(club, "slug", None),
            "user": user.get_username() if user is not None and user.is_authenticated else None,
            "path": request.path,
            "field": field,
            "error": type(error).__name__,
            **objects,
        },
    )


def logged_refusal(request, error: Refusal, *, named: bool = False, **objects):
    """Log ``error`` (``log_refusal``, with ``objects``) and return its (field, message) pairs
    for a page that shows them its own way."""
    log_refusal(request, error, **objects)
    return refusal_messages(error, named=named)


def refuse_message(request, error: Refusal, *, named: bool = False, **objects) -> None:
    """Show a refusal on the next page: logged, each problem's message a ``messages.error``
    (after its field with ``named``); the view redirects or renders as it does."""
    for _field, message in logged_refusal(request, error, named=named, **objects):
        messages.error(request, message)


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


def _landing(form, field: str, fields: Fields) -> str | None:
    """The form's field where the problem naming ``field`` is shown (None: the whole form)."""
    if isinstance(fields, str):
        name: str | None = fields
    elif callable(fields):
        name = fields(field)
    elif fields is not None and field in fields:
        name = fields[field]
    else:
        return form_field(form, field)
    return name if name in form.fields else None


def refuse(
    request,
    error: Refusal,
    form=None,
    *,
    status: int = 400,
    fields: Fields = None,
    named: bool = False,
    capitalised: bool = False,
    **objects,
):
    """Show a service's (or an engine's) refusal: logged (``log_refusal``, with ``objects``);
    on ``form``, each problem on its field (``fields`` says where a problem's field lands: a
    mapping, the form's function or one field for all; by default the field itself or the
    head of its path), the whole form's when the form has no such field, and None returned
    for the view to render the form again; ``named`` puts the problem's field before its
    message, ``capitalised`` begins the message with a capital. Without a form, the JSON
    answer ``{"errors": [{"field", "message"}, ...]}`` with ``status`` (a busy refusal: 409
    with ``Retry-After``)."""
    if isinstance(error, RulesError):
        error = LedgerError.of_rules(error)
    pairs = logged_refusal(request, error, named=named, **objects)
    if form is not None:
        for field, message in pairs:
            form.add_error(
                _landing(form, field, fields), capfirst(message) if capitalised else message
            )
        return None
    if isinstance(error, BusyError):
        return busy_response(error)
    return JsonResponse({"errors": [{"field": f, "message": m} for f, m in pairs]}, status=status)
