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
    # season (the hands name them by their labels).
    "member": 9,
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


# A hand saved from the tablet, through the view: the request's own 3, the table (the view
# reads no seats before the save); the save (ledger/services/hands.py) locks its table, reads
# its evening, then the slot, the version and the token in one query, the round table, the
# seats, the accounts with their balances (one query) and the last state, writes the hand, its
# revision and their seals, the posting with its transfers, balances, seats and statistics
# (bulk) and the heads' seals (ledger/services/seals.py reads the table's head content: 9 of
# the queries). Was 39: the membership apart, the seats read by the view and again for the
# state, the slot, the version and the token apart, the balances apart from the accounts.
SAVE_QUERIES = 33


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
    the number of hands already at the table, and the hand is saved."""
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


# A hand saved through the service (locks, the posting and transfers, the summaries, the seat
# rows, the seals and its table's head): 31 before the club's chain and 31 with it. A hand save
# seals its table's head only; the chain is read (one query, the touched evenings' and
# tournaments' last links) and grows only when a service touches an evening or a tournament, and
# the head changes only when an evening, a tournament or a round is created or changes status.
# After the fewer round trips of the save (the slot, the accounts with their balances, the
# seats read once): 29.
HAND_SAVE_QUERIES = 29


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
