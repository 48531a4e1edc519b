"""Bounded query parameters: a page, a page size and an export format are answered only
within the documented bounds; anything else is a 400 that names the parameter and the rule,
before any view reads it (the probe: ``per_page=-1`` or huge, a page number past a 64-bit
integer and ``_export=ods`` each gave a 500).

The tables' parameters carry the table's prefix (``ev-page``, ``h-per_page``): each is
checked by its name after the prefix.
"""

from __future__ import annotations

from django.http import HttpResponseBadRequest
from django.utils.translation import gettext

from ledger.exports import FORMATS

MAX_PAGE = 1_000_000
MAX_PER_PAGE = 200


def refusal(request) -> str | None:
    """Return why the request's query is refused, or None."""
    for key, values in request.GET.lists():
        name = key.rsplit("-", 1)[-1]
        for value in values:
            if name in ("page", "per_page"):
                high = MAX_PAGE if name == "page" else MAX_PER_PAGE
                if not (value.isascii() and value.isdigit() and 1 <= int(value[:8]) <= high):
                    return gettext("{key}: a whole number from 1 to {high}").format(
                        key=key[:40], high=high
                    )
            elif key == "_export" and value not in FORMATS:
                return gettext("_export: one of {formats}").format(formats=", ".join(FORMATS))
    return None


class QueryBoundsMiddleware:
    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        reason = refusal(request)
        if reason is not None:
            return HttpResponseBadRequest(reason, content_type="text/plain; charset=utf-8")
        return self.get_response(request)
