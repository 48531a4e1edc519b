"""The player's own page on a phone (390x844) in real Chromium: a member logs in, opens his
player page from Min side, sees his rating chart and the explained tables; axe-core clean;
nothing wider than the phone."""

from __future__ import annotations

import datetime

import pytest

from ledger.services import federation as fed
from ledger.tests.e2e.conftest import ARTIFACTS, log_in, overflowing, watch_csp
from ledger.tests.e2e.test_accessibility import RUN_AXE, TAGS, axe_source
from ledger.tests.factories import make_member
from ledger.tests.federation.test_ratings import played, world

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

PHONE = {"width": 390, "height": 844}


def test_a_member_reads_his_ratings_on_a_phone(browser, live_server):
    club, tzs, members = world(("Ana", "Bor", "Cene", "Dan"))
    anja = make_member(club, "Anja", login=True)
    members["Anja"] = anja
    for day, scores in (
        (1, {"Anja": 20, "Bor": 0, "Cene": -5, "Dan": -15}),
        (8, {"Anja": -10, "Bor": 30, "Cene": 5, "Ana": -25}),
        (15, {"Anja": 40, "Ana": 10, "Cene": -20, "Dan": -30}),
    ):
        played(club, members, datetime.date(2026, 10, day), scores, f"Pokal {day}")
    fed.rating_list_create(federation=tzs, name="Rating TZS")
    context = browser.new_context(
        viewport=PHONE, has_touch=True, locale="sl-SI", base_url=live_server.url
    )
    context.add_init_script(script=axe_source())
    log_in(context, anja.user, live_server.url)
    violations: list[str] = []
    page = context.new_page()
    watch_csp(page, violations)
    page.goto(f"/c/{club.slug}/me/")
    page.click("#my-player-link")
    page.wait_for_selector("#player-ratings svg")
    assert page.locator(".rating-changes tbody tr").count() == 3
    assert page.locator("#player-ratings figcaption").count() == 1
    assert page.locator(".player-results tbody tr").count() == 3
    assert overflowing(page) == []
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    assert page.evaluate(RUN_AXE, TAGS) == []
    page.screenshot(path=str(ARTIFACTS / "player-page-390x844.png"), full_page=True)
    context.close()
    assert violations == []
