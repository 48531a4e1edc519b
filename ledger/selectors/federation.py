"""Reads of the federation (``federation.md`` sections 1 and 2): a series' ladder with each
player's name and club, a federation's players and its log."""

from __future__ import annotations

import datetime
from dataclasses import dataclass
from fractions import Fraction

from django.contrib.auth import get_user_model
from django.db.models import Count, Q
from django.utils.translation import gettext

from ledger.federation.engine import series as engine
from ledger.models import (
    Club,
    Entry,
    Federation,
    FederationLog,
    ImportedEvent,
    ImportedPlacing,
    KeptLadder,
    KeptLadderLine,
    Member,
    Player,
    Series,
    SeriesEvent,
    Tournament,
)
from ledger.services.federation.ladder import ladder_kept, ladders_kept
from ledger.services.federation.series import event_key, rule_of, series_ladder


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
    and every event named by its tournament's name; over all its final events (``as_of``
    None) read from the kept ladder (``services.federation.ladder``), recomputed first when
    what it reads has changed."""
    if as_of is None:
        return _as_lines(kept_lines(series))
    return _lines(series, series_ladder(series, as_of))


def _as_lines(rows) -> list[LadderLine]:
    return [
        LadderLine(
            position=line.position,
            player=line.player,
            total=Fraction(line.total),
            counted=tuple(line.counted),
            struck=tuple(line.struck),
            wins=line.wins,
            best=Fraction(line.best),
            events=line.events,
            qualified=line.qualified,
        )
        for line in rows
    ]


def kept_lines(series: Series):
    """The series' kept ladder's lines in order (kept afresh first when what it reads has
    changed: ``services.federation.ladder``), each with its player and his home club; a
    queryset, so a page of them is read with LIMIT and OFFSET."""
    ladder_kept(series)
    return _kept_rows(series)


def _kept_rows(series: Series):
    return (
        KeptLadderLine.objects.filter(series=series)
        .select_related("player__home_club")
        .order_by("position")
    )


def player_ladder_lines(player: Player, federation: Federation | None = None):
    """The player's lines on the kept ladders of the series that may count him (of his clubs'
    federations and his federation, and his clubs' own cups; only ``federation``'s when
    given), each series' ladder kept afresh first when what it reads has changed, then his
    lines read in one query, each with its series, by the series' name."""
    if federation is not None:
        found = Series.objects.filter(federation=federation)
    else:
        clubs = Member.objects.filter(player=player).values("club_id")
        federations = Federation.objects.filter(clubs__in=clubs).values("pk")
        mine = Q(club__in=clubs) | Q(federation__in=federations)
        if player.federation_id is not None:
            mine |= Q(federation_id=player.federation_id)
        found = Series.objects.filter(mine)
    series = list(found.order_by("pk"))
    ladders_kept(series)
    return list(
        KeptLadderLine.objects.filter(player=player, series__in=[one.pk for one in series])
        .select_related("series")
        .order_by("series__name", "series_id")
    )


def ladder_position(series: Series, q: str) -> int | None:
    """The position of the first line (in ladder order) whose player's name or licence holds
    ``q`` (None: none, or blank)."""
    q = (q or "").strip()
    if not q:
        return None
    return (
        KeptLadderLine.objects.filter(series=series)
        .filter(Q(player__name__icontains=q) | Q(player__licence__iexact=q))
        .order_by("position")
        .values_list("position", flat=True)
        .first()
    )


def _lines(series: Series, rows) -> list[LadderLine]:
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


@dataclass(frozen=True)
class LadderBoard:
    """A series' ladder for the notice board and the public page: its lines, how many final
    events it counts and the date of the last of them (None: no event yet), the rule in
    words."""

    lines: list[LadderLine]
    events: int
    last_event: datetime.date | None
    rule: list[str]


def ladder_board(series: Series, *, lines: bool = True) -> LadderBoard:
    """The series' ladder over all its final events (the kept one), with the facts printed
    around it; ``lines=False``: without its lines, for a page that has just read one page of
    them (``kept_lines``, which kept the ladder)."""
    if not lines:
        kept = KeptLadder.objects.get(series=series)
        return LadderBoard([], kept.events, kept.last_event, rule_text(series))
    kept = ladder_kept(series)
    return LadderBoard(
        _as_lines(_kept_rows(series)), kept.events, kept.last_event, rule_text(series)
    )


def exact_text(value: Fraction) -> str:
    """An exact rational as the commands print it: ``13/2``, or ``7``."""
    return (
        str(value.numerator) if value.denominator == 1 else f"{value.numerator}/{value.denominator}"
    )


def rule_text(series: Series) -> list[str]:
    """The series' rule in words, a sentence each: what an event gives, what counts, who
    qualifies and the order."""
    rule = rule_of(series)
    scale = rule.scale
    if rule.source != engine.PLACEMENT or scale is None:
        sentences = [gettext("Each event gives a player his tournament points.")]
    elif scale.kind == engine.TABLE:
        sentences = [
            gettext("Each event gives points by place: {points}; a later place {beyond}.").format(
                points=" / ".join(exact_text(p) for p in scale.points),
                beyond=exact_text(scale.beyond),
            )
        ]
    elif scale.kind == engine.LINEAR:
        sentences = [
            gettext("Each event gives points by place: the last gets 1, each place above one more.")
        ]
    else:
        sentences = [
            gettext(
                "Each event gives points by place: the winner {base} and one per player, then "
                "fixed gaps down the field, the last at least 1."
            ).format(base=exact_text(scale.base))
        ]
    sentences.append(gettext("An event's factor multiplies its points."))
    if rule.best_of is not None:
        sentences.append(
            gettext("A player's best {n} results count; the others are struck.").format(
                n=rule.best_of
            )
        )
    elif rule.strike_worst is not None:
        sentences.append(
            gettext(
                "Every event counts, a missed one as 0; each player's {k} worst are struck."
            ).format(k=rule.strike_worst)
        )
    else:
        sentences.append(gettext("Every result counts."))
    if rule.qualify:
        sentences.append(gettext("The first {q} qualify (marked).").format(q=rule.qualify))
    sentences.append(
        gettext("Order: total, then wins, then best result, then the lot (seed {seed}).").format(
            seed=series.seed
        )
    )
    return sentences


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
    return FederationLog.objects.filter(federation=federation).select_related("by").order_by("-pk")


# --- the officer's pages (``ledger.views.federation_officer``) ------------------------------


def member_clubs(federation: Federation):
    """The federation's member clubs by name, each with its count of active members."""
    return federation.clubs.annotate(
        member_count=Count("members", filter=Q(members__active=True))
    ).order_by("name")


def joinable_clubs(federation: Federation):
    """The clubs of the federation's game that are not yet among its members."""
    return (
        Club.objects.filter(game=federation.game).exclude(federations=federation).order_by("name")
    )


def search_players(federation: Federation, q: str = ""):
    """The federation's players whose name, licence or club holds ``q`` (all: blank), with
    their home club read."""
    players = federation_players(federation).select_related("home_club")
    q = (q or "").strip()
    if q:
        found = Player.objects.filter(
            Q(name__icontains=q)
            | Q(licence__icontains=q)
            | Q(club_name__icontains=q)
            | Q(home_club__name__icontains=q)
            | Q(memberships__club__name__icontains=q)
        )
        players = players.filter(pk__in=found.values("pk"))
    return players


def federation_player(federation: Federation, pk: int) -> Player | None:
    """The federation's player ``pk`` (his home club read), or None."""
    return search_players(federation).filter(pk=pk).first()


@dataclass(frozen=True)
class PlayerRecord:
    """What the officer sees of a player: his memberships, entries and imported placings."""

    memberships: list[Member]
    entries: list[Entry]
    placings: list[ImportedPlacing]


def player_record(player: Player) -> PlayerRecord:
    """The player's club memberships, tournament entries (newest first) and imported placings."""
    return PlayerRecord(
        memberships=list(player.memberships.select_related("club").order_by("club__name")),
        entries=list(
            player.entries.select_related("tournament", "tournament__club").order_by(
                "-tournament__date", "-pk"
            )
        ),
        placings=list(
            player.placings.select_related("event")
            .defer("event__document", "event__log")
            .order_by("-event__date", "-pk")
        ),
    )


def merge_counts(player: Player) -> dict[str, int]:
    """What a merge of ``player`` into another moves: his memberships, entries and placings."""
    counts = Player.objects.filter(pk=player.pk).aggregate(
        memberships=Count("memberships", distinct=True),
        entries=Count("entries", distinct=True),
        placings=Count("placings", distinct=True),
    )
    return {k: v or 0 for k, v in counts.items()}


def federation_series(federation: Federation):
    """The federation's series, newest first."""
    return Series.objects.filter(federation=federation).annotate(event_count=Count("events"))


def federation_one_series(federation: Federation, pk: int) -> Series | None:
    """The federation's series ``pk``, or None."""
    return Series.objects.filter(federation=federation, pk=pk).select_related("federation").first()


def club_cup(club, pk: int) -> Series | None:
    """The club's own cup ``pk`` (not a federation's series), or None."""
    return Series.objects.filter(club=club, pk=pk).first()


def series_event(series: Series, pk: int) -> SeriesEvent | None:
    """The series' event ``pk`` with its tournament or imported event, or None."""
    return series.events.select_related("tournament", "imported").filter(pk=pk).first()


def series_event_rows(series: Series) -> list[SeriesEvent]:
    """The series' events with their tournaments (and clubs) or imported events."""
    return list(series.events.select_related("tournament", "tournament__club", "imported"))


def final_tournaments(federation: Federation):
    """The final tournaments of the federation's clubs and game, newest first."""
    return (
        Tournament.objects.filter(
            club__federations=federation,
            game=federation.game,
            status=Tournament.Status.FINAL,
        )
        .select_related("club")
        .order_by("-date", "-pk")
    )


def imported_events(federation: Federation):
    """The events imported into the federation, of its game, newest first."""
    return ImportedEvent.objects.filter(federation=federation, game=federation.game)


def officers(federation: Federation):
    """The federation's officers, by username."""
    return federation.officers.order_by("username")


def user_by_pk(pk) -> object | None:
    """The user ``pk`` (None: none, or not a number)."""
    try:
        number = int(pk)
    except (TypeError, ValueError):
        return None
    if not 0 < number < 2**31:
        return None
    return get_user_model().objects.filter(pk=number).first()


def qualifying_series(tournament) -> list[Series]:
    """The series that may fill the tournament's entries: of its club or its federations, of
    its game, with qualifying places (``qualify``), by name."""
    return sorted(
        (
            s
            for s in club_series(tournament.club)
            if s.game == tournament.game and (s.rule or {}).get("qualify")
        ),
        key=lambda s: (s.name, s.pk),
    )


def published_federation(slug: str) -> Federation | None:
    """The federation of short name ``slug`` when it publishes its results, else None."""
    return Federation.objects.filter(slug=slug, publish_results=True).first()


def public_series(federation: Federation) -> list[Series]:
    """A federation's own series as its public pages list them, the latest season first."""
    return list(
        Series.objects.filter(federation=federation)
        .select_related("federation")
        .order_by("-starts_on", "name", "pk")
    )
