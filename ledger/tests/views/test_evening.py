"""The evening as the club lives it: the treasurer's way, the close in place, the club page,
the evening's ranking and the wall."""

from __future__ import annotations

import datetime
import re

import pytest
from django.urls import reverse

from ledger import services
from ledger.models import Member
from ledger.tests import factories
from ledger.tests.conftest import load_example
from ledger.tests.helpers import found

pytestmark = pytest.mark.django_db

SLUG = "screens"
E_HANDS = load_example("EVENING_E.evening.json")["hands"]


def url(name, **kwargs):
    return reverse(name, kwargs={"club": SLUG, **kwargs})


@pytest.fixture
def club():
    return factories.make_club(slug=SLUG)


@pytest.fixture
def people(club):
    """Anna (scorekeeper), Bo (member), Carl (treasurer), Dora (club admin)."""
    return {
        "Anna": factories.make_member(club, "Anna", Member.Role.SCOREKEEPER, login=True),
        "Bo": factories.make_member(club, "Bo", Member.Role.MEMBER, login=True),
        "Carl": factories.make_member(club, "Carl", Member.Role.TREASURER, login=True),
        "Dora": factories.make_member(club, "Dora", Member.Role.ADMIN, login=True),
    }


@pytest.fixture
def table(club, people):
    """An open evening with Evening E at one table of Anna, Bo and Carl."""
    evening = services.evening_open(club=club, date=datetime.date(2026, 11, 5))
    table = services.table_open(
        evening=evening, members=[people["Anna"], people["Bo"], people["Carl"]]
    )
    for hand in E_HANDS:
        services.hand_record(table=table, record=hand)
    return table


def as_(client, member):
    client.force_login(member.user)
    return client


# --- 1. the treasurer's way ----------------------------------------------------------------


@pytest.mark.parametrize(
    ("who", "treasury"), [("Bo", False), ("Anna", False), ("Carl", True), ("Dora", True)]
)
def test_evening_page_links_sheet_for_all_and_treasury_for_treasurers(
    client, people, table, who, treasury
):
    """Everyone of the club finds the evening sheet; treasurer and admin the treasurer's screen."""
    evening = table.evening
    page = as_(client, people[who]).get(url("evening", pk=evening.pk)).content.decode()
    sheet = url("evening_sheet", pk=evening.pk)
    treasurer = url("evening_treasury", pk=evening.pk)
    assert f'id="to-sheet" href="{sheet}"' in page
    assert 'class="nav-sheet"' in page
    assert (f'id="to-treasury" href="{treasurer}"' in page) is treasury
    assert ('class="nav-treasury"' in page) is treasury


def test_top_bar_leads_to_sheet_and_treasury_while_the_evening_is_open(client, people, table):
    """On the table page of an open evening the top bar has both; once closed, neither."""
    as_(client, people["Carl"])
    page = client.get(url("table", pk=table.pk)).content.decode()
    assert f'href="{url("evening_sheet", pk=table.evening_id)}" class="nav-sheet"' in page
    assert f'href="{url("evening_treasury", pk=table.evening_id)}" class="nav-treasury"' in page
    services.evening_close(evening=table.evening)
    page = client.get(url("table", pk=table.pk)).content.decode()
    assert "nav-sheet" not in page
    assert "nav-treasury" not in page


# --- 2. a refused close in place -----------------------------------------------------------


def test_a_refused_close_answers_in_place_at_the_close_section(client, people, table):
    """Unconfirmed differences: the refusal heads the close section, the page lands on #close
    and the confirmation box has the focus; nothing of it is at the top of the page."""
    from ledger.tests.helpers import EXPECTED, count_data

    evening = table.evening
    as_(client, people["Carl"])
    counts = count_data(table, {**EXPECTED, "Bo": 420})
    client.post(url("treasury_count", pk=evening.pk, table=table.pk), counts)
    page = client.get(url("evening_treasury", pk=evening.pk)).content.decode()
    assert f'action="{url("treasury_close", pk=evening.pk)}#close"' in page
    assert "data-focus-on-load" not in page
    assert "focus.js" not in page

    response = client.post(url("treasury_close", pk=evening.pk), {})
    assert response.status_code == 422
    page = response.content.decode()
    close = page.index('<section id="close"')
    refusal = page.index('id="close-refusal"')
    form = page.index('id="close-form"')
    assert close < refusal < form
    assert page.index('id="close-error"') > close
    assert 'id="treasury-errors"' not in page
    box = found(r'<input[^>]*name="confirm_differences"[^>]*>', page[form:]).group(0)
    assert "data-focus-on-load" in box
    assert 'src="/static/ledger/focus.js"' in page
    assert 'type="checkbox"' in box
    assert evening.is_open


# --- 3. the club page leads with the live evening ------------------------------------------


def test_club_page_leads_with_the_live_evening(client, people, table):
    """With an evening open, the club page's first big button goes to it, before the start."""
    page = as_(client, people["Anna"]).get(url("club")).content.decode()
    live = page.index(f'id="live-evening" href="{url("evening", pk=table.evening_id)}"')
    assert live < page.index('id="start-evening"')
    assert "Til aftenen 5. november 2026" in page
    assert "Start en ny aften" in page and ">Start en aften<" not in page
    assert 'class="nav-sheet"' in page  # the top bar leads to the open evening too
    services.evening_close(evening=table.evening)
    page = client.get(url("club")).content.decode()
    assert 'id="live-evening"' not in page
    assert "Start en aften" in page


def test_starting_outside_every_season_asks_first(client, club, people):
    """A date in no season is a second step: the box "Start alligevel uden sæson" opens it."""
    as_(client, people["Anna"])
    response = client.post(url("evening_start"), {"date": "01.06.2026"})
    assert response.status_code == 200
    page = response.content.decode()
    assert 'id="no-season"' in page
    assert "Start alligevel uden sæson" in page
    assert 'type="checkbox" name="no_season"' in page
    assert 'value="01.06.2026"' in page  # the date typed is kept
    assert not club.evenings.exists()
    response = client.post(url("evening_start"), {"date": "01.06.2026", "no_season": "on"})
    evening = club.evenings.get()
    assert response["Location"] == url("evening", pk=evening.pk)
    assert evening.season is None and evening.date == datetime.date(2026, 6, 1)


def test_starting_inside_a_season_needs_no_confirmation(client, club, people):
    season = factories.make_season(club)
    as_(client, people["Anna"])
    response = client.post(url("evening_start"), {"date": "05.11.2026"})
    assert response.status_code == 302
    assert club.evenings.get().season == season


@pytest.mark.parametrize("typed", ["24.11.2026", "24-11-2026", "2026-11-24"])
def test_the_date_is_typed_the_danish_way(client, club, people, typed):
    """The start takes 24.11.2026 and 24-11-2026 (and the ISO date) in Danish."""
    factories.make_season(club)
    as_(client, people["Anna"])
    assert client.post(url("evening_start"), {"date": typed}).status_code == 302
    assert club.evenings.get().date == datetime.date(2026, 11, 24)


def test_the_date_field_shows_a_danish_date(client, club, people):
    """The field shows today as dd.mm.åååå, says so, and a wrong date is refused in place."""
    from django.utils import timezone

    as_(client, people["Anna"])
    page = client.get(url("club")).content.decode()
    today = timezone.localdate().strftime("%d.%m.%Y")
    assert f'value="{today}"' in page
    assert 'placeholder="dd.mm.åååå"' in page
    assert 'type="date"' not in page
    response = client.post(url("evening_start"), {"date": "31.02.2026"})
    assert response.status_code == 422
    assert 'id="start-error"' in response.content.decode()
    assert not club.evenings.exists()


# --- 4. the evening's ranking and the wall -------------------------------------------------


def second_table(club, evening):
    """Dorte, Erik and Finn at a second table of ``evening``, with Evening E's first hand."""
    members = [factories.make_member(club, name) for name in ("Dorte", "Erik", "Finn")]
    other = services.table_open(evening=evening, members=members)
    hand = {**E_HANDS[0]}
    names = dict(zip(("Anna", "Bo", "Carl"), ("Dorte", "Erik", "Finn"), strict=True))
    record = json_rename(hand, names)
    services.hand_record(table=other, record=record)
    return other


def json_rename(record, names):
    import json

    text = json.dumps(record)
    for old, new in names.items():
        text = text.replace(f'"{old}"', f'"{new}"')
    return json.loads(text)


def ranking_of(page: str) -> list[tuple[str, int, int]]:
    ranking = page[page.index('class="ranking"') :].split("</ol>")[0]
    return [
        (name, int(points), int(rank))
        for name, points, rank in re.findall(
            r'data-member="([^"]+)" data-points="(-?\d+)" data-rank="(\d+)"', ranking
        )
    ]


def test_the_evening_page_ranks_members_over_all_tables(client, club, people, table):
    """The evening page ranks every seated member by his points so far, across the tables."""
    second_table(club, table.evening)
    as_(client, people["Bo"])
    page = client.get(url("evening", pk=table.evening_id)).content.decode()
    ranking = ranking_of(page)
    assert ranking == sorted(ranking, key=lambda r: -r[1])
    assert {name for name, _p, _r in ranking} == {"Anna", "Bo", "Carl", "Dorte", "Erik", "Finn"}
    tables = {}
    for name, points, _rank in ranking:
        tables[name] = points
    # Each member's points on the ranking are his balance at his table.
    for name in ("Anna", "Dorte"):
        assert f'data-member="{name}" data-points="{tables[name]}"' in page
    assert 'id="evening-ranking"' in page
    assert url("evening_wall", pk=table.evening_id) in page
    assert "Aftenens stilling" in page
    # The 5 s refresh brings the ranking along.
    live = client.get(url("evening", pk=table.evening_id), headers={"HX-Request": "true"})
    assert ranking_of(live.content.decode()) == ranking


def test_equal_points_share_a_rank():
    from ledger.selectors import evening_ranking

    def member(pk, name, points):
        return {"member_id": pk, "name": name, "balance": {"points": points}}

    class T:
        number = 1

    states = [{"table": T, "members": [member(1, "A", 5), member(2, "B", 5), member(3, "C", -10)]}]
    assert [(r["name"], r["rank"]) for r in evening_ranking(states)] == [
        ("A", 1),
        ("B", 1),
        ("C", 3),
    ]


def test_the_wall_shows_tables_and_ranking_without_navigation(client, people, table):
    """Any member reads the wall: each table's pools and balances, the ranking, no top bar,
    refreshing itself every 5 s with htmx."""
    as_(client, people["Bo"])
    response = client.get(url("evening_wall", pk=table.evening_id))
    assert response.status_code == 200
    page = response.content.decode()
    assert 'class="topbar"' not in page and "mainnav" not in page
    assert f'hx-get="{url("evening_wall", pk=table.evening_id)}" hx-trigger="every 5s"' in page
    assert 'data-table="1"' in page and 'data-cup="kongekop"' in page
    assert ranking_of(page)
    assert "<script>" not in page and "style=" not in page
    live = client.get(url("evening_wall", pk=table.evening_id), headers={"HX-Request": "true"})
    assert live.content.decode().lstrip().startswith('<main id="wall-live"')


def test_a_renamed_member_keeps_his_balance_on_the_evening_page(client, club, people, table):
    """The evening page reads each seat's balance by the seat's name as seated (the account's
    code), as the table screen does: a member renamed after he sat down is shown under his new
    name with his balance at the table, not with 0."""
    balances = services.table_balances(table.pk)
    assert balances["Anna"] != 0
    services.member_update(member=people["Anna"], name="Annabel")
    as_(client, people["Bo"])
    page = client.get(url("evening", pk=table.evening_id)).content.decode()
    assert f'data-member="Annabel" data-points="{balances["Anna"]}"' in page
    assert ("Annabel", balances["Anna"]) in [(n, p) for n, p, _r in ranking_of(page)]


# Pinned: the request's own three (session, user, the club with the membership), then the
# evening, its tables with their head seals, seats and the balances' summary; none of them per
# table. The hands' records are read (one query more) only for the tables whose seal moved
# since the last reading (``selectors.evening_deals``). Was 11 (the membership apart, the
# accounts, two transfer sums, the hands).
WALL_QUERIES = 7


def test_the_wall_costs_the_same_queries_whatever_the_number_of_tables(
    client, club, people, table, django_assert_num_queries
):
    """One table or three: the wall (and its refresh) costs a pinned number of queries, one
    more (the changed tables' hands) when a table changed since the last reading."""
    as_(client, people["Bo"])
    wall = url("evening_wall", pk=table.evening_id)
    client.get(wall)  # the session is warm
    with django_assert_num_queries(WALL_QUERIES):
        client.get(wall)
    second_table(club, table.evening)
    more = [factories.make_member(club, n) for n in ("Gry", "Hans", "Ida")]
    services.table_open(evening=table.evening, members=more)
    with django_assert_num_queries(WALL_QUERIES + 1):
        page = client.get(wall).content.decode()
    assert 'data-table="3"' in page
    # The refresh reads the evening's version first (its 304 when nothing changed).
    with django_assert_num_queries(WALL_QUERIES + 1):
        client.get(wall, headers={"HX-Request": "true"})


# --- 5. admin words: the seating drop-down -------------------------------------------------


def test_the_seating_drop_down_asks_in_words(client, club, people, table):
    """Seating a late arrival offers "Vælg et medlem …", not Django's "---------"."""
    factories.make_member(club, "Dorte")
    page = as_(client, people["Anna"]).get(url("table", pk=table.pk)).content.decode()
    assert '<option value="" selected>Vælg et medlem …</option>' in page
    assert "---------" not in page
