"""Who reads which language: the member's own choice, then the club's on its pages, then the
browser's, then Danish; the club's time zone on its pages; mails in the recipient's language."""

from __future__ import annotations

import re

import pytest
from django.conf import settings
from django.core import mail
from django.test import Client, RequestFactory
from django.urls import reverse
from django.utils import timezone

from ledger import services
from ledger.models import Profile
from ledger.tests import factories
from ledger.web.locale import SESSION_KEY, ClubLanguageMiddleware

pytestmark = pytest.mark.django_db


def lang_of(response, status: int = 200) -> str:
    """The language a page is written in: its ``<html lang>`` (and Content-Language)."""
    assert response.status_code == status, response.status_code
    found = re.search(r'<html lang="([\w-]+)"', response.content.decode())
    assert found is not None
    assert response["Content-Language"] == found.group(1)
    return found.group(1)


@pytest.fixture
def ljubljana():
    """A Slovenian club reading Slovenian, with Ana (a member with a log-in) and a season."""
    club = factories.make_club(slug="lj", name="Ljubljana", game="slovenian_tarok", language="sl")
    club.time_zone, club.currency = "Europe/Ljubljana", "EUR"
    club.save()
    factories.make_season(club)
    ana = factories.make_member(club, "Ana", login=True)
    return club, ana


def logged_in(member, **headers) -> Client:
    client = Client(**headers)
    client.force_login(member.user)
    return client


def club_url(club) -> str:
    return reverse("club", kwargs={"club": club.slug})


def test_the_clubs_language_beats_the_browsers(ljubljana):
    club, ana = ljubljana
    client = logged_in(ana)
    assert lang_of(client.get(club_url(club), HTTP_ACCEPT_LANGUAGE="en")) == "sl"
    assert lang_of(client.get(club_url(club), HTTP_ACCEPT_LANGUAGE="da")) == "sl"
    # Off the club's pages the browser decides: the log-in page is not the club's.
    assert lang_of(Client().get(reverse("login"), HTTP_ACCEPT_LANGUAGE="hu")) == "hu"


def test_without_any_choice_the_site_speaks_danish():
    assert lang_of(Client().get(reverse("login"))) == "da"
    assert lang_of(Client().get(reverse("login"), HTTP_ACCEPT_LANGUAGE="de")) == "da"


def test_a_members_own_choice_beats_the_clubs_and_follows_him(ljubljana):
    """The switch stores his choice on his profile: it wins over the club's language, on this
    device and on any other he logs in on."""
    club, ana = ljubljana
    client = logged_in(ana)
    response = client.post(reverse("set_language"), {"language": "hu", "next": club_url(club)})
    assert response.status_code == 302 and response["Location"] == club_url(club)
    assert Profile.objects.get(user=ana.user).language == "hu"
    assert lang_of(client.get(club_url(club), HTTP_ACCEPT_LANGUAGE="sl")) == "hu"
    other_device = logged_in(ana)  # no cookie there: the profile decides
    assert settings.LANGUAGE_COOKIE_NAME not in other_device.cookies
    assert lang_of(other_device.get(club_url(club))) == "hu"
    assert lang_of(other_device.get(reverse("home"), follow=True)) == "hu"


def test_a_visitors_switch_beats_the_clubs_language_on_its_public_pages(ljubljana):
    club, _ = ljubljana
    club.publish_results = True
    club.save()
    public = reverse("public_club", kwargs={"club": club.slug})
    visitor = Client()
    assert lang_of(visitor.get(public, HTTP_ACCEPT_LANGUAGE="da")) == "sl"
    visitor.post(reverse("set_language"), {"language": "en", "next": public})
    assert lang_of(visitor.get(public, HTTP_ACCEPT_LANGUAGE="da")) == "en"
    assert not Profile.objects.exists()  # a visitor has no profile: the cookie is his choice


def test_a_stored_language_no_longer_offered_falls_back_to_the_clubs(ljubljana):
    club, ana = ljubljana
    Profile.objects.create(user=ana.user, language="de")  # offered once, say
    client = logged_in(ana)
    assert client.session[SESSION_KEY] == "de"
    assert lang_of(client.get(club_url(club), HTTP_ACCEPT_LANGUAGE="en")) == "sl"
    assert lang_of(client.get(reverse("login"), HTTP_ACCEPT_LANGUAGE="en")) == "en"


def test_a_club_language_no_longer_offered_falls_back_to_the_browsers(ljubljana):
    club, ana = ljubljana
    type(club).objects.filter(pk=club.pk).update(language="de")
    client = logged_in(ana)
    assert lang_of(client.get(club_url(club), HTTP_ACCEPT_LANGUAGE="hu")) == "hu"


def test_the_switch_refuses_a_language_not_offered_and_stores_nothing(ljubljana):
    club, ana = ljubljana
    client = logged_in(ana)
    client.post(reverse("set_language"), {"language": "de", "next": club_url(club)})
    assert not Profile.objects.exists()
    assert lang_of(client.get(club_url(club))) == "sl"


def test_a_session_from_before_reads_the_profile_once(ljubljana):
    club, ana = ljubljana
    Profile.objects.create(user=ana.user, language="en")
    client = logged_in(ana)
    session = client.session
    del session[SESSION_KEY]
    session.save()
    assert lang_of(client.get(club_url(club))) == "en"
    assert client.session[SESSION_KEY] == "en"


def test_a_stranger_learns_nothing_from_the_language_of_a_404(ljubljana):
    """Another club's page answers 404 in the reader's language, not the club's: the answer
    is the same as for a club that does not exist."""
    club, _ = ljubljana
    other = factories.make_club(slug="dk")
    stranger = logged_in(factories.make_member(other, "Dorte", login=True))
    response = stranger.get(club_url(club), HTTP_ACCEPT_LANGUAGE="da")
    missing = stranger.get("/c/nowhere/", HTTP_ACCEPT_LANGUAGE="da")
    assert response.status_code == missing.status_code == 404
    assert response["Content-Language"] == missing["Content-Language"] == "da"


def test_the_clubs_time_zone_is_active_on_its_pages_only(ljubljana, rf: RequestFactory):
    club, _ = ljubljana
    club.time_zone = "Europe/Budapest"
    club.save()
    seen = {}

    def view(request, **kwargs):
        seen["zone"] = timezone.get_current_timezone_name()
        from django.http import HttpResponse

        return HttpResponse("")

    middleware = ClubLanguageMiddleware(lambda request: view(request))
    request = rf.get(club_url(club))
    request.session = Client().session
    middleware.process_view(request, view, (), {"club": club.slug})
    assert timezone.get_current_timezone_name() == "Europe/Budapest"
    assert getattr(request, "url_club", None) == club  # what the middleware leaves there
    middleware(request)
    assert timezone.get_current_timezone_name() == settings.TIME_ZONE  # reset after the page


def test_the_invitation_link_reads_in_the_clubs_language(ljubljana):
    club, _ = ljubljana
    _invitation, token = services.invitation_create(member=factories.make_member(club, "Nova"))
    link = reverse("invitation_accept", kwargs={"token": token})
    page = Client().get(link, HTTP_ACCEPT_LANGUAGE="da")
    assert lang_of(page) == "sl"
    assert "Uporabniško ime" in page.content.decode()


def test_a_used_invitation_link_answers_in_the_clubs_language(ljubljana):
    """A Slovenian club's link, used once, answers a Danish browser in Slovenian: the page
    (410) says in Slovenian that the link has been used."""
    club, _ = ljubljana
    _invitation, token = services.invitation_create(member=factories.make_member(club, "Nova"))
    services.invitation_accept(token=token, password="Nova-geslo-2026!", username="nova")
    link = reverse("invitation_accept", kwargs={"token": token})
    page = Client().get(link, HTTP_ACCEPT_LANGUAGE="da")
    assert lang_of(page, 410) == "sl"
    assert "Ta povezava je bila že uporabljena." in page.content.decode()


@pytest.mark.parametrize(
    ("own", "club_language", "subject"),
    [
        ("sl", "hu", "Ponastavite geslo"),  # his own choice first
        ("", "hu", "Jelszó visszaállítása"),  # then his club's
        ("", "da", "Nulstil din adgangskode"),
    ],
)
def test_the_password_reset_mail_is_in_the_recipients_language(own, club_language, subject):
    club = factories.make_club(slug="x", language=club_language)
    member = factories.make_member(club, "Ivan", login=True)
    assert member.user is not None
    member.user.email = "ivan@example.org"
    member.user.save()
    if own:
        Profile.objects.create(user=member.user, language=own)
    response = Client().post(
        reverse("password_reset"), {"email": "ivan@example.org"}, HTTP_ACCEPT_LANGUAGE="en"
    )
    assert response.status_code == 302
    assert len(mail.outbox) == 1
    assert mail.outbox[0].subject.startswith(subject)


def test_a_visitor_sent_to_log_in_learns_nothing_of_the_club(ljubljana):
    """The redirect of a club's page to the log-in is the same for a club that exists (and
    reads Slovenian) as for one that does not, down to its Content-Language."""
    club, _ = ljubljana
    there = Client().get(club_url(club), HTTP_ACCEPT_LANGUAGE="da")
    missing = Client().get("/c/nowhere/", HTTP_ACCEPT_LANGUAGE="da")
    assert there.status_code == missing.status_code == 302
    assert there["Content-Language"] == missing["Content-Language"] == "da"


@pytest.mark.parametrize("page", ["club", "public_club", "login"])
def test_the_language_costs_no_query_more(ljubljana, settings, page):
    """The middleware reads the club once and the page reuses it: a public page and a page of
    no club cost the same queries with it as without it, and a member's club page one fewer
    (the middleware reads his membership with the club, ``club_role`` reads neither)."""
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    club, ana = ljubljana
    club.publish_results = True
    club.save()
    url = reverse(page, kwargs={"club": club.slug}) if page != "login" else reverse("login")
    counts = []
    for middleware in (
        settings.MIDDLEWARE,
        [m for m in settings.MIDDLEWARE if m != "ledger.web.locale.ClubLanguageMiddleware"],
    ):
        settings.MIDDLEWARE = middleware
        client = logged_in(ana)
        client.get(url)  # warm: the session's first read
        with CaptureQueriesContext(connection) as queries:
            assert client.get(url).status_code == 200
        counts.append(len(queries))
    assert counts[0] == counts[1] - (page == "club")
