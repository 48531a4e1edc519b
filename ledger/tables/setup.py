"""django-tables2 tables of the club set-up screens."""

from __future__ import annotations

import datetime

import django_tables2 as tables
from django.utils import formats, timezone
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from ledger.models import Member, Season
from ledger.tables.columns import ClubTable, club_link


class MemberTable(tables.Table):
    name = tables.Column(verbose_name=_("Name"))
    role = tables.Column(verbose_name=_("Role"))
    active = tables.BooleanColumn(verbose_name=_("Active"))
    login = tables.Column(
        verbose_name=_("Log-in"), accessor="user__username", default="–", orderable=False
    )
    actions = tables.TemplateColumn(
        template_name="ledger/setup/_member_actions.html",
        verbose_name=_("Change"),
        orderable=False,
        empty_values=(),
    )

    class Meta:
        model = Member
        fields = ("name", "role", "active", "login", "actions")
        orderable = False
        attrs = {"class": "data members-table", "id": "members-table"}
        row_attrs = {"data-member": lambda record: record.name}


def people_value(value) -> str:
    """A value before or after a change of the people log, in words: a role by its name, the
    active flag as active / not active, a member added as his name, role and log-in."""
    if value is None:
        return "–"
    if isinstance(value, bool):
        return str(_("active") if value else _("inactive"))
    if isinstance(value, dict):
        parts = [people_value(value[key]) for key in ("name", "role") if key in value]
        if "login" in value:
            parts.append(str(_("log-in {name}")).format(name=value["login"]))
        if value.get("active") is False:
            parts.append(str(_("inactive")))
        return ", ".join(parts)
    if value in Member.Role.values:
        return str(Member.Role(value).label)
    return str(value)


class PeopleLogTable(tables.Table):
    """The club's people log, newest first: when, who, which member, what, before and after."""

    at = tables.DateTimeColumn(verbose_name=_("When"), format="SHORT_DATETIME_FORMAT")
    by = tables.Column(verbose_name=_("Who"), accessor="by__username", default="–")
    member_name = tables.Column(verbose_name=_("Member"), default="–")
    action = tables.Column(verbose_name=_("What"), accessor="action_label")
    old = tables.Column(verbose_name=_("Before"), accessor="details", empty_values=())
    new = tables.Column(verbose_name=_("After"), accessor="details", empty_values=())

    class Meta:
        orderable = False
        attrs = {"class": "data people-log", "id": "people-log"}
        empty_text = _("Nothing logged yet.")
        row_attrs = {"data-action": lambda record: record.action}

    @staticmethod
    def _erased(record) -> bool:
        return record.member is not None and record.member.erased_at is not None

    def render_member_name(self, record, value):
        # An erased member is shown by his label ("former member 12"), never his old name.
        return record.member.name if self._erased(record) else value

    def render_old(self, record):
        if self._erased(record) and record.action == "name":
            return "–"
        return people_value(record.details.get("old"))

    def render_new(self, record):
        if record.action == "invited" and "expires" in record.details:
            until = datetime.datetime.fromisoformat(record.details["expires"])
            return str(_("valid until {date}")).format(
                date=formats.date_format(timezone.localtime(until), "SHORT_DATETIME_FORMAT")
            )
        if self._erased(record) and record.action == "name":
            return "–"
        return people_value(record.details.get("new"))


class SeasonTable(ClubTable):
    """The club's seasons, each with its link to change it."""

    name = tables.Column(verbose_name=_("Name"))
    starts_on = tables.DateColumn(verbose_name=_("Starts on"), format="DATE_FORMAT")
    ends_on = tables.DateColumn(verbose_name=_("Ends on"), format="DATE_FORMAT")
    edit = tables.Column(verbose_name="", empty_values=(), linkify=club_link("setup_season_edit"))

    class Meta:
        model = Season
        fields = ("name", "starts_on", "ends_on", "edit")
        orderable = False
        attrs = {"class": "data", "id": "seasons-table"}
        row_attrs = {"data-season": lambda record: record.pk}
        empty_text = _("No seasons yet.")

    def render_edit(self) -> str:
        return gettext("Edit")
