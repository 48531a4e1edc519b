"""The federation's tables: a series' ladder (``federation.md`` section 2), read-only, and
the tables of the officer's pages (clubs, players, series, log, officers)."""

from __future__ import annotations

import datetime
import json
from decimal import ROUND_HALF_EVEN, ROUND_HALF_UP, Decimal
from fractions import Fraction

import django_tables2 as tables
from django.urls import reverse
from django.utils.formats import date_format
from django.utils.html import format_html, format_html_join
from django.utils.translation import gettext_lazy as _

from ledger.games.money import MINUS
from ledger.selectors.federation import exact_text
from ledger.tables.columns import MORE_NUM_ATTRS, NUM_ATTRS, CountColumn, decimal_points_html


def two_decimals(value) -> str:
    """An exact total (a Fraction, or a kept line's ``13/2``) shown with two decimals (half to
    even), as the tournaments' points."""
    value = Fraction(value)
    exact = Decimal(value.numerator) / Decimal(value.denominator)
    return str(exact.quantize(Decimal("0.01"), rounding=ROUND_HALF_EVEN))


class FigureColumn(tables.Column):
    def render(self, value):
        return decimal_points_html(two_decimals(value))


class LadderTable(tables.Table):
    """Position, player, club, total, best, wins, events, counted and struck events, and the
    qualified line; built from ``selectors.federation.ladder_lines`` or a page of the kept
    lines (``selectors.federation.kept_lines``). Each row's id is ``line-<position>``, the
    anchor the "find a player" box jumps to."""

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
        row_attrs = {
            "class": lambda record: "qualified" if record.qualified else "",
            "id": lambda record: f"line-{record.position}",
        }

    def render_club(self, record):
        player = record.player
        return player.home_club.name if player.home_club_id else player.club_name

    def page_values(self) -> list[tuple]:
        """Every figure and word the table's page shows, line by line, as plain values: the
        key of its kept rendering (``ledger.web.render_cache.keep``). Reads the page's lines
        (the rendering then uses them: the same queries, kept or not)."""
        rows = self.page.object_list if hasattr(self, "page") else self.rows
        return [
            (
                line.position,
                line.player_id,
                line.player.name,
                self.render_club(line),
                line.total,
                line.best,
                line.wins,
                line.events,
                tuple(line.counted),
                tuple(line.struck),
                line.qualified,
            )
            for line in (row.record for row in rows)
        ]

    # The exports' cells: a total and the best as typed numbers (two decimals, half to
    # even), the total also exact; the events' names; the qualified line in words.
    def value_club(self, record):
        return self.render_club(record)

    def value_total(self, value):
        return Decimal(two_decimals(value))

    def value_total_exact(self, value):
        return exact_text(Fraction(value))

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


class PlayerLadderTable(tables.Table):
    """A player's lines on the kept ladders (``selectors.federation.player_ladder_lines``),
    on his player page and the officer's: the series, his position, his total, his events
    and whether he is above the qualified line."""

    series = tables.Column(verbose_name=_("Series"), accessor="series__name")
    position = CountColumn(verbose_name="#")
    total = FigureColumn(verbose_name=_("Total"), attrs=NUM_ATTRS)
    events = CountColumn(verbose_name=_("Events"))
    qualified = tables.Column(verbose_name=_("Qualified"), empty_values=())

    class Meta:
        orderable = False
        attrs = {"class": "data-table player-ladders"}
        row_attrs = {
            "data-series": lambda record: record.series_id,
            "class": lambda record: "qualified" if record.qualified else "",
        }

    def render_qualified(self, value):
        return "✓" if value else ""


# --- the officer's pages (``ledger.views.federation_officer``) ------------------------------


class MemberClubTable(tables.Table):
    """The federation's member clubs: name, game and active members."""

    name = tables.Column(verbose_name=_("Club"))
    game = tables.Column(verbose_name=_("Game"), accessor="get_game_display")
    member_count = CountColumn(verbose_name=_("Members"))

    class Meta:
        orderable = False
        attrs = {"class": "data-table", "id": "federation-clubs"}
        empty_text = _("No member club yet.")


class PlayerTable(tables.Table):
    """The federation's players: name (a link to his page), licence, club."""

    name = tables.Column(verbose_name=_("Player"))
    licence = tables.Column(verbose_name=_("Licence"), default="–")
    club = tables.Column(verbose_name=_("Club"), empty_values=())

    class Meta:
        orderable = False
        attrs = {"class": "data-table", "id": "federation-players"}
        empty_text = _("No player found.")

    def __init__(self, *args, federation, **kwargs):
        self.federation_slug = federation.slug
        super().__init__(*args, **kwargs)

    def render_name(self, record, value):
        url = reverse(
            "federation_player", kwargs={"federation": self.federation_slug, "pk": record.pk}
        )
        return format_html('<a href="{}">{}</a>', url, value)

    def render_club(self, record):
        return record.home_club.name if record.home_club_id else (record.club_name or "–")


class MembershipTable(tables.Table):
    """A player's club memberships."""

    club = tables.Column(verbose_name=_("Club"), accessor="club__name")
    name = tables.Column(verbose_name=_("Name in the club"))
    active = tables.BooleanColumn(verbose_name=_("Active"))

    class Meta:
        orderable = False
        attrs = {"class": "data-table", "id": "player-memberships"}
        empty_text = _("No club membership.")


class EntryTable(tables.Table):
    """A player's tournament entries."""

    tournament = tables.Column(verbose_name=_("Tournament"), accessor="tournament__name")
    club = tables.Column(verbose_name=_("Club"), accessor="tournament__club__name")
    date = tables.DateColumn(verbose_name=_("Date"), accessor="tournament__date")
    status = tables.Column(verbose_name=_("Status"), accessor="tournament__get_status_display")

    class Meta:
        orderable = False
        attrs = {"class": "data-table", "id": "player-entries"}
        empty_text = _("No tournament entry.")


class PlacingTable(tables.Table):
    """A player's placings in imported events."""

    event = tables.Column(verbose_name=_("Imported event"), accessor="event__name")
    date = tables.DateColumn(verbose_name=_("Date"), accessor="event__date")
    rank = CountColumn(verbose_name=_("Rank"))
    points = tables.Column(verbose_name=_("Points"), attrs=NUM_ATTRS)

    class Meta:
        orderable = False
        attrs = {"class": "data-table", "id": "player-placings"}
        empty_text = _("No imported placing.")


class SeriesTable(tables.Table):
    """The federation's series: name (a link to its page), dates, events."""

    name = tables.Column(verbose_name=_("Series"))
    starts_on = tables.DateColumn(verbose_name=_("First date"))
    ends_on = tables.DateColumn(verbose_name=_("Last date"))
    event_count = CountColumn(verbose_name=_("Events"))

    class Meta:
        orderable = False
        attrs = {"class": "data-table", "id": "federation-series"}
        empty_text = _("No series yet.")

    def render_name(self, record, value):
        url = reverse(
            "federation_series",
            kwargs={"federation": record.federation.slug, "pk": record.pk},
        )
        return format_html('<a href="{}">{}</a>', url, value)


class SeriesEventTable(tables.Table):
    """A series' events: the tournament (its club and date) or imported event, its factor."""

    event = tables.Column(verbose_name=_("Event"), empty_values=())
    club = tables.Column(verbose_name=_("Club"), empty_values=())
    date = tables.Column(verbose_name=_("Date"), empty_values=())
    factor = tables.Column(verbose_name=_("Factor"), attrs=NUM_ATTRS)

    class Meta:
        orderable = False
        attrs = {"class": "data-table", "id": "series-events"}
        empty_text = _("No event yet.")

    def __init__(self, *args, change_url=None, **kwargs):
        """``change_url``: an event's page (its factor, its removal), each event's name a link
        to it; none: the names alone."""
        self.change_url = change_url
        super().__init__(*args, **kwargs)

    @staticmethod
    def name_of(record) -> str:
        return record.tournament.name if record.tournament_id else record.imported.name

    def render_event(self, record):
        name = self.name_of(record)
        if self.change_url is None:
            return name
        return format_html(
            '<a href="{}" aria-label="{}">{}</a>',
            self.change_url(record),
            _("Change {event}").format(event=name),
            name,
        )

    def render_club(self, record):
        if record.tournament_id:
            return record.tournament.club.name
        return _("imported from {source}").format(source=record.imported.source)

    def render_date(self, record):
        day = record.tournament.date if record.tournament_id else record.imported.date
        return date_format(day, "SHORT_DATE_FORMAT")


# What each action of the federation's log means, in words.
LOG_ACTIONS = {
    "merge": _("Two player records merged"),
    "licence": _("Licence set"),
    "series": _("Series created"),
    "series_event": _("Event added to a series"),
    "series_change": _("Series changed"),
    "series_factor": _("Factor of a series' event changed"),
    "series_event_remove": _("Event removed from a series"),
    "import": _("Results imported"),
    "officer_add": _("Officer added"),
    "officer_remove": _("Officer removed"),
    "token_create": _("Upload token created"),
    "token_revoke": _("Upload token revoked"),
    "publish": _("Publishing of the ladders changed"),
    "rating_list": _("Rating list created"),
}


# The fields of a series a change names in the log, in words.
SERIES_FIELDS = {
    "name": _("name"),
    "seed": _("seed"),
    "starts_on": _("first date"),
    "ends_on": _("last date"),
    "rule": _("rule"),
}


def series_change_words(field: str, change) -> tuple:
    """One changed field of a series in the log: its name in words, before and after (a date
    in the language's form, a rule as the code it is stored as)."""
    before, after = change
    if field in ("starts_on", "ends_on"):
        before, after = (
            date_format(datetime.date.fromisoformat(v), "SHORT_DATE_FORMAT") for v in change
        )
    elif field == "rule":
        before, after = (
            format_html("<code>{}</code>", json.dumps(v, sort_keys=True)) for v in change
        )
    return SERIES_FIELDS.get(field, field), before, after


def log_details(action: str, details: dict) -> str:
    """The details of a log row in words (an unknown action's: none)."""
    d = details or {}
    if action == "merge":
        return _("{merged} merged into {kept}").format(
            merged=(d.get("merged") or {}).get("name", "?"),
            kept=(d.get("kept") or {}).get("name", "?"),
        )
    if action == "licence":
        return _("player no. {player}: licence {licence}").format(
            player=d.get("player", "?"), licence=d.get("licence") or "–"
        )
    if action == "series":
        return str(d.get("name", ""))
    if action == "series_event":
        return _("series no. {series}, factor {factor}").format(
            series=d.get("series", "?"), factor=d.get("factor", "1")
        )
    if action == "series_change":
        return format_html(
            "{}: {}",
            d.get("name", "?"),
            format_html_join(
                "; ",
                "{}: {} → {}",
                (series_change_words(k, v) for k, v in (d.get("changes") or {}).items()),
            ),
        )
    if action == "series_factor":
        before, after = d.get("factor") or ("?", "?")
        return _("{name}, {event}: factor {before} → {after}").format(
            name=d.get("name", "?"), event=d.get("event", "?"), before=before, after=after
        )
    if action == "series_event_remove":
        return _("{name}: {event} removed (factor {factor})").format(
            name=d.get("name", "?"), event=d.get("event", "?"), factor=d.get("factor", "1")
        )
    if action == "import":
        return _("{source}, revision {revision}").format(
            source=d.get("source", "?"), revision=d.get("revision", "?")
        )
    if action in ("officer_add", "officer_remove"):
        return str(d.get("username", ""))
    if action == "publish":
        return str(_("published") if d.get("publish") else _("not published"))
    if action == "rating_list":
        return str(d.get("name", ""))
    if action in ("token_create", "token_revoke"):
        # The prefix is a machine string (a token's first letters): shown as code, as on the
        # tokens page, never read as words or a number.
        prefix = format_html("<code>{}</code>", d.get("prefix", ""))
        return format_html(str(_("{label} ({prefix}…)")), label=d.get("label", ""), prefix=prefix)
    return ""


class FederationLogTable(tables.Table):
    """The federation's log, newest first: when, who, what, in words."""

    at = tables.DateTimeColumn(verbose_name=_("When"), format="SHORT_DATETIME_FORMAT")
    by = tables.Column(verbose_name=_("Who"), accessor="by__username", default="–")
    action = tables.Column(verbose_name=_("What"))
    details = tables.Column(verbose_name=_("Details"), empty_values=())

    class Meta:
        orderable = False
        attrs = {"class": "data-table", "id": "federation-log"}
        empty_text = _("Nothing logged yet.")
        row_attrs = {"data-action": lambda record: record.action}

    def render_action(self, value):
        return LOG_ACTIONS.get(value, value)

    def render_details(self, record):
        return log_details(record.action, record.details) or "–"


class OfficerTable(tables.Table):
    """The federation's officers: username and name, and the button that removes one."""

    username = tables.Column(verbose_name=_("Username"))
    full_name = tables.Column(verbose_name=_("Name"), accessor="get_full_name", default="–")
    remove = tables.Column(verbose_name=_("Remove"), empty_values=())

    class Meta:
        orderable = False
        attrs = {"class": "data-table", "id": "federation-officers"}

    def __init__(self, *args, csrf_input="", **kwargs):
        self.csrf_input = csrf_input
        super().__init__(*args, **kwargs)

    def render_remove(self, record):
        return format_html(
            '<form method="post">{}<input type="hidden" name="remove" value="{}">'
            '<button type="submit" class="button">{}</button></form>',
            self.csrf_input,
            record.pk,
            _("Remove {username}").format(username=record.username),
        )


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

    date = tables.DateColumn(verbose_name=_("Date"), orderable=False)
    table = tables.Column(verbose_name=_("Table"), orderable=False, accessor="label")
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
