"""The table of a series' ladder (``federation.md`` section 2), read-only."""

from __future__ import annotations

from decimal import ROUND_HALF_EVEN, ROUND_HALF_UP, Decimal

import django_tables2 as tables
from django.utils.translation import gettext_lazy as _

from ledger.games.money import MINUS
from ledger.tables.columns import MORE_NUM_ATTRS, NUM_ATTRS, CountColumn, decimal_points_html


def two_decimals(value) -> str:
    """An exact total shown with two decimals (half to even), as the tournaments' points."""
    exact = Decimal(value.numerator) / Decimal(value.denominator)
    return str(exact.quantize(Decimal("0.01"), rounding=ROUND_HALF_EVEN))


class FigureColumn(tables.Column):
    def render(self, value):
        return decimal_points_html(two_decimals(value))


class LadderTable(tables.Table):
    """Position, player, club, total, best, wins, events, counted and struck events, and the
    qualified line; built from ``selectors.federation.ladder_lines``."""

    position = CountColumn(verbose_name="#", orderable=False)
    name = tables.Column(verbose_name=_("Player"), orderable=False, accessor="player__name")
    club = tables.Column(verbose_name=_("Club"), orderable=False, empty_values=())
    total = FigureColumn(verbose_name=_("Total"), orderable=False, attrs=NUM_ATTRS)
    best = FigureColumn(verbose_name=_("Best"), orderable=False, attrs=MORE_NUM_ATTRS)
    wins = CountColumn(verbose_name=_("Wins"), orderable=False, attrs=MORE_NUM_ATTRS)
    events = CountColumn(verbose_name=_("Events"), orderable=False, attrs=MORE_NUM_ATTRS)
    counted = tables.Column(verbose_name=_("Counted"), orderable=False, empty_values=())
    struck = tables.Column(verbose_name=_("Struck"), orderable=False, empty_values=())
    qualified = tables.Column(verbose_name=_("Qualified"), orderable=False, empty_values=())

    class Meta:
        attrs = {"class": "data-table ladder"}
        row_attrs = {"class": lambda record: "qualified" if record.qualified else ""}

    def render_club(self, record):
        player = record.player
        return player.home_club.name if player.home_club_id else player.club_name

    def render_counted(self, value):
        return ", ".join(value)

    def render_struck(self, value):
        return ", ".join(value)

    def render_qualified(self, value):
        return "✓" if value else ""


def whole(value: float) -> str:
    """A rating shown as a whole number (half away from zero: a rating is never exactly .5
    but by chance); the exact double stays stored."""
    return str(int(Decimal(repr(value)).quantize(Decimal("1"), rounding=ROUND_HALF_UP)))


def decimals(value: float, places: int = 2) -> str:
    """An expected or actual score (0 to 1) shown with ``places`` decimals."""
    return f"{value:.{places}f}"


def signed_tenths(value: float) -> str:
    """A rating change shown to a tenth, signed, with a true minus."""
    text = f"{abs(value):.1f}"
    if text == "0.0":
        return "0.0"
    return ("+" if value > 0 else MINUS) + text


class RatingsTable(tables.Table):
    """A rating list's current ratings: rank, player, rating (whole), rated tables; built
    from ``selectors.ratings.list_ratings``."""

    rank = CountColumn(verbose_name="#", orderable=False)
    player = tables.Column(verbose_name=_("Player"), orderable=False)
    rating = tables.Column(verbose_name=_("Rating"), orderable=False, attrs=NUM_ATTRS)
    tables = CountColumn(verbose_name=_("Tables"), orderable=False, attrs=NUM_ATTRS)

    class Meta:
        attrs = {"class": "data-table ratings"}

    def render_rating(self, value):
        return whole(value)


class RatingChangesTable(tables.Table):
    """A player's rated tables on one list, explained: date, table, rating before, expected
    and actual score, K and the change (rounded; the exact doubles are stored)."""

    date = tables.DateColumn(verbose_name=_("Date"), orderable=False, accessor="rated_table__date")
    table = tables.Column(verbose_name=_("Table"), orderable=False, accessor="rated_table__label")
    before = tables.Column(verbose_name=_("Rating before"), orderable=False, attrs=NUM_ATTRS)
    expected = tables.Column(verbose_name=_("Expected"), orderable=False, attrs=NUM_ATTRS)
    actual = tables.Column(verbose_name=_("Actual"), orderable=False, attrs=NUM_ATTRS)
    k = tables.Column(verbose_name="K", orderable=False, attrs=MORE_NUM_ATTRS)
    delta = tables.Column(verbose_name=_("Change"), orderable=False, attrs=NUM_ATTRS)

    class Meta:
        attrs = {"class": "data-table rating-changes"}

    def render_before(self, value):
        return whole(value)

    def render_expected(self, value):
        return decimals(value)

    def render_actual(self, value):
        return decimals(value)

    def render_k(self, value):
        return whole(value)

    def render_delta(self, value):
        return signed_tenths(value)


class PlayerResultsTable(tables.Table):
    """A player's final tournament results and imported placings across clubs: date,
    tournament, club (an imported event's source), rank and points."""

    date = tables.DateColumn(verbose_name=_("Date"), orderable=False, short=True)
    name = tables.Column(verbose_name=_("Tournament"), orderable=False)
    club = tables.Column(verbose_name=_("Club"), orderable=False)
    rank = CountColumn(verbose_name=_("Rank"), orderable=False)
    points = tables.Column(verbose_name=_("Points"), orderable=False, attrs=NUM_ATTRS)

    class Meta:
        attrs = {"class": "data-table player-results"}
