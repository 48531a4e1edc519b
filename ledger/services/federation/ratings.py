"""Rating lists (``federation.md`` section 3): a federation's multiplayer Elo of its game.

A list's rated tables, changes and ratings are derived data, never money: the list is a pure
function of its rated tables in the spec's order (by date, tournament before club evening,
round number, table number), so ``rating_list_recompute`` may delete and rebuild any part of
it. It keeps what lies before the first table a change touches and re-rates from there with
the engine (``federation.engine.rating``), in bulk writes. The tournament services (final,
corrected, reopened), the treasury's evening close and reopen and the results import call
``ratings_follow_*`` inside their own transaction.
"""

from __future__ import annotations

import datetime
import math
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from fractions import Fraction

from django.db import connection, transaction
from django.utils.translation import gettext_lazy as _

from ledger.federation.engine import rating as engine
from ledger.models import (
    Account,
    Entry,
    Evening,
    Federation,
    FederationLog,
    ImportedEvent,
    ImportedPlacing,
    PlayerRating,
    RatedTable,
    RatingChange,
    RatingList,
    RoundTable,
    Seat,
    Table,
    Tournament,
    text_limit,
)
from ledger.services.errors import LedgerError
from ledger.services.ledger import writing

MAX_NAME = text_limit(RatingList, "name")
PARAMS = ("initial", "scale", "k", "k_new", "new_tables")
BATCH = 2000

# The order's second key: a tournament's (or an imported event's) tables before a club
# evening's on the same date.
TOURNAMENT, EVENING = 0, 1


@dataclass(frozen=True)
class Source:
    """A table to rate, read from the ledger: its place in the order, its id, date and label,
    what it points at, and each seated player's score (player id -> score) in seat order."""

    order: tuple
    key: str
    date: datetime.date
    label: str
    scores: Mapping[int, Fraction]
    round_table_id: int | None = None
    table_id: int | None = None
    imported_id: int | None = None


def params_of(rating_list: RatingList) -> engine.RatingParams:
    """The list's parameters for the engine (the spec's defaults for those not given)."""
    return engine.RatingParams(**rating_list.params)


def check_params(params) -> dict:
    """Return the parameters as stored (only those given, as numbers); refuse an unknown key,
    a value that is not a finite number, a scale not above 0, a negative K or a negative or
    fractional ``new_tables``, naming ``params.<key>``."""
    if params is None:
        return {}
    if not isinstance(params, dict):
        raise LedgerError(_("the parameters are a set of named numbers"), "params")
    out: dict = {}
    for key, value in params.items():
        field = f"params.{key}"
        if key not in PARAMS:
            raise LedgerError(
                _("{key} is not a rating parameter (they are: {known})"),
                "params",
                key=key,
                known=", ".join(PARAMS),
            )
        if value is None or value == "":
            continue
        try:
            number = float(value)
        except (TypeError, ValueError):
            raise LedgerError(_("{key} must be a number"), field, key=key) from None
        if isinstance(value, bool) or not math.isfinite(number):
            raise LedgerError(_("{key} must be a number"), field, key=key)
        if key == "scale" and number <= 0:
            raise LedgerError(_("the scale must be above 0"), field)
        if key in ("k", "k_new") and number < 0:
            raise LedgerError(_("K must not be negative"), field)
        if key == "new_tables":
            if number < 0 or number != int(number) or number > 10_000:
                raise LedgerError(_("the number of new tables is a whole number from 0"), field)
            out[key] = int(number)
        else:
            out[key] = number
    return out


def rating_list_create(
    *,
    federation: Federation,
    name: str,
    params: dict | None = None,
    club_evenings: bool = False,
    by=None,
) -> RatingList:
    """Create a rating list of the federation's game (its parameters checked, each refusal
    naming ``params.<key>``), rate it from the final tournaments, logged."""
    name = (name or "").strip()
    if not name or len(name) > MAX_NAME:
        raise LedgerError(
            _("a rating list's name has 1 to {limit} characters"), "name", limit=MAX_NAME
        )
    stored = check_params(params)
    with writing():
        rating_list = RatingList.objects.create(
            federation=federation,
            game=federation.game,
            name=name,
            params=stored,
            club_evenings=bool(club_evenings),
            created_by=by,
        )
        FederationLog.objects.create(
            federation=federation,
            action="rating_list",
            details={"list": rating_list.pk, "name": name, "params": stored},
            by=by,
        )
        _recompute(rating_list, None)
    return rating_list


def rating_list_recompute(*, rating_list: RatingList, from_date=None) -> int:
    """Re-rate the list from its first table dated ``from_date`` or later (None: all of it);
    the tables before stay. Return how many tables were rated anew."""
    with writing():
        rating_list = RatingList.objects.select_for_update().get(pk=rating_list.pk)
        return _recompute(rating_list, from_date)


# -- what the list rates ---------------------------------------------------------------------


def _score(value) -> Fraction:
    """A table score, exact (an integer as an int: the engine compares many of them)."""
    if type(value) is int:
        return value  # type: ignore[return-value]
    score = Fraction(str(value))
    return score.numerator if score.denominator == 1 else score  # type: ignore[return-value]


def collect(rating_list: RatingList, from_date=None) -> list[Source]:
    """The list's rated tables dated ``from_date`` or later (None: all), in the spec's order."""
    federation = rating_list.federation
    clubs = list(federation.clubs.values_list("pk", flat=True))
    sources = [
        *_tournament_tables(rating_list.game, clubs, from_date),
        *_imported_tables(federation, rating_list.game, from_date),
    ]
    if rating_list.club_evenings:
        sources.extend(_evening_tables(rating_list.game, clubs, from_date))
    sources.sort(key=lambda s: s.order)
    return sources


def _tournament_tables(game: str, clubs, from_date) -> Iterable[Source]:
    found = RoundTable.objects.filter(
        round__tournament__club__in=clubs,
        round__tournament__game=game,
        round__tournament__status=Tournament.Status.FINAL,
    )
    if from_date is not None:
        found = found.filter(round__day__gte=from_date)
    values = found.values_list(
        "pk",
        "number",
        "seats",
        "results",
        "round__number",
        "round__day",
        "round__tournament_id",
        "round__tournament__name",
    )
    rows: list[tuple] = list(values)
    tournaments = {r[6] for r in rows}
    players = dict(
        ((t, code), p)
        for t, code, p in Entry.objects.filter(tournament_id__in=tournaments).values_list(
            "tournament_id", "code", "player_id"
        )
    )
    for pk, number, seats, results, round_number, day, tournament_id, name in rows:
        scores = {}
        for code in seats:
            player = players.get((tournament_id, code))
            result = results.get(code)
            if player is not None and result is not None and player not in scores:
                scores[player] = _score(result["score"])
        if len(scores) < 2:
            continue
        yield Source(
            (day, TOURNAMENT, round_number, number, 0, tournament_id),
            f"t{pk}",
            day,
            f"{name} · R{round_number} T{number}",
            scores,
            round_table_id=pk,
        )


def _imported_tables(federation: Federation, game: str, from_date) -> Iterable[Source]:
    found = ImportedEvent.objects.filter(federation=federation, game=game)
    if from_date is not None:
        found = found.filter(date__gte=from_date)
    events: list[tuple] = list(found.values_list("pk", "date", "name", "document"))
    players = {
        (e, code): p
        for e, code, p in ImportedPlacing.objects.filter(
            event_id__in=[e[0] for e in events]
        ).values_list("event_id", "code", "player_id")
    }
    for pk, date, name, document in events:
        for round_ in document.get("rounds", ()):
            for table in round_.get("tables", ()):
                scores = {}
                for seat in table.get("seats", ()):
                    player = players.get((pk, seat["player"]))
                    if player is not None and player not in scores:
                        scores[player] = _score(seat["score"])
                if len(scores) < 2:
                    continue
                yield Source(
                    (date, TOURNAMENT, round_["number"], table["number"], 1, pk),
                    f"i{pk}.{round_['number']}.{table['number']}",
                    date,
                    f"{name} · R{round_['number']} T{table['number']}",
                    scores,
                    imported_id=pk,
                )


def _evening_tables(game: str, clubs, from_date) -> Iterable[Source]:
    tables = Table.objects.filter(
        evening__club__in=clubs,
        evening__kind=Evening.Kind.CLUB,
        evening__status=Evening.Status.CLOSED,
        game=game,
        status=Table.Status.CLOSED,
    )
    if from_date is not None:
        tables = tables.filter(evening__date__gte=from_date)
    rows = list(
        tables.values_list("pk", "number", "evening_id", "evening__date", "evening__club__name")
    )
    ids = [r[0] for r in rows]
    balances = {
        (t, m): b or 0
        for t, m, b in Account.objects.filter(
            table_id__in=ids, kind=Account.Kind.MEMBER
        ).values_list("table_id", "member_id", "summary__balance")
    }
    seats: dict[int, list[tuple[int, int]]] = {}
    for table_id, member_id, player_id in (
        Seat.objects.filter(table_id__in=ids)
        .order_by("table_id", "position")
        .values_list("table_id", "member_id", "member__player_id")
    ):
        if player_id is not None:
            seats.setdefault(table_id, []).append((member_id, player_id))
    for pk, number, evening_id, date, club in rows:
        scores = {}
        for member_id, player_id in seats.get(pk, ()):
            if player_id not in scores:
                scores[player_id] = _score(balances.get((pk, member_id), 0))
        if len(scores) < 2:
            continue
        yield Source(
            (date, EVENING, 0, number, 0, evening_id),
            f"e{pk}",
            date,
            f"{club} · T{number}",
            scores,
            table_id=pk,
        )


# -- rating ------------------------------------------------------------------------------------


def _start(rating_list: RatingList, keep: int) -> dict[str, engine.Standing]:
    """Each player's standing after the list's first ``keep`` stored tables."""
    start: dict[str, engine.Standing] = {}
    changes = (
        RatingChange.objects.filter(
            rated_table__rating_list=rating_list, rated_table__position__lt=keep
        )
        .order_by("rated_table__position", "seat")
        .values_list("player_id", "after")
    )
    for player, after in changes.iterator(chunk_size=BATCH):
        key = str(player)
        tables = start[key].tables + 1 if key in start else 1
        start[key] = engine.Standing(after, tables)
    return start


def rate(rating_list: RatingList, sources: list[Source], start) -> engine.RatingList:
    """Rate ``sources`` in order from ``start`` with the list's parameters."""
    tables = (engine.RatedTable(s.key, {str(p): v for p, v in s.scores.items()}) for s in sources)
    return engine.rate_tables(tables, params_of(rating_list), start)


def _insert(model, columns: tuple[str, ...], rows) -> None:
    """Insert plain rows in batches (derived rows by the ten thousand: a model instance each
    would cost more than the rating itself)."""
    table = connection.ops.quote_name(model._meta.db_table)
    names = ", ".join(connection.ops.quote_name(c) for c in columns)
    sql = f"INSERT INTO {table} ({names}) VALUES ({', '.join(['%s'] * len(columns))})"  # noqa: S608
    batch: list = []
    with connection.cursor() as cursor:
        for row in rows:
            batch.append(row)
            if len(batch) == BATCH:
                cursor.executemany(sql, batch)
                batch = []
        if batch:
            cursor.executemany(sql, batch)


def _recompute(rating_list: RatingList, from_date) -> int:
    """Rebuild the list from its first table dated ``from_date`` (None: from the start), in
    the caller's transaction."""
    stored = RatedTable.objects.filter(rating_list=rating_list)
    keep = 0 if from_date is None else stored.filter(date__lt=from_date).count()
    RatingChange.objects.filter(
        rated_table__rating_list=rating_list, rated_table__position__gte=keep
    ).delete()
    stored.filter(position__gte=keep)._raw_delete(stored.db)
    sources = collect(rating_list, from_date)
    start = _start(rating_list, keep)
    result = rate(rating_list, sources, start)
    _insert(
        RatedTable,
        (
            "rating_list_id",
            "position",
            "date",
            "key",
            "round_table_id",
            "table_id",
            "imported_id",
            "label",
        ),
        (
            (
                rating_list.pk,
                keep + i,
                s.date,
                s.key,
                s.round_table_id,
                s.table_id,
                s.imported_id,
                s.label[:200],
            )
            for i, s in enumerate(sources)
        ),
    )
    pks = dict(stored.filter(position__gte=keep).values_list("position", "pk"))
    _insert(
        RatingChange,
        (
            "rated_table_id",
            "player_id",
            "seat",
            "score",
            "before",
            "expected",
            "actual",
            "k",
            "delta",
            "after",
        ),
        (
            (
                pks[keep + i],
                int(seat.player),
                n,
                str(source.scores[int(seat.player)]),
                seat.before,
                seat.expected,
                seat.actual,
                seat.k,
                seat.delta,
                seat.after,
            )
            for i, (source, table) in enumerate(zip(sources, result.tables, strict=True))
            for n, seat in enumerate(table.seats, start=1)
        ),
    )
    PlayerRating.objects.filter(rating_list=rating_list).delete()
    _insert(
        PlayerRating,
        ("rating_list_id", "player_id", "rating", "tables"),
        ((rating_list.pk, int(p), s.rating, s.tables) for p, s in result.players.items()),
    )
    return len(sources)


# -- the hooks -------------------------------------------------------------------------------


def _follow(lists, from_date) -> None:
    if not transaction.get_connection().in_atomic_block:
        raise RuntimeError("the ratings follow inside the service's transaction")
    pks = set(lists.values_list("pk", flat=True))  # a join: no FOR UPDATE with DISTINCT
    if not pks:
        return
    for rating_list in RatingList.objects.filter(pk__in=pks).select_for_update().order_by("pk"):
        _recompute(rating_list, from_date)


def ratings_follow_tournament(tournament: Tournament) -> None:
    """Re-rate the lists of the federations of the tournament's club and game from its date
    (it became final, was corrected or reopened)."""
    _follow(
        RatingList.objects.filter(federation__clubs=tournament.club_id, game=tournament.game),
        tournament.date,
    )


def ratings_follow_evening(evening: Evening) -> None:
    """Re-rate the lists with club evenings of the evening's club and game from its date."""
    if evening.kind != Evening.Kind.CLUB:
        return
    _follow(
        RatingList.objects.filter(
            federation__clubs=evening.club_id, game=evening.game, club_evenings=True
        ),
        evening.date,
    )


def ratings_follow_import(event: ImportedEvent, from_date: datetime.date) -> None:
    """Re-rate the federation's lists of the event's game from ``from_date`` (the earlier of
    the event's old and new dates)."""
    _follow(
        RatingList.objects.filter(federation_id=event.federation_id, game=event.game),
        from_date,
    )


# -- the check --------------------------------------------------------------------------------


def rating_list_difference(rating_list: RatingList) -> str | None:
    """Compare the stored list with its recomputation; return the first differing table (or
    None when they agree)."""
    sources = collect(rating_list)
    result = rate(rating_list, sources, {})
    stored = list(
        RatedTable.objects.filter(rating_list=rating_list)
        .order_by("position")
        .values_list("pk", "position", "key", "label")
    )
    changes: dict[int, list[tuple]] = {}
    for row in (
        RatingChange.objects.filter(rated_table__rating_list=rating_list)
        .order_by("rated_table_id", "seat")
        .values_list(
            "rated_table_id",
            "player_id",
            "score",
            "before",
            "expected",
            "actual",
            "k",
            "delta",
            "after",
        )
        .iterator(chunk_size=BATCH)
    ):
        changes.setdefault(row[0], []).append(row[1:])
    for i, (source, table) in enumerate(zip(sources, result.tables, strict=False)):
        if i >= len(stored):
            return f"table {source.label} ({source.key}) is not stored"
        pk, position, key, label = stored[i]
        if position != i or key != source.key:
            return (
                f"table {i + 1}: stored {label} ({key}), recomputed {source.label} ({source.key})"
            )
        expected = [
            (
                int(s.player),
                str(source.scores[int(s.player)]),
                s.before,
                s.expected,
                s.actual,
                s.k,
                s.delta,
                s.after,
            )
            for s in table.seats
        ]
        if changes.get(pk, []) != expected:
            return f"table {i + 1}: {label} ({key}): its rating changes differ"
    if len(stored) > len(sources):
        pk, position, key, label = stored[len(sources)]
        return f"table {position + 1}: {label} ({key}) is stored but not rated"
    ratings = {
        str(p): (r, t)
        for p, r, t in PlayerRating.objects.filter(rating_list=rating_list).values_list(
            "player_id", "rating", "tables"
        )
    }
    if ratings != {p: (s.rating, s.tables) for p, s in result.players.items()}:
        return "the players' current ratings differ"
    return None


# -- seeding by rating -------------------------------------------------------------------------


def ratings_as_of(rating_list: RatingList, date: datetime.date) -> dict[int, float]:
    """Each player's rating on the list from its tables dated before ``date``: {player id:
    rating} (a player without such a table is unrated)."""
    ratings: dict[int, float] = {}
    for player, after in (
        RatingChange.objects.filter(
            rated_table__rating_list=rating_list, rated_table__date__lt=date
        )
        .order_by("rated_table__position")
        .values_list("player_id", "after")
        .iterator(chunk_size=BATCH)
    ):
        ratings[player] = after
    return ratings


def rating_ranks_for(tournament: Tournament) -> tuple[dict[int, int], list[str]]:
    """Each entry's ladder rank from the tournament's rating list as of the day before its
    date: the rated entries by rating, highest first (equal ratings by name), then the unrated
    by name: ({entry id: rank}, the unrated entries' codes)."""
    rating_list = tournament.rating_list
    if rating_list is None:
        return {}, []
    ratings = ratings_as_of(rating_list, tournament.date)
    entries = list(tournament.entries.values_list("pk", "player_id", "name", "code"))
    rated = sorted(
        (e for e in entries if e[1] in ratings), key=lambda e: (-ratings[e[1]], e[2], e[0])
    )
    unrated = sorted((e for e in entries if e[1] not in ratings), key=lambda e: (e[2], e[0]))
    ranks = {e[0]: i for i, e in enumerate([*rated, *unrated], start=1)}
    return ranks, [e[3] for e in unrated]


def rated_entries(tournament: Tournament) -> dict[int, float]:
    """{entry id: rating} of the entries rated on the tournament's list before its date."""
    if tournament.rating_list is None:
        return {}
    ratings = ratings_as_of(tournament.rating_list, tournament.date)
    return {
        pk: ratings[player]
        for pk, player in tournament.entries.values_list("pk", "player_id")
        if player in ratings
    }


def tournament_rating_set(*, tournament: Tournament, rating_list: RatingList | None, by=None):
    """Seed the tournament from a rating list instead of a ladder series (None: neither); a
    list of another game or of no federation of the tournament's club is refused. Logged."""
    from ledger.services.tournaments.common import lock_tournament, log_act

    with writing():
        tournament = lock_tournament(tournament)
        if rating_list is not None and (
            rating_list.game != tournament.game
            or not rating_list.federation.clubs.filter(pk=tournament.club_id).exists()
        ):
            raise LedgerError(
                _("{name} is not a rating list of this tournament's game and club"),
                "rating_list",
                name=rating_list.name,
            )
        tournament.rating_list = rating_list
        if rating_list is not None:
            tournament.ladder = None
        log_act(tournament, "rating_list", by, rating_list=getattr(rating_list, "pk", None))
        tournament.save(update_fields=["rating_list", "ladder", "log"])
    return tournament
