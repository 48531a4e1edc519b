"""Every page of the treasurer and the season costs a fixed number of queries.

The same pages are requested over a small history (Evening E, closed, and a second Evening E
still open) and over a large one (four evenings, two tables at one of them, five members,
~150 hands with a voided one and an adjustment): each page must cost exactly the number of
queries pinned here in both. Three of them are the request's own: the session, the user, and
the club with the membership (one query, ``ledger.web.permissions.club_and_membership``; each
pin is one fewer than when they were read apart).
"""

from __future__ import annotations

import random

import pytest
from django.db import connection
from django.urls import reverse

from ledger import selectors, services
from ledger.models import Member
from ledger.selectors.verify import verify_ledger
from ledger.tests import factories
from ledger.tests.helpers import hand_post, large_history, small_history

pytestmark = pytest.mark.django_db

# The standings and a member's season read the two summaries (balances and statistics) in one
# query over the season's member accounts (the request's own: 3, was 5).
QUERIES = {
    "standings": 9,  # +1 the open evenings, -1 the evenings list counted by Python
    "standings_csv": 8,
    "standings_xlsx": 8,
    # A PDF not kept: +6 the user's render lock, +1 the store's read, and for a kept kind
    # +1-2 its version and +5 to keep it (ledger/web/kept.py).
    "standings_pdf": 23,
    # The hands page without a count (LazyPaginator); + the erased members seated in the
    # season (the hands name them by their labels); not yet kept (issue 31): +2 its version
    # (the season's seals) and the names, +1 the store's read, +5 to keep it. Read again,
    # kept: the request's 3, the member, the seasons, the seals and the names.
    "member": 17,
    "member_again": 7,
    "member_hands_xlsx": 9,
    "member_pdf": 24,  # kept now (issue 31): +2 its version, +1 the store's read, +5 to keep it
    # The sheet not yet kept: +3 the evening's version, the names and the store's read, +5
    # to keep it (ledger/web/kept.py).
    "sheet_closed": 18,
    "sheet_open": 18,
    "sheet_pdf": 26,  # + the club chain head, printed beside the signatures
    "sheet_pdf_transfers": 26,
    "table_sheet_pdf": 27,  # + the club chain head
    "treasury_closed": 17,  # when each table last changed (stale counts) and its version
    "treasury_open": 17,
}


def pages(club, closed, still_open) -> dict[str, str]:
    anna = Member.objects.get(club=club, name="Anna")
    slug = club.slug

    def evening_url(name, evening):
        return reverse(name, kwargs={"club": slug, "pk": evening.pk})

    standings = reverse("standings", kwargs={"club": slug})
    member = reverse("member_season", kwargs={"club": slug, "pk": anna.pk})
    return {
        "standings": standings,
        "standings_csv": f"{standings}?_export=csv",
        "standings_xlsx": f"{standings}?_export=xlsx",
        "standings_pdf": reverse("standings_pdf", kwargs={"club": slug}),
        "member": member,
        "member_again": member,
        "member_hands_xlsx": f"{member}?table=hands&_export=xlsx",
        "member_pdf": reverse("member_season_pdf", kwargs={"club": slug, "pk": anna.pk}),
        "sheet_closed": evening_url("evening_sheet", closed),
        "sheet_open": evening_url("evening_sheet", still_open),
        "sheet_pdf": evening_url("evening_sheet_pdf", closed),
        "sheet_pdf_transfers": evening_url("evening_sheet_pdf", closed) + "?transfers=1",
        "table_sheet_pdf": reverse(
            "table_sheet_pdf",
            kwargs={"club": slug, "pk": closed.pk, "table": closed.tables.order_by("pk")[0].pk},
        ),
        "treasury_closed": evening_url("evening_treasury", closed),
        "treasury_open": evening_url("evening_treasury", still_open),
    }


def check_pages(client, club, closed, still_open, django_assert_num_queries):
    factories.make_member(club, "Tove", "treasurer", login=True)
    client.login(username="test-tove", password=factories.PASSWORD)
    for name, url in pages(club, closed, still_open).items():
        with django_assert_num_queries(QUERIES[name]):
            response = client.get(url)
        assert response.status_code == 200, name


def test_query_counts_with_a_small_history(client, django_assert_num_queries):
    """Over Evening E alone each page costs its pinned number of queries."""
    club = factories.make_club()
    check_pages(client, club, *small_history(club), django_assert_num_queries)


@pytest.mark.slow
def test_query_counts_with_a_large_history(client, django_assert_num_queries):
    """Over ~150 hands at four evenings each page costs the same number as over Evening E."""
    club = factories.make_club()
    check_pages(client, club, *large_history(club), django_assert_num_queries)


# A hand saved from the tablet, through the view: 15 queries (16 on PostgreSQL, whose save
# first sets its lock and statement timeouts: ``services.locking``). The request's own 3 (the
# session, the user, the club with the membership); the save's transaction (a savepoint here,
# inside the test's transaction, and its release: on a server BEGIN and COMMIT, as many); and
# the save (ledger/services/hands.py), which reads nothing twice:
#   1 lock the table (its row only, FOR UPDATE; only a table of the club, and of the link's
#     grants: the view reads no table before the save);
#   1 read, after the lock, the table's accounts with their balances, statistics and seats,
#     joined to the table, its evening and club, with the next number, the version, the token,
#     the numbers of hands and postings, the last posting's seal, the last state, whether it is
#     a round table and its number of seats (``lock_table_for_hand``);
#   7 writes: the hand, its revision, the posting, its transfers (bulk), the balances (one
#     upsert), the seat rows (bulk) and the statistics (one upsert);
#   1 the seals: the revision's, the posting's, the hand's and the table's head, in one
#     statement (``seals.seal_heads``; the hand and the head as the save holds them).
# Was 39, then 33: the table read by the view and again under the lock, the evening, the slot,
# the round table, the seats, the accounts, the last state and the statistics apart, three
# previous seals and the head's six reads, every seal its own insert.
SAVE_QUERIES = 15


def next_record(table, number: int) -> dict:
    """A random valid record of hand ``number`` at ``table``, following its rotation."""
    seats = [s.member.name for s in selectors.current_seats(table.pk)]
    rates = services.rate_card(table.evening)
    dealer, out = factories.rotation.hand_schedule(seats, seats[0], number, "two_sitters")
    rng = random.Random(number)
    return factories.random_hand(rng, seats, dealer, rates, sitting_out=out, with_table=False)


def test_a_hand_saved_from_the_tablet_costs_a_pinned_number_of_queries(
    client, django_assert_num_queries
):
    """Saving a hand through the view costs exactly the pinned number of queries, whatever
    the number of hands already at the table, and the hand is saved (and the ledger verifies)."""
    club = factories.make_club()
    anna = factories.make_member(club, "Anna", Member.Role.SCOREKEEPER, login=True)
    members = [anna, factories.make_member(club, "Bo"), factories.make_member(club, "Carl")]
    evening, table, hands = factories.evening_e(club, members=members)
    client.login(username="test-anna", password=factories.PASSWORD)
    url = reverse("hand_new", kwargs={"club": club.slug, "pk": table.pk})
    for extra in (0, 20):
        factories.random_table_hands(table, extra, seed=9)
        number = services.next_hand_number(table.pk)
        record = next_record(table, number)
        data = hand_post(table, record)
        # On PostgreSQL ``writing()`` sets its lock and statement timeouts first (one query).
        with django_assert_num_queries(SAVE_QUERIES + (connection.vendor == "postgresql")):
            response = client.post(url, data, headers={"X-Hand-Submit": "1"})
        assert response.json() == {
            "saved": True,
            "url": reverse("table", kwargs={"club": club.slug, "pk": table.pk}),
            "number": number,
        }
    assert verify_ledger().ok


# A hand saved through the service: the savepoint and its release, the lock, the read under
# it, the seven writes and the seals (as through the view above). A hand save seals its
# table's head only; the club's chain grows only when a service touches an evening or a
# tournament. Was 31, then 29 before the reads under the lock were merged and the seals
# written in one statement.
HAND_SAVE_QUERIES = 12


def test_a_hand_save_costs_a_fixed_number_of_queries():
    """Saving a hand costs the pinned number of queries, at the third hand as at the thirtieth."""
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    from ledger import services
    from ledger.tests.conftest import load_example

    club = factories.make_club()
    evening, table, hands = factories.evening_e(club)
    record = load_example("EVENING_E.evening.json")["hands"][0]
    counts = []
    for _ in range(2):
        with CaptureQueriesContext(connection) as captured:
            services.hand_record(table=table, record=record)
        counts.append(len(captured.captured_queries))
        factories.random_table_hands(table, 25, seed=4)
    # On PostgreSQL ``writing()`` sets its lock and statement timeouts first (one query).
    assert counts == [HAND_SAVE_QUERIES + (connection.vendor == "postgresql")] * 2
