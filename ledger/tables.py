"""django-tables2 tables of the web app; each area keeps its classes in its own section."""

from __future__ import annotations

import django_tables2 as tables
from django.utils.html import format_html
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
