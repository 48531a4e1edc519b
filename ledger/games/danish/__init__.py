"""Danish Tarok (Grosstarock): three play each hand; jetons move between players and two cups.

``GAME`` answers the ledger's questions in the game's own words; nothing outside this package
names a cup, a meld or a bagud.
"""

from __future__ import annotations

from ledger.games.base import Features, Move, Pool, Schedule
from ledger.games.evening import run_evening

from .engine import RateCard, evening_result, parse_hand, rotation, settle, split_cups, tournament
from .engine.evening import split_moves
from .engine.generate import random_hand
from .engine.hand import CUPS
from .engine.presets import PRESETS
from .engine.stats import STAT_KEYS
from .engine.stats import stats_of as _stats_of


class DanishTarok:
    code = "danish_tarok"
    name = "Danish Tarok"
    features = Features(
        min_seats=3,
        max_seats=5,
        active_players=3,
        pools=tuple(Pool(cup, may_go_negative=False) for cup in CUPS),
        uses_jetons=True,
        state_in="cups_before",
        state_out="cups_after",
        stat_keys=STAT_KEYS,
        table_sizes=tournament.TABLE_SIZES,
        tournament_formats=tournament.FORMATS,
    )

    presets = PRESETS

    def rate_card(self, data=None) -> RateCard:
        if isinstance(data, RateCard):
            return data
        return RateCard.from_dict(dict(data or {}))

    def initial_state(self, seats, rates):
        moves = [
            Move(name, cup, rates.funding_per_cup, "funding")
            for name in seats
            for cup in CUPS
            if rates.funding_per_cup
        ]
        return {cup: rates.funding_per_cup * len(seats) for cup in CUPS}, moves

    def seat_moves(self, member, rates):
        return [
            Move(member, cup, rates.funding_per_cup, "funding")
            for cup in CUPS
            if rates.funding_per_cup
        ]

    def next_state(self, previous, pools, seats):
        """The cups are what the pools hold: funding and adjustments count too."""
        return {cup: pools.get(cup, 0) for cup in CUPS}

    def schedule(self, seats, previous, rates, *, first):
        dealer, out = rotation.next_deal(seats, previous, first, rates.five_seat_rotation)
        out = tuple(out or ())
        skip = rotation.non_counter(seats, dealer, out, rates.five_seat_rotation)
        return Schedule(
            dealer=dealer,
            sitting_out=out,
            active=rotation.active_players(seats, out),
            forehand=rotation.forehand(seats, dealer, out),
            seats=tuple(seats),
            roles={
                name: "out"
                if name in out
                else "non_counter"
                if name == skip
                else "dealer"
                if name == dealer
                else "player"
                for name in seats
            },
        )

    def parse_hand(self, data, rates, *, state=None):
        data = {k: v for k, v in data.items() if k != "cups_before"} if state else data
        return parse_hand(data, rates, cups_before=state)

    def settle(self, record, rates, state):
        return settle(record, rates, state)

    def random_hand(self, rng, schedule, rates, state):
        return random_hand(
            rng,
            schedule.seats,
            schedule.dealer,
            rates,
            sitting_out=list(schedule.sitting_out),
            with_table=False,
        )

    def stats_of(self, record, settlement):
        """Return each seat's role, whether he played, and his counts (``engine/stats.py``)."""
        return _stats_of(record, settlement)

    def close(self, balances, state, rates, seats):
        """Split both cups among everyone who funded the table (remainder to the worst)."""
        cups = {cup: balances.get(cup, 0) for cup in CUPS}
        total = sum(cups.values())
        if not total or not seats:
            return []
        shares = split_cups({s: balances.get(s, 0) for s in seats}, total, rates.split_unit)
        return [Move(*m) for m in split_moves(shares, cups)]

    def settle_evening(self, data, rates=None):
        """Fund the table, settle every hand in order and split the cups."""
        card = rates if isinstance(rates, RateCard) else self.rate_card(rates)
        return evening_result(run_evening(self, data, card))


GAME = DanishTarok()
