"""The rules of Danish Tarok as pure functions: no Django, no database.

``parse_hand`` validates a ``tarokclub.hand/1`` record into a ``DanishHand``;
``settle`` turns it into transfers; ``evening`` splits the cups at the close.
"""

from ledger.games.errors import EveningError, HandError, Problem, RateCardError, RulesError

from .evening import evening_result, split_cups, split_moves, to_money
from .hand import DanishHand, parse_hand
from .ratecard import RateCard
from .settle import DanishSettlement, settle

__all__ = [
    "DanishHand",
    "DanishSettlement",
    "EveningError",
    "HandError",
    "Problem",
    "RateCard",
    "RateCardError",
    "RulesError",
    "evening_result",
    "parse_hand",
    "settle",
    "split_cups",
    "split_moves",
    "to_money",
]
