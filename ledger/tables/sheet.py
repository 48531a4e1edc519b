"""The tables of an evening's sheet and of the treasurer: the settlement, the score sheet and
the jeton counts."""

from __future__ import annotations

import django_tables2 as tables
from django.utils.html import format_html
from django.utils.text import capfirst
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from ledger.games.money import points_text, signed_points
from ledger.games.registry import get_game, get_web
from ledger.tables.columns import (
    CountColumn,
    MoneyColumn,
    PointsColumn,
    money_total,
    points_total,
    signed_html,
)
from ledger.tables.scoring import PoolColumn


class SettlementTable(tables.Table):
    """An evening's result per member: his balance from the hands, the close's lines of his
    game (``GameWeb.close_columns``: a share of the cups, a radelc penalty and a share of the
    pool, or none), his result in points and money."""

    name = tables.Column(verbose_name=_("Member"), footer=_("Total"))
    before_split = PointsColumn(
        verbose_name=_("Before the close"),  # the game's words: ``settlement_table``
        footer=points_total("before_split"),
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


class CloseColumn(PointsColumn):
    """What the close moved for each member by one reason (the radelc penalty, the split)."""

    def __init__(self, reason: str, label, **kwargs):
        self.reason = reason
        super().__init__(
            verbose_name=label,
            empty_values=(),
            footer=lambda table: signed_points(sum(r.close.get(reason, 0) for r in table.data)),
            **kwargs,
        )

    def render(self, record):
        return super().render(record.close.get(self.reason, 0))

    def value(self, record):
        return record.close.get(self.reason, 0)


def settlement_table(sheet) -> SettlementTable:
    """Return the settlement table of an evening's sheet, in its game's words: each member's
    balance from the hands, then each line of the game's close (none in a game whose close
    moves nothing, where the balance is the result), then the result; an open evening shows
    only the balances so far."""
    web = get_web(sheet.evening.game)
    closing = [
        (f"close_{reason}", CloseColumn(reason, label)) for reason, label in web.close_columns
    ]
    exclude = set()
    if not sheet.closed:
        exclude |= {"points", "money"}
        closing = []
    elif not closing:
        exclude.add("before_split")
    table = SettlementTable(
        sheet.settlement,
        extra_columns=closing,
        sequence=("name", "before_split", *(name for name, _col in closing), "..."),
        exclude=tuple(sorted(exclude)),
    )
    if "before_split" not in exclude:
        table.columns["before_split"].column.verbose_name = web.word("before_close")
    return table


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
        points_text(running),
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
            footer=lambda table: signed_html(table.sheet.balances.get(member, 0)),
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
                points_text(record.running.get(self.member, 0)),
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
        return "" if record.kind == "voided" else super().render(record)


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
        """Return each posting's figures as text for print, in the columns' order (each
        member's points and running total, each pool) and what happened: the PDF's template
        writes them into bare cells, since WeasyPrint lays out every element and attribute of
        a sheet of 160 hands."""
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
                    points_text(record.running.get(m, 0)),
                )
                for m in self.members
            ]
            rows.append(
                {
                    "kind": record.kind,
                    "label": record.label,
                    "dealer": record.dealer,
                    "scores": scores,
                    "pools": [
                        "" if voided else points_text(record.cups_after.get(c, 0)) for c in codes
                    ],
                    "events": self.events_text(record),
                }
            )
        return rows

    def transfer_lines(self, record) -> list[str]:
        """Return a posting's transfers in words: "Bo → Anna 40 (ultimo)"."""
        label = self.web.account_label
        return [
            f"{capfirst(label(source))} → {capfirst(label(target))} {points} "
            f"({self.web.reason_label(reason)})"
            for source, target, points, reason in record.transfers
        ]

    def render_label(self, record):
        if record.kind in ("hand", "voided"):
            return record.number
        labels = {
            "funding": _("Funding"),
            "split": self.web.word("close_row"),
            "adjustment": _("Adjustment"),
        }
        return labels.get(record.kind, record.kind)

    def render_dealer(self, record):
        return record.dealer

    def close_lines(self, record) -> list[str]:
        """Return the close's lines of a split posting when its game's close has more than
        one (the row's net sums them): "Radelc penalty: Anna −100, Dorte −200"."""
        if record.kind != "split" or len(self.web.close_columns) < 2:
            return []
        lines = []
        for reason, label in self.web.close_columns:
            net: dict[str, int] = {}
            for source, target, points, why in record.transfers:
                if why == reason:
                    net[source] = net.get(source, 0) - points
                    net[target] = net.get(target, 0) + points
            parts = [f"{m} {signed_points(net[m])}" for m in self.members if net.get(m)]
            if parts:
                lines.append(f"{label}: {', '.join(parts)}")
        return lines

    def render_events(self, record):
        return self.events_text(record)

    def events_text(self, record) -> str:
        """Return what happened in words, on screen and in print alike: a split's close lines,
        then every payment by its reason (``hand_words``: the hand's events, then every other
        payment the game names, each with its amounts), a voided hand, a note, a correction."""
        events = self.web.hand_words(record.outcome, record.transfers)
        events = [*self.close_lines(record), *events]
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

    def render_counted(self, value, record):
        """A count made before the table's latest change carries a mark and says so."""
        if not record.stale:
            return value
        return format_html(
            '{} <span class="stale-mark" data-stale-mark>⚠ {}</span>',
            value,
            gettext("counted before the latest change: count again"),
        )

    def render_entry(self, record):
        return self.form[f"count_{record.account_id}"]
