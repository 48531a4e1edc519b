"""The rules of Danish Tarok as pure functions: no Django, no database.

``parse_hand`` validates a ``tarokclub.hand/1`` record into a ``HandRecord``;
``settle`` turns it into transfers; ``evening`` funds, replays and splits.
"""

from ledger.games.errors import EveningError, HandError, Problem, RateCardError, RulesError

from .evening import EveningResult, settle_evening, split_cups, split_moves, to_money
from .hand import HandRecord, parse_hand
from .ratecard import RateCard
from .settle import Settlement, Transfer, settle

__all__ = [
    "EveningError",
    "EveningResult",
    "HandError",
    "HandRecord",
    "Problem",
    "RateCard",
    "RateCardError",
    "RulesError",
    "Settlement",
    "Transfer",
    "parse_hand",
    "settle",
    "settle_evening",
    "split_cups",
    "split_moves",
    "to_money",
]
