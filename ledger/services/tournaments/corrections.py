"""Corrections after a round closed (section 11): the hand corrected at its table, the table
re-closed and every result that follows recomputed, in one transaction."""

from __future__ import annotations

import datetime

from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from ledger.models import (
    Evening,
    Hand,
    Posting,
    Round,
    RoundTable,
    Tournament,
)
from ledger.services import hands as hand_services
from ledger.services.errors import LedgerError
from ledger.services.ledger import (
    TableLedger,
    live_postings,
    lock_evening,
    lock_table,
    post_split,
    writing,
)
from ledger.services.targets import hands_played, tournament_params
from ledger.services.tournaments.common import lock_round, lock_tournament, log_act
from ledger.services.tournaments.results import round_results, table_ended_by
from ledger.tournaments import engine

CORRECTION_MINUTES_AFTER_LAST = 30


def correction_period_over(round_: Round, *, now=None) -> bool:
    """Return whether round ``round_``'s correction period has ended: when the next round
    started (its clock), or for the last round 30 minutes after it closed (section 11)."""
    now = now or timezone.now()
    following = round_.tournament.rounds.filter(number=round_.number + 1).first()
    if following is not None:
        return following.started_at is not None
    params = tournament_params(round_.tournament)
    last = engine.FORMATS[round_.tournament.tournament_format].last_round(params.rounds)
    if round_.number < last or round_.closed_at is None:
        return False
    return now >= round_.closed_at + datetime.timedelta(minutes=CORRECTION_MINUTES_AFTER_LAST)


def tournament_hand_correct(
    *,
    hand: Hand,
    record: dict,
    reason: str,
    override: bool = False,
    override_reason: str = "",
    based_on: int | None = None,
    by=None,
):
    """Correct a hand of a closed round's table in one transaction (section 11): reverse the
    table's close, correct the hand (re-settling its later hands), close the table again and
    recompute the round's table scores, places and points; the standings after it follow
    (they are computed from the rounds). A published draw never changes.

    After the correction period only with the director's ``override`` and its reason; the
    correction is logged on the round, marked when it came after the period. ``based_on`` is
    the hand's revision the form was shown with: a correction sent from a form older than the
    hand's latest revision is refused, as at an ordinary table (``hands.correct_locked``).
    """
    if not reason or not reason.strip():
        raise LedgerError(_("a correction needs a reason"), "reason")

    rt = (
        RoundTable.objects.filter(table_id=hand.table_id)
        .select_related("round__tournament")
        .first()
    )
    if rt is None:
        raise LedgerError(_("this hand is not of a tournament's table"), "hand")
    late = correction_period_over(rt.round)
    if late and not override:
        raise LedgerError(
            _(
                "the correction period of round {number} is over; only the director's override "
                "with a reason may correct it"
            ),
            "override",
            number=rt.round.number,
        )
    if late and not (override_reason or "").strip():
        raise LedgerError(_("an override needs a reason"), "override_reason")
    with writing():
        tournament = lock_tournament(rt.round.tournament)
        round_ = lock_round(rt.round_id)
        if round_.status != Round.Status.CLOSED:
            raise LedgerError(_("the round is not closed: correct the hand at its table"), "hand")
        lock_evening(round_.evening_pk)
        table = lock_table(hand.table_id)
        if table.evening.status != Evening.Status.OPEN:
            raise LedgerError(_("the evening is closed; a treasurer must reopen it first"))
        ledger = TableLedger(table)
        for posting in live_postings(table):
            if posting.kind == Posting.Kind.SPLIT:
                ledger.reverse(posting, by=by, note=reason)
        changed = hand_services.correct_locked(
            table, hand, record, reason, based_on=based_on, by=by
        )
        post_split(table, by)
        round_tables = list(round_.round_tables.select_related("table").order_by("number"))
        for other in round_tables:
            if other.pk == rt.pk:
                other.table = table
        results, bye_points, _leavers = round_results(round_, round_tables)
        params = tournament_params(round_.tournament)
        for other in round_tables:
            fields = {"results": results[other.pk]}
            if other.pk == rt.pk:  # a voided hand may change what the table played
                fields["hands_played"] = hands_played(table.pk)
                fields["ended_by"] = table_ended_by(
                    other, params, round_.tournament.game, closed_at=round_.closed_at
                )
            changed_fields = [k for k, v in fields.items() if getattr(other, k) != v]
            for key in changed_fields:
                setattr(other, key, fields[key])
            if changed_fields:
                other.save(update_fields=changed_fields)
        round_.bye_rows.update(points=bye_points)
        log_act(
            round_,
            "correct",
            by,
            table=rt.number,
            hand=hand.number,
            reason=reason.strip()[:500],
            after_period=late,
            override_reason=(override_reason or "").strip()[:500],
        )
        round_.save(update_fields=["log"])
        if tournament.status == Tournament.Status.FINAL:
            # The ratings re-rate from the tournament (imported here: no import circle).
            from ledger.services.federation.ratings import ratings_follow_tournament

            ratings_follow_tournament(tournament)
    return changed
