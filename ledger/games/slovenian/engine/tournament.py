"""Slovenian Tarok in tournaments (``tournament.md`` sections 4 and 7): its table sizes and the
format that is its own, the DP (državno prvenstvo). Pure data, read by the tournament engine
through ``Features``."""

from __future__ import annotations

from fractions import Fraction
from types import MappingProxyType

from ledger.games.base import TableSizes
from ledger.games.errors import _
from ledger.tournaments.engine.rules import (
    BEFORE_SPLIT,
    PLACEMENT,
    PLACEMENT_TIES,
    SEEDED_GROUPS,
    STANDINGS,
    FormatRules,
)

from .ratecard import GAME_CODE

TABLE_SIZES = TableSizes(3, (4, 5))

SL_DP = FormatRules(
    code="sl_dp",
    games=(GAME_CODE,),
    first_kind=SEEDED_GROUPS,
    later_kind=STANDINGS,
    rounds=4,
    scoring=PLACEMENT,
    basis=BEFORE_SPLIT,
    tie_breaks=PLACEMENT_TIES,
    time_limit_min=90,
    hands_target=MappingProxyType({3: 21, 4: 20, 5: 20}),
    # The DP's 2 / 1 / 1/2 [GG], and for 4 and 5 seats the same top, step and bottom (7.1).
    placement=MappingProxyType(
        {
            3: (Fraction(2), Fraction(1), Fraction(1, 2)),
            4: (Fraction(2), Fraction(3, 2), Fraction(1), Fraction(1, 2)),
            5: (Fraction(2), Fraction(3, 2), Fraction(1), Fraction(1, 2), Fraction(0)),
        }
    ),
    title=_("Slovenian championship (DP)"),
)

FORMATS = (SL_DP,)
