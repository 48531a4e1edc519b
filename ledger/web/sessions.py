"""A log-out is a log-out: the session of a log-out made without a network, and of a log-in
left unused for its club's idle time, ends before the request that comes next is served.

Two ways a log-in outlived its user on a shared tablet:

- He logged out without a network (``static/ledger/tablet.js``): the tablet cleared his
  pages, but the server was not told. The script then sets the cookie ``tarokclub_logout``
  to his session's identifier (``ledger.web.tablet.session_key``, the page's ``<meta
  name="tarokclub-session">``) before anything else. A cookie rides on every request of the
  browser, whoever makes it: the next page loaded (before any script of it runs), an htmx
  poll, the service worker's fetch, a ``state.json`` or a CSV download typed in the address
  bar. The first request that carries it ends that session here, before its view runs, and
  the answer deletes the cookie. A cookie naming another session (already ended) is only
  deleted. The log-out the script posts when the network is back finds the session gone.
  (A log-out with a network sets the cookie too, before posting: should that post be lost,
  the next request ends the session all the same.)
- He left without logging out: a session unused for the idle time of his clubs (the
  shortest of them, ``Club.idle_minutes``, read at log-in into the session with the time of
  the log-in) ends at its next request.

When was a session last used, without a write a request: the session keeps the time of its
log-in, and the signed cookie ``tarokclub_seen`` the time of its last request, renewed by an
answer at most once a minute (a cookie, not a query). The cookie is signed for that session
only: it cannot be made or moved to another session, and a browser that drops it loses time
(its session ends sooner), never gains it. The time kept is at most a minute before the
session's real last request: a session ends after its idle time, counted from then.

A session ended here is answered as a visitor's request: a page of a club sends him to the
log-in (the idle one with a message saying why), a public page is shown as to anyone. A
request wanting JSON (``.json``, ``Accept: application/json``) gets ``401`` with a JSON body,
and an htmx request ``401`` with ``HX-Refresh``: its page reloads as the visitor's. Never a
page of the user, never a 500.
"""

from __future__ import annotations

import time

from django.conf import settings
from django.contrib import messages
from django.contrib.auth import SESSION_KEY as AUTH_KEY
from django.contrib.auth import logout
from django.contrib.auth.signals import user_logged_in
from django.core import signing
from django.dispatch import receiver
from django.http import HttpResponse, JsonResponse
from django.urls import reverse
from django.utils.crypto import constant_time_compare
from django.utils.translation import gettext

from ledger import selectors
from ledger.web import tablet

# The session's copy of its log-in's time (seconds since the epoch) and idle time (minutes).
SEEN_KEY = "tarokclub_seen"
IDLE_KEY = "tarokclub_idle"
# The cookie of the session's last request (signed), and the tablet's pending log-out.
SEEN_COOKIE = "tarokclub_seen"
LOGOUT_COOKIE = "tarokclub_logout"
SEEN_SALT = "tarokclub.sessions.seen"
# The last request's time is renewed at most this often (seconds).
RENEW_EVERY = 60

LOGGED_OUT = "logged_out"
IDLE = "idle"


def _signer() -> signing.Signer:
    return signing.Signer(salt=SEEN_SALT)


def seen_cookie(session_key: str, at: int) -> str:
    """Return the signed value of ``tarokclub_seen``: session ``session_key`` used at ``at``."""
    return _signer().sign(f"{tablet.session_tag(session_key)}.{at}")


def seen_by_cookie(request) -> int | None:
    """Return when the request's session was last used by the ``tarokclub_seen`` cookie, or
    None (no cookie, a forged one, or one of another session)."""
    value = request.COOKIES.get(SEEN_COOKIE)
    if not value:
        return None
    try:
        tag, _, at = _signer().unsign(value).rpartition(".")
    except signing.BadSignature:
        return None
    if not at.isdigit() or not constant_time_compare(
        tag, tablet.session_tag(request.session.session_key)
    ):
        return None
    return int(at)


def wants_json(request) -> bool:
    """Tell whether the request asks for JSON (a ``.json`` address or ``Accept``)."""
    accept = request.headers.get("Accept", "")
    return request.path.endswith(".json") or (
        "application/json" in accept and "text/html" not in accept
    )


@receiver(user_logged_in)
def _start_session_clock(sender, request, user, **kwargs):
    """Keep the log-in's time and its user's idle time in his new session (one query, at
    log-in only)."""
    if request is not None and hasattr(request, "session"):
        request.session[SEEN_KEY] = int(time.time())
        request.session[IDLE_KEY] = selectors.user_idle_minutes(user_id=user.pk)


class SessionEndMiddleware:
    """End the request's log-in session when the tablet logged out without a network or the
    session was unused for its idle time (see the module); keep its last use. After
    ``MessageMiddleware`` (the idle one says why on the log-in page), before any view."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        pending = LOGOUT_COOKIE in request.COOKIES
        ended, renew = None, None
        session = request.session
        if session.session_key and AUTH_KEY in session:
            ended, renew = self.check(request, pending)
        if ended is not None:
            minutes = session.get(IDLE_KEY)
            logout(request)
            if ended == IDLE:
                messages.info(
                    request,
                    gettext(
                        "You were logged out: your log-in was not used for {minutes} minutes. "
                        "Log in again."
                    ).format(minutes=minutes),
                )
        response = self.answer(request, ended) if ended is not None else None
        if response is None:
            response = self.get_response(request)
        if pending:
            response.delete_cookie(LOGOUT_COOKIE, path="/", samesite="Lax")
        if ended is not None and "Clear-Site-Data" not in response:
            response["Clear-Site-Data"] = tablet.CLEAR_CACHE
        if renew is not None and AUTH_KEY in request.session:
            self.renew(request, response, renew)
        elif request.COOKIES.get(SEEN_COOKIE) and AUTH_KEY not in request.session:
            response.delete_cookie(SEEN_COOKIE, path="/", samesite="Lax")
        return response

    def check(self, request, pending: bool) -> tuple[str | None, int | None]:
        """Return why the session ends now (None: it goes on), and the time to renew its
        ``tarokclub_seen`` cookie with (None: not yet)."""
        session = request.session
        if pending and constant_time_compare(
            request.COOKIES[LOGOUT_COOKIE], tablet.session_tag(session.session_key)
        ):
            return LOGGED_OUT, None
        now = int(time.time())
        if IDLE_KEY not in session or SEEN_KEY not in session:
            # A session from before sessions had an idle time: its clock starts now.
            session[IDLE_KEY] = selectors.user_idle_minutes(user_id=session[AUTH_KEY])
            session[SEEN_KEY] = now
        by_cookie = seen_by_cookie(request)
        last = max(int(session[SEEN_KEY]), by_cookie or 0)
        if now - last > int(session[IDLE_KEY]) * 60:
            return IDLE, None
        if now - last >= RENEW_EVERY or by_cookie is None:
            return None, now
        return None, None

    @staticmethod
    def answer(request, ended: str) -> HttpResponse | None:
        """Answer a request for JSON or an htmx request whose session just ended (a page is
        answered by its view, as to a visitor)."""
        if wants_json(request):
            return JsonResponse({"error": ended, "login": reverse(settings.LOGIN_URL)}, status=401)
        if request.headers.get("HX-Request") == "true":
            response = HttpResponse(status=401)
            response["HX-Refresh"] = "true"
            return response
        return None

    @staticmethod
    def renew(request, response, at: int) -> None:
        response.set_cookie(
            SEEN_COOKIE,
            seen_cookie(request.session.session_key, at),
            max_age=int(request.session.get(IDLE_KEY) or 0) * 60 + RENEW_EVERY,
            path="/",
            secure=settings.SESSION_COOKIE_SECURE,
            httponly=True,
            samesite="Lax",
        )
