"""Settle one Hungarian hand (hungarian-tarokk.md sections 7 to 10).

The items, each counted + for the declarer's side, come in this order: ``game``,
``dupla``, ``volat``, then the other figures in the order of the spec's table
(``trull``, ``four_kings``, ``pagat_ultimo``, ``xxi_catch``, ``centrum``, ``kismadar``,
``nagymadar``, ``king_ultimo``, ``pagat_uhu``, ``king_uhu``). T is their sum.

Transfers, deterministic:

- Each reason (an item; two lines of one figure, one per side, are summed) is one set of
  transfers. With a partner, the opponents are taken in the direction of play from the
  declarer: the first pays the declarer the value, the second pays the partner; a
  negative value goes the other way (declarer to the first, partner to the second).
  Alone, each opponent in seat order pays the declarer (or is paid by him).
- Then the tarokk claims, in the order recorded, reason ``tarokk_claim``: the payers in
  seat order.

So the transfers list as the worked examples of section 14 list them.

A value of 0 moves nothing. A member sitting out is in no transfer.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import cast

from ledger.games.base import Move

from .hand import HungarianHand
from .ratecard import FIGURES, GAME_CODE, RateCard, card_of

SETTLEMENT_FORMAT = "tarokclub.settlement/1"
# Silent figures not paid to a side that made a volát (section 7.5).
NOT_PAID_BESIDE_VOLAT = ("trull", "four_kings")


@dataclass(frozen=True)
class Item:
    """One item of T: ``value`` is counted for the declarer's side (negative: it pays)."""

    item: str
    side: str
    value: int
    silent: bool | None = None
    result: str | None = None
    kontra: int | None = None
    paid: bool = True

    def as_dict(self) -> dict:
        data: dict = {"item": self.item, "side": self.side}
        if self.silent is not None:
            data["silent"] = self.silent
        if self.result is not None:
            data["result"] = self.result
        if self.kontra is not None:
            data["kontra"] = self.kontra
        if not self.paid:
            data["paid"] = False
        data["value"] = self.value
        return data


@dataclass(frozen=True)
class HungarianSettlement:
    """The transfers of one hand and each seated member's net."""

    transfers: tuple[Move, ...]
    net: Mapping[str, int]
    record: HungarianHand
    items: tuple[Item, ...] = ()
    game_won_by: str | None = None
    g: int | None = None

    @property
    def state_after(self) -> dict:
        """Hungarian Tarokk carries no state from hand to hand."""
        return {}

    @property
    def total(self) -> int:
        """T: the sum of the items, + for the declarer's side (section 9)."""
        return sum(i.value for i in self.items)

    @property
    def roles(self) -> dict:
        """Every seated member's role: declarer, partner, alone, opponent or out.

        In an annulled hand the active members are ``player``.
        """
        r = self.record
        roles = {}
        for seat in r.seats:
            if seat in r.sitting_out:
                roles[seat] = "out"
            elif r.annulled:
                roles[seat] = "player"
            elif seat == r.declarer:
                roles[seat] = "alone" if r.alone else "declarer"
            elif seat == r.partner:
                roles[seat] = "partner"
            else:
                roles[seat] = "opponent"
        return roles

    @property
    def outcome_data(self) -> dict:
        """JSON-ready data of what happened, for the sheet's words and statistics."""
        r = self.record
        if r.annulled:
            return {"annulled": True}
        return {
            "annulled": False,
            "bid": r.bid,
            "G": self.g,
            "declarer": r.declarer,
            "partner": r.partner,
            "alone": r.alone,
            "card_points": r.card_points,
            "game_won_by": self.game_won_by,
            "kontra": r.kontra,
            "kontra_factor": 2**r.kontra,
            "items": [i.as_dict() for i in self.items],
            "T": self.total,
            "tarokk_claims": [c.as_dict() for c in r.tarokk_claims],
        }

    def as_dict(self) -> dict:
        """Return the Hungarian ``tarokclub.settlement/1`` object."""
        return {
            "format": SETTLEMENT_FORMAT,
            "game": GAME_CODE,
            "transfers": [t.as_dict() for t in self.transfers],
            "net": dict(self.net),
        }


def items_of(record: HungarianHand, rates: RateCard) -> tuple[str, list[Item]]:
    """Return the side that won the game and the items of T (sections 4, 7 and 8)."""
    # Only a hand not annulled has items, and parse_hand gave it a bid and card points.
    bid = cast(str, record.bid)
    g = rates.game_value(bid)
    won_by = "declarer" if cast(int, record.card_points) >= rates.game_win_points else "opponents"
    sign = {"declarer": 1, "opponents": -1}
    lines = {(f.type, f.side): f for f in record.figures}
    items: list[Item] = []

    def figure_item(f) -> Item:
        value = rates.figure_value(f.type, f.announced, bid)
        if f.announced:
            value *= 2**f.kontra
        if not f.made:
            value = -value
        return Item(
            f.type,
            f.side,
            sign[f.side] * value,
            silent=not f.announced,
            result=f.result,
            kontra=f.kontra if f.announced else None,
        )

    announced_game_figure = {
        side: any((t, side) in lines and lines[(t, side)].announced for t in ("dupla", "volat"))
        for side in sign
    }
    made_volat = {side: ("volat", side) in lines and lines[("volat", side)].made for side in sign}
    silent_volat = {
        side: ("volat", side) in lines and not lines[("volat", side)].announced for side in sign
    }
    silent_dupla = {
        side: record.side_points(side) >= rates.dupla_points
        and not announced_game_figure[side]
        and not made_volat[side]
        for side in sign
    }

    # 7.4: the game.
    k = record.kontra
    any_announced = any(announced_game_figure.values())
    if k >= 1 or (not any_announced and not silent_dupla[won_by] and not silent_volat[won_by]):
        items.append(Item("game", won_by, sign[won_by] * g * 2**k))

    # 7.1 to 7.3: dupla, then volát; the declarer's side's line first.
    for side in sign:
        if ("dupla", side) in lines:
            items.append(figure_item(lines[("dupla", side)]))
        elif silent_dupla[side]:
            value = rates.figure_value("dupla", False, bid)
            items.append(Item("dupla", side, sign[side] * value, silent=True, result="made"))
    for side in sign:
        if ("volat", side) in lines:
            items.append(figure_item(lines[("volat", side)]))

    # 7.5 and 8: the other figures.
    for ftype in FIGURES[2:]:
        for side in sign:
            f = lines.get((ftype, side))
            if f is None:
                continue
            item = figure_item(f)
            if ftype in NOT_PAID_BESIDE_VOLAT and not f.announced and made_volat[side]:
                item = Item(
                    item.item, side, 0, silent=True, result=f.result, kontra=None, paid=False
                )
            items.append(item)
    return won_by, items


def settle(record: HungarianHand, rates: RateCard | None = None, state=None):
    """Return the HungarianSettlement of ``record`` under ``rates``; ``state`` is unused."""
    rates = card_of(rates)
    net = {seat: 0 for seat in record.seats}
    transfers: list[Move] = []

    def pay(source: str, target: str, points: int, reason: str) -> None:
        if points < 0:
            source, target, points = target, source, -points
        if points == 0 or source == target:
            return
        transfers.append(Move(source, target, points, reason))
        net[source] -= points
        net[target] += points

    if record.annulled:
        return HungarianSettlement((), net, record)

    won_by, items = items_of(record, rates)
    declarer = cast(str, record.declarer)  # not annulled: parse_hand gave it a declarer
    by_reason: dict[str, int] = {}
    for item in items:
        by_reason[item.item] = by_reason.get(item.item, 0) + item.value

    opponents = record.opponents
    for reason, value in by_reason.items():
        if record.alone:
            for opponent in (s for s in record.seats if s in opponents):
                pay(opponent, declarer, value, reason)
        else:
            pay(opponents[0], declarer, value, reason)
            pay(opponents[1], cast(str, record.partner), value, reason)  # not alone: a partner

    for claim in record.tarokk_claims:
        amount = rates.tarokk_claim(claim.count)
        if claim.when == "announced":
            payers = [a for a in record.active if a != claim.player]
        else:
            side = record.declarer_side if claim.player in record.declarer_side else opponents
            payers = [m for m in side if m != claim.player]
        for payer in (s for s in record.seats if s in payers):
            pay(payer, claim.player, amount, "tarokk_claim")

    g = rates.game_value(cast(str, record.bid))  # not annulled: parse_hand gave it a bid
    return HungarianSettlement(tuple(transfers), net, record, tuple(items), won_by, g)
