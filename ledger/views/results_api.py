"""``POST /api/f/<federation>/results/``: a club's installation posts a results file to the
federation with one of its upload tokens (``Authorization: Bearer <token>``;
``federation.md`` section 5, ``docs/federation.md``).

The answers, all JSON:

- 401 ``{"errors": [...]}``: no token, an unknown or revoked one, or another federation's
  (the attempt is a WARNING in the server's log with the federation's short name and the
  presented token's first 8 characters, never the token); nothing is written;
- 413: a body larger than the results files' limit (``ledger.web.jsonin.MAX_BYTES``);
- 400 ``{"errors": [{"field", "message"}]}``: not JSON within the limits, not a results file,
  or refused by the import (recomputed differently, an older revision, ...); nothing written;
- 201 (created), 200 (unchanged: "nothing changed", or replaced): ``{"event", "id",
  "revision", "action", "new_players", "message"}``.

No session and no cookie authenticate here, so the view is exempt from CSRF (the only one);
any method but POST is 405.
"""

from __future__ import annotations

import logging

from django.core.exceptions import RequestDataTooBig
from django.http import JsonResponse
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.csrf import csrf_exempt
from django.views.decorators.http import require_POST

from ledger.games.errors import RulesError
from ledger.services.errors import LedgerError
from ledger.services.federation import tokens
from ledger.services.federation.results import CREATED, UNCHANGED, results_import
from ledger.web.refusals import refuse
from ledger.web.results_in import MAX_BYTES, read_results_bytes

logger = logging.getLogger(__name__)


def _bearer(request) -> str:
    header = request.headers.get("Authorization", "")
    scheme, _space, token = header.partition(" ")
    return token.strip() if scheme.lower() == "bearer" else ""


def _too_large(request) -> JsonResponse:
    too_large = LedgerError(
        gettext_lazy("the file is larger than {limit} bytes"), "file", limit=MAX_BYTES
    )
    return refuse(request, too_large, status=413)


@csrf_exempt
@require_POST
def results_post(request, federation: str):
    """Import the posted results file into ``federation`` (see the module's docstring)."""
    presented = _bearer(request)
    found = tokens.upload_token_federation(presented) if presented else None
    if found is None or found.slug != federation:
        logger.warning(
            "results upload refused: no valid token",
            extra={
                "event": "token_refused",
                "federation": federation[:50],
                "token_prefix": presented[: tokens.PREFIX] or None,
            },
        )
        no_token = LedgerError(
            gettext_lazy("a valid upload token of this federation is needed"), "token"
        )
        return refuse(request, no_token, status=401)
    try:
        if int(request.headers.get("Content-Length") or 0) > MAX_BYTES:
            return _too_large(request)
        body = request.body
    except (RequestDataTooBig, ValueError):
        return _too_large(request)
    if len(body) > MAX_BYTES:
        return _too_large(request)
    try:
        document = read_results_bytes(body)
        result = results_import(document=document, federation=found)
    except (RulesError, LedgerError) as error:  # a busy one: 409 and Retry-After
        return refuse(request, error, status=400, federation=found.slug)
    tokens.upload_token_used(presented)
    event = result.event
    messages = {
        CREATED: _("the event is imported"),
        UNCHANGED: _("nothing changed: this revision is already imported"),
    }
    return JsonResponse(
        {
            "event": event.pk,
            "id": event.uid,
            "revision": event.revision,
            "action": result.action,
            "new_players": result.new_players,
            "message": messages.get(result.action, _("the event is replaced by this revision")),
        },
        status=201 if result.action == CREATED else 200,
    )
