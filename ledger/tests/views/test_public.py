"""Public results: a club that ticks "publish results" shows its standings and closed evenings
without log-in; names and points only, money only when ticked too; otherwise 404 everywhere."""

from __future__ import annotations

import datetime
import re

import pytest
from django.test import Client
from django.urls import reverse

from ledger import selectors, services
from ledger.forms.admin import ClubForm
from ledger.models import Club, EveningResult
from ledger.services import tournaments as tour
from ledger.tables.columns import money_text
from ledger.tests import factories
from ledger.tests.helpers import build_season, form_data, fresh, rolled_back

pytestmark = pytest.mark.django_db

# The public pages' queries: the club, its seasons, the standings (three), its closed
# evenings and (the club's page) its tournaments and its chain's head (one query: the last
# link and the head's seal); an evening: the club, the evening, its results and its tables.
PUBLIC_STANDINGS_QUERIES = 8
PUBLIC_EVENING_QUERIES = 4


@pytest.fixture(scope="module")
def built_season_club(django_db_setup, django_db_blocker):
    """The season of ``season_club``, built once for the module (each test's writes roll back)."""
    with rolled_back(django_db_blocker):
        # A slug of its own: the module's other tests make the factory's default club.
        club = factories.make_club(slug="published", name="Published", publish_results=True)
        season, evenings = build_season(club, hands=8)
        yield club, season, evenings


@pytest.fixture
def season_club(built_season_club):
    """A club with a season of four evenings (the last one open), results published: the
    module's, read afresh for each test (a test may change its copies)."""
    club, season, evenings = built_season_club
    return fresh(club), fresh(season), [fresh(e) for e in evenings]


def public_urls(club, evening) -> list[str]:
    slug = club.slug
    return [
        reverse("public_club", kwargs={"club": slug}),
        reverse("public_standings", kwargs={"club": slug}),
        reverse("public_evening", kwargs={"club": slug, "pk": evening.pk}),
    ]


def money_figures(season) -> set[str]:
    """Return the money of the standings as the page would print it (nonzero amounts)."""
    rows = selectors.standings_for_season(season=season, closed_only=True)
    return {money_text(r.money) for r in rows if r.money}


def test_nothing_is_public_by_default():
    """A new club publishes nothing: both settings start off."""
    club = factories.make_club()
    assert (club.publish_results, club.publish_money) == (False, False)
    assert club.get_public_url() is None


def test_every_public_url_is_404_while_not_published(season_club):
    """With publish results off every public URL answers 404, to anyone, logged in or not."""
    club, _season, evenings = season_club
    Club.objects.filter(pk=club.pk).update(publish_results=False, publish_money=True)
    admin = factories.make_member(club, "Admin", role="admin", login=True)
    logged_in = Client()
    assert admin.user is not None
    logged_in.force_login(admin.user)
    for client in (Client(), logged_in):
        for url in public_urls(club, evenings[0]):
            assert client.get(url).status_code == 404, url
    assert Client().get("/p/no-such-club/").status_code == 404


def test_standings_are_public_with_names_and_points_and_no_money(season_club):
    """Anyone reads the standings: every member's name and points; no money, no currency."""
    club, season, _evenings = season_club
    response = Client().get(reverse("public_club", kwargs={"club": club.slug}))
    assert response.status_code == 200
    html = response.content.decode()
    for row in selectors.standings_for_season(season=season, closed_only=True):
        assert f'data-member="{row.name}"' in html
        assert f'data-points="{row.points}"' in html
    assert "data-money" not in html
    assert club.currency not in html
    for figure in money_figures(season):
        assert figure not in html
    # The same page again by season, and an export asked for is ignored: HTML, no money.
    url = reverse("public_standings", kwargs={"club": club.slug})
    response = Client().get(url, {"season": season.pk, "_export": "csv"})
    assert response["Content-Type"].startswith("text/html")
    assert "data-money" not in response.content.decode()


def test_money_shows_only_when_the_club_publishes_it(season_club):
    """With publish money ticked too the standings and the evenings show the money."""
    club, season, evenings = season_club
    Club.objects.filter(pk=club.pk).update(publish_money=True)
    html = Client().get(reverse("public_club", kwargs={"club": club.slug})).content.decode()
    assert "data-money" in html
    for figure in money_figures(season):
        assert figure in html
    evening = Client().get(public_urls(club, evenings[0])[2]).content.decode()
    result = EveningResult.objects.filter(evening=evenings[0]).exclude(money=0).first()
    assert result is not None
    assert f'data-money="{result.money}"' in evening


def test_publish_money_alone_publishes_nothing(season_club):
    """Money ticked without the results keeps every page 404."""
    club, _season, evenings = season_club
    Club.objects.filter(pk=club.pk).update(publish_results=False, publish_money=True)
    for url in public_urls(club, evenings[0]):
        assert Client().get(url).status_code == 404, url


def test_a_closed_evening_shows_each_members_result_and_each_table(season_club):
    """A closed evening's page lists each member's result of the closing, best first, then
    each table's members with their points there; no money."""
    club, _season, evenings = season_club
    evening = evenings[1]  # two tables, five members
    response = Client().get(reverse("public_evening", kwargs={"club": club.slug, "pk": evening.pk}))
    assert response.status_code == 200
    html = response.content.decode()
    results = {r.member.name: r.points for r in EveningResult.objects.filter(evening=evening)}
    table = html[html.index('id="results"') : html.index("</table>", html.index('id="results"'))]
    shown = re.findall(r'data-member="([^"]+)".*?data-points="(-?\d+)"', table, re.S)
    assert {name: int(points) for name, points in shown} == results
    assert [int(p) for _n, p in shown] == sorted(results.values(), reverse=True)
    assert html.count('class="public-table-box"') == evening.tables.count() == 2
    assert "data-money" not in html and club.currency not in html


def test_a_reopened_and_closed_again_evening_shows_the_last_closing(season_club):
    """After a reopening and a second closing only the second closing's results show."""
    club, _season, evenings = season_club
    evening = evenings[2]
    services.evening_reopen(evening=evening, reason="a count was wrong")
    services.evening_close(evening=evening)
    assert EveningResult.objects.filter(evening=evening, closing=2).exists()
    html = Client().get(public_urls(club, evening)[2]).content.decode()
    names = {r.member.name for r in EveningResult.objects.filter(evening=evening, closing=2)}
    table = html[html.index('id="results"') : html.index("</table>", html.index('id="results"'))]
    assert sorted(re.findall(r'data-member="([^"]+)"', table)) == sorted(names)


def test_an_open_evening_is_never_public(season_club):
    """The open evening of the season answers 404 on the public page."""
    club, _season, evenings = season_club
    assert evenings[3].is_open
    assert Client().get(public_urls(club, evenings[3])[2]).status_code == 404


def test_another_clubs_evening_under_this_clubs_name_is_404(season_club):
    """A closed evening of another club, published too, is not found under this club's slug."""
    club, _season, _evenings = season_club
    other = factories.make_club(slug="beta", name="Beta", publish_results=True)
    factories.make_season(other)
    foreign, _, _ = factories.evening_e(other)
    services.evening_close(evening=foreign)
    url = reverse("public_evening", kwargs={"club": club.slug, "pk": foreign.pk})
    assert Client().get(url).status_code == 404
    own = reverse("public_evening", kwargs={"club": other.slug, "pk": foreign.pk})
    assert Client().get(own).status_code == 200


def test_public_pages_link_only_to_public_pages_and_log_in(season_club):
    """Every link on a public page stays on the club's public pages (or static files, or
    "Log in"): no member's id, no page of the logged-in site."""
    club, _season, evenings = season_club
    for url in public_urls(club, evenings[1]):
        html = Client().get(url).content.decode()
        links = re.findall(r'href="([^"]+)"', html)
        assert links
        for link in links:
            assert (
                link.startswith(f"/p/{club.slug}/") or link.startswith("/static/")
            ) or link == reverse("login"), (url, link)
            assert "/members/" not in link
        assert 'id="my-page-link"' not in html
        assert "Log ind" in html
        assert f"/c/{club.slug}/" not in html


def test_an_open_evening_is_not_in_the_public_standings(season_club):
    """The public standings count the closed evenings only: an open evening's points so far
    are the members' (logged in), not the public's."""
    club, season, evenings = season_club
    html = Client().get(reverse("public_club", kwargs={"club": club.slug})).content.decode()
    closed = {
        r.name: r.points for r in selectors.standings_for_season(season=season, closed_only=True)
    }
    everything = {r.name: r.points for r in selectors.standings_for_season(season=season)}
    assert closed != everything  # the open evening has points in it
    for name, points in closed.items():
        assert f'data-member="{name}"' in html
        assert f'data-points="{points}"' in html
    assert "er åben" not in html


@pytest.mark.parametrize("history", ["small", "large"])
def test_public_pages_cost_a_fixed_number_of_queries(history, django_assert_num_queries):
    """The public standings and an evening cost the same queries over one evening or four
    (~150 hands)."""
    club = factories.make_club(publish_results=True, publish_money=True)
    if history == "small":
        factories.make_season(club)
        closed, _, _ = factories.evening_e(club)
        services.evening_close(evening=closed)
    else:
        _season, evenings = build_season(club, hands=40)
        closed = evenings[1]
    client = Client()
    with django_assert_num_queries(PUBLIC_STANDINGS_QUERIES):
        assert client.get(reverse("public_club", kwargs={"club": club.slug})).status_code == 200
    with django_assert_num_queries(PUBLIC_EVENING_QUERIES):
        url = reverse("public_evening", kwargs={"club": club.slug, "pk": closed.pk})
        assert client.get(url).status_code == 200


def test_a_club_without_a_season_shows_an_empty_public_page():
    """A published club with no season yet answers 200 and says so."""
    club = factories.make_club(publish_results=True)
    response = Client().get(reverse("public_club", kwargs={"club": club.slug}))
    assert response.status_code == 200
    assert "Klubben har ingen sæson endnu." in response.content.decode()


# --- the settings


def _admin_client(club) -> Client:
    admin = factories.make_member(club, "Admin", role="admin", login=True)
    client = Client()
    assert admin.user is not None
    client.force_login(admin.user)
    return client


def test_the_club_admin_publishes_the_results_on_the_settings_screen():
    """The settings screen ticks both settings and shows the public address once published."""
    club = factories.make_club()
    client = _admin_client(club)
    url = reverse("setup_settings", kwargs={"club": club.slug})
    page = client.get(url).content.decode()
    assert 'name="publish_results"' in page and 'name="publish_money"' in page
    assert "offentliggør resultater" in page
    data = {
        "name": club.name,
        "price_per_point": "0.25",
        "currency": "DKK",
        "language": "da",
        "time_zone": "Europe/Copenhagen",
        "starting_jetons": "500",
        "idle_minutes": "240",
        "publish_results": "on",
    }
    assert client.post(url, data).status_code == 302
    club.refresh_from_db()
    assert (club.publish_results, club.publish_money) == (True, False)
    page = client.get(url).content.decode()
    assert f'href="http://testserver/p/{club.slug}/"' in page
    assert Client().get(f"/p/{club.slug}/").status_code == 200


def test_club_update_accepts_the_public_settings():
    """The set-up service stores both settings."""
    club = factories.make_club()
    services.club_update(club=club, publish_results=True, publish_money=True)
    club.refresh_from_db()
    assert (club.publish_results, club.publish_money) == (True, True)


def test_the_admin_form_has_the_public_settings():
    """The admin's club form edits both settings."""
    club = factories.make_club()
    form = ClubForm(form_data(club, publish_results="on", publish_money="on"), instance=club)
    assert form.is_valid(), form.errors
    form.save()
    club.refresh_from_db()
    assert (club.publish_results, club.publish_money) == (True, True)


def test_members_see_the_public_page_link_only_when_published(season_club):
    """The club page and the standings link to the public page only while it is published."""
    club, season, _evenings = season_club
    client = _admin_client(club)
    pages = [
        reverse("club", kwargs={"club": club.slug}),
        reverse("standings", kwargs={"club": club.slug}),
    ]
    for url in pages:
        html = client.get(url).content.decode()
        assert 'id="public-link"' in html and "Offentlig side" in html
    assert (
        f'href="/p/{club.slug}/standings/?season={season.pk}"'
        in client.get(pages[1]).content.decode()
    )
    Club.objects.filter(pk=club.pk).update(publish_results=False)
    for url in pages:
        assert 'id="public-link"' not in client.get(url).content.decode()


def test_a_member_who_left_is_not_named_on_the_public_pages(season_club):
    """An inactive member (one who left the club) is off the public standings and the public
    evening, on the table lines too; the members' pages still show him."""
    club, season, evenings = season_club
    evening = evenings[1]
    result = EveningResult.objects.filter(evening=evening).select_related("member").first()
    assert result is not None
    gone = result.member
    services.member_update(member=gone, active=False)
    for url in public_urls(club, evening):
        html = Client().get(url).content.decode()
        assert f'data-member="{gone.name}"' not in html, url
        assert f">{gone.name}<" not in html, url
    names = [r.name for r in selectors.standings_for_season(season=season, closed_only=True)]
    assert gone.name in names


def test_the_clubs_public_page_links_its_tournaments_with_a_published_draw():
    """While the club publishes its results, its public page lists each tournament with a
    published draw (name, date, game) and links its public page; a tournament whose only
    draw is unpublished is not listed; while it does not, both pages answer 404."""
    club = factories.make_club(slug="bled", name="Tarok Bled", game="slovenian_tarok")
    tournaments = []
    for name, day in (("Odprti turnir", 5), ("Zimski turnir", 12)):
        t = tour.tournament_create(
            club=club,
            name=name,
            date=datetime.date(2026, 12, day),
            game="slovenian_tarok",
            tournament_format="sl_dp",
        )
        tour.entries_import(tournament=t, text=f"Ana {day},Bled\nBor {day},Bled\nCene {day},Bled")
        tournaments.append((t, tour.round_draw(tournament=t)))
    (shown, first_round), (hidden, _) = tournaments
    tour.round_publish(round_=first_round)
    home = reverse("public_club", kwargs={"club": "bled"})
    page = reverse("public_tournament", kwargs={"club": "bled", "pk": shown.pk})
    assert Client().get(home).status_code == 404 and Client().get(page).status_code == 404
    club.publish_results = True
    club.save(update_fields=["publish_results"])
    html = Client().get(home).content.decode()
    assert f'<a href="{page}" data-tournament="{shown.pk}">Odprti turnir</a>' in html
    assert "Zimski turnir" not in html
    assert Client().get(page).status_code == 200
