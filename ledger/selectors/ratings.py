"""Reads of the rating lists (``federation.md`` section 3) and of a player's own page: his
ratings with each rated table explained, his memberships, tournament results and imported
placings. The lists are derived data (``services.federation.ratings`` rebuilds them)."""

from __future__ import annotations

import datetime
from dataclasses import dataclass, field
from fractions import Fraction

from django.utils.translation import gettext

from ledger.models import (
    Entry,
    ImportedPlacing,
    Member,
    Player,
    PlayerRating,
    RatingChange,
    RatingList,
    Tournament,
)
from ledger.selectors.tournaments import standings_lines
from ledger.tournaments import engine


@dataclass(frozen=True)
class RatedLine:
    """One rated table of a player's, as his page shows it (read as plain values: a player
    may have thousands)."""

    player_id: int
    date: datetime.date
    label: str
    before: float
    expected: float
    actual: float
    k: float
    delta: float
    after: float


@dataclass
class PlayerList:
    """A player's rating on one list: now (``rating`` None when he has no rated table), and
    every rated table of his, oldest first."""

    rating_list: RatingList
    rating: float | None
    tables: int
    changes: list[RatedLine] = field(default_factory=list)

    @property
    def history(self) -> list[tuple[datetime.date, float]]:
        """(date, rating after) per rated table, for the chart."""
        return [(c.date, c.after) for c in self.changes]


def player_ratings(player: Player) -> list[PlayerList]:
    """The player's rating on each list of his federations' (those where he has a rated
    table), with each rated table, in two queries."""
    changes: dict[int, list[RatedLine]] = {}
    for row in (
        RatingChange.objects.filter(player=player)
        .order_by("rated_table__rating_list_id", "rated_table__position")
        .values_list(
            "rated_table__rating_list_id",
            "player_id",
            "rated_table__date",
            "rated_table__label",
            "before",
            "expected",
            "actual",
            "k",
            "delta",
            "after",
        )
    ):
        changes.setdefault(row[0], []).append(RatedLine(*row[1:]))
    current = {
        r.rating_list_id: r
        for r in PlayerRating.objects.filter(player=player, rating_list__in=changes).select_related(
            "rating_list"
        )
    }
    lists = {pk: r.rating_list for pk, r in current.items()}
    if len(lists) < len(changes):  # a list being rebuilt: its changes before its ratings
        lists.update(RatingList.objects.in_bulk([pk for pk in changes if pk not in lists]))
    return [
        PlayerList(
            lists[pk],
            current[pk].rating if pk in current else None,
            current[pk].tables if pk in current else 0,
            changes[pk],
        )
        for pk in sorted(lists, key=lambda pk: (lists[pk].name, pk))
    ]


def list_ratings(rating_list: RatingList) -> list[dict]:
    """The list's current ratings, highest first (equal ones by name): {rank, player (his
    name), rating, tables}."""
    rows = (
        PlayerRating.objects.filter(rating_list=rating_list)
        .order_by("-rating", "player__name", "player_id")
        .values_list("player__name", "rating", "tables")
    )
    return [
        {"rank": i, "player": name, "rating": rating, "tables": tables}
        for i, (name, rating, tables) in enumerate(rows, start=1)
    ]


def federation_lists(federation) -> list[RatingList]:
    """The federation's rating lists."""
    return list(RatingList.objects.filter(federation=federation).order_by("name", "pk"))


@dataclass
class ResultLine:
    date: datetime.date
    name: str
    club: str
    rank: int | None
    points: str


@dataclass
class PlayerPage:
    """A user's player: his record, memberships, results and ratings."""

    player: Player
    memberships: list[Member]
    results: list[ResultLine]
    ratings: list[PlayerList]


def user_players(user) -> list[PlayerPage]:
    """Every player the user's memberships link to (several while his records in several
    clubs are not yet merged), each with his clubs, final tournament results (date,
    tournament, club, rank, points), imported placings and ratings."""
    players = list(
        Player.objects.filter(memberships__user=user)
        .distinct()
        .select_related("federation", "home_club")
        .order_by("name", "pk")
    )
    pages = []
    for player in players:
        memberships = list(
            Member.objects.filter(player=player).select_related("club").order_by("club__name")
        )
        results = []
        for entry in (
            Entry.objects.filter(player=player, tournament__status=Tournament.Status.FINAL)
            .select_related("tournament__club")
            .order_by("-tournament__date", "-tournament_id")
        ):
            tournament = entry.tournament
            line = next((x for x in standings_lines(tournament) if x.code == entry.code), None)
            results.append(
                ResultLine(
                    tournament.date,
                    tournament.name,
                    tournament.club.name,
                    line.rank if line else None,
                    line.points if line else "",
                )
            )
        for placing in (
            ImportedPlacing.objects.filter(player=player)
            .select_related("event")
            .defer("event__document", "event__log")
        ):
            results.append(
                ResultLine(
                    placing.event.date,
                    placing.event.name,
                    placing.event.source,
                    placing.rank,
                    engine.points_decimal(Fraction(placing.points)),
                )
            )
        results.sort(key=lambda r: r.date, reverse=True)
        pages.append(PlayerPage(player, memberships, results, player_ratings(player)))
    return pages


def tournament_rating_lists(tournament: Tournament) -> list[RatingList]:
    """The rating lists that may seed the tournament: of its game, of a federation its club
    belongs to."""
    return list(
        RatingList.objects.filter(federation__clubs=tournament.club_id, game=tournament.game)
        .distinct()
        .order_by("name", "pk")
    )


def rank_sources(tournament: Tournament) -> dict[str, str]:
    """Where each entry's ladder rank came from, by entry code, read from the tournament's
    log: the rating list (or "unrated", ranked after the rated), the ladder series, or the
    director's override; an entry not named has the rank it was entered with."""
    sources: dict[str, str] = {}
    codes = None
    for act in tournament.log:
        if act.get("action") == "ladder":
            if codes is None:
                codes = list(tournament.entries.values_list("code", flat=True))
            unrated = set(act.get("unrated", ()))
            if "rating_list" in act:
                sources = {
                    c: gettext("unrated") if c in unrated else gettext("rating") for c in codes
                }
            else:
                sources = dict.fromkeys(codes, gettext("ladder"))
        elif act.get("action") == "ladder_rank" and act.get("entry"):
            sources[act["entry"]] = gettext("override")
    return sources
