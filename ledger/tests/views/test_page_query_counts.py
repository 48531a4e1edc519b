"""Every page of the site costs a fixed number of queries, whatever the history.

Each GET page of the authorization matrix is requested by the club's admin over the matrix's
small world (Evening E closed, and again open), then again after the history has grown (forty
more hands at the open table with a correction and a void, two more closed evenings of forty
hands, six more members): the counts must be the pinned ones both times.
"""

from __future__ import annotations

import datetime

import pytest
from django.core.cache import cache
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from ledger import services
from ledger.models import Series
from ledger.services.federation.ladder import ladder_kept
from ledger.tests.factories import evening_e, new_member, random_table_hands
from ledger.tests.helpers import MATRIX, build_world, client_for, kwargs_for

pytestmark = pytest.mark.django_db

# The pages that answer the matrix's world with a redirect to another page.
BACK_TO_THE_PAGE = {"tournament_results_file"}
GET_PAGES = sorted(name for name, (get_role, _post) in MATRIX.items() if get_role is not None)

# Each page's queries, the request's own included (session, user, and the club with the
# membership in one query: each page is one fewer than before, ledger.web.permissions). A PDF
# that is not kept adds the shared cache's (ledger/web/kept.py): 6 for the user's render lock
# (the cache's count, a savepoint, a read, an insert, its release, the delete), a read of the
# store, and for a kept kind its version (1-2) and 5 to keep it. The evening sheet page not
# yet kept: its version, the names, the store's read and 5 to keep it.
QUERIES = {
    "club": 6,  # the tournaments being played, listed apart from the club's evening
    # The evening and its wall read the balances' summary and each table's hands as kept by
    # its head seal (here none kept: the cache is cleared); were 11 (accounts, transfer sums).
    "evening": 8,
    "evening_sheet": 18,
    "evening_sheet_pdf": 19,  # + the club's chain head, printed beside the signatures
    "evening_treasury": 17,
    "evening_wall": 8,
    # + is it a round table (its number and strip); + its erased members' seats (labels)
    "hand": 10,
    "hand_correct": 10,  # + is it a round table (the round's strip)
    "hand_new": 10,  # + is it a round table (the round's strip)
    # The world's table is no round table: the hand waiting (none) and the round's strip
    # (none); the page says nothing waits.
    "hand_confirm": 6,
    # + the erased members seated in the season (their labels); not yet kept (issue 31): its
    # version (the season's seals), the names, the store's read and 5 to keep it
    "member_season": 17,
    # + the same; kept now (issue 31): its version (the season's seals, the names), the
    # store's read and 5 to keep it
    "member_season_pdf": 24,
    "my_page": 11,  # + the member's running tournament entries
    # His own data: memberships, profile, tables, hands, results, entries, round results,
    # the club log, evening log, hand revisions and federation log he wrote.
    "my_data": 14,
    "my_data_pdf": 14,
    "setup_invitations": 4,
    "setup_invitations_pdf": 4,
    "setup_members": 5,
    "setup_rates": 3,
    "setup_season_edit": 4,
    "setup_seasons": 4,
    "setup_settings": 3,
    "setup_people_log": 5,  # the log's length (its pages) and a page of it with its authors
    "standings": 9,
    "standings_pdf": 23,
    # The table and its state read its accounts with their balances in one query (were two).
    "table": 18,  # + is it a round table (the round's strip); + who sits at another open table
    "table_link": 7,
    # The matrix's tournament is not final: the director is sent back with the reason (the
    # tournament, its club's federation); a final one's file is pinned in
    # federation/test_results_file.py.
    "tournament_results_file": 4,
    "table_state": 11,
    "table_sheet_pdf": 20,  # + the club's chain head
    "table_new": 10,
    "tournaments": 4,
    "tournament": 9,  # + the rating lists and the ladder series that may seed it
    "tournament_round": 8,
    # The tournament's PDFs are rendered under the user's render lock (+6, see above).
    "tournament_round_pdf": 14,
    "tournament_round_cards_pdf": 15,  # the round's tables and their links
    "tournament_round_result_pdf": 14,  # the round, its draw's figures, the corrections
    "tournament_round_table_sheet_pdf": 12,  # a published round's table before the start
    "tournament_standings": 7,  # entries, closed rounds, their results; the rest kept
    # The rounds' logs, for the corrections after the period; + the club's chain head.
    "tournament_ranking_pdf": 22,  # kept (issue 31): the names, the store's read, 5 to keep it
    "tournament_wall": 8,
    # + the club's series, the kept ladder's fingerprint (its events, the last merge), the
    # kept ladder, the count of its lines (none in the world: no page read).
    "series_ladder": 8,
    # The kept ladder (its fingerprint, the kept one) and its lines, the user's render lock
    # (+6), the store.
    "series_ladder_pdf": 15,
    "cup_change": 5,  # + the cup, its events (their tournaments joined)
    "cup_event": 5,  # + the cup, its event (its tournament joined)
    # The evening, the clubs of its game (their cards may be tried), and its tables' seats,
    # accounts, postings and transfers (selectors.whatif: five, whatever the evenings).
    "whatif": 10,
    "whatif_pdf": 16,  # + the user's render lock
}


def grow(w) -> None:
    """Add history around the pages' objects, leaving the objects themselves as they were."""
    club = w["club"]
    for name in ("Dorte", "Erik", "Frida", "Gorm", "Hanne", "Ib"):
        new_member(club=club, name=name)
    added = services.members_add(club=club, names=[f"Guest {n}" for n in range(60)])
    for member in added[:10]:
        services.member_update(member=member, role="scorekeeper")
        services.invitation_create(member=member)
    hands = random_table_hands(w["table"], 40, seed=11)
    services.hand_correct(hand=hands[3], record=hands[4].record, reason="swapped")
    services.hand_void(hand=hands[5], reason="dealt twice")
    for day in (12, 13):
        evening, table, _ = evening_e(club, date=datetime.date(2026, 11, day))
        random_table_hands(table, 40, seed=day)
        services.evening_close(evening=evening)


def counts(client, w) -> dict[str, int]:
    out = {}
    # The URLs first: the cup's event page makes the cup's event on first use (kwargs_for).
    urls = {name: reverse(name, kwargs=kwargs_for(name, w)) for name in GET_PAGES}
    # The kept ladders are derived rows in the database (as the ratings are), not the cache:
    # kept first, as every read after the first finds them (the first read's recompute is
    # ledger/tests/federation/test_kept_ladder.py's).
    for series in Series.objects.all():
        ladder_kept(series)
    for name, url in urls.items():
        cache.clear()  # each page as its first reader finds it: nothing kept in this process
        with CaptureQueriesContext(connection) as captured:
            response = client.get(url)
        expected = 302 if name in BACK_TO_THE_PAGE else 200
        assert response.status_code == expected, (name, response.status_code)
        out[name] = len(captured.captured_queries)
    return out


@pytest.mark.slow
def test_every_page_costs_the_same_number_of_queries_whatever_the_history():
    world = build_world()
    client = client_for(world["users"]["admin"])
    client.get(reverse("club", kwargs={"club": world["club"].slug}))  # a warm session
    small = counts(client, world)
    assert small == {name: QUERIES.get(name) for name in GET_PAGES}
    grow(world)
    large = counts(client, world)
    grown = {name: (small[name], large[name]) for name in GET_PAGES if small[name] != large[name]}
    assert not grown, grown
