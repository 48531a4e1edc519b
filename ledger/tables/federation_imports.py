"""The tables of a federation's upload pages: its imported events, one event's ranking, and
its upload tokens (read-only but the revoke button)."""

from __future__ import annotations

from fractions import Fraction

import django_tables2 as tables
from django.urls import NoReverseMatch, reverse
from django.utils.formats import date_format
from django.utils.html import format_html
from django.utils.timezone import localtime
from django.utils.translation import gettext_lazy as _

from ledger.tables.columns import NUM_ATTRS, CountColumn, decimal_points_html
from ledger.tables.tournaments import status_text
from ledger.tournaments.engine.display import points_decimal


class ImportedEventsTable(tables.Table):
    """Name (to the event's page), date, source, revision, imported at, players."""

    name = tables.Column(verbose_name=_("Event"), orderable=False)
    date = tables.DateColumn(verbose_name=_("Date"), orderable=False, short=True)
    source = tables.Column(verbose_name=_("Source"), orderable=False)
    revision = CountColumn(verbose_name=_("Revision"), orderable=False, attrs=NUM_ATTRS)
    imported_at = tables.DateTimeColumn(verbose_name=_("Imported at"), orderable=False, short=True)
    players = CountColumn(verbose_name=_("Players"), orderable=False, attrs=NUM_ATTRS)

    class Meta:
        attrs = {"class": "data-table"}

    def render_name(self, record, value):
        url = reverse(
            "federation_import", kwargs={"federation": self.federation_slug, "pk": record.pk}
        )
        return format_html('<a href="{}">{}</a>', url, value)

    def __init__(self, *args, federation_slug: str, **kwargs):
        self.federation_slug = federation_slug
        super().__init__(*args, **kwargs)


def player_url(federation_slug: str, player_id: int) -> str | None:
    """The officer's page of a player, when this installation has one (else None)."""
    try:
        return reverse("federation_player", kwargs={"federation": federation_slug, "pk": player_id})
    except NoReverseMatch:
        return None


class ImportedRankingTable(tables.Table):
    """Rank, the file's id, player (to his officer page when there is one), club, points,
    status."""

    rank = CountColumn(verbose_name="#", orderable=False)
    code = tables.Column(verbose_name=_("ID"), orderable=False)
    player = tables.Column(verbose_name=_("Player"), orderable=False, accessor="player__name")
    club = tables.Column(verbose_name=_("Club"), orderable=False, empty_values=())
    points = tables.Column(verbose_name=_("Points"), orderable=False, attrs=NUM_ATTRS)
    status = tables.Column(verbose_name=_("Status"), orderable=False)

    class Meta:
        attrs = {"class": "data-table"}

    def __init__(self, *args, federation_slug: str, **kwargs):
        self.federation_slug = federation_slug
        super().__init__(*args, **kwargs)

    def render_player(self, record, value):
        url = player_url(self.federation_slug, record.player_id)
        return format_html('<a href="{}">{}</a>', url, value) if url else value

    def render_club(self, record):
        player = record.player
        return player.home_club.name if player.home_club_id else player.club_name

    def render_status(self, value):
        return status_text(value) or "—"

    def render_points(self, value):
        return decimal_points_html(points_decimal(Fraction(value)))


REVOKE = """{% load i18n %}{% if record.revoked_at %}{% else %}<form method="post"
class="inline">{% csrf_token %}<input type="hidden" name="action" value="revoke"><input
type="hidden" name="token" value="{{ record.pk }}"><button type="submit" class="button danger"
aria-label="{% blocktranslate with label=record.label %}Revoke {{ label }}{% endblocktranslate %}"
>{% translate "Revoke" %}</button></form>{% endif %}"""


class UploadTokensTable(tables.Table):
    """Label, prefix, made (when, by whom), last used, revoked; a revoke button on a live one."""

    label = tables.Column(verbose_name=_("Label"), orderable=False)
    prefix = tables.Column(verbose_name=_("Begins with"), orderable=False)
    created_at = tables.DateTimeColumn(verbose_name=_("Created"), orderable=False, short=True)
    last_used_at = tables.Column(verbose_name=_("Last used"), orderable=False, empty_values=())
    revoked_at = tables.Column(verbose_name=_("Revoked"), orderable=False, empty_values=())
    revoke = tables.TemplateColumn(REVOKE, verbose_name="", orderable=False, empty_values=())

    class Meta:
        attrs = {"class": "data-table"}

    def render_prefix(self, value):
        return format_html("<code>{}…</code>", value)

    def render_last_used_at(self, value):
        return date_format(localtime(value), "SHORT_DATETIME_FORMAT") if value else _("never")

    def render_revoked_at(self, value):
        return date_format(localtime(value), "SHORT_DATETIME_FORMAT") if value else "—"
