"""Money and points: points are integers within one bound; money is Decimal, converted once,
through one rounding helper; and points are written one way (a sign, and a true minus)."""

from __future__ import annotations

from decimal import ROUND_HALF_UP, Decimal
from typing import NamedTuple

from ledger.games.errors import _

MONEY_QUANTUM = Decimal("0.01")
# One bound on every amount a person or a file enters (rate card, counts, adjustments, jetons).
MAX_POINTS = 10_000_000
# One bound on every amount the rules compute: a transfer of a hand or a close. A rate card
# whose largest possible hand would exceed it is refused, naming the key to lower; the
# ledger refuses a computed move above it (the Danish cups can grow from hand to hand).
MAX_MOVE = 1_000_000_000
# One bound on an account's balance at a table: what the database's columns and money hold
# (points x a price per point below 10,000 stay within a Decimal of 18 digits).
MAX_BALANCE = 1_000_000_000_000


def to_money(points: int, price_per_point: Decimal) -> Decimal:
    """Return ``points`` in money at ``price_per_point``, rounded once, half up, to 0.01.

    This is the one rounding helper of the code base.
    """
    return (Decimal(points) * Decimal(price_per_point)).quantize(MONEY_QUANTUM, ROUND_HALF_UP)


class Currency(NamedTuple):
    """How a currency is written: the decimals shown, the symbol written after the amount, and
    its name on the screens (marked for translation)."""

    places: int
    symbol: str
    name: str


# The currencies a club may keep its money in, the one list: a club's ``currency`` field
# offers them (``ledger.models.currency_choices``, a callable: adding one needs no migration).
# The forint is shown without decimals (1 235 Ft); money is still held to 0.01.
CURRENCIES = {
    "EUR": Currency(2, "€", _("euro (€)")),
    "HUF": Currency(0, "Ft", _("Hungarian forint (Ft)")),
    "DKK": Currency(2, "DKK", _("Danish krone (DKK)")),
}

MINUS = "\u2212"  # a true minus sign, as every screen, sheet and export writes it


def signed_points(points: int | None) -> str:
    """Return ``points`` with their sign and a true minus: "+5", "0", "−5"; "–" for None (a
    member who was not at the table)."""
    if points is None:
        return "–"
    if points > 0:
        return f"+{points}"
    return f"{MINUS}{-points}" if points < 0 else "0"


def sign_class(points: int | None) -> str:
    """Return the CSS class of a figure's sign: ``pos``, ``neg`` or ``zero`` ('' for None)."""
    if points is None:
        return ""
    return "pos" if points > 0 else "neg" if points < 0 else "zero"


def signed_figure(points: int | None) -> dict:
    """Return ``points`` for a template: the figure, its signed text and its sign's class."""
    return {"points": points, "text": signed_points(points), "cls": sign_class(points)}


def points_text(points: int) -> str:
    """Return a running total as a score sheet writes it: 120, 0, and −40 with a true minus."""
    return f"{MINUS}{-points}" if points < 0 else str(points)
