"""Settle one Slovenian hand: the hand score H, the Mond, klop and the radli.

Only the declarer's side scores (in klop, and for a captured Mond, single players do);
the other side of every score is the account ``pool``. Every transfer moves a positive
number of points between a member and the pool, so the members' nets plus the pool's
change are 0 by construction (``slovenian-tarok.md`` sections 3 to 11).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import cast

from ledger.games.base import Move
from ledger.games.errors import HandError, Problems

from .hand import (
    CARD_POINT_CONTRACTS,
    GAME_CONTRACTS,
    MOND_CONTRACTS,
    POOL,
    RADLI_CONTRACTS,
    SlovenianHand,
    parse_radli,
)
from .ratecard import GAME_CODE, RateCard

SETTLEMENT_FORMAT = "tarokclub.settlement/1"


def round_to(value: int, unit: int) -> int:
    """Return ``value`` (>= 0) rounded to the nearest multiple of ``unit``; halves round down.

    With an odd unit no half can occur; with an even unit 1 … unit/2 round down
    (e.g. 3 to the nearest 2 is 2, 5 to the nearest 10 is 0).
    """
    if unit < 1:
        raise ValueError("a rounding unit is at least 1")
    quotient, remainder = divmod(value, unit)
    if 2 * remainder > unit:
        quotient += 1
    return quotient * unit


def difference(card_points: int, rates: RateCard) -> int:
    """Return D = |card points − par| rounded to ``difference_round_to`` (section 3)."""
    return round_to(abs(card_points - rates.card_points_par), rates.difference_round_to)


def _sign(side: str, result: str) -> int:
    """+1 when a line scores for the declarer's side, −1 when against it."""
    sign = 1 if side == "declarer" else -1
    return sign if result == "made" else -sign


@dataclass(frozen=True)
class SlovenianSettlement:
    """The transfers of one hand, each seated member's net and his radli after it."""

    transfers: tuple[Move, ...]
    net: Mapping[str, int]
    radli_after: Mapping[str, int]
    outcome: Mapping = field(default_factory=lambda: MappingProxyType({}))
    role_map: Mapping[str, str] = field(default_factory=lambda: MappingProxyType({}))

    @property
    def state_after(self) -> dict:
        return dict(self.radli_after)

    @property
    def outcome_data(self) -> dict:
        return _plain(self.outcome)

    @property
    def roles(self) -> dict:
        return dict(self.role_map)

    @property
    def pool_change(self) -> int:
        """What the pool gained in this hand (minus the sum of the members' nets)."""
        return -sum(self.net.values())

    def as_dict(self) -> dict:
        return {
            "format": SETTLEMENT_FORMAT,
            "game": GAME_CODE,
            "transfers": [t.as_dict() for t in self.transfers],
            "net": dict(self.net),
            "radli_after": dict(self.radli_after),
        }


def _plain(value):
    if isinstance(value, Mapping):
        return {k: _plain(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [_plain(v) for v in value]
    return value


class _Book:
    """Moves between members and the pool, and the members' nets."""

    def __init__(self, seats):
        self.moves: list[Move] = []
        self.net = {seat: 0 for seat in seats}

    def pay(self, member: str, points: int, reason: str) -> None:
        """The pool pays ``points`` to ``member``; a negative amount goes the other way."""
        if points > 0:
            self.moves.append(Move(POOL, member, points, reason))
        elif points < 0:
            self.moves.append(Move(member, POOL, -points, reason))
        self.net[member] += points


def settle(record: SlovenianHand, rates: RateCard | None = None, state=None) -> SlovenianSettlement:
    """Settle a parsed hand; ``state`` (member → open radli) overrides its ``radli_before``."""
    rates = rates or RateCard()
    if state is None:
        radli = dict(record.radli_before)
    else:
        p = Problems()
        radli = parse_radli(p, state, record.seats)
        p.raise_if_any(HandError)
    book = _Book(record.seats)
    active = record.active
    roles = {seat: ("out" if seat not in active else "opponent") for seat in record.seats}
    outcome: dict = {
        "annulled": record.annulled,
        "contract": record.contract,
        "declarer": record.declarer,
        "partner": record.partner,
        "won": None,
        "H": 0,
        "paid": 0,
        "items": [],
        "kontra": 2**record.kontra,
        "radelc_doubled": False,
        "radelc_crossed": False,
        "radli_given": False,
        "mond_captured": record.mond_captured,
        "mond": None,
        "klop": None,
    }
    after = dict(radli)

    if record.annulled:
        for seat in active:
            roles[seat] = "annulled"
    elif record.contract == "klop":
        for seat in active:
            roles[seat] = "klop"
        outcome["kontra"] = 1
        outcome["klop"] = _settle_klop(record, rates, book)
    else:
        declarer = cast(str, record.declarer)  # every contract but klop has one (parse_hand)
        roles[declarer] = "declarer"
        if record.partner is not None:
            roles[record.partner] = "partner"
        h, items, won, valat_line = _hand_score(record, rates)
        outcome.update(H=h, items=items, won=won)
        paid = h
        if rates.radli and radli[declarer] > 0:
            paid = 2 * h
            outcome["radelc_doubled"] = True
            if won:
                after[declarer] -= 1
                outcome["radelc_crossed"] = True
        outcome["paid"] = paid
        book.pay(declarer, paid, "hand")
        if record.partner is not None:
            book.pay(record.partner, paid, "hand")
        if (
            record.mond_captured is not None
            and record.contract in MOND_CONTRACTS
            and valat_line is None
            and rates.mond_penalty
        ):
            book.pay(record.mond_captured, -rates.mond_penalty, "mond")
            outcome["mond"] = record.mond_captured

    if rates.radli and not record.annulled and _gives_radli(record, rates):
        for seat in active:
            after[seat] += 1
        outcome["radli_given"] = True

    return SlovenianSettlement(
        transfers=tuple(book.moves),
        net=MappingProxyType(dict(book.net)),
        radli_after=MappingProxyType(after),
        outcome=MappingProxyType(outcome),
        role_map=MappingProxyType(roles),
    )


def _gives_radli(record: SlovenianHand, rates: RateCard) -> bool:
    """Klop, a contract from beggar up, or a valat line as ``radli_after_valat`` says: made
    by either side (section 9), also announced and failed (mytja), or never (erikbozic)."""
    if record.contract in RADLI_CONTRACTS:
        return True
    valat = record.valat
    if valat is None or rates.radli_after_valat == "no":
        return False
    if rates.radli_after_valat == "made_or_failed":
        return valat.result == "made" or valat.announced
    return valat.result == "made"


def _hand_score(record: SlovenianHand, rates: RateCard):
    """Return (H, the items that made it, whether the declarer's side won, the valat line)."""
    factor = 2**record.kontra
    contract = cast(str, record.contract)  # not annulled: parse_hand requires the contract
    value = rates.contract_value(contract)
    valat = record.valat
    if valat is not None:
        if valat.announced:
            amount = rates.valat_announced * 2**valat.kontra
        else:
            amount = rates.valat_silent * factor  # a silent valat takes the game's kontra
        sign = _sign(valat.side, valat.result)
        h = sign * amount
        item = {
            "item": "valat",
            "side": valat.side,
            "announced": valat.announced,
            "result": valat.result,
            "value": h,
        }
        return h, [item], sign > 0, valat

    if contract in CARD_POINT_CONTRACTS:
        card_points = cast(int, record.card_points)  # required for these contracts (parse_hand)
        won = card_points > rates.card_points_par
        if contract in GAME_CONTRACTS:
            game = value + difference(card_points, rates)
        else:  # solo_without: no difference
            game = value
    else:
        won = bool(record.won)
        game = value
    game = (game if won else -game) * factor
    items = [{"item": "game", "value": game}]
    h = game
    for bonus in record.bonuses:
        if bonus.announced:
            v = rates.bonus_announced[bonus.type] * 2**bonus.kontra
        else:
            v = rates.bonus_silent[bonus.type]
        signed = _sign(bonus.side, bonus.result) * v
        h += signed
        items.append(
            {
                "item": bonus.type,
                "side": bonus.side,
                "announced": bonus.announced,
                "result": bonus.result,
                "value": signed,
            }
        )
    return h, items, won, None


def _settle_klop(record: SlovenianHand, rates: RateCard, book: _Book) -> dict:
    """Everyone for himself (section 10); return each player's card points and score."""
    results = {}
    no_trick = [k for k in record.klop if not k.took_trick]
    over = [k for k in record.klop if k.card_points >= rates.klop_limit]
    for k in record.klop:
        if no_trick or over:
            if not k.took_trick:
                score = rates.klop_value
            elif k.card_points >= rates.klop_limit:
                score = -rates.klop_value
            else:
                score = 0
        else:
            score = -round_to(k.card_points, rates.klop_round_to)
        book.pay(k.player, score, "klop")
        results[k.player] = {
            "card_points": k.card_points,
            "took_trick": k.took_trick,
            "score": score,
        }
    return results
