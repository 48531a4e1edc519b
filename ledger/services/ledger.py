"""The ledger's writing core: every service's transaction, the locks, and one table's ledger.

Every service is one ``transaction.atomic(durable=True)`` block (``writing``, which also
rewrites the statistics summary of the tables it posted to before it commits). It first locks
the rows it writes to, only those (``select_for_update(of=("self",))``, never a joined row),
always in one order: **the evening, then its tables by id, then a hand**. A service that writes
to one table locks only that table and reads the evening after the lock (so it sees a close
that committed while it waited); a service that changes an evening (close, reopen, a new table,
a seat) locks the evening first. Concurrent tablets at one table are thereby serialised, close
and saves never deadlock, and a refused write leaves nothing behind.

Services speak the game's language through ``ledger.games``: moves name accounts by their
code (the seat's name as seated, or a pool's code) and the ledger maps codes to account ids
once per table. Services take keyword arguments only.
"""

from __future__ import annotations

import contextlib
import contextvars
from dataclasses import dataclass

from django.db import transaction
from django.db.models import (
    BigIntegerField,
    CharField,
    Count,
    Exists,
    F,
    FilteredRelation,
    JSONField,
    Max,
    Q,
    Subquery,
    Value,
)
from django.utils.translation import gettext_lazy as _

from ledger.games.money import MAX_BALANCE, MAX_MOVE
from ledger.games.registry import get_game
from ledger.models import (
    Account,
    AccountBalance,
    Evening,
    Hand,
    HandRevision,
    Posting,
    RoundTable,
    Seal,
    Seat,
    Table,
    Transfer,
    not_reversed,
)
from ledger.services import balances as summary
from ledger.services import seal_pending, seals, stats
from ledger.services.errors import (
    CupNegativeError,
    EveningClosedError,
    LedgerError,
)
from ledger.services.locking import busy_refused, set_timeouts

VOID = object()


@contextlib.contextmanager
def writing(*, durable: bool = True):
    """Every service's transaction: ``transaction.atomic(durable=True)``; what a service writes
    (postings, transfers, the summaries, seat rows and seals written beside them) commits
    together or not at all. Before it commits, the heads of every table and evening it locked
    are sealed as they now stand (``ledger.services.seals``). ``durable=False`` only for a
    service the admin calls inside its own transaction. Its lock waits and statements are
    bounded (``ledger.services.locking``): a lock not had in time is ``BusyError``."""
    locked: dict = {"hands": set(), "tables": set(), "evenings": set(), "tournaments": set()}
    with busy_refused(locked), transaction.atomic(durable=durable), seal_pending.pending():
        set_timeouts()
        token = _TOUCHED.set(locked)
        try:
            yield
            seals.seal_heads(**(_TOUCHED.get() or {}))
        finally:
            _TOUCHED.reset(token)


# The tables and evenings locked in the current service's transaction (see ``writing``).
_TOUCHED: contextvars.ContextVar[dict | None] = contextvars.ContextVar("touched", default=None)


def touched(
    *,
    table_id: int | None = None,
    evening_id: int | None = None,
    hand_id: int | None = None,
    tournament_id: int | None = None,
) -> None:
    """Note that the current service writes to a table, an evening, a hand or a tournament (its
    entries, rounds, round tables, byes): its seal is written at the end of the transaction."""
    current = _TOUCHED.get()
    if current is None:
        return
    if tournament_id is not None:
        current["tournaments"].add(tournament_id)
    if hand_id is not None:
        current["hands"].add(hand_id)
    if table_id is not None:
        current["tables"].add(table_id)
    if evening_id is not None:
        current["evenings"].add(evening_id)


# --- locks and reads under them ------------------------------------------------------------


def in_transaction() -> None:
    if not transaction.get_connection().in_atomic_block:
        raise RuntimeError("rows are locked only inside a transaction")


def lock_evening(evening_id: int) -> Evening:
    in_transaction()
    touched(evening_id=evening_id)
    return Evening.objects.select_for_update(of=("self",)).get(pk=evening_id)


def lock_table(table_id: int) -> Table:
    """Lock one table row (and nothing else), then read its evening as it is now."""
    in_transaction()
    touched(table_id=table_id)
    table = Table.objects.select_for_update(of=("self",)).get(pk=table_id)
    table.evening = Evening.objects.select_related("club").get(pk=table.evening_id)
    return table


def check_writable(table: Table) -> None:
    if table.evening.status != Evening.Status.OPEN:
        raise EveningClosedError()
    if table.status != Table.Status.OPEN:
        raise LedgerError(_("the table is closed"), "table")


def evening_game(evening: Evening):
    """Return the game of ``evening`` (copied from the club when it opened)."""
    return get_game(evening.game)


def rate_card(evening: Evening):
    """Return the rate card in force at ``evening`` (copied when it opened)."""
    return evening_game(evening).rate_card(evening.rate_card)


def table_version(table_id: int) -> int:
    """Return the id of the table's latest posting (0 before any): a form previewed against
    one version may be saved only while the table is still at it."""
    return Posting.objects.filter(table_id=table_id).aggregate(v=Max("pk"))["v"] or 0


def next_hand_number(table_id: int) -> int:
    return (Hand.objects.filter(table_id=table_id).aggregate(n=Max("number"))["n"] or 0) + 1


@dataclass(frozen=True)
class HandSlot:
    """What a hand's save reads of its locked table besides its row (``lock_table_for_hand``)."""

    number: int  # the next hand's number
    version: int  # ``table_version``
    used: int | None  # the hand recorded with the form's token, if any
    hands: int  # how many hands the table has (voided ones too)
    postings: int  # how many postings
    last_seal: str  # the seal of its latest posting ("" before any)
    last_state: dict | None  # ``last_state``
    round_table: bool  # whether it is a tournament's round table
    seats: int  # how many seats it has (those who left too)


def _scalar(queryset, expression, output_field, *order: str):
    """A one-value subquery: ``expression`` of the first row of ``queryset`` in ``order``."""
    return Subquery(
        queryset.order_by(*order).annotate(value=expression).values("value")[:1],
        output_field=output_field,
    )


def lock_table_for_hand(
    table_id: int, token: str | None = None, *, club_id: int | None = None, grants=None
) -> tuple[Table, HandSlot, TableLedger]:
    """Lock one table row, as ``lock_table`` does, then read in one query its evening (and
    club) as they are now, what a hand's save needs of it (``HandSlot``) and its accounts with
    their summaries and seats (its ``TableLedger``). With ``club_id`` (and ``grants``, the
    table ids a table's link may score) only a table of that club (among them) is locked:
    another raises ``Table.DoesNotExist`` (the view's 404), nothing locked."""
    in_transaction()
    touched(table_id=table_id)
    locked = Table.objects.select_for_update(of=("self",)).filter(pk=table_id).order_by()
    if club_id is not None:
        locked = locked.filter(evening__club_id=club_id)
    if grants is not None:
        locked = locked.filter(pk__in=grants)
    if not list(locked.values_list("pk", flat=True)):
        raise Table.DoesNotExist
    hands = Hand.objects.filter(table_id=table_id).values("table_id")
    postings = Posting.objects.filter(table_id=table_id).values("table_id")
    big = BigIntegerField()
    used = Hand.objects.filter(token=token) if token else Hand.objects.none()
    live_hands = postings.filter(not_reversed(), kind=Posting.Kind.HAND)
    # Subqueries of constants: each is computed once, however many accounts the table has.
    slot_of = {
        "slot_last": _scalar(hands.annotate(n=Max("number")), F("n"), big),
        "slot_hands": _scalar(hands.annotate(n=Count("pk")), F("n"), big),
        "slot_version": _scalar(postings.annotate(v=Max("pk")), F("v"), big),
        "slot_postings": _scalar(postings.annotate(n=Count("pk")), F("n"), big),
        "slot_used": _scalar(used, F("pk"), big) if token else Value(None, big),
        "slot_seal": _scalar(
            Seal.objects.filter(kind=Seal.Kind.POSTING, scope=table_id),
            F("digest"),
            CharField(),
            "-object_id",
        ),
        "slot_state": _scalar(live_hands, F("state_after"), JSONField(), "-pk"),
        "slot_round": Exists(RoundTable.objects.filter(table_id=table_id)),
        "slot_seats": _scalar(
            Seat.objects.filter(table_id=table_id).values("table_id").annotate(n=Count("pk")),
            F("n"),
            big,
        ),
    }
    rows = list(
        _accounts(table_id, seats=True).select_related("table__evening__club").annotate(**slot_of)
    )
    if rows:
        table, first = rows[0].table, rows[0]
    else:  # a table without accounts yet
        table = Table.objects.select_related("evening__club").annotate(**slot_of).get(pk=table_id)
        first = table
    slot = HandSlot(
        number=(first.slot_last or 0) + 1,
        version=first.slot_version or 0,
        used=first.slot_used,
        hands=first.slot_hands or 0,
        postings=first.slot_postings or 0,
        last_seal=seal_pending.waiting_seal(Seal.Kind.POSTING, table_id) or first.slot_seal or "",
        last_state=first.slot_state,
        round_table=bool(first.slot_round),
        seats=first.slot_seats or 0,
    )
    return table, slot, TableLedger(table, seats=True, rows=rows)


def table_balances(table_id: int) -> dict[str, int]:
    """Return each account's balance of a table by code (members as seated, and the pools)."""
    balances = AccountBalance.objects.of_table(table_id)
    return {
        code: balances.get(pk, 0)
        for pk, code in Account.objects.filter(table_id=table_id).values_list("pk", "code")
    }


SEAT_FIELDS = ("pk", "member_id", "name", "position", "joined_at_hand", "left")


def _accounts(table_id: int, *, seats: bool):
    """A table's accounts in id order with their summaries (balance, statistics) and, with
    ``seats``, each member account's seat as ``seat_<field>`` (``SEAT_FIELDS``)."""
    accounts = Account.objects.filter(table_id=table_id).select_related("summary", "stats_summary")
    if seats:
        accounts = accounts.annotate(
            seat=FilteredRelation("member__seats", condition=Q(member__seats__table=table_id))
        ).annotate(**{f"seat_{name}": F(f"seat__{name}") for name in SEAT_FIELDS})
    return accounts.order_by("pk")


class TableLedger:
    """The accounts and running balances of one locked table, for writing postings."""

    def __init__(self, table: Table, *, seats: bool = False, rows: list | None = None):
        self.table = table
        self.game = get_game(table.game)
        # The accounts with their running balances and statistics (the summaries' rows, if
        # any) in one query (``rows``: read so by the caller); with ``seats``, each member
        # account's seat at the table too.
        if rows is None:
            rows = list(_accounts(table.pk, seats=seats))
        self.accounts = {a.code: a for a in rows}
        self.by_id = {a.pk: a for a in rows}
        self.balances = {a.pk: a.summary.balance for a in rows if hasattr(a, "summary")}
        # Each account's statistics as read under the lock (``stats.record_hand`` adds to them).
        self.stats = {a.pk: a.stats_summary.stats for a in rows if hasattr(a, "stats_summary")}
        self.guarded = [p.code for p in self.game.features.pools if not p.may_go_negative]
        self.last_seal: str | None = None  # the seal of the table's latest posting, once read
        # With ``seats``: the table's seats as (pk, member, name, position, joined at hand,
        # left) in id order (``seals.table_head``), read with the accounts.
        self.seats = (
            sorted(
                tuple(getattr(a, f"seat_{name}") for name in SEAT_FIELDS)
                for a in rows
                if getattr(a, "seat_pk", None) is not None
            )
            if seats
            else None
        )

    def balance(self, code: str) -> int:
        return self.balances.get(self.accounts[code].pk, 0)

    def pools(self) -> dict[str, int]:
        return {code: self.balance(code) for code in self.game.features.pool_codes}

    def balances_by_code(self) -> dict[str, int]:
        return {code: self.balances.get(a.pk, 0) for code, a in self.accounts.items()}

    def post(self, kind: str, moves, *, by=None, **fields) -> Posting:
        """Write one posting of ``moves`` (Moves, or (source, target, points, reason) by code)."""
        return self.post_accounts(
            kind,
            [
                (self._account(m[0]), self._account(m[1]), m[2], m[3])
                for m in (_as_tuple(m) for m in moves)
            ],
            by=by,
            **fields,
        )

    def _account(self, code: str) -> Account:
        try:
            return self.accounts[code]
        except KeyError:
            raise LedgerError(
                _("{name} has no account at this table"), "__all__", name=code
            ) from None

    def post_accounts(self, kind: str, moves, *, by=None, **fields) -> Posting:
        posting = Posting.objects.create(table=self.table, kind=kind, created_by=by, **fields)
        rows = []
        for src, dst, points, reason in moves:
            if points > MAX_MOVE:
                raise LedgerError(
                    _("this would move {points} points, more than the bound of {limit}"),
                    "__all__",
                    points=points,
                    limit=MAX_MOVE,
                )
            self.balances[src.pk] = self.balances.get(src.pk, 0) - points
            self.balances[dst.pk] = self.balances.get(dst.pk, 0) + points
            for account in (src, dst):
                if abs(self.balances[account.pk]) > MAX_BALANCE:
                    raise LedgerError(
                        _("{name}'s balance would pass the bound of {limit} points"),
                        "__all__",
                        name=account.code,
                        limit=MAX_BALANCE,
                    )
            for code in self.guarded:
                if self.balance(code) < 0:
                    raise CupNegativeError(_("the {cup} would go below zero"), "__all__", cup=code)
            rows.append(
                Transfer(
                    posting=posting,
                    table=self.table,
                    source=src,
                    target=dst,
                    points=points,
                    reason=reason,
                )
            )
        Transfer.objects.bulk_create(rows)
        # The summary, in the same transaction as the transfers it sums.
        summary.add(summary.deltas((t.source_id, t.target_id, t.points) for t in rows))
        previous = self.last_seal
        if previous is None:
            previous = seals.last_posting_seal(self.table.pk)
        self.last_seal = seals.seal_posting(posting, rows, self.by_id, previous)
        return posting

    def reverse(self, posting: Posting, *, by=None, note: str = "") -> Posting:
        if posting.kind == Posting.Kind.HAND:
            stats.unrecord_hand(posting, self.stats)
        moves = [
            (self.by_id[t.target_id], self.by_id[t.source_id], t.points, t.reason)
            for t in reversed(list(posting.transfers.all()))
        ]
        return self.post_accounts(
            Posting.Kind.REVERSAL, moves, by=by, reverses=posting, hand=posting.hand, note=note
        )

    def repost(self, posting: Posting, *, by=None, note: str = "") -> Posting:
        """Post the transfers of ``posting`` again, unchanged (funding, an adjustment)."""
        moves = [
            (self.by_id[t.source_id], self.by_id[t.target_id], t.points, t.reason)
            for t in posting.transfers.all()
        ]
        return self.post_accounts(
            posting.kind, moves, by=by, note=posting.note or note, intent=posting.intent
        )


def _as_tuple(move):
    if isinstance(move, tuple | list):
        return tuple(move)
    return (move.source, move.target, move.points, move.reason)


def live_postings(table: Table, *, from_id: int | None = None):
    qs = Posting.objects.filter(not_reversed(), table=table, reverses__isnull=True).exclude(
        kind=Posting.Kind.REVERSAL
    )
    if from_id is not None:
        qs = qs.filter(pk__gte=from_id)
    return list(qs.select_related("hand", "revision").order_by("pk"))


def last_state(table: Table, before_id: int | None = None):
    """Return the state after the table's last live hand (before posting ``before_id``)."""
    qs = Posting.objects.filter(not_reversed(), table=table, kind=Posting.Kind.HAND).order_by("-pk")
    if before_id is not None:
        qs = qs.filter(pk__lt=before_id)
    last = qs.values_list("state_after", flat=True).first()
    return last


def seat_names(table: Table, *, current: bool = True) -> list[str]:
    seats = Seat.objects.of_table(table.pk, current=current)
    return [s.name for s in seats]


def post_hand(ledger: TableLedger, hand: Hand, revision: HandRevision, record, rates, state, by):
    """Settle ``record`` from ``state`` and post it; return (posting, settlement)."""
    game = ledger.game
    parsed = game.parse_hand(record, rates, state=state)
    settlement = game.settle(parsed, rates, state)
    posting = ledger.post(
        Posting.Kind.HAND,
        settlement.transfers,
        by=by,
        hand=hand,
        revision=revision,
        state_before=dict(state),
        state_after=settlement.state_after,
        outcome={**settlement.outcome_data, "roles": settlement.roles},
    )
    stats.record_hand(
        game,
        posting=posting,
        accounts=ledger.accounts,
        record=parsed,
        settlement=settlement,
        current=ledger.stats,
    )
    return posting, settlement


def replay_tail(table: Table, from_posting: Posting, replacements: dict, *, by, note: str):
    """Reverse every live posting of ``table`` from ``from_posting`` on, then post them again.

    Hands are re-settled from their record (or from the replacement revision in
    ``replacements``, keyed by hand id; ``VOID`` leaves the hand out), so every later hand sees
    the state it would have seen; funding and adjustments are posted again unchanged.
    """
    rates = rate_card(table.evening)
    ledger = TableLedger(table)
    tail = live_postings(table, from_id=from_posting.pk)
    previous = last_state(table, before_id=from_posting.pk)
    for posting in reversed(tail):
        ledger.reverse(posting, by=by, note=note)
    latest = {
        r.hand_id: r
        for r in HandRevision.objects.filter(
            hand_id__in=[p.hand_id for p in tail if p.hand_id]
        ).order_by("number")
    }
    changed = []
    for posting in tail:
        if posting.kind == Posting.Kind.HAND:
            hand = posting.hand
            revision = replacements.get(hand.pk, latest[hand.pk])
            if revision is VOID:
                continue
            seats = revision.record.get("seats") or seat_names(table)
            state = ledger.game.next_state(previous, ledger.pools(), seats)
            new, settlement = post_hand(ledger, hand, revision, revision.record, rates, state, by)
            previous = settlement.state_after
            changed.append((hand, posting, new))
        else:
            ledger.repost(posting, by=by, note=note)
    return changed


_UNREAD = object()


def table_state(
    table: Table,
    ledger: TableLedger | None = None,
    *,
    seats: list[str] | None = None,
    last=_UNREAD,
) -> dict:
    """Return the game's state the next hand of ``table`` starts from (``seats``: the names
    of the seats still at the table, and ``last``: its ``last_state``, when the caller has read
    them)."""
    ledger = ledger or TableLedger(table)
    names = seat_names(table) if seats is None else seats
    previous = last_state(table) if last is _UNREAD else last
    return ledger.game.next_state(previous, ledger.pools(), names)


# --- closing -------------------------------------------------------------------------------


def close_moves(table: Table, ledger: TableLedger) -> list:
    rates = rate_card(table.evening)
    seats = seat_names(table, current=False)
    state = table_state(table, ledger)
    return ledger.game.close(ledger.balances_by_code(), state, rates, seats)


def post_split(table: Table, by) -> Posting | None:
    ledger = TableLedger(table)
    moves = close_moves(table, ledger)
    if not moves:
        return None
    return ledger.post(Posting.Kind.SPLIT, moves, by=by)
