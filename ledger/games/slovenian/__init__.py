"""Slovenian Tarok (``slovenian-tarok.md``): the game's ``GAME`` object for the ledger.

Pure Python: nothing in this package imports Django, the app's models or a database.

Seats: a table seats 3 to 5. ``active_players`` is 4: at 4 seats all four play, at 5 the
dealer sits out; at 3 seats the three-player form is played and all 3 play.

State: the radli, member → open radli. ``next_state`` returns every given seat with a
value, 0 included (as ``radli_after`` does); ``initial_state`` is empty (no radli).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from ledger.games.base import Features, Move, Pool
from ledger.games.evening import run_evening

from .engine import rotation, tournament
from .engine.close import close_table
from .engine.evening import evening_result
from .engine.generate import random_hand as _random_hand
from .engine.hand import POOL, SlovenianHand
from .engine.hand import parse_hand as _parse_hand
from .engine.presets import PRESETS
from .engine.ratecard import GAME_CODE, RateCard
from .engine.settle import SlovenianSettlement
from .engine.settle import settle as _settle
from .engine.stats import STAT_KEYS
from .engine.stats import stats_of as _stats_of


def _card(rates) -> RateCard:
    if rates is None:
        return RateCard()
    if isinstance(rates, RateCard):
        return rates
    return RateCard.from_dict(dict(rates))


class SlovenianTarok:
    """The Game protocol of ``ledger/games/base.py`` for Slovenian Tarok."""

    code = GAME_CODE
    name = "Slovenian Tarok"
    features = Features(
        min_seats=3,
        max_seats=5,
        active_players=4,  # at 3 seats the three play
        pools=(Pool(POOL, may_go_negative=True),),
        uses_jetons=False,
        state_in="radli_before",
        state_out="radli_after",
        stat_keys=STAT_KEYS,
        table_sizes=tournament.TABLE_SIZES,
        tournament_formats=tournament.FORMATS,
    )

    presets = PRESETS

    def rate_card(self, data: Mapping | None = None) -> RateCard:
        if isinstance(data, RateCard):
            return data
        return RateCard.from_dict(dict(data or {}))

    def initial_state(self, seats: Sequence[str], rates) -> tuple[dict, list[Move]]:
        """No radli and no funding: the pool starts at 0."""
        return {}, []

    def seat_moves(self, member: str, rates) -> list[Move]:
        """A late arrival pays nothing."""
        return []

    def next_state(self, previous: Mapping | None, pools: Mapping[str, int], seats) -> dict:
        """Return the radli of ``seats``: as after the last hand, 0 for a new seat."""
        previous = previous or {}
        return {seat: int(previous.get(seat, 0)) for seat in seats}

    def schedule(self, seats, previous, rates, *, first):
        return rotation.schedule(seats, previous, first)

    def parse_hand(self, data: Mapping, rates, *, state: Mapping | None = None) -> SlovenianHand:
        return _parse_hand(data, _card(rates), state=state)

    def settle(self, record: SlovenianHand, rates, state: Mapping | None) -> SlovenianSettlement:
        return _settle(record, _card(rates), state)

    def random_hand(self, rng, schedule, rates, state):
        return _random_hand(rng, schedule.seats, schedule.dealer, state, with_table=False)

    def stats_of(self, record, settlement):
        """Return each seat's role, whether he played, and his counts (``engine/stats.py``)."""
        return _stats_of(record, settlement)

    def close(self, balances: Mapping[str, int], state: Mapping, rates, seats) -> list[Move]:
        """Radli penalties (member → pool, ``radelc``), then the split (``split``)."""
        return close_table(balances, state, _card(rates), seats)

    def settle_evening(self, data: Mapping, rates=None) -> dict:
        """Settle every hand in order, then charge the radli and split the pool."""
        return evening_result(run_evening(self, data, _card(rates)))


GAME = SlovenianTarok()

__all__ = ["GAME", "RateCard", "SlovenianTarok"]
