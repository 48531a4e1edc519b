"""The web's answers to a selector's "not found": a 404, never an error from a read."""

from __future__ import annotations

import datetime

from django.http import Http404
from django.utils import timezone

from ledger import selectors
from ledger.models import Season


def found(value, what: str = "object"):
    """Return ``value``, or answer 404 when the selector found nothing (None)."""
    if value is None:
        raise Http404(f"No such {what}")
    return value


def picked_season(*, seasons, value: str | None, today: datetime.date | None = None):
    """Return the season ``?season=`` names among ``seasons`` (default: the running one, else
    the newest; None when there is none); 404 for a value that names none of them."""
    try:
        return selectors.season_pick(
            seasons=seasons, value=value, today=today or timezone.localdate()
        )
    except Season.DoesNotExist:
        raise Http404("No such season") from None
