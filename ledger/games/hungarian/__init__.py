"""Hungarian Tarokk (hungarian-tarokk.md): the ``GAME`` object the ledger asks.

Four play; a table seats 4 or 5 (the dealer sits out at 5). Only members are accounts:
no pools, no jetons, no state from hand to hand and nothing to split at the close.
"""

from __future__ import annotations

from ledger.games.base import Features, Move
from ledger.games.evening import run_evening

from .engine import ratecard, rotation, tournament
from .engine.evening import evening_result
from .engine.generate import random_hand as _random_hand
from .engine.hand import HungarianHand, parse_hand
from .engine.presets import PRESETS
from .engine.settle import HungarianSettlement, settle
from .engine.stats import STAT_KEYS
from .engine.stats import stats_of as _stats_of


class HungarianTarokk:
    """The Game of base.py for Hungarian Tarokk."""

    code = ratecard.GAME_CODE
    name = "Hungarian Tarokk"
    features = Features(
        min_seats=4,
        max_seats=5,
        active_players=4,
        pools=(),
        uses_jetons=False,
        state_in=None,
        state_out=None,
        stat_keys=STAT_KEYS,
        table_sizes=tournament.TABLE_SIZES,
        tournament_formats=tournament.FORMATS,
    )

    presets = PRESETS

    def rate_card(self, data=None) -> ratecard.RateCard:
        if isinstance(data, ratecard.RateCard):
            return data
        return ratecard.RateCard.from_dict(data or {})

    def initial_state(self, seats, rates) -> tuple[dict, list[Move]]:
        return {}, []

    def seat_moves(self, member: str, rates) -> list[Move]:
        return []

    def next_state(self, previous, pools, seats) -> dict:
        return {}

    def schedule(self, seats, previous, rates, *, first):
        return rotation.schedule(seats, previous, first)

    def parse_hand(self, data, rates, *, state=None) -> HungarianHand:
        return parse_hand(data, rates, state=state)

    def settle(self, record, rates, state) -> HungarianSettlement:
        return settle(record, rates, state)

    def random_hand(self, rng, schedule, rates, state):
        hand = _random_hand(rng, schedule.seats, schedule.dealer, self.rate_card(rates))
        hand.pop("seats", None)
        return hand

    def stats_of(self, record, settlement):
        """Return each seat's role, whether he played, and his counts (``engine/stats.py``)."""
        return _stats_of(record, settlement)

    def close(self, balances, state, rates, seats) -> list[Move]:
        return []

    def settle_evening(self, data, rates=None) -> dict:
        """Settle every hand in order; nothing is split."""
        card = rates if isinstance(rates, ratecard.RateCard) else self.rate_card(rates)
        return evening_result(run_evening(self, data, card))


GAME = HungarianTarokk()

__all__ = ["GAME", "HungarianTarokk"]
