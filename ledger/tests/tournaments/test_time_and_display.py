"""The round's time and hands (section 10), correction periods (11) and showing points (12)."""

from __future__ import annotations

from datetime import datetime, timedelta
from fractions import Fraction as F
from functools import partial

from ledger.tournaments.engine import (
    admit_hand,
    below_minimum,
    correction_period_end,
    ended_by,
    needs_override,
    params_for,
    points_decimal,
    points_mixed,
    points_text,
    ranking_status,
    time_limit_min,
)

DP = params_for("sl_dp")
MIN = 60


def test_time_limits_and_targets_by_format():
    """sl_dp: 90 minutes, 21 hands at 3 seats and 20 at 4 and 5; dk_dm 75 without a target;
    hu_kupa 55 a round and 60 for the final."""
    assert time_limit_min(DP, "standings") == 90
    assert [DP.target_for(size) for size in (3, 4, 5)] == [21, 20, 20]
    dm = params_for("dk_dm")
    assert time_limit_min(dm, "random") == 75 and dm.target_for(4) is None
    kupa = params_for("hu_kupa")
    assert (time_limit_min(kupa, "random"), time_limit_min(kupa, "final")) == (55, 60)
    assert params_for("sl_dp", {"hands_target": {"3": 18}}).target_for(3) == 18
    assert params_for("sl_dp", {"hands_target": None}).target_for(3) is None


def test_a_table_at_its_target_takes_no_further_hand():
    """The 21st hand at a DP table of three ends its round by target; a 22nd is refused."""
    last = admit_hand(params=DP, kind="standings", table_size=3, hands_played=20, seconds_elapsed=0)
    assert (last.accepted, last.ended_by) == (True, "target")
    over = admit_hand(params=DP, kind="standings", table_size=3, hands_played=21, seconds_elapsed=0)
    assert (over.accepted, over.ended_by) == (False, "target")
    assert over.problem is not None
    assert over.problem.message == "the table has played its 21 hands"


def test_at_the_signal_one_begun_hand_is_finished_within_the_grace():
    """After 90 minutes, within the 10 minutes' grace, hands being typed are accepted and one
    hand marked begun before the signal; a second marked hand is refused; after the grace the
    round is closed by time."""
    admit = partial(admit_hand, params=DP, kind="standings", table_size=3, hands_played=12)
    typed = admit(seconds_elapsed=90 * MIN + 30)
    assert typed.accepted and typed.ended_by is None
    begun = admit(seconds_elapsed=95 * MIN, begun_before_signal=True)
    assert begun.accepted
    again = admit(seconds_elapsed=95 * MIN, begun_before_signal=True, begun_marked=1)
    assert not again.accepted
    assert again.problem is not None
    assert again.problem.message == "only one hand may be marked begun before the signal"
    closed = admit(seconds_elapsed=100 * MIN)
    assert (closed.accepted, closed.ended_by) == (False, "time")
    early = admit(seconds_elapsed=10 * MIN, begun_before_signal=True)
    assert early.problem is not None
    assert early.problem.message == "the signal has not been given yet"


def test_with_abort_no_hand_may_be_marked_begun():
    """at_signal = abort: a hand unfinished at the signal does not count."""
    abort = params_for("sl_dp", {"at_signal": "abort"})
    got = admit_hand(
        params=abort,
        kind="standings",
        table_size=3,
        hands_played=5,
        seconds_elapsed=91 * MIN,
        begun_before_signal=True,
    )
    assert not got.accepted
    assert got.problem is not None
    assert got.problem.message == "in this tournament a hand unfinished at the signal is void"


def test_why_a_table_ended_and_the_minimum():
    """A short table ends ``short``; at the target ``target``; else ``time``; below min_hands is
    flagged but counts."""
    assert ended_by(params=DP, table_size=3, hands_played=21) == "target"
    assert ended_by(params=DP, table_size=3, hands_played=15) == "time"
    assert ended_by(params=DP, table_size=3, hands_played=4, short=True) == "short"
    # Closed by the director before the signal: "director", unless the target was played.
    assert ended_by(params=DP, table_size=3, hands_played=15, before_signal=True) == "director"
    assert ended_by(params=DP, table_size=3, hands_played=21, before_signal=True) == "target"
    strict = params_for("sl_dp", {"min_hands": 18})
    assert below_minimum(params=strict, hands_played=15)
    assert not below_minimum(params=DP, hands_played=1)


def test_correction_periods():
    """Round r's period ends when round r + 1 starts; the last round's 30 minutes after the
    provisional ranking; later corrections need the override; then the ranking is final."""
    start = datetime(2025, 3, 1, 11, 0)
    assert correction_period_end(round_number=1, last_round=3, next_round_started_at=start) == start
    assert correction_period_end(round_number=1, last_round=3) is None
    posted = datetime(2025, 3, 1, 16, 0)
    end = correction_period_end(round_number=3, last_round=3, provisional_at=posted)
    assert end == posted + timedelta(minutes=30)
    assert not needs_override(now=posted + timedelta(minutes=29), period_end=end)
    assert needs_override(now=end, period_end=end)
    assert ranking_status(now=posted, last_period_end=end) == "provisional"
    assert ranking_status(now=end, last_period_end=end) == "final"


def test_points_are_shown_exactly_or_rounded_half_away_from_zero():
    """7/6 shows as 7/6, 1 1/6 or 1.17; -5/8 as -0.63; 1/200 as 0.01; integers plainly."""
    assert points_text(F(7, 6)) == "7/6" and points_text(F(4, 2)) == "2"
    assert points_mixed(F(7, 6)) == "1 1/6" and points_mixed(F(-7, 2)) == "-3 1/2"
    assert points_mixed(F(3, 4)) == "3/4"
    assert points_decimal(F(7, 6)) == "1.17"
    assert points_decimal(F(-5, 8)) == "-0.63"
    assert points_decimal(F(1, 200)) == "0.01"
    assert points_decimal(F(-1, 300)) == "0.00"
    assert points_decimal(F(5)) == "5.00"
