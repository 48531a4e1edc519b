"""A log-out is a log-out (``ledger.web.sessions``): the session named by the tablet's
log-out cookie ends before the request carrying it is served, and a session unused for its
club's idle time ends at its next request. The clock is moved by writing the session's and
the cookie's times back, never by waiting."""

from __future__ import annotations

import time

import pytest
from django.contrib.auth import SESSION_KEY as AUTH_KEY
from django.test import Client
from django.urls import reverse

from ledger.models import Club, Member
from ledger.tests import factories
from ledger.tests.factories import evening_e
from ledger.tests.helpers import login
from ledger.web import sessions, tablet

pytestmark = pytest.mark.django_db

SLUG = "test"


def url(name, **kwargs):
    return reverse(name, kwargs={"club": SLUG, **kwargs})


@pytest.fixture
def club():
    return factories.make_club(slug=SLUG)


@pytest.fixture
def anna(club):
    return factories.make_member(club, "Anna", Member.Role.SCOREKEEPER, login=True)


@pytest.fixture
def table(club):
    _evening, table, _hands = evening_e(club)
    return table


def english(client):
    client.cookies["django_language"] = "en"
    return client


def logged_in(member) -> Client:
    return login(english(Client()), member)


def session_key(client: Client) -> str:
    """Return the key of the client's session (the test fails when it has none)."""
    key = client.session.session_key
    assert key is not None
    return key


def used_minutes_ago(client, minutes: float) -> None:
    """Move the session's last use back: its log-in time, and no cookie of a later use."""
    session = client.session
    session[sessions.SEEN_KEY] = int(time.time() - minutes * 60)
    session.save()
    client.cookies.pop(sessions.SEEN_COOKIE, None)


def is_logged_in(client) -> bool:
    return AUTH_KEY in client.session


def test_log_in_starts_the_clock_with_the_clubs_idle_time(club, anna):
    """The log-in keeps its time and the idle time of the member's club in his session; a
    member of two clubs gets the shorter."""
    client = logged_in(anna)
    assert client.session[sessions.IDLE_KEY] == 240
    assert abs(client.session[sessions.SEEN_KEY] - time.time()) < 5
    other = factories.make_club(slug="other", idle_minutes=30)
    Member.objects.create(club=other, name="Anna", user=anna.user)
    assert logged_in(anna).session[sessions.IDLE_KEY] == 30


def test_a_used_session_goes_on_and_its_last_use_is_kept_in_a_signed_cookie(club, anna):
    client = logged_in(anna)
    first = client.get(url("club"))
    assert first.status_code == 200
    seen = first.cookies[sessions.SEEN_COOKIE]
    assert seen["httponly"] and seen["samesite"] == "Lax"
    assert seen["max-age"] == 240 * 60 + sessions.RENEW_EVERY
    # Within the minute the cookie is not renewed (nothing written, no cookie sent).
    again = client.get(url("club"))
    assert again.status_code == 200
    assert sessions.SEEN_COOKIE not in again.cookies
    assert is_logged_in(client)


def test_a_session_unused_for_the_idle_time_ends_with_a_message(club, anna):
    client = logged_in(anna)
    used_minutes_ago(client, 241)
    response = client.get(url("club"))
    assert response.status_code == 302
    assert response["Location"].startswith(reverse("login"))
    assert response["Clear-Site-Data"] == tablet.CLEAR_CACHE
    assert not is_logged_in(client)
    page = client.get(response["Location"]).content.decode()
    assert "You were logged out: your log-in was not used for 240 minutes." in page


def test_a_session_used_within_the_idle_time_goes_on(club, anna):
    client = logged_in(anna)
    used_minutes_ago(client, 239)
    response = client.get(url("club"))
    assert response.status_code == 200
    # Its last use is renewed now: it has the whole idle time again.
    assert response.cookies[sessions.SEEN_COOKIE].value
    assert is_logged_in(client)


def test_the_clubs_own_idle_time_counts(anna, club):
    Club.objects.filter(pk=club.pk).update(idle_minutes=30)
    client = logged_in(anna)
    used_minutes_ago(client, 31)
    assert client.get(url("club")).status_code == 302
    assert not is_logged_in(client)


def test_a_recent_use_by_cookie_keeps_a_session_logged_in_long_ago(club, anna):
    client = logged_in(anna)
    used_minutes_ago(client, 600)
    key = session_key(client)
    client.cookies[sessions.SEEN_COOKIE] = sessions.seen_cookie(key, int(time.time()) - 600)
    assert client.get(url("club")).status_code == 200
    assert is_logged_in(client)


@pytest.mark.parametrize("forged", ["other-session", "unsigned", "tampered"])
def test_a_cookie_not_signed_for_this_session_gives_no_time(club, anna, forged):
    """The last-use cookie of another session, an unsigned one or one changed by hand does not
    keep an idle session alive."""
    client = logged_in(anna)
    used_minutes_ago(client, 241)
    key = session_key(client)
    now = int(time.time())
    value = {
        "other-session": sessions.seen_cookie("another-session-key", now),
        "unsigned": f"{tablet.session_tag(key)}.{now}",
        "tampered": sessions.seen_cookie(key, now - 3600).replace(str(now - 3600), str(now)),
    }[forged]
    client.cookies[sessions.SEEN_COOKIE] = value
    assert client.get(url("club")).status_code == 302
    assert not is_logged_in(client)


def test_an_idle_session_asking_for_json_gets_401_json(club, anna, table):
    client = logged_in(anna)
    used_minutes_ago(client, 241)
    response = client.get(url("table_state", pk=table.pk))
    assert response.status_code == 401
    assert response.json() == {"error": "idle", "login": reverse("login")}
    assert not is_logged_in(client)
    # Asked again, it is a visitor's request: the log-in, as before.
    assert client.get(url("table_state", pk=table.pk)).status_code == 302


def test_an_idle_session_polling_with_htmx_reloads_its_page(club, anna, table):
    client = logged_in(anna)
    used_minutes_ago(client, 241)
    response = client.get(url("table", pk=table.pk), headers={"HX-Request": "true"})
    assert response.status_code == 401
    assert response["HX-Refresh"] == "true"
    assert not is_logged_in(client)


def test_a_session_from_before_idle_times_starts_its_clock(club, anna):
    """A session logged in before this release has neither time: its clock starts at its
    first request, which it passes."""
    client = logged_in(anna)
    session = client.session
    del session[sessions.SEEN_KEY]
    del session[sessions.IDLE_KEY]
    session.save()
    assert client.get(url("club")).status_code == 200
    assert client.session[sessions.IDLE_KEY] == 240
    assert abs(client.session[sessions.SEEN_KEY] - time.time()) < 5


def test_the_tablets_log_out_cookie_ends_its_session_before_anything_is_served(club, anna, table):
    """The probe: Anna logged out without a network and closed the tab. The next request of
    the browser, whatever it is, carries the cookie: her state.json and her standings CSV are
    refused, and the cookie is deleted."""
    client = logged_in(anna)
    client.cookies[sessions.LOGOUT_COOKIE] = tablet.session_tag(session_key(client))
    response = client.get(url("table_state", pk=table.pk))
    assert response.status_code == 401
    assert response.json()["error"] == "logged_out"
    assert response.cookies[sessions.LOGOUT_COOKIE]["max-age"] == 0
    assert not is_logged_in(client)
    csv = client.get(url("standings") + "?_export=csv")
    assert csv.status_code == 302 and csv["Location"].startswith(reverse("login"))


def test_the_log_out_cookie_ends_the_session_on_a_page_too(club, anna):
    client = logged_in(anna)
    client.cookies[sessions.LOGOUT_COOKIE] = tablet.session_tag(session_key(client))
    response = client.get(url("standings") + "?_export=csv")
    assert response.status_code == 302
    assert response["Location"].startswith(reverse("login"))
    assert response["Clear-Site-Data"] == tablet.CLEAR_CACHE
    assert not is_logged_in(client)


def test_the_deferred_log_out_it_names_still_answers(club, anna):
    """The log-out the tablet posts when the network is back finds the session ended by its
    own cookie, and answers as before: home, the cache cleared."""
    client = logged_in(anna)
    client.cookies[sessions.LOGOUT_COOKIE] = tablet.session_tag(session_key(client))
    client.get(reverse("login"))  # a csrf cookie, as the page had
    response = client.post(reverse("logout"), {"deferred": "1"})
    assert response.status_code == 302 and response["Location"] == reverse("home")
    assert response["Clear-Site-Data"] == tablet.CLEAR_CACHE
    assert not is_logged_in(client)


def test_a_log_out_cookie_of_another_session_is_only_deleted(club, anna):
    """A cookie left from a session that already ended does not log out the next one."""
    client = logged_in(anna)
    client.cookies[sessions.LOGOUT_COOKIE] = tablet.session_tag("an-ended-session")
    response = client.get(url("club"))
    assert response.status_code == 200
    assert response.cookies[sessions.LOGOUT_COOKIE]["max-age"] == 0
    assert is_logged_in(client)


def test_the_idle_time_is_a_club_setting_within_bounds(club):
    admin = factories.make_member(club, "Ada", Member.Role.ADMIN, login=True)
    client = logged_in(admin)
    page = client.get(url("setup_settings")).content.decode()
    assert 'name="idle_minutes"' in page and 'value="240"' in page
    data = {
        "name": club.name,
        "price_per_point": "0.25",
        "currency": "DKK",
        "language": "da",
        "time_zone": "Europe/Copenhagen",
        "starting_jetons": "500",
    }
    for bad in ("4", "10081", "-1", "x", ""):
        response = client.post(url("setup_settings"), {**data, "idle_minutes": bad})
        assert response.status_code == 422, bad
        assert "idle_minutes" in response.context["form"].errors
    club.refresh_from_db()
    assert club.idle_minutes == 240
    response = client.post(url("setup_settings"), {**data, "idle_minutes": "90"})
    assert response.status_code == 302
    club.refresh_from_db()
    assert club.idle_minutes == 90
