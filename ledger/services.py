"""The only code that writes ledger rows.

Every service is one ``transaction.atomic(durable=True)`` block (``_writing``, which also
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
import datetime

from django.db import IntegrityError, transaction
from django.db.models import Max
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from ledger import balances as summary
from ledger import selectors, stats
from ledger.errors import (
    CupNegativeError,
    EveningClosedError,
    JetonDifferenceError,
    LedgerError,
    SeatingError,
    StaleFormError,
)
from ledger.games import get_game
from ledger.games.base import reserved_account_names
from ledger.games.money import MAX_POINTS, to_money
from ledger.models import (
    Account,
    Club,
    Evening,
    EveningLog,
    EveningResult,
    Hand,
    HandRevision,
    JetonCount,
    Member,
    Posting,
    Season,
    Seat,
    Table,
    Transfer,
)

VOID = object()

# The tables posted to in the current service's transaction (see ``_writing``).
_POSTED: contextvars.ContextVar[dict | None] = contextvars.ContextVar("posted", default=None)


@contextlib.contextmanager
def _writing():
    """Every service's transaction: ``transaction.atomic(durable=True)`` that, before it
    commits, rewrites the statistics summary of every table it posted to (``ledger.stats``),
    so the summary is written in the same transaction as the postings it sums."""
    with transaction.atomic(durable=True):
        token = _POSTED.set({})
        try:
            yield
            stats.refresh(_POSTED.get().values())
        finally:
            _POSTED.reset(token)


def _posted_to(table: Table) -> None:
    posted = _POSTED.get()
    if posted is None:  # a posting outside a service's transaction: summarise it at once
        stats.refresh([table])
    else:
        posted[table.pk] = table


# --- locks and reads under them ------------------------------------------------------------


def _in_transaction() -> None:
    if not transaction.get_connection().in_atomic_block:
        raise RuntimeError("rows are locked only inside a transaction")


def _lock_evening(evening_id: int) -> Evening:
    _in_transaction()
    return Evening.objects.select_for_update(of=("self",)).get(pk=evening_id)


def _lock_table(table_id: int) -> Table:
    """Lock one table row (and nothing else), then read its evening as it is now."""
    _in_transaction()
    table = Table.objects.select_for_update(of=("self",)).get(pk=table_id)
    table.evening = Evening.objects.select_related("club").get(pk=table.evening_id)
    return table


def _check_writable(table: Table) -> None:
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


class _Ledger:
    """The accounts and running balances of one locked table, for writing postings."""

    def __init__(self, table: Table):
        self.table = table
        self.game = get_game(table.game)
        self.accounts = {a.code: a for a in Account.objects.filter(table_id=table.pk)}
        self.by_id = {a.pk: a for a in self.accounts.values()}
        self.balances = selectors.account_balances(table.pk)
        self.guarded = [p.code for p in self.game.features.pools if not p.may_go_negative]

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
                _("{name} has no account at this table").format(name=code), "__all__"
            ) from None

    def post_accounts(self, kind: str, moves, *, by=None, **fields) -> Posting:
        posting = Posting.objects.create(table=self.table, kind=kind, created_by=by, **fields)
        rows = []
        for src, dst, points, reason in moves:
            self.balances[src.pk] = self.balances.get(src.pk, 0) - points
            self.balances[dst.pk] = self.balances.get(dst.pk, 0) + points
            for code in self.guarded:
                if self.balance(code) < 0:
                    raise CupNegativeError(
                        _("the {cup} would go below zero").format(cup=code), "__all__"
                    )
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
        _posted_to(self.table)
        return posting

    def reverse(self, posting: Posting, *, by=None, note: str = "") -> Posting:
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


def _live_postings(table: Table, *, from_id: int | None = None):
    qs = Posting.objects.filter(
        table=table, reverses__isnull=True, reversed_by__isnull=True
    ).exclude(kind=Posting.Kind.REVERSAL)
    if from_id is not None:
        qs = qs.filter(pk__gte=from_id)
    return list(qs.select_related("hand", "revision").order_by("pk"))


def _last_state(table: Table, before_id: int | None = None):
    """Return the state after the table's last live hand (before posting ``before_id``)."""
    qs = Posting.objects.filter(
        table=table, kind=Posting.Kind.HAND, reversed_by__isnull=True
    ).order_by("-pk")
    if before_id is not None:
        qs = qs.filter(pk__lt=before_id)
    last = qs.values_list("state_after", flat=True).first()
    return last


def _seat_names(table: Table, *, current: bool = True) -> list[str]:
    seats = selectors.current_seats(table.pk) if current else selectors.all_seats(table.pk)
    return [s.name for s in seats]


def _post_hand(ledger: _Ledger, hand: Hand, revision: HandRevision, record, rates, state, by):
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
    return posting, settlement


def _replay_tail(table: Table, from_posting: Posting, replacements: dict, *, by, note: str):
    """Reverse every live posting of ``table`` from ``from_posting`` on, then post them again.

    Hands are re-settled from their record (or from the replacement revision in
    ``replacements``, keyed by hand id; ``VOID`` leaves the hand out), so every later hand sees
    the state it would have seen; funding and adjustments are posted again unchanged.
    """
    rates = rate_card(table.evening)
    ledger = _Ledger(table)
    tail = _live_postings(table, from_id=from_posting.pk)
    previous = _last_state(table, before_id=from_posting.pk)
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
            seats = revision.record.get("seats") or _seat_names(table)
            state = ledger.game.next_state(previous, ledger.pools(), seats)
            new, settlement = _post_hand(ledger, hand, revision, revision.record, rates, state, by)
            previous = settlement.state_after
            changed.append((hand, posting, new))
        else:
            ledger.repost(posting, by=by, note=note)
    return changed


# --- evenings and tables -------------------------------------------------------------------


def evening_open(*, club: Club, date: datetime.date, season: Season | None = None, by=None):
    """Open an evening, copying the club's game, rate card and price per point onto it.

    At most one evening of a club is open per date (the database holds it too).
    """
    game = get_game(club.game)
    rates = game.rate_card(club.rate_card or {})
    if season is None:
        season = Season.objects.filter(club=club, starts_on__lte=date, ends_on__gte=date).first()
    elif season.club_id != club.pk:
        raise LedgerError(_("the season belongs to another club"), "season")
    if Evening.objects.filter(club=club, date=date, status=Evening.Status.OPEN).exists():
        raise LedgerError(_("an evening of this date is already open"), "date")
    try:
        with _writing():
            evening = Evening(
                club=club,
                season=season,
                date=date,
                game=game.code,
                rate_card=rates.as_dict(),
                price_per_point=club.price_per_point,
                starting_jetons=club.starting_jetons,
            )
            evening.full_clean(validate_constraints=False)
            evening.save()
            EveningLog.objects.create(evening=evening, action="open", by=by)
    except IntegrityError as error:
        # Two requests raced past the check above: the partial unique index refused one.
        raise LedgerError(_("an evening of this date is already open"), "date") from error
    return evening


def _seated_elsewhere(evening: Evening, members, *, table: Table | None = None) -> list[str]:
    """Return the names of ``members`` already seated at another open table of the evening."""
    seats = Seat.objects.filter(
        member__in=members, left=False, table__status=Table.Status.OPEN, table__evening=evening
    )
    if table is not None:
        seats = seats.exclude(table=table)
    return sorted({s.member.name for s in seats.select_related("member")})


def _check_seatable(game, members) -> None:
    reserved = reserved_account_names()
    for m in members:
        if m.name in reserved:
            raise SeatingError(
                _("{name} is the name of a table's account; rename the member first").format(
                    name=m.name
                ),
                "members",
            )


def table_open(*, evening: Evening, members, first_dealer: Member | None = None, by=None):
    """Open a table of members (in the direction of play); the game's opening moves post."""
    members = list(members)
    game = get_game(evening.game)
    low, high = game.features.min_seats, game.features.max_seats
    if not low <= len(members) <= high:
        raise SeatingError(
            _("a table of this game seats {low} to {high} members, not {n}").format(
                low=low, high=high, n=len(members)
            ),
            "members",
        )
    if len({m.pk for m in members}) != len(members):
        raise SeatingError(_("a member can have only one seat at a table"), "members")
    if any(m.club_id != evening.club_id for m in members):
        raise SeatingError(_("every member must belong to the evening's club"), "members")
    _check_seatable(game, members)
    first_dealer = first_dealer or members[0]
    if first_dealer not in members:
        raise SeatingError(_("the first dealer must be seated at the table"), "first_dealer")
    with _writing():
        evening = _lock_evening(evening.pk)
        if evening.status != Evening.Status.OPEN:
            raise EveningClosedError()
        busy = _seated_elsewhere(evening, members)
        if busy:
            raise SeatingError(
                _("already seated at another open table: {names}").format(names=", ".join(busy)),
                "members",
            )
        number = (evening.tables.aggregate(n=Max("number"))["n"] or 0) + 1
        table = Table.objects.create(
            evening=evening, number=number, game=evening.game, first_dealer=first_dealer
        )
        Seat.objects.bulk_create(
            Seat(table=table, member=m, name=m.name, position=i + 1) for i, m in enumerate(members)
        )
        Account.objects.bulk_create(
            [Account(table=table, kind=Account.Kind.POOL, code=c) for c in game.features.pool_codes]
            + [
                Account(table=table, kind=Account.Kind.MEMBER, member=m, code=m.name)
                for m in members
            ]
        )
        table = _lock_table(table.pk)
        rates = rate_card(evening)
        _state, moves = game.initial_state([m.name for m in members], rates)
        if moves:
            _Ledger(table).post(Posting.Kind.FUNDING, moves, by=by)
    return table


def table_seat(*, table: Table, member: Member, position: int | None = None, by=None) -> Seat:
    """Seat a late arrival at ``position`` (0 = first; default last); he pays what the game
    asks of a late arrival."""
    with _writing():
        evening = _lock_evening(table.evening_id)
        table = _lock_table(table.pk)
        _check_writable(table)
        game = get_game(table.game)
        if member.club_id != evening.club_id:
            raise SeatingError(_("every member must belong to the evening's club"), "member")
        _check_seatable(game, [member])
        if Seat.objects.filter(table=table, member=member).exists():
            raise SeatingError(
                _("{name} already has a seat at this table").format(name=member.name), "member"
            )
        if _seated_elsewhere(evening, [member], table=table):
            raise SeatingError(
                _("already seated at another open table: {names}").format(names=member.name),
                "member",
            )
        seats = selectors.current_seats(table.pk)
        if len(seats) >= game.features.max_seats:
            raise SeatingError(
                _("a table of this game seats at most {n} members").format(
                    n=game.features.max_seats
                ),
                "member",
            )
        if Account.objects.filter(table=table, code=member.name).exists():
            raise SeatingError(_("a member of this name already played at this table"), "member")
        position = len(seats) if position is None else max(0, min(position, len(seats)))
        all_seats = list(Seat.objects.filter(table=table).order_by("position"))
        before = seats[position - 1].position if position > 0 else 0
        for seat in all_seats:
            if seat.position > before:
                seat.position += 1
        Seat.objects.bulk_update(all_seats, ["position"])
        seat = Seat.objects.create(
            table=table,
            member=member,
            name=member.name,
            position=before + 1,
            joined_at_hand=next_hand_number(table.pk),
        )
        Account.objects.create(
            table=table, kind=Account.Kind.MEMBER, member=member, code=member.name
        )
        moves = game.seat_moves(member.name, rate_card(table.evening))
        if moves:
            _Ledger(table).post(Posting.Kind.FUNDING, moves, by=by, note=f"{member.name} seated")
    return seat


def table_leave(*, table: Table, member: Member, by=None) -> None:
    """Let a member leave the table early; he keeps his share of the close."""
    with _writing():
        table = _lock_table(table.pk)
        _check_writable(table)
        updated = Seat.objects.filter(table=table, member=member, left=False).update(left=True)
        if not updated:
            raise SeatingError(
                _("{name} has no seat at this table").format(name=member.name), "member"
            )


# --- hands ---------------------------------------------------------------------------------


def table_state(table: Table, ledger: _Ledger | None = None) -> dict:
    """Return the game's state the next hand of ``table`` starts from."""
    ledger = ledger or _Ledger(table)
    return ledger.game.next_state(_last_state(table), ledger.pools(), _seat_names(table))


def hand_record(
    *,
    table: Table,
    record: dict,
    token: str | None = None,
    number: int | None = None,
    version: int | None = None,
    by=None,
) -> Hand:
    """Record one hand: validate it, settle it from the table's state and post its transfers.

    A ``token`` already used returns the hand it recorded, so a retried or double-tapped
    submit records the hand once. ``number`` and ``version`` are what the form was previewed
    against (the hand's number, ``table_version``): a save whose slot another device took, or
    whose table changed since the preview, is refused (StaleFormError). Raises HandError
    (from the game) or LedgerError; nothing is written then.
    """
    with _writing():
        table = _lock_table(table.pk)
        if token:
            existing = Hand.objects.filter(token=token).first()
            if existing is not None:
                if existing.table_id != table.pk:
                    raise LedgerError(_("this form was already used at another table"), "token")
                return existing
        _check_writable(table)
        next_number = next_hand_number(table.pk)
        if number is not None and number != next_number:
            raise StaleFormError(
                _("Hand {number} has already been saved from another device").format(number=number),
                "number",
                hand_number=number,
            )
        if version is not None and version != table_version(table.pk):
            raise StaleFormError(
                _("the table changed since this preview; look at the preview again"),
                "version",
                hand_number=number,
            )
        seats = selectors.current_seats(table.pk)
        names = [s.name for s in seats]
        game = get_game(table.game)
        data = {k: v for k, v in dict(record).items() if k != game.features.state_in}
        if "seats" in data and data["seats"] != names:
            raise LedgerError(
                _("the seats must be the table's: {names}").format(names=", ".join(names)), "seats"
            )
        data["seats"] = names
        rates = rate_card(table.evening)
        ledger = _Ledger(table)
        state = table_state(table, ledger)
        parsed = game.parse_hand(data, rates, state=state)
        stored = parsed.as_dict()
        stored.pop(game.features.state_in or "", None)
        dealer = next(s.member for s in seats if s.name == parsed.dealer)
        hand = Hand.objects.create(
            table=table,
            number=next_number,
            game=table.game,
            record=stored,
            token=token or None,
            dealer=dealer,
            created_by=by,
        )
        revision = HandRevision.objects.create(
            hand=hand, number=1, action=HandRevision.Action.RECORD, record=stored, by=by
        )
        _post_hand(ledger, hand, revision, stored, rates, state, by)
    return hand


def _live_hand_posting(hand: Hand) -> Posting:
    return Posting.objects.get(hand=hand, kind=Posting.Kind.HAND, reversed_by__isnull=True)


def hand_correct(*, hand: Hand, record: dict, reason: str, based_on: int | None = None, by=None):
    """Correct a hand: reverse it and every later posting of its table, then post them again.

    ``based_on`` is the revision number the correction was made from. A resend of a
    correction already saved (its record equals the latest revision) changes nothing and
    returns ``[]``; a correction made from an older revision is refused as changed meanwhile.
    Return a list of ``(hand, old posting, new posting)`` for every re-settled hand.
    """
    if not reason or not reason.strip():
        raise LedgerError(_("a correction needs a reason"), "reason")
    with _writing():
        table = _lock_table(hand.table_id)
        _check_writable(table)
        hand = Hand.objects.select_for_update(of=("self",)).get(pk=hand.pk)
        if hand.status != Hand.Status.RECORDED:
            raise LedgerError(_("a voided hand cannot be corrected"), "hand")
        game = get_game(hand.game)
        data = {k: v for k, v in dict(record).items() if k != game.features.state_in}
        data.setdefault("seats", hand.record["seats"])
        if data["seats"] != hand.record["seats"]:
            raise LedgerError(_("the seats of a recorded hand cannot change"), "seats")
        rates = rate_card(table.evening)
        parsed = game.parse_hand(data, rates)
        stored = parsed.as_dict()
        stored.pop(game.features.state_in or "", None)
        latest = hand.revisions.order_by("-number").first()
        if based_on is not None and based_on != latest.number:
            if stored == latest.record:
                return []
            raise StaleFormError(
                _("hand {number} was changed meanwhile; look at it again").format(
                    number=hand.number
                ),
                "based_on",
                hand_number=hand.number,
            )
        revision = HandRevision.objects.create(
            hand=hand,
            number=latest.number + 1,
            action=HandRevision.Action.CORRECT,
            record=stored,
            reason=reason,
            by=by,
        )
        first = _live_hand_posting(hand)
        changed = _replay_tail(table, first, {hand.pk: revision}, by=by, note=reason)
        dealer = Seat.objects.get(table=table, name=parsed.dealer).member
        Hand.objects.filter(pk=hand.pk).update(record=stored, dealer=dealer)
    return changed


def hand_void(*, hand: Hand, reason: str, by=None):
    """Void a hand: reverse it, and re-settle every later hand without it."""
    if not reason or not reason.strip():
        raise LedgerError(_("voiding a hand needs a reason"), "reason")
    with _writing():
        table = _lock_table(hand.table_id)
        _check_writable(table)
        hand = Hand.objects.select_for_update(of=("self",)).get(pk=hand.pk)
        if hand.status != Hand.Status.RECORDED:
            raise LedgerError(_("the hand is already voided"), "hand")
        HandRevision.objects.create(
            hand=hand,
            number=hand.revisions.count() + 1,
            action=HandRevision.Action.VOID,
            record=hand.record,
            reason=reason,
            by=by,
        )
        first = _live_hand_posting(hand)
        changed = _replay_tail(table, first, {hand.pk: VOID}, by=by, note=reason)
        Hand.objects.filter(pk=hand.pk).update(status=Hand.Status.VOIDED)
    return changed


# --- closing -------------------------------------------------------------------------------


def _close_moves(table: Table, ledger: _Ledger) -> list:
    rates = rate_card(table.evening)
    seats = _seat_names(table, current=False)
    state = table_state(table, ledger)
    return ledger.game.close(ledger.balances_by_code(), state, rates, seats)


def _split(table: Table, by) -> Posting | None:
    ledger = _Ledger(table)
    moves = _close_moves(table, ledger)
    if not moves:
        return None
    return ledger.post(Posting.Kind.SPLIT, moves, by=by)


def table_close(*, table: Table, by=None) -> Table:
    """Close a table the game's way (Danish: split the cups), and lock it."""
    with _writing():
        evening = _lock_evening(table.evening_id)
        table = _lock_table(table.pk)
        table.evening = evening
        _check_writable(table)
        _split(table, by)
        table.status = Table.Status.CLOSED
        table.save(update_fields=["status"])
    return table


def jeton_expected(table: Table, balances: dict[str, int] | None = None) -> dict[str, int]:
    """Return the jetons each account should hold, by account code: a pool its balance, a
    member his stack (the evening's ``starting_jetons`` plus his balance)."""
    balances = balances if balances is not None else selectors.table_balances(table.pk)
    pools = set(get_game(table.game).features.pool_codes)
    start = table.evening.starting_jetons
    return {code: balance + (0 if code in pools else start) for code, balance in balances.items()}


def jeton_differences(table: Table) -> dict[str, int]:
    """Return counted minus expected per counted account code (latest count), no zeros."""
    expected = jeton_expected(table)
    latest = {}
    for count in JetonCount.objects.filter(table=table).select_related("account"):
        latest[count.account.code] = count.points
    return {
        code: counted - expected[code]
        for code, counted in latest.items()
        if counted != expected[code]
    }


def jeton_counts_stale(table: Table) -> bool:
    """Return whether a latest count of ``table`` predates its latest change (a hand, a
    correction, an adjustment; a reopening's reversal of the split is no change)."""
    counted = JetonCount.objects.filter(table=table).aggregate(at=Max("counted_at"))["at"]
    if counted is None:
        return False
    changed = (
        Posting.objects.filter(table=table)
        .filter(selectors.CHANGES_THE_COUNT)
        .aggregate(at=Max("created_at"))["at"]
    )
    return changed is not None and counted < changed


def evening_close(*, evening: Evening, by=None, confirm_differences: bool = False) -> Evening:
    """Close every table the game's way, write each member's result in points and money,
    and lock the evening."""
    with _writing():
        evening = _lock_evening(evening.pk)
        evening.club = Club.objects.get(pk=evening.club_id)
        if evening.status != Evening.Status.OPEN:
            raise EveningClosedError()
        tables = list(
            Table.objects.select_for_update(of=("self",)).filter(evening=evening).order_by("pk")
        )
        tables.sort(key=lambda t: t.number)
        differences = {
            t.number: jeton_differences(t) for t in tables if get_game(t.game).features.uses_jetons
        }
        if any(differences.values()) and not confirm_differences:
            raise JetonDifferenceError(
                _("the counted jetons differ from the ledger; confirm the differences to close"),
                "confirm_differences",
            )
        stale = [
            t.number
            for t in tables
            if get_game(t.game).features.uses_jetons and jeton_counts_stale(t)
        ]
        if stale and not confirm_differences:
            raise JetonDifferenceError(
                _(
                    "the jetons of table {tables} were counted before its latest change; "
                    "count again or confirm to close"
                ).format(tables=", ".join(str(n) for n in stale)),
                "confirm_differences",
            )
        for table in tables:
            table.evening = evening
            if table.status == Table.Status.OPEN:
                _split(table, by)
                table.status = Table.Status.CLOSED
                table.save(update_fields=["status"])
        points: dict[int, int] = {}
        for table in tables:
            balances = selectors.account_balances(table.pk)
            for account in Account.objects.filter(table=table, kind=Account.Kind.MEMBER):
                points[account.member_id] = points.get(account.member_id, 0) + balances.get(
                    account.pk, 0
                )
        closing = EveningLog.objects.filter(evening=evening, action="close").count() + 1
        EveningResult.objects.bulk_create(
            EveningResult(
                evening=evening,
                member_id=member_id,
                points=total,
                money=to_money(total, evening.price_per_point),
                closing=closing,
            )
            for member_id, total in points.items()
        )
        details = [
            {"table": n, "account": code, "difference": diff}
            for n, d in differences.items()
            for code, diff in d.items()
        ]
        EveningLog.objects.create(evening=evening, action="close", details=details, by=by)
        evening.status = Evening.Status.CLOSED
        evening.closed_at = timezone.now()
        evening.save(update_fields=["status", "closed_at"])
    return evening


def evening_reopen(*, evening: Evening, reason: str, by=None) -> Evening:
    """Reopen a closed evening: reverse every table's close and unlock it. Logged with reason."""
    if not reason or not reason.strip():
        raise LedgerError(_("reopening an evening needs a reason"), "reason")
    with _writing():
        evening = _lock_evening(evening.pk)
        if evening.status != Evening.Status.CLOSED:
            raise LedgerError(_("the evening is not closed"), "evening")
        if Evening.objects.filter(
            club_id=evening.club_id, date=evening.date, status=Evening.Status.OPEN
        ).exists():
            raise LedgerError(_("an evening of this date is already open"), "evening")
        evening.status = Evening.Status.OPEN
        evening.closed_at = None
        evening.save(update_fields=["status", "closed_at"])
        for table in (
            Table.objects.select_for_update(of=("self",)).filter(evening=evening).order_by("pk")
        ):
            table.evening = evening
            ledger = _Ledger(table)
            for posting in _live_postings(table):
                if posting.kind == Posting.Kind.SPLIT:
                    ledger.reverse(posting, by=by, note=reason)
            table.status = Table.Status.OPEN
            table.save(update_fields=["status"])
        EveningLog.objects.create(evening=evening, action="reopen", reason=reason, by=by)
    return evening


def _check_points(value, field: str, *, positive: bool) -> None:
    if isinstance(value, bool) or not isinstance(value, int):
        raise LedgerError(_("a whole number of points is needed"), field)
    low = 1 if positive else 0
    if not low <= value <= MAX_POINTS:
        raise LedgerError(
            _("the points must be between {low} and {high}").format(low=low, high=MAX_POINTS),
            field,
        )


def jetons_count(*, table: Table, counts: dict[str, int], by=None) -> list[JetonCount]:
    """Record what the treasurer counted per account code; the ledger is not changed."""
    with _writing():
        table = _lock_table(table.pk)
        if table.evening.status != Evening.Status.OPEN:
            raise EveningClosedError()
        accounts = {a.code: a for a in Account.objects.filter(table=table)}
        rows = []
        for code, points in counts.items():
            if code not in accounts:
                raise LedgerError(_("{name} has no account at this table").format(name=code), code)
            _check_points(points, code, positive=False)
            rows.append(
                JetonCount(table=table, account=accounts[code], points=points, counted_by=by)
            )
        return JetonCount.objects.bulk_create(rows)


def adjustment_post(
    *, table: Table, source: str, target: str, points: int, reason: str, by=None
) -> Posting:
    """Post a treasurer's explicit adjustment between two accounts (by code), with a reason.

    The posting keeps what was asked (``intent``: account ids and points), which
    ``verify_ledger`` compares with its transfers.
    """
    if not reason or not reason.strip():
        raise LedgerError(_("an adjustment needs a reason"), "reason")
    _check_points(points, "points", positive=True)
    if source == target:
        raise LedgerError(_("an adjustment moves points between two different accounts"), "target")
    with _writing():
        table = _lock_table(table.pk)
        if table.evening.status != Evening.Status.OPEN:
            raise EveningClosedError()
        ledger = _Ledger(table)
        for field, code in (("source", source), ("target", target)):
            if code not in ledger.accounts:
                raise LedgerError(_("{name} has no account at this table").format(name=code), field)
        src, dst = ledger.accounts[source], ledger.accounts[target]
        return ledger.post_accounts(
            Posting.Kind.ADJUSTMENT,
            [(src, dst, points, "adjustment")],
            by=by,
            note=reason,
            intent={"source": src.pk, "target": dst.pk, "points": points},
        )
