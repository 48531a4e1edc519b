"""The shared parts of every table: points and money written one way, their cells' classes,
totals in footers, and the columns of points, money and counts."""

from __future__ import annotations

import contextvars
from decimal import ROUND_HALF_UP, Decimal

import django_tables2 as tables
from django.urls import reverse
from django.utils.formats import number_format
from django.utils.html import format_html

from ledger.games.money import CURRENCIES, MINUS, points_text, sign_class, signed_points

# The currency of the club whose page is being written (``ledger.web.locale`` activates it,
# as it activates the club's time zone): money without a named currency is written in it.
_active_currency: contextvars.ContextVar[str | None] = contextvars.ContextVar(
    "tarokclub_currency", default=None
)


def active_currency() -> str | None:
    """Return the currency of the club whose page is being written, or None."""
    return _active_currency.get()


def _written(code: str | None) -> tuple[int, str]:
    """Return the decimals and the symbol of the currency ``code`` (two and none if unknown)."""
    currency = CURRENCIES.get(code or "")
    return (currency.places, currency.symbol) if currency else (2, "")


def activate_currency(code: str | None) -> contextvars.Token:
    return _active_currency.set(code if code in CURRENCIES else None)


def deactivate_currency(token: contextvars.Token | None = None) -> None:
    if token is not None:
        _active_currency.reset(token)
    else:
        _active_currency.set(None)


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


def money_text(amount, currency: str | None = None, *, symbol: bool = False) -> str:
    """Return money as the active language writes it, the one home of money's text: grouped
    thousands, the currency's decimals (two; none for the forint), a true minus, and with
    ``symbol`` the currency's sign after it: 1.234,50 € in Slovenian, 1 235 Ft in Hungarian,
    1.234,50 DKK in Danish. ``currency`` defaults to the active club's (else two decimals)."""
    if amount is None:
        return "–"
    code = currency or _active_currency.get()
    places, sign = _written(code)
    value = Decimal(amount).quantize(Decimal(1).scaleb(-places), ROUND_HALF_UP)
    text = number_format(value, places, force_grouping=True)
    text = MINUS + text[1:] if text.startswith("-") else text
    if text == MINUS + number_format(0, places):  # -0,004 rounds to zero: no sign
        text = text[1:]
    return f"{text}\xa0{sign}" if symbol and sign else text


def currency_symbol(code: str | None) -> str:
    """Return the sign a currency is written with after an amount (€, Ft, DKK)."""
    currency = CURRENCIES.get(code or "")
    return currency.symbol if currency else code or ""


def money_html(amount, currency: str | None = None, *, symbol: bool = True):
    """Render money coloured by its sign (red when negative), the raw amount in
    ``data-money``."""
    if amount is None:
        return "–"
    return format_html(
        '<span class="money {}" data-money="{}">{}</span>',
        sign_class(amount),
        amount,
        money_text(amount, currency, symbol=symbol),
    )


def figure_html(points):
    """Render a running figure (a pool, a total) with a true minus, red when negative."""
    if points is None or points == "":
        return points if points == "" else "–"
    return format_html(
        '<span class="{}" data-points="{}">{}</span>',
        sign_class(points),
        points,
        points_text(points),
    )


def decimal_points_html(text):
    """Render exact points shown with two decimals (a tournament's, ``points_decimal``: "2.50",
    "-7.00") as the active language writes numbers (2,50 in Danish and Slovenian), with a true
    minus, red when negative; the figure as given in ``data-points``; "" for none."""
    if text is None or text == "":
        return ""
    value = Decimal(str(text))
    shown = number_format(value, 2, force_grouping=True)
    if shown.startswith("-"):
        shown = MINUS + shown[1:]
    return format_html(
        '<span class="{}" data-points="{}">{}</span>', "neg" if value < 0 else "", text, shown
    )


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


def price_text(price, currency: str | None = None, *, symbol: bool = False) -> str:
    """Return a price per point as money: as many decimals as it has, at least the currency's
    (0,25 DKK; 0,125 €; 10 Ft), with ``symbol`` the currency's sign after it."""
    code = currency or _active_currency.get()
    least, sign = _written(code)
    places = max(least, -int(Decimal(price).normalize().as_tuple().exponent))
    text = number_format(price, places, force_grouping=True)
    return f"{text}\xa0{sign}" if symbol and sign else text


class ClubTable(tables.Table):
    """A table of one club's rows, whose links name the club: built with ``club_slug``."""

    def __init__(self, data, *, club_slug: str, **kwargs):
        self.club_slug = club_slug
        super().__init__(data, **kwargs)


def club_link(url_name: str):
    """Return a column's ``linkify`` for a ``ClubTable``: the page ``url_name`` of the row
    (its ``pk``) in the table's club."""
    return lambda record, table: reverse(
        url_name, kwargs={"club": table.club_slug, "pk": record.pk}
    )
