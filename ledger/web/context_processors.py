import tarokclub
from ledger.models import Member
from ledger.web.permissions import ROLE_RANK
from ledger.web.tablet import owner_key, session_key


def club(request):
    """Expose the current club and what the user may do there to every template."""
    current = getattr(request, "club_role", None)
    rank = ROLE_RANK[current] if current else -1
    # A device scoring one table through its own link (``ledger.web.permissions``).
    table_link = getattr(request, "table_grants", None) is not None
    return {
        "club": getattr(request, "club", None),
        "club_member": getattr(request, "member", None),
        "table_link": table_link,
        "may_score": table_link or rank >= ROLE_RANK[Member.Role.SCOREKEEPER],
        "may_treasure": rank >= ROLE_RANK[Member.Role.TREASURER],
        "may_admin": rank >= ROLE_RANK[Member.Role.ADMIN],
    }


def version(request):
    """The release (``tarokclub.__version__``), for the footer."""
    return {"tarokclub_version": tarokclub.__version__}


def tablet(request):
    """Whose page this is, for the tablet's caches and drafts (``ledger.web.tablet``)."""
    if getattr(request, "user", None) is None:
        return {"tablet_user": "", "tablet_session": ""}
    return {"tablet_user": owner_key(request), "tablet_session": session_key(request)}
