"""django-tables2 tables of the club set-up screens."""

from __future__ import annotations

import django_tables2 as tables
from django.utils.translation import gettext_lazy as _

from ledger.models import Member


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
