"""Who may do what in which club: every club-scoped view goes through ``club_role``.

Roles rank member < scorekeeper < treasurer < admin; a higher role may do what a lower one
may. A user who is not a member of the club gets 404 (another club's data is never shown,
not even its existence); a member whose role is too low gets 403. A superuser acts as a
club admin everywhere.

A tournament's round table has a link of its own for one phone or tablet at the table
(``ledger.views.tournaments.table_link``): the device that opened it keeps a secret in its
session, and the round table a digest of it. Views marked ``table_link=True`` (the table's
screen and its hands) also let such a device in, logged in or not, for that one table while
its round is published or being played: ``request.table_grants`` holds the ids of the
tables it may score, and the views look their table up among those only. Everything else
of the club stays closed to it.
"""

from __future__ import annotations

from functools import cache, wraps

from django.contrib.auth.views import redirect_to_login
from django.core.exceptions import PermissionDenied
from django.db import connection
from django.db.models import Field
from django.http import Http404, HttpRequest
from django.shortcuts import get_object_or_404
from django.utils.crypto import constant_time_compare

from ledger.models import Club, Member, RoundTable
from ledger.services.tournaments import LINK_ROUNDS, device_digest, link_author

# The session's table links: {str(round table id): the device's secret}.
TABLE_LINKS = "table_links"

ROLE_RANK: dict[str, int] = {
    Member.Role.MEMBER: 0,
    Member.Role.SCOREKEEPER: 1,
    Member.Role.TREASURER: 2,
    Member.Role.ADMIN: 3,
}


def membership(user, club: Club) -> Member | None:
    """Return the user's Member row in ``club``, or None."""
    if not user.is_authenticated:
        return None
    return Member.objects.filter(club=club, user=user, active=True).first()


@cache
def _club_and_member_sql() -> str:
    """The club of a slug (``%s`` last) with the user's active Member row in it (``%s`` his
    id, ``%s`` true), as one LEFT JOIN: at most one row, a user having one row per club. It
    is written here once, not composed per request: the ORM's compiling of the same query (the
    member's columns as subqueries of the club's row) cost every club page 1-2 ms."""
    q = connection.ops.quote_name

    def column(model, name: str) -> str:
        field = model._meta.get_field(name)
        return q(field.column if isinstance(field, Field) and field.column else name)

    mine = ", ".join(
        f"m.{column(Member, name)} AS my_{alias}"
        for name, alias in (("id", "pk"), ("name", "name"), ("role", "role"), ("player", "player"))
    )
    # Only the models' own table and column names are written in: the values are parameters.
    return (
        f"SELECT c.*, {mine} FROM {q(Club._meta.db_table)} c "  # noqa: S608
        f"LEFT JOIN {q(Member._meta.db_table)} m ON m.{column(Member, 'club')} = "
        f"c.{column(Club, 'id')} AND m.{column(Member, 'user')} = %s "
        f"AND m.{column(Member, 'active')} = %s WHERE c.{column(Club, 'slug')} = %s"
    )


def club_and_membership(slug: str, user) -> tuple[Club | None, Member | None]:
    """Return the club of ``slug`` (None: no such club) and the user's active Member row in
    it (None: none, or nobody logged in), in one query (``_club_and_member_sql``)."""
    if not user.is_authenticated:
        return Club.objects.filter(slug=slug).first(), None
    club = next(iter(Club.objects.raw(_club_and_member_sql(), [user.pk, True, slug])), None)
    mine_pk = getattr(club, "my_pk", None)
    if club is None or mine_pk is None:
        return club, None
    member = Member.from_db(
        club._state.db,
        ["id", "club_id", "name", "user_id", "role", "active", "player_id"],
        [
            mine_pk,
            club.pk,
            getattr(club, "my_name", ""),
            user.pk,
            getattr(club, "my_role", ""),
            True,
            getattr(club, "my_player", None),
        ],
    )
    member.club = club
    member.user = user
    return club, member


def role_of(user, club: Club) -> str | None:
    """Return the user's role in ``club`` (admin for a superuser), or None."""
    if user.is_authenticated and user.is_superuser:
        return Member.Role.ADMIN
    member = membership(user, club)
    return member.role if member else None


def link_grants(request, club: Club) -> frozenset[int]:
    """Return the ids of ``club``'s tables this device holds the link of (its round
    published or being played), from the secrets in its session."""
    links = request.session.get(TABLE_LINKS) or {}
    ids = [int(k) for k in links if str(k).isdigit()]
    if not ids:
        return frozenset()
    rows = RoundTable.objects.filter(
        pk__in=ids,
        round__tournament__club=club,
        round__status__in=LINK_ROUNDS,
        table__isnull=False,
    ).values_list("pk", "device", "table_id")
    return frozenset(
        table_id
        for pk, device, table_id in rows
        if device and constant_time_compare(device, device_digest(str(links[str(pk)])))
    )


def actor(request, table=None):
    """Return the user acting: the logged-in user, else, on a device holding ``table``'s own
    link, the log-in that link writes as (the table signs what its phone writes), else None."""
    if request.user.is_authenticated:
        return request.user
    grants = getattr(request, "table_grants", None)
    if table is not None and grants and table.pk in grants:
        return link_author(table.pk)
    return None


class ClubRequest(HttpRequest):
    """A request through ``club_role``, with what it sets: for the type checker (the views
    annotate their ``request`` with it where they read these); never instantiated."""

    club: Club
    member: Member | None  # None for a superuser without a seat, or a table's link
    club_role: str | None  # None for a table's link without a role
    table_grants: frozenset[int] | None  # the tables a table's link may score, else None


def club_role(role: str = Member.Role.MEMBER, *, table_link: bool = False):
    """Decorate a view taking ``club`` (a slug): resolve it and require ``role`` there.

    Sets ``request.club``, ``request.member`` (None for a superuser without a seat) and
    ``request.club_role``. With ``table_link``, a device holding a table's own link may use
    the view for that table without the role (``request.table_grants``, see above); the
    view must look its table up through ``granted`` tables only.
    """

    def decorator(view):
        @wraps(view)
        def wrapper(request, *args, club: str, **kwargs):
            linked = table_link and bool(request.session.get(TABLE_LINKS))
            if not request.user.is_authenticated and not linked:
                return redirect_to_login(request.get_full_path())
            club_obj = getattr(request, "url_club", None)  # ``ledger.web.locale`` found it
            # ... with the membership, in the same query (every poll and save comes through
            # here): the role and ``request.member``.
            found = getattr(request, "url_membership", None)
            if club_obj is None or club_obj.slug != club:
                club_obj = get_object_or_404(Club, slug=club)
                found = None
            if found is not None and found[0] == request.user.pk:
                member = found[1]
            else:
                member = membership(request.user, club_obj)
            current: str | None = Member.Role.ADMIN if request.user.is_superuser else None
            if current is None and member is not None:
                current = member.role
            request.table_grants = None
            if current is None or ROLE_RANK[current] < ROLE_RANK[role]:
                grants = link_grants(request, club_obj) if linked else frozenset()
                if not grants:
                    if not request.user.is_authenticated:
                        return redirect_to_login(request.get_full_path())
                    if current is None:
                        raise Http404("No such club")
                    raise PermissionDenied
                request.table_grants = grants
            request.club = club_obj
            request.member = member
            request.club_role = current
            return view(request, *args, **kwargs)

        wrapper.required_role = role  # type: ignore[attr-defined]
        wrapper.table_link = table_link  # type: ignore[attr-defined]
        return wrapper

    return decorator


def granted(request, queryset, field: str = "pk"):
    """Return ``queryset`` limited to the tables a table's link lets this request score
    (``field`` names the table's id), or whole when the request came in by its role."""
    grants = getattr(request, "table_grants", None)
    if grants is None:
        return queryset
    return queryset.filter(**{f"{field}__in": grants})


def can(request, role: str) -> bool:
    """Return whether the current club role reaches ``role`` (for templates and views)."""
    current = getattr(request, "club_role", None)
    return current is not None and ROLE_RANK[current] >= ROLE_RANK[role]
