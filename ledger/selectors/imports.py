"""Reads of a federation's imported events and upload tokens (``federation.md`` section 5):
the officer's list of events, one event with its ranking, the tokens, and the series an
uploaded event may join."""

from __future__ import annotations

from django.db.models import Count

from ledger.models import Federation, ImportedEvent, ImportedPlacing, Series, UploadToken


def imported_events(federation: Federation):
    """The federation's imported events, newest first, each with its ``players`` counted."""
    return (
        ImportedEvent.objects.filter(federation=federation)
        .defer("document")
        .annotate(players=Count("placings"))
        .order_by("-date", "-pk")
    )


def imported_event(federation: Federation, pk: int) -> ImportedEvent | None:
    """One imported event of the federation (None for another federation's or none)."""
    return ImportedEvent.objects.filter(federation=federation, pk=pk).first()


def imported_ranking(event: ImportedEvent):
    """The event's final ranking: each placing with its player (and his home club)."""
    return (
        ImportedPlacing.objects.filter(event=event)
        .select_related("player__home_club")
        .order_by("rank", "code")
    )


def imported_series(event: ImportedEvent) -> list[Series]:
    """The series the event counts in."""
    return list(Series.objects.filter(events__imported=event).order_by("name"))


def upload_tokens(federation: Federation):
    """The federation's upload tokens, newest first (their digests are not for showing)."""
    return UploadToken.objects.filter(federation=federation).order_by("-created_at", "-pk")


def upload_series(federation: Federation):
    """The federation's series of its game: those an uploaded event may be added to."""
    return Series.objects.filter(federation=federation, game=federation.game).order_by(
        "-starts_on", "name"
    )
