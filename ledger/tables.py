"""django-tables2 tables of the web app; each area keeps its classes in its own section."""

from __future__ import annotations

import django_tables2 as tables
from django.utils.formats import number_format
from django.utils.html import format_html, format_html_join
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

# --- scoring


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
        return _signed_html(record["net"].get(self.member, 0))


class HandTable(tables.Table):
    """The hands of a table: number, dealer, each member's net and the cups after."""

    number = tables.Column(
        verbose_name="#",
        linkify=lambda record: record["url"],
        attrs={"td": {"class": "num hand-no"}, "th": {"class": "num"}},
    )
    dealer = tables.Column(verbose_name=_("Dealer"))
    kongekop = tables.Column(
        verbose_name=_("kongekop"),
        empty_values=(),
        attrs={"td": {"class": "num cup-col"}, "th": {"class": "num"}},
    )
    pagatkop = tables.Column(
        verbose_name=_("pagatkop"),
        empty_values=(),
        attrs={"td": {"class": "num cup-col"}, "th": {"class": "num"}},
    )
    revisions = tables.Column(verbose_name="", empty_values=(), orderable=False)

    class Meta:
        orderable = False
        attrs = {"class": "hands", "id": "hands"}
        row_attrs = {
            "data-hand": lambda record: record["number"],
            "class": lambda record: "voided" if record["voided"] else "",
        }
        sequence = ("number", "dealer", "...", "kongekop", "pagatkop", "revisions")
        empty_text = _("No hands yet.")

    def __init__(self, data, *, members, **kwargs):
        extra = [(f"m{i}", NetColumn(name)) for i, name in enumerate(members)]
        super().__init__(data, extra_columns=extra, **kwargs)

    def render_kongekop(self, record):
        return record["cups_after"].get("kongekop", "–")

    def render_pagatkop(self, record):
        return record["cups_after"].get("pagatkop", "–")

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

REASON_LABELS = {
    "funding": _("funding"),
    "dealer_fee": _("dealer's fee"),
    "meld_tarok": _("tarok meld"),
    "meld_matador": _("matador meld"),
    "meld_half": _("half meld"),
    "meld_full": _("full meld"),
    "meld_overfull": _("overfull meld"),
    "lost_king": _("king lost"),
    "lost_pagat": _("pagat lost"),
    "pagat_home": _("pagat home"),
    "tout": _("tout"),
    "tout_cup": _("tout takes the cup"),
    "nolo": _("nolo"),
    "ultimo": _("ultimo"),
    "ultimo_cup": _("ultimo takes the cup"),
    "bagud": _("bagud"),
    "bagud_cup": _("bagud into the cup"),
    "last_trick": _("last trick"),
    "count": _("count"),
    "refund": _("refund"),
    "split": _("split"),
    "adjustment": _("adjustment"),
}
CARD_LABELS = {"king": _("king"), "pagat": _("pagat")}
FINE_LABELS = {
    "cups_not_moved": _("Cups not moved"),
    "misdeal": _("Misdeal"),
    "meld_before_dealer": _("Meld before the dealer"),
    "meld_error": _("Meld error"),
    "wrong_card_count": _("Wrong number of cards"),
    "wrong_skat": _("Wrong skat"),
    "lead_out_of_turn": _("Lead out of turn"),
    "revoke": _("Revoke"),
    "false_scies_call": _("False scies call"),
}


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


def reason_label(reason: str) -> str:
    """Return a transfer reason in words (``fine_revoke`` -> fine: revoke)."""
    if reason.startswith("fine_"):
        fine = reason.removeprefix("fine_")
        return gettext("fine: {kind}").format(kind=FINE_LABELS.get(fine, fine))
    return str(REASON_LABELS.get(reason, reason))


def hand_events(outcome: dict | None) -> list[str]:
    """Return what happened at the end of a hand, in words, from its posting's outcome."""
    if not outcome:
        return []
    events = []
    if outcome.get("tout"):
        events.append(gettext("tout: {name}").format(name=outcome["tout"]))
    if outcome.get("nolo"):
        events.append(gettext("nolo: {name}").format(name=outcome["nolo"]))
    if outcome.get("ultimo"):
        name, card = outcome["ultimo"]
        events.append(
            gettext("ultimo: {name} ({card})").format(name=name, card=CARD_LABELS.get(card, card))
        )
    for name, card in outcome.get("bagud") or ():
        events.append(
            gettext("bagud: {name} ({card})").format(name=name, card=CARD_LABELS.get(card, card))
        )
    if outcome.get("last_trick") and not outcome.get("ultimo"):
        events.append(gettext("last trick: {name}").format(name=outcome["last_trick"]))
    for cup in outcome.get("refunded") or ():
        events.append(gettext("{cup} refunded").format(cup=cup))
    return events


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
    """The season's standings: one row per member, best first; exports to CSV and XLSX."""

    rank = CountColumn(verbose_name="#")
    name = tables.Column(
        verbose_name=_("Member"),
        linkify=lambda record, table: table.member_url(record.member_id),
        footer=_("Total"),
    )
    points = PointsColumn(
        verbose_name=_("Points"),
        footer=lambda table: signed_points(sum(r.points for r in table.data)),
    )
    money = MoneyColumn(
        verbose_name=_("Money"),
        footer=lambda table: money_text(sum(r.money for r in table.data)),
    )
    evenings = CountColumn(verbose_name=_("Evenings"))
    played = CountColumn(verbose_name=_("Hands"))
    ultimo_pagat = CountColumn(verbose_name=_("Ultimo pagat"))
    ultimo_king = CountColumn(verbose_name=_("Ultimo king"))
    bagud = CountColumn(verbose_name=_("Bagud"))
    nolo = CountColumn(verbose_name=_("Nolo"))
    tout = CountColumn(verbose_name=_("Tout"))
    melds = CountColumn(verbose_name=_("Melds"))
    average = tables.Column(verbose_name=_("Per evening"), attrs=SIGNED_ATTRS)
    best = PointsColumn(verbose_name=_("Best evening"))

    class Meta:
        attrs = {"class": "standings", "id": "standings"}
        row_attrs = {"data-member": lambda record: record.name}
        empty_text = _("No evenings in this season yet.")

    def __init__(self, data, *, member_url=lambda member_id: None, **kwargs):
        self.member_url = member_url
        super().__init__(data, **kwargs)

    def render_average(self, value):
        text = number_format(value, 1)
        return MINUS + text[1:] if text.startswith("-") else text

    def value_average(self, value):
        return value

    def value_name(self, value):
        return value


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
    ultimo_pagat = CountColumn(verbose_name=_("Ultimo pagat"))
    ultimo_king = CountColumn(verbose_name=_("Ultimo king"))
    bagud = CountColumn(verbose_name=_("Bagud"))
    nolo = CountColumn(verbose_name=_("Nolo"))
    tout = CountColumn(verbose_name=_("Tout"))
    melds = CountColumn(verbose_name=_("Melds"))

    class Meta:
        attrs = {"class": "member-evenings", "id": "member-evenings"}
        row_attrs = {"data-evening": lambda record: record["evening_id"]}
        empty_text = _("No evenings in this season yet.")

    def __init__(self, data, *, sheet_url=lambda evening_id: None, **kwargs):
        self.sheet_url = sheet_url
        super().__init__(data, **kwargs)


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
        outcome = {
            "tout": record.tout_player,
            "nolo": record.nolo_player,
            "ultimo": (record.ultimo_player, record.ultimo_card) if record.ultimo_player else None,
            "bagud": [(b, "") for b in (record.bagud0, record.bagud1, record.bagud2) if b],
        }
        events = hand_events(outcome)
        return [e.replace(" ()", "") for e in events]

    def render_events(self, record):
        return "; ".join(self._events(record))

    def value_events(self, record):
        return "; ".join(self._events(record))


class SettlementTable(tables.Table):
    """An evening's result per member: balance, share of the cups, points and money."""

    name = tables.Column(verbose_name=_("Member"), footer=_("Total"))
    before_split = PointsColumn(
        verbose_name=_("Before the split"),
        footer=lambda table: signed_points(sum(r.before_split for r in table.data)),
    )
    split = PointsColumn(
        verbose_name=_("Share of the cups"),
        footer=lambda table: signed_points(sum(r.split for r in table.data)),
    )
    points = PointsColumn(
        verbose_name=_("Result"),
        footer=lambda table: signed_points(sum(r.points for r in table.data)),
    )
    money = MoneyColumn(
        verbose_name=_("Money"),
        footer=lambda table: money_text(sum(r.money for r in table.data)),
    )

    class Meta:
        orderable = False
        attrs = {"class": "settlement", "id": "settlement"}
        row_attrs = {"data-member": lambda record: record.name}


class SheetColumn(tables.Column):
    """One member's net of each posting on the evening sheet."""

    def __init__(self, member: str, **kwargs):
        self.member = member
        super().__init__(
            verbose_name=member, empty_values=(), orderable=False, attrs=SIGNED_ATTRS, **kwargs
        )

    def raw(self, record) -> int:
        return record.net.get(self.member, 0)

    def render(self, record):
        value = self.raw(record)
        return format_html('<span data-points="{}">{}</span>', value, signed_points(value))

    def value(self, record):
        return self.raw(record)


class EveningSheetTable(tables.Table):
    """Every live posting of a table in order: funding, each hand, adjustments, the split.

    Each row shows each member's net and the cups after it; the template adds a line with
    its transfers under each row.
    """

    label = tables.Column(verbose_name="#", empty_values=(), attrs={"td": {"class": "label"}})
    dealer = tables.Column(verbose_name=_("Dealer"), empty_values=())
    events = tables.Column(verbose_name=_("What happened"), empty_values=())
    kongekop = tables.Column(verbose_name=_("kongekop"), empty_values=(), attrs=NUM_ATTRS)
    pagatkop = tables.Column(verbose_name=_("pagatkop"), empty_values=(), attrs=NUM_ATTRS)

    class Meta:
        orderable = False
        template_name = "ledger/treasury/_sheet_table.html"
        attrs = {"class": "sheet"}
        row_attrs = {
            "data-kind": lambda record: record.kind,
            "data-hand": lambda record: record.number or "",
        }
        sequence = ("label", "dealer", "events", "...", "kongekop", "pagatkop")

    def __init__(self, data, *, members, **kwargs):
        extra = [(f"m{i}", SheetColumn(name)) for i, name in enumerate(members)]
        super().__init__(data, extra_columns=extra, **kwargs)
        for record in data:
            # The row under each posting (see the template) lists its transfers in words.
            record.transfers_text = ", ".join(
                f"{source} → {target} {points} ({reason_label(reason)})"
                for source, target, points, reason in record.transfers
            )

    def render_label(self, record):
        if record.kind in ("hand", "voided"):
            return record.number
        labels = {"funding": _("Funding"), "split": _("Split"), "adjustment": _("Adjustment")}
        return labels.get(record.kind, record.kind)

    def render_dealer(self, record):
        return record.dealer

    def render_events(self, record):
        events = hand_events(record.outcome)
        if record.kind == "voided":
            events.append(gettext("voided"))
        if record.note:
            events.append(record.note)
        if record.corrected:
            events.append(gettext("corrected"))
        return "; ".join(events)

    def render_kongekop(self, record):
        return record.cups_after["kongekop"]

    def render_pagatkop(self, record):
        return record.cups_after["pagatkop"]


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
            "class": lambda record: "differs" if record.difference else "",
        }

    def __init__(self, jetons, *, form=None, **kwargs):
        self.jetons, self.form = jetons, form
        super().__init__(jetons.lines, **kwargs)
        if form is None:
            self.columns.hide("entry")

    def render_entry(self, record):
        return self.form[f"count_{record.account_id}"]


def standing_summary(standing, currency: str = "") -> list[dict]:
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
        tile(
            "ultimo",
            _("Ultimo (pagat / king)"),
            f"{standing.ultimo_pagat} / {standing.ultimo_king}",
        ),
        tile("bagud", _("Bagud"), str(standing.bagud)),
        tile("nolo_tout", _("Nolo / tout"), f"{standing.nolo} / {standing.tout}"),
        tile("melds", _("Melds received"), str(standing.melds)),
    ]


def price_text(price) -> str:
    """Return a price per point with as many decimals as it has, at least two (0,25)."""
    places = max(2, -price.normalize().as_tuple().exponent)
    return number_format(price, places)
