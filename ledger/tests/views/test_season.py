"""The standings page: rank, name, points and money first (the rest on demand on a phone), a
note while an evening is open, and each game's explanation of its statistics columns."""

from __future__ import annotations

import datetime
import re

import pytest
from django.test import Client
from django.urls import reverse

from ledger import services
from ledger.games.registry import GAMES, get_web
from ledger.games.web import stats_help, stats_notes
from ledger.tests import factories
from ledger.tests.helpers import build_season, found

pytestmark = pytest.mark.django_db


def standings_html(club) -> str:
    member = factories.make_member(club, "Tove", role="treasurer", login=True)
    client = Client()
    assert member.user is not None
    client.force_login(member.user)
    response = client.get(reverse("standings", kwargs={"club": club.slug}))
    assert response.status_code == 200
    return response.content.decode()


def header_cells(html: str) -> list[tuple[str, str]]:
    """Return the standings' header cells as (attributes, text)."""
    table = html[html.index('id="standings"') :]
    thead = table[: table.index("</thead>")]
    return [
        (attrs, re.sub(r"<[^>]+>|\s+", " ", text).strip())
        for attrs, text in re.findall(r"<th([^>]*)>(.*?)</th>", thead, re.S)
    ]


def test_rank_name_points_and_money_come_first_and_the_rest_on_demand():
    """The first four columns are rank, member, points and money; every other header and cell
    carries the class ``more`` (which a phone hides until "Vis alle kolonner")."""
    club = factories.make_club()
    build_season(club, hands=6)
    html = standings_html(club)
    cells = header_cells(html)
    assert [text for _attrs, text in cells[:4]] == ["#", "Medlem", "Point", "Beløb"]
    assert all("more" not in attrs for attrs, _text in cells[:4])
    assert len(cells) > 8 and all('class="more' in attrs for attrs, _ in cells[4:])
    assert 'id="all-columns"' in html and "Vis alle kolonner" in html
    row = found(r'<tr data-member="Anna".*?</tr>', html, re.S).group(0)
    tds = re.findall(r"<td([^>]*)>", row)
    assert len(tds) == len(cells)
    assert [("more" in a) for a in tds] == [False] * 4 + [True] * (len(cells) - 4)


def test_an_open_evening_is_noted_above_the_standings():
    """While an evening of the season is open the standings say that its points count so
    far and that its pools are not split yet; with none open, no such note."""
    club = factories.make_club()
    build_season(club, hands=6)
    html = standings_html(club)
    note = found(r'<p class="message open-evening-note"[^>]*>(.*?)</p>', html, re.S)
    assert note.group(1) == (
        "Aftenen 26.11.2026 er åben: »Point«, »Beløb« og rækken »I alt« medregner dens point "
        "indtil nu. Puljerne er ikke delt endnu: delingen ved lukningen ændrer stadig pointene."
    )
    assert html.index("open-evening-note") < html.index('id="standings"')


def test_no_note_when_every_evening_is_closed():
    """A season whose evenings are all closed shows no open-evening note."""
    club = factories.make_club()
    factories.make_season(club)
    evening, _, _ = factories.evening_e(club)
    services.evening_close(evening=evening)
    assert "open-evening-note" not in standings_html(club)


def test_a_game_without_pools_says_nothing_of_a_split():
    """A Hungarian evening (no pools) is noted as open without the words on the split."""
    club = factories.make_club(game="hungarian_tarokk")
    factories.make_season(club)
    services.evening_open(club=club, date=datetime.date(2026, 11, 5))
    html = standings_html(club)
    assert "er åben" in html
    assert "Puljerne" not in html


def test_the_melds_column_says_it_counts_points_received():
    """The Danish melds column explains itself: a tooltip on its header and a line under the
    table, both from the game."""
    club = factories.make_club()
    build_season(club, hands=6)
    html = standings_html(club)
    melds = dict((text, attrs) for attrs, text in header_cells(html))["Meldinger"]
    assert 'title="Point modtaget for meldinger:' in melds
    assert "»Meldinger« er de point, medlemmet har modtaget for meldinger" in html


@pytest.mark.parametrize("code", sorted(GAMES))
def test_every_game_explains_each_of_its_statistics_columns(code):
    """Each game gives every statistics column of its own a tooltip."""
    web = get_web(code)
    assert set(web.stats_help) == {key for key, _label in web.stats_columns}
    assert all(str(text).endswith(".") for text in web.stats_help.values())
    assert set(stats_help([code])) == set(web.stats_help)


def test_the_notes_under_the_standings_include_the_games_column_notes():
    """``stats_notes`` prints each game's definitions, then its columns' notes, each once."""
    danish = get_web("danish_tarok")
    notes = stats_notes(["danish_tarok", "danish_tarok"])
    assert notes == [str(danish.stats_note), *map(str, danish.column_notes())]
