"""Danish Tarok in tournaments (``tournament.md`` sections 4 and 7): its table sizes and the
format that is its own, the DM (Danmarksmesterskab). Pure data, read by the tournament engine
through ``Features``."""

from __future__ import annotations

from ledger.games.base import TableSizes
from ledger.games.errors import _
from ledger.tournaments.engine.rules import FINAL_BASIS, RANDOM, SUM, SUM_TIES, FormatRules

from .hand import GAME_CODE

TABLE_SIZES = TableSizes(4, (3, 5))

DK_DM = FormatRules(
    code="dk_dm",
    games=(GAME_CODE,),
    first_kind=RANDOM,
    later_kind=RANDOM,
    rounds=2,
    scoring=SUM,
    basis=FINAL_BASIS,
    tie_breaks=SUM_TIES,
    time_limit_min=75,
    title=_("Danish championship (DM)"),
)

FORMATS = (DK_DM,)
