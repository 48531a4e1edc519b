"""The Slovenian evening-result object of a settled evening (``ledger.games.evening``).

The table starts with no radli and the pool at 0; each hand's ``radli_before`` is the
previous hand's ``radli_after``; the close charges the open radli, then splits the pool
(``hand-format.md``, "An evening").
"""

from __future__ import annotations

from ledger.games.evening import EVENING_RESULT_FORMAT

from .ratecard import GAME_CODE


def evening_result(run) -> dict:
    """Return the Slovenian evening-result object of ``run``."""
    return {
        "format": EVENING_RESULT_FORMAT,
        "game": GAME_CODE,
        "hands": [s.as_dict() for s in run.settlements],
        "radli_at_close": dict(run.state),
        "before_split": dict(run.before_split),
        "pool_before_split": -sum(run.before_split.values()),
        "close": [m.as_dict() for m in run.close],
        "final": dict(run.final),
    }
