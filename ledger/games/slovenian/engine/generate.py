"""Random valid Slovenian hand records, for property tests, benchmarks and the demo.

Pure Python and seeded (``random.Random``), so a failing case can be replayed from its seed.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence

from . import rotation
from .hand import (
    CALLED_CONTRACTS,
    CARD_POINT_CONTRACTS,
    CONTRACTS,
    GAME_CONTRACTS,
    HAND_FORMAT,
    MOND_CONTRACTS,
    WON_CONTRACTS,
)
from .ratecard import BONUS_TYPES, CARD_POINTS_TOTAL, GAME_CODE

#: How often each contract is drawn, roughly as at a club table.
CONTRACT_WEIGHTS = {
    "klop": 8,
    "three": 10,
    "two": 20,
    "one": 15,
    "solo_three": 5,
    "solo_two": 4,
    "solo_one": 3,
    "beggar": 4,
    "solo_without": 2,
    "open_beggar": 2,
    "colour_valat": 1,
    "valat": 1,
}


def random_hand(
    rng: random.Random,
    seats: Sequence[str],
    dealer: str,
    radli: Mapping[str, int] | None = None,
    *,
    with_table: bool = True,
) -> dict:
    """Return a valid Slovenian ``tarokclub.hand/1`` object with a mix of everything.

    ``radli`` becomes ``radli_before`` (omitted when empty); ``with_table=False`` leaves
    out ``seats`` and ``radli_before``, as in an evening file.
    """
    seats = list(seats)
    active = list(rotation.active_players(seats, dealer))
    forehand = rotation.forehand(seats, dealer)
    hand: dict = {"format": HAND_FORMAT, "game": GAME_CODE, "dealer": dealer}
    if with_table:
        hand["seats"] = seats
        if radli:
            hand["radli_before"] = {k: v for k, v in radli.items() if v}
    if rng.random() < 0.03:
        hand["annulled"] = True
        return hand
    contract = rng.choices(CONTRACTS, weights=[CONTRACT_WEIGHTS[c] for c in CONTRACTS])[0]
    hand["contract"] = contract
    if contract == "klop":
        hand["klop"] = _random_klop(rng, active)
        return hand
    declarer = forehand if contract == "three" else rng.choice(active)
    hand["declarer"] = declarer
    four = len(active) == 4
    if contract in CALLED_CONTRACTS and four:
        others = [a for a in active if a != declarer]
        hand["partner"] = rng.choice(others) if rng.random() < 0.85 else None
    if contract in CARD_POINT_CONTRACTS:
        hand["card_points"] = rng.randint(0, CARD_POINTS_TOTAL)
    if contract in WON_CONTRACTS:
        hand["won"] = rng.random() < 0.6
    hand["kontra"] = rng.choice((0, 0, 0, 0, 1, 1, 2, 3, 4))
    if contract in GAME_CONTRACTS:
        bonuses = _random_bonuses(rng, king_called=contract in CALLED_CONTRACTS and four)
        if bonuses:
            hand["bonuses"] = bonuses
        if rng.random() < 0.08:
            announced = rng.random() < 0.5
            hand["valat"] = {
                "side": rng.choice(("declarer", "opponents")),
                "announced": announced,
                "result": rng.choice(("made", "failed")) if announced else "made",
                "kontra": rng.choice((0, 0, 1, 2)) if announced else 0,
            }
    if contract in MOND_CONTRACTS and rng.random() < 0.15:
        hand["mond_captured"] = rng.choice(active)
    return hand


def _random_klop(rng: random.Random, active: list[str]) -> dict:
    """Split 70 card points among the active players; some may take no trick."""
    takers = [a for a in active if rng.random() > 0.15] or [rng.choice(active)]
    cuts = sorted(rng.randint(0, CARD_POINTS_TOTAL) for _ in range(len(takers) - 1))
    bounds = [0, *cuts, CARD_POINTS_TOTAL]
    points = {t: bounds[i + 1] - bounds[i] for i, t in enumerate(takers)}
    return {a: {"card_points": points.get(a, 0), "took_trick": a in points} for a in active}


def _random_bonuses(rng: random.Random, *, king_called: bool) -> list[dict]:
    lines = []
    for btype in BONUS_TYPES:
        if btype == "king_ultimo" and not king_called:
            continue
        if rng.random() > 0.25:
            continue
        side = "declarer" if btype == "king_ultimo" else rng.choice(("declarer", "opponents"))
        announced = rng.random() < 0.4
        if announced or btype in ("pagat_ultimo", "king_ultimo"):
            result = rng.choice(("made", "failed"))
        else:
            result = "made"
        line = {"type": btype, "side": side, "announced": announced, "result": result}
        if announced:
            line["kontra"] = rng.choice((0, 0, 1, 2))
        lines.append(line)
    return lines
