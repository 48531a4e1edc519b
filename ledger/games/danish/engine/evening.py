"""The end of the evening: replaying a table, splitting the cups, converting to money."""

from __future__ import annotations

from dataclasses import dataclass

from ledger.games.errors import EveningError, HandError, Problems, _
from ledger.games.money import to_money  # noqa: F401  (re-exported)

from .hand import CUPS, parse_hand
from .ratecard import RateCard
from .settle import Settlement, settle

EVENING_FORMAT = "tarokclub.evening/1"
EVENING_RESULT_FORMAT = "tarokclub.evening-result/1"


def split_cups(balances: dict, cups_total: int, split_unit: int = 5) -> dict:
    """Return each funding member's share of both cups together.

    ``balances`` are the members' balances before the split, in seat order.
    Everyone gets the same whole number of units of ``split_unit``; what does
    not divide evenly goes to the member who has done worst (lowest balance;
    ties go to the first in seat order).
    """
    members = list(balances)
    if not members:
        raise ValueError("a split needs at least one member")
    if cups_total < 0:
        raise ValueError("the cups cannot hold a negative amount")
    each = (cups_total // split_unit // len(members)) * split_unit
    shares = {m: each for m in members}
    worst = min(members, key=lambda m: (balances[m], members.index(m)))
    shares[worst] += cups_total - each * len(members)
    return shares


def split_moves(shares: dict, cups: dict) -> list[tuple[str, str, int, str]]:
    """Return the transfers that pay ``shares`` out of ``cups``: kongekop first, then pagatkop."""
    left = dict(cups)
    moves = []
    for name, share in shares.items():
        for cup in CUPS:
            take = min(share, left[cup])
            if take:
                moves.append((cup, name, take, "split"))
                left[cup] -= take
                share -= take
    return moves


@dataclass(frozen=True)
class EveningResult:
    """A whole table replayed: each hand's settlement, the balances and the split."""

    hands: tuple[Settlement, ...]
    before_split: dict
    cups_before_split: dict
    final: dict

    def as_dict(self) -> dict:
        return {
            "format": EVENING_RESULT_FORMAT,
            "hands": [s.as_dict() for s in self.hands],
            "before_split": dict(self.before_split),
            "cups_before_split": dict(self.cups_before_split),
            "final": dict(self.final),
        }


def settle_evening(data, rates: RateCard | None = None) -> EveningResult:
    """Fund the table, settle every hand in order and split the cups.

    Raise EveningError with every problem, fields prefixed by ``hands[i].``.
    """
    rates = rates or RateCard()
    p = Problems()
    if not isinstance(data, dict):
        p.add("", _("an evening must be a JSON object"))
        p.raise_if_any(EveningError)
    for key in data:
        if key not in ("format", "game", "seats", "hands"):
            p.add(key, _("unknown key {key}: an evening has no such field"), key=key)
    if data.get("format", EVENING_FORMAT) != EVENING_FORMAT:
        p.add("format", _("the format must be {expected}"), expected=EVENING_FORMAT)
    if data.get("game", "danish_tarok") != "danish_tarok":
        p.add("game", _("this evening is not of the game {game}"), game="danish_tarok")
    seats = data.get("seats")
    if (
        not isinstance(seats, list)
        or not all(isinstance(s, str) for s in seats)
        or len(set(seats)) != len(seats)
        or not 3 <= len(seats) <= 5
    ):
        p.add("seats", _("an evening seats 3 to 5 members with distinct names"))
    hands = data.get("hands")
    if not isinstance(hands, list):
        p.add("hands", _("hands must be a list of hands"))
    p.raise_if_any(EveningError)

    balances = {name: 0 for name in seats}
    cups = {cup: 0 for cup in CUPS}
    for name in seats:
        for cup in CUPS:
            balances[name] -= rates.funding_per_cup
            cups[cup] += rates.funding_per_cup

    settlements = []
    for i, hand in enumerate(hands):
        if isinstance(hand, dict):
            for key in ("seats", "cups_before"):
                if key in hand:
                    p.add(
                        f"hands[{i}].{key}",
                        _("a hand in an evening takes {key} from the evening"),
                        key=key,
                    )
        try:
            record = parse_hand(
                {k: v for k, v in hand.items() if k not in ("seats", "cups_before")}
                if isinstance(hand, dict)
                else hand,
                rates,
                seats=seats,
                cups_before=cups,
            )
        except HandError as error:
            p.extend(_prefixed(error.problems, f"hands[{i}]."))
            continue
        if p:
            continue
        settlement = settle(record, rates, cups)
        settlements.append(settlement)
        for name, amount in settlement.net.items():
            balances[name] += amount
        cups = dict(settlement.cups_after)
    p.raise_if_any(EveningError)

    shares = split_cups(balances, sum(cups.values()), rates.split_unit)
    final = {name: balances[name] + shares[name] for name in seats}
    return EveningResult(tuple(settlements), dict(balances), dict(cups), final)


def _prefixed(problems, prefix: str):
    from dataclasses import replace

    return [replace(problem, field=prefix + problem.field) for problem in problems]
