"""The pure rules engine of Slovenian Tarok: no Django, no database."""

from .close import close_table
from .evening import evening_result
from .hand import SlovenianHand, parse_hand
from .ratecard import RateCard
from .settle import SlovenianSettlement, settle

__all__ = [
    "RateCard",
    "SlovenianHand",
    "SlovenianSettlement",
    "close_table",
    "evening_result",
    "parse_hand",
    "settle",
]
