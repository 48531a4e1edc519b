"""A round table's target, asked by ``hand_record`` under the table's lock: how many hands
count, whether one more is admitted (the hands target, the time and its grace, the one hand
begun before the signal; ``tournament.md`` section 10). It imports no other service, so the
hand services ask it without importing the tournament services back."""

from __future__ import annotations

from django.utils import timezone
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from ledger.models import (
    Hand,
    RoundTable,
    Table,
    Tournament,
)
from ledger.services.errors import LedgerError
from ledger.tournaments import engine


def hands_played(table_id: int) -> int:
    """Return the hands of a table that count for its target: every hand not voided (an
    annulled deal counts, section 10)."""
    return Hand.objects.filter(table_id=table_id).exclude(status=Hand.Status.VOIDED).count()


def check_hand_target(
    table: Table, *, begun_before_signal: bool = False, now=None
) -> RoundTable | None:
    """Refuse a new hand at a round table that has played its round's hands target, or once
    the round's time and its entry grace are over (section 10, ``engine.admit_hand``: hands
    still being typed are taken until the grace ends), or a hand marked begun before the
    signal when the rules refuse it (before the signal, a second one, ``at_signal`` =
    ``abort``). An ordinary table takes any number of hands. Called by ``hand_record`` under
    the table's lock.

    Return the round table when the hand is the one begun before the signal (``hand_record``
    notes its number there, in the same transaction), else None.
    """
    rt = RoundTable.objects.filter(table_id=table.pk).select_related("round__tournament").first()
    if rt is None:
        if begun_before_signal:
            raise LedgerError(_("only a tournament's table has a signal"), "begun_before_signal")
        return None
    round_ = rt.round
    elapsed = 0
    if round_.started_at is not None:
        elapsed = int(((now or timezone.now()) - round_.started_at).total_seconds())
    admission = engine.admit_hand(
        params=tournament_params(round_.tournament),
        kind=round_.kind,
        table_size=len(rt.seats),
        hands_played=hands_played(table.pk),
        seconds_elapsed=max(0, elapsed),
        begun_before_signal=begun_before_signal,
        begun_marked=int(rt.signal_hand is not None),
        field="begun_before_signal",
    )
    if not admission.accepted and admission.problem is not None:
        problem = admission.problem
        field = problem.field if admission.ended_by is None else "__all__"
        raise LedgerError(gettext(problem.template).format(**problem.params), field)
    return rt if begun_before_signal else None


def note_begun_hand(round_table: RoundTable, number: int) -> None:
    """Note hand ``number`` as the table's one hand begun before the signal (section 10);
    inside ``hand_record``'s transaction."""
    RoundTable.objects.filter(pk=round_table.pk).update(signal_hand=number)


def tournament_params(tournament: Tournament) -> engine.Params:
    """Return the tournament's parameters: the format's defaults with its overrides."""
    return engine.params_for(tournament.tournament_format, tournament.params or None)
