"""Random valid hand records, for property tests, state-machine tests and benchmarks.

Pure Python and seeded, so a failing case can be replayed from its seed.
"""

from __future__ import annotations

import random

from . import rotation
from .hand import COURT_CARDS, SUITS
from .ratecard import FINE_TYPES, RateCard

MELD_SUITS = (*SUITS, "kings")


def random_hand(
    rng: random.Random,
    seats,
    dealer: str,
    rates: RateCard | None = None,
    *,
    sitting_out=None,
    cups_before=None,
    with_table: bool = True,
) -> dict:
    """Return a valid ``tarokclub.hand/1`` object with a realistic mix of everything."""
    rates = rates or RateCard()
    seats = list(seats)
    given_out = sitting_out is not None
    if sitting_out is None:
        sitting_out = rotation.default_sitting_out(seats, dealer, rates.five_seat_rotation)
        if sitting_out is None:
            _, sitting_out = rotation.hand_schedule(seats, dealer, 1, rates.five_seat_rotation)
            given_out = True
    active = rotation.active_players(seats, sitting_out)
    hand: dict = {"format": "tarokclub.hand/1", "dealer": dealer}
    if with_table:
        hand["seats"] = seats
        if cups_before is not None:
            hand["cups_before"] = dict(cups_before)
    if given_out:
        hand["sitting_out"] = list(sitting_out)

    roll = rng.random()
    tout = rng.choice(active) if roll < 0.04 else None
    nolo = rng.choice(active) if tout is None and roll < 0.12 else None
    annulled = rng.random() < 0.03

    melds = []
    used = set()
    for _ in range(rng.choice((0, 0, 0, 1, 1, 2, 3))):
        player = rng.choice(active)
        mtype = rng.choice(("tarok", "matador", "half", "full", "overfull"))
        if mtype in ("tarok", "matador"):
            key: tuple[str, ...] = (player, mtype)
            meld: dict[str, str | int | bool] = {"player": player, "type": mtype}
            meld["count"] = rng.randint(10, 14) if mtype == "tarok" else rng.randint(3, 6)
            if mtype == "tarok" and rng.random() < 0.5:
                meld["with_pagat"] = rng.random() < 0.5
        else:
            suit = rng.choice(MELD_SUITS)
            key = (player, "suit", suit)
            meld = {"player": player, "type": mtype, "suit": suit}
            if mtype == "half":
                meld["missing"] = rng.choice(SUITS if suit == "kings" else COURT_CARDS)
        if key not in used:
            used.add(key)
            melds.append(meld)
    if melds:
        hand["melds"] = melds

    events = []
    kings_left = 4
    pagat_gone = False
    for _ in range(rng.choice((0, 0, 1, 1, 2))):
        kind = rng.choice(("lost_king", "lost_pagat", "pagat_home"))
        if kind == "lost_king" and kings_left:
            candidates = [a for a in active if a != tout]
            if candidates:
                events.append({"type": "lost_king", "player": rng.choice(candidates)})
                kings_left -= 1
        elif kind == "lost_pagat" and not pagat_gone:
            candidates = [a for a in active if a != tout]
            if candidates:
                events.append({"type": "lost_pagat", "player": rng.choice(candidates)})
                pagat_gone = True
        elif kind == "pagat_home" and not pagat_gone:
            candidates = [tout] if tout else [a for a in active if a != nolo]
            events.append({"type": "pagat_home", "player": rng.choice(candidates)})
            pagat_gone = True
    if events:
        hand["during_play"] = events

    fines = []
    if rng.random() < 0.12:
        fines.append(
            {
                "type": rng.choice(FINE_TYPES),
                "player": rng.choice(active),
                "waived": rng.random() < 0.3,
            }
        )
    if fines:
        hand["fines"] = fines
    if annulled:
        hand["annulled"] = True

    order = list(active)
    rng.shuffle(order)
    cards: list[dict[str, str]] = []
    for player in order:
        options = ["other", "other", "other"]
        if kings_left:
            options.append("king")
        if not pagat_gone and not any(c["card"] == "pagat" for c in cards):
            options.append("pagat")
        card = rng.choice(options)
        if card == "king":
            kings_left -= 1
        cards.append({"player": player, "card": card})
    if tout:
        winner = tout
    else:
        winners = [c["player"] for c in cards if c["player"] != nolo]
        winner = rng.choice(winners)
    has_pagat = any(c["card"] == "pagat" for c in cards)
    for c in cards:
        if c["player"] == winner and c["card"] == "king" and has_pagat:
            c["card"] = "other"
    hand["last_trick"] = {"winner": winner, "cards": cards}
    hand["nolo"] = [nolo] if nolo else []
    hand["tout"] = tout

    counted = (
        not annulled and not (tout and rates.tout_variant != "moller") and not (nolo and not tout)
    )
    if counted:
        skip = rotation.non_counter(seats, dealer, sitting_out, rates.five_seat_rotation)
        counters = [a for a in active if a != skip]
        first = rng.randint(0, 78) if tout is None else rng.randint(0, 20)
        second = rng.randint(0, 78 - first) if tout is None else rng.randint(0, 20 - min(first, 20))
        if tout in counters:
            first, second = 60, 0
        count = {counters[0]: first, counters[1]: second}
        if rng.random() < 0.2:
            count[skip] = 78 - first - second
        hand["count"] = count
    return hand


def random_rates(rng: random.Random) -> RateCard:
    """Return a random but plausible house-rules rate card."""
    data = {
        "funding_per_cup": rng.choice((10, 20, 25, 50)),
        "refund_per_cup": rng.choice((10, 20, 25)),
        "dealer_fee_per_cup": rng.choice((0, 5, 10)),
        "meld_tarok_base": rng.choice((5, 10, 20)),
        "meld_matador_step": rng.choice((0, 5, 10)),
        "ultimo_pagat_each": rng.choice((40, 45, 50)),
        "ultimo_king_each": rng.choice((30, 40)),
        "last_trick_each": rng.choice((10, 20)),
        "nolo_each": rng.choice((20, 25, 30)),
        "tout_variant": rng.choice(("moller", "pagat", "agger")),
        "multi_bagud": rng.choice(("each_pays_p", "sequential")),
        "five_seat_rotation": rng.choice(("two_sitters", "hermansen")),
        "count_round_to": rng.choice((1, 5, 10)),
        "split_unit": rng.choice((1, 5, 10)),
        "fines_per_cup": {"revoke": rng.choice((20, 40, 50))},
    }
    return RateCard.from_dict(data)
