"""A tournament of two days on the director's phone (390x844) in real Chromium: the rounds
under their days, the next draw's day, the tournament's days and a round moved to another
day, with nothing scrolling sideways."""

from __future__ import annotations

import datetime

import pytest

from ledger.services import tournaments as tour
from ledger.tests import factories
from ledger.tests.e2e.conftest import log_in, screenshot, watch_csp
from ledger.tests.helpers import settle_zero_sum

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

PHONE = {"width": 390, "height": 844}
FIRST = datetime.date(2026, 11, 7)
SECOND = datetime.date(2026, 11, 8)


def test_a_two_day_tournament_on_the_directors_phone(browser, live_server):
    club = factories.make_club(slug="kranj", name="Tarok Kranj", game="slovenian_tarok")
    director = factories.make_member(club, "Director", role="admin", login=True)
    t = tour.tournament_create(
        club=club,
        name="Finale DP",
        date=FIRST,
        last_date=SECOND,
        game="slovenian_tarok",
        tournament_format="sl_dp",
        params={"rounds": 4},
    )
    names = ["Ana", "Bor", "Cene", "Dana", "Eva", "Franc", "Gal", "Hana", "Iva"]
    lines = "\n".join(f"{n},Kranj,{i + 1}" for i, n in enumerate(names))
    tour.entries_import(tournament=t, text="name,club,rank\n" + lines)
    for day in (FIRST, FIRST, SECOND):
        r = tour.round_start(
            round_=tour.round_publish(round_=tour.round_draw(tournament=t, day=day))
        )
        for rt in r.round_tables.select_related("table", "round__tournament"):
            settle_zero_sum(rt, dict(zip(rt.seats, (40, -10, -30), strict=True)))
        tour.round_close(round_=r)
    context = browser.new_context(
        viewport=PHONE, has_touch=True, locale="sl-SI", base_url=live_server.url
    )
    log_in(context, director.user, live_server.url)
    violations: list[str] = []
    page = context.new_page()
    watch_csp(page, violations)
    page.viewport_name = "390x844"
    page.goto(f"/c/kranj/t/{t.pk}/")
    assert page.locator(".round-day").count() == 2
    page.locator("#tournament-days summary").click()
    assert page.locator("#draw-form select[name=day]").input_value() == SECOND.isoformat()
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    screenshot(page, "tournament-days", full_page=True)
    page.click("#draw-form button[type=submit]")
    page.wait_for_selector("#day-form")
    assert page.locator("#round-day").count() == 1
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    screenshot(page, "tournament-round-day", full_page=True)
    context.close()
    assert violations == []
