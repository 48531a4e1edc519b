"""The tables of a tournament: the standings (screen, CSV, XLSX) and the list of tournaments."""

from __future__ import annotations

import django_tables2 as tables
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from ledger.tables.columns import (
    MORE_NUM_ATTRS,
    NUM_ATTRS,
    CountColumn,
    decimal_points_html,
    figure_html,
)


def status_text(status: str) -> str:
    """Return an entry's status (section 8) in words: active, entered in round k, withdrawn."""
    if status.startswith("withdrawn_after_round_"):
        return gettext("withdrawn after round {k}").format(k=status.rsplit("_", 1)[1])
    if status.startswith("entered_round_"):
        return gettext("entered in round {k}").format(k=status.rsplit("_", 1)[1])
    return ""


class DecimalPointsColumn(tables.Column):
    """Tournament points with two decimals: as the language writes numbers on the screen and
    the sheets (a true minus), as the selectors give them in the exports ("-7.00")."""

    def render(self, value):
        return decimal_points_html(value)

    def value(self, value):
        return value


class TournamentStandingsTable(tables.Table):
    """Position, name, club, the points of each round (added per round), the total and the
    tie-break values; the points are exact rationals shown with two decimals."""

    rank = CountColumn(verbose_name="#", orderable=False)
    name = tables.Column(verbose_name=_("Player"), orderable=False)
    club = tables.Column(
        verbose_name=_("Club"),
        orderable=False,
        attrs={"td": {"class": "more"}, "th": {"class": "more"}},
    )
    points = DecimalPointsColumn(verbose_name=_("Points"), orderable=False, attrs=NUM_ATTRS)
    score_sum = CountColumn(verbose_name=_("Score sum"), orderable=False, attrs=MORE_NUM_ATTRS)
    firsts = CountColumn(verbose_name=_("Firsts"), orderable=False, attrs=MORE_NUM_ATTRS)
    best_round = tables.Column(
        verbose_name=_("Best round"), orderable=False, attrs=MORE_NUM_ATTRS, default="–"
    )
    rounds_played = CountColumn(verbose_name=_("Rounds"), orderable=False, attrs=MORE_NUM_ATTRS)
    byes = CountColumn(verbose_name=_("Byes"), orderable=False, attrs=MORE_NUM_ATTRS)
    status = tables.Column(verbose_name=_("Status"), orderable=False, empty_values=())

    class Meta:
        attrs = {"class": "standings", "id": "tournament-standings"}
        row_attrs = {"data-player": lambda record: record.name}
        empty_text = _("No entries yet.")

    def __init__(self, data, *, rounds: int = 0, **kwargs):
        extra = [
            (
                f"round_{k}",
                DecimalPointsColumn(
                    verbose_name=gettext("R{k}").format(k=k),
                    accessor=tables.A(f"round_points__{k - 1}"),
                    orderable=False,
                    attrs=MORE_NUM_ATTRS,
                    default="",
                ),
            )
            for k in range(1, rounds + 1)
        ]
        super().__init__(data, extra_columns=extra, **kwargs)
        order = ["rank", "name", "club", *[name for name, _c in extra], "points"]
        self.sequence = [*order, "..."]

    def render_status(self, value):
        return status_text(value)

    # A round's score can be negative: a true minus and red on screen, the number in exports.
    def render_score_sum(self, value):
        return figure_html(value)

    def value_score_sum(self, value):
        return value

    def render_best_round(self, value):
        return figure_html(value) if isinstance(value, int) else value

    def value_best_round(self, value):
        return value

    def value_status(self, value):
        return status_text(value)
