"""Series and the ladder (``federation.md`` section 2): a series created with its rule as the
engine reads it, its ladder from its events' final rankings, and the ladder ranks a
tournament that names the series as its ladder takes, as of the day before."""

from __future__ import annotations

import datetime
from fractions import Fraction

from django.utils.translation import gettext_lazy as _

from ledger.federation.engine import series as engine
from ledger.federation.engine.errors import FederationError
from ledger.federation.engine.example import read_factor, read_rule
from ledger.models import (
    Club,
    Entry,
    Federation,
    FederationLog,
    ImportedEvent,
    ImportedPlacing,
    Member,
    Player,
    Series,
    SeriesEvent,
    Tournament,
    text_limit,
)
from ledger.services.errors import LedgerError, with_path
from ledger.services.ledger import writing
from ledger.services.tournaments.common import lock_tournament, log_act
from ledger.services.tournaments.state import current_standings

MAX_NAME = text_limit(Series, "name")
MAX_SEED = text_limit(Series, "seed")


def engine_refused(error: FederationError) -> LedgerError:
    """The engine's problems, each on its field and led by it (``rule.best_of: ...``)."""
    return LedgerError(problems=[with_path(p, p.field) for p in error.problems])


def rule_of(series: Series) -> engine.SeriesRule:
    """The series' stored rule, read by the engine."""
    return read_rule(series.rule)


def checked_series(
    name: str, seed: str, starts_on: datetime.date, ends_on: datetime.date, rule: dict
) -> tuple[str, str]:
    """Check a series' fields as ``series_create`` and ``series_change`` take them: its name
    and seed (stripped, returned), its dates in order, its rule as the engine reads it
    (``best_of`` with ``strike_worst`` refused under ``rule.strike_worst``)."""
    name, seed = (name or "").strip(), (seed or "").strip()
    if not name or len(name) > MAX_NAME:
        raise LedgerError(_("a series' name has 1 to {limit} characters"), "name", limit=MAX_NAME)
    if not seed or len(seed) > MAX_SEED:
        raise LedgerError(_("a series' seed has 1 to {limit} characters"), "seed", limit=MAX_SEED)
    if not (starts_on and ends_on) or ends_on < starts_on:
        raise LedgerError(_("the last date is on or after the first"), "ends_on")
    try:
        read_rule(rule)
    except FederationError as error:
        raise engine_refused(error) from error
    return name, seed


def checked_factor(factor, field: str = "factor") -> Fraction:
    """An event's factor, a positive exact rational such as ``3/2``, refused on ``field``."""
    try:
        return read_factor(factor, field)
    except FederationError as error:
        raise engine_refused(error) from error


def series_create(
    *,
    name: str,
    seed: str,
    starts_on: datetime.date,
    ends_on: datetime.date,
    rule: dict,
    events=(),
    federation: Federation | None = None,
    club: Club | None = None,
    by=None,
) -> Series:
    """Create a series of a federation (an officer's) or of one club (its own cup): its rule
    read by the engine (``best_of`` with ``strike_worst`` refused under
    ``rule.strike_worst``), its events ``[(tournament, factor), ...]`` of its game (a factor a
    positive exact rational such as ``3/2``) and of its clubs. All or nothing."""
    if (federation is None) == (club is None):
        raise LedgerError(_("a series belongs to a federation or to one club"), "federation")
    owner = federation or club
    game = owner.game  # type: ignore[union-attr]
    name, seed = checked_series(name, seed, starts_on, ends_on, rule)
    events = list(events)
    factors = [
        checked_factor(factor, f"events[{i}].factor") for i, (_t, factor) in enumerate(events)
    ]
    with writing():
        clubs = set(federation.clubs.values_list("pk", flat=True)) if federation else {club.pk}  # type: ignore[union-attr]
        seen: set[int] = set()
        for i, (tournament, _factor) in enumerate(events):
            _check_tournament(tournament, game, clubs, seen, f"events[{i}]")
            seen.add(tournament.pk)
        series = Series.objects.create(
            federation=federation,
            club=club,
            name=name,
            game=game,
            seed=seed,
            starts_on=starts_on,
            ends_on=ends_on,
            rule=rule,
        )
        SeriesEvent.objects.bulk_create(
            SeriesEvent(series=series, tournament=t, factor=str(f))
            for (t, _x), f in zip(events, factors, strict=True)
        )
        FederationLog.objects.create(
            federation=federation,
            action="series",
            details={"series": series.pk, "name": name, "rule": rule},
            by=by,
        )
    return series


def _check_tournament(tournament: Tournament, game: str, clubs, seen, field: str):
    """Refuse a tournament as a series' event: of another game, of none of its clubs, or
    already one of its events (``seen``: their tournaments' ids)."""
    if tournament.game != game:
        raise LedgerError(
            _("{name} is a tournament of another game than the series'"),
            field,
            name=tournament.name,
        )
    if tournament.club_id not in clubs:
        raise LedgerError(
            _("{name} is not a tournament of the series' clubs"), field, name=tournament.name
        )
    if tournament.pk in seen:
        raise LedgerError(_("{name} is an event of the series twice"), field, name=tournament.name)


def series_event_add(
    *,
    series: Series,
    tournament: Tournament | None = None,
    imported: ImportedEvent | None = None,
    factor="1",
    by=None,
) -> SeriesEvent:
    """Add an event to a series: a tournament of its clubs and game, or (a federation's
    series) an event imported into its federation, of its game; each once, with its factor
    (a positive exact rational). Logged in the federation's log (a club's cup: none)."""
    if (tournament is None) == (imported is None):
        raise LedgerError(_("an event is a tournament or an imported event"), "event")
    value = checked_factor(factor)
    with writing():
        series = Series.objects.select_for_update().get(pk=series.pk)
        events = series.events.all()
        if tournament is not None:
            clubs = (
                set(series.federation.clubs.values_list("pk", flat=True))
                if series.federation is not None
                else {series.club_id}
            )
            seen = set(events.exclude(tournament=None).values_list("tournament_id", flat=True))
            _check_tournament(tournament, series.game, clubs, seen, "tournament")
        elif imported is not None:
            if imported.federation_id != series.federation_id or imported.game != series.game:
                raise LedgerError(
                    _("{name} is not an event of the series' federation and game"),
                    "imported",
                    name=imported.name,
                )
            if events.filter(imported=imported).exists():
                raise LedgerError(
                    _("{name} is an event of the series twice"), "imported", name=imported.name
                )
        event = SeriesEvent.objects.create(
            series=series, tournament=tournament, imported=imported, factor=str(value)
        )
        if series.federation is not None:
            FederationLog.objects.create(
                federation=series.federation,
                action="series_event",
                details={
                    "series": series.pk,
                    "tournament": getattr(tournament, "pk", None),
                    "imported": getattr(imported, "pk", None),
                    "factor": str(value),
                },
                by=by,
            )
    return event


def series_values(series: Series) -> dict:
    """What ``series_change`` changes of a series, as logged (dates in ISO form)."""
    return {
        "name": series.name,
        "seed": series.seed,
        "starts_on": series.starts_on.isoformat(),
        "ends_on": series.ends_on.isoformat(),
        "rule": series.rule,
    }


def series_change(
    *,
    series: Series,
    name: str,
    seed: str,
    starts_on: datetime.date,
    ends_on: datetime.date,
    rule: dict,
    by=None,
) -> Series:
    """Change a series' name, seed, dates and rule, checked as ``series_create`` checks them;
    logged (action ``series_change``, each changed field ``[before, after]``) in its
    federation's log, a club's cup in the log of none (as ``series_create``). A change that
    changes nothing (a rule the engine reads as the stored one) writes nothing: the series
    comes back as it was (``series_values`` the same). Its kept ladder, whose fingerprint
    holds the seed and rule, is recomputed at its next read."""
    name, seed = checked_series(name, seed, starts_on, ends_on, rule)
    with writing():
        series = Series.objects.select_for_update().get(pk=series.pk)
        before = series_values(series)
        if rule_of(series) == read_rule(rule):  # the same rule written otherwise (8 or "8")
            rule = series.rule
        series.name, series.seed, series.rule = name, seed, rule
        series.starts_on, series.ends_on = starts_on, ends_on
        after = series_values(series)
        changes = {k: [before[k], after[k]] for k in before if before[k] != after[k]}
        if not changes:
            return series
        series.save(update_fields=["name", "seed", "starts_on", "ends_on", "rule"])
        FederationLog.objects.create(
            federation=series.federation,
            action="series_change",
            details={"series": series.pk, "name": name, "changes": changes},
            by=by,
        )
    return series


def _locked_event(event: SeriesEvent) -> tuple[Series, SeriesEvent]:
    """The event's series locked (as ``series_event_add`` locks it) and the event read
    afresh; an event removed meanwhile is refused."""
    series = Series.objects.select_for_update().get(pk=event.series_id)
    fresh = series.events.select_related("tournament", "imported").filter(pk=event.pk).first()
    if fresh is None:
        raise LedgerError(_("the event is no longer one of the series'"), "event")
    return series, fresh


def event_name(event: SeriesEvent) -> str:
    """A series event's name: its tournament's, or its imported event's."""
    return event.tournament.name if event.tournament is not None else event.imported.name  # type: ignore[union-attr]


def series_event_factor_set(*, event: SeriesEvent, factor, by=None) -> SeriesEvent:
    """Set a series event's factor (a positive exact rational, refused on ``factor``, as
    ``series_event_add`` checks it); logged (``series_factor``, the factor before and after)
    as ``series_change``. The same factor writes nothing."""
    value = checked_factor(factor)
    with writing():
        series, event = _locked_event(event)
        before = event.factor
        if read_factor(before) == value:
            return event
        event.factor = str(value)
        event.save(update_fields=["factor"])
        FederationLog.objects.create(
            federation=series.federation,
            action="series_factor",
            details={
                "series": series.pk,
                "name": series.name,
                "event": event_name(event),
                "factor": [before, event.factor],
            },
            by=by,
        )
    return event


def series_event_remove(*, event: SeriesEvent, by=None) -> None:
    """Remove an event from its series (the tournament or imported event itself stays):
    its points leave the ladder at its next read. Logged (``series_event_remove``, the event
    and its factor) as ``series_change``."""
    with writing():
        series, event = _locked_event(event)
        details = {
            "series": series.pk,
            "name": series.name,
            "event": event_name(event),
            "tournament": event.tournament_id,
            "imported": event.imported_id,
            "factor": event.factor,
        }
        event.delete()
        FederationLog.objects.create(
            federation=series.federation, action="series_event_remove", details=details, by=by
        )


def event_key(tournament_id: int | None, imported_id: int | None) -> str:
    """The engine's id of a series event: its tournament's id, or ``i`` and the imported
    event's id."""
    return str(tournament_id) if tournament_id is not None else f"i{imported_id}"


def event_of(event: SeriesEvent, placings: list[tuple] | None = None) -> engine.Event | None:
    """A final tournament (or an imported event) of the series as the engine's event: each
    player (his id) at his final rank, with his points; None while the tournament is not
    final. ``placings``: the imported event's ``(rank, player_id, points)`` in rank order,
    when the caller has read them."""
    if event.imported is not None:
        imported = event.imported
        if placings is None:
            placings = list(
                imported.placings.order_by("rank").values_list("rank", "player_id", "points")
            )
        ranking = tuple(
            engine.Placing(rank, str(player_id), Fraction(points))
            for rank, player_id, points in placings
        )
        return engine.Event(
            event_key(None, imported.pk), imported.date, ranking, read_factor(event.factor)
        )
    tournament = event.tournament
    if tournament is None or tournament.status != Tournament.Status.FINAL:
        return None
    players = dict(tournament.entries.values_list("code", "player_id"))
    ranking = tuple(
        engine.Placing(row.rank, str(players[row.id]), row.points)
        for row in current_standings(tournament)
    )
    return engine.Event(str(tournament.pk), tournament.date, ranking, read_factor(event.factor))


def series_events(series: Series) -> list[engine.Event]:
    """The series' final events, as the engine reads them."""
    rows = list(
        series.events.select_related("tournament", "imported").defer(
            "imported__document", "imported__log"
        )
    )
    # The imported events' placings in one read, not one per event (a single event reads its
    # own in event_of, as before).
    imported = [row.imported_id for row in rows if row.imported_id is not None]
    placings: dict[int, list[tuple]] = {pk: [] for pk in imported}
    if len(imported) > 1:
        for event_id, *placing in (
            ImportedPlacing.objects.filter(event_id__in=imported)
            .order_by("event_id", "rank")
            .values_list("event_id", "rank", "player_id", "points")
        ):
            placings[event_id].append(tuple(placing))
    read = len(imported) > 1
    events = (event_of(row, placings.get(row.imported_id or 0) if read else None) for row in rows)
    return [e for e in events if e is not None]


def series_ladder(series: Series, as_of: datetime.date | None = None):
    """The series' ladder through the engine (every row's ``player`` a Player's id, events
    by tournament id), over the final events dated before ``as_of`` (all: None)."""
    return engine.series_standings(series.seed, rule_of(series), series_events(series), as_of)


def ladder_ranks_for(tournament: Tournament) -> dict[int, int]:
    """Each entry's ladder rank from the series the tournament names as its ladder, as of the
    day before its date: {entry id: rank}; an entry whose player is not on it has none."""
    series = tournament.ladder
    if series is None:
        return {}
    ranks = engine.ladder_ranks(
        series.seed, rule_of(series), series_events(series), tournament.date
    )
    return {
        entry_id: ranks[str(player_id)]
        for entry_id, player_id in tournament.entries.values_list("pk", "player_id")
        if str(player_id) in ranks
    }


def tournament_ladder_set(*, tournament: Tournament, series: Series | None, by=None) -> Tournament:
    """Name the series whose ladder seeds the tournament (None: none); a series of another
    game, or of neither the tournament's club nor a federation it belongs to, is refused."""
    with writing():
        tournament = lock_tournament(tournament)
        if series is not None:
            ours = series.club_id == tournament.club_id or (
                series.federation is not None
                and series.federation.clubs.filter(pk=tournament.club_id).exists()
            )
            if series.game != tournament.game or not ours:
                raise LedgerError(
                    _("{name} is not a ladder of this tournament's game and club"),
                    "ladder",
                    name=series.name,
                )
        tournament.ladder = series
        if series is not None:  # a ladder series instead of a rating list
            tournament.rating_list = None
        log_act(tournament, "ladder_series", by, series=getattr(series, "pk", None))
        tournament.save(update_fields=["ladder", "rating_list", "log"])
    return tournament


def ladder_ranks_apply(*, tournament: Tournament, by=None) -> dict[int, int]:
    """Give every entry its ladder rank from the tournament's ladder series (none when his
    player is not on it), or from its rating list (the unrated after the rated: section 3);
    logged on the tournament with its source."""
    from ledger.services.federation.ratings import rating_ranks_for  # ratings imports models

    with writing():
        tournament = lock_tournament(tournament)
        if tournament.rating_list_id is not None:
            ranks, unrated = rating_ranks_for(tournament)
            source = {"rating_list": tournament.rating_list_id, "unrated": unrated}
        elif tournament.ladder_id is not None:
            ranks = ladder_ranks_for(tournament)
            source = {"series": tournament.ladder_id}
        else:
            raise LedgerError(_("the tournament names no series as its ladder"), "ladder")
        for entry in tournament.entries.all():
            entry.ladder_rank = ranks.get(entry.pk)
            entry.save(update_fields=["ladder_rank"])
        log_act(tournament, "ladder", by, **source)
        tournament.save(update_fields=["log"])
    return ranks


def ladder_rank_override(*, entry: Entry, rank, reason: str, by=None) -> Entry:
    """Set an entry's ladder rank by hand, with a reason, logged on the tournament."""
    from ledger.services.tournaments.entries import _check_rank  # entries imports this package

    value = _check_rank(rank, "ladder_rank")
    reason = (reason or "").strip()
    if not reason:
        raise LedgerError(_("give the reason for overriding the ladder rank"), "reason")
    with writing():
        tournament = lock_tournament(entry.tournament)
        entry = tournament.entries.get(pk=entry.pk)
        before = entry.ladder_rank
        entry.ladder_rank = value
        entry.save(update_fields=["ladder_rank"])
        log_act(
            tournament,
            "ladder_rank",
            by,
            entry=entry.code,
            before=before,
            after=value,
            reason=reason,
        )
        tournament.save(update_fields=["log"])
    return entry


def entries_from_series(*, tournament: Tournament, series: Series, by=None) -> list[Entry]:
    """Fill a tournament (a Masters, a final) from a qualifying series, before its round 1:
    each qualified player of the series' ladder as of the day before the tournament is
    entered, with his position as his ladder rank (a member of the tournament's club as that
    member, anyone else as a guest with his club), players already entered skipped; the
    series becomes the tournament's ladder. Logged on the tournament. Refused: a series
    without ``qualify``, of another game or of neither the club nor its federations, a
    tournament already drawn or over. All or nothing."""
    # entries imports this package (players): its helpers are read here, not at the top.
    from ledger.services.tournaments.common import check_not_over
    from ledger.services.tournaments.entries import _entry_for, guest_member

    if not rule_of(series).qualify:
        raise LedgerError(
            _("{name} names no qualifying places (qualify)"), "series", name=series.name
        )
    with writing():
        tournament = lock_tournament(tournament)
        check_not_over(tournament)
        if series.game != tournament.game or not (
            series.club_id == tournament.club_id
            or (
                series.federation is not None
                and series.federation.clubs.filter(pk=tournament.club_id).exists()
            )
        ):
            raise LedgerError(
                _("{name} is not a ladder of this tournament's game and club"),
                "series",
                name=series.name,
            )
        if tournament.rounds.exists():
            raise LedgerError(
                _("the tournament's round 1 is drawn: enter players one by one"), "series"
            )
        qualified = [r for r in series_ladder(series, tournament.date) if r.qualified]
        players = Player.objects.select_related("home_club").in_bulk(
            int(r.player) for r in qualified
        )
        entered = set(tournament.entries.values_list("player_id", flat=True))
        members = {
            m.player_id: m
            # an active member before an inactive row (a guest's) of the same player
            for m in Member.objects.filter(club=tournament.club, player__in=list(players)).order_by(
                "active", "-pk"
            )
        }
        entries = []
        for row in qualified:
            player = players[int(row.player)]
            if player.pk in entered:
                continue
            member = members.get(player.pk)
            home = player.home_club.name if player.home_club is not None else player.club_name
            if member is None:
                member = guest_member(tournament, player.name, "series", by=by)
                member.player = player
                member.save(update_fields=["player"])
            entries.append(
                _entry_for(
                    tournament,
                    member,
                    code="",
                    club_name=home if not member.active else tournament.club.name,
                    rank=row.position,
                    guest=not member.active,
                    from_round=1,
                )
            )
        tournament.ladder = series
        log_act(
            tournament,
            "entries_series",
            by,
            series=series.pk,
            entered=len(entries),
            skipped=len(qualified) - len(entries),
        )
        tournament.save(update_fields=["ladder", "log"])
    return entries
