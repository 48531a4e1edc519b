"""The only code that writes ledger rows.

Every service is one ``transaction.atomic(durable=True)`` block that first locks the Table
row it writes to (``select_for_update``), so concurrent tablets at one table are serialised
and a refused write leaves nothing behind. Services take keyword arguments only.
"""

from __future__ import annotations

import datetime

from django.db import transaction
from django.db.models import Max
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from ledger import selectors
from ledger.errors import (
    CupNegativeError,
    EveningClosedError,
    JetonDifferenceError,
    LedgerError,
    SeatingError,
)
from ledger.games import get_game
from ledger.models import (
    CUP_NAMES,
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
from ledger.rules import split_moves, to_money

VOID = object()


# --- helpers -------------------------------------------------------------------------------


def _lock_table(table_id: int) -> Table:
    if not transaction.get_connection().in_atomic_block:
        raise RuntimeError("a table is locked only inside a transaction")
    return Table.objects.select_for_update().select_related("evening__club").get(pk=table_id)


def _check_writable(table: Table) -> None:
    if table.evening.status != Evening.Status.OPEN:
        raise EveningClosedError()
    if table.status != Table.Status.OPEN:
        raise LedgerError(_("the table is closed"), "table")


def rate_card(evening: Evening):
    """Return the rate card in force at ``evening`` (copied when it opened)."""
    return get_game_for_club(evening.club).rate_card.from_dict(evening.rate_card)


def get_game_for_club(club: Club):
    return get_game(club.game)


class _Ledger:
    """The accounts and running balances of one locked table, for writing postings."""

    def __init__(self, table: Table):
        self.table = table
        self.accounts = selectors.table_accounts(table.pk)
        self.by_id = {a.pk: a for a in self.accounts.values()}
        self.balances = selectors.account_balances(table.pk)

    def balance(self, name: str) -> int:
        return self.balances.get(self.accounts[name].pk, 0)

    def cups(self) -> dict[str, int]:
        return {cup: self.balance(cup) for cup in CUP_NAMES}

    def post(self, kind: str, moves, *, by=None, **fields) -> Posting:
        """Write one posting of ``moves`` (source name, target name, points, reason)."""
        posting = Posting.objects.create(table=self.table, kind=kind, created_by=by, **fields)
        rows = []
        for source, target, points, reason in moves:
            src, dst = self.accounts[source], self.accounts[target]
            self.balances[src.pk] = self.balances.get(src.pk, 0) - points
            self.balances[dst.pk] = self.balances.get(dst.pk, 0) + points
            for cup in CUP_NAMES:
                if self.balance(cup) < 0:
                    raise CupNegativeError(
                        _("the {cup} would go below zero").format(cup=cup), "__all__"
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
        return posting

    def reverse(self, posting: Posting, *, by=None, note: str = "") -> Posting:
        moves = [
            (self.by_id[t.target_id].name, self.by_id[t.source_id].name, t.points, t.reason)
            for t in reversed(list(posting.transfers.all()))
        ]
        return self.post(
            Posting.Kind.REVERSAL, moves, by=by, reverses=posting, hand=posting.hand, note=note
        )


def _settlement_moves(settlement):
    return [(t.source, t.target, t.points, t.reason) for t in settlement.transfers]


def _stored_record(parsed) -> dict:
    record = parsed.as_dict()
    record.pop("cups_before", None)
    return record


def _live_postings(table: Table, *, from_id: int | None = None):
    qs = Posting.objects.filter(
        table=table, reverses__isnull=True, reversed_by__isnull=True
    ).exclude(kind=Posting.Kind.REVERSAL)
    if from_id is not None:
        qs = qs.filter(pk__gte=from_id)
    return list(qs.select_related("hand", "revision").order_by("pk"))


def _post_hand(ledger: _Ledger, hand: Hand, revision: HandRevision, record: dict, rates, by):
    game = get_game(hand.game)
    cups = ledger.cups()
    parsed = game.parse_hand(record, rates, cups_before=cups)
    settlement = game.settle(parsed, rates, cups)
    return ledger.post(
        Posting.Kind.HAND,
        _settlement_moves(settlement),
        by=by,
        hand=hand,
        revision=revision,
        cups_before=cups,
        outcome=settlement.outcome.as_dict(),
    )


def _replay_tail(table: Table, from_posting: Posting, replacements: dict, *, by, note: str):
    """Reverse every live posting of ``table`` from ``from_posting`` on, then post them again.

    Hands are re-settled from their record (or from the replacement revision in
    ``replacements``, keyed by hand id; ``VOID`` leaves the hand out), so every later hand sees
    the cups it would have seen; funding and adjustments are posted again unchanged.
    """
    rates = rate_card(table.evening)
    ledger = _Ledger(table)
    tail = _live_postings(table, from_id=from_posting.pk)
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
            new = _post_hand(ledger, hand, revision, revision.record, rates, by)
            changed.append((hand, posting, new))
        else:
            moves = [
                (ledger.by_id[t.source_id].name, ledger.by_id[t.target_id].name, t.points, t.reason)
                for t in posting.transfers.all()
            ]
            ledger.post(posting.kind, moves, by=by, note=posting.note or note)
    return changed


# --- evenings and tables -------------------------------------------------------------------


def evening_open(*, club: Club, date: datetime.date, season: Season | None = None, by=None):
    """Open an evening, copying the club's rate card and price per point onto it."""
    rates = get_game_for_club(club).rate_card.from_dict(club.rate_card or {})
    if season is None:
        season = Season.objects.filter(club=club, starts_on__lte=date, ends_on__gte=date).first()
    elif season.club_id != club.pk:
        raise LedgerError(_("the season belongs to another club"), "season")
    with transaction.atomic(durable=True):
        evening = Evening(
            club=club,
            season=season,
            date=date,
            rate_card=rates.as_dict(),
            price_per_point=club.price_per_point,
            starting_jetons=club.starting_jetons,
        )
        evening.full_clean()
        evening.save()
        EveningLog.objects.create(evening=evening, action="open", by=by)
    return evening


def table_open(*, evening: Evening, members, first_dealer: Member | None = None, by=None):
    """Open a table of 3 to 5 members (in the direction of play); each pays the funding."""
    members = list(members)
    if not 3 <= len(members) <= 5:
        raise SeatingError(
            _("a table seats 3 to 5 members, not {n}").format(n=len(members)), "members"
        )
    if len({m.pk for m in members}) != len(members):
        raise SeatingError(_("a member can have only one seat at a table"), "members")
    if any(m.club_id != evening.club_id for m in members):
        raise SeatingError(_("every member must belong to the evening's club"), "members")
    first_dealer = first_dealer or members[0]
    if first_dealer not in members:
        raise SeatingError(_("the first dealer must be seated at the table"), "first_dealer")
    with transaction.atomic(durable=True):
        evening = Evening.objects.select_for_update().get(pk=evening.pk)
        if evening.status != Evening.Status.OPEN:
            raise EveningClosedError()
        number = (evening.tables.aggregate(n=Max("number"))["n"] or 0) + 1
        table = Table.objects.create(
            evening=evening, number=number, game=evening.club.game, first_dealer=first_dealer
        )
        Seat.objects.bulk_create(
            Seat(table=table, member=m, position=i + 1) for i, m in enumerate(members)
        )
        Account.objects.bulk_create(
            [Account(table=table, kind=cup) for cup in CUP_NAMES]
            + [Account(table=table, kind=Account.Kind.MEMBER, member=m) for m in members]
        )
        table = _lock_table(table.pk)
        rates = rate_card(table.evening)
        ledger = _Ledger(table)
        ledger.post(
            Posting.Kind.FUNDING,
            [(m.name, cup, rates.funding_per_cup, "funding") for m in members for cup in CUP_NAMES],
            by=by,
        )
    return table


def table_seat(*, table: Table, member: Member, position: int | None = None, by=None) -> Seat:
    """Seat a late arrival at ``position`` (0 = first; default last); he pays the funding."""
    with transaction.atomic(durable=True):
        table = _lock_table(table.pk)
        _check_writable(table)
        if member.club_id != table.evening.club_id:
            raise SeatingError(_("every member must belong to the evening's club"), "member")
        if Seat.objects.filter(table=table, member=member).exists():
            raise SeatingError(
                _("{name} already has a seat at this table").format(name=member.name), "member"
            )
        seats = selectors.current_seats(table.pk)
        if len(seats) >= 5:
            raise SeatingError(_("a table seats at most 5 members"), "member")
        position = len(seats) if position is None else max(0, min(position, len(seats)))
        all_seats = list(Seat.objects.filter(table=table).order_by("position"))
        before = seats[position - 1].position if position > 0 else 0
        for seat in all_seats:
            if seat.position > before:
                seat.position += 1
        Seat.objects.bulk_update(all_seats, ["position"])
        next_number = (table.hands.aggregate(n=Max("number"))["n"] or 0) + 1
        seat = Seat.objects.create(
            table=table, member=member, position=before + 1, joined_at_hand=next_number
        )
        Account.objects.create(table=table, kind=Account.Kind.MEMBER, member=member)
        rates = rate_card(table.evening)
        _Ledger(table).post(
            Posting.Kind.FUNDING,
            [(member.name, cup, rates.funding_per_cup, "funding") for cup in CUP_NAMES],
            by=by,
            note=f"{member.name} seated",
        )
    return seat


def table_leave(*, table: Table, member: Member, by=None) -> None:
    """Let a member leave the table early; he keeps his share of the split."""
    with transaction.atomic(durable=True):
        table = _lock_table(table.pk)
        _check_writable(table)
        updated = Seat.objects.filter(table=table, member=member, left=False).update(left=True)
        if not updated:
            raise SeatingError(
                _("{name} has no seat at this table").format(name=member.name), "member"
            )


# --- hands ---------------------------------------------------------------------------------


def hand_record(*, table: Table, record: dict, token: str | None = None, by=None) -> Hand:
    """Record one hand: validate it, settle it from the ledger's cups and post its transfers.

    A ``token`` already used returns the hand it recorded, so a retried or double-tapped
    submit records the hand once. Raises HandError (from the rules) or LedgerError; nothing
    is written then.
    """
    with transaction.atomic(durable=True):
        table = _lock_table(table.pk)
        if token:
            existing = Hand.objects.filter(token=token).first()
            if existing is not None:
                if existing.table_id != table.pk:
                    raise LedgerError(_("this form was already used at another table"), "token")
                return existing
        _check_writable(table)
        seats = selectors.current_seats(table.pk)
        names = [s.member.name for s in seats]
        data = dict(record)
        data.pop("cups_before", None)
        if "seats" in data and data["seats"] != names:
            raise LedgerError(
                _("the seats must be the table's: {names}").format(names=", ".join(names)), "seats"
            )
        data["seats"] = names
        rates = rate_card(table.evening)
        game = get_game(table.game)
        ledger = _Ledger(table)
        cups = ledger.cups()
        parsed = game.parse_hand(data, rates, cups_before=cups)
        settlement = game.settle(parsed, rates, cups)
        number = (table.hands.aggregate(n=Max("number"))["n"] or 0) + 1
        dealer = next(s.member for s in seats if s.member.name == parsed.dealer)
        stored = _stored_record(parsed)
        hand = Hand.objects.create(
            table=table,
            number=number,
            game=table.game,
            record=stored,
            token=token or None,
            dealer=dealer,
            created_by=by,
        )
        revision = HandRevision.objects.create(
            hand=hand, number=1, action=HandRevision.Action.RECORD, record=stored, by=by
        )
        ledger.post(
            Posting.Kind.HAND,
            _settlement_moves(settlement),
            by=by,
            hand=hand,
            revision=revision,
            cups_before=cups,
            outcome=settlement.outcome.as_dict(),
        )
    return hand


def _live_hand_posting(hand: Hand) -> Posting:
    return Posting.objects.get(hand=hand, kind=Posting.Kind.HAND, reversed_by__isnull=True)


def hand_correct(*, hand: Hand, record: dict, reason: str, by=None):
    """Correct a hand: reverse it and every later posting of its table, then post them again.

    Return a list of ``(hand, old posting, new posting)`` for every re-settled hand.
    """
    if not reason or not reason.strip():
        raise LedgerError(_("a correction needs a reason"), "reason")
    with transaction.atomic(durable=True):
        table = _lock_table(hand.table_id)
        _check_writable(table)
        hand = Hand.objects.select_for_update().get(pk=hand.pk)
        if hand.status != Hand.Status.RECORDED:
            raise LedgerError(_("a voided hand cannot be corrected"), "hand")
        data = dict(record)
        data.pop("cups_before", None)
        data.setdefault("seats", hand.record["seats"])
        if data["seats"] != hand.record["seats"]:
            raise LedgerError(_("the seats of a recorded hand cannot change"), "seats")
        rates = rate_card(table.evening)
        parsed = get_game(hand.game).parse_hand(data, rates)
        stored = _stored_record(parsed)
        number = hand.revisions.count() + 1
        revision = HandRevision.objects.create(
            hand=hand,
            number=number,
            action=HandRevision.Action.CORRECT,
            record=stored,
            reason=reason,
            by=by,
        )
        first = _live_hand_posting(hand)
        changed = _replay_tail(table, first, {hand.pk: revision}, by=by, note=reason)
        dealer = Seat.objects.get(table=table, member__name=parsed.dealer).member
        Hand.objects.filter(pk=hand.pk).update(record=stored, dealer=dealer)
    return changed


def hand_void(*, hand: Hand, reason: str, by=None):
    """Void a hand: reverse it, and re-settle every later hand without it."""
    if not reason or not reason.strip():
        raise LedgerError(_("voiding a hand needs a reason"), "reason")
    with transaction.atomic(durable=True):
        table = _lock_table(hand.table_id)
        _check_writable(table)
        hand = Hand.objects.select_for_update().get(pk=hand.pk)
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


def _split(table: Table, by) -> Posting | None:
    rates = rate_card(table.evening)
    ledger = _Ledger(table)
    seats = list(Seat.objects.filter(table=table).select_related("member").order_by("position"))
    balances = {s.member.name: ledger.balance(s.member.name) for s in seats}
    cups = ledger.cups()
    total = sum(cups.values())
    if total == 0:
        return None
    shares = get_game(table.game).split_cups(balances, total, rates.split_unit)
    return ledger.post(Posting.Kind.SPLIT, split_moves(shares, cups), by=by)


def table_close(*, table: Table, by=None) -> Table:
    """Split both cups among everyone who funded the table, and close it."""
    with transaction.atomic(durable=True):
        table = _lock_table(table.pk)
        _check_writable(table)
        _split(table, by)
        table.status = Table.Status.CLOSED
        table.save(update_fields=["status"])
    return table


def jeton_expected(table: Table, balances: dict[str, int] | None = None) -> dict[str, int]:
    """Return the jetons each account should hold: a cup its balance, a member his stack.

    Every member starts the table with the evening's ``starting_jetons``; his stack is that
    plus his balance. The cups hold exactly their balance.
    """
    balances = balances if balances is not None else selectors.table_balances(table.pk)
    start = table.evening.starting_jetons
    return {
        name: balance + (0 if name in CUP_NAMES else start) for name, balance in balances.items()
    }


def jeton_differences(table: Table) -> dict[str, int]:
    """Return counted minus expected per counted account (latest count), leaving out zeros."""
    expected = jeton_expected(table)
    latest = {}
    for count in JetonCount.objects.filter(table=table).select_related("account__member"):
        latest[count.account.name] = count.points
    return {
        name: counted - expected[name]
        for name, counted in latest.items()
        if counted != expected[name]
    }


def evening_close(*, evening: Evening, by=None, confirm_differences: bool = False) -> Evening:
    """Close every table (split), write each member's result in points and money, and lock."""
    with transaction.atomic(durable=True):
        evening = Evening.objects.select_for_update().select_related("club").get(pk=evening.pk)
        if evening.status != Evening.Status.OPEN:
            raise EveningClosedError()
        tables = list(Table.objects.select_for_update().filter(evening=evening).order_by("number"))
        differences = {t.number: jeton_differences(t) for t in tables}
        if any(differences.values()) and not confirm_differences:
            raise JetonDifferenceError(
                _("the counted jetons differ from the ledger; confirm the differences to close"),
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
        note = "; ".join(
            f"table {n}: " + ", ".join(f"{k} {v:+d}" for k, v in d.items())
            for n, d in differences.items()
            if d
        )
        EveningLog.objects.create(evening=evening, action="close", reason=note, by=by)
        evening.status = Evening.Status.CLOSED
        evening.closed_at = timezone.now()
        evening.save(update_fields=["status", "closed_at"])
    return evening


def evening_reopen(*, evening: Evening, reason: str, by=None) -> Evening:
    """Reopen a closed evening: reverse every table's split and unlock it. Logged with reason."""
    if not reason or not reason.strip():
        raise LedgerError(_("reopening an evening needs a reason"), "reason")
    with transaction.atomic(durable=True):
        evening = Evening.objects.select_for_update().get(pk=evening.pk)
        if evening.status != Evening.Status.CLOSED:
            raise LedgerError(_("the evening is not closed"), "evening")
        evening.status = Evening.Status.OPEN
        evening.closed_at = None
        evening.save(update_fields=["status", "closed_at"])
        for table in Table.objects.select_for_update().filter(evening=evening):
            table = _lock_table(table.pk)
            ledger = _Ledger(table)
            for posting in _live_postings(table):
                if posting.kind == Posting.Kind.SPLIT:
                    ledger.reverse(posting, by=by, note=reason)
            table.status = Table.Status.OPEN
            table.save(update_fields=["status"])
        EveningLog.objects.create(evening=evening, action="reopen", reason=reason, by=by)
    return evening


def jetons_count(*, table: Table, counts: dict[str, int], by=None) -> list[JetonCount]:
    """Record what the treasurer counted per account name; the ledger is not changed."""
    with transaction.atomic(durable=True):
        table = _lock_table(table.pk)
        if table.evening.status != Evening.Status.OPEN:
            raise EveningClosedError()
        accounts = selectors.table_accounts(table.pk)
        rows = []
        for name, points in counts.items():
            if name not in accounts:
                raise LedgerError(_("{name} has no account at this table").format(name=name), name)
            if isinstance(points, bool) or not isinstance(points, int):
                raise LedgerError(_("a count is a whole number of points"), name)
            if points < 0:
                raise LedgerError(_("a count of jetons cannot be negative"), name)
            rows.append(
                JetonCount(table=table, account=accounts[name], points=points, counted_by=by)
            )
        return JetonCount.objects.bulk_create(rows)


def adjustment_post(
    *, table: Table, source: str, target: str, points: int, reason: str, by=None
) -> Posting:
    """Post a treasurer's explicit adjustment between two accounts of a table, with a reason."""
    if not reason or not reason.strip():
        raise LedgerError(_("an adjustment needs a reason"), "reason")
    if isinstance(points, bool) or not isinstance(points, int) or points <= 0:
        raise LedgerError(_("an adjustment moves a positive whole number of points"), "points")
    if source == target:
        raise LedgerError(_("an adjustment moves points between two different accounts"), "target")
    with transaction.atomic(durable=True):
        table = _lock_table(table.pk)
        if table.evening.status != Evening.Status.OPEN:
            raise EveningClosedError()
        ledger = _Ledger(table)
        for field, name in (("source", source), ("target", target)):
            if name not in ledger.accounts:
                raise LedgerError(_("{name} has no account at this table").format(name=name), field)
        return ledger.post(
            Posting.Kind.ADJUSTMENT, [(source, target, points, "adjustment")], by=by, note=reason
        )
