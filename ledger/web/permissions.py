"""Who may do what in which club: every club-scoped view goes through ``club_role``.

Roles rank member < scorekeeper < treasurer < admin; a higher role may do what a lower one
may. A user who is not a member of the club gets 404 (another club's data is never shown,
not even its existence); a member whose role is too low gets 403. A superuser acts as a
club admin everywhere.
"""

from __future__ import annotations

from functools import wraps

from django.contrib.auth.views import redirect_to_login
from django.core.exceptions import PermissionDenied
from django.http import Http404
from django.shortcuts import get_object_or_404

from ledger.models import Club, Member

ROLE_RANK = {
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


def role_of(user, club: Club) -> str | None:
    """Return the user's role in ``club`` (admin for a superuser), or None."""
    if user.is_authenticated and user.is_superuser:
        return Member.Role.ADMIN
    member = membership(user, club)
    return member.role if member else None


def club_role(role: str = Member.Role.MEMBER):
    """Decorate a view taking ``club`` (a slug): resolve it and require ``role`` there.

    Sets ``request.club``, ``request.member`` (None for a superuser without a seat) and
    ``request.club_role``.
    """

    def decorator(view):
        @wraps(view)
        def wrapper(request, *args, club: str, **kwargs):
            if not request.user.is_authenticated:
                return redirect_to_login(request.get_full_path())
            club_obj = getattr(request, "url_club", None)  # ``ledger.web.locale`` found it
            if club_obj is None or club_obj.slug != club:
                club_obj = get_object_or_404(Club, slug=club)
            # One read of the membership: the role and ``request.member`` (every poll and
            # save comes through here).
            member = membership(request.user, club_obj)
            current: str | None = Member.Role.ADMIN if request.user.is_superuser else None
            if current is None and member is not None:
                current = member.role
            if current is None:
                raise Http404("No such club")
            if ROLE_RANK[current] < ROLE_RANK[role]:
                raise PermissionDenied
            request.club = club_obj
            request.member = member
            request.club_role = current
            return view(request, *args, **kwargs)

        wrapper.required_role = role
        return wrapper

    return decorator


def can(request, role: str) -> bool:
    """Return whether the current club role reaches ``role`` (for templates and views)."""
    current = getattr(request, "club_role", None)
    return current is not None and ROLE_RANK[current] >= ROLE_RANK[role]
