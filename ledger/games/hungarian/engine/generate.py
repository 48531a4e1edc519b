"""Random valid Hungarian hands, for property tests, benchmarks and the demo.

``random_hand(rng, seats, dealer)`` draws a hand that ``parse_hand`` accepts under
``rates`` (the defaults unless given): every figure line keeps the rules of
hand-format.md (one line per figure and side, no figure made by both sides, an
announced dupla agreeing with the card points, a made volát at 71 or more and nothing
made by the other side beside it, silent failures only for the pagát ultimó).
"""

from __future__ import annotations

import random

from . import rotation
from .hand import CARD_POINTS_TOTAL, HAND_FORMAT, MAX_KONTRA, SIDES
from .ratecard import BIDS, FIGURES, GAME_CODE, SILENT_FIGURES, RateCard

EDGE_POINTS = (0, 23, 24, 46, 47, 48, 49, 70, 71, 88, 90, 94)


def _kontra(rng: random.Random) -> int:
    return rng.choices(range(MAX_KONTRA + 1), weights=(8, 4, 2, 1, 1))[0]


def random_rates(rng: random.Random) -> RateCard:
    """Return a random valid card: every amount and the option drawn."""
    return RateCard.from_dict(
        {
            "bid_values": {b: rng.randint(0, 10) for b in BIDS},
            "figure_announced": {f: rng.randint(0, 50) for f in FIGURES},
            "figure_silent": {f: rng.randint(0, 25) for f in SILENT_FIGURES},
            "dupla_volat_times_bid": rng.random() < 0.5,
            "tarokk_claim_8": rng.randint(0, 5),
            "tarokk_claim_9": rng.randint(0, 9),
        }
    )


def random_hand(rng: random.Random, seats, dealer: str, rates: RateCard | None = None) -> dict:
    """Return a random valid Hungarian ``tarokclub.hand/1`` object for ``seats``."""
    rates = rates or RateCard()
    seats = list(seats)
    active = list(rotation.active_players(seats, dealer))
    data: dict = {"format": HAND_FORMAT, "game": GAME_CODE, "seats": seats, "dealer": dealer}
    if rng.random() < 0.05:
        data["annulled"] = True
        return data
    declarer = rng.choice(active)
    partner = None if rng.random() < 0.25 else rng.choice([a for a in active if a != declarer])
    if rng.random() < 0.3:
        card_points = rng.choice(EDGE_POINTS)
    else:
        card_points = rng.randint(0, CARD_POINTS_TOTAL)
    data.update(
        {
            "bid": rng.choice(BIDS),
            "declarer": declarer,
            "partner": partner,
            "card_points": card_points,
            "kontra": _kontra(rng),
        }
    )

    def points(side: str) -> int:
        return card_points if side == "declarer" else CARD_POINTS_TOTAL - card_points

    figures = []
    made: dict[str, str] = {}  # figure -> the side that made it
    volat_side = None
    # A volát first: the rest must leave the other side nothing made beside it.
    if rng.random() < 0.3:
        side = rng.choice(SIDES)
        announced = rng.random() < 0.5
        can_make = points(side) >= rates.dupla_points
        result = "made" if can_make and (not announced or rng.random() < 0.7) else "failed"
        if result == "made" or announced:
            line = {"type": "volat", "side": side, "announced": announced, "result": result}
            if announced:
                line["kontra"] = _kontra(rng)
            figures.append(line)
            if result == "made":
                made["volat"] = side
                volat_side = side
    for ftype in FIGURES:
        if ftype == "volat":
            continue
        for side in SIDES:
            if rng.random() > (0.3 if ftype == "dupla" else 0.12):
                continue
            beside_volat = volat_side is not None and volat_side != side
            announced = ftype not in SILENT_FIGURES or ftype == "dupla" or rng.random() < 0.5
            if ftype == "dupla":
                result = "made" if points(side) >= rates.dupla_points else "failed"
            elif not announced:
                result = "made" if rng.random() < 0.7 else "failed"
                if result == "failed" and ftype != "pagat_ultimo":
                    continue
            else:
                result = "made" if rng.random() < 0.5 else "failed"
            if result == "made" and (beside_volat or ftype in made):
                if ftype == "dupla" or (not announced and ftype != "pagat_ultimo"):
                    continue
                result = "failed"
            line = {"type": ftype, "side": side, "announced": announced, "result": result}
            if announced:
                line["kontra"] = _kontra(rng)
            figures.append(line)
            if result == "made":
                made[ftype] = side
    rng.shuffle(figures)
    if figures:
        data["figures"] = figures

    claims = []
    for player in rng.sample(active, rng.choice((0, 0, 0, 1, 1, 2))):
        when = rng.choice(("announced", "at_end"))
        if when == "at_end" and player == declarer and partner is None:
            when = "announced"
        claims.append({"player": player, "count": rng.choice((8, 9)), "when": when})
    if claims:
        data["tarokk_claims"] = claims
    return data
