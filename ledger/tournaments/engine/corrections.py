"""When a correction of a closed round needs the director's override (spec section 11).

The correction period of round r ends when round r + 1 starts (its clock is started); for the
last round, 30 minutes after the provisional ranking is posted [LAW79C] [STEVENSON]. Until
then a correction is an ordinary act; after it, only the director's override with a reason,
marked on every sheet. A correction never changes a published draw: it changes the corrected
round's points and every standing after it, and so only the draws still to be made.
"""

from __future__ import annotations

from datetime import datetime, timedelta

LAST_ROUND_PERIOD = timedelta(minutes=30)


def correction_period_end(
    *,
    round_number: int,
    last_round: int,
    next_round_started_at: datetime | None = None,
    provisional_at: datetime | None = None,
) -> datetime | None:
    """Return when round ``round_number``'s correction period ends (None: it has not begun to end).

    For a round before the last, the start of the next round; for the last, 30 minutes after
    the provisional ranking was posted.
    """
    if round_number < last_round:
        return next_round_started_at
    return None if provisional_at is None else provisional_at + LAST_ROUND_PERIOD


def needs_override(*, now: datetime, period_end: datetime | None) -> bool:
    """Return whether a correction made at ``now`` comes after the period and needs an override."""
    return period_end is not None and now >= period_end


def ranking_status(*, now: datetime, last_period_end: datetime | None) -> str:
    """Return ``provisional`` until the last round's correction period ends, then ``final``."""
    return "final" if needs_override(now=now, period_end=last_period_end) else "provisional"
