"""Seals: keyed digests that let ``verify_ledger`` see what a tamperer changed.

The ledger re-checks most of itself (every hand re-settled, summaries re-derived, the close
recomputed); what it cannot re-derive is held by seals, HMAC-SHA256 digests under the site's
ledger secret (``settings.LEDGER_SEAL_SECRET``, by default ``SECRET_KEY``), kept in ``Seal``
rows that only this module writes:

- every **posting** with its content (its table and evening, kind, hand and its number,
  revision, reversal, states, outcome, intent, note, author, time and every transfer with its
  accounts and their members), chained to the seal of its table's posting before it, as an
  append-only log keeps itself honest: no posting can be changed, removed from the middle or
  inserted without breaking the chain;
- every **hand revision** with its content (author and reason included), chained within its
  hand, and every **evening log** entry, chained within its evening;
- every **hand** as it stands (number, status, dealer, record, token, author);
- each **table**'s head: its evening, number, game, status and first dealer, its seats and
  accounts with their members, how many hands and postings it has and the seal of its last
  posting, so a last hand cut off with its postings, a seat's member swapped or a table moved
  to another evening shows;
- each **evening**'s head: club, season, date, status, kind, game, rate card, price, starting
  jetons, closing time, its tables, every result, and its log's length and last seal;
- each **tournament**'s head: its row (name, first and last day, game, format, seed,
  parameters, rate card, status, evening, the director's log), every entry (name, club, guest,
  ladder rank, rounds), every round (its draw as published, mode, status, log, times, its day
  and evening), every round table (seats,
  its table, results, how it ended, substitutes) and every bye with its points. What a phone
  changes at a round table while it plays (the device holding the link, the players it
  reports missing, the hand begun before the signal) is not a ledger fact and is left out;
- each **member** (his log-in, role, name, active flag) and each club's **people log**
  (``ClubLog``) with the club's people head: ``services.people``;
- each **club's chain** (``ChainLink``): a link per evening, tournament and round created or
  taking a new status, chained in the order it happened, and the club's **head** over its last
  link, which the sheets print and ``ledger_head`` writes out to be witnessed.

Seals are written in the transaction that writes what they seal: postings, revisions and log
entries as they are written; hands and the heads of every table and evening a service locked
at the end of its transaction (``services.ledger.writing``). Without the secret a seal cannot
be forged; ``verify_ledger`` recomputes every one. ``seal_all`` seals a ledger loaded from a
trusted source (the demo fixtures, the bench's generated history, ``restore --reseal``).
A ledger written before the seals is sealed by migration 0020 once it re-derives
(docs/ledger-integrity.md).
"""

from __future__ import annotations

import datetime
import json
import uuid
from decimal import Decimal
from types import SimpleNamespace

from django.conf import settings
from django.db.models import Count, Max, Q
from django.utils.crypto import salted_hmac

from ledger import models as current
from ledger.services import seal_pending

SALT = "ledger.seal"
Kind = current.Seal.Kind
MODELS = (
    "Account",
    "Bye",
    "ChainLink",
    "Club",
    "Entry",
    "Evening",
    "EveningLog",
    "EveningResult",
    "Hand",
    "HandRevision",
    "Posting",
    "Round",
    "RoundTable",
    "Seal",
    "Seat",
    "Table",
    "Tournament",
    "Transfer",
)
BATCH = 2000


def models_of(apps=None) -> SimpleNamespace:
    """Return the models this module reads: the app's, or a migration's historical ones."""
    if apps is None:
        return SimpleNamespace(**{name: getattr(current, name) for name in MODELS})
    return SimpleNamespace(**{name: apps.get_model("ledger", name) for name in MODELS})


def _secret() -> str:
    return getattr(settings, "LEDGER_SEAL_SECRET", None) or settings.SECRET_KEY


def derived_uuid(purpose: str, key: str) -> str:
    """Return a UUID (text) fixed by this installation's ledger secret for ``purpose`` and
    ``key``: the same on every call, another on any other installation (a tournament's results
    file id: ``federation.md`` section 5). Nothing stored, so nothing to tamper with."""
    value = salted_hmac(f"ledger.uuid.{purpose}", key, secret=_secret(), algorithm="sha256")
    return str(uuid.UUID(bytes=value.digest()[:16], version=4))


def _plain(value):
    """JSON-ready text of a value whose stored form a backup may change: times to the
    millisecond in UTC (a JSON dump keeps milliseconds), decimals without trailing zeros."""
    if isinstance(value, datetime.datetime):
        return value.astimezone(datetime.UTC).isoformat(timespec="milliseconds")
    if isinstance(value, datetime.date):
        return value.isoformat()
    if isinstance(value, Decimal):
        return format(value.normalize(), "f")
    return str(value)


def digest(kind: str, content, previous: str = "") -> str:
    """Return the seal of ``content`` (JSON-ready data) of ``kind``, chained to ``previous``."""
    text = json.dumps(
        [kind, previous, content], sort_keys=True, separators=(",", ":"), default=_plain
    )
    return salted_hmac(SALT, text, secret=_secret(), algorithm="sha256").hexdigest()


# --- contents ---------------------------------------------------------------------------------

POSTING_FIELDS = (
    "pk",
    "table_id",
    "table__evening_id",
    "kind",
    "hand_id",
    "hand__number",
    "revision_id",
    "reverses_id",
    "state_before",
    "state_after",
    "outcome",
    "intent",
    "note",
    "created_by_id",
    "created_at",
)
TRANSFER_FIELDS = ("pk", "posting_id", "source_id", "target_id", "points", "reason")
ACCOUNT_FIELDS = ("pk", "kind", "code", "member_id")
REVISION_FIELDS: tuple[str, ...] = (
    "pk",
    "hand_id",
    "hand__table_id",
    "number",
    "action",
    "record",
    "reason",
)
REVISION_FIELDS += ("by_id", "at")
LOG_FIELDS: tuple[str, ...] = ("pk", "evening_id", "action", "reason", "details", "by_id", "at")
HAND_FIELDS: tuple[str, ...] = (
    "pk",
    "table_id",
    "number",
    "game",
    "status",
    "dealer_id",
    "record",
    "token",
)
HAND_FIELDS += ("created_by_id", "created_at")


def posting_content(row: tuple, transfers, accounts: dict) -> list:
    """What a posting's seal covers: its row (``POSTING_FIELDS``), its transfers (rows of
    ``TRANSFER_FIELDS`` in id order) with their accounts (``ACCOUNT_FIELDS`` rows by id)."""
    return [
        list(row),
        [
            [pk, accounts.get(source), accounts.get(target), points, reason]
            for pk, _posting, source, target, points, reason in transfers
        ],
    ]


def posting_row(posting) -> tuple:
    """A posting object as its ``POSTING_FIELDS`` row (the hand and table read as loaded)."""
    return (
        posting.pk,
        posting.table_id,
        posting.table.evening_id,
        posting.kind,
        posting.hand_id,
        posting.hand.number if posting.hand_id else None,
        posting.revision_id,
        posting.reverses_id,
        posting.state_before,
        posting.state_after,
        posting.outcome,
        posting.intent,
        posting.note,
        posting.created_by_id,
        posting.created_at,
    )


def table_content(table_id: int, m=None):
    """What a table's head covers (six queries); None when the table is gone."""
    m = m or models_of()
    row = (
        m.Table.objects.filter(pk=table_id)
        .values_list("pk", "evening_id", "number", "game", "status", "first_dealer_id")
        .first()
    )
    if row is None:
        return None
    postings = m.Posting.objects.filter(table_id=table_id).aggregate(n=Count("pk"), last=Max("pk"))
    last = _pending_digest(Kind.POSTING, postings["last"])
    if last is None:
        last = (
            m.Seal.objects.filter(kind=Kind.POSTING, object_id=postings["last"])
            .values_list("digest", flat=True)
            .first()
        )
    hands = m.Hand.objects.filter(table_id=table_id).aggregate(n=Count("pk"), last=Max("number"))
    return table_head(
        row,
        m.Seat.objects.filter(table_id=table_id)
        .order_by("pk")
        .values_list("pk", "member_id", "name", "position", "joined_at_hand", "left"),
        m.Account.objects.filter(table_id=table_id).order_by("pk").values_list(*ACCOUNT_FIELDS),
        postings=(postings["n"], postings["last"], last or ""),
        hands=(hands["n"], hands["last"]),
    )


def table_head(row, seats, accounts, *, postings: tuple, hands: tuple) -> list:
    """A table's head content from its parts: its row (pk, evening, number, game, status, first
    dealer), its seats (pk, member, name, position, joined at hand, left) and accounts
    (``ACCOUNT_FIELDS``) in id order, its postings (number, last id, last seal) and hands
    (number, last number). ``table_content`` reads them; a hand save passes what it holds."""
    return [
        list(row),
        [tuple(seat) for seat in seats],
        [tuple(account) for account in accounts],
        list(postings),
        list(hands),
    ]


def evening_content(evening_id: int, m=None):
    """What an evening's head covers (five queries); None when the evening is gone."""
    m = m or models_of()
    row = (
        m.Evening.objects.filter(pk=evening_id)
        .values_list(
            "pk",
            "club_id",
            "season_id",
            "date",
            "status",
            "kind",
            "game",
            "rate_card",
            "price_per_point",
            "starting_jetons",
            "opened_at",
            "closed_at",
        )
        .first()
    )
    if row is None:
        return None
    logs = m.EveningLog.objects.filter(evening_id=evening_id).aggregate(
        n=Count("pk"), last=Max("pk")
    )
    last = (
        m.Seal.objects.filter(kind=Kind.LOG, object_id=logs["last"])
        .values_list("digest", flat=True)
        .first()
    )
    return [
        list(row),
        list(
            m.Table.objects.filter(evening_id=evening_id).order_by("pk").values_list("pk", "number")
        ),
        list(
            m.EveningResult.objects.filter(evening_id=evening_id)
            .order_by("pk")
            .values_list("pk", "member_id", "points", "money", "closing")
        ),
        [logs["n"], logs["last"], last or ""],
    ]


TOURNAMENT_FIELDS: tuple[str, ...] = (
    "pk",
    "club_id",
    "name",
    "date",
    "game",
    "tournament_format",
    "seed",
    "params",
    "rate_card",
    "status",
    "evening_id",
    "log",
    "created_at",
    "created_by_id",
)
# Added by migration 0067 (a tournament of several days), which resealed the heads it found.
TOURNAMENT_FIELDS += ("last_date",)
ENTRY_FIELDS = (
    "pk",
    "member_id",
    "code",
    "name",
    "club_name",
    "guest",
    "ladder_rank",
    "from_round",
    "withdrawn_after",
)
ROUND_FIELDS: tuple[str, ...] = (
    "pk",
    "number",
    "kind",
    "mode",
    "status",
    "tables",
    "byes",
    "groups",
    "warnings",
    "computed",
    "log",
    "time_limit_min",
    "drawn_at",
    "published_at",
    "started_at",
    "closed_at",
)
ROUND_FIELDS += ("day", "evening_id")
ROUND_TABLE_FIELDS = (
    "pk",
    "round_id",
    "number",
    "seats",
    "table_id",
    "hands_played",
    "results",
    "ended_by",
    "substitutes",
)


def tournament_content(tournament_id: int, m=None):
    """What a tournament's head covers (five queries); None when the tournament is gone."""
    m = m or models_of()
    row = m.Tournament.objects.filter(pk=tournament_id).values_list(*TOURNAMENT_FIELDS).first()
    if row is None:
        return None
    rounds = m.Round.objects.filter(tournament_id=tournament_id).order_by("pk")
    return [
        list(row),
        list(
            m.Entry.objects.filter(tournament_id=tournament_id)
            .order_by("pk")
            .values_list(*ENTRY_FIELDS)
        ),
        list(rounds.values_list(*ROUND_FIELDS)),
        list(
            m.RoundTable.objects.filter(round__tournament_id=tournament_id)
            .order_by("pk")
            .values_list(*ROUND_TABLE_FIELDS)
        ),
        list(
            m.Bye.objects.filter(round__tournament_id=tournament_id)
            .order_by("pk")
            .values_list("pk", "round_id", "entry_id", "points")
        ),
    ]


# --- writing ----------------------------------------------------------------------------------
#
# Inside a service's transaction (``services.ledger.writing``) the seals of postings and hand
# revisions, and the contents a service already holds of the hands and heads it wrote, wait in
# the transaction's ``seal_pending.Pending`` and are written with the heads, in one statement,
# before it commits (``seal_heads``). Outside one (a migration, a trusted load) they are written
# at once.


def _pending_digest(kind: str, object_id) -> str | None:
    batch = seal_pending.current()
    return None if batch is None or object_id is None else batch.digest_of(kind, object_id)


def _write(kind: str, object_id: int, scope: int, value: str) -> None:
    """Write one seal of a row just written: now, or with the heads inside a transaction."""
    row = current.Seal(kind=kind, object_id=object_id, scope=scope, digest=value)
    batch = seal_pending.current()
    if batch is None:
        row.save(force_insert=True)
    else:
        batch.rows.append(row)


def last_posting_seal(table_id: int) -> str:
    """Return the seal of the table's latest sealed posting ("" before the first)."""
    waiting = seal_pending.waiting_seal(Kind.POSTING, table_id)
    if waiting is not None:
        return waiting
    return (
        current.Seal.objects.filter(kind=Kind.POSTING, scope=table_id)
        .order_by("-object_id")
        .values_list("digest", flat=True)
        .first()
        or ""
    )


def seal_posting(posting, transfers, accounts: dict, previous: str) -> str:
    """Seal a posting just written (``transfers``: its Transfer rows; ``accounts``: the table's
    Account objects by id), chained to ``previous``; return its seal."""
    content = posting_content(
        posting_row(posting),
        [(t.pk, posting.pk, t.source_id, t.target_id, t.points, t.reason) for t in transfers],
        {pk: [a.pk, a.kind, a.code, a.member_id] for pk, a in accounts.items()},
    )
    value = digest(Kind.POSTING, content, previous)
    _write(Kind.POSTING, posting.pk, posting.table_id, value)
    return value


def _revision_row(revision) -> tuple:
    return (
        revision.pk,
        revision.hand_id,
        revision.hand.table_id,
        revision.number,
        revision.action,
        revision.record,
        revision.reason,
        revision.by_id,
        revision.at,
    )


def seal_revision(revision, *, first: bool = False) -> None:
    """Seal a hand revision just written, chained to its hand's revision before it (none when
    ``first``: the revision of a hand just written)."""
    previous = seal_pending.waiting_seal(Kind.REVISION, revision.hand_id)
    if previous is None and not first:
        previous = (
            current.Seal.objects.filter(kind=Kind.REVISION, scope=revision.hand_id)
            .order_by("-object_id")
            .values_list("digest", flat=True)
            .first()
        )
    value = digest(Kind.REVISION, list(_revision_row(revision)), previous or "")
    _write(Kind.REVISION, revision.pk, revision.hand_id, value)


def hand_row(hand) -> tuple:
    """A hand object as its ``HAND_FIELDS`` row."""
    return tuple(getattr(hand, name) for name in HAND_FIELDS)


def seal_log(entry) -> None:
    """Seal an evening log entry just written, chained to its evening's entry before it."""
    previous = (
        current.Seal.objects.filter(kind=Kind.LOG, scope=entry.evening_id)
        .order_by("-object_id")
        .values_list("digest", flat=True)
        .first()
        or ""
    )
    row = [getattr(entry, name) for name in LOG_FIELDS]
    value = digest(Kind.LOG, row, previous)
    current.Seal.objects.create(
        kind=Kind.LOG, object_id=entry.pk, scope=entry.evening_id, digest=value
    )


def _upsert(m, rows) -> None:
    m.Seal.objects.bulk_create(
        rows,
        batch_size=BATCH,
        update_conflicts=True,
        unique_fields=["kind", "object_id"],
        update_fields=["scope", "digest"],
    )


def seal_heads(*, hands=(), tables=(), evenings=(), tournaments=(), m=None) -> None:
    """Seal ``hands``, the heads of ``tables``, ``evenings`` and ``tournaments`` (ids) as they
    are now, and write them with the seals pending in the current transaction (one statement):
    what the transaction holds (``hold``) is sealed as held, the rest read."""
    m = m or models_of()
    batch = seal_pending.current() or seal_pending.Pending()
    held = batch.contents
    rows = list(batch.rows)  # written below; read while the heads are computed
    wanted = sorted(set(hands))
    found = [list(held[(Kind.HAND, pk)]) for pk in wanted if (Kind.HAND, pk) in held]
    unread = [pk for pk in wanted if (Kind.HAND, pk) not in held]
    if unread:
        found += [
            list(row) for row in m.Hand.objects.filter(pk__in=unread).values_list(*HAND_FIELDS)
        ]
    rows += [
        m.Seal(kind=Kind.HAND, object_id=row[0], scope=row[1], digest=digest(Kind.HAND, row))
        for row in sorted(found, key=lambda row: row[0])
    ]
    states: list[tuple] = []  # (club, kind, object id, status) of what the club's chain holds
    for kind, ids, content_of in (
        (Kind.TABLE, tables, table_content),
        (Kind.EVENING, evenings, evening_content),
        (Kind.TOURNAMENT, tournaments, tournament_content),
    ):
        for object_id in sorted(set(ids)):
            content = held.get((kind, object_id))
            if content is None:
                content = content_of(object_id, m)
            if content is not None:
                rows.append(
                    m.Seal(
                        kind=kind,
                        object_id=object_id,
                        scope=content[0][1],
                        digest=digest(kind, content),
                    )
                )
                if kind == Kind.EVENING:
                    states.append((content[0][1], Link.EVENING, object_id, content[0][4]))
                elif kind == Kind.TOURNAMENT:
                    club_id = content[0][1]
                    states.append((club_id, Link.TOURNAMENT, object_id, content[0][9]))
                    states += [(club_id, Link.ROUND, r[0], r[4]) for r in content[2]]
    batch.rows.clear()
    if rows:
        _upsert(m, rows)
    extend_chains(states, m)


# --- the club's chain -------------------------------------------------------------------------
#
# Each club's evenings, tournaments and rounds are chained in the order they were created and
# took a new status (``ChainLink``: a link per event, sealed chained to the link before it), and
# the club's head is a seal over its last link. A hand saved changes no status, so it costs the
# chain one query (the last links of the evening it touched); the head changes only when an
# evening, a tournament or a round is created, closed or reopened (or a round moves on). The
# evening's own head (its tables, results, log) and the tournament's head (its rounds, tables,
# byes) stand beside the chain: the chain says which of them must exist, and in which state.

Link = current.ChainLink.Kind


def link_digest(club_id: int, number: int, kind: str, object_id: int, status: str, previous: str):
    """Return the seal of a chain link, chained to the link before it (``previous``)."""
    return digest("link", [club_id, number, kind, object_id, status], previous)


def head_digest(club_id: int, number: int, last: str) -> str:
    """Return the club's head: a seal over its chain's length and last link."""
    return digest(Kind.CLUB, [club_id, number, last])


def short_head(number: int, head: str) -> str:
    """The head as sheets print it: the chain's length and the digest's first 12 digits."""
    return f"{number}:{head[:12]}"


def installation_id() -> str:
    """Name this installation's seal secret without revealing it (a witness file carries it)."""
    return digest("installation", [])[:16]


def extend_chains(states, m=None) -> None:
    """Append a link for every (club, kind, object id, status) of ``states`` whose last link
    says otherwise (a new evening, tournament or round, or a new status), and seal the heads of
    the clubs whose chains grew. The club's row is locked while its chain grows."""
    if not states:
        return
    m = m or models_of()
    wanted: dict[str, list[int]] = {}
    for _club, kind, object_id, _status in states:
        wanted.setdefault(kind, []).append(object_id)
    links = Q()
    for kind, ids in wanted.items():
        links |= Q(kind=kind, object_id__in=ids)
    last: dict[tuple, str] = {}
    for kind, object_id, status in (
        m.ChainLink.objects.filter(links)
        .order_by("number")
        .values_list("kind", "object_id", "status")
    ):
        last[(kind, object_id)] = status
    due: dict[int, list] = {}
    for club_id, kind, object_id, status in states:
        if last.get((kind, object_id)) != status:
            last[(kind, object_id)] = status
            due.setdefault(club_id, []).append((kind, object_id, status))
    for club_id, events in sorted(due.items()):
        list(m.Club.objects.select_for_update(of=("self",)).filter(pk=club_id))
        number, previous = (
            m.ChainLink.objects.filter(club_id=club_id)
            .order_by("-number")
            .values_list("number", "digest")
            .first()
        ) or (0, "")
        rows = []
        for kind, object_id, status in events:
            number += 1
            previous = link_digest(club_id, number, kind, object_id, status, previous)
            rows.append(
                m.ChainLink(
                    club_id=club_id,
                    number=number,
                    kind=kind,
                    object_id=object_id,
                    status=status,
                    digest=previous,
                )
            )
        m.ChainLink.objects.bulk_create(rows)
        _upsert(
            m,
            [
                m.Seal(
                    kind=Kind.CLUB,
                    object_id=club_id,
                    scope=club_id,
                    digest=head_digest(club_id, number, previous),
                )
            ],
        )


def chain_states(club_ids, m=None) -> list[tuple]:
    """Return (club, kind, object id, status) of every evening, tournament and round of the
    clubs, in the order they were created."""
    m = m or models_of()
    rows = [
        (at, 0, pk, (club, Link.EVENING, pk, status))
        for pk, club, status, at in m.Evening.objects.filter(club_id__in=club_ids).values_list(
            "pk", "club_id", "status", "opened_at"
        )
    ]
    rows += [
        (at, 1, pk, (club, Link.TOURNAMENT, pk, status))
        for pk, club, status, at in m.Tournament.objects.filter(club_id__in=club_ids).values_list(
            "pk", "club_id", "status", "created_at"
        )
    ]
    rows += [
        (at, 2, pk, (club, Link.ROUND, pk, status))
        for pk, club, status, at in m.Round.objects.filter(
            tournament__club_id__in=club_ids
        ).values_list("pk", "tournament__club_id", "status", "drawn_at")
    ]
    return [row[3] for row in sorted(rows, key=lambda row: row[:3])]


def seal_chains(club_ids, m=None) -> None:
    """Seal the chains of the clubs afresh (every link kept, in its order, its seal recomputed),
    then append what they lack, from a trusted source."""
    m = m or models_of()
    for club_id in sorted(set(club_ids)):
        links = list(m.ChainLink.objects.filter(club_id=club_id).order_by("number"))
        previous = ""
        for link in links:
            previous = link_digest(
                club_id, link.number, link.kind, link.object_id, link.status, previous
            )
            link.digest = previous
        m.ChainLink.objects.bulk_update(links, ["digest"], batch_size=BATCH)
        m.Seal.objects.filter(kind=Kind.CLUB, object_id=club_id).delete()
        if links:
            _upsert(
                m,
                [
                    m.Seal(
                        kind=Kind.CLUB,
                        object_id=club_id,
                        scope=club_id,
                        digest=head_digest(club_id, links[-1].number, previous),
                    )
                ],
            )
    extend_chains(chain_states(club_ids, m), m)


def seal_all(tables=None, *, apps=None) -> int:
    """Seal everything of ``tables`` (a Table queryset; every table when None), of their
    evenings and of their clubs' tournaments afresh, from a trusted source; return the number
    of seals written. Call it in a transaction."""
    m = models_of(apps)
    whole = tables is None
    if tables is None:
        tables = m.Table.objects.all()
        evening_ids = list(m.Evening.objects.order_by("pk").values_list("pk", flat=True))
        tournament_ids = list(m.Tournament.objects.order_by("pk").values_list("pk", flat=True))
    else:
        evening_ids = sorted(set(tables.values_list("evening_id", flat=True)))
        clubs = m.Evening.objects.filter(pk__in=evening_ids).values("club_id")
        tournament_ids = list(
            m.Tournament.objects.filter(club_id__in=clubs)
            .order_by("pk")
            .values_list("pk", flat=True)
        )
    table_ids = list(tables.order_by("pk").values_list("pk", flat=True))
    hands = m.Hand.objects.filter(table__in=tables)
    m.Seal.objects.filter(kind__in=[Kind.POSTING, Kind.HAND], scope__in=table_ids).delete()
    m.Seal.objects.filter(kind=Kind.REVISION, scope__in=hands.values("pk")).delete()
    m.Seal.objects.filter(kind=Kind.LOG, scope__in=evening_ids).delete()
    m.Seal.objects.filter(kind=Kind.TABLE, object_id__in=table_ids).delete()
    m.Seal.objects.filter(kind=Kind.EVENING, object_id__in=evening_ids).delete()
    m.Seal.objects.filter(kind=Kind.TOURNAMENT, object_id__in=tournament_ids).delete()
    rows: list = []
    for start in range(0, len(table_ids), 200):
        chunk = table_ids[start : start + 200]
        accounts = {
            row[0]: list(row)
            for row in m.Account.objects.filter(table_id__in=chunk).values_list(*ACCOUNT_FIELDS)
        }
        transfers: dict[int, list] = {}
        for row in (
            m.Transfer.objects.filter(table_id__in=chunk)
            .order_by("pk")
            .values_list(*TRANSFER_FIELDS)
        ):
            transfers.setdefault(row[1], []).append(row)
        last: dict[int, str] = {}
        for row in (
            m.Posting.objects.filter(table_id__in=chunk)
            .order_by("table_id", "pk")
            .values_list(*POSTING_FIELDS)
        ):
            content = posting_content(row, transfers.get(row[0], []), accounts)
            value = digest(Kind.POSTING, content, last.get(row[1], ""))
            last[row[1]] = value
            rows.append(m.Seal(kind=Kind.POSTING, object_id=row[0], scope=row[1], digest=value))
        chain: dict[int, str] = {}
        for row in (
            m.HandRevision.objects.filter(hand__table_id__in=chunk)
            .order_by("hand_id", "pk")
            .values_list(*REVISION_FIELDS)
        ):
            value = digest(Kind.REVISION, list(row), chain.get(row[1], ""))
            chain[row[1]] = value
            rows.append(m.Seal(kind=Kind.REVISION, object_id=row[0], scope=row[1], digest=value))
        for row in m.Hand.objects.filter(table_id__in=chunk).values_list(*HAND_FIELDS):
            rows.append(
                m.Seal(
                    kind=Kind.HAND,
                    object_id=row[0],
                    scope=row[1],
                    digest=digest(Kind.HAND, list(row)),
                )
            )
    chain = {}
    for start in range(0, len(evening_ids), 500):
        for row in (
            m.EveningLog.objects.filter(evening_id__in=evening_ids[start : start + 500])
            .order_by("evening_id", "pk")
            .values_list(*LOG_FIELDS)
        ):
            value = digest(Kind.LOG, list(row), chain.get(row[1], ""))
            chain[row[1]] = value
            rows.append(m.Seal(kind=Kind.LOG, object_id=row[0], scope=row[1], digest=value))
    m.Seal.objects.bulk_create(rows, batch_size=BATCH)
    clubs = set(m.Evening.objects.filter(pk__in=evening_ids).values_list("club_id", flat=True))
    clubs |= set(
        m.Tournament.objects.filter(pk__in=tournament_ids).values_list("club_id", flat=True)
    )
    seal_chains(clubs, m)
    seal_heads(tables=table_ids, evenings=evening_ids, tournaments=tournament_ids, m=m)
    from ledger.services import people  # it seals through this module

    everyone = m.Club.objects.values_list("pk", flat=True) if whole else clubs
    people.seal_clubs(everyone, people.models_of(apps))
    return len(rows) + len(table_ids) + len(evening_ids) + len(tournament_ids) + len(clubs)
