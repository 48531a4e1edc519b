"""A round's time and its hands (spec section 10): the limit, the target and the signal.

The wall screen counts ``time_limit_min`` down from the round's start. A table that reaches its
``hands_target`` is finished (``ended_by`` = ``target``). At the signal, with ``at_signal`` =
``finish``, a hand whose deal had begun is played to its end and counts; for
``entry_grace_min`` minutes the app still accepts the hands being typed and at most **one**
hand marked "begun before the signal"; then the table's round is closed (``time``). With
``at_signal`` = ``abort`` no hand may be marked begun. A thrown-in deal counts as a hand.

Times are whole seconds since the round's clock was started, so the rules need no clock of
their own and a test can state any moment exactly.
"""

from __future__ import annotations

from dataclasses import dataclass

from ledger.games.errors import Problem, _

from .rules import FINAL, Params

TARGET = "target"
TIME = "time"
SHORT = "short"
DIRECTOR = "director"
ENDED_BY = (TARGET, TIME, SHORT, DIRECTOR)


def time_limit_min(params: Params, kind: str) -> int:
    """Return the round's time limit in minutes (a ``hu_kupa`` final has its own, 60)."""
    if kind == FINAL and params.final_time_limit_min is not None:
        return params.final_time_limit_min
    return params.time_limit_min


@dataclass(frozen=True)
class HandAdmission:
    """Whether a table may record one more hand, and whether that ends the table's round.

    ``ended_by`` is set when the table's round is over: refused because it already is, or
    accepted as the hand that reaches the target.
    """

    accepted: bool
    ended_by: str | None = None
    problem: Problem | None = None


def admit_hand(
    *,
    params: Params,
    kind: str,
    table_size: int,
    hands_played: int,
    seconds_elapsed: int,
    begun_before_signal: bool = False,
    begun_marked: int = 0,
    field: str = "hand",
) -> HandAdmission:
    """Return whether a hand submitted ``seconds_elapsed`` after the round's start is accepted.

    ``hands_played`` counts the table's hands so far (thrown-in deals included);
    ``begun_marked`` how many of them were accepted as begun before the signal.
    """
    target = params.target_for(table_size)
    if target is not None and hands_played >= target:
        return HandAdmission(
            False,
            TARGET,
            Problem(field, _("the table has played its {target} hands"), {"target": target}),
        )
    signal = time_limit_min(params, kind) * 60
    closing = signal + params.entry_grace_min * 60
    if seconds_elapsed >= closing:
        return HandAdmission(
            False,
            TIME,
            Problem(field, _("the round's time is up and its hands are closed"), {}),
        )
    if begun_before_signal:
        if params.at_signal == "abort":
            return HandAdmission(
                False,
                None,
                Problem(field, _("in this tournament a hand unfinished at the signal is void"), {}),
            )
        if seconds_elapsed < signal:
            return HandAdmission(
                False,
                None,
                Problem(field, _("the signal has not been given yet"), {}),
            )
        if begun_marked >= 1:
            return HandAdmission(
                False,
                None,
                Problem(field, _("only one hand may be marked begun before the signal"), {}),
            )
    reaches_target = target is not None and hands_played + 1 >= target
    return HandAdmission(True, TARGET if reaches_target else None)


def ended_by(
    *,
    params: Params,
    table_size: int,
    hands_played: int,
    short: bool = False,
    before_signal: bool = False,
) -> str:
    """Return why a closed table's round ended: ``short``, ``target``, ``time``, or
    ``director`` when the director closed the round before its signal with the table below its
    target."""
    if short:
        return SHORT
    target = params.target_for(table_size)
    if target is not None and hands_played >= target:
        return TARGET
    return DIRECTOR if before_signal else TIME


def below_minimum(*, params: Params, hands_played: int) -> bool:
    """Return whether a table is below ``min_hands`` (it counts, flagged for the director)."""
    return params.min_hands is not None and hands_played < params.min_hands
