"""The Hungarian evening-result object of a settled evening (``ledger.games.evening``): the
hands settled in order, nothing to split (section 12)."""

from __future__ import annotations

from ledger.games.evening import EVENING_RESULT_FORMAT

from .ratecard import GAME_CODE


def evening_result(run) -> dict:
    """Return the Hungarian evening-result object of ``run``: before and after the split are
    the same, the sum of each member's hands."""
    return {
        "format": EVENING_RESULT_FORMAT,
        "game": GAME_CODE,
        "hands": [s.as_dict() for s in run.settlements],
        "before_split": dict(run.before_split),
        "final": dict(run.final),
    }
