"""Reads of a member's own page ("Min side"): tonight, his season, its rank, his last hands.

Every function costs a fixed number of queries. Balances come from the account balance
summary (``AccountBalance``), written with the transfers it sums.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.db.models import Min, Sum

from ledger.models import (
    IDLE_MINUTES_DEFAULT,
    Account,
    AccountBalance,
    Evening,
    Member,
    Profile,
    Season,
    Seat,
)
from ledger.selectors.ranking import ranked
from ledger.selectors.season import member_hands


@dataclass
class Tonight:
    """The member's place at an open evening: his table and his balance there so far."""

    evening_id: int
    date: object
    table_id: int
    table_number: int
    table_open: bool
    balance: int


def tonight(*, member: Member) -> list[Tonight]:
    """Return the member's accounts at the latest open club evening he sits at, with their
    balances (one query). An earlier evening left open is no "this evening", and a
    tournament's day is no club evening: the page shows its round, table and seat."""
    rows = (
        Account.objects.filter(
            member=member,
            kind=Account.Kind.MEMBER,
            table__evening__status=Evening.Status.OPEN,
            table__evening__kind=Evening.Kind.CLUB,
        )
        .select_related("table__evening", "summary")
        .order_by("-table__evening__date", "-table__evening_id", "table__number")
    )
    result: list[Tonight] = []
    for account in rows:
        if result and account.table.evening_id != result[0].evening_id:
            break  # an earlier evening (the latest date comes first)
        summary = getattr(account, "summary", None)
        result.append(
            Tonight(
                evening_id=account.table.evening_id,
                date=account.table.evening.date,
                table_id=account.table_id,
                table_number=account.table.number,
                table_open=account.table.status == "open",
                balance=summary.balance if summary else 0,
            )
        )
    return result


def season_rank(*, season: Season, member: Member) -> tuple[int | None, int]:
    """Return the member's rank in the season's standings and the number ranked (two queries).

    As in ``standings_for_season``: everyone seated in the season, by points (best first),
    equal points sharing a rank (``selectors.ranking``); points are the members' account
    balances summed over the season.
    """
    names = dict(
        Seat.objects.filter(table__evening__season=season)
        .values_list("member_id", "member__name")
        .distinct()
        .order_by()
    )
    points = dict.fromkeys(names, 0)
    for member_id, total in (
        AccountBalance.objects.filter(
            account__table__evening__season=season, account__kind=Account.Kind.MEMBER
        )
        .values("account__member_id")
        .annotate(total=Sum("balance"))
        .order_by()
        .values_list("account__member_id", "total")
    ):
        if member_id in points:
            points[member_id] += total
    ranks: dict[int, int] = {}
    ranked(
        points,
        points=lambda pk: points[pk],
        name=lambda pk: names[pk],
        set_rank=lambda pk, rank: ranks.__setitem__(pk, rank),
    )
    return ranks.get(member.pk), len(ranks)


def last_hands(*, season: Season, member: Member, count: int = 10) -> list:
    """Return the member's last ``count`` hands of the season, newest first (one query)."""
    return list(
        member_hands(season=season, member=member).order_by(
            "-evening_date", "-table_number", "-hand_number"
        )[:count]
    )


def user_idle_minutes(*, user_id) -> int:
    """Return the minutes after which a log-in of the user ends unused: the shortest idle time
    of the clubs where he is an active member (a tablet of any of them may be the one he
    leaves), else the default (``IDLE_MINUTES_DEFAULT``; a superuser without a club). One
    query."""
    shortest = Member.objects.filter(user_id=user_id, active=True).aggregate(
        shortest=Min("club__idle_minutes")
    )["shortest"]
    return shortest or IDLE_MINUTES_DEFAULT


def user_languages(*, user) -> list[str]:
    """Return the languages a user reads, best first: his own choice (his profile's), then the
    languages of the clubs where he is an active member (oldest membership first). Two
    queries; the caller passes over one the site no longer offers."""
    own = Profile.objects.filter(user=user).values_list("language", flat=True).first()
    clubs = Member.objects.filter(user=user, active=True).order_by("pk")
    return [code for code in [own, *clubs.values_list("club__language", flat=True)] if code]
