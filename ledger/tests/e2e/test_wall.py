"""The evening on the club room's wall, in Chromium at 1920x1080 (a television across the room)."""

from __future__ import annotations

import datetime
import json

import pytest
from django.test import Client
from playwright.sync_api import expect

from ledger import services
from ledger.models import Member
from ledger.tests import factories
from ledger.tests.conftest import load_example
from ledger.tests.e2e.conftest import ARTIFACTS, watch_csp

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

E_HANDS = load_example("EVENING_E.evening.json")["hands"]


def renamed(record: dict, names: dict) -> dict:
    text = json.dumps(record)
    for old, new in names.items():
        text = text.replace(f'"{old}"', f'"{new}"')
    return json.loads(text)


def test_the_wall_at_1920x1080(browser, live_server):
    """Three tables and the ranking fit one 1920x1080 screen, with no navigation, and a hand
    recorded at a table reaches the wall by itself within the 5 s refresh."""
    club = factories.make_club(slug="wall", name="Hjørring Tarokklub")
    factories.make_season(club)
    names = ["Anna", "Bo", "Carl", "Dorte", "Erik", "Finn", "Gry", "Hans", "Ida", "Jens"]
    people = {n: factories.make_member(club, n) for n in names}
    viewer = factories.make_member(club, "Væg", Member.Role.MEMBER, login=True)
    evening = services.evening_open(club=club, date=datetime.date(2026, 11, 5))
    seatings = [("Anna", "Bo", "Carl"), ("Dorte", "Erik", "Finn"), ("Gry", "Hans", "Ida")]
    tables = []
    for seated in seatings:
        table = services.table_open(evening=evening, members=[people[n] for n in seated])
        rename = dict(zip(("Anna", "Bo", "Carl"), seated, strict=True))
        for hand in E_HANDS[: 1 + len(tables)]:
            services.hand_record(table=table, record=renamed(hand, rename))
        tables.append((table, rename))

    client = Client()
    client.force_login(viewer.user)
    context = browser.new_context(
        viewport={"width": 1920, "height": 1080}, locale="da-DK", base_url=live_server.url
    )
    context.add_cookies(
        [{"name": "sessionid", "value": client.cookies["sessionid"].value, "url": live_server.url}]
    )
    violations = []
    try:
        page = context.new_page()
        watch_csp(page, violations)
        page.goto(f"/c/{club.slug}/evening/{evening.pk}/wall/")
        expect(page.locator(".wall-table")).to_have_count(3)
        assert page.locator(".topbar").count() == 0
        assert page.locator("#wall-ranking li[data-member]").count() == 9
        ARTIFACTS.mkdir(exist_ok=True)
        page.screenshot(path=str(ARTIFACTS / "wall-1920x1080.png"))
        # Everything on one screen: nothing to scroll on the wall.
        assert page.evaluate("document.documentElement.scrollHeight") <= 1080
        # Readable from across the room: the ranking's names are large.
        size = page.evaluate(
            "parseFloat(getComputedStyle(document.querySelector('#wall-ranking li')).fontSize)"
        )
        assert size >= 36

        table, rename = tables[0]
        services.hand_record(table=table, record=renamed(E_HANDS[1], rename))
        expect(page.locator('.wall-table[data-table="1"] .wall-hands')).to_have_text(
            "2 spil", timeout=12_000
        )
        page.screenshot(path=str(ARTIFACTS / "wall-1920x1080-refreshed.png"))
    finally:
        context.close()
    assert violations == []
