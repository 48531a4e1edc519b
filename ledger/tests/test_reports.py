"""PDFs (WeasyPrint), CSV and XLSX exports, and the ``season_report`` command.

Every file is read back the way a member would meet it: PDFs as text with pypdf, spreadsheets
with openpyxl, CSV with the csv module; the figures are Evening E's (danish-tarok.md section 9)
and the sums of a season built from known evenings. The first page of each PDF is saved as a
PNG under ``test-artifacts/treasury/`` to be looked at.
"""

from __future__ import annotations

import csv
import io
from decimal import Decimal

import openpyxl
import pytest
from django.conf import settings
from django.core.management import CommandError, call_command
from django.urls import reverse
from django.utils import translation

from ledger import reports, selectors, services
from ledger.models import Member
from ledger.tests import factories
from ledger.tests.helpers import NAMES, build_season, pdf_text, save_first_page, seen_text

pytestmark = pytest.mark.django_db

A4 = (595.28, 841.89)


def page_size(reader, index=0) -> tuple[float, float]:
    box = reader.pages[index].mediabox
    return round(float(box.width), 2), round(float(box.height), 2)


@pytest.fixture
def club():
    return factories.make_club(name="Hjørring Tarokklub")


@pytest.fixture
def evening_e(club):
    factories.make_season(club)
    evening, _, _ = factories.evening_e(club)
    return services.evening_close(evening=evening)


def test_evening_sheet_pdf_of_evening_e(evening_e):
    """The sheet prints every hand's nets, running totals and cups with what happened under
    them, the split and +65 / -30 / -35 with money; the transfers only in an appendix when
    asked (test_evening_sheet.py)."""
    with translation.override("en"):
        filename, content_type, content = reports.evening_sheet_pdf(evening=evening_e)
    assert (filename, content_type) == ("evening-test-2026-11-05.pdf", "application/pdf")
    reader, text = seen_text(content)  # a score sheet's layers read as they are seen
    assert page_size(reader) == A4
    assert reader.metadata is not None
    assert reader.metadata.title == "Evening sheet Nov. 5, 2026 · Hjørring Tarokklub"
    assert "Funding -40 -40 -40 -40 -40 -40 60 60" in text
    assert "1 Anna -60 -100 -20 -60 +70 30 65 65\ndealer's fee (Anna -10);" in text
    assert "+145 45 -75 -135 -70 -40 60 70" in text
    assert "3 Carl -25 20 +60 -75 -45 -85 65 75\n" in text
    assert "; last trick (Bo +40);" in text
    assert "Split +45 65 +45 -30 +50 -35 0 0" in text
    assert "Bo → Anna 40 (ultimo)" not in text
    assert "Anna +20 +45 +65 16.25" in text
    assert "Bo -75 +45 -30 -7.50" in text
    assert "Carl -85 +50 -35 -8.75" in text
    assert "Total -140 +140 0 0.00" in text
    assert "Treasurer (signature) Anna Bo Carl" in text
    assert "Hjørring Tarokklub" in text
    assert "Page 1 of 1" in text
    assert "Printed " in text
    save_first_page(content, "evening-sheet")


def test_evening_sheet_pdf_in_danish_by_default(evening_e):
    """Danish is the default: money with a decimal comma (16,25) and Danish dates."""
    from django.conf import settings
    from django.utils import translation

    with translation.override(settings.LANGUAGE_CODE):
        _, _, content = reports.evening_sheet_pdf(evening=evening_e)
    _, text = pdf_text(content)
    assert "16,25" in text and "-7,50" in text and "-8,75" in text
    assert "5. november 2026" in text


def test_evening_sheet_view_serves_the_pdf(client, club, evening_e):
    """The member's link serves the same PDF inline with its file name."""
    factories.make_member(club, "Mia", login=True)
    client.login(username="test-mia", password=factories.PASSWORD)
    response = client.get(reverse("evening_sheet_pdf", kwargs={"club": "test", "pk": evening_e.pk}))
    assert response.status_code == 200
    assert response["Content-Type"] == "application/pdf"
    assert response["Content-Disposition"] == 'inline; filename="evening-test-2026-11-05.pdf"'
    assert "16,25" in pdf_text(response.content)[1]


@pytest.mark.once  # what is printed: the same on either database, checked once
def test_season_pdf_has_the_standings_figures(club):
    """The season PDF prints each member's points and money exactly as the standings."""
    season, _ = build_season(club)
    rows = selectors.standings_for_season(season=season)
    with translation.override("en"):
        filename, _, content = reports.season_standings_pdf(season=season)
    assert filename == "standings-test-20262027.pdf"
    reader, text = pdf_text(content)
    assert page_size(reader) == (A4[1], A4[0])  # A4 landscape
    for row in rows:
        money = f"{row.money:,.2f}"
        points = f"{row.points:+d}"
        assert f"{row.rank} {row.name} {points} {money} {row.evenings} {row.played} " in text
    assert "Standings 2026/2027" in text
    save_first_page(content, "standings")


def test_member_pdf_has_anna_s_evening_and_hands(evening_e):
    """Anna's report prints +65 and 16.25, the chart, and her hands -60, +145, -25."""
    season = evening_e.season
    anna = Member.objects.get(club=evening_e.club, name="Anna")
    with translation.override("en"):
        filename, _, content = reports.member_season_pdf(season=season, member=anna)
    assert filename == "member-test-anna-20262027.pdf"
    reader, text = pdf_text(content)
    assert page_size(reader) == A4
    assert "+65" in text and "16.25\xa0DKK" in text
    assert "11/05/2026 +65 16.25 +65 3 0 1 0 0 0 0" in text
    # Her hands under their evening's date and table, printed once over them.
    assert (
        "Hands played\n11/05/2026 · Table 1\nHand Dealer What happened Points\n"
        "1 Anna -60\n2 Bo ultimo: Anna (king) +145\n3 Carl -25\n"
    ) in text
    assert "Points over the season" in text


@pytest.mark.once  # what is printed: the same on either database, checked once
def test_member_pdf_of_a_season_draws_the_chart(club):
    """A member's season report over four evenings, saved for a look."""
    season, _ = build_season(club)
    dorte = Member.objects.get(club=club, name="Dorte")
    _, _, content = reports.member_season_pdf(season=season, member=dorte)
    reader, text = pdf_text(content)
    standing = next(r for r in selectors.standings_for_season(season=season) if r.name == "Dorte")
    assert f"{standing.points:+d}" in text
    # Her hands in one group per evening and table, each headed once by its date and table.
    hands = list(selectors.member_hands(season=season, member=dorte))
    headings = [f"{h.evening_date:%m/%d/%Y} · Table {h.table_number}" for h in hands]
    groups = [heading for i, heading in enumerate(headings) if headings[i - 1 : i] != [heading]]
    assert len(groups) == 4
    printed = [
        (n, line)
        for n, page in enumerate(reader.pages)
        for line in page.extract_text().split("\n")
        if " · Table " in line
    ]
    # Each group is headed once, and again only at the top of a page it runs onto.
    again = [i for i in range(1, len(printed)) if printed[i - 1][1] == printed[i][1]]
    assert [line for i, (_, line) in enumerate(printed) if i not in again] == groups
    assert again and all(printed[i - 1][0] < printed[i][0] for i in again)  # her first runs on
    save_first_page(content, "member")


def test_exports_open_in_openpyxl_and_csv(client, club):
    """The standings export to XLSX (numbers as numbers) and CSV with the exact figures."""
    season, _ = build_season(club)
    rows = selectors.standings_for_season(season=season)
    factories.make_member(club, "Mia", login=True)
    client.login(username="test-mia", password=factories.PASSWORD)
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"  # the headers are English msgids
    standings = reverse("standings", kwargs={"club": club.slug})

    response = client.get(standings, {"season": season.pk, "_export": "xlsx"})
    assert response.status_code == 200
    assert response["Content-Disposition"] == (
        'attachment; filename="standings-test-20262027.xlsx"'
    )
    sheet = openpyxl.load_workbook(io.BytesIO(response.content)).active
    values = list(sheet.values)
    header, body = values[0], values[1:]
    col = {name: header.index(name) for name in header}
    assert [r[col["Member"]] for r in body] == [r.name for r in rows]
    for row, line in zip(rows, body, strict=True):
        assert line[col["Points"]] == row.points
        assert Decimal(str(line[col["Money"]])) == row.money
        assert line[col["Hands"]] == row.played
        assert line[col["Evenings"]] == row.evenings

    response = client.get(standings, {"season": season.pk, "_export": "csv"})
    assert response["Content-Type"] == "text/csv; charset=utf-8"
    reader = csv.DictReader(io.StringIO(response.content.decode("utf-8")))
    parsed = {line["Member"]: line for line in reader}
    assert set(parsed) == set(NAMES)
    for row in rows:
        assert int(parsed[row.name]["Points"]) == row.points
        assert Decimal(parsed[row.name]["Money"]) == row.money
        assert int(parsed[row.name]["Melds"]) == row.melds


def test_export_of_evening_e_figures(client, evening_e):
    """A season of Evening E exports Anna 65 16.25, Bo -30 -7.50, Carl -35 -8.75."""
    factories.make_member(evening_e.club, "Mia", login=True)
    client.login(username="test-mia", password=factories.PASSWORD)
    url = reverse("standings", kwargs={"club": "test"})
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"
    response = client.get(url, {"_export": "csv"})
    lines = list(csv.reader(io.StringIO(response.content.decode())))
    assert [line[1:4] for line in lines[1:]] == [
        ["Anna", "65", "16.25"],
        ["Bo", "-30", "-7.50"],
        ["Carl", "-35", "-8.75"],
    ]
    # In Danish (the default) a CSV has ";" between fields and decimal commas, for Excel.
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "da"
    response = client.get(url, {"_export": "csv"})
    lines = list(csv.reader(io.StringIO(response.content.decode()), delimiter=";"))
    assert [line[1:4] for line in lines[1:]] == [
        ["Anna", "65", "16,25"],
        ["Bo", "-30", "-7,50"],
        ["Carl", "-35", "-8,75"],
    ]
    response = client.get(url, {"_export": "xlsx"})
    sheet = openpyxl.load_workbook(io.BytesIO(response.content)).active
    assert [row[1:4] for row in sheet.iter_rows(min_row=2, values_only=True)] == [
        ("Anna", 65, 16.25),
        ("Bo", -30, -7.5),
        ("Carl", -35, -8.75),
    ]
    anna = Member.objects.get(club=evening_e.club, name="Anna")
    member_url = reverse("member_season", kwargs={"club": "test", "pk": anna.pk})
    response = client.get(member_url, {"table": "hands", "_export": "xlsx"})
    sheet = openpyxl.load_workbook(io.BytesIO(response.content)).active
    assert [row[-1] for row in sheet.iter_rows(min_row=2, values_only=True)] == [-60, 145, -25]


@pytest.mark.once  # what is printed: the same on either database, checked once
def test_season_report_command_writes_the_pdf(club, tmp_path):
    """season_report --club --season (id or name) --output writes the standings PDF."""
    season, _ = build_season(club, open_evening=False)
    rows = selectors.standings_for_season(season=season)
    by_id, by_name = tmp_path / "by-id.pdf", tmp_path / "by-name.pdf"
    out = io.StringIO()
    call_command("season_report", club="test", season=str(season.pk), output=str(by_id), stdout=out)
    assert "standings-test-20262027.pdf" in out.getvalue()
    call_command(
        "season_report",
        "--club",
        "test",
        "--season",
        "2026/2027",
        "--output",
        str(by_name),
        "--language",
        "en",
        stdout=io.StringIO(),
    )
    for path in (by_id, by_name):
        _, text = pdf_text(path.read_bytes())
        for row in rows:
            assert f"{row.rank} {row.name} {row.points:+d} " in text
    assert "Page 1 of 1" in pdf_text(by_name.read_bytes())[1]
    member_pdf = tmp_path / "anna.pdf"
    call_command(
        "season_report",
        club="test",
        season="2026/2027",
        output=str(member_pdf),
        member="Anna",
        language="en",
        stdout=io.StringIO(),
    )
    assert "Anna: season 2026/2027" in pdf_text(member_pdf.read_bytes())[1]


def test_season_report_command_refuses_unknown_names(club, tmp_path):
    """An unknown club, season or member is a CommandError naming it; no file is written."""
    factories.make_season(club)
    output = tmp_path / "x.pdf"
    with pytest.raises(CommandError, match="no club with the short name 'nope'"):
        call_command("season_report", club="nope", season="1", output=str(output))
    with pytest.raises(CommandError, match="no season '1999' in test; seasons: "):
        call_command("season_report", club="test", season="1999", output=str(output))
    with pytest.raises(CommandError, match="no member 'Zoe' in test"):
        call_command(
            "season_report", club="test", season="2026/2027", output=str(output), member="Zoe"
        )
    assert not output.exists()
