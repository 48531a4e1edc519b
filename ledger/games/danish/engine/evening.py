"""The end of a Danish evening: the split of the cups, and the evening-result object."""

from __future__ import annotations

from ledger.games.evening import EVENING_RESULT_FORMAT
from ledger.games.money import to_money  # noqa: F401  (re-exported)

from .hand import CUPS


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


def evening_result(run) -> dict:
    """Return the Danish evening-result object of a settled evening (``games.evening``)."""
    return {
        "format": EVENING_RESULT_FORMAT,
        "hands": [s.as_dict() for s in run.settlements],
        "before_split": dict(run.before_split),
        "cups_before_split": {cup: run.balances[cup] for cup in CUPS},
        "final": dict(run.final),
    }
