"""A test-only game, "high card": the boundary of the game contract, proved.

Three or four play (a tournament seats tables of 4, or of 3 where the count needs it, and
plays the generic formats); when a table opens each member puts ``ante`` into the pot; in each hand
one player wins and each other player pays him ``stake``; at the close the pot is shared out
again. It is registered only by the test settings (``TAROK_GAMES``), and nothing outside this
package names it: the contract test, the table screens and the entry page take it as they take
the real games.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from ledger.games import validation
from ledger.games.base import Features, Move, Pool, SeatStats, TableSizes
from ledger.games.errors import HandError, Problems, RateCardError
from ledger.games.evening import run_evening
from ledger.games.rotation import schedule as dealer_moves_on

CODE = "toy_high_card"
POT = "toy_pot"
DEFAULTS = {"stake": 10, "ante": 5}


@dataclass(frozen=True)
class ToyRates:
    stake: int = 10
    ante: int = 5

    def as_dict(self) -> dict:
        return {"stake": self.stake, "ante": self.ante}


@dataclass(frozen=True)
class ToyHand:
    seats: tuple[str, ...]
    dealer: str
    winner: str
    sitting_out: tuple[str, ...] = ()

    def as_dict(self) -> dict:
        return {
            "format": validation.HAND_FORMAT,
            "game": CODE,
            "seats": list(self.seats),
            "dealer": self.dealer,
            "winner": self.winner,
        }


@dataclass(frozen=True)
class ToySettlement:
    transfers: tuple[Move, ...]
    net: Mapping[str, int]
    winner: str
    role_map: Mapping[str, str] = field(default_factory=dict)

    @property
    def state_after(self) -> dict:
        return {}

    @property
    def outcome_data(self) -> dict:
        return {"winner": self.winner}

    @property
    def roles(self) -> dict:
        return dict(self.role_map)

    def as_dict(self) -> dict:
        return {
            "format": "tarokclub.settlement/1",
            "game": CODE,
            "transfers": [t.as_dict() for t in self.transfers],
            "net": dict(self.net),
        }


class ToyHighCard:
    code = CODE
    name = "High card"
    features = Features(
        min_seats=3,
        max_seats=4,
        active_players=3,
        pools=(Pool(POT, may_go_negative=False),),
        stat_keys=("toy_wins",),
        table_sizes=TableSizes(4, (3,)),
    )

    presets = ()

    def rate_card(self, data=None) -> ToyRates:
        if isinstance(data, ToyRates):
            return data
        p = Problems()
        values = dict(DEFAULTS)
        for key, value in dict(data or {}).items():
            if key in ("format", "game"):
                continue
            if key not in DEFAULTS:
                p.add(key, "unknown key {key}", key=key)
            elif isinstance(value, bool) or not isinstance(value, int) or value < 0:
                p.add(key, "{key} must be a whole number of points", key=key)
            else:
                values[key] = value
        p.raise_if_any(RateCardError)
        return ToyRates(**values)

    def initial_state(self, seats, rates):
        return {}, [Move(s, POT, rates.ante, "funding") for s in seats if rates.ante]

    def seat_moves(self, member, rates):
        return [Move(member, POT, rates.ante, "funding")] if rates.ante else []

    def next_state(self, previous, pools, seats):
        return {}

    def schedule(self, seats, previous, rates, *, first):
        return dealer_moves_on(seats, previous, first)

    def parse_hand(self, data, rates, *, state=None) -> ToyHand:
        p = Problems()
        validation.check_hand_object(p, data, {"format", "game", "seats", "dealer", "winner"})
        seats = validation.check_seats(p, data.get("seats"), low=3, high=4, reserved=(POT,))
        p.raise_if_any(HandError)
        assert seats is not None  # None only after a problem: raise_if_any raised
        for key in ("dealer", "winner"):
            if data.get(key) not in seats:
                p.add(key, "{key} must be seated at the table", key=key)
        p.raise_if_any(HandError)
        return ToyHand(seats=seats, dealer=data["dealer"], winner=data["winner"])

    def settle(self, record, rates, state) -> ToySettlement:
        rates = self.rate_card(rates)
        moves = tuple(
            Move(s, record.winner, rates.stake, "win") for s in record.seats if s != record.winner
        )
        net = {s: -rates.stake for s in record.seats}
        net[record.winner] = rates.stake * (len(record.seats) - 1)
        roles = {s: "winner" if s == record.winner else "player" for s in record.seats}
        return ToySettlement(moves, net, record.winner, roles)

    def random_hand(self, rng, schedule, rates, state) -> dict:
        return {"dealer": schedule.dealer, "winner": rng.choice(list(schedule.active))}

    def stats_of(self, record, settlement):
        return {
            s: SeatStats(role, True, {"toy_wins": int(role == "winner")})
            for s, role in settlement.roles.items()
        }

    def close(self, balances, state, rates, seats):
        pot = balances.get(POT, 0)
        if not pot or not seats:
            return []
        each, rest = divmod(pot, len(seats))
        shares = {s: each for s in seats}
        shares[min(seats, key=lambda s: (balances.get(s, 0), seats.index(s)))] += rest
        return [Move(POT, s, n, "split") for s, n in shares.items() if n]

    def settle_evening(self, data, rates=None) -> dict:
        run = run_evening(self, data, self.rate_card(rates))
        return {
            "format": "tarokclub.evening-result/1",
            "game": CODE,
            "hands": [s.as_dict() for s in run.settlements],
            "before_split": dict(run.before_split),
            "final": dict(run.final),
        }


GAME = ToyHighCard()
