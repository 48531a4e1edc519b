"""Who reads which language, and in which time zone.

The order of preference, first that applies:

1. the reader's own choice: a logged-in member's ``Profile.language`` (set from the language
   switch; kept in his session from the log-in on, so reading it costs no query), or for a
   visitor the language cookie the switch sets;
2. on a club's pages (every URL with a ``club`` slug: ``/c/<club>/...``, the wall, the public
   pages ``/p/<club>/``) the club's language;
3. the browser's ``Accept-Language``;
4. Danish (``settings.LANGUAGE_CODE``).

A language the site no longer offers (not in ``settings.LANGUAGES``) is passed over silently.
``ClubLanguageMiddleware`` runs after Django's ``LocaleMiddleware`` (which decides 3 and 4)
and replaces its decision; on a club's pages it also activates the club's time zone. It looks
the club up once and leaves it on the request (``request.url_club``) for
``ledger.web.permissions.club_role`` and the public pages, which would otherwise look it up
themselves: the page costs no extra query. On a view of ``club_role`` it reads the reader's
membership in the same query (``ledger.web.permissions.club_and_membership``), so the club
and the membership cost one query between them. A 404 or 403 of a club's page is answered
without the club's language or time zone, so neither tells a stranger that the club exists.
The club's currency is activated with its time zone: its money is written in it
(``ledger.tables.columns.money_text``).
"""

from __future__ import annotations

import zoneinfo

from django.conf import settings
from django.contrib.auth.signals import user_logged_in
from django.core.exceptions import PermissionDenied
from django.dispatch import receiver
from django.http import Http404
from django.utils import timezone, translation

from ledger.models import Club, Profile
from ledger.tables.columns import activate_currency, deactivate_currency
from ledger.web.permissions import club_and_membership

# The session's copy of the member's own language ('' for none).
SESSION_KEY = "tarokclub_language"
# Answers of a club's page that must not tell whether the club exists.
ANONYMOUS = (301, 302, 303, 403, 404)


def offered(code: str | None) -> str | None:
    """Return ``code`` if the site offers it, else None."""
    return code if code and code in dict(settings.LANGUAGES) else None


def own_language(request) -> str | None:
    """Return the reader's own choice of language, if he made one the site still offers."""
    session = getattr(request, "session", None)
    if session is not None and session.session_key:
        if SESSION_KEY not in session and "_auth_user_id" in session:
            # A session from before the member's language was kept there: read it once.
            session[SESSION_KEY] = stored_language(session["_auth_user_id"])
        chosen = offered(session.get(SESSION_KEY))
        if chosen:
            return chosen
    return offered(request.COOKIES.get(settings.LANGUAGE_COOKIE_NAME))


def stored_language(user_id) -> str:
    """Return the language stored on the user's profile ('' for none)."""
    return Profile.objects.filter(user_id=user_id).values_list("language", flat=True).first() or ""


def reader_language(request, club: Club | None) -> str:
    """Return the language ``request`` reads in on a page of ``club`` (None: no club's page)."""
    own = own_language(request)
    if own:
        return own
    if club is not None and offered(club.language):
        return club.language
    return browser_language(request)


def browser_language(request) -> str:
    """Return the browser's language among the site's, else Danish (the cookie, where valid,
    is the reader's own choice and decided before)."""
    return offered(translation.get_language_from_request(request)) or settings.LANGUAGE_CODE


def use_language(request, language: str) -> None:
    translation.activate(language)
    request.LANGUAGE_CODE = translation.get_language()


def use_club(request, club: Club) -> None:
    """Read a page that belongs to ``club`` but has no club in its URL (the invitation link)
    in the club's language (unless the reader chose his own) and time zone."""
    use_language(request, reader_language(request, club))
    activate_time_zone(club)
    activate_currency(club.currency)


def activate_time_zone(club: Club) -> None:
    try:
        timezone.activate(zoneinfo.ZoneInfo(club.time_zone))
    except (zoneinfo.ZoneInfoNotFoundError, ValueError):
        timezone.deactivate()


class ClubLanguageMiddleware:
    """Decide each page's language (see the module) and a club's page's time zone."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        try:
            response = self.get_response(request)
        finally:
            timezone.deactivate()
            deactivate_currency()
        if getattr(request, "url_club", None) is not None and response.status_code in ANONYMOUS:
            # A redirect to the log-in, a 403 or a 404 says nothing of the club, not even in
            # its Content-Language (LocaleMiddleware keeps a header already set).
            response["Content-Language"] = reader_language(request, None)
        return response

    def process_view(self, request, view_func, view_args, view_kwargs):
        slug = view_kwargs.get("club")
        club = None
        if isinstance(slug, str):
            if getattr(view_func, "required_role", None) is not None:
                # A ``club_role`` view: its membership is read with the club, in one query.
                club, member = club_and_membership(slug, request.user)
                request.url_membership = (request.user.pk, member)
            else:
                club = Club.objects.filter(slug=slug).first()
            request.url_club = club
        use_language(request, reader_language(request, club))
        if club is not None:
            activate_time_zone(club)
            activate_currency(club.currency)
        return None

    def process_exception(self, request, exception):
        if isinstance(exception, Http404 | PermissionDenied) and getattr(request, "url_club", None):
            use_language(request, reader_language(request, None))
            timezone.deactivate()
            deactivate_currency()
        return None


@receiver(user_logged_in)
def _keep_language_in_session(sender, request, user, **kwargs):
    """Copy the member's own language into his new session (one query, at log-in only)."""
    if request is not None and hasattr(request, "session"):
        request.session[SESSION_KEY] = stored_language(user.pk)
