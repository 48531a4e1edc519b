"""The shared tablet: who the page belongs to, for the service worker's cache and the drafts.

A club's tablet is passed from hand to hand. Every page carries two identifiers (``<meta
name="tarokclub-user">`` and ``<meta name="tarokclub-session">``, from the context processor
``ledger.web.context_processors.tablet``):

- ``user_key``: one per log-in, the same in every session of that user and never the same for
  two users; an HMAC of the user's id under the site's secret, so it tells nothing about him.
  The service worker keeps the entry screens in a cache of that user (``X-Tarokclub-User`` on
  the entry screen says whose copy it is), and a draft on the tablet stores it as its author.
- ``session_key``: one per log-in session (an HMAC of the session's key, which Django changes
  at every log-in). A queued draft of an earlier session (its author logged out, or was logged
  out, since) is never sent by itself: its author confirms it first.

The hand views refuse a draft sent under another user, or from another session without the
author's confirmation (``draft_refusal``); the log-out view clears the tablet.

A phone or tablet that scores a tournament's table through the table's own link, with
nobody logged in, is that link's "user": ``owner_key`` and ``session_key`` are then made of
the tables it holds and of its session, so its entry screens and drafts are kept and sent
like a logged-in scorekeeper's, and never mixed with a member's.
"""

from __future__ import annotations

from django.utils.crypto import constant_time_compare, salted_hmac

USER_SALT = "tarokclub.tablet.user"
SESSION_SALT = "tarokclub.tablet.session"
USER_HEADER = "X-Tarokclub-User"
# The log-out clears what the browser keeps for the site: the HTTP cache, and the storage
# (localStorage with the drafts, the service worker's caches and the worker itself).
CLEAR_ALL = '"cache", "storage"'
# A log-out tapped without a network and sent when it is back: the tablet has already cleared
# its pages and drafts, keeping only the drafts its author must confirm after logging in again.
CLEAR_CACHE = '"cache"'


def user_key(user) -> str:
    """Return the tablet identifier of ``user`` ("" for a visitor who is not logged in)."""
    if user is None or not getattr(user, "is_authenticated", False):
        return ""
    return salted_hmac(USER_SALT, str(user.pk), algorithm="sha256").hexdigest()[:32]


def owner_key(request) -> str:
    """Return whose pages and drafts these are: the logged-in user's ``user_key``, else the
    table's link a device holds (``ledger.web.permissions``), else ""."""
    if request.user.is_authenticated:
        return user_key(request.user)
    grants = getattr(request, "table_grants", None)
    if not grants:
        return ""
    tables = ",".join(str(t) for t in sorted(grants))
    return salted_hmac(USER_SALT, f"table-link:{tables}", algorithm="sha256").hexdigest()[:32]


def session_key(request) -> str:
    """Return the identifier of the request's log-in session, or of the session holding a
    table's link ("" without one)."""
    key = getattr(getattr(request, "session", None), "session_key", None)
    if not key or not (request.user.is_authenticated or getattr(request, "table_grants", None)):
        return ""
    return session_tag(key)


def session_tag(key: str) -> str:
    """Return the identifier of the session of Django key ``key`` (an HMAC: it tells nothing
    of the key)."""
    return salted_hmac(SESSION_SALT, key, algorithm="sha256").hexdigest()[:32]


def draft_refusal(request) -> str | None:
    """Return why a hand sent from a draft on the tablet is refused, or ``None``.

    The entry script sends the draft's author and session with it (``draft_author``,
    ``draft_session``; a form without them is a plain form post and is not a draft):
    ``"foreign"`` when another user made the draft, ``"confirm"`` when its author made it in
    an earlier session and has not confirmed it (``draft_confirmed``).
    """
    author = request.POST.get("draft_author")
    if author is None:
        return None
    if not constant_time_compare(author, owner_key(request)):
        return "foreign"
    made_in = request.POST.get("draft_session", "")
    if request.POST.get("draft_confirmed") != "1" and not constant_time_compare(
        made_in, session_key(request)
    ):
        return "confirm"
    return None
