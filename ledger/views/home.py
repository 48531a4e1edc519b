"""Thin views: parse input, call a service or a selector, render or redirect."""

from django.conf import settings
from django.contrib import messages
from django.contrib.auth.forms import PasswordResetForm
from django.contrib.auth.views import (
    INTERNAL_RESET_SESSION_TOKEN,
    LogoutView,
    PasswordResetConfirmView,
    PasswordResetView,
)
from django.http import HttpResponseRedirect
from django.shortcuts import redirect, render
from django.utils import translation
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import gettext_lazy as _
from django.views import i18n
from django.views.decorators.http import require_POST

from ledger import selectors, services
from ledger.forms.scoring import EveningStartForm
from ledger.models import Club, Evening, Federation, Member
from ledger.selectors import tournaments as tournament_reads
from ledger.services.errors import LedgerError
from ledger.web import client, locale, tablet, text_size
from ledger.web.permissions import can, club_role


@require_POST
def set_language(request):
    """The language switch: Django's (the language cookie, back to ``next``); a logged-in
    member's choice is also stored on his profile and his session (``ledger.web.locale``), so
    it follows him to every device and wins over his club's language."""
    response = i18n.set_language(request)
    language = locale.offered(request.POST.get("language"))
    if language and request.user.is_authenticated:
        try:
            services.user_language_set(user=request.user, language=language)
        except LedgerError:
            return response
        request.session[locale.SESSION_KEY] = language
    return response


@require_POST
def set_text_size(request):
    """The text-size switch: the reader's size in a cookie, and a logged-in member's on his
    profile and in his session (``ledger.web.text_size``); back to ``next``."""
    size = text_size.offered(request.POST.get("text_size"))
    target = request.POST.get("next") or "/"
    if not url_has_allowed_host_and_scheme(
        target, allowed_hosts={request.get_host()}, require_https=request.is_secure()
    ):
        target = "/"
    response = redirect(target)
    if size is None:
        return response
    if request.user.is_authenticated:
        services.user_text_size_set(user=request.user, text_size=size)
        request.session[text_size.SESSION_KEY] = size
    response.set_cookie(
        text_size.COOKIE_NAME, size, max_age=365 * 24 * 3600, samesite="Lax", httponly=True
    )
    return response


class TabletLogoutView(LogoutView):
    """Django's log-out, and the shared tablet forgets the user: the answer tells the browser
    to clear the site's cache and storage (``Clear-Site-Data``: the kept entry screens, the
    drafts, the service worker), so the next person sees nothing of his and sends nothing of
    his. The page's script (``static/ledger/tablet.js``) clears its own stores too, before the
    log-out is sent (a browser that ignores the header, a site served without TLS).

    A log-out tapped without a network is sent by the script when the network is back, with
    ``deferred=1``: the tablet already cleared its pages and drafts then, keeping only the
    hands its author saved on the tablet, which no other user sees or sends and he confirms
    after logging in again; that answer clears the cache only."""

    def post(self, request, *args, **kwargs):
        deferred = request.POST.get("deferred") == "1"
        response = super().post(request, *args, **kwargs)
        response["Clear-Site-Data"] = tablet.CLEAR_CACHE if deferred else tablet.CLEAR_ALL
        return response


def home(request):
    """Show the clubs the user belongs to and the federations he is an officer of; with exactly
    one club and no federation, go straight to the club."""
    clubs = []
    federations: list[Federation] = []
    if request.user.is_authenticated:
        if request.user.is_superuser:
            clubs = list(Club.objects.all())
            if not clubs:  # a fresh installation: set up the first club
                return redirect("club_new")
        else:
            clubs = list(
                Club.objects.filter(members__user=request.user, members__active=True).distinct()
            )
        federations = list(
            Federation.objects.all()
            if request.user.is_superuser
            else Federation.objects.filter(officers=request.user)
        )
        if len(clubs) == 1 and not federations:
            return redirect("club", club=clubs[0].slug)
    return render(request, "ledger/home.html", {"clubs": clubs, "federations": federations})


def to_tournament(request, evening):
    """Send a club role who reached a tournament's evening to its tournament's page, saying
    why (its tables are the round tables, which only the director's rounds open and close);
    return None for a club evening."""
    tournament = tournament_reads.tournament_of_evening(evening)
    if tournament is None:
        return None
    # The director (the club's admin) goes to the tournament's page, any other role to its
    # standings.
    messages.info(
        request,
        _(
            "This evening is the tournament {name}'s: its tables are opened and closed by "
            "its rounds."
        ).format(name=tournament.name),
    )
    if can(request, Member.Role.ADMIN):
        return redirect(tournament.get_absolute_url())
    return redirect("tournament_standings", club=request.club.slug, pk=tournament.pk)


def club_page(request, *, start_form=None, no_season=False, status=200):
    """Render the club's front page; ``start_form`` is a bound start of an evening to confirm.
    The club's open evening and the tournaments being played are shown apart, each with its
    own link."""
    evenings = Evening.objects.filter(club=request.club, kind=Evening.Kind.CLUB).select_related(
        "season"
    )[:20]
    live = (
        Evening.objects.filter(
            club=request.club, status=Evening.Status.OPEN, kind=Evening.Kind.CLUB
        )
        .order_by("-date", "-id")
        .first()
    )
    context = {
        "evenings": evenings,
        "live_evening": live,
        "running_tournaments": tournament_reads.running_tournaments(club=request.club),
        "nav_evening": live,
        "start_form": start_form or EveningStartForm(),
        "no_season": no_season,
    }
    return render(request, "ledger/club.html", context, status=status)


@club_role()
def club_home(request):
    """The club's front page: the live evening first, then the latest evenings."""
    return club_page(request)


class RecipientLanguagePasswordResetForm(PasswordResetForm):
    """Django's password-reset form, each mail in its recipient's language: his own choice,
    else his club's, else the language of the page the request came from."""

    def send_mail(self, subject_template_name, email_template_name, context, *args, **kwargs):
        language = next(
            filter(None, map(locale.offered, selectors.user_languages(user=context["user"]))),
            translation.get_language(),
        )
        with translation.override(language):
            super().send_mail(subject_template_name, email_template_name, context, *args, **kwargs)


class BoundedPasswordResetView(PasswordResetView):
    """Django's password reset, bounded: at most ``PASSWORD_RESET_PER_HOUR`` requests an hour
    from one client address and as many for one e-mail address; past that the form answers 429
    and sends no mail, so nobody can flood a member's mailbox or the site's mail server."""

    template_name = "registration/password_reset_form.html"
    form_class = RecipientLanguagePasswordResetForm
    email_template_name = "registration/password_reset_email.txt"
    subject_template_name = "registration/password_reset_subject.txt"

    def form_valid(self, form):
        limit = settings.PASSWORD_RESET_PER_HOUR
        address = client.client_ip(self.request) or "?"
        email = form.cleaned_data["email"].strip().casefold()
        by_address = client.allow("password-reset-ip", address, limit=limit, window=3600)
        for_email = client.allow("password-reset-email", email, limit=limit, window=3600)
        if by_address and for_email:
            return super().form_valid(form)
        form.add_error(
            None,
            _("Too many password-reset requests; try again in an hour."),
        )
        response = self.form_invalid(form)
        response.status_code = 429
        response["Retry-After"] = "3600"
        return response


class LoggedPasswordResetConfirmView(PasswordResetConfirmView):
    """Django's new password from a reset link, set through ``services.password_reset_done``,
    which logs the reset in each of the user's clubs in the same transaction."""

    template_name = "registration/password_reset_confirm.html"

    def form_valid(self, form):
        services.password_reset_done(user=form.user, password=form.cleaned_data["new_password1"])
        del self.request.session[INTERNAL_RESET_SESSION_TOKEN]
        return HttpResponseRedirect(self.get_success_url())
