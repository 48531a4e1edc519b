"""Reads of the federation (``federation.md`` sections 1 and 2): a series' ladder with each
player's name and club, a federation's players and its log."""

from __future__ import annotations

import datetime
from dataclasses import dataclass
from fractions import Fraction

from ledger.models import Federation, FederationLog, Player, Series
from ledger.services.federation.series import event_key, series_ladder


@dataclass(frozen=True)
class LadderLine:
    """A line of a series' ladder as a page shows it: the player's name and club, his total,
    counted and struck events (tournament names), wins, best result and the qualified line."""

    position: int
    player: Player
    total: Fraction
    counted: tuple[str, ...]
    struck: tuple[str, ...]
    wins: int
    best: Fraction
    events: int
    qualified: bool | None


def ladder_lines(series: Series, as_of: datetime.date | None = None) -> list[LadderLine]:
    """The series' ladder (``services.federation.series_ladder``), every row's player read
    and every event named by its tournament's name."""
    rows = series_ladder(series, as_of)
    players = Player.objects.select_related("home_club").in_bulk(int(r.player) for r in rows)
    names = {
        event_key(tournament_id, imported_id): tournament_name or imported_name
        for tournament_id, imported_id, tournament_name, imported_name in series.events.values_list(
            "tournament_id", "imported_id", "tournament__name", "imported__name"
        )
    }
    return [
        LadderLine(
            position=r.position,
            player=players[int(r.player)],
            total=r.total,
            counted=tuple(names[e] for e in r.counted),
            struck=tuple(names[e] for e in r.struck),
            wins=r.wins,
            best=r.best,
            events=r.events,
            qualified=r.qualified,
        )
        for r in rows
    ]


def club_series(club) -> list[Series]:
    """The series a club's tournaments may belong to: its own cups and its federations'."""
    return list(Series.objects.filter(club=club) | Series.objects.filter(federation__clubs=club))


def federation_players(federation: Federation):
    """The players of the federation's clubs and those holding its licences, by name."""
    return (
        (
            Player.objects.filter(memberships__club__federations=federation)
            | Player.objects.filter(federation=federation)
        )
        .distinct()
        .order_by("name", "pk")
    )


def federation_log(federation: Federation):
    """The federation's log, newest first."""
    return FederationLog.objects.filter(federation=federation).order_by("-pk")
