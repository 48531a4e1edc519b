"""A member's own page (Min side): tonight, the season with its rank, the chart, last hands."""

from __future__ import annotations

import datetime
import re

import pytest
from django.contrib.auth import get_user_model
from django.urls import reverse

from ledger import selectors
from ledger.tests import factories
from ledger.tests.helpers import build_season, found, large_history, log_in_as, small_history

pytestmark = pytest.mark.django_db

# The request's 3 (was 4: the club with the membership), the page's 7 (summaries), its
# tournament entries.
MY_PAGE_QUERIES = 11


@pytest.mark.parametrize("history", [small_history, large_history])
def test_my_page_costs_a_fixed_number_of_queries(client, django_assert_num_queries, history):
    club = factories.make_club()
    history(club)
    log_in_as(client, club)
    url = reverse("my_page", kwargs={"club": club.slug})
    with django_assert_num_queries(MY_PAGE_QUERIES):
        response = client.get(url)
    assert response.status_code == 200


def test_my_page_shows_tonight_the_season_rank_and_last_hands(client):
    club = factories.make_club()
    season, evenings = build_season(club, hands=40)
    anna = log_in_as(client, club)
    response = client.get(reverse("my_page", kwargs={"club": club.slug}))
    html = response.content.decode()
    standings = selectors.standings_for_season(season=season)
    mine = next(r for r in standings if r.member_id == anna.pk)
    assert response.context["rank"] == mine.rank
    assert response.context["ranked"] == len(standings)
    assert response.context["standing"].points == mine.points
    assert response.context["standing"].best == mine.best
    # Tonight: Anna sits at the open evening's table; her balance there is the table's.

    open_table = evenings[3].tables.get()
    tonight = [t for t in response.context["tonight"] if t.table_id == open_table.pk]
    assert tonight[0].balance == selectors.table_balances(open_table.pk)["Anna"]
    assert 'id="tonight"' in html and 'id="chart"' in html and 'id="me-hands"' in html
    assert len(response.context["hands"]) == 10
    hands = list(selectors.member_hands(season=season, member=anna))
    assert [h.pk for h in response.context["hands"]] == [h.pk for h in reversed(hands)][:10]
    assert 'id="my-page-link"' in html  # the top bar links to the page


def test_the_chart_is_legible_at_phone_width(client):
    """The chart's labels are at least 11 px when its 720 units are shown 358 px wide."""
    club = factories.make_club()
    large_history(club)
    log_in_as(client, club)
    html = client.get(reverse("my_page", kwargs={"club": club.slug})).content.decode()
    svg = html[html.index("<svg") : html.index("</svg>")]
    width = float(found(r'viewBox="0 0 ([\d.]+) ', svg).group(1))
    sizes = [float(s) for s in re.findall(r'font-size="([\d.]+)"', svg)]
    assert min(sizes) * 358 / width >= 11


def test_a_user_without_a_seat_in_the_club_is_told_so(client):
    club = factories.make_club()
    admin = get_user_model().objects.create_superuser("root", "root@example.org", "pw-root-1")
    client.force_login(admin)
    response = client.get(reverse("my_page", kwargs={"club": club.slug}))
    assert response.status_code == 200
    assert 'id="not-a-member"' in response.content.decode()


def test_my_page_needs_a_log_in(client):
    club = factories.make_club()
    response = client.get(reverse("my_page", kwargs={"club": club.slug}))
    assert response.status_code == 302


def test_this_evening_names_the_club_evening_not_the_tournament_day(client):
    """Anna sits at tonight's club table, at a table of an earlier evening nobody closed and
    at a table of a running tournament's started round: "This evening so far" shows tonight's
    club evening alone (one date); the tournament has its own section with her round, table
    and seat."""
    from ledger import services
    from ledger.services import tournaments

    club = factories.make_club()
    people = [factories.make_member(club, name) for name in ("Anna", "Bo", "Carl")]
    forgotten = services.evening_open(club=club, date=datetime.date(2026, 10, 29))
    services.table_open(evening=forgotten, members=people)
    evening = services.evening_open(club=club, date=datetime.date(2026, 11, 5))
    table = services.table_open(evening=evening, members=people)
    tournament = tournaments.tournament_create(
        club=club,
        name="DP",
        date=datetime.date(2026, 12, 5),
        game="slovenian_tarok",
        tournament_format="sl_dp",
    )
    tournaments.entries_add(tournament=tournament, members=people)
    round_ = tournaments.round_publish(round_=tournaments.round_draw(tournament=tournament))
    tournaments.round_start(round_=round_)
    log_in_as(client, club)
    html = client.get(reverse("my_page", kwargs={"club": club.slug})).content.decode()
    tonight = html[
        html.index('id="tonight"') : html.index("</section>", html.index('id="tonight"'))
    ]
    assert tonight.count('class="me-tonight"') == 1
    assert f'href="{reverse("table", kwargs={"club": club.slug, "pk": table.pk})}"' in tonight
    assert "05.11.2026" in tonight
    assert "29.10.2026" not in tonight and "05.12.2026" not in tonight
    assert f'id="my-seat-{tournament.pk}"' in html
