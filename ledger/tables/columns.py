"""The shared parts of every table: points and money written one way, their cells' classes,
totals in footers, and the columns of points, money and counts."""

from __future__ import annotations

import django_tables2 as tables
from django.utils.formats import number_format
from django.utils.html import format_html

from ledger.games.money import MINUS, sign_class, signed_points


def signed_html(points):
    """Render points with their sign and a real minus, coloured by the sign, the raw figure in
    ``data-points``; "–" for a member who was not at the table (None)."""
    if points is None:
        return "–"
    return format_html(
        '<span class="{}" data-points="{}">{}</span>',
        sign_class(points),
        points,
        signed_points(points),
    )


def money_text(amount) -> str:
    """Return money with two decimals in the current language (16,25 in Danish)."""
    if amount is None:
        return "–"
    text = number_format(amount, 2, force_grouping=True)
    return MINUS + text[1:] if text.startswith("-") else text


def _num_class(value) -> str:
    if isinstance(value, int | float) or hasattr(value, "as_tuple"):
        return "num pos" if value > 0 else "num neg" if value < 0 else "num"
    return "num"


def _signed_class(bound_column, record=None) -> str:
    """Return the cell's classes from its raw figure: django-tables2 passes the rendered one."""
    if record is None:
        return "num"
    column = bound_column.column
    if hasattr(column, "raw"):
        return _num_class(column.raw(record))
    return _num_class(bound_column.accessor.resolve(record, quiet=True))


NUM_ATTRS = {"td": {"class": "num"}, "th": {"class": "num"}, "tf": {"class": "num"}}
SIGNED_ATTRS = {"td": {"class": _signed_class}, "th": {"class": "num"}, "tf": {"class": "num"}}
# A column that a phone shows only on demand (``templates/ledger/_standings_table.html``).
MORE = "more"


def _more_signed_class(bound_column, record=None) -> str:
    return f"{_signed_class(bound_column, record)} {MORE}"


MORE_NUM_ATTRS = {part: {"class": f"num {MORE}"} for part in ("td", "th", "tf")}
MORE_SIGNED_ATTRS = {**MORE_NUM_ATTRS, "td": {"class": _more_signed_class}}


def points_total(field: str):
    """Return a column footer: the rows' ``field`` summed, as signed points."""
    return lambda table: signed_points(sum(getattr(r, field) for r in table.data))


def money_total(field: str):
    """Return a column footer: the rows' ``field`` summed, as money."""
    return lambda table: money_text(sum(getattr(r, field) for r in table.data))


class PointsColumn(tables.Column):
    """Signed points, coloured; exports the plain integer."""

    def __init__(self, *args, **kwargs):
        kwargs.setdefault("attrs", SIGNED_ATTRS)
        super().__init__(*args, **kwargs)

    def render(self, value):
        return format_html('<span data-points="{}">{}</span>', value, signed_points(value))

    def value(self, value):
        return value


class MoneyColumn(tables.Column):
    """Money with two decimals in the current language; exports the Decimal."""

    def __init__(self, *args, **kwargs):
        kwargs.setdefault("attrs", SIGNED_ATTRS)
        super().__init__(*args, **kwargs)

    def render(self, value):
        return format_html('<span data-money="{}">{}</span>', value, money_text(value))

    def value(self, value):
        return value


class CountColumn(tables.Column):
    """A whole number, right-aligned."""

    def __init__(self, *args, **kwargs):
        kwargs.setdefault("attrs", NUM_ATTRS)
        super().__init__(*args, **kwargs)


def price_text(price) -> str:
    """Return a price per point with as many decimals as it has, at least two (0,25)."""
    places = max(2, -price.normalize().as_tuple().exponent)
    return number_format(price, places)
