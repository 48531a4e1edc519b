"""The table of a series' ladder (``federation.md`` section 2), read-only."""

from __future__ import annotations

from decimal import ROUND_HALF_EVEN, Decimal

import django_tables2 as tables
from django.utils.translation import gettext_lazy as _

from ledger.selectors.federation import exact_text
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
    # The exports' exact total (``13/2``) beside the decimal one; not on the page.
    total_exact = tables.Column(
        verbose_name=_("Total (exact)"), orderable=False, accessor="total", visible=False
    )
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

    # The exports' cells: a total and the best as typed numbers (two decimals, half to
    # even), the total also exact; the events' names; the qualified line in words.
    def value_club(self, record):
        return self.render_club(record)

    def value_total(self, value):
        return Decimal(two_decimals(value))

    def value_total_exact(self, value):
        return exact_text(value)

    def value_best(self, value):
        return Decimal(two_decimals(value))

    def value_qualified(self, value):
        return str(_("Qualified")) if value else ""

    def render_counted(self, value):
        return ", ".join(value)

    def render_struck(self, value):
        return ", ".join(value)

    def render_qualified(self, value):
        return "✓" if value else ""
