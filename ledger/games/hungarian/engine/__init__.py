"""The pure rules engine of Hungarian Tarokk (hungarian-tarokk.md): no Django, no database."""

from .evening import evening_result
from .hand import Figure, HungarianHand, TarokkClaim, parse_hand
from .ratecard import RateCard
from .settle import HungarianSettlement, Item, settle

__all__ = [
    "Figure",
    "HungarianHand",
    "HungarianSettlement",
    "Item",
    "RateCard",
    "TarokkClaim",
    "evening_result",
    "parse_hand",
    "settle",
]
