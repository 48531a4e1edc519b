"""Money: points are integers; money is Decimal, converted once, through one rounding helper."""

from __future__ import annotations

from decimal import ROUND_HALF_UP, Decimal

MONEY_QUANTUM = Decimal("0.01")
# One bound on every amount a person or a file enters (rate card, counts, adjustments, jetons).
MAX_POINTS = 10_000_000


def to_money(points: int, price_per_point: Decimal) -> Decimal:
    """Return ``points`` in money at ``price_per_point``, rounded once, half up, to 0.01.

    This is the one rounding helper of the code base.
    """
    return (Decimal(points) * Decimal(price_per_point)).quantize(MONEY_QUANTUM, ROUND_HALF_UP)
