"""How far the next hand can grow the cups: a cup doubles with every bagud, and a hand may
only start from cups within the ledger's bound (``MAX_POINTS``), so a table whose cup passes
it can record no more hands; its screen warns one hand before."""

from __future__ import annotations

from collections.abc import Mapping

from ledger.games.money import MAX_POINTS

from .hand import CUPS
from .ratecard import RateCard

# The most cards of a cup one last trick can bring bagud: three cards, one of which wins, so
# two kings (each of its own suit) into the kongekop, and the one pagat into the pagatkop.
MOST_BAGUD = {"kongekop": 2, "pagatkop": 1}


def cup_after_bagud(points: int, rates: RateCard, bagud: int) -> int:
    """Return a cup of ``points`` (after the dealer's fee) after ``bagud`` bagud into it."""
    total = points
    for i in range(bagud):
        calls = points * 2**i if rates.multi_bagud == "sequential" else points
        total += rates.into_cup(calls)
    return total


def cup_outlook(cups: Mapping[str, int], rates: RateCard) -> dict[str, str]:
    """Return, by cup, ``"over"`` for a cup above the bound (no hand can start from it) or
    ``"near"`` for one that the next hand's bagud (the most a last trick can bring, after the
    dealer's fee) could take above it; a cup that is neither is left out."""
    out = {}
    for cup in CUPS:
        points = cups.get(cup, 0)
        if points > MAX_POINTS:
            out[cup] = "over"
        elif (
            cup_after_bagud(points + rates.dealer_fee_per_cup, rates, MOST_BAGUD[cup]) > MAX_POINTS
        ):
            out[cup] = "near"
    return out
