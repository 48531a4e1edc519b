"""The tables of the scorekeeper's screens: a table's hands and a hand's revisions."""

from __future__ import annotations

import django_tables2 as tables
from django.urls import reverse
from django.utils.html import format_html
from django.utils.translation import gettext_lazy as _

from ledger.games.money import points_text, sign_class
from ledger.games.registry import get_game, get_web
from ledger.tables.columns import (
    signed_html,
)
from ledger.tournaments.web import author_text

POOL_ATTRS = {"td": {"class": "num cup-col"}, "th": {"class": "num"}}


class NetColumn(tables.Column):
    """One member's net of each hand ("–" when the member was not at the table)."""

    def __init__(self, member: str, **kwargs):
        self.member = member
        kwargs.setdefault("verbose_name", member)
        kwargs.setdefault("attrs", {"td": {"class": "num"}, "th": {"class": "num"}})
        super().__init__(empty_values=(), orderable=False, **kwargs)

    def render(self, record):
        if record["voided"]:
            return "–"
        if record.get("seats") and self.member not in record["seats"]:
            # Not at the table yet (a late arrival) or gone: no figure, not a 0.
            return format_html('<span class="not-seated" data-points="absent">{}</span>', "–")
        points = record["net"].get(self.member, 0)
        if self.member in record.get("out", ()) and not points:
            # Sat out and paid nothing (a refunding is paid sitting out, and shows).
            return format_html('<span class="sat-out" data-points="out">{}</span>', "–")
        return signed_html(points)


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
        """The pool with a true minus, red when negative (the export keeps the raw number; no
        ``data-points``, which are the members' nets of the row)."""
        after = self.raw(record)
        if not isinstance(after, int):
            return after
        return format_html('<span class="{}">{}</span>', sign_class(after), points_text(after))

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
        linkify=lambda record: reverse("hand", kwargs={"club": record["club"], "pk": record["pk"]}),
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
        """``members`` are (the name as seated, the name now) of each seat, in seat order: the
        hands name a member as seated, the header as he is called now."""
        extra = [
            (f"m{i}", NetColumn(seat, verbose_name=name)) for i, (seat, name) in enumerate(members)
        ]
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

    def render_by(self, value):
        """A person's log-in, or the round table's link that wrote the revision, in words."""
        return author_text(value) or "–"
