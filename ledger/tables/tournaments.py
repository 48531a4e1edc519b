"""The tables of a tournament: the standings (screen, CSV, XLSX, PDF) and the words of a round."""

from __future__ import annotations

from decimal import Decimal
from itertools import groupby

import django_tables2 as tables
from django.middleware.csrf import get_token
from django.urls import reverse
from django.utils.html import format_html
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from ledger.tables.columns import (
    MORE_NUM_ATTRS,
    NUM_ATTRS,
    ClubTable,
    CountColumn,
    club_link,
    decimal_points_html,
    figure_html,
)

ROUND_KINDS = {
    "seeded_groups": _("drawn in seeded groups"),
    "random": _("drawn by lot"),
    "standings": _("drawn by the standings"),
    "final": _("the final"),
}
DRAW_MODES = {
    "search": _("the search found the draw"),
    "fallback": _("the fallback fill made the draw"),
    "direct": _("drawn directly"),
    "manual": _("set by the director"),
}
# The columns of the tie-breaks (section 8), shown in the format's order.
TIE_BREAK_COLUMNS = ("score_sum", "firsts", "best_round")


def entry_status_text(withdrawn_after: int | None, from_round: int) -> str:
    """Return an entry's status in words: withdrawn after round k, entered in round k, or ""."""
    if withdrawn_after:
        return gettext("withdrawn after round {k}").format(k=withdrawn_after)
    if from_round > 1:
        return gettext("entered in round {k}").format(k=from_round)
    return ""


def status_text(status: str) -> str:
    """Return an entry's status as the standings name it (section 8) in words."""
    k = int(status.rsplit("_", 1)[1]) if status[-1:].isdigit() else 0
    if status.startswith("withdrawn_after_round_"):
        return entry_status_text(k, 1)
    return entry_status_text(None, k) if status.startswith("entered_round_") else ""


def round_kind_text(kind: str) -> str:
    """Return how a round was drawn (section 5.1) in words."""
    return str(ROUND_KINDS.get(kind, kind))


def draw_mode_text(mode: str) -> str:
    """Return how a round's draw was made (section 5.3) in words."""
    return str(DRAW_MODES.get(mode, mode))


class DecimalPointsColumn(tables.Column):
    """Tournament points as the selectors write them (two decimals, ``"-0.50"``): as the
    reader's language writes numbers on the screen and the sheets (a true minus, red when
    negative), a number in the exports (empty stays empty)."""

    def render(self, value):
        return decimal_points_html(value)

    def value(self, value):
        return Decimal(value) if value not in (None, "") else value


class TournamentStandingsTable(tables.Table):
    """Position, name, club, ladder rank, the points of each round (added per round), the
    total, a ``hu_kupa`` final's group and score, the tie-break values in the format's order,
    rounds played, byes and status; the points are exact rationals shown with two decimals
    (numbers in the exports). Build it with ``of`` from the selector's ``Standings``."""

    rank = CountColumn(verbose_name="#", orderable=False)
    name = tables.Column(verbose_name=_("Player"), orderable=False)
    club = tables.Column(
        verbose_name=_("Club"),
        orderable=False,
        attrs={"td": {"class": "more"}, "th": {"class": "more"}},
    )
    ladder_rank = tables.Column(
        verbose_name=_("Ladder rank"), orderable=False, attrs=MORE_NUM_ATTRS, default=""
    )
    points = DecimalPointsColumn(
        verbose_name=_("Points"),
        orderable=False,
        attrs={**NUM_ATTRS, "td": {"class": "num total-points"}},
    )
    final_group = tables.Column(
        verbose_name=_("Final group"), orderable=False, attrs=MORE_NUM_ATTRS, default=""
    )
    final_score = tables.Column(
        verbose_name=_("Final score"), orderable=False, attrs=MORE_NUM_ATTRS, default=""
    )
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

    def __init__(
        self,
        data,
        *,
        rounds: int = 0,
        tie_breaks: tuple[str, ...] = TIE_BREAK_COLUMNS,
        ladder: bool = False,
        final: bool = False,
        **kwargs,
    ):
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
        shown = [t for t in tie_breaks if t in TIE_BREAK_COLUMNS]
        hidden = [t for t in TIE_BREAK_COLUMNS if t not in shown]
        if not ladder:
            hidden.append("ladder_rank")
        if not final:
            hidden += ["final_group", "final_score"]
        kwargs["exclude"] = (*kwargs.get("exclude", ()), *hidden)
        super().__init__(data, extra_columns=extra, **kwargs)
        self.sequence = [
            "rank",
            "name",
            "club",
            "ladder_rank",
            *[name for name, _c in extra],
            "points",
            "final_group",
            "final_score",
            *shown,
            *(t for t in TIE_BREAK_COLUMNS if t not in shown),
            "rounds_played",
            "byes",
            "status",
        ]

    @classmethod
    def of(cls, standings, *, ladder: bool = False, **kwargs) -> TournamentStandingsTable:
        """Return the table of ``standings`` (``selectors.tournaments.Standings``): a column per
        round counted, its format's tie-breaks in order, the ladder rank when ``ladder`` and
        some entry has one, a ``hu_kupa`` final's group and score once it is played."""
        return cls(
            standings.lines,
            rounds=standings.rounds,
            tie_breaks=standings.tie_breaks,
            ladder=ladder and standings.ladder,
            final=standings.final,
            **kwargs,
        )

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

    def render_final_score(self, value):
        return figure_html(value) if isinstance(value, int) else value

    def value_final_score(self, value):
        return value

    def value_status(self, value):
        return status_text(value)

    def value_ladder_rank(self, value):
        return value

    def value_final_group(self, value):
        return value


class TournamentListTable(ClubTable):
    """The club's tournaments, latest first: the name (its link), the day or days, the format
    and the status."""

    name = tables.Column(verbose_name=_("Name"), linkify=club_link("tournament"))
    days = tables.TemplateColumn(
        template_code='{% include "ledger/tournaments/_days.html" with tournament=record %}',
        verbose_name=_("Date"),
        empty_values=(),
    )
    tournament_format = tables.Column(verbose_name=_("Format"))
    status = tables.Column(verbose_name=_("Status"))

    class Meta:
        orderable = False
        attrs = {"class": "data", "id": "tournaments-table"}
        row_attrs = {"data-tournament": lambda record: record.pk}
        empty_text = _("No tournaments yet.")

    def render_tournament_format(self, record) -> str:
        return record.get_tournament_format_display()

    def render_status(self, record) -> str:
        return record.get_status_display()


class RoundListTable(ClubTable):
    """A tournament's rounds (of one day, when it has several): each round's link, its
    status, how many tables and byes."""

    number = tables.Column(verbose_name=_("Round"), linkify=club_link("tournament_round"))
    status = tables.Column(verbose_name=_("Status"))
    table_count = tables.Column(verbose_name=_("Tables"), accessor="tables", empty_values=())
    bye_count = tables.Column(verbose_name=_("Byes"), accessor="byes", empty_values=())

    class Meta:
        orderable = False
        attrs = {"class": "data rounds-table"}
        row_attrs = {"data-round": lambda record: record.number}
        empty_text = _("No round drawn yet.")

    @classmethod
    def by_day(cls, rounds: list, *, club_slug: str) -> list[tuple]:
        """Return a tournament's rounds day by day: (the day, its first round, the table of its
        rounds); one table and no day when none is drawn. The first is ``#rounds-table``."""
        days = [(day, list(group)) for day, group in groupby(rounds, key=lambda r: r.day)]
        return [
            (
                day,
                group[0] if group else None,
                cls(
                    group,
                    club_slug=club_slug,
                    attrs={
                        "class": "data rounds-table",
                        **({"id": "rounds-table"} if not i else {}),
                    },
                ),
            )
            for i, (day, group) in enumerate(days or [(None, [])])
        ]

    def render_number(self, value) -> str:
        return gettext("Round %(number)s") % {"number": value}

    def render_status(self, record) -> str:
        return record.get_status_display()

    def render_table_count(self, value) -> int:
        return len(value)

    def render_bye_count(self, value) -> int:
        return len(value or ())


class TournamentEntryTable(tables.Table):
    """A tournament's entries by name: a guest tagged, his club, the ladder rank and where it
    came from (a series, a rating, the director), whether he entered late or withdrew, and
    while the tournament can change (``changing``) a form to withdraw him (once a round is
    drawn: ``drawn``) or remove him, its token and address taken from the request once
    (``before_render``, which ``render_table`` calls), not a template for each row."""

    name = tables.Column(verbose_name=_("Name"))
    club_name = tables.Column(verbose_name=_("Club"), default="")
    ladder_rank = tables.Column(verbose_name=_("Ladder rank"), empty_values=())
    status = tables.Column(verbose_name=_("Status"), accessor="pk", empty_values=())
    actions = tables.Column(verbose_name="", accessor="pk", empty_values=())

    class Meta:
        orderable = False
        attrs = {"class": "data", "id": "entries-table"}
        row_attrs = {"data-entry": lambda record: record.name}
        empty_text = _("No entries yet.")

    def __init__(self, data, *, changing: bool, drawn: bool, **kwargs):
        super().__init__(data, exclude=() if changing else ("actions",), **kwargs)
        self.drawn = drawn
        self.form = ("", "")  # the entries' form before and after the row's entry

    def before_render(self, request):
        """Write the entries' form once, around the row's entry: the page's token and the
        club's address, each button in the reader's language."""
        tournament = next((entry.tournament_id for entry in self.data), None)
        if request is None or tournament is None:
            return
        button = '<button class="button" name="action" value="{}">{}</button>'
        self.form = (
            format_html(
                '<form method="post" action="{}"><input type="hidden" '
                'name="csrfmiddlewaretoken" value="{}"><input type="hidden" name="entry" value="',
                reverse("tournament_entries", kwargs={"club": request.club.slug, "pk": tournament}),
                get_token(request),
            ),
            format_html(
                '">{} {}</form>',
                format_html(button, "withdraw", gettext("Withdraw")) if self.drawn else "",
                format_html(button, "remove", gettext("Remove")),
            ),
        )

    def render_name(self, record):
        if record.guest:
            return format_html('{} <span class="tag">{}</span>', record.name, gettext("guest"))
        return record.name

    def render_ladder_rank(self, record):
        source = getattr(record, "rank_source", "")
        rank = "" if record.ladder_rank is None else record.ladder_rank
        if source:
            return format_html('{} <span class="muted rank-source">({})</span>', rank, source)
        return rank

    def render_status(self, record) -> str:
        return entry_status_text(record.withdrawn_after, record.from_round)

    def render_actions(self, value):
        return format_html("{}{}{}", self.form[0], value, self.form[1])


class TableResultTable(tables.Table):
    """A tournament table's result as its link shows it once the round is closed: each
    player's score, place and points ("–" where there is none)."""

    name = tables.Column(verbose_name=_("Player"))
    score = tables.Column(verbose_name=_("Score"), attrs=NUM_ATTRS, default="–")
    place = tables.Column(verbose_name=_("Place"), attrs=NUM_ATTRS, default="–")
    points = DecimalPointsColumn(verbose_name=_("Points"), attrs=NUM_ATTRS, default="–")

    class Meta:
        orderable = False
        attrs = {"class": "table link-results", "id": "link-results"}
        row_attrs = {"data-player": lambda record: record["name"]}

    def render_score(self, value):
        return figure_html(value)


class SeatTable(TableResultTable):
    """A round's table as drawn (``selectors.tournaments.TableView.seats``): each seat in
    order, the first dealing first, the player, his club, his seeded group (with ``groups``)
    and, once the round is closed (``closed``), his score, place and points."""

    seat = tables.Column(verbose_name=_("Seat"), accessor="code", empty_values=())
    club = tables.Column(verbose_name=_("Club"), default="")
    group = tables.Column(verbose_name=_("Group"), default="")
    score = tables.Column(verbose_name=_("Score"), accessor="result__score", attrs=NUM_ATTRS)
    place = tables.Column(verbose_name=_("Place"), accessor="result__place", attrs=NUM_ATTRS)

    class Meta(TableResultTable.Meta):
        attrs = {"class": "data"}
        sequence = ("seat", "name", "club", "group", "score", "place", "points")

    def __init__(self, data, *, groups: bool, closed: bool, **kwargs):
        hidden = ([] if groups else ["group"]) + ([] if closed else ["score", "place", "points"])
        super().__init__(data, exclude=hidden, **kwargs)

    def render_seat(self, bound_row):
        seat = bound_row.row_counter + 1
        if seat > 1:
            return seat
        return format_html('{} <span class="tag deal">{}</span>', seat, gettext("deals first"))


class MyRoundsTable(tables.Table):
    """A member's rounds of a tournament on his own page (``selectors.tournaments.MyRound``):
    the round, his table or a bye, and once it is closed his score, place and points."""

    number = tables.Column(verbose_name=_("Round"))
    table_number = tables.Column(verbose_name=_("Table"), accessor="table", empty_values=())
    score = tables.Column(verbose_name=_("Score"), default="")
    place = tables.Column(verbose_name=_("Place"), default="")
    points = DecimalPointsColumn(verbose_name=_("Points"), default="")

    class Meta:
        orderable = False
        attrs = {"class": "me-rounds"}
        row_attrs = {"data-round": lambda record: record.number}

    def render_table_number(self, value):
        return value or gettext("bye")

    def render_score(self, value):
        return figure_html(value)
