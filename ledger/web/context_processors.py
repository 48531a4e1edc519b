from ledger.models import Member
from ledger.web.permissions import ROLE_RANK
from ledger.web.tablet import session_key, user_key


def club(request):
    """Expose the current club and what the user may do there to every template."""
    current = getattr(request, "club_role", None)
    rank = ROLE_RANK[current] if current else -1
    return {
        "club": getattr(request, "club", None),
        "club_member": getattr(request, "member", None),
        "may_score": rank >= ROLE_RANK[Member.Role.SCOREKEEPER],
        "may_treasure": rank >= ROLE_RANK[Member.Role.TREASURER],
        "may_admin": rank >= ROLE_RANK[Member.Role.ADMIN],
    }


def tablet(request):
    """Whose page this is, for the tablet's caches and drafts (``ledger.web.tablet``)."""
    if getattr(request, "user", None) is None:
        return {"tablet_user": "", "tablet_session": ""}
    return {"tablet_user": user_key(request.user), "tablet_session": session_key(request)}
