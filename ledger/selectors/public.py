"""Reads of the public results pages (``ledger.views.public``): nothing without the club's say.

A club's public pages exist only while it publishes its results (``Club.publish_results``);
otherwise, and for an open evening or another club's, these reads find nothing (None), the
same answer as for a club that does not exist (the views answer 404). They return names and
points; money only when the club also publishes it (``Club.publish_money``), and the views
never ask otherwise.
"""

from __future__ import annotations

import datetime
from collections import defaultdict
from dataclasses import dataclass, field
from decimal import Decimal

from django.db.models import Count, Exists, OuterRef
from django.db.models.functions import Coalesce

from ledger.models import Account, Club, Evening, EveningResult, Round, Season, Tournament


def published_club(*, slug: str, known: Club | None = None) -> Club | None:
    """Return the club ``slug`` if it publishes its results; None otherwise. ``known``: the
    club already read (the page's, ``request.url_club``), so it is not read twice."""
    if known is not None and known.slug == slug:
        return known if known.publish_results else None
    return Club.objects.filter(slug=slug, publish_results=True).first()


def published_tournaments(*, club: Club) -> list[Tournament]:
    """Return the club's tournaments with at least one published draw, newest first (a
    tournament whose draws are all unpublished shows nothing yet, a cancelled one nothing at
    all; one query)."""
    published = Round.objects.filter(tournament=OuterRef("pk")).exclude(status=Round.Status.DRAFTED)
    return list(
        Tournament.objects.filter(Exists(published), club=club)
        .exclude(status=Tournament.Status.CANCELLED)
        .order_by("-date", "-pk")
    )


def closed_evenings(*, season: Season) -> list[Evening]:
    """Return the season's closed evenings, newest first, with their number of tables."""
    return list(
        Evening.objects.filter(season=season, status=Evening.Status.CLOSED)
        .annotate(n_tables=Count("tables"))
        .order_by("-date", "-pk")
    )


def published_evening(*, club: Club, pk: int) -> Evening | None:
    """Return the club's closed evening ``pk`` (with its season); None for an open one or
    another club's."""
    return (
        Evening.objects.filter(club=club, pk=pk, status=Evening.Status.CLOSED)
        .select_related("season")
        .first()
    )


@dataclass
class PublicResult:
    """A member's result of a closed evening (the last closing's)."""

    rank: int
    name: str
    points: int
    money: Decimal


@dataclass
class PublicLine:
    """A member's points at one table of a closed evening."""

    name: str
    points: int


@dataclass
class PublicTable:
    """One table of a closed evening: its members, best first, and their points there."""

    number: int
    lines: list[PublicLine] = field(default_factory=list)


@dataclass
class PublicEvening:
    """A closed evening's results: the members' results, best first, and each table."""

    evening: Evening
    date: datetime.date
    results: list[PublicResult]
    tables: list[PublicTable]


def evening_results(*, evening: Evening) -> PublicEvening:
    """Return a closed evening's results (two queries): each active member's result of the
    latest closing, best first, and each table's members with their points there (after the
    split). A member who left the club (inactive) is not named on a public page.
    """
    rows = list(
        EveningResult.objects.filter(evening=evening, member__active=True).select_related("member")
    )
    last = max((r.closing for r in rows), default=0)  # a reopened evening closed again
    rows = [r for r in rows if r.closing == last]
    rows.sort(key=lambda r: (-r.points, r.member.name))
    results = [
        PublicResult(rank=i, name=r.member.name, points=r.points, money=r.money)
        for i, r in enumerate(rows, start=1)
    ]
    by_table: dict[int, list[PublicLine]] = defaultdict(list)
    accounts = (
        Account.objects.filter(
            table__evening=evening, kind=Account.Kind.MEMBER, member__active=True
        )
        .annotate(points=Coalesce("summary__balance", 0))
        .values_list("table__number", "member__name", "points")
        .order_by()
    )
    for number, name, points in accounts:
        by_table[number].append(PublicLine(name=name, points=points))
    tables = [
        PublicTable(number=n, lines=sorted(by_table[n], key=lambda line: (-line.points, line.name)))
        for n in sorted(by_table)
    ]
    return PublicEvening(evening=evening, date=evening.date, results=results, tables=tables)
