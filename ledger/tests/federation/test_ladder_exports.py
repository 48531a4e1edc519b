"""The ladder's exports from the club's ladder page: CSV and XLSX (exact and decimal totals,
the qualified line, every text cell safe from formulas), the PDF for the notice board read
back, and the director's button that fills a Masters from a qualifying series."""

import csv
import datetime
import io

import openpyxl
import pytest
from django.test import Client
from django.urls import reverse

from ledger.models import Player
from ledger.services import tournaments as tour
from ledger.tests.factories import make_member
from ledger.tests.federation.test_series_ladder import create, first_dp, world
from ledger.tests.helpers import english, log_in_as, pdftotext

pytestmark = pytest.mark.django_db

RULE = {"source": "placement", "scale": {"kind": "linear"}, "qualify": 2}


def ladder_world():
    """Kranj's DP 1 (Ana, Bor, Cene, Dan) counted at 3/2 in a series qualifying two; Dan's
    player names a club that reads as a formula."""
    club, tzs, members = world()
    first = first_dp(club, members)
    series = create(tzs, events=[(first, "3/2")], rule=RULE)
    Player.objects.filter(pk=members["Dan"].player_id).update(
        home_club=None, club_name="=HYPERLINK(1)"
    )
    client = english(Client())
    log_in_as(client, club, "Ana")
    return club, series, members, client


def test_the_csv_has_exact_and_decimal_totals_and_no_formula():
    club, series, _members, client = ladder_world()
    url = reverse("series_ladder", kwargs={"club": club.slug, "pk": series.pk})
    response = client.get(url, {"_export": "csv"})
    assert response.status_code == 200
    assert response["Content-Type"] == "text/csv; charset=utf-8"
    text = response.content.decode("utf-8").lstrip("\ufeff")
    rows = list(csv.reader(io.StringIO(text)))
    assert rows[0] == [
        "#",
        "Player",
        "Club",
        "Total",
        "Total (exact)",
        "Best",
        "Wins",
        "Events",
        "Counted",
        "Struck",
        "Qualified",
    ]
    assert rows[1] == [
        "1",
        "Ana",
        "Tarok Kranj",
        "6.00",
        "6",
        "6.00",
        "1",
        "1",
        "DP 1",
        "",
        "Qualified",
    ]
    assert rows[2][:5] == ["2", "Bor", "Tarok Kranj", "4.50", "9/2"]
    assert rows[2][-1] == "Qualified" and rows[3][-1] == ""
    assert rows[4][:5] == ["4", "Dan", "'=HYPERLINK(1)", "1.50", "3/2"]


def test_the_xlsx_keeps_numbers_typed():
    club, series, _members, client = ladder_world()
    url = reverse("series_ladder", kwargs={"club": club.slug, "pk": series.pk})
    response = client.get(url, {"_export": "xlsx"})
    assert response.status_code == 200
    sheet = openpyxl.load_workbook(io.BytesIO(response.content)).active
    rows = list(sheet.iter_rows(values_only=True))
    assert rows[2][1] == "Bor" and rows[2][3] == 4.5 and rows[2][4] == "9/2"
    assert rows[4][2] == "'=HYPERLINK(1)"


def test_the_pdf_for_the_board(tmp_path):
    """The PDF reads back with the title, every player in order, the qualified note, the
    rule in words and the date of the standings."""
    club, series, _members, client = ladder_world()
    url = reverse("series_ladder_pdf", kwargs={"club": club.slug, "pk": series.pk})
    response = client.get(url)
    assert response.status_code == 200 and response["Content-Type"] == "application/pdf"
    text = pdftotext(response.content, tmp_path)
    assert "Ladder: Pokal 2026" in text
    order = [text.index(name) for name in ("Ana", "Bor", "Cene", "Dan")]
    assert order == sorted(order)
    assert "Standings after 1 event, the last on Oct. 3, 2026" in text
    assert "Qualified players are in bold, above the green line." in text
    assert "the last gets 1, each place above one more" in text
    assert "The first 2 qualify" in text
    assert "Tarok zveza Slovenije" in text  # the federation heads the page


def test_the_director_fills_a_masters_from_the_page():
    """The entries page offers the qualifying series; without the confirmation nothing is
    entered; with it Ana and Bor are entered with ranks 1 and 2."""
    club, series, _members, _client = ladder_world()
    make_member(club, "Director", role="admin")
    director = english(Client())
    log_in_as(director, club, "Director")
    t = tour.tournament_create(
        club=club,
        name="Masters",
        date=datetime.date(2026, 12, 1),
        game="slovenian_tarok",
        tournament_format="sl_dp",
        params={"rounds": 1},
    )
    page = director.get(reverse("tournament", kwargs={"club": club.slug, "pk": t.pk}))
    assert 'id="series-form"' in page.content.decode()
    url = reverse("tournament_entries_series", kwargs={"club": club.slug, "pk": t.pk})
    refused = director.post(url, {"series": series.pk}, follow=True)
    assert "tick the box" in refused.content.decode() and not t.entries.exists()
    director.post(url, {"series": series.pk, "confirm": "1"})
    assert sorted(t.entries.values_list("name", "ladder_rank")) == [("Ana", 1), ("Bor", 2)]
    bad = director.post(url, {"series": "x" * 40, "confirm": "1"}, follow=True)
    assert bad.status_code == 200 and "choose a qualifying series" in bad.content.decode()
