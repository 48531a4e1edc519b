"""The evening on the club room's wall, in Chromium at 1920x1080 (a television across the room)."""

from __future__ import annotations

import datetime
import json

import pytest
from django.test import Client
from playwright.sync_api import expect

from ledger import services
from ledger.models import Member, Table
from ledger.tests import factories
from ledger.tests.conftest import load_example
from ledger.tests.e2e.conftest import ARTIFACTS, CUT_AT_THE_EDGE, watch_csp

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
    tables: list[tuple[Table, dict[str, str]]] = []
    for seated in seatings:
        table = services.table_open(evening=evening, members=[people[n] for n in seated])
        rename = dict(zip(("Anna", "Bo", "Carl"), seated, strict=True))
        for hand in E_HANDS[: 1 + len(tables)]:
            services.hand_record(table=table, record=renamed(hand, rename))
        tables.append((table, rename))

    client = Client()
    assert viewer.user is not None
    client.force_login(viewer.user)
    context = browser.new_context(
        viewport={"width": 1920, "height": 1080}, locale="da-DK", base_url=live_server.url
    )
    context.add_cookies(
        [{"name": "sessionid", "value": client.cookies["sessionid"].value, "url": live_server.url}]
    )
    violations: list[str] = []
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


# What of the evening wall is not whole inside the screen, or cut inside its box.
CUT = """() => {
  const out = [];
  const inside = (el, box) => {
    const r = el.getBoundingClientRect();
    return r.left >= box.left - 0.5 && r.right <= box.right + 0.5
      && r.top >= box.top - 0.5 && r.bottom <= box.bottom + 0.5;
  };
  const screen = {left: 0, top: 0, right: innerWidth, bottom: innerHeight};
  document.querySelectorAll('.wall-balances strong, .cup-points, #wall-ranking li strong')
    .forEach((el) => {
      if (el.offsetParent === null) return;  // on another page
      const box = el.closest('.wall-table, #wall-ranking-list').getBoundingClientRect();
      if (!inside(el, screen) || !inside(el, box)) out.push(`cut: ${el.textContent}`);
      if (el.scrollWidth > el.clientWidth + 1) out.push(`clipped: ${el.textContent}`);
    });
  const root = document.scrollingElement;
  if (root.scrollWidth > innerWidth || root.scrollHeight > innerHeight)
    out.push(`scrolls: ${root.scrollWidth}x${root.scrollHeight}`);
  return out;
}"""


def eight_tables():
    """Open an evening of eight tables of five and four members with names of up to 30
    characters; return the club, the evening, a member who watches and every seated name."""
    club = factories.make_club(slug="wall", name="Hjørring Tarokklub")
    factories.make_season(club)
    viewer = factories.make_member(club, "Væg", Member.Role.MEMBER, login=True)
    evening = services.evening_open(club=club, date=datetime.date(2026, 11, 5))
    everyone = []
    for number in range(8):
        seated = [
            factories.make_member(club, f"Spiller {number}{seat} Christoffersen-Kjærgaard"[:30])
            for seat in range(5 if number < 4 else 4)
        ]
        services.table_open(evening=evening, members=seated)
        everyone += [m.name for m in seated]
    return club, evening, viewer, everyone


def test_eight_tables_fit_the_wall(pages):
    """Eight tables of four and five with names of up to 30 characters fit 1920x1080 and
    1280x720 whole (every table shown, nothing to scroll, every balance and cup whole); the
    evening's ranking of 36 pages by itself, every member on exactly one of its pages."""
    club, evening, viewer, everyone = eight_tables()
    page = pages(viewer.user, width=1920, height=1080)
    page.clock.install()
    page.goto(f"/c/{club.slug}/evening/{evening.pk}/wall/")
    expect(page.locator(".wall-table")).to_have_count(8)
    for width, height in [(1920, 1080), (1280, 720)]:
        page.set_viewport_size({"width": width, "height": height})
        laid_elsewhere = page.locator(f'[data-pages]:not([data-laid-for="{width}x{height}"])')
        expect(laid_elsewhere).to_have_count(0)  # the pages are laid for this size
        expect(page.locator("#wall-tables")).to_have_attribute("data-page-count", "1")
        ARTIFACTS.mkdir(exist_ok=True)
        page.screenshot(path=str(ARTIFACTS / f"wall-8-tables-{width}x{height}.png"))
        ranking = page.locator("#wall-ranking-list")
        count = int(ranking.get_attribute("data-page-count"))
        first = int(ranking.get_attribute("data-page"))
        seen = []
        for turn in range(count):
            expect(ranking).to_have_attribute("data-page", str((first - 1 + turn) % count + 1))
            assert page.evaluate(CUT) == []
            seen += page.evaluate(
                "() => [...document.querySelectorAll('#wall-ranking li[data-member]')]"
                ".filter((el) => el.offsetParent !== null).map((el) => el.dataset.member)"
            )
            page.clock.run_for(10_000)
        assert sorted(seen) == sorted(everyone)


# What of the wall may not be cut on a phone (``CUT_AT_THE_EDGE``): a name, a balance, a cup
# or the heading.
CUT_ON_A_PHONE = (
    ".wall-head h1, .wall-balances li, .wall-balances .who, .cup-points, #wall-ranking li, "
    + "#wall-ranking .who"
)


def test_the_wall_on_a_phone(pages):
    """A member follows the evening's wall on a 390x844 phone: one column that scrolls down,
    never sideways; all eight tables and every member of the ranking shown (nothing pages
    away), every name whole, no balance cut."""
    club, evening, viewer, everyone = eight_tables()
    page = pages(viewer.user, width=390, height=844)
    page.goto(f"/c/{club.slug}/evening/{evening.pk}/wall/")
    expect(page.locator(".wall-table")).to_have_count(8)
    expect(page.locator('[data-pages]:not([data-laid-for="390x844"])')).to_have_count(0)
    assert page.locator(".off-page").count() == 0
    assert page.evaluate("document.scrollingElement.scrollWidth") <= 390
    assert page.evaluate(CUT_AT_THE_EDGE, CUT_ON_A_PHONE) == []
    shown = page.evaluate(
        "() => [...document.querySelectorAll('#wall-ranking li[data-member]')]"
        ".filter((el) => el.offsetParent !== null).map((el) => el.dataset.member)"
    )
    assert sorted(shown) == sorted(everyone)
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / "wall-390x844.png"), full_page=True)
