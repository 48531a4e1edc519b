"""The kept ladder (``federation.md`` section 2, "The kept ladder"): a series' ladder over all
its final events, stored in ``KeptLadder`` and ``KeptLadderLine`` under the fingerprint of
what it read, so a page reads the stored lines (one page of them) instead of running the
engine over the whole season at every request.

The fingerprint is read in two cheap queries: the series' events with their factors, names,
dates, their tournaments' status and version (every tournament service raises it: a
correction, a reopening, a close) and their imported events' revisions; and the last merge of
players (a merge moves placings and entries from one player to another). With the series'
seed and rule they are hashed. A read whose fingerprint is the kept one reads the kept lines;
otherwise the ladder is recomputed through the engine exactly as before and stored in a short
write transaction (two readers at once: the second finds the first's lines)."""

from __future__ import annotations

import hashlib
import json
from fractions import Fraction

from django.db.models import Max

from ledger.federation.engine import series as engine
from ledger.models import FederationLog, KeptLadder, KeptLadderLine, Series, SeriesEvent
from ledger.services.federation.series import event_key, rule_of, series_events
from ledger.services.ledger import writing


def ladder_fingerprint(series: Series) -> str:
    """The hash of everything the series' ladder reads (see the module's note)."""
    return ladder_fingerprints([series])[series.pk]


def ladder_fingerprints(series: list[Series]) -> dict[int, str]:
    """The fingerprints of several series' ladders by the series' pk, in the same two
    queries as one's."""
    events: dict[int, list] = {one.pk: [] for one in series}
    rows = (
        SeriesEvent.objects.filter(series__in=list(events))
        .order_by("pk")
        .values_list(
            "series_id",
            "pk",
            "factor",
            "tournament_id",
            "tournament__name",
            "tournament__date",
            "tournament__status",
            "tournament__version",
            "imported_id",
            "imported__name",
            "imported__date",
            "imported__revision",
        )
    )
    for series_id, *event in rows:
        events[series_id].append(tuple(event))
    merged = FederationLog.objects.filter(action="merge").aggregate(last=Max("pk"))["last"]
    return {
        one.pk: hashlib.sha256(
            json.dumps(
                [one.seed, one.rule, events[one.pk], merged],
                default=str,
                sort_keys=True,
                separators=(",", ":"),
            ).encode()
        ).hexdigest()
        for one in series
    }


def ladders_kept(series: list[Series]) -> None:
    """Keep each of ``series``' ladders afresh where what it reads has changed, checking them
    all in three queries (their fingerprints, their kept ladders); none for no series."""
    if not series:
        return
    fingerprints = ladder_fingerprints(series)
    kept = dict(
        KeptLadder.objects.filter(series__in=list(fingerprints)).values_list(
            "series_id", "fingerprint"
        )
    )
    for one in series:
        if kept.get(one.pk) != fingerprints[one.pk]:
            ladder_kept(one)


def event_names(series: Series) -> dict[str, str]:
    """Each event of the series by the engine's id: its tournament's (or import's) name."""
    return {
        event_key(tournament_id, imported_id): tournament_name or imported_name
        for tournament_id, imported_id, tournament_name, imported_name in series.events.values_list(
            "tournament_id", "imported_id", "tournament__name", "imported__name"
        )
    }


def exact(value: Fraction) -> str:
    """An exact rational as stored: ``13/2``, or ``7``."""
    return str(value)


def computed_lines(series: Series) -> tuple[list[KeptLadderLine], list[engine.Event]]:
    """The series' ladder through the engine, as unsaved kept lines, and its final events."""
    events = series_events(series)
    rows = engine.series_standings(series.seed, rule_of(series), events, None)
    names = event_names(series)
    lines = [
        KeptLadderLine(
            series=series,
            position=r.position,
            player_id=int(r.player),
            total=exact(r.total),
            best=exact(r.best),
            wins=r.wins,
            events=r.events,
            counted=[names[e] for e in r.counted],
            struck=[names[e] for e in r.struck],
            qualified=r.qualified,
        )
        for r in rows
    ]
    return lines, events


def ladder_kept(series: Series) -> KeptLadder:
    """The series' kept ladder, recomputed and stored first when what it reads has changed
    since (its fingerprint differs) or it was never kept."""
    fingerprint = ladder_fingerprint(series)
    kept = KeptLadder.objects.filter(series=series).first()
    if kept is not None and kept.fingerprint == fingerprint:
        return kept
    with writing():
        series = Series.objects.select_for_update().get(pk=series.pk)
        fingerprint = ladder_fingerprint(series)
        kept = KeptLadder.objects.filter(series=series).first()
        if kept is not None and kept.fingerprint == fingerprint:
            return kept  # another reader kept it meanwhile
        lines, events = computed_lines(series)
        KeptLadderLine.objects.filter(series=series).delete()
        KeptLadderLine.objects.bulk_create(lines, batch_size=500)
        facts = {
            "fingerprint": fingerprint,
            "events": len(events),
            "last_event": max((e.date for e in events), default=None),
        }
        if kept is None:
            kept = KeptLadder.objects.create(series=series, **facts)
        else:
            for name, value in facts.items():
                setattr(kept, name, value)
            kept.save(update_fields=[*facts, "computed_at"])
    return kept


LINE_FIELDS = ("position", "player_id", "total", "best", "wins", "events", "counted", "struck")


def kept_ladder_difference(series: Series) -> str | None:
    """Compare the series' kept lines with a recompute; return the first line that differs
    (None when they agree, or when the kept ladder is stale: its next read recomputes it)."""
    kept = KeptLadder.objects.filter(series=series).first()
    if kept is None or kept.fingerprint != ladder_fingerprint(series):
        return None
    fields = (*LINE_FIELDS, "qualified")
    stored = list(
        KeptLadderLine.objects.filter(series=series).order_by("position").values_list(*fields)
    )
    lines, events = computed_lines(series)
    computed = [tuple(getattr(line, f) for f in fields) for line in lines]
    if (kept.events, kept.last_event) != (
        len(events),
        max((e.date for e in events), default=None),
    ):
        return "its count of events or last event's date differs from a recompute"
    for was, now in zip(stored, computed, strict=False):
        if was != now:
            return f"line {now[0]} (player {now[1]}) differs from a recompute: {was} ≠ {now}"
    if len(stored) != len(computed):
        return f"{len(stored)} lines kept, {len(computed)} computed"
    return None
