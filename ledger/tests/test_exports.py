"""Exports neutralise spreadsheet formulas: a text cell never starts a live formula.

Every CSV and XLSX export (the standings, a member's evenings and hands) goes through
``ledger.exports.SafeTableExport``: a text cell beginning with ``=``, ``+``, ``@``, a tab, a
carriage return, or ``-`` (unless the text is a number) is prefixed with ``'``. Numbers stay
typed numbers in XLSX.
"""

import csv
import io

import django_tables2 as tables
import openpyxl
import pytest
from django.conf import settings
from django.urls import reverse

from ledger import services
from ledger.exports import SafeTableExport, neutralise
from ledger.models import Member
from ledger.tests import factories

HYPERLINK = '=HYPERLINK("http://x","y")'
HOSTILE = [HYPERLINK, "+1", "-2x", "@SUM(A1)", "\tTab", "\rCR"]
RENAME = {"Anna": HYPERLINK, "Bo": "+1", "Carl": "-2x"}


def test_neutralise_prefixes_formula_starts_and_leaves_the_rest():
    """Formula starts get a leading quote; plain text, negative numbers as text and
    non-text values are left as they are."""
    for text in HOSTILE:
        assert neutralise(text) == "'" + text
    for value in ["Anna", "-20", "-7.50", "-7,50", "", 65, -30, -7.5, None, "a=b"]:
        assert neutralise(value) == value


class NamesTable(tables.Table):
    name = tables.Column()
    points = tables.Column()


@pytest.mark.parametrize("export_format", ["csv", "xlsx"])
def test_safe_table_export_neutralises_every_text_cell(export_format):
    """Each hostile name comes back prefixed with ', the points as numbers."""
    data = [{"name": name, "points": -i} for i, name in enumerate(HOSTILE, start=1)]
    data.append({"name": "@header", "points": 3})
    exporter = SafeTableExport(export_format, NamesTable(data))
    content = exporter.export()
    if export_format == "csv":
        rows = list(csv.reader(io.StringIO(content)))[1:]
        assert [r[0] for r in rows] == ["'" + n for n in HOSTILE] + ["'@header"]
        assert [int(r[1]) for r in rows] == [-1, -2, -3, -4, -5, -6, 3]
    else:
        sheet = openpyxl.load_workbook(io.BytesIO(content)).active
        rows = list(sheet.iter_rows(min_row=2, values_only=True))
        # XML (and so openpyxl) reads a carriage return back as a line feed.
        expected = ["'" + n.replace("\r", "\n") for n in HOSTILE] + ["'@header"]
        assert [r[0] for r in rows] == expected
        assert [r[1] for r in rows] == [-1, -2, -3, -4, -5, -6, 3]
        for row in sheet.iter_rows(min_row=2):
            assert row[0].data_type == "s"  # text, never a formula ("f")
            assert row[1].data_type == "n"


@pytest.fixture
def hostile_season(client):
    """Evening E played and closed by members with formula-like names."""
    import datetime
    import json

    from ledger.tests.conftest import load_example

    club = factories.make_club(slug="test")
    factories.make_season(club)
    text = json.dumps(load_example("EVENING_E.evening.json")["hands"])
    for old, new in RENAME.items():
        text = text.replace(json.dumps(old), json.dumps(new))
    members = [factories.make_member(club, name) for name in RENAME.values()]
    evening = services.evening_open(club=club, date=datetime.date(2026, 11, 5))
    table = services.table_open(evening=evening, members=members)
    for hand in json.loads(text):
        services.hand_record(table=table, record=hand)
    services.evening_close(evening=evening)
    factories.make_member(club, "Mia", login=True)
    client.login(username="test-mia", password=factories.PASSWORD)
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"
    return club


def _read(response, export_format):
    assert response.status_code == 200
    if export_format == "csv":
        return [tuple(r) for r in csv.reader(io.StringIO(response.content.decode()))]
    book = openpyxl.load_workbook(io.BytesIO(response.content))
    for row in book.active.iter_rows():
        for cell in row:
            assert cell.data_type != "f", f"a formula in {cell.coordinate}: {cell.value}"
    return list(book.active.iter_rows(values_only=True))


@pytest.mark.django_db
@pytest.mark.parametrize("export_format", ["csv", "xlsx"])
def test_standings_export_neutralises_member_names(client, hostile_season, export_format):
    """The standings' CSV and XLSX carry the names quoted, the points as numbers."""
    url = reverse("standings", kwargs={"club": "test"})
    rows = _read(client.get(url, {"_export": export_format}), export_format)
    header, body = rows[0], rows[1:]
    member, points = header.index("Member"), header.index("Points")
    assert sorted(r[member] for r in body) == sorted("'" + n for n in RENAME.values())
    expected = {"'" + HYPERLINK: 65, "'+1": -30, "'-2x": -35}
    for row in body:
        value = row[points]
        assert (int(value) if export_format == "csv" else value) == expected[row[member]]
        if export_format == "xlsx":
            assert isinstance(value, int)


@pytest.mark.django_db
@pytest.mark.parametrize("export_format", ["csv", "xlsx"])
@pytest.mark.parametrize("which", ["evenings", "hands"])
def test_member_season_exports_are_neutralised(client, hostile_season, export_format, which):
    """A member's evenings and hands exports go through the same neutralisation."""
    member = Member.objects.get(club=hostile_season, name=HYPERLINK)
    url = reverse("member_season", kwargs={"club": "test", "pk": member.pk})
    rows = _read(client.get(url, {"table": which, "_export": export_format}), export_format)
    if which == "hands":  # the dealer's name is a text cell
        names = {v for row in rows[1:] for v in row if isinstance(v, str)}
        assert {"'" + n for n in RENAME.values()} <= names
    for row in rows:
        for value in row:
            if isinstance(value, str) and value:
                assert value[0] not in "=+@\t\r", row
                assert not (value.startswith("-") and not value[1:].replace(".", "").isdigit())


@pytest.mark.django_db
def test_csv_starts_with_a_byte_order_mark_and_keeps_every_letter(client):
    """A CSV starts with the UTF-8 byte-order mark (EF BB BF), so Excel on Windows reads
    "Beløb" and names with æ, ø, å, č and ő as written; Danish keeps ``;``, decimal commas
    and CRLF."""
    import datetime
    import json

    from ledger.tests.conftest import load_example

    names = {"Anna": "Ærø Åse", "Bo": "Čedo Søs", "Carl": "Győző"}
    club = factories.make_club(slug="test")
    factories.make_season(club)
    text = json.dumps(load_example("EVENING_E.evening.json")["hands"], ensure_ascii=False)
    for old, new in names.items():
        text = text.replace(json.dumps(old), json.dumps(new, ensure_ascii=False))
    members = [factories.make_member(club, name) for name in names.values()]
    evening = services.evening_open(club=club, date=datetime.date(2026, 11, 5))
    table = services.table_open(evening=evening, members=members)
    for hand in json.loads(text):
        services.hand_record(table=table, record=hand)
    services.evening_close(evening=evening)
    factories.make_member(club, "Mia", login=True)
    client.login(username="test-mia", password=factories.PASSWORD)
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "da"
    response = client.get(reverse("standings", kwargs={"club": "test"}), {"_export": "csv"})
    assert response.status_code == 200
    assert response["Content-Type"] == "text/csv; charset=utf-8"
    content = response.content
    assert content[:3] == b"\xef\xbb\xbf"
    assert content.count(b"\xef\xbb\xbf") == 1
    text = content.decode("utf-8-sig")
    assert text.endswith("\r\n") and "\n" not in text.replace("\r\n", "")
    rows = list(csv.reader(io.StringIO(text, newline=""), delimiter=";"))
    assert "Beløb" in rows[0]
    money = rows[0].index("Beløb")
    by_name = {row[rows[0].index("Medlem")]: row for row in rows[1:]}
    assert set(by_name) == set(names.values())
    assert by_name["Ærø Åse"][money] == "16,25"  # +65 points at 0.25
    assert by_name["Győző"][money] == "-8,75"


def test_every_csv_has_one_byte_order_mark_whatever_the_language():
    """English (a decimal point, commas between fields) starts with the mark too."""
    from django.utils import translation

    data = [{"name": "Čedo Søs", "points": 5}, {"name": "Győző", "points": -3}]
    with translation.override("en"):
        content = SafeTableExport("csv", NamesTable(data)).export()
    assert content.startswith("\ufeff") and content.count("\ufeff") == 1
    assert content.encode("utf-8")[:3] == b"\xef\xbb\xbf"
    assert content[1:].split("\r\n")[:3] == ["Name,Points", "Čedo Søs,5", "Győző,-3"]
