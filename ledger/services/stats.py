"""The statistics summary (``AccountStats``): the one module that writes it.

A summary kept for speed, beside the balance summary (``ledger.services.balances``): for each member
account, the hands it played and its game's counts (``hand_counts``) and points received
(``received_points``), as the standings show them. Reading JSON out of every hand posting of a
season on each request is what made the standings slow; the summary is read instead.

``refresh`` re-derives the rows of given tables from their live postings and transfers and
writes them: ``services`` calls it at the end of every transaction that posts to a table (see
``services._writing``), so the rows are never behind the ledger and never edited by hand.
``derive`` is what ``verify_ledger`` compares them with; ``rebuild`` recomputes every table
(after a ``loaddata``, and by ``manage.py rebuild_balances``).

A table's statistics are derived with the same SQL as the season's were (one aggregation over
its live hand postings, one over its transfers of the counted reasons), so there is one
definition of every statistic, in the games' web sides.
"""

from __future__ import annotations

import functools
from collections import defaultdict

from django.db import connection
from django.db.models import (
    Case,
    Count,
    ExpressionWrapper,
    F,
    IntegerField,
    Q,
    Sum,
    TextField,
    Value,
    When,
)
from django.db.models.fields.json import KeyTextTransform, KeyTransform
from django.db.models.functions import NullIf

from ledger.games import GAMES
from ledger.games.web import get_web
from ledger.models import Account, AccountStats, Posting, Table, Transfer

_BATCH = 2000

MAX_SEATS = 5
STAT_KEYS = ("played",)  # every game's; each game adds its own (``stats_columns``)

# A posting counts in statistics when it is neither a reversal nor reversed.
LIVE_POSTING = Q(reversed_by__isnull=True) & ~Q(kind=Posting.Kind.REVERSAL)
LIVE_TRANSFER = Q(posting__reversed_by__isnull=True) & ~Q(posting__kind=Posting.Kind.REVERSAL)


# --- statistics of hands -------------------------------------------------------------------


def _seat(i: int) -> str:
    return f"seat{i}"


def _text(transform: KeyTextTransform) -> NullIf:
    """Return a JSON key's text as a plain text expression, NULL when missing or null.

    Wrapped, it compares like any text column: a bare key transform would compare as JSON
    (SQLite would parse a member's name as JSON). SQLite reads a JSON ``null`` as the text
    'null' where PostgreSQL gives NULL; ``NULLIF`` makes both NULL (a member called "null"
    would be lost with it, a price worth paying for one meaning on both databases).
    """
    return NullIf(
        ExpressionWrapper(transform, output_field=TextField()),
        Value("null", output_field=TextField()),
        output_field=TextField(),
    )


def _record_text(*path) -> NullIf:
    """Return the text at ``path`` in the settled record (a JSON field across a relation)."""
    expression = "revision__record"
    for key in path[:-1]:
        expression = KeyTransform(str(key), expression)
    return _text(KeyTextTransform(str(path[-1]), expression))


def _hand_annotations() -> dict:
    """Return the annotations that read a hand posting's record and outcome in SQL."""
    annotations = {_seat(i): _record_text("seats", i) for i in range(MAX_SEATS)}
    annotations.update(
        out0=_record_text("sitting_out", 0),
        out1=_record_text("sitting_out", 1),
        dealer_name=_record_text("dealer"),
    )
    for code in GAMES:  # each game's fields of the outcome, NULL on another game's hands
        annotations.update(get_web(code).hand_annotations())
    return annotations


def _rotation_annotations() -> dict:
    """Return ``n_seats`` and ``dealer_slot`` (the dealer's index in the record's seats)."""
    return {
        "n_seats": Case(
            When(**{f"{_seat(4)}__isnull": False}, then=Value(5)),
            When(**{f"{_seat(3)}__isnull": False}, then=Value(4)),
            default=Value(3),
            output_field=IntegerField(),
        ),
        "dealer_slot": Case(
            *(When(**{_seat(i): F("dealer_name")}, then=Value(i)) for i in range(MAX_SEATS)),
            default=Value(-1),
            output_field=IntegerField(),
        ),
    }


def _plays_in_slot(i: int) -> Q:
    """Return the condition that the member in seat slot ``i`` plays the hand.

    A record that names ``sitting_out`` is taken at its word; otherwise the default rotation
    decides (the Danish engine's ``rotation.default_sitting_out``): 3 seats all play; 4 seats, the
    seat two on from the dealer sits out; 5 seats, only the dealer and his neighbours play.
    """
    slot = F(_seat(i))
    named = Q(out0__isnull=False) & ~Q(out0=slot) & (Q(out1__isnull=True) | ~Q(out1=slot))
    four = [d for d in range(4) if (i - d) % 4 != 2]
    five = [d for d in range(5) if (i - d) % 5 in (0, 1, 4)]
    default = Q(out0__isnull=True) & (
        Q(n_seats=3) | Q(n_seats=4, dealer_slot__in=four) | Q(n_seats=5, dealer_slot__in=five)
    )
    # A game whose web side has its own rule (``plays_in_slot(i)``) is read by that rule.
    own, ruled = Q(pk__in=[]), []
    for code in GAMES:
        rule = get_web(code).plays_in_slot
        if rule is not None:
            own |= Q(table__game=code) & rule(i)
            ruled.append(code)
    if not ruled:
        return named | default
    return ((named | default) & ~Q(table__game__in=ruled)) | own


def _played_by(name) -> Q:
    """Return the condition that the member called ``name`` (an expression) played the hand."""
    condition = Q(pk__in=[])
    for i in range(MAX_SEATS):
        condition |= Q(**{_seat(i): name}) & _plays_in_slot(i)
    return condition


def live_hand_postings():
    """Return live hand postings annotated with their record's seats and outcome fields."""
    return (
        Posting.objects.filter(LIVE_POSTING, kind=Posting.Kind.HAND)
        .annotate(**_hand_annotations())
        .annotate(**_rotation_annotations())
    )


def _live_transfer() -> Q:
    return LIVE_TRANSFER


def _hands(code: str, table_filter: Q):
    """Return the query of the game's hand statistics per member account (a values query)."""
    # Each live hand posting joined to the member accounts of its table, whose ``code`` is
    # the name the records use.
    name = F("table__accounts__code")
    return (
        live_hand_postings()
        .filter(table_filter, table__game=code, table__accounts__kind=Account.Kind.MEMBER)
        .values("table__accounts")
        .annotate(played=Count("pk", filter=_played_by(name)), **get_web(code).hand_counts(name))
        .order_by()
    )


_ONE_TABLE = -7_654_321  # the placeholder table id of the compiled one-table query


@functools.cache
def _one_table_sql(code: str, vendor: str) -> tuple[str, tuple, list[str]]:
    """Return (sql, params, column names) of ``_hands`` for one table, compiled once per game
    and database: the statistics' expression tree is large, and compiling it took most of a
    hand's time; the placeholder id among the params is replaced by the table's."""
    query = _hands(code, Q(table_id=_ONE_TABLE)).query
    sql, params = query.sql_with_params()
    names = [*query.values_select, *query.annotation_select]
    return sql, tuple(params), names


def _hand_rows(code: str, tables):
    """Yield the rows of ``_hands`` (dicts) for ``tables``: compiled once for a list of ids."""
    if tables is None or not isinstance(tables, list | tuple):
        table_filter = Q() if tables is None else Q(table__in=tables)
        yield from _hands(code, table_filter)
        return
    sql, params, names = _one_table_sql(code, connection.vendor)
    with connection.cursor() as cursor:
        for table_id in tables:
            cursor.execute(sql, [table_id if p == _ONE_TABLE else p for p in params])
            for row in cursor.fetchall():
                yield dict(zip(names, row, strict=True))


def derive(tables=None, *, games=None) -> dict[int, dict[str, int]]:
    """Return member account id -> {statistic: value} for ``tables`` (a Table queryset, or a
    list of ids: one query per table and game; every table when None), from one query of the
    hands and one of the transfers per game. ``games`` are the codes of the tables' games
    when the caller knows them; else one more query finds them."""
    if games is None:
        games = (
            (Table.objects.all() if tables is None else Table.objects.filter(pk__in=tables))
            .values_list("game", flat=True)
            .distinct()
            .order_by()
        )
    table_filter = Q() if tables is None else Q(table__in=tables)
    result: dict[int, dict[str, int]] = {}
    for code in sorted(set(games)):
        web = get_web(code)
        keys = [*STAT_KEYS, *(key for key, _label in web.stats_columns)]
        for row in _hand_rows(code, tables):
            stats = result.setdefault(row["table__accounts"], dict.fromkeys(keys, 0))
            for key in keys:
                if key in row:
                    stats[key] += row[key] or 0
        received = web.received_points
        if not received:
            continue
        condition = Q(pk__in=[])
        for part in received.values():
            condition |= part
        for row in (
            Transfer.objects.filter(
                condition,
                _live_transfer(),
                table_filter,
                table__game=code,
                target__kind=Account.Kind.MEMBER,
            )
            .values("target_id")
            .annotate(**{f"r_{key}": Sum("points", filter=q) for key, q in received.items()})
            .order_by()
        ):
            stats = result.setdefault(row["target_id"], dict.fromkeys(keys, 0))
            for key in received:
                stats[key] += row[f"r_{key}"] or 0
    return result


def _write(derived: dict[int, dict[str, int]], accounts) -> int:
    AccountStats.objects.filter(account__in=accounts).delete()
    rows = [AccountStats(account_id=pk, stats=stats) for pk, stats in sorted(derived.items())]
    AccountStats.objects.bulk_create(rows, batch_size=_BATCH)
    return len(rows)


def refresh(tables) -> None:
    """Re-derive and rewrite the statistics of ``tables`` (Table rows, in the caller's
    transaction, after its postings): four queries for tables of one game."""
    tables = list(tables)
    if not tables:
        return
    ids = sorted({t.pk for t in tables})
    accounts = Account.objects.filter(table_id__in=ids)
    _write(derive(ids, games={t.game for t in tables}), accounts)


def rebuild(tables=None) -> int:
    """Recompute the statistics of ``tables`` (a Table queryset; every table when None);
    return the number of rows written. Call it inside a transaction."""
    accounts = Account.objects.all() if tables is None else Account.objects.filter(table__in=tables)
    return _write(derive(tables), accounts)


def stored(tables=None) -> dict[int, dict[str, int]]:
    """Return the summary as stored: account id -> {statistic: value}."""
    rows = AccountStats.objects.all()
    if tables is not None:
        rows = rows.filter(account__table__in=tables)
    return dict(rows.values_list("account_id", "stats"))


def differences(tables=None) -> list[tuple[int, dict, dict]]:
    """Return (account id, stored, derived) for every row that differs from its derivation;
    a missing row is an empty dict."""
    derived = derive(tables)
    kept = stored(tables)
    out = []
    for pk in sorted(set(derived) | set(kept)):
        want, have = derived.get(pk, {}), kept.get(pk, {})
        if want != have:
            out.append((pk, have, want))
    return out


def totals(rows) -> dict:
    """Sum statistic dicts: ``rows`` is an iterable of {statistic: value}."""
    out: dict[str, int] = defaultdict(int)
    for stats in rows:
        for key, value in (stats or {}).items():
            out[key] += value
    return dict(out)
