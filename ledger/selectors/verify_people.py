"""verify_ledger's check of the clubs' people: each member's seal (log-in, role, name, active),
the people log's chain, and each club's people head (``ledger.services.people``)."""

from __future__ import annotations

from collections import defaultdict

from django.contrib.auth import get_user_model

from ledger.models import Club, ClubLog, Member, Seal
from ledger.services import people, seals

Kind = Seal.Kind


def verify_people(problems: list[str], club=None) -> None:
    """Report every member whose log-in, role, name or active flag differs from his seal (or
    who has none), a member sealed and gone, a people log entry changed, inserted or removed,
    and a club whose members or log differ from its people head."""
    clubs = Club.objects.all() if club is None else Club.objects.filter(pk=club.pk)
    club_ids = dict(clubs.values_list("pk", "slug"))
    stored: dict[str, dict[int, dict[int, str]]] = defaultdict(lambda: defaultdict(dict))
    for kind, scope, object_id, digest in Seal.objects.filter(
        kind__in=[Kind.MEMBER, Kind.CLUB_LOG, Kind.PEOPLE], scope__in=list(club_ids)
    ).values_list("kind", "scope", "object_id", "digest"):
        stored[kind][scope][object_id] = digest
    members: dict[int, list] = defaultdict(list)
    for row in (
        Member.objects.filter(club_id__in=list(club_ids))
        .order_by("pk")
        .values_list(*people.MEMBER_FIELDS)
    ):
        members[row[1]].append(row)
    logins = dict(
        get_user_model()
        .objects.filter(pk__in={row[3] for rows in members.values() for row in rows} - {None})
        .values_list("pk", "username")
    )
    logs: dict[int, list] = defaultdict(list)
    for row in (
        ClubLog.objects.filter(club_id__in=list(club_ids))
        .order_by("pk")
        .values_list(*people.LOG_FIELDS)
    ):
        logs[row[1]].append(row)
    for club_id, slug in sorted(club_ids.items()):
        label = f"club {slug}"
        sealed = stored[Kind.MEMBER][club_id]
        for row in members[club_id]:
            pk, _club, name, user_id, role, active = row
            have = sealed.get(pk)
            where = (
                f"{label}: member {name} (role {role}, log-in "
                f"{logins.get(user_id, '–')}, {'active' if active else 'not active'})"
            )
            if have is None:
                problems.append(f"{where} has no seal")
            elif have != people.member_digest(row):
                problems.append(
                    f"{where} differs from his seal: his log-in, role, name or active flag "
                    "changed outside the ledger"
                )
        for object_id in sorted(set(sealed) - {row[0] for row in members[club_id]}):
            problems.append(f"{label}: member {object_id} was sealed and is missing")
        chained = stored[Kind.CLUB_LOG][club_id]
        previous = ""
        for row in logs[club_id]:
            have = chained.get(row[0])
            want = seals.digest(Kind.CLUB_LOG, list(row), previous)
            where = f"{label}: people log entry {row[0]} ({row[4]} {row[3] or ''})"
            if have is None:
                problems.append(f"{where} has no seal")
            elif have != want:
                problems.append(
                    f"{where} differs from its seal, or does not follow the one sealed before "
                    "it (changed, inserted or removed outside the ledger)"
                )
            previous = have or want
        for object_id in sorted(set(chained) - {row[0] for row in logs[club_id]}):
            problems.append(f"{label}: people log entry {object_id} was sealed and is missing")
        head = stored[Kind.PEOPLE][club_id].get(club_id)
        if head is None:
            if members[club_id] or logs[club_id]:
                problems.append(f"{label}: the club's people have no seal")
        elif head != seals.digest(Kind.PEOPLE, people.people_content(club_id)):
            problems.append(
                f"{label}: the club's members or people log differ from their seal: a member "
                "added or removed, or the log cut short, outside the ledger"
            )
