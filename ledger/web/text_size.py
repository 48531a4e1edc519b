"""The reader's text size (normal, large, larger): a class on every page's ``<html>``.

A logged-in member's choice is kept on his profile (``Profile.text_size``) and in his session
(copied at log-in, so reading it costs no query); a visitor's in a cookie. The switch beside
the language switch (``templates/base.html``) posts to ``set_text_size``.
"""

from __future__ import annotations

from django.contrib.auth.signals import user_logged_in
from django.dispatch import receiver

from ledger.models import TEXT_SIZE_CHOICES, Profile

SESSION_KEY = "tarokclub_text_size"
COOKIE_NAME = "tarokclub_text_size"
SIZES = [code for code, _label in TEXT_SIZE_CHOICES]


def offered(size: str | None) -> str | None:
    """Return ``size`` if it is one of the text sizes, else None."""
    return size if size in SIZES else None


def reader_text_size(request) -> str:
    """Return the text size ``request`` reads in: his session's, his cookie's, or normal."""
    session = getattr(request, "session", None)
    if session is not None and session.session_key:
        chosen = offered(session.get(SESSION_KEY))
        if chosen:
            return chosen
    return offered(request.COOKIES.get(COOKIE_NAME)) or "normal"


@receiver(user_logged_in)
def _keep_text_size_in_session(sender, request, user, **kwargs):
    """Copy the member's text size into his new session (one query, at log-in only)."""
    if request is not None and hasattr(request, "session"):
        size = Profile.objects.filter(user_id=user.pk).values_list("text_size", flat=True).first()
        request.session[SESSION_KEY] = offered(size) or "normal"
