"""Every table on a screen is a django-tables2 table (the site's one way to write a table:
its rows written by ``table_row``, its exports and classes shared); the tables a round's
page, a table's link, a member's page and a player's ladders show, column by column."""

from __future__ import annotations

from pathlib import Path
from types import SimpleNamespace

from django.conf import settings
from django.core.cache import cache
from django.template import Context, Template
from django.utils import translation

from ledger.tables.federation import PlayerLadderTable
from ledger.tables.tournaments import MyRoundsTable, SeatTable, TableResultTable
from ledger.templatetags.ledger_tags import seat_table

TEMPLATES = Path(settings.BASE_DIR) / "templates"
# Written by hand, and why: the printed sheets lay their rows out for WeasyPrint (PDFs), the
# hall's wall is a live ranking sized for a far screen, a hand's preview is the payments'
# grid before saving.
HAND_WRITTEN = {
    "ledger/tournaments/_wall_live.html",
    "ledger/_scoring_hand_preview.html",
}


def render(table) -> str:
    return Template("{% load django_tables2 %}{% render_table table %}").render(
        Context({"table": table})
    )


def test_every_screen_table_is_a_django_tables2_table():
    written = sorted(
        str(path.relative_to(TEMPLATES))
        for path in TEMPLATES.rglob("*.html")
        if "<table" in path.read_text()
        and "/pdf/" not in str(path)
        and str(path.relative_to(TEMPLATES)) not in HAND_WRITTEN
    )
    assert written == []


def seat(code, name, *, score=None, place=None, points=""):
    result = None if score is None else {"score": score, "place": place}
    return {
        "code": code,
        "name": name,
        "club": "TK Ljubljana",
        "group": "A",
        "result": result,
        "points": points,
    }


def test_a_round_table_as_drawn_and_as_closed():
    seats = [
        seat("a", "Ana", score=-35, place=3, points="-1.00"),
        seat("b", "Bor", score=70, place=1, points="2.00"),
    ]
    with translation.override("en"):
        drawn = render(SeatTable(seats, groups=False, closed=False))
        closed = render(SeatTable(seats, groups=True, closed=True))
    assert [c.header for c in SeatTable(seats, groups=False, closed=False).columns] == [
        "Seat",
        "Player",
        "Club",
    ]
    assert "deals first" in drawn.split('data-player="Bor"')[0]
    assert "deals first" not in drawn.split('data-player="Bor"')[1]
    assert [str(c.header) for c in SeatTable(seats, groups=True, closed=True).columns] == [
        "Seat",
        "Player",
        "Club",
        "Group",
        "Score",
        "Place",
        "Points",
    ]
    ana = closed.split('data-player="Ana"')[1].split("</tr>")[0]
    assert "\u221235" in ana and 'data-points="-1.00"' in ana and ">3<" in ana


def test_a_round_page_keeps_each_table_by_what_it_shows():
    """The round page's tables are kept (``seat_table``): the same seats write the same table,
    a table whose round closes shows its figures at once, in the reader's language."""
    cache.clear()
    drawn = SimpleNamespace(seats=[seat("a", "Ana"), seat("b", "Bor")])
    playing = SimpleNamespace(kind="random", status="playing")
    with translation.override("en"):
        first = seat_table(drawn, playing)
        assert seat_table(drawn, playing) == first and "Points" not in first
        done = SimpleNamespace(
            seats=[
                seat("a", "Ana", score=-35, place=2, points="-1.50"),
                seat("b", "Bor", score=35, place=1, points="1.50"),
            ]
        )
        closed = seat_table(done, SimpleNamespace(kind="random", status="closed"))
    assert "Points" in closed and 'data-points="-1.50"' in closed
    with translation.override("da"):
        danish = seat_table(done, SimpleNamespace(kind="random", status="closed"))
    assert "\u22121,50" in danish and "Point" in danish and danish != closed


def test_a_table_link_result_before_and_after_its_figures():
    rows = [
        {"name": "Ana", "score": None, "place": None, "points": None},
        {"name": "Bor", "score": 70, "place": 1, "points": "2.00"},
    ]
    html = render(TableResultTable(rows))
    ana = html.split('data-player="Ana"')[1].split("</tr>")[0]
    assert ana.count("–") == 3
    assert 'id="link-results"' in html and 'data-points="2.00"' in html


def test_a_members_rounds_name_a_bye():
    rounds = [
        SimpleNamespace(number=1, table=2, score=40, place=1, points="3.00"),
        SimpleNamespace(number=2, table=None, score=None, place=None, points=""),
    ]
    with translation.override("sl"):
        html = render(MyRoundsTable(rounds))
        word = translation.gettext("bye")
    bye = html.split('data-round="2"')[1].split("</tr>")[0]
    assert word != "bye" and word in bye  # in the club's language
    assert "—" not in bye and "None" not in bye  # no figure yet: empty cells


def test_a_players_ladders_mark_the_qualified():
    lines = [
        SimpleNamespace(
            series_id=4,
            series=SimpleNamespace(name="Liga"),
            position=1,
            total="13/2",
            events=2,
            qualified=True,
        )
    ]
    with translation.override("da"):
        html = render(PlayerLadderTable(lines))
    assert '<tr data-series="4" class="qualified' in html
    assert "6,50" in html and "✓" in html
