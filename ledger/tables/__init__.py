"""django-tables2 tables of the web app; each area keeps its classes in its own section."""

from __future__ import annotations

import django_tables2 as tables
from django.utils.formats import date_format, number_format
from django.utils.html import format_html, format_html_join
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from ledger.games.registry import get_game, get_web
from ledger.games.web import stats_help

# --- scoring

POOL_ATTRS = {"td": {"class": "num cup-col"}, "th": {"class": "num"}}


def _signed_html(points):
    """Render points with a real minus sign, coloured, and the raw figure in data-points."""
    if points is None:
        return "–"
    if points > 0:
        text, cls = f"+{points}", "pos"
    elif points < 0:
        text, cls = f"\u2212{-points}", "neg"
    else:
        text, cls = "0", "zero"
    return format_html('<span class="{}" data-points="{}">{}</span>', cls, points, text)


class NetColumn(tables.Column):
    """One member's net of each hand (empty when the member was not at the table)."""

    def __init__(self, member: str, **kwargs):
        self.member = member
        kwargs.setdefault("verbose_name", member)
        kwargs.setdefault("attrs", {"td": {"class": "num"}, "th": {"class": "num"}})
        super().__init__(empty_values=(), orderable=False, **kwargs)

    def render(self, record):
        if record["voided"]:
            return "–"
        points = record["net"].get(self.member, 0)
        if self.member in record.get("out", ()) and not points:
            # Sat out and paid nothing (a refunding is paid sitting out, and shows).
            return format_html('<span class="sat-out" data-points="out">{}</span>', "–")
        return _signed_html(points)


class PoolColumn(tables.Column):
    """A pool's points after each row (``record["pools_after"]`` or ``record.pools_after``)."""

    def __init__(self, code: str, label, *, attrs, **kwargs):
        self.code = code
        super().__init__(
            verbose_name=label, empty_values=(), orderable=False, attrs=attrs, **kwargs
        )

    def raw(self, record):
        after = record["pools_after"] if isinstance(record, dict) else record.cups_after
        return after.get(self.code, "–")

    def render(self, record):
        return self.raw(record)

    def value(self, record):
        return self.raw(record)


def pool_columns(game_code: str, prefix: str, attrs) -> list[tuple[str, tables.Column]]:
    """Return a column per pool of the game, named ``<prefix><code>``, labelled by the game."""
    web = get_web(game_code)
    return [
        (f"{prefix}{code}", PoolColumn(code, web.pool_label(code), attrs=attrs))
        for code in get_game(game_code).features.pool_codes
    ]


class HandTable(tables.Table):
    """The hands of a table: number, dealer, each member's net and the pools after."""

    number = tables.Column(
        verbose_name="#",
        linkify=lambda record: record["url"],
        attrs={"td": {"class": "num hand-no"}, "th": {"class": "num"}},
    )
    dealer = tables.Column(verbose_name=_("Dealer"))
    events = tables.Column(
        verbose_name=_("What happened"),
        empty_values=(),
        orderable=False,
        attrs={"td": {"class": "events"}, "th": {"class": "events"}},
    )
    revisions = tables.Column(verbose_name="", empty_values=(), orderable=False)

    class Meta:
        orderable = False
        attrs = {"class": "hands", "id": "hands"}
        row_attrs = {
            "data-hand": lambda record: record["number"],
            "class": lambda record: "voided" if record["voided"] else "",
        }
        sequence = ("number", "dealer", "...", "events", "revisions")
        empty_text = _("No hands yet.")

    def __init__(self, data, *, members, game, **kwargs):
        extra = [(f"m{i}", NetColumn(name)) for i, name in enumerate(members)]
        extra += pool_columns(game, "pool_", POOL_ATTRS)
        super().__init__(data, extra_columns=extra, **kwargs)

    def render_events(self, record):
        return "; ".join(record.get("events") or ())

    def render_revisions(self, record):
        if record["voided"]:
            return format_html('<span class="tag bad">{}</span>', _("voided"))
        if record["revisions"] > 1:
            return format_html('<span class="tag">{}</span>', _("corrected"))
        return ""


class RevisionTable(tables.Table):
    """Every revision of a hand: who, when, what and why."""

    number = tables.Column(verbose_name="#", attrs={"td": {"class": "num"}})
    action = tables.Column(verbose_name=_("What"), accessor="get_action_display")
    at = tables.DateTimeColumn(verbose_name=_("When"), format="SHORT_DATETIME_FORMAT")
    by = tables.Column(verbose_name=_("Who"), default="–")
    reason = tables.Column(verbose_name=_("Why"), default="")

    class Meta:
        orderable = False
        attrs = {"class": "revisions", "id": "revisions"}
        row_attrs = {"data-action": lambda record: record.action}


# --- treasury and season

MINUS = "\u2212"


def signed_points(points) -> str:
    """Return points with their sign: +65, 0, and a real minus sign for -30."""
    if points is None:
        return "–"
    if points > 0:
        return f"+{points}"
    return f"{MINUS}{-points}" if points < 0 else "0"


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
            ("rank", "name", "points", "money", "evenings", "played")
            + tuple(name for name, _column in extra)
            + ("average", "best"),
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

    def __init__(self, data, *, sheet_url=lambda evening_id: None, **kwargs):
        self.sheet_url = sheet_url
        super().__init__(data, **kwargs)

    def _events(self, record) -> list[str]:
        return get_web(record.game).outcome_words(record.outcome, brief=True)

    def render_events(self, record):
        return "; ".join(self._events(record))

    def value_events(self, record):
        return "; ".join(self._events(record))


class SettlementTable(tables.Table):
    """An evening's result per member: balance, share of the pools, points and money."""

    name = tables.Column(verbose_name=_("Member"), footer=_("Total"))
    before_split = PointsColumn(
        verbose_name=_("Before the split"),
        footer=points_total("before_split"),
    )
    split = PointsColumn(
        verbose_name=_("Share of the pools"),  # the game's words: ``settlement_table``
        footer=points_total("split"),
    )
    points = PointsColumn(
        verbose_name=_("Result"),
        footer=points_total("points"),
    )
    money = MoneyColumn(
        verbose_name=_("Money"),
        footer=money_total("money"),
    )

    class Meta:
        orderable = False
        attrs = {"class": "settlement", "id": "settlement"}
        row_attrs = {"data-member": lambda record: record.name}


def settlement_table(sheet) -> SettlementTable:
    """Return the settlement table of an evening's sheet, in its game's words: the share of
    the pools is the game's column (none in a game without pools), and an open evening shows
    only the balances so far."""
    share = get_web(sheet.evening.game).word("pools_share")
    exclude = set() if sheet.closed else {"split", "points", "money"}
    if not share:
        exclude.add("split")
    table = SettlementTable(sheet.settlement, exclude=tuple(sorted(exclude)))
    if "split" not in exclude:
        table.columns["split"].column.verbose_name = share
    return table


def running_text(points) -> str:
    """Return a running total as a score sheet writes it: 120, 0, and −40 with a real minus."""
    return f"{MINUS}{-points}" if points < 0 else str(points)


def _score_html(net: int, running: int):
    """Render a member's net of a posting, small, and his running total after it, bold."""
    net_class = "pos" if net > 0 else "neg" if net < 0 else "zero"
    return format_html(
        '<span class="net {}" data-points="{}">{}</span> '
        '<strong class="run{}" data-running="{}">{}</strong>',
        net_class,
        net,
        signed_points(net),
        " neg" if running < 0 else "",
        running,
        running_text(running),
    )


class ScoreColumn(tables.Column):
    """One member's column of the score sheet: his net of each posting and his running total
    after it; the footer is his total at the table."""

    def __init__(self, member: str, **kwargs):
        self.member = member
        attrs = {
            "td": {"class": "num score", "data-member": member},
            "th": {"class": "num member", "data-member": member},
            "tf": {"class": "num score", "data-member": member},
        }
        super().__init__(
            verbose_name=member,
            empty_values=(),
            orderable=False,
            attrs=attrs,
            footer=lambda table: _signed_html(table.sheet.balances.get(member, 0)),
            **kwargs,
        )

    def raw(self, record) -> int:
        return record.net.get(self.member, 0)

    def render(self, record):
        if record.kind == "voided":
            return ""
        if self.member not in record.arrived:  # not at the table yet
            return format_html('<span class="away">{}</span>', "–")
        if self.member in record.away:  # not among the hand's seats: his total stands
            return format_html(
                '<span class="net zero">–</span> '
                '<strong class="run{}" data-running="{}">{}</strong>',
                " neg" if record.running.get(self.member, 0) < 0 else "",
                record.running.get(self.member, 0),
                running_text(record.running.get(self.member, 0)),
            )
        return _score_html(self.raw(record), record.running.get(self.member, 0))

    def value(self, record):
        return self.raw(record)


class SheetPoolColumn(PoolColumn):
    """A pool after each posting of the score sheet (nothing on a voided hand); the footer is
    the pool at the end."""

    def __init__(self, code: str, label, **kwargs):
        attrs = {"td": {"class": "num pool"}, "th": {"class": "num pool"}, "tf": {"class": "num"}}
        super().__init__(
            code,
            label,
            attrs=attrs,
            footer=lambda table: table.sheet.balances.get(code, 0),
            **kwargs,
        )

    def render(self, record):
        return "" if record.kind == "voided" else self.raw(record)


class EveningSheetTable(tables.Table):
    """A table's score sheet: a row per posting (funding, each hand, adjustments, the split,
    each voided hand in its place) with the number, the dealer, each member's net and running
    total, the pools after it and what happened; the footer holds each member's total.

    ``members`` orders the member columns (the reader's own first); ``transfer_lines`` gives
    a posting's transfers in words (the screen shows them a tap away, the PDF's appendix).
    """

    label = tables.Column(
        verbose_name="#", empty_values=(), attrs={"td": {"class": "label"}}, footer=_("Total")
    )
    dealer = tables.Column(
        verbose_name=_("Dealer"), empty_values=(), attrs={"td": {"class": "dealer"}}
    )
    events = tables.Column(
        verbose_name=_("What happened"),
        empty_values=(),
        attrs={"td": {"class": "events"}, "th": {"class": "events"}},
    )

    class Meta:
        orderable = False
        template_name = "ledger/treasury/_sheet_table.html"
        attrs = {"class": "sheet"}
        row_attrs = {
            "data-kind": lambda record: record.kind,
            "data-hand": lambda record: record.number or "",
        }
        sequence = ("label", "dealer", "...", "events")

    def __init__(self, sheet, *, members=None, **kwargs):
        self.sheet = sheet
        self.web = get_web(sheet.table.game)
        self.members = list(members if members is not None else sheet.seats)
        extra = [(f"m{i}", ScoreColumn(name)) for i, name in enumerate(self.members)]
        extra += [
            (f"pool_{code}", SheetPoolColumn(code, self.web.pool_label(code)))
            for code in get_game(sheet.table.game).features.pool_codes
        ]
        super().__init__(sheet.postings, extra_columns=extra, **kwargs)
        for record in sheet.postings:
            record.label = self.render_label(record)
            record.transfer_lines = self.transfer_lines(record)

    def print_rows(self) -> list[dict]:
        """Return each posting's figures as text for print, in the columns' order: the PDF's
        template writes them into bare cells, since WeasyPrint lays out every element and
        attribute of a sheet of 160 hands."""
        codes = get_game(self.sheet.table.game).features.pool_codes
        rows = []
        for record in self.sheet.postings:
            voided = record.kind == "voided"
            scores = [
                ("", "")
                if voided
                else ("", "–")
                if m not in record.arrived
                else (
                    "–" if m in record.away else signed_points(record.net.get(m, 0)),
                    running_text(record.running.get(m, 0)),
                )
                for m in self.members
            ]
            rows.append(
                {
                    "kind": record.kind,
                    "label": record.label,
                    "dealer": record.dealer,
                    "scores": scores,
                    "pools": ["" if voided else record.cups_after.get(c, 0) for c in codes],
                    "events": self.render_events(record),
                }
            )
        return rows

    def transfer_lines(self, record) -> list[str]:
        """Return a posting's transfers in words: "Bo → Anna 40 (ultimo)"."""
        return [
            f"{source} → {target} {points} ({self.web.reason_label(reason)})"
            for source, target, points, reason in record.transfers
        ]

    def render_label(self, record):
        if record.kind in ("hand", "voided"):
            return record.number
        labels = {"funding": _("Funding"), "split": _("Split"), "adjustment": _("Adjustment")}
        return labels.get(record.kind, record.kind)

    def render_dealer(self, record):
        return record.dealer

    def render_events(self, record):
        events = self.web.outcome_words(record.outcome)
        if record.kind == "voided":
            events.append(gettext("voided"))
        if record.note:
            events.append(record.note)
        if record.corrected:
            events.append(gettext("corrected"))
        return "; ".join(events)


class JetonTable(tables.Table):
    """A table's jetons: expected from the ledger, the latest count, the difference."""

    name = tables.Column(verbose_name=_("Account"), footer=_("Total"))
    expected = CountColumn(
        verbose_name=_("Expected"), footer=lambda table: table.jetons.total_expected
    )
    counted = CountColumn(
        verbose_name=_("Counted"),
        default="–",
        footer=lambda table: (
            "–" if table.jetons.total_counted is None else table.jetons.total_counted
        ),
    )
    difference = PointsColumn(
        verbose_name=_("Difference"),
        default="",
        footer=lambda table: signed_points(table.jetons.total_difference),
    )
    entry = tables.Column(
        verbose_name=_("New count"), empty_values=(), attrs={"td": {"class": "entry"}}
    )

    class Meta:
        orderable = False
        attrs = {"class": "jetons"}
        row_attrs = {
            "data-account": lambda record: record.name,
            "data-difference": lambda record: record.difference or 0,
            "data-stale": lambda record: "1" if record.stale else None,
            "class": lambda record: " ".join(
                c for c, on in (("differs", record.difference), ("stale", record.stale)) if on
            ),
        }

    def __init__(self, jetons, *, form=None, **kwargs):
        self.jetons, self.form = jetons, form
        super().__init__(jetons.lines, **kwargs)
        if form is None:
            self.columns.hide("entry")

    def render_entry(self, record):
        return self.form[f"count_{record.account_id}"]


def standing_summary(standing, currency: str = "", games=()) -> list[dict]:
    """Return a member's season totals as labelled figures for the summary tiles."""

    def tile(key, label, text, value=None):
        css = _num_class(value).replace("num", "").strip() if value is not None else ""
        return {"key": key, "label": label, "text": text, "class": css}

    average = "–"
    if standing.average is not None:
        average = number_format(standing.average, 1)
        average = MINUS + average[1:] if average.startswith("-") else average
    return [
        tile("points", _("Points"), signed_points(standing.points), standing.points),
        tile(
            "money", _("Money"), f"{money_text(standing.money)} {currency}".strip(), standing.money
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


def price_text(price) -> str:
    """Return a price per point with as many decimals as it has, at least two (0,25)."""
    places = max(2, -price.normalize().as_tuple().exponent)
    return number_format(price, places)
