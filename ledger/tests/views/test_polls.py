"""The watchers' polls answer 304 while nothing changed (issue 22.8, ``ledger.web.kept``).

The table screen's live part, the live evening page and the evening wall are polled by htmx
every few seconds; each answer carries an ETag of the table's or the evening's version (its
seals), and a poll naming the current one gets an empty 304 for a pinned number of queries.
After a hand is saved the same poll gets 200 with the new content. The evening sheet page is
kept by the evening's version and the reader.
"""

from __future__ import annotations

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from ledger import services
from ledger.models import Member
from ledger.tests import factories
from ledger.tests.factories import new_member

pytestmark = pytest.mark.django_db

HTMX = {"HTTP_HX_REQUEST": "true"}
# The request's own three (session, user, the club with the membership) and the version's one.
# Was 5: the club and the membership are read in one query (ledger.web.permissions).
NOT_MODIFIED_QUERIES = 4


@pytest.fixture
def world(client):
    club = factories.make_club()
    factories.make_season(club)
    evening, table, _ = factories.evening_e(club)
    factories.make_member(club, "Sara", Member.Role.SCOREKEEPER, login=True)
    client.login(username="test-sara", password=factories.PASSWORD)
    return {"club": club, "evening": evening, "table": table, "client": client}


def poll_urls(w) -> dict[str, str]:
    slug, evening = w["club"].slug, w["evening"]
    return {
        "table": reverse("table", kwargs={"club": slug, "pk": w["table"].pk}),
        "evening": reverse("evening", kwargs={"club": slug, "pk": evening.pk}),
        "evening_wall": reverse("evening_wall", kwargs={"club": slug, "pk": evening.pk}),
    }


@pytest.mark.parametrize("page", ["table", "evening", "evening_wall"])
def test_a_poll_with_the_current_version_is_304_without_a_body(world, page):
    client, url = world["client"], poll_urls(world)[page]
    first = client.get(url, **HTMX)
    assert first.status_code == 200
    etag = first["ETag"]
    assert "no-cache" in first["Cache-Control"] and "private" in first["Cache-Control"]
    assert "HX-Request" in first["Vary"]
    with CaptureQueriesContext(connection) as captured:
        again = client.get(url, HTTP_IF_NONE_MATCH=etag, **HTMX)
    assert again.status_code == 304
    assert again.content == b""
    assert again["ETag"] == etag
    assert len(captured.captured_queries) == NOT_MODIFIED_QUERIES


@pytest.mark.parametrize("page", ["table", "evening", "evening_wall"])
def test_after_a_hand_is_saved_the_poll_gets_the_new_content(world, page):
    client, url = world["client"], poll_urls(world)[page]
    first = client.get(url, **HTMX)
    factories.random_table_hands(world["table"], 1, seed=3)
    after = client.get(url, HTTP_IF_NONE_MATCH=first["ETag"], **HTMX)
    assert after.status_code == 200
    assert after["ETag"] != first["ETag"]
    assert after.content != first.content
    assert client.get(url, HTTP_IF_NONE_MATCH=after["ETag"], **HTMX).status_code == 304


def test_a_quiet_tables_poll_is_304_while_another_table_of_the_evening_saves(world):
    """Versions are per table: a hand saved at one table of the evening leaves the other
    table's version as it was (its poll, naming its ETag, is a 304 for the pinned number of
    queries) and changes the saved table's (its poll gets 200 with the new content), the
    evening's and the wall's (their polls get 200)."""
    club, client = world["club"], world["client"]
    others = [new_member(club=club, name=name) for name in ("Dan", "Eva", "Finn")]
    quiet = services.table_open(evening=world["evening"], members=others)
    urls = {
        name: reverse("table", kwargs={"club": club.slug, "pk": table.pk})
        for name, table in (("busy", world["table"]), ("quiet", quiet))
    }
    evenings = {name: url for name, url in poll_urls(world).items() if name != "table"}
    urls.update(evenings)
    before = {name: client.get(url, **HTMX) for name, url in urls.items()}
    for name, url in evenings.items():
        assert client.get(url, HTTP_IF_NONE_MATCH=before[name]["ETag"], **HTMX).status_code == 304
    factories.random_table_hands(world["table"], 1, seed=6)
    with CaptureQueriesContext(connection) as captured:
        quiet_poll = client.get(urls["quiet"], HTTP_IF_NONE_MATCH=before["quiet"]["ETag"], **HTMX)
    assert quiet_poll.status_code == 304
    assert len(captured.captured_queries) == NOT_MODIFIED_QUERIES
    busy_poll = client.get(urls["busy"], HTTP_IF_NONE_MATCH=before["busy"]["ETag"], **HTMX)
    assert busy_poll.status_code == 200
    assert busy_poll["ETag"] != before["busy"]["ETag"]
    assert busy_poll.content != before["busy"].content
    for name, url in evenings.items():
        changed = client.get(url, HTTP_IF_NONE_MATCH=before[name]["ETag"], **HTMX)
        assert changed.status_code == 200, name
        assert changed["ETag"] != before[name]["ETag"]


def record_reads(captured) -> list[str]:
    """The queries that read a hand's JSON record (or a revision's)."""
    return [
        q["sql"]
        for q in captured.captured_queries
        if '"record"' in q["sql"] and q["sql"].lstrip().upper().startswith("SELECT")
    ]


# The request's own three, the version, the evening, its tables with their seals, the seats
# and the balances' summary.
EVENING_QUERIES = 8


@pytest.mark.parametrize("page", ["evening", "evening_wall"])
def test_the_evening_polls_read_no_record_of_a_table_that_did_not_change(world, page):
    """The evening's and the wall's polls read balances from their summary and each table's
    hands as kept by its head seal: after a save at one table the poll reads the records of
    that table alone (one query, filtered to it), and the next reading reads none, for a
    pinned number of queries; the page shows the new hand."""
    club, client, busy = world["club"], world["client"], world["table"]
    others = [new_member(club=club, name=name) for name in ("Dan", "Eva", "Finn")]
    quiet = services.table_open(evening=world["evening"], members=others)
    factories.random_table_hands(quiet, 3, seed=7)
    url = poll_urls(world)[page]
    client.get(url, **HTMX)
    with CaptureQueriesContext(connection) as captured:
        again = client.get(url, **HTMX)
    assert again.status_code == 200
    assert record_reads(captured) == []
    assert len(captured.captured_queries) == EVENING_QUERIES
    factories.random_table_hands(busy, 1, seed=8)
    with CaptureQueriesContext(connection) as captured:
        after = client.get(url, HTTP_IF_NONE_MATCH=again["ETag"], **HTMX)
    assert after.status_code == 200
    assert after.content != again.content
    reads = record_reads(captured)
    assert len(reads) == 1 and '"ledger_hand"' in reads[0] and "handrevision" not in reads[0]
    assert f'"ledger_hand"."table_id" IN ({busy.pk})' in reads[0]
    assert len(captured.captured_queries) == EVENING_QUERIES + 1
    with CaptureQueriesContext(connection) as captured:
        client.get(url, **HTMX)
    assert record_reads(captured) == []


def test_a_voided_hand_and_a_closed_table_change_the_version(world):
    client, url = world["client"], poll_urls(world)["table"]
    hands = factories.random_table_hands(world["table"], 2, seed=4)
    etag = client.get(url, **HTMX)["ETag"]
    services.hand_void(hand=hands[-1], reason="dealt twice")
    response = client.get(url, HTTP_IF_NONE_MATCH=etag, **HTMX)
    assert response.status_code == 200
    etag = response["ETag"]
    services.evening_close(evening=world["evening"])
    closed = client.get(url, HTTP_IF_NONE_MATCH=etag, **HTMX)
    assert closed.status_code == 200
    assert b"hx-trigger" not in closed.content  # a closed table stops polling


def test_the_full_page_and_other_readers_never_get_the_polls_304(world, client):
    w = world
    url = poll_urls(w)["table"]
    etag = w["client"].get(url, **HTMX)["ETag"]
    assert w["client"].get(url, HTTP_IF_NONE_MATCH=etag).status_code == 200  # not htmx
    other = client.__class__()
    factories.make_member(w["club"], "Tim", login=True)
    other.login(username="test-tim", password=factories.PASSWORD)
    assert other.get(url, HTTP_IF_NONE_MATCH=etag, **HTMX).status_code == 200
    stranger = client.__class__()
    foreign = factories.make_club(slug="other", name="Other")
    factories.make_member(foreign, "Ole", login=True)
    stranger.login(username="other-ole", password=factories.PASSWORD)
    foreign_url = reverse("table", kwargs={"club": "other", "pk": w["table"].pk})
    assert stranger.get(foreign_url, HTTP_IF_NONE_MATCH=etag, **HTMX).status_code == 404


def body(response) -> str:
    """The sheet's part of the page (the frame around it holds a fresh CSRF token each time)."""
    return response.content.decode().split("<main>", 1)[1]


def test_the_evening_sheet_is_kept_by_its_version_and_reader(world):
    client = world["client"]
    url = reverse("evening_sheet", kwargs={"club": world["club"].slug, "pk": world["evening"].pk})
    with CaptureQueriesContext(connection) as rendered:
        first = client.get(url)
    with CaptureQueriesContext(connection) as kept:
        again = client.get(url)
    assert body(again) == body(first)
    assert len(kept.captured_queries) < len(rendered.captured_queries)
    factories.random_table_hands(world["table"], 1, seed=5)
    assert body(client.get(url)) != body(first)
    Member.objects.filter(name="Anna").update(name="Annabel")
    assert "Annabel" in body(client.get(url))
