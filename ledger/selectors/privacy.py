"""A member's own data (the GDPR's right of access): everything the site holds about him.

``member_data`` gathers it for the member's own download (JSON and a readable PDF, from his
page): his log-in and profile, every membership of his log-in (each club's member row and
federation player), his tables with their balances in points and money, the hands he sat in
(his role and counts), his evenings' results, his tournament entries with their round
results, and the log entries he wrote or that name him. A fixed number of queries whatever
his history (eleven with a log-in).
"""

from __future__ import annotations

import datetime
from decimal import Decimal

from django.db.models import Q

from ledger.models import (
    Account,
    ClubLog,
    Entry,
    EveningLog,
    EveningResult,
    FederationLog,
    HandRevision,
    Member,
    PostingSeat,
    Profile,
    RoundTable,
    Seat,
)


def _when(value) -> str | None:
    if isinstance(value, datetime.datetime | datetime.date):
        return value.isoformat()
    return None


def member_data(*, member: Member) -> dict:
    """Return everything the site holds about ``member`` and his log-in, JSON-ready (dates as
    ISO text, money as decimal text): sections ``user``, ``profile``, ``memberships``,
    ``tables``, ``hands``, ``results``, ``tournaments``, ``log``."""
    user = member.user
    memberships = (
        list(
            Member.objects.filter(user=user)
            .select_related("club", "player__federation", "player__home_club")
            .order_by("pk")
        )
        if user is not None
        else [member]
    )
    ids = [m.pk for m in memberships]
    data: dict = {
        "user": None,
        "profile": None,
        "memberships": [
            {
                "member": m.pk,
                "club": m.club.name,
                "name": m.name,
                "role": m.role,
                "active": m.active,
                "player": None
                if m.player is None
                else {
                    "player": m.player_id,
                    "name": m.player.name,
                    "federation": m.player.federation.name if m.player.federation else None,
                    "licence": m.player.licence,
                    "home_club": m.player.home_club.name
                    if m.player.home_club
                    else m.player.club_name,
                },
            }
            for m in memberships
        ],
    }
    if user is not None:
        data["user"] = {
            "username": user.get_username(),
            "email": user.email,
            "first_name": user.first_name,
            "last_name": user.last_name,
            "date_joined": _when(user.date_joined),
            "last_login": _when(user.last_login),
        }
        profile = Profile.objects.filter(user=user).first()
        data["profile"] = {"language": profile.language} if profile else {}
    accounts = (
        Account.objects.filter(member_id__in=ids, kind=Account.Kind.MEMBER)
        .select_related("table__evening__club", "summary")
        .order_by("table__evening__date", "table_id")
    )
    data["tables"] = []
    for account in accounts:
        evening = account.table.evening
        summary = getattr(account, "summary", None)
        points = summary.balance if summary else 0
        data["tables"].append(
            {
                "club": evening.club.name,
                "date": _when(evening.date),
                "kind": evening.kind,
                "table": account.table.number,
                "game": account.table.game,
                "name_at_the_table": account.code,
                "points": points,
                "money": str((Decimal(points) * evening.price_per_point).quantize(Decimal("0.01"))),
                "currency": evening.club.currency,
            }
        )
    seats = (
        PostingSeat.objects.live()
        .filter(account__member_id__in=ids)
        .select_related("posting__hand", "account__table__evening__club")
        .order_by("account__table__evening__date", "account__table_id", "posting__hand__number")
    )
    data["hands"] = [
        {
            "club": row.account.table.evening.club.name,
            "date": _when(row.account.table.evening.date),
            "table": row.account.table.number,
            "game": row.account.table.game,
            "hand": row.posting.hand.number if row.posting.hand else None,
            "role": row.role,
            "played": row.played,
            "counts": row.counts,
        }
        for row in seats
    ]
    data["results"] = [
        {
            "club": r.evening.club.name,
            "date": _when(r.evening.date),
            "points": r.points,
            "money": str(r.money),
            "currency": r.evening.club.currency,
            "closing": r.closing,
        }
        for r in EveningResult.objects.filter(member_id__in=ids)
        .select_related("evening__club")
        .order_by("evening__date", "pk")
    ]
    entries = list(
        Entry.objects.filter(member_id__in=ids)
        .select_related("tournament__club")
        .order_by("tournament__date", "pk")
    )
    rounds: dict[int, list] = {}
    for number, tournament_id, results in (
        RoundTable.objects.filter(round__tournament__entries__member_id__in=ids)
        .exclude(results={})
        .order_by("round__number", "number")
        .values_list("round__number", "round__tournament_id", "results")
    ):
        rounds.setdefault(tournament_id, []).append((number, results))
    data["tournaments"] = [
        {
            "club": e.tournament.club.name,
            "tournament": e.tournament.name,
            "date": _when(e.tournament.date),
            "name": e.name,
            "club_name": e.club_name,
            "guest": e.guest,
            "ladder_rank": e.ladder_rank,
            "rounds": [
                {"round": number, **results[e.code]}
                for number, results in rounds.get(e.tournament_id, [])
                if e.code in results
            ],
        }
        for e in entries
    ]
    players = [m.player_id for m in memberships if m.player_id]
    data["log"] = _log(user, ids, players)
    return data


def _log(user, ids: list[int], players: list[int]) -> list[dict]:
    """The log entries he wrote (evening log, hand revisions, club and federation log) or that
    name him (the club log's entries about his member rows, the federation log's about his
    player records)."""
    rows: list[dict] = []
    about = Q(member_id__in=ids) | Q(details__member__in=ids)
    for entry in ClubLog.objects.filter(Q(by=user) | about if user else about).select_related(
        "club"
    ):
        rows.append(
            {"log": "club", "club": entry.club.name, "action": entry.action, "at": _when(entry.at)}
        )
    named = (
        Q(details__player__in=players)
        | Q(details__kept__id__in=players)
        | Q(details__merged__id__in=players)
    )
    for federation_entry in FederationLog.objects.filter(
        Q(by=user) | named if user else named
    ).select_related("federation"):
        rows.append(
            {
                "log": "federation",
                "federation": (
                    federation_entry.federation.name if federation_entry.federation else None
                ),
                "action": federation_entry.action,
                "details": federation_entry.details,
                "at": _when(federation_entry.at),
            }
        )
    if user is None:
        return rows
    for evening_entry in EveningLog.objects.filter(by=user).select_related("evening__club"):
        rows.append(
            {
                "log": "evening",
                "club": evening_entry.evening.club.name,
                "date": _when(evening_entry.evening.date),
                "action": evening_entry.action,
                "reason": evening_entry.reason,
                "at": _when(evening_entry.at),
            }
        )
    for revision in HandRevision.objects.filter(by=user).select_related(
        "hand__table__evening__club"
    ):
        table = revision.hand.table
        rows.append(
            {
                "log": "hand",
                "club": table.evening.club.name,
                "date": _when(table.evening.date),
                "table": table.number,
                "hand": revision.hand.number,
                "action": revision.action,
                "reason": revision.reason,
                "at": _when(revision.at),
            }
        )
    return sorted(rows, key=lambda row: row["at"] or "")


def erased_seat_names(*, season) -> dict[tuple[int, str], str]:
    """Return (table id, name as seated) -> label of every erased member seated in ``season``
    (one query): his hand records keep the name he had when seated, screens show the label."""
    return {
        (table_id, code): label
        for table_id, code, label in Seat.objects.filter(
            table__evening__season=season, member__erased_at__isnull=False
        ).values_list("table_id", "name", "member__name")
    }


def erased_names(*, table_id: int) -> dict[str, str]:
    """Return name as seated -> label of every erased member seated at the table (one
    query)."""
    return dict(
        Seat.objects.filter(table_id=table_id, member__erased_at__isnull=False).values_list(
            "name", "member__name"
        )
    )


def shown(value, names: dict[str, str]):
    """Return ``value`` (a hand record or outcome: dicts, lists, strings) with every string
    that is a key of ``names`` (an erased member's name as seated) replaced by its label."""
    if not names:
        return value
    if isinstance(value, str):
        return names.get(value, value)
    if isinstance(value, dict):
        return {shown(k, names): shown(v, names) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return type(value)(shown(v, names) for v in value)
    return value
