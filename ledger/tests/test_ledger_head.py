"""The club's chain head is witnessed outside the database: printed beside the signatures of
every evening sheet, table sheet and tournament ranking, shown on the public page, and printed
as JSON by ``manage.py ledger_head``."""

from __future__ import annotations

import datetime
import io
import json

import pytest
from django.core.management import call_command
from django.test import Client
from django.urls import reverse

from ledger import reports, services
from ledger.selectors.chain import club_head
from ledger.services import seals
from ledger.tests import factories
from ledger.tests.conftest import load_example
from ledger.tests.helpers import drawn_tournament, pdf_text

pytestmark = pytest.mark.django_db


def head_of(club_pk: int) -> dict:
    """Return the club's ledger head (the test fails when the club has none)."""
    head = club_head(club_pk)
    assert head is not None
    return head


def test_the_head_grows_when_an_evening_opens_and_closes_not_when_a_hand_is_saved():
    """Opening the evening is link 1, closing it link 2; the hands between change nothing."""
    club = factories.make_club()
    evening = services.evening_open(club=club, date=datetime.date(2026, 11, 5))
    opened = head_of(club.pk)
    assert opened["links"] == 1
    table = services.table_open(
        evening=evening, members=[factories.make_member(club, n) for n in ("Anna", "Bo", "Carl")]
    )
    services.hand_record(table=table, record=load_example("EVENING_E.evening.json")["hands"][0])
    assert club_head(club.pk) == opened
    services.evening_close(evening=evening)
    closed = head_of(club.pk)
    assert closed["links"] == 2 and closed["head"] != opened["head"]
    assert closed["short"] == f"2:{closed['head'][:12]}"


def test_the_sheets_print_the_head_beside_the_signatures():
    """The evening sheet and the table sheet print the head as it stands when they are made."""
    club = factories.make_club()
    evening, table, _hands = factories.evening_e(club)
    services.evening_close(evening=evening)
    short = head_of(club.pk)["short"]
    for _name, _type, content in (
        reports.evening_sheet_pdf(evening=evening),
        reports.table_sheet_pdf(table=table),
    ):
        _reader, text = pdf_text(content)
        assert f"Ledger head {short}" in text


def test_the_tournament_ranking_prints_the_head():
    """The ranking PDF for the board prints the club's head."""
    club = factories.make_club(slug="sl", game="slovenian_tarok")
    tournament, _round = drawn_tournament(club)
    _reader, text = pdf_text(reports.tournament_ranking_pdf(tournament=tournament)[2])
    assert f"Ledger head {head_of(club.pk)['short']}" in text


def test_the_public_page_shows_the_head():
    """A club that publishes its results shows its head on its public page (in the club's
    language: Danish here)."""
    club = factories.make_club(publish_results=True)
    factories.make_season(club)
    evening, _table, _hands = factories.evening_e(club)
    services.evening_close(evening=evening)
    html = Client().get(reverse("public_club", kwargs={"club": club.slug})).content.decode()
    assert f"Regnskabets hoved {head_of(club.pk)['short']}" in html


def test_ledger_head_prints_every_clubs_head_as_json():
    """``manage.py ledger_head``: the format, this installation, and each club's head."""
    club = factories.make_club()
    factories.evening_e(club)
    out = io.StringIO()
    call_command("ledger_head", stdout=out)
    data = json.loads(out.getvalue())
    assert data["format"] == "tarokclub.heads/1"
    assert data["installation"] == seals.installation_id()
    head = head_of(club.pk)
    assert data["clubs"] == [
        {
            "club": club.pk,
            "slug": club.slug,
            "links": 1,
            "head": head["head"],
            "short": head["short"],
        }
    ]
