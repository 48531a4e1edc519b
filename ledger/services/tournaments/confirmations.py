"""A second player's confirmation of a hand saved on a round table's own link (issue 27, the
tournament's ``confirm_hands``; Bridgemate's verification screen).

The hand is posted when it is saved, as every hand: the table goes on settling from it (a
Danish cup, a Slovenian radelc), and nothing of the append-only ledger waits. What waits is
its count: ``targets.hands_played`` leaves a hand to confirm out of the table's target, and
the table's link saves no other hand before it is confirmed. A wrong hand is corrected as any
other (the confirmation then names the corrected revision).
"""

from __future__ import annotations

from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from ledger.models import Hand, HandConfirmation, Round, RoundTable
from ledger.services.errors import LedgerError, StaleFormError
from ledger.services.ledger import writing
from ledger.services.tournaments.common import lock_round, log_act


def tournament_hand_confirm(
    *, hand: Hand, revision: int | None, confirmed_by: str, by=None
) -> HandConfirmation:
    """Confirm ``hand`` as of its revision ``revision`` (the one the confirmation screen
    showed) by ``confirmed_by``, the name of a player of the hand other than the one who saved
    it. Logged on the round (its tournament's seal covers the log).

    Refused, nothing written: a hand that needs no confirmation, one already confirmed or
    voided, a revision that is not the hand's latest (it was corrected meanwhile), a player
    not of the hand or the one who saved it, a round no longer being played.
    """
    rt = RoundTable.objects.filter(table_id=hand.table_id).first()
    if rt is None:
        raise LedgerError(_("only a tournament's hand is confirmed"), "hand")
    with writing():
        # The lock order of every tournament service: the round first, then the hand.
        round_ = lock_round(rt.round_id)
        if round_.status != Round.Status.PLAYING:
            raise LedgerError(
                _("the round is closed: its hands are no longer confirmed"), "__all__"
            )
        locked = Hand.objects.select_for_update(of=("self",)).get(pk=hand.pk)
        confirmation = (
            HandConfirmation.objects.select_for_update(of=("self",)).filter(hand=locked).first()
        )
        if confirmation is None:
            raise LedgerError(
                _("hand {number} needs no confirmation"), "hand", number=locked.number
            )
        if confirmation.confirmed_at is not None:
            raise LedgerError(
                _("hand {number} is already confirmed by {name}"),
                "hand",
                number=locked.number,
                name=confirmation.confirmed_by,
            )
        if locked.status == Hand.Status.VOIDED:
            raise LedgerError(
                _("hand {number} is voided: there is nothing to confirm"),
                "hand",
                number=locked.number,
            )
        latest = locked.revisions.order_by("-number").values_list("number", flat=True).first()
        if revision is None or revision != latest:
            raise StaleFormError(
                _("hand {number} was changed meanwhile; look at it again"),
                "revision",
                hand_number=locked.number,
                number=locked.number,
            )
        if confirmed_by not in locked.record.get("seats", []):
            raise LedgerError(_("choose a player of this hand"), "confirmed_by")
        if confirmed_by == confirmation.saved_by:
            raise LedgerError(
                _("{name} saved this hand: another player at the table confirms it"),
                "confirmed_by",
                name=confirmed_by,
            )
        confirmation.confirmed_by = confirmed_by
        confirmation.revision = latest
        confirmation.confirmed_at = timezone.now()
        confirmation.save(update_fields=["confirmed_by", "revision", "confirmed_at"])
        log_act(
            round_,
            "confirm",
            by,
            table=rt.number,
            hand=locked.number,
            revision=latest,
            saved_by=confirmation.saved_by,
            confirmed_by=confirmed_by,
        )
        round_.save(update_fields=["log"])
    return confirmation
