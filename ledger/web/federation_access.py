"""Who may use a federation's pages: every view under ``/f/<federation>/`` goes through
``federation_officer``.

A federation's officers are a role of the federation, not of a club (``Federation.officers``).
A visitor is sent to the log-in; a logged-in user who is not one of its officers gets 404 (a
federation's officer pages never tell a stranger that it exists), as for a club's pages. A
superuser acts as an officer everywhere. The pages read in the reader's own language, else the
federation's (``ledger.web.locale``).
"""

from __future__ import annotations

from functools import wraps

from django.contrib.auth.views import redirect_to_login
from django.db.models import Exists, OuterRef
from django.http import Http404

from ledger.models import Federation
from ledger.web.locale import offered, own_language, use_language

# What a federation's views require, for the authorization matrix (``federation_role``).
OFFICER = "officer"


def officer_federation(slug: str, user) -> Federation | None:
    """Return the federation of ``slug`` if ``user`` is one of its officers (or a superuser),
    else None, in one query."""
    if not user.is_authenticated:
        return None
    found = Federation.objects.filter(slug=slug)
    if user.is_superuser:
        return found.first()
    officer = Federation.officers.through.objects.filter(federation=OuterRef("pk"), user=user.pk)
    return found.filter(Exists(officer)).first()


def federation_officer():
    """Decorate a view taking ``federation`` (a slug): resolve it and require its officer.

    Sets ``request.federation`` and reads the page in the reader's language, else the
    federation's."""

    def decorator(view):
        @wraps(view)
        def wrapper(request, *args, federation: str, **kwargs):
            if not request.user.is_authenticated:
                return redirect_to_login(request.get_full_path())
            found = officer_federation(federation, request.user)
            if found is None:
                raise Http404("No such federation")
            request.federation = found
            use_language(request, own_language(request) or offered(found.language) or "en")
            return view(request, *args, **kwargs)

        wrapper.federation_role = OFFICER  # type: ignore[attr-defined]
        return wrapper

    return decorator
