"""A club's people: its members' log-ins and roles sealed, every change to them logged.

Who may write to a club's ledger is its members' rows: each member's log-in (``user``), role and
active flag. So each member is sealed (a ``Seal`` of kind member over ``MEMBER_FIELDS``), and
every change to the club's people is a ``ClubLog`` entry (who, when, which member, what, the
value before and after), sealed chained within the club as an evening's log is. The club's
**people head** (a seal of kind people) covers the ids of its members and the log's length and
last seal, so a member removed with his seal, or the log cut short, shows too.

Every service that adds a member or changes a log-in, a role, the active flag or a name, makes,
uses or revokes an invitation, or resets a password, calls ``record`` in its own transaction:
the entries are written and sealed, the members touched resealed, and the club's head resealed,
with the club's row locked while its log grows. Never a password or a token in an entry.
``seal_clubs`` reseals the people of clubs loaded from a trusted source (``seals.seal_all``).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from types import SimpleNamespace

from django.db.models import Count, Max

from ledger import models as current
from ledger.services import seals

Kind = current.Seal.Kind
MEMBER_FIELDS = ("pk", "club_id", "name", "user_id", "role", "active")
LOG_FIELDS = ("pk", "club_id", "member_id", "member_name", "action", "details", "by_id", "at")
NAMES = ("Club", "ClubLog", "Member", "Seal")


def models_of(apps=None) -> SimpleNamespace:
    """Return the models this module reads: the app's, or a migration's historical ones."""
    if apps is None:
        return SimpleNamespace(**{name: getattr(current, name) for name in NAMES})
    return SimpleNamespace(**{name: apps.get_model("ledger", name) for name in NAMES})


def member_digest(row) -> str:
    """The seal of a member's ``MEMBER_FIELDS`` row."""
    return seals.digest(Kind.MEMBER, list(row))


def people_content(club_id: int, m=None) -> list:
    """What a club's people head covers (three queries): its members' ids, and its log's
    length, last entry and that entry's seal."""
    m = m or models_of()
    members = list(m.Member.objects.filter(club_id=club_id).order_by("pk").values_list("pk"))
    log = m.ClubLog.objects.filter(club_id=club_id).aggregate(n=Count("pk"), last=Max("pk"))
    last = (
        m.Seal.objects.filter(kind=Kind.CLUB_LOG, object_id=log["last"])
        .values_list("digest", flat=True)
        .first()
    )
    return [club_id, [pk for (pk,) in members], [log["n"], log["last"], last or ""]]


def _seal_members(member_ids, m) -> None:
    rows = [
        m.Seal(kind=Kind.MEMBER, object_id=row[0], scope=row[1], digest=member_digest(row))
        for row in m.Member.objects.filter(pk__in=sorted(set(member_ids))).values_list(
            *MEMBER_FIELDS
        )
    ]
    if rows:
        seals._upsert(m, rows)


def _seal_heads(club_ids, m) -> None:
    rows = [
        m.Seal(
            kind=Kind.PEOPLE,
            object_id=club_id,
            scope=club_id,
            digest=seals.digest(Kind.PEOPLE, people_content(club_id, m)),
        )
        for club_id in sorted(set(club_ids))
    ]
    if rows:
        seals._upsert(m, rows)


@dataclass
class Entry:
    """One change to log: ``action`` (a key of ``ClubLog.ACTION_LABELS``) of ``member``, with
    the value before (``old``) and after (``new``) where it has them."""

    action: str
    member: current.Member | None = None
    old: object = None
    new: object = None
    extra: dict = field(default_factory=dict)

    def details(self) -> dict:
        data = dict(self.extra)
        if self.old is not None:
            data["old"] = self.old
        if self.new is not None:
            data["new"] = self.new
        return data


def record(club_id: int, entries, *, by=None, members=()) -> list:
    """Log ``entries`` (``Entry``) of the club, by the user ``by`` (None: a command), each
    sealed chained to the entry before it; reseal ``members`` (ids or rows; the entries' own
    members too) and the club's people head. Call it inside the service's transaction, after
    the change. Returns the ``ClubLog`` rows written."""
    list(current.Club.objects.select_for_update(of=("self",)).filter(pk=club_id))
    previous = (
        current.Seal.objects.filter(kind=Kind.CLUB_LOG, scope=club_id)
        .order_by("-object_id")
        .values_list("digest", flat=True)
        .first()
        or ""
    )
    by_id = getattr(by, "pk", by)
    written = []
    touched = {getattr(m, "pk", m) for m in members}
    for entry in entries:
        row = current.ClubLog.objects.create(
            club_id=club_id,
            member=entry.member,
            member_name=entry.member.name if entry.member is not None else "",
            action=entry.action,
            details=entry.details(),
            by_id=by_id,
        )
        previous = seals.digest(
            Kind.CLUB_LOG, [getattr(row, name) for name in LOG_FIELDS], previous
        )
        current.Seal.objects.create(
            kind=Kind.CLUB_LOG, object_id=row.pk, scope=club_id, digest=previous
        )
        written.append(row)
        if entry.member is not None:
            touched.add(entry.member.pk)
    m = models_of()
    _seal_members(touched, m)
    _seal_heads([club_id], m)
    return written


def remove_member(member, *, by=None) -> None:
    """Remove a member who never played nor was entered (a guest's row made for a tournament
    entry removed): logged, his row and his seal deleted, his club's head resealed."""
    club_id = member.club_id
    record(club_id, [Entry("removed", member, old={"name": member.name})], by=by)
    current.Seal.objects.filter(kind=Kind.MEMBER, object_id=member.pk).delete()
    member.delete()
    _seal_heads([club_id], models_of())


def seal_clubs(club_ids, m=None) -> None:
    """Seal the people of the clubs afresh (every member, the log's chain, the head) from a
    trusted source (``seals.seal_all``, a test's set-up)."""
    m = m or models_of()
    club_ids = sorted(set(club_ids))
    m.Seal.objects.filter(kind__in=[Kind.MEMBER, Kind.CLUB_LOG], scope__in=club_ids).delete()
    _seal_members(m.Member.objects.filter(club_id__in=club_ids).values_list("pk", flat=True), m)
    rows: list = []
    chain: dict[int, str] = {}
    for row in (
        m.ClubLog.objects.filter(club_id__in=club_ids)
        .order_by("club_id", "pk")
        .values_list(*LOG_FIELDS)
    ):
        value = seals.digest(Kind.CLUB_LOG, list(row), chain.get(row[1], ""))
        chain[row[1]] = value
        rows.append(m.Seal(kind=Kind.CLUB_LOG, object_id=row[0], scope=row[1], digest=value))
    m.Seal.objects.bulk_create(rows, batch_size=seals.BATCH)
    _seal_heads(club_ids, m)
