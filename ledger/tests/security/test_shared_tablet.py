"""The shared tablet, server side (issue 22, item 4): the log-out clears the browser's data for
the site, every page says whose it is (an identifier per user and one per session, which tell
nothing about him), the entry screen says whose copy the service worker keeps, and a draft is
saved only under the user who made it, and from an earlier session only once he confirms it.
The browser's side is ``ledger/tests/e2e/test_shared_tablet.py``."""

from __future__ import annotations

import datetime
import json
import re
import uuid

import pytest
from django.test import Client
from django.urls import reverse

from ledger import services
from ledger.models import Hand, HandRevision, Member
from ledger.tests import factories
from ledger.tests.conftest import load_example
from ledger.tests.helpers import hand_post, login
from ledger.web import tablet

pytestmark = pytest.mark.django_db

SLUG = "tab"
HAND_1 = load_example("EVENING_E.evening.json")["hands"][0]
SUBMIT = {"X-Hand-Submit": "1"}


@pytest.fixture
def people():
    club = factories.make_club(slug=SLUG)
    return {
        name: factories.make_member(club, name, Member.Role.SCOREKEEPER, login=True)
        for name in ("Anna", "Bo", "Carl")
    }


@pytest.fixture
def table(people):
    evening = services.evening_open(club=people["Anna"].club, date=datetime.date(2026, 11, 5))
    return services.table_open(evening=evening, members=list(people.values()))


def url(name, **kwargs):
    return reverse(name, kwargs={"club": SLUG, **kwargs})


def page_ids(response) -> tuple[str, str]:
    text = response.content.decode()
    user = re.search(r'<meta name="tarokclub-user" content="([^"]*)">', text)
    session = re.search(r'<meta name="tarokclub-session" content="([^"]*)">', text)
    assert user and session, "the page carries no tablet identifiers"
    return user.group(1), session.group(1)


def hand_data(table, token=None, **draft):
    return hand_post(table, HAND_1, token, **draft)


# --- the log-out ---------------------------------------------------------------------------


def test_log_out_clears_the_sites_cache_and_storage(client, people):
    login(client, people["Anna"])
    response = client.post(reverse("logout"))
    assert response.status_code == 302
    assert response["Clear-Site-Data"] == '"cache", "storage"'
    assert "_auth_user_id" not in client.session
    assert client.get(url("club")).status_code == 302  # to the log-in page


def test_a_log_out_sent_when_the_network_is_back_clears_the_cache_only(client, people):
    """The tablet cleared its pages and drafts when the log-out was tapped offline, keeping
    only the hands its author confirms later: the late answer leaves those."""
    login(client, people["Anna"])
    response = client.post(reverse("logout"), {"deferred": "1"})
    assert response["Clear-Site-Data"] == '"cache"'
    assert "_auth_user_id" not in client.session


def test_log_out_is_a_post(client, people):
    login(client, people["Anna"])
    assert client.get(reverse("logout")).status_code == 405
    assert "_auth_user_id" in client.session


# --- whose page it is ----------------------------------------------------------------------


def test_every_page_says_whose_it_is_and_tells_nothing_about_him(people):
    anna, bo = Client(), Client()
    login(anna, people["Anna"])
    login(bo, people["Bo"])
    anna_user, anna_session = page_ids(anna.get(url("club")))
    bo_user, bo_session = page_ids(bo.get(url("club")))
    assert anna_user == tablet.user_key(people["Anna"].user)
    assert len(anna_user) == 32 and anna_user != bo_user and anna_session != bo_session
    for user in (people["Anna"].user, people["Bo"].user):
        assert str(user.pk) not in (anna_user, bo_user)
        assert user.username not in anna_user + bo_user
    # The same user in his next session: the same user key, a new session key.
    anna.post(reverse("logout"))
    login(anna, people["Anna"])
    again_user, again_session = page_ids(anna.get(url("club")))
    assert again_user == anna_user
    assert again_session != anna_session
    # Nobody logged in: no identifiers.
    assert page_ids(Client().get(reverse("login"))) == ("", "")


def test_the_entry_screen_says_whose_copy_it_is(client, people, table):
    login(client, people["Anna"])
    response = client.get(url("hand_new", pk=table.pk))
    assert response.status_code == 200
    assert response[tablet.USER_HEADER] == tablet.user_key(people["Anna"].user)
    assert page_ids(response)[0] == response[tablet.USER_HEADER]
    text = response.content.decode()
    assert 'id="confirm-draft"' in text and "data-draft-held" in text


def test_the_service_worker_keeps_pages_per_user():
    response = Client().get("/sw.js")
    body = response.getvalue()  # a streamed response's chunks joined, or the content
    source = body.decode()
    assert "tarokclub-pages-v2-" in source and tablet.USER_HEADER in source
    assert "/__tarokclub/tablet-user" in source  # the tablet's current user


# --- a draft is sent only by its author -----------------------------------------------------


def test_a_draft_of_another_user_is_refused_and_nothing_is_written(client, people, table):
    """Bo is logged in; the tablet sends Anna's draft: refused, nothing written."""
    login(client, people["Bo"])
    session = page_ids(client.get(url("club")))[1]
    data = hand_data(
        table,
        draft_author=tablet.user_key(people["Anna"].user),
        draft_session=session,
        draft_confirmed="1",
    )
    response = client.post(url("hand_new", pk=table.pk), data, headers=SUBMIT)
    assert response.status_code == 409
    assert response.json()["draft"] == "foreign"
    assert Hand.objects.count() == 0
    # A made-up author is another user too.
    data["draft_author"] = "0" * 32
    assert client.post(url("hand_new", pk=table.pk), data, headers=SUBMIT).status_code == 409
    assert Hand.objects.count() == 0


def test_a_draft_of_an_earlier_session_waits_for_its_authors_confirmation(client, people, table):
    login(client, people["Anna"])
    me = tablet.user_key(people["Anna"].user)
    token = str(uuid.uuid4())
    earlier = hand_data(table, token, draft_author=me, draft_session="an-earlier-session")
    response = client.post(url("hand_new", pk=table.pk), earlier, headers=SUBMIT)
    assert response.status_code == 409
    assert response.json()["draft"] == "confirm"
    assert Hand.objects.count() == 0

    confirmed = dict(earlier, draft_confirmed="1")
    response = client.post(url("hand_new", pk=table.pk), confirmed, headers=SUBMIT)
    assert response.status_code == 200 and response.json()["saved"] is True
    # Sent again (a retry): the one-time token keeps it once.
    client.post(url("hand_new", pk=table.pk), confirmed, headers=SUBMIT)
    hand = Hand.objects.get()
    assert hand.token == token
    assert HandRevision.objects.get(hand=hand).by == people["Anna"].user


def test_a_draft_of_this_session_is_saved_by_itself(client, people, table):
    login(client, people["Anna"])
    session = page_ids(client.get(url("hand_new", pk=table.pk)))[1]
    data = hand_data(
        table, draft_author=tablet.user_key(people["Anna"].user), draft_session=session
    )
    response = client.post(url("hand_new", pk=table.pk), data, headers=SUBMIT)
    assert response.json()["saved"] is True
    assert Hand.objects.count() == 1


def test_a_form_without_a_draft_is_saved_as_before(client, people, table):
    login(client, people["Anna"])
    response = client.post(url("hand_new", pk=table.pk), hand_data(table), headers=SUBMIT)
    assert response.json()["saved"] is True


def test_a_correction_from_another_users_draft_is_refused(client, people, table):
    hand = services.hand_record(table=table, record=HAND_1)
    login(client, people["Bo"])
    response = client.post(
        url("hand_correct", pk=hand.pk),
        {
            "record": json.dumps(HAND_1),
            "reason": "typo",
            "base_revision": 1,
            "draft_author": tablet.user_key(people["Anna"].user),
            "draft_session": "x",
        },
        headers=SUBMIT,
    )
    assert response.status_code == 409
    assert hand.revisions.count() == 1
