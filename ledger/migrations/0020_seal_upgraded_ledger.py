"""Seal what an upgraded ledger holds unsealed, after re-deriving what can be re-derived.

Migration 0014 only made the seal table: a ledger written by a release before the seals came
up with none, and ``verify_ledger`` reported every posting, hand, table and evening of it as
unsealed. This migration seals them, but it never blesses what it cannot vouch for:

- every table with anything unsealed is first replayed: each hand posting re-settled from the
  record of the revision it points at, through the game's engine, from the state the ledger
  held, and compared with its stored transfers; the table must total zero and no pool that
  must stay non-negative may go below zero. A table that does not re-derive stops the
  migration with an error naming the evening's date, the table and the hand (nothing sealed);
  the treasurer repairs it (or restores a good backup) and migrates again;
- what cannot be re-derived (the table of a game no longer installed, log entries, seats,
  results) has nothing to be compared with and is sealed as it stands;
- a row that already has a seal keeps it: a seal that does not hold stays for ``verify_ledger``
  to name, and a chain with gaps is filled chained to the seals around it.

The contents and the digest are frozen here, as they stand at this migration, so a later
change to ``ledger.services.seals`` cannot change what this migration does. The engines are
the installed ones: a hand is re-settled by the rules its game has today, as ``verify_ledger``
does.
"""

import datetime
import json
from collections import defaultdict
from decimal import ROUND_HALF_UP, Decimal

from django.conf import settings
from django.db import migrations
from django.db.models import Count, Max
from django.utils.crypto import salted_hmac


class LedgerDoesNotRederive(Exception):
    """Raised when a table to be sealed does not re-derive from its hand records."""


def _plain(value):
    if isinstance(value, datetime.datetime):
        return value.astimezone(datetime.UTC).isoformat(timespec="milliseconds")
    if isinstance(value, datetime.date):
        return value.isoformat()
    if isinstance(value, Decimal):
        return format(value.normalize(), "f")
    return str(value)


def _digest(kind, content, previous=""):
    text = json.dumps(
        [kind, previous, content], sort_keys=True, separators=(",", ":"), default=_plain
    )
    secret = getattr(settings, "LEDGER_SEAL_SECRET", None) or settings.SECRET_KEY
    return salted_hmac("ledger.seal", text, secret=secret, algorithm="sha256").hexdigest()


POSTING_FIELDS = (
    "pk", "table_id", "table__evening_id", "kind", "hand_id", "hand__number", "revision_id",
    "reverses_id", "state_before", "state_after", "outcome", "intent", "note", "created_by_id",
    "created_at",
)
TRANSFER_FIELDS = ("pk", "posting_id", "source_id", "target_id", "points", "reason")
ACCOUNT_FIELDS = ("pk", "kind", "code", "member_id")
REVISION_FIELDS = (
    "pk", "hand_id", "hand__table_id", "number", "action", "record", "reason", "by_id", "at",
)
LOG_FIELDS = ("pk", "evening_id", "action", "reason", "details", "by_id", "at")
HAND_FIELDS = (
    "pk", "table_id", "number", "game", "status", "dealer_id", "record", "token",
    "created_by_id", "created_at",
)
EVENING_FIELDS = (
    "pk", "club_id", "season_id", "date", "status", "kind", "game", "rate_card",
    "price_per_point", "starting_jetons", "opened_at", "closed_at",
)


def _table_content(get, table_id):
    row = (
        get("Table").objects.filter(pk=table_id)
        .values_list("pk", "evening_id", "number", "game", "status", "first_dealer_id")
        .first()
    )
    postings = get("Posting").objects.filter(table_id=table_id).aggregate(
        n=Count("pk"), last=Max("pk")
    )
    last = (
        get("Seal").objects.filter(kind="posting", object_id=postings["last"])
        .values_list("digest", flat=True)
        .first()
    )
    hands = get("Hand").objects.filter(table_id=table_id).aggregate(
        n=Count("pk"), last=Max("number")
    )
    return [
        list(row),
        list(
            get("Seat").objects.filter(table_id=table_id).order_by("pk")
            .values_list("pk", "member_id", "name", "position", "joined_at_hand", "left")
        ),
        list(
            get("Account").objects.filter(table_id=table_id).order_by("pk")
            .values_list(*ACCOUNT_FIELDS)
        ),
        [postings["n"], postings["last"], last or ""],
        [hands["n"], hands["last"]],
    ]


def _evening_content(get, evening_id):
    row = get("Evening").objects.filter(pk=evening_id).values_list(*EVENING_FIELDS).first()
    logs = get("EveningLog").objects.filter(evening_id=evening_id).aggregate(
        n=Count("pk"), last=Max("pk")
    )
    last = (
        get("Seal").objects.filter(kind="log", object_id=logs["last"])
        .values_list("digest", flat=True)
        .first()
    )
    return [
        list(row),
        list(
            get("Table").objects.filter(evening_id=evening_id).order_by("pk")
            .values_list("pk", "number")
        ),
        list(
            get("EveningResult").objects.filter(evening_id=evening_id).order_by("pk")
            .values_list("pk", "member_id", "points", "money", "closing")
        ),
        [logs["n"], logs["last"], last or ""],
    ]


def _posting_content(row, transfers, accounts):
    return [
        list(row),
        [
            [pk, accounts.get(source), accounts.get(target), points, reason]
            for pk, _posting, source, target, points, reason in transfers
        ],
    ]


def _fill_chain(kind, rows, stored, content=list):
    """Return new seals for the unsealed ``rows`` (in order) of one chain, each chained to the
    seal (stored or new) of the row before it."""
    new, previous = [], ""
    for row in rows:
        have = stored.get(row[0])
        if have is None:
            have = _digest(kind, content(row), previous)
            new.append((row[0], have))
        previous = have
    return new


def rederive(get, table):
    """Return the problems of replaying ``table``: each hand posting re-settled through its
    game's engine and compared with its stored transfers, the table's total, the guarded
    pools. Return None when the table's game is not installed (nothing to compare with)."""
    from ledger.games.registry import get_game

    evening = get("Evening").objects.get(pk=table.evening_id)
    label = f"evening {evening.date} table {table.number}"
    try:
        game = get_game(table.game)
    except KeyError:
        return None
    try:
        rates = game.rate_card(evening.rate_card)
    except Exception as error:
        return [f"{label}: the rate card is invalid: {error}"]
    codes = dict(get("Account").objects.filter(table_id=table.pk).values_list("pk", "code"))
    pools = game.features.pool_codes
    guarded = [p.code for p in game.features.pools if not p.may_go_negative]
    funders = list(
        get("Seat").objects.filter(table_id=table.pk).order_by("position")
        .values_list("name", flat=True)
    )
    moves = defaultdict(list)
    for posting_id, source, target, points, reason in (
        get("Transfer").objects.filter(table_id=table.pk).order_by("posting_id", "pk")
        .values_list("posting_id", "source_id", "target_id", "points", "reason")
    ):
        moves[posting_id].append((codes.get(source), codes.get(target), points, reason))
    records = dict(
        get("HandRevision").objects.filter(hand__table_id=table.pk).values_list("pk", "record")
    )
    problems, balance, live = [], defaultdict(int), {}
    postings = (
        get("Posting").objects.filter(table_id=table.pk).order_by("pk")
        .values_list("pk", "kind", "hand__number", "revision_id", "reverses_id", "state_before")
    )
    for pk, kind, number, revision_id, reverses_id, state_before in postings:
        where = f"{label} hand {number}" if number is not None else f"{label} posting {pk}"
        these = moves.get(pk, [])
        if kind == "hand":
            previous = live[max(live)] if live else None
            record = records.get(revision_id)
            if record is None:
                problems.append(f"{where}: its posting points at no revision")
                continue
            pool_now = {code: balance[code] for code in pools}
            state = game.next_state(previous, pool_now, record.get("seats", funders))
            try:
                settlement = game.settle(game.parse_hand(record, rates, state=state), rates, state)
            except Exception as error:
                problems.append(f"{where}: the stored record is refused: {error}")
                continue
            expected = [(t.source, t.target, t.points, t.reason) for t in settlement.transfers]
            if state_before != json.loads(json.dumps(state)):
                problems.append(f"{where}: settled from state {state_before}, not {state}")
            if expected != these:
                problems.append(
                    f"{where}: its stored transfers differ from the settlement of its record"
                )
            live[pk] = settlement.state_after
        elif kind == "reversal":
            live.pop(reverses_id, None)
        for source, target, points, _reason in these:
            if points <= 0:
                problems.append(f"{where}: a transfer of {points} points")
            balance[source] -= points
            balance[target] += points
        for code in guarded:
            if balance[code] < 0:
                problems.append(f"{where}: the {code} went below zero")
    if sum(balance.values()):
        problems.append(f"{label}: members and pools total {sum(balance.values())}, not 0")
    return problems


def results_problems(get, evening):
    """Return the problems of a closed evening's latest results: each member's points must be
    his balance summed over the evening's tables, his money those points at its price."""
    label = f"evening {evening.date}"
    results = get("EveningResult").objects.filter(evening_id=evening.pk)
    latest = max(results.values_list("closing", flat=True), default=0)
    members = dict(
        get("Account").objects.filter(table__evening_id=evening.pk, kind="member")
        .values_list("pk", "member_id")
    )
    want = defaultdict(int)
    for source, target, points in get("Transfer").objects.filter(
        table__evening_id=evening.pk
    ).values_list("source_id", "target_id", "points"):
        if source in members:
            want[members[source]] -= points
        if target in members:
            want[members[target]] += points
    for member_id in members.values():
        want[member_id] += 0
    have = {r.member_id: r for r in results.filter(closing=latest)}
    problems = []
    for member_id in sorted(set(want) | set(have)):
        result = have.get(member_id)
        if result is None or result.points != want.get(member_id):
            problems.append(
                f"{label}: the result of member {member_id} says "
                f"{result.points if result else 'nothing'}, but the tables' close gives "
                f"{want.get(member_id, 0)} points"
            )
        elif result.money != _money(result.points, evening.price_per_point):
            problems.append(
                f"{label}: the result of member {member_id} says {result.money} in money, "
                f"not {result.points} points at the evening's price"
            )
    return problems


def _money(points, price):
    return (Decimal(points) * Decimal(price)).quantize(Decimal("0.01"), ROUND_HALF_UP)


def seal_unsealed(apps, schema_editor=None):
    """Re-derive every table holding anything unsealed, then seal what is unsealed."""
    get = lambda name: apps.get_model("ledger", name)  # noqa: E731
    Seal = get("Seal")
    sealed = defaultdict(dict)
    for kind, object_id, digest in Seal.objects.values_list("kind", "object_id", "digest"):
        sealed[kind][object_id] = digest
    unsealed_tables = set(
        get("Posting").objects.exclude(pk__in=list(sealed["posting"]))
        .values_list("table_id", flat=True)
    )
    unsealed_tables |= set(
        get("Hand").objects.exclude(pk__in=list(sealed["hand"])).values_list("table_id", flat=True)
    )
    unsealed_tables |= set(
        get("Table").objects.exclude(pk__in=list(sealed["table"])).values_list("pk", flat=True)
    )
    tables = list(get("Table").objects.filter(pk__in=unsealed_tables).order_by("pk"))
    problems = []
    for table in tables:
        problems += rederive(get, table) or []
    evenings_to_seal = get("Evening").objects.exclude(pk__in=list(sealed["evening"]))
    for evening in evenings_to_seal.filter(status="closed").order_by("pk"):
        problems += results_problems(get, evening)
    if problems:
        shown = "\n  ".join(problems[:50])
        more = f"\n  ... and {len(problems) - 50} more" if len(problems) > 50 else ""
        raise LedgerDoesNotRederive(
            "The ledger does not re-derive from its hand records, so it is not sealed (repair "
            f"it or restore a good backup, then migrate again):\n  {shown}{more}"
        )
    rows = []
    for table in tables:
        accounts = {
            row[0]: list(row)
            for row in get("Account").objects.filter(table_id=table.pk).values_list(
                *ACCOUNT_FIELDS
            )
        }
        transfers = defaultdict(list)
        for row in (
            get("Transfer").objects.filter(table_id=table.pk).order_by("pk")
            .values_list(*TRANSFER_FIELDS)
        ):
            transfers[row[1]].append(row)
        postings = list(
            get("Posting").objects.filter(table_id=table.pk).order_by("pk")
            .values_list(*POSTING_FIELDS)
        )
        for object_id, value in _fill_chain(
            "posting",
            postings,
            sealed["posting"],
            content=lambda row: _posting_content(row, transfers.get(row[0], []), accounts),
        ):
            rows.append(Seal(kind="posting", object_id=object_id, scope=table.pk, digest=value))
        revisions = defaultdict(list)
        for row in (
            get("HandRevision").objects.filter(hand__table_id=table.pk).order_by("pk")
            .values_list(*REVISION_FIELDS)
        ):
            revisions[row[1]].append(row)
        for hand_id, chain in revisions.items():
            for object_id, value in _fill_chain("revision", chain, sealed["revision"]):
                rows.append(Seal(kind="revision", object_id=object_id, scope=hand_id, digest=value))
        for row in get("Hand").objects.filter(table_id=table.pk).values_list(*HAND_FIELDS):
            if row[0] not in sealed["hand"]:
                rows.append(
                    Seal(kind="hand", object_id=row[0], scope=row[1], digest=_digest("hand", list(row)))
                )
    evenings = list(get("Evening").objects.order_by("pk").values_list("pk", flat=True))
    for evening_id in evenings:
        logs = list(
            get("EveningLog").objects.filter(evening_id=evening_id).order_by("pk")
            .values_list(*LOG_FIELDS)
        )
        for object_id, value in _fill_chain("log", logs, sealed["log"]):
            rows.append(Seal(kind="log", object_id=object_id, scope=evening_id, digest=value))
    Seal.objects.bulk_create(rows, batch_size=2000)
    heads = [
        Seal(
            kind="table",
            object_id=table.pk,
            scope=table.evening_id,
            digest=_digest("table", _table_content(get, table.pk)),
        )
        for table in tables
        if table.pk not in sealed["table"]
    ]
    Seal.objects.bulk_create(heads, batch_size=2000)
    club_of = dict(get("Evening").objects.values_list("pk", "club_id"))
    Seal.objects.bulk_create(
        [
            Seal(
                kind="evening",
                object_id=evening_id,
                scope=club_of[evening_id],
                digest=_digest("evening", _evening_content(get, evening_id)),
            )
            for evening_id in evenings
            if evening_id not in sealed["evening"]
        ],
        batch_size=2000,
    )


class Migration(migrations.Migration):

    dependencies = [
        ('ledger', '0019_evening_kind_tournament_seals'),
    ]

    operations = [
        migrations.RunPython(seal_unsealed, migrations.RunPython.noop),
    ]
