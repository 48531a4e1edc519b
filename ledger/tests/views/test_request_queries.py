"""A club page, a poll and a save cost the request itself three queries, each read once.

Before a page's own reads come the request's (issue 31: at most 6): the session, the user,
and the club with the user's membership in one query (``ledger.web.permissions``,
``ledger.web.locale``). They are named here by what they read, first and in this order, and
no later query of the request reads any of them again. Sessions stay in the database: over the
shared cache (itself a database table) ``cached_db`` reads a row as the session table does, and
a per-process cache is wrong with several workers (``tarokclub/settings.py``).
"""

from __future__ import annotations

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from ledger import services
from ledger.models import Member
from ledger.tests import factories
from ledger.tests.helpers import hand_post
from ledger.tests.views.test_query_counts import next_record

pytestmark = pytest.mark.django_db

HTMX = {"HTTP_HX_REQUEST": "true"}
# The request's own, before the view's reads: the session, the user, the club with the
# membership.
REQUEST_QUERIES = ["session", "user", "club and membership"]


def named(sql: str) -> str:
    """What a query reads, for the request's own; "own" for the page's."""
    if 'FROM "django_session"' in sql:
        return "session"
    if 'FROM "auth_user"' in sql:
        return "user"
    if 'FROM "ledger_club"' in sql and '"ledger_member"' in sql:
        return "club and membership"
    if 'FROM "ledger_club"' in sql:
        return "club"
    return "own"


@pytest.fixture
def world(client):
    club = factories.make_club()
    factories.make_season(club)
    anna = factories.make_member(club, "Anna", Member.Role.SCOREKEEPER, login=True)
    members = [anna, factories.make_member(club, "Bo"), factories.make_member(club, "Carl")]
    evening, table, _ = factories.evening_e(club, members=members)
    client.login(username="test-anna", password=factories.PASSWORD)
    return club, table, client


def check(captured) -> list[str]:
    names = [named(q["sql"]) for q in captured.captured_queries]
    assert names[: len(REQUEST_QUERIES)] == REQUEST_QUERIES
    assert len(REQUEST_QUERIES) <= 6
    # Each read once: no later query of the request reads the session, the user or the club.
    assert all(name == "own" for name in names[len(REQUEST_QUERIES) :]), names
    return names


def test_a_poll_costs_the_request_three_queries_then_its_own(world):
    """A table's poll answered 304: the request's three, then the table's version (one)."""
    club, table, client = world
    url = reverse("table", kwargs={"club": club.slug, "pk": table.pk})
    etag = client.get(url, **HTMX)["ETag"]
    with CaptureQueriesContext(connection) as captured:
        response = client.get(url, HTTP_IF_NONE_MATCH=etag, **HTMX)
    assert response.status_code == 304
    assert check(captured) == [*REQUEST_QUERIES, "own"]


@pytest.mark.parametrize("page", ["club", "standings", "table"])
def test_a_page_costs_the_request_three_queries_before_its_own(world, page):
    club, table, client = world
    kwargs = {"club": club.slug} | ({"pk": table.pk} if page == "table" else {})
    with CaptureQueriesContext(connection) as captured:
        response = client.get(reverse(page, kwargs=kwargs))
    assert response.status_code == 200
    check(captured)


def test_a_save_costs_the_request_three_queries_before_its_own(world):
    club, table, client = world
    number = services.next_hand_number(table.pk)
    data = hand_post(table, next_record(table, number))
    url = reverse("hand_new", kwargs={"club": club.slug, "pk": table.pk})
    with CaptureQueriesContext(connection) as captured:
        response = client.post(url, data, headers={"X-Hand-Submit": "1"})
    assert response.json()["saved"] is True
    check(captured)
