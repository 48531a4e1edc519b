"""Hungarian Tarokk in tournaments (``tournament.md`` sections 4 and 7): its table sizes and the
format that is its own, the cup (kupa) with its final. Pure data, read by the tournament
engine through ``Features``."""

from __future__ import annotations

from ledger.games.base import TableSizes
from ledger.games.errors import _
from ledger.tournaments.engine.rules import FINAL_BASIS, RANDOM, SUM, SUM_TIES, FormatRules

from .ratecard import GAME_CODE

TABLE_SIZES = TableSizes(4, (5,))

HU_KUPA = FormatRules(
    code="hu_kupa",
    games=(GAME_CODE,),
    first_kind=RANDOM,
    later_kind=RANDOM,
    rounds=4,
    scoring=SUM,
    basis=FINAL_BASIS,
    tie_breaks=SUM_TIES,
    time_limit_min=55,
    final_time_limit_min=60,
    has_final=True,
    title=_("Hungarian cup"),
)

FORMATS = (HU_KUPA,)
