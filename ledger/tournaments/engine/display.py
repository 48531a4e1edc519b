"""Showing exact points (spec section 12): as a rational, a mixed number or two decimals.

Points are compared and summed exactly; only the display rounds, half away from zero
(7/6 → 1.17, -5/8 → -0.63).
"""

from __future__ import annotations

from fractions import Fraction


def points_text(value: Fraction) -> str:
    """Return ``value`` as the files write it: ``"2"``, ``"1/2"``, ``"-3/4"`` (lowest terms)."""
    return str(Fraction(value))


def points_mixed(value: Fraction) -> str:
    """Return ``value`` as a mixed number: ``"1 1/6"``, ``"-2 1/2"``, ``"3/4"``, ``"5"``."""
    value = Fraction(value)
    whole, rest = divmod(abs(value.numerator), value.denominator)
    sign = "-" if value < 0 else ""
    if rest == 0:
        return f"{sign}{whole}"
    fraction = f"{rest}/{value.denominator}"
    return f"{sign}{whole} {fraction}" if whole else f"{sign}{fraction}"


def points_decimal(value: Fraction, places: int = 2) -> str:
    """Return ``value`` with ``places`` decimals, rounded half away from zero."""
    value = Fraction(value)
    scaled = abs(value) * 10**places
    units = int(scaled + Fraction(1, 2))
    sign = "-" if value < 0 and units else ""
    text = str(units).rjust(places + 1, "0")
    return f"{sign}{text[:-places]}.{text[-places:]}" if places else f"{sign}{text}"
