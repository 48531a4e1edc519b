"""The Hungarian cup end to end in real Chromium (issue 27): an 11-player ``hu_kupa`` (the
spec's example ``04_hu11_byes``) created, entered, drawn, published, started and closed by the
director in the browser, round by round: two preliminary rounds with a bye each, then the final
stage in groups for places 1–5 and 6–10 with the last one's bye; the final ranking on the
screen and in its PDF, in Hungarian, as the example gives it.

The tables' scores are each table's result, given through the ledger's core (as the other
tournament browser tests do): the hands are not what this test is about.
"""

from __future__ import annotations

import pytest
from django.urls import reverse
from playwright.sync_api import expect

from ledger.models import Round
from ledger.selectors.verify import verify_ledger
from ledger.tests import factories
from ledger.tests.e2e.conftest import expect_language, screenshot
from ledger.tests.helpers import pdf_text, settle_zero_sum
from ledger.tests.tournaments.helpers import example

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

SLUG = "pecs"
EXAMPLE = example("04_hu11_byes")


def url(name, **kwargs):
    return reverse(name, kwargs={"club": SLUG, **kwargs})


def test_an_eleven_player_cup_to_its_final_ranking(pages):
    club = factories.make_club(
        slug=SLUG, name="Pécsi Tarokk Kör", game="hungarian_tarokk", language="hu"
    )
    director = factories.make_member(club, "Igazgató", role="admin", login=True)
    page = pages(director.user)
    page.goto(url("tournaments"))
    expect_language(page, "hu")
    page.fill("#id_name", "Tavaszi Kupa")
    page.fill("#id_date", "2026-05-18")
    page.select_option("#id_game", "hungarian_tarokk")
    page.select_option("#id_tournament_format", "hu_kupa")
    page.fill("#id_params", '{"rounds": 2}')
    page.fill("#id_seed", EXAMPLE["seed"])
    page.locator("#tournament-new-form button[type=submit]").click()
    page.wait_for_url("**/t/*/")
    lines = [f"{e['id']},Pécs,,{e['id']}" for e in EXAMPLE["entries"]]
    page.fill("#import-form textarea[name=text]", "\n".join(lines))
    page.locator("#import-form button[type=submit]").click()
    expect(page.locator("#entries-table tbody tr[data-entry]")).to_have_count(11)
    tournament_page = page.url

    for given, expected in zip(EXAMPLE["rounds"], EXAMPLE["expected"]["rounds"], strict=True):
        page.goto(tournament_page)
        page.locator("#draw-form button").click()
        page.wait_for_url("**/t/round/*/")
        for number, seats in enumerate(expected["tables"], 1):
            table = page.locator(f'#draw .draw-table[data-table="{number}"]')
            assert (
                table.locator("tbody tr[data-player]").evaluate_all(
                    "rows => rows.map(r => r.dataset.player)"
                )
                == seats
            )
        expect(page.locator("#byes")).to_contain_text(expected["byes"][0])
        page.locator("#publish-form button").click()
        page.locator("#start-form button").click()
        expect(page.locator("#round-clock")).to_be_visible()
        round_ = Round.objects.get(tournament__club=club, number=expected["number"])
        for rt in round_.round_tables.select_related("table", "round__tournament"):
            settle_zero_sum(rt, given["results"])
        page.locator("#close-form button").click()
        expect(page.locator("#close-confirm")).to_be_visible()  # one tap closes nothing
        page.locator("#close-form button").click()
        expect(page.locator("#round-status")).to_have_text("lezárt")
        screenshot(page, f"hu-cup-round-{expected['number']}", full_page=True)

    page.goto(tournament_page)
    page.locator("#finish-form button").click()
    page.goto(url("tournament_standings", pk=round_.tournament_id))
    want = [row["id"] for row in EXAMPLE["expected"]["ranking"]]
    got = page.locator("tr[data-player]").evaluate_all("rows => rows.map(r => r.dataset.player)")
    assert got == want
    screenshot(page, "hu-cup-ranking", full_page=True)

    response = page.request.get(url("tournament_ranking_pdf", pk=round_.tournament_id))
    assert response.headers["content-type"] == "application/pdf"
    _reader, text = pdf_text(response.body())
    positions = [text.index(name) for name in want]
    assert positions == sorted(positions), "the PDF ranks the players as the screen does"
    assert verify_ledger().ok
