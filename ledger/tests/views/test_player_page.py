"""The player's own page (/me/player/, site-level) and the officer's ratings page: who sees
what, the query pin, the chart and the explained tables; a list created and refused by
field."""

import datetime

import pytest
from django.contrib.auth import get_user_model
from django.core.cache import cache
from django.urls import reverse

from ledger.models import RatingList
from ledger.services import federation as fed
from ledger.tests.factories import make_member
from ledger.tests.federation.test_ratings import played, world
from ledger.tests.helpers import client_for, federation_world, main

pytestmark = pytest.mark.django_db

# The session, the user, his players, then per player: his memberships, his final entries,
# the tournament's standings (its rounds, entries, round tables, byes), his imported
# placings, the series that may count him (each one's kept ladder: its fingerprint and the
# kept one; then his lines on them: none here, so neither), his rating changes and current
# ratings.
MY_PLAYER_QUERIES = 12


@pytest.fixture
def rated():
    club, tzs, members = world(("Ana", "Bor", "Cene", "Dan"))
    ana = make_member(club, "Anja", login=True)
    members["Anja"] = ana
    played(
        club,
        members,
        datetime.date(2026, 10, 1),
        {"Anja": 20, "Bor": 0, "Cene": -5, "Dan": -15},
        "Pokal Kranj",
    )
    fed.rating_list_create(federation=tzs, name="Rating TZS")
    ana.refresh_from_db()
    return ana


def test_a_visitor_goes_to_the_log_in():
    answer = client_for(None).get(reverse("my_player"))
    assert answer.status_code == 302 and "/login/" in answer["Location"]


def test_a_member_sees_his_results_chart_and_explained_tables(rated, django_assert_num_queries):
    """His name, club, the tournament with rank and points, his rating (whole), the chart
    with its title and a table of his rated table: before, expected, actual, K, change."""
    client = client_for(rated.user)
    with django_assert_num_queries(MY_PLAYER_QUERIES):
        page = client.get(reverse("my_player"))
    assert page.status_code == 200
    text = page.content.decode()
    assert "Anja" in text and "Tarok Kranj" in text and "Pokal Kranj" in text
    assert "<svg" in text and 'role="img"' in text
    assert "rating-changes" in text and "Rating TZS" in text
    assert 'data-rating="1520"' in text  # 1500 + 40 · (1 − 1/2) after a table she won
    assert "+20.0" in text and "0.50" in text and "1.00" in text


def test_a_user_sees_only_his_own_players(rated):
    """Another member's log-in (not yet a player) never shows Anja's; a user with no player
    is told."""
    bor = make_member(rated.club, "Borut", login=True)
    text = client_for(bor.user).get(reverse("my_player")).content.decode()
    assert "Anja" not in text and 'id="no-player"' in text
    stranger = get_user_model().objects.create_user("stranger", password="x-stranger-pw-1")
    text = client_for(stranger).get(reverse("my_player")).content.decode()
    assert 'id="no-player"' in text


def test_my_page_links_to_the_player_page(rated):
    text = client_for(rated.user).get(reverse("my_page", kwargs={"club": "kranj"})).content
    assert reverse("my_player").encode() in text


def test_the_officer_creates_lists_and_a_bad_k_is_refused_by_field():
    w = federation_world()
    client = client_for(w["officer"])
    url = reverse("federation_ratings", kwargs={"federation": "tzs"})
    data = {
        "name": "Second",
        "initial_rating": 1500,
        "scale": 400,
        "k_new": 40,
        "new_tables": 20,
        "k": -5,
    }
    answer = client.post(url, data, HTTP_ACCEPT_LANGUAGE="en")
    assert answer.status_code == 422
    assert not RatingList.objects.filter(name="Second").exists()
    answer = client.post(url, {**data, "k": 20})
    assert answer.status_code == 302
    created = RatingList.objects.get(name="Second")
    assert created.params == {
        "initial": 1500.0,
        "scale": 400.0,
        "k_new": 40.0,
        "new_tables": 20,
        "k": 20.0,
    }
    page = client.get(f"{url}?list={created.pk}").content.decode()
    assert "Second" in page and 'id="rating-recompute"' in page


def test_the_director_seeds_by_rating_and_sees_each_ranks_source(rated):
    """On the tournament's page the director picks the list: the entries get their ranks by
    rating (Anja, who won, first; the unrated after), each shown with its source."""
    from ledger.models import Member
    from ledger.services import tournaments as tour

    club = rated.club
    admin = make_member(club, "Admin", role=Member.Role.ADMIN, login=True)
    t = tour.tournament_create(
        club=club,
        name="Next",
        date=datetime.date(2026, 10, 8),
        game="slovenian_tarok",
        tournament_format="sl_dp",
        params={"rounds": 1},
    )
    names = ("Anja", "Bor", "Eva")
    eva = make_member(club, "Eva")
    tour.entries_add(
        tournament=t, members=[*Member.objects.filter(club=club, name__in=names[:2]), eva]
    )
    listed = RatingList.objects.get()
    client = client_for(admin.user)
    url = reverse("tournament_rating", kwargs={"club": club.slug, "pk": t.pk})
    assert client.post(url, {"rating_list": "999"}).status_code == 302
    t.refresh_from_db()
    assert t.rating_list_id is None
    assert client.post(url, {"rating_list": str(listed.pk)}).status_code == 302
    assert dict(t.entries.values_list("name", "ladder_rank")) == {"Anja": 1, "Bor": 2, "Eva": 3}
    page = client.get(reverse("tournament", kwargs={"club": club.slug, "pk": t.pk}))
    text = page.content.decode()
    assert 'id="seeded-by"' in text and "rank-source" in text


def test_a_member_sees_his_line_on_each_kept_ladder(rated):
    """A series of the federation with his tournament: his page shows its name, his place,
    his total with two decimals and his events, read from the kept ladder."""
    tzs = rated.club.federations.get()
    t = rated.club.tournaments.get()
    series = fed.series_create(
        federation=tzs,
        name="Pokal 2026",
        seed="Pokal 2026",
        starts_on=datetime.date(2026, 9, 1),
        ends_on=datetime.date(2027, 6, 30),
        rule={"source": "placement", "scale": {"kind": "linear"}},
        events=[(t, "3/2")],
    )
    text = client_for(rated.user).get(reverse("my_player")).content.decode()
    assert 'id="player-ladders"' in text
    row = text[text.index(f'data-series="{series.pk}"') :].split("</tr>")[0]
    assert "Pokal 2026" in row and ">1<" in row and "6.00" in row


def test_the_kept_rated_tables_and_chart_follow_a_new_rated_table(rated):
    """The rated tables' table and the chart are kept by what they show: a second read is
    the same page, and a new final tournament (a new rated table) shows at once."""
    cache.clear()
    client = client_for(rated.user)
    first = client.get(reverse("my_player")).content.decode()
    assert main(client.get(reverse("my_player")).content.decode()) == main(first)
    members = {m.name: m for m in rated.club.members.all()}
    played(
        rated.club,
        members,
        datetime.date(2026, 10, 8),
        {"Anja": -15, "Bor": 20, "Cene": 0, "Dan": -5},
        "Pokal Kranj 2",
    )
    after = client.get(reverse("my_player")).content.decode()
    chart = lambda html: html.split("<svg", 1)[1].split("</svg>", 1)[0]  # noqa: E731
    rows = lambda html: html.split("rating-changes", 1)[1].split("</table>", 1)[0].count("<tr")  # noqa: E731
    assert rows(after) == rows(first) + 1
    assert chart(after) != chart(first)
    cache.clear()
    assert main(client.get(reverse("my_player")).content.decode()) == main(after)
