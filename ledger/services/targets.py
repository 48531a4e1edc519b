"""A round table's target, asked by ``hand_record`` under the table's lock: how many hands
count, whether one more is admitted (the hands target, the time and its grace, the one hand
begun before the signal; ``tournament.md`` section 10), and whether a hand saved on the
table's own link waits for a second player's confirmation (``confirm_hands``). It imports no
other service, so the hand services ask it without importing the tournament services back."""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass

from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from ledger.models import (
    Hand,
    HandConfirmation,
    RoundTable,
    Table,
    Tournament,
)
from ledger.services.errors import LedgerError
from ledger.tournaments import engine


def hands_played(table_id: int) -> int:
    """Return the hands of a table that count for its target: every hand not voided (an
    annulled deal counts, section 10) and not waiting for a second player's confirmation (a
    tournament with ``confirm_hands``; a hand saved without the table's link needs none)."""
    return (
        Hand.objects.filter(table_id=table_id)
        .exclude(status=Hand.Status.VOIDED)
        .filter(Q(confirmation__isnull=True) | Q(confirmation__confirmed_at__isnull=False))
        .count()
    )


def hands_entered(table_id: int) -> int:
    """Return the hands of a table not voided, confirmed or not: what the table has entered,
    which a new hand is admitted against (a hand to confirm is no room for one more)."""
    return Hand.objects.filter(table_id=table_id).exclude(status=Hand.Status.VOIDED).count()


@dataclass(frozen=True)
class Admission:
    """What ``admit_hand`` found: the round table (None at an ordinary table), its
    tournament's parameters, whether the hand is the one begun before the signal."""

    round_table: RoundTable | None = None
    params: engine.Params | None = None
    begun: bool = False

    @property
    def confirm(self) -> bool:
        """Whether a hand saved on the table's own link waits for a second player."""
        return self.params is not None and self.params.confirm_hands


def check_hand_target(
    table: Table, *, begun_before_signal: bool = False, now=None
) -> RoundTable | None:
    """``admit_hand``, returning the round table when the hand is the one begun before the
    signal, else None."""
    admission = admit_hand(table, begun_before_signal=begun_before_signal, now=now)
    return admission.round_table if admission.begun else None


def admit_hand(
    table: Table, *, begun_before_signal: bool = False, now=None, round_table: bool = True
) -> Admission:
    """Refuse a new hand at a round table that has entered its round's hands target, or once
    the round's time and its entry grace are over (section 10, ``engine.admit_hand``: hands
    still being typed are taken until the grace ends), or a hand marked begun before the
    signal when the rules refuse it (before the signal, a second one, ``at_signal`` =
    ``abort``). An ordinary table takes any number of hands. Called by ``hand_record`` under
    the table's lock (``hand_record`` notes the hand begun before the signal on the round
    table, in the same transaction); ``round_table=False`` when the caller read under the lock
    that the table is no round table's (nothing is read then).
    """
    rt = None
    if round_table:
        rt = (
            RoundTable.objects.filter(table_id=table.pk).select_related("round__tournament").first()
        )
    if rt is None:
        if begun_before_signal:
            raise LedgerError(_("only a tournament's table has a signal"), "begun_before_signal")
        return Admission()
    round_ = rt.round
    params = tournament_params(round_.tournament)
    elapsed = 0
    if round_.started_at is not None:
        elapsed = int(((now or timezone.now()) - round_.started_at).total_seconds())
    admission = engine.admit_hand(
        params=params,
        kind=round_.kind,
        table_size=len(rt.seats),
        hands_played=hands_entered(table.pk),
        seconds_elapsed=max(0, elapsed),
        begun_before_signal=begun_before_signal,
        begun_marked=int(rt.signal_hand is not None),
        field="begun_before_signal",
    )
    if not admission.accepted and admission.problem is not None:
        problem = admission.problem
        field = problem.field if admission.ended_by is None else "__all__"
        raise LedgerError(problems=[dataclasses.replace(problem, field=field)])
    return Admission(round_table=rt, params=params, begun=begun_before_signal)


def unconfirmed_hand(table_id: int) -> Hand | None:
    """Return the table's hand waiting for a second player's confirmation (not voided), or
    None; a table has one at most, since its link saves no other hand before it is
    confirmed."""
    return (
        Hand.objects.filter(
            table_id=table_id,
            confirmation__isnull=False,
            confirmation__confirmed_at__isnull=True,
        )
        .exclude(status=Hand.Status.VOIDED)
        .select_related("confirmation")
        .order_by("number")
        .first()
    )


def check_link_save(admission: Admission, table: Table, saved_by: str, names: list[str]) -> bool:
    """Refuse a hand saved on a round table's own link while its tournament asks for
    confirmation, when the saver named no player of the table (``saved_by``, one of
    ``names``) or an earlier hand still waits for its confirmation. Return whether the hand
    is to be confirmed (``note_saver`` after it is written)."""
    if not admission.confirm:
        return False
    waiting = unconfirmed_hand(table.pk)
    if waiting is not None:
        raise LedgerError(
            _("hand {number} is to confirm: a second player confirms it first"),
            "__all__",
            number=waiting.number,
        )
    if saved_by not in names:
        raise LedgerError(_("say who you are: choose one of the table's players"), "saved_by")
    return True


def note_saver(hand: Hand, saved_by: str) -> HandConfirmation:
    """Note who saved ``hand`` on the table's link: it is to confirm (inside ``hand_record``)."""
    return HandConfirmation.objects.create(hand=hand, saved_by=saved_by)


def note_begun_hand(round_table: RoundTable, number: int) -> None:
    """Note hand ``number`` as the table's one hand begun before the signal (section 10);
    inside ``hand_record``'s transaction."""
    RoundTable.objects.filter(pk=round_table.pk).update(signal_hand=number)


def tournament_params(tournament: Tournament) -> engine.Params:
    """Return the tournament's parameters: the format's defaults with its overrides."""
    return engine.params_for(tournament.tournament_format, tournament.params or None)
