"""Hands: record one, correct one (re-settling every later hand), void one."""

from __future__ import annotations

from django.db import IntegrityError
from django.utils.translation import gettext_lazy as _

from ledger.games.registry import get_game
from ledger.models import (
    Hand,
    HandRevision,
    Posting,
    Seat,
    Table,
    not_reversed,
)
from ledger.services import seal_pending, seals, targets
from ledger.services.errors import (
    LedgerError,
    StaleFormError,
)
from ledger.services.ledger import (
    SEAT_FIELDS,
    VOID,
    check_writable,
    lock_table,
    lock_table_for_hand,
    post_hand,
    rate_card,
    replay_tail,
    table_state,
    touched,
    writing,
)

# --- hands ---------------------------------------------------------------------------------


def hand_record(
    *,
    table: Table | None = None,
    record: dict,
    token: str | None = None,
    number: int | None = None,
    version: int | None = None,
    begun_before_signal: bool = False,
    saved_by: str | None = None,
    by=None,
    table_id: int | None = None,
    club_id: int | None = None,
    grants=None,
) -> Hand:
    """Record one hand: validate it, settle it from the table's state and post its transfers.

    A ``token`` already used returns the hand it recorded, so a retried or double-tapped
    submit records the hand once. ``number`` and ``version`` are what the form was previewed
    against (the hand's number, ``table_version``): a save whose slot another device took, or
    whose table changed since the preview, is refused (StaleFormError). ``saved_by`` is
    given for a hand saved on a round table's own link (the name of the player at the table
    who saved it): when the tournament asks for confirmation (``confirm_hands``) the hand is
    then to confirm (``tournament_hand_confirm``). The table is read under its lock: given
    by its id (``table_id``) with ``club_id`` (and ``grants``, the tables a table's link may
    score), one of another club (or not granted) raises ``Table.DoesNotExist``.
    Raises HandError (from the game) or LedgerError; nothing is written then.
    """
    pk = table.pk if table is not None else table_id
    if pk is None:
        raise TypeError("hand_record needs a table or its id")
    try:
        return _hand_record(
            table_id=pk,
            record=record,
            token=token,
            number=number,
            version=version,
            begun_before_signal=begun_before_signal,
            saved_by=saved_by,
            by=by,
            club_id=club_id,
            grants=grants,
        )
    except IntegrityError as error:
        # The same token sent to two tables at once: each locked its own table, so both
        # passed the token check, and the token's unique index refused the second insert.
        existing = Hand.objects.filter(token=token).first() if token else None
        if existing is None:
            raise
        if existing.table_id != pk:
            raise LedgerError(_("this form was already used at another table"), "token") from error
        return existing


def _hand_record(
    *, table_id, record, token, number, version, begun_before_signal, saved_by, by, club_id, grants
) -> Hand:
    with writing():
        # One lock (the table), then one read of its evening, its slot, what its head holds
        # and its accounts with their summaries and seats: nothing is read again.
        table, slot, ledger = lock_table_for_hand(table_id, token, club_id=club_id, grants=grants)
        if slot.used is not None:
            existing = Hand.objects.get(pk=slot.used)
            if existing.table_id != table.pk:
                raise LedgerError(_("this form was already used at another table"), "token")
            return existing
        check_writable(table)
        # A round table of a tournament: its target, its time, the hand begun before the signal.
        admission = targets.admit_hand(
            table, begun_before_signal=begun_before_signal, round_table=slot.round_table
        )
        if number is not None and number != slot.number:
            raise StaleFormError(
                _("Hand {number} has already been saved from another device"),
                "number",
                hand_number=number,
                number=number,
            )
        if version is not None and version != slot.version:
            raise StaleFormError(
                _("the table changed since this preview; look at the preview again"),
                "version",
                hand_number=number,
            )
        seats = ledger.seats or []
        if len(seats) != slot.seats:  # a seat without its account: read the seats apart
            seats = list(
                Seat.objects.filter(table_id=table.pk).order_by("pk").values_list(*SEAT_FIELDS)
            )
        current = sorted((s for s in seats if not s[5]), key=lambda s: s[3])
        names = [s[2] for s in current]
        to_confirm = saved_by is not None and targets.check_link_save(
            admission, table, saved_by, names
        )
        game = get_game(table.game)
        data = {k: v for k, v in dict(record).items() if k != game.features.state_in}
        if "seats" in data and data["seats"] != names:
            raise LedgerError(
                _("the seats must be the table's: {names}"), "seats", names=", ".join(names)
            )
        data["seats"] = names
        rates = rate_card(table.evening)
        ledger.last_seal = slot.last_seal
        state = table_state(table, ledger, seats=names, last=slot.last_state)
        parsed = game.parse_hand(data, rates, state=state)
        stored = parsed.as_dict()
        stored.pop(game.features.state_in or "", None)
        dealer = next(s[1] for s in current if s[2] == parsed.dealer)
        hand = Hand.objects.create(
            table=table,
            number=slot.number,
            game=table.game,
            record=stored,
            token=token or None,
            dealer_id=dealer,
            created_by=by,
        )
        revision = HandRevision.objects.create(
            hand=hand, number=1, action=HandRevision.Action.RECORD, record=stored, by=by
        )
        seals.seal_revision(revision, first=True)
        touched(hand_id=hand.pk)
        posting, _settlement = post_hand(ledger, hand, revision, stored, rates, state, by)
        # What the hand and the table's head now hold, sealed as held (``seals.hold``).
        seal_pending.hold(seals.Kind.HAND, hand.pk, list(seals.hand_row(hand)))
        seal_pending.hold(
            seals.Kind.TABLE,
            table.pk,
            seals.table_head(
                (
                    table.pk,
                    table.evening_id,
                    table.number,
                    table.game,
                    table.status,
                    table.first_dealer_id,
                ),
                seats,
                [(a.pk, a.kind, a.code, a.member_id) for a in ledger.by_id.values()],
                postings=(slot.postings + 1, posting.pk, ledger.last_seal),
                hands=(slot.hands + 1, slot.number),
            ),
        )
        if admission.begun and admission.round_table is not None:
            targets.note_begun_hand(admission.round_table, hand.number)
        if to_confirm:
            targets.note_saver(hand, str(saved_by))
    return hand


def live_hand_posting(hand: Hand) -> Posting:
    return Posting.objects.get(not_reversed(), hand=hand, kind=Posting.Kind.HAND)


def hand_correct(*, hand: Hand, record: dict, reason: str, based_on: int | None = None, by=None):
    """Correct a hand: reverse it and every later posting of its table, then post them again.

    ``based_on`` is the revision number the correction was made from. A resend of a
    correction already saved (its record equals the latest revision) changes nothing and
    returns ``[]``; a correction made from an older revision is refused as changed meanwhile.
    Return a list of ``(hand, old posting, new posting)`` for every re-settled hand.
    """
    if not reason or not reason.strip():
        raise LedgerError(_("a correction needs a reason"), "reason")
    with writing():
        table = lock_table(hand.table_id)
        check_writable(table)
        return correct_locked(table, hand, record, reason, based_on=based_on, by=by)


def correct_locked(table, hand: Hand, record: dict, reason: str, *, based_on=None, by=None):
    """``hand_correct`` inside the caller's transaction, its table already locked (and
    writable for this correction: a tournament's correction reverses the close first)."""
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
    latest = hand.revisions.latest("number")  # a recorded hand has its revisions
    if based_on is not None and based_on != latest.number:
        if stored == latest.record:
            return []
        raise StaleFormError(
            _("hand {number} was changed meanwhile; look at it again"),
            "based_on",
            hand_number=hand.number,
            number=hand.number,
        )
    revision = HandRevision.objects.create(
        hand=hand,
        number=latest.number + 1,
        action=HandRevision.Action.CORRECT,
        record=stored,
        reason=reason,
        by=by,
    )
    seals.seal_revision(revision)
    first = live_hand_posting(hand)
    changed = replay_tail(table, first, {hand.pk: revision}, by=by, note=reason)
    dealer = Seat.objects.get(table=table, name=parsed.dealer).member
    Hand.objects.filter(pk=hand.pk).update(record=stored, dealer=dealer)
    touched(hand_id=hand.pk)
    return changed


def hand_void(*, hand: Hand, reason: str, by=None):
    """Void a hand: reverse it, and re-settle every later hand without it."""
    if not reason or not reason.strip():
        raise LedgerError(_("voiding a hand needs a reason"), "reason")
    with writing():
        table = lock_table(hand.table_id)
        check_writable(table)
        hand = Hand.objects.select_for_update(of=("self",)).get(pk=hand.pk)
        if hand.status != Hand.Status.RECORDED:
            raise LedgerError(_("the hand is already voided"), "hand")
        revision = HandRevision.objects.create(
            hand=hand,
            number=hand.revisions.count() + 1,
            action=HandRevision.Action.VOID,
            record=hand.record,
            reason=reason,
            by=by,
        )
        seals.seal_revision(revision)
        first = live_hand_posting(hand)
        changed = replay_tail(table, first, {hand.pk: VOID}, by=by, note=reason)
        Hand.objects.filter(pk=hand.pk).update(status=Hand.Status.VOIDED)
        touched(hand_id=hand.pk)
    return changed
