"""The what-if table: each member's points, money and rank as played and under another rate
card, with the differences; exports to CSV and XLSX (the plain figures)."""

from __future__ import annotations

import django_tables2 as tables
from django.utils.translation import gettext_lazy as _

from ledger.tables.columns import NUM_ATTRS, CountColumn, MoneyColumn, PointsColumn


class WhatIfTable(tables.Table):
    """One row per member, in the order of the ranking as played."""

    name = tables.Column(verbose_name=_("Member"))
    points_played = PointsColumn(verbose_name=_("Points as played"))
    points_whatif = PointsColumn(verbose_name=_("Points what if"))
    points_difference = PointsColumn(verbose_name=_("Points difference"), orderable=False)
    money_played = MoneyColumn(verbose_name=_("Money as played"))
    money_whatif = MoneyColumn(verbose_name=_("Money what if"))
    money_difference = MoneyColumn(verbose_name=_("Money difference"), orderable=False)
    rank_played = CountColumn(verbose_name=_("Rank as played"))
    rank_whatif = CountColumn(verbose_name=_("Rank what if"))
    rank_difference = PointsColumn(verbose_name=_("Places gained"), orderable=False)

    class Meta:
        attrs = {"class": "standings whatif", "id": "whatif"}
        row_attrs = {"data-member": lambda record: record.name}
        empty_text = _("No member played.")


class TournamentWhatIfTable(tables.Table):
    """One row per entry, in the order of the tournament's ranking as played."""

    name = tables.Column(verbose_name=_("Player"))
    points_played = tables.Column(verbose_name=_("Points as played"), attrs=NUM_ATTRS)
    points_whatif = tables.Column(verbose_name=_("Points what if"), attrs=NUM_ATTRS)
    rank_played = CountColumn(verbose_name=_("Rank as played"))
    rank_whatif = CountColumn(verbose_name=_("Rank what if"))
    rank_difference = PointsColumn(verbose_name=_("Places gained"), orderable=False)

    class Meta:
        attrs = {"class": "standings whatif", "id": "whatif"}
        row_attrs = {"data-member": lambda record: record.name}
        empty_text = _("No member played.")
