"""Settle one hand: turn a DanishHand into the transfers that move jetons.

Order (danish-tarok.md sections 2 to 7): dealer's fee, melds, events during
play, fines; then, unless annulled, tout or nolo or ultimo, bagud, last trick,
the count and refunding. Every transfer moves a positive number of points from
one account (a member, ``kongekop`` or ``pagatkop``) to another, so every
settlement is zero-sum over members and cups by construction.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import cast

from ledger.games.base import Move

from . import rotation
from .hand import CUPS, DanishHand, LastTrick, is_counted
from .ratecard import RateCard

SETTLEMENT_FORMAT = "tarokclub.settlement/1"
CUP_OF_CARD = {"king": "kongekop", "pagat": "pagatkop"}


@dataclass(frozen=True)
class Outcome:
    """What happened at the end of the hand, for statistics."""

    tout: str | None = None
    nolo: str | None = None
    ultimo: tuple[str, str] | None = None  # (player, "pagat" | "king")
    bagud: tuple[tuple[str, str], ...] = ()
    last_trick: str | None = None
    cups_taken: tuple[str, ...] = ()
    refunded: tuple[str, ...] = ()

    def as_dict(self) -> dict:
        """Return the outcome as JSON-ready data (stored on the hand's posting)."""
        return {
            "tout": self.tout,
            "nolo": self.nolo,
            "ultimo": list(self.ultimo) if self.ultimo else None,
            "bagud": [list(b) for b in self.bagud],
            "last_trick": self.last_trick,
            "cups_taken": list(self.cups_taken),
            "refunded": list(self.refunded),
        }


@dataclass(frozen=True)
class DanishSettlement:
    """The transfers of one hand, each seated member's net and the cups after."""

    transfers: tuple[Move, ...]
    net: dict
    cups_after: dict
    outcome: Outcome = field(default_factory=Outcome)
    roles: dict = field(default_factory=dict)

    @property
    def state_after(self) -> dict:
        """Return the state the next hand starts from: the cups."""
        return dict(self.cups_after)

    @property
    def outcome_data(self) -> dict:
        return self.outcome.as_dict()

    def as_dict(self) -> dict:
        return {
            "format": SETTLEMENT_FORMAT,
            "transfers": [t.as_dict() for t in self.transfers],
            "net": dict(self.net),
            "cups_after": dict(self.cups_after),
        }


def round_count(points: int, rates: RateCard) -> int:
    """Return ``points - par`` rounded to the nearest multiple of ``count_round_to``.

    Halves (possible only with an even ``count_round_to``) round away from zero.
    """
    diff = points - rates.count_par
    unit = rates.count_round_to
    sign = -1 if diff < 0 else 1
    return sign * ((abs(diff) * 2 + unit) // (2 * unit)) * unit


class _Book:
    """The running balances of one hand's settlement."""

    def __init__(self, record: DanishHand, cups_before: dict):
        self.transfers: list[Move] = []
        self.balance = {name: 0 for name in record.seats}
        self.balance.update(cups_before)

    def pay(self, source: str, target: str, points: int, reason: str) -> None:
        if points <= 0 or source == target:
            return
        self.transfers.append(Move(source, target, points, reason))
        self.balance[source] -= points
        self.balance[target] += points


def settle(record: DanishHand, rates: RateCard | None = None, cups_before: dict | None = None):
    """Return the DanishSettlement of ``record`` under ``rates``, starting from ``cups_before``.

    ``cups_before`` defaults to the record's own; it is the cups' balance before
    the dealer's fee of this hand.
    """
    rates = rates or RateCard()
    # A parsed hand always has its cups (left out or null: as funded).
    cups = dict(cups_before if cups_before is not None else record.cups_before or {})
    book = _Book(record, cups)
    active = record.active

    def others(player: str):
        return [a for a in active if a != player]

    # Section 2: the dealer's fee.
    for cup in CUPS:
        book.pay(record.dealer, cup, rates.dealer_fee_per_cup, "dealer_fee")

    # Section 3: melds, paid by each of the two other active players.
    for meld in record.melds:
        amount = meld_value(meld, rates)
        for payer in others(meld.player):
            book.pay(payer, meld.player, amount, f"meld_{meld.type}")

    # Section 4: during play, in the order it happened.
    for event in record.during_play:
        if event.type == "pagat_home":
            for payer in others(event.player):
                book.pay(payer, event.player, rates.pagat_home_each, "pagat_home")
        else:
            for receiver in others(event.player):
                book.pay(event.player, receiver, rates.lost_ultimo_card_each, event.type)
            cup = "kongekop" if event.type == "lost_king" else "pagatkop"
            book.pay(event.player, cup, rates.lost_ultimo_card_cup, event.type)

    # Section 5: fines into each cup, unless waived.
    for fine in record.fines:
        if not fine.waived:
            for cup in CUPS:
                book.pay(fine.player, cup, rates.fine(fine.type), f"fine_{fine.type}")

    if record.annulled:
        return _result(book, record, Outcome())

    # Section 6: the end of the hand, from P = each cup at the end of play.
    p_cup = {cup: book.balance[cup] for cup in CUPS}
    trick = cast(LastTrick, record.last_trick)  # parse_hand requires it unless annulled
    taken: list[str] = []
    ultimo = None
    tout = record.tout
    nolo = record.nolo if not tout else None

    if tout:
        if rates.tout_variant == "pagat":
            for payer in others(tout):
                book.pay(payer, tout, rates.tout_each_pagat, "tout")
        else:
            each = rates.tout_each_agger if rates.tout_variant == "agger" else rates.tout_each
            for payer in others(tout):
                book.pay(payer, tout, each, "tout")
            for cup in CUPS:
                book.pay(cup, tout, book.balance[cup], "tout_cup")
                taken.append(cup)
    elif nolo:
        for payer in others(nolo):
            book.pay(payer, nolo, rates.nolo_each, "nolo")
    else:
        card = trick.winning_card
        if card in CUP_OF_CARD and trick.winner not in record.barred():
            cup = CUP_OF_CARD[card]
            ultimo = (trick.winner, card)
            book.pay(cup, trick.winner, book.balance[cup], "ultimo_cup")
            taken.append(cup)
            for payer in others(trick.winner):
                book.pay(payer, trick.winner, ultimo_value(card, rates), "ultimo")

    bagud = []
    if trick is not None:
        seen_on_cup = {cup: 0 for cup in CUPS}
        for played in trick.cards:
            if played.card not in CUP_OF_CARD or played.player == trick.winner:
                continue
            cup = CUP_OF_CARD[played.card]
            bagud.append((played.player, played.card))
            for receiver in others(played.player):
                book.pay(played.player, receiver, ultimo_value(played.card, rates), "bagud")
            into_cup = p_cup[cup]
            if rates.multi_bagud == "sequential":
                into_cup = p_cup[cup] * 2 ** seen_on_cup[cup]
            seen_on_cup[cup] += 1
            book.pay(played.player, cup, rates.into_cup(into_cup), "bagud_cup")

    last_trick_winner = None
    if not tout and not nolo and not any(c.card in CUP_OF_CARD for c in trick.cards):
        last_trick_winner = trick.winner
        for payer in others(trick.winner):
            book.pay(payer, trick.winner, rates.last_trick_each, "last_trick")

    # Section 7: the count, the non-counter being every counter's counterparty.
    if is_counted(record, rates):
        count = cast(dict, record.count)  # parse_hand requires the count of a counted hand
        skip = rotation.non_counter(
            record.seats, record.dealer, record.sitting_out, rates.five_seat_rotation
        )
        for counter in active:
            if counter == skip:
                continue
            r = round_count(count[counter], rates)
            if r > 0:
                book.pay(skip, counter, r, "count")
            elif r < 0:
                book.pay(counter, skip, -r, "count")

    # Refunding: every cup taken and not refilled, by every seated member.
    refunded = []
    for cup in taken:
        if book.balance[cup] == 0:
            refunded.append(cup)
            for member in record.seats:
                book.pay(member, cup, rates.refund_per_cup, "refund")

    outcome = Outcome(
        tout=tout,
        nolo=nolo,
        ultimo=ultimo,
        bagud=tuple(bagud),
        last_trick=last_trick_winner,
        cups_taken=tuple(taken),
        refunded=tuple(refunded),
    )
    return _result(book, record, outcome)


def meld_value(meld, rates: RateCard) -> int:
    """Return what each opponent pays for ``meld``."""
    if meld.type == "tarok":
        return rates.meld_tarok_base + rates.meld_tarok_step * (meld.count - 10)
    if meld.type == "matador":
        return rates.meld_matador_base + rates.meld_matador_step * (meld.count - 3)
    return {"half": rates.meld_half, "full": rates.meld_full, "overfull": rates.meld_overfull}[
        meld.type
    ]


def ultimo_value(card: str, rates: RateCard) -> int:
    """Return what each opponent pays for an ultimo (or a bagud) with ``card``."""
    return rates.ultimo_pagat_each if card == "pagat" else rates.ultimo_king_each


def _result(book: _Book, record: DanishHand, outcome: Outcome) -> DanishSettlement:
    return DanishSettlement(
        transfers=tuple(book.transfers),
        net={name: book.balance[name] for name in record.seats},
        cups_after={cup: book.balance[cup] for cup in CUPS},
        outcome=outcome,
        roles={name: "out" if name in record.sitting_out else "player" for name in record.seats},
    )
