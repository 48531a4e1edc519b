"""The tables of the season: the standings (and their public form), the season's evenings, a
member's evenings and hands, and the summary tiles of a member's season."""

from __future__ import annotations

import django_tables2 as tables
from django.utils.formats import date_format, number_format
from django.utils.html import format_html_join
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from ledger.games.money import MINUS, signed_points
from ledger.games.registry import get_game, get_web
from ledger.games.web import stats_help
from ledger.selectors.privacy import shown
from ledger.tables.columns import (
    MORE_NUM_ATTRS,
    MORE_SIGNED_ATTRS,
    NUM_ATTRS,
    CountColumn,
    MoneyColumn,
    PointsColumn,
    _num_class,
    money_text,
    money_total,
    points_total,
)


class StandingsTable(tables.Table):
    """The season's standings: one row per member, best first; exports to CSV and XLSX.

    Rank, name, points and money come first; the columns after them carry the class
    ``more``, which a phone hides until the reader asks for every column. A game's
    statistics column explains itself in its header's tooltip (``GameWeb.stats_help``).
    """

    rank = CountColumn(verbose_name="#")
    name = tables.Column(
        verbose_name=_("Member"),
        linkify=lambda record, table: table.member_url(record.member_id),
        footer=_("Total"),
    )
    points = PointsColumn(
        verbose_name=_("Points"),
        footer=points_total("points"),
    )
    money = MoneyColumn(
        verbose_name=_("Money"),
        footer=money_total("money"),
    )
    evenings = CountColumn(verbose_name=_("Evenings"), attrs=MORE_NUM_ATTRS)
    played = CountColumn(verbose_name=_("Hands"), attrs=MORE_NUM_ATTRS)
    average = tables.Column(verbose_name=_("Per evening"), attrs=MORE_SIGNED_ATTRS)
    best = PointsColumn(verbose_name=_("Best evening"), attrs=MORE_SIGNED_ATTRS)

    class Meta:
        attrs = {"class": "standings", "id": "standings"}
        row_attrs = {"data-member": lambda record: record.name}
        empty_text = _("No evenings in this season yet.")

    def __init__(self, data, *, member_url=lambda member_id: None, **kwargs):
        self.member_url = member_url
        extra = stat_columns(
            getattr(data, "stats_columns", ()),
            "stats__",
            more=True,
            tooltips=stats_help(getattr(data, "games", ())),
        )
        kwargs.setdefault(
            "sequence",
            (
                "rank",
                "name",
                "points",
                "money",
                "evenings",
                "played",
                *tuple(name for name, _column in extra),
                "average",
                "best",
            ),
        )
        super().__init__(data, extra_columns=extra, **kwargs)

    def render_average(self, value):
        text = number_format(value, 1)
        return MINUS + text[1:] if text.startswith("-") else text

    def value_average(self, value):
        return value

    def value_name(self, value):
        return value


class PublicStandingsTable(StandingsTable):
    """The standings as anyone reads them on a club's public page: the names not linked, no
    sorting; built with ``exclude=("money",)`` unless the club publishes the money."""

    class Meta(StandingsTable.Meta):
        orderable = False


class PublicResultsTable(tables.Table):
    """A closed evening's results on the public page: rank, member, points (and money)."""

    rank = CountColumn(verbose_name="#")
    name = tables.Column(verbose_name=_("Member"), footer=_("Total"))
    points = PointsColumn(
        verbose_name=_("Points"),
        footer=points_total("points"),
    )
    money = MoneyColumn(
        verbose_name=_("Money"),
        footer=money_total("money"),
    )

    class Meta:
        orderable = False
        attrs = {"class": "standings public-results", "id": "results"}
        row_attrs = {"data-member": lambda record: record.name}
        empty_text = _("No results.")


class PublicTableTable(tables.Table):
    """One table of a closed evening on the public page: its members and their points there."""

    name = tables.Column(verbose_name=_("Member"))
    points = PointsColumn(verbose_name=_("Points"))

    class Meta:
        orderable = False
        attrs = {"class": "public-table"}
        row_attrs = {"data-member": lambda record: record.name}


def open_evening_notes(evenings, *, money: bool = True) -> list[str]:
    """Return, for each open evening of a season, what its being open means for the standings:
    the points (and money) count its balances so far, and a game with pools splits them only
    at closing."""
    columns = StandingsTable.base_columns
    notes = []
    for evening in evenings:
        words = {
            "date": date_format(evening.date, "SHORT_DATE_FORMAT"),
            "points": columns["points"].verbose_name,
            "money": columns["money"].verbose_name,
            "total": columns["name"].footer(None, None),
        }
        if money:
            text = gettext(
                "The evening of {date} is open: “{points}”, “{money}” and the row “{total}” "
                "include its points so far."
            ).format(**words)
        else:
            text = gettext(
                "The evening of {date} is open: “{points}” and the row “{total}” include its "
                "points so far."
            ).format(**words)
        if get_game(evening.game).features.pools:
            text += " " + gettext(
                "Its pools are not split yet: the split at closing still changes the points."
            )
        notes.append(text)
    return notes


class SeasonEveningsTable(tables.Table):
    """The season's evenings with links to their sheets (and, for a treasurer, the till)."""

    date = tables.DateColumn(
        verbose_name=_("Date"),
        format="DATE_FORMAT",
        linkify=lambda record, table: table.sheet_url(record.pk),
    )
    status = tables.Column(verbose_name=_("Status"), accessor="get_status_display")
    n_tables = CountColumn(verbose_name=_("Tables"))
    n_hands = CountColumn(verbose_name=_("Hands"))
    actions = tables.Column(
        verbose_name="", empty_values=(), orderable=False, exclude_from_export=True
    )

    class Meta:
        attrs = {"class": "evenings", "id": "evenings"}
        row_attrs = {"data-evening": lambda record: record.pk}
        empty_text = _("No evenings in this season yet.")

    def __init__(self, data, *, sheet_url, pdf_url, treasury_url=None, **kwargs):
        self.sheet_url, self.pdf_url, self.treasury_url = sheet_url, pdf_url, treasury_url
        super().__init__(data, **kwargs)

    def render_actions(self, record):
        links = [(self.pdf_url(record.pk), gettext("PDF"))]
        if self.treasury_url:
            links.append((self.treasury_url(record.pk), gettext("Treasurer")))
        return format_html_join(" ", '<a class="button small" href="{}">{}</a>', links)


def stat_columns(
    columns, accessor_prefix: str = "", *, more: bool = False, tooltips: dict | None = None
) -> list[tuple[str, tables.Column]]:
    """Return a count column per statistics column (key, verbose name) of the games; ``more``
    marks them as shown on a phone on demand, ``tooltips`` gives a header its title by key."""
    tooltips = tooltips or {}
    base = MORE_NUM_ATTRS if more else NUM_ATTRS
    result = []
    for key, label in columns:
        attrs = {part: dict(value) for part, value in base.items()}
        if key in tooltips:
            attrs["th"]["title"] = str(tooltips[key])
        result.append(
            (
                f"stat_{key}",
                CountColumn(verbose_name=label, accessor=f"{accessor_prefix}{key}", attrs=attrs),
            )
        )
    return result


class MemberEveningsTable(tables.Table):
    """A member's evenings of a season with the running total."""

    date = tables.DateColumn(
        verbose_name=_("Date"),
        format="SHORT_DATE_FORMAT",
        linkify=lambda record, table: table.sheet_url(record["evening_id"]),
    )
    points = PointsColumn(verbose_name=_("Points"))
    money = MoneyColumn(verbose_name=_("Money"))
    cumulative = PointsColumn(verbose_name=_("Season so far"))
    played = CountColumn(verbose_name=_("Hands"))

    class Meta:
        attrs = {"class": "member-evenings", "id": "member-evenings"}
        row_attrs = {"data-evening": lambda record: record["evening_id"]}
        empty_text = _("No evenings in this season yet.")

    def __init__(self, data, *, stats_columns=(), sheet_url=lambda evening_id: None, **kwargs):
        self.sheet_url = sheet_url
        super().__init__(data, extra_columns=stat_columns(stats_columns), **kwargs)


class MemberHandsTable(tables.Table):
    """The hands a member played in a season, with his points from each."""

    evening_date = tables.DateColumn(
        verbose_name=_("Date"),
        format="SHORT_DATE_FORMAT",
        linkify=lambda record, table: table.sheet_url(record.evening_id),
    )
    table_number = CountColumn(verbose_name=_("Table"))
    hand_number = CountColumn(verbose_name=_("Hand"))
    dealer_name = tables.Column(verbose_name=_("Dealer"))
    events = tables.Column(verbose_name=_("What happened"), empty_values=(), orderable=False)
    net = PointsColumn(verbose_name=_("Points"))

    class Meta:
        attrs = {"class": "member-hands", "id": "member-hands"}
        row_attrs = {"data-posting": lambda record: record.pk}
        empty_text = _("No hands played in this season yet.")

    def __init__(self, data, *, sheet_url=lambda evening_id: None, names=None, **kwargs):
        self.sheet_url = sheet_url
        # (table id, name as seated) -> label of an erased member (``erased_seat_names``).
        self.names = names or {}
        super().__init__(data, **kwargs)

    def _names(self, record) -> dict[str, str]:
        return {code: label for (t, code), label in self.names.items() if t == record.table_id}

    def render_dealer_name(self, record):
        return shown(record.dealer_name, self._names(record))

    def _events(self, record) -> list[str]:
        outcome = shown(record.outcome, self._names(record))
        return get_web(record.game).outcome_words(outcome, brief=True)

    def render_events(self, record):
        return "; ".join(self._events(record))

    def value_events(self, record):
        return "; ".join(self._events(record))

    def page_values(self) -> tuple:
        """What the table's page shows, as plain values: the key of its kept rendering
        (``ledger.web.render_cache.keep``). Reads the page's hands (the rendering then uses
        them: the same queries, kept or not)."""
        rows = self.page.object_list if hasattr(self, "page") else self.rows
        hands = [
            (
                r.pk,
                r.evening_id,
                r.evening_date,
                r.table_id,
                r.table_number,
                r.hand_number,
                r.dealer_name,
                r.game,
                repr(r.outcome),
                r.net,
            )
            for r in (row.record for row in rows)
        ]
        return (sorted(self.names.items()), hands)


def standing_summary(standing, currency: str = "", games=()) -> list[dict]:
    """Return a member's season totals as labelled figures for the summary tiles."""

    def tile(key, label, text, value=None):
        css = _num_class(value).replace("num", "").strip() if value is not None else ""
        return {"key": key, "label": label, "text": text, "class": css}

    average = "–"
    if standing.average is not None:
        average = number_format(standing.average, 1).replace("-", MINUS)
    return [
        tile("points", _("Points"), signed_points(standing.points), standing.points),
        tile(
            "money",
            _("Money"),
            money_text(standing.money, currency or None, symbol=True),
            standing.money,
        ),
        tile("evenings", _("Evenings"), str(standing.evenings)),
        tile("played", _("Hands"), str(standing.played)),
        tile("average", _("Per evening"), average, standing.average),
        tile("best", _("Best evening"), signed_points(standing.best), standing.best),
    ] + [
        tile(key, label, text)
        for code in games
        for key, label, text in get_web(code).stats_tiles(standing.stats)
    ]
